"""An array of a data file that repeats a key its schema says is unique.

What it does
    Walks every *instance* (a data file naming its schema, see ``instance-invalid``) beside its
    schema. Where an array's schema says a key of its items is unique, each item repeating an
    earlier item's key is reported at the key member, the first related. Values compare as JSON
    values (``1`` equals ``1.0``); items lacking the key are not compared.

    JSON Schema cannot say "unique by key" (``uniqueItems`` compares whole items, and
    ``instance-invalid`` reports it), so the claim is read from:

    - an ``x-unique-keys`` annotation on the array schema: property names (``["id"]``), lists
      of them for a compound key (``[["namespace", "name"]]``), or JSON pointers into the item
      (``"/meta/id"``); an error;
    - the array's ``description`` ("Each MUST have a unique `typeId`"), or the ``description``
      of an item property that scopes its uniqueness to the array ("unique within the chart",
      "MUST be unique"; not "globally unique", nor a negated claim); a warning.

Why is this bad?
    A keyed collection is read into a map by every consumer: the second item with the same key
    silently replaces the first (or loses to it), and one entry is lost unnoticed.

Example
    Schema::

        "entries": {"type": "array", "x-unique-keys": ["id"],
                    "items": {"type": "object", "properties": {"id": {"type": "string"}}}}

    Instance::

        {"$schema": "./registry.schema.json", "entries": [{"id": "a"}, {"id": "b"}, {"id": "a"}]}

    FAIL: ``error [duplicate-item] `/entries/2` repeats `id` = "a" of `/entries/0` ...``

Use instead
    Give the third entry its own ``id`` (or merge it into the first). PASS.

Options
    ``annotation`` (default ``"x-unique-keys"``): the annotation keyword to read.
    ``descriptions`` (default ``true``): ``false`` reads the annotation only.

Limitations
    An ``anyOf``/``oneOf`` is entered only through branches the value is valid against;
    ``if``/``then``/``else``, ``not``, ``contains`` are not. A malformed annotation is ignored; API
    documents' examples are not checked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.validators import validator_for
from referencing.exceptions import Unresolvable

from speclint.analyses.context import Context
from speclint.analyses.schemas.instance_schemas import Schema, instances
from speclint.analyses.schemas.references import file_uri
from speclint.analyses.schemas.shapes import Site, follow_once, resolve
from speclint.analyses.schemas.validation import MALFORMED_SCHEMA, search
from speclint.analyses.units import check_by_unit, schema_reach
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.parsing.dialects import dialect_at, dialect_of_schema, modern
from speclint.parsing.structured import (
    escape_token,
    holds_pointer,
    join_pointer,
    resolve_pointer,
    split_pointer,
)

ID = "duplicate-item"
SEVERITY = Severity.ERROR  # declared by the annotation; a description's claim is a warning
FACTS = ("references", "instances")  # speclint.analyses.context
# One instance at a time, with the schema it names and what that reaches (speclint.analyses.units,
# speclint.analyses.schemas.instance_schemas: instance-invalid's units, and the same lookup).
READS = "document"
MAX_STEPS = 200_000  # (value, schema) pairs visited per instance
MAX_BRANCH_CHECKS = 2_000  # anyOf/oneOf branch validations per instance
MAX_HOPS = 64  # schemas visited to find an item's properties

_NEGATED = re.compile(r"\b(?:not|non|never|need\s*n[o']t|needn't|no\s+need)\b[\s\w-]{0,20}$", re.I)
_KEY_THEN_UNIQUE = re.compile(
    r"`([A-Za-z_$][\w$-]*)`\s+(?:values?\s+|field\s+|property\s+)?"
    r"(?:(?:MUST|must|SHALL|shall|SHOULD|should|is|are|will)\s+)?(?:be\s+)?unique\b"
)
_UNIQUE_THEN_KEY = re.compile(r"\bunique\s+`([A-Za-z_$][\w$-]*)`")
_UNIQUE_THEN_WORD = re.compile(r"\bunique\s+([A-Za-z_][\w-]*)\b")
_SCOPED = re.compile(
    r"\bunique\s+(?:within|among|across|amongst|in)\s+(?P<scope>\w+)"
    r"|\b(?:MUST|must|SHALL|shall)\s+be\s+unique\b"
)
_NARROW = frozenset({"its", "each", "a", "an", "one", "their", "per", "that", "this", "any"})
_NARROWED = re.compile(
    r"\s+(?:per|for\s+each|within\s+(?:its|each|a|an|the\s+same)|in\s+(?:its|each|a))\b", re.I
)


@dataclass(frozen=True)
class Claim:
    """A key the schema says is unique among the items of an array."""

    keys: tuple[str, ...]  # property names, or JSON pointers into the item
    severity: Severity
    where: Location  # the annotation or description that says so
    how: str  # "`x-unique-keys`", "the array's description", ...


@dataclass
class Walk:
    corpus: Context
    document: Document
    annotation: str
    descriptions: bool
    steps: int = 0
    branch_checks: int = 0


# A schema that cannot judge the value: its defect is another rule's finding.
_NOT_JUDGED: tuple[type[BaseException], ...] = (*MALFORMED_SCHEMA, Unresolvable, RecursionError)

units = instances  # each instance that names its schema
unit_inputs = schema_reach  # the schema it names, and what that reaches: the unit cache's key


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, units=units)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    annotation = str(options.get("annotation", "x-unique-keys"))
    descriptions = bool(options.get("descriptions", True))
    target = corpus.instances.of(document)
    if not isinstance(target, Schema):
        return []  # instance-invalid reports a schema it cannot find
    schema_document, fragment = target.document, target.fragment
    if fragment and not fragment.startswith("/"):
        return []  # a plain-name anchor: not followed here
    site = Site(schema_document, fragment, resolve(schema_document, fragment))
    walk = Walk(corpus, document, annotation, descriptions)
    return list(_walk(walk, site))


def _walk(walk: Walk, root: Site) -> Iterator[Finding]:
    instance = walk.document.data
    start_dialect = dialect_at(
        root.document.data, split_pointer(root.pointer), root.document.dialect
    )
    stack: list[tuple[Any, str, Site, str]] = [(instance, "", root, start_dialect)]
    seen: set[tuple[str, str, str]] = set()
    # The strongest claim per (array, key): one array reaches several schemas (a `$ref` and its
    # target, `allOf` branches), and an annotation outranks a description.
    claims: dict[tuple[str, tuple[str, ...]], tuple[list[Any], Claim]] = {}
    while stack:
        value, pointer, site, dialect = stack.pop()
        visit = (pointer, site.document.path, site.pointer)
        if visit in seen:
            continue
        seen.add(visit)
        walk.steps += 1
        if walk.steps > MAX_STEPS:
            yield Finding(
                ID,
                Severity.INFO,
                f"not fully checked: the walk beside `{root.document.path}` stopped after "
                f"{MAX_STEPS:,} steps; split the file to have the rest checked",
                walk.document.location(""),
                key="budget",
            )
            break
        dialect = dialect_of_schema(
            site.node.get("$schema") if isinstance(site.node, dict) else None, dialect
        )
        reading = modern(site.node, dialect)
        if reading is None:
            continue
        if isinstance(value, list):
            for claim in _claims(walk, site, reading.node, reading.source, dialect):
                held = claims.get((pointer, claim.keys))
                if held is None or claim.severity > held[1].severity:
                    claims[(pointer, claim.keys)] = (value, claim)
        stack.extend(_children(walk, value, pointer, site, reading.node, reading.source, dialect))
    for (pointer, _), (items, claim) in sorted(claims.items(), key=lambda kv: _order(kv[0])):
        yield from _duplicates(walk, items, pointer, claim)


def _order(key: tuple[str, tuple[str, ...]]) -> tuple[list[tuple[int, str]], tuple[str, ...]]:
    pointer, keys = key
    tokens = [(0, f"{int(t):012d}") if t.isdigit() else (1, t) for t in split_pointer(pointer)]
    return tokens, keys


def _children(
    walk: Walk,
    value: Any,
    pointer: str,
    site: Site,
    node: dict[str, Any],
    source: Any,
    dialect: str,
) -> Iterator[tuple[Any, str, Site, str]]:
    """The (value, schema) pairs one step below; ``source`` spells keywords as the file does."""

    def at(*tokens: str | int) -> Site:
        where = site.pointer
        found: Any = site.node
        for token in tokens:
            where = join_pointer(where, token)
            found = resolve_pointer(found, "/" + escape_token(token))
        return Site(site.document, where, found)

    if isinstance(node.get("$ref"), str):
        target = follow_once(walk.corpus, site)
        if target is not None:
            target_dialect = dialect_at(
                target.document.data, split_pointer(target.pointer), target.document.dialect
            )
            yield value, pointer, target, target_dialect
    for index, _ in enumerate(_list(node.get("allOf"))):
        yield value, pointer, at("allOf", index), dialect
    for keyword in ("anyOf", "oneOf"):
        valid = _valid_branches(walk, value, site, keyword, _list(node.get(keyword)))
        if keyword == "oneOf" and len(valid) != 1:
            continue  # no branch, or several: the schema path is ambiguous
        for index in valid:
            yield value, pointer, at(keyword, index), dialect
    if isinstance(value, dict):
        properties = _dict(node.get("properties"))
        patterns = _dict(node.get("patternProperties"))
        dependent = _dict(node.get("dependentSchemas"))
        for key in sorted(value, key=str):
            child = join_pointer(pointer, key)
            matched = False
            if key in properties:
                matched = True
                yield value[key], child, at("properties", key), dialect
            for pattern in sorted(patterns):
                if search(pattern, key):
                    matched = True
                    yield value[key], child, at("patternProperties", pattern), dialect
            if not matched and "additionalProperties" in node:
                yield value[key], child, at("additionalProperties"), dialect
            if key in dependent:
                yield value, pointer, at(source("dependentSchemas"), key), dialect
    elif isinstance(value, list):
        prefix = _list(node.get("prefixItems"))
        prefix_keyword = source("prefixItems")
        for index, item in enumerate(value):
            child = join_pointer(pointer, index)
            if index < len(prefix):
                yield item, child, at(prefix_keyword, index), dialect
            elif "items" in node:
                yield item, child, at(source("items")), dialect


def _valid_branches(
    walk: Walk, value: Any, site: Site, keyword: str, branches: list[Any]
) -> list[int]:
    """The branches of ``anyOf``/``oneOf`` the value is valid against (none when out of budget
    or the schema cannot be compiled: the path is then not followed)."""
    if not branches or walk.branch_checks + len(branches) > MAX_BRANCH_CHECKS:
        return []
    walk.branch_checks += len(branches)
    root = site.document.data
    dialect = validator_for(root if isinstance(root, dict) else {}, default=Draft202012Validator)
    valid: list[int] = []
    for index in range(len(branches)):
        where = join_pointer(join_pointer(site.pointer, keyword), index)
        uri = f"{file_uri(site.document.path)}#{where}"
        try:
            if walk.corpus.references.validator(dialect, uri).is_valid(value):
                valid.append(index)
        except _NOT_JUDGED:
            return []
    return valid


# --- what the schema claims -------------------------------------------------------------------


def _claims(
    walk: Walk, site: Site, node: dict[str, Any], source: Any, dialect: str
) -> Iterator[Claim]:
    declared: set[tuple[str, ...]] = set()
    for keys in _annotated_keys(node.get(walk.annotation)):
        declared.add(keys)
        yield Claim(
            keys,
            Severity.ERROR,
            site.at(walk.annotation),
            f"`{walk.annotation}` at {site.document.path}#{site.pointer or '/'}",
        )
    if not walk.descriptions:
        return
    items = _items_of(walk.corpus, site, node, source, dialect)
    if items is None:
        return
    properties = _item_properties(walk.corpus, items, dialect)
    description = node.get("description")
    if isinstance(description, str):
        for key in _keys_in_array_description(description, properties):
            if (key,) not in declared:
                declared.add((key,))
                yield Claim(
                    (key,),
                    Severity.WARNING,
                    site.at("description"),
                    f"the description of {site.document.path}#{site.pointer or '/'}",
                )
    for key, property_site in sorted(properties.items()):
        schema = property_site.node
        text = schema.get("description") if isinstance(schema, dict) else None
        if isinstance(text, str) and _scoped_unique(text) and (key,) not in declared:
            declared.add((key,))
            yield Claim(
                (key,),
                Severity.WARNING,
                property_site.at("description"),
                f"the description of `{key}` at "
                f"{property_site.document.path}#{property_site.pointer}",
            )


def _items_of(
    corpus: Context, site: Site, node: dict[str, Any], source: Any, dialect: str
) -> Site | None:
    r"""The item schema of an array schema, here or through its ``$ref``\s and ``allOf``s (a
    description often sits beside the ``$ref`` to the array it describes)."""
    if isinstance(node.get("items"), dict):
        return Site(site.document, join_pointer(site.pointer, source("items")), node["items"])
    for current, reading in _scope(corpus, site, dialect):
        items = reading.node.get("items")
        if isinstance(items, dict):
            return Site(
                current.document, join_pointer(current.pointer, reading.source("items")), items
            )
    return None


def _scope(corpus: Context, site: Site, dialect: str) -> Iterator[tuple[Site, Any]]:
    """The schema at ``site`` and what applies to the same instance with it: its ``$ref``
    targets and ``allOf`` branches, each once, read in 2020-12 terms (``dialects.modern``)."""
    pending = [site]
    seen: set[tuple[str, str]] = set()
    while pending and len(seen) < MAX_HOPS:
        current = pending.pop()
        if (current.document.path, current.pointer) in seen:
            continue
        seen.add((current.document.path, current.pointer))
        reading = modern(current.node, dialect)
        if reading is None:
            continue
        yield current, reading
        target = follow_once(corpus, current)
        if target is not None:
            pending.append(target)
        for index, branch in enumerate(_list(reading.node.get("allOf"))):
            where = join_pointer(join_pointer(current.pointer, "allOf"), index)
            pending.append(Site(current.document, where, branch))


def _annotated_keys(value: Any) -> list[tuple[str, ...]]:
    """``["id"]`` -> [("id",)], ``[["a", "b"]]`` -> [("a", "b")], ``"id"`` -> [("id",)];
    anything else -> [] (a malformed annotation is ignored)."""
    if isinstance(value, str) and value:
        return [(value,)]
    if not isinstance(value, list):
        return []
    found: list[tuple[str, ...]] = []
    for entry in value:
        if isinstance(entry, str) and entry:
            found.append((entry,))
        elif (
            isinstance(entry, list)
            and entry
            and all(isinstance(part, str) and part for part in entry)
        ):
            found.append(tuple(entry))
        else:
            return []
    return list(dict.fromkeys(found))


def _keys_in_array_description(text: str, properties: Mapping[str, Site]) -> list[str]:
    found: list[str] = []
    for pattern in (_UNIQUE_THEN_KEY, _KEY_THEN_UNIQUE, _UNIQUE_THEN_WORD):
        for match in pattern.finditer(text):
            key = match.group(1)
            if key not in properties or _negated(text, match.start()):
                continue
            if key not in found:
                found.append(key)
    return found


def _scoped_unique(text: str) -> bool:
    """Does a property's description say it is unique among the items of its array: "unique
    within the chart", "MUST be unique"; not "unique within its department" (narrower than the
    array), "MUST be unique per tenant", or a negated claim?"""
    for match in _SCOPED.finditer(text):
        if _negated(text, match.start()):
            continue
        scope = (match.group("scope") or "").lower()
        after = text[match.end() :]
        if scope in _NARROW or (scope == "the" and re.match(r"\s*same\b", after, re.I)):
            continue
        if not scope and _NARROWED.match(after):
            continue
        return True
    return False


def _negated(text: str, at: int) -> bool:
    return _NEGATED.search(text[max(0, at - 40) : at]) is not None


def _item_properties(corpus: Context, site: Site, dialect: str) -> dict[str, Site]:
    """The properties every item has a schema for: through ``$ref`` and ``allOf``."""
    found: dict[str, Site] = {}
    for current, reading in _scope(corpus, site, dialect):
        for key, schema in _dict(reading.node.get("properties")).items():
            if key not in found:
                found[key] = Site(
                    current.document,
                    join_pointer(join_pointer(current.pointer, "properties"), key),
                    schema,
                )
    return found


# --- the duplicates ---------------------------------------------------------------------------


def _duplicates(walk: Walk, items: list[Any], pointer: str, claim: Claim) -> Iterator[Finding]:
    first: dict[tuple[str, ...], int] = {}
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        parts = [_member(item, key) for key in claim.keys]
        if any(part is _ABSENT for part in parts):
            continue
        value = tuple(_canonical(part) for part in parts)
        earlier = first.setdefault(value, index)
        if earlier == index:
            continue
        document = walk.document
        here = _key_pointer(pointer, index, claim.keys[0])
        there = _key_pointer(pointer, earlier, claim.keys[0])
        before = document.location(there, note="first occurrence")
        shown = ", ".join(
            f"`{_label(key)}` = {_short(part)}" for key, part in zip(claim.keys, value, strict=True)
        )
        what = "the key" if len(claim.keys) == 1 else "the compound key"
        yield Finding(
            ID,
            claim.severity,
            f"`{join_pointer(pointer, index)}` repeats {shown} of `{join_pointer(pointer, earlier)}` "
            f"(line {before.line}); {claim.how} says {what} is unique in `{pointer or '/'}`: give "
            "the item its own key, or merge the two items",
            document.location(here),
            related=(before, replace(claim.where, note="the uniqueness claim")),
            key=f"{pointer}|{','.join(claim.keys)}|{'|'.join(value)[:200]}|{index}",
        )


class _Absent:
    pass


_ABSENT = _Absent()


def _member(item: dict[str, Any], key: str) -> Any:
    if key.startswith("/"):
        return resolve_pointer(item, key) if holds_pointer(item, key) else _ABSENT
    return item.get(key, _ABSENT)


def _canonical(value: Any) -> str:
    """JSON equality (RFC 8259 numbers: ``1`` equals ``1.0``; member order does not matter)."""

    def normal(node: Any) -> Any:
        if isinstance(node, bool) or node is None or isinstance(node, str):
            return node
        if isinstance(node, float) and node.is_integer():
            return int(node)
        if isinstance(node, dict):
            return {str(k): normal(v) for k, v in node.items()}
        if isinstance(node, list):
            return [normal(v) for v in node]
        return node

    try:
        return json.dumps(normal(value), sort_keys=True, ensure_ascii=False, default=str)
    except (ValueError, RecursionError):
        return repr(value)


def _key_pointer(pointer: str, index: int, key: str) -> str:
    item = join_pointer(pointer, index)
    return item + key if key.startswith("/") else join_pointer(item, key)


def _label(key: str) -> str:
    return key.lstrip("/") if key.startswith("/") else key


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
