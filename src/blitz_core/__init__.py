"""blitz_core: the native cores of the tictacblitz games (Cython on bitboards).

Native code only: nothing here imports the Python package ``tictacblitz``.

- ``common/``: bit tricks (``bits.pxd``, ``bitops.h``) and the SplitMix64 stream
  (``rng.pxd``) shared by every game's core;
- ``blitz/``: Tic Tac Blitz (``engine``: the rules engine and ``Match``; ``kernels``,
  ``playout``, ``bots``, ``rollouts``).

Users import ``tictacblitz``, which re-exports what they need.
"""
