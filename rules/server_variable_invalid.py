"""A server URL with a variable its Server Object does not define, or a default outside its enum.

What it does
    In an OpenAPI 3 document, for each Server Object (the document's ``servers``, a path
    item's or an operation's, in the file it is written in) reports each ``{name}`` in the
    ``url`` that ``variables`` does not define, and a URL that is no URL once each variable
    takes its default or an ``enum`` value (``https://host:<port>/``: RFC 3986), as errors;
    a variable the URL writes bare (``protocol://`` beside an unused ``protocol``), a warning;
    each ``default`` not among its ``enum`` values (an error from OpenAPI 3.1, a warning in
    3.0); and, in 3.0, an empty ``enum`` (a warning).

Why is this bad?
    A server URL is a template whose "variable substitutions will be made when a variable is
    named in {braces}" from the Server Object's ``variables`` (OpenAPI 3.1.1 §4.8.5): a name
    ``variables`` does not define has no value, so the URL cannot be expanded and clients,
    documentation consoles and mock servers send requests to a host written ``{region}``.
    The ``default`` "SHALL be sent if an alternate value is not supplied" and "MUST exist in the
    enum's values" (3.1.1 §4.8.6; SHOULD in 3.0.4 §4.7.6): a default the enum excludes is a
    value the document itself says no server accepts. A 3.0 ``enum`` "SHOULD NOT be empty".

Example
    ::

        servers:
          - url: https://{region}.api.example.test/{version}
            variables:
              region: {default: eu, enum: [us, asia]}

    FAIL: ``error [server-variable-invalid] server URL `https://{region}.api.example.test/{version}`
    uses `{version}`, which its `variables` does not define ...`` and ``error [...] the default
    `eu` of server variable `region` is not one of its `enum` values ...``

Use instead
    ::

          - url: https://{region}.api.example.test/{version}
            variables:
              region: {default: eu, enum: [eu, us, asia]}
              version: {default: v1}

    PASS.

Options
    None.

Limitations
    A variable defined and not used in the URL, nor named in it bare, is style: not reported. An empty ``enum`` in 3.1
    and later is ``openapi-invalid``'s (its schema refuses it). Swagger 2.0's ``host`` and
    ``basePath`` have no variables.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.written_operations import (
    Written,
    swagger,
    version,
    written_operations,
    written_path_items,
)
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

ID = "server-variable-invalid"
SEVERITY = Severity.ERROR
READS = "structured"
FACTS = ("references",)  # speclint.analyses.context
PREVIEW = True  # new (issue 52): labelled in benchmarks/ecosystem (precision.json); leaving preview is decided there

_VARIABLE = re.compile(r"\{([^{}]*)\}")


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    seen: set[tuple[str, str]] = set()  # a file two documents reach is judged once
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        if swagger(document) or not isinstance(document.data, dict):
            continue
        holders = [Written(document, "", document.data)]
        holders += [item for _, item in written_path_items(corpus, document)]
        holders += [o.operation for o in written_operations(corpus, document)]
        for holder in holders:
            servers = holder.node.get("servers")
            for index, server in enumerate(servers if isinstance(servers, list) else ()):
                at = join_pointer(join_pointer(holder.pointer, "servers"), index)
                if isinstance(server, dict) and (holder.file.path, at) not in seen:
                    seen.add((holder.file.path, at))
                    yield from _server(document, holder.file, at, server)


def _server(
    document: Document, file: Document, at: str, server: dict[str, Any]
) -> Iterator[Finding]:
    url = server.get("url")
    variables = server.get("variables")
    defined = variables if isinstance(variables, dict) else {}
    if isinstance(url, str):
        used = dict.fromkeys(_VARIABLE.findall(url))
        if all(name in defined for name in used):
            yield from _not_a_url(file, at, url, defined)
        yield from _unbraced(file, at, url, defined, used)
        for name in used:
            if name in defined:
                continue
            known = ", ".join(f"`{n}`" for n in defined) or "none"
            yield Finding(
                ID,
                SEVERITY,
                f"server URL `{url}` uses `{{{name}}}`, which its `variables` does not define "
                f"(defined: {known}): the URL cannot be expanded; define `{name}` with a "
                "`default` in `variables`, or write the value in the URL",
                file.location(join_pointer(at, "url")),
                related=(file.location(at, note="the Server Object"),),
                key=f"{at}:{name}",
            )
    strict = version(document) not in ("3.0", "")
    for name, variable in defined.items():
        if not isinstance(variable, dict):
            continue
        here = join_pointer(join_pointer(at, "variables"), str(name))
        enum, default = variable.get("enum"), variable.get("default")
        if not isinstance(enum, list):
            continue
        if not enum:
            if not strict:  # 3.0.4 §4.7.6: SHOULD NOT be empty; 3.1's schema refuses it
                yield Finding(
                    ID,
                    Severity.WARNING,
                    f"server variable `{name}` has an empty `enum`: no value is allowed, not "
                    "even its default; list the values, or delete `enum`",
                    file.location(join_pointer(here, "enum")),
                    key=f"{here}:empty",
                )
            continue
        if isinstance(default, str) and default not in enum:
            choice = ", ".join(f"`{v}`" for v in enum[:8])
            yield Finding(
                ID,
                SEVERITY if strict else Severity.WARNING,
                f"the default `{default}` of server variable `{name}` is not one of its "
                f"`enum` values ({choice}): clients send a value the document says no server "
                f"accepts; add `{default}` to `enum`, or choose the default among them",
                file.location(join_pointer(here, "default")),
                related=(file.location(join_pointer(here, "enum"), note="the allowed values"),),
                key=f"{here}:default",
            )


# What RFC 3986 lets a URI reference hold (§2: unreserved, reserved and `%` of a percent-
# encoding); a character past ASCII is an IRI's (RFC 3987) and let be.
_URI_CHARACTER = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]|[^\x00-\x7f]")
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_AUTHORITY = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.\-]*:)?//([^/?#]*)")
_EXPANSIONS = 3  # invalid expansions a message lists


def _not_a_url(file: Document, at: str, url: str, defined: dict[str, Any]) -> Iterator[Finding]:
    """The URL, each variable given its default or one of its ``enum`` values (the others
    their defaults), that is no URI reference: a character RFC 3986 does not allow (a
    placeholder written ``<port>``), a ``%`` that encodes nothing, a port that is no number."""
    values: dict[str, list[str]] = {}
    for name, variable in defined.items():
        if not isinstance(variable, dict):
            continue
        default, enum = variable.get("default"), variable.get("enum")
        choices = [default, *(enum if isinstance(enum, list) else ())]
        values[str(name)] = list(dict.fromkeys(str(v) for v in choices if isinstance(v, str)))
    expansions = [_expanded(url, {n: v[0] for n, v in values.items() if v})]
    for name, choices in values.items():
        for choice in choices[1:]:
            given = {n: v[0] for n, v in values.items() if v} | {name: choice}
            expansions.append(_expanded(url, given))
    bad = [(e, why) for e in dict.fromkeys(expansions) if (why := _url_defect(e)) is not None]
    if not bad:
        return
    listed = ", ".join(f"`{e}`" for e, _ in bad[:_EXPANSIONS])
    more = f" and {len(bad) - _EXPANSIONS} more" if len(bad) > _EXPANSIONS else ""
    substituted = "" if url == bad[0][0] else f", its variables substituted ({listed}{more}),"
    yield Finding(
        ID,
        SEVERITY,
        f"server URL `{url}`{substituted} is no URL: {bad[0][1]}; clients cannot "
        "send a request to it. Write a placeholder as a server variable (`{port}`, with a "
        "`default` in `variables`), or the value itself",
        file.location(join_pointer(at, "url")),
        related=(file.location(at, note="the Server Object"),),
        key=f"{at}:not-a-url",
    )


def _expanded(url: str, given: dict[str, str]) -> str:
    return _VARIABLE.sub(lambda m: given.get(m.group(1), m.group(0)), url)


def _url_defect(url: str) -> str | None:
    """What makes ``url`` no URI reference (RFC 3986 §4.1), or None."""
    for character in url:
        if not _URI_CHARACTER.fullmatch(character):
            return f"`{character}` is not allowed in a URL (RFC 3986 §2)"
    if _PERCENT.search(url):
        return "a `%` not followed by two hexadecimal digits (RFC 3986 §2.1)"
    authority = _AUTHORITY.match(url)
    host = authority.group(1).rpartition("@")[2] if authority else ""
    if not host.startswith("["):  # an IPv6 literal's colons are no port's (§3.2.2)
        _, colon, port = host.rpartition(":")
        if colon and not port.isdigit() and port:
            return f"the port `{port}` is no number (RFC 3986 §3.2.3)"
    return None


def _unbraced(
    file: Document, at: str, url: str, defined: dict[str, Any], used: dict[str, None]
) -> Iterator[Finding]:
    """Each defined variable the URL does not use in braces and writes bare
    (``protocol://host`` beside a ``protocol`` variable): the braces were left off, so the URL
    holds the name itself and the variable's values never reach it."""
    for name in defined:
        if not isinstance(name, str) or not name or name in used:
            continue
        if re.search(rf"(?<![\w{{]){re.escape(name)}(?![\w}}])", url):
            yield Finding(
                ID,
                Severity.WARNING,
                f"server URL `{url}` writes `{name}` without braces, and its server variable "
                f"`{name}` is used nowhere: the URL holds the name itself, and the variable's "
                f"values never reach it; write `{{{name}}}` in the URL",
                file.location(join_pointer(join_pointer(at, "variables"), name)),
                related=(file.location(join_pointer(at, "url"), note="the URL"),),
                key=f"{at}:{name}:unbraced",
            )
