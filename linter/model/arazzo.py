"""An Arazzo 1.0 workflow document as plain data, every node with its JSON pointer and place
(issue 49).

An Arazzo document (``arazzo: 1.0.x``, Arazzo Specification 1.0.1) names the API documents it
calls (``sourceDescriptions``) and describes ``workflows``: sequences of ``steps``, each calling an
operation of a source (``operationId`` or ``operationPath``) or another workflow (``workflowId``),
with ``parameters``, a ``requestBody``, ``successCriteria``, what to do next (``onSuccess`` /
``onFailure``) and ``outputs``. ``components`` holds reusable inputs, parameters and actions.

This module reads one document into that shape, tolerating any value where the specification
wants another (a step that is a string, a parameter without ``name``): such a node is left out
or its field left empty, and ``arazzo-invalid`` reports the document against the official schema.
What the document names elsewhere (its sources, the operations its steps call) is resolved in
the analyses layer (``speclint.analyses.workflows.arazzo``); runtime expressions are kept as written.

Every node carries ``pointer`` (the RFC 6901 pointer of its object in the document) and
``location`` (file, line, column and that pointer), ready for a finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from speclint.common.findings import Location
from speclint.model.corpus import Corpus, Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

# Arazzo 1.0.1 §4.6.3: the types of a Source Description Object (`openapi` or `arazzo`; other
# values are allowed by the text's "future" note and read as written).
OPENAPI_SOURCE = "openapi"
ARAZZO_SOURCE = "arazzo"

# The Arazzo releases this model reads: 1.0.x (`arazzo: 1.0.1`). A later release holds what
# 1.0 does not (1.1.0: `asyncapi` sources, steps on a `channelPath` with an `action`, the
# `$message` expression), so its documents are judged by no Arazzo rule: arazzo-invalid says
# they were not checked. An `arazzo` value that is no release number (`latest`) is read as 1.0.
READ_RELEASES = ("1.0",)
_RELEASE = re.compile(r"^(\d+\.\d+)\.\d+(?:-.+)?$")

# Arazzo 1.0.1 §4.7: a runtime expression starts with `$` (`$inputs.x`, `$steps.a.outputs.b`,
# `$statusCode`); inside a string it is embedded in braces (`Bearer {$inputs.token}`).
_EMBEDDED = re.compile(r"\{\$[^{}]*\}")


def is_expression(value: Any) -> bool:
    """Whether ``value`` is, or holds, an Arazzo runtime expression (§4.7): a string starting
    with ``$`` or embedding ``{$...}``. Its value is known only when the workflow runs."""
    return isinstance(value, str) and (value.startswith("$") or bool(_EMBEDDED.search(value)))


@dataclass(frozen=True)
class SourceDescription:
    """A Source Description Object (§4.6.3): an API document (or Arazzo document) by name."""

    name: str
    url: str  # as written ("" when missing or not a string)
    type: str  # "openapi" | "arazzo" | as written; "" when not given
    pointer: str
    location: Location


@dataclass(frozen=True)
class Parameter:
    """A Parameter Object (§4.6.6), or a Reusable Object naming one (§4.6.14: ``reference``
    ``$components.parameters.<name>``, with an optional ``value`` overriding its value)."""

    name: str  # "" for a Reusable Object that does not override it
    in_: str  # "path" | "query" | "header" | "cookie"; "" when not given (a workflow's input)
    value: Any  # a constant or a runtime expression, as written (None when not given)
    reference: str  # the Reusable Object's ``reference`` ("" for an inline Parameter Object)
    pointer: str
    location: Location


@dataclass(frozen=True)
class PayloadReplacement:
    """A Payload Replacement Object (§4.6.12): a value put at ``target`` of the payload."""

    target: str  # a JSON pointer (or XPath) into the payload, as written
    value: Any
    pointer: str
    location: Location


@dataclass(frozen=True)
class RequestBody:
    """A Request Body Object (§4.6.11) of a step."""

    content_type: str  # "" when not given (the operation's only media type is then meant)
    payload: Any  # as written; runtime expressions inside it stand for values (``is_expression``)
    has_payload: bool  # whether ``payload`` was written at all (it may be written as null)
    replacements: tuple[PayloadReplacement, ...]
    pointer: str
    location: Location


@dataclass(frozen=True)
class Criterion:
    """A Criterion Object (§4.6.9): a ``condition`` judged in a ``context``."""

    condition: str
    context: str  # a runtime expression ("" when not given: the condition is simple)
    type: str  # "simple" | "regex" | "jsonpath" | "xpath"; "" for simple by default
    pointer: str
    location: Location


@dataclass(frozen=True)
class Action:
    """A Success Action (§4.6.7) or Failure Action (§4.6.8) Object, or a Reusable Object naming
    one in ``components`` (``reference``)."""

    name: str
    type: str  # "end" | "goto" | "retry" (failure only)
    workflow_id: str  # the workflow it goes to ("" when none)
    step_id: str  # the step it goes to ("" when none)
    retry_after: Any
    retry_limit: Any
    criteria: tuple[Criterion, ...]
    reference: str  # the Reusable Object's ``reference`` ("" for an inline action)
    pointer: str
    location: Location


@dataclass(frozen=True)
class Output:
    """One entry of an ``outputs`` map (a workflow's or a step's): a name and its expression."""

    name: str
    value: Any  # a runtime expression, as written
    pointer: str
    location: Location


@dataclass(frozen=True)
class Step:
    """A Step Object (§4.6.5). Exactly one of ``operation_id``, ``operation_path`` and
    ``workflow_id`` names what it calls ("" for the others)."""

    step_id: str
    operation_id: str  # bare, or `$sourceDescriptions.<name>.<operationId>`
    operation_path: str  # `{$sourceDescriptions.<name>.url}#/paths/~1pets/get`
    workflow_id: str  # local, or `$sourceDescriptions.<name>.<workflowId>`
    parameters: tuple[Parameter, ...]
    request_body: RequestBody | None
    success_criteria: tuple[Criterion, ...]
    on_success: tuple[Action, ...]
    on_failure: tuple[Action, ...]
    outputs: tuple[Output, ...]
    pointer: str
    location: Location


@dataclass(frozen=True)
class Workflow:
    """A Workflow Object (§4.6.4)."""

    workflow_id: str
    inputs: Any  # its ``inputs`` JSON Schema as written (None when not given)
    inputs_pointer: str  # where ``inputs`` is
    steps: tuple[Step, ...]
    outputs: tuple[Output, ...]
    depends_on: tuple[str, ...]  # workflowIds, local or `$sourceDescriptions.<name>.<id>`
    success_actions: tuple[Action, ...]
    failure_actions: tuple[Action, ...]
    parameters: tuple[Parameter, ...]  # applied to each of its steps
    pointer: str
    location: Location


@dataclass(frozen=True)
class Components:
    """The Components Object (§4.6.13): reusable pieces, by name."""

    inputs: dict[str, Any]  # name -> JSON Schema (as written)
    parameters: dict[str, Parameter]
    success_actions: dict[str, Action]
    failure_actions: dict[str, Action]
    pointer: str


@dataclass(frozen=True)
class ArazzoDocument:
    """One Arazzo document of the corpus."""

    path: str
    version: str  # the ``arazzo`` field, as written
    title: str  # ``info.title`` ("" when missing)
    source_descriptions: tuple[SourceDescription, ...]
    workflows: tuple[Workflow, ...]
    components: Components

    def source(self, name: str) -> SourceDescription | None:
        """The source description named ``name`` (the first, when two share it)."""
        return next((s for s in self.source_descriptions if s.name == name), None)

    def workflow(self, workflow_id: str) -> Workflow | None:
        """The workflow with ``workflow_id`` (the first, when two share it)."""
        return next((w for w in self.workflows if w.workflow_id == workflow_id), None)

    def steps(self) -> Iterator[tuple[Workflow, Step]]:
        """Every step of every workflow, in document order, with its workflow."""
        for workflow in self.workflows:
            for step in workflow.steps:
                yield workflow, step


def arazzo_document(document: Document) -> ArazzoDocument | None:
    """The Arazzo model of ``document`` (None when it is no usable Arazzo document). Read once
    per document (a pure function of its content)."""
    if document.kind is not DocumentKind.ARAZZO or not document.usable:
        return None
    if not isinstance(document.data, dict):
        return None
    return document.remember("arazzo-model", lambda: _read(document))


def arazzo_documents(corpus: Corpus) -> tuple[ArazzoDocument, ...]:
    """Every usable Arazzo document of the corpus of a release this model reads
    (``READ_RELEASES``), by path: the documents the Arazzo rules judge. (A document of a later
    release is still read as another document's source, by ``arazzo_document``.)"""
    found = (arazzo_document(d) for d in corpus.of_kind(DocumentKind.ARAZZO))
    judged = (a for a in found if a is not None and read_release(a.version))
    return tuple(sorted(judged, key=lambda a: a.path))


def read_release(version: str) -> bool:
    """Whether a document of ``arazzo: <version>`` is judged as this model reads it: a release
    of ``READ_RELEASES``, or a value that is no release number (arazzo-invalid reports it)."""
    release = _RELEASE.match(version)
    return release is None or release.group(1) in READ_RELEASES


# --- reading ------------------------------------------------------------------------------------


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _entries(holder: dict[str, Any], key: str, pointer: str) -> Iterator[tuple[str, Any]]:
    """The objects of the list ``holder[key]``, each with its pointer."""
    items = holder.get(key)
    for index, item in enumerate(items if isinstance(items, list) else ()):
        if isinstance(item, dict):
            yield join_pointer(join_pointer(pointer, key), index), item


def _read(document: Document) -> ArazzoDocument:
    data: dict[str, Any] = document.data
    info = data.get("info")
    return ArazzoDocument(
        document.path,
        str(data.get("arazzo", "")),
        _text(info.get("title")) if isinstance(info, dict) else "",
        tuple(
            SourceDescription(
                _text(item.get("name")),
                _text(item.get("url")),
                _text(item.get("type")),
                at,
                document.location(at),
            )
            for at, item in _entries(data, "sourceDescriptions", "")
        ),
        tuple(_workflow(document, at, item) for at, item in _entries(data, "workflows", "")),
        _components(document, data.get("components")),
    )


def _workflow(document: Document, pointer: str, item: dict[str, Any]) -> Workflow:
    depends = item.get("dependsOn")
    return Workflow(
        _text(item.get("workflowId")),
        item.get("inputs"),
        join_pointer(pointer, "inputs"),
        tuple(_step(document, at, step) for at, step in _entries(item, "steps", pointer)),
        _outputs(document, item, pointer),
        tuple(d for d in depends if isinstance(d, str)) if isinstance(depends, list) else (),
        tuple(_action(document, at, a) for at, a in _entries(item, "successActions", pointer)),
        tuple(_action(document, at, a) for at, a in _entries(item, "failureActions", pointer)),
        tuple(_parameter(document, at, p) for at, p in _entries(item, "parameters", pointer)),
        pointer,
        document.location(pointer),
    )


def _step(document: Document, pointer: str, item: dict[str, Any]) -> Step:
    body = item.get("requestBody")
    return Step(
        _text(item.get("stepId")),
        _text(item.get("operationId")),
        _text(item.get("operationPath")),
        _text(item.get("workflowId")),
        tuple(_parameter(document, at, p) for at, p in _entries(item, "parameters", pointer)),
        _request_body(document, join_pointer(pointer, "requestBody"), body)
        if isinstance(body, dict)
        else None,
        tuple(_criterion(document, at, c) for at, c in _entries(item, "successCriteria", pointer)),
        tuple(_action(document, at, a) for at, a in _entries(item, "onSuccess", pointer)),
        tuple(_action(document, at, a) for at, a in _entries(item, "onFailure", pointer)),
        _outputs(document, item, pointer),
        pointer,
        document.location(pointer),
    )


def _parameter(document: Document, pointer: str, item: dict[str, Any]) -> Parameter:
    return Parameter(
        _text(item.get("name")),
        _text(item.get("in")),
        item.get("value"),
        _text(item.get("reference")),
        pointer,
        document.location(pointer),
    )


def _request_body(document: Document, pointer: str, item: dict[str, Any]) -> RequestBody:
    return RequestBody(
        _text(item.get("contentType")),
        item.get("payload"),
        "payload" in item,
        tuple(
            PayloadReplacement(_text(r.get("target")), r.get("value"), at, document.location(at))
            for at, r in _entries(item, "replacements", pointer)
        ),
        pointer,
        document.location(pointer),
    )


def _criterion(document: Document, pointer: str, item: dict[str, Any]) -> Criterion:
    kind = item.get("type")
    if isinstance(kind, dict):  # a Criterion Expression Type Object (§4.6.10)
        kind = kind.get("type")
    return Criterion(
        _text(item.get("condition")),
        _text(item.get("context")),
        _text(kind),
        pointer,
        document.location(pointer),
    )


def _action(document: Document, pointer: str, item: dict[str, Any]) -> Action:
    return Action(
        _text(item.get("name")),
        _text(item.get("type")),
        _text(item.get("workflowId")),
        _text(item.get("stepId")),
        item.get("retryAfter"),
        item.get("retryLimit"),
        tuple(_criterion(document, at, c) for at, c in _entries(item, "criteria", pointer)),
        _text(item.get("reference")),
        pointer,
        document.location(pointer),
    )


def _outputs(document: Document, item: dict[str, Any], pointer: str) -> tuple[Output, ...]:
    outputs = item.get("outputs")
    at = join_pointer(pointer, "outputs")
    return tuple(
        Output(
            str(name),
            value,
            join_pointer(at, str(name)),
            document.location(join_pointer(at, str(name))),
        )
        for name, value in (outputs.items() if isinstance(outputs, dict) else ())
    )


def _components(document: Document, item: Any) -> Components:
    pointer = "/components"
    if not isinstance(item, dict):
        return Components({}, {}, {}, {}, pointer)

    def named(key: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
        holder = item.get(key)
        for name, value in holder.items() if isinstance(holder, dict) else ():
            if isinstance(value, dict):
                yield str(name), join_pointer(join_pointer(pointer, key), str(name)), value

    inputs = item.get("inputs")
    return Components(
        dict(inputs) if isinstance(inputs, dict) else {},
        {name: _parameter(document, at, value) for name, at, value in named("parameters")},
        {name: _action(document, at, value) for name, at, value in named("successActions")},
        {name: _action(document, at, value) for name, at, value in named("failureActions")},
        pointer,
    )
