"""Where comparing keywords cannot say whether a node accepts other values
(``speclint.analyses.changes.compat``): the node is asked of the schemas (``speclint.analyses.changes.acceptance``), instances
generated from each revision validated against the other, within a budget of nodes a run.
An instance one side accepts and the other rejects is the change, quoted; a "may" of the
comparisons is proven by one, and a narrowing or widening no instance shows, where a union or
condition changed, is withdrawn."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from speclint.analyses.changes.acceptance import INSTANCES, Acceptance, Revision, accepted_change
from speclint.analyses.changes.change_log import ChangeLog
from speclint.analyses.changes.contract_change import TENTATIVE, Change, direction
from speclint.analyses.changes.schema_assertions import LISTS, MAPS, SINGLE
from speclint.analyses.schemas.shapes import Site
from speclint.analyses.schemas.witnesses import Witness
from speclint.parsing.structured import canonical, split_pointer

# Keywords the comparisons (``keyword_comparisons``) do not model (or only in part: a `pattern` added, not changed;
# union members paired, not their overlap): a node that differs in one is asked of the schemas,
# generated instances of each revision validated against the other (``acceptance``).
_UNMODELLED = (
    "not", "if", "then", "else", "pattern", "format", "dependentRequired", "dependentSchemas",
    "propertyNames", "patternProperties", "multipleOf", "uniqueItems", "contains", "minContains",
    "maxContains", "anyOf", "oneOf", "allOf",
)  # fmt: skip
# Words that change no accepted value: a keyword differing only in them is not witnessed.
_WORDS = frozenset(
    {"title", "description", "$comment", "examples", "example", "default", "deprecated",
     "readOnly", "writeOnly"}
)  # fmt: skip
# Nodes witnessed in one run, and instances generated from each side of one: each costs a
# tenth of a second to a second of Hypothesis's time.
WITNESSED_NODES = 16
WITNESS_INSTANCES = INSTANCES


@dataclass
class _Witnessing:
    """A run's witnesses: the revisions they read (made on first use) and the budget spent."""

    base: Revision | None = None
    head: Revision | None = None
    nodes: int = 0  # nodes witnessed
    left: int = 0  # nodes the budget left out
    note: int | None = None  # the index, in the changes, of the change that says so


class Witnesses:
    """The witnesses of one comparison: the changes they judge (``log``) and their budget."""

    def __init__(self, log: ChangeLog) -> None:
        self.log = log
        self.state = _Witnessing()  # the revisions it reads, its budget

    def witness(
        self,
        base: Site,
        head: Site,
        field: str | None,
        mark: int,
    ) -> None:
        """Ask the schemas (``speclint.analyses.changes.acceptance``) when the node differs in keywords
        the comparisons do not model, and they reported nothing for it or below it (called
        once its subtree is walked: a change of a paired member or property is reported there):
        an instance one revision accepts and the other rejects is the change, quoted. Where the
        node's union or condition changed, what the comparisons did report for the node itself
        is judged too: a narrowing (widening) no instance shows, while both sides were generated
        from, is withdrawn (an ``enum`` rewritten as an ``anyOf`` of ``const``\\s is no
        change, not a member removed and two added)."""
        differing = _differing(base.node, head.node)
        if not differing or _conditional(head.pointer):
            return
        reported = self.log.changes[mark:]
        if any(not _at_node(c, head) for c in reported):
            return  # below the node: that pair said what changed
        judged = {"anyOf", "oneOf", "allOf", "if", "then", "else", "not"} & set(differing)
        if reported and not judged and not any(c.kind in TENTATIVE for c in reported):
            return
        found = self.witnessed(base, head, differing[0])
        if found is None:
            return
        role = self.log.role(head, base)
        client = role in ("client-submitted", "both", "unused")
        server = role in ("server-emitted", "both", "unused")
        decided = not found.undecided
        narrowed = self.own_witness(found.narrowed, base, head)
        widened = self.own_witness(found.widened, base, head)
        shown = {"narrowing": narrowed, "widening": widened}
        if reported:
            kept = [
                _evidenced(c, shown[direction(c)]) if c.kind in TENTATIVE else c
                for c in reported
                # a "may" stays: a few instances that miss are no proof (`minContains` of an
                # untyped schema is seldom met by chance)
                if not direction(c) or not decided or shown[direction(c)] or c.kind in TENTATIVE
            ]
            del self.log.changes[mark:]
            self.log.changes.extend(kept)
            # what a kept comparison says already needs no second report
            said = {direction(c) for c in kept}
            narrowed = None if "narrowing" in said else narrowed
            widened = None if "widening" in said else widened
            if kept and narrowed is None and widened is None:
                return
        keyword = differing[0]
        at = keyword if keyword in head.node else ""
        name = f"`{field}` of " if field else ""
        subject = f"{name}{role} `{head.label}`"
        if narrowed is not None:
            self.log.add(
                "accepted values narrowed",
                client,
                role,
                f"{subject} accepts fewer values (`{keyword}` changed): `{narrowed.shown}` is "
                f"valid at the base and rejected at the head ({_rejection(narrowed)})"
                + (": requests that send it are rejected" if client else ""),
                head,
                base,
                at,
            )
        if widened is not None:
            self.log.add(
                "accepted values widened",
                server,
                role,
                f"{subject} accepts more values (`{keyword}` changed): `{widened.shown}` is valid "
                f"at the head and rejected at the base ({_rejection(widened)})"
                + (": a client validating against the base rejects it" if server else ""),
                head,
                base,
                at,
            )
        if narrowed is None and widened is None and not decided:
            self.log.add(
                "change not decided",
                False,
                role,
                f"{subject} differs in {_listed(differing)}, which the structural diff does not "
                f"model, and no instance could decide whether it accepts other values "
                f"({'; '.join(found.undecided)}): review it by hand",
                head,
                base,
                at,
            )

    def witnessed(self, base: Site, head: Site, keyword: str) -> Acceptance | None:
        """Both revisions' instances judged by the other (``acceptance.accepted_change``), or
        None once the run's budget (``WITNESSED_NODES``) is spent: then one change says so, at
        the first node left out, with how many were."""
        state = self.state
        if state.nodes >= WITNESSED_NODES:
            state.left += 1
            note = Change(
                "not witnessed",
                False,
                "both",
                f"{state.left} node(s) that differ in keywords the structural diff does not "
                f"model were not asked of the schemas, from this one on: the budget of "
                f"{WITNESSED_NODES} witnessed nodes a run was spent; review them by hand",
                head.at(keyword if keyword in head.node else ""),
                base.at(keyword if keyword in base.node else ""),
            )
            if state.note is None:
                state.note = len(self.log.changes)
                self.log.changes.append(note)
            else:
                self.log.changes[state.note] = replace(
                    self.log.changes[state.note], description=note.description
                )
            return None
        state.nodes += 1
        if state.base is None or state.head is None:
            state.base, state.head = Revision(self.log.base), Revision(self.log.head)
        return accepted_change(state.base, base, state.head, head, WITNESS_INSTANCES)

    def own_witness(self, found: Witness | None, base: Site, head: Site) -> Witness | None:
        """``found``, unless the keyword that rejects it is one the walk descends into and pairs
        itself (a property both revisions declare, ``items``...): that pair reports it."""
        if found is None:
            return None
        tokens = found.keyword_path.split("/")
        if tokens[0] in MAPS and len(tokens) > 1:
            holders = (base.node.get(tokens[0]), head.node.get(tokens[0]))
            if all(isinstance(h, dict) and tokens[1] in h for h in holders):
                return None
        elif (
            tokens[0] in SINGLE
            and tokens[0] not in ("then", "else")
            and isinstance(base.node.get(tokens[0]), dict)
            and isinstance(head.node.get(tokens[0]), dict)
        ):
            return None
        return found


def _meaning(value: Any, words: bool = True) -> Any:
    """``value`` without the annotations that change no accepted value (a member of a
    ``properties`` map named ``title`` is a property, kept)."""
    if isinstance(value, list):
        return [_meaning(item) for item in value]
    if not isinstance(value, dict):
        return value
    return {
        key: _meaning(item, key not in MAPS)
        for key, item in value.items()
        if not (words and (key in _WORDS or key.startswith("x-")))
    }


def _differing(base: dict[str, Any], head: dict[str, Any]) -> list[str]:
    """The unmodelled keywords whose values differ (a ``pattern`` only changed or removed:
    one added is ``pattern added``'s)."""
    return [
        keyword
        for keyword in _UNMODELLED
        if canonical(_meaning(base.get(keyword))) != canonical(_meaning(head.get(keyword)))
        and not (keyword == "pattern" and keyword not in base)
    ]


def _conditional(pointer: str) -> bool:
    """Is the node a union member or a condition's branch? Whether it accepts a value is not
    whether its parent does: the parent, which differs in that member, is witnessed instead."""
    tokens = split_pointer(pointer)
    return bool(tokens) and (
        tokens[-1] in ("if", "then", "else", "not")
        or (len(tokens) > 1 and tokens[-2] in ("anyOf", "oneOf") and tokens[-1].isdigit())
    )


def _at_node(change: Change, head: Site) -> bool:
    """Is ``change`` about the node at ``head`` itself (at it or at one of its keywords, as a
    union member added or removed is), not about a schema below it?"""
    pointer = change.location.pointer or ""
    if change.location.path != head.document.path:
        return False
    if pointer == head.pointer:
        return True
    if not pointer.startswith(head.pointer + "/"):
        return False
    tokens = pointer[len(head.pointer) + 1 :].split("/")
    # a member added is located at the member (`anyOf/2`)
    return len(tokens) == 1 or (
        len(tokens) == 2 and change.kind.startswith("union member") and tokens[0] in LISTS
    )


def _evidenced(change: Change, found: Witness | None) -> Change:
    """A "may" of the comparisons (``constraint narrowed``) with the instance that proves it."""
    if found is None:
        return change
    narrowing = direction(change) == "narrowing"
    sides = ("base", "head") if narrowing else ("head", "base")
    proof = (
        f" (`{found.shown}` is valid at the {sides[0]} and rejected at the {sides[1]}: "
        f"{_rejection(found)})"
    )
    head, _, tail = change.description.partition(": ")
    return replace(change, description=f"{head}{proof}: {tail}" if tail else head + proof)


def _rejection(found: Witness) -> str:
    """Why the other side rejects the witness: the keyword and the validator's message; for a
    union, that no member accepts it, with one member's reason (the deepest error names a
    member, which alone would read as if that member were the one meant)."""
    said = f"`{found.keyword_path}`: {found.message}"
    union, _, rest = found.keyword_path.partition("/")
    if union in ("anyOf", "oneOf") and rest:
        return f"no member of its `{union}` accepts it; e.g. {said}"
    return said


def _listed(keywords: list[str]) -> str:
    return ", ".join(f"`{k}`" for k in keywords)
