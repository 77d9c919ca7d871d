"""scripts/sample_bot.py: the CPU-time sampler behind ``bench_tables.py --sample`` (CPU per press tooling)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


def sampler_module() -> Any:
    sys.path.insert(0, str(REPO / "scripts"))
    return importlib.import_module("sample_bot")


def busy(n: int) -> int:
    return sum(i * i for i in range(n))


def test_the_sampler_charges_cpu_to_the_stack_that_used_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = sampler_module()
    sampler = module.Sampler()
    sampler.start()
    try:
        for _ in range(40):
            busy(20_000)
    finally:
        out = tmp_path / "stacks.txt"
        sampler.write(str(out))
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines and all(line.rpartition(" ")[2].isdigit() for line in lines)
    busy_micros = sum(int(line.rpartition(" ")[2]) for line in lines if ":busy" in line.rpartition(" ")[0])
    total = sum(int(line.rpartition(" ")[2]) for line in lines)
    assert busy_micros > 0.5 * total  # nearly all of this test's CPU was in busy()
    module.summary(str(out), 5)
    printed = capsys.readouterr().out
    assert "total CPU of the main thread" in printed and "--- own" in printed and "busy" in printed
