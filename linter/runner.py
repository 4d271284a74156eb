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

import os
import time
import traceback
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cache import RuleCache
from .catalog import RuleInfo, all_rules
from .corpus import Corpus
from .findings import Finding, Location, Severity, sorted_findings
from .waivers import WAIVER_DOC, WAIVER_RULE, Waived
from .waivers import apply as apply_waivers

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


def internal_error_info() -> RuleInfo:
    return RuleInfo(INTERNAL_ERROR, Severity.ERROR, INTERNAL_ERROR_DOC, __name__, lambda c, o: ())


def select_rules(corpus: Corpus, only: Iterable[str] | None = None) -> dict[str, RuleInfo]:
    catalog = all_rules()
    wanted = set(only) if only else set(catalog)
    unknown = wanted - set(catalog)
    if unknown:
        raise KeyError(", ".join(sorted(unknown)))
    return {
        rule_id: info
        for rule_id, info in catalog.items()
        if rule_id in wanted and corpus.config.rule_severity.get(rule_id, info.severity) is not None
    }


DEFAULT_TIME_BOX = 120.0  # seconds per rule


def default_jobs() -> int:
    configured = os.environ.get("SPECLINT_JOBS", "")
    if configured.isdigit() and int(configured) > 0:
        return int(configured)
    return max(1, min(8, os.cpu_count() or 1))


def _crashed(rule_id: str, what: str) -> Finding:
    return Finding(
        INTERNAL_ERROR,
        Severity.ERROR,
        f"rule `{rule_id}` {what}; its results are missing. Run with --debug for the traceback "
        "and report it with the file that triggered it.",
        Location(".", 1, 1),
        key=rule_id,
    )


def _check(corpus: Corpus, rule_id: str, info: RuleInfo, debug: bool) -> list[Finding]:
    """One rule's findings, with the configured severity; a crash is one finding."""
    # A configured severity replaces the rule's own; otherwise a rule may grade its findings
    # (a weak prose binding is `info` while a confident one is `error`).
    configured = corpus.config.rule_severity.get(rule_id)
    options = corpus.config.rule_options.get(rule_id, {})
    try:
        produced = list(info.check(corpus, options))
    except Exception as error:  # isolation is the point: one rule's bug is one finding
        if debug:
            traceback.print_exc()
        return [_crashed(rule_id, f"crashed ({type(error).__name__}: {error})")]
    return [f.with_severity(configured) if configured else f for f in produced]


def _forked(
    corpus: Corpus,
    selected: Mapping[str, RuleInfo],
    jobs: int,
    time_box: float,
    durations: dict[str, float] | None = None,
) -> dict[str, list[Finding]] | None:
    """Each rule in a forked child, ``jobs`` at a time, killed after ``time_box`` seconds.
    None where fork is unavailable."""
    import multiprocessing
    from multiprocessing.connection import Connection, wait

    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        return None
    # Built once here and inherited by every child (copy-on-write), not once per rule.
    corpus.prime()

    from .progress import current, reporting

    sink = current()
    # One rule alone may draw its own bar (the satisfiability decider's); several children would
    # draw over each other, so then the parent draws one bar of rules done instead.
    child_sink = sink if len(selected) == 1 else None

    def child(rule_id: str, info: RuleInfo, out: Connection) -> None:
        with reporting(child_sink):
            try:
                out.send(_check(corpus, rule_id, info, False))
            except Exception as error:  # results that cannot be sent back
                out.send([_crashed(rule_id, f"crashed ({type(error).__name__}: {error})")])
        out.close()

    results: dict[str, list[Finding]] = {}
    # Longest first (by the last run's durations, when known): the slowest rule must not start
    # last while the other workers sit idle.
    last = durations or {}
    pending = sorted(selected.items(), key=lambda item: -last.get(item[0], 0.0))
    started: dict[str, float] = {}
    running: dict[Connection, tuple[str, Any, float]] = {}
    while pending or running:
        while pending and len(running) < jobs:
            rule_id, info = pending.pop(0)
            receive, send = context.Pipe(duplex=False)
            # Not a daemon: a rule may fork its own worker (the satisfiability decider does).
            process = context.Process(target=child, args=(rule_id, info, send), daemon=False)
            process.start()
            send.close()
            started[rule_id] = time.monotonic()
            running[receive] = (rule_id, process, started[rule_id] + time_box)
        nearest = min(deadline for _, _, deadline in running.values())
        if sink is not None and child_sink is None:
            sink("rules", len(results), len(selected))
        for ready in wait(list(running), timeout=max(0.0, nearest - time.monotonic())):
            assert isinstance(ready, Connection)
            rule_id, process, _ = running.pop(ready)
            try:
                results[rule_id] = ready.recv()
                if durations is not None:
                    durations[rule_id] = round(time.monotonic() - started[rule_id], 3)
            except (EOFError, OSError):
                process.join()
                results[rule_id] = [
                    _crashed(rule_id, f"died (its process exited with {process.exitcode})")
                ]
            ready.close()
            process.join()
        now = time.monotonic()
        for receive, (rule_id, process, deadline) in list(running.items()):
            if now >= deadline:
                process.kill()
                process.join()
                receive.close()
                del running[receive]
                results[rule_id] = [
                    _crashed(
                        rule_id,
                        f"ran longer than its time box of {time_box:g} s and was stopped "
                        "(a pathological input, or a bug)",
                    )
                ]
    if sink is not None and child_sink is None:
        sink("rules", len(results), len(selected))
    return results


def run_rules(
    corpus: Corpus,
    rules: Mapping[str, RuleInfo] | None = None,
    debug: bool = False,
    jobs: int | None = None,
    time_box: float | None = DEFAULT_TIME_BOX,
    cache: RuleCache | None = None,
) -> RunResult:
    from .validation import install_safe_patterns

    install_safe_patterns()  # every `pattern` a rule evaluates is time-limited
    selected = dict(rules) if rules is not None else select_rules(corpus)
    jobs = default_jobs() if jobs is None else max(1, jobs)
    # Rules that read only JSON/YAML documents keep their findings while only prose changes.
    cached: dict[str, list[Finding]] = {}
    keys: dict[str, str] = {}
    if cache is not None:
        for rule_id, info in selected.items():
            key = cache.key(corpus, rule_id) if info.reads == "structured" else None
            if key is not None:
                keys[rule_id] = key
                hit = cache.get(key)
                if hit is not None:
                    cached[rule_id] = hit
    to_run = {rule_id: info for rule_id, info in selected.items() if rule_id not in cached}
    by_rule: dict[str, list[Finding]] | None = None
    # Forked even for one rule when there is a time box: the guarantee holds for `--rule X` too.
    if not debug and (jobs > 1 or time_box is not None) and to_run:
        durations = cache.durations() if cache is not None else None
        by_rule = _forked(corpus, to_run, jobs, time_box or DEFAULT_TIME_BOX, durations)
        if cache is not None and durations is not None:
            cache.record_durations(durations)
    if by_rule is None:
        by_rule = {
            rule_id: _check(corpus, rule_id, info, debug) for rule_id, info in to_run.items()
        }
    if cache is not None:
        for rule_id, produced in by_rule.items():
            if rule_id in keys and not any(f.rule == INTERNAL_ERROR for f in produced):
                cache.put(keys[rule_id], produced)
        cache.save()
    by_rule.update(cached)
    findings: list[Finding] = []
    for rule_id in selected:  # the catalog's order, whatever order the children finished in
        findings.extend(by_rule.get(rule_id, []))
    kept, waived, problems = apply_waivers(corpus, dedupe(findings))
    kept += problems
    ran = dict(selected)
    if any(f.rule == INTERNAL_ERROR for f in kept):
        ran[INTERNAL_ERROR] = internal_error_info()
    if problems:
        ran[WAIVER_RULE] = RuleInfo(
            WAIVER_RULE, Severity.WARNING, WAIVER_DOC, "speclint.waivers", lambda c, o: ()
        )
    waived.sort(key=lambda w: w.finding.sort_key())
    return RunResult(sorted_findings(kept), ran, waived)


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


def not_run(corpus: Corpus, options: Mapping[str, Any]) -> Iterable[Finding]:
    """The ``check`` of a rule description restored from the run cache: it does not run."""
    raise RuntimeError("a cached rule description cannot run")


def detached(result: RunResult) -> RunResult:
    """The result with rule descriptions that pickle without importing the rules again."""
    from dataclasses import replace

    return RunResult(
        result.findings,
        {rule_id: replace(info, check=not_run) for rule_id, info in result.rules.items()},
        result.waived,
    )
