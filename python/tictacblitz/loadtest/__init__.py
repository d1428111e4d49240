"""The load-test tool: many concurrent online matches of bot clients against the game
server through real WebSockets, optionally under attack (docs/server.md, "Load").

    python -m tictacblitz.loadtest --matches 100 --seconds 60 [--game rift] [--abuse]

A tool beside the server, not part of it (issue 27, item 4): it talks to a server only
through the public protocol and starts one as a subprocess (``tictacblitz.server.serve``);
the server never imports it. Generic parts: :mod:`.run` (the command and its report),
:mod:`.client` (what every game's client shares, and :func:`.client.client_class`),
:mod:`.cluster` (several server processes), :mod:`.procs` (the server, Redis and
attacker processes), :mod:`.transport` (the transport attacks). A game's clients are
its module ``games/<game>.py``: one subclass of :class:`.client.LoadClient`.
"""
