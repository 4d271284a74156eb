"""An example in an API document that fails the schema it illustrates.

What it does
    Validates every example against its schema with a JSON Schema 2020-12 validator, resolving
    ``$ref``\\s through the corpus (offline):

    - OpenAPI media types and parameters: ``example``, and each ``examples.<name>.value``
      (following ``$ref``\\s to ``components/examples``), against the sibling ``schema``;
    - OpenAPI 3.1 schema objects: each item of ``examples`` (and a legacy ``example``), against
      that schema;
    - AsyncAPI messages: each ``examples[].payload`` against the message's ``payload``.

    The finding points at the example's line and names the failing keyword. A schema whose
    references do not resolve is skipped (``unresolved-ref`` reports it).

Why is this bad?
    Examples are what readers copy and what mock servers, SDK tests and documentation render. An
    example the schema rejects is either a wrong example or a wrong schema, and it was published
    without anyone noticing (the Agent Feedback Protocol's own first request omits its REQUIRED
    ``protocol_version``).

Example
    ::

        responses:
          '200':
            content:
              application/json:
                schema: {$ref: '../schemas/run-snapshot.schema.json'}   # status: enum [...]
                example: {runId: run-0001, status: paused, updatedAt: '2026-05-01T10:00:00Z'}

    FAIL: ``error [example-invalid] example at /status: 'paused' is not one of [...] (keyword `enum`)``

Use instead
    ::

                example: {runId: run-0001, status: running, updatedAt: '2026-05-01T10:00:00Z'}

    PASS.

Options
    None.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from jsonschema import Draft202012Validator
from referencing.exceptions import Unresolvable

from speclint.corpus import Corpus, Document, DocumentKind
from speclint.findings import Finding, Severity
from speclint.references import file_uri
from speclint.structured import escape_token, join_pointer
from speclint.validation import explain, short_message

ID = "example-invalid"
SEVERITY = Severity.ERROR
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    registry = corpus.references.registry
    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        pairs = (
            openapi_examples(document)
            if document.kind is DocumentKind.OPENAPI
            else asyncapi_examples(document)
        )
        for schema_pointer, example_pointer, value in pairs:
            uri = f"{file_uri(document.path)}#{schema_pointer}"
            validator = Draft202012Validator({"$ref": uri}, registry=registry)
            try:
                errors = sorted(
                    validator.iter_errors(value), key=lambda e: list(map(str, e.absolute_path))
                )
            except Unresolvable:
                continue
            if not errors:
                continue
            specific = explain(errors[0])
            where = "".join(f"/{escape_token(t)}" for t in specific.absolute_path) or "/"
            more = (
                f" (and {len(errors) - 1} more error{'s' if len(errors) > 2 else ''})"
                if len(errors) > 1
                else ""
            )
            yield Finding(
                ID,
                SEVERITY,
                f"example at {where}: {short_message(specific)}{more}; it fails the schema at "
                f"`{schema_pointer}`: fix the example, or the schema if the example shows what the "
                "API really does",
                document.location(example_pointer),
                related=(document.location(schema_pointer, note="the schema it fails"),),
                key=example_pointer,
            )


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _resolve_local(document: Document, node: Any) -> Any:
    """Follow a same-document ``$ref`` (``#/components/examples/x``)."""
    reference = node.get("$ref") if isinstance(node, dict) else None
    if isinstance(reference, str) and reference.startswith("#/"):
        current: Any = document.data
        for token in reference[2:].split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            current = current.get(token) if isinstance(current, dict) else None
        return current
    return node


def _holder_examples(
    document: Document, holder: dict[str, Any], at: str
) -> Iterator[tuple[str, str, Any]]:
    """Examples of a media type or parameter object, against its ``schema``."""
    if "schema" not in holder:
        return
    schema_at = join_pointer(at, "schema")
    if "example" in holder:
        yield schema_at, join_pointer(at, "example"), holder["example"]
    for name, example in sorted(_mapping(holder.get("examples")).items()):
        resolved = _resolve_local(document, example)
        if isinstance(resolved, dict) and "value" in resolved:
            pointer = join_pointer(join_pointer(at, "examples"), name)
            if "$ref" not in _mapping(example):
                pointer = join_pointer(pointer, "value")
            yield schema_at, pointer, resolved["value"]


def openapi_examples(document: Document) -> Iterator[tuple[str, str, Any]]:
    """(schema pointer, example pointer, example value) for every example in an OpenAPI document."""
    data = document.data
    paths = _mapping(data.get("paths"))
    for route, item in sorted(paths.items()):
        base = join_pointer("/paths", route)
        item = _mapping(item)
        for index, parameter in enumerate(item.get("parameters") or []):
            if isinstance(parameter, dict):
                yield from _holder_examples(
                    document, parameter, join_pointer(join_pointer(base, "parameters"), index)
                )
        for method in HTTP_METHODS:
            operation = _mapping(item.get(method))
            at = join_pointer(base, method)
            for index, parameter in enumerate(operation.get("parameters") or []):
                if isinstance(parameter, dict):
                    yield from _holder_examples(
                        document, parameter, join_pointer(join_pointer(at, "parameters"), index)
                    )
            body = _mapping(operation.get("requestBody"))
            for media, entry in sorted(_mapping(body.get("content")).items()):
                where = join_pointer(
                    join_pointer(join_pointer(at, "requestBody"), "content"), media
                )
                yield from _holder_examples(document, _mapping(entry), where)
            for status, response in sorted(_mapping(operation.get("responses")).items()):
                for media, entry in sorted(_mapping(_mapping(response).get("content")).items()):
                    where = join_pointer(
                        join_pointer(
                            join_pointer(join_pointer(at, "responses"), status), "content"
                        ),
                        media,
                    )
                    yield from _holder_examples(document, _mapping(entry), where)
    if str(data.get("openapi", "")).startswith("3.1"):
        yield from _schema_examples(data, "")


def _schema_examples(node: Any, pointer: str) -> Iterator[tuple[str, str, Any]]:
    """OpenAPI 3.1 Schema Objects are 2020-12 schemas: their ``examples`` must pass them."""
    if isinstance(node, dict):
        if "schema" in node and isinstance(node["schema"], dict):
            yield from _schema_tree_examples(node["schema"], join_pointer(pointer, "schema"))
        for key, child in node.items():
            if key == "schema":
                continue
            if key == "schemas" and pointer == "/components" and isinstance(child, dict):
                for name, schema in sorted(child.items()):
                    yield from _schema_tree_examples(
                        schema, join_pointer(join_pointer(pointer, key), name)
                    )
                continue
            if key in {"example", "examples"}:
                continue
            yield from _schema_examples(child, join_pointer(pointer, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _schema_examples(child, join_pointer(pointer, index))


def _schema_tree_examples(schema: Any, pointer: str) -> Iterator[tuple[str, str, Any]]:
    if not isinstance(schema, dict):
        return
    examples = schema.get("examples")
    if isinstance(examples, list):
        for index, value in enumerate(examples):
            yield pointer, join_pointer(join_pointer(pointer, "examples"), index), value
    if "example" in schema:
        yield pointer, join_pointer(pointer, "example"), schema["example"]
    for keyword in ("properties", "patternProperties", "$defs", "dependentSchemas"):
        for name, child in sorted(_mapping(schema.get(keyword)).items()):
            yield from _schema_tree_examples(
                child, join_pointer(join_pointer(pointer, keyword), name)
            )
    for keyword in ("items", "additionalProperties", "not", "if", "then", "else", "contains"):
        yield from _schema_tree_examples(schema.get(keyword), join_pointer(pointer, keyword))
    for keyword in ("allOf", "anyOf", "oneOf", "prefixItems"):
        children = schema.get(keyword)
        for index, child in enumerate(children if isinstance(children, list) else []):
            yield from _schema_tree_examples(
                child, join_pointer(join_pointer(pointer, keyword), index)
            )


def asyncapi_examples(document: Document) -> Iterator[tuple[str, str, Any]]:
    """Message ``examples[].payload`` against the message ``payload`` (AsyncAPI 2.x and 3.x)."""
    data = document.data
    messages: list[tuple[str, dict[str, Any]]] = []
    for name, message in sorted(_mapping(_mapping(data.get("components")).get("messages")).items()):
        messages.append((f"/components/messages/{escape_token(name)}", _mapping(message)))
    for channel, item in sorted(_mapping(data.get("channels")).items()):
        for name, message in sorted(_mapping(_mapping(item).get("messages")).items()):
            messages.append(
                (
                    f"/channels/{escape_token(channel)}/messages/{escape_token(name)}",
                    _mapping(message),
                )
            )
    for at, message in messages:
        if "payload" not in message or "$ref" in message:
            continue
        for index, example in enumerate(message.get("examples") or []):
            if isinstance(example, dict) and "payload" in example:
                where = join_pointer(join_pointer(join_pointer(at, "examples"), index), "payload")
                yield join_pointer(at, "payload"), where, example["payload"]
