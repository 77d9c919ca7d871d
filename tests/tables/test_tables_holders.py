"""A lease holder's process, and the proof that it is dead.

Real processes: a child that runs, one that is stopped, one killed and not yet
reaped (a zombie), one killed and reaped; a token with a live pid but another
start time (a reused pid); tokens of another host, boot or pid namespace, and
tokens without the identity (an older bot's). Only the dead on this machine are
proved dead; every doubt keeps the lease alive until it runs out.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from baloot.tables.holders import ProcessIdentity, holder_gone, identity_of, new_holder, this_process

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")


def _started(pid: int) -> int:
    text = Path(f"/proc/{pid}/stat").read_text()
    return int(text[text.rindex(")") + 2:].split()[19])


@pytest.fixture
def child() -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def token_of(proc: subprocess.Popen[bytes]) -> str:
    return new_holder(replace(this_process(), pid=proc.pid, started=_started(proc.pid)))


def test_the_token_names_this_process() -> None:
    me = this_process()
    assert me.pid == os.getpid() and me.started == _started(os.getpid()) and me.known
    token = new_holder()
    assert identity_of(token) == me
    assert new_holder() != token  # unique to the run: a random part
    assert not holder_gone(token)  # this process is alive


def test_a_running_or_stopped_process_is_not_gone(child: subprocess.Popen[bytes]) -> None:
    token = token_of(child)
    assert not holder_gone(token)
    os.kill(child.pid, signal.SIGSTOP)  # stalled, as under a debugger or a frozen VM: alive, may resume
    try:
        assert not holder_gone(token)
    finally:
        os.kill(child.pid, signal.SIGCONT)


def test_a_killed_process_is_gone_before_and_after_it_is_reaped(child: subprocess.Popen[bytes]) -> None:
    token = token_of(child)
    os.kill(child.pid, signal.SIGKILL)
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped: a zombie
    assert Path(f"/proc/{child.pid}/stat").exists()
    assert holder_gone(token)
    child.wait()
    assert not Path(f"/proc/{child.pid}/stat").exists()
    assert holder_gone(token)


def test_a_reused_pid_is_another_process(child: subprocess.Popen[bytes]) -> None:
    """The pid is alive, but started at another time than the holder: the holder is gone."""
    token = new_holder(replace(this_process(), pid=child.pid, started=_started(child.pid) - 1))
    assert holder_gone(token)


def test_no_proof_on_another_host_boot_or_pid_namespace(child: subprocess.Popen[bytes]) -> None:
    me = this_process()
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    dead = ProcessIdentity(me.host, child.pid, 12345, me.machine)
    assert holder_gone(new_holder(dead))
    boot, namespace = me.machine.split(":")
    for elsewhere in (replace(dead, host=me.host + "-other"),  # another machine: its pids are not ours
                      replace(dead, machine=f"00000000-0000-0000-0000-000000000000:{namespace}"),  # before a reboot
                      replace(dead, machine=f"{boot}:1"),  # another container's pid namespace
                      replace(dead, started=-1), replace(dead, machine=f"{boot}:-")):  # identity unknown
        assert not holder_gone(new_holder(elsewhere)), elsewhere
    for token in (f"{me.host}:{child.pid}:abcdef12", "A", "", f"{me.host}:x:y:z:{me.machine}"):  # older tokens
        assert identity_of(token) is None or not identity_of(token).known  # type: ignore[union-attr]
        assert not holder_gone(token), token


def test_the_start_time_survives_a_name_with_spaces_and_parentheses(tmp_path: Path) -> None:
    script = tmp_path / "x) (y z"
    script.write_text("import time; time.sleep(60)")
    link = tmp_path / "odd) name ("
    link.symlink_to(sys.executable)
    proc = subprocess.Popen([str(link), str(script)])
    try:
        assert not holder_gone(token_of(proc))
    finally:
        proc.kill()
        proc.wait()
