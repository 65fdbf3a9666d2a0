"""``python -m minimaxkit.classroom.ongoing``: grading on submission (see :mod:`.service`).

    python -m minimaxkit.classroom.ongoing --course ~/course \\
        --exchange /srv/nbgrader/exchange --course-id minimaxkit \\
        --assignment a2_alphabeta --before-deadline visible --daily-cap 5
"""

import argparse
import sys
from pathlib import Path

from .service import TREE_MODES, OngoingGrader, Places, Policy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m minimaxkit.classroom.ongoing",
                                     description="grade each submission as it arrives")
    parser.add_argument("--course", type=Path, default=Path.cwd(),
                        help="the course folder (nbgrader_config.py, gradebook.db) [.]")
    parser.add_argument("--exchange", type=Path, required=True, help="nbgrader's exchange")
    parser.add_argument("--course-id", required=True)
    parser.add_argument("--assignment", nargs="+", required=True, metavar="NAME")
    parser.add_argument("--before-deadline", choices=TREE_MODES, default="visible",
                        help="the trees graded before the due date [visible]")
    parser.add_argument("--daily-cap", type=int, default=0, metavar="N",
                        help="graded submissions per student, assignment and day [0: none]")
    parser.add_argument("--poll", type=float, default=10.0, help="seconds between looks [10]")
    parser.add_argument("--state", type=Path, default=None,
                        help="the ledger and history [COURSE/ongoing]")
    parser.add_argument("--once", action="store_true", help="one pass, then exit")
    args = parser.parse_args(argv)
    course = args.course.expanduser().resolve()
    try:
        policy = Policy(tuple(args.assignment), args.before_deadline, args.daily_cap, args.poll)
    except ValueError as err:
        parser.error(str(err))
    inbound = args.exchange / args.course_id / "inbound"
    if not (course / "nbgrader_config.py").is_file():
        parser.error(f"{course} is not a course folder (no nbgrader_config.py)")
    grader = OngoingGrader(Places(course, inbound, args.state or course / "ongoing"), policy)
    if args.once:
        grader.pass_once()
    else:
        grader.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
