"""`--plot FILE`: the AP curve and board growth as a PNG or SVG (optional `plot` extra: matplotlib)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from sengoku.errors import DataError, SengokuError
from sengoku.writes import check_output, write_atomically

if TYPE_CHECKING:  # pragma: no cover
    from sengoku.goldfish.result import GoldfishResult

FORMATS = {".png": "png", ".svg": "svg"}


class PlotError(SengokuError):
    """A plot that cannot be drawn: matplotlib missing, unknown file type, unwritable file."""


def plot_format(path: Path | str) -> str:
    """Return 'png' or 'svg' from the file name; refuse anything else."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise PlotError(f"{path}: --plot writes .png or .svg files, not {suffix or 'a file without a suffix'!r}")
    return FORMATS[suffix]


def require_matplotlib() -> None:
    """Fail early, before a long simulation, when the plot extra is not installed."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise PlotError("--plot needs matplotlib, which is not installed; "
                        "install the plot extra: pip install 'sengoku[plot]'")


def check_plot_path(path: Path | str, *, replace: bool) -> None:
    """Refuse a plot path before the simulation: not .png/.svg, not a regular file, an existing
    file without --force, no matplotlib."""
    plot_format(path)
    try:
        check_output(path, replace=replace)
    except DataError as exc:
        raise PlotError(str(exc)) from None
    require_matplotlib()


def save_plot(result: GoldfishResult, path: Path | str, *, replace: bool = False) -> None:
    """Draw ap_main (mean, p10–p90 band) and the board (allies, highest level) per turn to `path`.

    Written atomically with the umask's mode (`sengoku.writes`); an existing file is replaced
    only with `replace`.
    """
    fmt = plot_format(path)
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    turns = [row["turn"] for row in result.curve]
    fig, (ax_ap, ax_board) = plt.subplots(1, 2, figsize=(11, 4.2), constrained_layout=True)
    for ax, measures, title in (
        (ax_ap, ("ap_main",), "AP at the start of the Main Phase"),
        (ax_board, ("allies", "highest_level"), "Board: allies in play, highest level"),
    ):
        for m in measures:
            mean = [row[m]["mean"] for row in result.curve]
            lo = [row[m]["p10"] for row in result.curve]
            hi = [row[m]["p90"] for row in result.curve]
            line = ax.plot(turns, mean, marker="o", label=f"{m} mean")[0]
            ax.fill_between(turns, lo, hi, alpha=0.2, color=line.get_color(), label=f"{m} p10–p90")
        ax.set_title(title)
        ax.set_xlabel("turn")
        ax.set_xticks(turns)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    deck = result.deck.get("name") or result.deck.get("path") or "deck"
    fig.suptitle(f"{deck} (Commander {result.commander['name']}) — {result.runs} runs, policy {result.policy}, "
                 f"going {result.going}, seed {result.seed}", fontsize="medium")

    buffer = io.BytesIO()
    try:
        # fixed metadata so the same result gives the same file
        fig.savefig(buffer, format=fmt, dpi=110, metadata={"Software": None} if fmt == "png" else {"Date": None})
    finally:
        plt.close(fig)
    try:
        write_atomically(path, buffer.getvalue(), replace=replace)
    except DataError as exc:
        raise PlotError(str(exc)) from None
