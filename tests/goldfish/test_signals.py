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

from processes import gone_within, start_sengoku, wait_for_workers  # tests/processes.py

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for the workers")


@pytest.mark.parametrize(("sig", "code", "to_group"), [
    (signal.SIGINT, 130, True),   # Ctrl-C: the terminal signals the whole foreground process group
    (signal.SIGTERM, 143, False),  # kill PID: the parent only
])
def test_a_signal_ends_goldfish_and_its_workers(sig: int, code: int, to_group: bool) -> None:
    p = start_sengoku("goldfish", "--runs", "5000000", "--jobs", "2", "--json",
                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        workers = wait_for_workers(p, 2, 60)
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
    assert gone_within(workers, 5) == []
