"""`--plot FILE`: the AP curve, board growth and win curve as a PNG or SVG (optional `plot` extra: matplotlib)."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sengoku.errors import DataError, SengokuError
from sengoku.writes import check_output, write_atomically

if TYPE_CHECKING:  # pragma: no cover
    from sengoku.goldfish.compare_result import CompareResult
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
    """Draw ap_main (mean, p10–p90 band), the board (allies, highest level) and the win curve per turn to `path`.

    A turn no game played (all were won before it) has no point on the first two panels.
    Written atomically with the umask's mode (`sengoku.writes`); an existing file is replaced
    only with `replace`.
    """
    image_format = plot_format(path)
    require_matplotlib()
    # deferred: matplotlib is an optional extra, and slow to import; only --plot needs it
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    turns = [row["turn"] for row in result.curve]
    fig, (ax_ap, ax_board, ax_win) = plt.subplots(1, 3, figsize=(15, 4.2), constrained_layout=True)
    for ax, measures in ((ax_ap, ("ap_main",)), (ax_board, ("allies", "highest_level"))):
        for m in measures:
            played = [row for row in result.curve if row[m] is not None]
            x = [row["turn"] for row in played]
            mean = [row[m]["mean"] for row in played]
            lo = [row[m]["p10"] for row in played]
            hi = [row[m]["p90"] for row in played]
            line = ax.plot(x, mean, marker="o", label=f"{m} mean")[0]
            ax.fill_between(x, lo, hi, alpha=0.2, color=line.get_color(), label=f"{m} p10–p90")
    by_turn = result.kill_turn["by_turn"]
    ax_win.bar(turns, [100 * row["fraction"] for row in by_turn], alpha=0.4, label="won on the turn")
    ax_win.plot(turns, [100 * row["cumulative"]["fraction"] for row in by_turn], marker="o",
                label="won by the end of the turn")
    ax_win.set_ylim(0, 100)
    ax_win.set_ylabel("% of games")
    for ax, title in ((ax_ap, "AP at the start of the Main Phase"),
                      (ax_board, "Board: allies in play, highest level"),
                      (ax_win, "Kill turn: games won")):
        ax.set_title(title)
        ax.set_xlabel("turn")
        ax.set_xticks(turns)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    deck = result.deck.get("name") or result.deck.get("path") or "deck"
    fig.suptitle(f"{deck} (Commander {result.commander['name']}) — {result.runs} runs, policy {result.policy}, "
                 f"going {result.going}, seed {result.seed}", fontsize="medium")

    _save(plt, fig, image_format, path, replace)


def save_compare_plot(result: CompareResult, path: Path | str, *, replace: bool = False) -> None:
    """Draw every compared deck's win curve (% of runs won by the end of each turn) on one chart to `path`."""
    image_format = plot_format(path)
    require_matplotlib()
    # deferred: matplotlib is an optional extra, and slow to import; only --plot needs it
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.8), constrained_layout=True)
    for k, (deck_path, deck) in enumerate(zip(result.paths, result.decks)):
        by_turn = deck.kill_turn["by_turn"]
        role = "baseline" if k == 0 else f"deck {k}"
        ax.plot([row["turn"] for row in by_turn], [100 * row["cumulative"]["fraction"] for row in by_turn],
                marker="o", label=f"[{k}] {role}: {deck.deck.get('name') or deck_path}")
    ax.set_ylim(0, 100)
    ax.set_xlabel("turn")
    ax.set_ylabel("% of runs won by the end of the turn")
    ax.set_xticks([row["turn"] for row in result.baseline.kill_turn["by_turn"]])
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    base = result.baseline
    ax.set_title(f"Win curves on the same {result.runs} runs — policy {base.policy}, going {base.going}, "
                 f"seed {base.seed}", fontsize="medium")
    _save(plt, fig, image_format, path, replace)


def _save(plt: Any, fig: Any, image_format: str, path: Path | str, replace: bool) -> None:
    buffer = io.BytesIO()
    try:
        # fixed metadata so the same result gives the same file
        metadata = {"Software": None} if image_format == "png" else {"Date": None}
        fig.savefig(buffer, format=image_format, dpi=110, metadata=metadata)
    finally:
        plt.close(fig)
    try:
        write_atomically(path, buffer.getvalue(), replace=replace)
    except DataError as exc:
        raise PlotError(str(exc)) from None
