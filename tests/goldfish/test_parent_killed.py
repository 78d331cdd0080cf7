"""Workers end when their parent is killed outright (SIGKILL): no clean-up runs, yet none plays on.

Real processes: `compare --jobs 2` (and `goldfish --jobs 2`) on millions of runs, the parent
killed once its two workers play; every worker must be gone within a few seconds, not at the
end of its chunk (minutes). The portable guard (the watching thread) is checked on its own too,
without the kernel's signal.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from sengoku.paths import data_dir

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for the workers")

DEFAULT = data_dir("decklists") / "default.toml"
NO_LEVEL4 = data_dir("decklists") / "compare" / "no-level4.toml"


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


def _gone_within(pids: list[int], seconds: float) -> list[int]:
    """Wait up to `seconds` for every pid to end; return those still running (then killed)."""
    deadline = time.monotonic() + seconds
    while any(_running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [p for p in pids if _running(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    return left


@pytest.mark.parametrize("command", [
    ["compare", str(DEFAULT), str(NO_LEVEL4), "--runs", "4000000", "--jobs", "2", "--json"],
    ["goldfish", "--runs", "10000000", "--jobs", "2", "--json"],
], ids=["compare", "goldfish"])
def test_workers_end_soon_after_their_parent_is_killed(command: list[str]) -> None:
    p = subprocess.Popen([sys.executable, "-m", "sengoku", *command],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(_children(p.pid)) < 2 and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _children(p.pid)
        if len(workers) < 2:
            pytest.skip("fewer than two worker processes started (one core?)")
        time.sleep(0.5)  # into their games
        os.kill(p.pid, signal.SIGKILL)
        p.wait(timeout=10)
        assert _gone_within(workers, 3.0) == []
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=10)
        for w in workers:
            if _running(w):
                os.kill(w, signal.SIGKILL)


def test_the_watching_thread_alone_ends_an_orphan(tmp_path) -> None:
    """Without the kernel's signal (other systems): the thread sees the new parent and ends the worker."""
    pid_file = tmp_path / "worker.pid"
    script = textwrap.dedent(f"""
        import os, sys, time
        from sengoku.goldfish.play import parent_watch
        parent_watch._kernel_signal = lambda: False  # the portable guard only
        me = os.getpid()
        if os.fork() == 0:
            parent_watch.end_with_parent(me)
            with open({str(pid_file)!r}, "w") as f:
                f.write(str(os.getpid()))
            while True:  # a worker busy in its chunk
                sum(range(1000))
        time.sleep(60)
    """)
    p = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    worker = 0
    try:
        deadline = time.monotonic() + 30
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline and p.poll() is None
            time.sleep(0.05)
        worker = int(pid_file.read_text())
        assert _running(worker)
        os.kill(p.pid, signal.SIGKILL)
        p.wait(timeout=10)
        assert _gone_within([worker], 3.0) == []
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=10)
        if worker and _running(worker):
            os.kill(worker, signal.SIGKILL)
