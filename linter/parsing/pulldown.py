"""Markdown read by pulldown-cmark (pyromark), as the token stream markdown-it gives.

The prose model (``speclint.parsing.prose``) and the link reader (``speclint.parsing.links``)
read markdown-it's tokens. markdown-it-py parses OpenWOP's 73 pages in about 0.65 s; pulldown-cmark,
a CommonMark parser in Rust with GFM tables, gives the same pages' events with their byte ranges in
about 0.1 s (issue 29). This module turns those events into tokens of markdown-it's shape, with the
fields the two readers use (``type``, ``map``, ``content``, ``children``, ``tag``, ``info``,
``markup``, ``attrs``) holding what markdown-it would put there:

- ``map``: a block's 0-based first line and the line after its last, from its byte range; a list
  item runs to the next item, and the last one to the list's end (markdown-it's mapping);
- a tight list item's text is a paragraph, as markdown-it makes it (pulldown-cmark gives it bare);
- ``content`` of an inline token: the source from its first inline element, later lines without
  their indentation; of a table cell, the cell's source with ``\\|`` unescaped;
- links: ``href`` normalised as markdown-it normalises it (percent-encoded), ``mailto:`` before an
  e-mail autolink, an autolink's text decoded, and a link markdown-it refuses (``javascript:``) kept
  as text; an image is one ``image`` token whose ``content`` is its alternative text;
- the link reference definitions (``env["references"]``), keyed and normalised as markdown-it does,
  with the lines they are written on.

On 2,959 Markdown files of 41 specification repositories and OpenWOP, the prose model and the link
reader's page built from these tokens equal those built from markdown-it's on 2,957. The two
others are where the two parsers read the same text differently: a line indented four spaces
right after a table is a row for pulldown-cmark and ends the table for markdown-it; a code span
across a line ending after trailing spaces keeps one space fewer. (A third, a table whose
delimiter row holds tabs, which pulldown-cmark reads as a paragraph and GitHub and markdown-it as
a table, is read as a table: see ``_untabbed_delimiter_rows``.)
``tests/parsing/test_pulldown.py`` holds the readings to each other on a page written for them, and pins
these differences.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any, cast

import pyromark
from markdown_it.common.normalize_url import normalizeLink, normalizeLinkText, validateLink
from markdown_it.common.utils import normalizeReference

OPTIONS = pyromark.Options.ENABLE_TABLES  # CommonMark and GFM tables, as markdown-it was set up

# The events that hold blocks; every other event is inline content.
BLOCKS = frozenset(
    {
        "Paragraph",
        "Heading",
        "BlockQuote",
        "CodeBlock",
        "HtmlBlock",
        "List",
        "Item",
        "Table",
        "TableHead",
        "TableRow",
        "TableCell",
        "Rule",
        "FootnoteDefinition",
        "DefinitionList",
        "MetadataBlock",
    }
)
BACKTICK = 0x60
BACKSLASH = 0x5C


class Token:
    """A token with the fields of markdown-it's ``Token`` that speclint reads."""

    __slots__ = ("attrs", "children", "content", "info", "map", "markup", "tag", "type")

    def __init__(
        self,
        kind: str,
        mapped: list[int] | None = None,
        content: str = "",
        children: list[Token] | None = None,
        tag: str = "",
        info: str = "",
        markup: str = "",
        attrs: dict[str, str] | None = None,
    ) -> None:
        self.type = kind
        self.map = mapped
        self.content = content
        self.children = children
        self.tag = tag
        self.info = info
        self.markup = markup
        self.attrs = attrs or {}

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.map}, {self.content!r})"


class _Node:
    """An event with its byte range; a start event holds the events up to its end."""

    __slots__ = ("children", "detail", "end", "name", "start", "value")

    def __init__(self, name: str, detail: Any, start: int, end: int, value: Any = None) -> None:
        self.name = name
        self.detail = detail
        self.start = start
        self.end = end
        self.children: list[_Node] = []
        self.value = value


def _tree(source: str) -> list[_Node]:
    root = _Node("", None, 0, 0)
    stack = [root]
    for event, span in pyromark.events_with_range(source, options=OPTIONS):
        # pyromark's events are plain dicts and strings (its typed union is read as data here).
        event = cast(Any, event)
        start, end = span["start"], span["end"]
        if isinstance(event, str):  # SoftBreak, HardBreak, Rule
            stack[-1].children.append(_Node(event, None, start, end))
            continue
        ((kind, value),) = event.items()
        if kind == "Start":
            if isinstance(value, str):
                name, detail = value, None
            else:
                ((name, detail),) = value.items()
            node = _Node(name, detail, start, end)
            stack[-1].children.append(node)
            stack.append(node)
        elif kind == "End":
            stack.pop()
        else:  # Text, Code, Html, InlineHtml, ...
            stack[-1].children.append(_Node(kind, None, start, end, value))
    return root.children


class _Source:
    """The page's UTF-8 bytes (pulldown-cmark's ranges are byte offsets) and its lines."""

    def __init__(self, text: str) -> None:
        self.raw = text.encode("utf-8", "surrogateescape")
        starts = [0]
        at = self.raw.find(b"\n")
        while at >= 0:
            starts.append(at + 1)
            at = self.raw.find(b"\n", at + 1)
        self.starts = starts
        # markdown-it does not count a last line that is blank and has no newline.
        self.whole_lines = len(starts) - (0 if self.raw[starts[-1] :].strip() else 1)

    def line(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def span(self, node: _Node) -> list[int]:
        start = node.start
        if self.raw[start : start + 1] == b"\n" and node.end > start + 1:
            start += 1  # an item indented by a tab starts at the newline before it
        return [self.line(start), self.line(max(node.end - 1, start)) + 1]

    def text(self, start: int, end: int) -> str:
        return self.raw[start:end].decode("utf-8", "surrogateescape")

    def line_end(self, line: int) -> int:
        return self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.raw)


class _Emitter:
    def __init__(self, source: _Source, given: str | None = None) -> None:
        self.source = source
        self.given = given  # the text pulldown-cmark was given, when it is not the page's
        self.out: list[Token] = []

    # --- blocks --------------------------------------------------------------------------------

    def blocks(self, nodes: list[_Node]) -> None:
        run: list[_Node] = []  # inline content right in a container: a tight item's paragraph
        for node in nodes:
            if node.name in BLOCKS:
                if run:
                    self.paragraph(run)
                    run = []
                self.block(node)
            else:
                run.append(node)
        if run:
            self.paragraph(run)

    def paragraph(self, run: list[_Node]) -> None:
        first = self.source.line(run[0].start)
        last = self.source.line(max(run[-1].end - 1, run[-1].start))
        # A tight item's text that starts with an escape (`- \\*x`) starts at the backslash.
        start = run[0].start
        if start > 0 and self.source.raw[start - 1] == BACKSLASH:
            start -= 1
        self.out.append(Token("paragraph_open", [first, last + 1]))
        self.out.append(self.inline(run, [first, last + 1], start=start))
        self.out.append(Token("paragraph_close"))

    def block(self, node: _Node) -> None:
        source, out, name = self.source, self.out, node.name
        if name == "Paragraph":
            mapped = source.span(node)
            out.append(Token("paragraph_open", mapped))
            out.append(self.inline(node.children, mapped, start=node.start))
            out.append(Token("paragraph_close"))
        elif name == "Heading":
            mapped = source.span(node)
            tag = "h" + str(node.detail["level"])[1:]
            out.append(Token("heading_open", mapped, tag=tag))
            out.append(self.inline(node.children, mapped, heading=True))
            out.append(Token("heading_close", tag=tag))
        elif name == "List":
            kind = "ordered_list" if node.detail is not None else "bullet_list"
            out.append(Token(f"{kind}_open", source.span(node)))
            items = node.children
            for position, item in enumerate(items):
                first, end = source.span(item)
                if position + 1 < len(items):
                    end = source.span(items[position + 1])[0]
                else:
                    end = min(end, source.whole_lines)
                out.append(Token("list_item_open", [first, end]))
                self.blocks(item.children)
                out.append(Token("list_item_close"))
            out.append(Token(f"{kind}_close"))
        elif name == "BlockQuote":
            out.append(Token("blockquote_open", source.span(node)))
            self.blocks(node.children)
            out.append(Token("blockquote_close"))
        elif name == "CodeBlock":
            fenced = isinstance(node.detail, dict)
            out.append(
                Token(
                    "fence" if fenced else "code_block",
                    source.span(node),
                    content="".join(self.code(c) for c in node.children if c.name == "Text"),
                    info=str(node.detail["Fenced"]) if fenced else "",
                )
            )
        elif name == "HtmlBlock":
            content = "".join(str(child.value) for child in node.children)
            out.append(Token("html_block", source.span(node), content=content))
        elif name == "Table":
            self.table(node)
        elif name == "Rule":
            out.append(Token("hr", source.span(node)))
        else:  # footnotes, definition lists, metadata: not enabled, their blocks read as such
            self.blocks(node.children)

    def code(self, text: _Node) -> str:
        """A piece of a code block's text, as written (not as given to pulldown-cmark: see
        ``_untabbed_delimiter_rows``)."""
        value = str(text.value)
        if self.given is not None and "\t" in self.source.text(text.start, text.end):
            written = self.source.text(text.start, text.end)
            if written.replace("\t", " ") == value:
                return written
        return value

    def table(self, node: _Node) -> None:
        self.out.append(Token("table_open", self.source.span(node)))
        body = False
        for part in node.children:
            if part.name == "TableHead":
                self.out.append(Token("thead_open"))
                self.row(part, "th")
                self.out.append(Token("thead_close"))
            elif part.name == "TableRow":
                if not body:
                    self.out.append(Token("tbody_open"))
                    body = True
                self.row(part, "td")
        if body:
            self.out.append(Token("tbody_close"))
        self.out.append(Token("table_close"))

    def row(self, row: _Node, cell: str) -> None:
        line = self.source.line(row.start)
        self.out.append(Token("tr_open", [line, line + 1]))
        for child in row.children:
            self.out.append(Token(f"{cell}_open"))
            self.out.append(
                Token("inline", [line, line + 1], self.cell(child), self.inlines(child.children))
            )
            self.out.append(Token(f"{cell}_close"))
        self.out.append(Token("tr_close"))

    # --- inline content ------------------------------------------------------------------------

    def inline(
        self,
        nodes: list[_Node],
        mapped: list[int],
        heading: bool = False,
        start: int | None = None,
    ) -> Token:
        """An inline token; its content starts at ``start`` (a paragraph's first byte: an
        escape's backslash is before its text's range), else at the first element."""
        return Token("inline", mapped, self.content(nodes, heading, start), self.inlines(nodes))

    def cell(self, cell: _Node) -> str:
        """A cell's source, as markdown-it splits a row: at unescaped pipes, escapes dropped."""
        text = self.source.text(cell.start, cell.end).strip()
        if text.startswith("|"):
            text = text[1:]
        if text.endswith("|") and not text.endswith("\\|"):
            text = text[:-1]
        return text.strip().replace("\\|", "|")

    def content(self, nodes: list[_Node], heading: bool, start: int | None = None) -> str:
        """The inline source: from the first element to the end of its line (of a heading: to
        its last element, before a closing ``#`` sequence), later lines without indentation."""
        if not nodes:
            return ""
        source = self.source
        start = nodes[0].start if start is None else start
        first = source.line(start)
        last = source.line(max(nodes[-1].end - 1, start))
        if heading and first == last:
            return source.text(start, nodes[-1].end).strip()
        parts = [source.text(start, source.line_end(first))]
        for line in range(first + 1, last + 1):
            parts.append(source.text(source.starts[line], source.line_end(line)).lstrip())
        return "\n".join(parts).strip()

    def inlines(self, nodes: list[_Node]) -> list[Token]:
        out: list[Token] = []
        self._inlines(nodes, out)
        return out

    def _inlines(self, nodes: list[_Node], out: list[Token]) -> None:
        for node in nodes:
            name = node.name
            if name == "Text":
                out.append(Token("text", content=str(node.value)))
            elif name == "Code":
                raw, at = self.source.raw, node.start
                ticks = 0
                while at + ticks < len(raw) and raw[at + ticks] == BACKTICK:
                    ticks += 1
                out.append(Token("code_inline", content=str(node.value), markup="`" * ticks))
            elif name == "SoftBreak":
                out.append(Token("softbreak"))
            elif name == "HardBreak":
                out.append(Token("hardbreak"))
            elif name in ("InlineHtml", "Html"):
                out.append(Token("html_inline", content=str(node.value)))
            elif name in ("Strong", "Emphasis"):
                tag = "strong" if name == "Strong" else "em"
                out.append(Token(f"{tag}_open"))
                self._inlines(node.children, out)
                out.append(Token(f"{tag}_close"))
            elif name == "Link":
                self.link(node, out)
            elif name == "Image":
                alt = self.inlines(node.children)
                # markdown-it's `content` of an image is its label as written (`*a*`, `` `c` ``).
                label = node.children
                written = self.source.text(label[0].start, label[-1].end) if label else ""
                out.append(
                    Token(
                        "image",
                        content=written,
                        children=alt,
                        attrs={"src": normalizeLink(str(node.detail["dest_url"]))},
                    )
                )
            else:  # strikethrough, math, footnote references: not enabled; their text
                self._inlines(node.children, out)

    def link(self, node: _Node, out: list[Token]) -> None:
        address = str(node.detail["dest_url"])
        how = node.detail["link_type"]
        url = f"mailto:{address}" if how == "Email" else address
        if not validateLink(url):  # markdown-it leaves `[x](javascript:...)` as text
            out.append(Token("text", content=self.source.text(node.start, node.end)))
            return
        markup = "autolink" if how in ("Autolink", "Email") else ""
        out.append(Token("link_open", markup=markup, attrs={"href": normalizeLink(url)}))
        if markup:  # the address, shown decoded
            out.append(Token("text", content=normalizeLinkText(address)))
        else:
            self._inlines(node.children, out)
        out.append(Token("link_close", markup=markup))


def references(text: str, source: _Source | None = None) -> dict[str, dict[str, Any]]:
    """The link reference definitions as markdown-it's ``env["references"]`` holds them."""
    found: dict[str, dict[str, Any]] = {}
    if "]:" not in text:  # a definition is `[label]:`: no second block pass for such a page
        return found
    source = source or _Source(text)
    for label, definition in pyromark.reference_definitions(text).items():
        key = normalizeReference(label)
        if key in found:
            continue
        start, end = definition["span"]["start"], definition["span"]["end"]
        found[key] = {
            "title": definition["title"] or "",
            "href": normalizeLink(definition["dest"]),
            "map": [source.line(start), source.line(max(end - 1, start)) + 1],
        }
    return found


# A table's delimiter row with a tab between its cells (`|---\t|---\t|`), under a header row:
# GitHub and markdown-it read a table, pulldown-cmark a paragraph. Those tabs are given to
# pulldown-cmark as spaces (one byte for one: every range stays where it is). A row indented by a
# tab, or without a pipe, is left as written (an indented code line, a setext underline).
_DELIMITER_ROW = re.compile(r" {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")


def _untabbed_delimiter_rows(text: str) -> str:
    if "\t" not in text or "|" not in text:
        return text
    lines = text.split("\n")
    changed = False
    for number in range(1, len(lines)):
        row = lines[number]
        if (
            "\t" in row
            and "|" in row
            and "|" in lines[number - 1]
            and _DELIMITER_ROW.fullmatch(row.rstrip("\r"))
        ):
            lines[number] = row.replace("\t", " ")
            changed = True
    return "\n".join(lines) if changed else text


def _normalised(text: str) -> str:
    """The text as markdown-it reads it: line endings ``\\r\\n`` and ``\\r`` made ``\\n``, and
    NUL made U+FFFD (CommonMark's "insecure characters")."""
    if "\r" in text:
        text = _LINE_ENDINGS.sub("\n", text)
    return text.replace("\x00", "\ufffd") if "\x00" in text else text


_LINE_ENDINGS = re.compile(r"\r\n?")


def tokens(text: str) -> tuple[list[Token], dict[str, Any]]:
    """The page's tokens and environment, as ``MarkdownIt("commonmark").enable("table")``
    gives them (see the module docstring)."""
    text = _normalised(text)
    source = _Source(text)
    given = _untabbed_delimiter_rows(text)
    emitter = _Emitter(source, given if given != text else None)
    emitter.blocks(_tree(given))
    found = references(text, source)
    return emitter.out, ({"references": found} if found else {})
