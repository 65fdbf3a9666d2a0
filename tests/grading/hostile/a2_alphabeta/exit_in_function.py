# ruff: noqa - a hostile submission, on purpose
# Ends the process with os._exit inside the function.
# expect: test_alphabeta=0
# message: ended without a report
# %% alphabeta
import os


def alphabeta(node, alpha, beta):
    os._exit(0)
