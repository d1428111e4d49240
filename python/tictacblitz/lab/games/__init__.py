"""The lab's per-game adapters (issue 27, item 1): ``tictacblitz.lab.games.<game>``, a
module or a package whose ``__init__`` defines exactly one
:class:`~tictacblitz.lab.adapter.LabAdapter` subclass, found by
:func:`tictacblitz.lab.hooks.hooks_for`. Names starting with ``_`` are shared helpers.
Only the modules here may import a game's own modules (its rules, bots, native core)."""
