"""`sengoku.digests`: the built-in SHA-256 for small inputs and hashlib's for big ones agree."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from sengoku.digests import _SMALL, sha256_hex


def test_the_standard_test_vectors() -> None:
    # FIPS 180-2, appendix B.1 and B.2
    assert sha256_hex(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == (
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")


def test_both_sides_of_the_size_threshold_give_hashlibs_digest() -> None:
    for size in (0, _SMALL - 1, _SMALL, _SMALL + 1):
        data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
        assert sha256_hex(data) == hashlib.sha256(data).hexdigest()


def test_a_small_digest_does_not_load_openssl() -> None:
    code = "import sys; from sengoku.digests import sha256_hex; sha256_hex(b'x'); print('hashlib' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
