"""The behaviour snapshot (``tools/behaviour_snapshot.py``, issue #34's before-and-after check)
on small made-up notebooks and pages: what differs between two runs of the same code is
normalised away, and what a change of behaviour changes (a picture's pixels, a score, a line
of feedback) is found and named by its place.
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output

TOOLS = Path(__file__).resolve().parents[1] / "tools"
sys.path.insert(0, str(TOOLS))

import behaviour_snapshot  # noqa: E402
from snapshot.compare import differences  # noqa: E402
from snapshot.grading import feedback_page  # noqa: E402
from snapshot.lectures import lecture_record  # noqa: E402
from snapshot.normalise import MEASURED, Places, normalise  # noqa: E402

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def png(width: int, height: int, body: bytes = b"pixels") -> bytes:
    """The start of a PNG file: its signature and IHDR chunk (all a record reads), then
    ``body`` standing for the pixels."""
    return b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + struct.pack(">II", width, height) \
        + body


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def executed(ids: tuple[str, str], count: int, address: str, tmp: str,
             picture: bytes) -> Any:
    """A notebook as nbclient leaves it: a result naming an object's address, a print of a
    temp path, a picture, and a box widget holding an image widget, under model ``ids``."""
    box, image = ids
    cells = [
        new_code_cell("object()", execution_count=count, outputs=[new_output(
            "execute_result", {"text/plain": f"<object object at {address}>"},
            execution_count=count)]),
        new_code_cell("print(path)", execution_count=count + 1, outputs=[new_output(
            "stream", name="stdout", text=f"saved in {tmp}/board.svg\n")]),
        new_code_cell("draw()", execution_count=count + 2, outputs=[new_output(
            "display_data", {"image/png": b64(picture), "text/plain": "<Figure>"})]),
        new_code_cell("Box([Image()])", execution_count=count + 3, outputs=[new_output(
            "display_data", {"application/vnd.jupyter.widget-view+json": {
                "model_id": box, "version_major": 2, "version_minor": 0},
                "text/plain": "HBox()"})]),
    ]
    nb = new_notebook(cells=cells)
    nb.metadata["widgets"] = {WIDGET_STATE: {"version_major": 2, "version_minor": 0, "state": {
        image: {"model_name": "ImageModel", "state": {"format": "png"},
                "buffers": [{"path": ["value"], "encoding": "base64", "data": b64(picture)}]},
        box: {"model_name": "HBoxModel", "state": {"children": [f"IPY_MODEL_{image}"]}},
    }}}
    return nb


FIRST = ("0" * 31 + "a", "0" * 31 + "b")
SECOND = ("f" * 31 + "c", "e" * 31 + "d")
HERE = Places(Path("/repo"), Path("/tmp/lecture-1"), "<lecture>")


def test_two_runs_of_the_same_code_record_alike() -> None:
    one = lecture_record(executed(FIRST, 1, "0x7f3a11c2d0e0", "/tmp/tmpa1b2", png(3, 2)), HERE)
    two = lecture_record(executed(SECOND, 7, "0x7f99ffee0010", "/tmp/tmpz9y8", png(3, 2)), HERE)
    assert one == two
    assert list(differences(one, two, ())) == []
    picture = one["cells"]["cell 2"]["outputs"][0]["image/png"]
    assert (picture["width"], picture["height"]) == (3, 2)
    box = one["cells"]["cell 3"]["outputs"][0]["application/vnd.jupyter.widget-view+json"]
    assert box["model"] == "HBoxModel" and box["#"] == 1
    image = box["state"]["children"][0]
    assert image["#"] == 2 and image["model"] == "ImageModel"
    assert (image["state"]["value"]["width"], image["state"]["value"]["height"]) == (3, 2)


def test_a_changed_picture_is_found_in_the_output_and_in_the_widget() -> None:
    one = lecture_record(executed(FIRST, 1, "0x7f3a11c2d0e0", "/tmp/a", png(3, 2)), HERE)
    two = lecture_record(executed(FIRST, 1, "0x7f3a11c2d0e0", "/tmp/a", png(3, 2, b"pixelz")),
                         HERE)
    found = list(differences({"lectures": {"01": one}}, {"lectures": {"01": two}}, ()))
    assert [f.split(":")[0] for f in found] == [
        "lectures > 01 > cells > cell 2 > outputs > [0] > image/png > sha256",
        "lectures > 01 > cells > cell 3 > outputs > [0] > application/vnd.jupyter.widget-view"
        "+json > state > children > [0] > state > value > sha256"]


def test_a_cell_that_reads_the_clock_keeps_only_its_outputs_kinds() -> None:
    nb = new_notebook(cells=[new_code_cell("t0 = time.monotonic()\nround(time.monotonic() - t0)",
                                           outputs=[new_output("execute_result",
                                                               {"text/plain": "0.51"})])])
    record = lecture_record(nb, HERE)
    assert record["cells"]["cell 0"]["outputs"] == [{"kind": "execute_result",
                                                     "text/plain": MEASURED}]


def test_prints_cut_into_messages_differently_record_alike() -> None:
    def printed(*chunks: str) -> Any:
        return new_notebook(cells=[new_code_cell("for d in range(3): print(d)", outputs=[
            new_output("stream", name=name, text=text) for name, text in chunks])])

    one = lecture_record(printed(("stdout", "0\n1\n"), ("stdout", "2\n")), HERE)
    two = lecture_record(printed(("stdout", "0\n1\n2\n")), HERE)
    assert one == two
    apart = lecture_record(printed(("stdout", "0\n"), ("stderr", "!\n"), ("stdout", "2\n")), HERE)
    assert [o["stream"] for o in apart["cells"]["cell 0"]["outputs"]] == [
        "stdout", "stderr", "stdout"]


def test_measured_times_folders_and_ids_are_normalised_and_nothing_else() -> None:
    course = Places(Path("/work/x"), Path("/tmp/behaviour-snapshot-1/grading/course"),
                    "<course>")
    text = ("0.0612 ms of processor time per board; 1.2e-05 ms a board; limit 1 ms; "
            "/tmp/behaviour-snapshot-1/grading/course/autograded/x and /work/x/minimaxkit; "
            "kernel 3f2504e0-4f89-11d3-9a0c-0305e82c3301; value 0.5 at depth 8")
    assert normalise(text, course) == (
        "N ms of processor time per board; N ms a board; limit 1 ms; "
        "<course>/autograded/x and <repo>/minimaxkit; kernel <id>; value 0.5 at depth 8")


def test_a_feedback_page_is_read_as_its_reader_sees_it(tmp_path: Path) -> None:
    page = tmp_path / "a1.html"
    picture = png(40, 30)
    page.write_text(
        "<html><head><title>t</title><style>p {color: red}</style></head><body>"
        "<script>var x = 1;</script><div><h1>a1 (Score: 2.0 / 4.0)</h1>"
        "<p>your <code>minimax</code>   returned <span>6</span></p>"
        "<pre>✘ sheet: value 5\n  expected 6</pre>"
        f'<img alt="the tree at step 5" src="data:image/png;base64,{b64(picture)}">'
        "</div></body></html>")
    read = feedback_page(page, HERE)
    assert read is not None
    assert read["text"] == ("a1 (Score: 2.0 / 4.0)\nyour minimax returned 6\n"
                            "✘ sheet: value 5\nexpected 6")
    assert read["pictures"] == [{"alt": "the tree at step 5", "width": 40, "height": 30,
                                 "bytes": len(picture),
                                 "sha256": hashlib.sha256(picture).hexdigest()}]
    assert feedback_page(tmp_path / "missing.html", HERE) is None


def snapshot_file(path: Path, score: float, line: str, load: str) -> Path:
    student = {"grades": {"test_alphabeta": {"score": score, "max": 7.0}},
               "feedback": {"text": f"a2\n{line}\nend", "pictures": []}}
    path.write_text(json.dumps({"format": 1, "meta": {"load before": load},
                                "grading": {"a2_alphabeta": {"students": {"beta_max": student}}}}))
    return path


def test_compare_names_each_difference_and_exits_with_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = snapshot_file(tmp_path / "old.json", 4.5, "value 5", "0.1")
    same = snapshot_file(tmp_path / "same.json", 4.5, "value 5", "9.9")  # only meta differs
    new = snapshot_file(tmp_path / "new.json", 4.0, "value 6", "0.1")
    assert behaviour_snapshot.main(["compare", str(old), str(same)]) == 0
    assert capsys.readouterr().out == "the same\n"
    assert behaviour_snapshot.main(["compare", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "grading > a2_alphabeta > students > beta_max > grades > test_alphabeta > score:\n" \
        "    first:  4.5\n    second: 4.0" in out
    assert "beta_max > feedback > text:" in out and "-value 5\n    +value 6" in out
    assert out.endswith("2 difference(s)\n")


def test_a_notebook_round_trip_keeps_the_record(tmp_path: Path) -> None:
    """What nbclient writes and nbformat reads back records as the notebook in memory."""
    nb = executed(FIRST, 1, "0x7f3a11c2d0e0", "/tmp/a", png(3, 2))
    nbformat.write(nb, str(tmp_path / "n.ipynb"))
    again = nbformat.read(str(tmp_path / "n.ipynb"), as_version=4)
    assert lecture_record(again, HERE) == lecture_record(nb, HERE)
