"""Running deep recursions without letting Python's recursion limit decide anything.

Validators recurse along ``$ref`` chains and nesting. Python's default limit (1,000 frames) is
reached by a valid document nested about 120 schemas deep (each level costs several frames), and
the ``RecursionError`` says nothing about the document: openapi-spec-validator's became "probably
incomplete" (issue 13, item 9). Rules run on a thread with a deep stack and recursion limit (see
``runner``), so that only nesting no real document has runs out of it; past that, a rule reports
"not checked", never "invalid".
"""

from __future__ import annotations

import contextvars
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

# Address space, not memory: only the pages a recursion touches become resident.
DEEP_STACK = 1 << 30
DEEP_RECURSION = 100_000
DEEP_THREAD = "speclint-deep"


def deeply(function: Callable[[], T]) -> T:
    """``function()`` on a thread with a deep stack and recursion limit; its result or its error.

    The recursion limit is the interpreter's (one for all threads): it is raised for the call and
    restored after it. Called on a deep thread already, it just calls ``function``."""
    if threading.current_thread().name == DEEP_THREAD:
        return function()  # already deep (a rule's own deep call inside the runner's)
    outcome: dict[str, Any] = {}
    # The caller's context variables (the progress sink) hold on the new thread too.
    context = contextvars.copy_context()

    def run() -> None:
        try:
            outcome["value"] = context.run(function)
        except BaseException as error:  # handed to the caller's thread
            outcome["error"] = error

    previous_limit = sys.getrecursionlimit()
    previous_stack = threading.stack_size()
    try:
        threading.stack_size(DEEP_STACK)
    except (ValueError, RuntimeError):  # no settable stacks here: the caller's own stack
        return function()
    try:
        sys.setrecursionlimit(max(previous_limit, DEEP_RECURSION))
        worker = threading.Thread(target=run, name=DEEP_THREAD, daemon=True)
        try:
            worker.start()
        except RuntimeError:  # no room for the stack (a `ulimit -v`): the caller's own stack
            sys.setrecursionlimit(previous_limit)
            return function()
    finally:
        threading.stack_size(previous_stack)
    try:
        while worker.is_alive():  # in slices, so the main thread still takes its signals
            worker.join(0.5)
    finally:
        sys.setrecursionlimit(previous_limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]
