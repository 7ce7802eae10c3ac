"""Line charts as the numbers a server-rendered SVG needs (no script, no CDN): a game record's
running totals after every deal, and a profile's rating history.

Running totals start at 0 before deal 1 and add each finished deal's entry from its result
(``penalties``: S13 penalty points, W14 points); the last point is the seat's total.
"""
from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 32
TICKS = 5


@dataclass(frozen=True)
class Line:
    """One line: its index (a seat position, or a game type's place in the list), its name, its
    values (x = 0..n) and the SVG ``points`` attribute."""

    seat: int
    name: str
    values: list[int]
    points: str


@dataclass(frozen=True)
class Tick:
    """A labelled grid line: ``value`` at SVG ``y`` (y axis) or ``x`` (x axis)."""

    value: int
    at: float


@dataclass(frozen=True)
class Chart:
    """Everything the chart template draws: size, plot box, lines, axis ticks."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    lines: list[Line]
    y_ticks: list[Tick]
    x_ticks: list[Tick]


def running_totals(results: list[dict], players: int) -> list[list[int]]:
    """Per seat, the totals after 0, 1, ..., n finished deals (``results`` in deal order)."""
    totals = [[0] for _ in range(players)]
    for result in results:
        for seat, points in enumerate(result["penalties"]):
            totals[seat].append(totals[seat][-1] + points)
    return totals


def _nice_step(span: int) -> int:
    raw = max(span, 1) / TICKS
    magnitude = 10 ** (len(str(int(raw))) - 1)
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)


def score_chart(names: list[str], results: list[dict]) -> Chart:
    """The chart of the running totals of seats ``names`` over ``results`` (each finished deal's
    result JSON, in deal order)."""
    return line_chart(names, running_totals(results, len(names)))


def line_chart(names: list[str], series: list[list[int]]) -> Chart:
    """A chart of one line per name: ``series[i]`` are line i's values at x = 0, 1, ... (lines may
    be of different lengths; the x axis spans the longest)."""
    values = [v for line in series for v in line]
    step = _nice_step(max(values) - min(values))
    low, high = (min(values) // step) * step, -(-max(values) // step) * step
    if high == low:
        high = low + step
    span = max(max(len(line) for line in series) - 1, 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(at: int) -> float:
        return round(LEFT + plot_w * at / span, 1)

    def y(value: int) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    lines = [Line(index, name, values, " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)))
             for index, (name, values) in enumerate(zip(names, series))]
    x_step = max(1, -(-span // 13))
    return Chart(WIDTH, HEIGHT, LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM, lines,
                 [Tick(v, y(v)) for v in range(low, high + 1, step)],
                 [Tick(i, x(i)) for i in range(0, span + 1, x_step)])
