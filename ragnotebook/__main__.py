"""``python -m ragnotebook``: the command line (see :mod:`ragnotebook.cli`)."""

from ragnotebook.cli import main

raise SystemExit(main())
