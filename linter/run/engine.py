"""The run: one entry point for everything that lints a corpus.

``speclint check`` (and so the pre-commit hook), ``speclint baseline write`` and the Agent Feedback
Protocol command call :func:`lint`; commands that only need the parsed corpus call :func:`load`.
A run is, in order (architecture.md, "Data flow"):

1. the configuration, the date waivers are judged against, and the rules to run: the
   configuration's ``select``/``ignore`` and the command line's (``speclint.run.selection``),
   chosen here so that every front end (``check``, the hook, the daemon, the language server,
   the Agent Feedback Protocol) runs the same rules, the preview rules only in preview mode
   (``speclint.run.preview``);
2. **read** (``_read``): the root's file listing and the bytes of every discovered file
   (``corpus.snapshot``);
3. the run cache: a run whose every input is unchanged is answered from it (never a run with a
   base revision, which judges a change);
4. **parse** (``_parse``): the corpus, parsed (unchanged files from the parse cache), and, with
   ``diff_base``, the same corpus at the base revision, linted in a temporary worktree
   (``_lint_base``);
5. **judge** (``_judge``): the rules (``runner.run_rules``: forked, time-boxed, the structured
   ones from the rule cache), and the waivers; a defect repeated in frozen released copies folded
   into one finding (``speclint.run.history``), and one repeated in a document's JSON and YAML
   twins (``speclint.run.twins``); what a rule or the corpus says was not checked (a remote
   ``$ref``, a proto import the repository does not hold) set apart as the run's coverage
   (``speclint.run.coverage``), never a finding;
6. **compare** (``_compared``): against the base's findings, against a baseline file.

``_lint`` calls these stages in this order, each with its inputs and outputs in view. What they
reuse of earlier runs (files' bytes, the run, parse and rule caches) they ask of one interface,
``speclint.run.reuse.Caches``, which the cache folder and a resident checker (the daemon's, the
language server's) each implement.

The whole run has a time limit as well as each rule (``Options.time_limit``): the rules still
running near the limit are stopped and reported as ``internal-error`` findings, and a run that is
still parsing at the limit ends with :class:`EngineError`. Every problem the user can act on (a bad
configuration, an unknown rule, a base revision that is not fetched, a malformed baseline, a bad
``SPECLINT_TODAY``) is an :class:`EngineError` with a one-line message; the command line prints
it and exits 2.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from speclint.analyses.changes.proto_changes import contract_changes
from speclint.analyses.context import Context
from speclint.analyses.prose.enumerations import prose_sets
from speclint.analyses.prose.rfcs import is_rfc
from speclint.analyses.repository.downloads import page_commands
from speclint.analyses.schemas.references import embedded_uris
from speclint.analyses.units import extract_digest, prepared
from speclint.common.cache_folder import enabled
from speclint.common.collector import run_collector
from speclint.common.findings import Finding, Severity, sorted_findings
from speclint.common.lifecycle import DEFAULT_TIME_LIMIT, TimeLimitReached, time_limit
from speclint.common.parallel import default_jobs
from speclint.common.progress import Sink, reporting
from speclint.model.config import Config, ConfigError, check_rule_settings, load_config
from speclint.model.corpus import (
    Document,
    decode,
    discover,
    generated_mark,
    snapshot,
)
from speclint.parsing.gitbase import (
    GitError,
    GitIgnored,
    NeedsCheckout,
    RevisionFiles,
    base_checkout,
    ignored,
    remove_stale_worktrees,
    revision_files,
    tracked_listing,
    walk_order,
)
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.reading import LoadProblem, read_raw, shown_path
from speclint.parsing.tree import SKIPPED_FOLDERS, listing, revision_listing
from speclint.run.baseline import (
    BASELINE,
    GATE,
    Applied,
    BaselineError,
    Changed,
    Entry,
    FixedFinding,
    Gate,
    Matching,
    Place,
    UncheckedFinding,
    change_phrase,
    entry_for,
)
from speclint.run.baseline import apply as apply_baseline
from speclint.run.baseline import load as load_baseline
from speclint.run.bindings import BoundSet, enum_bindings
from speclint.run.cache import run_key, run_key_head
from speclint.run.catalog import RuleInfo, all_rules
from speclint.run.coverage import Note
from speclint.run.history import collapsed
from speclint.run.inventory import Entry as FileEntry
from speclint.run.preview import (
    Held,
    PreviewDataError,
    held_back,
    preview_heuristics,
    preview_ids,
    previewed,
)
from speclint.run.replay import Inputs, Reads, inputs_of
from speclint.run.resident import Resident
from speclint.run.reuse import Caches, caches_for
from speclint.run.roots import in_focus
from speclint.run.runner import INTERNAL_ERROR, RunResult, not_run, run_rules, select_rules
from speclint.run.selection import (
    OWN_FINDINGS,
    SelectionError,
    chosen,
    configured,
    needing_a_base,
)
from speclint.run.twins import folded
from speclint.run.unchecked import Revision, about, no_longer_checked
from speclint.run.waivers import Waived, today

# Before the limit, the rules still running are stopped, so the report of the others is written.
REPORT_MARGIN = 30.0


def _folded(result: RunResult, corpus: Context) -> RunResult:
    """A run's findings with copies' repeats folded: released versions, then format twins."""
    return folded(collapsed(result, corpus), corpus)


class EngineError(Exception):
    """The run cannot be done as asked; the message says why and what to do."""


@dataclass(frozen=True)
class Options:
    config_path: Path | None = None
    # --select (and --rule): rule ids and prefixes (speclint.run.selection); empty: the rules the
    # configuration's select, ignore and [rules] enable.
    rules: tuple[str, ...] = ()
    rules_as_rule: tuple[str, ...] = ()  # those of `rules` given as --rule: errors name it
    ignore: tuple[str, ...] = ()  # --ignore: rule ids and prefixes not to run
    # --preview / --no-preview: run the preview rules (speclint.run.preview). None: the
    # environment's SPECLINT_PREVIEW, else the configuration's `preview`.
    preview: bool | None = None
    baseline: Path | None = None
    diff_base: str | None = None
    cache: bool = True
    debug: bool = False  # rules in this process, tracebacks shown
    time_limit: float | None = DEFAULT_TIME_LIMIT
    progress: Sink | None = None
    keep_corpus: bool = False  # parse the corpus even when the run cache answers
    # The files of git's index (what the commit being made holds), not every file of the folder:
    # the pre-commit hook judges the commit, and an untracked scratch file is not part of it.
    staged: bool = False
    # Root-relative path -> text that replaces the file's (the language server's open editors,
    # saved or not; a path not on disk is a new file).
    overlay: Mapping[str, str] | None = None
    # Root-relative files and folders whose findings are reported (`speclint check FILE`): the
    # whole corpus is linted, as drift is between files. None: all of them.
    focus: tuple[str, ...] | None = None
    # With a base: describe the change for a reviewer's report (the Markdown and JSON formats):
    # what it does to the contract (``speclint changes``'s analysis) and which files it touched,
    # on the gate (``Gate.changes``, ``Gate.changed_files``). Off by default: the comparison of
    # the two revisions' schemas costs time that a plain gate does not need.
    describe_change: bool = False
    # A resident checker's memory of this corpus (a daemon's, the language server's): its caches
    # stand in for the cache folder's. Used only for the corpus it was made for, and not with
    # --no-cache.
    resident: Resident | None = None
    # List the prose value sets and the schema enums they are bound to (Outcome.bindings), for
    # the HTML report: only then, as it weighs every prose set of the corpus again.
    bindings: bool = False
    # Name the files whose bytes the run read, with a digest of those bytes (Outcome.inputs), for
    # the replay cache (``speclint.run.replay``): only then, as it hashes them once more.
    inputs: bool = False


@dataclass
class Outcome:
    config: Config
    result: RunResult  # every finding of the corpus (waivers applied) and the rules that ran
    findings: list[Finding]  # what is reported: the new ones when there is a base or baseline
    sources: dict[str, str]  # path -> text, for report excerpts
    gate: Gate | None = None
    notes: list[str] = field(default_factory=list)  # for standard error
    corpus: Context | None = None  # parsed unless the run cache answered (see keep_corpus)
    held: Held = field(default_factory=Held)  # preview rules selected but not run
    # With Options.bindings: the prose value sets (of the focus) and their bindings.
    bindings: tuple[BoundSet, ...] | None = None
    # With Options.inputs, for a result the run cache keeps (none with an internal error): the
    # files whose bytes it was made of.
    inputs: Inputs | None = None


def _configuration(root: Path, config_path: Path | None) -> Config:
    if not root.exists():
        raise EngineError(f"{root}: no such directory")
    if not root.is_dir():
        raise EngineError(
            f"{root}: not a directory (speclint checks a whole corpus: pass its root)"
        )
    try:
        today()  # a bad SPECLINT_TODAY or SPECLINT_JOBS is the user's to fix before anything runs
        default_jobs()
    except ValueError as error:
        raise EngineError(str(error)) from None
    try:
        config = load_config(root.resolve(), config_path)
        if config.rule_severity or config.rule_options:  # the rule modules load only if named
            check_rule_settings(config, {rule: info.doc for rule, info in all_rules().items()})
        if config.select is not None or config.ignore:
            config = configured(config, all_rules())
    except (ConfigError, SelectionError) as error:
        raise EngineError(str(error)) from None
    return config


PREVIEW_VARIABLE = "SPECLINT_PREVIEW"
_SWITCH = {"1": True, "true": True, "yes": True, "on": True}
_SWITCH.update({"0": False, "false": False, "no": False, "off": False, "": False})


def preview_mode(config: Config, options: Options) -> bool:
    """Whether the run is in preview mode: the command line's ``--preview``/``--no-preview``,
    else ``SPECLINT_PREVIEW`` (1/0, true/false), else the configuration's ``preview``."""
    if options.preview is not None:
        return options.preview
    value = os.environ.get(PREVIEW_VARIABLE)
    if value is None:
        return config.preview
    if value.strip().lower() not in _SWITCH:
        raise EngineError(f"{PREVIEW_VARIABLE} must be 1 or 0 (true or false)")
    return _SWITCH[value.strip().lower()]


def _chosen(config: Config, options: Options) -> tuple[str, ...]:
    return _selection(config, options)[0]


def _selection(config: Config, options: Options) -> tuple[tuple[str, ...], Held]:
    """The ids of the rules this run runs (``speclint.run.selection``), less the preview rules
    a run outside preview mode holds back (``speclint.run.preview``), and those; an
    :class:`EngineError` for a selector that selects nothing, and for one that asks only for
    rules that judge a change when there is no base to judge it against (they would find
    nothing: a false pass)."""
    catalog = all_rules()
    try:
        # Again for a corpus made in memory (the Agent Feedback Protocol's): the same choice.
        config = configured(config, catalog)
        ids = chosen(config, catalog, options.rules, options.ignore, options.rules_as_rule)
    except SelectionError as error:
        raise EngineError(str(error)) from None
    if options.diff_base is None:
        judging = {rule for rule, info in catalog.items() if info.needs_base}
        # The command line's choice replaces the configuration's; a configuration's selector is
        # named by its place, as its messages never repeat a value.
        if options.rules:
            asked = needing_a_base(options.rules, judging, catalog)
            flag = "--rule" if asked in options.rules_as_rule else "--select"
            named = f"{flag} {asked}"
        elif ids and all(rule in judging for rule in ids):
            # A configuration is read by every run, most of them with no base (the editor, a
            # local check): its choice is an error only when it would run nothing at all.
            selectors = config.select or ()
            asked = needing_a_base(selectors, judging, catalog)
            place = next((i for i, s in enumerate(selectors) if s.strip() == asked), 0)
            named = f"{config.source or 'configuration'}: select[{place}]"
        else:
            asked = named = ""
        if asked:
            raise EngineError(
                f"{named} judges a change and cannot run without --diff-base REF "
                "(the revision to compare with, e.g. origin/main)"
            )
    selectors = options.rules or config.select or ()
    try:
        previews = preview_ids(ids)
    except PreviewDataError as error:
        raise EngineError(str(error)) from None
    return previewed(
        ids, previews, preview_mode(config, options), config.explicit_preview_rules, selectors
    )


def load(root: Path, config_path: Path | None = None) -> Context:
    """The corpus at ``root`` with its configuration, parsed (no rules run)."""
    config = _configuration(root, config_path)
    return Context.load(root, config)


def lint(root: Path, options: Options | None = None) -> Outcome:
    """Lint the corpus at ``root``."""
    options = options or Options()
    started = time.monotonic()
    limit = options.time_limit
    phase = ["reading the configuration"]
    try:
        with reporting(options.progress), time_limit(limit), run_collector():
            return _lint(root, options, started, phase)
    except TimeLimitReached:
        raise EngineError(
            f"the run did not finish within its time limit of {limit:g} s (it was "
            f"{phase[0]}); raise it with --time-limit, or check a smaller part of the corpus"
        ) from None


def _lint(root: Path, options: Options, started: float, phase: list[str]) -> Outcome:
    """The run's stages, in order: read the files, parse them, judge them (the base revision
    first, when there is one), compare the findings with the base's and a baseline's. What a
    stage reuses of earlier runs it asks of ``caches`` (``speclint.run.reuse.Caches``: the cache
    folder's, or a resident checker's; None with ``--no-cache``). ``phase`` says which stage
    runs, for the time limit's message."""
    config = _configuration(root, options.config_path)
    selected, held = _selection(config, options)
    remove_stale_worktrees(root, thorough=True)  # what a killed --diff-base run left behind
    caches = caches_for(root, options.cache, options.resident)
    phase[0] = "reading the files"
    # A run the replay cache records keeps each file's status as it was read (never a resident
    # checker's run: the replay front records only a run in its own process).
    reads = Reads() if options.inputs and caches is not None and options.resident is None else None
    read = _read(root, config, options, caches, reads)
    beside: dict[str, bytes | LoadProblem] = {}
    key = (
        run_key(
            root,
            config,
            read.files,
            selected,
            read.tree,
            reads.beside_reader(root) if reads is not None else None,
            beside=beside,
        )
        if caches is not None
        else ""
    )
    inputs = (
        _inputs(read, beside, reads, options) if options.inputs and caches is not None else None
    )
    plain = _recalled(caches, key) if not options.debug else None
    if plain is not None and options.diff_base is None and not _needs_corpus(options):
        # The run cache answers: nothing is parsed, no rule runs.
        phase[0] = "comparing"
        outcome = _compared(options, config, plain, _sources(read.files), None, None)
        return replace(_finished(outcome, None, options, config, held, phase), inputs=inputs)
    phase[0] = "parsing"
    prepare = _preparation(config, options, caching=options.cache and enabled())
    corpus = _parse(root, config, read, caches, prepare)
    # The report's excerpts: the parsed documents' own texts (not a second copy of each); the
    # bytes read are let go before the rules run (a ×10 corpus: 80 MB less in every worker).
    sources = corpus.sources()
    del read
    deadline = _deadline(started, options.time_limit)
    base = None
    if options.diff_base is not None:
        # The base first: rules that judge the change itself (compat-claim) read it.
        phase[0] = f"linting the base revision {options.diff_base}"
        base = _lint_base(root, options.diff_base, config, selected, deadline, caches, prepare)
        corpus.base = base.corpus
    result = _judge(corpus, selected, plain, options, caches, key, deadline, phase)
    phase[0] = "comparing"
    outcome = _compared(options, config, result, sources, corpus, base)
    if any(f.rule == INTERNAL_ERROR for f in result.findings):
        inputs = None  # a rule stopped by its time box: not kept, as the run cache does not
    finished = _finished(outcome, corpus, options, config, held, phase)
    if caches is not None:
        # What this process memoised on the documents since their entries were read or written
        # (the value sets of pages parsed by a run that read none: ``runner.prime``, the
        # bindings), kept for the next run.
        caches.documents.save_memos()
    return replace(finished, inputs=inputs)


@dataclass
class _Read:
    """What the run read: the listing, what git ignores in it, and each discovered file's bytes
    (or why it could not be read)."""

    tree: list[str]
    hidden: GitIgnored
    files: dict[str, bytes | LoadProblem]


def _read(
    root: Path, config: Config, options: Options, caches: Caches | None, reads: Reads | None
) -> _Read:
    """Stage 1: the corpus's listing (git's index with ``Options.staged``, the overlay's new
    files in it) and the bytes of every discovered file (``corpus.snapshot``), read through the
    caches (a resident checker keeps unchanged files' bytes), or through ``reads`` when the
    replay cache records the run, the overlay's texts in place of the files'."""
    tree = _tree(root, options.staged)
    if options.overlay:
        tree = _overlaid_tree(tree, options.overlay)
    hidden = ignored(root)  # asked once: the corpus keeps it (``Corpus.git_ignored``)
    reader = reads.read if reads is not None else caches.read if caches else read_raw
    files = snapshot(root, config, tree, reader, hidden)
    if caches is not None:
        caches.listed()
    for path, text in (options.overlay or {}).items():
        if path in files:  # discovered: the configuration includes it, git does not ignore it
            files[path] = text.encode("utf-8", "surrogateescape")
    return _Read(tree, hidden, files)


def _inputs(
    read: _Read, beside: dict[str, bytes | LoadProblem], reads: Reads | None, options: Options
) -> Inputs:
    """The files whose bytes the run read (``speclint.run.replay.Inputs``), as the walk listed
    them (``read.files`` names a file as ``shown_path`` shows it), with a digest of what each
    gave and its status as ``reads`` read it: the replay cache answers only when the files give
    the same again. An overlaid file's text is not the file's: it has no status."""
    corpus = reads.corpus if reads is not None else {}
    others = reads.beside if reads is not None else {}
    overlaid = set(options.overlay or ())
    return inputs_of(
        [
            (
                path,
                read.files[shown_path(path)],
                None if shown_path(path) in overlaid else corpus.get(path),
            )
            for path in read.tree
            if shown_path(path) in read.files
        ],
        [(path, beside[path], others.get(path)) for path in sorted(beside)],
        reads.started if reads is not None else 0,
    )


def _recalled(caches: Caches | None, key: str) -> RunResult | None:
    """The result the run cache holds for these inputs: a plain run's. A run against a base
    judges the change as well (compat-claim, new and fixed findings): it uses it only as
    :func:`_judged` says."""
    return _from_record(caches.runs.get(key)) if caches is not None else None


def _needs_corpus(options: Options) -> bool:
    """Whether the run needs the parsed corpus even when the run cache has its result."""
    return bool(
        options.keep_corpus or options.bindings or options.baseline is not None or options.diff_base
    )


def _parse(
    root: Path,
    config: Config,
    read: _Read,
    caches: Caches | None,
    prepare: Callable[[Document], None],
) -> Context:
    """Stage 2: the corpus, parsed, unchanged files from the parse cache; ``prepare`` memoises
    on each page what the rules will read of it (:func:`_preparation`)."""
    parses = caches.documents if caches is not None else None
    return Context.from_snapshot(root, config, read.files, parses, read.tree, prepare, read.hidden)


def _judge(
    corpus: Context,
    selected: tuple[str, ...],
    plain: RunResult | None,
    options: Options,
    caches: Caches | None,
    key: str,
    deadline: float | None,
    phase: list[str],
) -> RunResult:
    """Stage 3: the corpus's findings, waivers applied: the plain run's result when it answers
    (no base, or :func:`_judged`), else the rules run (``runner.run_rules``: forked, time-boxed,
    from the rule cache), copies' repeats folded, the result kept in the run cache. The parse
    cache's new entries are written meanwhile (each page memoised what the rules read of it as it
    was parsed); with a base, the base's too (an entry no document of this run used is dropped)."""
    saved = caches.documents.save_soon() if caches is not None else None
    try:
        if options.diff_base is None and plain is not None:
            return plain
        rules = select_rules(corpus, selected)
        if options.diff_base is not None:
            judged = _judged(corpus, rules, plain, options.debug, deadline)
            if judged is not None:
                return judged
        phase[0] = "running the rules"
        cache = caches.results if caches is not None else None
        found = run_rules(corpus, rules, debug=options.debug, cache=cache, deadline=deadline)
        result = _folded(found, corpus)
        # A rule stopped by its time box (a busy machine?) is tried again next time; a result
        # with the change judged is a plain run's only when that found nothing.
        if (
            caches is not None
            and not any(f.rule == INTERNAL_ERROR for f in result.findings)
            and (options.diff_base is None or not _judging_found(result))
        ):
            # With the findings' baseline entries: a later run against these files as its base
            # compares with them, unparsed.
            entries = [entry_for(corpus, finding) for finding in result.findings]
            caches.runs.put(key, _record(result, entries))
        return result
    finally:
        if saved is not None:
            saved()  # the entries are written, also when the run is interrupted


def _finished(
    outcome: Outcome,
    corpus: Context | None,
    options: Options,
    config: Config,
    held: Held,
    phase: list[str],
) -> Outcome:
    """The compared outcome with what some reports ask for (the bindings, what the change does
    to the contract), less the findings of preview heuristics outside preview mode."""
    if options.bindings and corpus is not None:
        phase[0] = "listing the bindings"
        focus = options.focus
        listed = enum_bindings(corpus)
        bindings = tuple(b for b in listed if focus is None or in_focus(b.location.path, focus))
        outcome = replace(outcome, bindings=bindings)
    if options.describe_change and outcome.gate is not None and corpus is not None:
        phase[0] = "comparing the contract with the base revision's"
        outcome = replace(outcome, gate=_described(outcome.gate, corpus, options.focus))
    return _without_preview_heuristics(replace(outcome, held=held), preview_mode(config, options))


def _without_preview_heuristics(outcome: Outcome, preview: bool) -> Outcome:
    """The outcome less the findings of preview heuristics outside preview mode (issue 45),
    counted in ``held``. Dropped after the comparisons: a baseline entry or a base finding
    that such a finding matches is neither fixed nor new, as for a rule that did not run."""
    try:
        everything, dropped = held_back(outcome.result.findings, preview)
        if not dropped:
            return outcome
        findings, held = held_back(outcome.findings, preview)
        dropping = preview_heuristics()  # not in preview mode: `dropped` is empty in it
        waived = [w for w in outcome.result.waived if w.finding.heuristic not in dropping]
        gate = outcome.gate
        if gate is not None:
            gate = replace(gate, known=tuple(held_back(gate.known, preview)[0]))
    except PreviewDataError as error:
        raise EngineError(str(error)) from None
    return replace(
        outcome,
        findings=findings,
        result=replace(outcome.result, findings=everything, waived=waived),
        gate=gate,
        held=replace(outcome.held, heuristics=tuple(sorted(held.items()))),
    )


def _described(gate: Gate, corpus: Context, focus: tuple[str, ...] | None) -> Gate:
    """``gate`` with what the change does to the contract (in the focus, when there is one) and
    the files it touched (all of them: a file outside the focus can cause a finding in it), when
    the run has a base revision; as it is otherwise."""
    if corpus.base is None:
        return gate
    changes = contract_changes(corpus.base, corpus)
    if focus is not None:
        changes = [c for c in changes if in_focus(c.location.path, focus)]
    # The files as the corpus reads them at each revision: what git diff base..head lists of
    # the corpus, and an uncommitted edit too (the head is the work tree).
    before, after = corpus.base.sources(), corpus.sources()
    changed = sorted(
        path for path in before.keys() | after.keys() if before.get(path) != after.get(path)
    )
    return replace(
        gate,
        changes=tuple(changes),
        changed_files=tuple(changed),
        base_sources={path: before[path] for path in changed if path in before},
    )


def _tree(root: Path, staged: bool) -> list[str]:
    """Every file of the corpus folder, or, ``staged``, of git's index there (outside a git work
    tree: of the folder)."""
    if staged:
        found = tracked_listing(root.resolve(), SKIPPED_FOLDERS)
        if found is not None:
            return found
    return listing(root.resolve())


def _overlaid_tree(tree: list[str], overlay: Mapping[str, str]) -> list[str]:
    """The listing with the overlay's new files in it, in the walk's order."""

    new = [
        path
        for path in overlay
        if path not in tree and path and not path.startswith("/") and ".." not in path.split("/")
    ]
    return sorted([*tree, *new], key=walk_order) if new else tree


@dataclass(frozen=True)
class _Base:
    """The base revision of a run with ``--diff-base`` (:func:`_lint_base`): its corpus, the
    baseline entries of its findings, and the result they were made of (None when the run cache
    held the entries)."""

    corpus: Context
    entries: list[Entry]
    result: RunResult | None


def _judged(
    corpus: Context,
    rules: dict[str, RuleInfo],
    plain: RunResult | None,
    debug: bool,
    deadline: float | None,
) -> RunResult | None:
    """With a base: the result of a plain run on the same files, when the rules that judge the
    change itself (``NEEDS_BASE``: compat-claim) find nothing in it. Every other rule reads the
    head alone, so the whole result, waivers applied, is then the plain run's. None when it must
    be made (no plain result, or a judging rule found something)."""
    if plain is None:
        return None
    judging = {rule_id: info for rule_id, info in rules.items() if info.needs_base}
    if not judging:
        return plain
    found = run_rules(corpus, judging, debug=debug, deadline=deadline, waivers=False)
    return None if found.findings else plain


def _judging_found(result: RunResult) -> bool:
    """Whether a rule that reads the base found something (reported or waived): without it,
    the result is the plain run's on the same files."""
    judging = {rule_id for rule_id, info in result.rules.items() if info.needs_base}
    return any(f.rule in judging for f in result.findings) or any(
        w.finding.rule in judging for w in result.waived
    )


def _preparation(config: Config, options: Options, caching: bool) -> Callable[[Document], None]:
    """What the rules will memoise on every page, made as it is parsed (on every core): its
    value sets (when a rule that runs reads them, or the run lists the bindings), whether it is
    an RFC, its shell fences (``downloads.page_commands``, which the rule cache's key reads of
    every page), what each rule's ``prepare`` reads of it, and, when the rule cache keys on
    them, what each ``READS = "extract"`` rule reads of it (``speclint.analyses.units``); of
    every document, whether it says a tool wrote it (which provenance reads of every document),
    and of a schema, the resources it embeds (which finding the bundles reads of every schema).
    Each is kept with the document in the parse cache."""

    selected = _chosen(config, options)
    running = [(rule_id, info) for rule_id, info in all_rules().items() if rule_id in selected]
    extracts = [(r, i.extract) for r, i in running if caching and i.extract is not None]
    # Every rule's, selected or not: a page's entry is written once, and a later run with all
    # the rules would otherwise make them in the workers until the page changes.
    preparers = [(r, i.prepare) for r, i in all_rules().items() if i.prepare is not None]
    # The value sets only for a run that reads them (21 % of a cold run's CPU on OpenWOP): a
    # later run that does makes them for the pages the parse cache kept without, once
    # (``ParseCache.save_memos``).
    sets = options.bindings or any(info.reads_prose_sets for _, info in running)

    def prepare(document: Document) -> None:
        if document.text is not None:
            with contextlib.suppress(Exception):  # made again where it is read, as below
                generated_mark(document)
        if document.kind is DocumentKind.SCHEMA and document.usable:
            with contextlib.suppress(Exception):
                embedded_uris(document)
        if document.kind is not DocumentKind.MARKDOWN or not document.usable:
            return
        steps: list[Callable[[], object]] = [
            *([partial(prose_sets, document)] if sets else []),
            partial(is_rfc, document),
            partial(page_commands, document),
            *(partial(prepared, document, r, make, Any) for r, make in preparers),
            *(partial(extract_digest, document, r, extract) for r, extract in extracts),
        ]
        for step in steps:
            # Isolated as the rules are: what a step fails to make here is missing from the
            # page, and the rule that reads it makes it in its own worker, where a crash is
            # that rule's internal-error finding, not the end of the whole parse.
            with contextlib.suppress(Exception):
                step()

    return prepare


def _deadline(started: float, limit: float | None) -> float | None:
    if limit is None or limit <= 0:
        return None
    return started + max(limit * 0.5, limit - REPORT_MARGIN)


def _compared(
    options: Options,
    config: Config,
    result: RunResult,
    sources: dict[str, str],
    corpus: Context | None,
    base: _Base | None,
) -> Outcome:
    """Stage 4: the findings reported, against the base revision's findings (``--diff-base``)
    and a baseline file's entries, with the gate that says what each comparison held back and
    which of its entries are fixed; narrowed to the focus."""
    # Each comparison (the base revision's findings, then a baseline file) keeps what it does not
    # know; the report says what each one held back and which of its entries are fixed.
    comparisons: list[tuple[str, list[Entry], Matching, Callable[[Applied], list[str]]]] = []
    base_entries = base.entries if base is not None else None
    base_result = base.result if base is not None else None
    if options.diff_base is not None and base_entries is not None:
        ref = options.diff_base
        comparisons.append(
            (
                f"`{ref}`",
                base_entries,
                GATE,
                lambda done: [
                    f"against {ref}: {len(done.new)} new finding(s), {len(done.fixed)} fixed, "
                    + (f"{len(done.unchecked)} no longer checked, " if done.unchecked else "")
                    + f"{len(done.changed)} changed, {len(done.known)} unchanged (not shown)",
                    *_fixed_lines(done.fixed),
                    *_unchecked_lines(done.unchecked),
                    *_changed_lines(done.changed),
                ],
            )
        )
    if options.baseline is not None:
        path = options.baseline
        try:
            entries = load_baseline(path, corpus.root if corpus is not None else None)
        except BaselineError as error:
            raise EngineError(str(error)) from None
        comparisons.append(
            (
                f"baseline `{path.as_posix()}`",
                entries,
                BASELINE,
                partial(_baseline_notes, path),
            )
        )
    focus = options.focus

    def shown(finding: Finding) -> bool:
        # Where the finding is, as ruff and ESLint show a file's own problems: the other side of
        # a drift outside the paths given is in its related locations, not a reason to show it.
        return focus is None or in_focus(finding.location.path, focus)

    findings = [finding for finding in result.findings if shown(finding)]
    everything = result.findings
    # A run narrowed by --select/--ignore judges only its rules' entries, as it judges only their
    # waivers (``speclint.run.runner``): the others are neither fixed nor unchanged. The base of
    # --diff-base is linted with the same rules, so only a baseline file can hold such entries.
    ran: set[str] | None = None
    if corpus is not None and not set(result.rules) >= set(select_rules(corpus)):
        ran = set(result.rules) - set(OWN_FINDINGS)
    known: list[Finding] = []
    fixed: list[Entry] = []
    unchecked: list[tuple[Entry, str]] = []
    changed: list[Changed] = []
    against: list[str] = []
    notes: list[str] = []
    for label, entries, matching, describe in comparisons:
        assert corpus is not None  # built for every run with a base or a baseline
        # Matched over the whole corpus, then narrowed to the focus: a finding outside it must
        # not make its entry look fixed.
        applied = apply_baseline(corpus, everything, entries, matching, ran, since=label)
        everything = applied.new
        if matching is GATE and corpus.base is not None:
            applied = _unchecked_apart(applied, corpus, result, base_entries or [], base_result)
        if focus is not None:
            applied = Applied(
                [f for f in applied.new if shown(f)],
                [f for f in applied.known if shown(f)],
                [e for e in applied.fixed if in_focus(e.path, focus)],
                [e for e in applied.unjudged if in_focus(e.path, focus)],
                [c for c in applied.changed if shown(c.finding)],
                [(e, why) for e, why in applied.unchecked if in_focus(e.path, focus)],
            )
        findings = applied.new
        known += applied.known
        fixed += applied.fixed
        unchecked += applied.unchecked
        changed += applied.changed
        against.append(label)
        notes += describe(applied)
    gate = None
    if against:
        gate = Gate(
            " and ".join(against),
            tuple(sorted_findings(known)),
            tuple(
                sorted(
                    {FixedFinding(e.rule, e.path, e.where, e.message) for e in fixed},
                    key=lambda e: (e.path, e.rule, e.where, e.message),
                )
            ),
            changed=tuple(sorted(changed, key=lambda c: (c.finding.sort_key(), c.base_message))),
            no_longer_checked=tuple(
                sorted(
                    {
                        UncheckedFinding(e.rule, e.path, e.where, e.message, why)
                        for e, why in unchecked
                    },
                    key=lambda e: (e.path, e.rule, e.where, e.message, e.why),
                )
            ),
        )
    if focus is not None:
        result = replace(
            result,
            waived=[w for w in result.waived if shown(w.finding)],
            coverage=tuple(n for n in result.coverage if in_focus(n.path, focus)),
        )
    return Outcome(config, result, findings, sources, gate, notes, corpus)


# Fixed entries named on stderr, one line each; the rest are counted. A commit that takes 3,000
# broken links out of a page fixes 3,000 findings: the JSON report lists them all (`gate.fixed`).
# (One that deletes the page leaves them no longer checked, `gate.no_longer_checked`: counted so.)
FIXED_SHOWN = 20


def _fixed_lines(fixed: list[Entry]) -> list[str]:
    lines = [f"  fixed: [{e.rule}] {e.path} {e.where}" for e in fixed[:FIXED_SHOWN]]
    if len(fixed) > FIXED_SHOWN:
        lines.append(
            f"  … and {len(fixed) - FIXED_SHOWN} more fixed (the JSON report, --format json, "
            "lists them all)"
        )
    return lines


def _unchecked_apart(
    applied: Applied,
    corpus: Context,
    result: RunResult,
    base_entries: list[Entry],
    base_result: RunResult | None,
) -> Applied:
    """``applied`` with the fixed entries the head no longer checks (``speclint.run.unchecked``:
    a file they are about gone, unreadable, or with a `$ref` that no longer resolves) taken out
    of ``fixed`` into ``unchecked``: the hook and the gate never call them fixed."""
    if not applied.fixed or corpus.base is None:
        return applied
    base_findings = base_result.findings if base_result is not None else []
    base = Revision(
        frozenset(corpus.base.documents),
        [*base_findings, *(w.finding for w in (base_result.waived if base_result else []))],
        base_result.coverage if base_result is not None else (),
    )
    head = Revision(
        frozenset(corpus.documents),
        [*result.findings, *(w.finding for w in result.waived)],
        result.coverage,
    )
    why = no_longer_checked(applied.fixed, about(base_entries, base_findings), base, head)
    if not why:
        return applied
    return replace(
        applied,
        fixed=[e for e in applied.fixed if e not in why],
        unchecked=[(e, why[e]) for e in applied.fixed if e in why],
    )


def _unchecked_lines(unchecked: list[tuple[Entry, str]]) -> list[str]:
    """Each finding the head no longer checks on stderr (as many as ``FIXED_SHOWN``), with why."""
    lines = [
        f"  no longer checked: [{e.rule}] {e.path} {e.where} ({why})"
        for e, why in unchecked[:FIXED_SHOWN]
    ]
    if len(unchecked) > FIXED_SHOWN:
        lines.append(
            f"  … and {len(unchecked) - FIXED_SHOWN} more no longer checked (the JSON report, "
            "--format json, lists them all)"
        )
    return lines


def _changed_lines(changed: list[Changed]) -> list[str]:
    """Each changed finding on stderr (as many as ``FIXED_SHOWN``), with what its message gained
    and lost: ``changed: [enum-drift] spec/runs.md:3: `paused` added``."""
    lines = [
        f"  changed: [{c.finding.rule}] {c.finding.location.path}:{c.finding.location.line}: "
        f"{change_phrase(c)}"
        for c in changed[:FIXED_SHOWN]
    ]
    if len(changed) > FIXED_SHOWN:
        lines.append(
            f"  … and {len(changed) - FIXED_SHOWN} more changed (the JSON report, --format json, "
            "lists them all)"
        )
    return lines


def _baseline_notes(path: Path, applied: Applied) -> list[str]:
    notes = [
        f"baseline {path}: {len(applied.known)} known finding(s) not shown, {len(applied.new)} new"
    ]
    if applied.unjudged:
        notes.append(
            f"{len(applied.unjudged)} baseline entr{'y' if len(applied.unjudged) == 1 else 'ies'} "
            "of rules that did not run (--select, --ignore, preview rules without --preview) "
            "not judged"
        )
    if applied.fixed:
        entries = "entry is" if len(applied.fixed) == 1 else "entries are"
        notes.append(
            f"{len(applied.fixed)} baseline {entries} fixed; shrink the baseline with "
            "`speclint baseline write`:"
        )
        notes += _fixed_lines(applied.fixed)
    return notes


def _sources(files: dict[str, bytes | LoadProblem]) -> dict[str, str]:
    """The text of every readable file, for report excerpts (what ``Corpus.sources`` gives)."""
    texts = {}
    for relative, raw in files.items():
        if isinstance(raw, bytes):
            text, _ = decode(raw)
            if text is not None:
                texts[relative] = text
    return texts


def _lint_base(
    root: Path,
    ref: str,
    config: Config,
    selected: tuple[str, ...] | None,
    deadline: float | None = None,
    caches: Caches | None = None,
    prepare: Callable[[Document], None] | None = None,
) -> _Base:
    """The corpus at git revision REF, read from git's objects (``gitbase.revision_files``),
    or, when a checkout could write other bytes than they hold (``gitbase.NeedsCheckout``),
    loaded in a temporary worktree; linted unless ``selected`` (the run's rule ids) is None:
    with the baseline entries of its findings, and the result they were made of (its findings
    in the entries' order, and its coverage). What the base's rules read beside its documents
    is the revision's (``Corpus.read_file``), never the head's disk.

    With ``caches`` (the run's), the base is parsed and linted as a plain run on the same files
    would be: its result is keyed by the files' contents (and the corpus root's path, not the
    worktree's: no rule reads where the corpus is), so the run that checked this revision before
    it was committed (the pre-commit hook, or ``speclint check``) answers for it. A resident
    checker keeps the base it judged last (``Resident.base``, under :func:`_base_key`): the next
    attempt at a commit against the same HEAD lists the revision (which also says whether git
    would check it out as its objects hold it) and reads, parses and keys none of its files."""
    parses = caches.documents if caches is not None else None
    try:
        try:
            revision = revision_files(root, ref, SKIPPED_FOLDERS)
        except NeedsCheckout:
            revision = None
        if revision is not None:
            try:
                tree, skipped = revision_listing(revision.names, revision.is_folder)
                # A checkout holds only tracked files, of which git ignores none.
                hidden: GitIgnored = (frozenset(), ())
                # The base has no folder: nothing may read one (``Corpus.read_file`` reads the
                # revision's objects), and no report names it.
                base_root = Path(os.sep, "nonexistent-base-revision", revision.commit)
                # A resident checker's base of the last run, when this one is the same.
                kept = caches.base if isinstance(caches, Resident) and selected else None
                memo = _base_key(root, config, selected, revision) if kept is not None else None
                if kept is not None and memo is not None and kept.key == memo:
                    return kept.recalled(parses)  # type: ignore[no-any-return]
                revision.fetch(discover(base_root, config, tree, hidden))
                files = snapshot(base_root, config, tree, _reading(revision), hidden)
                revision.forget()  # not held twice: ``files`` is let go once the key is made
                noting = kept.noting(parses) if kept is not None else _noting_nothing()
                with noting as noted:
                    base_corpus = Context.from_snapshot(
                        base_root, config, files, parses, tree, prepare, hidden, revision, skipped
                    )
            except NeedsCheckout:
                revision.close()  # a blob git cannot give (a damaged clone): checked out instead
            else:
                base = _judged_base(
                    root, config, files, tree, base_corpus, selected, deadline, caches
                )
                if kept is not None:
                    # Not a result with a rule stopped by its time box: tried again next time.
                    clean = not any(f.rule == INTERNAL_ERROR for f in _findings_of(base))
                    kept.keep(memo if clean else None, base, noted)
                return base
        with base_checkout(root, ref) as base_path:
            if not base_path.is_dir():
                raise EngineError(f"{root} does not exist at {ref}: nothing to compare with")
            tree = listing(base_path.resolve())
            hidden = ignored(base_path)
            files = snapshot(base_path, config, tree, git_ignored=hidden)
            base_corpus = Context.from_snapshot(
                base_path, config, files, parses, tree, prepare, hidden
            )
            # The rules run inside the worktree: they may read its files.
            return _judged_base(root, config, files, tree, base_corpus, selected, deadline, caches)
    except GitError as error:
        raise EngineError(str(error)) from None


def _base_key(
    root: Path, config: Config, selected: tuple[str, ...] | None, revision: RevisionFiles
) -> str | None:
    """The key of a base read from git's objects, which a resident checker keeps
    (``Resident.base``): what the run key holds (the code, the root, the rules, the date waivers
    are judged against, the configuration) with, for the files' bytes, git's listing of the
    revision (``RevisionFiles.listed``: each file's object id, with the settings that decide how
    a link is written). An object id names its bytes only while git replaces no object: None
    when it may (a replace ref), and the base is read again."""
    if selected is None or not revision.listed or not revision.replaces_nothing():
        return None
    shown = repr((run_key_head(root, config, selected), revision.listed))
    return hashlib.sha256(shown.encode("utf-8", "surrogateescape")).hexdigest()


@contextlib.contextmanager
def _noting_nothing() -> Iterator[set[str]]:
    yield set()


def _findings_of(base: _Base) -> list[Finding]:
    return base.result.findings if base.result is not None else []


def _reading(revision: RevisionFiles) -> Callable[[Path, str], bytes | LoadProblem]:
    """``snapshot``'s reader of a revision's files (the root is the revision's)."""
    return lambda _root, path: revision.read(path)


def _judged_base(
    root: Path,
    config: Config,
    files: dict[str, bytes | LoadProblem],
    tree: list[str],
    base_corpus: Context,
    selected: tuple[str, ...] | None,
    deadline: float | None,
    caches: Caches | None,
) -> _Base:
    """The base corpus with its findings (:func:`_lint_base`): from the run cache when a run on
    the same bytes answered before, else linted."""
    if selected is None:
        return _Base(base_corpus, [], None)
    # The files read beside the corpus are the base's (``Corpus.read_file``), as the run that
    # checked this revision read them from its disk: the keys agree.
    key = (
        run_key(root, config, files, selected, tree, base_corpus.read_file)
        if caches is not None
        else ""
    )
    del files
    record = caches.runs.get(key) if caches is not None else None
    known = _recorded_entries(record)
    if known is not None:
        return _Base(base_corpus, known, _from_record(record))
    base = _folded(
        run_rules(
            base_corpus,
            select_rules(base_corpus, selected),
            deadline=deadline,
            cache=caches.results if caches is not None else None,
        ),
        base_corpus,
    )
    entries = [entry_for(base_corpus, f) for f in base.findings]
    if caches is not None and not any(f.rule == INTERNAL_ERROR for f in base.findings):
        caches.runs.put(key, _record(base, entries))
    return _Base(base_corpus, entries, base)


def base_corpus(root: Path, ref: str, config: Config) -> Context:
    """The corpus at git revision REF, parsed but not linted (``speclint changes``)."""
    return _lint_base(root, ref, config, None).corpus


# --- the run cache's record of a result ---------------------------------------------------------


def _record(result: RunResult, entries: list[Entry] | None = None) -> dict[str, Any]:
    """The result as plain data for the run cache (rule descriptions without their code), with
    the baseline entries of its findings when the corpus was at hand to make them."""
    return {
        "entries": (
            None
            if entries is None
            else [
                [
                    e.id,
                    e.rule,
                    e.path,
                    e.where,
                    e.message,
                    e.key,
                    [[p.path, p.where, p.key, p.id] for p in e.members],
                ]
                for e in entries
            ]
        ),
        "findings": list(result.findings),
        "waived": list(result.waived),
        "rules": [
            [info.id, info.severity, info.doc, info.module, info.needs_base, info.reads]
            for info in result.rules.values()
        ],
        "inventory": [[e.path, e.kind, e.dialect, e.reason] for e in result.inventory],
        "coverage": [[n.kind, n.path, n.line, n.what] for n in result.coverage],
    }


def _recorded_entries(record: dict[str, Any] | None) -> list[Entry] | None:
    """The baseline entries a run record holds, or None (not a record, or made without them:
    one written before entries held their key and places is not used, the base is linted)."""
    if record is None or _from_record(record) is None:
        return None
    entries = record.get("entries")
    if not isinstance(entries, list) or not all(_recorded_entry(item) for item in entries):
        return None
    return [
        Entry(
            item[0],
            item[1],
            item[2],
            item[3],
            item[4],
            item[5],
            tuple(Place(*place) for place in item[6]),
        )
        for item in entries
    ]


def _recorded_entry(item: Any) -> bool:
    """Whether ``item`` is an entry as ``_record`` writes it: six strings and its places."""
    return (
        isinstance(item, list)
        and len(item) == 7
        and all(isinstance(v, str) for v in item[:6])
        and isinstance(item[6], list)
        and all(
            isinstance(place, list) and len(place) == 4 and all(isinstance(v, str) for v in place)
            for place in item[6]
        )
    )


def _from_record(record: dict[str, Any] | None) -> RunResult | None:
    """The result a record holds, or None when it is not one (checked item by item)."""
    if record is None:
        return None
    findings, waived, rules = record.get("findings"), record.get("waived"), record.get("rules")
    if not (isinstance(findings, list) and isinstance(waived, list) and isinstance(rules, list)):
        return None
    if not all(isinstance(f, Finding) for f in findings):
        return None
    if not all(isinstance(w, Waived) for w in waived):
        return None
    described: dict[str, RuleInfo] = {}
    for item in rules:
        if not (isinstance(item, list) and len(item) == 6):
            return None
        rule_id, severity, doc, module, needs_base, reads = item
        if not (isinstance(severity, Severity) and isinstance(rule_id, str)):
            return None
        described[rule_id] = RuleInfo(
            rule_id, severity, str(doc), str(module), not_run, bool(needs_base), str(reads)
        )
    inventory = record.get("inventory")
    if not isinstance(inventory, list) or not all(
        isinstance(item, list) and len(item) == 4 and all(isinstance(v, str) for v in item)
        for item in inventory
    ):
        return None
    coverage = record.get("coverage")
    if not isinstance(coverage, list) or not all(
        isinstance(item, list)
        and len(item) == 4
        and isinstance(item[2], int)
        and all(isinstance(item[i], str) for i in (0, 1, 3))
        for item in coverage
    ):
        return None
    return RunResult(
        findings,
        described,
        waived,
        tuple(FileEntry(*item) for item in inventory),
        tuple(Note(*item) for item in coverage),
    )


def lint_corpus(corpus: Context, options: Options | None = None) -> RunResult:
    """Lint a corpus built in memory (an Agent Feedback Protocol inline artifact) under the same
    time box and time limit as :func:`lint`; nothing is cached."""
    options = options or Options()
    started = time.monotonic()
    try:
        with reporting(options.progress), time_limit(options.time_limit):
            rules = select_rules(corpus, _chosen(corpus.config, options))
            result = _folded(
                run_rules(
                    corpus,
                    rules,
                    debug=options.debug,
                    deadline=_deadline(started, options.time_limit),
                ),
                corpus,
            )
            kept, _ = held_back(result.findings, preview_mode(corpus.config, options))
            return replace(result, findings=kept)
    except TimeLimitReached:
        raise EngineError(
            f"the run did not finish within its time limit of {options.time_limit:g} s"
        ) from None
