# ruff: noqa - a hostile submission, on purpose
# Replaces grade and the grader's internals at the top level; alphabeta returns 0.
# expect: test_alphabeta=0
# message: printed no verdict
# message: value 0 ✘
# %% alphabeta
import minimaxkit.grading as g
import minimaxkit.grading.grader as gr
import minimaxkit.grading.checks as ch
g.grade = lambda *a, **k: k.get("points", 7)
gr.grade = g.grade
ch.run_check = lambda *a, **k: ch.TreeResult(1.0, "forged")


def alphabeta(node, alpha, beta):
    return 0
