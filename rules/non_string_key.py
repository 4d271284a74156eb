"""A YAML mapping key in an API document that is a number, boolean or null, not a string.

What it does
    In an OpenAPI or Swagger document written in YAML, and in the YAML files its ``$ref``\\s keep
    parts in, finds each mapping key YAML reads as no string: a status code written ``200:``
    (an integer), ``true:``, ``null:``, ``1.5:``. One finding per file, at the first such key,
    with the count and the others as related locations.

Why is this bad?
    A Responses Object's status code "MUST be enclosed in quotation marks (for example, "200")
    for compatibility between JSON and YAML" (OpenAPI 3.0.4 §4.7.16, 3.1.1 §4.8.16, 3.2.0), and
    "keys used in YAML maps MUST be limited to a scalar string" (3.0.4 §4.3, 3.1.1 §4.3; 3.2.0
    §4.3.1 defers to RFC 9512 §3.4). A JSON object's names are strings (Swagger 2.0's documents
    "conform to the JSON standards"). Tools that read the YAML as its types say get an integer
    key: a code generator's map of responses, a validator (Spectral reports each as an error).

Example
    ::

        openapi: 3.0.3
        paths:
          /runs:
            get:
              responses:
                200: {description: The runs.}

    FAIL: ``error [non-string-key] 1 mapping key is no string in YAML: `200` (an integer) ...``

Use instead
    ::

              responses:
                "200": {description: The runs.}

    PASS.

Options
    None.

Limitations
    JSON documents cannot hold such a key. A YAML file no API document reads is not judged. In an
    OpenAPI 3.2 document, where the general rule is RFC 9512's recommendation, a key other than a
    status code is a warning.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.common.findings import Finding, Member, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import split_pointer

ID = "non-string-key"
SEVERITY = Severity.ERROR
FACTS = ("references",)

_SHOWN = 10  # related locations listed; every place is a member of the finding


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for path, versions in sorted(_judged_files(corpus).items()):
        document = corpus.documents.get(path)
        if document is None or not document.non_string_keys:
            continue
        yield _finding(document, versions)


def _version(document: Document) -> str:
    data = document.data if isinstance(document.data, dict) else {}
    return str(data.get("openapi", data.get("swagger", "")))


def _judged_files(corpus: Context) -> dict[str, set[str]]:
    """Each API document and each file the API documents reach by ``$ref`` (directly or through
    other files), with the versions of the API documents that read it."""
    found: dict[str, set[str]] = {}
    for root in sorted(corpus.of_kind(DocumentKind.OPENAPI), key=lambda d: d.path):
        version = _version(root)
        found.setdefault(root.path, set()).add(version)
        seen, stack = {root.path}, [root.path]
        while stack:
            for reference in corpus.references.within(stack.pop(), ""):
                target = reference.target_path
                if target is None or target in seen:
                    continue
                seen.add(target)
                held = corpus.documents.get(target)
                if held is None or held.kind is DocumentKind.OPENAPI:
                    continue  # another API document: judged as its own root
                found.setdefault(target, set()).add(version)
                stack.append(target)
    return found


def _status_code(pointer: str) -> bool:
    """Whether ``pointer`` names a member of a Responses Object (an operation's ``responses``;
    OpenAPI 3.0.4 §4.7.16, Swagger 2.0's Responses Object)."""
    tokens = split_pointer(pointer)
    return len(tokens) >= 2 and tokens[-2] == "responses" and tokens[-1].isdigit()


def _kind(token: str) -> str:
    try:
        value = json.loads(token)
    except ValueError:
        return "a mapping"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "an integer" if isinstance(value, int) else "a number"


def _finding(document: Document, versions: set[str]) -> Finding:
    places = sorted(document.non_string_keys, key=lambda p: document.location(p).line)
    codes = [p for p in places if _status_code(p)]
    # A status code MUST be quoted in every 3.x version; any key MUST be a string in 3.0 and 3.1
    # (§4.3) and in Swagger 2.0 (JSON objects); 3.2.0 §4.3.1 only recommends RFC 9512's rule.
    strict = bool(codes) or any(not v.startswith("3.2") for v in versions)
    first = places[0]
    token = split_pointer(first)[-1]
    count = len(places)
    what = (
        f"{count} mapping key{'s are' if count > 1 else ' is'} no string in YAML: "
        f"`{token}` ({_kind(token)})"
        + (f" and {count - 1} more" if count > 1 else "")
        + (
            (
                ", all status codes"
                if len(codes) == count
                else f", {len(codes)} of them status codes"
            )
            if codes and count > 1
            else ""
        )
    )
    rule = (
        "a Responses Object's status code MUST be quoted (OpenAPI §4.7.16 / §4.8.16) and YAML "
        "map keys MUST be strings (§4.3)"
        if codes
        else "YAML map keys in an OpenAPI document MUST be strings (§4.3; JSON names are strings)"
    )
    fix = f'quote {"each" if count > 1 else "it"} (`"{token}":`)' + (
        "; a YAML formatter set to quote non-string keys fixes them all at once"
        if count > 1
        else ""
    )
    note = "no string either"
    return Finding(
        ID,
        Severity.ERROR if strict else Severity.WARNING,
        f"{what}; {rule}; {fix}",
        document.location(first),
        related=tuple(document.location(p, note=note) for p in places[1 : _SHOWN + 1]),
        key=f"non-string-keys:{first}",
        members=tuple(
            Member(document.location(p, note=note), f"non-string-keys:{p}") for p in places
        )
        if count > 1
        else (),
    )
