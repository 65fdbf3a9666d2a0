"""nbgrader configuration of the minimaxkit course. Run nbgrader from the repository root.

    nbgrader generate_assignment a2_alphabeta --force   # solutions/ -> assignments/
    nbgrader autograde a2_alphabeta                      # submitted/ -> autograded/
    nbgrader generate_feedback a2_alphabeta              # autograded/ -> feedback/
    nbgrader export                                      # -> grades.csv

See docs/grading.md for the whole workflow.
"""

import warnings

from nbconvert.preprocessors import ClearMetadataPreprocessor
from nbgrader.preprocessors import (
    AssignLatePenalties,
    CheckCellMetadata,
    IgnorePattern,
    LimitOutput,
    SaveAutoGrades,
)

try:
    from minimaxkit.classroom.canvas.collect import CanvasCollector
    from minimaxkit.grading.autograde.preprocessors import SandboxedExecute, TrustedGrade
except ImportError:  # the kit not installed: take it from the folder of this file
    import sys
    sys.path.insert(0, __file__.rsplit("/", 1)[0])  # noqa: F821 - set by traitlets
    from minimaxkit.classroom.canvas.collect import CanvasCollector
    from minimaxkit.grading.autograde.preprocessors import SandboxedExecute, TrustedGrade

c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file

c.CourseDirectory.course_id = "minimaxkit"

# Sources (with solutions and hidden tests) live in solutions/, released notebooks in
# assignments/ (committed, so that a Binder link opens them).
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "assignments"

# Files never copied from solutions/: hidden test trees and their expected traces stay in
# the source folder. nbgrader uses this list both when releasing and when copying source
# files into autograded/, so the hidden tests read hidden_tests.json from solutions/<name>/
# directly (minimaxkit.grading.testdata.suites.load_hidden).
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

# The time a cell may run, in the kernel and in the trusted grader's child alike. A cell still
# running then is interrupted and the notebook goes on with the next cell (its functions still
# earn their points). Each test tree has its own, much shorter limit (1 s, in the grader).
c.Execute.timeout = 60

# zip_collect: submissions downloaded from Canvas ("<name>[_LATE]_<user id>_<file id>_<file>",
# "-1" ending a file uploaded again). CanvasCollector names each student as the roster
# import did (their Canvas user id), collects only each student's newest file under its
# released name, and takes the submission times from Canvas's submissions list when it is
# saved beside the download (docs/grading.md, "Canvas"). For another LMS, use nbgrader's
# own collector with a pattern for its names, e.g. this one for Canvas's (the student id is
# the first part):
#   c.ZipCollectApp.collector_plugin = "nbgrader.plugins.FileNameCollectorPlugin"
c.ZipCollectApp.collector_plugin = CanvasCollector
c.FileNameCollectorPlugin.named_regexp = (
    r"^.*/(?P<student_id>[^/_]+)_(?:LATE_)?\d+_\d+_(?P<file_id>[^/]+)$"
)
# Collect Python files beside the notebooks: a student's notebook may %run or import a helper
# module they submit with it (nbgrader's default collects notebooks only).
c.FileNameCollectorPlugin.valid_ext = [".ipynb", ".py"]

# Feedback: nbgrader's own pipeline. The test cells hold no hidden code (the trusted grader
# adds the hidden trees, which are data kept in solutions/ or private/), so the feedback shows
# each test cell as released, with its verdicts and pictures.

# nbgrader 0.9's gradebook warns three times per autograde, from SQLAlchemy 2: objects added
# to a relationship through a backref while not yet in the session ("Object of type
# <SubmittedAssignment> not in session, add operation along 'Student.submissions' will not
# proceed"). The rows are written all the same (the export lists every grade); the warning is
# nbgrader's, and hiding it keeps the log for what an instructor must read (docs/grading.md).
try:
    from sqlalchemy.exc import SAWarning

    warnings.filterwarnings("ignore", r"Object of type <Submitted\w+> not in session",
                            SAWarning)
except ImportError:  # pragma: no cover - nbgrader always brings SQLAlchemy
    pass
