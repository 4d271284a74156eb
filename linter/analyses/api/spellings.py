"""Members an example spells in another case convention than its schema (issue 46, item 9).

JSON member names are compared exactly (RFC 8259 §8.3), and an open object (no
``additionalProperties: false``, JSON Schema 2020-12 Core §10.3.2.3) accepts any member it does not
declare, so an example that writes ``maxRetries`` where the schema declares ``max_retries``
validates, and a reader who copies it sets nothing: the server reads ``max_retries`` and never
sees the other. Validation cannot say so; this walk does. It follows the example and the schema
together (``$ref``\\s through the corpus, ``allOf``/``anyOf``/``oneOf`` and ``if``/``then``/
``else`` branches, ``properties``, ``items``) and gathers, at each object of the example, every
member a schema there declares; a member none declares whose name is a declared one's in another
convention (the same letters once case, ``_`` and ``-`` are set aside: ``maxRetries``,
``max-retries``, ``MAX_RETRIES``), where the example does not also give the declared one, is a
slip. An object whose schema takes other members by design (``patternProperties`` that match
it, ``additionalProperties`` with a schema: a map) is not judged.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from referencing.exceptions import NoSuchResource, Unresolvable

from speclint.analyses.schemas.validation import search
from speclint.parsing.structured import join_pointer

# How much of a schema the walk reads for one example: a bound on work for any input (a
# recursive schema is followed only as deep as the example goes, and each schema object once
# per place in the example).
VISITS = 20_000
_SEPARATORS = re.compile(r"[-_\s.]")


@dataclass(frozen=True)
class Slip:
    """A member of an example spelt in another case convention than the one its schema
    declares."""

    at: str  # the example's object that holds it (a JSON pointer)
    given: str  # the member as the example writes it
    declared: str  # as the schema declares it

    @property
    def pointer(self) -> str:
        return join_pointer(self.at, self.given)


def protojson_alias(given: str, declared: str) -> bool:
    """Whether ``given`` is the proto field name whose JSON name is ``declared``: a ProtoJSON
    parser accepts both (``int64_value`` for ``int64Value``; Protocol Buffers, "JSON Mapping":
    the lowerCamelCase name, and the original field name too)."""
    if "_" not in given or given != given.lower():
        return False
    head, *rest = given.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest) == declared


def convention_key(name: str) -> str:
    """A member name without its case convention: ``maxRetries``, ``max_retries`` and
    ``max-retries`` are ``maxretries``."""
    return _SEPARATORS.sub("", name).lower()


@functools.lru_cache(maxsize=4096)
def _convention_keys(declared: frozenset[str]) -> frozenset[str]:
    return frozenset(convention_key(name) for name in declared)


def declared_by_convention(members: frozenset[str], declared: frozenset[str]) -> frozenset[str]:
    """The ``members`` an example gives that ``declared`` holds, as written or in another case
    convention (the example binding counts ``maxRetries`` as the ``max_retries`` it means, so
    that the slip is reported rather than the example left unbound)."""
    exact = members & declared
    if len(exact) == len(members):
        return exact
    keys = _convention_keys(declared)
    return exact | {m for m in members - exact if convention_key(m) in keys}


def slips(schema: Any, resolver: Any, instance: Any) -> list[Slip]:
    """The members of ``instance`` spelt in another convention than ``schema`` (read with
    ``resolver``, a ``referencing`` resolver at the schema's document) declares them, in the
    example's order."""
    walk = _Walk()
    walk.visit(schema, resolver, instance, "")
    return list(walk.found())


class _Walk:
    def __init__(self) -> None:
        self.declared: dict[str, set[str]] = {}
        self.objects: dict[str, dict[str, Any]] = {}
        self.patterns: dict[str, list[str]] = {}
        self.maps: set[str] = set()
        self.seen: set[tuple[int, str]] = set()
        self.visits = 0

    def visit(self, schema: Any, resolver: Any, value: Any, at: str) -> None:
        if not isinstance(schema, dict) or (id(schema), at) in self.seen:
            return
        self.visits += 1
        if self.visits > VISITS:
            return
        self.seen.add((id(schema), at))
        reference = schema.get("$ref")
        if isinstance(reference, str) and resolver is not None:
            try:
                resolved = resolver.lookup(reference)
            except (NoSuchResource, Unresolvable, ValueError, TypeError):
                pass  # out of the corpus, or broken (unresolved-ref's finding)
            else:
                self.visit(resolved.contents, resolved.resolver, value, at)
        for keyword in ("allOf", "anyOf", "oneOf"):
            branches = schema.get(keyword)
            for branch in branches if isinstance(branches, list) else ():
                self.visit(branch, resolver, value, at)
        for keyword in ("then", "else"):
            self.visit(schema.get(keyword), resolver, value, at)
        if isinstance(value, dict):
            self._object(schema, resolver, value, at)
        elif isinstance(value, list):
            self._array(schema, resolver, value, at)

    def _object(
        self, schema: dict[str, Any], resolver: Any, value: dict[str, Any], at: str
    ) -> None:
        self.objects[at] = value
        properties = schema.get("properties")
        if isinstance(properties, dict):
            self.declared.setdefault(at, set()).update(str(k) for k in properties)
            for name, inner in properties.items():
                if name in value:
                    self.visit(inner, resolver, value[name], join_pointer(at, str(name)))
        patterns = schema.get("patternProperties")
        if isinstance(patterns, dict):
            self.patterns.setdefault(at, []).extend(str(p) for p in patterns)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra:
            self.maps.add(at)  # a map: its other members are its entries

    def _array(self, schema: dict[str, Any], resolver: Any, value: list[Any], at: str) -> None:
        items = schema.get("items")
        prefix = schema.get("prefixItems")
        tuples = prefix if isinstance(prefix, list) else items if isinstance(items, list) else []
        for index, item in enumerate(value):
            if index < len(tuples):
                self.visit(tuples[index], resolver, item, join_pointer(at, index))
            elif isinstance(items, dict):
                self.visit(items, resolver, item, join_pointer(at, index))

    def found(self) -> Iterator[Slip]:
        for at, value in self.objects.items():
            declared = self.declared.get(at)
            if not declared or at in self.maps:
                continue
            by_key: dict[str, list[str]] = {}
            for name in declared:
                by_key.setdefault(convention_key(name), []).append(name)
            for given in value:
                name = str(given)
                if name in declared or self._patterned(at, name):
                    continue
                meant = [d for d in by_key.get(convention_key(name), ()) if d not in value]
                if len(meant) == 1:
                    yield Slip(at, name, meant[0])

    def _patterned(self, at: str, name: str) -> bool:
        # Timed, as validation runs a schema's patterns: one out of time may well match.
        return any(search(p, name) is not False for p in self.patterns.get(at, ()))
