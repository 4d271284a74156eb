"""Run the rules over a corpus, each in isolation.

A rule that raises does not stop the run: its exception becomes one ``internal-error`` finding that
names the rule, and the other rules' findings are still reported (a linter that gates pull requests
must not turn its own bug into a missing report). Severities come from the configuration; a rule set
to ``off`` does not run.

Where the platform can ``fork`` (Linux, macOS), each rule runs in a child process forked after the
corpus and its shared indexes are built, so rules run in parallel (``jobs``, default the number of
CPUs, at most 8) and each has a time box: a rule still running after ``time_box`` seconds is
killed and reported as an ``internal-error`` finding, and the rest of the report stands. That is
the guarantee against inputs nobody foresaw (a pathological pattern, a rule bug that loops).
``jobs=1`` with no time box runs everything in this process (``--debug`` does, for tracebacks).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.grpc.protos import corpus_protos
from speclint.analyses.prose.enumerations import prose_sets
from speclint.analyses.prose.rfcs import is_rfc
from speclint.analyses.schemas.references import ReferenceIndex, indexed
from speclint.analyses.schemas.validation import install_safe_patterns
from speclint.analyses.units import CACHED_WHOLE, UNIT_KINDS, concatenated
from speclint.common.collector import before_fork, frozen_heap, release_free_memory
from speclint.common.findings import Finding, Location, Severity, sorted_findings
from speclint.common.lifecycle import child_started, start_child
from speclint.common.parallel import default_jobs
from speclint.common.progress import current, reporting
from speclint.common.stack import deeply
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.run.cache import RuleCache, keep_hypothesis_private
from speclint.run.catalog import RuleInfo, all_rules
from speclint.run.coverage import Note, of_corpus, sorted_notes, split
from speclint.run.inventory import Entry, entries, written_by_hand
from speclint.run.waivers import WAIVER_DOC, WAIVER_RULE, Waived
from speclint.run.waivers import apply as apply_waivers

INTERNAL_ERROR = "internal-error"
INTERNAL_ERROR_DOC = """A rule crashed: speclint's own bug, reported instead of hiding the rule's results.

The message names the rule and the exception; the other rules still ran. Run with ``--debug`` to
see the traceback, and report it with the corpus file that triggered it.
"""


@dataclass(frozen=True)
class RunResult:
    findings: list[Finding]
    rules: dict[str, RuleInfo]  # the rules that ran
    waived: list[Waived] = field(default_factory=list)  # accepted in writing, reported apart
    inventory: tuple[Entry, ...] = ()  # every file the run read, with what it was (issue 14)
    # What it did not check (speclint.run.coverage): never a finding, never failing a run.
    coverage: tuple[Note, ...] = ()


def prime(
    corpus: Context,
    protos: bool = False,
    schemas: bool = False,
    instances: bool = False,
    prose: bool = False,
) -> None:
    """Build what several rules share before they run in forked processes (each would
    otherwise build it again): the reference index, the roles, when ``prose``, the prose value
    sets (here, not in a worker, also for one rule: the parse cache keeps what is made here,
    ``ParseCache.save_memos``), when ``protos``, the corpus's protos compiled (protoc runs once, not once per rule), when
    ``schemas``, the schema index (``speclint.analyses.schemas.declarations``), and when ``instances``,
    the schema of each instance (``speclint.analyses.schemas.instance_schemas``). The run does this, not
    the corpus model, which knows nothing of the analyses (issue 27)."""
    builds: list[Callable[[], object]] = [lambda: corpus.references, lambda: corpus.roles]
    if schemas:
        builds.append(lambda: corpus.schemas)
    if instances:
        builds.append(lambda: corpus.instances)
    # Each page's sets on their own: a page that fails leaves the others built.
    if prose:
        builds.extend(partial(prose_sets, d) for d in corpus.of_kind(DocumentKind.MARKDOWN))
    if protos:
        builds.append(lambda: corpus_protos(corpus))
    for build in builds:
        # A build that fails is a defect of speclint's own meeting an input it did not foresee:
        # the run goes on. Nothing of it is kept (``Context._made``, the documents' memos), so
        # each rule that reads it builds it again under its own guard: one internal-error
        # finding per rule, and the rest of the corpus checked. Exception, not BaseException:
        # an interrupt still ends the run.
        with contextlib.suppress(Exception):
            build()


def internal_error_info() -> RuleInfo:
    return RuleInfo(INTERNAL_ERROR, Severity.ERROR, INTERNAL_ERROR_DOC, __name__, lambda c, o: ())


def select_rules(corpus: Context, only: Iterable[str] | None = None) -> dict[str, RuleInfo]:
    """The rules ``only`` names (the run's choice, ``speclint.run.selection``: a rule the
    configuration turns off runs when the command line selects it), else every rule the
    configuration does not turn off. A ``KeyError`` for an id that is no rule."""
    catalog = all_rules()
    if only is None:
        return {
            rule_id: info
            for rule_id, info in catalog.items()
            if corpus.config.rule_severity.get(rule_id, info.severity) is not None
        }
    wanted = set(only)
    unknown = wanted - set(catalog)
    if unknown:
        raise KeyError(", ".join(sorted(unknown)))
    return {rule_id: info for rule_id, info in catalog.items() if rule_id in wanted}


DEFAULT_TIME_BOX = 120.0  # seconds per rule


def _crashed(rule_id: str, what: str, partial: int = 0, path: str | None = None) -> Finding:
    kept = (
        f"the {partial} finding(s) it reported before are kept, the rest of its results are missing"
        if partial
        else "its results are missing"
    )
    where = f" while reading {path}" if path else ""
    return Finding(
        INTERNAL_ERROR,
        Severity.ERROR,
        f"rule `{rule_id}` {what}{where}; {kept}. Run with --debug for the traceback and report "
        "it with the file that triggered it.",
        Location(path or ".", 1, 1),
        key=rule_id,
    )


def _culprit(error: BaseException) -> str | None:
    """The corpus file a rule was reading when it crashed: the innermost frame of its traceback
    holding a corpus ``Document`` (rules walk documents; one bad file is the usual cause), so an
    internal error names the file as well as the rule (issue 14, item 8)."""

    found: str | None = None
    trace = error.__traceback__
    while trace is not None:
        for value in trace.tb_frame.f_locals.values():
            if isinstance(value, Document):
                found = value.path
                break
            site_document = getattr(value, "document", None)
            if isinstance(site_document, Document):
                found = site_document.path
                break
        trace = trace.tb_next
    return found


@dataclass
class _Units:
    """A unit rule's results (``speclint.analyses.units``): those the rule cache holds, by unit
    path, and those this run checks."""

    keys: dict[str, str]
    cached: dict[str, list[Any]]
    fresh: dict[str, list[Any]] = field(default_factory=dict)


def checked(
    corpus: Context,
    options: Mapping[str, Any],
    info: RuleInfo,
    cached: Mapping[str, list[Any]],
    fresh: dict[str, list[Any]],
) -> Iterator[Finding]:
    """The rule's findings: each unit's result from ``cached`` when it is there, else checked now
    (and put in ``fresh``), then combined."""
    assert info.check_unit is not None and info.units is not None
    results: dict[str, list[Any]] = {}
    for document in info.units(corpus):
        found = cached.get(document.path)
        if found is None:
            found = fresh[document.path] = list(info.check_unit(corpus, document, options))
        results[document.path] = found
    yield from (info.combine or concatenated)(corpus, results, options)


def _produce(
    corpus: Context, rule_id: str, info: RuleInfo, debug: bool, units: _Units | None = None
) -> Iterator[Finding]:
    """One rule's findings as it finds them, with the configured severity; a crash ends them
    with one ``internal-error`` finding."""
    # A configured severity replaces the rule's own; otherwise a rule may grade its findings
    # (a weak prose binding is `info` while a confident one is `error`).
    configured = corpus.config.rule_severity.get(rule_id)
    options = corpus.config.rule_options.get(rule_id, {})
    count = 0
    try:
        # The rule sees only the derived facts its module declares (``FACTS``).
        view = corpus.reading(info.facts)
        found = (
            info.check(view, options)
            if units is None
            else checked(view, options, info, units.cached, units.fresh)
        )
        for finding in found:
            count += 1
            yield finding.with_severity(configured) if configured else finding
    except Exception as error:  # isolation is the point: one rule's bug is one finding
        if debug:
            traceback.print_exc()
        yield _crashed(
            rule_id, f"crashed ({type(error).__name__}: {error})", count, _culprit(error)
        )


def _check(
    corpus: Context, rule_id: str, info: RuleInfo, debug: bool, units: _Units | None = None
) -> list[Finding]:
    # In this process (--debug, or no fork): on a deep stack too, as in the forked children.
    return deeply(lambda: list(_produce(corpus, rule_id, info, debug, units)))


# A child sends what it found in batches, so a rule stopped at its time box (or the run's time
# limit) still reports the findings it had: a rule degrades by what it did not reach, not whole.
BATCH_SECONDS = 0.5
DONE = "done"  # sent as (DONE, the rule's seconds in its worker)
UNITS = "units"  # a unit rule's fresh results follow, for the rule cache
REFERENCES = "(references)"  # the rule cache's entry of the reference index (not a rule id)


@dataclass
class _Running:
    rule_id: str
    worker: _Worker
    stop: float  # time.monotonic() at which it is stopped
    found: list[Finding] = field(default_factory=list)
    fresh: dict[str, list[Any]] = field(default_factory=dict)


@dataclass
class _Worker:
    process: Any
    connection: Any  # the parent's end of a duplex pipe
    unprimed: bool = False  # forked before the shared indexes: runs only rules that need none


GROWTH_FLOOR = 64 * 1024 * 1024  # bytes a worker may grow past the parent before it retires


def _resident(pid: int) -> int:
    """Bytes of process ``pid`` in memory (Linux ``/proc``); 0 where that cannot be read."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _grown(worker: _Worker, ceiling: int) -> bool:
    return ceiling > 0 and _resident(worker.process.pid) > ceiling


def _forked(
    corpus: Context,
    selected: Mapping[str, RuleInfo],
    jobs: int,
    time_box: float,
    durations: dict[str, float] | None = None,
    deadline: float | None = None,
    units: Mapping[str, _Units] | None = None,
) -> dict[str, list[Finding]] | None:
    """The rules in ``jobs`` forked worker processes, each running one rule after another (the
    indexes a rule builds serve the next ones in that worker, and a process is started per
    worker, not per rule); a rule still running after ``time_box`` seconds, or at the run's
    ``deadline`` (``time.monotonic()``), is stopped with its worker, and a new worker takes the
    rules left. None where fork is unavailable."""
    # Deferred: multiprocessing is imported only when rules run (a cached run never forks).
    import multiprocessing
    from multiprocessing.connection import wait

    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        return None

    sink = current()
    # One rule alone may draw its own bar (the satisfiability decider's); several workers would
    # draw over each other, so then the parent draws one bar of rules done instead.
    child_sink = sink if len(selected) == 1 else None
    parent = os.getpid()

    def work(connection: Any) -> None:
        child_started(parent)  # dies with the parent; Ctrl-C is the parent's to handle
        while True:
            try:
                rule_id = connection.recv()
            except (EOFError, OSError):
                break
            if rule_id is None:
                break
            # On a deep stack: a validator recursing through a valid, deeply nested document
            # must not turn Python's recursion limit into a verdict (issue 13, item 9).
            deeply(partial(serve, rule_id, selected[rule_id], connection))
        connection.close()

    def serve(rule_id: str, info: RuleInfo, out: Any) -> None:
        with reporting(child_sink):
            batch: list[Finding] = []
            sent = started = time.monotonic()
            try:
                own = (units or {}).get(rule_id)
                for finding in _produce(corpus, rule_id, info, False, own):
                    batch.append(finding)
                    if time.monotonic() - sent >= BATCH_SECONDS:
                        out.send(batch)
                        batch, sent = [], time.monotonic()
                out.send(batch)
                if own is not None:
                    out.send((UNITS, own.fresh))
                out.send((DONE, time.monotonic() - started))
            except Exception as error:  # results that cannot be sent back
                out.send([_crashed(rule_id, f"crashed ({type(error).__name__}: {error})")])
                out.send((DONE, time.monotonic() - started))

    everyone: list[_Worker] = []  # every worker started: none outlives this function

    def start_worker() -> _Worker:
        mine, theirs = context.Pipe(duplex=True)
        # Not a daemon: a rule may fork its own worker (the satisfiability decider does).
        process = context.Process(target=work, args=(theirs,), daemon=False)
        worker = _Worker(process, mine)
        # Recorded before it starts: a signal held across the fork is raised as it returns.
        everyone.append(worker)
        try:
            # What the C allocator holds free is not counted again in the worker (collector).
            release_free_memory()
            before_fork()  # the worker's collector leaves what it inherits alone (collector)
            start_child(process)
        finally:
            theirs.close()
        return worker

    def stop_worker(worker: _Worker, kill: bool) -> None:
        if kill:
            worker.process.kill()
        else:
            with contextlib.suppress(OSError):
                worker.connection.send(None)
        worker.process.join()
        worker.connection.close()

    results: dict[str, list[Finding]] = {}
    # Longest first (by the last run's durations, when known): the slowest rule must not start
    # last while the other workers sit idle.
    last = durations or {}
    pending = sorted(selected.items(), key=lambda item: -last.get(item[0], 0.0))
    idle: list[_Worker] = []
    running: dict[Any, _Running] = {}  # connection -> the rule its worker runs
    total = len(pending)
    drawing = sink is not None and child_sink is None and total > 1
    workers = min(jobs, total)
    # A worker keeps what the rules it ran built; one grown well past this process is replaced
    # by a fresh fork, so no process holds every rule's indexes (a ×10 corpus: 494 -> 400 MB).
    own = _resident(os.getpid())
    ceiling = own + max(GROWTH_FLOOR, own // 4) if own else 0

    def assign(worker: _Worker, rule_id: str) -> bool:
        now = time.monotonic()
        stop = now + time_box if deadline is None else min(now + time_box, deadline)
        try:
            worker.connection.send(rule_id)
        except OSError:  # the worker is gone: the rule goes to a new one
            stop_worker(worker, kill=True)
            pending.insert(0, (rule_id, selected[rule_id]))
            return False
        running[worker.connection] = _Running(rule_id, worker, stop)
        return True

    def unprimed_rule() -> str | None:
        found = next(((r, i) for r, i in pending if not i.needs_indexes), None)
        if found is None:
            return None
        pending.remove(found)
        return found[0]

    with frozen_heap():  # each worker is forked just after before_fork()
        try:
            # A rule that reads none of the shared indexes (openapi-invalid: the API document and
            # the files it references) starts at once, in a worker forked before they are built,
            # while this process builds them for the others.
            first = unprimed_rule() if workers > 1 else None
            if first is not None:
                early = start_worker()
                early.unprimed = True
                assign(early, first)
            # Built once here and inherited by every other worker (copy-on-write).
            prime(
                corpus,
                protos=sum(info.reads_protos for _, info in pending) > 1,
                schemas=sum("schemas" in info.facts for _, info in pending) > 1,
                instances=sum("instances" in info.facts for _, info in pending) > 1,
                prose=any(info.reads_prose_sets for _, info in pending),
            )
            # What the early worker sent meanwhile waited unread (protoc on a large corpus, a
            # loaded machine: past the time box): its time box counts from when it can be read,
            # not as the rule's own slowness.
            ready_at = time.monotonic() + time_box
            for entry in running.values():
                entry.stop = max(
                    entry.stop, ready_at if deadline is None else min(ready_at, deadline)
                )
            while pending or running:
                if deadline is not None and time.monotonic() >= deadline:
                    for rule_id, _ in pending:
                        results[rule_id] = [
                            _crashed(rule_id, "did not start before the run reached its time limit")
                        ]
                    pending.clear()
                    if not running:
                        break
                while pending and (idle or len(running) < workers):
                    worker = idle.pop() if idle else start_worker()
                    rule_id, _ = pending.pop(0)
                    assign(worker, rule_id)
                if drawing and sink is not None:
                    sink("rules", len(results), total)
                if not running:
                    continue
                nearest = min(entry.stop for entry in running.values())
                for ready in wait(list(running), timeout=max(0.0, nearest - time.monotonic())):
                    entry = running[ready]
                    message: Any
                    try:
                        message = entry.worker.connection.recv()
                    except (EOFError, OSError):
                        entry.worker.process.join()
                        code = entry.worker.process.exitcode
                        entry.found.append(
                            _crashed(
                                entry.rule_id,
                                f"died (its process exited with {code})",
                                len(entry.found),
                            )
                        )
                        del running[ready]
                        results[entry.rule_id] = entry.found
                        stop_worker(entry.worker, kill=True)
                        continue
                    if isinstance(message, tuple) and message[:1] == (UNITS,):
                        entry.fresh = message[1]
                        continue
                    if not (isinstance(message, tuple) and message[:1] == (DONE,)):
                        entry.found.extend(message)
                        continue
                    del running[ready]
                    results[entry.rule_id] = entry.found
                    if units is not None and entry.rule_id in units:
                        units[entry.rule_id].fresh.update(entry.fresh)
                    if durations is not None:
                        # As the worker timed it: this process may read the answer late (it builds
                        # the shared indexes while the first worker runs), and the order of the
                        # next run's rules follows these durations.
                        durations[entry.rule_id] = round(message[1], 3)
                    if entry.worker.unprimed:
                        following = unprimed_rule()
                        if following is None:
                            stop_worker(entry.worker, kill=False)
                        else:
                            assign(entry.worker, following)
                    elif pending and not _grown(entry.worker, ceiling):
                        idle.append(entry.worker)
                    else:
                        stop_worker(entry.worker, kill=False)
                now = time.monotonic()
                for connection, entry in list(running.items()):
                    if now < entry.stop:
                        continue
                    # What it sent before it was stopped is kept.
                    with contextlib.suppress(EOFError, OSError):
                        while connection.poll():
                            message = connection.recv()
                            if isinstance(message, list):
                                entry.found.extend(message)
                    stop_worker(entry.worker, kill=True)
                    del running[connection]
                    if deadline is not None and entry.stop >= deadline:
                        what = (
                            "was still running when the run reached its time limit, and was stopped"
                        )
                    else:
                        what = (
                            f"ran longer than its time box of {time_box:g} s and was stopped "
                            "(a pathological input, or a bug)"
                        )
                    results[entry.rule_id] = [
                        *entry.found,
                        _crashed(entry.rule_id, what, len(entry.found)),
                    ]
        finally:
            for worker in idle:
                stop_worker(worker, kill=False)
            # Interrupted (a signal, the run's time limit), even between starting a worker and
            # giving it a rule: no worker outlives the run (one waiting for a rule would wait for
            # ever, and the interpreter waits for it at exit).
            for worker in everyone:
                if worker.process.pid is not None and worker.process.exitcode is None:
                    worker.process.kill()
                    worker.process.join()
                with contextlib.suppress(OSError):
                    worker.connection.close()
    if drawing and sink is not None:
        sink("rules", len(results), total)
    return results


# Where each rule's wall time of this run goes, as JSON ({rule: seconds}), when the user asks
# (the ecosystem check reads it): an environment variable, not a report field, because reports
# are byte-identical run to run and times are not. A forked rule is timed in its worker: from the
# rule's start to its last finding, with what it builds there (an index no earlier rule of that
# worker built), not the time this process took to read its answer.
RULE_TIMES_ENV = "SPECLINT_RULE_TIMES"


def _report_durations(durations: Mapping[str, float]) -> None:
    target = os.environ.get(RULE_TIMES_ENV)
    if target:
        with contextlib.suppress(OSError), open(target, "w", encoding="utf-8") as out:
            json.dump(dict(sorted(durations.items())), out, indent=1)
            out.write("\n")


def run_rules(
    corpus: Context,
    rules: Mapping[str, RuleInfo] | None = None,
    debug: bool = False,
    jobs: int | None = None,
    time_box: float | None = DEFAULT_TIME_BOX,
    cache: RuleCache | None = None,
    deadline: float | None = None,
    waivers: bool = True,
) -> RunResult:
    """Every selected rule's findings, waivers applied (unless ``waivers`` is false: the rules'
    own findings). ``deadline`` (``time.monotonic()``) stops the rules still running when the
    run's time limit comes (each is an ``internal-error``)."""

    install_safe_patterns()  # every `pattern` a rule evaluates is time-limited
    # The files' bytes, let go after the parse, left their memory free but resident in the C
    # heap, where the indexes built next (Python's small objects have arenas of their own) do
    # not reuse it: handed back, it is not counted in this process's peak (collector).
    release_free_memory()
    keep_hypothesis_private()  # never `.hypothesis` in the working directory (the repository)
    selected = dict(rules) if rules is not None else select_rules(corpus)
    # What a rule leaves to another it reports itself when that one does not run (Context.runs).
    corpus.running = frozenset(selected)
    jobs = default_jobs() if jobs is None else max(1, jobs)
    # The reference index is a function of the JSON/YAML documents: kept with the rules' results.
    references_key = (
        cache.key(corpus, REFERENCES, contents=indexed(corpus)) if cache is not None else None
    )
    if cache is not None and references_key is not None:
        restored = ReferenceIndex.from_record(corpus, cache.get(references_key))
        if restored is not None:
            corpus.adopt_references(restored)
    # Rules that read only JSON/YAML documents keep their findings while only prose changes.
    cached: dict[str, list[Finding]] = {}
    keys: dict[str, str] = {}
    # Rules checked one unit at a time (speclint.analyses.units) re-check only the units an edit
    # touched.
    units: dict[str, _Units] = {}
    if cache is not None:
        for rule_id, info in selected.items():
            if info.reads in UNIT_KINDS:
                unit_keys = cache.unit_keys(corpus, rule_id, info)
                if unit_keys is not None:
                    hits = {path: cache.get(key) for path, key in unit_keys.items()}
                    units[rule_id] = _Units(
                        unit_keys, {path: hit for path, hit in hits.items() if hit is not None}
                    )
                continue
            key = cache.key(corpus, rule_id, info) if info.reads in CACHED_WHOLE else None
            if key is not None:
                keys[rule_id] = key
                hit = cache.get(key)
                if hit is not None:
                    cached[rule_id] = hit
    # A unit rule whose every unit is cached only combines them: in this process, no fork.
    combined = {
        rule_id: _check(corpus, rule_id, selected[rule_id], debug, own)
        for rule_id, own in units.items()
        if len(own.cached) == len(own.keys)
    }
    to_run = {
        rule_id: info
        for rule_id, info in selected.items()
        if rule_id not in cached and rule_id not in combined
    }
    by_rule: dict[str, list[Finding]] | None = None
    # Forked even for one rule when there is a time box: the guarantee holds for `--rule X` too.
    if not debug and (jobs > 1 or time_box is not None) and to_run:
        _read_models(corpus, to_run, units)
        durations = cache.durations() if cache is not None else {}
        by_rule = _forked(
            corpus, to_run, jobs, time_box or DEFAULT_TIME_BOX, durations, deadline, units
        )
        if cache is not None and durations is not None:
            cache.record_durations(durations)
        if by_rule is not None:
            _report_durations({r: d for r, d in durations.items() if r in to_run})
    if by_rule is None:
        by_rule, durations = {}, {}
        for rule_id, info in to_run.items():
            started = time.monotonic()
            by_rule[rule_id] = _check(corpus, rule_id, info, debug, units.get(rule_id))
            durations[rule_id] = round(time.monotonic() - started, 3)
        _report_durations(durations)
    if cache is not None:
        for rule_id, produced in by_rule.items():
            if any(f.rule == INTERNAL_ERROR for f in produced):
                continue  # a rule stopped or crashed: nothing of this run is kept for it
            if rule_id in keys:
                cache.put(keys[rule_id], produced)
            own = units.get(rule_id)
            if own is not None:
                for path, result in own.fresh.items():
                    if path in own.keys:
                        cache.put(own.keys[path], result)
        if references_key is not None and "references" in corpus.facts:
            cache.put(references_key, corpus.references.record())
        cache.save()
    by_rule.update(cached)
    by_rule.update(combined)
    findings: list[Finding] = []
    for rule_id in selected:  # the catalog's order, whatever order the children finished in
        findings.extend(by_rule.get(rule_id, []))
    # A note that something was not checked is coverage, not a finding (issue 45).
    findings, notes = split(findings)
    findings = written_by_hand(corpus, findings)  # not generated content (issue 26)
    if waivers:
        # A run of fewer rules than the configuration enables judges only its rules' waivers.
        narrowed = not set(selected) >= set(select_rules(corpus))
        kept, waived, problems = apply_waivers(
            corpus, dedupe(findings), list(selected) if narrowed else None
        )
        kept += problems
    else:
        kept, waived, problems = dedupe(findings), [], []
    ran = dict(selected)
    if any(f.rule == INTERNAL_ERROR for f in kept):
        ran[INTERNAL_ERROR] = internal_error_info()
    if problems:
        ran[WAIVER_RULE] = RuleInfo(
            WAIVER_RULE, Severity.WARNING, WAIVER_DOC, "speclint.run.waivers", lambda c, o: ()
        )
    waived.sort(key=lambda w: w.finding.sort_key())
    coverage = sorted_notes([*notes, *of_corpus(corpus)])
    return RunResult(sorted_findings(kept), ran, waived, entries(corpus), coverage)


def _read_models(
    corpus: Context, to_run: Mapping[str, RuleInfo], units: Mapping[str, _Units]
) -> None:
    """Decode, here, the prose models (kept packed in the parse cache, ``Document.prose``) that
    several workers would otherwise each decode: those of the pages two or more page rules
    re-check, and the RFCs' when a rule that reads them runs (``READS_RFCS``: the RFC rules, in
    two workers; a one-page edit of the MCP repository, whose 83 SEPs no rule that ran read,
    spent 0.3 s decoding them whenever a rule that reads the corpus whole ran). A page one rule
    alone re-checks is decoded in that rule's worker, while the other workers run: a schema edit
    makes example-invalid re-check every page (the others keep theirs), and decoding the 73
    pages of OpenWOP here held every rule back 0.2 s. A rule that reads prose only through its
    extract (``READS = "extract"``) decodes nothing: the extracts are kept with the pages
    (``speclint.analyses.units.kept_with_page``). A page edit is re-checked by every page rule:
    that page is decoded here. (A resident checker decodes the models it read packed from the
    cache folder once, as it warms and after each answer, ``Resident.settle``: nothing is
    decoded here.)"""
    pages = list(corpus.of_kind(DocumentKind.MARKDOWN))
    readers = Counter(
        path
        for rule_id, info in to_run.items()
        if info.reads == "page" and rule_id in units
        for path in units[rule_id].keys
        if path not in units[rule_id].cached
    )
    wanted = {path for path, count in readers.items() if count > 1}
    if any(info.reads_rfcs for info in to_run.values()):
        wanted |= {page.path for page in pages if is_rfc(page)}
    for page in pages:
        if page.path in wanted:
            page.prose  # noqa: B018


def dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, str, int, int]] = set()
    unique = []
    for finding in findings:
        identity = (
            finding.fingerprint,
            finding.location.path,
            finding.location.line,
            finding.location.column,
        )
        if identity not in seen:
            seen.add(identity)
            unique.append(finding)
    return unique


def not_run(corpus: Context, options: Mapping[str, Any]) -> Iterable[Finding]:
    """The ``check`` of a rule description restored from the run cache: it does not run."""
    raise RuntimeError("a cached rule description cannot run")
