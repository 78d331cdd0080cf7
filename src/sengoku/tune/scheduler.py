"""`--cluster tcp://HOST:PORT`: make sure a Dask scheduler answers there before Dask's client is trusted with it.

Dask's client trusts what it reads: it waits without a time-out for the greeting that opens
every connection (a server that accepts and stays silent hangs it), reads the first 8 bytes as a
length and allocates that much (an HTTP server's `HTTP/1.1` asks for exabytes: a MemoryError),
and reports a malformed frame as a `struct.error`. So sengoku greets the address first itself,
on a plain socket, within the time-out, as Dask's own client would: it sends the client's
greeting and reads the scheduler's, at most `GREETING_BYTES`, and checks that it is one (a
msgpack map with the `compression` and `python` entries). Every failure is a `DataError` naming
`--cluster` and the address; a refused connection is reported at once (Dask would retry until
the time-out).

The time-out is Dask's own connect time-out (`distributed.comm.timeouts.connect`, settable with
`DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT`), and covers the greeting too.
"""

from __future__ import annotations

import pickle
import socket
import struct
import sys
import time
from typing import Any

from sengoku.errors import DataError

GREETING_BYTES = 64 * 1024  # a scheduler's greeting is about 60 bytes
_LENGTH = struct.Struct("<Q")  # Dask's TCP frames: a little-endian 8-byte length first


def connect_timeout() -> float:
    """Return Dask's connect time-out in seconds (`distributed.comm.timeouts.connect`)."""
    import dask.config  # deferred: the cluster extra
    from dask.utils import parse_timedelta

    return float(parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), default="seconds"))


def scheduler_address(address: str) -> tuple[str, int]:
    """Return (host, port) of `tcp://HOST:PORT` (or `HOST:PORT`, Dask's default scheme); DataError otherwise."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme.lower() != "tcp":
        raise DataError("--cluster", f"{address!r}: sengoku reaches a Dask scheduler by tcp://HOST:PORT (or runs "
                        f"its own with local:N); {scheme}:// would need settings sengoku does not pass "
                        "(such as TLS certificates)")
    host, colon, port = rest.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host  # [::1]:8786
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise DataError("--cluster", f"{address!r} is not tcp://HOST:PORT (a scheduler's host and port, such as "
                        "tcp://10.0.0.5:8786), nor local:N")
    return host, int(port)


def greeting() -> bytes:
    """Return the greeting Dask's client opens a connection with, framed as on the wire."""
    # deferred: the cluster extra
    from distributed.protocol import dumps
    from distributed.protocol.utils import pack_frames

    info = {"compression": None, "python": tuple(sys.version_info[:3]), "pickle-protocol": pickle.HIGHEST_PROTOCOL}
    body = pack_frames(dumps(info))
    return _LENGTH.pack(len(body)) + body


def _read(conn: socket.socket, n: int, deadline: float, what: str, address: str) -> bytes:
    data = b""
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout
        conn.settimeout(left)
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise DataError("--cluster", f"{address} closed the connection before {what}: not a Dask scheduler")
        data += chunk
        if data.startswith(b"HTTP/"):
            raise DataError("--cluster", f"an HTTP server answers at {address} (the dashboard's port?), not a Dask "
                            "scheduler (by default on port 8786)")
    return data


def _decode(body: bytes) -> Any:
    from distributed.protocol import loads  # deferred: the cluster extra
    from distributed.protocol.utils import unpack_frames

    return loads(unpack_frames(body))


def check_scheduler(address: str, timeout: float | None = None) -> None:
    """Greet `address` as Dask's client would; return when a Dask scheduler (or another Dask server) greets back.

    Raise DataError naming `--cluster` when nothing listens there, when it does not answer
    within `timeout` seconds (default: Dask's connect time-out), or when its answer is not a
    Dask greeting.
    """
    host, port = scheduler_address(address)
    timeout = connect_timeout() if timeout is None else timeout
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            conn.sendall(greeting())
            (length,) = _LENGTH.unpack(_read(conn, _LENGTH.size, deadline, "its greeting", address))
            if length > GREETING_BYTES:
                raise DataError("--cluster", f"{address} did not answer as a Dask scheduler: its first message "
                                f"claims {length:,} bytes (a scheduler's greeting is under {GREETING_BYTES:,})")
            body = _read(conn, length, deadline, "the end of its greeting", address)
    except ConnectionRefusedError:
        raise DataError("--cluster", f"nothing listens at {address} (connection refused): is the Dask "
                        "scheduler running, on that host and port?") from None
    except (socket.timeout, TimeoutError):
        raise DataError("--cluster", f"{address} did not greet sengoku as a Dask scheduler would within "
                        f"{timeout:g} s (Dask's distributed.comm.timeouts.connect): not a scheduler, or "
                        "out of reach") from None
    except socket.gaierror as exc:
        raise DataError("--cluster", f"cannot find the host of {address}: {exc.strerror or exc}") from None
    except OSError as exc:
        raise DataError("--cluster", f"cannot reach {address}: {exc.strerror or exc}") from None
    try:
        info = _decode(body)
    except Exception as exc:  # noqa: BLE001 - any malformed answer is the same finding
        raise DataError("--cluster", f"{address} did not answer as a Dask scheduler: a malformed greeting "
                        f"({type(exc).__name__})") from None
    if not isinstance(info, dict) or "python" not in info or "compression" not in info:
        raise DataError("--cluster", f"{address} did not answer as a Dask scheduler: its greeting is not Dask's")
