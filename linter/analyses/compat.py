"""What a change does to the corpus's contract, by role: the schema diff behind ``compat-claim``.

``schema_changes(base, head)`` pairs every schema location of the head corpus (schema files, their
``$defs``, API ``components/schemas``, every request, response, parameter and message schema) with
the same file and JSON pointer at the base revision (a ``$defs`` entry with the ``definitions``
entry of its name, for a schema moved between dialects), walks both trees together (following
``$ref``s on each side, so a copy replaced by a reference compares by content), and classifies
each difference by the role of the location (``speclint roles``), as oasdiff does for one OpenAPI
document, but for the whole corpus:

=====================  ===================================================  =====================
change                 breaking when the location is                        why
=====================  ===================================================  =====================
enum value removed     client-submitted                                     old requests rejected
enum value added       server-emitted, unless an ignore-unknown statement   validating clients
                       binds the property (``speclint.analyses.policies``)  reject the new value
``required`` added     client-submitted                                     old requests lack it
``required`` removed   server-emitted                                       clients relied on it
shape closed           client-submitted                                     extra members rejected
property removed       server-emitted; client-submitted when closed         readers / old requests
shape opened           server-emitted (``additionalProperties: false`` or   clients get new members
                       ``unevaluatedProperties: false`` gone)
type narrowed          client-submitted                                     old values rejected
type widened           server-emitted (a ``type`` dropped too)              clients get new types
bound tightened        client-submitted (``minimum``, ``maxLength`` ...)    old values rejected
bound loosened         server-emitted                                       clients get new values
pattern added          client-submitted                                     old values rejected
union member removed   ``anyOf``/``oneOf``: client-submitted;               old requests rejected;
                       ``allOf``: server-emitted                            clients get new values
union member added     ``anyOf``/``oneOf``: server-emitted, unless an       validating clients
                       ignore-unknown statement binds the member's          reject it; old
                       discriminator; ``allOf``: client-submitted           requests rejected
constraint narrowed    client-submitted (``multipleOf``, ``format``,        old values rejected
                       ``pattern`` changed, ``uniqueItems``, ``contains``
                       and its counts, ``not``, ``dependentRequired``,
                       ``items``/``propertyNames`` ``false``)
constraint widened     server-emitted (the same, removed or relaxed)        clients get new values
schema file removed    any role                                             ``$ref``s to it break
definition removed     any role (a ``$defs``/``definitions`` entry, an API   ``$ref``s to it, from
                       document's ``components/schemas`` entry)             outside, break
operation removed      (OpenAPI operation, AsyncAPI operation or channel)   clients call it
=====================  ===================================================  =====================

The members of an ``anyOf``, ``oneOf`` or ``allOf`` are paired by what they are, not by their
place (``speclint.analyses.union_members``: the same ``$ref`` target, the same content, the same
discriminator ``const``, the same ``title``, else similar content), so a member inserted or
reordered changes nothing else; a member left unpaired is added or removed, named by its target,
discriminator value or title. A schema that becomes a union, or stops being one, is compared as a
union of itself (``A`` is ``anyOf: [A]``). ``prefixItems`` are paired by position.

An absent or ``true`` subschema (``items``, ``additionalProperties``, ``unevaluatedProperties``,
``unevaluatedItems``, ``propertyNames``, ``then``/``else``, a ``patternProperties`` or
``dependentSchemas`` entry) is compared as ``{}`` against the other side's schema, so
``additionalProperties: {type: string}`` added says "type narrowed" at it. A ``$ref`` with
assertions beside it reads as its target and them together (2020-12 Core §8.2.3.1); draft-04 to
-07, OpenAPI 3.0 and AsyncAPI 2 ignore them, so it reads as its target. Not compared: ``if``
(a changed condition moves values between ``then`` and ``else``: structure cannot say which way),
what is inside a ``not`` (it reads the other way round), annotations (``title``, ``default``,
``examples``, ``deprecated``, ``readOnly``/``writeOnly``, the content vocabulary), and a keyword
both parts of a ``$ref`` with siblings hold as subschemas (each part is paired alone).

A schema is compared with what applies beside it: its ``allOf`` branches (followed, a few levels
deep) and, for a property, the entry of that name in its parent's ``allOf`` branches, joined for
the values, ``required``, types, bounds and constraints compared (types intersected, ``required``
joined, values intersected, the tighter bound): a ``type`` a branch already imposes, written again
beside the ``allOf``, narrows nothing (``{nullable: true}`` -> ``{type: string, nullable: true}``
where the branch types it ``string``).

Where keywords cannot say (a node that differs in ``not``, ``if``/``then``/``else``, a ``pattern``
changed or removed, ``format``, ``dependentRequired``, ``propertyNames``, ``multipleOf``, a union
or ``allOf`` whose members changed, and for which the comparisons reported nothing below it, and
at it only what they can say "may" about: ``constraint narrowed``/``widened``), the schemas are
asked (``speclint.analyses.acceptance``): instances generated from the base's schema
are validated against the head's and the other way round, each revision through its own
registry. An instance the base accepts and the head rejects is **accepted values narrowed**,
breaking where a type narrowed is; one the head accepts and the base rejects is **accepted values
widened**, breaking where a type widened is; the description quotes the instance and the keyword
that rejects it. Where such a node's union or condition changed, a narrowing (widening) the
comparisons reported that no instance shows is withdrawn: an ``enum`` rewritten as an ``anyOf``
of ``const``\\s is no change. A side that cannot be generated from (a recursive schema, an
unsupported keyword) is **change not decided**, listed for review, never read as "no change".
Generation is derandomized and bounded: ``WITNESSED_NODES`` nodes a run (past it, one **not
witnessed** change says how many were left), at most ``acceptance.INSTANCES`` instances a side.

A location no use reaches (role ``unused``) is judged from both sides: whoever validates against
it is a client of some kind. Give it a role in ``[roles]`` to narrow that. A definition removed
from a file both revisions have is breaking whatever its role, as a schema file removed is: a
published file's definitions are addressable (``x.json#/$defs/Batch``), and the references of
other repositories are not in the corpus to be counted; only the outermost one removed is said.
Everything else (a new definition, a new optional property, a new endpoint, a new value of an
input enum) is additive and listed with
``breaking`` false, for reviewers.

Limitations: a ``oneOf`` member added that overlaps another one rejects the values both match,
and a member removed that another member still covers (an open object) rejects nothing; neither
is proven from structure, so the first is additive and the second breaking by the table.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from speclint.analyses.acceptance import INSTANCES, Acceptance, Revision, accepted_change
from speclint.analyses.context import Context
from speclint.analyses.fingerprints import schema_locations
from speclint.analyses.policies import ANY_FIELD, Statement, binds, policy_statements
from speclint.analyses.references import ANNOTATIONS
from speclint.analyses.roles import HTTP_METHODS
from speclint.analyses.schema_objects import types_of
from speclint.analyses.shapes import MAX_HOPS, Site, follow, follow_once, is_closed_false, resolve
from speclint.analyses.union_members import (
    MemberReading,
    member_name,
    member_reading,
    pair_members,
)
from speclint.analyses.witnesses import Witness
from speclint.common.findings import Location, json_value
from speclint.model.corpus import Document
from speclint.parsing.dialects import dialect_at, modern, ref_replaces_siblings
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import (
    join_pointer,
    json_type,
    resolve_pointer,
    split_pointer,
)

MAX_DEPTH = 48
_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
# `not` and `if` are conditions, not shapes: a change inside them reads the other way round.
_SINGLE = (
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "then",
    "else",
)
_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_UNIONS = ("allOf", "anyOf", "oneOf")  # members paired by meaning (``union_members``)
_LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
# Subschema keywords whose absence (or `true`) means the empty schema, so "absent" against a
# schema compares as `{}` against it (2020-12 Core §10.3: each applies to what it reaches, and
# an absent one constrains nothing). `contains` is not one: `contains: {}` asks for an item.
_EMPTY_WHEN_ABSENT = (
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
_EMPTY_WHEN_ABSENT_ENTRY = ("patternProperties", "dependentSchemas")
# Keywords beside a `$ref` that assert nothing (2020-12 Validation §9, the meta-data
# vocabulary; OpenAPI's `example`, `externalDocs`, `xml`; extensions): such a `$ref` is followed
# as a pure one.
_ANNOTATIONS = ANNOTATIONS | {"default", "example", "externalDocs", "xml", "$comment"}

# Keywords the comparisons above do not model (or only in part: a `pattern` added, not changed;
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
# The kinds each witness direction can confirm or refute (``_Differ.witness``).
_NARROWING = frozenset(
    {
        "enum value removed",
        "required added",
        "type narrowed",
        "bound tightened",
        "pattern added",
        "constraint narrowed",
    }
)
_WIDENING = frozenset(
    {
        "enum value added",
        "required removed",
        "type widened",
        "bound loosened",
        "shape opened",
        "constraint widened",
    }
)
# What the comparisons can only say "may" about (a `pattern` or `format` replaced, a `not`
# added): the witness quotes the instance that proves one, and leaves the others as they are.
_TENTATIVE = frozenset({"constraint narrowed", "constraint widened"})
# Nodes witnessed in one run, and instances generated from each side of one: each costs a
# tenth of a second to a second of Hypothesis's time.
WITNESSED_NODES = 16
WITNESS_INSTANCES = INSTANCES


@dataclass(frozen=True)
class Change:
    kind: str  # "enum value removed", "required added", ...
    breaking: bool
    role: str  # client-submitted | server-emitted | both | unused | operation
    description: str  # what changed, in Markdown, naming the field and values
    location: Location  # in the head corpus; in the base corpus when the node is gone
    base: Location | None = None  # the same node at the base revision

    @property
    def identity(self) -> str:
        where = self.location.pointer or ""
        return f"{self.kind}\x1f{self.location.path}\x1f{where}\x1f{self.description}"


def schema_changes(base: Context, head: Context) -> list[Change]:
    """Every contract change from ``base`` to ``head``, breaking or not, in a stable order."""
    differ = _Differ(base, head)
    differ.run()
    unique = {change.identity: change for change in differ.changes}
    return sorted(
        unique.values(),
        key=lambda c: (c.location.path, c.location.line, c.location.column, c.kind, c.description),
    )


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _shown(values: list[Any]) -> str:
    listed = ", ".join(f"`{_canonical(v).strip(chr(34))}`" for v in values[:5])
    return listed + (f" and {len(values) - 5} more" if len(values) > 5 else "")


def _values(node: dict[str, Any]) -> list[Any] | None:
    if isinstance(node.get("enum"), list):
        return list(node["enum"])
    if "const" in node:
        return [node["const"]]
    return None


def _pure_union(node: dict[str, Any]) -> str | None:
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


def _has_union(node: dict[str, Any]) -> bool:
    return any(keyword in node for keyword in _UNIONS)


def _is_named(pointer: str) -> bool:
    tokens = split_pointer(pointer)
    return not tokens or (len(tokens) >= 2 and tokens[-2] in ("$defs", "definitions", "schemas"))


def _discriminator_mapping(node: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(property, value, reference) of each OpenAPI ``discriminator.mapping`` entry (OpenAPI
    3.1 §4.8.25): the value of ``propertyName`` that selects the member ``reference`` names."""
    discriminator = node.get("discriminator")
    if not isinstance(discriminator, dict):
        return []
    prop, mapping = discriminator.get("propertyName"), discriminator.get("mapping")
    if not isinstance(prop, str) or not isinstance(mapping, dict):
        return []
    return [(prop, value, ref) for value, ref in mapping.items() if isinstance(ref, str)]


def _names_reference(written: str, reference: str) -> bool:
    """Does a mapping value name the member ``reference`` points at? It is a reference, or a
    schema name (`Cat` for `#/components/schemas/Cat`)."""
    if written == reference:
        return True
    return "/" not in written and "#" not in written and reference.rsplit("/", 1)[-1] == written


def _json_type(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return "integer"  # 2020-12 Validation §6.1.1: 1.0 is an integer
    return json_type(value)


def _types(node: dict[str, Any]) -> set[str]:
    """The types a schema allows: its ``type``, else the types of the values it lists (a
    ``type`` dropped beside an ``enum`` of strings still allows only strings), else any."""
    declared = types_of(node)
    values = _values(node)
    if declared or not values:
        return declared
    return {_json_type(value) for value in values}


def _types_met(one: set[str], other: set[str]) -> set[str]:
    """The types both sets allow (an ``integer`` is a ``number``)."""
    met = {t for t in one if t in other or (t == "integer" and "number" in other)}
    return met | {t for t in other if t == "integer" and "number" in one}


def _conjoined(target: dict[str, Any], beside: dict[str, Any]) -> dict[str, Any]:
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
            met = _types_met(types_of(target), types_of(beside))
            result[key] = sorted(met) if met else value
        elif key == "required" and isinstance(held, list) and isinstance(value, list):
            result[key] = held + [name for name in value if name not in held]
        elif key in (*_LOWER_BOUNDS, *_UPPER_BOUNDS) and None not in (
            _number(held),
            _number(value),
        ):
            result[key] = (max if key in _LOWER_BOUNDS else min)(held, value)
        elif key in (*_MAPS, "dependentRequired") and isinstance(held, dict):
            result[key] = {**value, **held} if isinstance(value, dict) else held
        else:
            result[key] = value
    before, after = _values(target), _values(beside)
    if before is not None and after is not None:
        kept = {_canonical(v) for v in before}
        result.pop("const", None)
        result["enum"] = [v for v in after if _canonical(v) in kept]
    return result


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return None


def _numeric_bound(node: dict[str, Any], kind: str) -> tuple[str, float, bool] | None:
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
        if (value := _number(node.get(keyword))) is not None
    ]
    if not found:
        return None
    found.sort(key=lambda b: (b[1], b[2]) if kind == "lower" else (-b[1], b[2]))
    return found[-1]


def _looser(now: tuple[str, float, bool], was: tuple[str, float, bool], kind: str) -> bool:
    """Does bound ``now`` allow a value bound ``was`` rejected?"""
    if now[1] != was[1]:
        return now[1] < was[1] if kind == "lower" else now[1] > was[1]
    return was[2] and not now[2]  # the same number, no longer excluded


def _divisor(value: Any) -> float | None:
    """A ``multipleOf`` that means something: a finite number above 0 (Validation §6.2.1); an
    invalid one (``schema-invalid`` says so) is read as none, never divided by."""
    number = _number(value)
    return number if number is not None and math.isfinite(number) and number > 0 else None


def _divides(divisor: float, value: float) -> bool:
    """Is every multiple of ``value`` a multiple of ``divisor``?"""
    quotient = Fraction(str(value)) / Fraction(str(divisor))
    return quotient.denominator == 1


def _dependencies(value: Any) -> set[tuple[str, str]]:
    if not isinstance(value, dict):
        return set()
    return {
        (name, needed)
        for name, needs in value.items()
        if isinstance(needs, list)
        for needed in needs
        if isinstance(needed, str)
    }


def _at_base(document: Document, pointer: str) -> str | None:
    """Where a head location is at the base: the same pointer, or its definition under the
    other spelling (a schema moved from draft-07's ``definitions`` to 2020-12's ``$defs``, or
    back, keeps its definitions: 2019-09 Core §8.2.4 renamed the keyword, not the meaning)."""
    if resolve(document, pointer) is not None:
        return pointer
    tokens = split_pointer(pointer)
    respelled = {"$defs": "definitions", "definitions": "$defs"}
    if tokens and tokens[0] in respelled:
        other = "".join(join_pointer("", t) for t in [respelled[tokens[0]], *tokens[1:]])
        if resolve(document, other) is not None:
            return other
    return None


def _field_of(pointer: str) -> str | None:
    tokens = split_pointer(pointer)
    for index in range(len(tokens) - 1, 0, -1):
        if tokens[index - 1] == "properties":
            return tokens[index]
    return None


class _Differ:
    def __init__(self, base: Context, head: Context) -> None:
        self.base = base
        self.head = head
        self.changes: list[Change] = []
        self.seen: set[tuple[str, str, str, str]] = set()
        # How each translated keyword is spelled in the file, per location
        # (``speclint.parsing.dialects``)
        self.written: dict[tuple[str, str], Mapping[str, str]] = {}
        # A `$ref` with assertions beside it, read as one schema (``resolved``): the parts it
        # joins, each at its own place, for the walk below it and for locations. Keyed by the
        # document object: the base and the head have the same paths and pointers.
        self.parts: dict[tuple[int, str], tuple[Site, Site]] = {}
        self._statements: list[Statement] | None = None
        self.witnessing = _Witnessing()  # ``witness``: the revisions it reads, its budget
        # The schemas an `allOf` branch of a parent imposes on a property too (the branch's
        # entry of the same name), by the property's place: they apply beside it.
        self.companions: dict[tuple[int, str], list[Site]] = {}

    @property
    def statements(self) -> list[Statement]:
        if self._statements is None:
            self._statements = list(policy_statements(self.head))
        return self._statements

    def run(self) -> None:
        for site in schema_locations(self.head):  # the one list of places a shape is defined
            base_document = self.base.documents.get(site.document.path)
            if base_document is None or not base_document.usable:
                continue  # a new file: everything in it is additive
            if base_document.kind is not site.document.kind:
                continue
            base_pointer = _at_base(base_document, site.pointer)
            if base_pointer is None:
                continue  # a new location
            base_node = resolve(base_document, base_pointer)
            self.pair(Site(base_document, base_pointer, base_node), site, None, 0)
        self.removed_files()
        self.removed_operations()
        self.definitions()

    # --- schemas -------------------------------------------------------------------------------

    def role(self, head: Site, base: Site) -> str:
        name = self.head.roles.role_name(head.document.path, head.pointer)
        if name == "unused":
            name = self.base.roles.role_name(base.document.path, base.pointer)
        return name

    def add(
        self,
        kind: str,
        breaking: bool,
        role: str,
        description: str,
        head: Site,
        base: Site,
        *tokens: str,
    ) -> None:
        head, base = self.holder(head, tokens), self.holder(base, tokens)
        self.changes.append(
            Change(
                kind,
                breaking,
                role,
                description,
                head.at(*self.spelled(head, tokens)),
                base.at(*self.spelled(base, tokens)),
            )
        )

    def holder(self, site: Site, tokens: tuple[str, ...]) -> Site:
        """The part of a joined ``$ref`` schema (``resolved``) that holds the keyword
        ``tokens`` start with: the object beside the ``$ref`` (the nearer, when both hold it)
        or the target; else ``site``."""
        for part in self.parts.get((id(site.document), site.pointer), ()):
            if tokens and tokens[0] in part.node:
                return part
        return site

    def resolved(
        self, corpus: Context, site: Site, seen: set[tuple[str, str]] | None = None
    ) -> Site:
        """``site`` with its ``$ref``\\s followed. A reference with only annotations beside it
        reads as its target (``shapes.follow``, which also takes ``default``, ``example`` and
        extensions as annotations here). One with assertions beside it reads as the target AND
        them (2020-12 Core §8.2.3.1: ``$ref`` is an applicator, its siblings apply too), joined
        into one schema (``_conjoined``); in draft-04 to -07, OpenAPI 3.0 and AsyncAPI 2 the
        siblings are ignored (``dialects.ref_replaces_siblings``), so it reads as its target."""
        seen = seen if seen is not None else set()
        seen.add((site.document.path, site.pointer))
        for _ in range(MAX_HOPS):
            site = follow(corpus, site)
            node = site.node
            if not isinstance(node, dict) or not isinstance(node.get("$ref"), str):
                return site
            target = follow_once(corpus, site)
            if target is None or (target.document.path, target.pointer) in seen:
                return site
            if len(seen) > MAX_HOPS:
                return site  # a chain of joined references this long is read no further
            seen.add((target.document.path, target.pointer))
            dialect = dialect_at(
                site.document.data, split_pointer(site.pointer), site.document.dialect
            )
            beside = {
                k: v
                for k, v in node.items()
                if k != "$ref" and k not in _ANNOTATIONS and not k.startswith("x-")
            }
            if beside and not ref_replaces_siblings(dialect):
                whole = self.read(self.resolved(corpus, target, seen))
                if not isinstance(whole.node, dict):
                    return site
                here = self.read(site)
                self.parts[(id(site.document), site.pointer)] = (here, whole)
                beside = {k: v for k, v in here.node.items() if k in beside}
                return Site(site.document, site.pointer, _conjoined(whole.node, beside))
            site = target
        return site

    def read(self, site: Site) -> Site:
        """``site`` with its schema read in the 2020-12 vocabulary: a draft-04 boolean
        ``exclusiveMinimum`` becomes a bound, an array ``items`` a ``prefixItems``, an OpenAPI 3.0
        ``nullable`` a `"null"` type, so a change of dialect-specific spelling diffs by meaning."""
        dialect = dialect_at(site.document.data, split_pointer(site.pointer), site.document.dialect)
        reading = modern(site.node, dialect)
        if reading is None:
            return site
        if reading.written:
            self.written[(site.document.path, site.pointer)] = reading.written
        return Site(site.document, site.pointer, reading.node)

    def spelled(self, site: Site, tokens: tuple[str, ...]) -> tuple[str, ...]:
        written = self.written.get((site.document.path, site.pointer), {})
        return tuple(written.get(token, token) for token in tokens)

    def pair(self, base: Site, head: Site, field: str | None, depth: int) -> None:
        if depth > MAX_DEPTH:
            return
        asked = head  # where the head's schema is used, before its `$ref`s are followed
        base_asked = base
        base, head = self.resolved(self.base, base), self.resolved(self.head, head)
        key = (base.document.path, base.pointer, head.document.path, head.pointer)
        if key in self.seen:
            return
        self.seen.add(key)
        base, head = self.read(base), self.read(head)
        if not isinstance(base.node, dict) or not isinstance(head.node, dict):
            return
        mark = len(self.changes)
        field = _field_of(head.pointer) or field
        if self.lopsided(base, head, asked, field, depth):
            self.witness(base, head, field, mark)
            return
        role = self.role(head, base)
        client = role in ("client-submitted", "both", "unused")
        server = role in ("server-emitted", "both", "unused")
        self.compare_members(base, head, role, client, server)
        written = len(self.changes)
        self.compare_node(base, head, field, role, client, server)
        # What each side allows with its `allOf` branches (and a parent's) applied beside it
        # only withdraws: a change of the node itself stands only if the joined schemas show
        # it too (a `type` a branch already imposes, written again, narrows nothing). It adds
        # nothing: a branch's own change is reported at the branch, once (a member added as
        # `union member added`, a changed target at the target).
        whole_base = self.effective(self.base, base, base_asked)
        whole_head = self.effective(self.head, head, asked)
        if whole_base is not base or whole_head is not head:
            found = self.changes[written:]
            del self.changes[written:]
            self.compare_node(whole_base, whole_head, field, role, client, server)
            shown = {(c.kind, c.location.pointer) for c in self.changes[written:]}
            del self.changes[written:]
            self.changes.extend(c for c in found if (c.kind, c.location.pointer) in shown)
        self.compare_absent_subschemas(base, head, field, depth)
        for base_part in self.parts.get((id(base.document), base.pointer), (base,)):
            for head_part in self.parts.get((id(head.document), head.pointer), (head,)):
                self.descend(base_part, head_part, field, depth)
        self.witness(base, head, field, mark)

    def compare_node(
        self, base: Site, head: Site, field: str | None, role: str, client: bool, server: bool
    ) -> None:
        """The comparisons of what the node itself allows: values, ``required``, types, bounds
        and constraints (its members and subschemas are compared apart)."""
        self.compare_values(base, head, field, role, client, server)
        self.compare_required(base, head, role, client, server)
        self.compare_types(base, head, field, role, client, server)
        if client:
            self.compare_bounds(base, head, field, role)
        if server:
            self.compare_loosened(base, head, field, role)
        self.compare_constraints(base, head, field, role, client, server)

    def branches(self, corpus: Context, site: Site, depth: int = 0) -> list[Site]:
        """The ``allOf`` branches of ``site``, each resolved and read, and theirs in turn (a
        few levels deep): every one applies beside the schema (2020-12 Core §10.2.1.1)."""
        found: list[Site] = []
        branches = site.node.get("allOf") if isinstance(site.node, dict) else None
        if not isinstance(branches, list) or depth > 3:
            return found
        at = join_pointer(site.pointer, self.spelled(site, ("allOf",))[0])
        for index, branch in enumerate(branches):
            if not isinstance(branch, dict):
                continue
            part = self.read(
                self.resolved(corpus, Site(site.document, join_pointer(at, index), branch))
            )
            if isinstance(part.node, dict):
                found.append(part)
                found.extend(self.branches(corpus, part, depth + 1))
        return found

    def register_companions(self, corpus: Context, parent: Site, pointer: str, name: str) -> None:
        """Note the entries ``name`` of the parent's ``allOf`` branches' ``properties``: they
        constrain the property at ``pointer`` too."""
        found = []
        for part in self.branches(corpus, parent):
            properties = part.node.get("properties")
            if isinstance(properties, dict) and isinstance(properties.get(name), dict):
                entry = Site(
                    part.document,
                    join_pointer(join_pointer(part.pointer, "properties"), name),
                    properties[name],
                )
                found.append(self.read(self.resolved(corpus, entry)))
        if found:
            self.companions[(id(parent.document), pointer)] = found

    def effective(self, corpus: Context, site: Site, asked: Site) -> Site:
        """``site``'s schema joined with what applies beside it: its own ``allOf`` branches and
        a parent's branches' entry for the same property (``register_companions``), for the
        keywords the diff compares (types intersected, ``required`` joined, values
        intersected, the tighter bound: ``_conjoined``). So a constraint a branch already
        imposes, written again beside it, is no narrowing (nor its removal a widening)."""
        parts = self.companions.get((id(asked.document), asked.pointer), [])
        parts = [*parts, *self.branches(corpus, site)]
        if not parts:
            return site
        node = {k: v for k, v in site.node.items() if k != "allOf"}
        for part in parts:
            branch = {k: v for k, v in part.node.items() if k not in ("allOf", "properties")}
            node = _conjoined(branch, node)
        node["allOf"] = site.node.get("allOf", [])
        if not node["allOf"]:
            del node["allOf"]
        return Site(site.document, site.pointer, node)

    def descend(self, base: Site, head: Site, field: str | None, depth: int) -> None:
        b, h = base.node, head.node

        def bs(keyword: str) -> str:
            return self.spelled(base, (keyword,))[0]

        def hs(keyword: str) -> str:
            return self.spelled(head, (keyword,))[0]

        for keyword in _MAPS:
            if isinstance(b.get(keyword), dict) and isinstance(h.get(keyword), dict):
                for name in sorted(set(b[keyword]) & set(h[keyword])):
                    at = join_pointer(join_pointer(head.pointer, hs(keyword)), name)
                    bat = join_pointer(join_pointer(base.pointer, bs(keyword)), name)
                    child = name if keyword == "properties" else field
                    if keyword == "properties":
                        self.register_companions(self.base, base, bat, name)
                        self.register_companions(self.head, head, at, name)
                    self.pair(
                        Site(base.document, bat, b[keyword][name]),
                        Site(head.document, at, h[keyword][name]),
                        child,
                        depth + 1,
                    )
        for keyword in _SINGLE:
            if isinstance(b.get(keyword), dict) and isinstance(h.get(keyword), dict):
                self.pair(
                    Site(base.document, join_pointer(base.pointer, bs(keyword)), b[keyword]),
                    Site(head.document, join_pointer(head.pointer, hs(keyword)), h[keyword]),
                    field,
                    depth + 1,
                )
        for keyword in _LISTS:
            if isinstance(b.get(keyword), list) and isinstance(h.get(keyword), list):
                if keyword in _UNIONS:
                    self.union(base, head, keyword, keyword, field, depth)
                    continue
                # `prefixItems` is positional: an item's position is its meaning.
                for index in range(min(len(b[keyword]), len(h[keyword]))):
                    self.pair(
                        Site(
                            base.document,
                            join_pointer(join_pointer(base.pointer, bs(keyword)), index),
                            b[keyword][index],
                        ),
                        Site(
                            head.document,
                            join_pointer(join_pointer(head.pointer, hs(keyword)), index),
                            h[keyword][index],
                        ),
                        field,
                        depth + 1,
                    )

    def union(
        self,
        base: Site,
        head: Site,
        base_keyword: str | None,
        head_keyword: str | None,
        field: str | None,
        depth: int,
        asked: Site | None = None,
    ) -> None:
        """Pair the members of a union by what they are, compare each pair, and report the
        members only one side has. A side without the union (``None``) is its one member; a
        change is then located where the head's schema is ``asked`` for, not at the target of
        its ``$ref``."""
        keyword = head_keyword or base_keyword or "anyOf"
        sides = []
        for corpus, site, written in (
            (self.base, base, base_keyword),
            (self.head, head, head_keyword),
        ):
            members = [site]
            if written is not None:
                at = join_pointer(site.pointer, self.spelled(site, (written,))[0])
                members = [
                    Site(site.document, join_pointer(at, index), node)
                    for index, node in enumerate(site.node[written])
                ]
            mapped = _discriminator_mapping(site.node)
            sides.append((members, [self.member(corpus, m, mapped, m is site) for m in members]))
        (base_members, base_readings), (head_members, head_readings) = sides
        pairing = pair_members(base_readings, head_readings)
        for i, j in pairing.pairs:
            self.pair(base_members[i], head_members[j], field, depth + 1)
        if not pairing.removed and not pairing.added:
            return
        shown = asked if asked is not None and head_keyword is None else head
        role = self.role(shown, base)
        client = role in ("client-submitted", "both", "unused")
        server = role in ("server-emitted", "both", "unused")
        name = f"`{field}` of " if field else ""
        where = f"`{keyword}` of {name}{role} `{head.label}`"
        if head_keyword is None:
            where = f"{name}{role} `{shown.label}` (`{base_keyword}` at the base)"
        at_head = head.at(self.spelled(head, (head_keyword,))[0]) if head_keyword else None
        at_base = base.at(self.spelled(base, (base_keyword,))[0]) if base_keyword else None
        for i in pairing.removed:
            member = member_name(base_readings, i)
            if keyword == "allOf":  # one constraint fewer: the union widens
                breaking = server
                description = f"{where} no longer requires member {member}" + (
                    ": clients may get values the base ruled out" if breaking else ""
                )
            else:  # one alternative fewer: the union narrows
                breaking = client
                description = f"{where} no longer has member {member}" + (
                    ": requests that match only it are rejected" if breaking else ""
                )
            self.changes.append(
                Change(
                    "union member removed",
                    breaking,
                    role,
                    description,
                    at_head or shown.location(),
                    base_members[i].location(note="at the base revision"),
                )
            )
        for j in pairing.added:
            member = member_name(head_readings, j)
            if keyword == "allOf":  # one constraint more: the union narrows
                breaking = client
                description = f"{where} now also requires member {member}" + (
                    ": requests written against the base may be rejected" if breaking else ""
                )
            else:  # one alternative more: the union widens
                tolerated = self.tolerated_member(head, head_readings[j], field)
                breaking = server and not tolerated
                description = f"{where} has a new member {member}" + (
                    ": a client validating against the base rejects values that match only "
                    "it, and no ignore-unknown statement covers it"
                    if breaking
                    else ""
                )
            self.changes.append(
                Change(
                    "union member added",
                    breaking,
                    role,
                    description,
                    head_members[j].location() if head_keyword else shown.location(),
                    at_base or base.location(note="at the base revision"),
                )
            )

    def lopsided(self, base: Site, head: Site, asked: Site, field: str | None, depth: int) -> bool:
        """A union on one side only (``A`` became ``anyOf: [A, B]``, ``oneOf: [A, B]`` became
        ``A``), or ``anyOf`` that became ``oneOf``: compared as unions, the plain schema as a
        union of itself (``anyOf: [A]`` is ``A``), so that ``A`` is compared with ``A`` and
        not with the union around it. True when it was."""
        before, after = _pure_union(base.node), _pure_union(head.node)
        if before == after:
            return False
        if (before is None and _has_union(base.node)) or (after is None and _has_union(head.node)):
            return False  # a union beside other constraints: no member is the whole schema
        self.union(base, head, before, after, field, depth, asked)
        return True

    def member(
        self, corpus: Context, site: Site, mapped: list[tuple[str, Any, str]], whole: bool
    ) -> MemberReading:
        """How ``pair_members`` reads a union member of ``corpus``: where its ``$ref`` ends
        and what the schema there says. A ``whole`` schema standing for a one-member union was
        reached through its references already: where it stands is its target when that is a
        named shape (``#/$defs/Result``)."""
        target = None
        resolved = site
        if whole and _is_named(site.pointer):
            target = f"{site.document.path}#{site.pointer}"
        reference = site.node.get("$ref") if isinstance(site.node, dict) else None
        if isinstance(reference, str):
            once = follow_once(corpus, site)
            if once is not None:
                resolved = follow(corpus, once)
                target = f"{resolved.document.path}#{resolved.pointer}"
        parts = []
        if isinstance(resolved.node, dict) and isinstance(resolved.node.get("allOf"), list):
            at = join_pointer(resolved.pointer, "allOf")
            for index, node in enumerate(resolved.node["allOf"]):
                parts.append(follow(corpus, Site(resolved.document, join_pointer(at, index), node)))
        named = [
            (prop, value)
            for prop, value, written in mapped
            if isinstance(reference, str) and _names_reference(written, reference)
        ]
        title = site.node.get("title") if isinstance(reference, str) else None
        return member_reading(
            resolved.node,
            target=target,
            parts=[p.node for p in parts],
            mapped=named,
            title=title if isinstance(title, str) else None,
        )

    def tolerated_member(self, head: Site, reading: MemberReading, field: str | None) -> bool:
        """Is a new member covered by an ignore-unknown statement? Only through its
        discriminator: a new member is a new value of the property that tells members apart."""
        return any(self.tolerated(head, prop or field) for prop, _ in reading.tags)

    def tolerated(self, head: Site, field: str | None) -> bool:
        """Do the corpus's ignore-unknown statements cover new values of this discriminator?"""
        if any(s.discriminator == ANY_FIELD for s in self.statements):
            return True
        if field is None:
            return False
        return any(binds(s, field, head, head, head) for s in self.statements)

    def compare_values(
        self, base: Site, head: Site, field: str | None, role: str, client: bool, server: bool
    ) -> None:
        before, after = _values(base.node), _values(head.node)
        keyword = "enum" if "enum" in head.node or "enum" in base.node else "const"
        name = f"`{field}`" if field else "the value"
        if before is not None and after is not None:
            now = {_canonical(v) for v in after}
            was = {_canonical(v) for v in before}
            removed = _shown([v for v in before if _canonical(v) not in now])
            added = _shown([v for v in after if _canonical(v) not in was])
        elif before is not None:  # the enum is gone: any value is allowed now
            removed, added = "", "any value"
        elif after is not None:  # a new enum: every other value is refused now
            removed, added = "any value outside " + _shown(after), ""
        else:
            return
        if removed:
            self.add(
                "enum value removed",
                client,
                role,
                f"{name} of {role} `{head.label}` no longer accepts {removed}"
                + (": requests that send it are rejected" if client else ""),
                head,
                base,
                keyword if keyword in head.node else "",
            )
        if added:
            tolerated = self.tolerated(head, field)
            self.add(
                "enum value added",
                server and not tolerated,
                role,
                f"{name} of {role} `{head.label}` may now be {added}"
                + (
                    ": a client validating against the base rejects it, and no ignore-unknown "
                    "statement covers this field"
                    if server and not tolerated
                    else ""
                ),
                head,
                base,
                keyword if keyword in head.node else "",
            )

    def compare_required(
        self, base: Site, head: Site, role: str, client: bool, server: bool
    ) -> None:
        before = base.node.get("required")
        after = head.node.get("required")
        was = {r for r in before if isinstance(r, str)} if isinstance(before, list) else set()
        now = {r for r in after if isinstance(r, str)} if isinstance(after, list) else set()
        added, removed = sorted(now - was), sorted(was - now)
        if added:
            self.add(
                "required added",
                client,
                role,
                f"{role} `{head.label}` now requires {_shown(list(added))}"
                + (": requests written against the base lack it" if client else ""),
                head,
                base,
                "required",
            )
        if removed:
            self.add(
                "required removed",
                server,
                role,
                f"{role} `{head.label}` no longer guarantees {_shown(list(removed))}"
                + (": clients that read it may get nothing" if server else ""),
                head,
                base,
                "required" if "required" in head.node else "",
            )

    def compare_members(
        self, base: Site, head: Site, role: str, client: bool, server: bool
    ) -> None:
        closed_before = is_closed_false(base.node)
        closed_after = is_closed_false(head.node)
        if closed_after and not closed_before:
            self.add(
                "shape closed",
                client,
                role,
                f"{role} `{head.label}` is now closed (`{closed_after}: false`)"
                + (": requests with members the base allowed are rejected" if client else ""),
                head,
                base,
                closed_after,
            )
        before = base.node.get("properties")
        after = head.node.get("properties")
        was = set(before) if isinstance(before, dict) else set()
        now = set(after) if isinstance(after, dict) else set()
        removed = sorted(was - now)
        added = sorted(now - was)
        if removed:
            breaking = server or (client and closed_after is not None)
            why = (
                ": clients that read it lose it"
                if server
                else (": requests that still send it are rejected" if breaking else "")
            )
            self.add(
                "property removed",
                breaking,
                role,
                f"{role} `{head.label}` no longer has {_shown(list(removed))}{why}",
                head,
                base,
                "properties" if "properties" in head.node else "",
            )
        if added:
            self.add(
                "property added",
                False,
                role,
                f"{role} `{head.label}` has new {_shown(list(added))}",
                head,
                base,
                "properties",
            )

    def compare_types(
        self, base: Site, head: Site, field: str | None, role: str, client: bool, server: bool
    ) -> None:
        before, after = _types(base.node), _types(head.node)
        if (not before and not types_of(head.node)) or (not after and not types_of(base.node)):
            return  # values listed on one side only: the value change says it (compare_values)
        # a `type` moved into the branches of a composition is no type dropped
        before = before or self.implied_types(self.base, base, 0)
        after = after or self.implied_types(self.head, head, 0)

        def covered(kind: str, types: set[str]) -> bool:
            return not types or kind in types or (kind == "integer" and "number" in types)

        narrowed = _shown(sorted(t for t in before if not covered(t, after)))
        if not before and after:
            narrowed = "anything but " + " or ".join(f"`{t}`" for t in sorted(after))
        widened = sorted(t for t in after if before and not covered(t, before))
        name = f"`{field}` of " if field else ""
        if before and not after:  # `type` dropped: every type is allowed now
            self.add(
                "type widened",
                server,
                role,
                f"{name}{role} `{head.label}` may now be of any type (was "
                f"{_shown(sorted(before))})",
                head,
                base,
                *(("type",) if "type" in head.node else ()),
            )
        if narrowed:
            self.add(
                "type narrowed",
                client,
                role,
                f"{name}{role} `{head.label}` no longer accepts type {narrowed}",
                head,
                base,
                "type",
            )
        if widened:
            self.add(
                "type widened",
                server,
                role,
                f"{name}{role} `{head.label}` may now be of type {_shown(list(widened))}",
                head,
                base,
                *(("type",) if "type" in head.node else ()),
            )

    def implied_types(self, corpus: Context, site: Site, depth: int) -> set[str]:
        """The types a schema that names none itself allows through its compositions: each
        ``allOf`` branch that names types restricts them; ``anyOf``/``oneOf`` allow the union,
        when every branch names some. Empty: any type."""
        node = site.node
        if not isinstance(node, dict) or depth > 4:
            return set()
        found = _types(node)
        if found:
            return found
        for keyword in ("allOf", "anyOf", "oneOf"):
            branches = node.get(keyword)
            if not isinstance(branches, list) or not branches:
                continue
            sets = [
                self.implied_types(
                    corpus,
                    self.resolved(
                        corpus,
                        Site(
                            site.document,
                            join_pointer(join_pointer(site.pointer, keyword), index),
                            branch,
                        ),
                    ),
                    depth + 1,
                )
                for index, branch in enumerate(branches)
            ]
            if keyword == "allOf" and any(sets):
                met = set.intersection(*[s for s in sets if s])
                return met or found
            if keyword != "allOf" and all(sets):
                return set().union(*sets)
        return set()

    def compare_bounds(self, base: Site, head: Site, field: str | None, role: str) -> None:
        name = f"`{field}` of " if field else ""
        for keyword in (*_LOWER_BOUNDS, *_UPPER_BOUNDS):
            before, after = base.node.get(keyword), head.node.get(keyword)
            if not isinstance(after, (int, float)) or isinstance(after, bool):
                continue
            tighter = (
                before is None
                or not isinstance(before, (int, float))
                or (after > before if keyword in _LOWER_BOUNDS else after < before)
            )
            if tighter:
                was = "none" if before is None else _canonical(before)
                self.add(
                    "bound tightened",
                    True,
                    role,
                    f"{name}{role} `{head.label}`: `{keyword}` is now {_canonical(after)} "
                    f"(was {was}): values the base accepted are rejected",
                    head,
                    base,
                    keyword,
                )
        if isinstance(head.node.get("pattern"), str) and "pattern" not in base.node:
            self.add(
                "pattern added",
                True,
                role,
                f"{name}{role} `{head.label}` now has `pattern` {json_value(head.node['pattern'])}: "
                "values "
                "the base accepted may be rejected",
                head,
                base,
                "pattern",
            )

    def compare_loosened(self, base: Site, head: Site, field: str | None, role: str) -> None:
        """Bounds a server-emitted value no longer keeps: a client validating against the base
        rejects the values the head newly allows (the mirror of ``compare_bounds``)."""
        name = f"`{field}` of " if field else ""
        for kind in ("lower", "upper"):
            was = _numeric_bound(base.node, kind)
            now = _numeric_bound(head.node, kind)
            if was is not None and (now is None or _looser(now, was, kind)):
                self.loosened(base, head, name, role, was[0], now[0] if now else None)
        for keyword in (*_LOWER_BOUNDS, *_UPPER_BOUNDS):
            if keyword in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
                continue  # read together above: a `minimum` become `exclusiveMinimum` is tighter
            before, after = _number(base.node.get(keyword)), _number(head.node.get(keyword))
            if before is None:
                continue
            if after is None or (after < before if keyword in _LOWER_BOUNDS else after > before):
                self.loosened(
                    base, head, name, role, keyword, keyword if after is not None else None
                )

    def loosened(
        self, base: Site, head: Site, name: str, role: str, keyword: str, now: str | None
    ) -> None:
        value = head.node.get(now) if now else None
        self.add(
            "bound loosened",
            True,
            role,
            f"{name}{role} `{head.label}`: `{keyword}` {_canonical(base.node[keyword])} is "
            + (f"now `{now}` {_canonical(value)}" if now else "gone")
            + ": a client validating against the base rejects the values the head now allows",
            head,
            base,
            *((now,) if now else ()),
        )

    def compare_constraints(
        self, base: Site, head: Site, field: str | None, role: str, client: bool, server: bool
    ) -> None:
        """The assertions other than types, values, bounds and members (2020-12 Validation §6
        and the applicators that only narrow): each added or tightened one rejects values the
        base accepted (client-submitted: breaking); each removed or loosened one allows values
        the base rejected (server-emitted: breaking)."""
        b, h = base.node, head.node
        name = f"`{field}` of " if field else ""
        found: list[tuple[str, bool, str]] = []  # (keyword, narrowed (else widened), what)
        multiple = _divisor(b.get("multipleOf")), _divisor(h.get("multipleOf"))
        if multiple != (None, None) and multiple[0] != multiple[1]:
            was, now = multiple
            if now is not None and (was is None or not _divides(now, was)):
                found.append(("multipleOf", True, f"`multipleOf` is now {_canonical(now)}"))
            if was is not None and (now is None or not _divides(was, now)):
                found.append(("multipleOf", False, f"`multipleOf` {_canonical(was)} is relaxed"))
        for keyword in ("format", "pattern"):
            was, now = b.get(keyword), h.get(keyword)
            if not isinstance(now, str):
                now = None
            if not isinstance(was, str) or was == now:
                if keyword == "format" and was is None and now is not None:
                    found.append((keyword, True, f"`format` `{now}` is added"))
                continue
            if now is not None:  # two formats or patterns: neither contains the other, in general
                found.append((keyword, True, f"`{keyword}` is now {json_value(now)}"))
            found.append(
                (
                    keyword,
                    False,
                    f"`{keyword}` {json_value(was)} is "
                    + ("replaced" if now is not None else "gone"),
                )
            )
        for keyword, what in (
            ("uniqueItems", "items must be unique"),
            ("contains", "an item must match `contains`"),
            ("not", "`not` excludes values"),
        ):
            was = b.get(keyword) not in (None, False) if keyword == "uniqueItems" else keyword in b
            now = h.get(keyword) not in (None, False) if keyword == "uniqueItems" else keyword in h
            if now and not was:
                found.append((keyword, True, f"{what} now"))
            elif was and not now:
                found.append((keyword, False, f"no longer {what.replace('must', 'need')}"))
        if "contains" in b and "contains" in h:  # the counts apply only beside `contains`
            for keyword, default, lower in (("minContains", 1, True), ("maxContains", None, False)):
                was, now = _number(b.get(keyword, default)), _number(h.get(keyword, default))
                if was == now:
                    continue
                tighter = was is None or (now is not None and (now > was if lower else now < was))
                if lower or now is not None:
                    found.append((keyword, tighter, f"`{keyword}` is now {_canonical(now)}"))
                else:
                    found.append((keyword, False, f"`{keyword}` {_canonical(was)} is gone"))
        for kind in ("dependentRequired",):
            was_map, now_map = b.get(kind), h.get(kind)
            was_pairs = _dependencies(was_map)
            now_pairs = _dependencies(now_map)
            for narrowed, pairs in ((True, now_pairs - was_pairs), (False, was_pairs - now_pairs)):
                if pairs:
                    listed = ", ".join(f"`{a}` needs `{c}`" for a, c in sorted(pairs)[:5])
                    verb = "now" if narrowed else "no longer"
                    found.append((kind, narrowed, f"{verb}: {listed}"))
        for keyword in ("additionalProperties", "unevaluatedProperties"):
            if b.get(keyword) is False and h.get(keyword) is not False:
                found.append((keyword, False, f"no longer closed (`{keyword}: false` is gone)"))
        for keyword in ("items", "unevaluatedItems", "propertyNames"):
            if (h.get(keyword) is False) != (b.get(keyword) is False):
                narrowed = h.get(keyword) is False
                found.append(
                    (
                        keyword,
                        narrowed,
                        f"`{keyword}: false` is " + ("added" if narrowed else "gone"),
                    )
                )
        for keyword, narrowed, what in found:
            opened = keyword in ("additionalProperties", "unevaluatedProperties")
            self.add(
                "shape opened"
                if opened
                else ("constraint narrowed" if narrowed else "constraint widened"),
                client if narrowed else server,
                role,
                f"{name}{role} `{head.label}`: {what}: "
                + (
                    "values the base accepted may be rejected"
                    if narrowed
                    else "a client validating against the base may reject what the head allows"
                ),
                head,
                base,
                *((keyword,) if keyword in h else ()),
            )

    def compare_absent_subschemas(
        self, base: Site, head: Site, field: str | None, depth: int
    ) -> None:
        """An absent (or ``true``) subschema against a schema, compared as ``{}`` against it:
        ``additionalProperties: {type: string}`` where the base had none narrows every
        undeclared member (the walk below says how); the reverse widens it."""
        b, h = base.node, head.node
        for keyword in _EMPTY_WHEN_ABSENT:
            was, now = b.get(keyword, True), h.get(keyword, True)
            if (was is True) == (now is True) or False in (was, now):
                continue  # both schemas (the walk pairs them), alike, or closed (compare_members)
            if (isinstance(was, dict) and was) or (isinstance(now, dict) and now):
                self.pair(self.child(base, keyword), self.child(head, keyword), field, depth + 1)
        for keyword in _EMPTY_WHEN_ABSENT_ENTRY:
            was_map, now_map = b.get(keyword), h.get(keyword)
            was_map = was_map if isinstance(was_map, dict) else {}
            now_map = now_map if isinstance(now_map, dict) else {}
            for entry in sorted(set(was_map) ^ set(now_map)):
                value = was_map.get(entry, now_map.get(entry))
                if isinstance(value, dict) and value:
                    self.pair(
                        self.child(base, keyword, entry),
                        self.child(head, keyword, entry),
                        field,
                        depth + 1,
                    )

    def child(self, site: Site, keyword: str, entry: str | None = None) -> Site:
        """The subschema ``keyword`` (or its ``entry``) of ``site``, at its place in the file;
        ``{}`` where it is absent or ``true``."""
        part = self.holder(site, (keyword,))
        pointer = join_pointer(part.pointer, self.spelled(part, (keyword,))[0])
        node = part.node.get(keyword)
        if entry is not None:
            pointer = join_pointer(pointer, entry)
            node = node.get(entry) if isinstance(node, dict) else None
        return Site(part.document, pointer, node if isinstance(node, dict) else {})

    # --- where structure cannot say: generated witnesses ---------------------------------------

    def witness(
        self,
        base: Site,
        head: Site,
        field: str | None,
        mark: int,
    ) -> None:
        """Ask the schemas (``speclint.analyses.acceptance``) when the node differs in keywords
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
        reported = self.changes[mark:]
        if any(not _at_node(c, head) for c in reported):
            return  # below the node: that pair said what changed
        judged = {"anyOf", "oneOf", "allOf", "if", "then", "else", "not"} & set(differing)
        if reported and not judged and not any(c.kind in _TENTATIVE for c in reported):
            return
        found = self.witnessed(base, head, differing[0])
        if found is None:
            return
        role = self.role(head, base)
        client = role in ("client-submitted", "both", "unused")
        server = role in ("server-emitted", "both", "unused")
        decided = not found.undecided
        narrowed = self.own_witness(found.narrowed, base, head)
        widened = self.own_witness(found.widened, base, head)
        shown = {"narrowing": narrowed, "widening": widened}
        if reported:
            kept = [
                _evidenced(c, shown[_direction(c)]) if c.kind in _TENTATIVE else c
                for c in reported
                # a "may" stays: a few instances that miss are no proof (`minContains` of an
                # untyped schema is seldom met by chance)
                if not _direction(c) or not decided or shown[_direction(c)] or c.kind in _TENTATIVE
            ]
            del self.changes[mark:]
            self.changes.extend(kept)
            # what a kept comparison says already needs no second report
            said = {_direction(c) for c in kept}
            narrowed = None if "narrowing" in said else narrowed
            widened = None if "widening" in said else widened
            if kept and narrowed is None and widened is None:
                return
        keyword = differing[0]
        at = keyword if keyword in head.node else ""
        name = f"`{field}` of " if field else ""
        subject = f"{name}{role} `{head.label}`"
        if narrowed is not None:
            self.add(
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
            self.add(
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
            self.add(
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
        state = self.witnessing
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
                state.note = len(self.changes)
                self.changes.append(note)
            else:
                self.changes[state.note] = replace(
                    self.changes[state.note], description=note.description
                )
            return None
        state.nodes += 1
        if state.base is None or state.head is None:
            state.base, state.head = Revision(self.base), Revision(self.head)
        return accepted_change(state.base, base, state.head, head, WITNESS_INSTANCES)

    def own_witness(self, found: Witness | None, base: Site, head: Site) -> Witness | None:
        """``found``, unless the keyword that rejects it is one the walk descends into and pairs
        itself (a property both revisions declare, ``items``...): that pair reports it."""
        if found is None:
            return None
        tokens = found.keyword_path.split("/")
        if tokens[0] in _MAPS and len(tokens) > 1:
            holders = (base.node.get(tokens[0]), head.node.get(tokens[0]))
            if all(isinstance(h, dict) and tokens[1] in h for h in holders):
                return None
        elif (
            tokens[0] in _SINGLE
            and tokens[0] not in ("then", "else")
            and isinstance(base.node.get(tokens[0]), dict)
            and isinstance(head.node.get(tokens[0]), dict)
        ):
            return None
        return found

    # --- files and operations ------------------------------------------------------------------

    def removed_files(self) -> None:
        for document in self.base.of_kind(DocumentKind.SCHEMA):
            if document.path in self.head.documents:
                continue
            role = self.base.roles.role_name(document.path, "")
            self.changes.append(
                Change(
                    "schema file removed",
                    True,
                    role,
                    f"{role} schema `{document.path}` was removed: every `$ref` and `$id` "
                    "consumer of it breaks",
                    Location(document.path, 1, 1, pointer="", note="at the base revision"),
                    None,
                )
            )

    def definitions(self) -> None:
        """Definitions (``$defs``/``definitions`` entries, API ``components/schemas``) removed
        or added in a file both revisions have. A removed one is breaking whatever its role: a
        published file's definitions are addressable (``x.json#/$defs/Batch``), so, as a schema
        file removed, every ``$ref`` to it from another file or another repository breaks,
        and no corpus can list those. One added is additive. Only the outermost is said: the
        definitions nested in one removed go with it; a move between ``definitions`` and
        ``$defs`` is neither (``_at_base``)."""
        for corpus, other, removed in ((self.base, self.head, True), (self.head, self.base, False)):
            for site in schema_locations(corpus):
                tokens = split_pointer(site.pointer)
                if not _is_definition(site.document, tokens):
                    continue
                counterpart = other.documents.get(site.document.path)
                if counterpart is None or counterpart.kind is not site.document.kind:
                    continue  # a file removed or added: said as a file, or additive
                if not counterpart.usable or _at_base(counterpart, site.pointer) is not None:
                    continue
                holder = "".join(join_pointer("", t) for t in tokens[:-2])
                if _at_base(counterpart, holder) is None:
                    continue  # its container went or came with it: said there
                role = corpus.roles.role_name(site.document.path, site.pointer)
                name = f"`{site.document.path}#{site.pointer}`"
                if removed:
                    change = Change(
                        "definition removed",
                        True,
                        role,
                        f"{role} definition {name} was removed: every `$ref` to it, from "
                        "another file or a consumer of the published schema, breaks",
                        site.document.location(site.pointer, note="at the base revision"),
                        None,
                    )
                else:
                    change = Change(
                        "definition added",
                        False,
                        role,
                        f"{role} definition {name} is new",
                        site.document.location(site.pointer),
                        None,
                    )
                self.changes.append(change)

    def removed_operations(self) -> None:
        for base_document in self.base.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
            head_document = self.head.documents.get(base_document.path)
            head_data = head_document.data if head_document is not None else None
            for pointer, label in _operations(base_document):
                if resolve_pointer(head_data, pointer) is not None:
                    continue
                holder = head_document if head_document is not None else base_document
                line, column = holder.position(pointer)
                self.changes.append(
                    Change(
                        "operation removed",
                        True,
                        "operation",
                        f"{label} was removed from `{base_document.path}`: clients that use it "
                        "break",
                        Location(base_document.path, line, column, pointer=pointer),
                        base_document.location(pointer, note="at the base revision"),
                    )
                )


@dataclass
class _Witnessing:
    """A run's witnesses: the revisions they read (made on first use) and the budget spent."""

    base: Revision | None = None
    head: Revision | None = None
    nodes: int = 0  # nodes witnessed
    left: int = 0  # nodes the budget left out
    note: int | None = None  # the index, in the changes, of the change that says so


def _meaning(value: Any, words: bool = True) -> Any:
    """``value`` without the annotations that change no accepted value (a member of a
    ``properties`` map named ``title`` is a property, kept)."""
    if isinstance(value, list):
        return [_meaning(item) for item in value]
    if not isinstance(value, dict):
        return value
    return {
        key: _meaning(item, key not in _MAPS)
        for key, item in value.items()
        if not (words and (key in _WORDS or key.startswith("x-")))
    }


def _differing(base: dict[str, Any], head: dict[str, Any]) -> list[str]:
    """The unmodelled keywords whose values differ (a ``pattern`` only changed or removed:
    one added is ``pattern added``'s)."""
    return [
        keyword
        for keyword in _UNMODELLED
        if _canonical(_meaning(base.get(keyword))) != _canonical(_meaning(head.get(keyword)))
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
        len(tokens) == 2 and change.kind.startswith("union member") and tokens[0] in _LISTS
    )


def _direction(change: Change) -> str:
    """Whether ``change`` says fewer values are accepted ("narrowing"), more ("widening"), or
    neither (""): what a witness can confirm or refute. A member of an ``allOf`` is a
    constraint: one removed widens, one added narrows."""
    if change.kind.startswith("union member"):
        # located at the union (a member removed) or at the member (one added: `allOf/1`)
        conjunction = "allOf" in split_pointer(change.location.pointer or "")[-2:]
        added = change.kind == "union member added"
        return "narrowing" if added == conjunction else "widening"
    if change.kind in _NARROWING:
        return "narrowing"
    return "widening" if change.kind in _WIDENING else ""


def _evidenced(change: Change, found: Witness | None) -> Change:
    """A "may" of the comparisons (``constraint narrowed``) with the instance that proves it."""
    if found is None:
        return change
    narrowing = _direction(change) == "narrowing"
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


def _is_definition(document: Document, tokens: list[str]) -> bool:
    """Is this location a named definition: a ``$defs``/``definitions`` entry (not a property
    of that name), or an API document's ``components/schemas`` entry?"""
    if document.kind in (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        return tokens[:2] == ["components", "schemas"] and len(tokens) == 3
    if len(tokens) < 2 or tokens[-2] not in ("$defs", "definitions"):
        return False
    return len(tokens) == 2 or tokens[-3] not in ("properties", "patternProperties")


def _operations(document: Document) -> Iterator[tuple[str, str]]:
    data = document.data if isinstance(document.data, dict) else {}
    if document.kind is DocumentKind.OPENAPI:
        paths = data.get("paths")
        for route, item in sorted(paths.items()) if isinstance(paths, dict) else ():
            for method in HTTP_METHODS:
                if isinstance(item, dict) and isinstance(item.get(method), dict):
                    operation_id = item[method].get("operationId")
                    named = f" ({operation_id})" if isinstance(operation_id, str) else ""
                    yield (
                        join_pointer(join_pointer("/paths", route), method),
                        f"`{method.upper()} {route}`{named}",
                    )
    else:
        for holder in ("operations", "channels"):
            entries = data.get(holder)
            for name in sorted(entries) if isinstance(entries, dict) else ():
                yield join_pointer(f"/{holder}", name), f"AsyncAPI {holder[:-1]} `{name}`"
