"""``speclint hook``: judge the commit being made (the pre-commit hook) against HEAD.

Its engine, outputs and analyses are imported where they are used ("Deferred": the start-up
time of ``speclint.frontends.options``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from speclint.frontends.options import (
    COLOR,
    CONFIG_PATH,
    DEBUG,
    FAIL_ON,
    HOOK_DAEMON,
    IGNORE,
    MAX_WARNINGS,
    PREVIEW,
    QUIET,
    RESIDENT,
    SELECT,
    TIME_LIMIT,
    corpus_scope,
    fail,
    guarded,
    say,
    selectors,
    through_daemon,
    time_limit_of,
    wants_color,
)
from speclint.frontends.outcome import exit_code, focused, make_report, say_held, understood
from speclint.parsing.gitbase import head_commit, work_tree_top

if TYPE_CHECKING:
    from speclint.outputs.reporters import Gate


@click.command(name="hook")
@click.argument("path", type=click.Path(path_type=Path), required=False)
@click.option(
    "--strict",
    is_flag=True,
    help="Fail on every finding of the corpus, not only on those the commit introduces.",
)
@FAIL_ON
@MAX_WARNINGS
@QUIET
@CONFIG_PATH
@SELECT
@IGNORE
@PREVIEW
@COLOR
@TIME_LIMIT
@DEBUG
@HOOK_DAEMON
def commit_hook(
    path: Path | None,
    strict: bool,
    fail_on: str | None,
    max_warnings: int | None,
    quiet: bool,
    config_path: Path | None,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    preview: bool | None,
    color: bool | None,
    time_limit: float | None,
    debug: bool,
    use_daemon: bool | None,
) -> None:
    """Judge the commit being made (the pre-commit hook): lint the files of git's index, the
    whole corpus (drift is between files), and fail only on the findings the commit introduces
    against HEAD, wherever they land. Findings that were already there are counted, not shown.
    --strict fails on every finding instead.

    The corpus is each folder with speclint.toml (or [tool.speclint] in pyproject.toml) that
    holds a staged file, else the repository; PATH names it instead, as for `speclint check`
    (findings shown for PATH). Outside a git work tree there is no commit: exit 2."""
    if use_daemon:
        through_daemon()
    # Deferred: startup (module docstring).
    from speclint.run.roots import RootError, commit_roots, named_from_here

    if path is not None:
        scope = corpus_scope((path,))
        if work_tree_top(scope.root) is None:
            fail(
                f"{path.as_posix()} is not in a git work tree, and `speclint hook` judges a commit "
                "(lint a folder with `speclint check`)"
            )
        targets = [(scope.root, scope.focus)]
    else:
        try:
            roots, configured = commit_roots(Path(os.curdir))
        except RootError as error:
            fail(str(error))
        if not roots:
            corpora = ", ".join(named_from_here(root).as_posix() for root in configured)
            say(
                f"speclint: the commit changes no file of this repository's corpora ({corpora}): "
                "nothing to judge",
                err=True,
            )
            sys.exit(0)
        targets = [(named_from_here(root), None) for root in roots]
    code = 0
    for root, focus in targets:
        if len(targets) > 1:
            say(f"speclint: the corpus at {root.as_posix()}:", err=True)
        options = (strict, fail_on, max_warnings, quiet, config_path, color, time_limit, debug)
        chosen = (selectors(select), selectors(ignore), preview)
        code = max(code, _judge_commit(root, focus, *options, *chosen))
    sys.exit(code)


def _judge_commit(
    root: Path,
    focus: tuple[str, ...] | None,
    strict: bool,
    fail_on: str | None,
    max_warnings: int | None,
    quiet: bool,
    config_path: Path | None,
    color: bool | None,
    time_limit: float | None,
    debug: bool,
    select: tuple[str, ...] = (),
    ignore: tuple[str, ...] = (),
    preview: bool | None = None,
) -> int:
    """Lint the commit's corpus at ``root`` against HEAD; print; the exit code it deserves."""
    # Deferred: startup (module docstring).
    from speclint.outputs.reporters import renderer
    from speclint.run.engine import Options, lint

    base = None if strict else head_commit(root)
    options = Options(
        config_path=config_path,
        rules=select,
        ignore=ignore,
        preview=preview,
        diff_base=base,
        staged=True,
        focus=focus,
        time_limit=time_limit_of(time_limit),
        debug=debug,
        resident=RESIDENT.get(),
    )
    outcome = guarded(lambda: lint(root, options), debug)
    shown_root = understood(root, outcome, focus)
    # The new findings only, listed plainly ("no new findings" when there are none): the gate's
    # sections are for reviewers' reports.
    report = make_report(outcome, shown_root, wants_color(color), outcome.gate, quiet, max_warnings)
    click.echo(renderer("text")(focused(report, outcome, focus)), nl=False)
    if not quiet:
        _say_against_head(outcome.gate, strict)
        say_held(outcome)
    return exit_code(outcome, fail_on, max_warnings)


def _say_against_head(gate: Gate | None, strict: bool) -> None:
    """The hook's lines on what HEAD already had, what the commit fixes, what it no longer checks
    (gone, but not fixed), and what it changes (a finding whose cause HEAD had, saying something
    else: neither fixed nor new)."""
    if gate is not None:
        known, fixed = len(gate.known), len(gate.fixed)
        if known:
            were = "finding was" if known == 1 else "findings were"
            say(
                f"speclint: {known} {were} already present before this commit; "
                "`speclint check` lists them",
                err=True,
            )
        if fixed:
            say(f"speclint: this commit fixes {fixed} finding(s)", err=True)
        unchecked = gate.no_longer_checked
        if unchecked:
            # Gone because the commit took them out of sight (a `$ref` broken, a file unreadable
            # or removed: ``speclint.run.unchecked``), which is no fix.
            first = "" if len(unchecked) == 1 else "; the first: "
            say(
                f"speclint: this commit leaves {len(unchecked)} finding(s) HEAD had no longer "
                f"checked, not fixed{first or ': '}{unchecked[0].why}",
                err=True,
            )
        if gate.changed:
            count, grown = len(gate.changed), len(gate.grown)
            worse = f", {grown} for the worse (listed above)" if grown else ""
            say(
                f"speclint: this commit changes {count} finding(s) HEAD already had{worse}",
                err=True,
            )
    elif not strict:
        say(
            "speclint: no commit to compare with (the repository's first commit): every finding "
            "is the commit's",
            err=True,
        )
