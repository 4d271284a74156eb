"""The HTTP operations of the corpus's OpenAPI documents, and the ones prose names.

Specification pages show a request or a response under the operation they describe: a heading
"``POST /v1/runs`` request", a paragraph "The server answers `GET /tasks/{id}` with:". An example
there is an instance of that operation's request body or response schema (issue 28, item 1), so
the example binding reads the operation named by the fence's heading or the paragraph above it.

An operation is named by its method and path as OpenAPI writes them (OpenAPI 3.1 §4.8.8: a path
is relative to a Server Object's URL, so a path written with the server's base path,
``/api/v2/users`` for ``/users`` under ``https://host/api/v2``, names it too). Path templates
match whatever their variables are called (``/runs/{id}`` and ``/runs/{runId}`` are one path).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit

from speclint.analyses.context import Context
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import follow_local, join_pointer

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# "POST /v1/runs", "`GET /tasks/{id}`": a method in capitals, then a path.
_NAMED = re.compile(r"\b(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE)\s+`?(/[^\s`?#]*)")
# A path template's variable, `{name}` (OpenAPI 3.1.1 §4.8.8.2 Path Templating).
TEMPLATE = re.compile(r"\{[^{}]*\}")
# Media types whose bodies are JSON (RFC 6839's +json suffix included).
_JSON_MEDIA = re.compile(r"^application/(?:[\w.-]+\+)?json\b|^\*/\*$")


@dataclass(frozen=True)
class Body:
    """A schema an operation sends or answers with: where it is and what it is."""

    document: Document
    pointer: str  # JSON pointer of the Schema Object in ``document``
    direction: str  # "request" | "response"
    status: str  # the response's status code ("" for the request body)


@dataclass(frozen=True)
class Operation:
    document: Document
    method: str  # lower case, as OpenAPI keys it
    path: str  # as the Paths Object writes it
    pointer: str  # JSON pointer of the Operation Object
    bodies: tuple[Body, ...]
    identifier: str = ""  # its operationId ("" when it has none)
    tags: tuple[str, ...] = ()  # the tags it is listed under (what an API reference groups by)

    @property
    def label(self) -> str:
        return f"{self.method.upper()} {self.path}"

    def of(self, direction: str) -> tuple[Body, ...]:
        """The request body schema, or the success (2xx) response schemas."""
        return tuple(b for b in self.bodies if b.direction == direction)


def api_operations(corpus: Context) -> tuple[Operation, ...]:
    """Every operation of the corpus's OpenAPI documents with its JSON bodies. Built once."""
    cached = corpus.memo.get("api_operations")
    if cached is not None:
        return cast(tuple[Operation, ...], cached)
    found: list[Operation] = []
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        data = document.data
        paths = data.get("paths") if isinstance(data, dict) else None
        for route, item in sorted(paths.items()) if isinstance(paths, dict) else ():
            if not isinstance(item, dict):
                continue
            for method in HTTP_METHODS:
                operation = item.get(method)
                if isinstance(operation, dict):
                    pointer = join_pointer(join_pointer("/paths", str(route)), method)
                    bodies = tuple(_bodies(document, pointer, operation))
                    identifier = operation.get("operationId")
                    tags = operation.get("tags")
                    found.append(
                        Operation(
                            document,
                            method,
                            str(route),
                            pointer,
                            bodies,
                            identifier if isinstance(identifier, str) else "",
                            tuple(t for t in tags if isinstance(t, str))
                            if isinstance(tags, list)
                            else (),
                        )
                    )
    result = tuple(found)
    corpus.memo["api_operations"] = result
    return result


def _bodies(document: Document, pointer: str, operation: dict[str, Any]) -> Iterator[Body]:
    # A body given by a `$ref` (a Reference Object to a component) is pointed at where it is
    # written, so that its schema's pointer resolves.
    at, request = follow_local(
        document.data, operation.get("requestBody"), f"{pointer}/requestBody"
    )
    for media_pointer in _json_media(request):
        yield Body(document, f"{at}{media_pointer}/schema", "request", "")
    responses = operation.get("responses")
    for status, response in sorted(responses.items()) if isinstance(responses, dict) else ():
        # Only a success answers what the operation does; an error body is another shape.
        if not str(status).startswith("2"):
            continue
        status_pointer = join_pointer(f"{pointer}/responses", str(status))
        at, response = follow_local(document.data, response, status_pointer)
        for media_pointer in _json_media(response):
            yield Body(document, f"{at}{media_pointer}/schema", "response", str(status))


def _json_media(holder: Any) -> Iterator[str]:
    """The pointers (under ``holder``) of its JSON media types that carry a schema."""
    content = holder.get("content") if isinstance(holder, dict) else None
    for media, entry in sorted(content.items()) if isinstance(content, dict) else ():
        if _JSON_MEDIA.match(str(media)) and isinstance(entry, dict) and "schema" in entry:
            yield join_pointer("/content", str(media))
            return  # one media type of a body is enough: the others carry the same shape


def named_operations(corpus: Context, text: str) -> tuple[Operation, ...]:
    """The operations ``text`` names by method and path (each once, in the order named)."""
    named: dict[str, Operation] = {}
    for method, written in _NAMED.findall(text):
        path = written.rstrip(".,;:)")  # the sentence's punctuation, not the path's
        for operation in api_operations(corpus):
            if operation.method == method.lower() and _same_path(operation, path):
                named.setdefault(operation.document.path + operation.pointer, operation)
    return tuple(named.values())


def _same_path(operation: Operation, written: str) -> bool:
    wanted = TEMPLATE.sub("{}", written.rstrip("/") or "/")
    route = TEMPLATE.sub("{}", operation.path.rstrip("/") or "/")
    return wanted == route or any(
        wanted == (base + route if route != "/" else base or "/")
        for base in base_paths(operation.document)
    )


def base_paths(document: Document) -> tuple[str, ...]:
    """The path parts of the document's server URLs (``/api/v2``): a server variable read as
    its default (OpenAPI 3.1 §4.8.6) and, where it has none, as a ``{}`` template; and Swagger
    2.0's ``basePath``."""
    data = document.data if isinstance(document.data, dict) else {}
    servers = data.get("servers")
    found = []
    for server in servers if isinstance(servers, list) else ():
        url = server.get("url") if isinstance(server, dict) else None
        if not isinstance(url, str):
            continue
        variables = server.get("variables")
        for name, variable in variables.items() if isinstance(variables, dict) else ():
            default = variable.get("default") if isinstance(variable, dict) else None
            if isinstance(default, str):
                url = url.replace("{" + str(name) + "}", default)
        path = urlsplit(url).path if "://" in url else url
        path = TEMPLATE.sub("{}", path.rstrip("/"))
        if path:
            found.append(path)
    if isinstance(data.get("basePath"), str) and data["basePath"].rstrip("/"):
        found.append(data["basePath"].rstrip("/"))
    return tuple(found)
