"""python -m osada.buildguide: see cli.py."""

import sys

from .cli import main

sys.exit(main())
