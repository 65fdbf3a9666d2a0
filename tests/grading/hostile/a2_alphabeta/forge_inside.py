# ruff: noqa - a hostile submission, on purpose
# Replaces the grader's workings inside the function (where the grader runs it), wherever
# they are (found by what they are: every function of the kit that grades, runs, describes
# or records, in every module and table that holds it), so that what it returns is described
# as 5; it evaluates no leaf. What the child reports is only the function's answer: a forged
# 5 is worth what returning 5 is (half a point on each tree whose value is 5: the sheet and
# the 4-ply tree; this student's seeded tree is worth -3), and the leaves, recorded outside the
# child, are none.
# expect: test_alphabeta=1
# message: value 5 ✔, 0 leaves ✘
# %% alphabeta
def alphabeta(node, alpha, beta):
    import gc
    import sys
    import types

    words = ("grade", "run", "describe", "check", "report", "verdict", "outcome", "log")

    def forged(*args, **kwargs):
        return {"number": 5}

    for holder in [vars(m) for m in list(sys.modules.values()) if hasattr(m, "__dict__")] + \
            [o for o in gc.get_objects() if isinstance(o, dict)]:
        for key, value in list(holder.items()):
            if isinstance(value, types.FunctionType) and value.__module__.startswith(
                    "minimaxkit") and any(w in value.__name__ for w in words):
                try:
                    holder[key] = forged
                except Exception:
                    pass
    return 0
