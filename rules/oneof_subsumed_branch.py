"""A ``oneOf`` branch whose every value another branch accepts too: ``oneOf`` rejects them all.

What it does
    Proves, for each pair of branches of every ``oneOf`` in API documents and schema files (request
    bodies, responses, parameters, components, the files they ``$ref``), that every value branch
    A accepts, branch B accepts too: B has no validating keyword A lacks or loosens (``{}`` and
    ``true`` accept everything; ``title``, ``description``, ``examples`` and an unknown
    ``format`` validate nothing). Such a value matches two branches, so ``oneOf`` rejects it:
    branch A admits nothing. When every branch is covered so, the schema rejects every value.

Why is this bad?
    ``oneOf`` is valid only when exactly one branch matches (JSON Schema 2020-12 Core §10.2.1.3;
    OpenAPI 3.0.3 §4.7.24.1 takes ``oneOf`` from JSON Schema). Two ``string`` branches that differ
    by a ``format`` a validator does not know accept the same strings: no string is valid, no
    client can send the request, no server can produce the response.

Example
    ::

        schema:
          oneOf:
            - {type: string, format: customer-id}
            - {type: string, format: order-id}

    FAIL: ``error [oneof-subsumed-branch] ...: `oneOf` rejects every value: `oneOf/0` and
    `oneOf/1` accept the same values ...``

Use instead
    Tell the branches apart with a keyword that validates (a ``pattern``, a ``const`` tag,
    disjoint ``type``\\s), or use ``anyOf`` when a value may match both::

        schema:
          anyOf:
            - {type: string, format: customer-id}
            - {type: string, format: order-id}

    PASS.

Options
    None.

Limitations
    Only proved overlaps: branches that overlap for some values only (two objects with
    different optional properties) are not reported, nor any pair whose keywords the proof does
    not read (``unevaluatedProperties``, ``$dynamicRef``, ``patternProperties`` against
    ``properties``, an unresolved ``$ref``). Swagger 2.0 has no ``oneOf``: ``openapi-invalid``'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.references import located
from speclint.analyses.schemas.schema_objects import (
    openapi_schema_roots,
    schema_objects,
    schema_objects_from,
    structure_refs,
)
from speclint.analyses.schemas.subsumption import (
    At,
    DeadBranch,
    Prover,
    dead_branches,
    differing,
    resolver,
)
from speclint.common.findings import Finding, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, resolve_pointer

ID = "oneof-subsumed-branch"
# Error where the `oneOf` rejects every value (the schema is unsatisfiable); a warning where it
# only loses a branch (see `_finding`).
SEVERITY = Severity.ERROR
PREVIEW = True  # new: precision measured on the ecosystem check of issue 52 only
FACTS = ("references",)
READS = "structured"

_FIX = (
    "Tell the branches apart with a keyword that validates (a `pattern`, a `const` or `enum` "
    "member only one has, disjoint `type`s, a `required` member), remove the redundant branch, "
    "or use `anyOf` if a value may match more than one"
)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    prover = Prover(resolver(corpus))
    for document, pointer, node in _schema_objects(corpus):
        one_of = node.get("oneOf")
        if not isinstance(one_of, list):
            continue
        at = At(document.path, join_pointer(pointer, "oneOf"), one_of)
        dead = dead_branches(prover, at)
        if dead:
            yield from _findings(prover, document, at, dead)


def _schema_objects(corpus: Context) -> Iterator[tuple[Document, str, dict[str, Any]]]:
    """Every schema object of the OpenAPI 3.x and AsyncAPI documents and the schema files, and
    of the files their schemas ``$ref`` (a schema kept in a file of its own is judged where it is
    written), each once."""
    work: list[tuple[str, str, bool]] = []  # (path, pointer, a schema root, not API structure)
    for document in sorted(
        corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI, DocumentKind.SCHEMA),
        key=lambda d: d.path,
    ):
        data = document.data
        if document.kind is DocumentKind.OPENAPI and "swagger" in (data or {}):
            continue  # Swagger 2.0: no `oneOf` (openapi-invalid)
        if document.kind is DocumentKind.SCHEMA:
            work.append((document.path, "", True))
        elif document.kind is DocumentKind.OPENAPI:
            roots = [p for p, _ in openapi_schema_roots(data)]
            work += [(document.path, p, True) for p in roots]
            # A path item, response or parameter kept in a file of its own: its schemas are
            # the root's, judged where they are written.
            for at in structure_refs(data, "", frozenset(roots)):
                reference = corpus.references.at(document.path, join_pointer(at, "$ref"))
                where = located(corpus, reference) if reference is not None else None
                held = corpus.documents.get(where[0]) if where is not None else None
                if where is None or held is None:
                    continue
                part = where[1]
                try:
                    node = resolve_pointer(held.data, part)
                except (KeyError, IndexError, TypeError, ValueError):
                    continue
                work += [(held.path, p, True) for p, _ in openapi_schema_roots(node, part)]
        else:
            work.append((document.path, "", False))  # AsyncAPI: `schema_objects` finds its roots
    seen: set[tuple[str, str]] = set()
    work.reverse()
    while work:
        path, root_at, is_schema = work.pop()
        held = corpus.documents.get(path)
        if held is None or (path, root_at) in seen:
            continue
        document = held
        if not is_schema:
            for schema in schema_objects(document):
                if (path, schema.pointer) not in seen:
                    seen.add((path, schema.pointer))
                    yield document, schema.pointer, schema.node
            continue
        try:
            root = resolve_pointer(document.data, root_at)
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        fresh = []
        for schema in schema_objects_from(root, root_at):
            if (path, schema.pointer) in seen:
                continue
            seen.add((path, schema.pointer))
            fresh.append(schema)
            reference = corpus.references.at(path, join_pointer(schema.pointer, "$ref"))
            where = located(corpus, reference) if reference is not None else None
            if where is not None:
                work.append((*where, True))
        for schema in fresh:
            yield document, schema.pointer, schema.node


def _cause(prover: Prover, at: At, branch: DeadBranch) -> str:
    if not branch.mutual:
        return f"`oneOf/{branch.cover}` accepts every value `oneOf/{branch.index}` accepts"
    keys = differing(prover, at, branch.index, branch.cover)
    only = f" (they differ only by {keys}, which do not validate)" if keys else ""
    return f"`oneOf/{branch.index}` and `oneOf/{branch.cover}` accept the same values{only}"


def _findings(
    prover: Prover, document: Document, at: At, dead: list[DeadBranch]
) -> Iterator[Finding]:
    count = len(at.node)
    if len(dead) == count:
        # Every branch is covered by another: every value a branch accepts matches two.
        first = next((d for d in dead if d.mutual), dead[0])
        more = "" if count == 2 else f"; each of the {count} branches is covered by another"
        yield Finding(
            ID,
            Severity.ERROR,
            f"`oneOf` rejects every value: {_cause(prover, at, first)}{more}, so every value that "
            "matches a branch matches two, and `oneOf` accepts only a value exactly one branch "
            f"matches. {_FIX}",
            document.location(at.pointer),
            related=tuple(
                document.location(
                    join_pointer(at.pointer, d.index), note=f"covered by oneOf/{d.cover}"
                )
                for d in dead
            ),
            key=at.pointer,
        )
        return
    for branch in dead:
        # The others still admit values: the branch is dead, the schema is not.
        yield Finding(
            ID,
            Severity.WARNING,
            f"`oneOf/{branch.index}` admits no value: {_cause(prover, at, branch)}, so each of its "
            f"values matches two branches and `oneOf` rejects it. {_FIX}",
            document.location(join_pointer(at.pointer, branch.index)),
            related=(
                document.location(
                    join_pointer(at.pointer, branch.cover), note=f"oneOf/{branch.cover} covers it"
                ),
            ),
            key=join_pointer(at.pointer, branch.index),
        )
