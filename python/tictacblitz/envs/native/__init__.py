"""What every game's native batched RL stepper shares (issue 28), in the envs layer since
issue 27 (item 1: no gymnasium under ``games/``): :mod:`.vector` (:class:`NativeVectorEnv`,
the typed base of a game's RL adapter in ``envs/games/<name>.py``), :mod:`.single` (one
game as a ``gymnasium.Env``), :mod:`.snapshots`, :mod:`.faces` (the faces an adapter
serves to :mod:`tictacblitz.envs`) and :mod:`.options` (the conventions every face
shares, the protocol envs' included)."""
