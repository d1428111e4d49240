"""The native core of Rift & Grid (rules G1-G17 on 9-bit sector masks).

``engine`` holds everything: the flat ``RiftState`` struct, the ``nogil`` turn
resolution (G6), legal targets and abilities as masks, the random and greedy policies,
the batch loop of whole games (``play_matches``) and ``Core``, the checking Python face
of one game. It imports nothing from ``tictacblitz``: the rules arrive as a tuple of
numbers (``tictacblitz.games.rift.rules.RiftRules.native_params``).
"""
