"""Preview rules, as ruff has them (issue 45): the default set is the proven set.

A rule is a *preview* rule when its precision over the hand-read labels of the ecosystem check is
under :data:`MIN_PRECISION`, or fewer than :data:`MIN_LABELS` of its findings are labelled, or its
module declares ``PREVIEW = True`` (a new rule, or a new heuristic, before it has labels). A
preview rule runs only in preview mode: ``--preview`` on the command line, ``preview = true`` in
the configuration, or ``SPECLINT_PREVIEW=1``; the engine (``speclint.run.engine``) applies it, so
the command line, the pre-commit hook, the daemon, the language server and the Action choose
alike. As in ruff, naming a preview rule by its exact id in ``--select`` or ``select`` does not
run it without preview mode (the run says so), and with ``explicit-preview-rules = true`` preview
mode runs only the preview rules named by their exact id, not those ``ALL`` or a prefix selects.
A rule that reports input speclint could not read (:data:`ALWAYS_RUN`) is never a preview rule:
bad input is a finding or a clear error, never a silent pass.

A *heuristic* inside a rule is held to the same bar (issue 45): a rule with more than one way to
reach a finding (example-invalid's bindings, enum-drift's, copy-drift's pairings) names them in
its ``HEURISTICS``, each finding says which made it (``Finding.heuristic``), and each is measured
over the labels of the findings it made. Outside preview mode the engine drops the findings of a
heuristic under the bar (and says how many); a rule's own status is judged over the findings
it reports by default (``default_measure``), and a rule with
one heuristic has only its own. A tie that guesses nothing (an example inside its schema, a
marker comment, the user's configuration: the rule's ``DECLARED_TIES``) is no heuristic: it is
measured and shown, and runs whenever its rule runs.

The measurements come from ``data/precision.json``, which ``benchmarks/ecosystem/precision.py``
writes from the labels (speclint never reads the benchmarks when it runs): no rule's docstring
and no registry says "preview", so a rule leaves preview when its labels prove it, and returns
to it when new labels do not.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources

from speclint.common.findings import Finding
from speclint.run.catalog import all_rules

MIN_LABELS = 20
# Rules that report input speclint could not read: bad input is a finding or a clear error,
# never a silent pass (the project's standard), so these run whatever their labels say. Their
# precision is still measured and shown; one that falls under the bar is a bug to fix in them.
ALWAYS_RUN = frozenset({"parse-error"})
MIN_PRECISION = Fraction(9, 10)  # exact: 99 true of 110 is 90 %, not a float's 89.99...
# What turns preview mode on, for messages.
HOW = "--preview, or `preview = true` in the configuration"


@dataclass(frozen=True)
class Measure:
    """A rule's labelled findings of the ecosystem check, as ``precision.json`` has them."""

    labels: int = 0  # counted: their finding still appears at the severity it was read at
    true: int = 0
    false: int = 0
    noise: int = 0
    stale: int = 0  # labels whose finding no longer appears (or changed severity): not counted

    @property
    def precision(self) -> float | None:
        """True over every counted label: noise counts against, as a false finding does."""
        return self.true / self.labels if self.labels else None


class PreviewDataError(ValueError):
    """speclint's own data file is missing or unreadable: an installation without it would
    make every rule a preview rule, and a run of no rule pass silently."""


def _table(name: str) -> Mapping[str, Measure]:
    """The measures of the data file's table ``name``, shipped with speclint."""
    source = resources.files("speclint").joinpath("data", "precision.json")
    try:
        entries = json.loads(source.read_text(encoding="utf-8"))[name]
        if not isinstance(entries, dict):
            raise ValueError(f"`{name}` is not a table")
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise PreviewDataError(
            f"speclint's data/precision.json cannot be read ({error}): reinstall speclint"
        ) from None
    fields = ("labels", "true", "false", "noise", "stale")
    return {
        key: Measure(**{k: int(v.get(k) or 0) for k in fields})
        for key, v in entries.items()
        if isinstance(v, dict)
    }


@cache
def measured() -> Mapping[str, Measure]:
    """Each rule's measure from the data file shipped with speclint."""
    return _table("rules")


@cache
def measured_heuristics() -> Mapping[str, Measure]:
    """Each heuristic's measure (``example-invalid/by-shape``): the labels of the findings it
    made (``stale`` is not known of a heuristic: a finding that is gone names none)."""
    return _table("heuristics")


def why_preview(rule_id: str) -> str:
    """Why ``rule_id`` is a preview rule ("3 labelled findings, under the 20 needed"); "" for a rule of the default set, and for ids that are no rule (``waiver``,
    ``internal-error``)."""
    info = all_rules().get(rule_id)
    if info is None or rule_id in ALWAYS_RUN:
        return ""
    if info.declared_preview:
        return "declared preview by its module: new, not yet measured"
    return _under_the_bar(default_measure(rule_id))


def default_measure(rule_id: str) -> Measure:
    """The rule's measure over the findings a run outside preview mode reports: its labels less
    those of its held-back heuristics. A rule is judged by what it says by default; the labels
    of a heuristic that only preview mode runs say nothing of that (29 noise labels of one such
    heuristic once took openapi-invalid out of the default set while its default findings were
    all true)."""
    measure = measured().get(rule_id, Measure())
    info = all_rules().get(rule_id)
    if info is None or len(info.heuristics) < 2:
        return measure
    held = [
        measured_heuristics().get(h, Measure()) for h in info.heuristics if why_heuristic_preview(h)
    ]
    return Measure(
        labels=measure.labels - sum(m.labels for m in held),
        true=measure.true - sum(m.true for m in held),
        false=measure.false - sum(m.false for m in held),
        noise=measure.noise - sum(m.noise for m in held),
        stale=measure.stale,
    )


def heuristic_rules() -> dict[str, str]:
    """Each heuristic of a rule that has more than one, and its rule: a rule with one way to a
    finding is measured, and previewed, as a whole."""
    return {
        heuristic: rule_id
        for rule_id, info in all_rules().items()
        if len(info.heuristics) > 1
        for heuristic in info.heuristics
    }


def why_heuristic_preview(heuristic: str) -> str:
    """Why the findings of ``heuristic`` are held back outside preview mode ("12 labelled
    findings, under the 20 needed"); "" for a proven one, one of a rule with a single
    heuristic, and an id no rule declares."""
    rule_id = heuristic_rules().get(heuristic)
    if rule_id is None or heuristic in all_rules()[rule_id].declared_ties:
        return ""
    return _under_the_bar(measured_heuristics().get(heuristic, Measure()))


def preview_heuristics() -> frozenset[str]:
    """The heuristics whose findings a run outside preview mode drops."""
    return frozenset(h for h in heuristic_rules() if why_heuristic_preview(h))


def _under_the_bar(measure: Measure) -> str:
    reasons = []
    if measure.labels < MIN_LABELS:
        reasons.append(f"{measure.labels} labelled findings, under the {MIN_LABELS} needed")
    if measure.labels and Fraction(measure.true, measure.labels) < MIN_PRECISION:
        reasons.append(
            f"precision {measure.precision or 0.0:.0%}, under {float(MIN_PRECISION):.0%}"
        )
    return "; ".join(reasons)


def is_preview(rule_id: str) -> bool:
    return bool(why_preview(rule_id))


def preview_ids(ids: Iterable[str]) -> frozenset[str]:
    return frozenset(rule for rule in ids if is_preview(rule))


def precision_lines(rule_id: str) -> list[str]:
    """What ``speclint rule ID`` says of the rule's measured precision and its status."""
    measure = measured().get(rule_id, Measure())
    if measure.labels:
        line = (
            f"Precision: {measure.precision or 0.0:.0%} over {measure.labels} labelled findings "
            f"of the ecosystem check ({measure.true} true, {measure.false} false, "
            f"{measure.noise} noise)"
        )
    else:
        line = "Precision: not measured (no labelled finding of the ecosystem check)"
    if measure.stale:
        line += (
            f"; {measure.stale} labels of findings it no longer makes (or makes at another "
            "severity) not counted"
        )
    default = default_measure(rule_id)
    if default != measure:
        line += "; without its preview heuristics (what it reports by default) " + (
            f"{default.precision or 0.0:.0%} over {default.labels}"
            if default.labels
            else "no labelled finding"
        )
    why = why_preview(rule_id)
    lines = [f"{line}."]
    if why:
        lines.append(f"A preview rule ({why}): it runs only with {HOW}.")
    info = all_rules().get(rule_id)
    if info is not None and len(info.heuristics) > 1:
        lines.append("Heuristics (the findings each one made):")
        for heuristic in info.heuristics:
            lines.append(f"  {heuristic}: {_heuristic_line(heuristic)}")
    return lines


def _heuristic_line(heuristic: str) -> str:
    measure = measured_heuristics().get(heuristic, Measure())
    if measure.labels:
        said = (
            f"{measure.precision or 0.0:.0%} over {measure.labels} labels ({measure.true} true, "
            f"{measure.false} false, {measure.noise} noise)"
        )
    else:
        said = "not measured (no labelled finding)"
    rule_id = heuristic_rules().get(heuristic)
    if rule_id is not None and heuristic in all_rules()[rule_id].declared_ties:
        return f"{said}; a declared tie, run with the rule"
    why = why_heuristic_preview(heuristic)
    return f"{said}; preview ({why})" if why else said


def held_back(findings: Sequence[Finding], preview: bool) -> tuple[list[Finding], Counter[str]]:
    """``findings`` less those of a preview heuristic when not in ``preview`` mode, and how many
    of each heuristic were dropped."""
    dropping = frozenset() if preview else preview_heuristics()
    held: Counter[str] = Counter()
    kept = []
    for finding in findings:
        if finding.heuristic in dropping:
            held[finding.heuristic] += 1
        else:
            kept.append(finding)
    return kept, held


@dataclass(frozen=True)
class Held:
    """The preview rules a selection chose that a run without preview mode does not run."""

    rules: tuple[str, ...] = ()  # every one of them, sorted
    named: tuple[str, ...] = ()  # those selected by their exact id (the run says so by name)
    # The findings of preview heuristics the run dropped: (heuristic, how many), sorted.
    heuristics: tuple[tuple[str, int], ...] = ()


def previewed(
    ids: Collection[str],
    previews: Collection[str],
    preview: bool,
    explicit: bool = False,
    selectors: Collection[str] = (),
) -> tuple[tuple[str, ...], Held]:
    """The ids a run runs of the selection ``ids``, and the preview rules it holds back.

    Without preview mode no preview rule runs, even one named by its exact id (ruff: "selection
    has no effect because preview is not enabled"). In preview mode every selected rule runs,
    unless ``explicit`` (``explicit-preview-rules``): then a preview rule runs only when one of
    ``selectors`` (the command line's ``--select``, else the configuration's ``select``) is its
    exact id."""
    exact = {selector.strip().lower() for selector in selectors}
    if preview and not explicit:
        return tuple(sorted(ids)), Held()
    held = sorted(rule for rule in ids if rule in previews and not (preview and rule in exact))
    kept = tuple(sorted(rule for rule in ids if rule not in held))
    if preview:  # explicit: what ALL or a prefix chose is not "held", it was never asked for
        return kept, Held()
    return kept, Held(tuple(held), tuple(rule for rule in held if rule in exact))
