"""The OpenAPI operation an HTTP exchange on a page calls, and the examples it binds (issue 46,
item 2).

A page that shows a call (an ``http``/``hurl`` fence, a ``curl`` command, a request line:
``speclint.parsing.http_requests``) names an operation by its method and concrete path: the
path matches an operation's templated one (``/jobs/job-42`` is ``/jobs/{jobId}``, OpenAPI 3.1
§4.8.8.2: a concrete path is matched before a templated one), the query string dropped, below
a server's base path (§4.8.5: a path is relative to the Server Object's URL), among the
operations of the page's version line. Then:

- the body the request fence itself shows is that operation's request body; under a GET or
  HEAD request line, with no status line between, where the operation takes no request body,
  it is the answer (RFC 9110 §9.3.1: a GET's content has no defined meaning);
- each JSON or YAML fence after it, up to the next request or heading, is its request body or
  one of its responses as the fence says (a status line, ``HTTP/1.1 201 Created``: the 201
  response) or the words just above it ("Response:", "returns", "Request body:", "a `404`
  response"). Where nothing says which, it binds nothing: a guess would report the example's
  fit to a schema it may not be an instance of.

Not bound: a URL to a host that leaves out the documented API's base path (another service with
a path alike), a page kept for an API as it was (an ``obsolete/`` folder, an archive), a body
whose schema is closed over members only its ``allOf`` declares (it takes no member:
unsatisfiable-schema's one finding, not each example's). Every example of such a fence that is
not bound says why (:attr:`Exchanges.unbound`).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import unquote

from speclint.analyses.api.operations import TEMPLATE, Operation, api_operations, base_paths
from speclint.analyses.context import Context
from speclint.model.corpus import Document
from speclint.parsing.http_requests import Request, fence_request
from speclint.parsing.inlined import content_digest
from speclint.parsing.kinds import in_design_folder, in_record_folder, in_superseded_folder
from speclint.parsing.prose import CodeFence, Paragraph
from speclint.parsing.structured import follow_local, join_pointer, resolve_pointer

# The fences an example after a request may be in (as example-invalid reads them).
# The languages of a fence that may be an example (untagged: judged by what it holds).
EXAMPLE_LANGUAGES = ("json", "jsonc", "yaml", "yml", "")
_JSON_MEDIA = re.compile(r"^application/(?:[\w.-]+\+)?json\b|^\*/\*$")
# What the words above a fence say it shows. "Response body" is a response, whatever "body"
# says alone.
_RESPONSE_WORDS = re.compile(
    r"\b(response body|responses?|returns?|returned|responds?|answers?|replies|reply|output)\b",
    re.IGNORECASE,
)
_REQUEST_WORDS = re.compile(
    r"\b(request body|request payload|requests?|payload|body|sends?|input)\b", re.IGNORECASE
)
# A status code the words name (`201`, "a 404 response").
# RFC 9112 §4's status line, and Hurl's (`HTTP 201`).
_STATUS_LINE = re.compile(r"HTTP(?:/\d(?:\.\d)?)?[ \t]+([1-5]\d\d)(?:[ \t].*)?\Z")
_STATUS = re.compile(r"(?<![\w./-])([1-5]\d\d)(?![\w./-])")


# Folders of pages kept for an API as it was (`includes/obsolete/get-account-detail-v2.md`):
# their calls show older versions of the operations the API documents now.
@dataclass(frozen=True)
class ExchangeTie:
    """An example bound by the exchange it is part of."""

    fence: CodeFence  # the example as it is read: a request's body alone, lines kept
    request_line: int  # the line of the request fence (where the tie is written)
    operation: Operation
    document: Document  # the schema's document (the operation's)
    pointer: str  # JSON pointer of the Schema Object there
    evidence: str  # "after `curl -X POST …/v1/jobs`, `POST /jobs`'s 201 response"
    by_words: bool  # the side was said by the words above the fence (not a status line)


@dataclass(frozen=True)
class Exchanges:
    """A page's examples bound by an exchange (by fence line), and those an exchange could have
    bound that are not, with why."""

    ties: Mapping[int, tuple[ExchangeTie, ...]]
    unbound: Mapping[int, str]


@dataclass(frozen=True)
class _Page:
    """What a page's requests give: the examples their exchanges bind, and the parameter values
    their targets give (one walk of the page's fences)."""

    exchanges: Exchanges
    values: tuple[ParameterValue, ...]


def page_exchanges(corpus: Context, document: Document) -> Exchanges:
    """The page's exchanges, made once per run (the rule and ``speclint bindings`` ask)."""
    return _page(corpus, document).exchanges


def _page(corpus: Context, document: Document) -> _Page:
    key = f"exchanges:{document.path}"
    found = corpus.memo.get(key)
    if not isinstance(found, _Page):
        found = _walk(corpus, document)
        corpus.memo[key] = found
    return found


def _walk(corpus: Context, document: Document) -> _Page:
    prose = document.prose
    ties: dict[int, list[ExchangeTie]] = {}
    unbound: dict[int, str] = {}
    values: list[ParameterValue] = []
    if (
        prose is None
        or in_design_folder(document.path)
        or in_record_folder(document.path)
        or in_superseded_folder(document.path)
    ):
        return _Page(Exchanges({}, {}), ())
    candidates: tuple[Operation, ...] | None = None  # read at the page's first request
    paragraphs = sorted(prose.paragraphs, key=lambda p: p.end_line)
    ends = [p.end_line for p in paragraphs]
    current: tuple[CodeFence, Request, tuple[Operation, ...], str] | None = None
    since = 0  # the last line of the fence before
    for fence in prose.fences:
        previous, since = since, fence.end_line
        request = fence_request(fence.language, fence.content)
        if request is not None:
            if candidates is None:
                candidates = _operations(corpus, document)
            if not candidates:
                return _Page(Exchanges({}, {}), ())  # no API document of its version to call
            operations, why = _called(corpus, candidates, request)
            current = (fence, request, operations, why)
            _request_bodies(fence, request, operations, why, ties, unbound)
            if request.target:
                values += _values(fence, request, operations, paragraphs, ends, previous)
            continue
        if current is None:
            continue
        asking, request, operations, why = current
        if _heading_line(fence) != _heading_line(asking):
            current = None
            continue
        status, by_words = _status_line(fence)
        if not status and (
            fence.language not in EXAMPLE_LANGUAGES
            or (fence.language == "" and not fence.content.lstrip().startswith(("{", "[")))
        ):
            continue
        after = f"after `{request.shown}`"
        if not operations:
            unbound[fence.line] = f"{after}, which {why}"
            continue
        content = fence.content
        if status:
            body = _status_body(fence)
            if body is None:
                continue
            content = body
            direction = "response"
        else:
            # The fence's own title first (```` ```json Response ````, ``title="200 OK"``: a
            # documentation site's code group labels each fence), then the words above it.
            direction, status = _said(_title(fence), operations)
            if not direction:
                words = _words_above(paragraphs, ends, fence, previous)
                direction, status = _said(words, operations)
            if not direction:
                unbound[fence.line] = (
                    f"{after}, but nothing above it says whether it is the request body or a "
                    "response"
                )
                continue
        example = replace(fence, content=content, language=_body_language(fence, content))
        bound, why_not = _bind(operations, direction, status)
        if bound is None:
            unbound[fence.line] = f"{after}: {why_not}"
            continue
        operation, pointer, side = bound
        ties.setdefault(fence.line, []).append(
            ExchangeTie(
                example,
                asking.line,
                operation,
                operation.document,
                pointer,
                f"{after}, `{operation.label}`'s {side}",
                by_words,
            )
        )
    return _Page(Exchanges({k: tuple(v) for k, v in ties.items()}, unbound), tuple(values))


def _request_bodies(
    fence: CodeFence,
    request: Request,
    operations: tuple[Operation, ...],
    why: str,
    ties: dict[int, list[ExchangeTie]],
    unbound: dict[int, str],
) -> None:
    """The bodies a request fence shows itself: its request's and its responses' (a transcript
    of both)."""
    for message in request.messages:
        if not message.body.strip():
            continue
        if not operations:
            unbound.setdefault(fence.line, f"`{request.shown}` {why}")
            continue
        direction = "response" if message.status else "request"
        where = "its body" if not message.status else f"its `{message.status}` body"
        if _answer_shown_as_body(request, operations, message.status):
            direction, where = "response", "the body shown as its answer"
        bound, why_not = _bind(operations, direction, message.status)
        if bound is None:
            unbound.setdefault(fence.line, f"`{request.shown}`: {why_not}")
            continue
        operation, pointer, side = bound
        example = replace(fence, content=message.body, language=_body_language(fence, message.body))
        ties.setdefault(fence.line, []).append(
            ExchangeTie(
                example,
                fence.line,
                operation,
                operation.document,
                pointer,
                f"{where} in `{request.shown}`, `{operation.label}`'s {side}",
                False,
            )
        )


# Methods whose request content has no defined semantics (RFC 9110 §9.3.1 GET, §9.3.2 HEAD).
_BODILESS_METHODS = frozenset({"GET", "HEAD"})


def _answer_shown_as_body(request: Request, operations: tuple[Operation, ...], status: str) -> bool:
    """Whether the body a fence shows under a request line, with no status line between, is the
    answer: "GET /sequence/abc/metadata", an empty line, then the JSON it returns (a page's
    "Example request and response" in one fence). A GET or HEAD request has no content (RFC
    9110 §9.3.1), and where no operation it calls declares a request body, no reading of the
    body but the response is left."""
    return (
        not status
        # A curl command's `-d` body is what it sends, whatever the method (`curl -X GET -d`).
        and not request.shown.startswith("curl ")
        and request.method in _BODILESS_METHODS
        and bool(operations)
        and not any(o.of("request") for o in operations)
    )


def _heading_line(fence: CodeFence) -> int:
    return fence.heading.line if fence.heading is not None else 0


def _body_language(fence: CodeFence, content: str) -> str:
    """How a body is read: as JSON where it opens an object or array, else as YAML."""
    if fence.language in ("json", "jsonc", "yaml", "yml"):
        return fence.language
    return "json" if content.lstrip().startswith(("{", "[")) else "yaml"


def _status_line(fence: CodeFence) -> tuple[str, bool]:
    """The status code a fence's first line gives (``HTTP/1.1 201 Created``), if it does; and
    whether the side is left to the words above (it is, where the fence gives none)."""
    first = next((line for line in fence.content.split("\n") if line.strip()), "")
    found = _STATUS_LINE.match(first.strip())
    return (found.group(1), False) if found else ("", True)


def _status_body(fence: CodeFence) -> str | None:
    """The body of a fence holding a response (status line, header fields, body)."""
    request = fence_request("http", "GET /\n" + fence.content)
    if request is None or len(request.messages) < 2 or not request.messages[1].body.strip():
        return None
    return request.messages[1].body.split("\n", 1)[1]  # the line added above dropped


def _title(fence: CodeFence) -> str:
    """What the info string says after the language: Mintlify's ```` ```json Response ````,
    Docusaurus's ``title="Response"``."""
    return fence.info.partition(" ")[2].replace('"', " ").replace("'", " ")


def _words_above(
    paragraphs: list[Paragraph], ends: list[int], fence: CodeFence, since: int
) -> str | None:
    """The words just above the fence that say what it shows: of the paragraphs between the
    fence before and this one, the nearest that says a side ("Response:"), or the nearest
    (a line between, "**Required scope: `read:servers`**", says nothing of it)."""
    nearest = None
    for index in range(bisect_left(ends, fence.line) - 1, -1, -1):
        paragraph = paragraphs[index]
        if paragraph.line <= since:
            break
        nearest = nearest or paragraph.plain
        if _RESPONSE_WORDS.search(paragraph.plain) or _REQUEST_WORDS.search(paragraph.plain):
            return paragraph.plain
    return nearest


def side_said(text: str | None) -> str:
    """The side of an exchange a text says a fence shows, "request" or "response" ("Response
    body:", "returns", "Request payload:"), or "" where it does not say, or says both. The one
    list of these words: the exchange a fence follows and the operation a paragraph names
    (``speclint.analyses.prose.fences``) read them alike."""
    if not text:
        return ""
    response = _RESPONSE_WORDS.search(text)
    request = _REQUEST_WORDS.search(_RESPONSE_WORDS.sub(" ", text))
    if bool(request) == bool(response):
        return ""
    return "request" if request else "response"


def _said(text: str | None, operations: tuple[Operation, ...]) -> tuple[str, str]:
    """The side of the exchange the words say a fence shows, and the status they name: ("", "")
    where they do not say, or say both."""
    side = side_said(text)
    if side != "response":
        return side, ""
    declared = {str(s) for o in operations for s in _responses(o)}
    named = [s for s in _STATUS.findall(text or "") if s in declared]
    return "response", named[0] if len(set(named)) == 1 else ""


def _called(
    corpus: Context, candidates: tuple[Operation, ...], request: Request
) -> tuple[tuple[Operation, ...], str]:
    """The operations a request calls (the most concrete path, OpenAPI 3.1 §4.8.8.2), or why
    there is none."""
    ranked: dict[int, list[Operation]] = {}
    routes: dict[tuple[str, str, bool], tuple[re.Pattern[str], ...]] = corpus.memo.setdefault(
        "exchange_routes", {}
    )
    path = request.path.rstrip("/") or "/"
    for operation in candidates:
        if operation.method.upper() != request.method:
            continue
        key = (operation.document.path, operation.pointer, request.hosted)
        if key not in routes:
            routes[key] = _routes(
                operation, request.hosted
            )  # once a run: a large API has thousands
        if any(pattern.fullmatch(path) for pattern in routes[key]):
            ranked.setdefault(operation.path.count("{"), []).append(operation)
    if not ranked:
        return (), "names no operation of the OpenAPI documents of this page's version line"
    return tuple(ranked[min(ranked)]), ""


def _operations(corpus: Context, document: Document) -> tuple[Operation, ...]:
    """The operations a page's requests may call: those of its version line, not generated."""
    return tuple(
        operation
        for operation in api_operations(corpus)
        if operation.document.path not in corpus.derived
        and corpus.versions.comparable(document.path, operation.document.path)
    )


def _routes(operation: Operation, hosted: bool) -> tuple[re.Pattern[str], ...]:
    """The concrete paths an operation answers, as patterns: its path below each base path of
    its document's servers, and (where no host is written, or its servers have no base path)
    its path alone: an origin-form request line is often written relative to the server, but a
    URL to a host that leaves the base path out is to another service (an admin API beside
    the one documented, with a path alike)."""
    route = operation.path.rstrip("/")
    bases = base_paths(operation.document)
    written = [base + route for base in bases]
    if not (hosted and bases):
        written.append(route or "/")
    return tuple(_pattern(path) for path in written)


def _pattern(template: str) -> re.Pattern[str]:
    parts = TEMPLATE.split(template)
    return re.compile("[^/]+".join(re.escape(part) for part in parts))


def _bind(
    operations: tuple[Operation, ...], direction: str, status: str
) -> tuple[tuple[Operation, str, str] | None, str]:
    """The one schema (identical copies aside) the operations give that side: their request
    body, the response of ``status``, or their success response where no status is said."""
    found: dict[str, tuple[Operation, str, str]] = {}
    for operation in operations:
        if direction == "request":
            places = [(b.pointer, "request body") for b in operation.of("request")]
        elif status:
            places = [
                (pointer, f"{status} response")
                for pointer in [_response_schema(operation, status)]
                if pointer
            ]
        else:
            places = [(b.pointer, f"{b.status} response") for b in operation.of("response")]
        for pointer, side in places:
            schema = resolve_pointer(operation.document.data, pointer)
            if _closed_over_parts(operation.document.data, schema):
                return None, (
                    f"`{operation.label}`'s {side} schema is closed (`additionalProperties: "
                    "false`) over members only its `allOf` declares, so it takes no member: "
                    "unsatisfiable-schema's finding, not each example's"
                )
            digest = json.dumps(schema, sort_keys=True, default=str)
            found.setdefault(digest, (operation, pointer, side))
    labels = ", ".join(sorted({f"`{o.label}`" for o in operations}))
    if not found:
        side = "request body" if direction == "request" else f"{status or 'success'} response"
        return None, f"{labels} has no JSON schema for its {side}"
    if len(found) > 1:
        found = _one_per_content(found)
    if len(found) > 1:
        return None, f"{labels} has several schemas for it (say which status it shows)"
    (bound,) = found.values()
    return bound, ""


def _one_per_content(
    found: dict[str, tuple[Operation, str, str]],
) -> dict[str, tuple[Operation, str, str]]:
    """``found`` (by each schema's text) with the schemas that say the same once their local
    ``$ref``\\s are read as their targets made one: an API document and its dereferenced copy
    (``openapi.yml`` beside the ``openapi.json`` a build inlines) give one operation two texts
    of one schema (issue 46, item 4). Of such copies, the shortest text is kept: the one written
    with ``$ref``\\s, the source the copy is made from."""
    memos: dict[str, dict[str, str]] = {}
    same: dict[str, tuple[str, tuple[Operation, str, str]]] = {}
    for text, bound in sorted(found.items(), key=lambda item: len(item[0])):
        operation, pointer, _ = bound
        data = operation.document.data
        memo = memos.setdefault(operation.document.path, {})
        same.setdefault(content_digest(data, resolve_pointer(data, pointer), memo), (text, bound))
    return dict(same.values())


def _closed_over_parts(root: Any, schema: Any) -> bool:
    """Whether a schema (a local ``$ref`` followed) is closed by ``additionalProperties: false``
    while only its ``allOf`` parts declare members: JSON Schema 2020-12 §10.3.2.3
    (``additionalProperties`` sees only its sibling ``properties``) makes it reject every
    member, so every example fails it for the schema's defect, not its own."""
    schema = follow_local(root, schema)[1]
    return (
        isinstance(schema, dict)
        and schema.get("additionalProperties") is False
        and not schema.get("properties")
        and not schema.get("patternProperties")
        and isinstance(schema.get("allOf"), list)
    )


def _responses(operation: Operation) -> dict[str, Any]:
    node = resolve_pointer(operation.document.data, operation.pointer)
    responses = node.get("responses") if isinstance(node, dict) else None
    return responses if isinstance(responses, dict) else {}


def _response_schema(operation: Operation, status: str) -> str | None:
    """The JSON schema of the response for ``status`` (its own, its range ``2XX``, or
    ``default``: OpenAPI 3.1 §4.8.16), as a pointer into the operation's document."""
    responses = _responses(operation)
    for key in (status, f"{status[0]}XX", f"{status[0]}xx", "default"):
        if key not in responses:
            continue
        at = join_pointer(f"{operation.pointer}/responses", key)
        at, response = follow_local(operation.document.data, responses[key], at)
        content = response.get("content") if isinstance(response, dict) else None
        for media, entry in sorted(content.items()) if isinstance(content, dict) else ():
            if _JSON_MEDIA.match(str(media)) and isinstance(entry, dict) and "schema" in entry:
                return f"{join_pointer(f'{at}/content', str(media))}/schema"
        return None
    return None


@dataclass(frozen=True)
class ParameterValue:
    """A value a concrete request gives a parameter of the operation it calls: a query
    parameter's (``?end=0``) or a path template variable's (``/jobs/job-42`` for ``{jobId}``),
    as written, to be judged against the parameter's schema (issue 46, round 2)."""

    fence: CodeFence
    line: int  # the page's line where the value is written
    column: int  # 1-based
    name: str
    place: str  # "query" | "path" (OpenAPI's `in`)
    value: str  # percent-decoded
    operation: Operation
    pointer: str  # JSON pointer of the parameter's Schema Object in the operation's document
    evidence: str  # "`end=0` in `GET /sequence/…`, `GET /sequence/{id}`'s query parameter"


# A value that stands for one (a placeholder in any notation: `{id}`, `{{id}}`, `<id>`, `:id`,
# `$ID`, `${ID}`, an elision) is not a value to judge.
_STANDS_FOR = re.compile(r"[{}<>$]|\.\.\.|…|^:|^\*$|^x+$", re.IGNORECASE)
# Words beside a request that say it is one to reject: it shows a value the API refuses.
_REFUSED = re.compile(
    r"(?<![\w/.-])(?:4\d\d|bad request|unprocessable|not valid|invalid|rejects?|rejected|"
    r"refuses?|refused|errors?|fails?|not allowed|out of (?:range|bounds))(?![\w-])",
    re.IGNORECASE,
)


def parameter_values(corpus: Context, document: Document) -> tuple[ParameterValue, ...]:
    """The query and path parameter values the page's concrete requests give their operation's
    declared parameters (one operation called, identical copies aside). Not given: values that
    stand for one (placeholders, elisions), serialised lists (``a,b``), parameters of no
    declared schema, and the requests of a fence whose words say it is refused ("returns
    400", "an invalid request") or that shows a 4xx answer. Made once per run, in the walk
    that binds the page's exchanges."""
    return _page(corpus, document).values


def _values(
    fence: CodeFence,
    request: Request,
    operations: tuple[Operation, ...],
    paragraphs: list[Paragraph],
    ends: list[int],
    previous: int,
) -> Iterator[ParameterValue]:
    """The parameter values a request fence's target gives the one operation it calls."""
    distinct = {json.dumps(sorted(_declared(o).items()), default=str) for o in operations}
    if len(distinct) != 1 or _refused(paragraphs, ends, fence, previous, request):
        return
    operation = operations[0]
    declared = _declared(operation)
    at = fence.content.find(request.target)
    if at < 0:
        return
    for name, place, value, offset in _given(operation, request):
        parameter = declared.get((name, place))
        if parameter is None or not value or _STANDS_FOR.search(value) or "," in value:
            continue
        where = at + offset
        line = fence.content.count("\n", 0, where)
        column = where - (fence.content.rfind("\n", 0, where) + 1) + 1
        kind = "query" if place == "query" else "path"
        yield ParameterValue(
            fence,
            fence.line + 1 + line,
            column + fence.margin,
            name,
            place,
            value,
            operation,
            parameter,
            f"`{name}` in `{request.shown}`, `{operation.label}`'s {kind} parameter",
        )


def _refused(
    paragraphs: list[Paragraph], ends: list[int], fence: CodeFence, since: int, request: Request
) -> bool:
    """Whether the words just above a request fence, or an answer it shows, say the request is
    refused: the value it gives is then the point, not a defect."""
    if any(m.status.startswith("4") for m in request.messages):
        return True
    words = _words_above(paragraphs, ends, fence, since)
    return bool(words and _REFUSED.search(words))


def _declared(operation: Operation) -> dict[tuple[str, str], str]:
    """The operation's query and path parameters (its path item's, overridden by its own,
    OpenAPI 3.1 §4.8.9.1), each with the pointer of its Schema Object; a parameter given by a
    local ``$ref`` is read where it leads. Parameters with no ``schema`` (a ``content`` map,
    Swagger 2.0's inline types) are left out."""
    data = operation.document.data
    item = operation.pointer.rsplit("/", 1)[0]
    found: dict[tuple[str, str], str] = {}
    for holder in (item, operation.pointer):
        listed = resolve_pointer(data, f"{holder}/parameters")
        for index in range(len(listed) if isinstance(listed, list) else 0):
            at, parameter = follow_local(data, listed[index], f"{holder}/parameters/{index}")
            if not isinstance(parameter, dict) or not isinstance(parameter.get("schema"), dict):
                continue
            name, place = parameter.get("name"), parameter.get("in")
            if isinstance(name, str) and place in ("query", "path"):
                found[(name, str(place))] = f"{at}/schema"
    return found


def _given(operation: Operation, request: Request) -> Iterator[tuple[str, str, str, int]]:
    """Each parameter value the request's target gives: (name, "query" or "path", the value
    percent-decoded, its offset in the target as written)."""
    target = request.target.strip("'\"")
    offset = request.target.find(target)
    path_end = len(re.split(r"[?#]", target, maxsplit=1)[0])
    template = operation.path.rstrip("/")
    variables = TEMPLATE.findall(template)
    if variables:
        parts = TEMPLATE.split(template)
        pattern = "([^/]+)".join(re.escape(part) for part in parts)
        found = re.search(f"{pattern}/?$", target[:path_end])
        for index, variable in enumerate(variables if found else ()):
            assert found is not None
            yield (
                variable[1:-1],
                "path",
                unquote(found.group(index + 1)),
                offset + found.start(index + 1),
            )
    if path_end < len(target) and target[path_end] == "?":
        start = path_end + 1
        query = target[start:].split("#", 1)[0]
        for pair in query.split("&"):
            name, equals, value = pair.partition("=")
            if equals and name:
                yield (
                    unquote(name),
                    "query",
                    unquote(value.replace("+", " ")),
                    offset + start + len(name) + 1,
                )
            start += len(pair) + 1
