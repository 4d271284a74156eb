"""An untagged code block in the prose that is plainly JSON and broken by a slip.

What it does
    Reads every code block of a Markdown page, or of the ``description`` text of an OpenAPI or
    AsyncAPI document (CommonMark, OpenAPI 3.1 §4.3), that has no info string to say what it
    holds (a fence opened with bare backticks, an indented code block) and, where it is plainly
    JSON, reports a comma left out, a trailing comma or a bracket left open, at the line and
    column of the error. Plainly JSON: it opens an object or an array, names its members in
    quotes, and holds nothing but strings, numbers, ``true``/``false``/``null`` and JSON's
    punctuation. The block is judged whole, or each body of the HTTP message it shows, or each
    part below a label line (``Request body:``).

    A sketch (an elision ``...``, a ``<placeholder>``, a comment, a type name where a value
    goes) is read with those set aside: a slip in its plain part (a comma or colon left out,
    a string left open on its line) is still reported.

Why is this bad?
    Examples are what implementers copy first, and a block with no language is still read as
    JSON by the reader who copies it: a missing comma there is the error they meet. A tagged
    fence is ``fence-invalid``'s; an untagged one was judged by nothing.

Example
    ::

        The response:

            {
              "id": "p-7"
              "status": "sorted"
            }

    FAIL: ``guide.md:6:7: warning [untagged-json-invalid] the indented code block is JSON but
    does not parse: expected ',' or '}' after an object member: a ',' is missing before this
    member; fix the example (and tag it `json`) ...``

Use instead
    ``"id": "p-7",`` (and a ```` ```json ```` fence). PASS.

Options
    None.

Limitations
    Not judged: shell output, a grammar, ASCII art, YAML; another failure (a line break inside
    a string, a mismatched bracket), as often a sketch's shorthand as a slip; a design record
    or a proposal (``adr/``, ``proposals/``, an RFC header).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.prose.rfcs import is_design_page
from speclint.analyses.units import check_by_unit, pages_and_descriptions
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.model.descriptions import described_page, placed
from speclint.parsing.fence_text import untagged_json_failure
from speclint.parsing.sketch_residue import residual_failure

ID = "untagged-json-invalid"
SEVERITY = Severity.WARNING
PREVIEW = True  # new: no labelled finding of the ecosystem check yet (speclint.run.preview)
READS = "page"  # each page's code blocks alone (speclint.analyses.units)


def shared(corpus: Context) -> None:
    """Each unit reads its own text alone: a schema edit keeps every page's result."""
    return None


units = pages_and_descriptions  # the pages, and the API documents' descriptions


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, units=units)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    described = described_page(document)
    if described is not None:
        # An API document's descriptions (CommonMark, OpenAPI 3.1 §4.3): their code blocks are
        # judged as a page's, and reported at the file's lines.
        return [placed(described, f) for f in _block_findings(described.page)]
    return _block_findings(document)


def _block_findings(document: Document) -> list[Finding]:
    if document.prose is None or is_design_page(document):
        # A design record's or a proposal's example sketches a change under discussion.
        return []
    found = []
    for block in document.prose.fences:
        if block.info:
            continue  # a language says what it holds: fence-invalid's, or no JSON
        failure = untagged_json_failure(block.content)
        residue = ""
        if failure is None:
            # A sketch (placeholders, comments, a member excerpt) with a slip in its plain part
            failure = residual_failure(block.content)
            residue = " (read with its placeholders, comments and elisions set aside)"
        if failure is None:
            continue
        what = "indented code block" if block.indented else "untagged fence"
        found.append(
            Finding(
                ID,
                SEVERITY,
                f"the {what} is JSON but does not parse{residue}: {failure.message}; fix the "
                "example (and tag it `json`), or mark a sketch as one (`...`, a `text` fence)",
                Location(
                    document.path,
                    *block.on_page(failure.line, failure.column),
                    pointer=f"#{block.heading.anchor}" if block.heading else "",
                ),
                key=f"{block.line}",
            )
        )
    return found
