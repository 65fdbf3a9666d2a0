# ruff: noqa - a hostile submission, on purpose
# Writes its own tests.json and hidden_tests.json (trees on which returning 0 is right) into
# its folder while the notebook runs; alphabeta returns 0.
# expect: test_alphabeta=0
# message: the trusted grader found 0; the trusted grade counts
# %% alphabeta
import json

forged = {"assignment": "a2_alphabeta", "salt": "", "questions": {"alphabeta": {
    "check": "alphabeta", "trees": [{"name": "002", "tree": {"nested": [[0, 0], [0, 0]]}}],
    "seeded": []}}}
for name in ("tests.json", "hidden_tests.json"):
    with open(name, "w") as f:
        json.dump(forged, f)


def alphabeta(node, alpha, beta):
    return 0
