"""`python -m reprobe` runs the command-line interface."""

import sys

from reprobe.cli import main

sys.exit(main())
