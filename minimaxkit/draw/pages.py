"""Static report pages: a page of sections, tables and bar charts as inline SVG, with no script
and nothing loaded from elsewhere, so a saved copy reads offline. Every text given is escaped;
only what is passed as :class:`Raw` goes in as it is.

>>> chart = bar_chart([("0", 2), ("7", 5)], title="points", x_label="points", y_label="students")
>>> chart.startswith("<svg") and 'role="img"' in chart and "0 points: 2 students" in chart
True
>>> table(["who"], [["<b>"]]).count("&lt;b&gt;"), table(["who"], [[Raw("<b>")]]).count("<b>")
(1, 1)
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from .style import OKABE_ITO

__all__ = ["Raw", "esc", "table", "bar_chart", "page"]

STYLE = ("body{font-family:sans-serif;color:#111;max-width:68rem;margin:1rem auto;"
         "padding:0 1rem;line-height:1.4}table{border-collapse:collapse;margin:.5rem 0}"
         "th,td{border:1px solid #888;padding:.2rem .5rem;text-align:left;vertical-align:top}"
         "figure{margin:.5rem 0}figcaption{font-size:.9rem}img{max-width:100%}")


class Raw(str):
    """Markup made here (a table, a chart, a picture): put in a page as it is."""


def esc(x: Any) -> str:
    """``x`` as HTML text, unless it is :class:`Raw`."""
    return x if isinstance(x, Raw) else html.escape(str(x), quote=True)


def table(headers: Sequence[Any], rows: Sequence[Sequence[Any]], *, caption: str = "") -> Raw:
    """A table, every cell escaped (but :class:`Raw` ones)."""
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return Raw(f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def bar_chart(bars: Sequence[tuple[str, float]], *, title: str, x_label: str,
              y_label: str) -> Raw:
    """Vertical bars, a count over each and its label under it; the ``aria-label`` reads
    every bar out (the chart's text alternative)."""
    width, height, top, bottom, left = max(160, 44 * len(bars) + 40), 180, 24, 36, 20
    most = max((v for _, v in bars), default=0) or 1
    said = "; ".join(f"{label} {x_label}: {value:g} {y_label}" for label, value in bars)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(f"{title}: {said}")}">'
           f"<title>{esc(title)}</title>"]
    span = height - top - bottom
    for i, (label, value) in enumerate(bars):
        x, h = left + 44 * i, span * value / most
        out.append(f'<rect x="{x}" y="{top + span - h:.1f}" width="36" height="{h:.1f}" '
                   f'fill="{OKABE_ITO["blue"]}"/>'
                   f'<text x="{x + 18}" y="{top + span - h - 4:.1f}" font-size="12" '
                   f'text-anchor="middle">{value:g}</text>'
                   f'<text x="{x + 18}" y="{height - bottom + 14}" font-size="12" '
                   f'text-anchor="middle">{esc(label)}</text>')
    out.append(f'<text x="{left}" y="{height - 4}" font-size="12">{esc(x_label)} '
               f"(bar height: {esc(y_label)})</text></svg>")
    return Raw("".join(out))


def page(title: str, sections: Sequence[tuple[str, Any]], *, intro: Any = "") -> str:
    """A whole page: ``title``, ``intro`` and ``(heading, content)`` sections, in a ``main``
    landmark, styled inline."""
    body = "".join(f'<section aria-labelledby="s{i}"><h2 id="s{i}">{esc(h)}</h2>{esc(c)}'
                   "</section>" for i, (h, c) in enumerate(sections))
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{esc(title)}'
            f"</title><style>{STYLE}</style></head><body><main><h1>{esc(title)}</h1>"
            f"{esc(intro)}{body}</main></body></html>")
