"""``scripts/bench_floor.py``: the traffic-only benchmark answers every press and stores each action."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("extra", [[], ["--sync", "none", "--requests", "1"]])
def test_floor_answers_every_press(extra: list[str]) -> None:
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "bench_floor.py"), "--presses", "40",
                           "--rate", "400", *extra], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "presses answered          40 of 40" in done.stdout
    cpu = re.search(r"client CPU ms / press\s+([0-9.]+)", done.stdout)
    assert cpu is not None and float(cpu.group(1)) > 0
