"""The walk that pairs two revisions of a corpus's schemas (``speclint.analyses.changes.compat``):
every schema location of the head with the same file and pointer at the base, both trees
walked together (``$ref``\\s followed on each side), the members of a union paired by what they
are (``speclint.analyses.schemas.union_members``), and at each pair the keyword comparisons
(``keyword_comparisons``), then the witnesses (``witnessed_changes``); the files, definitions
and operations removed (``named_changes``) after."""

from __future__ import annotations

from typing import Any

from speclint.analyses.changes.change_log import ChangeLog
from speclint.analyses.changes.contract_change import Change
from speclint.analyses.changes.effective_schemas import REF_ANNOTATIONS, SchemaReader, at_base
from speclint.analyses.changes.keyword_comparisons import compare_members, compare_node
from speclint.analyses.changes.named_changes import (
    definitions,
    is_definition,
    removed_files,
    removed_operations,
)
from speclint.analyses.changes.schema_assertions import (
    EMPTY_WHEN_ABSENT,
    EMPTY_WHEN_ABSENT_ENTRY,
    LISTS,
    MAPS,
    SINGLE,
    UNIONS,
    covers,
    discriminator_mapping,
    field_of,
    has_union,
    names_reference,
    pure_union,
)
from speclint.analyses.changes.witnessed_changes import Witnesses
from speclint.analyses.context import Context
from speclint.analyses.schemas.fingerprints import schema_locations
from speclint.analyses.schemas.shapes import Site, follow, follow_once, resolve
from speclint.analyses.schemas.union_members import (
    MemberReading,
    member_name,
    member_reading,
    pair_members,
)
from speclint.parsing.structured import join_pointer, split_pointer

MAX_DEPTH = 48


class RevisionWalk:
    """One comparison of a base and a head corpus: ``run`` walks them, ``log`` holds what it
    found."""

    def __init__(self, base: Context, head: Context) -> None:
        self.base = base
        self.head = head
        self.reader = SchemaReader()
        self.log = ChangeLog(base, head, self.reader)
        self.witnesses = Witnesses(self.log)
        self.seen: set[tuple[str, str, str, str]] = set()

    def run(self) -> None:
        for site in schema_locations(self.head):  # the one list of places a shape is defined
            base_document = self.base.documents.get(site.document.path)
            if base_document is None or not base_document.usable:
                continue  # a new file: everything in it is additive
            if base_document.kind is not site.document.kind:
                continue
            base_pointer = at_base(base_document, site.pointer)
            if base_pointer is None:
                continue  # a new location
            base_node = resolve(base_document, base_pointer)
            self.pair(Site(base_document, base_pointer, base_node), site, None, 0)
        self.log.changes.extend(removed_files(self.base, self.head))
        self.log.changes.extend(removed_operations(self.base, self.head))
        self.log.changes.extend(definitions(self.base, self.head))

    def pair(self, base: Site, head: Site, field: str | None, depth: int) -> None:
        if depth > MAX_DEPTH:
            return
        asked = head  # where the head's schema is used, before its `$ref`s are followed
        base_asked = base
        base, head = self.reader.resolved(self.base, base), self.reader.resolved(self.head, head)
        base, head = self.sole_branches(base, head)
        key = (base.document.path, base.pointer, head.document.path, head.pointer)
        if key in self.seen:
            return
        self.seen.add(key)
        base, head = self.reader.read(base), self.reader.read(head)
        if not isinstance(base.node, dict) or not isinstance(head.node, dict):
            return
        mark = len(self.log.changes)
        field = field_of(head.pointer) or field
        if self.lopsided(base, head, asked, field, depth):
            self.witnesses.witness(base, head, field, mark)
            return
        role = self.log.role(head, base)
        client = role in ("client-submitted", "both", "unused")
        server = role in ("server-emitted", "both", "unused")
        was, now = property_names(base.node), property_names(head.node)
        compare_members(
            self.log,
            base,
            head,
            role,
            client,
            server,
            # Asked only where a property is added or removed: the branches are read then.
            self.declared(self.base, base) if now - was else frozenset(),
            self.declared(self.head, head) if was - now else frozenset(),
        )
        written = len(self.log.changes)
        compare_node(self.log, base, head, field, role, client, server)
        # What each side allows with its `allOf` branches (and a parent's) applied beside it
        # only withdraws: a change of the node itself stands only if the joined schemas show
        # it too (a `type` a branch already imposes, written again, narrows nothing). It adds
        # nothing: a branch's own change is reported at the branch, once (a member added as
        # `union member added`, a changed target at the target).
        whole_base = self.reader.effective(self.base, base, base_asked)
        whole_head = self.reader.effective(self.head, head, asked)
        if whole_base is not base or whole_head is not head:
            found = self.log.changes[written:]
            del self.log.changes[written:]
            compare_node(self.log, whole_base, whole_head, field, role, client, server)
            shown = {(c.kind, c.location.pointer) for c in self.log.changes[written:]}
            del self.log.changes[written:]
            self.log.changes.extend(c for c in found if (c.kind, c.location.pointer) in shown)
        self.compare_absent_subschemas(base, head, field, depth)
        for base_part in self.reader.parts.get((id(base.document), base.pointer), (base,)):
            for head_part in self.reader.parts.get((id(head.document), head.pointer), (head,)):
                self.descend(base_part, head_part, field, depth)
        self.witnesses.witness(base, head, field, mark)

    def sole_branches(self, base: Site, head: Site) -> tuple[Site, Site]:
        """``{description, allOf: [S]}``, the way to describe a ``$ref`` where its siblings are
        ignored (OpenAPI 3.0, draft-07), validates exactly as S (2020-12 Core §10.2.1.1): beside
        a schema without ``allOf`` it is read as S, else S's ``items`` or
        ``additionalProperties`` read as absent beside the other side's inline copy of them
        (openEO 1.1.0's collection ``assets``). With ``allOf`` on both sides the members are
        paired as a union's."""
        sides = [(self.base, base), (self.head, head)]
        for index, (corpus, site) in enumerate(sides):
            other = sides[1 - index][1].node
            sole = site.node.get("allOf") if isinstance(site.node, dict) else None
            if (
                isinstance(sole, list)
                and len(sole) == 1
                and isinstance(sole[0], dict)
                and isinstance(other, dict)
                and "allOf" not in other
                and all(
                    k == "allOf" or k in REF_ANNOTATIONS or k.startswith("x-") for k in site.node
                )
            ):
                at = join_pointer(join_pointer(site.pointer, "allOf"), 0)
                sides[index] = (
                    corpus,
                    self.reader.resolved(corpus, Site(site.document, at, sole[0])),
                )
        return sides[0][1], sides[1][1]

    def declared(self, corpus: Context, site: Site) -> frozenset[str]:
        """The properties ``site``'s ``allOf`` branches declare: the schema's too (2020-12 Core
        §10.2.1.1), so one moved between the node and a branch is neither removed nor added."""
        names: set[str] = set()
        for part in self.reader.branches(corpus, site):
            found = part.node.get("properties") if isinstance(part.node, dict) else None
            names.update(found if isinstance(found, dict) else ())
        return frozenset(names)

    def descend(self, base: Site, head: Site, field: str | None, depth: int) -> None:
        b, h = base.node, head.node

        def bs(keyword: str) -> str:
            return self.reader.spelled(base, (keyword,))[0]

        def hs(keyword: str) -> str:
            return self.reader.spelled(head, (keyword,))[0]

        for keyword in MAPS:
            if isinstance(b.get(keyword), dict) and isinstance(h.get(keyword), dict):
                for name in sorted(set(b[keyword]) & set(h[keyword])):
                    at = join_pointer(join_pointer(head.pointer, hs(keyword)), name)
                    bat = join_pointer(join_pointer(base.pointer, bs(keyword)), name)
                    child = name if keyword == "properties" else field
                    if keyword == "properties":
                        self.reader.register_companions(self.base, base, bat, name)
                        self.reader.register_companions(self.head, head, at, name)
                    self.pair(
                        Site(base.document, bat, b[keyword][name]),
                        Site(head.document, at, h[keyword][name]),
                        child,
                        depth + 1,
                    )
        for keyword in SINGLE:
            if isinstance(b.get(keyword), dict) and isinstance(h.get(keyword), dict):
                self.pair(
                    Site(base.document, join_pointer(base.pointer, bs(keyword)), b[keyword]),
                    Site(head.document, join_pointer(head.pointer, hs(keyword)), h[keyword]),
                    field,
                    depth + 1,
                )
        for keyword in LISTS:
            if isinstance(b.get(keyword), list) and isinstance(h.get(keyword), list):
                if keyword in UNIONS:
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
                at = join_pointer(site.pointer, self.reader.spelled(site, (written,))[0])
                members = [
                    Site(site.document, join_pointer(at, index), node)
                    for index, node in enumerate(site.node[written])
                ]
            mapped = discriminator_mapping(site.node)
            sides.append((members, [self.member(corpus, m, mapped, m is site) for m in members]))
        (base_members, base_readings), (head_members, head_readings) = sides
        pairing = pair_members(base_readings, head_readings)
        for i, j in pairing.pairs:
            self.pair(base_members[i], head_members[j], field, depth + 1)
        if not pairing.removed and not pairing.added:
            return
        shown = asked if asked is not None and head_keyword is None else head
        role = self.log.role(shown, base)
        client = role in ("client-submitted", "both", "unused")
        server = role in ("server-emitted", "both", "unused")
        name = f"`{field}` of " if field else ""
        where = f"`{keyword}` of {name}{role} `{head.label}`"
        if head_keyword is None:
            where = f"{name}{role} `{shown.label}` (`{base_keyword}` at the base)"
        at_head = head.at(self.reader.spelled(head, (head_keyword,))[0]) if head_keyword else None
        at_base = base.at(self.reader.spelled(base, (base_keyword,))[0]) if base_keyword else None
        for i in pairing.removed:
            member = member_name(base_readings, i)
            cover = self.covering(self.base, base_members[i], self.head, head_members, head_keyword)
            if cover is not None and keyword != "allOf":
                description = (
                    f"{where} no longer has member {member}, which "
                    + (
                        f"its member {member_name(head_readings, cover)}"
                        if head_keyword
                        else "the head's schema"
                    )
                    + " still accepts: no value is rejected"
                )
                breaking = False
            elif keyword == "allOf":  # one constraint fewer: the union widens
                breaking = server
                description = f"{where} no longer requires member {member}" + (
                    ": clients may get values the base ruled out" if breaking else ""
                )
            else:  # one alternative fewer: the union narrows
                breaking = client
                description = f"{where} no longer has member {member}" + (
                    ": requests that match only it are rejected" if breaking else ""
                )
            self.log.changes.append(
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
            elif (
                cover := self.covering(
                    self.head, head_members[j], self.base, base_members, base_keyword
                )
            ) is not None:
                breaking = False
                description = (
                    f"{where} has a new member {member}, covered by the base's "
                    + (f"member {member_name(base_readings, cover)}" if base_keyword else "schema")
                    + ": every value it accepts, the base accepted"
                )
            else:  # one alternative more: the union widens
                tolerated = self.log.tolerated_member(head, head_readings[j], field)
                breaking = server and not tolerated
                description = f"{where} has a new member {member}" + (
                    ": a client validating against the base rejects values that match only "
                    "it, and no ignore-unknown statement covers it"
                    if breaking
                    else ""
                )
            self.log.changes.append(
                Change(
                    "union member added",
                    breaking,
                    role,
                    description,
                    head_members[j].location() if head_keyword else shown.location(),
                    at_base or base.location(note="at the base revision"),
                )
            )

    def covering(
        self,
        corpus: Context,
        member: Site,
        other_corpus: Context,
        others: list[Site],
        keyword: str | None,
    ) -> int | None:
        """The index of a member of the other side's union (``others``, under ``keyword``) that
        accepts every value ``member`` accepts (``schema_assertions.covers``): a member added
        that one of the base's already covers widens nothing (the Model Context Protocol's
        result union gained `ElicitResult` beside an open `Result`), and one removed that a
        remaining member covers narrows nothing. Only of an ``anyOf`` (or a plain schema, a
        union of itself): under ``oneOf`` a value two members accept is rejected (2020-12
        Core §10.2.1.3), so a covering member makes it no safer."""
        if keyword == "oneOf":
            return None
        mine = self.reader.read(self.reader.resolved(corpus, member)).node
        for index, other in enumerate(others):
            theirs = self.reader.read(self.reader.resolved(other_corpus, other)).node
            if covers(theirs, mine):
                return index
        return None

    def lopsided(self, base: Site, head: Site, asked: Site, field: str | None, depth: int) -> bool:
        """A union on one side only (``A`` became ``anyOf: [A, B]``, ``oneOf: [A, B]`` became
        ``A``), or ``anyOf`` that became ``oneOf``: compared as unions, the plain schema as a
        union of itself (``anyOf: [A]`` is ``A``), so that ``A`` is compared with ``A`` and
        not with the union around it. True when it was."""
        before, after = pure_union(base.node), pure_union(head.node)
        if before == after:
            return False
        if (before is None and has_union(base.node)) or (after is None and has_union(head.node)):
            return False  # a union beside other constraints: no member is the whole schema
        self.union(base, head, before, after, field, depth, asked)
        return True

    def member(
        self, corpus: Context, site: Site, mapped: list[tuple[str, Any, str]], whole: bool
    ) -> MemberReading:
        """How ``pair_members`` reads a union member of ``corpus``: where its ``$ref`` ends
        and what the schema there says. A ``whole`` schema standing for a one-member union was
        reached through its references already: where it stands is its target when that is a
        named shape: a schema file's root or a definition (``#/$defs/Result``,
        ``named_changes.is_definition``)."""
        target = None
        resolved = site
        tokens = split_pointer(site.pointer)
        if whole and (not tokens or is_definition(site.document, tokens)):
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
            if isinstance(reference, str) and names_reference(written, reference)
        ]
        title = site.node.get("title") if isinstance(reference, str) else None
        return member_reading(
            resolved.node,
            target=target,
            parts=[p.node for p in parts],
            mapped=named,
            title=title if isinstance(title, str) else None,
        )

    def compare_absent_subschemas(
        self, base: Site, head: Site, field: str | None, depth: int
    ) -> None:
        """An absent (or ``true``) subschema against a schema, compared as ``{}`` against it:
        ``additionalProperties: {type: string}`` where the base had none narrows every
        undeclared member (the walk below says how); the reverse widens it."""
        b, h = base.node, head.node
        for keyword in EMPTY_WHEN_ABSENT:
            was, now = b.get(keyword, True), h.get(keyword, True)
            if (was is True) == (now is True) or False in (was, now):
                continue  # both schemas (the walk pairs them), alike, or closed (compare_members)
            if (isinstance(was, dict) and was) or (isinstance(now, dict) and now):
                self.pair(
                    self.reader.child(base, keyword),
                    self.reader.child(head, keyword),
                    field,
                    depth + 1,
                )
        for keyword in EMPTY_WHEN_ABSENT_ENTRY:
            was_map, now_map = b.get(keyword), h.get(keyword)
            was_map = was_map if isinstance(was_map, dict) else {}
            now_map = now_map if isinstance(now_map, dict) else {}
            for entry in sorted(set(was_map) ^ set(now_map)):
                value = was_map.get(entry, now_map.get(entry))
                if isinstance(value, dict) and value:
                    self.pair(
                        self.reader.child(base, keyword, entry),
                        self.reader.child(head, keyword, entry),
                        field,
                        depth + 1,
                    )


def property_names(node: Any) -> frozenset[str]:
    found = node.get("properties") if isinstance(node, dict) else None
    return frozenset(found) if isinstance(found, dict) else frozenset()
