"""``python -m tictacblitz.loadtest``: the load tool's command (:func:`.run.main`)."""

import sys

from .run import main

sys.exit(main())
