"""``python -m baloot replay`` at the command line's edges (R10): how the record is read and its JSON printed.

The record's own checks are tested elsewhere (test_engine_records, test_differential); these check that the
same bytes get the same verdict from a file and from standard input, that a huge input is refused rather
than read whole, and that printing never ends in a traceback (a closed pipe, a console that cannot show
the record's text).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from baloot.engine.errors import MESSAGE_LIMIT, RecordError
from baloot.engine.records import replay_text
from baloot.tools import cli

ROOT = Path(__file__).resolve().parents[2]
VALID = b'{"format": "baloot-game/1", "hands": []}'


def run(args: list[str], *, stdin: bytes | None = None, **env: str) -> subprocess.CompletedProcess[bytes]:
    full = {**os.environ, "LC_ALL": "C", "PYTHONIOENCODING": "", **env}  # a plain console: not UTF-8
    return subprocess.run([sys.executable, "-m", "baloot", "replay", *args], cwd=ROOT, input=stdin,
                          capture_output=True, timeout=60, check=False, env=full)


def test_the_same_bytes_get_the_same_verdict_from_a_file_and_from_standard_input(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"format": "baloot-game/1", "hands": [], "note": "caf\xe9"}')
    by_file = run([str(bad)])
    by_stdin = run(["-"], stdin=bad.read_bytes())
    for done in (by_file, by_stdin):
        assert done.returncode == 1 and done.stderr == b""
        error = json.loads(done.stdout)["error"]
        assert error["hand"] is None and "not UTF-8 text (byte 0xe9 at offset 53)" in error["message"]
    assert "standard input" in json.loads(by_stdin.stdout)["error"]["message"]
    good = run(["-"], stdin=VALID)
    assert good.returncode == 0 and json.loads(good.stdout) == json.loads(run([str(_write(tmp_path, VALID))]).stdout)


def test_a_console_that_cannot_show_the_text_still_gets_the_json(tmp_path: Path) -> None:
    record = _write(tmp_path, '{"format": "سوا", "hands": []}'.encode())
    done = run([str(record)], PYTHONIOENCODING="cp1252")
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    assert "'سوا'" in json.loads(done.stdout.decode("utf-8"))["error"]["message"]  # JSON is UTF-8 (RFC 8259)


def test_a_reader_that_stops_early_is_no_error(tmp_path: Path) -> None:
    record = _write(tmp_path, VALID)
    proc = subprocess.Popen([sys.executable, "-m", "baloot", "replay", str(record)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # `| head -c0`: nobody reads what it prints
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in proc.stderr.read()
    proc.stderr.close()


def test_a_huge_input_is_refused_without_being_read_whole(monkeypatch: pytest.MonkeyPatch,
                                                          capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    monkeypatch.setattr(cli, "RECORD_LIMIT", 1000)
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b" " * 5000)))
    assert cli.main(["replay", "-"]) == 1
    assert json.loads(capsysbinary.readouterr().out)["error"]["message"] == (
        "cannot read standard input: a record is at most 0 MiB")
    if Path("/dev/zero").exists():  # endless: only the limit ends the read
        assert cli.main(["replay", "/dev/zero"]) == 1
        assert "a record is at most" in json.loads(capsysbinary.readouterr().out)["error"]["message"]


def test_a_number_with_too_many_digits_is_named_and_a_quoted_value_is_cut() -> None:
    code, out = replay_text('{"format": "baloot-game/1", "hands": [], "x": ' + "9" * 5000 + "}")
    assert code == 1 and out["error"]["message"] == "not valid JSON (a number has too many digits)"
    code, out = replay_text("[" * 100_000)
    assert code == 1 and out["error"]["message"].startswith("not valid JSON")
    code, out = replay_text(json.dumps({"format": "x" * 100_000, "hands": []}))
    assert code == 1 and len(out["error"]["message"]) == MESSAGE_LIMIT and out["error"]["message"].endswith("…")
    assert RecordError("short", 1, 2).to_json() == {"error": {"hand": 1, "action": 2, "message": "short"}}


def _write(folder: Path, data: bytes) -> Path:
    path = folder / f"record-{len(list(folder.iterdir()))}.json"
    path.write_bytes(data)
    return path
