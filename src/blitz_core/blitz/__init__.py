"""The native core of Tic Tac Blitz (docs/rules/blitz.md R1-R23 on 64-bit bitboards).

Layers, bottom up: ``bitboard.pxd`` (windows, line tests, timeout scores), ``engine``
(MatchState, time, actions, events, and the ``Match`` class), ``kernels`` (batch
R10/R20 kernels), ``playout`` (random matches), ``bots`` (native policies and the
policy match loop), ``rollouts`` (batched stepping for RL). The Python vocabulary the
``Match`` class speaks is handed down by ``tictacblitz.games.blitz`` when it is
imported (``engine.bind_vocabulary``).
"""
