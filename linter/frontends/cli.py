"""The ``speclint`` command line: thin click commands over the engine's plain functions.

Exit codes (architecture.md): 0 no finding at or above ``--fail-on``; 1 such findings, or more
warnings than ``--max-warnings``; 2 a usage error (an ``--output`` that cannot be written among
them) or an internal error, reported in one line (the traceback only with ``--debug``).

The engine, the outputs and the analyses are imported inside the commands that use them, each
import marked "Deferred": together they cost about 0.4 s (jsonschema, referencing, markdown-it,
ruamel.yaml, the rules), which ``speclint --version``, ``--help`` and a command that fails on its
arguments should not pay. No import here dodges an import circle: the package has none
(``docs/architecture.md``).
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from speclint import __version__
from speclint.common.controls import visible_line
from speclint.common.findings import Severity, as_written, warnings_over
from speclint.common.lifecycle import (
    DEFAULT_TIME_LIMIT,
    Interrupted,
    exit_interrupted,
    interruptible,
)
from speclint.common.progress import TerminalProgress
from speclint.common.writing import OutputError, write_output
from speclint.model.config import ROLE_NAMES
from speclint.model.descriptions import API_KINDS, DescribedPage, described_page
from speclint.outputs.formats import FORMATS
from speclint.parsing.gitbase import head_commit, work_tree_top
from speclint.parsing.kinds import DocumentKind

if TYPE_CHECKING:
    from speclint.analyses.context import Context
    from speclint.analyses.prose.fences import ExampleBinding
    from speclint.outputs.reporters import Gate, Report
    from speclint.run.catalog import RuleInfo
    from speclint.run.engine import Outcome
    from speclint.run.resident import Resident
    from speclint.run.roots import Scope


class UsageProblem(click.ClickException):
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


def _selectors(*given: tuple[str, ...]) -> tuple[str, ...]:
    """The selectors of repeated, comma-separated --select/--ignore values (ruff's syntax)."""
    return tuple(part.strip() for values in given for value in values for part in value.split(","))


def fail(message: str) -> NoReturn:
    raise UsageProblem(message)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="speclint")
def main() -> None:
    """speclint: lint a spec corpus (JSON Schema, OpenAPI, AsyncAPI, Markdown) for consistency."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "-f",
    "--format",
    "formats",
    multiple=True,
    type=click.Choice(FORMATS),
    help="Report format; repeat for several reports. Default: text.",
)
@click.option(
    "-o",
    "--output",
    "outputs",
    multiple=True,
    type=click.Path(path_type=Path),
    help="File for the --format at the same position (formats without one go to stdout); "
    "without a --format, the format comes from the extension (.sarif, .json, .md, .xml, .txt, .html).",
)
@FAIL_ON
@MAX_WARNINGS
@QUIET
@CONFIG_PATH
@SELECT
@IGNORE
@click.option(
    "--rule", "only_rules", multiple=True, metavar="ID", help="Same as --select (repeatable)."
)
@PREVIEW
@click.option(
    "--exit-zero",
    is_flag=True,
    help="Exit 0 even when there are findings (2 still means speclint could not run).",
)
@click.option(
    "--statistics",
    is_flag=True,
    help="Print the number of findings of each rule and severity instead of the findings.",
)
@COLOR
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar on stderr for long checks (default: when stderr is a terminal).",
)
@click.option(
    "--baseline",
    "baseline_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Report only findings not in this baseline (see `speclint baseline write`).",
)
@click.option(
    "--diff-base",
    "diff_base",
    metavar="REF",
    help="Lint the corpus at git revision REF too; report only what this change introduces.",
)
@click.option(
    "--cache/--no-cache",
    "use_cache",
    default=True,
    help="Reuse results and parses of unchanged files from the user's cache (default: on).",
)
@TIME_LIMIT
@DEBUG
@DAEMON
def check(
    paths: tuple[Path, ...],
    formats: tuple[str, ...],
    outputs: tuple[Path, ...],
    fail_on: str | None,
    config_path: Path | None,
    only_rules: tuple[str, ...],
    color: bool | None,
    progress: bool | None,
    baseline_path: Path | None,
    diff_base: str | None,
    use_cache: bool,
    time_limit: float | None,
    debug: bool,
    quiet: bool,
    max_warnings: int | None,
    use_daemon: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    exit_zero: bool,
    statistics: bool,
    preview: bool | None,
) -> None:
    """Check the spec files and folders PATHS (default: the current directory).

    The corpus they belong to is linted whole (drift is between files), at its root: the nearest
    folder upward with speclint.toml or [tool.speclint] in pyproject.toml, else the git work
    tree's top, else the folder named. Findings are shown for PATHS, which share one root."""
    if use_daemon:
        _through_daemon()
    # Deferred: startup (module docstring).
    from speclint.run.engine import Options, lint

    reports = _destinations(formats, outputs, statistics)
    show_progress = progress if progress is not None else sys.stderr.isatty()
    scope = _scope(paths)
    options = Options(
        focus=scope.focus,
        config_path=config_path,
        rules=_selectors(only_rules, select),
        rules_as_rule=_selectors(only_rules),
        ignore=_selectors(ignore),
        preview=preview,
        baseline=baseline_path,
        diff_base=diff_base,
        # The Markdown reports open with what the change does to the contract; the JSON report
        # carries it (`gate.changes`).
        describe_change=any(
            name in ("markdown", "markdown-summary", "json") for name, _ in reports
        ),
        cache=use_cache,
        debug=debug,
        time_limit=_time_limit(time_limit),
        progress=TerminalProgress(sys.stderr) if show_progress else None,
        resident=RESIDENT.get(),
        # The HTML report lists the bindings; the run computes them only for it.
        bindings=any(name == "html" for name, _ in reports),
    )
    outcome = _engine(lambda: lint(scope.root, options), debug)
    for note in outcome.notes:
        say(f"speclint: {note}" if not note.startswith("  ") else note, err=True)
    shown_root = _understood(scope.root, outcome, scope.focus)
    report = _report(outcome, shown_root, False, outcome.gate, quiet, max_warnings)
    if any(name in ("github", "gitlab") for name, _ in reports):
        report = replace(report, in_repository=_in_repository(scope.root))
    blob_url = head_files_url(os.environ)
    if blob_url and any(name == "markdown" for name, _ in reports):
        # Each place linked to its line at the head commit (issue 48, item 4): in a GitHub
        # Actions run, inside the repository it checked out.
        inside = _in_repository(scope.root)
        if inside is not None:
            report = replace(report, in_repository=inside, blob_url=blob_url)
    _deliver(_focused(report, outcome, scope.focus), reports, _use_color(color), statistics)
    if not quiet:
        _say_held(outcome)
    sys.exit(0 if exit_zero else _exit_code(outcome, fail_on, max_warnings))


def _scope(paths: tuple[Path, ...]) -> Scope:
    """The corpus root of PATHS and the part of it to report on; exit 2 when there is none."""
    # Deferred: startup (module docstring).
    from speclint.run.roots import RootError, scope_of

    try:
        return scope_of(paths)
    except RootError as error:
        fail(str(error))


def _understood(root: Path, outcome: Outcome, focus: tuple[str, ...] | None = None) -> str:
    """How the corpus root is shown; a usage error when nothing in it (in ``focus``, when
    given) could be checked."""
    # Deferred: startup (module docstring).
    from speclint.outputs.reporters.text_report import shown_path
    from speclint.run.inventory import checked_anything, nothing_found
    from speclint.run.roots import in_focus

    shown_root = root.as_posix().rstrip("/") or "."
    if not checked_anything(outcome.result.inventory):
        # A gate that passes a repository it did not understand gives a false all-clear: as
        # ESLint does for files no pattern matched, say so and fail (issue 14).
        fail(nothing_found(shown_root, outcome.result.inventory))
    if focus is not None:
        inside = [e for e in outcome.result.inventory if in_focus(e.path, focus)]
        if not checked_anything(inside):
            named = ", ".join(shown_path(shown_root, path) for path in focus)
            fail(
                f"{named}: no file speclint checks in the corpus at {shown_root} (see "
                f"`speclint files {shown_root}`: a file may be excluded, ignored by git, or "
                "not a JSON Schema, OpenAPI, AsyncAPI, instance or Markdown file)"
            )
    return shown_root


def _focused(report: Report, outcome: Outcome, focus: tuple[str, ...] | None) -> Report:
    """The report, saying for which of the corpus's files it shows findings."""

    # Deferred: startup (module docstring).
    from speclint.outputs.reporters.text_report import seen
    from speclint.run.roots import in_focus

    if focus is None:
        return report
    files = outcome.result.inventory
    shown = sum(1 for entry in files if in_focus(entry.path, focus))
    named = ", ".join(seen(report, path) for path in focus)
    return replace(report, scope=f"(findings shown for {shown} of {len(files)} files: {named})")


def _use_color(color: bool | None) -> bool:
    return color if color is not None else (sys.stdout.isatty() and "NO_COLOR" not in os.environ)


def _report(
    outcome: Outcome,
    shown_root: str,
    color: bool,
    gate: Gate | None,
    quiet: bool = False,
    max_warnings: int | None = None,
) -> Report:
    # Deferred: startup (module docstring).
    from speclint.outputs.reporters import Report

    return Report(
        here=_here(shown_root),
        findings=outcome.findings,
        rules=outcome.result.rules,
        sources=outcome.sources,
        root=shown_root,
        tool_version=__version__,
        color=color,
        waived=tuple(outcome.result.waived),
        gate=gate,
        checked=outcome.result.inventory,
        not_checked=outcome.result.coverage,
        quiet=quiet,
        max_warnings=max_warnings,
        bindings=outcome.bindings,
    )


def _here(shown_root: str) -> str:
    """The working folder from the corpus root (``Report.here``) when it lies inside the corpus
    and the root was named relative to it (``..``); "" otherwise (a root named absolute is
    shown as named)."""
    if os.path.isabs(shown_root):
        return ""
    inside = os.path.relpath(os.path.abspath(os.curdir), os.path.abspath(shown_root))
    return "" if inside == "." or inside.split(os.sep)[0] == os.pardir else Path(inside).as_posix()


# What GitHub Actions sets in a job's environment (GitHub Docs, "Store information in variables",
# default environment variables), as the links need them: a server URL with nothing Markdown
# would read in a link's destination, an owner/name, a commit id (SHA-1 or SHA-256).
_SERVER = re.compile(r"https?://[A-Za-z0-9.-]+(?::[0-9]+)?(?:/[A-Za-z0-9._~-]+)*/?")
_REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def head_files_url(environment: Mapping[str, str]) -> str:
    """``{server}/{owner}/{name}/blob/{commit}`` from GitHub Actions' GITHUB_SERVER_URL,
    GITHUB_REPOSITORY and GITHUB_SHA (``Report.blob_url``); "" when one is unset or not what
    GitHub sets (then the report has no links, and is what it is outside Actions)."""
    server = environment.get("GITHUB_SERVER_URL", "")
    repository = environment.get("GITHUB_REPOSITORY", "")
    sha = environment.get("GITHUB_SHA", "")
    if not (
        _SERVER.fullmatch(server) and _REPOSITORY.fullmatch(repository) and _SHA.fullmatch(sha)
    ):
        return ""
    return f"{server.rstrip('/')}/{repository}/blob/{sha}"


def _in_repository(root: Path) -> str | None:
    """The corpus root from the top of its git work tree (``Report.in_repository``)."""
    top = work_tree_top(root)
    if top is None:
        return None
    inside = os.path.relpath(root.resolve(), top.resolve())
    if inside.split(os.sep)[0] == os.pardir:
        return None
    return "" if inside == "." else Path(inside).as_posix()


def _exit_code(outcome: Outcome, fail_on: str | None, max_warnings: int | None = None) -> int:
    """1 when a reported finding, or a finding of the base the change made worse, is at or above
    --fail-on (else the configuration's), or when there are more warnings than --max-warnings
    (ESLint's option: errors fail regardless; new warnings only)."""

    threshold = Severity.parse(fail_on) if fail_on else outcome.config.fail_on
    # A finding the base had that the change made worse (an enum drift lacking one more value:
    # ``Gate.grown``) fails as a new one would; one that shrank or was reworded does not.
    grown = outcome.gate.grown if outcome.gate is not None else ()
    if any(f.severity >= threshold for f in (*outcome.findings, *grown)):
        return 1
    return 1 if warnings_over(outcome.findings, max_warnings) else 0


# An --output without a --format of its own is written in the format its name says.
OUTPUT_EXTENSIONS = (
    (".sarif.json", "sarif"),
    (".sarif", "sarif"),
    (".json", "json"),
    (".md", "markdown"),
    (".xml", "junit"),
    (".txt", "text"),
    (".html", "html"),
)

Destinations = list[tuple[str, Path | None]]  # (format, file, or None for stdout)


def _destinations(
    formats: tuple[str, ...], outputs: tuple[Path, ...], statistics: bool = False
) -> Destinations:
    """Each report's format and file: the n-th --output takes the n-th --format, else the format
    its extension names; the --formats left over go to stdout (one at most), where --statistics
    takes the text report's place. Every file is checked before anything runs, so a bad one
    fails fast and no report is half-delivered."""
    if not formats and not outputs:
        return [] if statistics else [("text", None)]
    reports: Destinations = [
        (formats[index] if index < len(formats) else _format_of(output), output)
        for index, output in enumerate(outputs)
    ]
    to_stdout = formats[len(outputs) :]
    if statistics:
        other = [name for name in to_stdout if name != "text"]
        if other:
            fail(
                f"--statistics is printed on stdout, where the --format {other[0]} report would "
                "go: give that report an --output"
            )
        to_stdout = ()
    if len(to_stdout) > 1:
        fail("only one report can go to stdout: give an --output for each extra --format")
    for _, destination in reports:
        assert destination is not None
        _check_destination(destination)
    return reports + [(name, None) for name in to_stdout]


def _format_of(output: Path) -> str:
    name = output.name.lower()
    for extension, format_name in OUTPUT_EXTENSIONS:
        if name.endswith(extension) and name != extension:
            return format_name
    accepted = ", ".join(extension for extension, _ in OUTPUT_EXTENSIONS)
    fail(
        f"--output {output}: no --format for it, and its name does not say one; give --format, "
        f"or end the name in {accepted}"
    )


def _check_destination(output: Path) -> None:
    """A file speclint can write, or a one-line error naming what is in the way. Missing folders
    on the way are created when the report is written, as ESLint's and ruff's --output-file do."""
    if output.is_dir():
        fail(f"--output {output} is a folder, not a file")
    folder = output.parent
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        fail(f"--output {output}: {folder} is not a folder")
    if not os.access(folder, os.W_OK):
        fail(f"--output {output}: cannot write in {folder} (permission denied)")


def _deliver(report: Report, reports: Destinations, color: bool, statistics: bool = False) -> None:
    """Each report to its file or stdout, and the --statistics on stdout. Unless --quiet, stderr
    says where each file report went and, when nothing on stdout ends with it (text, github,
    the statistics), gives the one-line summary."""

    # Deferred: startup (module docstring).
    from speclint.outputs.reporters import renderer, rule_counts
    from speclint.outputs.reporters.text_report import summary_line

    written = []
    for name, destination in reports:
        coloured = color and destination is None and name == "text"
        text = renderer(name)(replace(report, color=coloured))
        if destination is None:
            click.echo(text, nl=False, color=coloured or None)
        else:
            _write(destination, text)
            written.append(f"speclint: wrote {name} to {destination}")
    if statistics:
        click.echo(rule_counts.render(report), nl=False)
    if report.quiet:
        return
    for line in written:
        say(line, err=True)
    summed = statistics or any(
        name in ("text", "github") for name, destination in reports if destination is None
    )
    if not summed:
        say(summary_line(report), err=True)


@main.command(name="hook")
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
@DAEMON
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
    use_daemon: bool,
) -> None:
    """Judge the commit being made (the pre-commit hook): lint the files of git's index, the
    whole corpus (drift is between files), and fail only on the findings the commit introduces
    against HEAD, wherever they land. Findings that were already there are counted, not shown.
    --strict fails on every finding instead.

    The corpus is each folder with speclint.toml (or [tool.speclint] in pyproject.toml) that
    holds a staged file, else the repository; PATH names it instead, as for `speclint check`
    (findings shown for PATH). Outside a git work tree there is no commit: exit 2."""
    if use_daemon:
        _through_daemon()
    # Deferred: startup (module docstring).
    from speclint.run.roots import RootError, commit_roots, named_from_here

    if path is not None:
        scope = _scope((path,))
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
        chosen = (_selectors(select), _selectors(ignore), preview)
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
        time_limit=_time_limit(time_limit),
        debug=debug,
        resident=RESIDENT.get(),
    )
    outcome = _engine(lambda: lint(root, options), debug)
    shown_root = _understood(root, outcome, focus)
    # The new findings only, listed plainly ("no new findings" when there are none): the gate's
    # sections are for reviewers' reports.
    report = _report(outcome, shown_root, _use_color(color), outcome.gate, quiet, max_warnings)
    click.echo(renderer("text")(_focused(report, outcome, focus)), nl=False)
    if not quiet:
        _say_against_head(outcome.gate, strict)
        _say_held(outcome)
    return _exit_code(outcome, fail_on, max_warnings)


def _say_held(outcome: Outcome) -> None:
    """The line on the preview rules the selection chose and the run did not run (ruff says
    so of a preview rule selected by its code; speclint counts the others too, so a run that
    looks clean says what it left out)."""
    # Deferred: startup (module docstring).
    from speclint.run.preview import HOW

    held = outcome.held
    if held.named:
        named = ", ".join(f"`{rule}`" for rule in held.named)
        what = "is a preview rule" if len(held.named) == 1 else "are preview rules"
        say(f"speclint: {named} {what}: selected, but run only with {HOW}", err=True)
    others = len(held.rules) - len(held.named)
    if others:
        rules = "preview rule" if others == 1 else "preview rules"
        say(
            f"speclint: {others} {rules} not run (--preview runs them; `speclint rules` marks them)",
            err=True,
        )
    dropped = sum(count for _, count in held.heuristics)
    if dropped:
        each = ", ".join(f"{heuristic} {count}" for heuristic, count in held.heuristics)
        findings = "finding" if dropped == 1 else "findings"
        say(
            f"speclint: {dropped} {findings} of preview heuristics not reported ({each}; "
            "--preview reports them; `speclint rule ID` shows their precision)",
            err=True,
        )


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


@main.command(name="lsp")
def language_server() -> None:
    """Run the language server on stdio: diagnostics for every file of the workspace's corpus
    while you type (install the extra: pip install 'speclint[lsp]')."""
    try:
        # Deferred: the language server needs the lsp extra (pygls).
        from speclint.frontends.lsp import serve
    except ImportError as error:
        fail(f"the language server needs pygls ({error}): pip install 'speclint[lsp]'")
    serve()


def _through_daemon() -> None:
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


@main.group(name="daemon")
def daemon_group() -> None:
    """The resident checker of a corpus: it keeps the parsed corpus, its indexes and the rules'
    results in memory, and answers `speclint check --daemon` and `speclint hook --daemon` with
    only the changed files read again. One per corpus root, started by the first --daemon
    command (or `start`); it exits after --idle-timeout seconds without a request."""


IDLE = click.option(
    "--idle-timeout",
    type=click.FloatRange(min=1),
    default=None,
    metavar="SECONDS",
    help="Exit after this many seconds without a request (default: 1800).",
)


def _daemon_root(path: Path) -> Path:
    return _scope((path,)).root.resolve()


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


def _time_limit(given: float | None) -> float | None:
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


def _engine(work: Callable[[], Result], debug: bool) -> Result:
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


def _write(destination: Path, text: str) -> None:

    try:
        write_output(destination, text)
    except OutputError as error:
        fail(str(error))


@main.command(name="changes")
@CORPUS_PATH
@click.option("--diff-base", "diff_base", metavar="REF", required=True, help="The base revision.")
@click.option("--breaking", "only_breaking", is_flag=True, help="List only breaking changes.")
@click.option(
    "--fail-on",
    type=click.Choice(["breaking"]),
    default=None,
    help="Exit 1 when a breaking change is listed.",
)
def show_changes(path: Path, diff_base: str, only_breaking: bool, fail_on: str | None) -> None:
    """List the contract changes of PATH since git revision REF, classified by role."""
    # Deferred: startup (module docstring).
    from speclint.analyses.changes.proto_changes import contract_changes
    from speclint.outputs.reporters.text_report import CONTINUATION, detail, position
    from speclint.run.engine import base_corpus

    corpus = _load_corpus(path)
    base = _engine(lambda: base_corpus(path, diff_base, corpus.config), False)
    changes = [c for c in contract_changes(base, corpus) if c.breaking or not only_breaking]
    shown_root = path.as_posix().rstrip("/") or "."
    for change in changes:
        verdict = "breaking" if change.breaking else "additive"
        # Paths as `check` shows them (the root as typed, joined), so a terminal can open them.
        say(
            f"{position(shown_root, change.location)}: {verdict} [{change.kind}] "
            f"{change.description}"
        )
        for related in change.related:  # the Arazzo step a change breaks, as `check` shows one
            say(f"{CONTINUATION}related: {position(shown_root, related)} {detail(related)}")
    broken = sum(c.breaking for c in changes)
    say(f"speclint: {len(changes)} change(s) since {diff_base}, {broken} breaking", err=True)
    if fail_on == "breaking" and broken:
        sys.exit(1)


@main.command(name="build")
@CORPUS_PATH
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Write nothing; exit 1 when the build outputs are missing, stale or extra, or when a "
    "schema or an API document cannot be built.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output folder (default: [build] output in the configuration, else PATH/build).",
)
@click.option(
    "--dereference",
    is_flag=True,
    help="Write the API bundles with no $ref at all (fails on a recursive schema).",
)
@DEBUG
def build_command(
    path: Path, check_only: bool, output: Path | None, dereference: bool, debug: bool
) -> None:
    """Bundle each schema of PATH into a self-contained schema of its own draft, with a catalog,
    and each OpenAPI 3.x / AsyncAPI document into a single file; exit 1 when one cannot be."""
    # Deferred: startup (module docstring).
    from speclint.outputs.build import BuildError, build, output_folder, staleness, write

    corpus = _load_corpus(path)
    try:
        folder, confined = output_folder(corpus, output)
    except BuildError as error:
        fail(str(error))
    shown_folder = (output if output is not None else path / corpus.config.build_output).as_posix()
    result = _engine(lambda: build(corpus, dereferenced=dereference), debug)
    shown: dict[tuple[str, bool], list[str]] = {}
    for problem in result.problems:
        shown.setdefault((problem.path, problem.fatal), []).append(problem.message)
    for (schema_path, fatal), messages in sorted(shown.items()):
        more = f" (and {len(messages) - 1} more)" if len(messages) > 1 else ""
        label = "not built" if fatal else "warning"
        say(f"speclint: {label}: {schema_path}: {messages[0]}{more}", err=True)
    built = len(result.bundles) + len(result.api_bundles)
    not_built = sorted({p.path for p in result.problems if p.fatal} - set(result.api_not_built))
    out_of_date = False
    if check_only:
        state = staleness(result, folder)
        out_of_date = not state.clean
        lacking = len(result.api_not_built) + len(not_built)
        if state.clean and not lacking:
            say(f"speclint: {shown_folder}: {built} bundle(s) and the catalog are up to date")
        elif state.clean:  # a source not built is not up to date, whatever the folder holds
            say(
                f"speclint: {shown_folder}: the outputs match this build ({built} bundle(s) and "
                f"the catalog), which lacks {lacking} document(s) it could not bundle"
            )
        for label, paths in (
            ("missing", state.missing),
            ("stale", state.stale),
            ("extra", state.extra),
        ):
            for relative in paths:
                say(f"{shown_folder}/{relative}: {label}")
        for relative, why in state.refused:  # the build's manifest names it: not read
            say(f"{shown_folder}/{relative}: not read: {why}")
        if out_of_date:
            unread = f", {len(state.refused)} not read" if state.refused else ""
            say(
                f"speclint: {shown_folder}: build outputs are out of date ({len(state.missing)} "
                f"missing, {len(state.stale)} stale, {len(state.extra)} extra{unread}); run "
                f"`speclint build {path.as_posix()}` and commit the result",
                err=True,
            )
    else:
        try:
            done = write(result, folder, confined)
        except (BuildError, OutputError) as error:
            fail(str(error))
        for relative, why in done.refused:
            say(
                f"speclint: the build's manifest lists {shown_folder}/{relative}, which it did "
                f"not look at: {why}",
                err=True,
            )
        for relative in done.kept:
            say(
                f"speclint: left {shown_folder}/{relative} in place: an earlier build wrote it, "
                "but it changed since (delete it by hand if it is not needed)",
                err=True,
            )
        for relative in done.held:
            say(
                f"speclint: kept {shown_folder}/{relative} as the last build wrote it: its source "
                "is not built this time",
                err=True,
            )
        removed = f", removed {len(done.deleted)} it no longer builds" if done.deleted else ""
        say(f"speclint: wrote {built} bundle(s) and {shown_folder}/catalog.json{removed}")
    if result.api_not_built:
        # An API document is what a spec repository publishes: one that cannot be bundled is a
        # broken publication, not a skipped file, for the build as for --check.
        say(
            f"speclint: {len(result.api_not_built)} API document(s) could not be bundled "
            f"({', '.join(result.api_not_built)}): see above",
            err=True,
        )
    if not_built:
        # A schema not built is a broken publication too (its bundle is missing, or stale from
        # an earlier build): `check` says why in its findings, the build in its exit code.
        say(
            f"speclint: {len(not_built)} schema(s) could not be bundled: see above",
            err=True,
        )
    if out_of_date or result.api_not_built or not_built:
        sys.exit(1)


@main.command(name="afp")
@click.argument(
    "path",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    required=False,
)
def agent_feedback(path: Path | None) -> None:
    """Answer an Agent Feedback Protocol v1.2 request on stdin with a response on stdout.

    The artifact is a corpus folder (media type `inode/directory`, content its path) or one inline
    document (`application/schema+json`, `application/json`, `application/yaml`, `text/markdown`).
    With PATH, an inline document is linted inside the corpus at PATH, in place of the file its
    `x-speclint-path` names; without PATH, on its own. Exit 0 with a `success` response, 2 with an
    `error` response.
    """
    # Deferred: startup (module docstring).
    from speclint.outputs.afp import (
        RequestError,
        artifact_corpus,
        dumps,
        error_response,
        parse_request,
        response,
    )

    try:
        request = parse_request(sys.stdin.read())
        corpus, focus = artifact_corpus(request, path)
        # Deferred: startup (module docstring).
        from speclint.run.engine import Options, lint_corpus

        result = lint_corpus(corpus, Options(time_limit=_time_limit(None)))
        findings = [
            f
            for f in result.findings
            if focus is None or f.location.path == focus or any(r.path == focus for r in f.related)
        ]
        answer = response(
            findings,
            result.rules,
            request.iteration,
            len(result.waived),
            request.applied if request.applied else None,
        )
    except RequestError as error:
        click.echo(dumps(error_response(error)), nl=False)
        sys.exit(2)
    except Exception as error:  # an AFP client needs a response object, not a traceback
        failure = RequestError("INTERNAL_ERROR", f"{type(error).__name__}: {error}")
        click.echo(dumps(error_response(failure)), nl=False)
        sys.exit(2)
    click.echo(dumps(answer), nl=False)


@main.command(name="rules")
def list_rules() -> None:
    """List the rules with their default severity, `preview` for a preview rule (run only with
    --preview), and their summary."""
    # Deferred: startup (module docstring).
    from speclint.run.preview import PreviewDataError, is_preview

    catalog = _documented_rules()
    try:
        previews = {rule_id for rule_id in catalog if is_preview(rule_id)}
    except PreviewDataError as error:
        fail(str(error))
    width = max(len(rule_id) for rule_id in catalog)
    for rule_id, info in catalog.items():
        status = "preview" if rule_id in previews else ""
        say(f"{rule_id:<{width}}  {info.severity.label:<7}  {status:<7}  {info.summary}")


@main.command(name="rule")
@click.argument("rule_id")
@COLOR
def show_rule(rule_id: str, color: bool | None) -> None:
    """Print the documentation of rule RULE_ID, with its measured precision and the number of
    labels behind it."""
    # Deferred: startup (module docstring).
    from speclint.outputs.reporters.rule_doc import render_doc
    from speclint.run.catalog import all_rules
    from speclint.run.preview import PreviewDataError, is_preview, precision_lines

    catalog = _documented_rules()
    info = catalog.get(rule_id)
    if info is None:
        fail(_unknown_rule(rule_id, catalog))
    use_color = _use_color(color)
    try:
        status = ", preview" if is_preview(info.id) else ""
        # Not for speclint's own `waiver` and `internal-error`, which are no rules.
        measured = precision_lines(info.id) if info.id in all_rules() else []
    except PreviewDataError as error:
        fail(str(error))
    say(f"{info.id} [{info.severity.label}{status}]")
    for line in measured:
        say(line)
    click.echo()
    # click strips colour from output that is not a terminal unless told: --color means colour.
    click.echo(render_doc(info.doc, use_color), nl=False, color=use_color or None)


def _unknown_rule(rule_id: str, catalog: dict[str, RuleInfo]) -> str:
    """Why ``speclint rule ID`` knows no ID: the rules a prefix names, or the nearest id."""
    # Deferred: startup (module docstring).
    from speclint.model.config import REMOVED_RULES
    from speclint.run.selection import matches, nearest

    if rule_id.strip() in REMOVED_RULES:
        return REMOVED_RULES[rule_id.strip()]
    family = [known for known in catalog if matches(rule_id, known)] if rule_id.strip() else []
    if family and rule_id.strip().upper() != "ALL":
        return (
            f"unknown rule `{rule_id}`: it is a prefix of {', '.join(family)}; "
            "`speclint rule` shows one rule"
        )
    near = nearest(rule_id, catalog)
    hint = f" (did you mean `{near}`?)" if near else ""
    return f"unknown rule `{rule_id}`{hint}; `speclint rules` lists them"


def _documented_rules() -> dict[str, RuleInfo]:
    """Every rule id a report can carry: the rule modules', and the findings speclint itself
    makes about waivers (``waiver``) and crashed rules (``internal-error``)."""
    # Deferred: startup (module docstring).
    from speclint.run.catalog import RuleInfo, all_rules
    from speclint.run.runner import internal_error_info
    from speclint.run.waivers import WAIVER_DOC, WAIVER_RULE

    waiver = RuleInfo(
        WAIVER_RULE, Severity.WARNING, WAIVER_DOC, "speclint.run.waivers", lambda c, o: ()
    )
    crashed = internal_error_info()
    return dict(sorted({**all_rules(), waiver.id: waiver, crashed.id: crashed}.items()))


@main.group(name="baseline")
def baseline_group() -> None:
    """Accept the current findings, so a gate fails only on new ones."""


@baseline_group.command(name="write")
@CORPUS_PATH
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Baseline file (default: speclint-baseline.json in PATH).",
)
def baseline_write(path: Path, output: Path | None) -> None:
    """Record every current finding of the corpus at PATH in a baseline file."""
    # Deferred: startup (module docstring).
    from speclint.run.baseline import render
    from speclint.run.engine import Options, lint

    outcome = _engine(
        lambda: lint(path, Options(keep_corpus=True, time_limit=_time_limit(None))), False
    )
    assert outcome.corpus is not None
    findings = outcome.result.findings
    target = output or path / "speclint-baseline.json"
    _write(target, render(outcome.corpus, findings))
    say(f"speclint: wrote {len(findings)} finding(s) to {target}")


def _load_corpus(path: Path) -> Context:
    """The corpus at PATH with its configuration; a bad configuration exits 2 with its reason."""
    # Deferred: startup (module docstring).
    from speclint.run.engine import load

    return _engine(lambda: load(path), False)


def _corpus_around(path: Path) -> tuple[Context, Callable[[str], bool]]:
    """The corpus PATH belongs to, found as `check` finds it (a file or a subfolder is judged in
    its whole corpus), and which of its root-relative paths PATH covers."""
    # Deferred: startup (module docstring).
    from speclint.run.roots import in_focus

    scope = _scope((path,))
    focus = scope.focus
    if focus is not None:
        say(f"speclint: the corpus at {scope.root.as_posix()} ({scope.found_by})", err=True)
    return _load_corpus(scope.root), lambda where: focus is None or in_focus(where, focus)


@main.command(name="files")
@SPEC_PATH
def show_files(path: Path) -> None:
    """List each file speclint reads in PATH: its kind, dialect, and why it was classified so;
    and each folder it did not enter (a virtual environment, installed packages), and why."""
    # Deferred: startup (module docstring).
    from speclint.analyses.prose.renderers import summary
    from speclint.run.coverage import by_file
    from speclint.run.coverage import listed as not_checked
    from speclint.run.coverage import phrase as coverage_phrase
    from speclint.run.inventory import SKIPPED, Entry, entries, phrase, skipped

    corpus, covered = _corpus_around(path)
    inventory = [entry for entry in entries(corpus) if covered(entry.path)]
    folders = [entry for entry in skipped(corpus) if covered(entry.path)]
    # What was found and not checked (issue 45), on each file's line; a file speclint does not
    # read at all (a reStructuredText page) gets a line of its own.
    notes = [note for note in not_checked(corpus) if covered(note.path)]
    known = {entry.path for entry in inventory}
    unread = {
        note.path: Entry(note.path, "not read", "", note.what)
        for note in notes
        if note.path not in known
    }
    listed = sorted((*inventory, *folders, *unread.values()), key=lambda entry: entry.path)
    missed_in = by_file(notes)
    width = max((len(entry.path) for entry in listed), default=0)
    for entry in listed:
        if entry.kind == SKIPPED:
            say(f"{entry.path:<{width}}  skipped: {entry.reason}")
            continue
        kind = f"{entry.kind} {entry.dialect}".strip()
        missed = missed_in.get(entry.path, "") if entry.path in known else ""
        reason = f"{entry.reason}; {missed}" if missed else entry.reason
        say(f"{entry.path:<{width}}  {kind:<22}  {reason}")
    left = f"; {len(folders)} folder{'s' if len(folders) != 1 else ''} skipped" if folders else ""
    # Which program renders the pages, so which anchors their links are judged by (issue 45);
    # the count of what was read stays the last line.
    rendered = summary(corpus)
    if rendered:
        say(f"speclint: {rendered}")
    said = coverage_phrase(notes)
    say(f"speclint: {phrase(inventory)}{left}" + (f"; {said}" if said else ""))


@main.command(name="roles")
@SPEC_PATH
def show_roles(path: Path) -> None:
    """Print the role of each schema location in the corpus at PATH, with its evidence."""

    corpus, covered = _corpus_around(path)
    entries = [entry for entry in corpus.roles.listing(corpus) if covered(entry.path)]
    for entry in entries:
        say(f"{entry.path}#{entry.pointer or '/'}: {entry.role}")
        for line in entry.evidence:
            say(f"    {line}")
    tally = Counter(entry.role for entry in entries)
    shown = ", ".join(f"{tally[r]} {r}" for r in ROLE_NAMES if tally[r])
    say(f"speclint: {len(entries)} schema locations: {shown}")


@main.command(name="bindings")
@SPEC_PATH
@click.option("--all", "show_all", is_flag=True, help="Also list prose sets that bind to nothing.")
def show_bindings(path: Path, show_all: bool) -> None:
    """List the value sets in the prose of PATH and the schema enums they are bound to."""
    # Deferred: startup (module docstring).
    from speclint.analyses.prose.enumerations import Binder, all_prose_sets

    corpus, covered = _corpus_around(path)
    binder = Binder(corpus)
    bound = unbound = 0
    for prose in all_prose_sets(corpus):
        if not covered(prose.path):
            continue
        bindings = binder.bindings(prose)
        if not bindings and not show_all:
            unbound += 1
            continue
        field = f" `{prose.field}`" if prose.field else ""
        values = ", ".join(prose.values[:6]) + (", ..." if len(prose.values) > 6 else "")
        say(f"{prose.path}:{prose.line} {prose.form}{field} [{values}]")
        if not bindings:
            unbound += 1
            say("    (not bound)")
        for binding in bindings:
            bound += 1
            listed = {as_written(v) for v in binding.values.values}
            same = "same values" if listed == set(prose.values) else "values differ"
            say(f"    -> {binding.target.label} ({binding.confidence}; {same}): {binding.evidence}")
    say(f"speclint: {bound} binding(s); {unbound} prose set(s) bound to nothing")
    _show_example_bindings(corpus, covered)
    _show_parameter_bindings(corpus, covered)
    _show_proto_bindings(corpus, covered)
    _show_route_bindings(corpus, covered)
    _show_type_claim_bindings(corpus, covered)
    _show_arazzo_bindings(corpus, covered)


def _show_arazzo_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """Each Arazzo step (issue 49, item 7) with the operation or workflow it calls and the
    evidence, or why it is not bound; nothing without an Arazzo document."""
    # Deferred: startup (module docstring).
    from speclint.analyses.workflows.arazzo import RESOLVED, step_bindings

    found = [b for b in step_bindings(corpus) if covered(b.arazzo.path)]
    if not found:
        return
    bound = 0
    for binding in found:
        step = binding.step
        call = f" {binding.field} `{binding.written}`" if binding.field else ""
        say(
            f"{binding.arazzo.path}:{step.location.line} step `{step.step_id}` "
            f"(workflow `{binding.workflow.workflow_id}`){call}"
        )
        if binding.status == RESOLVED and binding.operation is not None:
            bound += 1
            operation = binding.operation
            target = f"{operation.document.path}#{operation.pointer}"
            say(f"    -> {target} {operation.label} ({binding.evidence})")
        elif binding.status == RESOLVED and binding.called is not None:
            bound += 1
            holder = binding.called_in.path if binding.called_in else binding.arazzo.path
            say(f"    -> {holder}#{binding.called.pointer} ({binding.evidence})")
        else:
            say(f"    ({binding.status}: {binding.reason})")
    say(f"speclint: {bound} Arazzo step binding(s); {len(found) - bound} step(s) not bound")


def _show_parameter_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """Every query and path value of a concrete request on a page, with the parameter schema it
    is held to (example-invalid's ``parameter-value``)."""
    # Deferred: startup (module docstring).
    from speclint.analyses.api.exchanges import parameter_values

    count = 0
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        if not covered(document.path):
            continue
        for given in parameter_values(corpus, document):
            count += 1
            say(f"{document.path}:{given.line} {given.place} parameter value `{given.value}`")
            target = f"{given.operation.document.path}#{given.pointer}"
            say(f"    -> {target} (by parameter value: {given.evidence})")
    say(f"speclint: {count} request parameter value(s) bound")


def _show_example_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """Every example fence of the prose, with the definition it is bound to and the evidence,
    or why it is not bound (issue 28), read with example-invalid's configured options."""
    # Deferred: startup (module docstring).
    from speclint.analyses.api.api_examples import referenced_example_files
    from speclint.analyses.prose.fences import (
        Binding,
        example_bindings,
        example_file,
        example_file_binding,
    )

    binding = Binding.of(corpus.config.rule_options.get("example-invalid", {}))
    bound = unbound = 0
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        if not covered(document.path):
            continue
        for example in example_bindings(corpus, document, binding):
            fence = example.fence
            # An indented block's evidence is its first line and its kind: it has no opening
            # line, and no info string to bind it (only what it holds, or the text above it).
            kind = "indented code block" if fence.indented else f"{fence.language or 'untagged'}"
            say(f"{document.path}:{fence.start} {kind} example")
            bound, unbound = bound + len(example.ties), unbound + (not example.ties)
            _say_ties(example, say)
    for document in corpus.of_kind(*API_KINDS):
        described = described_page(document)
        if described is None or not covered(document.path):
            continue
        # An API document's descriptions (CommonMark): their fences, bound as a page's.
        for example in example_bindings(corpus, described.page, binding):
            language = example.fence.language or "untagged"
            say(f"{_described_at(described, example.fence.line)} {language} example")
            bound, unbound = bound + len(example.ties), unbound + (not example.ties)
            _say_ties(example, say)
    referenced = referenced_example_files(corpus)
    for path, examples in sorted(referenced.items()):
        if not covered(path):
            continue
        say(f"{path} example file")
        for named in examples:
            bound += 1
            via = named.referrals[0]
            say(
                f"    -> {named.holder.path}#{named.schema_at} (by reference: {via.note} at "
                f"{via.path} line {via.line})"
            )
    for document in corpus.of_kind(DocumentKind.DATA):
        if not (covered(document.path) and example_file(document)):
            continue
        if document.path in referenced:
            continue
        found = example_file_binding(corpus, document, binding)
        say(f"{document.path} example file")
        if found.target is None:
            unbound += 1
            say(f"    (not bound: {found.evidence})")
        else:
            bound += 1
            say(f"    -> {found.target.label} (by {found.how}: {found.evidence})")
    say(f"speclint: {bound} example binding(s); {unbound} example(s) bound to nothing")


def _show_proto_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """The proto surface's pairs (issue 30), with their evidence; nothing without a proto."""
    # Deferred: startup (module docstring).
    from speclint.analyses.grpc.proto_bindings import proto_bindings
    from speclint.analyses.grpc.protos import corpus_protos

    listed = proto_bindings(corpus)
    if listed is None:
        return
    found = [binding for binding in listed if covered(binding.path)]
    for binding in found:
        say(f"{binding.path}:{binding.line} {binding.what}")
        for arrow in binding.arrows:
            say(f"    -> {arrow}")
    bound = sum(binding.bound for binding in found)
    unbound = sum(len(binding.arrows) for binding in found) - bound
    # a corpus with method tables and no proto: its tables' bindings are no proto's
    what = "proto" if corpus_protos(corpus).read() else "method-table"
    say(f"speclint: {bound} {what} binding(s); {unbound} pair(s) not bound or not compared")


def _show_route_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """The routes the prose names (issue 46, item 7), each with the operation it names, or why
    it is not held to one."""
    # Deferred: startup (module docstring).
    from speclint.analyses.api.routes import held_pages, page_checks

    bound = unbound = 0
    for held in held_pages(corpus):
        if not covered(held.path):
            continue
        for check in page_checks(corpus, held.path, held.mentions, own_api=held.own_api):
            mention = check.mention
            where = f"{held.path}:{mention.line}"
            if held.described is not None:
                where = _described_at(held.described, mention.line)
            say(f"{where} {mention.form} route `{mention.label}`")
            if check.operations:
                bound += 1
                first = check.operations[0]
                others = len({op.document.path for op in check.operations}) - 1
                also = f" (and {others} other document(s))" if others else ""
                say(f"    -> `{first.label}` of {first.document.path}{also}")
                if check.renamed is not None:
                    say(f"    (its parameter `{check.renamed[0]}` is `{check.renamed[1]}` there)")
            elif check.why:
                unbound += 1
                say(f"    (not checked: {check.why})")
            else:
                unbound += 1
                near = f"; nearest `{check.near.label}`" if check.near is not None else ""
                through = (
                    ", bound through the repository's pages" if check.through_repository else ""
                )
                because = f"; held as the API's: {check.evidence}" if check.evidence else ""
                say(f"    (no operation of {check.document}{through}{near}{because})")
    say(f"speclint: {bound} route binding(s); {unbound} route(s) bound to no operation")


def _say_ties(example: ExampleBinding, say: Callable[[str], None]) -> None:
    """What binds one example of a page (or of an API document's descriptions), with its
    evidence; or why nothing does."""
    if not example.ties:
        say(f"    (not bound: {example.why})")
    for tie in example.ties:
        target = tie.target.label if tie.target else f"{tie.named} (no such schema)"
        part = f" at {tie.part}" if tie.part else ""
        evidence = tie.evidence or f"`{tie.named}`"
        say(f"    -> {target}{part} (by {tie.how}: {evidence})")


def _described_at(described: DescribedPage, line: int) -> str:
    """Where a line of an API document's description page is in the file, and which
    description it is in."""
    place = described.where(line)
    if place is None:
        return f"{described.document.path}:{line}"
    return f"{described.document.path}:{place[0]} (description {place[2]})"


def _show_type_claim_bindings(corpus: Context, covered: Callable[[str], bool]) -> None:
    """Every field table and field list that states types or requiredness, with the schema
    objects (and proto message) it is bound to and the evidence, or why it is not bound (issue
    46, item 8: type-claim-drift's)."""
    # Deferred: startup (module docstring).
    from speclint.analyses.prose.type_claims import ClaimBinder, every_group

    binder = ClaimBinder(corpus)
    bound = unbound = 0
    for group in every_group(corpus):
        if not covered(group.path):
            continue
        binding = binder.bind(group)
        of = f" of `{group.parent.name}`" if group.parent else ""
        say(f"{group.path}:{group.line} {group.form}{of} ({len(group.claims)} field claim(s))")
        for view in binding.views:
            root = view.root
            target = root.document.path + (f"#{root.pointer}" if root.pointer else "")
            say(f"    -> {target} ({binding.confidence}; by {binding.evidence})")
        if binding.message is not None:
            proto, message = binding.message
            name = f"proto message `{message.name}`"
            say(f"    -> {proto.path}:{message.line} {name} (by {binding.proto_evidence})")
        if binding.views or binding.message is not None:
            bound += 1
        else:
            unbound += 1
            say(f"    (not bound: {binding.why})")
    say(f"speclint: {bound} field reference(s) bound; {unbound} bound to nothing")


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
