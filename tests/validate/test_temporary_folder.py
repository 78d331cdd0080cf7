"""A document report waits in the temporary folder until every file is checked: when that folder
cannot take it (full, or past a size limit), the error names the folder, not standard output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

resource = pytest.importorskip("resource")  # POSIX: a file-size limit stands in for a full disk

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 8_000  # bytes: less than what any of these reports spools for every decklist


def _small_files() -> None:
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


@pytest.mark.parametrize("report", ["json", "sarif", "junit", "markdown"])
def test_a_full_temporary_folder_is_named_as_what_failed(tmp_path: Path, report: str) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    # no .pyc written under the limit: Python would leave a cut one behind
    env = {**os.environ, "TMPDIR": str(temp), "SENGOKU_NO_CACHE": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-m", "sengoku", "validate", "decklists", "tests/decklists", "-o", report],
                          cwd=ROOT, env=env, preexec_fn=_small_files, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""  # no half document
    assert done.stderr == (f"error: {temp}: cannot write a temporary file: File too large (a report waits there "
                           "until every file is checked; TMPDIR names another folder)\n")
    assert list(temp.iterdir()) == []  # the spools are unnamed, gone with the process
