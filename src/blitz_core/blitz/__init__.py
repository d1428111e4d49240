"""The native core of Tic Tac Blitz (docs/blitz.md R1-R23 on 64-bit bitboards).

Layers, bottom up: ``bitboard.pxd`` (windows, line tests, timeout scores), ``seeds.pxd``
(the salts of a match's streams), ``engine`` (the nogil rules engine: MatchState, time,
actions, events), ``match`` (its Python face: the ``Match`` class, the Rules bridge,
serialisation), ``kernels`` (batch
R10/R20 kernels), ``playout`` (random matches), ``bots`` (native policies and the
policy match loop), ``rollouts`` (batched stepping for RL). The Python vocabulary the
``Match`` class speaks is handed down by ``tictacblitz.games.blitz`` when it is
imported (``match.bind_vocabulary``).
"""
