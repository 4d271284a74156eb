"""One schema object read in the 2020-12 vocabulary, whatever dialect it was written in.

The rules that compare or diff schemas (``copy-drift``, ``inline-copy``, ``compat-claim``, the
value sets of ``enum-drift``) reason in 2020-12 terms. A schema written in another dialect says
some of the same things with other keywords, and reading those keywords by their 2020-12 meaning
gives wrong answers: a draft-04 ``"exclusiveMinimum": true`` is not a bound of ``true``, and a
draft-07 ``"items": [...]`` is not one item schema. :func:`modern` translates one schema object,
so a draft-04 copy and a 2020-12 copy of one definition compare equal:

==================================  ===================================  =======================
written                             read as (2020-12)                    where
==================================  ===================================  =======================
``minimum: 0, exclusiveMinimum:     ``exclusiveMinimum: 0``              draft-04 §5.1.3,
true`` (likewise maximum)                                                OpenAPI 3.0 (draft
                                                                         wright-00)
``items: [a, b]``,                  ``prefixItems: [a, b]``,             draft-04 to 2019-09
``additionalItems: c``              ``items: c``                         (2020-12 §10.3.1.1)
``dependencies: {x: [..]}``,        ``dependentRequired``,               draft-04 to -07
``dependencies: {x: {..}}``         ``dependentSchemas``                 (2019-09 §6.5.4)
``type: T, nullable: true``         ``type: [T, "null"]``                OpenAPI 3.0.3 §4.7.24.1
``$ref`` with other keywords        the ``$ref`` alone                   draft-04 to -07,
                                                                         OpenAPI 3.0 (siblings
                                                                         are ignored)
==================================  ===================================  =======================

The first three are read by their shape, in any dialect: a boolean bound or an array ``items``
is invalid in 2020-12, so the older meaning is the only one it can have. ``nullable`` and the
ignored ``$ref`` siblings depend on the dialect, which :func:`dialect_at` finds: the document's,
or the nearest ``$schema`` above the location.

Each translated keyword remembers how it was written (``Reading.written``), so a finding still
points at the keyword in the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from speclint.parsing.keyword_positions import Position, member_position
from speclint.parsing.kinds import draft_of

# Dialects whose `$ref` replaces its siblings (draft-07 §8.3; OpenAPI 3.0.3 §4.7.24: "This
# object cannot be extended with additional properties and any properties added SHALL be ignored").
_REF_ALONE = ("draft-03", "draft-04", "draft-06", "draft-07")
_REF_ALONE_PREFIXES = ("OpenAPI 3.0", "Swagger", "AsyncAPI 2", "AsyncAPI 1")


@dataclass(frozen=True)
class Reading:
    """A schema object in 2020-12 terms, and how each translated keyword was written."""

    node: dict[str, Any]
    written: Mapping[str, str] = field(default_factory=dict)  # modern keyword -> source keyword

    def source(self, keyword: str) -> str:
        """The keyword as the file spells it (for pointers and locations)."""
        return self.written.get(keyword, keyword)


def dialect_of_schema(declared: object, inherited: str) -> str:
    """The dialect in force at a schema object: its own ``$schema`` when it names a draft,
    else ``inherited``."""
    draft = draft_of(declared) if isinstance(declared, str) else None
    return draft if draft is not None else inherited


def dialect_at(data: Any, pointer_tokens: list[str], document_dialect: str) -> str:
    """The dialect at a location: the nearest ``$schema`` naming a draft on the way down from
    the document root, else the document's own (``Document.dialect``)."""
    dialect = (
        dialect_of_schema(data.get("$schema"), document_dialect)
        if isinstance(data, dict)
        else document_dialect
    )
    node = data
    for token in pointer_tokens:
        if isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            break
        if isinstance(node, dict):
            dialect = dialect_of_schema(node.get("$schema"), dialect)
    return dialect


def ref_replaces_siblings(dialect: str) -> bool:
    return dialect in _REF_ALONE or dialect.startswith(_REF_ALONE_PREFIXES)


def has_nullable(dialect: str) -> bool:
    """Whether ``nullable`` is a keyword here (OpenAPI 3.0 Schema Objects; 3.1 dropped it)."""
    return dialect.startswith("OpenAPI 3.0")


def modern(node: Any, dialect: str) -> Reading | None:
    """``node`` read in the 2020-12 vocabulary (see the module docstring), or None when it is
    not a schema object. The result shares unchanged values with ``node``; never mutate it."""
    if not isinstance(node, dict):
        return None
    if isinstance(node.get("$ref"), str) and ref_replaces_siblings(dialect):
        kept = {k: v for k, v in node.items() if k == "$ref" or k.startswith("x-")}
        return Reading(kept) if len(kept) != len(node) else Reading(node)
    if not _needs_translation(node, dialect):
        return Reading(node)
    result = dict(node)
    written: dict[str, str] = {}
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        flag = result.get(exclusive)
        if isinstance(flag, bool):
            del result[exclusive]
            if flag and isinstance(result.get(bound), (int, float)):
                result[exclusive] = result.pop(bound)
                written[exclusive] = bound
    if isinstance(result.get("items"), list):
        result["prefixItems"] = result.pop("items")
        written["prefixItems"] = "items"
        if "additionalItems" in result:
            result["items"] = result.pop("additionalItems")
            written["items"] = "additionalItems"
    else:
        result.pop("additionalItems", None)  # ignored when `items` is not an array
    dependencies = result.pop("dependencies", None)
    if isinstance(dependencies, dict):
        names = {k: v for k, v in dependencies.items() if isinstance(v, list)}
        schemas = {k: v for k, v in dependencies.items() if isinstance(v, (dict, bool))}
        if names and "dependentRequired" not in result:
            result["dependentRequired"] = names
            written["dependentRequired"] = "dependencies"
        if schemas and "dependentSchemas" not in result:
            result["dependentSchemas"] = schemas
            written["dependentSchemas"] = "dependencies"
    nullable = result.pop("nullable", None) if has_nullable(dialect) else None
    if nullable is True and isinstance(result.get("type"), str):
        result["type"] = [result["type"], "null"]
    return Reading(result, written)


def _needs_translation(node: dict[str, Any], dialect: str) -> bool:
    return (
        isinstance(node.get("exclusiveMinimum"), bool)
        or isinstance(node.get("exclusiveMaximum"), bool)
        or isinstance(node.get("items"), list)
        or "additionalItems" in node
        or "dependencies" in node
        or (has_nullable(dialect) and "nullable" in node)
    )


# --- whole schemas, for a decider that reads 2020-12 only --------------------------------------

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
# Keywords 2020-12 knows that an older dialect does not: there they are ignored annotations, so a
# faithful translation drops them (draft-07 §6 lists its keywords; the rest were added later).
_LATER_THAN_07 = frozenset(
    {
        "unevaluatedProperties", "unevaluatedItems", "dependentRequired", "dependentSchemas",
        "prefixItems", "minContains", "maxContains", "$anchor", "$dynamicRef", "$dynamicAnchor",
        "$recursiveRef", "$recursiveAnchor", "$vocabulary",
    }
)  # fmt: skip
_LATER_THAN = {
    "draft-07": _LATER_THAN_07,
    "draft-06": _LATER_THAN_07 | {"if", "then", "else", "contentMediaType", "contentEncoding"},
    "draft-04": _LATER_THAN_07
    | {"if", "then", "else", "const", "contains", "propertyNames", "examples"},
}
# Subschema places of 2020-12 (Core §10, Validation §6): keyword -> how it holds schemas.
_IN_VALUE = frozenset(
    {
        "additionalProperties", "unevaluatedProperties", "items", "unevaluatedItems", "contains",
        "propertyNames", "not", "if", "then", "else", "contentSchema",
    }
)  # fmt: skip
_IN_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_IN_MAP = frozenset({"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"})


def translatable(dialect: str) -> bool:
    """Whether :func:`to_2020_12` reads this dialect faithfully (draft-03 and unknown dialect
    URIs are not; 2020-12 and 2019-09 need no translation)."""
    return dialect in _LATER_THAN or dialect.startswith(("OpenAPI 3.0", "AsyncAPI 2"))


def to_2020_12(node: Any, dialect: str, depth: int = 0) -> Any:
    """A whole schema of ``dialect`` rewritten in 2020-12, meaning the same: each schema object
    through :func:`modern`, keywords the dialect did not have dropped (it ignored them),
    draft-04 ``id`` as ``$id``/``$anchor``, and ``$schema`` naming 2020-12. Locations of
    translated keywords move (``items`` becomes ``prefixItems``); pointers to schema roots do
    not. A nested ``$schema`` switches the dialect for its subtree."""
    if not isinstance(node, dict) or depth > 200:
        return node
    dialect = dialect_of_schema(node.get("$schema"), dialect)
    reading = modern(node, dialect)
    assert reading is not None
    dropped = _later_than(dialect)
    result: dict[str, Any] = {}
    for key, value in reading.node.items():
        if key in dropped and key not in reading.written:
            continue
        if key == "$schema":
            result[key] = DRAFT_2020_12
        elif key == "id" and dialect == "draft-04" and isinstance(value, str):
            base, _, fragment = value.partition("#")
            if base:
                result["$id"] = base
            elif fragment and not fragment.startswith("/"):
                result["$anchor"] = fragment
        elif key in _IN_VALUE:
            result[key] = to_2020_12(value, dialect, depth + 1)
        elif key in _IN_LIST and isinstance(value, list):
            result[key] = [to_2020_12(each, dialect, depth + 1) for each in value]
        elif key in _IN_MAP and isinstance(value, dict):
            result[key] = {k: to_2020_12(v, dialect, depth + 1) for k, v in value.items()}
        else:
            result[key] = value
    return result


def _later_than(dialect: str) -> frozenset[str]:
    if dialect in _LATER_THAN:
        return frozenset(_LATER_THAN[dialect])
    if dialect.startswith(("OpenAPI 3.0", "AsyncAPI 2")):
        return _LATER_THAN_07  # OpenAPI 3.0: draft wright-00 subset; AsyncAPI 2: draft-07
    return frozenset()


def has_unevaluated(dialect: str) -> bool:
    """Whether ``unevaluatedProperties`` exists in this dialect (2019-09 on, OpenAPI 3.1+,
    AsyncAPI 3): where it does not, a closed composition must be one closed schema."""
    return not translatable(dialect) and dialect not in ("draft-03", "Swagger 2.0")


def api_document_to_2020_12(data: Any, dialect: str) -> Any:
    """An OpenAPI 3.0 or AsyncAPI 2 document with each Schema Object (``components/schemas``
    entries, every ``schema`` and every message ``payload``) rewritten by :func:`to_2020_12`;
    everything else as it is."""

    def walk(node: Any, in_components: bool, depth: int) -> Any:
        if depth > 200:
            return node
        if isinstance(node, list):
            return [walk(each, False, depth + 1) for each in node]
        if not isinstance(node, dict):
            return node
        result: dict[str, Any] = {}
        for key, value in node.items():
            if key in ("schema", "payload") and isinstance(value, dict):
                if key == "payload" and "schemaFormat" in value:
                    result[key] = value  # a Multi Format Schema Object: another language
                else:
                    result[key] = to_2020_12(value, dialect)
            elif in_components and key == "schemas" and isinstance(value, dict):
                result[key] = {k: to_2020_12(v, dialect) for k, v in value.items()}
            else:
                result[key] = walk(value, key == "components" and depth == 0, depth + 1)
        return result

    return walk(data, False, 0)


# --- the draft a schema is written in, when its `$schema` does not say -------------------------

# `$schema` URIs that once meant "the latest draft" (json-schema.org served the newest
# metaschema, and hyper-schema, there until draft-06 added versioned URIs): they name no draft.
LATEST_OF_THEIR_DAY = frozenset({"json-schema.org/schema", "json-schema.org/hyper-schema"})
_SINCE_2019 = frozenset(
    {
        "$defs", "$anchor", "$recursiveRef", "$recursiveAnchor", "unevaluatedProperties",
        "unevaluatedItems", "dependentRequired", "dependentSchemas", "minContains", "maxContains",
    }
)  # fmt: skip
_SINCE_2020 = frozenset({"$dynamicRef", "$dynamicAnchor", "prefixItems"})


def names_latest_draft(uri: object) -> bool:
    """Whether ``uri`` is a legacy "latest draft" URI (``http://json-schema.org/schema#``)."""
    return isinstance(uri, str) and uri.split("://", 1)[-1].rstrip("#") in LATEST_OF_THEIR_DAY


def draft_by_keywords(schema: Any, limit: int = 20_000) -> str:
    """The draft a schema's keywords say it is written in, for a ``$schema`` that names none:
    2020-12 keywords (``prefixItems``, ``$dynamicRef``) say 2020-12; other 2019-09 ones
    (``$defs``, ``unevaluatedProperties``) say 2019-09 when ``items`` is also an array (2020-12
    reads that as an error), else 2020-12; a boolean ``exclusiveMinimum``/``exclusiveMaximum``
    or a root ``id`` without ``$id`` says draft-04; anything else reads as draft-07, which
    accepts the keywords of draft-04 to -07 with their meaning (``definitions``, array
    ``items``, ``dependencies``)."""
    seen_2019 = seen_2020 = array_items = draft_04 = False
    if isinstance(schema, dict) and isinstance(schema.get("id"), str) and "$id" not in schema:
        draft_04 = True
    stack: list[tuple[Any, Position]] = [(schema, Position.SCHEMA)]
    visited = 0
    while stack and visited < limit:  # bounded: a generated schema may be huge
        node, position = stack.pop()
        visited += 1
        if isinstance(node, dict):
            if position is Position.SCHEMA:  # keywords; a `properties` map's keys are names
                keys = node.keys()
                seen_2020 = seen_2020 or not _SINCE_2020.isdisjoint(keys)
                seen_2019 = seen_2019 or not _SINCE_2019.isdisjoint(keys)
                array_items = array_items or isinstance(node.get("items"), list)
                draft_04 = draft_04 or any(
                    isinstance(node.get(k), bool) for k in ("exclusiveMinimum", "exclusiveMaximum")
                )
            for key, value in node.items():
                place = member_position(position, key)
                if place is not Position.DATA and isinstance(value, (dict, list)):
                    stack.append((value, place))
        elif isinstance(node, list):
            stack.extend((v, position) for v in node if isinstance(v, (dict, list)))
    if seen_2020:
        return "2020-12"
    if seen_2019:
        return "2019-09" if array_items else "2020-12"
    return "draft-04" if draft_04 else "draft-07"
