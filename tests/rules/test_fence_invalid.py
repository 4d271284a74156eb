"""Fence reading mistakes (issue 46, item 5): what a string holds is data, never a sketch's
notation (an author's `Name <name@example.org>`, markup, a URL's `//`); a TypeScript-style
sketch of a payload (`"id"?: string`, `string[]`, `field: Type`) is a sketch, not broken JSON."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def fence(language: str, body: str) -> str:
    return f"```{language}\n{body}\n```\n\n"


def lines_reported(make_corpus: MakeCorpus, *fences: str) -> list[tuple[int, str]]:
    page = "# Usage\n\n" + "".join(fences)
    root = make_corpus({"docs/usage.md": page})
    return [(f.location.line, f.message.split(": ", 1)[1]) for f in run_rule(root, "fence-invalid")]


# --- (a) angle brackets inside a string ---------------------------------------------------------


def test_an_address_in_a_string_does_not_hide_a_slip(make_corpus: MakeCorpus) -> None:
    """`<ada@example.org>` inside a string value is data: the fence is no placeholder sketch,
    and its trailing comma is reported."""
    body = '{\n  "author": "Ada <ada@example.org>",\n  "version": "1.0",\n}'
    found = lines_reported(make_corpus, fence("json", body))
    assert [(line, "trailing comma" in message) for line, message in found] == [(6, True)]


def test_markup_in_a_string_does_not_hide_a_slip(make_corpus: MakeCorpus) -> None:
    body = '{\n  "text": "<b>bold</b> and <i>more</i>"\n  "n": 1\n}'
    found = lines_reported(make_corpus, fence("json", body))
    assert [(line, "expected ','" in message) for line, message in found] == [(6, True)]


def test_a_placeholder_outside_strings_is_still_a_sketch(make_corpus: MakeCorpus) -> None:
    """The notation outside a string still marks a sketch, whatever the strings hold."""
    placeholder = '{\n  "author": "Ada <ada@example.org>",\n  "id": <id>,\n}'
    union = '{\n  "author": "Ada <ada@example.org>",\n  "kind": "a" | "b",\n}'
    template = '{\n  "author": "<b>Ada</b>",\n  "n": {{count}},\n}'
    assert (
        lines_reported(make_corpus, *(fence("json", b) for b in (placeholder, union, template)))
        == []
    )


def test_a_quoted_address_in_yaml_does_not_hide_a_slip(make_corpus: MakeCorpus) -> None:
    """YAML's quoted scalars are strings too; a plain scalar holding an address in angle
    brackets (`Ada <ada@example.org>`) is an address, never a placeholder."""
    quoted = 'author: "Ada <ada@example.org>"\nitems:\n  - a\n  b: c'
    plain = "author: Ada <ada@example.org>\nitems:\n  - a\n  b: c"
    found = lines_reported(make_corpus, fence("yaml", quoted), fence("yaml", plain))
    assert [line for line, _ in found] == [7, 14]
    placeholder = "name: <name>\nitems:\n  - a\n  b: {{value}}"
    assert lines_reported(make_corpus, fence("yaml", placeholder)) == []


# --- (b) `//` inside a string -------------------------------------------------------------------


def test_a_url_in_a_string_makes_no_comment(make_corpus: MakeCorpus) -> None:
    """`https://` in a string is no comment: the fence's trailing commas are still slips, even
    beside a note (an elision) that excuses only the comma it leaves."""
    url = '{\n  "url": "https://example.org/a#b",\n  "glob": "src/**/*.json",\n}'
    noted = '{\n  "items": [1, ...],\n  "url": "https://example.org/a",\n}'
    found = lines_reported(make_corpus, fence("json", url), fence("json", noted))
    assert [(line, "trailing comma" in message) for line, message in found] == [
        (6, True),
        (13, True),
    ]


# --- (c) TypeScript-style sketches --------------------------------------------------------------


def test_a_typescript_style_sketch_is_not_invalid_json(make_corpus: MakeCorpus) -> None:
    optional = '{\n  "id"?: Identifier,\n  "name": "x"\n}'
    array = '{\n  "items": Item[],\n  "name": "x"\n}'
    union = '{\n  "kind": "a" | "b",\n  "parent": string | null\n}'
    field = "{\n  id: string;\n  name?: string;\n}"
    typed = "{\n  id: Identifier\n}"
    generic = '{\n  "meta": Record<string, Value>\n}'
    bodies = (optional, array, union, field, typed, generic)
    assert lines_reported(make_corpus, *(fence("json", b) for b in bodies)) == []


def test_an_unquoted_name_with_a_value_is_still_a_slip(make_corpus: MakeCorpus) -> None:
    """A name whose quotes were forgotten, with a real value, is a slip, not a type sketch."""
    body = '{\n  id: 5,\n  "name": "x"\n}'
    found = lines_reported(make_corpus, fence("json", body))
    assert [(line, "is not quoted" in message) for line, message in found] == [(5, True)]
