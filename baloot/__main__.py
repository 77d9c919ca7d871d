"""``python -m baloot``: the command line (replay, bench, arena, play)."""

from .tools.cli import main

raise SystemExit(main())
