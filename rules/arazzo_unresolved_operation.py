"""An Arazzo step whose `operationId`, `operationPath` or `workflowId` names nothing its
sources hold.

What it does
    Resolves what each step of an Arazzo document calls (Arazzo 1.0.1 §4.6.5): an `operationId`,
    bare (searched in every OpenAPI source) or qualified
    (`$sourceDescriptions.<name>.<operationId>`); an `operationPath`
    (`{$sourceDescriptions.<name>.url}#/paths/~1pets/get`, a JSON pointer into the source); a
    `workflowId`, local or qualified (in an Arazzo source). One that names no operation or workflow,
    or a source the document does not declare, is reported at the field, the near miss related
    (letter case, a close spelling, unescaped slashes in a path pointer, RFC 6901 §3). A bare
    `operationId` two OpenAPI sources hold is ambiguous (§4.6.5: it MUST then be qualified). One
    that several operations of a document share binds the step to the one taking every parameter it
    passes; else one warning per document says to use `operationPath`. Shorthands Arazzo 1.0 does
    not define (Redocly's `pets.getPet`) are one warning per document and field, and are checked
    against what they name.

Why is this bad?
    A runner cannot call an operation the API does not have: the workflow fails at that step,
    and documentation generated from it links nowhere. `operationId` is case-sensitive
    (OpenAPI 3.1 §4.8.10), so `getpet` is not `getPet`.

Example
    ::

        sourceDescriptions:
          - {name: pets, url: ./pets.yaml, type: openapi}   # has operationId getPet
        workflows:
          - workflowId: adopt
            steps:
              - stepId: find
                operationId: getpet

    FAIL: `operationId `getpet` names no operation of pets.yaml; did you mean `getPet```.

Use instead
    ::

                operationId: getPet

    PASS.

Options
    None.

Limitations
    A step whose source is not read (a remote URL, a file outside the root) is listed as not
    checked. Operations are those of the OpenAPI documents' `paths` (not `webhooks`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.operations import Operation, api_operations
from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo import (
    AMBIGUOUS,
    RESOLVED,
    UNRESOLVED,
    StepBinding,
    step_bindings,
)
from speclint.common.findings import Finding, Location, Severity, headed
from speclint.model.arazzo import arazzo_document
from speclint.model.corpus import Document

ID = "arazzo-unresolved-operation"
SEVERITY = Severity.ERROR


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    shorthands: dict[tuple[str, str], list[StepBinding]] = {}
    shared: dict[tuple[str, str, str], list[StepBinding]] = {}
    yield from _unresolved(corpus, shorthands, shared)
    for (path, _), bindings in sorted(shorthands.items()):
        yield _shorthand(corpus.documents[path], bindings)
    for (path, _, _), bindings in sorted(shared.items()):
        yield _shared(corpus.documents[path], bindings)


def _shared(document: Document, bindings: list[StepBinding]) -> Finding:
    """One warning per Arazzo document and operationId that several operations of one API
    document share, the steps' parameters fitting not exactly one: nothing is checked against
    a guessed operation. The API document's duplicate itself is openapi-invalid's (OpenAPI 3.1
    §4.8.10: an operationId "MUST be unique")."""
    first = bindings[0]
    candidates = first.candidates
    identifier = candidates[0].identifier
    api = candidates[0].document.path
    labels = ", ".join(op.label for op in candidates[:5])
    if len(candidates) > 5:
        labels += f", {len(candidates) - 5} more"
    more = len(bindings) - 1
    also = f" (step `{first.step.step_id}`" + (
        f" and {more} more step{'s' if more > 1 else ''})" if more else ")"
    )
    name = first.source.description.name if first.source is not None else "<name>"
    return Finding(
        ID,
        Severity.WARNING,
        headed(
            f"operationId `{identifier}` names {len(candidates)} operations of {api} "
            f"({labels}){also}: the step cannot be resolved unambiguously, and is not checked "
            "against any of them",
            f"; use `operationPath` (`{{$sourceDescriptions.{name}.url}}#<pointer>`, Arazzo "
            "1.0.1 §4.6.5) naming the one meant",
        ),
        document.location(f"{first.step.pointer}/{first.field}"),
        related=(
            *(
                op.document.location(
                    op.pointer,
                    note=f"{op.label}: `{{$sourceDescriptions.{name}.url}}#{op.pointer}`",
                )
                for op in candidates
            ),
            *(
                document.location(f"{b.step.pointer}/{b.field}", note=f"step `{b.step.step_id}`")
                for b in bindings[1:6]
            ),
        ),
        key=f"shared:{api}:{identifier}",
    )


def _shorthand(document: Document, bindings: list[StepBinding]) -> Finding:
    """One warning per document and field for the steps that name their operation in a form
    Arazzo 1.0 does not define but whose meaning is plain (a generator writes every step so:
    the fix is one for the document)."""
    first = bindings[0]
    if first.operation is not None:
        operation = first.operation
        named = f"{operation.label} of {operation.document.path}"
        declared = operation.document.location(operation.pointer, note=operation.label)
    else:
        assert first.called is not None and first.called_in is not None
        named = f"workflow `{first.called.workflow_id}` of {first.called_in.path}"
        declared = first.called.location
    more = len(bindings) - 1
    also = f" (and {more} more step{'s' if more > 1 else ''} of this document)" if more else ""
    return Finding(
        ID,
        Severity.WARNING,
        headed(
            f"step `{first.step.step_id}`: {first.field} `{first.written}`{also} is not Arazzo "
            f"1.0, though it names {named}",
            f"; write `{first.standard}` (Arazzo 1.0.1 §4.6.5), which every Arazzo tool reads",
        ),
        document.location(f"{first.step.pointer}/{first.field}"),
        related=(
            declared,
            *(
                document.location(f"{b.step.pointer}/{b.field}", note=f"`{b.written}`")
                for b in bindings[1:6]
            ),
        ),
        key=f"shorthand:{first.field}",
    )


def _unresolved(
    corpus: Context,
    shorthands: dict[tuple[str, str], list[StepBinding]],
    shared: dict[tuple[str, str, str], list[StepBinding]],
) -> Iterator[Finding]:
    for binding in step_bindings(corpus):
        if binding.status == RESOLVED and binding.standard:
            shorthands.setdefault((binding.arazzo.path, binding.field), []).append(binding)
            continue
        if binding.status not in (UNRESOLVED, AMBIGUOUS):
            continue
        apis = {op.document.path for op in binding.candidates}
        if binding.status == AMBIGUOUS and len(apis) == 1:
            # One API document holding the id several times: one warning per document and id.
            api = binding.candidates[0]
            key = (binding.arazzo.path, api.document.path, api.identifier)
            shared.setdefault(key, []).append(binding)
            continue
        document = corpus.documents[binding.arazzo.path]
        step = binding.step
        where = document.location(f"{step.pointer}/{binding.field}")
        head = f"step `{step.step_id}`: {binding.field} `{binding.written}`"
        if binding.status == AMBIGUOUS:
            yield Finding(
                ID,
                SEVERITY,
                headed(
                    f"{head} is ambiguous",
                    f": {binding.reason}; qualify it as `$sourceDescriptions.<name>."
                    f"{binding.written}` (Arazzo 1.0.1 §4.6.5)",
                ),
                where,
                related=tuple(
                    op.document.location(op.pointer, note=f"{op.label} has this operationId")
                    for op in binding.candidates
                ),
                key=f"{step.pointer}:ambiguous",
            )
            continue
        meant = binding.meant
        related = tuple(_related(corpus, binding, meant))
        fix = (
            f"; did you mean {' or '.join(f'`{m}`' for m in meant)}?"
            if meant
            else f"; name one the {'document' if binding.field == 'workflowId' else 'API'} has"
        )
        if meant and related and binding.field == "operationId":
            fix = f"; did you mean `{meant[0]}` ({related[0].note})?"
        yield Finding(
            ID,
            SEVERITY,
            headed(f"{head}: {binding.reason}", fix),
            where,
            related=related,
            key=f"{step.pointer}:{binding.written}",
        )


def _related(corpus: Context, binding: StepBinding, meant: tuple[str, ...]) -> Iterator[Location]:
    """Where each name or pointer meant is declared."""
    source = binding.source
    if binding.field == "workflowId":
        holder = binding.arazzo
        if source is not None and source.document is not None:
            holder = arazzo_document(source.document) or holder
        for name in meant:
            called = holder.workflow(name)
            if called is not None:
                yield called.location
        return
    if binding.field not in ("operationId", "operationPath"):
        return
    operations: list[Operation] = [
        op for op in api_operations(corpus) if source is None or op.document.path == source.path
    ]
    for name in meant:
        for op in operations:
            if name in (op.identifier, op.pointer):
                yield op.document.location(op.pointer, note=op.label)
                break
