"""SHA-256 of bytes, as hex: what names a checked file's bytes (`pass_cache`, the card database).

A small input is hashed by the interpreter's own SHA-256 module: importing `hashlib` loads
OpenSSL, about 11 million instructions, a twentieth of `sengoku formats`' start-up. A big one
(a card database of thousands of cards) is hashed by `hashlib`, whose OpenSSL code is faster
per byte. Both give the same digest.
"""

from __future__ import annotations

from typing import Any

_SMALL = 1_000_000  # bytes: below this the built-in module is used


def _builtin() -> Any:
    # deferred: which module holds it depends on the interpreter (a function, so each is tried in turn)
    try:  # CPython 3.11
        from _sha256 import sha256
    except ImportError:
        try:  # CPython 3.12 and later
            from _sha2 import sha256  # type: ignore[no-redef]
        except ImportError:  # another interpreter
            from hashlib import sha256  # type: ignore[assignment]
    return sha256


_small_sha256 = _builtin()


def sha256_hex(data: bytes) -> str:
    """Return the SHA-256 of `data` as 64 hex digits."""
    if len(data) < _SMALL:
        return str(_small_sha256(data).hexdigest())
    import hashlib  # deferred: OpenSSL's start-up, paid only for a big input

    return hashlib.sha256(data).hexdigest()
