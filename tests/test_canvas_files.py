"""Canvas's files as the kit reads and writes them (minimaxkit.classroom.canvas): submission
file names as Canvas's *Download Submissions* makes them, gradebook exports in the forms
Canvas writes (SIS columns or not, a muted row, a semicolon-separated export with decimal
commas from a locale that writes them, a byte-order mark), and clear errors for files that
are not Canvas's. (The round trip with nbgrader: tests/grading/test_canvas.py.)"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from minimaxkit.classroom.canvas.files import parse_canvas_name
from minimaxkit.classroom.canvas.gradebook import (
    CanvasFormatError,
    ImportRow,
    read_gradebook,
    safe_text,
    write_import,
)
from minimaxkit.classroom.canvas.roster import write_roster


@pytest.mark.parametrize("name, expected", [
    # Canvas squeezes the sortable name to word characters: underscores stay
    ("o_brienseán_77_9001_a2_alphabeta.ipynb", ("o_brienseán", False, "77", 9001,
                                                "a2_alphabeta.ipynb", "a2_alphabeta.ipynb")),
    ("doejane_LATE_1001_9050_a2_alphabeta-2.ipynb",
     ("doejane", True, "1001", 9050, "a2_alphabeta-2.ipynb", "a2_alphabeta.ipynb")),
    ("doejane_1001_9051_helper.py", ("doejane", False, "1001", 9051, "helper.py", "helper.py")),
    # a name of digits only is written -123- by Canvas: still the first _digits_digits_ run
    ("-123-_55_66_my-notes-1.txt", ("-123-", False, "55", 66, "my-notes-1.txt",
                                    "my-notes.txt")),
])
def test_canvas_file_names(name: str, expected: tuple[object, ...]) -> None:
    found = parse_canvas_name(name)
    assert found is not None
    assert (found.student, found.late, found.user_id, found.file_id, found.uploaded,
            found.resubmitted()) == expected


@pytest.mark.parametrize("name", ["a2_alphabeta.ipynb", "doejane_12_a2.ipynb", "x_1_y_z.py"])
def test_names_canvas_does_not_make(name: str) -> None:
    assert parse_canvas_name(name) is None


def _write(tmp_path: Path, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / "export.csv"
    path.write_bytes(text.encode(encoding))
    return path


def test_an_export_without_sis_user_ids_with_a_muted_row(tmp_path: Path) -> None:
    path = _write(tmp_path, (
        "Student,ID,SIS Login ID,Section,A1 Minimax (11),Current Score\n"
        ",,,,Muted,\n"
        "    Points Possible,,,,13.00,(read only)\n"
        '"Doe, Jane",5,jdoe,"A, B",12.50,96.15\n'))
    book = read_gradebook(path)
    assert book.assignments == ("A1 Minimax (11)",)
    assert book.points == {"A1 Minimax (11)": "13.00"}
    (jane,) = book.students
    assert (jane.name, jane.canvas_id, jane.sis_user_id, jane.sis_login_id, jane.section,
            jane.cells) == ("Doe, Jane", "5", "", "jdoe", "A, B", {"A1 Minimax (11)": "12.50"})


def test_a_semicolon_export_with_decimal_commas_and_a_bom(tmp_path: Path) -> None:
    path = _write(tmp_path, (
        "Student;ID;SIS User ID;SIS Login ID;Integration ID;Section;A2 (4);Final Score\n"
        "    Points Possible;;;;;;7,00;(read only)\n"
        '"Müller, Jörg";8;S8;jm;;1;4,5;64,29\n'), encoding="utf-8-sig")
    book = read_gradebook(path)
    assert book.points == {"A2 (4)": "7.00"}
    (jorg,) = book.students
    assert (jorg.name, jorg.canvas_id, jorg.sis_login_id, jorg.cells) == \
        ("Müller, Jörg", "8", "jm", {"A2 (4)": "4.5"})


@pytest.mark.parametrize("text, says", [
    ("name,grade\nJane,4\n", "line 1: not Canvas's gradebook header"),
    ("Student,ID,SIS Login ID,A1 (1)\n", "no Section column"),
    ("", "the file is empty"),
])
def test_files_that_are_not_canvas_exports(tmp_path: Path, text: str, says: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(CanvasFormatError, match=says) as err:
        read_gradebook(path)
    assert str(path) in str(err.value)


def test_the_import_file_quotes_every_field_and_defuses_formulas(tmp_path: Path) -> None:
    out = tmp_path / "import.csv"
    write_import(out, [("A2, alpha-beta (4)", 7.0)], [
        ImportRow('Doe, Jane "JJ"', "5", "@S5", "jdoe", "+1", ("4.5",)),
        ImportRow("=1+1", "6", "", "-x", "\tB", ("",)),
    ])
    text = out.read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                       "A2, alpha-beta (4)"]
    assert rows[1] == ["Points Possible", "", "", "", "", "7"]
    assert rows[2] == ['Doe, Jane "JJ"', "5", "'@S5", "jdoe", "'+1", "4.5"]
    assert rows[3] == ["'=1+1", "6", "", "'-x", "'\tB", ""]
    assert all(line.startswith('"') and line.endswith('"') for line in text.splitlines())
    assert safe_text("plain") == "plain"


def test_the_roster_refuses_two_students_with_one_id(tmp_path: Path) -> None:
    path = _write(tmp_path, (
        "Student,ID,SIS User ID,SIS Login ID,Section\n"
        '"Doe, Jane",5,S5,j+doe,A\n'
        '"Doe, John",6,S6,j_doe,A\n'))  # "+" is not allowed in an nbgrader id: both j_doe
    with pytest.raises(CanvasFormatError, match="would both be nbgrader student 'j_doe'"):
        write_roster(read_gradebook(path).students, tmp_path / "roster.csv")
    assert write_roster(read_gradebook(path).students, tmp_path / "roster.csv", "canvas") == 2
