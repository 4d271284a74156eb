"""What a change does to the corpus's contract, by role: the schema diff behind ``compat-claim``.

``schema_changes(base, head)`` pairs every schema location of the head corpus (schema files, their
``$defs``, API ``components/schemas``, every request, response, parameter and message schema) with
the same file and JSON pointer at the base revision, walks both trees together (following
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
type narrowed          client-submitted                                     old values rejected
type widened           server-emitted                                       clients get new types
bound tightened        client-submitted (``minimum``, ``maxLength`` ...)    old values rejected
pattern added          client-submitted                                     old values rejected
union member removed   ``anyOf``/``oneOf``: client-submitted;               old requests rejected;
                       ``allOf``: server-emitted                            clients get new values
union member added     ``anyOf``/``oneOf``: server-emitted, unless an       validating clients
                       ignore-unknown statement binds the member's          reject it; old
                       discriminator; ``allOf``: client-submitted           requests rejected
schema file removed    any role                                             ``$ref``s to it break
operation removed      (OpenAPI operation, AsyncAPI operation or channel)   clients call it
=====================  ===================================================  =====================

The members of an ``anyOf``, ``oneOf`` or ``allOf`` are paired by what they are, not by their
place (``speclint.analyses.union_members``: the same ``$ref`` target, the same content, the same
discriminator ``const``, the same ``title``, else similar content), so a member inserted or
reordered changes nothing else; a member left unpaired is added or removed, named by its target,
discriminator value or title. A schema that becomes a union, or stops being one, is compared as a
union of itself (``A`` is ``anyOf: [A]``). ``prefixItems`` are paired by position.

Where keywords cannot say (a node that differs in ``not``, ``if``/``then``/``else``, a ``pattern``
changed or removed, ``format``, ``dependentRequired``, ``propertyNames``, ``multipleOf``, a union
or ``allOf`` whose members changed, and for which the comparisons above reported nothing), the
schemas are asked (``speclint.analyses.acceptance``): instances generated from the base's schema
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
it is a client of some kind. Give it a role in ``[roles]`` to narrow that. Everything else (a new
optional property, a new endpoint, a new value of an input enum) is additive and listed with
``breaking`` false, for reviewers.

Limitations: a ``oneOf`` member added that overlaps another one rejects the values both match,
and a member removed that another member still covers (an open object) rejects nothing; neither
is proven from structure, so the first is additive and the second breaking by the table.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from speclint.analyses.acceptance import INSTANCES, Acceptance, Revision, accepted_change
from speclint.analyses.context import Context
from speclint.analyses.fingerprints import schema_locations
from speclint.analyses.policies import ANY_FIELD, Statement, binds, policy_statements
from speclint.analyses.references import ANNOTATIONS
from speclint.analyses.roles import HTTP_METHODS
from speclint.analyses.schema_objects import types_of
from speclint.analyses.shapes import Site, follow, follow_once, is_closed_false, resolve
from speclint.analyses.union_members import (
    MemberReading,
    member_name,
    member_reading,
    pair_members,
)
from speclint.analyses.witnesses import Witness
from speclint.common.findings import Location, json_value
from speclint.model.corpus import Document
from speclint.parsing.dialects import dialect_at, modern
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, resolve_pointer, split_pointer

MAX_DEPTH = 48
_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
# `not` and `if` are conditions, not shapes: a change inside them reads the other way round.
_SINGLE = (
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "then",
    "else",
)
_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_UNIONS = ("allOf", "anyOf", "oneOf")  # members paired by meaning (``union_members``)
_LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
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
    {"enum value removed", "required added", "type narrowed", "bound tightened", "pattern added"}
)
_WIDENING = frozenset({"enum value added", "required removed", "type widened"})
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
        self._statements: list[Statement] | None = None
        self.witnessing = _Witnessing()  # ``witness``: the revisions it reads, its budget

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
            base_node = resolve(base_document, site.pointer)
            if base_node is None:
                continue  # a new location
            self.pair(Site(base_document, site.pointer, base_node), site, None, 0)
        self.removed_files()
        self.removed_operations()

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
        base, head = follow(self.base, base), follow(self.head, head)
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
        self.compare_values(base, head, field, role, client, server)
        self.compare_required(base, head, role, client, server)
        self.compare_members(base, head, role, client, server)
        self.compare_types(base, head, field, role, client, server)
        if client:
            self.compare_bounds(base, head, field, role)
        self.descend(base, head, field, depth)
        self.witness(base, head, field, mark)

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
        before, after = types_of(base.node), types_of(head.node)

        def covered(kind: str, types: set[str]) -> bool:
            return not types or kind in types or (kind == "integer" and "number" in types)

        narrowed = _shown(sorted(t for t in before if not covered(t, after)))
        if not before and after:
            narrowed = "anything but " + " or ".join(f"`{t}`" for t in sorted(after))
        widened = sorted(t for t in after if before and not covered(t, before))
        name = f"`{field}` of " if field else ""
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
                "type",
            )

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
        if reported and not judged:
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
        if reported:
            kept = [
                c
                for c in reported
                if not decided
                or (_direction(c) == "narrowing" and narrowed is not None)
                or (_direction(c) == "widening" and widened is not None)
                or not _direction(c)
            ]
            del self.changes[mark:]
            self.changes.extend(kept)
            if kept:
                return  # what the comparisons said stands; the witness adds no second report
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
