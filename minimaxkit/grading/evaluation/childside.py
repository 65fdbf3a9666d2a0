"""The child's side of assignment 5: a batch of boards answered by the student's
``evaluate(board)``, a number (or what went wrong) each. Nothing here is trusted."""

from __future__ import annotations

import math
import numbers
from typing import Any

from ...arena.matches import real_value
from ...games.connect4_board import Board
from ...isolation.rules import safe_repr, safe_str, student_frames
from ..recording import childside

__all__ = ["Handler"]


class Handler(childside.Handler):
    """A worker's requests: ``boards``, and as for trees ``call`` and ``next``."""

    def handle(self, msg: dict[str, Any]) -> tuple[str, Any]:
        if msg.get("op") != "boards":
            return super().handle(msg)
        fn = self.ns[msg["fn"]]
        columns, rows = (int(v) for v in msg.get("size", (7, 6)))
        out: list[Any] = []
        for state in msg.get("states", []):
            try:
                value = fn(Board.from_state(state, columns=columns, rows=rows))
                number = real_value(value)  # here: converting runs the value's own code
                kind, big = type(value).__name__[:60], isinstance(number, float)
                if not big or (math.isinf(number) and isinstance(value, numbers.Rational)):
                    out.append({"bad": f"{safe_repr(value)} ({'an' if kind[:1] in 'aeiou' else 'a'}"
                                       f" {kind}{', too large for a float' if big else ''})"})
                else:
                    out.append(number)
            except (Exception, KeyboardInterrupt, SystemExit) as err:  # raised on this board
                out.append({"raised": f"{type(err).__name__[:60]}: {safe_str(err)}",
                            "where": student_frames(err.__traceback__)})
        return "return", out
