"""What one schema node asserts, read as values, types and bounds, for the comparisons of two
revisions (``speclint.analyses.changes.compat``): the keyword groups the walk pairs, the values an
``enum``/``const`` lists, the types a node allows, the tighter of two bounds, a ``multipleOf``
and ``dependentRequired`` read as sets, a union that is the whole schema, and one schema
meaning two together (``conjoined``). Pure functions of JSON values: no corpus, no revision."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from speclint.analyses.schemas.references import ANNOTATIONS
from speclint.analyses.schemas.schema_objects import types_of
from speclint.parsing.structured import canonical, json_type, split_pointer

MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
# `not` and `if` are conditions, not shapes: a change inside them reads the other way round.
SINGLE = (
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "then",
    "else",
)
LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
UNIONS = ("allOf", "anyOf", "oneOf")  # members paired by meaning (``union_members``)
LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
# The bounds of a number, read as one lower and one upper bound (``numeric_bound``): a
# `minimum` become an `exclusiveMinimum` of the same value is tighter, not a bound removed.
NUMERIC_BOUNDS = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
# Subschema keywords whose absence (or `true`) means the empty schema, so "absent" against a
# schema compares as `{}` against it (2020-12 Core §10.3: each applies to what it reaches, and
# an absent one constrains nothing). `contains` is not one: `contains: {}` asks for an item.
EMPTY_WHEN_ABSENT = (
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "then",
    "else",
)
# Maps whose entries, absent, constrain nothing either (a `patternProperties` pattern no name
# matched, a `dependentSchemas` member never present). `properties` is not one: an absent name
# falls to `additionalProperties`, and a name added or removed is its own change.
EMPTY_WHEN_ABSENT_ENTRY = ("patternProperties", "dependentSchemas")


def listed_values(node: dict[str, Any]) -> list[Any] | None:
    if isinstance(node.get("enum"), list):
        return list(node["enum"])
    if "const" in node:
        return [node["const"]]
    return None


def pure_union(node: dict[str, Any]) -> str | None:
    """``anyOf`` or ``oneOf`` when that is all ``node`` says (beside annotations and an OpenAPI
    ``discriminator``), so its members are the whole schema. A ``type`` beside it is allowed
    when every member is a shape of its own (a ``$ref``, a ``type`` or ``properties``); beside
    bare constraints (``oneOf: [{required: [a]}, {required: [b]}]``) no member is the whole."""
    keywords = [k for k in ("anyOf", "oneOf") if isinstance(node.get(k), list)]
    if len(keywords) != 1:
        return None
    others = set(node) - {keywords[0], "discriminator"} - ANNOTATIONS
    if others == {"type"} and all(
        isinstance(member, dict) and ({"$ref", "type", "properties"} & set(member))
        for member in node[keywords[0]]
    ):
        others = set()
    return keywords[0] if not others else None


def has_union(node: dict[str, Any]) -> bool:
    return any(keyword in node for keyword in UNIONS)


def discriminator_mapping(node: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(property, value, reference) of each OpenAPI ``discriminator.mapping`` entry (OpenAPI
    3.1 §4.8.25): the value of ``propertyName`` that selects the member ``reference`` names."""
    discriminator = node.get("discriminator")
    if not isinstance(discriminator, dict):
        return []
    prop, mapping = discriminator.get("propertyName"), discriminator.get("mapping")
    if not isinstance(prop, str) or not isinstance(mapping, dict):
        return []
    return [(prop, value, ref) for value, ref in mapping.items() if isinstance(ref, str)]


def names_reference(written: str, reference: str) -> bool:
    """Does a mapping value name the member ``reference`` points at? It is a reference, or a
    schema name (`Cat` for `#/components/schemas/Cat`)."""
    if written == reference:
        return True
    return "/" not in written and "#" not in written and reference.rsplit("/", 1)[-1] == written


def _json_type(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return "integer"  # 2020-12 Validation §6.1.1: 1.0 is an integer
    return json_type(value)


def allowed_types(node: dict[str, Any]) -> set[str]:
    """The types a schema allows: its ``type``, else the types of the values it lists (a
    ``type`` dropped beside an ``enum`` of strings still allows only strings), else any."""
    declared = types_of(node)
    values = listed_values(node)
    if declared or not values:
        return declared
    return {_json_type(value) for value in values}


def types_met(one: set[str], other: set[str]) -> set[str]:
    """The types both sets allow (an ``integer`` is a ``number``)."""
    met = {t for t in one if t in other or (t == "integer" and "number" in other)}
    return met | {t for t in other if t == "integer" and "number" in one}


def conjoined(target: dict[str, Any], beside: dict[str, Any]) -> dict[str, Any]:
    """One schema meaning ``target`` and ``beside`` together (both apply), for the keywords the
    diff compares: values and types intersected, ``required`` joined, the tighter bound, a map
    keyword's entries joined (the walk pairs each part's own entries); any other keyword both
    hold, the one beside the ``$ref`` (the nearer, what the author wrote there)."""
    result = {k: v for k, v in target.items() if k != "$ref"}
    for key, value in beside.items():
        held = result.get(key)
        if key not in result:
            result[key] = value
        elif key == "type":
            met = types_met(types_of(target), types_of(beside))
            result[key] = sorted(met) if met else value
        elif key == "required" and isinstance(held, list) and isinstance(value, list):
            result[key] = held + [name for name in value if name not in held]
        elif key in (*LOWER_BOUNDS, *UPPER_BOUNDS) and None not in (
            as_number(held),
            as_number(value),
        ):
            result[key] = (max if key in LOWER_BOUNDS else min)(held, value)
        elif key in (*MAPS, "dependentRequired") and isinstance(held, dict):
            result[key] = {**value, **held} if isinstance(value, dict) else held
        else:
            result[key] = value
    before, after = listed_values(target), listed_values(beside)
    if before is not None and after is not None:
        kept = {canonical(v) for v in before}
        result.pop("const", None)
        result["enum"] = [v for v in after if canonical(v) in kept]
    return result


def as_number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return None


def numeric_bound(node: dict[str, Any], kind: str) -> tuple[str, float, bool] | None:
    """The tighter of ``minimum`` and ``exclusiveMinimum`` (``maximum``/``exclusiveMaximum``):
    (keyword, value, exclusive), or None."""
    inclusive, exclusive = (
        ("minimum", "exclusiveMinimum")
        if kind == "lower"
        else (
            "maximum",
            "exclusiveMaximum",
        )
    )
    found = [
        (keyword, value, keyword == exclusive)
        for keyword in (inclusive, exclusive)
        if (value := as_number(node.get(keyword))) is not None
    ]
    if not found:
        return None
    found.sort(key=lambda b: (b[1], b[2]) if kind == "lower" else (-b[1], b[2]))
    return found[-1]


def looser(now: tuple[str, float, bool], was: tuple[str, float, bool], kind: str) -> bool:
    """Does bound ``now`` allow a value bound ``was`` rejected?"""
    if now[1] != was[1]:
        return now[1] < was[1] if kind == "lower" else now[1] > was[1]
    return was[2] and not now[2]  # the same number, no longer excluded


def valid_divisor(value: Any) -> float | None:
    """A ``multipleOf`` that means something: a finite number above 0 (Validation §6.2.1); an
    invalid one (``schema-invalid`` says so) is read as none, never divided by."""
    number = as_number(value)
    return number if number is not None and math.isfinite(number) and number > 0 else None


def divides(divisor: float, value: float) -> bool:
    """Is every multiple of ``value`` a multiple of ``divisor``?"""
    quotient = Fraction(str(value)) / Fraction(str(divisor))
    return quotient.denominator == 1


def dependency_pairs(value: Any) -> set[tuple[str, str]]:
    if not isinstance(value, dict):
        return set()
    return {
        (name, needed)
        for name, needs in value.items()
        if isinstance(needs, list)
        for needed in needs
        if isinstance(needed, str)
    }


def field_of(pointer: str) -> str | None:
    tokens = split_pointer(pointer)
    for index in range(len(tokens) - 1, 0, -1):
        if tokens[index - 1] == "properties":
            return tokens[index]
    return None


# Keywords a schema may say beside its assertions without narrowing what it accepts (2020-12
# Validation §9, the meta-data vocabulary; OpenAPI's `example`, `externalDocs`, `xml`).
_SAYS_NOTHING = ANNOTATIONS | {"default", "example", "externalDocs", "xml"}


def covers(wide: Any, narrow: Any, depth: int = 0) -> bool:
    """Does ``wide`` accept every instance ``narrow`` accepts, as far as the keywords show?
    Each of ``wide``'s assertions must be one ``narrow`` makes too, or a tighter one: its
    ``type`` names every type ``narrow``'s does, its ``required`` names only members
    ``narrow``'s does, each property it declares is declared by ``narrow`` and covered there,
    and its undeclared members are open (``additionalProperties`` absent, ``true`` or ``{}``).
    Whatever else ``narrow`` asserts only narrows it further. Any other assertion of ``wide``
    (a ``$ref``, a bound, a union) answers no: a false no leaves a change reported, a false
    yes would hide one. Both are read in the 2020-12 vocabulary, their ``$ref``\\s followed."""
    if wide is True or wide == {}:
        return True
    if not isinstance(wide, dict) or not isinstance(narrow, dict) or depth > 8:
        return False
    for keyword, value in wide.items():
        if keyword in _SAYS_NOTHING or keyword.startswith("x-"):
            continue
        if keyword == "type":
            mine, theirs = types_of(wide), allowed_types(narrow)
            if not theirs or types_met(theirs, mine) != theirs:
                return False
        elif keyword == "required":
            needed = narrow.get("required")
            needed = needed if isinstance(needed, list) else []
            if not isinstance(value, list) or any(v not in needed for v in value):
                return False
        elif keyword == "properties":
            if not isinstance(value, dict):
                return False
            declared = narrow.get("properties")
            declared = declared if isinstance(declared, dict) else {}
            for name, schema in value.items():
                if covers(schema, {}, depth + 1):
                    continue  # constrains nothing
                if name not in declared or not covers(schema, declared[name], depth + 1):
                    return False
        elif keyword == "additionalProperties":
            if value is not True and value != {}:
                return False
        elif keyword in ("enum", "const"):
            allowed = value if keyword == "enum" else [value]
            sent = listed_values(narrow)
            if not isinstance(allowed, list) or sent is None:
                return False
            known = {canonical(v) for v in allowed}
            if any(canonical(v) not in known for v in sent):
                return False
        else:
            return False
    return True
