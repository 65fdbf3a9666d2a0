"""Every real number is a number (issue 28): an evaluation's value of any ``numbers.Real`` kind
(numpy's, ``Fraction``) or a ``Decimal`` is converted in the sandboxed child, where its own
code runs; a bool, a complex number, a non-finite value and a value whose conversion fails
keep their clear answers. Through the real sandboxed child of assignment 5."""

from __future__ import annotations

import math
from pathlib import Path

from minimaxkit.arena.matches import GAME
from minimaxkit.grading.evaluation.evaluators import RemoteEvaluator
from minimaxkit.grading.evaluation.notebook import play_session

CELL = '''
import decimal, fractions
import numpy as np


class Odd(fractions.Fraction):
    def __float__(self):
        raise ValueError("no float for me")


VALUES = {"np_int": np.int64(7), "np_float": np.float32(0.5), "np_uint": np.uint8(200),
          "fraction": fractions.Fraction(1, 3), "decimal": decimal.Decimal("-2.25"),
          "big": 10 ** 400, "bool": True, "np_bool": np.bool_(False), "complex": 1j,
          "nan": math.nan if (math := __import__("math")) else 0,
          "dec_nan": decimal.Decimal("sNaN"), "odd": Odd(1, 2), "text": "12"}
'''


def test_real_numbers_are_converted_in_the_child_and_others_refused(tmp_path: Path) -> None:
    names = ["np_int", "np_float", "np_uint", "fraction", "decimal", "big", "bool", "np_bool",
             "complex", "nan", "dec_nan", "odd", "text"]
    cells = CELL + "\n".join(f"def ev_{n}(board):\n    return VALUES[{n!r}]\n" for n in names)
    # what a function raises is an answer for that board, a KeyboardInterrupt or SystemExit too
    names += ["kbint", "exit"]
    cells += ("\ndef ev_kbint(board):\n    raise KeyboardInterrupt('stop')\n"
              "\ndef ev_exit(board):\n    raise SystemExit(0)\n")
    state = GAME.state_from_moves("33")
    got = {}
    with play_session(tmp_path, None, [], 60.0) as session:
        session.run_cell(cells)
        assert session.problems == []
        for n in names:
            ev = RemoteEvaluator(session, f"ev_{n}")
            got[n] = ev.session(lambda ev=ev: ev.results([state], timeout=10.0)[0], timeout=30.0)
    assert got["np_int"] == 7.0 and got["np_float"] == 0.5 and got["np_uint"] == 200.0
    assert got["fraction"] == 1 / 3 and got["decimal"] == -2.25
    assert all(type(got[n]) is float for n in ("np_int", "fraction", "decimal"))
    # an exact number too large for a float is refused as what it was, not as "inf"
    assert got["big"]["bad"].startswith("1000") and \
        got["big"]["bad"].endswith("(an int, too large for a float)")
    assert math.isnan(got["nan"]) and math.isnan(got["dec_nan"])
    assert got["bool"] == {"bad": "True (a bool)"}
    assert got["np_bool"]["bad"].endswith("(a bool)")
    assert got["complex"] == {"bad": "1j (a complex)"}
    assert got["text"] == {"bad": "'12' (a str)"}
    assert got["odd"]["raised"] == "ValueError: no float for me"
    assert got["kbint"]["raised"] == "KeyboardInterrupt: stop"
    assert got["exit"]["raised"] == "SystemExit: 0"
