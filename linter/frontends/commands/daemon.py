"""``speclint daemon start|stop|status``: the resident checker of a corpus
(``speclint.frontends.daemon``, reached through ``speclint.frontends.client``).

Its engine, outputs and analyses are imported where they are used ("Deferred": the start-up
time of ``speclint.frontends.options``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from speclint.frontends.options import SPEC_PATH, corpus_scope, fail, say


@click.group(name="daemon")
def daemon_group() -> None:
    """The resident checker of a corpus: it keeps the parsed corpus, its indexes and the rules'
    results in memory, and answers `speclint check --daemon` and `speclint hook --daemon` with
    only the changed files read again. One per corpus root, started by the first --daemon
    command (or `start`), or by `speclint hook` itself after it answered (that one exits after
    15 idle minutes); it exits after --idle-timeout seconds without a request."""


IDLE = click.option(
    "--idle-timeout",
    type=click.FloatRange(min=1),
    default=None,
    metavar="SECONDS",
    help="Exit after this many seconds without a request (default: 1800).",
)


def _daemon_root(path: Path) -> Path:
    return corpus_scope((path,)).root.resolve()


@daemon_group.command(name="start")
@SPEC_PATH
@IDLE
def daemon_start(path: Path, idle_timeout: float | None) -> None:
    """Start the daemon of the corpus at PATH (default: the current directory's)."""
    # Deferred: startup (module docstring).
    from speclint.frontends.client import IDLE_TIMEOUT, DaemonUnavailable, start

    root = _daemon_root(path)
    try:
        pid = start(root, idle_timeout or IDLE_TIMEOUT)
    except DaemonUnavailable as error:
        fail(f"the daemon of {root} cannot start: {error}")
    say(f"speclint: the daemon of {root} is running (process {pid})", err=True)


def _ask_daemon(path: Path, command: str) -> tuple[Path, dict[str, Any] | None, str]:
    """The root of PATH, and its daemon's answer to ``command`` (None, with why, when none)."""
    # Deferred: startup (module docstring).
    from speclint.frontends.client import DaemonUnavailable, ask

    root = _daemon_root(path)
    try:
        return root, ask(root, {"command": command}), ""
    except DaemonUnavailable as error:
        return root, None, str(error)


@daemon_group.command(name="stop")
@SPEC_PATH
def daemon_stop(path: Path) -> None:
    """Stop the daemon of the corpus at PATH, if one runs."""
    root, answer, why = _ask_daemon(path, "stop")
    if answer is None:
        say(f"speclint: no daemon of {root} to stop: {why}", err=True)
    else:
        say(f"speclint: the daemon of {root} stopped", err=True)


@daemon_group.command(name="status")
@SPEC_PATH
def daemon_status(path: Path) -> None:
    """Whether the daemon of the corpus at PATH runs, and what it holds; exit 1 when none."""
    root, found, why = _ask_daemon(path, "status")
    if found is None:
        say(f"speclint: no daemon of {root}: {why}")
        sys.exit(1)
    say(
        f"speclint: the daemon of {root} runs (process {found.get('pid')}); it has answered "
        f"{found.get('served')} command(s) and holds {found.get('files')} file(s), "
        f"{found.get('documents')} parsed"
    )
