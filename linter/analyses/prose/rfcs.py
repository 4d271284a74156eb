"""RFC documents and their header tables.

An RFC is a Markdown document with a two-column field/value table, within its first 40 lines, that
has a ``Status`` row and at least two other RFC header fields (RFC, Title, Created, Updated,
Author(s), Affects, Compatibility)::

    | Field | Value |
    | --- | --- |
    | **RFC** | 0094 |
    | **Status** | `Active` |
    | **Created** | 2026-06-11 |
    | **Affects** | `api/openapi.yaml` (createRun) · `schemas/run-options.schema.json` |

Field names lose their emphasis and code marks (``**Status**`` is ``Status``); each field keeps the
line of its row, so findings point at it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from speclint.model.corpus import Corpus, Document, kept
from speclint.parsing.kinds import DocumentKind, in_design_folder

HEADER_WITHIN = 40
_HEADER_NAMES = {
    "rfc",
    "title",
    "created",
    "updated",
    "author",
    "authors",
    "author(s)",
    "affects",
    "compatibility",
}
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_NUMBER = re.compile(r"\b(\d{3,5})\b")


@dataclass(frozen=True)
class HeaderField:
    name: str
    value: str  # the cell's Markdown text
    line: int


@dataclass
class Rfc:
    document: Document
    fields: dict[str, HeaderField] = field(default_factory=dict)
    table_line: int = 1
    style: str = "table"  # how the header is written: "table" or "bullets"

    @property
    def path(self) -> str:
        return self.document.path

    def get(self, name: str) -> HeaderField | None:
        for key, value in self.fields.items():
            if key.lower() == name.lower():
                return value
        return None

    @property
    def number(self) -> str | None:
        """The RFC number: the ``RFC`` field's, else the file name's leading digits."""
        declared = self.get("RFC")
        if declared is not None:
            match = _NUMBER.search(declared.value)
            if match:
                return match.group(1)
        match = re.match(r"(\d{3,5})", self.path.rsplit("/", 1)[-1])
        return match.group(1) if match else None


def plain(text: str) -> str:
    """A cell without Markdown emphasis and code marks."""
    return re.sub(r"[*_`]", "", text).strip()


def first_date(text: str) -> str | None:
    match = _DATE.search(text)
    return match.group(1) if match else None


def rfc_numbers(text: str) -> list[str]:
    """RFC numbers a Supersedes / Superseded-by value names ("RFC 0012", "0012", a link)."""
    if plain(text) in {"", "—", "-", "–", "none", "None", "n/a"}:
        return []
    return sorted(set(_NUMBER.findall(text)))


# `- **Status**: Final` (MCP's SEPs): a header written as a bullet list of bold field names.
_BULLET_FIELD = re.compile(r"^\s*[-*+]\s+\*\*([^*:]+?):?\*\*:?\s*(.*?)\s*$")


def _bullet_header(document: Document) -> Rfc | None:
    """A header written as a bullet list, within the first lines."""
    fields: dict[str, HeaderField] = {}
    first = 0
    for number, line in enumerate((document.text or "").split("\n")[:HEADER_WITHIN], 1):
        match = _BULLET_FIELD.match(line)
        if match is None:
            if fields and line.strip():
                break  # the list ended
            continue
        first = first or number
        name, value = match.group(1).strip(), match.group(2)
        fields.setdefault(name, HeaderField(name, value, number))
    names = {n.lower() for n in fields}
    if "status" in names and len(names & _HEADER_NAMES) >= 2:
        return Rfc(document, fields, first, "bullets")
    return None


def parse_rfc(document: Document) -> Rfc | None:
    """The header of an RFC: the first table or bullet list of fields (with `Status` among
    them) in its first lines."""
    prose = document.prose
    if prose is None:
        return None
    table = _table_header(document)
    bullets = _bullet_header(document)
    if table is not None and bullets is not None:
        return table if table.table_line < bullets.table_line else bullets
    return table or bullets


def _table_header(document: Document) -> Rfc | None:
    prose = document.prose
    assert prose is not None
    for table in prose.tables:
        if table.line > HEADER_WITHIN:
            break
        rows = [table.header, *table.rows]
        fields: dict[str, HeaderField] = {}
        for row in rows:
            if len(row) < 2:
                continue
            name = plain(row[0].text)
            if name and name.lower() not in {"field", "key"}:
                fields.setdefault(name, HeaderField(name, row[1].text.strip(), row[0].line))
        names = {n.lower() for n in fields}
        two_columns = all(len(row) == 2 for row in rows)
        if two_columns and "status" in names and len(names & _HEADER_NAMES) >= 2:
            return Rfc(document, fields, table.line)
    return None


# The key of :func:`is_rfc`'s answer in ``Document.derived``.
RFC_KEY = "rfc"


def is_design_page(document: Document) -> bool:
    """A design record or a proposal (by its folder, or an RFC header), not the specification:
    its examples sketch a change under discussion."""
    return in_design_folder(document.path) or is_rfc(document)


def is_rfc(document: Document) -> bool:
    """Whether the page has an RFC header (:func:`parse_rfc`), memoised on the page: the run
    asks it as each page is parsed, and the parse cache keeps the answer, so finding a corpus's
    RFCs decodes the prose of the RFCs alone, not of every page (a one-page edit of OpenWOP:
    0.2 s in each of the two rules that read them)."""
    return kept(document, RFC_KEY, _has_header, bool)


def _has_header(document: Document) -> bool:
    return parse_rfc(document) is not None


def corpus_rfcs(corpus: Corpus) -> list[Rfc]:
    found = []
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        if "template" in document.path.rsplit("/", 1)[-1].lower():
            continue  # `TEMPLATE.md`, `0000-template.md`: placeholders, not an RFC
        rfc = parse_rfc(document) if is_rfc(document) else None
        if rfc is not None:
            found.append(rfc)
    return found


_AFFECTED_EXTENSIONS = ("json", "yaml", "yml", "md", "ts", "js", "proto", "toml", "txt", "py")
_AFFECTED_PATH = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.(?:"
    + "|".join(_AFFECTED_EXTENSIONS)
    + r")|(?:[\w.-]+/)+)(?![\w/-])"
)


def affected_paths(value: str) -> list[str]:
    """The file and folder paths an RFC's ``Affects`` value names, in order (``rfc-affects``
    checks they exist; ``compat-claim`` reads which contracts the RFC changes)."""
    spans = re.findall(r"`([^`]+)`", value)
    # Folders only count when written as code (`conformance/`): "§B/§D" in prose is no folder.
    candidates = [(span, True) for span in spans if "*" not in span]  # globs are not checked
    candidates.append((re.sub(r"`[^`]*`", " ", value), False))
    found: list[str] = []
    for text, in_code in candidates:
        for match in _AFFECTED_PATH.finditer(text):
            path = match.group(1)
            if path.endswith("/") and (not in_code or len(path.strip("/")) < 2):
                continue
            if "*" in path or "://" in text[max(0, match.start() - 8) : match.start() + 3]:
                continue
            if path.startswith("http") or path.count(".") > 3:
                continue
            if path not in found:
                found.append(path)
    return found
