"""Structural fingerprints of schema locations, for finding copies of one shape.

A fingerprint keeps what a schema *constrains* and drops what only describes it: property names
and their schemas, ``type``, ``required``, ``enum``/``const``, numeric and string constraints,
``items``, closure keywords, compositions, and each ``$ref``'s resolved target (a reference to a
different schema is a different shape). Key order, ``description``, ``title``, ``examples``,
``$comment`` and ``default`` do not count. Two locations with the same fingerprint are the same
shape; two object shapes with mostly the same property names are *near* copies.

Every schema location of the corpus is fingerprinted: schema files and their ``$defs``, OpenAPI
``components/schemas`` and inline use-site schemas, AsyncAPI ``components/schemas`` and message
payloads. Each schema object is read in the 2020-12 vocabulary first (``speclint.dialects``:
a draft-04 boolean ``exclusiveMinimum``, draft-07 tuple ``items`` and ``dependencies``, OpenAPI
3.0 ``nullable``), so one definition spelled in two dialects has one fingerprint.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .corpus import Corpus, Document
from .dialects import dialect_at, dialect_of_schema, modern
from .kinds import DocumentKind
from .shapes import Site, follow_once, use_sites
from .structured import join_pointer, split_pointer

IGNORED = frozenset(
    {
        "description",
        "title",
        "examples",
        "example",
        "$comment",
        "default",
        "$id",
        "$schema",
        "$defs",
        "definitions",
        "deprecated",
        "readOnly",
        "writeOnly",
        "externalDocs",
        "xml",
        "discriminator",
    }
)
SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
SCHEMA_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas"})
SCHEMA_VALUES = frozenset(
    {
        "items",
        "additionalProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
    }
)
UNORDERED = frozenset({"required", "enum", "type"})


@dataclass(frozen=True)
class Shape:
    site: Site
    normal: Any  # the normalised schema
    digest: str
    properties: frozenset[str]
    required: frozenset[str]

    @property
    def label(self) -> str:
        return self.site.label

    @property
    def in_api(self) -> bool:
        return self.site.document.kind in {DocumentKind.OPENAPI, DocumentKind.ASYNCAPI}


def normalise(corpus: Corpus, site: Site, depth: int = 0, dialect: str | None = None) -> Any:
    """The schema at ``site`` reduced to what it constrains, ``$ref``\\s replaced by their target,
    read in the 2020-12 vocabulary whatever its dialect (``speclint.dialects``): a draft-04 copy
    and a 2020-12 copy of one definition have one fingerprint."""
    if dialect is None:
        dialect = dialect_at(site.document.data, split_pointer(site.pointer), site.document.dialect)
    elif isinstance(site.node, dict):
        dialect = dialect_of_schema(site.node.get("$schema"), dialect)
    reading = modern(site.node, dialect)
    if depth > 64 or reading is None:
        return site.node
    node = reading.node
    result: dict[str, Any] = {}
    for key in sorted(node):
        if key in IGNORED or key.startswith("x-"):
            continue
        value = node[key]
        at = join_pointer(site.pointer, reading.source(key))
        if key == "$ref":
            target = follow_once(corpus, site)
            result[key] = target.label if target is not None else f"unresolved:{value}"
        elif key in SCHEMA_MAPS and isinstance(value, dict):
            result[key] = {
                name: normalise(
                    corpus, Site(site.document, join_pointer(at, name), child), depth + 1, dialect
                )
                for name, child in sorted(value.items())
            }
        elif key in SCHEMA_LISTS and isinstance(value, list):
            result[key] = [
                normalise(
                    corpus, Site(site.document, join_pointer(at, i), child), depth + 1, dialect
                )
                for i, child in enumerate(value)
            ]
        elif key in SCHEMA_VALUES:
            result[key] = normalise(corpus, Site(site.document, at, value), depth + 1, dialect)
        elif key in UNORDERED and isinstance(value, list):
            result[key] = sorted(value, key=lambda v: json.dumps(v, sort_keys=True))
        elif key == "dependentRequired" and isinstance(value, dict):
            result[key] = {
                name: sorted(names, key=str) if isinstance(names, list) else names
                for name, names in sorted(value.items())
            }
        else:
            result[key] = value
    return result


def shape_of(corpus: Corpus, site: Site) -> Shape:
    normal = normalise(corpus, site)
    digest = hashlib.sha256(json.dumps(normal, sort_keys=True, default=str).encode()).hexdigest()
    node = site.node if isinstance(site.node, dict) else {}
    properties = node.get("properties")
    required = node.get("required")
    return Shape(
        site,
        normal,
        digest[:16],
        frozenset(properties) if isinstance(properties, dict) else frozenset(),
        frozenset(r for r in required if isinstance(r, str))
        if isinstance(required, list)
        else frozenset(),
    )


def schema_locations(corpus: Corpus) -> Iterator[Site]:
    """Every location a shape can be defined at, each once, in a stable order."""
    seen: set[tuple[str, str]] = set()

    def once(site: Site) -> Iterator[Site]:
        key = (site.document.path, site.pointer)
        if key not in seen and isinstance(site.node, dict):
            seen.add(key)
            yield site

    derived = corpus.derived
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        if document.path in derived:
            continue  # a generated bundle: its definitions are judged at their sources
        yield from once(Site(document, "", document.data))
        yield from _defs(document, document.data, "", once)
    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        components = document.data.get("components") if isinstance(document.data, dict) else None
        schemas = components.get("schemas") if isinstance(components, dict) else None
        schema_map: dict[str, Any] = schemas if isinstance(schemas, dict) else {}
        for name in sorted(schema_map):
            pointer = join_pointer("/components/schemas", name)
            yield from once(Site(document, pointer, schema_map[name]))
    for use in use_sites(corpus):
        yield from once(use.site)
    for document in corpus.of_kind(DocumentKind.ASYNCAPI):
        # Every message payload, whether or not an operation names its channel.
        data = document.data if isinstance(document.data, dict) else {}
        holders: list[tuple[str, Any]] = []
        components = data.get("components")
        if isinstance(components, dict) and isinstance(components.get("messages"), dict):
            holders += [
                (join_pointer("/components/messages", name), message)
                for name, message in sorted(components["messages"].items())
            ]
        channels = data.get("channels")
        for channel, item in sorted(channels.items()) if isinstance(channels, dict) else ():
            messages = item.get("messages") if isinstance(item, dict) else None
            for name, message in sorted(messages.items()) if isinstance(messages, dict) else ():
                at = join_pointer(
                    join_pointer(join_pointer("/channels", channel), "messages"), name
                )
                holders.append((at, message))
        for at, message in holders:
            payload = message.get("payload") if isinstance(message, dict) else None
            # A Multi Format Schema Object (`schemaFormat`) holds another schema language.
            if isinstance(payload, dict) and "schemaFormat" not in payload:
                yield from once(Site(document, join_pointer(at, "payload"), payload))


def _defs(document: Document, node: Any, pointer: str, once: Any) -> Iterator[Site]:
    if not isinstance(node, dict):
        return
    for key in ("$defs", "definitions"):
        holder = node.get(key)
        if isinstance(holder, dict):
            for name, child in sorted(holder.items()):
                at = join_pointer(join_pointer(pointer, key), name)
                yield from once(Site(document, at, child))
                yield from _defs(document, child, at, once)


def all_shapes(corpus: Corpus) -> list[Shape]:
    return [shape_of(corpus, site) for site in schema_locations(corpus)]


def property_similarity(a: Shape, b: Shape) -> float:
    """Jaccard similarity of the property-name sets (0 when either has none)."""
    if not a.properties or not b.properties:
        return 0.0
    return len(a.properties & b.properties) / len(a.properties | b.properties)


def _unresolved(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("unresolved:")


def differences(a: Shape, b: Shape) -> list[str]:
    """What differs between two object shapes, in words: required, properties, types, enums."""
    found: list[str] = []
    only_a = sorted(a.required - b.required)
    only_b = sorted(b.required - a.required)
    if only_a or only_b:
        found.append(
            f"`required` differs: [{', '.join(sorted(a.required))}] vs [{', '.join(sorted(b.required))}]"
        )
    missing_b = sorted(a.properties - b.properties)
    missing_a = sorted(b.properties - a.properties)
    if missing_b:
        found.append(f"properties only in the first: {', '.join(missing_b)}")
    if missing_a:
        found.append(f"properties only in the second: {', '.join(missing_a)}")
    props_a = a.normal.get("properties", {}) if isinstance(a.normal, dict) else {}
    props_b = b.normal.get("properties", {}) if isinstance(b.normal, dict) else {}
    for name in sorted(a.properties & b.properties):
        left, right = props_a.get(name), props_b.get(name)
        if left == right:
            continue
        for keyword in ("type", "enum", "const", "format", "pattern", "$ref"):
            lv = left.get(keyword) if isinstance(left, dict) else None
            rv = right.get(keyword) if isinstance(right, dict) else None
            if _unresolved(lv) or _unresolved(rv):
                break  # a value speclint could not resolve is not a difference (unresolved-ref)
            if lv != rv:
                found.append(f"`{name}.{keyword}`: {json.dumps(lv)} vs {json.dumps(rv)}")
                break
        else:
            found.append(f"`{name}` has different constraints")
    for keyword in ("additionalProperties", "unevaluatedProperties", "type"):
        lv = a.normal.get(keyword) if isinstance(a.normal, dict) else None
        rv = b.normal.get(keyword) if isinstance(b.normal, dict) else None
        if lv != rv:
            found.append(f"`{keyword}`: {json.dumps(lv)} vs {json.dumps(rv)}")
    return found


# --- copies ------------------------------------------------------------------------------------

_CLAIM = re.compile(
    r"\b(verbatim|referenced|reference[sd]? here|copied from|copy of|mirrors?|same as)\b", re.I
)


@dataclass(frozen=True)
class InlineCopy:
    copy: Shape  # the inline schema in an API document
    original: Shape  # the schema-file definition it copies
    similarity: float
    claim: str | None  # the comment or description that calls it a reference, if any
    claim_line: int | None


def comment_above(document: Document, line: int, limit: int = 12) -> tuple[str, int] | None:
    """The YAML comment block ending just above ``line`` (1-based), joined, with its first line."""
    if document.text is None:
        return None
    lines = document.lines
    collected: list[str] = []
    at = line - 1
    while at >= 1 and len(collected) < limit:
        text = lines[at - 1].strip()
        if not text.startswith("#"):
            break
        collected.insert(0, text.lstrip("#").strip())
        at -= 1
    return (" ".join(collected), at + 1) if collected else None


def _claim(shape: Shape) -> tuple[str, int] | None:
    """A comment just above the schema (above its key, or above its first member when the
    comment sits between the two) or its description, calling it a reference or a copy."""
    document = shape.site.document
    node = shape.site.node
    pointers = [shape.site.pointer]
    if isinstance(node, dict) and node:
        pointers.append(join_pointer(shape.site.pointer, next(iter(node))))
    for pointer in pointers:
        found = comment_above(document, document.position(pointer)[0])
        if found and _CLAIM.search(found[0]):
            return found
    description = node.get("description") if isinstance(node, dict) else None
    if isinstance(description, str) and _CLAIM.search(description):
        return description, document.position(join_pointer(shape.site.pointer, "description"))[0]
    return None


def inline_copies(corpus: Corpus, shapes: list[Shape], threshold: float = 0.8) -> list[InlineCopy]:
    """Inline API schemas that copy (or nearly copy) a schema-file definition."""
    originals = [
        s for s in shapes if s.site.document.kind is DocumentKind.SCHEMA and len(s.properties) >= 2
    ]
    found: list[InlineCopy] = []
    for shape in shapes:
        node = shape.site.node
        if not shape.in_api or len(shape.properties) < 2 or "$ref" in node:
            continue
        claim = _claim(shape)
        # A comment calling the copy a reference lowers the bar: the author meant that schema.
        bar = 0.5 if claim else threshold
        best: tuple[float, bool, Shape] | None = None
        for original in originals:
            if not corpus.versions.comparable(
                shape.site.document.path, original.site.document.path
            ):
                continue  # another version's definition: history, not a copy
            if not claim and original.required and not shape.required:
                # The same fields with none required is a partial view of the shape (a PATCH
                # body, a subscription filter over CloudEvents attributes), not a copy of it.
                continue
            score = 1.0 if original.digest == shape.digest else property_similarity(shape, original)
            if score < bar:
                continue
            candidate = (score, original.digest == shape.digest, original)
            if best is None or candidate[:2] > best[:2]:
                best = candidate
        if best is not None:
            found.append(
                InlineCopy(
                    shape,
                    best[2],
                    best[0],
                    claim[0] if claim else None,
                    claim[1] if claim else None,
                )
            )
    return found


def relative_ref(from_path: str, to: Site) -> str:
    """The ``$ref`` a document at ``from_path`` writes to reach ``to``."""
    import posixpath

    relative = posixpath.relpath(to.document.path, posixpath.dirname(from_path) or ".")
    return relative + (f"#{to.pointer}" if to.pointer else "")


# --- "minimum compliant payload" claims ----------------------------------------------------------

_MINIMUM = re.compile(
    r"(?:minimum\s+compliant\s+payload|minimal\s+payload|minimum\s+payload)[^{}]{0,40}?`?\{([^{}]+)\}`?"
    r"|`?\{([^{}]+)\}`?[^{}.]{0,60}?(?:minimum\s+compliant\s+payload|minimal\s+payload|minimum\s+payload)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class PayloadClaim:
    """A field list the text calls the minimum payload of a schema."""

    fields: tuple[str, ...]
    path: str
    line: int
    target: Site


def _fields(text: str) -> tuple[str, ...] | None:
    names = [n.strip().strip("`'\"") for n in text.split(",")]
    if len(names) >= 2 and all(re.fullmatch(r"[A-Za-z_]\w*", n) for n in names):
        return tuple(names)
    return None


def payload_claims(corpus: Corpus) -> Iterator[PayloadClaim]:
    """Minimum-payload field lists in API-document comments (bound to the ``$ref`` below them)
    and in prose (bound to the schema the same section names)."""
    from .fences import resolve_schema

    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        for site in _ref_sites(document):
            comment = None
            for pointer in (join_pointer(site.pointer, "$ref"), site.pointer):
                comment = comment_above(document, document.position(pointer)[0])
                if comment is not None:
                    break
            match = _MINIMUM.search(comment[0]) if comment else None
            fields = _fields(match.group(1) or match.group(2)) if match else None
            target = follow_once(corpus, site)
            if fields and comment and target is not None:
                yield PayloadClaim(
                    fields, document.path, _line_of(document, comment[1], fields), target
                )
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        for fields, line, section in page_payload_lists(document):
            targets = {
                t.label: t
                for name in section
                if (t := resolve_schema(corpus, document.path, name)) is not None
            }
            if len(targets) == 1:
                (named,) = targets.values()
                node = _at(named.document, named.pointer)
                if not isinstance(node, dict) or not isinstance(node.get("properties"), dict):
                    continue  # the section names a file, not the shape the list describes
                yield PayloadClaim(
                    fields, document.path, line, Site(named.document, named.pointer, node)
                )


def page_payload_lists(document: Document) -> list[tuple[tuple[str, ...], int, list[str]]]:
    """The minimum-payload field lists of one Markdown page: (fields, line, the schema files its
    section names). All that is read of the page (``READS = "extract"``)."""
    prose = document.prose
    found: list[tuple[tuple[str, ...], int, list[str]]] = []
    for paragraph in prose.paragraphs if prose is not None else ():
        match = _MINIMUM.search(paragraph.text)
        fields = _fields(match.group(1) or match.group(2)) if match else None
        if not fields or match is None:
            continue
        assert prose is not None
        section = [
            code.text
            for code in prose.inline_code
            if code.heading == paragraph.heading and ".json" in code.text
        ] + [
            link.target
            for link in prose.links
            if link.heading == paragraph.heading and ".json" in link.target
        ]
        line = paragraph.line + paragraph.text[: match.start()].count("\n")
        found.append((fields, line, section))
    return found


def _line_of(document: Document, start: int, fields: tuple[str, ...]) -> int:
    """The line of a comment block (starting at ``start``) that holds the field list."""
    lines = (document.text or "").split("\n")
    for number in range(start, min(start + 16, len(lines) + 1)):
        if "{" in lines[number - 1] and fields[0] in lines[number - 1]:
            return number
    return start


def _at(document: Document, pointer: str) -> Any:
    from .shapes import resolve

    return resolve(document, pointer)


def _ref_sites(document: Document) -> Iterator[Site]:
    """Every ``{"$ref": ...}`` object of an API document, as a site."""
    from .references import ref_sites
    from .shapes import resolve

    for pointer, _, _ in ref_sites(document):
        holder = pointer.rsplit("/", 1)[0]
        yield Site(document, holder, resolve(document, holder))
