"""``python -m server.cli ARGS``: the ``duel`` command (the tests and ``duel serve`` as a child
process start it so)."""

import sys

from server.cli import main

sys.exit(main())
