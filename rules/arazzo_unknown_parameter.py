"""An Arazzo step parameter that the operation it calls does not take, or that the workflow it
calls has no input for.

What it does
    For each step whose call resolves (`arazzo-unresolved-operation` reports the others),
    checks every entry of its `parameters` (a Parameter Object, or a Reusable Object naming one
    in `components.parameters`). For a step calling an operation, the operation must take a
    parameter of that `name` and `in` (OpenAPI 3.1 §4.8.9: its Path Item's parameters and its
    own; a header's name in any letter case, RFC 9110 §5.1), or it must be the credential a
    security scheme of the operation supplies (`Authorization`, an `apiKey` scheme's `name`):
    OpenAPI describes those by the scheme, never as parameters. For a step calling a workflow,
    `name` must be a property of that workflow's `inputs` schema (Arazzo 1.0.1 §4.6.6). A
    parameter of the right name in another place (`in: query` for a path parameter), or a
    close spelling of one, is named in the fix, its declaration related.

Why is this bad?
    The runner sends the parameter where the API does not read it: the call goes out without the
    value the step meant to pass (a path template left unfilled, a filter not applied), or a
    called workflow never receives its input.

Example
    ::

        # the operation: GET /pets/{petId}, parameter petId in path
        - stepId: find
          operationId: getPet
          parameters:
            - {name: petId, in: query, value: $inputs.id}

    FAIL: `petId` is a `path` parameter of `GET /pets/{petId}`, not a `query` one.

Use instead
    ::

            - {name: petId, in: path, value: $inputs.id}

    PASS.

Options
    None.

Limitations
    Workflow-level `parameters` are not checked; nor is a name an operation may take through a
    parameter `$ref`'d into another file, or one a workflow's open `inputs` take. A header or
    cookie the operation does not list is reported only as a near miss of one it does
    (`X-Api-Kye`): HTTP lets a client send any header. `Accept` and `Content-Type` are never
    unknown (OpenAPI ignores a header parameter of those names).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo import (
    PARAMETER_PLACES,
    RESOLVED,
    StepBinding,
    accepted_parameters,
    effective_parameter,
    near_names,
    step_bindings,
)
from speclint.common.findings import Finding, Location, Severity, headed
from speclint.parsing.structured import follow_local

ID = "arazzo-unknown-parameter"
SEVERITY = Severity.ERROR


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for binding in step_bindings(corpus):
        if binding.status != RESOLVED or not binding.step.parameters:
            continue
        if binding.operation is not None:
            yield from _against_operation(binding)
        elif binding.called is not None and binding.called_in is not None:
            yield from _against_workflow(corpus, binding)


def _against_operation(binding: StepBinding) -> Iterator[Finding]:
    operation = binding.operation
    assert operation is not None
    accepted = accepted_parameters(operation)
    declared, whole = accepted.declared, accepted.whole
    step = binding.step
    for written in step.parameters:
        parameter = effective_parameter(binding.arazzo, written)
        if parameter is None:
            continue
        name, where = parameter.name, parameter.in_
        if where and where not in PARAMETER_PLACES:
            continue  # `in: body`: no Arazzo place (§4.6.6), arazzo-invalid's finding
        if accepted.takes(name, where):
            continue  # declared, a security scheme's credential, or a content header
        elsewhere = [d for d in declared if d.name == name]
        close = _close(name, [d.name for d in declared if not where or d.in_ == where])
        if not (elsewhere or close or whole):
            continue  # it may be the one a `$ref` to another file declares
        if where in ("header", "cookie") and not (elsewhere or close):
            # HTTP lets a client send any header (RFC 9110 §6.3) and an operation's list need
            # not name them all: a gateway's key an API describes only in prose or a vendor
            # extension is sent, and served (wso2/arazzo-tools, 20 labels false). Only a near
            # miss of a declared one is a mistake worth a finding.
            continue
        head = f"step `{step.step_id}`: parameter `{name}` (in: {where or '?'})"
        label = operation.label
        problem = f"{label} takes no such parameter"
        if elsewhere:
            meant = elsewhere[0]
            problem = f"{label} takes `{name}` in `{meant.in_}`, not in `{where}`"
            fix = f"; write `in: {meant.in_}`"
        elif close:
            meant = next(d for d in declared if d.name == close)
            fix = f"; did you mean `{close}` (in: {meant.in_})?"
        else:
            meant = None
            takes = ", ".join(f"`{d.name}` ({d.in_})" for d in declared) or "none"
            fix = f"; the parameters it takes: {takes}"
            if where in ("header", "query", "cookie"):
                # A credential the API takes but does not describe: its fix is in the API
                # document, which declares it as a security scheme (OpenAPI 3.1 §4.8.27).
                fix += (
                    f"; if it is a credential, declare it in {operation.document.path} as a "
                    f"security scheme the operation uses (`type: apiKey, in: {where}, "
                    f"name: {name}`)"
                )
        related: tuple[Location, ...] = (
            operation.document.location(meant.pointer, note=f"`{meant.name}` of {label}")
            if meant is not None
            else operation.document.location(operation.pointer, note=label),
        )
        yield Finding(
            ID,
            SEVERITY,
            headed(f"{head}: {problem}", fix),
            written.location,
            related=related,
            key=f"{step.pointer}:{where}:{name}",
        )


def _against_workflow(corpus: Context, binding: StepBinding) -> Iterator[Finding]:
    called, holder = binding.called, binding.called_in
    assert called is not None and holder is not None
    data = corpus.documents[holder.path].data
    at, inputs = follow_local(data, called.inputs, called.inputs_pointer)
    if not isinstance(inputs, dict) or "$ref" in inputs:
        return
    properties = inputs.get("properties")
    if (
        not isinstance(properties, dict)
        or "patternProperties" in inputs
        or inputs.get("additionalProperties", False) is not False
    ):
        return  # it takes any name
    step = binding.step
    for written in step.parameters:
        parameter = effective_parameter(binding.arazzo, written)
        if parameter is None or parameter.name in properties:
            continue
        name = parameter.name
        close = _close(name, [str(p) for p in properties])
        fix = (
            f"; did you mean `{close}`?"
            if close
            else f"; its inputs: {', '.join(f'`{p}`' for p in properties) or 'none'}"
        )
        yield Finding(
            ID,
            SEVERITY,
            headed(
                f"step `{step.step_id}`: parameter `{name}`: workflow `{called.workflow_id}` "
                "has no input of that name",
                fix,
            ),
            written.location,
            related=(
                corpus.documents[holder.path].location(
                    f"{at}/properties", note=f"the inputs of `{called.workflow_id}`"
                ),
            ),
            key=f"{step.pointer}:input:{name}",
        )


def _close(name: str, names: list[str]) -> str | None:
    """The declared name ``name`` most likely meant (``near_names``: letter case, word joins,
    close spelling)."""
    meant = near_names(name, names)
    return meant[0] if meant else None
