"""Who holds a shard lease, and whether that process is provably dead.

A lease holder's token names the process that took it: host, pid, a random
part (unique to the run), the process's start time and the *machine* where
that pid means that process (the kernel's boot id and the pid namespace)::

    bot-1:4242:9f3c2a1b:123456:0b6e…-c2d1:4026531836

A process restarted at once after a crash (``Restart=always``) would otherwise
wait for its dead predecessor's lease to run out (``LEASE_SECONDS``, 30 s)
before its tables move again. :func:`holder_gone` lets it take the lease over
at once, but only on proof: the holder ran on this machine (same host, same
boot, same pid namespace, so its pid can be looked up here) and that process
is gone: no process has its pid, the pid now belongs to a process started at
another time (a reused pid), or it has exited and awaits its parent (a
zombie). A live holder (running, stopped, stalled) is never proved dead, nor
one on another host or in another container, nor a token without the identity
(an older bot's): those leases are taken only once they run out, as before.
"""

from __future__ import annotations

import os
import socket
import uuid
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

PROC: Final = Path("/proc")
_UNKNOWN: Final = "-"
_DEAD_STATES: Final = ("Z", "X", "x")  # zombie, dead: the process has exited


@dataclass(frozen=True, slots=True)
class ProcessIdentity:
    """A process as a lease holder's token names it."""

    host: str
    pid: int
    started: int  # clock ticks after boot (field 22 of /proc/<pid>/stat); -1 if unknown
    machine: str  # "<boot id>:<pid namespace>" where ``pid`` is looked up; "-" if unknown

    @property
    def known(self) -> bool:
        return self.started >= 0 and _UNKNOWN not in self.machine.split(":")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, start ticks) of a process from ``/proc/<pid>/stat``, or None if there is no such file."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2:].split()  # the name, in parentheses, may hold spaces
    return fields[0], int(fields[19])


def _machine() -> str:
    try:
        boot = (PROC / "sys" / "kernel" / "random" / "boot_id").read_text().strip()
    except OSError:
        boot = _UNKNOWN
    try:
        namespace = os.readlink(PROC / "self" / "ns" / "pid")  # "pid:[4026531836]"
        namespace = namespace[namespace.index("[") + 1:namespace.rindex("]")]
    except (OSError, ValueError):
        namespace = _UNKNOWN
    return f"{boot}:{namespace}"


def this_process() -> ProcessIdentity:
    """This process's identity (cached per pid: a forked child is a process of its own)."""
    return _identity(os.getpid())


@cache
def _identity(pid: int) -> ProcessIdentity:
    try:
        stat = _stat(pid)
    except (OSError, ValueError, IndexError):
        stat = None
    return ProcessIdentity(socket.gethostname(), pid, -1 if stat is None else stat[1], _machine())


def new_holder(identity: ProcessIdentity | None = None) -> str:
    """A token unique to this run of this process, readable in the database, naming its process."""
    me = identity or this_process()
    return f"{me.host}:{me.pid}:{uuid.uuid4().hex[:8]}:{me.started}:{me.machine}"


def identity_of(holder: str) -> ProcessIdentity | None:
    """The process a holder token names, or None (a token without it: an older bot's, a test's)."""
    parts = holder.rsplit(":", 5)
    if len(parts) != 6:
        return None
    host, pid, _run, started, boot, namespace = parts
    try:
        return ProcessIdentity(host, int(pid), int(started), f"{boot}:{namespace}")
    except ValueError:
        return None


def holder_gone(holder: str, *, me: ProcessIdentity | None = None) -> bool:
    """Whether the process of ``holder`` is provably dead (see the module's docstring); False when in doubt."""
    them = identity_of(holder)
    here = me or this_process()
    if them is None or not them.known or not here.known:
        return False
    if them.host != here.host or them.machine != here.machine:
        return False  # another host, boot or pid namespace: its pid means nothing here
    try:
        stat = _stat(them.pid)
    except (OSError, ValueError, IndexError):
        return False  # unreadable (hidden by hidepid, say): no proof
    if stat is None:
        try:
            os.kill(them.pid, 0)
        except ProcessLookupError:
            return True  # no process has that pid
        except OSError:
            return False
        return False  # it exists, but its /proc entry is hidden: no proof
    state, started = stat
    return started != them.started or state in _DEAD_STATES
