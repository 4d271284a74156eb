"""Markdown read by pulldown-cmark gives the prose model and the link reader's page that
markdown-it gives (issue 29, item 1), and GFM tables as GitHub renders them where the two differ."""

from __future__ import annotations

import pytest

from speclint.parsing import pulldown
from speclint.parsing.links import Page, page_of
from speclint.parsing.prose import ProseDocument, parse_markdown_with_tokens

# Written to cover what the two readers turn into the model: every block and inline kind the
# readers look at, in the places where the parsers' own outputs differ in shape (a tight item's
# text, an item indented by a tab, a last item before the end of the file, reference links).
SPEC_PAGE = """---
title: Front matter is not a heading
---

# Runs API #

Setext heading
==============

A paragraph with `code`, ``a `tick` span``, **Note:** and *emphasis*, &amp; an entity,
and [a link](runs.md#states "title") across a line, [a reference][ref], [collapsed][],
[shortcut], <https://example.invalid/a%20b> and <team@example.invalid>.
A hard break follows\\
then ![an image `alt`](img/states.png) and <span id="kept">inline html</span>.

[ref]: ./events.md#types
[collapsed]: <./path with spaces.md>
[shortcut]: https://example.invalid/x "T"
[unused]: ./unused.md

- `queued` the run waits
- `running` is
  two lines
\t- nested by a tab: `child`
- [javascript:](javascript:alert(1)) is text

1. first

2. second, loose

   with a second paragraph

> - quoted `item`
> - another

**Labels:**

| Field | Type | Notes |
| --- | :---: | --- |
| `status` | string | one of `a` \\| `b` |
| [link](x.md) | <b>html</b> | |

```json title=example
{"status": "queued"}
```

    indented code

<!-- speclint-ignore enum-drift: a reason -->

<div id="block-html"><a href="#anchor">x</a></div>

## Repeated

## Repeated

front/cover

- docs/page
- last item"""


def readings(text: str) -> list[tuple[ProseDocument, Page]]:
    found = []
    for reader in ("markdown-it", "pulldown"):
        model, tokens, env = parse_markdown_with_tokens(text, reader)
        found.append((model, page_of(text, tokens, env, model.headings)))
    return found


@pytest.mark.parametrize("ending", ["\n", "", "\n\n   "])
def test_pulldown_reads_a_page_as_markdown_it_does(ending: str) -> None:
    (old_model, old_page), (model, page) = readings(SPEC_PAGE + ending)
    assert model == old_model
    assert page == old_page
    # What the readers found is there to be compared: not two empty models.
    assert [h.text for h in model.headings] == [
        "Runs API",
        "Setext heading",
        "Repeated",
        "Repeated",
    ]
    assert [h.anchor for h in model.headings][-1] == "repeated-1"
    assert len(model.tables) == 1 and model.tables[0].rows[0][2].text == "one of `a` | `b`"
    # The indented block is a code block of the model too, a fence with no info string.
    assert [(f.language, f.indented) for f in model.fences] == [("json", False), ("", True)]
    assert {c.text for c in model.inline_code} >= {"queued", "child", "a `tick` span", "status"}
    assert any(link.target == "mailto:team@example.invalid" for link in model.links)
    assert not any("javascript" in link.target for link in model.links)
    comment = SPEC_PAGE.split("\n").index("<!-- speclint-ignore enum-drift: a reason -->") + 1
    assert [c.line for c in model.comments] == [comment]
    assert {site.target for site in page.links} >= {"./events.md#types", "img/states.png"}
    assert "kept" in page.anchors and "Labels:" in page.labels


def test_reference_definitions_are_keyed_and_placed_as_markdown_it_places_them() -> None:
    text = "See [A  b][] and [c].\n\n[a b]: <./x y.md>\n[C]: ./c.md 'T'\n[a B]: ./later.md\n"
    _, env = pulldown.tokens(text)
    assert env["references"] == {
        "A B": {"title": "", "href": "./x%20y.md", "map": [2, 3]},
        "C": {"title": "T", "href": "./c.md", "map": [3, 4]},
    }
    assert pulldown.tokens("No definitions.\n")[1] == {}


def test_where_the_parsers_read_gfm_tables_differently_the_model_is_pulldown_cmarks() -> None:
    """The known differences (``speclint.parsing.pulldown``), pinned so that a parser upgrade
    that changes them is seen: a line indented four spaces right after a table is a row for
    pulldown-cmark and ends the table for markdown-it. A delimiter row that separates its cells
    with tabs is a table for both (GitHub renders one; pulldown-cmark alone would not)."""
    indented = "| a |\n|--:|\n| 42|\n       no blank line after the table\n"
    (old_model, _), (model, _) = readings(indented)
    assert [row[0].text for row in old_model.tables[0].rows] == ["42"]
    assert [row[0].text for row in model.tables[0].rows] == [
        "42",
        "no blank line after the table",
    ]
    tabbed = "|name\t|kind\t|\n|---\t|---\t|\n|a\t|\t|\n\n```\n|---\t|\n```\n"
    (old_model, _), (model, _) = readings(tabbed)
    assert model == old_model
    assert [[c.text for c in row] for row in model.tables[0].rows] == [["a", ""]]


@pytest.mark.parametrize(
    "text",
    [
        "Title\n\t---\n",  # a setext underline indented by a tab
        "a | b\n\t| --- | --- |\nc | d\n",  # a delimiter row indented by a tab: no table
        "- a | b\n\t|---|---|\n",
        "para\n\n    code\n\t|---|\n",  # an indented code line that looks like a row
        "a `b\r\nc` d\r\n",  # a code span across a CRLF line ending
        "x\x00y\n",
        "[![image](i.png) text](t.md) and [**bold** `code`](u.md)\n",
        "[![*a* `c` text](i.png)](x.md)\n",
        "\\*Note:\n\n- \\*Item:\n",
        "# Title with `code` and <b>html</b> ##\n\n## [Import](Section 1 -- Overview.md)\n",
        "- ```json\n  {}\n  ```\n-\n- after an empty item\n",
        "> | a |\n> | - |\n> | 1 |\n\n- | b |\n  | - |\n  | 2 |\n",
    ],
)
def test_edge_cases_read_alike(text: str) -> None:
    (old_model, old_page), (model, page) = readings(text)
    assert model == old_model
    assert page == old_page


# MDX's comment, a JSX comment on lines of its own, renders to nothing: it is a comment of the page
# as an HTML comment block is, not a paragraph or a line of one (issue 44, item 12: a waiver there
# was read as the text beside a fence). One inside a sentence is left to the sentence.
JSX_PAGE = """\
# Runs

{/* TODO: the `status` field is one of `a` | `b` */}

The `status` is
{/* a note */}

{/*
  two lines
*/}

{/* speclint-ignore enum-drift: a reason */}
Text [x](y.md) `z`.
{/* trailing */}
```json
{}
```

Mid {/* kept */} text.

One part,
{/* a note in the middle */}
and another.
"""


@pytest.mark.parametrize("reader", ["pulldown", "markdown-it"])
def test_a_jsx_comment_on_lines_of_its_own_is_a_comment_and_no_prose(reader: str) -> None:
    model = parse_markdown_with_tokens(JSX_PAGE, reader)[0]
    assert [(p.line, p.end_line, p.plain) for p in model.paragraphs] == [
        (5, 5, "The status is"),
        (13, 13, "Text x z."),
        (19, 19, "Mid {/* kept */} text."),
        (21, 21, "One part,"),
        (23, 23, "and another."),
    ]
    assert [(c.line, c.end_line) for c in model.comments] == [
        (3, 3),
        (6, 6),
        (8, 10),
        (12, 12),
        (14, 14),
        (22, 22),
    ]
    assert [c.text for c in model.inline_code] == ["status", "z"]
    assert [(link.target, link.line) for link in model.links] == [("y.md", 13)]
    assert [f.line for f in model.fences] == [15]


@pytest.mark.parametrize("reader", ["pulldown", "markdown-it"])
def test_a_paragraph_parted_by_a_jsx_comment_keeps_every_word_of_its_parts(reader: str) -> None:
    """Inline HTML across lines is followed line by line; a code span across lines keeps no
    line break, so its paragraph is read whole rather than parted at a guess."""
    html = 'A <span\nclass="x">b</span>\n{/* c */}\ntext\n'
    model = parse_markdown_with_tokens(html, reader)[0]
    assert [(p.line, p.end_line, p.plain) for p in model.paragraphs] == [
        (1, 2, "A b"),
        (4, 4, "text"),
    ]
    assert [c.line for c in model.comments] == [3]
    code = "A `co\nde` b\n{/* c */}\ntext\n"
    model = parse_markdown_with_tokens(code, reader)[0]
    [whole] = model.paragraphs
    assert (whole.line, whole.end_line) == (1, 4)
    assert whole.plain.startswith("A co de b") and whole.plain.endswith("text")
