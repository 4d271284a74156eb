"""Whether the head still accepts what the base accepted: generated instances as evidence for the
change report (``speclint.analyses.compat``), where comparing keywords cannot say.

Structure answers most changes (an ``enum`` member removed, a ``required`` name added); it cannot
answer a ``pattern`` rewritten, a ``not`` added, a ``format`` swapped, an ``if`` changed, or an
``enum`` rewritten as an ``anyOf`` of ``const``\\s. For those the schemas are asked:
:func:`accepted_change` generates instances from the schema at the base revision
(hypothesis-jsonschema, as ``speclint.analyses.witnesses`` does for unsatisfiable-schema) and
validates each against the same location at the head, and the other way round. An instance the
base accepts and the head rejects proves a narrowing; one the head accepts and the base rejects,
a widening. Each side is made self-contained and validated through its own revision's registry
(``speclint.analyses.satisfiability.corpus_resources``: a ``$ref`` resolves as it did in that
revision, never on the network), and the generator is never trusted alone: an instance counts
only once the real validators of both revisions have judged it, ``format`` asserted (a
``date`` turned ``date-time`` rejects what was sent).

Generation is derandomized with a fixed number of instances, so the same pair of revisions gives
the same witnesses, byte for byte; it is bounded in work (instances per side, the size of the
self-contained schema, the pattern repeats ``witnesses.generate`` refuses). Finding no witness in
those instances is evidence, not proof, that nothing changed. A side that cannot be generated
from (a recursive schema, a keyword or format the generator does not know, no instance at all)
is *undecided*, said as such, never read as "no change".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.satisfiability import (
    Decider,
    corpus_resources,
    in_place_uri,
    missing_targets,
    standalone,
)
from speclint.analyses.schema_objects import validator_class_of
from speclint.analyses.shapes import Site
from speclint.analyses.witnesses import (
    Witness,
    asks_long_strings,
    built_by_hand,
    generate,
    smallest_rejected,
)
from speclint.model.corpus import Document
from speclint.parsing.structured import join_pointer

INSTANCES = 20  # generated from each side of one location, at most
# Each instance of a large union costs Hypothesis a draw through every member (a third of a
# second for a 370-node request union of the Model Context Protocol schema): a side is given
# this many (schema nodes x instances), and never fewer than ``FEWEST`` instances. A work
# bound, not a clock: the same schemas are given the same instances on every machine.
WORK = 1_000
FEWEST = 3
# A self-contained schema larger than this (nodes, after every `$ref` is inlined) is not
# generated from at all.
MAX_SCHEMA_NODES = 4_000


@dataclass(frozen=True)
class Acceptance:
    """What the instances of each revision say about the other's."""

    narrowed: Witness | None  # an instance the base accepts and the head rejects
    widened: Witness | None  # an instance the head accepts and the base rejects
    # why a side could not be generated from ("base: ...", "head: ..."); empty when both were
    undecided: tuple[str, ...] = ()


class Revision:
    """One revision of the corpus as the witnesses read it: its schemas in a jsonschema-rs
    registry (built on first use, once), to make a location self-contained, and its own
    validators, to judge an instance."""

    def __init__(self, corpus: Context) -> None:
        self.corpus = corpus
        self._decider: Decider | None = None
        # (path, pointer, count) -> instances, or why none: a location reached from two base
        # locations (a shared definition) is generated from once
        self._generated: dict[tuple[str, str, int], tuple[list[Any], str]] = {}

    @property
    def decider(self) -> Decider:
        if self._decider is None:
            # Its registry only: no decision is asked, so no worker process is started.
            resources, _ = corpus_resources(self.corpus)
            self._decider = Decider(resources, missing=missing_targets(self.corpus))
        return self._decider

    def validator(self, site: Site) -> Any:
        """A validator of the schema at ``site`` in its document's dialect, through this
        revision's registry, asserting ``format``; None when it cannot be built."""
        try:
            found = self.corpus.references.validator_at(
                validator_class_of(site.document), in_place_uri(site.document, site.pointer)
            )
            return found.evolve(format_checker=type(found).FORMAT_CHECKER)
        except Exception:  # an unresolvable reference, a schema jsonschema cannot read
            return None

    def instances(self, site: Site, count: int) -> tuple[list[Any], str]:
        """Up to ``count`` generated instances of the schema at ``site`` (and the smallest one
        built by hand, ``witnesses.minimal``), or none and why."""
        return self.generated(site.document, site.pointer, count)

    def refused(self, site: Site, count: int) -> list[Any]:
        """Instances of the schema's ``not``: what it refuses by name. A value a new ``not``
        excludes is one of few among all the base accepts (``not: {const: "x"}``), which
        instances of the base alone would find by chance only."""
        if not isinstance(site.node, dict) or not isinstance(site.node.get("not"), dict):
            return []
        return self.generated(site.document, join_pointer(site.pointer, "not"), count)[0]

    def generated(self, document: Document, pointer: str, count: int) -> tuple[list[Any], str]:
        key = (document.path, pointer, count)
        if key not in self._generated:
            self._generated[key] = self._generate(document, pointer, count)
        instances, why = self._generated[key]
        return list(instances), why

    def _generate(self, document: Document, pointer: str, count: int) -> tuple[list[Any], str]:
        whole = standalone(self.decider, None, {"$ref": in_place_uri(document, pointer)})
        if whole is None or _holds_reference(whole):
            return [], "recursive or unresolved `$ref`"
        if _size(whole) > MAX_SCHEMA_NODES:
            return [], f"larger than {MAX_SCHEMA_NODES:,} nodes once its `$ref`s are inlined"
        if asks_long_strings(whole):
            return [], "a `pattern` that asks for very long strings"
        size = _size(whole)
        found = generate(whole, max(FEWEST, min(count, WORK // size)))
        if not found:
            return [], (
                "no instance could be generated (a keyword or format the generator does not "
                "support, or no instance at all)"
            )
        return built_by_hand(whole) + found, ""


def accepted_change(
    base: Revision, base_site: Site, head: Revision, head_site: Site, count: int = INSTANCES
) -> Acceptance:
    """The smallest instance of the base's schema at ``base_site`` that the head's at
    ``head_site`` rejects, and the smallest of the head's that the base rejects; each side's
    instances judged by both revisions' validators."""
    base_validator, head_validator = base.validator(base_site), head.validator(head_site)
    undecided: list[str] = []
    if base_validator is None or head_validator is None:
        side = "base" if base_validator is None else "head"
        return Acceptance(None, None, (f"{side}: its schema could not be compiled",))
    witnesses: list[Witness | None] = []
    for side, revision, site, own, other in (
        ("base", base, base_site, base_validator, head_validator),
        ("head", head, head_site, head_validator, base_validator),
    ):
        instances, why = revision.instances(site, count)
        if why:
            undecided.append(f"{side}: {why}")
        elif instances:
            # what the other side's `not` refuses, tried on this side too
            other_revision, other_site = (head, head_site) if side == "base" else (base, base_site)
            instances += other_revision.refused(other_site, count)
        witnesses.append(smallest_rejected(own, other, instances) if instances else None)
    return Acceptance(witnesses[0], witnesses[1], tuple(undecided))


def _holds_reference(schema: Any) -> bool:
    """Is a ``$ref`` left in the self-contained schema (a cycle ``dereference`` keeps)?"""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str) or isinstance(node.get("$dynamicRef"), str):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _size(schema: Any) -> int:
    count, stack = 0, [schema]
    while stack:
        node = stack.pop()
        count += 1
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count
