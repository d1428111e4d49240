"""``python -m tictacblitz``: the command line (see :mod:`tictacblitz.cli`)."""

import sys

from .cli import main

sys.exit(main())
