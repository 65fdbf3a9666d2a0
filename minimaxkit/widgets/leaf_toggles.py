"""The toggle buttons of a quiz's leaves and of the hand trace's edges (an anywidget, its
front end in ``toggles.js``): one real ``<button>`` per item with ``aria-pressed`` and an
accessible name; after a check, a wrong one says what is wrong in the state it is in."""

from __future__ import annotations

from pathlib import Path as FilePath

import anywidget
import traitlets

__all__ = ["LeafToggles", "TOGGLE_COLORS", "TOGGLES_CSS", "WRONG_WORDS"]

#: Colours of the leaf toggles: text 4.5:1 on both states, and the selected fill 3:1 or more
#: against the unselected one and the page (tests/test_contrast.py checks them).
TOGGLE_COLORS = {"text": "#111111", "background": "#ffffff", "border": "#5a5a5a",
                 "on": "#0b4f8a", "on_text": "#ffffff", "on_border": "#062a4a",
                 "focus": "#b34700", "wrong": "#b34700", "wrong_fill": "#fff1e8"}

#: What a wrong toggle says after its ✗ when it is pressed, and when it is not.
WRONG_WORDS = ("selected, should not be", "not selected, should be")

TOGGLES_CSS = """
.mmk-toggles {{ display: flex; flex-flow: row wrap; gap: 4px; }}
.mmk-toggles .mmk-leaf {{ font: inherit; font-size: 13px; min-width: 64px; min-height: 28px;
  color: {text}; background: {background}; border: 1px solid {border}; border-radius: 3px;
  padding: 2px 6px; cursor: pointer; }}
.mmk-toggles .mmk-leaf[aria-pressed="true"] {{ color: {on_text}; background: {on};
  border: 2px solid {on_border}; font-weight: bold; }}
.mmk-toggles .mmk-leaf[aria-pressed="true"]::before {{ content: "✓ "; }}
.mmk-toggles .mmk-leaf:focus-visible {{ outline: 3px solid {focus}; outline-offset: 2px; }}
.mmk-toggles .mmk-leaf.mmk-wrong {{ border: 2px dashed {wrong}; background: {wrong_fill};
  color: {text}; }}
.mmk-toggles .mmk-leaf.mmk-wrong .mmk-wrong-mark {{ color: {wrong}; font-weight: bold; }}
.mmk-toggles .mmk-leaf.mmk-wrong[aria-pressed="true"] {{ color: {on_text}; background: {on};
  border: 2px dashed {wrong}; outline: 2px solid {on_border}; font-weight: bold; }}
.mmk-toggles .mmk-leaf.mmk-wrong[aria-pressed="true"] .mmk-wrong-mark {{ color: {on_text}; }}
.mmk-toggles .mmk-leaf.mmk-wrong[aria-pressed="true"]::before {{ content: none; }}
""".format(**TOGGLE_COLORS)


class LeafToggles(anywidget.AnyWidget):  # type: ignore[misc]
    """One toggle button per leaf (``toggles.js``): ``aria-pressed``, an accessible name,
    no tooltip; ``selected`` holds the indices of the selected leaves, ``wrong`` those a
    check found wrong. A wrong toggle shows ✗ and ``wrong_words`` after its text (the
    first when it is pressed, the second when not), and its name says them too: a wrong
    pressed toggle keeps its pressed (dark) fill and a wrong unpressed one its light one,
    so the two read differently (student 4 saw them drawn alike).

    >>> t = LeafToggles([("B 3", "leaf B, value 3"), ("C 5", "leaf C, value 5")])
    >>> t.selected = [1]; t.items[1][0], t.selected
    ('C 5', [1])
    """

    _esm = (FilePath(__file__).parent / "toggles.js").read_text(encoding="utf-8")
    _css = TOGGLES_CSS
    items = traitlets.List(traitlets.List(traitlets.Unicode())).tag(sync=True)
    selected = traitlets.List(traitlets.Int()).tag(sync=True)
    #: the indices of the toggles a check found wrong: each shows ✗ until the next check
    wrong = traitlets.List(traitlets.Int()).tag(sync=True)
    label = traitlets.Unicode("the leaves").tag(sync=True)
    #: what a wrong toggle says after its ✗: pressed, then not pressed
    wrong_words = traitlets.List(traitlets.Unicode(),
                                 default_value=list(WRONG_WORDS)).tag(sync=True)

    def __init__(self, items: list[tuple[str, str]], *, label: str = "the leaves",
                 wrong_words: tuple[str, str] = WRONG_WORDS) -> None:
        super().__init__(items=[list(i) for i in items], selected=[], label=label,
                         wrong_words=list(wrong_words))
        self.add_class("mmk-leaf-toggles")
