"""The prose model keeps offsets into its page's text, not copies of it (issue 29, item 1):
paragraphs and list items slice one shared ``PageText``, which the parse cache writes once per
page and which shares ``Document.text`` when read back."""

from __future__ import annotations

import dataclasses

import pytest

from speclint.common.storage import dumps
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.prose import PageText, parse_markdown
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
    # each sentence is in the entry twice: in the one page text and in its paragraph's `plain`
    # (the rendered text); a copy per paragraph made it three times
    assert packed.packed_model.count(marker.encode()) == 2 * 50
    restored = dataclasses.replace(packed, text=str(text))  # a separately decoded text
    model = restored.prose
    assert model is not None and model.page is not None
    assert model.page.text is restored.text
    fresh = parse_markdown(text)
    assert [p.text for p in model.paragraphs] == [p.text for p in fresh.paragraphs]
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
    ):
        bad = dataclasses.replace(model, paragraphs=(forged, *model.paragraphs[1:]))
        document = Document(
            "spec/runs.md", DocumentKind.MARKDOWN, text=PAGE, packed_model=dumps(bad)
        )
        read = document.prose
        assert read is not None and read.paragraphs[0].text == model.paragraphs[0].text
        assert read.paragraphs[0].page is read.page
