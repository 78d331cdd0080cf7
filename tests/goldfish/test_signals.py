"""Ctrl-C and SIGTERM during `goldfish --jobs 2`: exit 130 / 143, no traceback, no worker left.

Real processes and real signals, each step bounded in time: the simulation is long enough to
be interrupted (millions of runs), and is never waited on to finish.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for the workers")


def _children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return found


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize(("sig", "code", "to_group"), [
    (signal.SIGINT, 130, True),   # Ctrl-C: the terminal signals the whole foreground process group
    (signal.SIGTERM, 143, False),  # kill PID: the parent only
])
def test_a_signal_ends_goldfish_and_its_workers(sig: int, code: int, to_group: bool) -> None:
    p = subprocess.Popen([sys.executable, "-m", "sengoku", "goldfish", "--runs", "5000000", "--jobs", "2", "--json"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(_children(p.pid)) < 2 and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _children(p.pid)
        if len(workers) < 2:
            pytest.skip("fewer than two worker processes started (one core?)")
        time.sleep(0.3)  # let the workers get into their games
        if to_group:
            os.killpg(p.pid, sig)
        else:
            os.kill(p.pid, sig)
        _, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=10)
    assert p.returncode == code
    assert b"Traceback" not in err, err.decode()
    deadline = time.monotonic() + 5
    while any(_running(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [w for w in workers if _running(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert left == []
