"""HTTP messages and path lists shown in a ``json`` or ``yaml`` code fence (issue 45, item 2b).

Specification prose often shows an exchange as it goes over the wire, in a fence tagged with
the body's language: a request line (``POST /v1/things HTTP/1.1``) or a status line
(``HTTP/1.1 201 Created``), header fields, a blank line, and the body (RFC 9112 §2.1: start-line,
field lines, an empty line, the message body). The fence is not a broken JSON or YAML document:
it is a transcript whose *body* is the JSON or YAML it shows. :func:`http_bodies` gives each
body as the fence's text with everything else blanked, lines kept, so a parse error in a body
is reported at its own line and an example bound to it is located as in any other fence. A
fence that only lists endpoints (``/v1/things`` or ``GET /v1/things``, one per line) is not a
document at all (:func:`path_list`).
"""

from __future__ import annotations

import re

# RFC 9112 §3: request-line = method SP request-target SP HTTP-version. Documentation often
# leaves the version out (`GET /v1/things?limit=10`); the target is a path, `*`, an absolute URI,
# or a path behind a `{server}` placeholder. Methods are tokens, written in capitals (§9.1 of
# RFC 9110: case-sensitive, the registered ones upper-case). A line ending in `:` is a YAML key
# (`GET /things:` above what the operation does), not a request.
_REQUEST_LINE = re.compile(
    r"[A-Z][A-Z-]{1,15}[ \t]+(?:/|\*|https?://|\{)\S*(?<!:)(?:[ \t]+HTTP/\d(?:\.\d)?)?[ \t]*\Z"
)
# RFC 9112 §4: status-line = HTTP-version SP status-code SP [ reason-phrase ] (`HTTP/2 200`).
_STATUS_LINE = re.compile(r"HTTP/\d(?:\.\d)?[ \t]+\d{3}(?:[ \t].*)?\Z")
# RFC 9110 §5.1: field-name = token, then `:`.
FIELD_LINE = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+:(?:[ \t].*)?\Z")
CONTENT_TYPE = re.compile(r"(?i)content-type:[ \t]*(\S[^;\n]*)")
# A media type whose body is JSON or YAML (`application/json`, `application/merge-patch+json`,
# `application/cloudevents+json`, `application/yaml`, `text/x-yaml`).
STRUCTURED_MEDIA = re.compile(r"(?i)json|yaml|yml")
# One endpoint a line: a path (`/v1/things/{id}`, `{baseUrl}/v1/things`), after a method or not.
_PATH_LINE = re.compile(r"(?:[A-Z][A-Z-]{1,15}[ \t]+)?(?:/|\{[^{}\s]*\}/)\S*(?<!:)[ \t]*\Z")


def starts_message(line: str) -> bool:
    """Whether ``line`` is an HTTP request line or status line."""
    stripped = line.strip()
    return bool(_REQUEST_LINE.match(stripped) or _STATUS_LINE.match(stripped))


def header_fields(lines: list[str], index: int) -> tuple[int, str]:
    """The header fields of a message from ``lines[index]`` on (RFC 9110 §5): the index of the
    first line after them, and the media type its ``Content-Type`` names ("" for none)."""
    media = ""
    while index < len(lines) and FIELD_LINE.match(lines[index].strip()):
        declared = CONTENT_TYPE.match(lines[index].strip())
        if declared is not None:
            media = declared.group(1)
        index += 1
    return index, media


def path_list(text: str) -> bool:
    """Whether every non-blank line of ``text`` is an endpoint (a path, with or without a
    method before it): a list of paths, not a document."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    return bool(lines) and all(_PATH_LINE.match(line) for line in lines)


def http_bodies(text: str) -> tuple[str, ...] | None:
    """The bodies of the HTTP messages a fence's ``text`` shows, each as ``text`` with every
    other line blanked (so lines and columns are the fence's own), or None when ``text`` does not
    start with a request or status line. A fence may show several messages (a request, then its
    response); a message's header fields run to the first blank line (or to a line that is no
    field: a body written without the blank line). A body is given only when it is JSON or YAML:
    a ``Content-Type`` of another media type (a JWS, a form, plain text) says it is not, and
    an empty body is none."""
    lines = text.split("\n")
    first = next((index for index, line in enumerate(lines) if line.strip()), None)
    if first is None or not starts_message(lines[first]):
        return None
    bodies: list[str] = []
    index = first
    while index < len(lines):
        # The start line, then the header fields.
        index += 1
        index, media = header_fields(lines, index)
        start = index
        while index < len(lines) and not starts_message(lines[index]):
            index += 1
        body = lines[start:index]
        if any(line.strip() for line in body) and (not media or STRUCTURED_MEDIA.search(media)):
            bodies.append("\n" * start + "\n".join(body) + "\n" * (len(lines) - index))
    return tuple(bodies)
