"""Links into an API reference that Swagger UI or Redoc renders from an OpenAPI document.

Such a page's anchors are not headings: the renderer makes them from the document's tags and
operations (issue 45, item 4), and a link names one by its deep link:

- Swagger UI (``deepLinking``): ``#/{tag}`` and ``#/{tag}/{operationId}``; an operation without
  ``operationId`` is named by its method and path (``#/default/get_things`` for ``GET
  /things``, untagged operations falling under ``default``); spaces in a tag are ``_`` or
  ``%20``;
- Redoc: ``#tag/{tag}``, ``#tag/{tag}/operation/{operationId}``, ``#operation/{operationId}``,
  ``#tag/{tag}/paths/{path}/{method}``, and ``#section/...`` / ``#schema/...`` for the
  headings of the document's descriptions and its schemas.

Names are compared by their letters and digits, without regard to case (each renderer escapes
them its own way: Swagger UI ``_`` for what an id cannot hold, Redoc slugs a tag's name). A
``#section/`` link is not judged: its anchors come from Markdown inside the document's
descriptions.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from speclint.analyses.api.operations import api_operations
from speclint.analyses.context import Context
from speclint.parsing.kinds import DocumentKind

SWAGGER = re.compile(r"^/([^/]+)(?:/([^/]+))?/?$")
REDOC = re.compile(r"^(tag|operation|section|schema|model)/(.+)$")
REDOC_OPERATION = re.compile(
    r"^(?P<tag>[^/]+)/(?:operation/(?P<operation>[^/]+)|paths/(?P<path>.+)/(?P<method>[a-z]+))/?$"
)


@dataclass(frozen=True)
class DeepLink:
    """What a fragment names in an API reference: a tag, an operation, or a schema."""

    style: str  # "swagger-ui" or "redoc"
    tag: str = ""
    operation: str = ""
    schema: str = ""
    judged: bool = True  # False for what is not known here (a `#section/` heading)


def deep_link(fragment: str) -> DeepLink | None:
    """The deep link ``fragment`` is, when it has the shape of one: a ``/`` no heading slug
    holds, in Swagger UI's or Redoc's form; None otherwise."""
    swagger = SWAGGER.match(fragment)
    if swagger is not None:
        return DeepLink("swagger-ui", tag=swagger.group(1), operation=swagger.group(2) or "")
    redoc = REDOC.match(fragment)
    if redoc is None:
        return None
    kind, rest = redoc.groups()
    if kind == "operation":
        return DeepLink("redoc", operation=rest.strip("/"))
    if kind in ("schema", "model"):
        return DeepLink("redoc", schema=rest.split("/", 1)[0])
    if kind == "section":
        return DeepLink("redoc", judged=False)
    nested = REDOC_OPERATION.match(rest)
    if nested is None:
        if "/" in rest.strip("/"):
            return DeepLink("redoc", judged=False)  # another part of a tag's section
        return DeepLink("redoc", tag=rest.strip("/"))
    if nested.group("operation"):
        return DeepLink("redoc", tag=nested.group("tag"), operation=nested.group("operation"))
    # `#tag/x/paths/~1things/get`: the operation by its path and method.
    route = nested.group("path").replace("~1", "/").replace("~0", "~")
    return DeepLink("redoc", tag=nested.group("tag"), operation=f"{nested.group('method')} {route}")


def bare(name: str) -> str:
    """A name by its letters and digits, case set aside (``Pet Store``, ``pet_store``)."""
    return "".join(ch for ch in name.replace("%20", " ").casefold() if ch.isalnum())


@dataclass
class ApiNames:
    """The names an OpenAPI document's rendering gives its parts."""

    path: str
    tags: dict[str, str] = field(default_factory=dict)  # bare -> as written
    operations: dict[str, str] = field(default_factory=dict)  # bare -> operationId or label
    schemas: dict[str, str] = field(default_factory=dict)


def api_names(corpus: Context) -> dict[str, ApiNames]:
    """Every OpenAPI document's tags, operations and schemas, by path. Made once per run."""
    cached = corpus.memo.get("api_names")
    if cached is not None:
        return cast(dict[str, ApiNames], cached)
    found: dict[str, ApiNames] = {}
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        data = document.data
        if not isinstance(data, dict):
            continue
        names = found[document.path] = ApiNames(document.path)
        for tag in data.get("tags") or () if isinstance(data.get("tags"), list) else ():
            if isinstance(tag, dict) and isinstance(tag.get("name"), str):
                names.tags[bare(tag["name"])] = tag["name"]
        components = data.get("components") if isinstance(data.get("components"), dict) else {}
        schemas = components.get("schemas") if isinstance(components, dict) else None
        definitions = data.get("definitions")  # Swagger 2.0
        for holder in (schemas, definitions):
            for name in holder if isinstance(holder, dict) else ():
                names.schemas[bare(str(name))] = str(name)
    for operation in api_operations(corpus):
        names = found[operation.document.path]
        label = f"{operation.method} {operation.path}"
        if operation.identifier:
            names.operations[bare(operation.identifier)] = operation.identifier
        # Swagger UI's id for it without an operationId (`get_things`), Redoc's path form.
        names.operations.setdefault(bare(label), label)
        for tag in operation.tags:
            names.tags.setdefault(bare(tag), tag)
        if not operation.tags:
            names.tags.setdefault("default", "default")  # Swagger UI's group of the untagged
    corpus.memo["api_names"] = found
    return found


@dataclass(frozen=True)
class Missing:
    """What a deep link names that the documents lack, and the closest name they have."""

    what: str  # "operation", "tag" or "schema"
    name: str
    guess: str | None


def judge(link: DeepLink, documents: Iterable[ApiNames]) -> Missing | None:
    """What ``link`` names that none of ``documents`` has (the operation first, then the tag),
    or None when it names something they have."""
    documents = list(documents)
    if not link.judged:
        return None
    if link.operation:
        return _missing("operation", link.operation, [d.operations for d in documents])
    if link.schema:
        return _missing("schema", link.schema, [d.schemas for d in documents])
    if link.tag:
        return _missing("tag", link.tag, [d.tags for d in documents])
    return None


def _missing(what: str, name: str, tables: list[dict[str, str]]) -> Missing | None:
    wanted = bare(name)
    if any(wanted in table for table in tables):
        return None
    written = sorted(
        {v for table in tables for v in table.values() if " " not in v or what != "operation"}
    )
    close = difflib.get_close_matches(name, written, n=1, cutoff=0.6)
    if not close:
        by_bare = {bare(v): v for v in written}
        close = [
            by_bare[b] for b in difflib.get_close_matches(wanted, sorted(by_bare), n=1, cutoff=0.6)
        ]
    return Missing(what, name, close[0] if close else None)
