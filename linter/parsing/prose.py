"""The prose model: Markdown parsed by a real CommonMark parser, with source lines everywhere.

pulldown-cmark (CommonMark plus GFM tables, through pyromark, read as markdown-it's tokens:
``speclint.parsing.pulldown``) turns each page into headings (with GitHub's anchors),
paragraphs, list items, tables, code fences and inline code spans. Each element keeps its 1-based
source lines and the heading it sits under, so a prose finding can cite ``file:line`` and
``#anchor``. Rules read enumerations and counted claims from this model; nothing here interprets them.
Paragraphs and list items keep offsets into the page's one text (``PageText``), not copies of
their lines, and a paragraph's rendered text (``plain``) is kept as the slices of the page it is
made of (``Paragraph.rendering``). What is kept as strings is what is short and read often: code
spans (interned), table cells, headings, fences.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt

from speclint.common.parallel import sent_by_fields
from speclint.parsing import mdx as mdx_reading
from speclint.parsing import pulldown


@sent_by_fields
@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    text: str
    anchor: str
    line: int
    path: tuple[str, ...]


@sent_by_fields
@dataclass(frozen=True, slots=True)
class InlineCode:
    text: str
    line: int
    column: int
    heading: Heading | None


@sent_by_fields
@dataclass(frozen=True, slots=True)
class Link:
    """An inline link: ``target`` is the raw destination (relative path, ``#anchor`` or URL)."""

    target: str
    text: str
    line: int
    heading: Heading | None


@sent_by_fields
@dataclass(frozen=True, slots=True)
class HtmlComment:
    """A comment block, the place authors leave machine markers: an HTML comment
    (``<!-- key: value -->``), or MDX's JSX comment on lines of its own (``{/* ... */}``)."""

    text: str
    line: int
    end_line: int
    heading: Heading | None


@sent_by_fields
@dataclass(frozen=True, slots=True)
class PageText:
    """The text of one page, one object that its paragraphs and list items keep offsets into:
    a copy of each was the largest part of the model (2.4 of OpenWOP's 12.6 MB of models for
    1.9 MB of pages). A packed model holds it once (``speclint.common.storage`` writes an object
    seen before as a back-reference), beside the entry's ``Document.text``: the entries are
    about as large as before (the copies are gone, the page is there once more). A model read
    back shares its ``Document.text`` (``speclint.model.corpus.Document.prose``)."""

    text: str


@sent_by_fields
@dataclass(frozen=True, slots=True, eq=False)
class Paragraph:
    """A paragraph: ``text`` is its source lines as written (a slice of the page), ``plain``
    the text it renders to (no markup, a space for each line break).

    ``rendering`` is how ``plain`` is kept: the slices of ``page.text`` it is made of, as pairs
    of offsets packed in bytes (a pair ``-1, -1`` is the space of a line break), or, where a
    piece of the rendered text is no slice of the page (an entity, a code span across lines),
    the rendered text itself. The strings were the largest part of the model (2.25 of OpenWOP's
    10.5 MB of models; the slices take 0.5 MB), and they are read only while a page's
    statements are extracted, which the parse cache keeps (``READS = "extract"``)."""

    page: PageText
    start: int  # offsets of ``text`` in ``page.text``
    stop: int
    rendering: bytes | str
    line: int
    end_line: int
    heading: Heading | None
    in_list_item: bool
    inline_code: tuple[InlineCode, ...]
    links: tuple[Link, ...] = ()

    @property
    def text(self) -> str:
        return self.page.text[self.start : self.stop]

    def _compared(self) -> tuple[Any, ...]:
        # Two readings of a page that render a paragraph alike are alike: which slices make up
        # ``plain`` depends on how a reader splits the text (``tests/parsing/test_pulldown.py``).
        return (
            self.start,
            self.stop,
            self.text,
            self.plain,
            self.line,
            self.end_line,
            self.heading,
            self.in_list_item,
            self.inline_code,
            self.links,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Paragraph:
            return NotImplemented
        assert isinstance(other, Paragraph)
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    @property
    def plain(self) -> str:
        rendering = self.rendering
        if isinstance(rendering, str):
            return rendering
        page = self.page.text
        numbers = memoryview(rendering).cast("i").tolist()
        if len(numbers) == 2:  # a paragraph without markup, on one line (a sixth of them)
            return page[numbers[0] : numbers[1]]
        pairs = zip(numbers[::2], numbers[1::2], strict=True)
        return "".join([page[start:stop] if start >= 0 else " " for start, stop in pairs])


@sent_by_fields
@dataclass(frozen=True, slots=True)
class ListItem:
    """A list item's first paragraph; ``text`` as :class:`Paragraph`'s."""

    page: PageText
    start: int
    stop: int
    line: int
    end_line: int
    ordered: bool
    depth: int
    heading: Heading | None
    inline_code: tuple[InlineCode, ...]

    @property
    def text(self) -> str:
        return self.page.text[self.start : self.stop]


@sent_by_fields
@dataclass(frozen=True, slots=True)
class TableCell:
    text: str
    line: int
    inline_code: tuple[InlineCode, ...]


@sent_by_fields
@dataclass(frozen=True, slots=True)
class Table:
    header: tuple[TableCell, ...]
    rows: tuple[tuple[TableCell, ...], ...]
    line: int
    end_line: int
    heading: Heading | None


@sent_by_fields
@dataclass(frozen=True, slots=True)
class CodeFence:
    """A code block: a fenced one, or an indented one (CommonMark §4.4), which is read as a fence
    with no info string. Line ``k`` of ``content`` is the page's line ``line + k``: a fence's
    ``line`` is its opening line, an indented block's the line above its first (where an
    opening would be), so every reader locates the content alike; ``end_line`` is its last line
    (the closing line of a fence). ``margin`` is how many characters come before the content on
    its page lines (a fence in a list item, a block's four spaces), so that a column in the
    content is ``margin + column`` on the page."""

    language: str
    info: str
    content: str
    line: int
    end_line: int
    heading: Heading | None
    indented: bool = False
    margin: int = 0

    @property
    def start(self) -> int:
        """The block's first line on the page: a fence's opening line, an indented block's
        first line of code."""
        return self.line + 1 if self.indented else self.line

    def on_page(self, line: int, column: int) -> tuple[int, int]:
        """The page's line and column of a place in the content (``line`` counted from the
        opening line, ``column`` in the content's line), its margin counted: a fence in a list
        item, an indented block's four spaces."""
        return self.line + line, column + (self.margin if line > 0 else 0)


@sent_by_fields
@dataclass(frozen=True, slots=True)
class ProseDocument:
    headings: tuple[Heading, ...]
    paragraphs: tuple[Paragraph, ...]
    list_items: tuple[ListItem, ...]
    tables: tuple[Table, ...]
    fences: tuple[CodeFence, ...]
    inline_code: tuple[InlineCode, ...]
    line_count: int
    links: tuple[Link, ...] = ()
    comments: tuple[HtmlComment, ...] = ()
    page: PageText | None = None  # the page's text, which paragraphs and list items slice

    def heading_at(self, line: int) -> Heading | None:
        index = bisect_right([h.line for h in self.headings], line) - 1
        return self.headings[index] if index >= 0 else None

    def anchor_exists(self, anchor: str) -> bool:
        return any(h.anchor == anchor for h in self.headings)


class CommentBlocks:
    """A page's comment blocks by line (HTML comments, and MDX's JSX comments on lines of their
    own): what may stand between a block and the text about it without parting them. A waiver
    (``{/* speclint-ignore rule: reason */}``) or a marker is written directly above the block it
    is about, between the paragraph that introduces a fence, a list or a table and that block:
    the paragraph is still the one beside it (issue 44, item 12). ``lines``: the page's lines."""

    def __init__(self, prose: ProseDocument | None, lines: Sequence[str]) -> None:
        self.lines = lines
        # Comments only: an HTML block that holds a comment among other HTML (`<details>`) is
        # content of the page.
        comments = [
            c
            for c in (prose.comments if prose is not None else ())
            if c.text.startswith(("<!--", "{")) and c.text.endswith(("-->", "}"))
        ]
        self.first_of = {c.end_line: c.line for c in comments}  # last line -> first line
        self.last_of = {c.line: c.end_line for c in comments}

    def above(self, line: int) -> int:
        """``line``, or the first line of the comment blocks just above it (blank lines
        between): where the text above what starts at ``line`` is looked for from."""
        top, probe = line, line - 1
        while probe >= 1:
            if not self.lines[probe - 1].strip():
                probe -= 1
            elif probe in self.first_of:
                top = self.first_of[probe]
                probe = top - 1
            else:
                break
        return top

    def below(self, line: int) -> int:
        """``line``, or the last line of the comment blocks just below it (blank lines
        between): where the text below what ends at ``line`` is looked for from."""
        bottom, probe = line, line + 1
        while probe <= len(self.lines):
            if not self.lines[probe - 1].strip():
                probe += 1
            elif probe in self.last_of:
                bottom = self.last_of[probe]
                probe = bottom + 1
            else:
                break
        return bottom


def cell_offset(line: str, index: int) -> int:
    """Where the ``index``-th cell of a table row's line starts (0-based offset): after the
    pipe that opens it. GFM splits a row on every pipe but an escaped one (``\\|``), inside
    code spans too (GFM §4.10, example 200)."""
    pipes, start = _row_pipes(line)
    return start if index == 0 else (pipes[index - 1] + 1 if index - 1 < len(pipes) else start)


@functools.lru_cache(maxsize=64)
def _row_pipes(line: str) -> tuple[tuple[int, ...], int]:
    """The offsets of a row's pipes that end its cells, and where its first cell starts: found
    once for a row, not once for each of its cells (each cell's search read the whole line)."""
    pipes = []
    at = line.find("|")
    while at >= 0:
        if at == 0 or line[at - 1] != "\\":
            pipes.append(at)
        at = line.find("|", at + 1)
    if line.lstrip().startswith("|"):
        return tuple(pipes[1:]), line.index("|") + 1
    return tuple(pipes), 0


def github_anchor(text: str) -> str:
    """GitHub's heading slug (github-slugger): lower-case, drop punctuation, spaces to hyphens."""
    kept = "".join(
        ch for ch in text.lower() if ch in " -_" or unicodedata.category(ch)[0] in {"L", "N", "M"}
    )
    return kept.replace(" ", "-")


def _parser() -> Any:
    """markdown-it, as the pages were read before pulldown-cmark (``tests/parsing/test_pulldown.py``
    compares the two readings)."""
    return MarkdownIt("commonmark").enable("table")


_FRONT_MATTER = re.compile(r"\A---\r?\n.*?\r?\n(?:---|\.\.\.)\r?\n", re.DOTALL)


def markdown_tokens(
    text: str, reader: str = "pulldown", mdx: bool = False
) -> tuple[list[Any], dict[str, Any]]:
    """The tokens of a page, in markdown-it's shape, and its environment (link reference
    definitions): read by pulldown-cmark, or by markdown-it with ``reader="markdown-it"``. YAML
    front matter is metadata, not a setext heading: it is blanked out, keeping line numbers.
    An MDX page (``mdx``) is read as MDX reads it (``speclint.parsing.mdx``): its lines of JSX
    tags are HTML blocks of their own, and the Markdown between them is Markdown."""
    front = _FRONT_MATTER.match(text)
    source = ("\n" * front.group(0).count("\n") + text[front.end() :]) if front else text
    runs: list[tuple[int, int]] = []
    inside: frozenset[int] = frozenset()
    if mdx:
        source, runs, inside = mdx_reading.as_commonmark(source)
    tokens, env = _read(source, reader)
    for _ in range(MDX_PASSES if inside else 0):
        # MDX has no indented code: what CommonMark reads as an indented code block inside a
        # component is read again moved left (a paragraph indented under nested components).
        blocks = [
            (t.map[0], t.map[1], t.content)
            for t in tokens
            if t.type == "code_block" and t.map and t.map[0] in inside
        ]
        if not blocks:
            break
        source = mdx_reading.without_indented_code(source, blocks)
        tokens, env = _read(source, reader)
    if runs:
        tokens = _with_tag_blocks(tokens, runs, text.split("\n"))
    return tokens, env


MDX_PASSES = 3  # readings of an MDX page for indented code inside indented code, at most


def _read(source: str, reader: str) -> tuple[list[Any], dict[str, Any]]:
    if reader == "pulldown":
        return pulldown.tokens(source)
    env: dict[str, Any] = {}
    return _parser().parse(source, env), env


def _with_tag_blocks(tokens: list[Any], runs: list[tuple[int, int]], lines: list[str]) -> list[Any]:
    """``tokens`` with an ``html_block`` for each run of JSX tag lines, before the first token
    that starts at or after it: the tags' attributes are what HTML blocks give the link reader
    (a component's ``href``, ``id``, ``title``)."""
    blocks = [
        pulldown.Token("html_block", [start, end], content="\n".join(lines[start:end]) + "\n")
        for start, end in runs
    ]
    out: list[Any] = []
    placed = 0
    for token in tokens:
        while placed < len(runs) and token.map and token.map[0] >= runs[placed][0]:
            out.append(blocks[placed])
            placed += 1
        out.append(token)
    return out + blocks[placed:]


def parse_markdown(text: str, mdx: bool = False) -> ProseDocument:
    return parse_markdown_with_tokens(text, mdx=mdx)[0]


def parse_markdown_with_tokens(
    text: str, reader: str = "pulldown", mdx: bool = False
) -> tuple[ProseDocument, list[Any], dict[str, Any]]:
    """The prose model, and the tokens it was built from (for the other readers of the same
    parse: ``speclint.parsing.links``); ``reader`` and ``mdx`` as :func:`markdown_tokens` takes
    them."""
    try:
        tokens, env = markdown_tokens(text, reader, mdx)
    except Exception:  # a prose model with nothing in it beats a crashed run
        tokens, env = [], {}
    return _model(text, tokens, indented_code=not mdx), tokens, env


def _model(text: str, tokens: list[Any], indented_code: bool = True) -> ProseDocument:
    """The prose model of ``text`` built from its ``tokens``."""
    page = PageText(text)
    builder = _Builder(text.split("\n"), page, indented_code=indented_code)
    builder.walk(tokens)
    return ProseDocument(
        headings=tuple(builder.headings),
        paragraphs=tuple(builder.paragraphs),
        list_items=tuple(builder.list_items),
        tables=tuple(builder.tables),
        fences=tuple(builder.fences),
        inline_code=tuple(builder.inline_code),
        line_count=text.count("\n") + 1,
        links=tuple(builder.links),
        comments=tuple(builder.comments),
        page=page,
    )


def parse_markdown_parts(text: str, parts: list[tuple[int, str]]) -> ProseDocument:
    """The prose model of ``text`` made of ``parts`` (each the 0-based index of its first line
    in ``text``, and its text, a blank line and a thematic break before each), each part read as if alone (a fence
    left open in one never runs into the next) and under a heading of no text on the line
    before it (the headings of one part are not the next's): an API document's descriptions as
    one page (``speclint.parsing.descriptions``).

    The parts are read together, one reading for thousands of them (read one by one, the
    reader's call was most of the time: 7 s of Adyen's 252 documents); a part that a block of
    it outruns (an unclosed fence, an HTML block) is read again alone, and the parts after it
    together again."""
    rows = text.split("\n")
    starts = [first for first, _ in parts]
    read: list[Any] = []  # every part's tokens, their lines the page's
    index = 0
    again = 0
    while index < len(parts):
        first = starts[index]
        together = again < _READ_AGAIN
        chunk = "\n".join(rows[first:]) if together else parts[index][1]
        found = _part_tokens(chunk, first)
        outrun = _outrun(found, starts, index) if together else None
        if outrun is None:
            read += found
            index = len(parts) if together else index + 1
            continue
        # the parts before the one outrun are read; that one alone; the rest together again
        cut = starts[outrun]
        read += _up_to(found, cut)
        read += _part_tokens(parts[outrun][1], cut)
        index = outrun + 1
        again += 1
    tokens: list[Any] = []
    part = 0
    for token in read:
        while token.map and part < len(parts) and token.map[0] >= starts[part]:
            above = [starts[part] - 1, starts[part]]
            tokens += [
                pulldown.Token("heading_open", above, tag="h6"),
                pulldown.Token("inline", above, children=[]),
                pulldown.Token("heading_close", above, tag="h6"),
            ]
            part += 1
        if token.map and part < len(parts):
            # a block ends with its part, never on the lines that part it from the next
            token.map = [token.map[0], min(token.map[1], starts[part] - 2)]
        tokens.append(token)
    return _model(text, tokens)


# Parts outrun by a block of the one before, read again alone, before the rest are read alone
# too (each outrun part makes the rest be read again: bounded, not quadratic).
_READ_AGAIN = 8


def _part_tokens(chunk: str, first: int) -> list[Any]:
    """The tokens of ``chunk``, its lines moved to start at ``first``."""
    try:
        found = markdown_tokens(chunk)[0]
    except Exception:  # a part with nothing in it beats a crashed run, as a page's
        return []
    for token in found:
        if token.map:
            token.map = [token.map[0] + first, token.map[1] + first]
    return list(found)


def _outrun(tokens: list[Any], starts: list[int], index: int) -> int | None:
    """The first part (from ``index``) a block of which runs into the next part's text."""
    for token in tokens:
        if not token.map or token.type == "hr":  # a break: the one before each part, or a part's
            continue
        at = bisect_right(starts, token.map[0]) - 1
        if index <= at < len(starts) - 1 and token.map[1] > starts[at + 1] - 1:
            return at
    return None


def _up_to(tokens: list[Any], line: int) -> list[Any]:
    """The tokens before the first that starts at ``line`` or after (those without lines go
    with the one before them)."""
    for number, token in enumerate(tokens):
        if token.map and token.map[0] >= line:
            return tokens[:number]
    return tokens


# A JSX comment on a line of its own, and a text of such comments only: MDX's comment
# (`{/* ... */}`), where an MDX page writes what a Markdown page writes as `<!-- ... -->` (a
# waiver, a note to editors; HTML comments do not compile in MDX). It renders to nothing, so it is
# no paragraph and no line of one: it is a comment of the page, as an HTML comment block is
# (issue 44, item 12). CommonMark reads it as a paragraph, or as a line of the paragraph it
# touches. A JavaScript comment holds no `*/`.
_JSX_COMMENT = re.compile(r"\s*\{\s*/\*(?:[^*]|\*(?!/))*\*/\s*\}\s*")
_JSX_COMMENTS = re.compile(r"(?:\s*\{\s*/\*(?:[^*]|\*(?!/))*\*/\s*\})+\s*")


class _Inline:
    """An inline token's children for some of its lines (the rest were comments)."""

    __slots__ = ("children",)

    def __init__(self, children: list[Any]) -> None:
        self.children = children


def _rendered(inline: Any) -> str:
    """An inline token's rendered text: its text and code spans, a space for each line break."""
    return "".join(
        c.content if c.type in {"text", "code_inline"} else (" " if "break" in c.type else "")
        for c in (inline.children or ())
    )


class _Builder:
    def __init__(self, lines: list[str], page: PageText, indented_code: bool = True) -> None:
        self.lines = lines
        self.page = page
        # MDX has no indented code blocks (mdxjs.com, "Markdown": indented code is off): an
        # indented line there is text.
        self.indented_code = indented_code
        # Where each line starts in the page's text: line i is text[starts[i] : starts[i+1] - 1].
        self.starts = [0]
        for line in lines:
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.headings: list[Heading] = []
        self.paragraphs: list[Paragraph] = []
        self.list_items: list[ListItem] = []
        self.tables: list[Table] = []
        self.fences: list[CodeFence] = []
        self.inline_code: list[InlineCode] = []
        self.links: list[Link] = []
        self.comments: list[HtmlComment] = []
        self.anchors: dict[str, int] = {}
        self.stack: list[Heading] = []

    @property
    def heading(self) -> Heading | None:
        return self.headings[-1] if self.headings else None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The offsets in the page's text of lines ``start`` to ``end``: the slice that is
        ``"\\n".join(lines[start:end])``."""
        end = min(max(end, start), len(self.lines))
        start = min(start, end)
        return self.starts[start], max(self.starts[end] - 1, self.starts[start])

    def rendering(self, inline: Any, first: int, last: int) -> bytes | str:
        """What a paragraph renders to (its text and code spans, a space for each line break),
        as the slices of the page's text between ``first`` and ``last`` it is made of; the
        rendered text itself if a piece is none (``Paragraph.rendering``)."""
        find = self.page.text.find
        pieces: list[int] = []
        cursor = first
        for child in inline.children or ():
            kind = child.type
            if kind == "text" or kind == "code_inline":
                content = child.content
                at = find(content, cursor, last)
                if at < 0:
                    return _rendered(inline)
                if at == cursor and pieces and pieces[-1] == at:
                    cursor = pieces[-1] = at + len(content)  # it goes on where the last one stopped
                else:
                    cursor = at + len(content)
                    pieces += (at, cursor)
            elif kind == "softbreak" or kind == "hardbreak":
                pieces += (-1, -1)
        return array("i", pieces).tobytes()

    def codes(self, inline: Any, first_line: int, start: int = 0) -> tuple[InlineCode, ...]:
        """Code spans of an inline token with their exact line (softbreaks move to the next)
        and column, searched from ``start`` of its first line (a table cell's own offset: the
        same span in an earlier cell is not this one)."""
        found: list[InlineCode] = []
        line = first_line
        searched_from: dict[int, int] = {first_line: start}
        for child in inline.children or ():
            if child.type in {"softbreak", "hardbreak"}:
                line += 1
            elif child.type == "code_inline":
                row = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
                ticks = child.markup or "`"
                at = row.find(ticks + child.content, searched_from.get(line, 0))
                if at < 0:
                    at = row.find(child.content, searched_from.get(line, 0))
                searched_from[line] = max(at, 0) + 1
                # Interned: a page names the same few hundred fields over and over (OpenWOP:
                # 18,000 spans, 7,200 distinct; 0.7 of their 1.2 MB were repeats).
                code = InlineCode(sys.intern(child.content), line, max(at, 0) + 1, self.heading)
                found.append(code)
                self.inline_code.append(code)
            elif child.type == "text" and "\n" in child.content:
                line += child.content.count("\n")
        return tuple(found)

    def link_targets(self, inline: Any, first_line: int) -> tuple[Link, ...]:
        """Links of an inline token, each with the line its opening bracket is on."""
        found: list[Link] = []
        line = first_line
        children = list(inline.children or ())
        for position, child in enumerate(children):
            if child.type in {"softbreak", "hardbreak"}:
                line += 1
            elif child.type == "text" and "\n" in child.content:
                line += child.content.count("\n")
            elif child.type == "link_open":
                label = []
                for following in children[position + 1 :]:
                    if following.type == "link_close":
                        break
                    label.append(following.content)
                link = Link(str(child.attrs.get("href", "")), "".join(label), line, self.heading)
                found.append(link)
                self.links.append(link)
        return tuple(found)

    def walk(self, tokens: list[Any]) -> None:
        list_stack: list[bool] = []
        item_starts: list[tuple[int, int, bool, int]] = []
        index = 0
        while index < len(tokens):
            token = tokens[index]
            kind = token.type
            if kind in {"bullet_list_open", "ordered_list_open"}:
                list_stack.append(kind == "ordered_list_open")
            elif kind in {"bullet_list_close", "ordered_list_close"}:
                if list_stack:
                    list_stack.pop()
            elif kind == "list_item_open" and token.map:
                item_starts.append(
                    (
                        token.map[0],
                        token.map[1],
                        list_stack[-1] if list_stack else False,
                        len(list_stack),
                    )
                )
            elif kind == "list_item_close":
                if item_starts:
                    item_starts.pop()
            elif kind == "heading_open" and token.map:
                inline = tokens[index + 1]
                text = "".join(
                    c.content for c in (inline.children or ()) if c.type in {"text", "code_inline"}
                ).strip()
                level = int(token.tag[1])
                base = github_anchor(text)
                seen = self.anchors.get(base, 0)
                self.anchors[base] = seen + 1
                anchor = base if seen == 0 else f"{base}-{seen}"
                while self.stack and self.stack[-1].level >= level:
                    self.stack.pop()
                heading = Heading(
                    level, text, anchor, token.map[0] + 1, (*(h.text for h in self.stack), text)
                )
                self.stack.append(heading)
                self.headings.append(heading)
                self.codes(inline, token.map[0] + 1)
                index += 3
                continue
            elif kind == "paragraph_open" and token.map:
                inline = tokens[index + 1]
                opening, end = token.map
                in_item = bool(item_starts) and item_starts[-1][0] <= opening < item_starts[-1][1]
                for number, (start, stop, part) in enumerate(
                    self.paragraph_parts(inline, opening, end)
                ):
                    codes = self.codes(part, start + 1)
                    links = self.link_targets(part, start + 1)
                    first, last = self.span(start, stop)
                    self.paragraphs.append(
                        Paragraph(
                            self.page,
                            first,
                            last,
                            self.rendering(part, first, last),
                            start + 1,
                            stop,
                            self.heading,
                            in_item,
                            codes,
                            links,
                        )
                    )
                    if number == 0 and in_item and item_starts[-1][0] == opening:
                        _, item_end, ordered, depth = item_starts[-1]
                        self.list_items.append(
                            ListItem(
                                self.page,
                                first,
                                last,
                                start + 1,
                                item_end,
                                ordered,
                                depth,
                                self.heading,
                                codes,
                            )
                        )
                index += 3
                continue
            elif kind == "fence" and token.map:
                info = token.info.strip()
                # `json,title=x`, `json{title=x}` and `json title=x` are all JSON fences.
                language = re.split(r"[\s,{]", info, maxsplit=1)[0].lower() if info else ""
                first = token.map[0] + 1
                self.fences.append(
                    CodeFence(
                        language,
                        info,
                        token.content,
                        first,
                        token.map[1],
                        self.heading,
                        margin=self.margin(token.content, first),
                    )
                )
            elif kind == "code_block" and token.map and self.indented_code:
                self.fences.append(self.indented_block(token))
            elif kind == "html_block" and token.map and "<!--" in token.content:
                self.comments.append(
                    HtmlComment(token.content.strip(), token.map[0] + 1, token.map[1], self.heading)
                )
            elif kind == "table_open" and token.map:
                index = self.table(tokens, index)
                continue
            index += 1

    def indented_block(self, token: Any) -> CodeFence:
        """An indented code block (CommonMark §4.4) as a fence with no info string: its content
        dedented as the parser gives it, its ``line`` the line above its first. Inside a list
        item an indented line is the item's paragraph, not code: the parser's tokens say which,
        and only a ``code_block`` token comes here."""
        above = token.map[0]
        return CodeFence(
            "",
            "",
            token.content,
            above,
            token.map[1],
            self.heading,
            indented=True,
            margin=self.margin(token.content, above),
        )

    def margin(self, content: str, line: int) -> int:
        """How many characters come before a block's content on its page lines (its content's
        first line is the page's ``line + 1``): the indentation of a fence in a list item, the
        four spaces of an indented block, a quote's ``>``."""
        for number, row in enumerate(content.split("\n"), line):
            if row.strip() and 0 <= number < len(self.lines):
                written = self.lines[number].rstrip("\r")
                return len(written) - len(row) if written.endswith(row) else 0
        return 0

    def paragraph_parts(self, inline: Any, start: int, end: int) -> list[tuple[int, int, Any]]:
        """The parts of the paragraph on lines ``start`` to ``end`` between its JSX comments on
        lines of their own, each with its lines and its inline token: the comments go to
        :attr:`comments` and part the paragraph, as an HTML comment block does. Most
        paragraphs are one part, themselves; one of comments only has none."""
        rows = self.lines[start:end]
        if not any(row.lstrip()[:1] == "{" for row in rows):
            return [(start, end, inline)]  # most paragraphs: no line of theirs is a comment
        if _JSX_COMMENTS.fullmatch("\n".join(rows)):
            self.comment(rows, start, end)
            return []
        commented = [_JSX_COMMENT.fullmatch(row) is not None for row in rows]
        if not any(commented):
            return [(start, end, inline)]
        # Each row's part (the index of the run of text rows it is in), -1 for a comment.
        part_of: list[int] = []
        parts = 0
        for number, comment in enumerate(commented):
            if not comment and (number == 0 or commented[number - 1]):
                parts += 1
            part_of.append(-1 if comment else parts - 1)
        children: list[list[Any]] = [[] for _ in range(parts)]
        row = 0
        for child in inline.children or ():
            if child.type in {"softbreak", "hardbreak"}:
                row += 1
                if row >= len(rows):
                    return [(start, end, inline)]  # more breaks than lines: read it whole
                if part_of[row - 1] >= 0 and part_of[row - 1] == part_of[row]:
                    children[part_of[row]].append(child)
                continue
            # The source lines a piece spans: inline HTML is kept as written (`<span\nid=x>`).
            spans = child.content.count("\n") if child.type in {"text", "html_inline"} else 0
            touched = {part_of[r] for r in range(row, min(row + spans, len(rows) - 1) + 1)}
            if len(touched) != 1:
                return [(start, end, inline)]  # a piece across a comment's edge: read it whole
            (part,) = touched
            if part >= 0:
                children[part].append(child)
            row += spans
        if row != len(rows) - 1:
            # Lines not counted (a code span across lines keeps no line break): which line a
            # piece is on is not known, so the paragraph is read whole.
            return [(start, end, inline)]
        found: list[tuple[int, int, Any]] = []
        first = 0
        for number in range(len(rows) + 1):
            if number == len(rows) or part_of[number] != part_of[first]:
                if part_of[first] < 0:
                    self.comment(rows[first:number], start + first, start + number)
                else:
                    text = _Inline(children[part_of[first]])
                    found.append((start + first, start + number, text))
                first = number
        return found

    def comment(self, rows: list[str], start: int, end: int) -> None:
        text = "\n".join(rows).strip()
        self.comments.append(HtmlComment(text, start + 1, end, self.heading))

    def table(self, tokens: list[Any], index: int) -> int:
        start, end = tokens[index].map
        header: list[TableCell] = []
        rows: list[tuple[TableCell, ...]] = []
        row: list[TableCell] = []
        row_line = start + 1
        in_head = False
        index += 1
        while index < len(tokens) and tokens[index].type != "table_close":
            token = tokens[index]
            if token.type == "thead_open":
                in_head = True
            elif token.type == "thead_close":
                in_head = False
            elif token.type == "tr_open":
                row = []
                row_line = token.map[0] + 1 if token.map else row_line + 1
            elif token.type == "tr_close":
                if in_head:
                    header = row
                else:
                    rows.append(tuple(row))
            elif token.type == "inline":
                self.link_targets(token, row_line)
                text = self.lines[row_line - 1] if 0 < row_line <= len(self.lines) else ""
                codes = self.codes(token, row_line, cell_offset(text, len(row)))
                row.append(TableCell(token.content, row_line, codes))
            index += 1
        self.tables.append(Table(tuple(header), tuple(rows), start + 1, end, self.heading))
        return index + 1
