"""The native core of Tic Tac Doh (rules D1-D9, docs/doh.md).

- ``engine``: the position in a few machine words (``engine.pxd``: the rules as inline
  nogil functions), the ``Position`` class, random games;
- ``solver``: exact negamax/alpha-beta over canonical positions, the native bots and the
  whole-match loop.

Native code only: nothing here imports ``tictacblitz``; the Python face is
``tictacblitz.games.doh``.
"""
