"""``python -m baloot``: the command line (replay, bench)."""

from .cli import main

raise SystemExit(main())
