"""Union members paired by what they are, not by where they stand.

A change that inserts one member at the front of an ``anyOf`` shifts every other member by one: a
diff that pairs members by position then compares each with its neighbour, and reports every
difference between two unrelated schemas. The order of ``anyOf``, ``oneOf`` and ``allOf`` members
carries no meaning (JSON Schema 2020-12 §10.2.1: each applies its members independently), so
``pair_members`` pairs a member with the member of the other revision that *is the same thing*,
asking, in this order, until one answer pairs it:

1. the same ``$ref`` target (the file and pointer the reference ends at, after following it);
2. the same content (a target that moved, or an inline member that stayed as it was);
3. the same target name (``#/definitions/TextContent`` and ``#/$defs/TextContent``);
4. the same discriminator: a property whose ``const`` (or one-value ``enum``) is the member's
   alone on its side (``"type": {"const": "text"}``; a value every member shares, such as
   ``"jsonrpc": {"const": "2.0"}``, tells nothing), or an OpenAPI ``discriminator.mapping`` entry;
5. the same ``title``, again one member's alone on its side;
6. similar content: the share of property names, types and ``required`` members the two have in
   common (Jaccard; or of property names alone, when that is larger), best first, at least
   ``SIMILARITY``, so that two unrelated members stay unpaired: one removed and one added, which
   is what the change is.

``prefixItems`` is positional (its position *is* a member's meaning) and is not paired here.
The pairing reads nothing but the readings it is given: the caller resolves references.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from speclint.analyses.schemas.schema_objects import types_of
from speclint.parsing.structured import canonical, split_pointer

# Below this share of common features, two members are different members: with {type, one
# property} on each side, one property in common is 2/3 and none is 1/3.
SIMILARITY = 0.5


@dataclass(frozen=True)
class MemberReading:
    """What a union member is, as the pairing reads it."""

    target: str | None = None  # where its ``$ref`` ends: "path#pointer"
    name: str | None = None  # that target's name: its last pointer token, else its file name
    content: str | None = None  # the schema it resolves to, as canonical JSON
    tags: frozenset[tuple[str, str]] = frozenset()  # (property, canonical value) discriminators
    title: str | None = None
    features: frozenset[str] = frozenset()  # "property:x", "type:y", "required:z"
    types: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Pairing:
    pairs: tuple[tuple[int, int], ...]  # (base index, head index), in base order
    removed: tuple[int, ...]  # base members with no counterpart at the head
    added: tuple[int, ...]  # head members with no counterpart at the base


def member_reading(
    schema: Any,
    *,
    target: str | None = None,
    parts: Iterable[Any] = (),
    mapped: Iterable[tuple[str, Any]] = (),
    title: str | None = None,
) -> MemberReading:
    """Read a member: ``schema`` is what it resolves to, ``target`` where its ``$ref`` ends,
    ``parts`` the (resolved) ``allOf`` members of ``schema`` (a subtype written as ``allOf:
    [base, {its own properties}]`` keeps its discriminator there), ``mapped`` the (property,
    value) pairs of the union's OpenAPI ``discriminator.mapping`` that name this member,
    ``title`` one written beside the member's ``$ref`` (it names the member, not the target)."""
    name = None
    if target is not None:
        path, _, pointer = target.partition("#")
        tokens = split_pointer(pointer)
        name = tokens[-1] if tokens else path.rsplit("/", 1)[-1]
    tags: set[tuple[str, str]] = {(prop, canonical(value)) for prop, value in mapped}
    features: set[str] = set()
    types: set[str] = set()
    for node in (schema, *parts):
        if not isinstance(node, dict):
            continue
        single = _single_value(node)
        if single is not None and node is schema:
            tags.add(("", single))
        properties = node.get("properties")
        for prop, sub in sorted(properties.items()) if isinstance(properties, dict) else ():
            features.add(f"property:{prop}")
            value = _single_value(sub) if isinstance(sub, dict) else None
            if value is not None:
                tags.add((prop, value))
        required = node.get("required")
        for member in required if isinstance(required, list) else ():
            if isinstance(member, str):
                features.add(f"required:{member}")
        types |= types_of(node)
    features |= {f"type:{t}" for t in types}
    if title is None and isinstance(schema, dict) and isinstance(schema.get("title"), str):
        title = schema["title"]
    return MemberReading(
        target=target,
        name=name,
        content=canonical(schema),
        tags=frozenset(tags),
        title=title,
        features=frozenset(features),
        types=tuple(sorted(types)),
    )


def _single_value(node: dict[str, Any]) -> str | None:
    if "const" in node:
        return canonical(node["const"])
    enum = node.get("enum")
    if isinstance(enum, list) and len(enum) == 1:
        return canonical(enum[0])
    return None


def pair_members(base: Sequence[MemberReading], head: Sequence[MemberReading]) -> Pairing:
    """Pair each member of ``base`` with the one of ``head`` that is the same thing."""
    left = list(range(len(base)))
    right = list(range(len(head)))
    pairs: list[tuple[int, int]] = []

    def by_key(
        key: Callable[[MemberReading], Iterable[Hashable]],
        unique: bool,
        apart: Callable[[int, int], bool] = lambda i, j: False,
    ) -> None:
        """Pair the members that share a key: in order when a key is on several members of
        each side (two references to one target), only when it is one member's on each side
        for a discriminator or a title (a value every member has tells nothing)."""
        keys_left = [set(key(reading)) for reading in base]
        keys_right = [set(key(reading)) for reading in head]
        every = sorted({k for i in left for k in keys_left[i]}, key=repr)
        for k in every:
            mine = [i for i in range(len(base)) if k in keys_left[i]]
            theirs = [j for j in range(len(head)) if k in keys_right[j]]
            if unique and (len(mine) != 1 or len(theirs) != 1):
                continue  # uniqueness on the whole side: what is left over is no evidence
            mine = [i for i in mine if i in left]
            theirs = [j for j in theirs if j in right]
            for i, j in zip(mine, theirs, strict=False):
                if apart(i, j):
                    continue
                pairs.append((i, j))
                left.remove(i)
                right.remove(j)

    by_key(lambda m: [m.target] if m.target else [], unique=False)
    by_key(lambda m: [m.content] if m.content else [], unique=False)
    by_key(lambda m: [m.name] if m.name else [], unique=False)
    by_key(lambda m: m.tags, unique=True)
    # Two members told apart by different values of one discriminator are different members,
    # however alike the rest of them is (every JSON-RPC request has `id`, `method`, `params`).
    told_base, told_head = _distinctive(base), _distinctive(head)

    def apart(i: int, j: int) -> bool:
        return any(
            told_head[j].get(prop, values).isdisjoint(values)
            for prop, values in told_base[i].items()
        )

    by_key(lambda m: [m.title] if m.title else [], unique=True, apart=apart)
    scored = sorted((-_similarity(base[i], head[j]), i, j) for i in left for j in right)
    for negative, i, j in scored:
        if -negative < SIMILARITY:
            break
        if i in left and j in right and not apart(i, j):
            pairs.append((i, j))
            left.remove(i)
            right.remove(j)
    return Pairing(tuple(sorted(pairs)), tuple(left), tuple(right))


def _distinctive(members: Sequence[MemberReading]) -> list[dict[str, set[str]]]:
    """Per member, the discriminator values no other member of its side has, by property."""
    counts: dict[tuple[str, str], int] = {}
    for reading in members:
        for tag in reading.tags:
            counts[tag] = counts.get(tag, 0) + 1
    told: list[dict[str, set[str]]] = []
    for reading in members:
        mine: dict[str, set[str]] = {}
        for prop, value in reading.tags:
            if counts[(prop, value)] == 1:
                mine.setdefault(prop, set()).add(value)
        told.append(mine)
    return told


def _similarity(a: MemberReading, b: MemberReading) -> float:
    """The larger of two shares: of every feature, and of property names alone when two or more
    are shared (a member that gained a property and moved its ``required`` list into a nested
    ``anyOf`` is the same member, though most of its features changed)."""
    names_a, names_b = _properties(a.features), _properties(b.features)
    # One name in common (a generic `_meta`, `id`) says little about members this small.
    by_names = _jaccard(names_a, names_b) if len(names_a & names_b) >= 2 else 0.0
    return max(_jaccard(a.features, b.features), by_names)


def _properties(features: frozenset[str]) -> frozenset[str]:
    return frozenset(f for f in features if f.startswith("property:"))


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def member_name(members: Sequence[MemberReading], index: int) -> str:
    """How a report names member ``index`` of ``members``: its target, its discriminator (a
    value no other member has), its title, else its place, its types and its properties."""
    reading = members[index]
    if reading.name:
        return f"`{reading.name}`"
    shared = {tag for i, other in enumerate(members) if i != index for tag in other.tags}
    for prop, value in sorted(reading.tags - shared):
        shown = value.strip('"')
        return f"`{shown}`" if not prop else f"`{prop}: {shown}`"
    if reading.title:
        return f"`{reading.title}`"
    said = [f"`{'`, `'.join(reading.types)}`"] if reading.types else []
    names = sorted(f.split(":", 1)[1] for f in _properties(reading.features))
    if names:
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        said.append("with " + ", ".join(f"`{n}`" for n in names[:3]) + more)
    required = sorted(f.split(":", 1)[1] for f in reading.features if f.startswith("required:"))
    if not names and required:
        said.append("requiring " + ", ".join(f"`{n}`" for n in required[:3]))
    return f"#{index}" + (f" ({' '.join(said)})" if said else "")
