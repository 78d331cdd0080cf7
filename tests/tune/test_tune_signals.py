"""Every stop signal ends a tune within a second or two and writes the best deck so far, as Ctrl-C does
(issue 33, classes 3 and 5): SIGTERM (what `timeout`, `kill` and a CI cancel send), SIGHUP (a closed
terminal), a second Ctrl-C a few milliseconds after the first, and Ctrl-C on a LocalCluster, which
says nothing of the cluster's own shutdown. Real processes, real signals."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from processes import gone_within, start_sengoku, wait_for_workers  # tests/processes.py
from sengoku.decklist.fmt import canonical_decklist

ROOT = Path(__file__).resolve().parents[2]
WEAKENED = ROOT / "decklists" / "tune" / "no-level4.toml"
LONG = ("--budget", "5000000")  # far more than a test waits for

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for the workers")


def _started(out: Path, *extra: str) -> subprocess.Popen[str]:
    p = start_sengoku("tune", str(WEAKENED), *LONG, "-o", str(out), *extra,
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if len(wait_for_workers(p, 2, 120)) < 2:
        p.kill()
        p.wait()
        pytest.skip("fewer than two worker processes started (one core?)")
    time.sleep(1.0)  # racing by now
    return p


def _ended_within(p: subprocess.Popen[str], seconds: float) -> tuple[str, str, float]:
    sent = time.monotonic()
    try:
        stdout, stderr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    took = time.monotonic() - sent
    assert took < seconds, f"still running {took:.1f} s after the signal"
    return stdout, stderr, took


def _kept_the_best_deck(out: Path, stdout: str, stderr: str) -> None:
    assert "Traceback" not in stderr and "Traceback" not in stdout
    assert "interrupted (Ctrl-C, SIGTERM or SIGHUP): the best deck so far" in stdout
    assert f"Final deck written to {out}" in stdout
    assert canonical_decklist(out.read_text(encoding="utf-8")).changed is False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_write_the_best_deck_and_end(tmp_path: Path, signum: int) -> None:
    out = tmp_path / "best.toml"
    p = _started(out, "--jobs", "2")
    workers = wait_for_workers(p, 2, 1)
    os.kill(p.pid, signum)  # the process only, as `kill` and `timeout` send it
    stdout, stderr, _ = _ended_within(p, 5)
    assert p.returncode == 128 + signum, stderr
    _kept_the_best_deck(out, stdout, stderr)
    assert gone_within(workers, 3) == []


def test_a_second_ctrl_c_right_after_the_first_still_writes_the_deck(tmp_path: Path) -> None:
    out = tmp_path / "best.toml"
    p = _started(out, "--jobs", "2")
    os.killpg(p.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
    time.sleep(0.01)
    os.killpg(p.pid, signal.SIGINT)
    stdout, stderr, _ = _ended_within(p, 5)
    assert p.returncode == 130, stderr
    _kept_the_best_deck(out, stdout, stderr)


@pytest.mark.skipif(shutil.which("timeout") is None, reason="needs the timeout command")
def test_timeout_ends_a_tune(tmp_path: Path) -> None:
    """`timeout 20 sengoku tune ...` was still running minutes later: its SIGTERM reaches the workers too."""
    out = tmp_path / "best.toml"
    started = time.monotonic()
    p = subprocess.Popen(["timeout", "8", sys.executable, "-m", "sengoku", "tune", str(WEAKENED), *LONG,
                          "--jobs", "2", "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)  # timeout and everything it started
            p.wait()
    assert time.monotonic() - started < 8 + 5
    assert p.returncode == 124, stderr  # timeout's own code: its command ended on the SIGTERM
    _kept_the_best_deck(out, stdout, stderr)


def test_ctrl_c_on_a_local_cluster_writes_the_deck_quietly(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    out = tmp_path / "best.toml"
    p = start_sengoku("tune", str(WEAKENED), *LONG, "-o", str(out), "--cluster", "local:2",
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if len(wait_for_workers(p, 2, 120)) < 2:
        p.kill()
        p.wait()
        pytest.skip("the LocalCluster did not start two workers")
    time.sleep(8.0)  # the workers up and playing
    os.killpg(p.pid, signal.SIGINT)
    stdout, stderr, _ = _ended_within(p, 15)
    assert p.returncode == 130, stderr
    _kept_the_best_deck(out, stdout, stderr)
    # stderr: nothing of the cluster's shutdown (it printed 70-90 lines of logs and tracebacks); a start-up
    # warning of Dask's own (a port another cluster on this machine holds) may come before it
    shutdown = stderr[stderr.index("change(s) accepted"):]
    assert len(shutdown.splitlines()) == 1, stderr
    assert not re.search(r"distributed\.[\w.]+ - (INFO|WARNING|ERROR)|Error|Exception", stderr), stderr
