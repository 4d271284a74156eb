"""The prose model keeps offsets into its page's text, not copies of it (issue 29, item 1):
paragraphs and list items slice one shared ``PageText``, which the parse cache writes once per
page and which shares ``Document.text`` when read back."""

from __future__ import annotations

import dataclasses
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from speclint.common.storage import dumps
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.prose import PageText, cell_offset, markdown_tokens, parse_markdown
from speclint.run.cache import _packed

PAGE = """---
title: front matter
---
# Runs

A run is `queued` first, then `running`.
It ends `done`.

- first item with `queued`
  continued on a second line
- second item
  1. nested `running`

> quoted paragraph
> on two lines

| a | b |
| - | - |
| `x` | y |

Last paragraph without a newline at the end"""


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
@pytest.mark.parametrize("tail", ["", "\n", "\n\n"])
def test_paragraphs_and_list_items_are_their_source_lines(ending: str, tail: str) -> None:
    text = PAGE.replace("\n", ending) + tail
    lines = text.split("\n")
    model = parse_markdown(text)
    assert model.page is not None and model.page.text is text
    assert len(model.paragraphs) >= 6 and len(model.list_items) >= 3
    for paragraph in model.paragraphs:
        assert paragraph.page is model.page
        assert paragraph.text == "\n".join(lines[paragraph.line - 1 : paragraph.end_line])
    firsts = {p.line: p.text for p in model.paragraphs}
    for item in model.list_items:  # an item's text is its first paragraph's
        assert item.page is model.page and item.text == firsts[item.line], item
    assert model.paragraphs[-1].text == "Last paragraph without a newline at the end"


def test_inline_code_of_the_same_text_is_one_string() -> None:
    model = parse_markdown(PAGE)
    queued = [code.text for code in model.inline_code if code.text == "queued"]
    assert len(queued) == 2 and queued[0] is queued[1]


def _page(text: str) -> Document:
    return Document("spec/runs.md", DocumentKind.MARKDOWN, text=text, model=parse_markdown(text))


def test_the_parse_cache_writes_the_page_once_and_reads_it_back_shared() -> None:
    marker = "Unmistakable-marker-sentence"
    text = PAGE + "\n\n" + "\n\n".join(f"{marker} number {n}." for n in range(50)) + "\n"
    packed = _packed(_page(text))
    assert packed.model is None and packed.packed_model is not None
    # each sentence is in the entry once, in the one page text: a paragraph's text and its
    # rendered text (`plain`) are slices of it (a copy of each made it three times)
    assert packed.packed_model.count(marker.encode()) == 50
    restored = dataclasses.replace(packed, text=str(text))  # a separately decoded text
    model = restored.prose
    assert model is not None and model.page is not None
    assert model.page.text is restored.text
    fresh = parse_markdown(text)
    assert [p.text for p in model.paragraphs] == [p.text for p in fresh.paragraphs]
    assert [p.plain for p in model.paragraphs] == [p.plain for p in fresh.paragraphs]
    assert [i.text for i in model.list_items] == [i.text for i in fresh.list_items]


def test_a_model_of_another_text_is_made_again() -> None:
    # Offsets are only as good as the text they index: an entry whose page is not the
    # document's (a damaged or forged entry) is parsed again, never sliced wrongly.
    old = _page(PAGE)
    other = dataclasses.replace(
        old, text=PAGE.replace("A run is", "One run is"), model=None, packed_model=dumps(old.model)
    )
    model = other.prose
    assert model is not None
    assert any(p.text.startswith("One run is") for p in model.paragraphs)
    assert model.page is not None and model.page.text is other.text


def test_a_model_whose_offsets_leave_its_page_is_made_again() -> None:
    # A damaged or forged entry: the page is the document's text, but a paragraph points into
    # another text, or past the end (review).
    model = parse_markdown(PAGE)
    elsewhere = PageText("X" * len(PAGE))
    for forged in (
        dataclasses.replace(model.paragraphs[0], page=elsewhere),
        dataclasses.replace(model.paragraphs[0], start=-3),
        dataclasses.replace(model.paragraphs[0], stop=10**9),
        dataclasses.replace(model.paragraphs[0], rendering=array("i", [0, 10**9]).tobytes()),
        dataclasses.replace(model.paragraphs[0], rendering=array("i", [-7, 3]).tobytes()),
        dataclasses.replace(model.paragraphs[0], rendering=b"\x00\x00\x00"),
    ):
        bad = dataclasses.replace(model, paragraphs=(forged, *model.paragraphs[1:]))
        document = Document(
            "spec/runs.md", DocumentKind.MARKDOWN, text=PAGE, packed_model=dumps(bad)
        )
        read = document.prose
        assert read is not None and read.paragraphs[0].text == model.paragraphs[0].text
        assert read.paragraphs[0].plain == model.paragraphs[0].plain
        assert read.paragraphs[0].page is read.page


def _rendered_by_tokens(text: str) -> list[str]:
    """Each paragraph's rendered text as the tokens give it: text and code spans, a space for
    each line break (what ``plain`` was kept as before it was kept as slices)."""
    tokens, _ = markdown_tokens(text)
    return [
        "".join(
            c.content if c.type in {"text", "code_inline"} else (" " if "break" in c.type else "")
            for c in tokens[at + 1].children or ()
        )
        for at, token in enumerate(tokens)
        if token.type == "paragraph_open" and token.map
    ]


RENDERED_CASES = [
    "A `code` span, *emphasis*, **strong**, a [link](x.md) and <https://example.invalid>.",
    "Escapes \\* and \\` and entities &amp; &lt; &#42; and a hard  \nbreak.",
    "A code span `across\nlines` and a soft\nbreak; `` a `tick` span ``.",
    "- item with `code`\n  continued\n- &copy; item\n\n> quoted *text*\n> again",
    "Tabs\tand trailing spaces   \nand CRLF\r\nline ends\r\n",
    "Text [ref] and [other][ref].\n\n[ref]: ./target.md",
    "Unicode — “quotes” and 😀 emoji `naïve` text.",
]


@pytest.mark.parametrize("text", RENDERED_CASES)
def test_each_paragraph_renders_as_its_tokens(text: str) -> None:
    model = parse_markdown(text)
    assert [p.plain for p in model.paragraphs] == _rendered_by_tokens(text)
    assert model.paragraphs


def test_the_rendered_text_is_slices_of_the_page_where_it_can_be() -> None:
    model = parse_markdown(RENDERED_CASES[0] + "\n\n" + RENDERED_CASES[1])
    sliced, entities = model.paragraphs
    assert isinstance(sliced.rendering, bytes)  # every piece is in the page as written
    assert isinstance(entities.rendering, str)  # `&amp;` renders as `&`, which is no slice
    assert sliced.plain.startswith("A code span, emphasis, strong, a link and https://")


_MARKDOWN_BITS = st.sampled_from(
    [
        "a",
        "b",
        " ",
        "  ",
        "\n",
        "\n\n",
        "\r\n",
        "\t",
        "`",
        "``",
        "*",
        "_",
        "\\",
        "&amp;",
        "[",
        "]",
        "(",
        ")",
        "<",
        ">",
        "#",
        "- ",
        "1. ",
        "> ",
        "|",
        "—",
        "😀",
        "http://x.y",
    ]
)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.lists(_MARKDOWN_BITS, max_size=40).map("".join))
def test_any_page_renders_as_its_tokens(text: str) -> None:
    assert [p.plain for p in parse_markdown(text).paragraphs] == _rendered_by_tokens(text)


def _cell_starts_by_definition(line: str, index: int) -> int:
    # GFM §4.10: a row splits at every pipe that is not escaped; the opening pipe is no split.
    pipes = [at for at, char in enumerate(line) if char == "|" and line[at - 1 : at] != "\\"]
    start = 0
    if line.lstrip().startswith("|"):
        start, pipes = line.index("|") + 1, pipes[1:]
    return start if index == 0 else (pipes[index - 1] + 1 if index - 1 < len(pipes) else start)


def test_a_cell_starts_after_the_pipe_that_opens_it() -> None:
    row = "| `a` | b \\| c | d |"
    assert [cell_offset(row, i) for i in range(3)] == [1, 7, 16]
    assert [cell_offset("a | b", i) for i in range(2)] == [0, 3]
    assert cell_offset(row, 9) == 1  # past the last cell: the first's start, as before
    # Each row's pipes are found once: a row asked after another is read as itself.
    assert cell_offset("|x|y|", 1) == 3 and cell_offset("| xx | yy |", 1) == 6


@settings(derandomize=True, max_examples=400, deadline=None)
@given(st.text(alphabet=" |\\`ab\t—", max_size=16), st.integers(0, 6))
def test_any_row_splits_at_its_unescaped_pipes(line: str, index: int) -> None:
    assert cell_offset(line, index) == _cell_starts_by_definition(line, index)
