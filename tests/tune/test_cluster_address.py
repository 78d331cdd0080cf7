"""`--cluster tcp://HOST:PORT` trusts no answer: each wrong server is one message naming --cluster, exit 2, in time.

Each server is started here on 127.0.0.1 (a socket that accepts and stays silent, one that
sends garbage, one that sends a malformed Dask frame, one that speaks HTTP, a closed port), and
`sengoku tune` runs in a process of its own, bounded by `subprocess.run(timeout=...)`, with
Dask's connect time-out set short (`DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT`). Before these
fixes the silent server hung the tune, garbage and HTTP gave a MemoryError traceback, the
malformed frame a struct.error, tls:// and ucx:// a TypeError, and a refused connection took 21 s.
"""

from __future__ import annotations

import os
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

WEAKENED = Path(__file__).resolve().parents[2] / "decklists" / "tune" / "no-level4.toml"

try:
    import distributed  # noqa: F401
except ImportError:
    if os.environ.get("SENGOKU_REQUIRE_CLUSTER") == "1":  # as tests/tune/conftest.py: CI requires the extra
        raise
    pytest.skip("dask.distributed is not installed (the optional cluster extra)", allow_module_level=True)

TIMEOUT = 3  # seconds: Dask's connect time-out in these runs
LIMIT = 90  # seconds: no run here may take longer (a hang fails the test instead of stalling the suite)


def _tune(address: str, timeout: int = TIMEOUT) -> tuple[subprocess.CompletedProcess[str], float]:
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": f"{timeout}s"}
    began = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "sengoku", "tune", str(WEAKENED), "--budget", "10", "--check", "0",
                           "--cluster", address], capture_output=True, text=True, timeout=LIMIT, env=env)
    return proc, time.monotonic() - began


def _one_message(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --cluster: "), proc.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _server(answer: Callable[[socket.socket], None]) -> Iterator[str]:
    """Listen on 127.0.0.1; `answer` each connection (then keep it open until the end); yield the address."""
    listener = socket.create_server(("127.0.0.1", 0))
    kept: list[socket.socket] = []

    def loop() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            kept.append(conn)
            try:
                answer(conn)
            except OSError:
                pass

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()
        for conn in kept:
            conn.close()


@pytest.fixture
def silent() -> Iterator[str]:
    yield from _server(lambda conn: None)


@pytest.fixture
def garbage() -> Iterator[str]:
    yield from _server(lambda conn: conn.sendall(b"\x01\x02 this is not a Dask scheduler \xff" * 4))


@pytest.fixture
def malformed() -> Iterator[str]:
    # a frame of 5 bytes, where Dask's frames start with a count of frames and their lengths (8 bytes each)
    yield from _server(lambda conn: conn.sendall(struct.pack("<Q", 5) + b"\x03\x00\x00\x00\x00"))


@pytest.fixture
def http() -> Iterator[str]:
    def answer(conn: socket.socket) -> None:
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nBad Request")

    yield from _server(answer)


def test_a_server_that_accepts_and_never_answers_times_out(silent: str) -> None:
    proc, took = _tune(silent)
    _one_message(proc, silent, f"within {TIMEOUT} s")
    assert took < LIMIT


def test_garbage_is_not_read_as_a_length_to_allocate(garbage: str) -> None:
    proc, _ = _tune(garbage)
    _one_message(proc, garbage, "did not answer as a Dask scheduler")
    assert "MemoryError" not in proc.stderr


def test_a_malformed_frame_is_a_message(malformed: str) -> None:
    proc, _ = _tune(malformed)
    _one_message(proc, malformed, "malformed greeting")


def test_an_http_server_is_named(http: str) -> None:
    proc, _ = _tune(http)
    _one_message(proc, http, "HTTP server", "dashboard")


@pytest.mark.parametrize("scheme", ["tls", "ucx", "inproc"])
def test_other_schemes_are_refused_by_name(scheme: str) -> None:
    proc, _ = _tune(f"{scheme}://127.0.0.1:8786")
    _one_message(proc, f"{scheme}://", "tcp://HOST:PORT")


@pytest.mark.parametrize("address", ["tcp://127.0.0.1", "tcp://127.0.0.1:99999", "tcp://:8786"])
def test_an_address_without_a_port_is_refused(address: str) -> None:
    proc, _ = _tune(address)
    _one_message(proc, "is not tcp://HOST:PORT")


def test_a_refused_connection_is_reported_at_once() -> None:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]  # closed at the end of this block: nothing listens there then
    # Dask's client would retry a refused connection until its time-out (here 60 s); sengoku says so at once.
    proc, took = _tune(f"tcp://127.0.0.1:{port}", timeout=60)
    _one_message(proc, f"tcp://127.0.0.1:{port}", "connection refused")
    assert took < 40


def test_a_dask_worker_is_not_taken_for_a_scheduler(dask_scheduler: str) -> None:
    from dask.distributed import Client

    with Client(dask_scheduler) as client:
        worker = next(iter(client.scheduler_info()["workers"]))
    proc, _ = _tune(worker)
    _one_message(proc, worker)
