"""What the commands share: their common options, how an option's value is read, the one-line
errors and lines of output, and the calls into the engine.

Exit codes (architecture.md): 0 no finding at or above ``--fail-on``; 1 such findings, or more
warnings than ``--max-warnings``; 2 a usage error (an ``--output`` that cannot be written among
them) or an internal error, reported in one line (the traceback only with ``--debug``).

The engine, the outputs and the analyses are imported inside the functions that use them, each
import marked "Deferred": together they cost about 0.4 s (jsonschema, referencing, markdown-it,
ruamel.yaml, the rules), which ``speclint --version``, ``--help`` and a command that fails on its
arguments should not pay. No import here dodges an import circle: the package has none
(``docs/architecture.md``).
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from speclint.common.controls import visible_line
from speclint.common.lifecycle import DEFAULT_TIME_LIMIT
from speclint.common.writing import OutputError, write_output

if TYPE_CHECKING:
    from speclint.analyses.context import Context
    from speclint.run.resident import Resident
    from speclint.run.roots import Scope


class UsageProblem(click.ClickException):
    """A usage error: one line on standard error, exit 2 (``fail``)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        say(f"speclint: error: {self.format_message()}", err=True)


def say(text: str, err: bool = False) -> None:
    """One line of the command's own output (not a report: each reporter escapes its own).
    Paths, headings, values and notes in it come from the repository under check: its terminal
    controls and direction overrides are shown as escapes, never obeyed, and so is a newline
    (``speclint.common.controls.visible_line``): a configuration key or a path of the pull
    request's must not start a line of its own, which a CI log would read as a command."""
    click.echo(visible_line(text), err=err)


# The corpus root a command reads: a folder that exists, the current one by default.
CORPUS_PATH = click.argument(
    "path",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=".",
    required=False,
)
# A file or folder of a corpus, whose root is found as `check` finds it.
SPEC_PATH = click.argument("path", type=click.Path(path_type=Path), default=".", required=False)


# Options that `check` and `hook` share.
FAIL_ON = click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info"]),
    default=None,
    help="Lowest severity that makes the exit code 1 (default: from config, else error).",
)
CONFIG_PATH = click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Configuration file (default: speclint.toml or pyproject.toml at the corpus root).",
)
COLOR = click.option(
    "--color/--no-color",
    default=None,
    help="Colour the text report (default: when stdout is a terminal).",
)
TIME_LIMIT = click.option(
    "--time-limit",
    type=click.FloatRange(min=0),
    default=None,
    metavar="SECONDS",
    help="Time limit of the whole run (default: SPECLINT_TIME_LIMIT, else 900; 0: none).",
)
DEBUG = click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
DAEMON = click.option(
    "--daemon",
    "use_daemon",
    is_flag=True,
    help="Run through the corpus's resident checker, starting it if none runs "
    "(see `speclint daemon`); the output is the same.",
)
# The hook's: by default it answers through the corpus's checker when one runs, and otherwise
# starts one behind it for the next commit (``speclint.frontends.client.automatic``, read by the
# console script before this module is imported); --no-daemon never uses one.
HOOK_DAEMON = click.option(
    "--daemon/--no-daemon",
    "use_daemon",
    default=None,
    help="--daemon: run through the corpus's resident checker, starting it now if none runs; "
    "--no-daemon: never use one. Default: use one that runs, else check here and start one in "
    "the background for the next commit (not with SPECLINT_DAEMON=0, in CI, or outside a git "
    "work tree; it exits after 15 idle minutes). The output is the same.",
)
# The resident checker's memory of its corpus, while a daemon runs a command
# (``speclint.frontends.daemon``): the commands pass it to the engine.
RESIDENT: ContextVar[Resident | None] = ContextVar("RESIDENT", default=None)
MAX_WARNINGS = click.option(
    "--max-warnings",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Exit 1 when there are more than N warnings, whatever --fail-on says.",
)
QUIET = click.option(
    "-q", "--quiet", is_flag=True, help="Print the findings only: no summary, no 'checked' line."
)
SELECT = click.option(
    "--select",
    "select",
    multiple=True,
    metavar="IDS",
    help="Run only these rules: ids or prefixes of whole words (`proto` is every proto-* rule), "
    "comma-separated or repeated; replaces the configuration's choice (default: its select).",
)
IGNORE = click.option(
    "--ignore",
    "ignore",
    multiple=True,
    metavar="IDS",
    help="Do not run these rules: ids or prefixes, comma-separated or repeated.",
)

PREVIEW = click.option(
    "--preview/--no-preview",
    "preview",
    default=None,
    help="Run the preview rules too: those not yet proven precise on the ecosystem's labels "
    "(`speclint rules` marks them). Default: SPECLINT_PREVIEW, else the configuration's "
    "`preview`.",
)


def selectors(*given: tuple[str, ...]) -> tuple[str, ...]:
    """The selectors of repeated, comma-separated --select/--ignore values (ruff's syntax)."""
    return tuple(part.strip() for values in given for value in values for part in value.split(","))


def fail(message: str) -> NoReturn:
    raise UsageProblem(message)


def through_daemon() -> None:
    """``--daemon`` reached the command line (the console script hands it to the client before
    importing this module): forward the command, unless this process is the daemon."""
    if RESIDENT.get() is not None:
        return
    # Deferred: startup (module docstring).
    from speclint.frontends.client import forward, wanted

    # Called from Python (click's test runner, an embedding), sys.argv is the caller's, not this
    # command's: the command then runs here, as without a daemon.
    arguments = sys.argv[1:]
    if not wanted(arguments):
        say(
            "speclint: --daemon is read by the speclint command; checking in this process",
            err=True,
        )
        return
    code = forward(arguments)
    if code is not None:
        sys.exit(code)


def time_limit_of(given: float | None) -> float | None:
    """--time-limit, else SPECLINT_TIME_LIMIT, else the default; 0 means none."""
    if given is None:
        configured = os.environ.get("SPECLINT_TIME_LIMIT", "").strip()
        try:
            given = float(configured) if configured else DEFAULT_TIME_LIMIT
        except ValueError:
            given = -1.0
        # A negative, "nan" or "inf" limit would quietly mean "no limit": as --time-limit does,
        # take a number of seconds, 0 or more, and nothing else.
        if not math.isfinite(given) or given < 0:
            fail(
                f"SPECLINT_TIME_LIMIT must be a number of seconds, 0 or more (0: no limit); "
                f"it is {configured!r}"
            )
    return given if given and given > 0 else None


Result = TypeVar("Result")


def guarded(work: Callable[[], Result], debug: bool) -> Result:
    """Run engine work: its errors exit 2 with one line (a traceback only with --debug)."""
    # Deferred: startup (module docstring).
    from speclint.run.engine import EngineError

    try:
        return work()
    except EngineError as error:
        fail(str(error))
    except UsageProblem:
        raise
    except Exception as error:
        if debug:
            raise
        fail(f"internal error: {type(error).__name__}: {error} (run with --debug for details)")


def write_file(destination: Path, text: str) -> None:
    """A report or a baseline written to ``destination``; one that cannot be is a usage error."""
    try:
        write_output(destination, text)
    except OutputError as error:
        fail(str(error))


def load_corpus(path: Path) -> Context:
    """The corpus at PATH with its configuration; a bad configuration exits 2 with its reason."""
    # Deferred: startup (module docstring).
    from speclint.run.engine import load

    return guarded(lambda: load(path), False)


def corpus_around(path: Path) -> tuple[Context, Callable[[str], bool]]:
    """The corpus PATH belongs to, found as `check` finds it (a file or a subfolder is judged in
    its whole corpus), and which of its root-relative paths PATH covers."""
    # Deferred: startup (module docstring).
    from speclint.run.roots import in_focus

    scope = corpus_scope((path,))
    focus = scope.focus
    if focus is not None:
        say(f"speclint: the corpus at {scope.root.as_posix()} ({scope.found_by})", err=True)
    return load_corpus(scope.root), lambda where: focus is None or in_focus(where, focus)


def corpus_scope(paths: tuple[Path, ...]) -> Scope:
    """The corpus root of PATHS and the part of it to report on; exit 2 when there is none."""
    # Deferred: startup (module docstring).
    from speclint.run.roots import RootError, scope_of

    try:
        return scope_of(paths)
    except RootError as error:
        fail(str(error))


def wants_color(color: bool | None) -> bool:
    return color if color is not None else (sys.stdout.isatty() and "NO_COLOR" not in os.environ)
