"""An Arazzo `$response.body#/pointer` or `$response.header.<name>` that the response of the
step's operation does not declare.

What it does
    For each step whose `operationId` or `operationPath` resolves to an operation of the
    corpus, reads the `$response` expressions of its `outputs`, `successCriteria` and the
    `criteria` of its `onSuccess` / `onFailure` actions (Arazzo 1.0.1 §4.7). A
    `$response.body#<JSON pointer>` must lead somewhere in the schema of a response it can
    read: the operation's 2xx responses for outputs and success criteria, every response for
    failure criteria (`$ref`, `allOf`, `oneOf` / `anyOf` and `items` followed). A
    `$response.header.<name>` must be a header one of those responses declares (any letter
    case, RFC 9110 §5.1), or `Content-Type`, which OpenAPI ignores when declared. The finding
    is at the expression's string, the schema where the pointer leaves it related; the fix
    names the nearest property or header. Body pointers into responses that declare no content
    at all are one `warning` per Arazzo document and operation: the API document is silent, and
    its fix is one (declare the response's content schema).

Why is this bad?
    The workflow reads a value the API never sends: the output is empty and every later step using
    it sends nothing. A property renamed in the API (`runId` to `id`) breaks the workflow silently.

Example
    ::

        # GET /pets/{petId} answers 200 with {id, name, status}
        - stepId: find
          operationId: getPet
          outputs:
            state: $response.body#/state

    FAIL: the response schema of `GET /pets/{petId}` (responses 200) has no `state`;
    did you mean `#/status`?

Use instead
    ::

            state: $response.body#/status

    PASS.

Options
    None.

Limitations
    Not judged: a schema that takes any property (no `properties`, or `additionalProperties`), a
    Response Object in another file, a media type with no schema, a step whose call does not resolve
    or whose source is not read. Only a pointer after `#` is judged (`$response.body.id` is
    `arazzo-unresolved-expression`'s).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.operations import Operation
from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo import step_bindings
from speclint.analyses.workflows.arazzo_expressions import RESPONSE, Problem, expression_problems
from speclint.common.findings import Finding, Severity, headed

ID = "arazzo-response-pointer"
SEVERITY = Severity.ERROR
# speclint.analyses.context: response schemas are followed through the corpus's `$ref` index.
FACTS = ("references",)
# Responses that have no content by HTTP's definition (RFC 9110 §15.3.5 204 No Content, §15.3.6
# 205 Reset Content, §15.4.5 304 Not Modified): a body read from them alone is shown wrong.
_BODILESS = frozenset({"204", "205", "304"})
# How many of the other reads one warning relates (its message counts them all).
_RELATED = 11


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    bindings = {(b.arazzo.path, b.step.pointer): b for b in step_bindings(corpus)}
    silent: dict[tuple[str, str, str], list[Problem]] = {}
    operations: dict[tuple[str, str, str], Operation] = {}
    for problem in expression_problems(corpus):
        if problem.concern != RESPONSE:
            continue
        use = problem.use
        binding = bindings.get((use.arazzo.path, use.step.pointer)) if use.step else None
        operation = binding.operation if binding is not None else None
        if operation is not None and _reads_no_content(problem):
            key = (use.arazzo.path, operation.document.path, operation.pointer)
            silent.setdefault(key, []).append(problem)
            operations[key] = operation
            continue
        document = corpus.documents[use.arazzo.path]
        step = use.step.step_id if use.step is not None else ""
        yield Finding(
            ID,
            SEVERITY,
            headed(f"step `{step}`: {problem.problem}", problem.fix),
            document.location(use.pointer),
            related=problem.related,
            key=f"{use.pointer}:{use.expression.text}",
        )
    for key, problems in sorted(silent.items()):
        yield _no_content(corpus, operations[key], problems)


def _reads_no_content(problem: Problem) -> bool:
    """Whether ``problem`` is a body pointer into responses of ``operation`` that declare no
    content at all (``Problem.silent_codes``), not only responses HTTP defines without one."""
    codes = set(problem.silent_codes)
    return bool(codes) and not codes <= _BODILESS


def _no_content(corpus: Context, operation: Operation, problems: list[Problem]) -> Finding:
    """One warning per Arazzo document and operation for the body pointers it reads from
    responses its API document gives no content: the API document is silent, the workflow is
    not shown wrong, and the fix is one, in the API document."""
    first = problems[0]
    document = corpus.documents[first.use.arazzo.path]
    step = first.use.step.step_id if first.use.step is not None else ""
    codes = sorted({code for p in problems for code in p.silent_codes})
    read = sorted({p.use.expression.text for p in problems})
    shown = ", ".join(f"`{t}`" for t in read[:3]) + (
        f", {len(read) - 3} more" if len(read) > 3 else ""
    )
    named = f"responses {', '.join(codes)}" if codes else "the responses the step reads"
    fix = f"; declare the response's content schema in {operation.document.path}"
    if codes and all(code.startswith("3") for code in codes):
        # A redirect carries no body a client reads (RFC 9110 §15.4): what it hands on is in
        # its `Location` header, which an Arazzo expression reads as a header.
        fix = (
            "; a redirect hands its value on in its `Location` header: read "
            "`$response.header.Location`"
        )
    return Finding(
        ID,
        Severity.WARNING,
        headed(
            f"step `{step}`: {operation.document.path} declares no response content for "
            f"{operation.label} ({named}), so what the document reads of its body ({shown}) "
            "cannot be checked",
            fix,
        ),
        document.location(first.use.pointer),
        related=(
            operation.document.location(operation.pointer, note=operation.label),
            *(
                document.location(p.use.pointer, note=f"`{p.use.expression.text}`")
                for p in problems[1:_RELATED]
            ),
        ),
        key=f"no-content:{operation.document.path}#{operation.pointer}",
    )
