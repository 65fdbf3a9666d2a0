"""The owner of a worker's sandboxes: at most ``keep`` live at once, the least recently used
closed first, never one in use. A process that plays many tasks keeps one :class:`Keeper`:
made by a process pool's initializer (:func:`start_in_pool`), by a Dask worker's plugin
(:class:`DaskKeeper`, which closes them at teardown), or by the caller and passed on.

>>> k = Keeper(keep=2)
>>> made = []
>>> def make(key):
...     made.append(key)
...     return Thing(key)
>>> with k.use(["a", "b"], make) as (a, b):
...     (a.key, b.key)
('a', 'b')
>>> with k.use(["c"], make) as (c,):   # "a", least recently used, makes room
...     k.live()
['b', 'c']
>>> k.close(); k.live(), k.peak
([], 2)
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, Protocol

__all__ = ["Keeper", "Closable", "DaskKeeper", "start_in_pool", "this_process", "KEEP",
           "PLUGIN"]

KEEP = 4  # live sandboxes per worker process: two pairings' players at once
PLUGIN = "minimaxkit-sandboxes"  # the Dask worker plugin's name


class Closable(Protocol):
    """A value a keeper keeps: it can be closed."""

    def close(self) -> None:
        """Release what it holds."""


#: seconds between two looks at the values kept idle (those with a ``check_idle()``: a
#: sandbox that holds too much memory or burns the processor between its tasks is stopped)
LOOK = 1.0


class Thing:
    """A stand-in value for the examples."""

    def __init__(self, key: Hashable) -> None:
        self.key = key

    def close(self) -> None:
        """Nothing to release."""
        pass


class Keeper:
    """Values made by ``make(key)`` and kept for the next task; see the module docstring."""

    def __init__(self, keep: int = KEEP, *, look: float = LOOK) -> None:
        if keep < 1:
            raise ValueError(f"Keeper: keep must be at least 1, not {keep!r}")
        self.keep, self.peak, self.look = keep, 0, look
        self._live: OrderedDict[Hashable, Any] = OrderedDict()
        self._busy: dict[Hashable, int] = {}
        self._cond = threading.Condition()
        self._done = threading.Event()
        self._watch: threading.Thread | None = None

    def _look(self, done: threading.Event) -> None:
        """Until ``done``: each idle value with a ``check_idle()`` is checked (under the lock,
        so that no task takes it meanwhile)."""
        while not done.wait(self.look):
            with self._cond:
                for key, value in self._live.items():
                    if value is not None and not self._busy.get(key) and \
                            hasattr(value, "check_idle"):
                        value.check_idle()

    def live(self) -> list[Hashable]:
        """The keys of the values alive now, least recently used first."""
        with self._cond:
            return list(self._live)

    @contextlib.contextmanager
    def use(self, keys: Sequence[Hashable], make: Callable[[Hashable], Closable]
            ) -> Iterator[list[Any]]:
        """The values of ``keys`` (made where not alive), this task's alone and kept from
        being closed until the ``with`` ends; waits while another task uses one of them or
        too many others are in use."""
        keys = list(dict.fromkeys(keys))
        if len(keys) > self.keep:
            raise ValueError(f"Keeper: {len(keys)} values at once, more than keep={self.keep}")
        with self._cond:
            if self._watch is None:
                self._done = threading.Event()
                self._watch = threading.Thread(target=self._look, args=(self._done,),
                                               daemon=True, name="minimaxkit-keeper")
                self._watch.start()
            while True:  # each value to one task at a time; all of them at once, or wait
                free = [k for k in self._live if not self._busy.get(k) and k not in keys]
                new = [k for k in keys if k not in self._live]
                if len(self._live) - len(free) + len(new) <= self.keep and \
                        not any(self._busy.get(k) for k in keys):
                    break
                self._cond.wait()
            gone = [self._live.pop(k) for k in free[:max(0, len(self._live) + len(new) -
                                                         self.keep)]]
            for k in keys:
                self._busy[k] = self._busy.get(k, 0) + 1
                self._live[k] = self._live.pop(k, None)  # most recently used last
            self.peak = max(self.peak, len(self._live))
        try:
            for value in gone:
                value.close()
            out = []
            for k in keys:
                with self._cond:
                    value = self._live[k]
                if value is None:  # made outside the lock: others may use the rest
                    value = make(k)
                    with self._cond:
                        self._live[k] = value
                out.append(value)
            yield out
        finally:
            with self._cond:
                for k in keys:
                    self._busy[k] -= 1
                    if self._live.get(k, 0) is None:  # make failed: nothing to keep
                        self._live.pop(k)
                self._cond.notify_all()

    def close(self) -> None:
        """Close every value not in use (all of them, once the tasks are done)."""
        with self._cond:
            if not any(self._busy.values()):  # no task left: nothing more to look at
                self._done.set()
                self._watch = None
            gone = [self._live.pop(k) for k in list(self._live) if not self._busy.get(k)]
        for value in gone:
            if value is not None:
                value.close()


_PROCESS: dict[str, Keeper] = {}  # this worker process's keeper (start_in_pool's)


def start_in_pool(keep: int = KEEP) -> None:
    """A process pool's initializer: this worker process's :class:`Keeper`, closed when
    the process ends."""
    import multiprocessing.util

    keeper = _PROCESS["keeper"] = Keeper(keep)
    multiprocessing.util.Finalize(keeper, keeper.close, exitpriority=10)


def this_process() -> Keeper | None:
    """The keeper of this Dask worker (:class:`DaskKeeper`) or pool process, if any."""
    try:
        from distributed import get_worker

        keeper = getattr(get_worker().plugins.get(PLUGIN), "keeper", None)
        if isinstance(keeper, Keeper):
            return keeper
    except (ImportError, ValueError):  # not on a Dask worker
        pass
    return _PROCESS.get("keeper")


class DaskKeeper:
    """A Dask worker plugin that owns the worker's :class:`Keeper`, closed at teardown
    (when the worker ends or the plugin is unregistered)."""

    name = PLUGIN

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self.keeper: Keeper | None = None

    def setup(self, worker: Any) -> None:
        """The worker starts: its keeper is made."""
        self.keeper = Keeper(self.keep)

    def teardown(self, worker: Any) -> None:
        """The worker ends: every sandbox its keeper holds is closed."""
        if self.keeper is not None:
            self.keeper.close()

    @staticmethod
    def plugin(keep: int = KEEP) -> Any:
        """The plugin as Dask's ``WorkerPlugin`` (``distributed`` imported only here)."""
        from distributed.diagnostics.plugin import WorkerPlugin

        class Plugin(DaskKeeper, WorkerPlugin):  # type: ignore[misc]
            pass

        return Plugin(keep)
