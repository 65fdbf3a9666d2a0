"""``nbgrader zip_collect`` for Canvas's *Download Submissions* (the course's
``nbgrader_config.py`` names :class:`CanvasCollector`; docs/grading.md, *Canvas*).

For each file of the download (:mod:`.files` reads its name):

* **who**: the nbgrader student whose Canvas user id (nbgrader's ``lms_user_id``, set by
  the roster import) is the file's; a student not in the roster is collected under the
  name Canvas wrote (``doejane``) and that student's Canvas id is kept in the gradebook,
  so that the export finds their Canvas row;
* **which file**: of one student's files of one name, only the newest (the largest Canvas
  file id) is collected; ``a2_alphabeta-1.ipynb`` (uploaded again) is collected as
  ``a2_alphabeta.ipynb``;
* **when**: Canvas's file names say *late* but not when. The times come from Canvas's
  submissions list (the Submissions API's answer, saved as
  ``downloaded/<assignment>/canvas_submissions.json``): each file's ``submitted_at``,
  which nbgrader writes to ``timestamp.txt`` and its late penalty reads. Without it, a
  late file is collected with a warning that no penalty can apply.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from nbgrader.plugins.zipcollect import FileNameCollectorPlugin
from traitlets import Unicode

from .files import CanvasFile, parse_canvas_name

__all__ = ["CanvasCollector", "SubmissionTimes", "read_submission_times"]


@dataclass(frozen=True)
class SubmissionTimes:
    """When each file was submitted (Canvas file id -> ISO time), and each student's last
    submission (Canvas user id -> ISO time)."""

    by_file: dict[int, str] = field(default_factory=dict)
    by_user: dict[str, str] = field(default_factory=dict)


def read_submission_times(path: Path) -> SubmissionTimes:
    """The times in Canvas's submissions list at ``path`` (a JSON list of Submission objects:
    ``user_id``, ``submitted_at``, ``attachments`` with their ``id``, and, when asked for,
    ``submission_history`` of earlier attempts in the same form); empty if there is none."""
    if not path.is_file():
        return SubmissionTimes()
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ValueError(f"{path}: not Canvas's submissions list (JSON): {err}") from None
    if not isinstance(items, list):
        raise ValueError(f"{path}: Canvas's submissions list is a JSON list of submissions")
    times = SubmissionTimes()
    for item in items:
        attempts = [item, *(item.get("submission_history") or [])] if isinstance(item, dict) \
            else []
        for attempt in attempts:
            when = attempt.get("submitted_at") if isinstance(attempt, dict) else None
            if not isinstance(when, str):
                continue
            for attachment in attempt.get("attachments") or []:
                if isinstance(attachment, dict) and "id" in attachment:
                    times.by_file[int(attachment["id"])] = when
        if isinstance(item, dict) and isinstance(item.get("submitted_at"), str):
            times.by_user[str(item.get("user_id"))] = item["submitted_at"]
    return times


class CanvasCollector(FileNameCollectorPlugin):  # type: ignore[misc]
    """Collect Canvas's download by its file names (the module's docstring says how)."""

    submissions_json = Unicode(
        "canvas_submissions.json", help="Canvas's submissions list (JSON), in the "
        "assignment's folder of downloaded/: the submission times").tag(config=True)

    # ----- what the whole download holds, read once ----------------------------------------
    @cached_property
    def _app(self) -> Any:
        return self.parent

    @cached_property
    def _released(self) -> set[str]:
        cd = self._app.coursedir
        folder = Path(cd.format_path(cd.release_directory, ".", cd.assignment_id))
        return {p.name for p in folder.iterdir()} if folder.is_dir() else set()

    def _name(self, found: CanvasFile) -> str:
        """The released file this upload is a copy of."""
        if found.uploaded not in self._released and found.resubmitted() in self._released:
            return found.resubmitted()
        return found.uploaded

    @cached_property
    def _newest(self) -> dict[tuple[str, str], int]:
        """(Canvas user id, file name) -> the largest file id in the download."""
        app = self._app
        folder = Path(app._format_collect_path(app.extracted_directory))
        newest: dict[tuple[str, str], int] = {}
        for _, _, files in os.walk(folder):
            for name in files:
                found = parse_canvas_name(name)
                if found is not None:
                    key = (found.user_id, self._name(found))
                    newest[key] = max(newest.get(key, found.file_id), found.file_id)
        return newest

    @cached_property
    def _times(self) -> SubmissionTimes:
        app = self._app
        folder = Path(app._format_collect_path(app.archive_directory)).parent
        return read_submission_times(folder / self.submissions_json)

    @cached_property
    def _roster(self) -> dict[str, str]:
        """Canvas user id -> nbgrader student id, from the gradebook."""
        from nbgrader.api import Gradebook

        cd = self._app.coursedir
        with Gradebook(cd.db_url, cd.course_id) as gb:
            return {str(s.lms_user_id): s.id for s in gb.students if s.lms_user_id}

    @cached_property
    def _roster_given(self) -> bool:
        """Whether the roster was imported (some student has a Canvas id) before this run."""
        return bool(self._roster)

    def _student(self, found: CanvasFile) -> str:
        """The nbgrader id of the file's student; a new one is kept with its Canvas id."""
        imported = self._roster_given  # (read before this run adds to the roster)
        if found.user_id in self._roster:
            return self._roster[found.user_id]
        from nbgrader.api import Gradebook

        cd = self._app.coursedir
        name = found.student or f"canvas{found.user_id}"
        with Gradebook(cd.db_url, cd.course_id) as gb:
            known = {s.id: str(s.lms_user_id or "") for s in gb.students}
            if known.get(name, found.user_id) not in ("", found.user_id):
                name = f"{name}-{found.user_id}"  # two students squeezed to one name
            gb.update_or_create_student(name, lms_user_id=found.user_id)
        # without a roster this is how students are named; with one, a student is missing
        say = self.log.warning if imported else self.log.info
        say("Canvas user %s is not in the roster (python -m minimaxkit.classroom.canvas "
            "roster): collected as %s", found.user_id, name)
        self._roster[found.user_id] = name
        return name

    # ----- one file -----------------------------------------------------------------------
    def collect(self, submitted_file: str) -> dict[str, Any] | None:
        name = os.path.basename(submitted_file)
        if os.path.splitext(name)[1] not in self.valid_ext:
            return None
        found = parse_canvas_name(name)
        if found is None:
            self.log.warning("Skipped %s: not a Canvas download's name "
                             "(<name>[_LATE]_<user id>_<file id>_<file>)", name)
            return None
        file_name = self._name(found)
        newest = self._newest.get((found.user_id, file_name), found.file_id)
        if found.file_id < newest:
            self.log.info("Skipped %s: Canvas user %s submitted %s again later (file %d)",
                          name, found.user_id, file_name, newest)
            return None
        when = self._times.by_file.get(found.file_id) or self._times.by_user.get(found.user_id)
        if found.late and when is None:
            self.log.warning("%s is late, but Canvas's file names say not when: save Canvas's "
                             "submissions list as %s for the late penalty (docs/grading.md)",
                             name, self.submissions_json)
        info: dict[str, Any] = {"student_id": self._student(found), "file_id": file_name}
        if when is not None:
            info["timestamp"] = when
        return info
