# ruff: noqa - a hostile submission, on purpose
# Replaces grade and the grader's workings at the top level, wherever they are (found by
# what they are, not where they live: every function of the kit that grades, runs or
# describes, in every module and every table that holds it); alphabeta returns 0.
# expect: test_alphabeta=0
# message: printed no verdict
# message: value ✘: returned nothing usable
# %% alphabeta
import gc
import sys
import types

from minimaxkit.grading import grade, grade_report, run_check, describe  # loads the grader

WORDS = ("grade", "run", "describe", "check", "report", "verdict", "outcome")


def forged(*args, **kwargs):
    return kwargs.get("points", 7)


def grader_function(value):
    return (isinstance(value, types.FunctionType)
            and value.__module__.startswith("minimaxkit")
            and any(w in value.__name__ for w in WORDS))


for holder in [vars(m) for m in list(sys.modules.values()) if hasattr(m, "__dict__")] + \
        [o for o in gc.get_objects() if isinstance(o, dict)]:
    for key, value in list(holder.items()):
        if grader_function(value):
            try:
                holder[key] = forged
            except Exception:
                pass


def alphabeta(node, alpha, beta):
    return 0
