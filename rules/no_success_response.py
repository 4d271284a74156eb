"""An OpenAPI operation whose responses say nothing of success: no 2xx, no 3xx, no ``default``.

What it does
    In an OpenAPI or Swagger 2.0 document, reports each operation (in ``paths`` and
    ``webhooks``, in the file it is written in) whose ``responses`` lists response codes but
    none of ``2xx``/``3xx`` (``200``, ``2XX``...) and no ``default``, as a warning at
    ``responses``.

Why is this bad?
    The Responses Object "MUST contain at least one response code, and if only one response
    code is provided it SHOULD be the response for a successful operation call" (OpenAPI 3.1.1
    §4.8.16, 3.0.4 §4.7.16; Swagger 2.0 Responses Object). An operation answering only errors
    documents no result: generated clients return nothing on success (or treat every answer
    as an error), and readers cannot tell what a successful call gives back.

Example
    ::

        paths:
          /runs:
            post:
              responses:
                '400': {description: bad run}

    FAIL: ``warning [no-success-response] operation POST /runs lists no success response ...``

Use instead
    ::

              responses:
                '201': {description: the run}
                '400': {description: bad run}

    PASS.

Options
    None.

Limitations
    A ``default`` response counts as the success one (it answers every code not listed); a
    method documented as unsupported (only ``501``, with or without ``405``) is not reported. An
    operation without ``responses``, or with an empty one, is ``openapi-invalid``'s where its
    version requires them. A missing 4xx response is style.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.written_operations import written_operations
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

ID = "no-success-response"
SEVERITY = Severity.WARNING
READS = "structured"
FACTS = ("references",)  # speclint.analyses.context


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    seen: set[tuple[str, str]] = set()  # an operation two documents reach is judged once
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        for operation in written_operations(corpus, document):
            written = operation.operation
            responses = written.node.get("responses")
            if not isinstance(responses, dict) or "$ref" in responses:
                continue
            codes = [str(c) for c in responses if not str(c).startswith("x-")]
            if not codes or any(c == "default" or c[:1] in ("2", "3") for c in codes):
                continue
            if "501" in codes and set(codes) <= {"405", "501"}:
                # A method documented as unsupported: 501 Not Implemented (RFC 9110 §15.6.2),
                # perhaps with 405: there is no success to describe.
                continue
            at = join_pointer(written.pointer, "responses")
            if (written.file.path, at) in seen:
                continue
            seen.add((written.file.path, at))
            listed = ", ".join(f"`{c}`" for c in codes[:6])
            yield Finding(
                ID,
                SEVERITY,
                f"operation {operation.label} lists no success response (only {listed}): "
                "nothing says what a successful call returns; add its 2xx (or 3xx) response, "
                "or a `default` one",
                written.file.location(at),
                key=at,
            )
