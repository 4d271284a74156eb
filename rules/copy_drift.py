"""Definitions of one shape that disagree: a schema, its inline copies, and the field lists prose gives for it.

What it does
    Groups the definitions of one shape and reports those that disagree (required members,
    properties, types, enums, closure): a schema-file definition, its inline copies in API
    documents (``inline-copy``), a same-named definition in another file of the same
    specification, and a "minimum compliant payload" field list that prose or a comment in an
    API document states for it (read as its ``required``).

    Definitions are paired on evidence, never on a name alone: a ``$ref`` that ties their files,
    one ``$id`` base (one folder, for schemas without ``$id``), or API documents of one
    ``info.title`` in one folder; within one version line. Bundles, generated files and copies
    are left to their sources. Spellings that say the same are no drift: a ``$ref`` where the
    other inlines its target, an ``allOf`` written out, ``enum: [x]`` for ``const: x``, OpenAPI
    3.0's ``nullable``, a strict or lax edition's loosening.

    One finding per definition, every copy related: at the inline copy (the one to delete), else at
    the definition's ``required``, with a property x copy table. A warning: the pairing is inferred,
    by the heuristic the finding names: ``reference``, ``namespace``, ``inline-copy``,
    ``payload-list``.

Why is this bad?
    RFC 0094 §D: ``ai.message.chunk`` had three definitions. The schema required ``[nodeId,
    chunk]``, the AsyncAPI copy and stream-modes.md said ``{nodeId, runId, chunk, isLast}``: hosts
    validated against one and SDKs were generated from another.

Example
    ::

        # schemas/run-event-payloads.schema.json#/$defs/outputChunk
        "required": ["nodeId", "chunk"]

        <!-- spec/stream-modes.md, in the section that names that schema -->
        The minimum compliant payload is `{nodeId, runId, chunk, isLast}`.

    FAIL: ``warning [copy-drift] 2 definitions of `outputChunk` disagree: `runId`, `isLast` are
    required by spec/stream-modes.md:9 but not by the schema ...``

Use instead
    One definition (``"required": ["nodeId", "runId", "chunk", "isLast"]``) that the prose
    agrees with, and ``$ref``\\s instead of copies. PASS.

Options
    ``similarity`` (default 0.8): as for ``inline-copy``.

Limitations
    Not paired: two release channels of one API (``openapi.json``, ``openapi_preview.json``),
    two generated files or one and its input, a schema in a folder of proposals or design
    records, two schemas a schema catalog lists (unless one references the other).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.repository.provenance import rendered_together
from speclint.analyses.schemas.fingerprints import (
    STRUCTURAL,
    Equivalence,
    Shape,
    all_shapes,
    definition_name,
    differences,
    inline_copies,
    page_payload_lists,
    payload_claims,
    property_similarity,
    shape_of,
    superseded,
)
from speclint.analyses.schemas.namespaces import namespaces
from speclint.analyses.schemas.schema_catalogs import schema_catalogs
from speclint.common.findings import (
    Finding,
    Location,
    Severity,
    Table,
    first_fitting,
    json_value,
    terminal_form,
)
from speclint.common.unions import DisjointSets
from speclint.parsing.kinds import in_design_folder
from speclint.parsing.structured import join_pointer

ID = "copy-drift"
# The copies are found by name, by similar properties or by a section that names the schema:
# inferred, so a warning (issue 26: severity follows the evidence).
SEVERITY = Severity.WARNING
FACTS = ("derived", "references", "provenance")  # speclint.analyses.context
# Reads the schemas, and of the prose only its minimum-payload lists (speclint.analyses.units).
READS = "extract"
extract = page_payload_lists
# Variant files with this many disagreeing definitions, a third of those they share or more,
# are editions that differ by design.
PERVASIVE = 5
SHOWN = 3  # differences in the message; the rest are on the related locations
# How a copy was paired with its definition, strongest first (issue 45: each measured, and held
# back outside preview mode, on its own): the same name in files a `$ref` ties (one references
# or derives from the other, or one document references both), the same name in one namespace
# (base URI, folder, API title), an API document's inline copy by its properties, a prose or
# comment field list bound to the schema.
HEURISTICS = tuple(
    f"{ID}/{name}" for name in ("reference", "namespace", "inline-copy", "payload-list")
)
# What a variant file may differ in by design (``differences``' words for it).
_RELAXATIONS = (
    "properties only in",
    "`additionalProperties`: false vs null",
    "`additionalProperties`: null vs false",
    "`unevaluatedProperties`: false vs null",
    "`unevaluatedProperties`: null vs false",
)


@dataclass(frozen=True)
class _Member:
    label: str
    location: Location
    required: frozenset[str]
    shape: Shape | None  # None for a field list in prose or a comment
    heuristic: str  # how it was paired with the definition (HEURISTICS)
    relaxed: bool = False  # a definition of a variant file: only a changed shared member counts


@dataclass(frozen=True)
class _Paired:
    """A definition paired with another of the same name or title, as its pairs so far say."""

    shape: Shape
    word: str  # "name" or "title": what it shares with the first definition it was paired with
    relaxed: bool  # a variant file's (``same_name_pairs``) for one of its pairs at least
    heuristics: frozenset[str]  # how each of its pairs was made (HEURISTICS)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    # A proposal's or a design record's schemas are drafts of a change under discussion: not
    # copies to keep in step with the contract (as fence-invalid reads their examples).
    # An earlier release of an API document (``superseded``) is history, not a copy either.
    history = superseded(corpus)
    shapes = [
        s
        for s in all_shapes(corpus)
        if not in_design_folder(s.site.document.path) and s.site.document.path not in history
    ]
    equivalence = Equivalence.of(shapes)
    groups: dict[tuple[str, str], tuple[Shape, list[_Member]]] = {}

    def group(original: Shape) -> list[_Member]:
        key = (original.site.document.path, original.site.pointer)
        return groups.setdefault(key, (original, []))[1]

    # An inline copy's label -> the definition it copies: a same-named definition of either
    # joins that group, so one disagreement is one finding.
    copied_from: dict[str, Shape] = {}
    made = corpus.provenance

    for found in inline_copies(corpus, shapes, float(options.get("similarity", 0.8))):
        copy = found.copy
        if rendered_together(made, copy.site.document.path, found.original.site.document.path):
            continue
        copied_from[copy.label] = found.original
        if found.exact:
            continue  # the same shape: a copy (inline-copy), not yet a disagreeing one
        group(found.original).append(
            _Member(
                f"the inline copy in {copy.site.document.path}",
                copy.site.location(note="an inline copy"),
                copy.required,
                copy,
                heuristic=f"{ID}/inline-copy",
            )
        )
    for claim in payload_claims(corpus):
        original = shape_of(corpus, claim.target)
        group(original).append(
            _Member(
                f"{claim.path}:{claim.line}",
                Location(
                    claim.path,
                    claim.line,
                    1,
                    note=f"says the minimum payload is {{{', '.join(claim.fields)}}}",
                ),
                frozenset(claim.fields),
                None,
                heuristic=f"{ID}/payload-list",
            )
        )
    catalogs = schema_catalogs(corpus)
    # A name alone pairs each API's own `User` (issue 45, item 7): same-named definitions are
    # compared only in files a reference or a namespace ties together.
    spaces = namespaces(corpus)

    def one_specification(first: str, second: str) -> bool:
        return (
            corpus.versions.same_line(first, second)
            and catalogs.one_specification(first, second)
            and spaces.one_specification(first, second)
        )

    # One definition drifting across N files is one finding (issue 26: a group and then its
    # pairs again was one drift reported three times): the pairs are joined into sets of
    # definitions linked by a disagreement, each set one group.
    linking = DisjointSets()
    paired: dict[str, _Paired] = {}  # by the definition's label
    for first, second, variant in same_name_pairs(shapes, one_specification, equivalence):
        word = "name" if _name(first) and _name(first) == _name(second) else "title"
        if rendered_together(made, first.site.document.path, second.site.document.path):
            continue
        if _composed_variant(first, second) or _composed_variant(second, first):
            continue
        tie = spaces.tie(first.site.document.path, second.site.document.path)
        if word == "title" and tie != "reference":
            # A shared `title` alone is no evidence (a designed subset titled as its whole,
            # beside it in one folder): only a `$ref` between the files pairs them.
            continue
        for shape in (first, second):
            held = paired.get(shape.label)
            paired[shape.label] = (
                _Paired(shape, word, variant, frozenset({f"{ID}/{tie}"}))
                if held is None
                else _Paired(
                    shape, held.word, held.relaxed or variant, held.heuristics | {f"{ID}/{tie}"}
                )
            )
        linking.union(first.label, second.label)
    linked: dict[str, list[str]] = {}
    for label in sorted(paired):
        linked.setdefault(linking.find(label), []).append(label)

    def member(label: str) -> _Member:
        record = paired[label]
        shape, word = record.shape, record.word
        return _Member(
            f"`{shape.label}` (same {word})",
            shape.site.location(note=f"a definition with the same {word}"),
            shape.required,
            shape,
            heuristic=min(record.heuristics, key=HEURISTICS.index),
            relaxed=record.relaxed,
        )

    for labels in linked.values():
        joined = next((copied_from[label] for label in labels if label in copied_from), None)
        if joined is not None:
            # An inline copy's original already has a group: the definitions of that name
            # join it.
            for label in labels:
                if (
                    label not in copied_from
                    and label != joined.label
                    and not equivalence.shapes(joined, paired[label].shape)
                ):
                    group(joined).append(member(label))
            continue
        root, *rest = labels
        group(paired[root].shape).extend(member(label) for label in rest)
    for _, (original, members) in sorted(groups.items()):
        finding = _drift(original, members, equivalence)
        if finding is not None:
            yield finding


def same_name_pairs(
    shapes: list[Shape],
    comparable: Callable[[str, str], bool] = lambda a, b: True,
    equivalence: Equivalence | None = None,
) -> list[tuple[Shape, Shape, bool]]:
    """Object shapes in different files with the same ``$defs``/component name or ``title``, most
    of the same properties, that say different things: one shape defined twice, now different.
    The flag says the two files are variants (``loosened_variants``): only a changed member
    both declare is drift.

    Only definitions have names: an inline schema (a request body, a message payload) sits under
    a key of the document format (``schema``, ``payload``), and its ``title`` names it for code
    generators of that one API, not as a shape other documents share. Files of different
    versions (``comparable`` says no) are history, not copies; two copies that ``Equivalence``
    finds the same are not drift."""
    same = equivalence or Equivalence.of(shapes)
    by_name: dict[str, list[Shape]] = {}
    for shape in shapes:
        if len(shape.properties) < 2 or definition_name(shape.site) is None:
            continue
        node = shape.site.node
        names = {_name(shape)} if shape.site.pointer else set()
        if isinstance(node.get("title"), str):
            names.add(node["title"].lower())
        for name in names - STRUCTURAL:
            by_name.setdefault(name, []).append(shape)
    pairs: dict[tuple[str, str], tuple[Shape, Shape]] = {}
    for group in by_name.values():
        ordered = sorted(group, key=lambda s: s.label)
        for index, first in enumerate(ordered):
            for second in ordered[index + 1 :]:
                if (
                    first.site.document.path != second.site.document.path
                    and comparable(first.site.document.path, second.site.document.path)
                    and first.digest != second.digest
                    and property_similarity(first, second) >= 0.5
                    and not same.shapes(first, second)
                ):
                    pairs.setdefault((first.label, second.label), (first, second))
    found = [pairs[key] for key in sorted(pairs)]
    loosened = loosened_variants(found, same)
    result: list[tuple[Shape, Shape, bool]] = []
    for first, second in found:
        looser = loosened.get(_pair(first, second))
        if looser is None:
            result.append((first, second, False))
            continue
        if not looser:
            continue  # editions that differ throughout
        stricter, loose = (second, first) if first.site.document.path == looser else (first, second)
        if not same.relaxes(stricter, loose, additions=True):
            result.append((first, second, True))
    return result


def loosened_variants(
    pairs: list[tuple[Shape, Shape]], same: Equivalence
) -> dict[tuple[str, str], str]:
    """Pairs of files that are editions of one schema, one the other loosened, with the looser
    file: most of their definitions share names (a strict and a lax edition, a Thing Model and
    the Thing Description schema it relaxes), and where one of their definitions only loosens
    the other's, it is always the same file that loosens (fewer ``required``, an open shape, a
    dropped type, members of its own). Two files that each only add members (sibling schemas
    kept in sync by hand, one of which gained an option) are not a loosened edition. Variant
    files that disagree on most of what they share (``PERVASIVE``) are editions that differ by
    design: the looser file is then "" (nothing between them is reported)."""
    names: dict[str, set[str]] = {}
    by_files: dict[tuple[str, str], list[tuple[Shape, Shape]]] = {}
    for first, second in pairs:
        by_files.setdefault(_pair(first, second), []).append((first, second))
    result: dict[tuple[str, str], str] = {}
    for files, members in sorted(by_files.items()):
        for path in files:
            if path not in names:
                document = members[0][0].site.document
                if document.path != path:
                    document = members[0][1].site.document
                names[path] = _definition_names(document.data)
        shared = names[files[0]] & names[files[1]]
        if len(shared) < 3 or len(shared) < 0.6 * len(names[files[0]] | names[files[1]]):
            continue
        if len(members) >= PERVASIVE and 3 * len(members) >= len(shared):
            # Most of what they share disagrees: two editions that differ by design (a model
            # schema that admits placeholders everywhere), not one copy that drifted.
            result[files] = ""
            continue
        looser: set[str] = set()
        for first, second in members:
            one_way = same.relaxes(first, second, additions=True)
            other_way = same.relaxes(second, first, additions=True)
            if one_way != other_way:  # both ways: members added on each side, not a loosening
                looser.add(second.site.document.path if one_way else first.site.document.path)
        if len(looser) == 1:
            result[files] = looser.pop()
    return result


def _definition_names(data: Any) -> set[str]:
    names: set[str] = set()
    if isinstance(data, dict):
        for key in ("$defs", "definitions"):
            if isinstance(data.get(key), dict):
                names |= set(data[key])
        components = data.get("components")
        if isinstance(components, dict) and isinstance(components.get("schemas"), dict):
            names |= set(components["schemas"])
    return names


def _composed_variant(variant: Shape, base: Shape) -> bool:
    """Whether ``variant`` is made from parts of ``base``'s file that ``base`` itself does not
    use: a request profile's `resource` built on the response schema's
    `relationshipsFromRequest` where the response's `resource` uses `relationships`. Its author
    chose other definitions of that file: a variant for another purpose, not a drifted copy."""
    home = base.site.document.path
    if variant.site.document.path == home:
        return False
    inside = base.site.pointer + "/"
    theirs = {
        pointer
        for path, _, pointer in (r.partition("#") for r in _references(variant.normal))
        # A part of the base itself (`deal.json#/properties/price`) is the base's, not another.
        if path == home and not (pointer + "/").startswith(inside)
    }
    return bool(theirs - {r.partition("#")[2] for r in _references(base.normal)})


def _references(node: Any) -> set[str]:
    """The ``$ref`` targets a normalised schema names (``path#pointer`` labels)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        here = stack.pop()
        if isinstance(here, dict):
            reference = here.get("$ref")
            if isinstance(reference, str):
                found.add(reference)
            stack.extend(here.values())
        elif isinstance(here, list):
            stack.extend(here)
    return found


def _name(shape: Shape) -> str:
    return shape.site.pointer.rsplit("/", 1)[-1].lower() if shape.site.pointer else ""


def _pair(first: Shape, second: Shape) -> tuple[str, str]:
    a, b = first.site.document.path, second.site.document.path
    return (a, b) if a <= b else (b, a)


def _agreeing(
    equivalence: Equivalence, homes: tuple[str, str], loose: bool
) -> Callable[[Any, Any], bool]:
    """When two members agree: the same, or for a variant file's, one loosening the other."""

    def agree(left: Any, right: Any) -> bool:
        return equivalence.same(left, right, *homes) or (
            loose
            and (
                equivalence.same(left, right, *homes, mode=2)
                or equivalence.same(right, left, homes[1], homes[0], mode=2)
            )
        )

    return agree


def _drift(original: Shape, members: list[_Member], equivalence: Equivalence) -> Finding | None:
    name = original.site.pointer.rsplit("/", 1)[-1] or original.site.document.path
    lines: list[str] = []
    # A variant file may require less by design: its `required` is not compared.
    strict = [m for m in members if not m.relaxed]
    fields = sorted(set().union(original.required, *(m.required for m in strict)))
    # Located at a copy, the first line names the file the copy differs from ("the schema"
    # there would be the located file to a reader).
    schema = (
        f"`{original.site.document.path}`"
        if any(m.shape is not None for m in members)
        else "the schema"
    )
    for field in fields:
        requiring = ([schema] if field in original.required else []) + [
            m.label for m in strict if field in m.required
        ]
        not_requiring = ([schema] if field not in original.required else []) + [
            m.label for m in strict if field not in m.required
        ]
        if requiring and not_requiring:
            declared = (
                "" if field in original.properties else f" ({schema} does not even declare it)"
            )
            # A copy without the property at all is not one that leaves it optional: say so.
            absent = [
                m.label
                for m in strict
                if m.shape is not None
                and field not in m.required
                and field not in m.shape.properties
            ]
            optional = [label for label in not_requiring if label not in absent]
            said = f"`{field}` is required by {', '.join(requiring)}"
            if optional:
                said += f" but not by {', '.join(optional)}{declared}"
            if absent:
                said += f"{' and' if optional else ' but'} absent from {', '.join(absent)}"
            lines.append(said)
    notes: dict[int, str] = {}
    shape_lines: list[str] = []
    # The finding is located at the first copy: its line names the definition it differs from.
    located = next((i for i, m in enumerate(members) if m.shape is not None), None)
    for index, member in enumerate(members):
        if member.shape is not None and member.shape.digest != original.digest:
            homes = (original.site.document.path, member.shape.site.document.path)
            rest = [
                d
                for d in differences(
                    original,
                    member.shape,
                    _agreeing(equivalence, homes, member.relaxed),
                )
                if not d.startswith("`required`")
                and not (member.relaxed and d.startswith(_RELAXATIONS))
            ]
            if rest:
                label = member.label
                if index == located and label.endswith(("(same name)", "(same title)")):
                    label = f"`{original.label}` ({label.rpartition(' (')[2]}"
                shape_lines.append(f"{label}: {rest[0]}")
                notes[index] = "; ".join(rest[:4]) + (
                    f" (and {len(rest) - 4} more)" if len(rest) > 4 else ""
                )
    # The `required` disagreements first: they are the drift RFC 0094 §D is about.
    lines += shape_lines
    if not lines:
        return None
    # One line a reviewer reads (issue 14, item 8): the first difference here, each copy's
    # differences on its related location.
    members = [
        replace(
            m,
            location=replace(m.location, note=f"{m.location.note}: {notes[i]}"),
        )
        if i in notes
        else m
        for i, m in enumerate(members)
    ]
    copies = [m for m in members if m.shape is not None]
    site = copies[0].shape.site if copies and copies[0].shape else original.site
    at = (
        site.location()
        if copies
        else original.site.document.location(
            join_pointer(original.site.pointer, "required")
            if original.required
            else original.site.pointer
        )
    )
    related = [original.site.location(note="the schema definition")] if copies else []
    related += [m.location for m in members if m.shape is None or m.shape.site is not site]
    home = (
        "in one of the files"
        if all(m.label.endswith(("(same name)", "(same title)")) for m in members)
        else f"in `{original.label}`"
    )
    fix = (
        f"Decide the one shape, write it once {home}, make the others `$ref`s to it, and make "
        "the prose say the same"
    )
    count = f"{len(members) + 1} definitions of `{name}` disagree"
    short_fix = "write it once and `$ref` it"
    candidates = []
    for shown in range(min(SHOWN, len(lines)), 0, -1):
        first = "; ".join(lines[:shown])
        if len(lines) > shown:
            more = len(lines) - shown
            first += f"; and {more} more (see the related locations)"
        candidates += [
            (shown, f"{count}: {first}. {fix}"),
            (shown, f"{count}: {first}: {short_fix}"),
        ]
        candidates.append((shown, f"{count}: {first}"))
    candidates.append((0, f"{count} in {len(lines)} way(s), on the related locations: {short_fix}"))
    message = first_fitting(*(text for _, text in candidates))
    shown = next((n for n, text in candidates if text == terminal_form(message)), 0)
    if shown < len(lines) and related:
        # What the first line leaves out is on a related location, every difference of it.
        head = related[0]
        related[0] = replace(
            head, note=f"{head.note or 'a copy'}; also: {'; '.join(lines[shown:])}"
        )
    return Finding(
        ID,
        SEVERITY,
        message,
        at,
        related=tuple(related),
        key=original.site.pointer or original.site.document.path,
        heuristic=min((m.heuristic for m in members), key=HEURISTICS.index, default=None),
        table=_table(original, members, equivalence),
    )


# Copies a drift's table has a column for (issue 48); the related locations list the rest.
TABLE_COPIES = 8


def _table(original: Shape, members: list[_Member], equivalence: Equivalence) -> Table:
    """The property x copy table of a drift (issue 48): a row for each member the definitions
    disagree on, what each says of it: ``required``, ``optional``, ``absent`` (a field list in
    prose says only what it requires: ``not listed``), and the keyword whose value differs from
    the schema's (``enum: [...]``)."""
    shown = members[:TABLE_COPIES]
    # what each copy's schema of a member says that differs from the original's
    differing: list[dict[str, tuple[str, str]]] = []
    for member in shown:
        said: dict[str, tuple[str, str]] = {}
        if member.shape is not None:
            homes = (original.site.document.path, member.shape.site.document.path)
            agree = _agreeing(equivalence, homes, member.relaxed)
            ours = _properties(original)
            theirs = _properties(member.shape)
            for name in sorted(original.properties & member.shape.properties):
                if not agree(ours.get(name), theirs.get(name)):
                    said[name] = _keyword(ours.get(name), theirs.get(name))
        differing.append(said)

    def cell(required: frozenset[str], properties: frozenset[str] | None, name: str) -> str:
        if name in required:
            return "required"
        if properties is None:
            return "not listed"
        return "optional" if name in properties else "absent"

    names = sorted(
        set(original.properties).union(
            original.required,
            *(m.required for m in shown),
            *(m.shape.properties for m in shown if m.shape is not None),
        )
    )
    rows = []
    for name in names:
        first_said = next((said[name][0] for said in differing if name in said), None)
        cells = [cell(original.required, original.properties, name)]
        cells[0] += f"; {first_said}" if first_said else ""
        for member, said in zip(shown, differing, strict=True):
            properties = None if member.shape is None else member.shape.properties
            word = cell(member.required, properties, name)
            cells.append(f"{word}; {said[name][1]}" if name in said else word)
        # a field list names only what it requires: "not listed" disagrees with nothing
        if len({c for c in cells if c != "not listed"}) > 1:
            rows.append((name, *cells))
    headers = (
        "property",
        f"{original.site.document.path}#{original.site.pointer}",
        *(_column(m) for m in shown),
    )
    return Table(headers, tuple(rows))


def _properties(shape: Shape) -> dict[str, Any]:
    found = shape.normal.get("properties") if isinstance(shape.normal, dict) else None
    return found if isinstance(found, dict) else {}


def _keyword(ours: Any, theirs: Any) -> tuple[str, str]:
    """The first keyword whose value a copy's schema of a member has otherwise: as the
    original's has it, and as the copy's has it."""
    for keyword in ("type", "enum", "const", "format", "pattern", "$ref"):
        left = ours.get(keyword) if isinstance(ours, dict) else None
        right = theirs.get(keyword) if isinstance(theirs, dict) else None
        if left != right:
            return f"{keyword}: {json_value(left)}", f"{keyword}: {json_value(right)}"
    return "", "other constraints"


def _column(member: _Member) -> str:
    if member.shape is not None:
        return f"{member.shape.site.document.path}#{member.shape.site.pointer}"
    return f"{member.location.path}:{member.location.line}"
