"""A value set stated in prose and the schema enum it describes disagree.

What it does
    Reads every value set the Markdown states (a union or list of code spans, a table column
    headed by the field, "Supported values are: `a`, `b`") and binds it to the schema enum it
    describes: by ``[bindings]``, by a reference beside it (`` `RunSnapshot.status` ``), or by
    the field name among the enums of that name of the page's version (``speclint bindings``
    shows the evidence).

    Values the prose documents that the enum lacks are one finding at the ``enum``, naming every
    prose place; values the enum lists that a complete prose set (not an "e.g.") leaves out, one at
    the prose; a value renamed on one side, one at the enum. Alike disagreements fold into one
    finding, with a value x side table. A configured or referenced binding gives an error, one by
    name or projection a warning. Heuristics: ``configured``, ``reference``, ``field-name``,
    ``projection``, ``value-shapes``, ``sentence-values`` (``projection``: an API document's copy of
    the enum; ``value-shapes``: definition lists, value tables, running text; ``sentence-values``:
    plain words in a sentence naming the field).

Why is this bad?
    RFC 0094 §B: ``cancelling`` was in rest-endpoints.md and the OpenAPI cancel responses but not in
    run-snapshot's ``status`` enum: a snapshot read during a cancel failed validation.

Example
    ::

        <!-- spec/rest-endpoints.md -->
        `RunSnapshot.status` is one of `queued` | `running` | `cancelling` | `cancelled`.

        // schemas/run-snapshot.schema.json
        "status": {"enum": ["queued", "running", "cancelled"]}

    FAIL: ``error [enum-drift] `status` of `schemas/run-snapshot.schema.json` lacks `cancelling`,
    which the prose documents (1 place) ...``

Use instead
    ``"status": {"enum": ["queued", "running", "cancelling", "cancelled"]}``. PASS.

Options
    None; bind prose the heuristics miss with the configuration's top-level ``[bindings]``:
    ``"spec/page.md#anchor@field" = "schemas/x.schema.json#/properties/field"``.

Limitations
    Not bound: a proposal's page by name alone, an enum in a ``then``/``else``, a ``const``
    or a variant's one-value tag by name, a bundle's or copy's enum (its source is).
    A value the schema's description mentions is a deliberate difference.
"""

from __future__ import annotations

import functools
import heapq
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.prose.enumerations import (
    SENTENCE_FORM,
    SHAPE_FORMS,
    Binder,
    EnumGroup,
    GroupBinding,
    ProseSet,
    all_prose_sets,
    page_value_lists,
)
from speclint.analyses.schemas.namespaces import Namespaces, namespaces
from speclint.analyses.schemas.shapes import Site, ValueSet, resolve, value_set
from speclint.common.findings import (
    Finding,
    Location,
    Member,
    Severity,
    Table,
    as_written,
    bounded_related,
    first_fitting,
    left_out,
    presence_table,
)
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import escape_token, join_pointer

_EXCLUSION = re.compile(
    r"\b(exclud\w*|omit\w*|not (?:allowed|listed|included|part of))\b",
    re.IGNORECASE,
)
ID = "enum-drift"
SEVERITY = Severity.ERROR
FACTS = ("derived", "references", "provenance")  # speclint.analyses.context
# Reads the schemas, and of the prose only its value sets and whether a page is a proposal
# (speclint.analyses.units).
READS = "extract"
READS_PROSE_SETS = True  # the pages' value sets, made before it runs (speclint.run.catalog)
# Related locations a finding carries, its message counting the rest: the evidence of a
# disagreement repeated in many places, not every place (a SARIF or JSON reader is not
# handed 10^5 of them, and the report stays a small multiple of the input).
RELATED_LIMIT = 50
# How a value list was bound to an enum, strongest first (issue 45: each measured, and held back
# outside preview mode, on its own): `[bindings]`, a reference next to it, the field name
# alone, an API document's inline projection of a schema's shape.
HEURISTICS = tuple(
    f"{ID}/{name}"
    for name in (
        "configured", "reference", "field-name", "projection", "value-shapes", "sentence-values"
    )
)  # fmt: skip
# The user's `[bindings]` guess nothing: they run whenever the rule runs (speclint.run.preview).
DECLARED_TIES = (HEURISTICS[0],)
_BY_HOW = {
    "configuration": HEURISTICS[0],
    "reference": HEURISTICS[1],
    "name": HEURISTICS[2],
}
PROJECTION = HEURISTICS[3]
# A list read in a shape issue 46 (item 10) added (a definition list, a table of values, a
# field's running text): measured on its own, whatever evidence bound it.
VALUE_SHAPES = HEURISTICS[4]
# A list of plain words in a sentence that names the field ("by status (idle, busy, error)"):
# issue 46, round 4, measured on its own.
SENTENCE_VALUES = HEURISTICS[5]


def _heuristic(prose: ProseSet, how: str) -> str:
    """The heuristic a binding of ``prose`` is: the user's `[bindings]` guess nothing, whatever
    shape they bind; a list read in a newer shape is that shape's."""
    if how != "configuration" and prose.form == SENTENCE_FORM:
        return SENTENCE_VALUES
    if how != "configuration" and prose.form in SHAPE_FORMS:
        return VALUE_SHAPES
    return _BY_HOW[how]


def _strongest(heuristics: set[str]) -> str | None:
    return min(heuristics, key=HEURISTICS.index) if heuristics else None


extract = page_value_lists


@dataclass(frozen=True)
class _Source:
    """One place that lists values a schema enum lacks."""

    location: Location
    what: str  # "union", "table", or "inline schema"
    missing: tuple[str, ...]
    severity: Severity
    evidence: str
    field: str | None  # the field the prose names (none for an inline schema)
    turn: int  # when it was found: the prose sets in order, then the API documents
    values: tuple[str, ...] = ()  # every value the place lists: its column of the table
    # the line of each of ``values`` (a table's row, a list's item: ProseSet.value_lines); empty
    # when they are all on the location's line
    lines: tuple[int, ...] = ()


@dataclass(frozen=True, eq=False)
class _Block:
    """Members of one group of alike enums (``EnumGroup``) whose descriptions exclude the same
    values: a place finds each of them lacking the same values. An inline projection also needs
    the object holding the enum to have its properties (``properties``)."""

    members: tuple[tuple[int, Site, ValueSet], ...]
    sentences: tuple[str, ...]  # the sentences of their descriptions that exclude values
    properties: frozenset[str] | None = None

    def explains(self, value: str) -> bool:
        """The schema's own description names the value as left out: a deliberate
        difference, not drift."""
        return any(f"`{value}`" in sentence for sentence in self.sentences)

    @functools.cached_property
    def files(self) -> str:
        """Its schema files, as a projection's evidence names them: "`a.json`'s", or "`a.json`'s
        and 2 other schemas'"."""
        first = self.members[0][1].document.path
        others = len({site.document.path for _, site, _ in self.members}) - 1
        return f"`{first}`'s" + (
            f" and {others} other schema{'s' if others > 1 else ''}'" if others else ""
        )


class _Blocks:
    """Each group's blocks, made once per group (groups are compared by identity)."""

    def __init__(self) -> None:
        self._made: dict[tuple[int, bool], tuple[EnumGroup, list[_Block]]] = {}
        self._enums: dict[
            int, tuple[EnumGroup, list[tuple[Location, tuple[str, str], Site, ValueSet]]]
        ] = {}

    def of(self, group: EnumGroup, projected: bool = False) -> list[_Block]:
        made = self._made.get((id(group), projected))
        if made is None:
            alike: dict[tuple[Any, ...], list[tuple[int, Site, ValueSet]]] = {}
            for order, site, values in group.members:
                parent = resolve(site.document, site.pointer.rsplit("/properties/", 1)[0])
                key: tuple[Any, ...] = (_exclusions(site, values, parent),)
                if projected:
                    properties = parent.get("properties") if isinstance(parent, dict) else None
                    key += (frozenset(properties) if isinstance(properties, dict) else None,)
                alike.setdefault(key, []).append((order, site, values))
            made = self._made[id(group), projected] = (
                group,  # held, so that its id is not reused while the rule runs
                [_Block(tuple(members), *key) for key, members in alike.items()],
            )
        return made[1]

    def enums(self, group: EnumGroup) -> list[tuple[Location, tuple[str, str], Site, ValueSet]]:
        """The group's enums (a shared `$defs` enum once: by its holder), in reading order."""
        made = self._enums.get(id(group))
        if made is None:
            found: dict[tuple[str, str], tuple[Location, tuple[str, str], Site, ValueSet]] = {}
            for _, site, values in group.members:
                key = (values.holder.document.path, values.holder.pointer)
                if key not in found:
                    found[key] = (_place(values), key, site, values)
            made = self._enums[id(group)] = (group, sorted(found.values(), key=lambda e: e[0]))
        return made[1]


class _Kept:
    """Some places, in the order found: every one of them, the finding's members (a waiver may
    be at any of them), and the first ``RELATED_LIMIT``, what the finding shows of them. A place
    is added once: memory grows with the places."""

    def __init__(self) -> None:
        self.every: list[Any] = []

    def add(self, item: Any) -> None:
        self.every.append(item)

    @property
    def count(self) -> int:
        return len(self.every)

    @property
    def first(self) -> list[Any]:
        return self.every[:RELATED_LIMIT]


@dataclass
class _Lacks:
    """What the places that find a block's enums lacking values say: the first
    ``RELATED_LIMIT`` of them, and of all of them what the message needs."""

    sources: list[_Source] = field(default_factory=list)
    count: int = 0
    values: dict[str, int] = field(default_factory=dict)  # value -> turn it was first listed
    severity: Severity = Severity.INFO
    evidence: set[str] = field(default_factory=set)
    prose: bool = False  # any is a prose place (else all are API documents' inline schemas)
    named: str | None = None  # the field the first place names
    more_evidence: bool = False  # more kinds of evidence than the first line could say
    heuristics: set[str] = field(default_factory=set)  # how its places were bound

    def add(self, source: Callable[[], _Source], missing: list[str], bound: _Bound) -> None:
        """A place listing ``missing``, which the block's enums lack; ``source`` makes what
        the finding shows of it, only if it is among the first (a place is noted once per
        block that lacks its values: 588,000 times for 280 pages and 2,100 distinct enums)."""
        turn, severity, evidence, named, what, heuristic = bound
        self.heuristics.add(heuristic)
        if not self.count:
            self.named = named
        self.count += 1
        if len(self.sources) < RELATED_LIMIT:
            self.sources.append(source())
        for value in missing:
            self.values.setdefault(value, turn)
        self.severity = max(self.severity, severity)
        if len(self.evidence) < EVIDENCE_SHOWN:
            self.evidence.add(evidence)
        elif evidence not in self.evidence:
            self.more_evidence = True
        self.prose = self.prose or what != "inline schema"


# Kinds of evidence a message's binding tag names at most: more do not fit its first line.
EVIDENCE_SHOWN = 8
# (turn, severity, evidence, the field named, what lists the values, the heuristic that bound
# it) of a place noted
_Bound = tuple[int, Severity, str, str | None, str, str]


class _Unlisted:
    """Alike lists that leave out values the enums they are bound to allow: every list (the
    finding's members; the first ``RELATED_LIMIT`` shown) and what the enums allow, read once,
    from the first list's bindings (every list of the key has the same)."""

    def __init__(
        self, disagreeing: list[tuple[GroupBinding, list[str]]], blocks: _Blocks, prose: ProseSet
    ) -> None:
        self.places = _Kept()
        # every enum (a shared `$defs` enum once) in reading order, what it allows that the
        # lists leave out, and the evidence that bound it: the first of them kept
        merged = heapq.merge(
            *(_allowing(blocks, bound, allowed) for bound, allowed in disagreeing),
            key=lambda enum: enum[0],
        )
        seen: set[tuple[str, str]] = set()
        self.enums: list[tuple[Site, ValueSet, list[str], str]] = []
        for _, key, site, listed, allowed, evidence in merged:
            if key not in seen:
                seen.add(key)
                if len(self.enums) <= RELATED_LIMIT:
                    self.enums.append((site, listed, allowed, evidence))
        self.count = len(seen)
        values: dict[str, None] = {}
        for _, allowed in disagreeing:
            for value in allowed:
                values[value] = None
        self.values = list(values)
        self.evidence = "; ".join(sorted({bound.evidence for bound, _ in disagreeing}))
        self.severity = max(_severity(bound.confidence) for bound, _ in disagreeing)
        self.alike = len(disagreeing) == 1  # one group: the enums list the same values
        self.heuristic = _strongest({_heuristic(prose, bound.how) for bound, _ in disagreeing})


def _allowing(
    blocks: _Blocks, bound: GroupBinding, allowed: list[str]
) -> Iterator[tuple[Location, tuple[str, str], Site, ValueSet, list[str], str]]:
    """The enums of ``bound``'s group in reading order, each with what it allows that the list
    leaves out and the evidence that bound it."""
    for place, key, site, listed in blocks.enums(bound.group):
        yield place, key, site, listed, allowed, bound.evidence


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    binder = Binder(corpus)
    blocks = _Blocks()
    # Issue 44: a list that 280 pages repeat and that 2,100 schemas of one field disagree
    # with is one disagreement, not 588,000. Lists are compared with groups of alike enums
    # (``Binder.grouped``), and the places are gathered per disagreement, a bounded number of
    # each kept: never one entry per page and schema.
    lacking: dict[_Block, _Lacks] = {}
    unlisted: dict[tuple[Any, ...], _Unlisted] = {}
    turn = 0
    for prose in all_prose_sets(corpus):
        disagreeing: list[tuple[GroupBinding, list[str]]] = []
        grouped = binder.grouped(prose)
        variants = _variants(prose, grouped)
        for bound in grouped:
            listed = [as_written(v) for v in bound.group.values.values]
            for block in blocks.of(bound.group):
                prose_only = [
                    v
                    for v in prose.values
                    if v not in listed and v not in variants and not block.explains(v)
                ]
                if prose_only:
                    lack = lacking.get(block)
                    if lack is None:
                        lack = lacking[block] = _Lacks()
                    severity = _severity(bound.confidence)
                    lack.add(
                        functools.partial(
                            _prose_source, prose, prose_only, severity, bound.evidence, turn
                        ),
                        prose_only,
                        (
                            turn,
                            severity,
                            bound.evidence,
                            prose.field,
                            prose.form,
                            _heuristic(prose, bound.how),
                        ),
                    )
                    turn += 1
            # An empty string in an enum means "unset" (a chart's `mode: ""`): not a value
            # the prose leaves out.
            schema_only = [v for v in listed if v not in prose.values and v != ""]
            if schema_only and prose.complete and _whole(bound, listed, prose.values):
                disagreeing.append((bound, schema_only))
        if disagreeing:
            # Lists of the same values, in the same form, bound alike: one finding at the
            # first, whatever number of pages repeat it.
            key: tuple[Any, ...] = (
                prose.form,
                prose.field,
                prose.values,
                *(part for b, _ in disagreeing for part in (b.group, b.evidence, b.confidence)),
            )
            found = unlisted.get(key)
            if found is None:
                found = unlisted[key] = _Unlisted(disagreeing, blocks, prose)
            found.places.add(prose)
    for block, source, extra, noted in _projections(corpus, binder, blocks, turn):
        lacking.setdefault(block, _Lacks()).add(source, extra, noted)
    disagreements = list(_lacking(lacking))
    taken, alone = _both_ways(disagreements, list(unlisted.values()))
    for (enums, lacks), other_way in zip(disagreements, taken, strict=True):
        yield _missing_in_schema(enums, lacks, other_way)
    for found in alone:
        yield _missing_in_prose(found)


def _variants(prose: ProseSet, grouped: list[GroupBinding]) -> frozenset[str]:
    """The values of a list that enums of one field, each a variant's, share out between them:
    a message's `role` documented as `user`, `assistant`, `system` or `tool` where one schema's
    enum has the first three and another's (the tool message) the last. The list is their
    union, and no value of it is one the enums lack. Empty unless bound by name to two or more
    enums of disjoint values that together list exactly the list's values."""
    if len(grouped) < 2 or any(bound.how != "name" for bound in grouped):
        return frozenset()
    distinct = {frozenset(map(as_written, bound.group.values.values)) for bound in grouped}
    union = frozenset().union(*distinct)
    if (
        len(distinct) < 2
        or sum(map(len, distinct)) != len(union)
        or not union <= frozenset(prose.values)
        or 2 * len(union) < len(prose.values)
    ):
        return frozenset()
    return union


def _prose_source(
    prose: ProseSet, missing: list[str], severity: Severity, evidence: str, turn: int
) -> _Source:
    note = f"documents {_quote(missing, len(missing))} ({prose.form})"
    return _Source(
        prose.location(note=note),
        prose.form,
        tuple(missing),
        severity,
        evidence,
        prose.field,
        turn,
        prose.values,
        prose.value_lines,
    )


# (the enums of one disagreement, each with the field it is named by; the places finding them
# lacking values): a finding at the enums, made once it is known which lists leave values out
_Lacking = tuple[list[tuple[Site, ValueSet, str]], list[_Lacks]]


def _lacking(lacking: dict[_Block, _Lacks]) -> Iterator[_Lacking]:
    """One disagreement each: the schema enums (their holders: a shared ``$defs`` enum once) of
    the same values that the same places find lacking the same values."""
    blocks = list(lacking)
    # holder -> the blocks it is in, and the property and field the first of them names it by
    holders: dict[tuple[str, str], tuple[list[int], Site, ValueSet, str]] = {}
    for n, block in enumerate(blocks):
        for _, site, values in block.members:
            key = (values.holder.document.path, values.holder.pointer)
            entry = holders.get(key)
            if entry is None:
                holders[key] = ([n], site, values, _field(site, lacking[block].named))
            elif entry[0][-1] != n:
                entry[0].append(n)
    # Identical copies of one enum that comparisons keep apart (their values in another order,
    # one in an API document) and that the same places find lacking the same values are one
    # disagreement too: one finding, not one per copy (issue 45, item 7).
    alike: dict[tuple[Any, ...], tuple[list[_Lacks], list[tuple[Site, ValueSet, str]]]] = {}
    for indexes, site, values, named in holders.values():
        lacks = [lacking[blocks[n]] for n in indexes]
        said = tuple(
            sorted(
                (s.location.path, s.location.line, s.missing)
                for lack in lacks
                for s in lack.sources
            )
        )
        # The keyword too: an `enum` and a union of tags are fixed in different ways.
        copy = (
            values.keyword,
            frozenset(map(as_written, values.values)),
            said,
            sum(x.count for x in lacks),
        )
        alike.setdefault(copy, (lacks, []))[1].append((site, values, named))
    for lacks, enums in alike.values():
        yield enums, lacks


def _both_ways(
    disagreements: list[_Lacking], unlisted: list[_Unlisted]
) -> tuple[list[list[_Unlisted]], list[_Unlisted]]:
    """Which lists leaving out values of an enum are the other side of a disagreement at that
    enum (the same list documents values the enum lacks: a value renamed on one side): one
    drift, one finding at the enum (issue 48). For each disagreement the lists it takes, and
    the lists that are a disagreement of their own (reported at the prose)."""
    places: dict[tuple[tuple[str, str], Location], int] = {}
    for number, (enums, lacks) in enumerate(disagreements):
        for _, values, _ in enums:
            holder = (values.holder.document.path, values.holder.pointer)
            for lack in lacks:
                for source in lack.sources:
                    places.setdefault((holder, replace(source.location, note=None)), number)
    taken: list[list[_Unlisted]] = [[] for _ in disagreements]
    alone: list[_Unlisted] = []
    for found in unlisted:
        if not found.alike:
            # enums of different values (each its own disagreement at the enum): the list is
            # what to fix for all of them, and no one enum allows all it leaves out
            alone.append(found)
            continue
        holders = [(e[1].holder.document.path, e[1].holder.pointer) for e in found.enums]
        at = next(
            (
                places[holder, prose.location()]
                for prose in found.places.first
                for holder in holders
                if (holder, prose.location()) in places
            ),
            None,
        )
        if at is None:
            alone.append(found)
        else:
            taken[at].append(found)
    return taken, alone


def _projections(
    corpus: Context, binder: Binder, blocks: _Blocks, turn: int
) -> Iterator[tuple[_Block, Callable[[], _Source], list[str], _Bound]]:
    """Machine-to-machine drift: an inline object in an API document whose properties are a
    subset of a schema object's (a projection of that shape, like a cancel response carrying
    ``runId`` and ``status`` of the run snapshot) and whose enum lists values the schema's lacks."""
    made = corpus.provenance
    spaces: list[Namespaces] = []  # made on first need
    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        if document.path in made:
            # A tool's output, another project's copy, a bundle: it holds what it was made
            # from (another edition's own `Resource`, the general `Error` every contract
            # repeats), and the drift, if any, is judged on its sources (issue 45, item 3).
            continue
        for site in _inline_objects(document, document.data, ""):
            names = set(site.node["properties"])
            if len(names) < 2 or names <= _ANNOTATIONS:
                continue  # `title`, `description`, `type`: every definition object has them
            shape = f"`{document.path}#{site.pointer}` has properties {', '.join(sorted(names))}"
            # A named definition (`components/schemas/Error`) is its API's own entity, not an
            # anonymous projection: it is compared only with schemas of one specification with
            # its API (a reference ties them: ``speclint.analyses.schemas.namespaces``).
            named = _DEFINITION.search(site.pointer) is not None
            for name in sorted(names):
                own = value_set(
                    corpus,
                    Site(
                        document,
                        f"{site.pointer}/properties/{escape_token(name)}",
                        site.node["properties"][name],
                    ),
                )
                if own is None or own.holder.document is not document:
                    continue
                ours = [as_written(v) for v in own.values]
                # What a field name alone may bind, and no more: a shape says less than a
                # name, so a variant's one-value tag (`code: [forbidden]` of an error variant)
                # is no vocabulary a projection can find lacking (issue 45, item 7).
                for group in binder.by_name(name):
                    if group.site.document.kind is not DocumentKind.SCHEMA:
                        continue
                    if _OPERATION_PART.match(group.site.pointer):
                        # One operation's response (a shared file's `Generic400`, which each
                        # API's own 400 extends with its codes by design) is no vocabulary
                        # another operation's projects: only a schema definition is.
                        continue
                    listed = [as_written(v) for v in group.values.values]
                    if not set(ours) & set(listed):
                        continue
                    extra = [v for v in ours if v not in listed]
                    if not extra:
                        continue
                    for block in blocks.of(group, projected=True):
                        if block.properties is None or not names <= block.properties:
                            continue
                        if any(block.explains(v) for v in extra):
                            continue
                        if named:
                            if not spaces:
                                spaces.append(namespaces(corpus))
                            if not any(
                                spaces[0].one_specification(document.path, s.document.path)
                                for _, s, _ in block.members
                            ):
                                continue
                        # Bound by a shape that looks like a projection: inferred.
                        evidence = f"{shape}, all of {block.files}"
                        yield (
                            block,
                            functools.partial(
                                _inline_source, own.holder, extra, evidence, turn, tuple(ours)
                            ),
                            extra,
                            (turn, Severity.WARNING, evidence, None, "inline schema", PROJECTION),
                        )
                        turn += 1


def _inline_source(
    holder: Site, extra: list[str], evidence: str, turn: int, values: tuple[str, ...]
) -> _Source:
    note = f"lists {_quote(extra, len(extra))} (inline schema)"
    return _Source(
        holder.location(note=note),
        "inline schema",
        tuple(extra),
        Severity.WARNING,
        evidence,
        None,
        turn,
        values,
    )


def _inline_objects(document: Document, node: Any, pointer: str) -> Iterator[Site]:
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict) and "$ref" not in node:
            yield Site(document, pointer, node)
        for key, child in node.items():
            if key not in {"enum", "const", "example", "examples", "default"}:
                yield from _inline_objects(document, child, join_pointer(pointer, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _inline_objects(document, child, join_pointer(pointer, index))


def _whole(bound: GroupBinding, listed: list[str], prose: tuple[str, ...]) -> bool:
    """Whether the prose can be read as the field's whole vocabulary: bound for certain, or
    listing at least half the schema's values. A table of two methods on a feature's page,
    bound by the name `method` to the union of every method, documents that feature."""
    return bound.confidence == "high" or 2 * len(set(listed) & set(prose)) >= len(listed)


# Where an API document names a definition of its own: OpenAPI 3 components, Swagger 2.0
# definitions, a JSON Schema's `$defs` (AsyncAPI's components are under `components/schemas` too).
_DEFINITION = re.compile(r"^/(?:components/schemas|definitions)/[^/]+$|/\$defs/[^/]+$")

# Where a document holds an operation's own parts (OpenAPI paths, responses, request bodies;
# AsyncAPI channels, operations, messages), not a schema definition.
_OPERATION_PART = re.compile(
    r"^/(?:paths|channels|operations|components/(?:responses|requestBodies|parameters|headers"
    r"|messages|callbacks|pathItems))/"
)

# Property names every schema-like object has: a shape sharing only these is no projection.
_ANNOTATIONS = frozenset({"title", "description", "type", "name", "summary", "format", "default"})


def _exclusions(site: Site, values: ValueSet, parent: Any) -> tuple[str, ...]:
    """The sentences of the schema's own descriptions (of the property, its values, or the
    object holding it) that say values are left out ("`card` is excluded here")."""
    found = []
    for node in (site.node, values.holder.node, parent):
        description = node.get("description") if isinstance(node, dict) else None
        if not isinstance(description, str):
            continue
        for sentence in re.split(r"(?<=[.;])\s+", description):
            if _EXCLUSION.search(sentence):
                found.append(sentence)
    return tuple(found)


def _severity(confidence: str) -> Severity:
    """An error when a binding is certain (configured, or the text names the schema), a
    warning when it is inferred from a field name and overlapping values: the finding is only
    as sure as the binding it rests on (issue 26)."""
    return SEVERITY if confidence == "high" else Severity.WARNING


def _field(site: Site, named: str | None) -> str:
    """The property the values are of: the last token of its pointer, or for a union of
    one-value branches (a site that is no property) the field the prose names."""
    head, _, name = site.pointer.rpartition("/")
    if head.endswith("/properties") or head == "/properties":
        return name
    return named or name


def _place(values: ValueSet) -> Location:
    return values.holder.at(values.keyword)


def _quote(values: list[str], shown: int = 8) -> str:
    text = ", ".join(f"`{v}`" for v in values[:shown])
    return text + (f" and {len(values) - shown} more" if len(values) > shown else "")


def _brief(evidence: str) -> str:
    """The evidence without its target: "[bindings] `page.md#a`" for a configured binding."""
    return evidence.split(" = ")[0].split(" and the field")[0]


def _them(values: list[str]) -> str:
    return "it" if len(values) == 1 else "them"


def _missing_in_schema(
    enums: list[tuple[Site, ValueSet, str]],
    lacks: list[_Lacks],
    other_way: Sequence[_Unlisted] = (),
) -> Finding:
    """``enums`` lack what the places of ``lacks`` list: at the first of them, the others and
    the places related. ``other_way``: lists that leave out values of these enums and are among
    those places (the drift goes both ways: one finding, the lists related and its members)."""
    enums = sorted(enums, key=lambda enum: _place(enum[1]))
    site, first, name = enums[0]
    turns: dict[str, int] = {}
    for lack in lacks:
        for value, turn in lack.values.items():
            turns[value] = min(turn, turns.get(value, turn))
    values = sorted(turns, key=lambda value: turns[value])
    sources = list(heapq.merge(*(lack.sources for lack in lacks), key=lambda s: s.turn))
    count = sum(lack.count for lack in lacks)
    holder = first.holder
    keyword = first.keyword
    closed = " (its closed part)" if first.open else ""
    path = site.document.path
    side = "the prose documents" if any(lack.prose for lack in lacks) else "an API document lists"
    evidences = set().union(*(lack.evidence for lack in lacks))
    evidences |= {found.evidence for found in other_way}
    evidence = "; ".join(sorted(evidences))
    places = f"{count} place{'s' if count > 1 else ''}"
    them = _them(values)
    # The other way (issue 48): values the enum allows that lists among these places leave out.
    allowed = list(dict.fromkeys(value for found in other_way for value in found.values))
    leaving = sum(found.places.count for found in other_way)
    also: tuple[str, ...] = ("",)
    mend: tuple[str, ...] = ("",)
    if allowed:
        lists = f"{leaving} list{'s' if leaving > 1 else ''}"
        also = tuple(
            f", and allows {_quote(allowed, shown)}, which the prose leaves out ({lists})"
            for shown in (8, 3, 1)
        )
        it = _them(allowed)
        mend = (f"; document {it} in the prose, or remove {it} from the enum{closed}",)
    fixes: tuple[str, ...]
    if len(enums) == 1:
        where = ""
        fixes = (
            f"add {them} to the enum{closed} at `{holder.pointer}/{keyword}`, or remove {them} "
            "from the other side",
            f"add {them} to the enum{closed}, or remove {them} from the other side",
        )
        ofs: tuple[str, ...] = (f" of `{path}`", "")
    else:
        where = f", in {len(enums)} enums of the same values"
        fixes = (
            f"add {them} to each{closed}, or remove {them} from the other side",
            f"add {them} to each{closed}",
        )
        one_file = all(other.document.path == path for other, _, _ in enums)
        ofs = (f" of `{path}`", "") if one_file else ("",)
    # Every place, what it documents and the binding's evidence are on the related locations;
    # the first line says as much of it as fits (issue 26), the evidence before the pointer.
    leaves = {prose.location(): found for found in other_way for prose in found.places.first}
    documenting = [
        replace(
            _at_values(s.location, s.missing, s.values, s.lines),
            note=f"{s.location.note}{_leaves_out(leaves.get(s.location))}; bound by: {s.evidence}",
        )
        for s in sources[:RELATED_LIMIT]
    ]
    # a list that leaves values out and documents none the enum lacks (another page of it)
    shown = {s.location for s in sources[:RELATED_LIMIT]}
    leaving_only = [
        place.location(note=f"lists {len(place.values)} values{_leaves_out(found)}")
        for place, found in ((p, f) for f in other_way for p in f.places.first)
        if place.location() not in shown
    ]
    related, unlisted = bounded_related(
        (documenting + leaving_only, count + len(leaving_only)),
        (
            [
                replace(_place(other), note=f"an enum of the same values, which lacks {them} too")
                for _, other, _ in enums[1 : RELATED_LIMIT + 1]
            ],
            len(enums) - 1,
        ),
        room=RELATED_LIMIT,
    )
    tags: tuple[str, ...] = (f" [binding: {evidence}]", f" [binding: {_brief(evidence)}]", "")
    if len(evidences) > EVIDENCE_SHOWN or any(lack.more_evidence for lack in lacks):
        tags = ("",)  # the evidence of each place is on its related location
    candidates = [
        f"`{name}`{of} lacks {_quote(values, shown)}, which {side} ({places}){where}{more}: "
        f"{fix}{mend[0]}{tag}"
        for shown, tiers in ((8, tags[:1]), (4, tags), (3, tags), (1, tags))
        for more in also
        for tag in tiers
        for of in ofs
        for fix in fixes
    ]
    # every enum, each with the key of its own finding: a waiver at one covers that one; and
    # every list the other way, with the key of the finding it has alone (at the prose)
    members = [
        Member(
            replace(_place(listed), note=f"an enum of the same values, which lacks {them} too"),
            f"schema:{listed.holder.pointer}",
        )
        for _, listed, _ in enums
    ]
    for found in other_way:
        bound = found.enums[0][1].holder
        members.extend(
            Member(
                prose.location(note=f"lists {len(prose.values)} values{_leaves_out(found)}"),
                f"prose:{prose.line}:{bound.document.path}{bound.pointer}",
            )
            for prose in found.places.every
        )
    columns = [(s.location, s.values, s.lines) for s in sources]
    columns += [
        (prose.location(), prose.values, prose.value_lines)
        for f in other_way
        for prose in f.places.first
    ]
    return Finding(
        ID,
        max([lack.severity for lack in lacks] + [found.severity for found in other_way]),
        first_fitting(*candidates) + left_out(len(related), unlisted),
        holder.at(keyword),
        related=related,
        key=f"schema:{holder.pointer}",
        heuristic=_strongest(
            set().union(*(lack.heuristics for lack in lacks))
            | {found.heuristic for found in other_way if found.heuristic}
        ),
        members=tuple(members) if len(members) > 1 else (),
        table=_table(values + allowed, _place(first), first, columns),
    )


def _leaves_out(found: _Unlisted | None) -> str:
    """What a related prose place's note adds when the list there leaves out enum values."""
    return "" if found is None else f", leaving out {_quote(found.values, len(found.values))}"


# Prose places a drift's table has a column for; the related locations list the rest.
TABLE_PLACES = 8


def _at_values(
    location: Location, values: Sequence[str], listed: tuple[str, ...], lines: tuple[int, ...]
) -> Location:
    """``location``, a prose place at its list's first line, moved to the lines of ``values``
    (the rows or items that list them, ``lines`` being the line of each of ``listed``), so that
    an excerpt of it centres on the row in question (issue 48, item 4): its first line, and the
    last as its end when they are several. As it is when the place records no lines."""
    if len(lines) != len(listed):
        return location
    at = sorted({lines[listed.index(value)] for value in values if value in listed})
    if not at or at == [location.line]:
        return location
    return replace(location, line=at[0], end_line=at[-1] if at[-1] > at[0] else None)


def _table(
    values: list[str],
    enum_place: Location,
    enum: ValueSet,
    places: list[tuple[Location, tuple[str, ...], tuple[int, ...]]],
) -> Table:
    """The value x side table of a drift (issue 48): a row for each value it is about, whether
    the enum and each place (the first :data:`TABLE_PLACES`, each once) list it; a place that
    lists a value on a line of its own (a table's row, a list's item) says which, the column
    being headed by the place's first line (issue 48, item 4)."""
    columns: dict[Location, tuple[tuple[str, ...], tuple[int, ...]]] = {}
    for location, listed, lines in places:
        if len(columns) < TABLE_PLACES:
            columns.setdefault(replace(location, note=None), (listed, lines))
    allowed = {as_written(v) for v in enum.values}
    return presence_table(
        values,
        [
            (f"{enum_place.path}#{enum.holder.pointer}", allowed),
            *((f"{place.path}:{place.line}", listed) for place, (listed, _) in columns.items()),
        ],
        [
            {},
            *(
                {
                    value: line
                    for value in values
                    if value in listed
                    and (line := _at_values(place, [value], listed, lines).line) != place.line
                }
                for place, (listed, lines) in columns.items()
            ),
        ],
    )


def _missing_in_prose(found: _Unlisted) -> Finding:
    """Alike lists that leave out values of the enums they are bound to: at the first list,
    the other lists and every enum related."""
    places = found.places.first
    prose = places[0]
    site, first, allowed, bound_by = found.enums[0]
    holder = first.holder
    path = site.document.path
    name = _field(site, prose.field)
    values = found.values
    them = _them(values)
    others = found.count - 1
    same = " of the same values" if found.alike else ""
    if others:
        wheres = (
            f"`{path}` and {others} other enum{'s' if others > 1 else ''}{same} also allow",
            f"{others + 1} enums{same} also allow",
        )
        fix = f"document {them} here, or remove {them} from the schemas"
    else:
        wheres = (f"`{path}` also allows", "the schema also allows")
        fix = f"document {them} here, or remove {them} from the schema"
    also = found.places.count - 1
    head = f"this {prose.form} lists {len(prose.values)} values of `{name}`"
    if also:
        head += f" (so do {also} other place{'s' if also > 1 else ''})"
    evidence = found.evidence
    tags = (f" [binding: {evidence}]", f" [binding: {_brief(evidence)}]", "")
    candidates = [
        f"{head}, but {where} {_quote(values, shown)}: {fix}{tag}"
        for shown, tiers in ((8, tags[:1]), (4, tags), (3, tags), (1, tags))
        for tag in tiers
        for where in wheres
    ]
    enum_note = (
        f"the schema enum, which also allows {_quote(allowed, len(allowed))}; bound by: {bound_by}"
    )
    rest, unlisted = bounded_related(
        (
            [
                place.location(note=f"lists the same {len(prose.values)} values")
                for place in places[1:]
            ],
            found.places.count - 1,
        ),
        (
            [
                replace(
                    _place(listed),
                    note=(
                        f"an enum{same or ' bound too'}, which also allows "
                        f"{_quote(allowed, len(allowed))}"
                        + ("" if same else f"; bound by: {bound_by}")
                    ),
                )
                for _, listed, allowed, bound_by in found.enums[1:]
            ],
            others,
        ),
        room=RELATED_LIMIT - 1,  # the first enum is always related
    )
    related = (
        holder.document.location(f"{holder.pointer}/{first.keyword}", note=enum_note),
        *rest,
    )
    return Finding(
        ID,
        found.severity,
        first_fitting(*candidates) + left_out(len(related), unlisted),
        prose.location(),
        related=related,
        key=f"prose:{prose.line}:{holder.document.path}{holder.pointer}",
        heuristic=found.heuristic,
        table=_table(
            values,
            _place(first),
            first,
            [(place.location(), place.values, place.value_lines) for place in places],
        ),
        # every list, each with the key of its own finding: a waiver at one covers that one
        members=tuple(
            Member(
                place.location(note=f"lists the same {len(prose.values)} values"),
                f"prose:{place.line}:{holder.document.path}{holder.pointer}",
            )
            for place in found.places.every
        )
        if found.places.count > 1
        else (),
    )
