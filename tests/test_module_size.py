"""No module under src/ is over 500 lines: a module holds one job, and a reader can hold it whole.

The exceptions are listed by path with what removes them; the list can only shrink: an entry
whose file is gone, or now short enough, fails the test until it is dropped.
"""

from __future__ import annotations

from pathlib import Path

import sengoku

SRC = Path(sengoku.__file__).resolve().parent
MOST = 500
WAITING: dict[str, str] = {}  # path under src/sengoku -> what removes it (none left)


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def too_long(src: Path, most: int) -> dict[str, int]:
    """Return the modules under `src` over `most` lines, by path under `src`."""
    return {str(p.relative_to(src)): n for p in sorted(src.rglob("*.py")) if (n := lines(p)) > most}


def test_no_module_is_over_500_lines() -> None:
    over = {path: n for path, n in too_long(SRC, MOST).items() if path not in WAITING}
    assert over == {}, f"split these by job (each module one job, at most {MOST} lines)"


def stale(src: Path, waiting: dict[str, str], most: int) -> list[str]:
    """Return the exceptions whose module is gone, or no longer over `most` lines."""
    return [path for path in waiting if not (src / path).is_file() or lines(src / path) <= most]


def test_every_waiting_exception_still_needs_its_place() -> None:
    assert stale(SRC, WAITING, MOST) == [], "gone or short now: drop it from WAITING"


def test_the_count_finds_a_long_module(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * 501)
    (tmp_path / "pkg" / "short.py").write_text("x = 1\n" * 500)
    assert too_long(tmp_path, MOST) == {"pkg/long.py": 501}
    waiting = {"pkg/long.py": "why", "pkg/short.py": "why", "pkg/gone.py": "why"}
    assert stale(tmp_path, waiting, MOST) == ["pkg/short.py", "pkg/gone.py"]
