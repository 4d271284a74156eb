"""Whether the head still accepts what the base accepted: generated instances as evidence for the
change report (``speclint.analyses.changes.compat``), where comparing keywords cannot say.

Structure answers most changes (an ``enum`` member removed, a ``required`` name added); it cannot
answer a ``pattern`` rewritten, a ``not`` added, a ``format`` swapped, an ``if`` changed, or an
``enum`` rewritten as an ``anyOf`` of ``const``\\s. For those the schemas are asked:
:func:`accepted_change` generates instances from the schema at the base revision
(hypothesis-jsonschema, as ``speclint.analyses.schemas.witnesses`` does for unsatisfiable-schema) and
validates each against the same location at the head, and the other way round. An instance the
base accepts and the head rejects proves a narrowing; one the head accepts and the base rejects,
a widening. Each side is made self-contained and validated through its own revision's registry
(``speclint.analyses.schemas.satisfiability.corpus_resources``: a ``$ref`` resolves as it did in that
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
from speclint.analyses.schemas.satisfiability import (
    Decider,
    corpus_resources,
    in_place_uri,
    missing_targets,
    standalone,
)
from speclint.analyses.schemas.schema_objects import validator_class_of
from speclint.analyses.schemas.shapes import Site
from speclint.analyses.schemas.witnesses import (
    Witness,
    asks_long_strings,
    built_by_hand,
    generate,
    smallest_rejected,
)
from speclint.parsing.structured import canonical, node_count

INSTANCES = 20  # generated from each side of one location, at most
# Each instance of a large union costs Hypothesis a draw through every member (a third of a
# second for a 370-node request union of the Model Context Protocol schema): a side is given
# this many (schema nodes x instances), and never fewer than ``FEWEST`` instances. A work
# bound, not a clock: the same schemas are given the same instances on every machine.
WORK = 1_000
FEWEST = 3
MEMBERS = 12  # schemas one side has and the other lacks generated from (``_probes``), at most


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
        # (path, pointer) -> the self-contained schema and its instances: a location reached
        # from two base locations (a shared definition) is generated from once
        self._wholes: dict[tuple[str, str], tuple[Any, str]] = {}
        self._generated: dict[tuple[str, str], list[Any]] = {}

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

    def whole(self, site: Site) -> tuple[Any, str]:
        """The schema at ``site`` made self-contained through this revision's registry, or
        None and why it cannot be generated from."""
        key = (site.document.path, site.pointer)
        if key not in self._wholes:
            self._wholes[key] = self._whole(site)
        return self._wholes[key]

    def _whole(self, site: Site) -> tuple[Any, str]:
        whole = standalone(self.decider, None, {"$ref": in_place_uri(site.document, site.pointer)})
        if whole is None or _holds_reference(whole):
            return None, "recursive or unresolved `$ref`"
        if node_count(whole) > MAX_SCHEMA_NODES:
            return None, f"larger than {MAX_SCHEMA_NODES:,} nodes once its `$ref`s are inlined"
        if asks_long_strings(whole):
            return None, "a `pattern` that asks for very long strings"
        return whole, ""

    def instances(self, site: Site, whole: Any, count: int) -> tuple[list[Any], str]:
        """Up to ``count`` generated instances of the self-contained ``whole`` of ``site``
        (fewer for a large one: ``WORK``) and the smallest one built by hand
        (``witnesses.minimal``), or none and why."""
        key = (site.document.path, site.pointer)
        if key not in self._generated:
            found = generate(whole, max(FEWEST, min(count, WORK // node_count(whole))))
            self._generated[key] = built_by_hand(whole) + found if found else []
        if not self._generated[key]:
            return [], (
                "no instance could be generated (a keyword or format the generator does not "
                "support, or no instance at all)"
            )
        return list(self._generated[key]), ""


def accepted_change(
    base: Revision, base_site: Site, head: Revision, head_site: Site, count: int = INSTANCES
) -> Acceptance:
    """The smallest instance of the base's schema at ``base_site`` that the head's at
    ``head_site`` rejects, and the smallest of the head's that the base rejects; each side's
    instances judged by both revisions' validators."""
    base_validator, head_validator = base.validator(base_site), head.validator(head_site)
    if base_validator is None or head_validator is None:
        side = "base" if base_validator is None else "head"
        return Acceptance(None, None, (f"{side}: its schema could not be compiled",))
    (base_whole, base_why), (head_whole, head_why) = base.whole(base_site), head.whole(head_site)
    if not base_why and not head_why and canonical(base_whole) == canonical(head_whole):
        return Acceptance(None, None)  # the same schema once inlined: written otherwise only
    undecided: list[str] = []
    witnesses: list[Witness | None] = []
    for side, revision, site, whole, why, own, other, others in (
        ("base", base, base_site, base_whole, base_why, base_validator, head_validator, head_whole),
        ("head", head, head_site, head_whole, head_why, head_validator, base_validator, base_whole),
    ):
        instances, why = revision.instances(site, whole, count) if not why else ([], why)
        if why:
            undecided.append(f"{side}: {why}")
            witnesses.append(None)
            continue
        instances += _probes(whole, others)
        witnesses.append(smallest_rejected(own, other, instances))
    return Acceptance(witnesses[0], witnesses[1], tuple(undecided))


def _probes(whole: Any, other: Any) -> list[Any]:
    """Instances aimed at what one side has and the other lacks, which instances of the whole
    would meet by chance only: of each member of this side's union the other's lacks (a member
    added is one of many), and of what the other side's ``not`` refuses (``not: {const: "x"}``
    excludes one value of all the base accepts). Judged like the rest: an instance of a member
    may fail the whole's other keywords."""
    if not isinstance(whole, dict):
        return []
    others = other if isinstance(other, dict) else {}
    aimed: list[Any] = []
    for keyword in ("anyOf", "oneOf"):
        members = whole.get(keyword)
        theirs = others.get(keyword)
        known = {_signature(m) for m in theirs} if isinstance(theirs, list) else set()
        if isinstance(members, list):
            aimed += [m for m in members if _signature(m) not in known]
    if isinstance(others.get("not"), dict) and canonical(others["not"]) != canonical(
        whole.get("not")
    ):
        aimed.append(others["not"])
    found: list[Any] = []
    for schema in aimed[:MEMBERS]:
        found += built_by_hand(schema) + generate(schema, FEWEST)
    return found


def _signature(member: Any) -> str:
    """What pairs a union member with the other side's: the values its properties are fixed
    to (``type: {const: "audio"}``, a JSON-RPC ``method``), which stay while the member's other
    properties change; else the member itself."""
    properties = member.get("properties") if isinstance(member, dict) else None
    fixed = {
        name: schema["const"] if "const" in schema else schema["enum"]
        for name, schema in (properties.items() if isinstance(properties, dict) else ())
        if isinstance(schema, dict)
        and (
            "const" in schema or (isinstance(schema.get("enum"), list) and len(schema["enum"]) == 1)
        )
    }
    return canonical(fixed) if fixed else canonical(member)


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
