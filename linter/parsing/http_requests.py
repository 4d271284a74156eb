"""The HTTP request a code fence shows, read as text, never sent (issue 46, item 2).

Specification pages show a call to their API in one of three ways:

- an HTTP transcript, in an ``http`` or ``hurl`` fence or any fence whose first line is a
  request line (RFC 9112 §3: ``POST /api/v2/jobs HTTP/1.1``; the version is often left out,
  ``GET /jobs/job-42?view=FULL``), then header fields and, after an empty line, the body
  (RFC 9112 §2.1); a response may follow in the same fence, from its status line
  (``HTTP/1.1 201 Created``, or Hurl's ``HTTP 201``);
- a ``curl`` command in a shell fence, read as curl reads it (``speclint.parsing.curl``: the
  method, the URL, the body from ``-d``/``--data*``/``--json``).

:func:`fence_request` gives what the fence asks (method, the concrete path, how evidence quotes
it) and each body it shows, as the fence's text with everything else blanked, so that lines and
columns stay the fence's own and an example bound to a body is located where it is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from speclint.parsing.curl import Word, curl_commands
from speclint.parsing.transcripts import (
    STRUCTURED_MEDIA,
    header_fields,
    starts_message,
)

# RFC 9112 §3: request-line = method SP request-target SP HTTP-version (the version optional,
# as documentation writes it). A line ending in `:` is a YAML key, not a request.
_REQUEST_LINE = re.compile(
    r"([A-Z][A-Z-]{1,15})[ \t]+((?:/|\*|https?://|\{|\$)\S*)(?<!:)(?:[ \t]+HTTP/\d(?:\.\d)?)?[ \t]*\Z"
)
# RFC 9112 §4: status-line = HTTP-version SP status-code SP [ reason-phrase ]; Hurl writes
# `HTTP 200` (any version) and `HTTP/2 200`.
_STATUS_LINE = re.compile(r"HTTP(?:/\d(?:\.\d)?)?[ \t]+([1-5]\d\d)(?:[ \t].*)?\Z")
# A Hurl section (`[Asserts]`, `[QueryStringParams]`): what follows is no body.
_HURL_SECTION = re.compile(r"\[[A-Za-z]+\]\s*\Z")
# What stands for the server before a path: `$BASE_URL`, `${API}`, `{{host}}`, `{baseUrl}`, or
# a host written without a scheme (`localhost:8080`, `api.example.org`).
_SERVER = re.compile(r"\A(?:\$\{?\w+\}?|\{\{?[\w.-]+\}?\}|[\w-]+(?:\.[\w-]+)*(?::\d+)?(?=/))")
TRANSCRIPT_LANGUAGES = frozenset({"http", "https", "hurl"})
SHELL_LANGUAGES = frozenset(
    {"", "sh", "bash", "shell", "console", "zsh", "shell-session", "terminal"}
)


@dataclass(frozen=True)
class Message:
    """A message of the exchange a fence shows: a request (``status`` "") or a response."""

    status: str  # the status code of a response ("" for the request)
    body: str  # the fence's text with all but the body blanked ("": no JSON or YAML body)
    line: int  # the 0-based line of the fence where the message starts


@dataclass(frozen=True)
class Request:
    """The request a fence shows, and the messages it holds (the request's first)."""

    method: str  # upper case, as RFC 9110 §9.1 registers methods
    path: str  # the concrete path: scheme, host, query and fragment dropped
    shown: str  # the request as evidence quotes it (`curl -X POST …/v1/jobs`)
    messages: tuple[Message, ...]
    # A host is written before the path (`https://host/...`, `localhost:8080/...`), not a
    # variable that may stand for a server URL with its base path (`$BASE_URL/...`).
    hosted: bool = False
    # The request target or URL as written, its query string kept (`/jobs/j-1?view=FULL`): the
    # parameter values the request gives.
    target: str = ""


def request_path(target: str) -> tuple[str, str] | None:
    """A request target's path (RFC 9112 §3.2: origin-form, or absolute-form whose host is
    dropped; a server variable before the path dropped too), without its query and fragment,
    and what stood before it: "host", "variable" or ""; None where no path is written."""
    target = target.strip("'\"")
    dropped = ""
    if "://" in target:
        host = urlsplit(target).netloc
        target = urlsplit(target).path or "/"
        dropped = "variable" if host.startswith(("$", "{")) else "host"
    else:
        server = _SERVER.match(target)
        if server is not None:
            dropped = "variable" if target.startswith(("$", "{")) else "host"
            target = target[server.end() :]
    target = re.split(r"[?#]", target, maxsplit=1)[0]
    if not target.startswith("/"):
        return None
    return target, dropped


def fence_request(language: str, content: str) -> Request | None:
    """The request ``content`` shows: a transcript (any fence whose first line is a request
    line; an ``http``/``hurl`` fence), or a ``curl`` command in a shell fence; else None."""
    lines = content.split("\n")
    first = next((index for index, line in enumerate(lines) if line.strip()), None)
    if first is not None:
        start = _REQUEST_LINE.match(lines[first].strip())
        if start is not None:
            return _transcript(lines, first, start.group(1), start.group(2))
    if language in SHELL_LANGUAGES and "curl" in content:
        return _curl(content)
    return None


def _transcript(lines: list[str], first: int, method: str, target: str) -> Request | None:
    path = request_path(target)
    if path is None:
        return None
    messages: list[Message] = []
    index = first
    while index < len(lines):
        status_line = _STATUS_LINE.match(lines[index].strip())
        status = status_line.group(1) if status_line else ""
        begins = index
        index += 1
        index, media = header_fields(lines, index)
        start = index
        while index < len(lines) and not _next_message(lines[index]):
            index += 1
        body = lines[start:index]
        if _HURL_SECTION.match(lines[index].strip() if index < len(lines) else ""):
            # A Hurl section runs to the next message: it holds asserts, captures, no body.
            while index < len(lines) and not _message_start(lines[index]):
                index += 1
        shown = ""
        opening = next((line.strip() for line in body if line.strip()), "")
        if _BODY_OPENING.match(opening) and (not media or STRUCTURED_MEDIA.search(media)):
            shown = "\n" * start + "\n".join(body) + "\n" * (len(lines) - index)
        messages.append(Message(status, shown, begins))
    written, dropped = path
    shown = f"{method} {'…' if dropped else ''}{written}"
    return Request(method, written, shown, tuple(messages), dropped == "host", target)


# What a JSON or YAML body opens with: a value's bracket, a mapping's key, a sequence's dash. A
# word between two request lines ("or": a template of alternatives) is none.
_BODY_OPENING = re.compile(r"""^(?:[{\[]|-\s|-$|["']?[\w.$@-]+["']?\s*:(?:\s|$))""")


def _message_start(line: str) -> bool:
    stripped = line.strip()
    return bool(starts_message(line) or _STATUS_LINE.match(stripped))


def _next_message(line: str) -> bool:
    return _message_start(line) or bool(_HURL_SECTION.match(line.strip()))


def _curl(content: str) -> Request | None:
    """The first ``curl`` command of a shell fence (``speclint.parsing.curl`` reads it): its
    method, path, and the JSON text it sends, placed where it is written."""
    command = next(iter(curl_commands(content)), None)
    if command is None or command.url is None:
        return None
    path = request_path(command.url.text)
    if path is None:
        return None
    method = command.method.upper()
    # The body shown: the first data that is a JSON text (`--data-urlencode` sends its value
    # encoded, not as written); with -G the data goes in the query, and there is no body.
    body = next(
        (
            value
            for option, value in command.data
            if option != "--data-urlencode" and value.text.lstrip().startswith(("{", "["))
        ),
        None,
    )
    text = _placed(content, body) if body is not None and not command.get else ""
    written, dropped = path
    shown = f"curl -X {method} {'…' if dropped else ''}{written}"
    target = "" if command.get else command.url.text
    return Request(method, written, shown, (Message("", text, 0),), dropped == "host", target)


def _placed(content: str, body: Word) -> str:
    """``content`` with all but ``body`` blanked (lines kept): the body where it is written when
    it is (a single-quoted JSON text), else from the line its word starts on."""
    blank = re.sub(r"[^\n]", " ", content)
    if body.verbatim:
        found = content.find(body.text, body.start, body.stop)
        if found >= 0:
            return blank[:found] + body.text + blank[found + len(body.text) :]
    line = content.count("\n", 0, body.start)
    return (
        "\n" * line + body.text + "\n" * max(0, content.count("\n") - line - body.text.count("\n"))
    )
