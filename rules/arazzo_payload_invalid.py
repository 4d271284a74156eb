"""An Arazzo step's `requestBody.payload` that the operation's request schema rejects.

What it does
    For each step whose `operationId` or `operationPath` resolves, validates the payload of
    its `requestBody` against the schema of the operation's request body for the step's
    `contentType` (an exact media type, else a range the operation declares such as
    `application/*`; with no `contentType`, the operation's only media type), in the dialect
    of the OpenAPI document. Runtime expressions are placeholders, not values (Arazzo 1.0.1
    §4.6.11: they are evaluated before the call): a string that is or embeds one
    (`$inputs.pet`, `"{$inputs.id}"`) matches any schema, and so does a value the step's
    `replacements` set. A payload written as a JSON string (the specification's templated
    form) is read as JSON first. A `contentType` the operation does not accept, and a payload
    for an operation with no request body, are reported too. One finding per step, at the
    payload's first error.

Why is this bad?
    The API answers the call with a 400: the workflow fails at that step for a body its author
    could have seen was wrong (a field misspelt, a number sent as a string, a required field
    left out).

Example
    ::

        # POST /pets takes {name: string (required), age: integer}
        - stepId: add
          operationId: addPet
          requestBody:
            contentType: application/json
            payload: {name: Rex, age: three}

    FAIL: `/age: "three" is not of type "integer"`.

Use instead
    ::

            payload: {name: Rex, age: $inputs.age}

    PASS.

Options
    None.

Limitations
    Only JSON media types (`application/json`, `+json`) are validated; a form or XML body is
    not. A step whose success criteria expect only a 4xx status expects the API to reject its
    request: its payload is not judged. A field the request schema both requires and forbids is
    the API document's defect (`unsatisfiable-schema`), not the payload's.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from jsonschema import ValidationError
from referencing.exceptions import Unresolvable

from speclint.analyses.api.operations import Operation
from speclint.analyses.context import Context
from speclint.analyses.schemas.references import file_uri
from speclint.analyses.schemas.schema_objects import validator_class_of
from speclint.analyses.schemas.validation import (
    MALFORMED_SCHEMA,
    error_pointer,
    explain,
    short_message,
)
from speclint.analyses.workflows.arazzo import RESOLVED, StepBinding, request_body, step_bindings
from speclint.analyses.workflows.arazzo_expressions import asserted_codes
from speclint.common.findings import Finding, Severity, headed
from speclint.model.arazzo import RequestBody, is_expression
from speclint.parsing.structured import join_pointer, split_pointer

ID = "arazzo-payload-invalid"
SEVERITY = Severity.ERROR
FACTS = ("references",)  # speclint.analyses.context: the corpus registry resolves `$ref`s
# Media types whose bodies are JSON (RFC 6839's +json suffix included).
_JSON_MEDIA = re.compile(r"^application/(?:[\w.-]+\+)?json$")
# An embedded runtime expression written unquoted in a JSON template (`"age": {$inputs.age}`).
_UNQUOTED = re.compile(r'(?<!")\{\$[^{}"]*\}(?!")')
# What a placeholder stands as, in a payload, before it is validated.
_PLACEHOLDER = "$placeholder"


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for binding in step_bindings(corpus):
        body = binding.step.request_body
        if binding.status != RESOLVED or binding.operation is None or body is None:
            continue
        if not body.has_payload or _expects_rejection(binding):
            continue
        found = _payload_finding(corpus, binding, binding.operation, body)
        if found is not None:
            yield found


def _expects_rejection(binding: StepBinding) -> bool:
    """Whether the step succeeds only on a 4xx answer (``$statusCode == 400``): a negative test,
    whose payload is wrong on purpose (RFC 9110 §15.5: 4xx, the client's error)."""
    codes = asserted_codes(binding.step)
    return bool(codes) and all(code.startswith("4") for code in codes)


def _payload_finding(
    corpus: Context, binding: StepBinding, operation: Operation, body: RequestBody
) -> Finding | None:
    step = binding.step
    head = f"step `{step.step_id}`: requestBody"
    document = operation.document
    at, declared = request_body(operation)
    if declared is None:
        return Finding(
            ID,
            SEVERITY,
            headed(
                f"{head}: {operation.label} declares no request body",
                "; remove the requestBody, or call the operation that takes it",
            ),
            body.location,
            related=(document.location(operation.pointer, note=operation.label),),
            key=f"{step.pointer}:no-body",
        )
    content = declared.get("content") if isinstance(declared, dict) else None
    if not isinstance(content, dict) or "$ref" in declared:
        return None  # in another file, or no media types: nothing to judge against
    media = _media(body.content_type, [str(k) for k in content])
    if media is None:
        accepted = ", ".join(f"`{k}`" for k in content) or "none"
        if not body.content_type:
            return None  # several media types and none chosen: the runner picks
        return Finding(
            ID,
            SEVERITY,
            headed(
                f"{head}: {operation.label} does not accept `{body.content_type}`",
                f"; it accepts {accepted}: set `contentType` to one of them",
            ),
            body.location,
            related=(document.location(at, note=f"the request body of {operation.label}"),),
            key=f"{step.pointer}:content-type",
        )
    if not _JSON_MEDIA.match(media.split(";")[0].strip().lower()) and media != "*/*":
        return None
    entry = content[media]
    if not isinstance(entry, dict) or "schema" not in entry:
        return None
    schema_pointer = join_pointer(join_pointer(f"{at}/content", media), "schema")
    payload = _as_json(body.payload)
    if payload is _NOT_JSON:
        return None
    payload = _replaced(payload, body)
    validator = corpus.references.validator(
        validator_class_of(document), f"{file_uri(document.path)}#{schema_pointer}"
    )
    try:
        errors = [e for e in validator.iter_errors(payload) if not _placeholder(e)]
    except Unresolvable:
        return None  # unresolved-ref reports the broken reference
    except MALFORMED_SCHEMA:
        return None  # an invalid schema is schema-invalid's (openapi-invalid's) finding
    errors = [e for e in errors if not _contradiction(validator, payload, e)]
    if not errors:
        return None
    errors.sort(key=lambda e: list(map(str, e.absolute_path)))
    specific = explain(errors[0])
    inside = error_pointer(specific)
    message = short_message(specific)
    written = isinstance(body.payload, (dict, list))
    where = f"{body.pointer}/payload" + (inside if written else "")
    arazzo = corpus.documents[binding.arazzo.path]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return Finding(
        ID,
        SEVERITY,
        headed(
            f"{head} payload {inside or '/'}: {message}{more}",
            f"; the request schema of {operation.label} ({media}) rejects it: fix the payload, "
            "or use a runtime expression where the value is only known when the workflow runs",
        ),
        arazzo.location(where),
        related=(
            document.location(schema_pointer, note=f"the request schema of {operation.label}"),
        ),
        key=f"{step.pointer}:payload:{inside}",
    )


def _contradiction(validator: Any, payload: Any, error: ValidationError) -> bool:
    """Whether ``error`` rejects fields the request schema also requires: a closed `allOf`
    branch (`additionalProperties: false`) against a field another branch requires (RFC
    0094's unsatisfiable request). Without them the payload fails `required` for the same
    fields: no payload satisfies the schema, the API document's defect (unsatisfiable-schema
    reports it there), which a fix of the payload cannot mend."""
    if error.validator not in ("additionalProperties", "unevaluatedProperties"):
        return False
    if not isinstance(error.instance, dict) or not isinstance(error.schema, dict):
        return False
    declared = error.schema.get("properties")
    known = set(declared) if isinstance(declared, dict) else set()
    extra = {key for key in error.instance if key not in known}
    if not extra or error.schema.get("patternProperties"):
        return False
    trimmed = copy.deepcopy(payload)
    node = trimmed
    for token in error.absolute_path:
        node = node[token]
    for key in extra:
        del node[key]
    place = list(error.absolute_path)
    return any(
        again.validator == "required"
        and list(again.absolute_path) == place
        and any(f"'{key}'" in again.message for key in extra)
        for again in validator.iter_errors(trimmed)
    )


def _media(wanted: str, declared: list[str]) -> str | None:
    """The media type of ``declared`` (an operation's ``content`` keys) a body of ``wanted``
    goes by: the same type (parameters and case aside), else the most specific range that
    covers it (``application/*``, ``*/*``: OpenAPI 3.1 §4.8.14); with none wanted, the only one."""
    if not wanted:
        return declared[0] if len(declared) == 1 else None
    bare = wanted.split(";")[0].strip().lower()
    for key in declared:
        if key.split(";")[0].strip().lower() == bare:
            return key
    top = bare.split("/")[0]
    for key in declared:
        if key.strip().lower() == f"{top}/*":
            return key
    return next((key for key in declared if key.strip() == "*/*"), None)


_NOT_JSON = object()


def _as_json(payload: Any) -> Any:
    """The payload as JSON data: as written, or a JSON string parsed (its unquoted embedded
    expressions read as placeholders); ``_NOT_JSON`` when a string is no JSON."""
    if not isinstance(payload, str):
        return payload
    text = payload.strip()
    if not text.startswith(("{", "[")):
        return payload  # a string value, or a runtime expression standing for the whole body
    try:
        return json.loads(_UNQUOTED.sub(json.dumps(_PLACEHOLDER), text))
    except ValueError:
        return _NOT_JSON


def _replaced(payload: Any, body: RequestBody) -> Any:
    """The payload with each replacement's target (a JSON pointer, §4.6.12) set to a
    placeholder: the step sets it before the call."""
    targets = [r.target for r in body.replacements if r.target.startswith("/")]
    if not targets:
        return payload
    payload = copy.deepcopy(payload)
    for target in targets:
        *parents, last = split_pointer(target)
        node = payload
        for token in parents:
            node = node.get(token) if isinstance(node, dict) else None
        if isinstance(node, dict):
            node[last] = _PLACEHOLDER
        elif isinstance(node, list) and last.isdigit() and int(last) < len(node):
            node[int(last)] = _PLACEHOLDER
    return payload


def _placeholder(error: ValidationError) -> bool:
    """Whether ``error`` is only that a placeholder stands where a value will be: its instance is
    a runtime expression, or one branch of its ``oneOf``/``anyOf`` fails only so."""
    if is_expression(error.instance):
        return True
    if error.validator in ("oneOf", "anyOf") and error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for inner in error.context:
            branches.setdefault(inner.relative_schema_path[0], []).append(inner)
        count = len(error.validator_value) if isinstance(error.validator_value, list) else 0
        if len(branches) < count:
            return True  # a branch passed with the placeholders: this error is about another
        return any(all(_placeholder(e) for e in errors) for errors in branches.values())
    return False
