"""The description text of an API document, read as the prose it is.

OpenAPI's and AsyncAPI's ``description`` fields are CommonMark (OpenAPI 3.1 §4.3 "Rich Text
Formatting"; AsyncAPI 3.0 "CommonMark syntax can be used for rich text representation"), and
authors write chapters there: ``info.description`` with ``##`` sections and JSON fences, operation
descriptions that name other routes. This module finds every such text of an API document
(info, tags, servers, paths, operations, parameters, responses, schemas, messages...) and lays
them out as one Markdown page whose lines map back to the file:

- a literal block scalar (``|``, ``|-``, ``|+``) keeps its lines as written, so each line of the
  text is a line of the file, its column moved by the block's indentation (exact);
- any other scalar (folded ``>``, plain, quoted) and every JSON string has no such mapping (its
  lines are joined or escaped): every line of it is placed at its ``description`` key.

Example data is no prose: a ``description`` member inside ``example``, ``examples``, ``default``,
``enum``, ``const`` or an ``x-`` extension is a value, not read. A description with no fence
and no path where a route is written (a link's target is none) holds nothing the readers read
and is left out: a large document has thousands of one-sentence descriptions (PagerDuty's 2.7
MB document 3,580, of which a few dozen qualify), and a JSON document's positions, which its reader leaves to be found
when asked, are asked for only when a finding is placed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from speclint.parsing.prose import ProseDocument, parse_markdown_parts
from speclint.parsing.structured import Position, join_pointer

# Members whose values are data (instances, enumerations), never the document's prose; an Example
# Object's `value` likewise (its `description` is prose).
_DATA_MEMBERS = frozenset({"example", "examples", "default", "enum", "const", "value"})
# What the readers read: a fence, or a path where a route is written (after a space, a quote, a
# bracket, a code span's tick; a URL in a code span). A link's target alone is no route.
_READ = re.compile(r"```|~~~|(?:^|[\s`'\"\[(])/|`https?://", re.MULTILINE)
_BREAK = "***"  # CommonMark §4.1: a thematic break, which ends any list before it
_KEY = re.compile(r"""\s*(?:-\s+)?["']?description["']?\s*:\s*(.*)$""")


@dataclass(frozen=True)
class Description:
    """One description: its JSON pointer, its text, where its key is ((0, 0): not asked, a JSON
    document's), and the first line and indentation of its text in the file when they map
    exactly (a literal block scalar), else 0."""

    pointer: str
    text: str
    key: Position
    first_line: int = 0
    indent: int = 0


@dataclass(frozen=True)
class DescriptionPage:
    """An API document's descriptions as one Markdown page. The page's first ``offset`` lines are
    blank (the file's line count): a line of the page is then never a line of the file, so a
    location on the page is told from one in the file by its line alone. Each description
    starts on a line of its own after a blank one and a thematic break, read as if alone (an
    unclosed fence of one never runs into the next) under a heading of no text (the headings
    of one are not the next's)."""

    text: str
    prose: ProseDocument
    offset: int
    descriptions: tuple[Description, ...]
    starts: tuple[int, ...]  # the page line each description's text starts on

    def place(self, line: int, column: int) -> tuple[int, int, str] | None:
        """The file's line and column of the page's ``line`` and ``column``, and the pointer of
        the description there (line 0: at the description's key, not asked); None for a line
        that is no description's."""
        if line <= self.offset or not self.starts:
            return None
        index = _last_at_or_before(self.starts, line)
        if index < 0:
            return None
        described = self.descriptions[index]
        within = line - self.starts[index]
        if described.first_line:
            return described.first_line + within, column + described.indent, described.pointer
        return described.key[0], described.key[1], described.pointer


def _last_at_or_before(starts: tuple[int, ...], line: int) -> int:
    low, high = 0, len(starts)
    while low < high:
        middle = (low + high) // 2
        if starts[middle] <= line:
            low = middle + 1
        else:
            high = middle
    return low - 1


def descriptions(
    data: Any, position: Any, lines: Sequence[str], yaml: bool
) -> Iterator[Description]:
    """Every description of an API document's ``data``, in document order. ``position`` gives
    a pointer's (line, column) of its key; ``lines`` are the file's; ``yaml``: a YAML file,
    whose literal block scalars map exactly."""
    for pointer, text in _walk(data, ""):
        if not _READ.search(text):
            continue
        if not yaml:
            yield Description(pointer, text, (0, 0))
            continue
        key = position(pointer)
        first, indent = _literal_lines(text, key, lines)
        yield Description(pointer, text, key, first, indent)


def _walk(node: Any, pointer: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for name, value in node.items():
            key = str(name)
            if key == "description" and isinstance(value, str):
                if value.strip():
                    yield join_pointer(pointer, key), value
            elif key.startswith("x-") or (
                key in _DATA_MEMBERS and not _example_objects(key, value)
            ):
                continue  # a value, or an extension's data
            else:
                yield from _walk(value, join_pointer(pointer, key))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _walk(item, join_pointer(pointer, index))


def _example_objects(key: str, value: Any) -> bool:
    """An OpenAPI ``examples`` map of Example Objects (whose descriptions are prose), not a
    JSON Schema ``examples`` array of instances."""
    return key == "examples" and isinstance(value, dict)


def _literal_lines(text: str, key: Position, lines: Sequence[str]) -> tuple[int, int]:
    """The first line and the indentation of a literal block scalar's text in the file, when
    every line of the text is its line of the file less that indentation (YAML 1.2 §8.1.2);
    (0, 0) otherwise."""
    line = key[0]
    if not 0 < line <= len(lines):
        return 0, 0
    found = _KEY.match(lines[line - 1][max(key[1] - 1, 0) :]) or _KEY.match(lines[line - 1])
    if found is None or not found.group(1).startswith("|"):
        return 0, 0
    rows = text.split("\n")
    if text.endswith("\n"):
        rows.pop()
    body = lines[line : line + len(rows)]
    if len(body) < len(rows):
        return 0, 0
    first = next((r for r in body if r.strip()), "")
    indent = len(first) - len(first.lstrip(" "))
    for row, source in zip(rows, body, strict=True):
        if row and (source[:indent].strip() or source[indent:].rstrip("\r") != row):
            return 0, 0
        if not row and source.strip():
            return 0, 0
    return line + 1, indent


def description_page(found: list[Description], line_count: int) -> DescriptionPage | None:
    """The page of ``found`` descriptions of a file of ``line_count`` lines (None: none)."""
    if not found:
        return None
    rows = [""] * line_count
    starts: list[int] = []
    parts: list[tuple[int, str]] = []
    for described in found:
        # A blank line and a thematic break before each: the break ends a list or a block
        # quote the one before left open (read together, a list of one description went on
        # with the next's items), and is the line of the heading of no text that opens it;
        # the blank line keeps the last paragraph of one from being the text above the next's
        # first fence.
        rows += ["", _BREAK]
        starts.append(len(rows) + 1)
        parts.append((len(rows), described.text))
        rows.extend(described.text.split("\n"))
    text = "\n".join(rows)
    prose = parse_markdown_parts(text, parts)
    return DescriptionPage(text, prose, line_count, tuple(found), tuple(starts))
