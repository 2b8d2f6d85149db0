"""``python -m searchlab`` runs the command line."""

import sys

from searchlab.cli.main import main

sys.exit(main())
