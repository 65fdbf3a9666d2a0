"""nbgrader configuration of the minimaxkit course. Run nbgrader from the repository root.

    nbgrader generate_assignment a2_alphabeta --force   # solutions/ -> assignments/
    nbgrader autograde a2_alphabeta                      # submitted/ -> autograded/
    nbgrader generate_feedback a2_alphabeta              # autograded/ -> feedback/
    nbgrader export                                      # -> grades.csv

See docs/grading.md for the whole workflow.
"""

from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor
from nbgrader.preprocessors import (
    AssignLatePenalties,
    CheckCellMetadata,
    ClearHiddenTests,
    GetGrades,
    IgnorePattern,
    LimitOutput,
    SaveAutoGrades,
)

try:
    from minimaxkit.grading.trusted import SandboxedExecute, TrustedGrade
except ImportError:  # the kit not installed: take it from the folder of this file
    import sys
    sys.path.insert(0, __file__.rsplit("/", 1)[0])  # noqa: F821 - set by traitlets
    from minimaxkit.grading.trusted import SandboxedExecute, TrustedGrade

c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file

c.CourseDirectory.course_id = "minimaxkit"

# Sources (with solutions and hidden tests) live in solutions/, released notebooks in
# assignments/ (committed, so that a Binder link opens them).
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "assignments"

# Files never copied from solutions/: hidden test trees and their expected traces stay in
# the source folder. nbgrader uses this list both when releasing and when copying source
# files into autograded/, so the hidden tests read hidden_tests.json from solutions/<name>/
# directly (minimaxkit.grading.suite.load_hidden).
c.CourseDirectory.ignore = [
    ".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", ".git", "hidden_*",
]

# Autograde: nbgrader's own pipeline with two changes (docs/grading.md, "Untrusted code").
# SandboxedExecute runs the notebook in the kernel spec minimaxkit-sandbox: IPython inside
# bubblewrap, the course folder hidden except the submission's own folder, no network,
# limits on memory, processes and file size, every process killed with the kernel.
# TrustedGrade then grades each grade(...) test cell again in this process, the student's
# code running in a fresh sandboxed child that only sees the tree through a protocol; its
# verdict replaces the cell's output and gives the points nbgrader records.
c.Autograde.autograde_preprocessors = [
    SandboxedExecute, TrustedGrade, IgnorePattern, ClearMetadataPreprocessor, LimitOutput,
    SaveAutoGrades, AssignLatePenalties, CheckCellMetadata,
]

# A time limit per cell behind the grader's own limit per test tree (2 s): a student cell
# that loops forever at the top level is interrupted after this many seconds.
c.Execute.timeout = 60

# zip_collect: submissions downloaded from an LMS. This pattern reads Canvas's file names,
# "<student>_<user id>_<submission id>_<notebook>.ipynb" (with "LATE_" after the student
# when late): the student id is the first part. Change it for another LMS (docs/grading.md).
c.FileNameCollectorPlugin.named_regexp = (
    r"^.*/(?P<student_id>[^/_]+)_(?:LATE_)?\d+_\d+_(?P<file_id>[^/]+)$"
)

# Feedback: nbgrader's feedback HTML shows the autograded notebook, hidden test code
# included. ClearHiddenTests removes the code between BEGIN/END HIDDEN TESTS again (it is
# what generate_assignment uses); the cells' outputs (the verdicts and pictures) stay.
c.GenerateFeedback.preprocessors = [GetGrades, ClearHiddenTests, CSSHTMLHeaderPreprocessor]
