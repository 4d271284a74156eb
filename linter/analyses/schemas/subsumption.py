"""Proofs that every value one schema accepts, another accepts too (subsumption), and the
``oneOf`` branches such a proof makes dead.

``oneOf`` passes a value that matches exactly one branch (JSON Schema 2020-12 Core §10.2.1.3;
draft-04 §5.5.5; OpenAPI 3.0.3 §4.7.24.1 takes it from draft-wright-00). When every value branch
A accepts, branch B accepts too, every value of A matches twice and is rejected: A admits
nothing, and when every branch is so covered the ``oneOf`` rejects every value at all.

The proof is keyword by keyword and only ever says yes when it is sure: a keyword of B is
implied when A carries the same keyword at least as strict (``type``, ``required``, bounds,
``enum``, ``properties`` member by member, ``additionalProperties`` with its siblings), when the
keyword cannot apply to any type A admits, or when it does not validate (annotations: ``title``,
``description``, ``examples``, an unknown ``format``: 2020-12 Validation §7.2, format is an
annotation by default). Anything else (``$dynamicRef``, ``$id``, ``unevaluated*``, an
unresolved ``$ref``, a known ``format`` A lacks) is no proof. The proof holds in every
dialect an API document's schemas may be read in: ``$ref`` siblings (ignored before 2019-09,
applied after) and ``nullable`` (OpenAPI 3.0 only, §4.7.24) are proved both ways. Each proof has
a step budget: a large schema ends in "no proof", never in a long run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.references import located
from speclint.parsing.structured import join_pointer, resolve_pointer


@dataclass(frozen=True)
class At:
    """A schema (``node``) where it is written: the file and the pointer."""

    path: str
    pointer: str
    node: Any

    def child(self, *tokens: str | int) -> At:
        pointer = self.pointer
        node = self.node
        for token in tokens:
            pointer = join_pointer(pointer, token)
            node = node[token]
        return At(self.path, pointer, node)


# Follows the `$ref` of the schema at (path, pointer) through the corpus: its target, or None.
Resolver = Callable[[str, str], "At | None"]

# Keywords that never validate: JSON Schema 2020-12 Meta-Data (Validation §9), content (§8, an
# annotation in 2020-12), containers of definitions (only their `$ref`d members count), OpenAPI's
# own annotations (3.0.3 §4.7.24: discriminator, xml, externalDocs, example). readOnly and
# writeOnly are annotations in 2020-12 and only steer which properties a request or response
# carries in 3.0, never whether the schema itself accepts a value.
ANNOTATIONS = frozenset(
    {
        "$comment",
        "$anchor",
        "$defs",
        "$schema",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
        "default",
        "definitions",
        "deprecated",
        "description",
        "discriminator",
        "example",
        "examples",
        "externalDocs",
        "readOnly",
        "title",
        "writeOnly",
        "xml",
    }
)

# Formats a validator may assert: JSON Schema 2020-12 Validation §7.3 and the OpenAPI Format
# Registry. Any other `format` is an annotation everywhere (§7.2.3: unknown formats are not
# asserted). A known one is a constraint: proved only by the same format on the other side.
KNOWN_FORMATS = frozenset(
    {
        "base64url",
        "binary",
        "byte",
        "char",
        "commonmark",
        "date",
        "date-time",
        "decimal",
        "decimal128",
        "double",
        "double-int",
        "duration",
        "email",
        "float",
        "hostname",
        "html",
        "http-date",
        "idn-email",
        "idn-hostname",
        "int16",
        "int32",
        "int64",
        "int8",
        "ipv4",
        "ipv6",
        "iri",
        "iri-reference",
        "json-pointer",
        "media-range",
        "password",
        "regex",
        "relative-json-pointer",
        "time",
        "uint16",
        "uint32",
        "uint64",
        "uint8",
        "uri",
        "uri-reference",
        "uri-template",
        "uuid",
    }
)

TYPES = frozenset({"null", "boolean", "object", "array", "number", "string", "integer"})

# The types each keyword applies to (2020-12 Validation §6): a value of another type passes it.
_APPLIES = {
    **dict.fromkeys(
        (
            "required",
            "properties",
            "additionalProperties",
            "patternProperties",
            "minProperties",
            "maxProperties",
            "propertyNames",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
        ),
        frozenset({"object"}),
    ),
    **dict.fromkeys(
        (
            "items",
            "prefixItems",
            "additionalItems",
            "contains",
            "minItems",
            "maxItems",
            "uniqueItems",
            "minContains",
            "maxContains",
        ),
        frozenset({"array"}),
    ),
    **dict.fromkeys(("minLength", "maxLength", "pattern"), frozenset({"string"})),
    **dict.fromkeys(
        ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
        frozenset({"number", "integer"}),
    ),
}
_LOWER = ("minLength", "minItems", "minProperties")
_UPPER = ("maxLength", "maxItems", "maxProperties")
# Keywords whose meaning depends on a sibling: proved only with the sibling equal on both sides.
_WITH = {
    "then": ("if",),
    "else": ("if",),
    "contains": ("minContains", "maxContains"),
    "minContains": ("contains",),
    "maxContains": ("contains",),
    "additionalItems": ("items",),
    "exclusiveMinimum": ("minimum",),
    "exclusiveMaximum": ("maximum",),
}
# Never proved: they see what every other keyword evaluated (2020-12 Core §11), or they change
# the base of every reference below them.
_REFUSED = frozenset(
    {"unevaluatedProperties", "unevaluatedItems", "$id", "id", "$dynamicRef", "$recursiveRef"}
)

STEPS = 4000  # comparisons one proof may make
_CHEAP = frozenset({"type", "nullable", "required", "enum", "const", "format"})


class _OutOfSteps(Exception):
    pass


def same(x: Any, y: Any) -> bool:
    """JSON equality: ``true`` is not ``1``; ``1`` is ``1.0``."""
    if isinstance(x, bool) or isinstance(y, bool):
        return type(x) is type(y) and x == y
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return x == y
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(same(a, b) for a, b in zip(x, y, strict=True))
    return type(x) is type(y) and x == y


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _holds_ref(value: Any) -> bool:
    if isinstance(value, dict):
        return "$ref" in value or any(_holds_ref(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_ref(v) for v in value)
    return False


def validating(node: dict[str, Any]) -> list[str]:
    """The keywords of a schema object that may reject a value (not annotations, extensions or
    an unknown ``format``)."""
    return [
        str(k)
        for k in node
        if str(k) not in ANNOTATIONS
        and not str(k).startswith("x-")
        and not (k == "format" and node[k] not in KNOWN_FORMATS)
        and not (k == "nullable" and "type" not in node)  # 3.0.3 §4.7.24: only beside `type`
        and not (k == "if" and "then" not in node and "else" not in node)
    ]


def accepts_all(node: Any) -> bool:
    """``true``, ``{}``, or a schema of annotations only."""
    if node is True:
        return True
    return isinstance(node, dict) and not validating(node)


def _types(node: dict[str, Any], nullable: bool) -> frozenset[str] | None:
    """The types the schema's ``type`` admits (every type when absent; None: unreadable), with
    ``null`` added by a ``nullable: true`` beside it when ``nullable`` is read (OpenAPI 3.0)."""
    declared = node.get("type")
    if declared is None:
        found = TYPES
    elif isinstance(declared, str) and declared in TYPES:
        found = frozenset({declared})
    elif isinstance(declared, list) and declared and all(t in TYPES for t in declared):
        found = frozenset(declared)
    else:
        return None
    if nullable and declared is not None and True in (node.get("nullable"), node.get("x-nullable")):
        found |= {"null"}
    members = node.get("enum")
    if isinstance(members, list) and members:
        found &= frozenset(t for v in members for t in _types_of_value(v))
    return found


def _types_of_value(value: Any) -> tuple[str, ...]:
    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("boolean",)
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return ("integer", "number")
    if isinstance(value, float):
        return ("number",)
    if isinstance(value, str):
        return ("string",)
    return ("array",) if isinstance(value, list) else ("object",)


def _within(inner: frozenset[str], outer: frozenset[str]) -> bool:
    return all(t in outer or (t == "integer" and "number" in outer) for t in inner)


def _admits(types: frozenset[str], keyword: str) -> bool:
    """Whether a value of one of ``types`` is judged by ``keyword`` at all."""
    kinds = _APPLIES.get(keyword)
    if kinds is None:
        return True
    return bool(types & kinds) or ("integer" in types and "number" in kinds)


class Prover:
    """Proves ``a ⊆ b`` (every value ``a`` accepts, ``b`` accepts) within a step budget."""

    def __init__(self, resolve: Resolver, steps: int = STEPS) -> None:
        self.resolve = resolve
        self.steps = steps
        self._left = steps
        self._active: set[tuple[str, str, str, str]] = set()
        self._proved: dict[tuple[str, str, str, str], bool] = {}

    def subsumes(self, a: At, b: At) -> bool:
        # Proofs are remembered by place: a component's branches recur in many `oneOf`s.
        a, b = self.target(a), self.target(b)
        key = (a.path, a.pointer, b.path, b.pointer)
        if key not in self._proved:
            self._proved[key] = self._prove(a, b)
        return self._proved[key]

    def target(self, at: At) -> At:
        """The schema a branch that is only a ``$ref`` names (the same values, any dialect)."""
        for _ in range(8):
            if not (isinstance(at.node, dict) and set(at.node) == {"$ref"}):
                break
            target = self.resolve(at.path, at.pointer)
            if target is None:
                break
            at = target
        return at

    def _prove(self, a: At, b: At) -> bool:
        self._left = self.steps
        self._active = set()
        try:
            return self._sub(a, b, 0)
        except (_OutOfSteps, RecursionError):
            return False

    def _sub(self, a: At, b: At, depth: int) -> bool:
        self._left -= 1
        if self._left < 0:
            raise _OutOfSteps
        if accepts_all(b.node) or a.node is False:
            return True
        if depth > 40 or not isinstance(a.node, dict) or not isinstance(b.node, dict):
            return False
        if _REFUSED & (a.node.keys() | b.node.keys()):
            return False
        key = (a.path, a.pointer, b.path, b.pointer)
        if key in self._active:
            return False  # a cycle: no proof (never assumed)
        self._active.add(key)
        try:
            return self._decide(a, b, depth + 1)
        finally:
            self._active.discard(key)

    def _decide(self, a: At, b: At, depth: int) -> bool:
        an, bn = a.node, b.node
        if isinstance(an.get("$ref"), str):
            if (
                isinstance(bn.get("$ref"), str)
                and a.path == b.path
                and an["$ref"] == bn["$ref"]
                and self._keywords(a, b, depth, skip="$ref")
            ):
                return True  # the same target; b's siblings (2020-12) proved by a's
            target = self.resolve(a.path, a.pointer)
            # Before 2019-09 a `$ref`'s siblings are ignored, after it they add constraints:
            # either way, every value `a` accepts its target accepts.
            return target is not None and self._sub(target, b, depth)
        for keyword in ("allOf",):
            branches = an.get(keyword)
            if isinstance(branches, list) and any(
                self._sub(a.child(keyword, i), b, depth) for i in range(len(branches))
            ):
                return True
        for keyword in ("anyOf", "oneOf"):
            branches = an.get(keyword)
            if (
                isinstance(branches, list)
                and branches
                and all(self._sub(a.child(keyword, i), b, depth) for i in range(len(branches)))
            ):
                return True
        if isinstance(bn.get("$ref"), str):
            target = self.resolve(b.path, b.pointer)
            # Proved for the target alone (before 2019-09) and with the siblings (after).
            return (
                target is not None
                and self._sub(a, target, depth)
                and self._keywords(a, b, depth, skip="$ref")
            )
        return self._keywords(a, b, depth)

    def _keywords(self, a: At, b: At, depth: int, skip: str = "") -> bool:
        an, bn = a.node, b.node
        read_30, read_31 = _types(an, True), _types(an, False)
        if read_30 is None or read_31 is None:
            return False
        both = (read_30, read_31)
        wide = read_30  # every type `a` may admit, whichever way `nullable` is read
        # The cheap keywords first: most pairs differ by `type`, `required` or `enum`, and
        # are told apart before their properties are compared.
        for keyword in sorted(validating(bn), key=lambda k: k not in _CHEAP):
            if keyword == skip:
                continue
            if keyword in ("type", "nullable", "x-nullable"):
                outer = [_types(bn, True), _types(bn, False)]
                if any(o is None or not _within(i, o) for i, o in zip(both, outer, strict=True)):
                    return False
                continue
            if not _admits(wide, keyword):
                continue
            if not self._implied(a, b, keyword, depth):
                return False
        return True

    def _implied(self, a: At, b: At, keyword: str, depth: int) -> bool:
        an, bn = a.node, b.node
        want = bn[keyword]
        have = an.get(keyword)
        if keyword in _LOWER or keyword in _UPPER or keyword in ("minimum", "maximum"):
            if keyword in ("minimum", "maximum") and (
                {"exclusiveMinimum", "exclusiveMaximum"} & (an.keys() | bn.keys())
            ):
                return self._equal(a, b, keyword)
            if not (_number(want) and _number(have)):
                return False
            return bool(have >= want if keyword in _LOWER or keyword == "minimum" else have <= want)
        if keyword == "required":
            return (
                isinstance(want, list)
                and isinstance(have, list)
                and all(any(same(w, h) for h in have) for w in want)
            )
        if keyword == "enum":
            if not isinstance(want, list):
                return False
            if isinstance(have, list):
                return all(any(same(h, w) for w in want) for h in have)
            return "const" in an and any(same(an["const"], w) for w in want)
        if keyword == "const":
            if "const" in an:
                return same(an["const"], want)
            return isinstance(have := an.get("enum"), list) and all(same(h, want) for h in have)
        if keyword == "uniqueItems":
            return want is False or have is True
        if keyword == "format":
            return same(have, want)
        if keyword == "allOf":
            return isinstance(want, list) and all(
                self._sub(a, b.child("allOf", i), depth) for i in range(len(want))
            )
        if keyword == "anyOf":
            return isinstance(want, list) and any(
                self._sub(a, b.child("anyOf", i), depth) for i in range(len(want))
            )
        if keyword == "not":
            # `a` rejects what its `not` accepts: every value `b`'s `not` accepts is among them.
            return "not" in an and self._sub(b.child("not"), a.child("not"), depth)
        if keyword == "properties":
            return self._properties(a, b, depth)
        if keyword == "additionalProperties":
            return self._additional(a, b, depth)
        if keyword == "items":
            return self._items(a, b, depth)
        if keyword == "if":
            return True  # judged through `then`/`else`, which ask for the same `if`
        return self._equal(a, b, keyword) and all(
            self._equal(a, b, sibling) for sibling in _WITH.get(keyword, ())
        )

    def _equal(self, a: At, b: At, keyword: str) -> bool:
        """The same keyword with the same value on both sides (a ``$ref`` inside it read in the
        same file); both absent counts as equal."""
        if keyword not in a.node and keyword not in b.node:
            return True
        if keyword not in a.node or keyword not in b.node:
            return False
        value = b.node[keyword]
        if a.path != b.path and _holds_ref(value):
            return False
        return same(a.node[keyword], value)

    def _closed(self, node: dict[str, Any]) -> bool:
        return node.get("additionalProperties") is False and not node.get("patternProperties")

    def _properties(self, a: At, b: At, depth: int) -> bool:
        wanted = b.node["properties"]
        held = a.node.get("properties", {})
        if not isinstance(wanted, dict) or not isinstance(held, dict):
            return False
        if a.node.get("patternProperties"):
            return False  # which of a's members a pattern judges: not decided here
        for name, schema in wanted.items():
            if accepts_all(schema):
                continue
            if name in held:
                if not self._sub(a.child("properties", name), b.child("properties", name), depth):
                    return False
            elif "additionalProperties" in a.node:
                if not self._sub(
                    a.child("additionalProperties"), b.child("properties", name), depth
                ):
                    return False
            else:
                return False
        return True

    def _additional(self, a: At, b: At, depth: int) -> bool:
        an, bn = a.node, b.node
        if an.get("patternProperties") or bn.get("patternProperties"):
            return all(
                self._equal(a, b, k)
                for k in ("properties", "patternProperties", "additionalProperties")
            )
        held = an.get("properties", {})
        known = bn.get("properties", {})
        if not isinstance(held, dict) or not isinstance(known, dict):
            return False
        # A member `b` does not declare is judged by `b`'s additionalProperties: in `a` it is
        # judged by a's declaration of it, or by a's own additionalProperties.
        for name in held:
            if name not in known and not self._sub(
                a.child("properties", name), b.child("additionalProperties"), depth
            ):
                return False
        if "additionalProperties" not in an:
            return False  # `a` admits any other member
        return self._sub(a.child("additionalProperties"), b.child("additionalProperties"), depth)

    def _items(self, a: At, b: At, depth: int) -> bool:
        an, bn = a.node, b.node
        if not isinstance(bn["items"], (dict, bool)) or not isinstance(
            an.get("items"), (dict, bool)
        ):
            return all(self._equal(a, b, k) for k in ("items", "additionalItems"))
        if not self._equal(a, b, "prefixItems"):
            return False
        return self._sub(a.child("items"), b.child("items"), depth)


@dataclass(frozen=True)
class DeadBranch:
    """Branch ``index`` of a ``oneOf``: every value it accepts, branch ``cover`` accepts too
    (``mutual``: and the other way round: the two accept the same values)."""

    index: int
    cover: int
    mutual: bool


def dead_branches(prover: Prover, one_of: At) -> list[DeadBranch]:
    """The branches of the ``oneOf`` at ``one_of`` (its list) that another branch covers. A
    branch that accepts nothing at all (``false``) is not counted: that is another defect."""
    branches = one_of.node if isinstance(one_of.node, list) else []
    if len(branches) < 2:
        return []
    found: list[DeadBranch] = []
    for i in range(len(branches)):
        if branches[i] is False or (isinstance(branches[i], dict) and _empty(branches[i])):
            continue
        if _contradicts_itself(prover, one_of.child(i)):
            continue  # it accepts nothing on its own: covered only vacuously
        for j in _others(len(branches), i):
            if branches[j] is False:
                continue
            if prover.subsumes(one_of.child(i), one_of.child(j)):
                mutual = prover.subsumes(one_of.child(j), one_of.child(i))
                found.append(DeadBranch(i, j, mutual))
                break
    return found


def _others(count: int, index: int) -> Iterator[int]:
    yield from (j for j in range(count) if j != index)


def _empty(node: dict[str, Any]) -> bool:
    """A schema object that plainly accepts nothing (``enum: []``, ``type: []``, ``not: {}``)."""
    return (
        node.get("enum") == []
        or node.get("type") == []
        or ("not" in node and accepts_all(node["not"]))
    )


def resolver(corpus: Context) -> Resolver:
    """Follows the ``$ref`` of the schema at (path, pointer) through the corpus's index."""

    def resolve(path: str, pointer: str) -> At | None:
        reference = corpus.references.at(path, join_pointer(pointer, "$ref"))
        where = located(corpus, reference) if reference is not None else None
        holder = corpus.documents.get(where[0]) if where is not None else None
        if where is None or holder is None:
            return None
        target = where[1]
        try:
            node = resolve_pointer(holder.data, target)
        except (KeyError, IndexError, TypeError, ValueError):
            return None
        return At(holder.path, target, node)

    return resolve


def differing(prover: Prover, one_of: At, first: int, second: int) -> str:
    """The keywords two branches of a ``oneOf`` (or the schemas their ``$ref`` members name)
    differ by, as `a`, `b` ("" when they differ below the top, or are the same)."""
    a = prover.target(one_of.child(first)).node
    b = prover.target(one_of.child(second)).node
    if not isinstance(a, dict) or not isinstance(b, dict):
        return ""
    keys = sorted(str(k) for k in a.keys() | b.keys() if not same(a.get(k), b.get(k)))
    if not keys or any(k in validating(a) or k in validating(b) for k in keys):
        return ""  # they differ by validating keywords that still accept the same values
    return ", ".join(f"`{k}`" for k in keys)


def describe(prover: Prover, one_of: At, dead: list[DeadBranch]) -> str:
    """The cause, in a sentence, of the values a ``oneOf`` rejects for its ``dead`` branches
    ("" when none)."""
    if not dead:
        return ""
    first = next((d for d in dead if d.mutual), dead[0])
    if first.mutual:
        keys = differing(prover, one_of, first.index, first.cover)
        only = f" (they differ only by {keys}, which do not validate)" if keys else ""
        cause = f"`oneOf/{first.index}` and `oneOf/{first.cover}` accept the same values{only}"
    else:
        cause = f"`oneOf/{first.cover}` accepts every value `oneOf/{first.index}` accepts"
    whole = len(dead) == len(one_of.node)
    return (
        f"{cause}, so every value that matches {'a branch' if whole else f'oneOf/{first.index}'} "
        "matches two, and `oneOf` accepts only a value that exactly one branch matches"
    )


def _contradicts_itself(prover: Prover, branch: At) -> bool:
    """A branch whose ``not`` rejects every value its other keywords accept (``required: [a]``
    beside ``not: {required: [a]}``): it accepts nothing, whatever the other branches say."""
    node = branch.node
    if not isinstance(node, dict) or "not" not in node:
        return False
    rest = At(
        branch.path, f"{branch.pointer}#without-not", {k: v for k, v in node.items() if k != "not"}
    )
    return prover.subsumes(rest, branch.child("not"))
