"""An Arazzo `$response.body#/pointer` or `$response.header.<name>` that the response of the
step's operation does not declare.

What it does
    For each step whose `operationId` or `operationPath` resolves to an operation of the
    corpus, reads the `$response` expressions of its `outputs`, `successCriteria` and the
    `criteria` of its `onSuccess` / `onFailure` actions (Arazzo 1.0.1 §4.7). A
    `$response.body#<JSON pointer>` must lead somewhere in the schema of one of the responses
    it can read: the operation's 2xx responses for outputs and success criteria (every response
    when it declares no 2xx one), every response for failure criteria; the schema's local
    `$ref`\\s are followed, `allOf` members merged, each `oneOf` / `anyOf` member tried,
    an array index (`/0`) read through `items`. A `$response.header.<name>` must be a
    header one of those responses declares (any letter case, RFC 9110 §5.1), or
    `Content-Type` (which OpenAPI ignores when declared, so no API declares it). The finding is at
    the expression's string, the schema where the pointer leaves it related; the fix names the
    nearest property or header.

Why is this bad?
    The workflow reads a value the API never sends: the output is empty, and every later step
    that uses it sends nothing. A property renamed in the API (`runId` to `id`) breaks the
    workflow silently; this finds it where it is read.

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
    A schema that takes any property (no `properties`, or `additionalProperties` /
    `patternProperties`), a response or schema in another file and a response whose media type
    gives no schema are unknown: nothing is reported. A pointer is judged only after `#`
    (`$response.body.id` in a condition is the condition language's dereference, not judged).
    A step whose call does not resolve, or whose source is not read, is not judged (the
    unresolved call is `arazzo-unresolved-operation`'s finding, the unread source a coverage
    note).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.arazzo_expressions import RESPONSE, expression_problems
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity, headed

ID = "arazzo-response-pointer"
SEVERITY = Severity.ERROR
PREVIEW = True  # new: no labelled finding of the ecosystem check yet (speclint.run.preview)
# speclint.analyses.context: response schemas are followed through the corpus's `$ref` index.
FACTS = ("references",)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for problem in expression_problems(corpus):
        if problem.concern != RESPONSE:
            continue
        use = problem.use
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
