"""Where the members a JSON Schema ``required`` list names are declared: every schema object of
the corpus (schema files, OpenAPI and AsyncAPI documents), the in-place parent of each, the
schemas that ``$ref`` it, and the scope a ``required`` is looked up in (``required-undeclared``'s
documentation says how). It is the ``schemas`` fact (``speclint.analyses.context``): built once a
run, before the rules that read it fork (``speclint.run.runner.prime``).

``required-undeclared`` reports a ``required`` name nothing in scope declares. ``example-invalid``
(an example that lacks only such a name) and ``unsatisfiable-schema`` (a closed schema that no
instance satisfies for such a name alone) leave that defect to it when the run runs it (one
defect, one finding; issue 45), and read here what it reports: :meth:`SchemaIndex.typos` and
:func:`closed_typos`; ``example-invalid`` also asks what a member's declaration says
(:meth:`SchemaIndex.marked`: ``readOnly``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from jsonschema_specifications import REGISTRY
from referencing.exceptions import Unresolvable

from speclint.analyses.schemas.references import (
    DATA_KEYWORDS,
    Reference,
    ReferenceIndex,
    defragmented,
    file_uri,
    join_uri,
    root_base,
)
from speclint.analyses.schemas.schema_objects import schema_roots, types_of
from speclint.analyses.schemas.validation import search
from speclint.common.findings import Location
from speclint.model.corpus import Corpus, Document
from speclint.parsing.dialects import dialect_at, dialect_of_schema, has_unevaluated, modern
from speclint.parsing.kinds import DocumentKind, is_dialect_uri
from speclint.parsing.structured import join_pointer, resolve_pointer, split_pointer

# The rule that reports a `required` name declared nowhere: the others leave it that defect.
REPORTED_BY = "required-undeclared"

# Subschemas that apply to the same instance as their parent (JSON Schema 2020-12 §10.2).
IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
IN_PLACE_VALUES = ("if", "then", "else", "not")
IN_PLACE_MAPS = ("dependentSchemas",)
# Subschemas that apply to another instance (a member, an item) or none (definitions).
OTHER_VALUES = (
    "additionalProperties", "unevaluatedProperties", "items", "additionalItems", "contains",
    "propertyNames", "unevaluatedItems", "contentSchema",
)  # fmt: skip
OTHER_LISTS = ("prefixItems", "items")
OTHER_MAPS = ("properties", "patternProperties", "$defs", "definitions")
MAX_DEPTH = 256
MAX_SCOPE = 2000  # schema objects one scope may visit before the lookup gives up on it

CHAIN, MUST, MAYBE = 3, 2, 1  # how surely a scope member applies when the schema does


@dataclass(frozen=True)
class Node:
    """A schema object: where it is, its dialect, and its in-place parent."""

    document: Document
    pointer: str
    raw: dict[str, Any]
    dialect: str
    parent: str | None = None  # pointer of the parent it applies in place with
    link: str = ""  # the keyword under the parent: allOf, then, dependentSchemas...

    @property
    def key(self) -> tuple[str, str]:
        return (self.document.path, self.pointer)

    @property
    def label(self) -> str:
        """``path#pointer``, or the path alone for a document's root (as a message names it)."""
        return f"{self.document.path}#{self.pointer}" if self.pointer else self.document.path


@dataclass
class Scope:
    declared: dict[str, Node] = field(default_factory=dict)  # name -> where declared
    patterns: list[str] = field(default_factory=list)
    closing: tuple[Node, str] | None = None  # a node that always applies and closes the shape
    evaluates_all: bool = False  # `additionalProperties: true` somewhere: nothing unevaluated
    holders: list[Node] = field(default_factory=list)  # nodes with `properties`, chain first
    must: set[tuple[str, str]] = field(default_factory=set)


class Unknown(Exception):
    """The scope holds something the lookup does not read with certainty: skip the schema."""


def undeclared(index: SchemaIndex, node: Node) -> tuple[Scope, list[tuple[int, str]]] | None:
    """The names of ``node``'s ``required`` that ``required-undeclared`` reports (each with its
    position in the list) and the scope it looked them up in; None when it judges none of them."""
    reading = modern(node.raw, node.dialect)
    if reading is None or node.dialect == "draft-03":
        return None  # draft-03 `required` is a boolean on the property
    required = reading.node.get("required")
    if not isinstance(required, list) or not required:
        return None
    if index.under_not(node):
        return None  # `not: {required: [x]}` forbids x: it needs no declaration
    types = types_of(reading.node)
    if types and "object" not in types:
        return None  # `required` never applies here
    try:
        scope = index.scope(node)
    except Unknown:
        return None
    if not scope.declared and not scope.patterns:
        return None  # a pure constraint with no context that declares anything
    names = [
        (position, name)
        for position, name in enumerate(required)
        if isinstance(name, str)
        and name not in scope.declared
        and not any(_matches(pattern, name) for pattern in scope.patterns)
    ]
    return scope, names


def _matches(pattern: str, name: str) -> bool:
    """Does an ECMA-262 ``patternProperties`` regex match ``name``? A pattern that cannot be
    compiled, or that runs out of time on the name, matches everything: the name may be declared,
    and the lookup does not guess (``validation.search``: compiling and matching bounded)."""
    return search(pattern, name) is not False


# --- the schema objects of the corpus -------------------------------------------------------------


@dataclass
class SchemaIndex:
    corpus: Corpus
    references: ReferenceIndex  # the corpus's (the `references` fact)
    derived: Mapping[str, int]  # the generated documents (the `derived` fact)
    nodes: dict[tuple[str, str], Node] = field(default_factory=dict)
    referrers: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)
    roots: dict[str, str] = field(default_factory=dict)  # a schema file's root base URI -> path
    # Each schema object by the identity of its ``dict``: the very object a validator's error
    # carries as its ``schema`` (an equal copy elsewhere is another schema).
    by_identity: dict[int, Node] = field(default_factory=dict, repr=False)
    # What :meth:`typos` found of each schema object, by identity: asked again for every example.
    known_typos: dict[int, frozenset[str]] = field(default_factory=dict, repr=False)

    @classmethod
    def build(
        cls, corpus: Corpus, references: ReferenceIndex, derived: Mapping[str, int]
    ) -> SchemaIndex:
        index = cls(corpus, references, derived)
        for document in corpus.of_kind(
            DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI
        ):
            for pointer, node in schema_roots(document):
                dialect = dialect_at(document.data, split_pointer(pointer), document.dialect)
                index.walk(document, pointer, node, dialect)
        for document in sorted(
            corpus.of_kind(DocumentKind.SCHEMA), key=lambda d: (d.path in derived, d.path)
        ):
            try:
                index.roots.setdefault(root_base(document), document.path)
            except ValueError:
                continue  # an `$id` that is not a URI (`http://[bad`)
        for reference in references.references:
            site = (reference.path, reference.pointer.removesuffix("/$ref"))
            target = index.located(reference) if site in index.nodes else None
            if target is not None:
                index.referrers.setdefault(target, []).append(site)
        index.by_identity = {id(node.raw): node for node in index.nodes.values()}
        return index

    def typos(self, schema: Any) -> frozenset[str]:
        """The names of ``schema``'s ``required`` that ``required-undeclared`` reports as
        declared nowhere (``schema`` the schema object itself, not an equal copy)."""
        if not isinstance(schema, dict):
            return frozenset()
        known = self.known_typos.get(id(schema))
        if known is None:
            node = self.by_identity.get(id(schema))
            found = undeclared(self, node) if node is not None else None
            known = frozenset(name for _, name in found[1]) if found is not None else frozenset()
            self.known_typos[id(schema)] = known
        return known

    def marked(self, schema: Any, name: str, keyword: str) -> bool:
        """Whether the declaration of ``name`` in ``schema``'s ``properties`` (else in the
        ``properties`` of its scope) says ``keyword: true`` (``readOnly``), itself, through its
        ``$ref``\\s or in an ``allOf`` branch (``schema`` the schema object itself)."""
        node = self.by_identity.get(id(schema))
        if node is None:
            return False
        holder: Node | None = node
        properties = node.raw.get("properties")
        if not (isinstance(properties, dict) and name in properties):
            # Declared in another schema of its scope (a sibling `allOf` branch): that one.
            try:
                holder = self.scope(node).declared.get(name)
            except Unknown:
                holder = None
        if holder is None:
            return False
        declared = join_pointer(_at(holder, "properties"), name)
        pending = [self.nodes.get((holder.document.path, declared))]
        seen: set[tuple[str, str]] = set()
        while pending:
            current = pending.pop()
            if current is None or current.key in seen or len(seen) > MAX_SCOPE:
                continue
            seen.add(current.key)
            if current.raw.get(keyword) is True:
                return True
            pending.extend(self.applied_always(current, current.raw))
        return False

    def applied_always(self, node: Node, schema: dict[str, Any]) -> list[Node]:
        """The schemas ``schema`` (``node``'s, as read) always applies in place: its ``$ref``
        target when the index holds it, and its ``allOf`` branches."""
        applied: list[Node] = []
        reference = schema.get("$ref")
        if isinstance(reference, str):
            try:
                target = self.target(node, reference)
            except Unknown:
                target = frozenset()
            if isinstance(target, Node):
                applied.append(target)
        branches = schema.get("allOf")
        for i, _ in enumerate(branches if isinstance(branches, list) else []):
            inner = self.nodes.get((node.document.path, _at(node, "allOf", i)))
            if inner is not None:
                applied.append(inner)
        return applied

    def walk(self, document: Document, pointer: str, root: Any, dialect: str) -> None:
        """Register every schema object under ``root`` (iterative, depth-bounded)."""
        stack: list[tuple[Any, str, str, str | None, str, int]] = [
            (root, pointer, dialect, None, "", 0)
        ]
        while stack:
            node, at, dialect, parent, link, depth = stack.pop()
            if not isinstance(node, dict) or depth > MAX_DEPTH or (document.path, at) in self.nodes:
                continue
            dialect = dialect_of_schema(node.get("$schema"), dialect)
            self.nodes[(document.path, at)] = Node(document, at, node, dialect, parent, link)
            for key, value in node.items():
                if key in DATA_KEYWORDS or key.startswith("x-"):
                    continue
                here = join_pointer(at, key)
                if key in IN_PLACE_LISTS and isinstance(value, list):
                    for i, child in enumerate(value):
                        stack.append((child, join_pointer(here, i), dialect, at, key, depth + 1))
                elif key in IN_PLACE_VALUES:
                    stack.append((value, here, dialect, at, key, depth + 1))
                elif key in (*IN_PLACE_MAPS, "dependencies") and isinstance(value, dict):
                    for name, child in value.items():
                        stack.append((child, join_pointer(here, name), dialect, at, key, depth + 1))
                elif key in OTHER_LISTS and isinstance(value, list):
                    for i, child in enumerate(value):
                        stack.append((child, join_pointer(here, i), dialect, None, "", depth + 1))
                elif key in OTHER_VALUES:
                    stack.append((value, here, dialect, None, "", depth + 1))
                elif key in OTHER_MAPS and isinstance(value, dict):
                    for name, child in value.items():
                        stack.append(
                            (child, join_pointer(here, name), dialect, None, "", depth + 1)
                        )

    def ordered(self) -> list[Node]:
        return [self.nodes[key] for key in sorted(self.nodes)]

    def node_at(self, path: str, pointer: str) -> Node | None:
        found = self.nodes.get((path, pointer))
        if found is not None:
            return found
        document = self.corpus.documents.get(path)
        if document is None:
            return None
        raw = resolve_pointer(document.data, pointer)
        if not isinstance(raw, dict):
            return None
        dialect = dialect_at(document.data, split_pointer(pointer), document.dialect)
        return Node(document, pointer, raw, dialect)

    def parent_of(self, node: Node) -> Node | None:
        if node.parent is None:
            return None
        return self.nodes.get((node.document.path, node.parent))

    def under_not(self, node: Node) -> bool:
        return any(link == "not" for link in self._chain_links(node))

    def in_condition(self, node: Node) -> bool:
        return any(link == "if" for link in self._chain_links(node))

    def _chain_links(self, node: Node) -> Iterator[str]:
        current: Node | None = node
        while current is not None and current.parent is not None:
            yield current.link
            current = self.parent_of(current)

    def target(self, node: Node, reference: str) -> Node | frozenset[str]:
        """The schema a ``$ref`` names, through the corpus index, or the property names of the
        published metaschema it names; ``Unknown`` when it resolves to neither."""
        found = self.references.at(node.document.path, join_pointer(node.pointer, "$ref"))
        if found is not None and found.outcome == "ok":
            # The published metaschema, wherever the corpus holds a copy (a bundle embeds it)
            names = metaschema_properties(found.target)
            if names is not None:
                return names
        where = self.located(found) if found is not None else None
        target = self.node_at(*where) if where is not None else None
        if target is None:
            raise Unknown(reference)
        return target

    def located(self, found: Reference) -> tuple[str, str] | None:
        """(path, pointer) of a resolved reference's target in the corpus, or None."""
        if found.outcome != "ok" or found.target_path is None or found.target_pointer is None:
            return None
        holder = self.corpus.documents.get(found.target_path)
        base = defragmented(found.target)
        try:
            own = {file_uri(holder.path), root_base(holder)} if holder is not None else set()
        except ValueError:
            own = {file_uri(found.target_path)}
        if base in own:
            return found.target_path, found.target_pointer
        # The URI names the root of another file (a draft-04 root `id`, which the index may
        # hold under a bundle that embeds it), or a resource embedded in a file, whose fragment
        # is relative to that resource, not to the file's root: that one is not followed.
        path = self.roots.get(base)
        return (path, found.target_pointer) if path is not None else None

    def scope(self, start: Node) -> Scope:
        """Everything that applies to the instance ``start`` applies to, each with how surely:
        ``CHAIN`` (``start`` and the parents it sits in place under), ``MUST`` (what those
        always apply: their ``allOf`` branches and ``$ref`` targets), ``MAYBE`` (alternatives,
        conditions, and the schemas that reference ``start`` or a parent of it). Parents and
        referrers are followed upward from ``start`` only: a schema that references a sibling
        alternative applies that alternative, not ``start``."""
        scope = Scope()
        state: dict[tuple[str, str], tuple[int, bool]] = {}
        queue: deque[tuple[Node, int, bool]] = deque([(start, CHAIN, True)])
        while queue:
            node, tier, upward = queue.popleft()
            before = state.get(node.key)
            if before is not None and before[0] >= tier and (before[1] or not upward):
                continue
            state[node.key] = (
                max(tier, before[0]) if before else tier,
                upward or (before[1] if before else False),
            )
            if len(state) > MAX_SCOPE:
                raise Unknown("scope too large")
            reading = modern(node.raw, node.dialect)
            if reading is None:
                continue
            schema = reading.node
            if before is None:
                self._read(node, schema, scope)
            if tier >= MUST and node.key not in scope.must:
                scope.must.add(node.key)
                closing = _closing(schema, node.dialect)
                if closing is not None and scope.closing is None:
                    scope.closing = (node, closing)
            below = MUST if tier >= MUST else MAYBE
            reference = schema.get("$ref")
            if isinstance(reference, str):
                target = self.target(node, reference)
                if isinstance(target, Node):
                    queue.append((target, below, False))
                else:
                    for name in target:
                        scope.declared.setdefault(name, node)
            for keyword in IN_PLACE_LISTS:
                children = schema.get(keyword)
                if isinstance(children, list):
                    for i, _ in enumerate(children):
                        inner = self.nodes.get((node.document.path, _at(node, keyword, i)))
                        if inner is not None:
                            queue.append((inner, below if keyword == "allOf" else MAYBE, False))
            for keyword in ("if", "then", "else"):
                inner = self.nodes.get((node.document.path, _at(node, keyword)))
                if inner is not None and keyword in schema:
                    queue.append((inner, MAYBE, False))
            dependent = schema.get("dependentSchemas")
            if isinstance(dependent, dict):
                source = reading.source("dependentSchemas")
                for name in dependent:
                    inner = self.nodes.get(
                        (node.document.path, join_pointer(join_pointer(node.pointer, source), name))
                    )
                    if inner is not None:
                        queue.append((inner, MAYBE, False))
            if not upward:
                continue
            parent = self.parent_of(node)
            if parent is not None and node.link != "not":
                queue.append((parent, CHAIN if tier == CHAIN else MAYBE, True))
            for site in self.referrers.get(node.key, ()):
                referrer = self.nodes.get(site)
                if referrer is not None:
                    queue.append((referrer, MAYBE, True))
        scope.holders.sort(key=lambda n: -state[n.key][0])
        return scope

    def _read(self, node: Node, schema: dict[str, Any], scope: Scope) -> None:
        """What one scope member declares, and whether the lookup can read it with certainty."""
        if "$dynamicRef" in schema or "$recursiveRef" in schema:
            raise Unknown("dynamic reference")
        if isinstance(schema.get("propertyNames"), (dict, bool)):
            raise Unknown("propertyNames")
        for keyword in ("additionalProperties", "unevaluatedProperties"):
            value = schema.get(keyword)
            if isinstance(value, dict) and value:
                raise Unknown("a map")  # required keys of a map need no declaration
            if keyword == "additionalProperties" and (value is True or value == {}):
                scope.evaluates_all = True
        self._declare(node, schema, scope)

    def _declare(self, node: Node, schema: dict[str, Any], scope: Scope) -> None:
        properties = schema.get("properties")
        for keyword in ("properties", "patternProperties"):
            value = schema.get(keyword)
            if isinstance(value, dict) and isinstance(value.get("$ref"), str):
                # `properties: {$ref: attributes.yml#/x}`: the whole map is a JSON Reference
                # that bundlers inline (not a property named `$ref`, whose value is a schema).
                raise Unknown(f"{keyword} by reference")
        if isinstance(properties, dict):
            for name in properties:
                scope.declared.setdefault(name, node)
            scope.holders.append(node)
        patterns = schema.get("patternProperties")
        if isinstance(patterns, dict):
            scope.patterns.extend(p for p in patterns if isinstance(p, str))


@cache
def metaschema_properties(uri: str) -> frozenset[str] | None:
    """The property names a published metaschema (draft-04 to 2020-12, known offline through
    ``jsonschema-specifications``) declares, its vocabularies' included; None for any other
    URI. They declare every keyword, and close nothing."""

    if uri.partition("#")[2] or not is_dialect_uri(uri):  # urldefrag's fragment: after the first #
        return None
    names: set[str] = set()
    pending = [defragmented(uri)]
    seen: set[str] = set()
    while pending:
        current = pending.pop()
        if current in seen or len(seen) > 32:
            continue
        seen.add(current)
        try:
            contents = REGISTRY.contents(current)
        except (Unresolvable, LookupError):
            return None
        if not isinstance(contents, dict):
            return None
        properties = contents.get("properties")
        if isinstance(properties, dict):
            names.update(properties)
        for branch in contents.get("allOf", []) if isinstance(contents.get("allOf"), list) else []:
            if isinstance(branch, dict) and isinstance(branch.get("$ref"), str):
                joined = join_uri(current, branch["$ref"])
                if joined is not None:
                    pending.append(joined)
    return frozenset(names)


def _at(node: Node, keyword: str, index: int | None = None) -> str:
    at: str = join_pointer(node.pointer, keyword)
    return at if index is None else join_pointer(at, index)


def _closing(schema: dict[str, Any], dialect: str) -> str | None:
    if schema.get("additionalProperties") is False:
        return "additionalProperties"
    if schema.get("unevaluatedProperties") is False and has_unevaluated(dialect or "2020-12"):
        return "unevaluatedProperties"
    return None


# --- what makes a schema unsatisfiable (unsatisfiable-schema asks) -------------------------------


def closed_typos(index: SchemaIndex, path: str, pointer: str) -> list[tuple[Location, list[str]]]:
    """The closed ``required`` names ``required-undeclared`` reports (at error) among what
    always applies with the schema at ``path`` and ``pointer`` (its ``$ref`` targets and
    ``allOf`` branches, followed through the corpus, and the schemas of the members they
    require), each list with where its ``required`` is: a name declared nowhere under
    ``additionalProperties: false`` is one no instance can carry, so the schema is
    unsatisfiable for it alone. ``unsatisfiable-schema`` leaves that defect to that rule (one
    defect, one finding; issue 45) and, when the run does not run it, explains it with these."""
    start = index.node_at(path, pointer)
    if start is None:
        return []
    seen: set[tuple[str, str]] = set()
    pending = [start]
    always: list[Node] = []
    while pending and len(seen) < MAX_SCOPE:
        node = pending.pop()
        if node.key in seen:
            continue
        seen.add(node.key)
        always.append(node)
        reading = modern(node.raw, node.dialect)
        if reading is None:
            continue
        pending.extend(index.applied_always(node, reading.node))
        # A member the schema requires and declares must be there and valid: a schema of it
        # that no instance satisfies makes this one unsatisfiable too.
        required = reading.node.get("required")
        properties = reading.node.get("properties")
        if isinstance(required, list) and isinstance(properties, dict):
            for name in required:
                if isinstance(name, str) and name in properties:
                    member = join_pointer(_at(node, "properties"), name)
                    inner = index.nodes.get((node.document.path, member))
                    if inner is not None:
                        pending.append(inner)
    found: list[tuple[Location, list[str]]] = []
    for node in always:
        if node.document.path in index.derived or index.in_condition(node):
            continue
        judged = undeclared(index, node)
        if judged is None or not judged[1]:
            continue
        scope, names = judged
        if scope.closing is None or scope.closing[0].key not in seen:
            continue
        if scope.closing[1] == "unevaluatedProperties" and scope.evaluates_all:
            continue
        found.append(
            (node.document.location(join_pointer(node.pointer, "required")), [n for _, n in names])
        )
    return found
