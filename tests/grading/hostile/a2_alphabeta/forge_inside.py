# ruff: noqa - a hostile submission, on purpose
# Replaces grader names inside the function (where the grader runs it); returns 0.
# expect: test_alphabeta=0
# message: value 0 ✘
# %% alphabeta
def alphabeta(node, alpha, beta):
    import minimaxkit.grading as g
    import minimaxkit.grading.checks as ch
    import minimaxkit.grading.sandbox as sb
    g.grade = lambda *a, **k: k.get("points", 7)
    ch.run_check = lambda *a, **k: ch.TreeResult(1.0, "forged")
    sb.describe = lambda *a, **k: {"number": 5}
    return 0
