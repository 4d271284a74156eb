"""Run the rules over a corpus, each in isolation.

A rule that raises does not stop the run: its exception becomes one ``internal-error`` finding that
names the rule, and the other rules' findings are still reported (a linter that gates pull requests
must not turn its own bug into a missing report). Severities come from the configuration; a rule set
to ``off`` does not run.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

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


def run_rules(
    corpus: Corpus, rules: Mapping[str, RuleInfo] | None = None, debug: bool = False
) -> RunResult:
    selected = dict(rules) if rules is not None else select_rules(corpus)
    findings: list[Finding] = []
    for rule_id, info in selected.items():
        # A configured severity replaces the rule's own; otherwise a rule may grade its findings
        # (a weak prose binding is `info` while a confident one is `error`).
        configured = corpus.config.rule_severity.get(rule_id)
        options = corpus.config.rule_options.get(rule_id, {})
        try:
            produced = list(info.check(corpus, options))
        except Exception as error:  # isolation is the point: one rule's bug is one finding
            if debug:
                traceback.print_exc()
            findings.append(
                Finding(
                    INTERNAL_ERROR,
                    Severity.ERROR,
                    f"rule `{rule_id}` crashed ({type(error).__name__}: {error}); its results are "
                    "missing. Run with --debug for the traceback and report it.",
                    Location(".", 1, 1),
                    key=rule_id,
                )
            )
            continue
        findings.extend(f.with_severity(configured) if configured else f for f in produced)
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
