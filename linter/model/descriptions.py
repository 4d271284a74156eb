"""An API document's description text as a page of prose (``speclint.parsing.descriptions``).

The prose readers (the fence checker, example binding, the route reader) read Markdown pages;
:func:`described_page` gives them an OpenAPI or AsyncAPI document's descriptions as one such
page, a :class:`Document` of the API document's path (its version line, its folder) whose lines
all come after the file's. :func:`placed` moves a finding made on that page to the file: the
line and column of a literal block scalar's line exactly, else the ``description`` key's, with
the description's JSON pointer.

JSON Schema files' descriptions are not read: JSON Schema gives ``description`` no markup
(Validation 2020-12 §9.1: "a string", an explanation for a user interface), and a schema file
belongs to no API whose operations its routes could be held to.
"""

from __future__ import annotations

import dataclasses

from speclint.common.findings import Finding, Location
from speclint.model.corpus import Document
from speclint.parsing.descriptions import DescriptionPage, description_page, descriptions
from speclint.parsing.kinds import DocumentKind

API_KINDS = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)


@dataclasses.dataclass(frozen=True)
class DescribedPage:
    """An API document (``document``), its descriptions as a page (``page``), and the map."""

    document: Document
    page: Document
    layout: DescriptionPage

    def where(self, line: int, column: int = 1) -> tuple[int, int, str] | None:
        """The file's line and column of the page's ``line`` and ``column``, and the pointer
        of the description there; None for a line of the file itself."""
        found = self.layout.place(line, column)
        if found is None or found[0]:
            return found
        return (*self.document.position(found[2]), found[2])


def described_page(document: Document) -> DescribedPage | None:
    """The API document's descriptions as a page, made once per document; None for another
    kind of document, or one with no description."""
    if document.kind not in API_KINDS or not document.usable or document.text is None:
        return None
    return document.remember("described-page", lambda: _made(document))


def _made(document: Document) -> DescribedPage | None:
    yaml = not document.path.lower().endswith((".json", ".jsonc"))
    found = list(descriptions(document.data, document.position, document.lines, yaml))
    layout = description_page(found, len(document.lines))
    if layout is None:
        return None
    page = Document(document.path, DocumentKind.MARKDOWN, text=layout.text, model=layout.prose)
    page.digest = document.digest
    return DescribedPage(document, page, layout)


def placed(described: DescribedPage, finding: Finding) -> Finding:
    """``finding``, made on the description page, with its places on the page moved to the
    file (a related place in the file itself, a schema, an operation, is kept)."""
    return dataclasses.replace(
        finding,
        location=_moved(described, finding.location),
        related=tuple(_moved(described, r) for r in finding.related),
        members=tuple(
            dataclasses.replace(m, location=_moved(described, m.location)) for m in finding.members
        ),
    )


def _moved(described: DescribedPage, location: Location) -> Location:
    if location.path != described.document.path:
        return location
    where = described.where(location.line, location.column)
    if where is None:
        return location
    line, column, pointer = where
    end = None
    if location.end_line is not None:
        last = described.where(location.end_line)
        end = last[0] if last is not None and last[0] >= line else None
    return dataclasses.replace(
        location, line=line, column=column, pointer=pointer, heading=None, end_line=end
    )
