"""``Lines``: a text's lines as ``str.split("\\n")`` gives them, made when read."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from speclint.common.lines import Lines
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind

# Texts with the characters that part lines in other splitters (\r, \v, \x1c, U+2028) and are
# no line break here: only "\n" is.
texts = st.text(
    alphabet=st.sampled_from(["a", "é", "\U0001f600", " ", "\n", "\r", "\x1c", "\u2028"])
)


@settings(derandomize=True, max_examples=300)
@given(texts, st.integers(-12, 12), st.integers(-12, 12), st.sampled_from([None, 1, 2, -1]))
def test_lines_are_the_split_text(text: str, start: int, stop: int, step: int | None) -> None:
    lines, split = Lines(text), text.split("\n")
    assert len(lines) == len(split)
    assert list(lines) == split
    assert lines == split
    assert [lines[i] for i in range(-len(split), len(split))] == split[-len(split) :] + split
    assert lines[start:stop:step] == split[start:stop:step]


def test_a_line_past_either_end_is_an_index_error_as_in_a_list() -> None:
    lines = Lines("one\ntwo")
    for index in (2, -3):
        with pytest.raises(IndexError):
            lines[index]


def test_no_text_has_no_lines_where_an_empty_text_has_one() -> None:
    assert len(Lines(None)) == 0 and list(Lines(None)) == []
    assert list(Lines("")) == [""]


def test_a_documents_lines_are_its_texts_and_none_without_a_text() -> None:
    page = Document("a.md", DocumentKind.MARKDOWN, text="# Title\n\nBody.\n")
    assert page.lines == ["# Title", "", "Body.", ""]
    assert page.lines[-2] == "Body."
    assert list(Document("b.json", DocumentKind.DATA).lines) == []


def test_lines_travel_pickled_with_their_document() -> None:
    # A forked parser sends its documents back pickled (speclint.common.parallel), the lines a
    # memo (``CommentBlocks``) holds with them: the text is sent once, the lines still its own.
    page = Document("a.md", DocumentKind.MARKDOWN, text="x\ny")
    kept = page.lines
    back = pickle.loads(pickle.dumps((page, kept), protocol=5))
    assert back[1] == ["x", "y"] and back[1] == back[0].lines
    assert back[1]._text is back[0].text
