"""The load tool's per-game clients: ``<game>.py`` for a registered game defines exactly
one :class:`~tictacblitz.loadtest.client.LoadClient` subclass, found by
:func:`~tictacblitz.loadtest.client.client_class` (the lookup every layer uses; issue 27,
item 1). A game without a module here has no load clients."""
