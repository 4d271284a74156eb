"""``python -m speclint`` and the ``speclint`` console script: the command line, with SIGINT and
SIGTERM handled from the start.

The handlers are installed before the command line and its dependencies are imported (a quarter of a
second, more under load), so a signal at any moment ends the run the same way: one line, and the
shell's exit code (130 or 143).
"""

import contextlib
import functools
import sys
from collections.abc import Callable

from speclint.common.lifecycle import (
    Interrupted,
    exit_interrupted,
    exit_without_teardown,
    interruptible,
)


def run() -> None:
    after: Callable[[], object] | None = None  # the hook's checker, started once it answered
    try:
        with interruptible():
            # Deferred, as the command line below: after the handlers (the client imports the
            # root finder, which is all it needs to reach a daemon).
            from speclint.frontends import client

            arguments = sys.argv[1:]
            if client.wanted(arguments):
                # ``--daemon``: the command goes to the corpus's resident checker, and this
                # process never imports the engine (issue 29). Without one, it runs here.
                code = client.forward(arguments)
                if code is not None:
                    sys.exit(code)
                sys.argv[1:] = client.without_flag(arguments)
            elif client.automatic(arguments):
                # ``speclint hook`` (issue 51): through the corpus's checker when one runs; else
                # here, and one is started for the next commit after this one is judged.
                code = client.forward_if_running(arguments)
                if code is not None:
                    sys.exit(code)
                after = functools.partial(client.start_behind, arguments)
            # A `check` whose inputs have not changed is answered here, before the command line,
            # the engine and the reporters are imported (issue 51); any other is recorded for
            # the next (speclint.frontends.replay).
            from speclint.frontends import replay

            recording = replay.front(sys.argv[1:])
            # Imported here, not above, on purpose: the handlers must be in place before the
            # command line's imports (click, the engine) start, or a signal in that window kills
            # the process with a traceback-free but unreported -15 instead of 143.
            from speclint.frontends.cli import main

            if recording is None:
                main()
            else:
                with replay.recorded(recording):
                    main()
    except Interrupted as interruption:
        exit_interrupted(interruption)
    except SystemExit as done:
        if after is not None and done.code in (None, 0, 1):  # a commit judged, not refused
            _then(after)
        # Every command ends here (click's ``main`` raises it): see exit_without_teardown.
        exit_without_teardown(done.code)


def _then(work: Callable[[], object]) -> None:
    """``work`` after the command's result is printed (the hook's checker, started behind it:
    it delays nothing the user reads); a signal meanwhile ends it, and the process exits with
    the command's code."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
    with contextlib.suppress(Interrupted), interruptible():
        work()


if __name__ == "__main__":
    run()
