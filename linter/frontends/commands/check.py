"""``speclint check``: lint a corpus and deliver its reports.

Its engine, outputs and analyses are imported where they are used ("Deferred": the start-up
time of ``speclint.frontends.options``).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from speclint.common.progress import TerminalProgress
from speclint.frontends import replay
from speclint.frontends.options import (
    COLOR,
    CONFIG_PATH,
    DAEMON,
    DEBUG,
    FAIL_ON,
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
    write_file,
)
from speclint.frontends.outcome import exit_code, focused, make_report, say_held, understood
from speclint.outputs.formats import FORMATS
from speclint.parsing.gitbase import work_tree_top

if TYPE_CHECKING:
    from speclint.outputs.reporters import Report


@click.command()
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
        through_daemon()
    # Deferred: startup (module docstring).
    from speclint.run.engine import Options, lint

    reports = _destinations(formats, outputs, statistics)
    show_progress = progress if progress is not None else sys.stderr.isatty()
    bar = TerminalProgress(sys.stderr) if show_progress else None
    scope = corpus_scope(paths)
    options = Options(
        focus=scope.focus,
        config_path=config_path,
        rules=selectors(only_rules, select),
        rules_as_rule=selectors(only_rules),
        ignore=selectors(ignore),
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
        time_limit=time_limit_of(time_limit),
        progress=bar,
        resident=RESIDENT.get(),
        # The HTML report lists the bindings; the run computes them only for it.
        bindings=any(name == "html" for name, _ in reports),
        # A run the replay cache will answer next time names the files it read.
        inputs=replay.recording(),
    )
    outcome = guarded(lambda: lint(scope.root, options), debug)
    replay.checked(scope, config_path, outcome.inputs, bar is not None and bar.drawn)
    for note in outcome.notes:
        say(f"speclint: {note}" if not note.startswith("  ") else note, err=True)
    shown_root = understood(scope.root, outcome, scope.focus)
    report = make_report(outcome, shown_root, False, outcome.gate, quiet, max_warnings)
    if any(name in ("github", "gitlab") for name, _ in reports):
        report = replace(report, in_repository=_in_repository(scope.root))
    blob_url = head_files_url(os.environ)
    if blob_url and any(name == "markdown" for name, _ in reports):
        # Each place linked to its line at the head commit (issue 48, item 4): in a GitHub
        # Actions run, inside the repository it checked out.
        inside = _in_repository(scope.root)
        if inside is not None:
            report = replace(report, in_repository=inside, blob_url=blob_url)
    _deliver(focused(report, outcome, scope.focus), reports, wants_color(color), statistics)
    if not quiet:
        say_held(outcome)
    sys.exit(0 if exit_zero else exit_code(outcome, fail_on, max_warnings))


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
            write_file(destination, text)
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
