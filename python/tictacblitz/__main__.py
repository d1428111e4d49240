"""``python -m tictacblitz``: the command line (see :mod:`tictacblitz.cli`)."""

import sys

try:
    from .cli import main

    status = main()
except KeyboardInterrupt:
    # Ctrl-C before a command's own handler took over (while the imports ran): one line
    # and 130, as after a run (lab/edges.py), never a traceback.
    print("tictacblitz: interrupted before any work; nothing written", file=sys.stderr)
    status = 130
sys.exit(status)
