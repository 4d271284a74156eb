"""The ``speclint`` command line: the click group, and the commands registered on it.

Each command (or command group) is a module of ``speclint.frontends.commands``, as ruff arranges
its own; the options several commands take, how their values are read, the one-line errors and
the guarded calls into the engine are ``speclint.frontends.options``; what ``check`` and ``hook``
make of the engine's outcome (report, exit code) is ``speclint.frontends.outcome``.

Exit codes (architecture.md): 0 no finding at or above ``--fail-on``; 1 such findings, or more
warnings than ``--max-warnings``; 2 a usage error or an internal error, in one line.

Nothing heavy is imported here or by the command modules at import time (start-up time:
``speclint.frontends.options``).
"""

from __future__ import annotations

import click

from speclint import __version__
from speclint.common.lifecycle import Interrupted, exit_interrupted, interruptible
from speclint.frontends.commands.afp import agent_feedback
from speclint.frontends.commands.baseline import baseline_group
from speclint.frontends.commands.bindings import show_bindings
from speclint.frontends.commands.build import build_command
from speclint.frontends.commands.changes import show_changes
from speclint.frontends.commands.check import check, head_files_url
from speclint.frontends.commands.daemon import daemon_group
from speclint.frontends.commands.files import show_files
from speclint.frontends.commands.hook import commit_hook
from speclint.frontends.commands.lsp import language_server
from speclint.frontends.commands.roles import show_roles
from speclint.frontends.commands.rules import list_rules, show_rule
from speclint.frontends.options import RESIDENT, UsageProblem

# Where they were before the commands had modules of their own: the daemon sets RESIDENT, the
# Markdown report's tests read head_files_url.
__all__ = ["RESIDENT", "UsageProblem", "entry", "head_files_url", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="speclint")
def main() -> None:
    """speclint: lint a spec corpus (JSON Schema, OpenAPI, AsyncAPI, Markdown) for consistency."""


for _command in (
    check,
    commit_hook,
    language_server,
    daemon_group,
    show_changes,
    build_command,
    agent_feedback,
    list_rules,
    show_rule,
    baseline_group,
    show_files,
    show_roles,
    show_bindings,
):
    main.add_command(_command)


def entry() -> None:
    """The command line for callers that have imported it already (tests, embedding): SIGINT and
    SIGTERM end the run cleanly (children killed, the base worktree removed) with the shell's exit
    code, 130 or 143, and one line, never a traceback; 1 would mean "findings". The console script
    is ``speclint.__main__:run``, which installs the handlers before this module is imported."""

    try:
        with interruptible():
            main()
    except Interrupted as interruption:
        exit_interrupted(interruption)


if __name__ == "__main__":
    entry()
