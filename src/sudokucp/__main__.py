"""`python -m sudokucp` runs the command line."""

import sys

from sudokucp.cli import main

sys.exit(main())
