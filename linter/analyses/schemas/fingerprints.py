"""Structural fingerprints of schema locations, for finding copies of one shape.

A fingerprint keeps what a schema *constrains* and drops what only describes it: property names
and their schemas, ``type``, ``required``, ``enum``/``const``, numeric and string constraints,
``items``, closure keywords, compositions, and each ``$ref``'s resolved target (a reference to a
different schema is a different shape). Key order, ``description``, ``title``, ``examples``,
``$comment`` and ``default`` do not count. Two locations with the same fingerprint are the same
shape; two object shapes with mostly the same property names are *near* copies.

Every schema location of the corpus is fingerprinted: schema files and their ``$defs``, OpenAPI
``components/schemas`` and inline use-site schemas, AsyncAPI ``components/schemas`` and message
payloads. Each schema object is read in the 2020-12 vocabulary first (``speclint.parsing.dialects``:
a draft-04 boolean ``exclusiveMinimum``, draft-07 tuple ``items`` and ``dependencies``, OpenAPI
3.0 ``nullable``), so one definition spelled in two dialects has one fingerprint.

``Equivalence`` goes further when comparing two copies: a ``$ref`` to each file's own copy of a
definition, a ``$ref`` beside the inline schema it points at, an ``allOf`` written out, and
OpenAPI 3.0's spellings of null say the same. ``definition_name`` says which locations have a
name of their own (a ``$defs`` or component entry, a schema file), unlike an inline schema
under the document format's ``schema`` or ``payload`` key.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.prose.fences import resolve_schema
from speclint.analyses.repository.provenance import GENERATED
from speclint.analyses.schemas.references import ref_sites
from speclint.analyses.schemas.shapes import Site, follow_once, resolve, use_sites
from speclint.analyses.units import kept_with_page
from speclint.model.corpus import Document
from speclint.parsing.dialects import dialect_at, dialect_of_schema, has_nullable, modern
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, split_pointer
from speclint.parsing.versions import UNRELEASED_KEY, development_version, order_key

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
        "$anchor",
        "$dynamicAnchor",
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


def normalise(corpus: Context, site: Site, depth: int = 0, dialect: str | None = None) -> Any:
    """The schema at ``site`` reduced to what it constrains, ``$ref``\\s replaced by their target,
    read in the 2020-12 vocabulary whatever its dialect (``speclint.parsing.dialects``): a draft-04
    copy and a 2020-12 copy of one definition have one fingerprint."""
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
        if key == "nullable" and not has_nullable(dialect):
            continue  # no keyword outside OpenAPI 3.0 (oas30-leftover's): it constrains nothing
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
        elif key == "enum" and isinstance(value, list) and len(value) == 1 and "const" not in node:
            # One allowed value is `const` (OpenAPI 3.0 has no `const` and writes `enum: [x]`).
            result["const"] = value[0]
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


def shape_of(corpus: Context, site: Site) -> Shape:
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


def schema_locations(corpus: Context) -> Iterator[Site]:
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
        if document.path in derived:
            continue  # a bundle or a copy (a JSON rendering): judged at its source
        components = document.data.get("components") if isinstance(document.data, dict) else None
        schemas = components.get("schemas") if isinstance(components, dict) else None
        schema_map: dict[str, Any] = schemas if isinstance(schemas, dict) else {}
        for name in sorted(schema_map):
            pointer = join_pointer("/components/schemas", name)
            yield from once(Site(document, pointer, schema_map[name]))
    for use in use_sites(corpus):
        if use.site.document.path not in derived:
            yield from once(use.site)
    for document in corpus.of_kind(DocumentKind.ASYNCAPI):
        if document.path in derived:
            continue
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


def all_shapes(corpus: Context) -> list[Shape]:
    return [shape_of(corpus, site) for site in schema_locations(corpus)]


def property_similarity(a: Shape, b: Shape) -> float:
    """Jaccard similarity of the property-name sets (0 when either has none)."""
    if not a.properties or not b.properties:
        return 0.0
    return len(a.properties & b.properties) / len(a.properties | b.properties)


# Member names and keys of the document formats themselves: the key of a media type object's
# `schema`, a message's `payload`, `items`. A schema found under one of them is an inline schema
# of that place, not a definition with that name (issue 26: every request body is at `.../schema`).
STRUCTURAL = frozenset(
    {
        "",
        "schema",
        "schemas",
        "payload",
        "items",
        "properties",
        "patternproperties",
        "additionalproperties",
        "allof",
        "anyof",
        "oneof",
        "not",
        "if",
        "then",
        "else",
        "content",
        "headers",
        "parameters",
        "requestbody",
        "responses",
        "components",
        "definitions",
        "$defs",
    }
)
_SCHEMA_SUFFIX = re.compile(r"(\.schema)?\.(json|ya?ml)$", re.IGNORECASE)


def file_stem(path: str) -> str:
    """``schemas/bom-1.3.schema.json`` -> ``bom-1.3``."""
    return _SCHEMA_SUFFIX.sub("", posixpath.basename(path))


def definition_name(site: Site) -> str | None:
    """The name a definition is known by: its ``$defs``/``definitions``/``components/schemas``
    key, or a schema file's stem. None for an inline schema (a request body, a payload, a
    property): the key it sits under is the document format's vocabulary, not a name."""
    tokens = split_pointer(site.pointer)
    if not tokens:
        return file_stem(site.document.path) if site.document.kind is DocumentKind.SCHEMA else None
    if (len(tokens) >= 2 and tokens[-2] in ("$defs", "definitions")) or (
        len(tokens) == 3 and tokens[0] == "components" and tokens[1] == "schemas"
    ):
        name = str(tokens[-1])
    else:
        return None
    return None if name.lower() in STRUCTURAL or "/" in name else name


def _comparable_name(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def names_match(first: str, second: str) -> int:
    """2 when two definition names are one name (``multiPoint``, ``multipoint``), 1 when one
    is the other with a qualifier (``multipoint``, ``multipointGeoJSON``), else 0."""
    a, b = _comparable_name(first), _comparable_name(second)
    if not a or not b:
        return 0
    if a == b:
        return 2
    short, long = sorted((a, b), key=len)
    return 1 if len(short) >= 4 and long.startswith(short) else 0


@dataclass
class Equivalence:
    """When two normalised schemas say the same although they are spelled differently.

    Equal, and also: two ``$ref``\\s to each file's own copy of a definition (``a.json`` ->
    ``a.json#/$defs/x`` and ``b.json`` -> ``b.json#/$defs/x``; ``#/definitions/x`` and an API
    document's ``#/components/schemas/x`` are ``#/$defs/x``, and so is a schema file ``x.yaml``
    as a whole: a bundle's own copy of it), two ``$ref``\\s to files of one name in twin
    folders (``json/common.json`` and ``src/common.yaml``), two ``$ref``\\s whose targets say
    the same, and a ``$ref`` beside an inline schema that says what its target says.

    ``relaxes`` asks the same in one direction: does the second schema say what the first says
    or less (a variant file's edition that requires fewer members, leaves the shape open or drops
    a type), optionally declaring members of its own?"""

    normals: dict[str, Any]
    anchors: dict[tuple[str, str], str] = field(default_factory=dict)  # (path, anchor) -> label
    _memo: dict[tuple[str, str, str, str, int], bool] = field(default_factory=dict)

    @classmethod
    def of(cls, shapes: list[Shape]) -> Equivalence:
        anchors: dict[tuple[str, str], str] = {}
        for shape in shapes:
            node = shape.site.node if isinstance(shape.site.node, dict) else {}
            for keyword in ("$dynamicAnchor", "$anchor"):
                if isinstance(node.get(keyword), str):
                    anchors.setdefault((shape.site.document.path, node[keyword]), shape.label)
        return cls({shape.label: shape.normal for shape in shapes}, anchors)

    def _dynamic(self, node: dict[str, Any], home: str) -> dict[str, Any]:
        """``{"$dynamicRef": "#name"}`` as a ``$ref`` to the schema of its file that declares
        that anchor (the usual single-file use: an extension point of a recursive schema)."""
        reference = node.get("$dynamicRef")
        if isinstance(reference, str) and reference.startswith("#"):
            label = self.anchors.get((home, reference[1:]))
            if label is not None:
                rest = {k: v for k, v in node.items() if k != "$dynamicRef"}
                return {**rest, "$ref": label}
        return node

    def _flat(self, node: dict[str, Any]) -> dict[str, Any] | None:
        """An ``allOf`` of object schemas merged into one (a base ``$ref`` plus members), or
        None when the branches say more than members, ``required`` and one ``type``."""
        merged = {k: v for k, v in node.items() if k != "allOf"}
        for branch in node["allOf"] if isinstance(node["allOf"], list) else [None]:
            if isinstance(branch, dict) and set(branch) == {"$ref"}:
                branch = self.normals.get(branch["$ref"])
            if not isinstance(branch, dict) or not set(branch) <= {
                "type",
                "properties",
                "required",
            }:
                return None
            if "type" in branch and merged.setdefault("type", branch["type"]) != branch["type"]:
                return None
            members = branch.get("properties", {})
            mine = merged.setdefault("properties", {})
            if not isinstance(members, dict) or set(members) & set(mine):
                return None
            merged["properties"] = {**mine, **members}
            if isinstance(branch.get("required"), list):
                merged["required"] = sorted(
                    {*merged.get("required", []), *branch["required"]}, key=str
                )
        return merged

    def shapes(self, a: Shape, b: Shape) -> bool:
        return self.same(a.normal, b.normal, a.site.document.path, b.site.document.path)

    def relaxes(self, stricter: Shape, looser: Shape, additions: bool = False) -> bool:
        homes = (stricter.site.document.path, looser.site.document.path)
        return self._same(stricter.normal, looser.normal, homes, 2 if additions else 1, set(), 0)

    def members(self, a: Shape, b: Shape) -> Callable[[Any, Any], bool]:
        """``differences``' ``same`` for the members of these two shapes."""
        return lambda left, right: self.same(
            left, right, a.site.document.path, b.site.document.path
        )

    def same(self, left: Any, right: Any, home_a: str, home_b: str, mode: int = 0) -> bool:
        """``mode`` 0: the same; 1: ``right`` says ``left`` or less; 2: or less, with members
        of its own."""
        return self._same(left, right, (home_a, home_b), mode, set(), 0)

    def _key(self, label: str, homes: tuple[str, str]) -> str:
        path, _, pointer = label.partition("#")
        for container in ("/definitions/", "/components/schemas/"):
            if pointer.startswith(container):
                pointer = "/$defs/" + pointer.removeprefix(container)
        if path not in homes:
            # A schema file is the definition its stem names: a bundle's
            # `#/components/schemas/extent` is its copy of `extent.yaml` (issue 26), and its
            # `#/components/schemas/extent/properties/id` that of `extent.yaml#/properties/id`.
            return "#/$defs/" + file_stem(path) + ("" if pointer == "/" else pointer)
        return ("#" if path in homes else file_stem(path) + "#") + pointer

    def _same(
        self,
        left: Any,
        right: Any,
        homes: tuple[str, str],
        mode: int,
        assumed: set[tuple[str, str]],
        depth: int,
    ) -> bool:
        if left == right:
            return True
        if depth > 24:
            # Past this depth the two are compared as written, each `$ref` by what it names
            # from its own file (two renderings of a schema nested 28 levels, whose labels
            # carry each one's path, are still the same).
            return bool(self._keyed(left, homes, 0) == self._keyed(right, homes, 0))
        if isinstance(left, list) and isinstance(right, list):
            return len(left) == len(right) and all(
                self._same(x, y, homes, mode, assumed, depth + 1)
                for x, y in zip(left, right, strict=True)
            )
        if not isinstance(left, dict) or not isinstance(right, dict):
            return False
        left, right = self._dynamic(left, homes[0]), self._dynamic(right, homes[1])
        left, right = _canonical(left), _canonical(right)
        null_l, null_r = _nullable(left), _nullable(right)
        if null_l is not None and null_r is None:
            left, right = null_l, _without_null(right)
        elif null_r is not None and null_l is None:
            left, right = _without_null(left), null_r
        if ("allOf" in left) != ("allOf" in right):
            # One copy composes a base and members, the other writes them out.
            flat = self._flat(left if "allOf" in left else right)
            if flat is not None:
                left, right = (flat, right) if "allOf" in left else (left, flat)
        ref_l, ref_r = left.get("$ref"), right.get("$ref")
        if isinstance(ref_l, str) and isinstance(ref_r, str):
            rest_l = {k: v for k, v in left.items() if k != "$ref"}
            rest_r = {k: v for k, v in right.items() if k != "$ref"}
            return self._same(rest_l, rest_r, homes, mode, assumed, depth + 1) and (
                self._key(ref_l, homes) == self._key(ref_r, homes)
                or self._targets(ref_l, ref_r, homes, mode, assumed, depth)
            )
        if isinstance(ref_l, str) and len(left) == 1 and ref_l in self.normals:
            return self._same(self.normals[ref_l], right, homes, mode, assumed, depth + 1)
        if isinstance(ref_r, str) and len(right) == 1 and ref_r in self.normals:
            return self._same(left, self.normals[ref_r], homes, mode, assumed, depth + 1)
        if mode:
            return self._weaker(left, right, homes, mode, assumed, depth)
        if set(left) != set(right):
            return False
        return all(
            self._same(left[key], right[key], homes, mode, assumed, depth + 1) for key in left
        )

    def _keyed(self, node: Any, homes: tuple[str, str], depth: int) -> Any:
        """``node`` with each ``$ref`` label as ``_key`` names it (its own file's as ``#…``);
        past ``_KEYED_DEPTH`` levels, a value equal to nothing."""
        if depth > _KEYED_DEPTH:
            return object()
        if isinstance(node, dict):
            return {
                k: self._key(v, homes)
                if k == "$ref" and isinstance(v, str)
                else self._keyed(v, homes, depth + 1)
                for k, v in node.items()
            }
        if isinstance(node, list):
            return [self._keyed(each, homes, depth + 1) for each in node]
        return node

    def _weaker(
        self,
        left: dict[str, Any],
        right: dict[str, Any],
        homes: tuple[str, str],
        mode: int,
        assumed: set[tuple[str, str]],
        depth: int,
    ) -> bool:
        """Does ``right`` constrain what ``left`` does, or less? It may drop any keyword, and
        widen a schema into a union with it (``anyOf: [<left>, <a placeholder>]``)."""
        for union in ("anyOf", "oneOf"):
            branches = right.get(union)
            if (
                union not in left
                and isinstance(branches, list)
                and any(self._same(left, b, homes, mode, assumed, depth + 1) for b in branches)
            ):
                right = {k: v for k, v in right.items() if k != union}
        for key, value in right.items():
            if key not in left:
                if key in ("additionalProperties", "unevaluatedProperties") and value in (True, {}):
                    continue  # spelled open
                if key == "properties" and mode == 2:
                    continue
                return False
            mine = left[key]
            if key == "required" and isinstance(value, list) and isinstance(mine, list):
                if not set(map(str, value)) <= set(map(str, mine)):
                    return False
            elif key == "properties" and isinstance(value, dict) and isinstance(mine, dict):
                for name, member in value.items():
                    if name not in mine:
                        if mode == 2:
                            continue
                        return False
                    if not self._same(mine[name], member, homes, mode, assumed, depth + 1):
                        return False
            elif not self._same(mine, value, homes, mode, assumed, depth + 1):
                return False
        return True

    def _targets(
        self,
        ref_l: str,
        ref_r: str,
        homes: tuple[str, str],
        mode: int,
        assumed: set[tuple[str, str]],
        depth: int,
    ) -> bool:
        if ref_l not in self.normals or ref_r not in self.normals:
            return False
        if (ref_l, ref_r) in assumed:
            return True  # a recursive definition: equal unless something else differs
        memo = (ref_l, ref_r, *homes, mode)
        if memo not in self._memo:
            # The targets are compared from their own files: each one's own references are home.
            targets = (ref_l.partition("#")[0], ref_r.partition("#")[0])
            self._memo[memo] = self._same(
                self.normals[ref_l],
                self.normals[ref_r],
                targets,
                mode,
                assumed | {(ref_l, ref_r)},
                depth + 1,
            )
        return self._memo[memo]


_KEYED_DEPTH = 400  # nesting levels ``_keyed`` writes out (no recursion overflow)


def _canonical(node: dict[str, Any]) -> dict[str, Any]:
    """One spelling of a type union: ``type: [string, integer]`` for ``oneOf: [{type: string},
    {type: integer}]``, and a YAML ``null`` in a type list read as the type ``"null"`` that its
    author meant; an ``allOf`` of one ``$ref`` alone is that ``$ref`` (OpenAPI 3.0 cannot put a
    description beside a ``$ref``, so its authors wrap it: the same schema)."""
    branches = node.get("allOf")
    if (
        isinstance(branches, list)
        and len(branches) == 1
        and isinstance(branches[0], dict)
        and set(branches[0]) == {"$ref"}
        and "$ref" not in node
    ):
        node = {**{k: v for k, v in node.items() if k != "allOf"}, "$ref": branches[0]["$ref"]}
    result = node
    declared = node.get("type")
    if isinstance(declared, list) and None in declared:
        result = {**node, "type": sorted(("null" if t is None else t for t in declared), key=str)}
    if "type" not in node:
        for union in ("oneOf", "anyOf"):
            branches = node.get(union)
            if (
                isinstance(branches, list)
                and len(branches) > 1
                and all(
                    isinstance(b, dict) and set(b) == {"type"} and isinstance(b["type"], str)
                    for b in branches
                )
            ):
                rest = {k: v for k, v in node.items() if k != union}
                return {**rest, "type": sorted(b["type"] for b in branches)}
    return result


def _without_null(node: dict[str, Any]) -> dict[str, Any]:
    declared = node.get("type")
    if isinstance(declared, list) and "null" in declared:
        rest = [t for t in declared if t != "null"]
        return {**node, "type": rest[0] if len(rest) == 1 else rest}
    return node


def _nullable(node: dict[str, Any]) -> dict[str, Any] | None:
    """The other alternative of ``oneOf: [{type: null}, X]``: OpenAPI 3.0 cannot say "null or
    this ``$ref``", so a per-version edition writes X alone (not a difference of substance)."""
    for union in ("oneOf", "anyOf"):
        branches = node.get(union)
        if isinstance(branches, list) and len(branches) == 2 and len(node) == 1:
            nulls = [
                b
                for b in branches
                if isinstance(b, dict) and set(b) == {"type"} and b["type"] in (None, "null")
            ]
            if len(nulls) == 1:
                other = branches[1] if nulls[0] is branches[0] else branches[0]
                return other if isinstance(other, dict) else None
    return None


def _unresolved(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("unresolved:")


def differences(a: Shape, b: Shape, same: Callable[[Any, Any], bool] | None = None) -> list[str]:
    """What differs between two object shapes, in words: required, properties, types, enums.
    ``same`` says when two member schemas agree although they are spelled differently (a
    ``$ref`` to each file's own copy, a ``$ref`` to what the other inlines: ``Equivalence``).
    A property one shape has is said to be in its file, named ("only in the first" leaves the
    reader to guess which shape was first: issue 45, item 9)."""
    agree = same if same is not None else (lambda left, right: left == right)
    found: list[str] = []
    side_a, side_b = _sides(a, b)
    only_a = sorted(a.required - b.required)
    only_b = sorted(b.required - a.required)
    if only_a or only_b:
        found.append(
            f"`required` differs: [{', '.join(sorted(a.required))}] vs [{', '.join(sorted(b.required))}]"
        )
    missing_b = sorted(a.properties - b.properties)
    missing_a = sorted(b.properties - a.properties)
    if missing_b:
        found.append(f"properties only in {side_a}: {', '.join(missing_b)}")
    if missing_a:
        found.append(f"properties only in {side_b}: {', '.join(missing_a)}")
    props_a = a.normal.get("properties", {}) if isinstance(a.normal, dict) else {}
    props_b = b.normal.get("properties", {}) if isinstance(b.normal, dict) else {}
    for name in sorted(a.properties & b.properties):
        left, right = props_a.get(name), props_b.get(name)
        if agree(left, right):
            continue
        refs = [side.get("$ref") if isinstance(side, dict) else None for side in (left, right)]
        if (refs[0] is None) != (refs[1] is None) and not any(map(_unresolved, refs)):
            # One side names a definition, the other writes a schema out: comparing their
            # keywords would report the `$ref`'s missing `type` ("array" vs null), which is not
            # what differs; the target itself does (Equivalence looked through the `$ref`).
            target = refs[0] or refs[1]
            found.append(f"`{name}`: `$ref` to {target} vs an inline schema that differs from it")
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
        if not agree(lv, rv):
            found.append(f"`{keyword}`: {json.dumps(lv)} vs {json.dumps(rv)}")
    return found


def _sides(a: Shape, b: Shape) -> tuple[str, str]:
    """How a difference names each shape: its file, or, for two shapes of one file, its
    pointer in it."""
    path_a, path_b = a.site.document.path, b.site.document.path
    if path_a != path_b:
        return path_a, path_b
    return f"`#{a.site.pointer or '/'}`", f"`#{b.site.pointer or '/'}`"


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
    exact: bool = False  # the same shape (``Equivalence``), not a near copy


def self_contained(corpus: Context, document: Document) -> bool:
    """Whether an API document is a bundle: it is assembled from its own components (a
    ``$ref`` to ``#/...``) and none of its ``$ref``\\s reaches another file of the repository
    (published ``https://`` addresses may stay). Such a document republishes the schema files
    it holds on purpose, so that it stands alone. A document with no ``$ref`` at all is not
    known to be one: its inline schemas may be hand-made copies."""
    local = False
    for reference in corpus.references.within(document.path, ""):
        if reference.target_path is not None and reference.target_path != document.path:
            return False
        if reference.outcome in ("missing-file", "text"):
            return False  # a relative path: meant as a file of the repository
        local = local or reference.value.startswith("#")
    return local


def superseded(corpus: Context) -> set[str]:
    """API documents that an API document of the same ``info.title`` and a newer
    ``info.version`` replaces: an earlier release kept beside the current one (the 1.0.1 bundle
    beside the 1.1.0 one), frozen history rather than a copy to keep in step. A development
    placeholder (``0.0.0``, ``${VERSION}``, ``dev``: a build fills the release in) is no older
    release: it is the version being written, newer than every release beside it."""
    releases: dict[str, list[tuple[tuple[Any, ...], str]]] = {}
    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        info = document.data.get("info") if isinstance(document.data, dict) else None
        title = info.get("title") if isinstance(info, dict) else None
        version = info.get("version") if isinstance(info, dict) else None
        if not isinstance(title, str) or not isinstance(version, str):
            continue
        key = UNRELEASED_KEY if development_version(version) else order_key(version)
        if key == UNRELEASED_KEY or key[1]:  # a version with no number is no release
            releases.setdefault(title.strip(), []).append((key, document.path))
    older: set[str] = set()
    for found in releases.values():
        newest = max(key for key, _ in found)
        older |= {path for key, path in found if key < newest}
    return older


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


def inline_copies(corpus: Context, shapes: list[Shape], threshold: float = 0.8) -> list[InlineCopy]:
    """Inline API schemas that copy (or nearly copy) a schema-file definition.

    The same shape (``Equivalence``: a ``$ref`` to one's own copy of a member is that member) is
    a copy. Otherwise mostly the same property names must come with more evidence: a comment
    calling it a copy, the same name, or, for an inline schema without a name of its own, most
    shared members agreeing (every GeoJSON geometry has ``type`` and ``coordinates``, every
    CQL2 operator ``op`` and ``args``), for a component of another name all of them. When a
    schema file defines the copy's own name, only that definition can be its original."""
    equivalence = Equivalence.of(shapes)
    # A file a tool writes (``speclint.analyses.repository.provenance``: a script's per-endpoint schemas
    # written from the API document) is made from the API's schemas, never the original the
    # API copies: the API's own are the sources.
    made = corpus.provenance
    definitions = [
        s
        for s in shapes
        if s.site.document.kind is DocumentKind.SCHEMA
        and not (s.site.document.path in made and made[s.site.document.path].kind == GENERATED)
    ]
    originals = {s.label for s in definitions if len(s.properties) >= 2}
    known = [(shape_names(s), s) for s in definitions]
    index = _NameIndex(known)
    # Looked up, not compared pair by pair: the definitions of each version (those of no version
    # are comparable with every file, ``VersionLines.comparable``), and by each property name
    # the originals that declare it. Compared with every definition, each inline schema of a
    # corpus ten times over cost ten times as much as before (5.7 s against 0.25 s).
    versions = corpus.versions
    of_version: dict[str, list[int]] = {}
    for number, (_, s) in enumerate(known):
        of_version.setdefault(versions.of(s.site.document.path), []).append(number)
    everything = list(range(len(known)))
    comparables: dict[str, tuple[list[int], set[int]]] = {"": (everything, set(everything))}
    declaring: dict[str, set[int]] = {}
    for number, (_, s) in enumerate(known):
        if s.label in originals:
            for name in s.properties:
                declaring.setdefault(name, set()).add(number)
    found: list[InlineCopy] = []
    for shape in shapes:
        node = shape.site.node
        if not shape.in_api or len(shape.properties) < 2 or "$ref" in node:
            continue
        claim = _claim(shape)
        # A comment calling the copy a reference lowers the bar: the author meant that schema.
        bar = 0.5 if claim else threshold
        version = versions.of(shape.site.document.path)
        if version not in comparables:
            numbers = sorted(of_version.get("", []) + of_version.get(version, []))
            comparables[version] = (numbers, set(numbers))
        comparable, reachable = comparables[version]
        named = index.own_named(shape, reachable)
        own_name = definition_name(shape.site) is not None
        if named:
            candidates = named
        elif bar > 0:
            # A definition that declares none of the shape's properties is no copy of it: its
            # similarity is 0 and it is not exact (the same digest is the same properties).
            sharing = set().union(*(declaring.get(name, ()) for name in shape.properties))
            candidates = [known[number][1] for number in sorted(sharing & reachable)]
        else:
            candidates = [known[number][1] for number in comparable]
        best: tuple[float, bool, int, Shape] | None = None
        for original in candidates:
            if original.label not in originals:
                continue
            if not claim and original.required and not shape.required:
                # The same fields with none required is a partial view of the shape (a PATCH
                # body, a subscription filter over CloudEvents attributes), not a copy of it.
                continue
            exact = original.digest == shape.digest or (
                original.properties == shape.properties and equivalence.shapes(shape, original)
            )
            score = 1.0 if exact else property_similarity(shape, original)
            if score < bar:
                continue
            if not (exact or claim or named) and (
                agreement(shape, original, equivalence) < 1.0
                if own_name
                else agreement(shape, original, equivalence) <= 0.5
            ):
                # The same member names saying different things; a definition of another name
                # must agree on every shared member (`buildingGeoJSON` beside `featureGeoJSON`
                # is a specialised shape).
                continue
            if not (exact or claim or named) and not corroborated(shape, original, equivalence):
                # Most key names in common, each of a compatible type, and nothing else: a
                # member event beside the stripped state it contains, not a copy of it.
                continue
            # Of two candidates alike by their names, the one more of whose members say the
            # same (the message whose body it is, not one that shares its envelope).
            candidate = (score, exact, members_alike(shape, original, equivalence), original)
            if best is None or candidate[:3] > best[:3]:
                best = candidate
        if best is not None:
            found.append(
                InlineCopy(
                    shape,
                    best[3],
                    best[0],
                    claim[0] if claim else None,
                    claim[1] if claim else None,
                    best[1],
                )
            )
    return found


def shape_names(shape: Shape) -> set[str]:
    """The names a shape goes by: its definition name and its ``title``."""
    names = {definition_name(shape.site) or ""}
    title = shape.site.node.get("title") if isinstance(shape.site.node, dict) else None
    if isinstance(title, str):
        names.add(title)
    return {n for n in names if n.lower() not in STRUCTURAL}


class _NameIndex:
    """The definitions by their comparable names, so that finding those that carry a shape's
    own name costs the names looked up, not a comparison with every definition: compared pair
    by pair, it took half of copy-drift's 6.8 s on 4,000 generated schemas and grew with the
    square of the corpus (issue 29, item 4)."""

    def __init__(self, known: list[tuple[set[str], Shape]]) -> None:
        self.known = known
        # A definition's own name (its key, its file's stem) apart from its titles: the copy
        # `UMState` of a file `UMState.yaml` titled as the `State` it wraps copies that file.
        self.defined: dict[str, set[int]] = {}
        for number, (_, shape) in enumerate(known):
            name = _comparable_name(definition_name(shape.site) or "")
            if name:
                self.defined.setdefault(name, set()).add(number)
        self.exact: dict[str, set[int]] = {}
        for number, (names, _) in enumerate(known):
            for name in names:
                comparable = _comparable_name(name)
                if comparable:
                    self.exact.setdefault(comparable, set()).add(number)
        self.ordered = sorted(self.exact)

    def own_named(self, shape: Shape, allowed: set[int]) -> list[Shape]:
        """The definitions of ``allowed`` that carry this shape's own name, the best match only
        (:func:`names_match`: the same name, else one the other with a qualifier), in the order
        of the definitions."""
        own = _comparable_name(definition_name(shape.site) or "")
        defined = self.defined.get(own, set()) & allowed if own else set()
        if defined:
            # A definition of the copy's own name is its original, whatever others its title
            # matches (issue 45, item 7: pair only on evidence).
            return [self.known[n][1] for n in sorted(defined)]
        mine = {c for c in (_comparable_name(n) for n in shape_names(shape)) if c}
        same = {n for name in mine for n in self.exact.get(name, ())} & allowed
        if same:
            return [self.known[n][1] for n in sorted(same)]
        qualified: set[int] = set()
        for name in mine:
            # A shorter name this one starts with (four letters or more) ...
            for end in range(4, len(name)):
                qualified.update(self.exact.get(name[:end], ()))
            # ... or a longer one that starts with this one.
            if len(name) >= 4:
                start = bisect.bisect_right(self.ordered, name)
                for other in self.ordered[start:]:
                    if not other.startswith(name):
                        break
                    qualified.update(self.exact[other])
        qualified &= allowed
        return [self.known[n][1] for n in sorted(qualified)]


def agreement(a: Shape, b: Shape, equivalence: Equivalence) -> float:
    """The share of the members both shapes declare that agree: the same, or of one type with
    no value that one allows and the other does not (a ``format`` more or less is a drift of
    one shape; `type: {const: LineString}` against `{const: MultiPoint}` is another shape)."""
    shared = sorted(a.properties & b.properties)
    if not shared:
        return 0.0
    props_a = a.normal.get("properties", {}) if isinstance(a.normal, dict) else {}
    props_b = b.normal.get("properties", {}) if isinstance(b.normal, dict) else {}
    same = equivalence.members(a, b)
    agreeing = 0
    for name in shared:
        left, right = props_a.get(name), props_b.get(name)
        agreeing += same(left, right) or _compatible(left, right)
    return agreeing / len(shared)


def corroborated(a: Shape, b: Shape, equivalence: Equivalence) -> bool:
    """Evidence beyond shared key names that two shapes without a name in common are one: the
    same members, the same ``required`` members, or most shared members saying exactly the same
    (a type alone is not enough: every event has a string ``type``)."""
    agreeing = members_alike(a, b, equivalence)
    if a.properties == b.properties or (a.required and a.required == b.required):
        # The same member names and none of them saying the same is no copy: every message
        # of a protocol is one envelope (`{context, message}`), each its own body (issue 45,
        # item 7).
        return agreeing > 0
    return 2 * agreeing > len(a.properties & b.properties)


def members_alike(a: Shape, b: Shape, equivalence: Equivalence) -> int:
    """How many of the members both shapes declare say exactly the same (``Equivalence``)."""
    props_a = a.normal.get("properties", {}) if isinstance(a.normal, dict) else {}
    props_b = b.normal.get("properties", {}) if isinstance(b.normal, dict) else {}
    same = equivalence.members(a, b)
    return sum(
        1
        for name in sorted(a.properties & b.properties)
        if same(props_a.get(name), props_b.get(name))
    )


def _compatible(left: Any, right: Any) -> bool:
    if (
        not isinstance(left, dict)
        or not isinstance(right, dict)
        or "$ref" in left
        or "$ref" in right
    ):
        return False
    left, right = _canonical(left), _canonical(right)
    if left.get("type") != right.get("type"):
        return False

    def allowed(node: dict[str, Any]) -> list[Any] | None:
        if "const" in node:
            return [node["const"]]
        return node["enum"] if isinstance(node.get("enum"), list) else None

    values_l, values_r = allowed(left), allowed(right)
    return (
        values_l is None
        or values_r is None
        or sorted(map(str, values_l)) == sorted(map(str, values_r))
    )


def relative_ref(from_path: str, to: Site) -> str:
    """The ``$ref`` a document at ``from_path`` writes to reach ``to``."""
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


def payload_claims(corpus: Context) -> Iterator[PayloadClaim]:
    """Minimum-payload field lists in API-document comments (bound to the ``$ref`` below them)
    and in prose (bound to the schema the same section names)."""

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


PayloadList = tuple[tuple[str, ...], int, list[str]]


def page_payload_lists(document: Document) -> list[PayloadList]:
    """The minimum-payload field lists of one Markdown page: (fields, line, the schema files its
    section names). All that is read of the page (``READS = "extract"``), kept with it
    (``speclint.analyses.units.kept_with_page``)."""
    return kept_with_page(
        document, "fingerprints.payload_lists", _page_payload_lists, list[PayloadList]
    )


def _page_payload_lists(document: Document) -> list[PayloadList]:
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

    return resolve(document, pointer)


def _ref_sites(document: Document) -> Iterator[Site]:
    """Every ``{"$ref": ...}`` object of an API document, as a site."""

    for pointer, _, _ in ref_sites(document):
        holder = pointer.rsplit("/", 1)[0]
        yield Site(document, holder, resolve(document, holder))
