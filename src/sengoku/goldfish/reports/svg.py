"""Charts as standalone SVG text, for the HTML report: lines with markers, a shaded band, bars.

No library and no script: the same data gives the same bytes, and the file needs nothing
from the network. Every chart carries a `<title>` and a `<desc>` (read by screen readers
through `aria-labelledby`), axis labels and a legend. Series differ by dash pattern and marker
shape as well as by colour (Okabe-Ito, safe for colour-blind readers), so a grey print reads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 560, 320
LEFT, RIGHT, TOP, BOTTOM = 62, 18, 44, 86  # plot margins: y labels left, x label and legend below
FONT = 14

# (colour, dash pattern, marker) per series index: never colour alone.
STYLES = (
    ("#0072B2", "", "circle"),
    ("#D55E00", "7 4", "square"),
    ("#009E73", "2 3", "triangle"),
    ("#CC79A7", "10 3 2 3", "diamond"),
    ("#000000", "1 4", "square"),
    ("#E69F00", "12 6", "triangle"),
)
LEGEND_ROW = 22  # height of one more row of legend when the entries do not fit in one
BAND_FILL = "#0072B2"
BAR_FILL, BAR_EDGE = "#9ecae1", "#08519c"


@dataclass(frozen=True)
class Line:
    """A series drawn as a line with a marker on each point; a y of None leaves a gap."""

    label: str
    ys: Sequence[float | None]
    style: int = 0


@dataclass(frozen=True)
class Band:
    """A shaded range between `lows` and `highs` (None: no range that x)."""

    label: str
    lows: Sequence[float | None]
    highs: Sequence[float | None]


@dataclass(frozen=True)
class Bars:
    """One bar per x."""

    label: str
    ys: Sequence[float]


def nice_top(value: float) -> tuple[float, float]:
    """Return (top of the y axis, tick step): a 1-2-5 step giving about 5 ticks above `value`."""
    if value <= 0:
        return 1.0, 0.2
    raw = value / 5
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return step * math.ceil(value / step - 1e-9), step


def _num(v: float) -> str:
    """A coordinate with at most one decimal (stable text for the same data)."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _tick(v: float) -> str:
    return f"{v:g}"


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    if kind == "square":
        return f'<rect x="{_num(x - 3.5)}" y="{_num(y - 3.5)}" width="7" height="7" fill="{colour}"/>'
    if kind == "diamond":
        return (f'<path d="M{_num(x)} {_num(y - 5)}L{_num(x + 5)} {_num(y)}L{_num(x)} {_num(y + 5)}'
                f'L{_num(x - 5)} {_num(y)}Z" fill="{colour}"/>')
    if kind == "triangle":
        return (f'<path d="M{_num(x)} {_num(y - 4.5)}L{_num(x + 4.5)} {_num(y + 3.5)}'
                f'L{_num(x - 4.5)} {_num(y + 3.5)}Z" fill="{colour}"/>')
    return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="3.5" fill="{colour}"/>'


def chart(chart_id: str, title: str, desc: str, *, xs: Sequence[int], x_label: str, y_label: str,
          lines: Sequence[Line] = (), band: Band | None = None, bars: Bars | None = None,
          y_max: float | None = None, y_suffix: str = "") -> str:
    """Return an `<svg>` element: x = `xs` (turns), y from 0; bars, then the band, then lines.

    `chart_id` must be unique in the page (it names the title and description). `y_max` fixes
    the axis top (100 for percentages); by default it is a round value above the data.
    """
    values = [v for s in lines for v in s.ys if v is not None]
    values += [v for v in (band.highs if band else ()) if v is not None]
    values += list(bars.ys) if bars else []
    top, step = nice_top(max(values, default=0)) if y_max is None else (y_max, y_max / 5)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(1, len(xs))

    def px(i: int) -> float:
        return LEFT + slot * (i + 0.5)

    def py(v: float) -> float:
        return TOP + plot_h * (1 - v / top)

    out = [f'<title id="{chart_id}-title">{escape(title)}</title>',
           f'<desc id="{chart_id}-desc">{escape(desc)}</desc>',
           f'<text x="{WIDTH / 2:g}" y="22" text-anchor="middle" font-size="16" font-weight="bold">{escape(title)}</text>']
    # grid and y axis
    n_ticks = round(top / step)
    for k in range(n_ticks + 1):
        v = k * step
        y = _num(py(v))
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}" stroke="#d9d9d9"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y}" dy="0.35em" text-anchor="end">{_tick(round(v, 6))}{y_suffix}</text>')
    out.append(f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{TOP + plot_h}" stroke="#333"/>')
    out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + plot_h}" y2="{TOP + plot_h}" stroke="#333"/>')
    for i, x in enumerate(xs):
        out.append(f'<text x="{_num(px(i))}" y="{TOP + plot_h + 17}" text-anchor="middle">{x}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2:g}" y="{TOP + plot_h + 36}" text-anchor="middle">{escape(x_label)}</text>')
    out.append(f'<text transform="translate(16 {TOP + plot_h / 2:g}) rotate(-90)" text-anchor="middle">'
               f'{escape(y_label)}</text>')

    legend: list[tuple[str, str]] = []  # (swatch markup at 0,0, label)
    if bars is not None:
        width = slot * 0.6
        for i, v in enumerate(bars.ys):
            out.append(f'<rect class="bar" x="{_num(px(i) - width / 2)}" y="{_num(py(v))}" width="{_num(width)}" '
                       f'height="{_num(py(0) - py(v))}" fill="{BAR_FILL}" stroke="{BAR_EDGE}"/>')
        legend.append((f'<rect x="0" y="-6" width="22" height="12" fill="{BAR_FILL}" stroke="{BAR_EDGE}"/>', bars.label))
    if band is not None:
        for run in _runs([(lo, hi) for lo, hi in zip(band.lows, band.highs)]):
            upper = " ".join(f"{_num(px(i))},{_num(py(hi))}" for i, (_, hi) in run)
            lower = " ".join(f"{_num(px(i))},{_num(py(lo))}" for i, (lo, _) in reversed(run))
            out.append(f'<polygon class="band" points="{upper} {lower}" fill="{BAND_FILL}" fill-opacity="0.18" '
                       f'stroke="{BAND_FILL}" stroke-opacity="0.5" stroke-width="1"/>')
        legend.append((f'<rect x="0" y="-6" width="22" height="12" fill="{BAND_FILL}" fill-opacity="0.18" '
                       f'stroke="{BAND_FILL}" stroke-opacity="0.5"/>', band.label))
    for line in lines:
        colour, dash, marker = STYLES[line.style % len(STYLES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        for run in _runs(list(line.ys)):
            points = " ".join(f"{_num(px(i))},{_num(py(v))}" for i, v in run)
            out.append(f'<polyline class="series" points="{points}" fill="none" stroke="{colour}" '
                       f'stroke-width="2.5"{dash_attr}/>')
            out.extend(_marker(marker, px(i), py(v), colour) for i, v in run)
        legend.append((f'<line x1="0" x2="22" y1="0" y2="0" stroke="{colour}" stroke-width="2.5"{dash_attr}/>'
                       + _marker(marker, 11, 0, colour), line.label))

    # The legend wraps into more rows (the chart grows taller) rather than run off the right edge.
    x, y = LEFT, HEIGHT - 18
    for swatch, label in legend:
        width = 44 + 7.8 * len(label)  # about the width of the label at this font size
        if x > LEFT and x + width - 16 > WIDTH:
            x, y = LEFT, y + LEGEND_ROW
        out.append(f'<g class="legend" transform="translate({_num(x)} {y})">{swatch}'
                   f'<text x="28" y="0" dy="0.35em">{escape(label)}</text></g>')
        x += width
    height = y + 18
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{chart_id}" width="{WIDTH}" '
            f'height="{height}" viewBox="0 0 {WIDTH} {height}" role="img" '
            f'aria-labelledby="{chart_id}-title {chart_id}-desc" font-size="{FONT}">']
    background = f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>'
    return "\n".join([*head, out[0], out[1], background, *out[2:], "</svg>"])


def _runs(values: list) -> list[list[tuple[int, object]]]:  # type: ignore[type-arg]
    """Split (index, value) pairs into runs of consecutive values that are not None (or pairs of None)."""
    runs: list[list[tuple[int, object]]] = [[]]
    for i, v in enumerate(values):
        missing = v is None or (isinstance(v, tuple) and None in v)
        if missing:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append((i, v))
    return [r for r in runs if r]
