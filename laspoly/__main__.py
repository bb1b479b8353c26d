"""``python -m laspoly`` runs the command line."""

import sys

from laspoly.cli import main

sys.exit(main())
