"""How a run ends: on a signal, at its time limit, or with its parent.

speclint forks (one child per rule, a worker per satisfiability decider) and checks out temporary
git worktrees. A run killed half-way must leave nothing behind (issue 13):

- ``SIGINT`` and ``SIGTERM`` raise :class:`Interrupted` in the main process, so every ``finally``
  runs: children are killed, the worktree is removed. The exit code is the shell's ``128 + n``
  (130 for Ctrl-C, 143 for ``SIGTERM``), never 1, which means "findings";
- a forked child calls :func:`child_started` first: it ignores ``SIGINT`` (the terminal sends it
  to the whole process group, and the parent decides), and dies with its parent, through
  ``PR_SET_PDEATHSIG`` on Linux and a watcher thread elsewhere, so ``SIGKILL`` of the parent
  leaves no orphan running past its time box or forking more;
- :func:`time_limit` bounds the whole run, not only each rule: when it passes, the main process
  gets :class:`TimeLimitReached` wherever it is (parsing a 20 MB file, building an index).

What ``SIGKILL`` of the parent leaves on disk (a worktree) is removed by the next run
(:mod:`speclint.parsing.gitbase`).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType
from typing import Any, NoReturn

PR_SET_PDEATHSIG = 1  # linux/prctl.h


# Seconds for a whole run (each rule also has its own time box): the engine's default, and what a
# daemon's client waits for beside a margin (it never imports the engine).
DEFAULT_TIME_LIMIT = 900.0


class Interrupted(BaseException):
    """The run was asked to stop by a signal. A BaseException, like KeyboardInterrupt, so that no
    ``except Exception`` on the way turns it into a finding."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal.Signals(signal_number).name)
        self.signal_number = signal_number

    @property
    def exit_code(self) -> int:
        return 128 + self.signal_number


class TimeLimitReached(BaseException):
    """The whole run's time limit passed."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"{seconds:g} s")
        self.seconds = seconds


def _raise_interrupted(number: int, frame: FrameType | None) -> None:
    raise Interrupted(number)


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """In the main thread: SIGINT and SIGTERM raise :class:`Interrupted` while the block runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {
        number: signal.signal(number, _raise_interrupted)
        for number in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def exit_interrupted(interruption: Interrupted) -> NoReturn:
    """End the process as an interrupted run ends: one line, and the shell's exit code."""
    print(f"speclint: interrupted ({interruption}); nothing was reported", file=sys.stderr)
    sys.exit(interruption.exit_code)


def exit_without_teardown(code: object) -> NoReturn:
    """End the process as ``sys.exit(code)`` would, without the interpreter's teardown.

    After a run, freeing the parsed corpus object by object and clearing every module took
    0.2-0.28 s of a 1.8 s one-schema-changed check on OpenWOP, and nothing depends on it: the
    ``atexit`` functions (temporary folders removed, ``multiprocessing``'s children joined) still
    run, the standard streams are flushed, and the run's own files are closed by then (mypy ends
    the same way, for the same reason). A profiler or tracer watching the process (``python -m
    cProfile``, coverage) writes its results after ``sys.exit``: the process then ends with it.
    A stdout that cannot be flushed (``speclint rules | head``) turns a status of 0 into 120, as
    CPython's exit does; a run's 1 or 2 is kept (CPython would say 120 for those too, and lose
    what the status says)."""
    if sys.getprofile() is not None or sys.gettrace() is not None:
        raise SystemExit(code)
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # `sys.exit("message")`: printed, status 1
        if sys.stderr is not None:
            print(code, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started with the descriptor closed (`>&-`)
            continue
        try:
            stream.flush()
        except (OSError, ValueError):
            if stream is sys.stdout and status == 0:
                status = 120
    os._exit(status)


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeLimitReached` in the main thread once ``seconds`` have passed."""
    usable = (
        seconds is not None
        and seconds > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return
    assert seconds is not None

    def expire(number: int, frame: FrameType | None) -> None:
        raise TimeLimitReached(seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _die_with_parent_linux() -> bool:
    try:
        import ctypes  # here: only Linux asks the kernel for this, through libc

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(0.5)

    threading.Thread(target=watch, name="speclint-parent-watch", daemon=True).start()


def child_started(parent: int) -> None:
    """The first thing a forked child does: ignore SIGINT, take the default SIGTERM and SIGALRM
    (the parent's handlers raise exceptions meant for the parent), and die with ``parent``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
    if not (sys.platform.startswith("linux") and _die_with_parent_linux()):
        _watch_parent(parent)
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os._exit(1)
    if hasattr(signal, "pthread_sigmask"):
        # The parent forks inside ``signals_deferred`` (see ``forking``): a Ctrl-C that arrived
        # between the fork and here waited, and now meets SIG_IGN instead of the parent's handler.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block (a cleanup) is done; they are delivered after."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def start_child(process: Any) -> None:
    """Start a ``multiprocessing`` process whose target calls :func:`child_started` first.

    SIGINT and SIGTERM are held across the fork, so the child starts with them blocked: one
    arriving before :func:`child_started` installs the child's own handlers would otherwise run
    the parent's handler in the child and print a traceback from deep inside ``threading``."""
    with signals_deferred():
        process.start()


def process_alive(pid: int) -> bool:
    """Is process ``pid`` alive? (Someone else's process counts: it exists.)"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, and is not ours to signal
    return True
