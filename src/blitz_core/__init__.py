"""blitz_core: the native core of tictacblitz (Cython on 64-bit bitboards).

Layers, bottom up: ``bitboard.pxd`` (bit tricks: windows, lines, timeout scores),
``engine`` (the rules engine: MatchState, time, actions, events, and the ``Match``
class), ``kernels`` (batch line/score kernels over NumPy arrays). Users import
``tictacblitz``, which re-exports what they need.
"""
