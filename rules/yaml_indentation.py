"""A YAML flow collection or quoted string continued on a line indented no deeper than its key.

What it does
    In a YAML spec document (a schema, an API, AsyncAPI, Arazzo or Overlay document, an
    instance) and in any YAML file a ``$ref`` reaches, finds each ``{...}``, ``[...]`` or quoted
    string that is the value of a block mapping key or a block list item and goes on over more
    lines, where a line of it (its closing ``}`` too) starts at or left of the key's (or the
    ``-``'s) column. One finding per file, at the first such line, with the count and the other
    places as related locations.

Why is this bad?
    It is not YAML 1.2: a flow node in a block collection at indentation *n* continues on lines
    indented at least *n* + 1 spaces (YAML 1.2.2 §8.2.3, ``s-l+flow-in-block(n)``; §7.3, §7.4).
    libyaml, PyYAML and ruamel.yaml read it anyway; strict readers refuse the whole file with
    "deficient indentation" (Redocly's CLI and documentation build), so the API document, or
    every document that ``$ref``\\s the file, cannot be bundled, linted or rendered there.

Example
    ::

        properties:
          keys:
            example: {
              "ed25519:abc": {"key": "..."}
            }

    FAIL: ``error [yaml-indentation] the value of `example` continues on line 5 indented 4
    spaces, no deeper than its key or `-` (column 5) ...``

Use instead
    ::

            example: {
              "ed25519:abc": {"key": "..."}
              }

    PASS (or write the value in block style).

Options
    None.

Limitations
    Lines indented with tabs are not judged; a JSON file cannot have the defect. A YAML file
    that is neither a spec document nor reached by a ``$ref`` (a CI workflow) is not judged.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.common.findings import Finding, Location, Member, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import split_pointer

ID = "yaml-indentation"
SEVERITY = Severity.ERROR
PREVIEW = True  # new (issue 52): labelled in benchmarks/ecosystem (precision.json); leaving preview is decided there
FACTS = ("references",)

# The kinds that are spec content; a DATA file is judged when a `$ref` reaches it.
_SPEC_KINDS = frozenset(
    {
        DocumentKind.SCHEMA,
        DocumentKind.OPENAPI,
        DocumentKind.ASYNCAPI,
        DocumentKind.ARAZZO,
        DocumentKind.OVERLAY,
        DocumentKind.INSTANCE,
    }
)
_SHOWN = 10  # related locations listed; every place is a member of the finding


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    reached = {
        reference.target_path
        for reference in corpus.references.references
        if reference.target_path is not None
    }
    for path, document in sorted(corpus.documents.items()):
        if not document.deficient_indents:
            continue
        if document.kind in _SPEC_KINDS or path in reached:
            yield _finding(document)


def _place(document: Document, place: tuple[str, int, int, int]) -> Location:
    pointer, line, column, _ = place
    return Location(document.path, line, column, pointer=pointer)


def _finding(document: Document) -> Finding:
    places = sorted(document.deficient_indents, key=lambda place: place[1])
    pointer, line, column, parent = places[0]
    tokens = split_pointer(pointer)
    name = f"`{tokens[-1]}`" if tokens else "the root"
    count = len(places)
    more = f" (and {count - 1} more value{'s' if count > 2 else ''} like it)" if count > 1 else ""
    message = (
        f"the value of {name} continues on line {line} indented {column - 1} "
        f"space{'s' if column != 2 else ''}, no deeper than its key or `-` (column {parent}){more}: "
        "not YAML 1.2 (§8.2.3: a flow collection or quoted string in a block collection continues "
        "on lines indented past it), and strict readers such as Redocly's refuse the whole file; "
        "indent the line (a closing bracket too) past that column, or write the value in block style"
    )
    note = "indented too little too"
    return Finding(
        ID,
        SEVERITY,
        message,
        _place(document, places[0]),
        related=tuple(
            Location(document.path, p[1], p[2], pointer=p[0], note=note)
            for p in places[1 : _SHOWN + 1]
        ),
        key=f"yaml-indentation:{pointer}",
        members=tuple(
            Member(
                Location(document.path, p[1], p[2], pointer=p[0], note=note),
                f"yaml-indentation:{p[0]}",
            )
            for p in places
        )
        if count > 1
        else (),
    )
