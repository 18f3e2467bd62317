"""`python -m tapis ...`: the same as the `tapis` command."""

import sys

from tapis.cli import main

sys.exit(main())
