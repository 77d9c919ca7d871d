"""``python -m baloot``: the command line (replay, bench)."""

from .tools.cli import main

raise SystemExit(main())
