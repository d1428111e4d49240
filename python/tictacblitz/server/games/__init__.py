"""The server's per-game adapters: one package per registered game, ``<name>/``, holding
exactly one :class:`~tictacblitz.server.adapter.GameAdapter` subclass and its helpers
(docs/server.md, "Adapters"). Nothing else lives here: the interface and the lookup are
in :mod:`tictacblitz.server.adapter` (issue 27, item 1)."""
