"""Peak memory of `sengoku validate` over N and 10×N decklists, per output format: flat in the files.

    .venv/bin/python benchmarks/validate_memory_bench.py [--decks 1000] [--seed 1]

Writes N and 10×N decklists (`validate_bench.make_decks`: Standard and Ultimate, most legal,
some breaking rules) into temporary folders, then runs `sengoku validate FOLDER -o FORMAT`
once per folder and format as a whole process, its report thrown away, and prints the peak
resident set size of each (the operating system's own figure for that process), side by
side with the growth per file. `html` is `--html FILE` (beside the text report). The floor is
`sengoku validate` of one decklist, what the process costs whatever it checks.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from proc_time import peak_rss  # noqa: E402  (a sibling script, not a package)
from validate_bench import make_decks  # noqa: E402

FORMATS = ["text", "json", "github", "junit", "sarif", "markdown", "html"]


def command(folder: Path, fmt: str, out: Path) -> list[str]:
    cmd = [sys.executable, "-m", "sengoku", "validate", str(folder)]
    return cmd + (["--html", str(out), "--force"] if fmt == "html" else ["-o", fmt])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=1000, help="N, the smaller run (default 1000); the other is 10×N")
    parser.add_argument("--seed", type=int, default=1, help="random seed for the generated decks")
    args = parser.parse_args()
    small, big = args.decks, 10 * args.decks
    mb = 1024 * 1024
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        folders = {}
        for n in (small, big):
            folders[n] = root / f"decks{n}"
            folders[n].mkdir()
            make_decks(folders[n], n, args.seed)
        one = next(folders[small].iterdir())
        floor, _ = peak_rss([sys.executable, "-m", "sengoku", "validate", str(one)])
        print(f"peak RSS of `sengoku validate` (MB); floor, one decklist: {floor / mb:.1f} MB")
        print(f"{'format':<10} {small:>8,} files {big:>8,} files   growth per file")
        for fmt in FORMATS:
            peaks = []
            for n in (small, big):
                peak, code = peak_rss(command(folders[n], fmt, root / "sheets.html"))
                if code not in (0, 1):
                    raise SystemExit(f"validate -o {fmt} on {n} files exited {code}")
                peaks.append(peak)
            growth = (peaks[1] - peaks[0]) / (big - small)
            print(f"{fmt:<10} {peaks[0] / mb:11.1f} MB {peaks[1] / mb:11.1f} MB   {growth:8.0f} bytes")


if __name__ == "__main__":
    main()
