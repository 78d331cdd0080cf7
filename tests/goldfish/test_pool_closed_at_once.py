"""A pool closed as soon as it is opened ends, however slowly its workers start.

A tune that plays no game (`--max-changes 0`) opens its pool and closes it at once. Closing sends
each worker SIGTERM; a worker that had not yet run its initializer took it with the handler it
inherited from the parent, which (in a tune) only notes a signal, and lived on: the pool's end
then waited for it forever (a loaded machine: ten minutes, then the test's time-out). Here the
worker's start is made slow on purpose, in a real process that notes SIGTERM as the tune does.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import signal, time
    from sengoku.goldfish.play import pool

    noted = []
    signal.signal(signal.SIGTERM, lambda signum, frame: noted.append(signum))  # as a tune's stop handler
    started = pool._init_worker

    def slow_start(*args):
        time.sleep(1.0)  # a loaded machine: the pool is closed before the worker is set up
        started(*args)

    pool._init_worker = slow_start
    workers = pool.ProcessPool(2)
    workers.close()
    print("closed", noted)
""")


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask") or sys.platform == "win32", reason="POSIX signals")
def test_a_pool_closed_before_its_workers_are_set_up_ends() -> None:
    p = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail("the pool's end still waited for its workers after 60 s")
    assert p.returncode == 0, err
    assert out.strip() == "closed []"  # the parent noted no signal: the workers' SIGTERM was theirs
