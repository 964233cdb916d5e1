"""An SVG chart of two score distributions, for ``regnum compare --plot``.

SVG is text: it needs no plotting library and no image codec, opens in every browser, and a
test can read back exactly what was drawn. The chart is a histogram of the final scores of
every seat, the two rulesets' bars side by side in each bin, as shares of their games so that
the heights compare even when one ruleset lost games to errors.
"""
from __future__ import annotations

from html import escape

WIDTH, HEIGHT = 720, 400
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 66, 60
COLOURS = ("#4472c4", "#ed7d31")


def _bins(values: list[int], count: int) -> tuple[int, int]:
    """(first, width) of `count` bins of whole numbers that hold every value."""
    low, high = min(values), max(values)
    width = max(1, -(-(high - low + 1) // count))
    return low, width


def score_histogram(title: str, labels: tuple[str, str], scores: tuple[list[int], list[int]], bins: int = 20) -> str:
    """The SVG text of the chart. `scores`: every final score of each ruleset (one per seat
    and game)."""
    values = [v for side in scores for v in side]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH / 2}" y="24" text-anchor="middle" font-size="15">{escape(title)}</text>']
    if not values:
        out.append(f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle">no finished game</text></svg>')
        return "\n".join(out)
    first, width = _bins(values, bins)
    count = (max(values) - first) // width + 1
    shares = []
    for side in scores:
        counts = [0] * count
        for v in side:
            counts[(v - first) // width] += 1
        shares.append([c / len(side) if side else 0.0 for c in counts])
    top = max(max(s) for s in shares) or 1.0
    slot = plot_w / count
    bar = slot * 0.4
    for i in range(count):
        low, high = first + i * width, first + (i + 1) * width - 1
        span = f"are {low}" if width == 1 else f"are {low}–{high}"
        for k, side in enumerate(shares):
            h = plot_h * side[i] / top
            x = LEFT + i * slot + slot * 0.1 + k * bar
            out.append(f'<rect class="bar{k}" x="{x:.1f}" y="{TOP + plot_h - h:.1f}" width="{bar:.1f}" '
                       f'height="{h:.1f}" fill="{COLOURS[k]}"><title>{escape(labels[k])}: '
                       f'{side[i]:.1%} of scores {span}</title></rect>')
        if count <= 12 or i % max(1, count // 10) == 0:
            out.append(f'<text x="{LEFT + (i + 0.5) * slot:.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">'
                       f'{low if width == 1 else f"{low}–{high}"}</text>')
    for j in range(5):   # the share axis, in five steps
        share = top * j / 4
        y = TOP + plot_h - plot_h * j / 4
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{share:.0%}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 18}" text-anchor="middle">final score (every seat)</text>')
    out.append(f'<text transform="translate(16 {TOP + plot_h / 2}) rotate(-90)" text-anchor="middle">'
               'share of scores</text>')
    for k, label in enumerate(labels):
        x = LEFT + 10 + k * 220
        out.append(f'<rect x="{x}" y="38" width="12" height="12" fill="{COLOURS[k]}"/>')
        out.append(f'<text x="{x + 18}" y="48">{escape(label)} ({len(scores[k])} scores)</text>')
    out.append("</svg>")
    return "\n".join(out)
