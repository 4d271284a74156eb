"""An OpenAPI 3.0 example object with both ``value`` and ``externalValue``.

What it does
    Reports each example object of an OpenAPI 3.0 document (under ``components/examples`` and
    in the ``examples`` of parameters, headers and media types, in the document or in a file
    its ``$ref``\\s reach, where it is written) that holds both ``value`` and
    ``externalValue``, at ``externalValue``.

Why is this bad?
    "The ``value`` field and ``externalValue`` field are mutually exclusive" (OpenAPI 3.0.4
    §4.7.19.1). A reader shows one of the two, and which one is up to the tool: the example a
    client sees may not be the one the author checked.

Example
    ::

        openapi: 3.0.3
        components:
          examples:
            Run:
              value: {id: 1}
              externalValue: https://example.org/run.json

    FAIL: ``error [example-value-conflict] an Example Object with both `value` and
    `externalValue` ...``

Use instead
    ::

            Run:
              value: {id: 1}

    PASS.

Options
    None.

Limitations
    OpenAPI 3.1 and 3.2 are ``openapi-invalid``'s: their official schemas forbid the pair (and
    3.2's ``dataValue``/``serializedValue`` pairs); the 3.0 schema does not, hence this rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.api_schemas import family, objects_in_role
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

ID = "example-value-conflict"
SEVERITY = Severity.ERROR
PREVIEW = True  # new (issue 52): labelled in benchmarks/ecosystem (precision.json); leaving preview is decided there
FACTS = ("references",)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    reported: set[tuple[str, str]] = set()
    for document in sorted(corpus.of_kind(DocumentKind.OPENAPI), key=lambda d: d.path):
        if family(document) != "3.0":
            continue
        for holder, at, node in objects_in_role(corpus, document, "example"):
            if "value" not in node or "externalValue" not in node:
                continue
            if (holder.path, at) in reported:
                continue  # a file two documents reach: once
            reported.add((holder.path, at))
            yield Finding(
                ID,
                SEVERITY,
                "an Example Object with both `value` and `externalValue`: the two are mutually "
                "exclusive (OpenAPI 3.0.4 §4.7.19.1), and a reader shows only one; keep the one "
                "that is the example and delete the other",
                holder.location(join_pointer(at, "externalValue")),
                related=(holder.location(join_pointer(at, "value")),),
                key=f"value:{at}",
            )
