"""Reading and writing traces as JSON: the columnar version 4 that
:meth:`~minimaxkit.trace.Trace.to_json` writes, and versions 3 (the same without coded
columns) and 2 (a list per event) that :meth:`~minimaxkit.trace.Trace.from_json` still
reads. Errors name the event."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import partial
from itertools import chain, compress, repeat
from operator import itemgetter
from typing import Any

import numpy as np

from ..errors import TraceError
from .events import CUTOFF, ENTER, EXIT, FIELDS, LEAF, TTHIT, Path
from .paths import paths_of, steps_of

# ----- versions 3 and 4: columns ----------------------------------------------------------
_LETTER = {ENTER: "e", LEAF: "l", CUTOFF: "c", EXIT: "x", TTHIT: "t"}
_KIND_OF_LETTER = {v: k for k, v in _LETTER.items()}
#: Small whole numbers (0..63) are written as text, a character per number.
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
_TO_DIGITS = bytes(_DIGITS, "ascii").ljust(256, b"?")
_FROM_DIGITS = bytes(_DIGITS.index(chr(b)) if chr(b) in _DIGITS else 255 for b in range(256))
#: Per kind, a bytes.translate table: its letter to 1, every other byte to 0.
_SELECT = {k: bytes(int(chr(b) == _LETTER[k]) for b in range(256)) for k in _LETTER}


def _digits(numbers: Any) -> str | None:
    """Numbers 0..63 (an iterable of ints) as a string of :data:`_DIGITS`, or None."""
    try:
        text = bytes(numbers).translate(_TO_DIGITS)
    except (TypeError, ValueError):
        return None
    return None if b"?" in text else text.decode("ascii")


def _pack(col: list[Any]) -> list[Any] | str | dict[str, Any]:
    """A column as compact JSON: digits if it holds only ints (or only bools) 0..63; else a
    ``{"palette": [...], "codes": digits}`` if it has at most 64 distinct values that a set
    keeps apart (no 1 beside 1.0, no -0.0, no NaN; checked); else the list itself."""
    if not col:
        return col
    types = set(map(type, col))
    if len(types) == 1 and types <= {int, bool}:
        text = _digits(col)
        if text is not None:
            return text
    if not types <= {int, float, str, type(None)}:
        return col
    distinct = set(col)
    if len(distinct) > 64 or any(v != v or (type(v) is float and v == 0) for v in distinct):
        return col
    if {int, float} <= types and len(set(zip(map(type, col), col, strict=True))) != len(distinct):
        return col
    palette = sorted(distinct, key=lambda v: (type(v).__name__, "" if v is None else v))
    code = {v: k for k, v in enumerate(palette)}
    return {"palette": palette, "codes": _digits(map(code.__getitem__, col))}


def dump_v4(raw: tuple[tuple[Any, ...], ...], kwargs: dict[str, Any], walked: bool) -> str:
    """The version-4 JSON text of the raw events ``raw`` (``kwargs`` go to ``json.dumps``;
    ``walked``: the paths are a depth-first walk, their steps need no check): the layout
    :meth:`~minimaxkit.trace.Trace.to_json` describes."""
    kinds = "".join(map(_LETTER.__getitem__, map(itemgetter(0), raw)))
    up, child, tails = _path_steps(raw, kinds, walked)
    data: dict[str, Any] = {"format": "minimaxkit-trace", "version": 4, "kinds": kinds,
                            "up": _pack_steps(up), "child": _pack_steps(child),
                            "tails": tails}
    selector = kinds.encode("ascii")
    for kind, names in FIELDS.items():
        rows = list(compress(raw, selector.translate(_SELECT[kind])))
        block: dict[str, Any] = {name: list(map(itemgetter(j + 1), rows))
                                 for j, name in enumerate(names) if j}
        data[kind] = block
        if "depth" in block and block["depth"] == list(map(len, map(itemgetter(1), rows))):
            block["depth"] = None  # a search from the root: every depth is the path's length
        for name in names[1:]:
            if name != "pruned" and block[name] is not None:
                block[name] = _pack(block[name])
    data["pruned"] = list(chain.from_iterable(data[CUTOFF]["pruned"]))
    data[CUTOFF]["pruned"] = _pack(list(map(len, data[CUTOFF]["pruned"])))
    return json.dumps(data, **kwargs).replace("Infinity", "1e999")


def _pack_steps(steps: np.ndarray | list[int]) -> str | list[int]:
    """An ``up`` or ``child`` column: digits if every step is 0..63, else a list."""
    if isinstance(steps, np.ndarray):
        if len(steps) == 0 or (steps.min() >= 0 and steps.max() < 64):
            return steps.astype(np.uint8).tobytes().translate(_TO_DIGITS).decode("ascii")
        return steps.tolist()
    return _digits(steps) or steps


def _unpack(col: Any, what: str, at: Callable[[int], int | None]) -> Any:
    """A column written by :func:`_pack` as a list (a list is returned as it is); ``at``
    turns a position in the column into the event index an error names."""
    if isinstance(col, dict):
        palette, codes = col.get("palette"), col.get("codes")
        if not isinstance(palette, list) or not isinstance(codes, str) or len(palette) > 64:
            raise TraceError(at(0), f"{what}: a coded column needs 'palette' (a list of at "
                                    "most 64 values) and 'codes' (text)")
        values = _from_digits(codes, what, at)
        beyond = values.translate(bytes(min(v, len(palette), 255) for v in range(256)))
        if len(palette) < 64 and len(palette) in beyond:
            k = beyond.index(len(palette))
            raise TraceError(at(k), f"{what}: code {codes[k]!r} is beyond the palette of "
                                    f"{len(palette)} values")
        return list(map(palette.__getitem__, values))
    if isinstance(col, str):
        return list(_from_digits(col, what, at))
    return col


def _steps(col: Any, what: str, n: int) -> np.ndarray:
    """The ``up`` or ``child`` column as an array of ``n`` whole numbers >= 0, checked."""
    if isinstance(col, str):
        steps = np.frombuffer(_from_digits(col, what, lambda k: k), np.uint8).astype(np.int64)
    elif isinstance(col, list):
        if set(map(type, col)) - {int}:
            i = next(i for i, x in enumerate(col) if type(x) is not int)
            raise TraceError(i, f"{what} must be a whole number, got {col[i]!r:.80}")
        if col and min(col) < 0:
            i = next(i for i, x in enumerate(col) if x < 0)
            raise TraceError(i, f"up and child must be >= 0, got {what} {col[i]}")
        steps = np.array(col, np.int64 if not col or max(col) < 2**62 else object)
    else:
        raise TraceError(None, f"a version 3 or 4 trace needs {what!r} as text or a list")
    if len(steps) != n:
        raise TraceError(min(len(steps), n), f"{what!r} has {len(steps)} entries for {n} "
                                             "events")
    return steps


def _from_digits(text: str, what: str, at: Callable[[int], int | None]) -> bytes:
    values = text.encode("ascii", "replace").translate(_FROM_DIGITS)
    if 255 in values:
        k = values.index(255)
        raise TraceError(at(k), f"{what}: {text[k]!r} is not one of the digits {_DIGITS}")
    return values


def _path_steps(raw: Sequence[tuple[Any, ...]], kinds: str, walked: bool = False
                ) -> tuple[np.ndarray | list[int], np.ndarray | list[int], list[Any]]:
    """Each event's path from the previous one's: levels ``up``, then the ``child`` taken
    plus one (0 for none), and ``tails`` ``[event, child, ...]`` where more than one is.
    The paths of a depth-first search are done with numpy (:mod:`._trace_paths`); others
    here, on a ``stack`` of the previous path's prefixes, shortest first."""
    paths = list(map(itemgetter(1), raw))
    steps = steps_of(kinds.encode("ascii"), paths, walked=walked)
    if steps is not None:
        return steps[0], steps[1], []
    return steps_by_stack(paths)


def steps_by_stack(paths: Sequence[Path]) -> tuple[list[int], list[int], list[Any]]:
    """:func:`_path_steps` for any paths, event by event."""
    up: list[int] = []
    child: list[int] = []
    tails: list[Any] = []
    up_add, child_add = up.append, child.append
    stack: list[Path] = [()]
    for i, q in enumerate(paths):
        lq, ls = len(q), len(stack)
        if lq < ls and q == stack[lq]:  # the node itself or an ancestor
            up_add(ls - 1 - lq)
            child_add(0)
            del stack[lq + 1:]
        elif 0 < lq <= ls and q[:-1] == stack[lq - 1]:  # a new child of one of those
            up_add(ls - lq)
            child_add(q[-1] + 1)
            del stack[lq:]
            stack.append(q)
        else:  # anywhere else (a hand-made trace): up to the common prefix, then down
            common = 0
            while common < lq and common < ls - 1 and q[common] == stack[-1][common]:
                common += 1
            up_add(ls - 1 - common)
            child_add(q[common] + 1 if common < lq else 0)
            if lq - common > 1:
                tails.append([i, *q[common + 1:]])
            del stack[common + 1:]
            stack.extend(q[:k] for k in range(common + 1, lq + 1))
    return up, child, tails


def load_v4(data: dict[str, Any]) -> tuple[list[tuple[Any, ...]], bool]:
    """The events of a version 3 or 4 text (see :meth:`Trace.to_json`; version 3 is
    version 4 without coded columns), and whether their paths are a walk (see
    :func:`~minimaxkit.trace.paths.steps_of`). Paths are rebuilt so that a node's events
    share one path object; the events are then zipped from the columns, kind by kind."""
    kinds, up, child, tails = (data.get(k) for k in ("kinds", "up", "child", "tails"))
    if not isinstance(kinds, str) or not isinstance(tails, list):
        raise TraceError(None, "a version 3 or 4 trace needs 'kinds' (text), 'up', 'child' "
                               "and 'tails' (lists)")
    n = len(kinds)
    bad = set(kinds) - set(_KIND_OF_LETTER)
    if bad:
        i = next(i for i, c in enumerate(kinds) if c in bad)
        raise TraceError(i, f"unknown kind letter {kinds[i]!r}; the letters are "
                            f"{''.join(_KIND_OF_LETTER)}")
    up, child = _steps(up, "up", n), _steps(child, "child", n)
    columns = _columns(data, kinds)
    long = _tails(tails, n)
    if long or up.dtype == object or child.dtype == object:
        paths, walked = _paths(up.tolist(), child.tolist(), long), False
    else:
        paths, walked = paths_of(up, child, kinds.encode("ascii"))
    rows = {}
    selector = kinds.encode("ascii")
    for kind, cols in columns.items():
        mine = list(compress(paths, selector.translate(_SELECT[kind])))
        if "depth" in FIELDS[kind] and cols[-1] is None:
            cols[-1] = list(map(len, mine))
        rows[_LETTER[kind]] = zip(repeat(kind), mine, *cols)
    return list(map(next, map(rows.__getitem__, kinds))), walked


def _paths(up: list[int], child: list[int], long: dict[int, list[int]]) -> list[Path]:
    """Each event's path: ``up`` levels from the previous one, then down to ``child - 1``
    (``child`` 0: stay)."""
    if min(up, default=0) < 0 or min(child, default=0) < 0:
        i = next(i for i, (u, c) in enumerate(zip(up, child, strict=True)) if u < 0 or c < 0)
        raise TraceError(i, f"up and child must be >= 0, got {up[i]} and {child[i]}")
    stack: list[Path] = [()]
    out: list[Path] = []
    add, push = out.append, stack.append
    try:
        if not long:  # the usual case, kept tight
            for u, c in zip(up, child, strict=True):
                if u:
                    del stack[-u:]
                if c:
                    push(stack[-1] + (c - 1,))
                add(stack[-1])
            return out
        for i, (u, c) in enumerate(zip(up, child, strict=True)):
            if u:
                del stack[-u:]
            if c:
                push(stack[-1] + (c - 1,))
            for x in long.get(i, ()):
                push(stack[-1] + (x,))
            add(stack[-1])
    except IndexError:
        i = len(out)
        raise TraceError(i, f"the path goes up {up[i]} levels, past the root") from None
    return out


def _tails(tails: list[Any], n: int) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for t in tails:
        if not isinstance(t, list) or len(t) < 2 or not all(type(x) is int for x in t) \
                or not 0 <= t[0] < n:
            where = t[0] if isinstance(t, list) and t and type(t[0]) is int else None
            raise TraceError(where, f"a tail must be [event index, child, ...], got {t!r:.80}")
        out[t[0]] = t[1:]
    return out


def _columns(data: dict[str, Any], kinds: str) -> dict[str, list[Any]]:
    """Per kind, its events' fields after the path as columns, checked: every column as
    long as the kind's count, numbers where numbers belong."""
    out: dict[str, list[Any]] = {}
    pruned = data.get("pruned", [])
    for kind, names in FIELDS.items():
        count = kinds.count(_LETTER[kind])
        block = data.get(kind, {})
        if not isinstance(block, dict):
            raise TraceError(None, f"{kind!r} must be an object of columns")
        cols: list[Any] = []
        for name in names[1:]:
            col = block.get(name, [] if count == 0 else 0)
            if col is None and name == "depth":  # each depth is its path's length
                cols.append(None)
                continue
            stored = col
            col = _unpack(col, name, partial(_nth, kinds, _LETTER[kind]))
            if name == "is_max" and isinstance(stored, str):
                col = list(map(bool, col))
            if not isinstance(col, list) or len(col) != count:
                got = len(col) if isinstance(col, list) else 0
                raise TraceError(_nth(kinds, _LETTER[kind], got), f"the {kind!r} column "
                                 f"{name!r} has {got} entries for {count} events")
            written = stored["palette"] if isinstance(stored, dict) else col
            if name in _NUMBERS and not isinstance(stored, str) \
                    and set(map(type, written)) - {int, float}:
                k = next(k for k, v in enumerate(col) if type(v) not in (int, float))
                raise TraceError(_nth(kinds, _LETTER[kind], k),
                                 f"{name} must be a number, got {col[k]!r:.80}")
            cols.append(col)
        if kind == CUTOFF:
            cols[-1] = _split(cols[-1], pruned, kinds)
        out[kind] = cols
    return out


def _split(counts: list[Any], flat: Any, kinds: str) -> list[tuple[int, ...]]:
    """The cut-offs' ``pruned`` tuples from their counts and the flat list."""
    if not isinstance(flat, list) or not all(type(x) is int for x in flat):
        raise TraceError(None, "'pruned' must be a list of child indices")
    out, at = [], 0
    for k, m in enumerate(counts):
        if type(m) is not int or m < 0 or at + m > len(flat):
            raise TraceError(_nth(kinds, "c", k), f"bad count of pruned children {m!r:.80}")
        out.append(tuple(flat[at:at + m]))
        at += m
    return out


def _nth(kinds: str, letter: str, k: int) -> int | None:
    """The index of the ``k``-th event (from 0) whose kind letter is ``letter``."""
    at = -1
    for _ in range(k + 1):
        at = kinds.find(letter, at + 1)
        if at < 0:
            return None
    return at


def decode_all(rows: list[Any]) -> list[tuple[Any, ...]]:
    """The events of the compact form; a row of the wrong shape goes to :func:`decode`,
    which names what is wrong with it."""
    out: list[tuple[Any, ...]] = []
    append, sizes = out.append, _SIZES
    for i, row in enumerate(rows):
        if type(row) is not list or not row or sizes.get(row[0]) != len(row) \
                or type(row[1]) is not list:
            append(decode(i, row))
        elif row[0] == CUTOFF:
            append((CUTOFF, tuple(row[1]), row[2], row[3], row[4], tuple(row[5])))
        else:
            append((row[0], tuple(row[1]), *row[2:]))
    return out


def decode(i: int, row: Any) -> tuple[Any, ...]:
    """One event from its JSON list form, checked: kind, field count, paths of ints,
    numbers (or "inf"/"-inf") where numbers belong."""
    if not isinstance(row, list) or not row or row[0] not in FIELDS:
        raise TraceError(i, f"expected [kind, ...] with kind one of {sorted(FIELDS)}, "
                            f"got {row!r:.80}")
    kind, names = row[0], FIELDS[row[0]]
    if len(row) != len(names) + 1:
        raise TraceError(i, f"a {kind!r} event has {len(names)} fields {list(names)}, "
                            f"got {len(row) - 1}")
    out: list[Any] = [kind]
    for name, v in zip(names, row[1:], strict=True):
        if name in ("path", "pruned"):
            if not isinstance(v, list) or not all(type(x) is int for x in v):
                raise TraceError(i, f"{name} must be a list of child indices, got {v!r:.80}")
            v = tuple(v)
        elif name in _NUMBERS:
            if v in ("inf", "-inf"):
                v = float(v)
            elif isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TraceError(i, f"{name} must be a number, got {v!r:.80}")
        out.append(v)
    return tuple(out)


_NUMBERS = {"alpha", "beta", "value", "bound"}
_SIZES = {kind: len(names) + 1 for kind, names in FIELDS.items()}
