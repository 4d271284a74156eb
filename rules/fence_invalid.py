"""A JSON or YAML code fence in the prose that is broken: a reader who copies it gets an error.

What it does
    Parses every ``json``, ``jsonc``, ``yaml`` and ``yml`` code fence of the Markdown pages
    (``jsonc``: comments and trailing commas allowed) and reports one that is meant as a whole
    document and does not parse, at the line and column of the error.

    Spec prose shows JSON in other ways too, and those are not reported: a fence that does not
    start with ``{`` or ``[`` once comments are blanked (a member fragment such as
    ``"configurable": {...}``, an HTTP request line above a body), several values one after
    the other (a stream of events, a JWT's ``header.payload``), and sketches (``...``, ``<id>``,
    ``"a" | "b"`` unions, ``${var}`` templates). Comments (``//``, ``/* */``) and trailing commas
    are read as notes on a sketch, in a ``json`` fence too; what remains must parse.

Why is this bad?
    Examples are what implementers copy first. A missing comma or a typographic quote
    (``“enumNames”``) in a normative example is an error every reader meets, and a tool that
    extracts examples for tests (``example-invalid``) cannot check it.

Example
    ::

        ```json
        {
          "mimeType": "image/png"
          "annotations": {"priority": 0.9}
        }
        ```

    FAIL: ``spec/tools.md:4:3: warning [fence-invalid] the json fence does not parse: expected
    ',' or '}' after an object member ...``

Use instead
    ``"mimeType": "image/png",``. PASS. A sketch that is not meant to parse is better in a
    ``jsonc`` fence with ``// ...`` or in a ``text`` fence.

Options
    None.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.corpus import Corpus, Document
from speclint.findings import Finding, Location, Severity
from speclint.prose import CodeFence
from speclint.structured import ParseFailure, parse_json, parse_yaml, strip_jsonc
from speclint.units import check_by_unit

ID = "fence-invalid"
SEVERITY = Severity.WARNING
JSON_LANGUAGES = frozenset({"json", "jsonc", "json5"})
YAML_LANGUAGES = frozenset({"yaml", "yml"})
# Sketch notation: an ellipsis, a <placeholder>, a template, a `"a" | "b"` union of values.
SKETCH = re.compile(r"\.\.\.|…|<[A-Za-z][^<>\n]*>|\$\{|\{\{|[\"\d\]}el]\s*\|\s*[\"\d\[{tfn]")


READS = "page"  # each page's fences alone (speclint.units)


def shared(corpus: Corpus) -> None:
    """No JSON/YAML document is read: a schema edit keeps every page's result."""
    return None


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit)


def check_unit(corpus: Corpus, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    found = []
    for fence in document.prose.fences if document.prose is not None else ():
        failure = _failure(fence)
        if failure is None:
            continue
        heading = f"#{fence.heading.anchor}" if fence.heading else ""
        found.append(
            Finding(
                ID,
                SEVERITY,
                f"the {fence.language} fence does not parse: {failure.message}; fix the example "
                "(or mark a sketch as one: `...`, or a `text` fence)",
                Location(document.path, fence.line + failure.line, failure.column, pointer=heading),
                key=f"{fence.line}",
            )
        )
    return found


def _failure(fence: CodeFence) -> ParseFailure | None:
    language = fence.language.lower()
    text = fence.content
    if language not in JSON_LANGUAGES | YAML_LANGUAGES or not text.strip() or SKETCH.search(text):
        return None
    try:
        if language in YAML_LANGUAGES:
            parse_yaml(text)
        else:
            commented = "//" in text or "/*" in text  # comments as sketch notes: not reported
            blanked = strip_jsonc(text) if language != "json" or commented else text
            if blanked.lstrip()[:1] not in ("{", "["):
                return None  # a fragment, a request line above a body: not a whole document
            parse_json(blanked)
    except ParseFailure as failure:
        if failure.message.startswith("extra data"):
            return None  # several values in a row: a stream, a JWT's header.payload
        return failure
    return None
