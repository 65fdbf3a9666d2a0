"""The class report's score chart counts every submission: scores in tenths (a5's play) fall
in the whole point they are within; scores in halves keep their half-point bars. Its CSV
holds no field a spreadsheet would read as a formula."""

from __future__ import annotations

import re

from minimaxkit.classroom.report import Entry, _safe, _scores


def _counts(page: str) -> dict[str, int]:
    said = re.search(r'aria-label="[^:]*: ([^"]*)"', page)
    assert said is not None, page
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"([\d.]+(?: to [\d.]+)?) points: (\d+) students", said.group(1))}


def test_tenths_each_land_in_a_bar() -> None:
    scores = [5.3, 5.3, 3.3, 6.0, 0.0, 2.0, 4.4]
    page = _scores("test_play", [Entry(f"s{i}", "test_play", s, 6.0, {})
                                 for i, s in enumerate(scores)])
    counts = _counts(page)
    assert sum(counts.values()) == len(scores), counts
    assert counts["5 to 6"] == 2 and counts["6"] == 1, counts


def test_halves_keep_their_bars() -> None:
    scores = [7.0, 3.5, 3.5, 0.0]
    counts = _counts(_scores("test_alphabeta", [Entry(f"s{i}", "test_alphabeta", s, 7.0, {})
                                                for i, s in enumerate(scores)]))
    assert sum(counts.values()) == 4 and counts["3.5"] == 2, counts


def test_no_csv_field_is_a_formula() -> None:
    row = ['=HYPERLINK("http:x","a")', "+1", "-x", "@y", "alice", "", 3.5]
    assert _safe(row) == ['\'=HYPERLINK("http:x","a")', "'+1", "'-x", "'@y", "alice", "", 3.5]
