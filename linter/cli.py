"""The ``speclint`` command line: thin click commands over the engine's plain functions.

Exit codes (architecture.md): 0 no finding at or above ``--fail-on``; 1 such findings; 2 a usage
error or an internal error, reported in one line (the traceback only with ``--debug``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from . import __version__

if TYPE_CHECKING:
    from .baseline import Entry
    from .config import Config
    from .corpus import Corpus, LoadProblem
    from .findings import Finding

FORMAT_NAMES = ("text", "json", "sarif", "markdown", "github", "afp")


class UsageProblem(click.ClickException):
    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"speclint: error: {self.format_message()}", err=True)


def fail(message: str) -> NoReturn:
    raise UsageProblem(message)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="speclint")
def main() -> None:
    """speclint: lint a spec corpus (JSON Schema, OpenAPI, AsyncAPI, Markdown) for consistency."""


@main.command()
@click.argument("path", type=click.Path(path_type=Path), default=".", required=False)
@click.option(
    "-f",
    "--format",
    "formats",
    multiple=True,
    type=click.Choice(FORMAT_NAMES),
    help="Report format; repeat for several reports. Default: text.",
)
@click.option(
    "-o",
    "--output",
    "outputs",
    multiple=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="File for the --format at the same position (formats without one go to stdout).",
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info"]),
    default=None,
    help="Lowest severity that makes the exit code 1 (default: from config, else error).",
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Configuration file (default: speclint.toml or pyproject.toml in PATH).",
)
@click.option(
    "--rule", "only_rules", multiple=True, metavar="ID", help="Run only this rule (repeatable)."
)
@click.option(
    "--color/--no-color",
    default=None,
    help="Colour the text report (default: when stdout is a terminal).",
)
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
    help="Reuse results and parses of unchanged files from PATH/.speclint-cache (default: on).",
)
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
def check(
    path: Path,
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
    debug: bool,
) -> None:
    """Check the spec corpus at PATH (default: the current directory)."""
    from .config import ConfigError, load_config
    from .corpus import Corpus
    from .findings import Severity
    from .progress import TerminalProgress, reporting
    from .reporters import Report, renderer
    from .runner import detached, run_rules, select_rules

    formats = formats or ("text",)
    if len(outputs) > len(formats):
        fail("more --output than --format options: each --output belongs to one --format")
    if len(formats) - len(outputs) > 1:
        fail("only one report can go to stdout: give an --output for each extra --format")
    if not path.exists():
        fail(f"{path}: no such directory")
    if not path.is_dir():
        fail(f"{path}: not a directory (speclint checks a whole corpus: pass its root folder)")
    base_entries = None
    try:
        from .cache import ParseCache, RuleCache, RunCache, enabled, run_key
        from .corpus import snapshot

        config = load_config(path.resolve(), config_path)
        files = snapshot(path, config)
        # The run cache answers a run whose every input is unchanged; a baseline or a base
        # revision needs the corpus itself, so those runs use only the parse cache.
        caching = use_cache and enabled()
        # A run against a base judges the change (compat-claim, new and fixed findings): never
        # answered from, nor stored in, the run cache of plain runs.
        run_cache = RunCache(path) if caching and diff_base is None else None
        key = run_key(path, config, files, only_rules) if run_cache else ""
        result = run_cache.get(key) if run_cache and not debug else None
        sources = _sources(files)
        corpus = None
        if result is None or baseline_path is not None or diff_base is not None:
            parse_cache = ParseCache(path) if caching else None
            corpus = Corpus.from_snapshot(path, config, files, parse_cache)
        if result is None:
            assert corpus is not None
            rules = select_rules(corpus, only_rules or None)
            show_progress = progress if progress is not None else sys.stderr.isatty()
            sink = TerminalProgress(sys.stderr) if show_progress else None
            with reporting(sink):
                if diff_base is not None:
                    # The base first: rules that judge the change itself (compat-claim) read it.
                    corpus.base, base_entries = _lint_base(path, diff_base, config, only_rules)
                rule_cache = RuleCache(path) if caching and diff_base is None else None
                result = run_rules(corpus, rules, debug=debug, cache=rule_cache)
            if parse_cache is not None:
                parse_cache.save()  # after the run: with the pages' memoised prose sets
            if run_cache is not None:
                run_cache.put(key, detached(result))
    except ConfigError as error:
        fail(str(error))
    except KeyError as error:
        fail(f"unknown rule id(s): {error.args[0]} (see `speclint rules`)")
    except UsageProblem:
        raise
    except Exception as error:  # exit 2 with one line, not a traceback (unless --debug)
        if debug:
            raise
        fail(f"internal error: {type(error).__name__}: {error} (run with --debug for details)")

    findings = result.findings
    known: list[Finding] = []
    fixed: list[Entry] = []
    against: list[str] = []
    if diff_base is not None and base_entries is not None:
        from .baseline import apply

        assert corpus is not None  # built for every run with a base
        compared = apply(corpus, findings, base_entries)
        findings = compared.new
        known += compared.known
        fixed += compared.fixed
        against.append(f"`{diff_base}`")
        click.echo(
            f"speclint: against {diff_base}: {len(compared.new)} new finding(s), "
            f"{len(compared.fixed)} fixed, {len(compared.known)} unchanged (not shown)",
            err=True,
        )
        for entry in compared.fixed:
            click.echo(f"  fixed: [{entry.rule}] {entry.path} {entry.where}", err=True)
    if baseline_path is not None:
        from .baseline import BaselineError, apply, load

        assert corpus is not None  # built for every run with a baseline
        try:
            applied = apply(corpus, findings, load(baseline_path))
        except BaselineError as error:
            fail(str(error))
        findings = applied.new
        known += applied.known
        fixed += applied.fixed
        against.append(f"baseline `{baseline_path.as_posix()}`")
        click.echo(
            f"speclint: baseline {baseline_path}: {len(applied.known)} known finding(s) not shown, "
            f"{len(applied.new)} new",
            err=True,
        )
        if applied.fixed:
            click.echo(
                f"speclint: {len(applied.fixed)} baseline entr{'y is' if len(applied.fixed) == 1 else 'ies are'} "
                "fixed; shrink the baseline with `speclint baseline write`:",
                err=True,
            )
            for entry in applied.fixed:
                click.echo(f"  fixed: [{entry.rule}] {entry.path} {entry.where}", err=True)

    threshold = Severity.parse(fail_on) if fail_on else config.fail_on
    use_color = (
        color if color is not None else (sys.stdout.isatty() and "NO_COLOR" not in os.environ)
    )
    shown_root = path.as_posix().rstrip("/") or "."
    gate = None
    if against:
        from .findings import sorted_findings
        from .reporters import FixedFinding, Gate

        gate = Gate(
            " and ".join(against),
            tuple(sorted_findings(known)),
            tuple(
                sorted(
                    {FixedFinding(e.rule, e.path, e.where, e.message) for e in fixed},
                    key=lambda e: (e.path, e.rule, e.where, e.message),
                )
            ),
        )
    for index, name in enumerate(formats):
        destination = outputs[index] if index < len(outputs) else None
        report = Report(
            findings=findings,
            rules=result.rules,
            sources=sources,
            root=shown_root,
            tool_version=__version__,
            color=use_color and destination is None and name == "text",
            waived=tuple(result.waived),
            gate=gate,
        )
        text = renderer(name)(report)
        if destination is None:
            click.echo(text, nl=False)
        else:
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_text(text, encoding="utf-8")
    failing = any(f.severity >= threshold for f in findings)
    sys.exit(1 if failing else 0)


def _sources(files: dict[str, bytes | LoadProblem]) -> dict[str, str]:
    """The text of every readable file, for report excerpts (what ``Corpus.sources`` gives)."""
    from .corpus import decode

    texts = {}
    for relative, raw in files.items():
        if isinstance(raw, bytes):
            text, _ = decode(raw)
            if text is not None:
                texts[relative] = text
    return texts


def _lint_base(
    path: Path, ref: str, config: Config, only_rules: tuple[str, ...] | None
) -> tuple[Corpus, list[Entry]]:
    """The corpus at git revision REF, loaded in a temporary worktree, and linted there unless
    ``only_rules`` is None (rules may look at the worktree's files, so they run inside it)."""
    from .baseline import entry_for
    from .corpus import Corpus
    from .gitbase import GitError, base_checkout
    from .runner import run_rules, select_rules

    try:
        with base_checkout(path, ref) as base_path:
            if not base_path.is_dir():
                fail(f"{path} does not exist at {ref}: nothing to compare with")
            base_corpus = Corpus.load(base_path, config)
            if only_rules is None:
                return base_corpus, []
            base = run_rules(base_corpus, select_rules(base_corpus, only_rules or None))
            return base_corpus, [entry_for(base_corpus, f) for f in base.findings]
    except GitError as error:
        fail(str(error))


@main.command(name="changes")
@click.argument(
    "path",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=".",
    required=False,
)
@click.option("--diff-base", "diff_base", metavar="REF", required=True, help="The base revision.")
@click.option("--breaking", "only_breaking", is_flag=True, help="List only breaking changes.")
def show_changes(path: Path, diff_base: str, only_breaking: bool) -> None:
    """List the contract changes of PATH since git revision REF, classified by role."""
    from .compat import schema_changes

    corpus = _load_corpus(path)
    base, _ = _lint_base(path, diff_base, corpus.config, None)  # loaded, not linted
    changes = [c for c in schema_changes(base, corpus) if c.breaking or not only_breaking]
    for change in changes:
        verdict = "breaking" if change.breaking else "additive"
        where = change.location
        click.echo(
            f"{where.path}:{where.line}:{where.column}: {verdict} [{change.kind}] "
            f"{change.description}"
        )
    broken = sum(c.breaking for c in changes)
    click.echo(f"speclint: {len(changes)} change(s) since {diff_base}, {broken} breaking", err=True)


@main.command(name="build")
@click.argument(
    "path",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=".",
    required=False,
)
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Write nothing; exit 1 when the build outputs are missing, stale or extra.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output folder (default: [build] output in the configuration, else PATH/build).",
)
def build_command(path: Path, check_only: bool, output: Path | None) -> None:
    """Bundle each schema of PATH into a self-contained 2020-12 schema, with a catalog."""
    from .build import build, staleness, write

    corpus = _load_corpus(path)
    folder = output if output is not None else path / corpus.config.build_output
    result = build(corpus)
    shown: dict[tuple[str, bool], list[str]] = {}
    for problem in result.problems:
        shown.setdefault((problem.path, problem.fatal), []).append(problem.message)
    for (schema_path, fatal), messages in sorted(shown.items()):
        more = f" (and {len(messages) - 1} more)" if len(messages) > 1 else ""
        label = "not built" if fatal else "warning"
        click.echo(f"speclint: {label}: {schema_path}: {messages[0]}{more}", err=True)
    built = len(result.bundles)
    if check_only:
        state = staleness(result, folder)
        if state.clean:
            click.echo(f"speclint: {folder}: {built} bundle(s) and the catalog are up to date")
            return
        for label, paths in (
            ("missing", state.missing),
            ("stale", state.stale),
            ("extra", state.extra),
        ):
            for relative in paths:
                click.echo(f"{(folder / relative).as_posix()}: {label}", err=False)
        click.echo(
            f"speclint: {folder}: build outputs are out of date "
            f"({len(state.missing)} missing, {len(state.stale)} stale, {len(state.extra)} extra); "
            f"run `speclint build {path.as_posix()}` and commit the result",
            err=True,
        )
        sys.exit(1)
    write(result, folder)
    click.echo(f"speclint: wrote {built} bundle(s) and {folder.as_posix()}/catalog.json")


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
    from .afp import RequestError, artifact_corpus, dumps, error_response, parse_request, response

    try:
        request = parse_request(sys.stdin.read())
        corpus, focus = artifact_corpus(request, path)
        from .runner import run_rules

        result = run_rules(corpus)
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
    """List the rules with their default severity and summary."""
    from .catalog import all_rules

    catalog = all_rules()
    width = max(len(rule_id) for rule_id in catalog)
    for rule_id, info in catalog.items():
        click.echo(f"{rule_id:<{width}}  {info.severity.label:<7}  {info.summary}")


@main.command(name="rule")
@click.argument("rule_id")
def show_rule(rule_id: str) -> None:
    """Print the documentation of rule RULE_ID."""
    from .catalog import all_rules

    info = all_rules().get(rule_id)
    if info is None:
        fail(f"unknown rule {rule_id!r} (see `speclint rules`)")
    click.echo(f"{info.id} [{info.severity.label}]\n")
    click.echo(info.doc)


@main.group(name="baseline")
def baseline_group() -> None:
    """Accept the current findings, so a gate fails only on new ones."""


@baseline_group.command(name="write")
@click.argument(
    "path",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=".",
    required=False,
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Baseline file (default: speclint-baseline.json in PATH).",
)
def baseline_write(path: Path, output: Path | None) -> None:
    """Record every current finding of the corpus at PATH in a baseline file."""
    from .baseline import render
    from .runner import run_rules

    corpus = _load_corpus(path)
    result = run_rules(corpus)
    target = output or path / "speclint-baseline.json"
    target.write_text(render(corpus, result.findings), encoding="utf-8")
    click.echo(f"speclint: wrote {len(result.findings)} finding(s) to {target}")


def _load_corpus(path: Path) -> Corpus:
    """The corpus at PATH with its configuration; a bad configuration exits 2 with its reason."""
    from .config import ConfigError, load_config
    from .corpus import Corpus

    try:
        return Corpus.load(path, load_config(path.resolve()))
    except ConfigError as error:
        fail(str(error))


@main.command(name="roles")
@click.argument(
    "path",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=".",
    required=False,
)
def show_roles(path: Path) -> None:
    """Print the role of each schema location in the corpus at PATH, with its evidence."""
    from collections import Counter

    from .config import ROLE_NAMES

    corpus = _load_corpus(path)
    entries = corpus.roles.listing(corpus)
    for entry in entries:
        click.echo(f"{entry.path}#{entry.pointer or '/'}: {entry.role}")
        for line in entry.evidence:
            click.echo(f"    {line}")
    tally = Counter(entry.role for entry in entries)
    shown = ", ".join(f"{tally[r]} {r}" for r in ROLE_NAMES if tally[r])
    click.echo(f"speclint: {len(entries)} schema locations: {shown}")


@main.command(name="bindings")
@click.argument(
    "path",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=".",
    required=False,
)
@click.option("--all", "show_all", is_flag=True, help="Also list prose sets that bind to nothing.")
def show_bindings(path: Path, show_all: bool) -> None:
    """List the value sets in the prose of PATH and the schema enums they are bound to."""
    from .enumerations import Binder, all_prose_sets

    corpus = _load_corpus(path)
    binder = Binder(corpus)
    bound = unbound = 0
    for prose in all_prose_sets(corpus):
        bindings = binder.bindings(prose)
        if not bindings and not show_all:
            unbound += 1
            continue
        field = f" `{prose.field}`" if prose.field else ""
        values = ", ".join(prose.values[:6]) + (", ..." if len(prose.values) > 6 else "")
        click.echo(f"{prose.path}:{prose.line} {prose.form}{field} [{values}]")
        if not bindings:
            unbound += 1
            click.echo("    (not bound)")
        for binding in bindings:
            bound += 1
            listed = {str(v) for v in binding.values.values}
            same = "same values" if listed == set(prose.values) else "values differ"
            click.echo(
                f"    -> {binding.target.label} ({binding.confidence}; {same}): {binding.evidence}"
            )
    click.echo(f"speclint: {bound} binding(s); {unbound} prose set(s) bound to nothing")


if __name__ == "__main__":
    main()
