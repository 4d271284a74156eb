"""Work split across forked processes: parsing a cold corpus on every core (issue 16, item 3).

:func:`forked_map` gives ``[function(item) for item in items]``, with the items dealt to ``jobs``
processes by weight (file sizes) where ``fork`` is available: this process takes one share and
forked children the others, each sending its results back one by one, pickled, over a pipe. Pickle is safe
here, and only here: the bytes were written by a child of this run, for this run, and are read
once. A child that dies or cannot send its results (a value that does not pickle) is not an
error: this process computes that share itself, so the result never depends on the split.

What the parse sends most of are the prose models' small frozen dataclasses (OpenWOP's 73 pages:
35,000 of them). :func:`sent_by_fields` pickles one as the call of its constructor with its
fields: the dataclasses' own pickling of a frozen class with slots asks ``dataclasses.fields``
again for every object, half the time of pickling a parsed page and of reading it back.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from speclint.common.collector import before_fork, frozen_heap
from speclint.common.lifecycle import child_started, start_child
from speclint.common.storage import values_of

Item = TypeVar("Item")
Result = TypeVar("Result")
Class = TypeVar("Class", bound=type)


def sent_by_fields(cls: Class) -> Class:
    """``cls`` (a dataclass whose every field is an argument of its constructor), pickled as
    ``cls(*fields)``: the same object read back, without the per-object ``dataclasses.fields``
    call of a frozen slotted dataclass's ``__getstate__`` and ``__setstate__`` (see above)."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    if any(not f.init for f in dataclasses.fields(cls)) or not names:
        raise TypeError(f"{cls.__qualname__}: every field must be an argument of its constructor")
    arguments = values_of(names)

    def __reduce__(self: Any) -> tuple[Class, tuple[Any, ...]]:
        return cls, arguments(self)

    cls.__reduce__ = __reduce__  # type: ignore[method-assign,assignment]
    return cls


def default_jobs() -> int:
    """How many processes share the work: ``SPECLINT_JOBS``, else the number of CPUs, at most 8.
    Raises ``ValueError`` for a ``SPECLINT_JOBS`` that is not a whole number of at least 1 (a
    typo must not quietly mean "all the CPUs")."""
    configured = os.environ.get("SPECLINT_JOBS", "").strip()
    if not configured:
        return max(1, min(8, os.cpu_count() or 1))
    if not configured.isascii() or not configured.isdigit() or int(configured) < 1:
        raise ValueError(
            f"SPECLINT_JOBS must be a whole number of processes, 1 or more (it is {configured!r})"
        )
    return int(configured)


# Below this much work a fork costs more than it saves: by the caller's weights, bytes of JSON
# to read in the same time (``speclint.model.corpus.parse_cost``): about 0.4 s, 512 KB of
# Markdown, 14 MB of JSON.
MIN_WEIGHT = 28 * 512 * 1024


def shares(weights: Sequence[int], jobs: int) -> list[list[int]]:
    """Indexes of ``weights`` dealt into ``jobs`` shares of about equal weight (heaviest first
    into the lightest share), each share in index order: deterministic."""
    dealt: list[list[int]] = [[] for _ in range(max(1, jobs))]
    loads = [0] * len(dealt)
    for index in sorted(range(len(weights)), key=lambda i: (-weights[i], i)):
        lightest = loads.index(min(loads))
        dealt[lightest].append(index)
        loads[lightest] += weights[index]
    return [sorted(share) for share in dealt if share]


def forked_map(
    function: Callable[[Item], Result],
    items: Sequence[Item],
    weights: Sequence[int],
    jobs: int,
) -> list[Result]:
    """``[function(item) for item in items]``, computed ``jobs`` ways in parallel when the work
    is worth it and the platform forks."""
    if jobs < 2 or len(items) < 2 or sum(weights) < MIN_WEIGHT:
        return [function(item) for item in items]
    # Deferred: multiprocessing is imported only when the work is worth forking for.
    import multiprocessing

    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        return [function(item) for item in items]
    own, *others = shares(weights, jobs)
    parent = os.getpid()

    def child(share: list[int], out: Any) -> None:
        child_started(parent)
        # The whole share first (a send blocks until the parent, busy with its own share,
        # reads), then one result at a time: the parent never holds a share's bytes at once.
        with contextlib.suppress(Exception):  # what is not sent, this process computes
            for blob in [pickle.dumps(function(items[i]), protocol=5) for i in share]:
                out.send_bytes(blob)
        out.close()

    started = []
    with frozen_heap():  # each child is forked just after before_fork()
        try:
            for share in others:
                receive, send = context.Pipe(duplex=False)
                process = context.Process(target=child, args=(share, send), daemon=True)
                started.append((share, receive, process))  # before it starts: see runner
                try:
                    before_fork()
                    start_child(process)
                finally:
                    send.close()
            results: dict[int, Result] = {i: function(items[i]) for i in own}
            for share, receive, process in started:
                for index in share:
                    try:
                        results[index] = pickle.loads(receive.recv_bytes())
                    except (EOFError, OSError, pickle.UnpicklingError):
                        break
                receive.close()
                process.join()
                for index in share:
                    if index not in results:
                        results[index] = function(items[index])
        finally:
            # Interrupted (a signal, the run's time limit): no child outlives the call.
            for _, receive, process in started:
                if process.pid is not None and process.exitcode is None:
                    process.kill()
                    process.join()
                receive.close()
    return [results[i] for i in range(len(items))]
