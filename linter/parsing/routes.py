"""HTTP routes as prose writes them (issue 46, item 7): read as text, never requested.

A specification's pages name the routes of its API in many shapes: a code span
(``POST /v1/jobs/{id}:cancel``), a bullet list of endpoints, a link's text, the request line of
an ``http`` or ``hurl`` fence (RFC 9112 §3: method SP request-target [SP HTTP-version]), a
``curl`` command in a shell fence, a step of a sequence diagram (Mermaid's ``A->>B: POST
/jobs``, PlantUML's ``A -> B : POST /jobs``). This module reads each of them into a method and
a request target, and splits a target into its host and its path:

- :func:`routes_in_text`: every ``METHOD /path`` (or ``METHOD https://host/path``) in a line
  of text;
- :func:`whole_route`: the route a code span or a link text is, when it is nothing else;
- :func:`request_lines`: the request lines of a fence (with the ``Host`` header beneath one);
- :func:`curl_requests`: the method and URL of each ``curl`` command of a shell fence
  (``speclint.parsing.curl`` reads them);
- :func:`sequence_steps`: the routes of a sequence diagram's messages;
- :func:`split_target`: a target's host (or placeholder) and path, the query and fragment
  dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from speclint.parsing.curl import curl_commands

# RFC 9110 §9: the methods, case-sensitive, registered in capitals. CONNECT and TRACE name no
# resource an API document describes.
METHODS = ("GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS")
_METHOD = "|".join(METHODS)
# What stands for the server before a path: a scheme and host, a template variable
# (`{baseUrl}`, `{{host}}`), a shell variable (`$API`, `${API}`), an angle placeholder.
_SERVER = (
    r"(?:https?://[^\s/`'\"<>)\]]+|\{\{?[A-Za-z_][\w.-]*\}?\}|\$\{?[A-Za-z_]\w*\}?"
    r"|<[A-Za-z][\w. -]*>)"
)
# A path's characters: an angle placeholder (`<name>`) and an optional part (`[/versions/<v>]`,
# read by :func:`optional_forms`) included.
_PATH_CHARS = r"(?:[^\s`'\"<>)\]\[]|<[A-Za-z_][\w.-]*>|\[/[^\s`'\"\]\[]*\])"
_TARGET = rf"(?:{_SERVER}(?:/{_PATH_CHARS}*)?|/{_PATH_CHARS}*)"
# A path written without its leading slash (`v2/models/x/ready`, `run/{run_id}/cancel`): two
# segments or more, each a word, a placeholder or a value; the first no host (no dot).
_SEGMENT = r"(?:[^\s`'\"<>)\]\[/]|<[A-Za-z_][\w.-]*>|\[/[^\s`'\"\]\[]*\])+"
_RELATIVE = re.compile(
    rf"\s*(?:({_METHOD})[ \t]+)?((?:[\w{{}}<>$:-]|<[A-Za-z_][\w.-]*>)+(?:/{_SEGMENT})+/?)\s*\Z"
)
# A file's name (`docs/api.md`, `schemas/job.json`): a path of the repository, not a route.
_FILE = re.compile(
    r"(?i)\.(?:json|ya?ml|md|mdx|markdown|html?|txt|rst|adoc|py|js|ts|tsx|go|rs|java|proto|"
    r"xml|csv|png|svg|jpe?g|gif|sh|toml|ini|cfg|lock|zip|gz|tar|pdf)$"
)
# Front matter that binds a page to an operation: Mintlify's `openapi: "GET /sessions/{id}"`
# (a file of the site first, `openapi: "openapi.yaml GET /x"`; the method in any case), and the
# `api:` key of other themes.
_FRONT_MATTER_ROUTE = re.compile(
    r"^(openapi|api)[ \t]*:[ \t]*['\"]?(?:[^\s'\"]+[ \t]+)?"
    rf"((?i:{_METHOD}))[ \t]+(/[^\s'\"]*)['\"]?[ \t]*$"
)
_FRONT_MATTER = re.compile(r"\A---\r?\n(.*?)\r?\n(?:---|\.\.\.)\r?\n", re.DOTALL)
_OPTIONAL = re.compile(r"\[(/[^\]\[]*)\]")
# A route in running text: a method as a word of its own, then a target. A method followed by
# `/` only after a markup mark (`**POST** /jobs`), or in brackets (`**[POST]** /jobs`, a
# convention of SDK guides), is still one.
_IN_TEXT = re.compile(rf"(?<![\w/.-])\[?({_METHOD})\]?(?:\*\*|__)?[ \t]+`?({_TARGET})")
_WHOLE = re.compile(rf"\s*({_METHOD})[ \t]+({_TARGET})(?:[ \t]+HTTP/\d(?:\.\d)?)?\s*\Z")
# RFC 9112 §3, as transcripts.py reads it, with the target split off.
_REQUEST = re.compile(rf"\s*({_METHOD})[ \t]+({_TARGET})(?:[ \t]+HTTP/\d(?:\.\d)?)?[ \t]*\Z")
_HOST_FIELD = re.compile(r"(?i)\s*host:[ \t]*(\S+)")
_FIELD = re.compile(r"\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+:")
# A sentence's punctuation after a route; a `:` only at the end (`:cancel` is a custom method).
_TRAILING = ".,;:!?"
# Fence languages whose every request line is one; in other fences (a `json` transcript, an
# untagged fence) only a fence that starts with a request line is read as requests.
HTTP_LANGUAGES = frozenset({"http", "hurl", "rest", "restclient", "httpspec"})
SHELL_LANGUAGES = frozenset(
    {"", "sh", "bash", "shell", "console", "zsh", "terminal", "shell-session", "shellsession",
     "curl", "text", "plaintext", "cmd", "powershell", "ps1"}
)  # fmt: skip
SEQUENCE_LANGUAGES = frozenset({"mermaid", "plantuml", "puml"})
# A message of a sequence diagram: `A->>B: text`, `A-->>B: text`, `A-)B: text`, `A -> B : text`.
_STEP = re.compile(r"\s*[^\s:%][^:]*?\s*(?:<)?-{1,2}(?:>>|>|x|\)|\\\\|//)[+-]?\s*[^:]+?\s*:(.*)\Z")


@dataclass(frozen=True)
class Request:
    """A route a text names: the method (upper case), the target as written, and where it is
    (0-based line of the text it was read from, 0-based offset in that line)."""

    method: str
    target: str
    line: int
    offset: int
    host: str = ""  # a `Host` header field under a request line


def clean(target: str) -> str:
    """A target without the sentence's punctuation after it (``/jobs.`` ``/jobs),``)."""
    return target.rstrip(_TRAILING)


def routes_in_text(text: str) -> Iterator[tuple[str, str, int]]:
    """Each ``METHOD target`` of a line of text: (method, target, offset of the method)."""
    for match in _IN_TEXT.finditer(text):
        target = clean(match.group(2))
        if target:
            yield match.group(1), target, match.start(1)


# A path in running text with no method before it (`the /threads/{id}/runs endpoint`): two
# segments or more, not part of a URL, a file's path or a word (`and/or`).
_PATH_IN_TEXT = re.compile(
    rf"(?<![\w/.:~`*-])(/[\w{{}}<>$:%.~-]+(?:/{_PATH_CHARS.replace('/', '')}+)+/?)"
)


def paths_in_text(text: str) -> Iterator[tuple[str, int]]:
    """Each path a line of text names without a method (``the /runs/{id}/stream endpoint``):
    (path, offset); whether the words around it call it a route is the reader's to judge."""
    for match in _PATH_IN_TEXT.finditer(text):
        start = match.start()
        if text[max(0, start - 8) : start].rstrip().upper().endswith(METHODS):
            continue  # `GET /x/y`: routes_in_text's
        path = clean(match.group(1))
        if path.count("/") >= 2 and not is_file(path):
            yield path, match.start(1)


# A path of one segment in a sentence (`used with /jobs_status to ...`): a lower-case name, not
# followed by another segment, a dot or a word character.
_SEGMENT_IN_TEXT = re.compile(
    r"(?<![\w/.:~`*<>{}-])(/[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+)(?![\w/.{<-])"
)


def segments_in_text(text: str) -> Iterator[tuple[str, int]]:
    """Each path of one segment a line of text names, spelt as an API's route names often are
    (words joined by ``_`` or ``-``: ``/asyncquery_status``, ``/meta-graph``), never a
    filesystem root (``/tmp``, ``/etc``: one word); whether the words around it call it a route
    is the reader's to judge, as for :func:`paths_in_text`."""
    for match in _SEGMENT_IN_TEXT.finditer(text):
        start = match.start()
        if text[max(0, start - 8) : start].rstrip().upper().endswith(METHODS):
            continue  # `GET /x`: routes_in_text's
        yield match.group(1), start


def whole_route(text: str) -> tuple[str, str] | None:
    """The (method, target) ``text`` is when it is a route and nothing else (a code span
    ``GET /jobs/{id}``, a link text ``POST /jobs``), else None."""
    match = _WHOLE.match(text)
    if match is None:
        return None
    return match.group(1), clean(match.group(2))


def relative_route(text: str) -> tuple[str, str] | None:
    """The (method or "", path) ``text`` is when it is a path written without its leading slash
    (``v2/models/x/ready``, ``POST run/{run_id}/cancel``) and nothing else, not a file's name;
    whether it is a route depends on the API (``speclint.analyses.api.routes``)."""
    match = _RELATIVE.match(text)
    if match is None:
        return None
    path = clean(match.group(2))
    if _FILE.search(path) or "://" in path or path.count("/") < 1:
        return None
    return match.group(1) or "", path


def is_file(path: str) -> bool:
    """Whether a path names a file (its last segment has a file's extension)."""
    return _FILE.search(path.rstrip("/")) is not None


def front_matter_routes(text: str) -> Iterator[Request]:
    """The operation a page's YAML front matter binds it to (``openapi: "GET /sessions/{id}"``),
    the method upper-cased; ``line`` is 0-based in the page."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return
    for number, line in enumerate(match.group(1).split("\n"), start=1):
        found = _FRONT_MATTER_ROUTE.match(line.rstrip("\r"))
        if found is not None:
            yield Request(found.group(2).upper(), found.group(3), number, found.start(2))


def optional_forms(target: str) -> tuple[str, ...]:
    """The routes a target with optional parts (``/models/<m>[/versions/<v>]/infer``) stands
    for: with every part, and without them; the target alone when it has none."""
    if _OPTIONAL.search(target) is None:
        return (target,)
    return (_OPTIONAL.sub(r"\1", target), _OPTIONAL.sub("", target))


def request_lines(language: str, text: str) -> Iterator[Request]:
    """The requests of a fence: in an HTTP fence (``http``, ``hurl``, REST Client's) every
    request line; in another, the request lines of a fence that starts with one (a transcript
    shown in a ``json`` fence). A ``Host`` header field under a request line is its host."""
    lines = text.split("\n")
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return
    if language not in HTTP_LANGUAGES and not _REQUEST.match(lines[first]):
        return
    for number, line in enumerate(lines):
        match = _REQUEST.match(line)
        if match is None:
            continue
        host = ""
        for field in lines[number + 1 :]:
            if not _FIELD.match(field):
                break
            found = _HOST_FIELD.match(field)
            if found is not None:
                host = found.group(1)
                break
        yield Request(match.group(1), match.group(2), number, match.start(1), host)


_GLUED_PLACEHOLDER = re.compile(r"(?<=[/=])<([A-Za-z_][\w-]*)>")


def curl_requests(text: str) -> Iterator[Request]:
    """The method and URL of each ``curl`` command of a shell fence's ``text``, read as curl
    reads them (``speclint.parsing.curl``); a method or URL held in a shell variable is not
    read."""
    for command in curl_commands(text):
        if command.url is None or command.method not in METHODS:
            continue  # `-X "$METHOD"`: not known here
        # Where the URL is written: its text within its word (a quote before it left out).
        at = text.find(command.url.text, command.url.start, command.url.stop)
        at = command.url.start if at < 0 else at
        line = text.count("\n", 0, at)
        offset = at - (text.rfind("\n", 0, at) + 1)
        # `…/runs/<run_id>`: a placeholder documentation writes in a URL, a path variable.
        url = _GLUED_PLACEHOLDER.sub(r"{\1}", command.url.text)
        if not re.match(rf"{_SERVER}|/|[\w.-]+(?::\d+)?/", url):
            continue
        if not url.startswith(("/", "http://", "https://", "{", "$", "<")):
            url = "http://" + url  # `curl localhost:8080/jobs`: curl's default scheme
        yield Request(command.method, url, line, offset)


def sequence_steps(text: str) -> Iterator[Request]:
    """The routes of a sequence diagram's messages (``Client->>API: POST /jobs``)."""
    for number, line in enumerate(text.split("\n")):
        match = _STEP.match(line)
        if match is None:
            continue
        for method, target, offset in routes_in_text(match.group(1)):
            yield Request(method, target, number, match.start(1) + offset)


@dataclass(frozen=True)
class Target:
    """A request target split: ``host`` is the URL's host (lower case, no port), ``"{}"`` for a
    placeholder standing for the server (``{baseUrl}``, ``$API``), or ``""`` when the target is
    a path alone; ``path`` is the path without its query and fragment."""

    host: str
    path: str


def split_target(target: str) -> Target:
    target = target.split("#", 1)[0].split("?", 1)[0]
    scheme = re.match(r"https?://([^/]*)", target)
    if scheme is not None:
        authority = scheme.group(1).rsplit("@", 1)[-1]
        host = re.sub(r":\d*$", "", authority).lower()
        rest = target[scheme.end() :]
        if re.search(r"[{$<]", host):
            host = "{}"
        return Target(host, rest or "/")
    server = re.match(_SERVER, target)
    if server is not None:
        return Target("{}", target[server.end() :] or "/")
    return Target("", target)
