"""Progress of long checks: rules say how far they are, the CLI decides whether anyone sees it.

A rule wraps its work list in :func:`tracked`; that costs nothing unless the CLI installed a sink
with :func:`reporting`. ``speclint check`` installs :class:`TerminalProgress` when standard error is
a terminal (or with ``--progress``), so reports on standard output and redirected runs in CI stay
byte-identical.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TextIO, TypeVar

Item = TypeVar("Item")
Sink = Callable[[str, int, int], None]  # (what, done, total)

_sink: ContextVar[Sink | None] = ContextVar("speclint_progress", default=None)


def tracked(items: Iterable[Item], what: str) -> Iterator[Item]:
    """Yield ``items``, telling the installed sink (if any) how many are done."""
    sink = _sink.get()
    if sink is None:
        yield from items
        return
    work: Sequence[Item] = items if isinstance(items, Sequence) else list(items)
    total = len(work)
    for done, item in enumerate(work):
        sink(what, done, total)
        yield item
    sink(what, total, total)


def current() -> Sink | None:
    """The installed sink, for code that reports progress itself (the parallel runner)."""
    return _sink.get()


@contextmanager
def reporting(sink: Sink | None) -> Iterator[None]:
    token = _sink.set(sink)
    try:
        yield
    finally:
        _sink.reset(token)


class TerminalProgress:
    """A one-line bar on a terminal, redrawn at most ten times a second and erased when done.

    Short lists (fewer than ``minimum`` items) draw nothing: a bar that flashes for a tenth of a
    second is noise.
    """

    def __init__(self, stream: TextIO, width: int = 30, minimum: int = 10) -> None:
        self.stream = stream
        self.width = width
        self.minimum = minimum
        self.drawn_at = 0.0
        self.drawn = False  # anything written (a run that drew is not replayed: its times vary)
        self.started: dict[str, float] = {}

    def __call__(self, what: str, done: int, total: int) -> None:
        if total < self.minimum:
            return
        now = time.monotonic()
        start = self.started.setdefault(what, now)
        self.drawn = True
        if done >= total:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.started.pop(what, None)
            return
        if done and now - self.drawn_at < 0.1:
            return
        self.drawn_at = now
        filled = self.width * done // total
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r\x1b[K{what} [{bar}] {done}/{total} {now - start:4.1f}s")
        self.stream.flush()
