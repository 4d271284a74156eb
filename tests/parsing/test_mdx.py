"""MDX read as MDX (issue 46, item 11): a line of JSX tags (`<CodeGroup>`, `<Tab title="…">`,
`<Steps>`) is a component, and the Markdown after it is Markdown, not part of a CommonMark HTML
block; a plain `.md` page is still read as CommonMark."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_rule
from speclint.parsing import mdx
from speclint.parsing.mdx import TAG_LIMIT, as_commonmark
from speclint.parsing.prose import parse_markdown

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

# Mintlify's layout: a fence on the line right after the component's opening tag.
CODE_GROUP = '# Usage\n\n<CodeGroup>\n```json\n{"id": 1,}\n```\n</CodeGroup>\n'

# Nested components, a tag whose attributes run over three lines, and the fence indented four
# spaces under them (an indented code block for CommonMark; MDX has none).
STEPS = (
    "# Install\n\n"
    "<Steps>\n"
    "  <Step\n"
    '    title="Configure"\n'
    '    icon="gear">\n'
    "    ```yaml\n"
    "    name: demo\n"
    "      nested: 1\n"
    "    ```\n"
    "  </Step>\n"
    "</Steps>\n"
)


def test_a_fence_after_a_component_tag_is_a_fence_in_mdx_only(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"docs/usage.mdx": CODE_GROUP, "docs/plain.md": CODE_GROUP})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.path, f.location.line) for f in found] == [("docs/usage.mdx", 5)]
    assert "trailing comma" in found[0].message


def test_plain_markdown_keeps_commonmark_html_blocks() -> None:
    """In a `.md` page the tag opens an HTML block that runs to the blank line: no fence."""
    assert parse_markdown(CODE_GROUP).fences == ()
    assert [f.line for f in parse_markdown(CODE_GROUP, mdx=True).fences] == [4]


def test_nested_components_and_an_indented_fence() -> None:
    (fence,) = parse_markdown(STEPS, mdx=True).fences
    assert (fence.language, fence.line, fence.end_line) == ("yaml", 7, 10)
    assert fence.content == "name: demo\n  nested: 1\n"  # moved left as one block
    assert parse_markdown(STEPS).fences == ()


def test_tags_inside_a_fence_are_code() -> None:
    """A fence of HTML in an MDX page: its lines are code, never components."""
    page = "# Page\n\n```html\n<Tab>\n<div>\n```\n\n<Tab>\n```json\n{}\n```\n</Tab>\n"
    fences = parse_markdown(page, mdx=True).fences
    assert [(f.language, f.content) for f in fences] == [
        ("html", "<Tab>\n<div>\n"),
        ("json", "{}\n"),
    ]
    assert as_commonmark(page).runs == [(7, 8), (11, 12)]


def test_a_line_with_text_beside_a_tag_is_no_component_line() -> None:
    """`<Tab title="x">Text</Tab>` is inline JSX in a paragraph (MDX's text construct), and
    `<https://example.org>` an autolink: neither is a line of tags."""
    page = '<Tab title="x">Text</Tab>\n\n<https://example.org>\n\n<!-- note -->\n'
    assert as_commonmark(page)[:2] == (page, [])


def test_an_unclosed_attribute_is_given_up_within_the_limit() -> None:
    """A tag whose quote never closes is no tag, and its scan stops after ``TAG_LIMIT``
    characters: the lines after it are read as they are."""
    page = '<Tab title="open\n' + "text\n" * (TAG_LIMIT // 2) + "```json\n{}\n```\n"
    assert as_commonmark(page)[:2] == (page, [])


def test_links_in_component_children_are_read_and_titles_stay_anchors(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        '# Guide\n\n<Tabs>\n<Tab title="Python">\n'
        "See [the setup](./missing.md) and [the tab](#python).\n"
        "</Tab>\n</Tabs>\n"
    )
    root = make_corpus({"docs/guide.mdx": page})
    found = run_rule(root, "broken-link")
    assert [(f.location.line, "missing.md" in f.message) for f in found] == [(5, True)]


def test_an_example_in_a_tab_is_bound_and_checked(make_corpus: MakeCorpus) -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"priority": {"type": "integer", "maximum": 9}},
    }
    page = (
        '# Runs\n\n<Tabs>\n<Tab title="JSON">\n'
        "```json schema=../schemas/run.schema.json\n"
        '{"priority": 12}\n'
        "```\n</Tab>\n</Tabs>\n"
    )
    root = make_corpus({"schemas/run.schema.json": json.dumps(schema), "docs/runs.mdx": page})
    found = run_rule(root, "example-invalid")
    assert [(f.location.line, "maximum" in f.message) for f in found] == [(6, True)]


def test_what_the_scans_read_is_bounded_by_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page whose every line opens a tag with a brace that never closes: each scan could read
    ``TAG_LIMIT`` characters on, past the lines after it; all of them together read a bounded
    multiple of the page (then a tag is looked for on its own line only)."""
    scanners: list[mdx._Scanner] = []
    made = mdx._Scanner.__init__

    def keep(self: mdx._Scanner, text: str) -> None:
        made(self, text)
        scanners.append(self)

    monkeypatch.setattr(mdx._Scanner, "__init__", keep)
    page = "<Tab title={\n" * 20_000
    assert as_commonmark(page)[:2] == (page, [])
    (scanner,) = scanners
    assert scanner.work <= 3 * len(page) + TAG_LIMIT  # the budget (2), and a line each


def test_indented_text_under_a_component_is_markdown_not_indented_code() -> None:
    """MDX has no indented code: a list indented four spaces after a blank line inside a
    component whose body starts two in, and a paragraph twelve spaces in beside a fence at the
    margin, are a list and a paragraph (each is an indented code block for CommonMark)."""
    page = (
        "# Schema\n\n"
        '<ResponseField name="mode" type={<a href="#mode">Mode</a>}>\n'
        "  The mode of the run.\n\n"
        "    - Default: `fast`\n\n"
        "</ResponseField>\n\n"
        "<Steps>\n"
        "            <Step>\n\n"
        "            Install [the tools](./tools.md) first.\n\n"
        "```bash\nmake tools\n```\n\n"
        "            </Step>\n"
        "</Steps>\n"
    )
    read = parse_markdown(page, mdx=True)
    assert [(item.line, [c.text for c in item.inline_code]) for item in read.list_items] == [
        (6, ["fast"])
    ]
    assert [link.target for link in read.links] == ["./tools.md"]
    assert [(fence.language, fence.line) for fence in read.fences] == [("bash", 15)]
    assert parse_markdown(page).list_items == ()
