"""What applies at a schema location of one revision, read for the comparisons
(``speclint.analyses.changes.compat``): its ``$ref``\\s followed, a ``$ref`` with assertions beside it
joined with its target (2020-12 Core §8.2.3.1), its keywords read in the 2020-12 vocabulary
(``speclint.parsing.dialects``), and its ``allOf`` branches (and a parent's branches' entry for
the same property) joined beside it. Also where a head location is at the base."""

from __future__ import annotations

from collections.abc import Mapping

from speclint.analyses.changes.schema_assertions import allowed_types, conjoined
from speclint.analyses.context import Context
from speclint.analyses.schemas.references import ANNOTATIONS
from speclint.analyses.schemas.shapes import MAX_HOPS, Site, follow, follow_once, resolve
from speclint.model.corpus import Document
from speclint.parsing.dialects import dialect_at, modern, ref_replaces_siblings
from speclint.parsing.keyword_positions import (
    DEFINITIONS_RESPELLED,
    definition_keywords,
    root_position,
)
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, resolve_pointer, split_pointer

# Keywords beside a `$ref` that assert nothing (2020-12 Validation §9, the meta-data
# vocabulary; OpenAPI's `example`, `externalDocs`, `xml`; extensions): such a `$ref` is followed
# as a pure one.
REF_ANNOTATIONS = ANNOTATIONS | {"default", "example", "externalDocs", "xml", "$comment"}


def at_base(document: Document, pointer: str) -> str | None:
    """Where a head location is at the base: the same pointer, or its definition under the
    other spelling (a schema moved from draft-07's ``definitions`` to 2020-12's ``$defs``, or
    back, keeps its definitions: 2019-09 Core §8.2.4 renamed the keyword, not the meaning),
    every ``definitions``/``$defs`` keyword along the pointer respelled
    (``definitions/Holder/definitions/Inner`` is ``$defs/Holder/$defs/Inner``), not a property
    so named (``keyword_positions``)."""
    if resolve(document, pointer) is not None:
        return pointer
    tokens = split_pointer(pointer)
    api = document.kind if document.kind in (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI) else None
    keywords = definition_keywords(tokens, root_position(document.kind), api)
    if not keywords:
        return None
    # Token by token, the spelling the base has there: a file may mix them (a nested `$defs`
    # already written the new way under an outer `definitions`).
    node = document.data
    found: list[str] = []
    for index, token in enumerate(tokens):
        if index in keywords and isinstance(node, dict) and token not in node:
            token = DEFINITIONS_RESPELLED[token]
        found.append(token)
        node = resolve_pointer(node, join_pointer("", token))
    other = "".join(join_pointer("", t) for t in found)
    return other if resolve(document, other) is not None else None


class SchemaReader:
    """Reads the schemas of both revisions, remembering what a location's reading joined and
    how its keywords are spelled in the file, so a change is located where it is written."""

    def __init__(self) -> None:
        # How each translated keyword is spelled in the file, per location
        # (``speclint.parsing.dialects``)
        self.written: dict[tuple[str, str], Mapping[str, str]] = {}
        # A `$ref` with assertions beside it, read as one schema (``resolved``): the parts it
        # joins, each at its own place, for the walk below it and for locations. Keyed by the
        # document object: the base and the head have the same paths and pointers.
        self.parts: dict[tuple[int, str], tuple[Site, Site]] = {}
        # The schemas an `allOf` branch of a parent imposes on a property too (the branch's
        # entry of the same name), by the property's place: they apply beside it.
        self.companions: dict[tuple[int, str], list[Site]] = {}

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
        into one schema (``conjoined``); in draft-04 to -07, OpenAPI 3.0 and AsyncAPI 2 the
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
                if k != "$ref" and k not in REF_ANNOTATIONS and not k.startswith("x-")
            }
            if beside and not ref_replaces_siblings(dialect):
                whole = self.read(self.resolved(corpus, target, seen))
                if not isinstance(whole.node, dict):
                    return site
                here = self.read(site)
                self.parts[(id(site.document), site.pointer)] = (here, whole)
                beside = {k: v for k, v in here.node.items() if k in beside}
                return Site(site.document, site.pointer, conjoined(whole.node, beside))
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
        intersected, the tighter bound: ``conjoined``). So a constraint a branch already
        imposes, written again beside it, is no narrowing (nor its removal a widening)."""
        parts = self.companions.get((id(asked.document), asked.pointer), [])
        parts = [*parts, *self.branches(corpus, site)]
        if not parts:
            return site
        node = {k: v for k, v in site.node.items() if k != "allOf"}
        for part in parts:
            branch = {k: v for k, v in part.node.items() if k not in ("allOf", "properties")}
            node = conjoined(branch, node)
        node["allOf"] = site.node.get("allOf", [])
        if not node["allOf"]:
            del node["allOf"]
        return Site(site.document, site.pointer, node)

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

    def implied_types(self, corpus: Context, site: Site, depth: int) -> set[str]:
        """The types a schema that names none itself allows through its compositions: each
        ``allOf`` branch that names types restricts them; ``anyOf``/``oneOf`` allow the union,
        when every branch names some. Empty: any type."""
        node = site.node
        if not isinstance(node, dict) or depth > 4:
            return set()
        found = allowed_types(node)
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
