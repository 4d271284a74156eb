"""The corpus's bindings of prose value sets to schema enums, as plain data for a report.

``speclint bindings`` prints them; the HTML report (``--format html``) lists them beside the
findings, so a reviewer sees why a page is compared with a schema (issue 48). They are computed
by the run only when a report asks for them (``Options.bindings``): the binder weighs every prose
set of the corpus, which no other report needs.

The data holds locations, words and values, never the parsed corpus: a report is a pure function
of what it is given (``speclint.outputs.reporters``).
"""

from __future__ import annotations

from dataclasses import dataclass

from speclint.analyses.context import Context
from speclint.analyses.prose.enumerations import FORM_WORDS, Binder, Binding, all_prose_sets
from speclint.common.findings import Location, as_written


@dataclass(frozen=True)
class Bound:
    """One schema enum a prose set is bound to, and why."""

    location: Location  # the schema's property (its line, for an excerpt)
    label: str  # ``schemas/a.json#/properties/status``
    values: tuple[str, ...]  # the enum's values as prose writes them
    confidence: str  # high | medium
    evidence: str  # what bound it: "the text names `RunSnapshot.status`"
    same: bool  # the prose lists exactly the enum's values


@dataclass(frozen=True)
class BoundSet:
    """A value set the prose states, with the enums it is bound to (none: bound to nothing)."""

    location: Location  # where the prose states it
    form: str  # how the prose states it: "bullet list", "table column" (FORM_WORDS)
    field: str | None  # the field it enumerates, when the text names one
    values: tuple[str, ...]
    targets: tuple[Bound, ...]


def enum_bindings(corpus: Context) -> tuple[BoundSet, ...]:
    """Every prose value set of the corpus with its bindings, by file and line."""
    binder = Binder(corpus)
    found = []
    for prose in all_prose_sets(corpus):
        targets = tuple(_bound(binding) for binding in binder.bindings(prose))
        form = FORM_WORDS.get(prose.form, prose.form)
        found.append(BoundSet(prose.location(), form, prose.field, prose.values, targets))
    return tuple(found)


def _bound(binding: Binding) -> Bound:
    values = tuple(as_written(value) for value in binding.values.values)
    return Bound(
        binding.target.location(),
        binding.target.label,
        values,
        binding.confidence,
        binding.evidence,
        # As `speclint bindings` says "same values": the same set, whatever the order.
        set(values) == set(binding.prose.values),
    )
