"""The rule catalog: every module in ``speclint.rules`` that defines a rule.

A rule module (yamllint's model, see ``docs`` in the README) has a docstring that is its
documentation, and the constants ``ID`` (a readable slug) and ``SEVERITY`` (its default), and a
``check(corpus, options)`` generator that yields findings. Nothing else is needed to register it.
``PREVIEW = True`` makes a new rule a preview rule before it is measured (``speclint.run.preview``);
``HEURISTICS`` names the ways a rule has to reach a finding, when it has several, each measured
on its own.
A rule checked one document at a time declares ``READS = "page"`` or ``"document"`` and its
``check_unit`` (``speclint.analyses.units``), so an edit re-checks only the units it touches.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from speclint import rules as package
from speclint.analyses.context import FACTS
from speclint.analyses.grpc.protos import page_fences
from speclint.analyses.units import pages
from speclint.common.findings import Finding, Severity

if TYPE_CHECKING:
    from speclint.analyses.context import Context
    from speclint.analyses.units import Combine, UnitCheck, Units
    from speclint.model.corpus import Document

CheckFunction = Callable[["Context", Mapping[str, Any]], Iterable[Finding]]


@dataclass(frozen=True)
class RuleInfo:
    id: str
    severity: Severity
    doc: str
    module: str
    check: CheckFunction
    needs_base: bool = False  # judges a change: silent without --diff-base (compat-claim)
    reads: str = "all"  # "structured": only JSON/YAML documents (its result survives prose edits)
    # False: reads none of the indexes ``runner.prime`` builds, so it may start before them.
    needs_indexes: bool = True
    # READS_PROTOS = True: reads the corpus's compiled protos (speclint.analyses.grpc.protos), which
    # the run compiles once before the workers fork when two such rules run; such a rule is
    # READS = "extract", each page's proto fences part of its extract (`_with_fences`).
    reads_protos: bool = False
    # READS_RFCS = True: reads the corpus's RFCs (speclint.analyses.prose.rfcs.corpus_rfcs), whose
    # prose models the run decodes once before the workers fork when such a rule runs
    # (``runner._read_models``), not for every rule that reads the corpus whole.
    reads_rfcs: bool = False
    # READS_PROSE_SETS = True: reads the pages' prose value sets
    # (speclint.analyses.prose.enumerations.prose_sets), itself or through an analysis
    # (``protojson.prose_enum_pairs``): the run makes them, as each page is parsed and before the
    # workers fork, only when such a rule runs (or it lists the bindings); 21 % of a cold run.
    reads_prose_sets: bool = False
    # READS = "page" / "document" (speclint.analyses.units): checked one unit at a time, cached per
    # unit.
    check_unit: UnitCheck | None = None
    units: Units | None = None
    unit_inputs: Callable[[Context, Document], Iterable[str]] | None = None
    # What one unit of a READS = "document" rule reads besides its document, in place of all
    # that its `$ref`s reach (speclint.analyses.units.reach).
    unit_reach: Callable[[Context, Document], Iterable[str]] | None = None
    combine: Combine | None = None
    shared: Callable[[Context], Any] | None = None
    # READS = "extract": what the rule reads of one Markdown page (speclint.analyses.units).
    extract: Callable[[Document], Any] | None = None
    # What it reads of one Markdown page alone, made as the page is parsed and kept with it
    # (speclint.analyses.units.prepared).
    prepare: Callable[[Document], Any] | None = None
    # LEAVES_TO: the rules it leaves a defect to (one defect, one finding), which it reports
    # itself when they do not run (``Context.runs``): whether they run is part of its cache key.
    leaves_to: tuple[str, ...] = ()
    # FACTS: the derived facts it reads (speclint.analyses.context); it is given no other.
    facts: frozenset[str] = frozenset()
    # PREVIEW = True: a preview rule whatever its labels say (a new rule or heuristic, before it
    # is measured); otherwise its labels decide (speclint.run.preview).
    declared_preview: bool = False
    # HEURISTICS: the ways the rule has to reach a finding (issue 45), each ``ID/name``, when it
    # has more than one; a finding says which made it (``Finding.heuristic``), and each is
    # measured and held back outside preview mode on its own (speclint.run.preview).
    heuristics: tuple[str, ...] = ()
    # DECLARED_TIES: those of its HEURISTICS that guess nothing (the document, the author or the
    # user states the tie): measured and shown, but never held back on their own.
    declared_ties: frozenset[str] = frozenset()

    @property
    def summary(self) -> str:
        """The docstring's first paragraph on one line: for `speclint rules` and SARIF."""
        first = self.doc.strip().split("\n\n", 1)[0]
        # Docstrings use reST literals (``$ref``); one-line summaries read as Markdown (`$ref`).
        return " ".join(first.split()).replace("``", "`")


def _with_fences(
    extract: Callable[[Document], Any] | None,
) -> Callable[[Document], Any]:
    """What a rule that reads the protos reads of a page: its proto fences, and what its own
    ``extract`` reads."""
    if extract is None:
        return page_fences
    own = extract

    def with_fences(document: Document) -> Any:
        return own(document), page_fences(document)

    return with_fences


@cache
def all_rules() -> dict[str, RuleInfo]:

    found: dict[str, RuleInfo] = {}
    for module_info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{module_info.name}")
        rule_id = getattr(module, "ID", None)
        if rule_id is None:
            continue
        if rule_id in found:
            raise RuntimeError(f"rule id {rule_id!r} is defined twice ({module.__name__})")
        reads = str(getattr(module, "READS", "all"))
        reads_protos = bool(getattr(module, "READS_PROTOS", False))
        extract = getattr(module, "extract", None)
        if reads_protos:
            # The protos it reads include every page's proto fences: the rule's results are
            # keyed on them, beside what its own extract reads.
            if reads not in ("all", "structured", "extract"):
                raise RuntimeError(f"{module.__name__}: READS_PROTOS needs READS = 'extract'")
            reads, extract = "extract", _with_fences(extract)
        check_unit = getattr(module, "check_unit", None)
        if reads in ("page", "document") and check_unit is None:
            raise RuntimeError(f"{module.__name__}: READS = {reads!r} needs a check_unit")
        if reads == "extract" and extract is None:
            raise RuntimeError(f"{module.__name__}: READS = 'extract' needs an extract")
        facts = frozenset(getattr(module, "FACTS", ()))
        if not facts <= FACTS:
            unknown = ", ".join(sorted(facts - FACTS))
            raise RuntimeError(f"{module.__name__}: FACTS names no derived fact: {unknown}")
        units = getattr(module, "units", None)
        if reads == "page" and units is None:
            units = pages
        found[rule_id] = RuleInfo(
            id=rule_id,
            severity=module.SEVERITY,
            doc=(module.__doc__ or "").strip(),
            module=module.__name__,
            check=module.check,
            needs_base=bool(getattr(module, "NEEDS_BASE", False)),
            reads=reads,
            needs_indexes=bool(getattr(module, "NEEDS_INDEXES", True)),
            reads_protos=reads_protos,
            reads_rfcs=bool(getattr(module, "READS_RFCS", False)),
            reads_prose_sets=bool(getattr(module, "READS_PROSE_SETS", False)),
            check_unit=check_unit,
            units=units,
            unit_inputs=getattr(module, "unit_inputs", None),
            unit_reach=getattr(module, "unit_reach", None) if reads == "document" else None,
            combine=getattr(module, "combine", None),
            shared=getattr(module, "shared", None) if reads == "page" else None,
            extract=extract if reads == "extract" else None,
            prepare=getattr(module, "prepare", None),
            facts=facts,
            leaves_to=tuple(str(r) for r in getattr(module, "LEAVES_TO", ())),
            declared_preview=bool(getattr(module, "PREVIEW", False)),
            heuristics=_heuristics(module, rule_id),
            declared_ties=_declared_ties(module, rule_id),
        )
    for info in found.values():
        # A misspelt id would read as "not run": the rule would report what it leaves to another.
        if missing := sorted(set(info.leaves_to) - set(found)):
            raise RuntimeError(f"{info.module}: LEAVES_TO names no rule: {missing}")
    return dict(sorted(found.items()))


def _heuristics(module: Any, rule_id: str) -> tuple[str, ...]:
    """A module's ``HEURISTICS``: ids of the form ``ID/name``, each once."""
    declared = tuple(str(h) for h in getattr(module, "HEURISTICS", ()))
    wrong = [h for h in declared if not h.startswith(f"{rule_id}/") or declared.count(h) > 1]
    if wrong:
        raise RuntimeError(f"{module.__name__}: HEURISTICS must be distinct `{rule_id}/name`s")
    return declared


def _declared_ties(module: Any, rule_id: str) -> frozenset[str]:
    """A module's ``DECLARED_TIES``: some of its ``HEURISTICS``."""
    ties = frozenset(str(h) for h in getattr(module, "DECLARED_TIES", ()))
    if not ties <= set(_heuristics(module, rule_id)):
        raise RuntimeError(f"{module.__name__}: DECLARED_TIES must be among its HEURISTICS")
    return ties
