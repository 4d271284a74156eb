"""The garbage collector during a run (issue 29).

A run builds a large heap that lives until it ends (every parsed document, its data and prose
model, the indexes) and frees little of it before then. CPython's cyclic collector assumes
otherwise: by default it makes a young-generation pass every 700 allocations and a full pass
every 100 of those, re-traversing every tracked object each time. Measured on OpenWOP, cold, on
2 cores: 0.46 s of CPU in the collector (0.16 s in the parent, 0.08-0.12 s in each rule
worker); in a resident checker holding the corpus, 0.09 s of a 0.34 s one-page check.

- :func:`run_collector`: fewer passes for the run's duration, with the previous thresholds
  restored after it (a daemon or language server lives on between runs). Cyclic garbage still
  goes: young cycles at the next young pass, as before, only less often.
- :func:`frozen_heap` and :func:`before_fork`: right before each fork, the objects the parent
  has are moved to the collector's permanent generation (``gc.freeze``), so a forked child's
  passes neither traverse nor write to them: they stay shared with the parent instead of being
  copied page by page (the use the ``gc.freeze`` documentation describes). They are moved back
  when the block that forked is done.

Together, on OpenWOP ten times over (cold, 2 cores, one run each): 38.3 s and 68.8 s of CPU
before, 27.8 s and 50.9 s after; the thresholds alone, 32.0 s, with a peak of 485 MB instead
of 433 MB (each child's passes then copied the pages they traversed); both, 434 MB.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator
from typing import cast

# A young pass every 50,000 net allocations (not 700), an older one every 20 of those, a full
# one every 100 older ones: a cold OpenWOP run makes 3 passes instead of about 480, and its
# collector time goes from 0.46 s to 0.05-0.09 s of CPU.
RUN_THRESHOLDS = (50_000, 20, 100)


@contextlib.contextmanager
def run_collector() -> Iterator[None]:
    """The run's collector thresholds while the block runs; the previous ones after it."""
    previous = gc.get_threshold()
    gc.set_threshold(*RUN_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


# Whether an open frozen_heap block owns the freeze: it found nothing frozen, so what is frozen
# until it ends is its own to take back.
_owned = [False]


@contextlib.contextmanager
def frozen_heap() -> Iterator[None]:
    """A block that forks: what :func:`before_fork` leaves out of collections in it is taken
    back when it ends. Where blocks nest, the outermost does it; where the process had frozen
    objects of its own before (a host that called ``gc.freeze``), nothing is frozen, since it
    could not be told apart to be taken back."""
    owner = not _owned[0] and gc.get_freeze_count() == 0
    if owner:
        _owned[0] = True
    try:
        yield
    finally:
        if owner:
            try:
                gc.unfreeze()
            finally:
                _owned[0] = False


def before_fork() -> None:
    """Leave every object tracked now out of collections, so a child forked next inherits them
    untouched by its collector; only inside a :func:`frozen_heap` block that owns the freeze,
    which takes them back (elsewhere nothing would, and the process's cyclic garbage would
    never be collected)."""
    if _owned[0]:
        gc.freeze()


def _trimmer() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (Linux), None elsewhere (macOS, musl without it)."""
    # Deferred: ctypes is loaded only by a run that forks its rule workers.
    import ctypes

    try:
        return cast(Callable[[int], int], ctypes.CDLL(None).malloc_trim)
    except (OSError, AttributeError):
        return None


def release_free_memory() -> None:
    """Hand back to the system the memory the C allocator keeps free, before forking workers.

    Freed blocks of the C heap stay resident: after a cold parse, the files' bytes (read for the
    run's key and the parse, let go once it is done) leave about as much free as they took
    (33 MB on OpenWOP ten times over, of the parent's 301 MB). A forked worker starts with every
    resident page of its parent counted as its own, and Python's small objects, most of what a
    rule builds, come from arenas of their own, not from those free blocks: the free memory
    counted once more in every worker's peak. ``malloc_trim(0)`` returns it (glibc, since 2.8:
    the free pages inside the heap as well as its top); where there is no such call, nothing
    is done."""
    trim = _trimmer()
    if trim is not None:
        trim(0)
