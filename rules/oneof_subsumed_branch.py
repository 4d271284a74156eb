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

from speclint.analyses.api.api_schemas import api_schema_objects
from speclint.analyses.context import Context
from speclint.analyses.schemas.schema_objects import schema_objects
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
from speclint.parsing.structured import join_pointer

ID = "oneof-subsumed-branch"
# Error where the `oneOf` rejects every value (the schema is unsatisfiable); a warning where it
# only loses a branch (see `_finding`).
SEVERITY = Severity.ERROR
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
    """Every schema object of the OpenAPI 3.x documents and the files they reach (where it is
    written: ``api_schemas.api_schema_objects``), of the schema files, and of the AsyncAPI
    documents, each once. Swagger 2.0 has no `oneOf` (openapi-invalid's)."""
    for found in api_schema_objects(corpus):
        if found.families != {"2.0"}:
            yield found.document, found.schema.pointer, found.schema.node
    for document in sorted(corpus.of_kind(DocumentKind.ASYNCAPI), key=lambda d: d.path):
        for schema in schema_objects(document):
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
