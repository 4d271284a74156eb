"""One change of a corpus's contract between two revisions (``speclint.analyses.changes.compat``), and
which way each kind of change moves the values a schema accepts: fewer (a narrowing), more (a
widening), or neither. The direction is what a generated witness can confirm or refute
(``speclint.analyses.changes.witnessed_changes``)."""

from __future__ import annotations

from dataclasses import dataclass

from speclint.common.findings import Location
from speclint.parsing.structured import split_pointer

# The kinds each witness direction can confirm or refute (``witnessed_changes``).
NARROWING = frozenset(
    {
        "enum value removed",
        "required added",
        "type narrowed",
        "bound tightened",
        "pattern added",
        "constraint narrowed",
    }
)
WIDENING = frozenset(
    {
        "enum value added",
        "required removed",
        "type widened",
        "bound loosened",
        "shape opened",
        "constraint widened",
    }
)
# What the comparisons can only say "may" about (a `pattern` or `format` replaced, a `not`
# added): the witness quotes the instance that proves one, and leaves the others as they are.
TENTATIVE = frozenset({"constraint narrowed", "constraint widened"})


@dataclass(frozen=True)
class Change:
    kind: str  # "enum value removed", "required added", ...
    breaking: bool
    role: str  # client-submitted | server-emitted | both | unused | operation
    description: str  # what changed, in Markdown, naming the field and values
    location: Location  # in the head corpus; in the base corpus when the node is gone
    base: Location | None = None  # the same node at the base revision
    # What changed in a few words, for a table row ("`status`: `suspended` added"); "" where
    # the description is short enough to be its own summary (a pull-request comment cuts it).
    summary: str = ""
    # Other places the change concerns: the Arazzo step a change breaks (its use of the
    # operation), as a finding's related locations (``speclint.analyses.changes.workflow_changes``).
    related: tuple[Location, ...] = ()

    @property
    def identity(self) -> str:
        where = self.location.pointer or ""
        return f"{self.kind}\x1f{self.location.path}\x1f{where}\x1f{self.description}"


def direction(change: Change) -> str:
    """Whether ``change`` says fewer values are accepted ("narrowing"), more ("widening"), or
    neither (""): what a witness can confirm or refute. A member of an ``allOf`` is a
    constraint: one removed widens, one added narrows."""
    if change.kind.startswith("union member"):
        # located at the union (a member removed) or at the member (one added: `allOf/1`)
        conjunction = "allOf" in split_pointer(change.location.pointer or "")[-2:]
        added = change.kind == "union member added"
        return "narrowing" if added == conjunction else "widening"
    if change.kind in NARROWING:
        return "narrowing"
    return "widening" if change.kind in WIDENING else ""
