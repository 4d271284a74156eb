"""Definitions of one shape that disagree: a schema, its inline copies, and the field lists prose gives for it.

What it does
    Groups the definitions of one shape: a schema-file definition, each inline copy of it in an
    API document (see ``inline-copy``), each definition in another file with the same ``$defs``
    name or ``title`` and mostly the same properties, and each "minimum compliant payload" field
    list that a
    comment in an API document (bound to the ``$ref`` below it) or a paragraph of the prose (bound
    to the schema its section names) states for it. A field list is read as the shape's
    ``required`` set.

    Same-named definitions are compared only within one version line (``speclint.versions``:
    ``definitions/2.0.0/`` and ``definitions/3.0.0/`` are history, ``bindings/sns/`` and
    ``bindings/sqs/`` two specifications); generated bundles (``speclint.lineage``) are left to
    their sources; two schemas that a schema catalog lists (``speclint.schema_catalogs``: each
    describes its own file format, as in SchemaStore) are compared only when one references the
    other; byte-identical copies, and copies that differ only by pointing at their own file's
    definitions (``#/definitions/x`` and ``#/$defs/x`` alike), are not drift.

    When the members disagree, one finding names the copies and up to three differences (which
    fields each one requires, properties a copy declares that the definition does not, differing
    types, enums and closure), as many as fit a first line of about 200 characters; every copy's
    own differences, and the ones the first line leaves out, are on its related locations. It is
    reported at the inline copy when there is one (the copy is what to delete), otherwise at the
    definition's ``required``. The copies are found by name, similar properties or the section
    a field list sits in, which is inferred: a warning.

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
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from speclint.corpus import Corpus
from speclint.findings import Finding, Location, Severity, first_fitting
from speclint.fingerprints import (
    Shape,
    all_shapes,
    differences,
    inline_copies,
    page_payload_lists,
    payload_claims,
    property_similarity,
    shape_of,
)
from speclint.schema_catalogs import schema_catalogs
from speclint.structured import join_pointer

ID = "copy-drift"
# The copies are found by name, by similar properties or by a section that names the schema:
# inferred, so a warning (issue 26: severity follows the evidence).
SEVERITY = Severity.WARNING
# Reads the schemas, and of the prose only its minimum-payload lists (speclint.units).
READS = "extract"
extract = page_payload_lists
SHOWN = 3  # differences in the message; the rest are on the related locations


@dataclass(frozen=True)
class _Member:
    label: str
    location: Location
    required: frozenset[str]
    shape: Shape | None  # None for a field list in prose or a comment


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    shapes = all_shapes(corpus)
    groups: dict[tuple[str, str], tuple[Shape, list[_Member]]] = {}

    def group(original: Shape) -> list[_Member]:
        key = (original.site.document.path, original.site.pointer)
        return groups.setdefault(key, (original, []))[1]

    for found in inline_copies(corpus, shapes, float(options.get("similarity", 0.8))):
        copy = found.copy
        group(found.original).append(
            _Member(
                f"the inline copy in {copy.site.document.path}",
                copy.site.location(note="an inline copy"),
                copy.required,
                copy,
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
            )
        )
    catalogs = schema_catalogs(corpus)

    def one_specification(first: str, second: str) -> bool:
        return corpus.versions.same_line(first, second) and catalogs.one_specification(
            first, second
        )

    for first, second in same_name_pairs(shapes, one_specification):
        same = "name" if _name(first) == _name(second) else "title"
        group(first).append(
            _Member(
                f"`{second.label}` (same {same})",
                second.site.location(note=f"a definition with the same {same}"),
                second.required,
                second,
            )
        )
    for _, (original, members) in sorted(groups.items()):
        finding = _drift(original, members)
        if finding is not None:
            yield finding


def same_name_pairs(
    shapes: list[Shape], comparable: Callable[[str, str], bool] = lambda a, b: True
) -> list[tuple[Shape, Shape]]:
    """Object shapes in different files with the same ``$defs``/component name or ``title``, most
    of the same properties, and different fingerprints: one shape defined twice, now different.
    Files of different versions (``comparable`` says no) are history, not copies."""
    by_name: dict[str, list[Shape]] = {}
    for shape in shapes:
        if len(shape.properties) < 2:
            continue
        node = shape.site.node
        names = {shape.site.pointer.rsplit("/", 1)[-1].lower()} if shape.site.pointer else set()
        if isinstance(node.get("title"), str):
            names.add(node["title"].lower())
        for name in names - {"", "payload", "schema"}:
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
                    and _own_refs_local(first) != _own_refs_local(second)
                    and property_similarity(first, second) >= 0.5
                ):
                    pairs.setdefault((first.label, second.label), (first, second))
    return [pairs[key] for key in sorted(pairs)]


def _name(shape: Shape) -> str:
    return shape.site.pointer.rsplit("/", 1)[-1].lower() if shape.site.pointer else ""


def _own_refs_local(shape: Shape) -> Any:
    """The shape with references into its own file written as local pointers: two files that
    each point at their own `#/definitions/identifier` say the same (and the two `identifier`s
    are compared as a pair of their own). Byte-identical copies are copies, not drift. The
    container is the dialect's spelling: draft-07's `#/definitions/x` is 2020-12's `#/$defs/x`."""
    own = shape.site.document.path + "#"

    def internal(reference: str) -> str:
        pointer = reference[len(own) :]
        if pointer.startswith("/definitions/"):
            pointer = "/$defs/" + pointer.removeprefix("/definitions/")
        return "#" + pointer

    def local(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                key: (
                    internal(value)
                    if key == "$ref" and isinstance(value, str) and value.startswith(own)
                    else local(value)
                )
                for key, value in node.items()
            }
        if isinstance(node, list):
            return [local(item) for item in node]
        return node

    return local(shape.normal)


def _drift(original: Shape, members: list[_Member]) -> Finding | None:
    name = original.site.pointer.rsplit("/", 1)[-1] or original.site.document.path
    lines: list[str] = []
    fields = sorted(set().union(original.required, *(m.required for m in members)))
    for field in fields:
        requiring = (["the schema"] if field in original.required else []) + [
            m.label for m in members if field in m.required
        ]
        not_requiring = (["the schema"] if field not in original.required else []) + [
            m.label for m in members if field not in m.required
        ]
        if requiring and not_requiring:
            declared = (
                "" if field in original.properties else " (the schema does not even declare it)"
            )
            lines.append(
                f"`{field}` is required by {', '.join(requiring)} but not by "
                f"{', '.join(not_requiring)}{declared}"
            )
    notes: dict[int, str] = {}
    shape_lines: list[str] = []
    for index, member in enumerate(members):
        if member.shape is not None and member.shape.digest != original.digest:
            rest = [
                d for d in differences(original, member.shape) if not d.startswith("`required`")
            ]
            if rest:
                shape_lines.append(f"{member.label}: {rest[0]}")
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
    shown = next((n for n, text in candidates if text == message), 0)
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
    )
