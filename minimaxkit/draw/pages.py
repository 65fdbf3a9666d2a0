"""Static report pages: a page of sections, tables and bar charts as inline SVG, with no script
and nothing loaded from elsewhere, so a saved copy reads offline. The pages are jinja2
templates with autoescaping: every text given is escaped; markup made here (a table, a chart)
is :class:`markupsafe.Markup` and goes in as it is.

>>> chart = bar_chart([("0", 2), ("7", 5)], title="points", x_label="points", y_label="students")
>>> chart.startswith("<svg") and 'role="img"' in chart and "0 points: 2 students" in chart
True
>>> table(["who"], [["<b>"]]).count("&lt;b&gt;"), table(["who"], [[Raw("<b>")]]).count("<b>")
(1, 1)
>>> "<h3>x</h3>" + chart == "<h3>x</h3>" + str(chart)    # joins as a str
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jinja2 import Environment
from markupsafe import Markup, escape

from .style import OKABE_ITO

__all__ = ["Markup", "escape", "Raw", "esc", "table", "bar_chart", "page"]

class Raw(str):
    """Markup made here (a table, a chart, a picture): a ``str`` that jinja2 and
    markupsafe take as safe (``__html__``), and that joins other strings as a ``str`` does
    (a :class:`~markupsafe.Markup` would escape them), as the callers' f-strings expect."""

    def __html__(self) -> str:
        return str(self)


#: ``esc(x)``: ``x`` as HTML text, unless it is :class:`Raw` or ``Markup`` (markupsafe's
#: ``escape``, under the name the callers use).
esc = escape

STYLE = ("body{font-family:sans-serif;color:#111;max-width:68rem;margin:1rem auto;"
         "padding:0 1rem;line-height:1.4}table{border-collapse:collapse;margin:.5rem 0}"
         "th,td{border:1px solid #888;padding:.2rem .5rem;text-align:left;vertical-align:top}"
         "figure{margin:.5rem 0}figcaption{font-size:.9rem}img{max-width:100%}")

_ENV = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True,
                   keep_trailing_newline=False)

_TABLE = _ENV.from_string(
    "<table>{% if caption %}<caption>{{ caption }}</caption>{% endif %}"
    "<thead><tr>{% for h in headers %}<th scope=\"col\">{{ h }}</th>{% endfor %}</tr></thead>"
    "<tbody>{% for row in rows %}<tr>{% for c in row %}<td>{{ c }}</td>{% endfor %}</tr>"
    "{% endfor %}</tbody></table>")

_CHART = _ENV.from_string(
    '<svg xmlns="http://www.w3.org/2000/svg" width="{{ width }}" height="{{ height }}" '
    'viewBox="0 0 {{ width }} {{ height }}" role="img" aria-label="{{ said }}">'
    "<title>{{ title }}</title>"
    "{% for b in bars %}"
    '<rect x="{{ b.x }}" y="{{ b.y }}" width="36" height="{{ b.h }}" fill="{{ fill }}"/>'
    '<text x="{{ b.x + 18 }}" y="{{ b.top }}" font-size="12" text-anchor="middle">'
    "{{ b.value }}</text>"
    '<text x="{{ b.x + 18 }}" y="{{ label_y }}" font-size="12" text-anchor="middle">'
    "{{ b.label }}</text>"
    "{% endfor %}"
    '<text x="{{ left }}" y="{{ height - 4 }}" font-size="12">{{ x_label }} '
    "(bar height: {{ y_label }})</text></svg>")

_PAGE = _ENV.from_string(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title>'
    "<style>{{ style }}</style></head><body><main><h1>{{ title }}</h1>{{ intro }}"
    "{% for heading, content in sections %}"
    '<section aria-labelledby="s{{ loop.index0 }}"><h2 id="s{{ loop.index0 }}">{{ heading }}'
    "</h2>{{ content }}</section>{% endfor %}</main></body></html>")


def table(headers: Sequence[Any], rows: Sequence[Sequence[Any]], *, caption: str = "") -> Raw:
    """A table, every cell escaped (but :class:`Raw` and ``Markup`` ones)."""
    return Raw(_TABLE.render(headers=headers, rows=rows, caption=caption))


def bar_chart(bars: Sequence[tuple[str, float]], *, title: str, x_label: str,
              y_label: str) -> Raw:
    """Vertical bars, a count over each and its label under it; the ``aria-label`` reads
    every bar out (the chart's text alternative)."""
    width, height, top, bottom, left = max(160, 44 * len(bars) + 40), 180, 24, 36, 20
    most = max((v for _, v in bars), default=0) or 1
    said = "; ".join(f"{label} {x_label}: {value:g} {y_label}" for label, value in bars)
    span = height - top - bottom
    drawn = []
    for i, (label, value) in enumerate(bars):
        h = span * value / most
        drawn.append({"x": left + 44 * i, "y": f"{top + span - h:.1f}", "h": f"{h:.1f}",
                      "top": f"{top + span - h - 4:.1f}", "value": f"{value:g}",
                      "label": label})
    return Raw(_CHART.render(width=width, height=height, said=f"{title}: {said}",
                             title=title, bars=drawn, fill=OKABE_ITO["blue"], left=left,
                             label_y=height - bottom + 14, x_label=x_label, y_label=y_label))


def page(title: str, sections: Sequence[tuple[str, Any]], *, intro: Any = "") -> str:
    """A whole page: ``title``, ``intro`` and ``(heading, content)`` sections, in a ``main``
    landmark, styled inline."""
    return _PAGE.render(title=title, style=Markup(STYLE), intro=intro, sections=sections)
