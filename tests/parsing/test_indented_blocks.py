"""Indented code blocks are code (CommonMark §4.4), and untagged JSON with a slip is reported
(issue 46's missed classes).

A specification that writes its examples as indented blocks (four spaces, no fence) is read
through the same prose model as one that fences them: an indented block is a fence with no info
string, its lines and columns the page's own. What it holds binds only where it is plainly an
example (a JSON object, an HTTP exchange), as an untagged fence's does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli, run_rule
from speclint.analyses.context import Context
from speclint.analyses.prose.fences import Binding, example_bindings
from speclint.common.findings import Finding
from speclint.parsing.prose import parse_markdown
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
RULE = "untagged-json-invalid"

API = """\
openapi: 3.1.0
info: {title: Parcels, version: '1'}
servers:
  - url: https://api.parcels.example.net/v1
paths:
  /parcels:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/ParcelRequest'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Parcel'}
  /parcels/{parcelId}:
    get:
      parameters:
        - {name: parcelId, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: the parcel
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Parcel'}
components:
  schemas:
    ParcelRequest:
      type: object
      properties:
        weight: {type: number}
        speed: {type: string, enum: [standard, express]}
      required: [weight]
      additionalProperties: false
    Parcel:
      type: object
      properties:
        id: {type: string}
        weight: {type: number}
        status: {type: string, enum: [accepted, sorted, delivered]}
      required: [id, weight, status]
"""


def page(body: str) -> dict[str, str]:
    return {"api/openapi.yaml": API, "docs/guide.md": f"# Guide\n\n{body}"}


def run(rule: str, files: dict[str, str], options: dict[str, Any] | None = None) -> list[Finding]:
    corpus = Context.from_texts(files)
    return list(all_rules()[rule].check(corpus, options or {}))


def at(finding: Finding) -> tuple[int, int]:
    return finding.location.line, finding.location.column


# ---------------------------------------------------------------------------------------------
# Item 1: an indented code block is a code block of the prose model


def test_an_indented_block_is_a_fence_without_info_string_located_on_the_page() -> None:
    text = 'Intro:\n\n    {\n      "a": 1\n    }\n\nAfter.\n\n> Quoted:\n>\n>     {"q": 1}\n'
    blocks = parse_markdown(text).fences
    assert [(b.language, b.indented, b.content) for b in blocks] == [
        ("", True, '{\n  "a": 1\n}\n'),
        ("", True, '{"q": 1}\n'),
    ]
    first, quoted = blocks
    # Line k of the content is the page's line `line + k`, column `margin + c`: as for a fence.
    assert (first.line + 2, first.margin) == (4, 4)
    assert text.split("\n")[first.line + 2 - 1][first.margin :] == '  "a": 1'
    assert (quoted.start, quoted.margin) == (11, 6)
    # A fence in a list item keeps its indentation as its margin too.
    (listed,) = parse_markdown('- step:\n\n  ```json\n  {"b": 2}\n  ```\n').fences
    assert (listed.indented, listed.margin, listed.start) == (False, 2, 3)


def test_indented_lines_in_a_list_item_or_a_paragraph_are_text_not_code() -> None:
    # Inside a list item, a line indented four spaces continues the item's paragraph (its
    # content starts two columns in); after a paragraph, it is a lazy continuation line.
    listed = '- The reply:\n\n    {"id": "p-1", "weight": 2, "status": "lost"}\n'
    continued = 'The reply is\n    {"id": "p-1", "weight": 2, "status": "lost"}\n'
    assert parse_markdown(listed).fences == ()
    assert parse_markdown(continued).fences == ()
    assert run("example-invalid", page("A `Parcel`:\n\n" + listed)) == []
    # MDX has no indented code: an indented line there is text.
    assert parse_markdown('Text.\n\n    {"id": "p-1"}\n', mdx=True).fences == ()
    # The same line at the margin of the page, four spaces in, is code.
    (block,) = parse_markdown('Text.\n\n    {"id": "p-1"}\n').fences
    assert block.indented


INDENTED_EXCHANGE = """\
Create a parcel:

    POST /v1/parcels HTTP/1.1
    Host: api.parcels.example.net
    Content-Type: application/json

    {"weight": 2.5, "speed": "overnight"}

The server answers:

    HTTP/1.1 201 Created
    Content-Type: application/json

    {
      "id": "p-7",
      "weight": 2.5,
      "status": "lost"
    }
"""


def test_an_indented_http_exchange_binds_its_request_and_response_bodies() -> None:
    found = sorted(run("example-invalid", page(INDENTED_EXCHANGE)), key=at)
    assert [f.message.split(" is not", 1)[0] for f in found] == [
        'example at /speed: "overnight"',
        'example at /status: "lost"',
    ]
    # Where each member is written on the page (the page's heading adds two lines): the
    # block's four spaces are counted.
    assert [at(f) for f in found] == [(9, 21), (19, 7)]
    assert all(f.heuristic == "example-invalid/by-exchange" for f in found)
    fixed = INDENTED_EXCHANGE.replace("overnight", "express").replace("lost", "sorted")
    assert run("example-invalid", page(fixed)) == []


def test_an_indented_json_block_binds_as_an_untagged_fence_does() -> None:
    text = (
        "Once sorted, `GET /v1/parcels/{parcelId}` returns the parcel:\n\n"
        '    {"id": "p-7", "weight": 1, "status": "misrouted"}\n'
    )
    (finding,) = run("example-invalid", page(text))
    assert finding.message.startswith('example at /status: "misrouted" is not one of')
    assert at(finding) == (5, 32)


def test_indented_shell_output_art_and_grammar_bind_nothing() -> None:
    text = (
        "Run it:\n\n    $ parcels list\n    p-1  accepted\n    p-2  sorted\n\n"
        "The flow:\n\n    +--------+     +--------+\n    | client | --> | server |\n"
        "    +--------+     +--------+\n\n"
        'The grammar:\n\n    parcel-id = "p-" 1*DIGIT\n    status    = accepted / sorted\n\n'
        'A sketch:\n\n    {"id": <id>, "weight": ..., "status": "lost"}\n'
    )
    files = page(text)
    corpus = Context.from_texts(files)
    listed = list(example_bindings(corpus, corpus.documents["docs/guide.md"], Binding()))
    # The sketch is listed (it opens an object) and not bound; the others are no examples.
    assert [(b.fence.start, b.ties) for b in listed] == [(22, ())]
    assert run("example-invalid", files) == []
    assert run(RULE, files) == []


def test_an_indented_request_line_is_a_route_at_its_column(make_corpus: MakeCorpus) -> None:
    text = (
        "- `POST /v1/parcels` creates a parcel.\n- `GET /v1/parcels/{parcelId}` reads one.\n\n"
        "To read its route:\n\n    GET /v1/parcels/p-7/route HTTP/1.1\n"
    )
    root = make_corpus(page(text))
    (finding,) = run_rule(root, "route-undeclared")
    assert "`GET /v1/parcels/p-7/route`" in finding.message
    assert at(finding) == (8, 5)


def test_bindings_lists_an_indented_block_by_its_first_line_and_kind(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(page(INDENTED_EXCHANGE))
    result = run_cli("bindings", str(root))
    assert "docs/guide.md:5 indented code block example" in result.output
    assert "docs/guide.md:13 indented code block example" in result.output
    assert "`POST /parcels`'s 201 response" in result.output


def test_a_fence_in_a_list_item_reports_its_slip_at_the_page_column() -> None:
    text = '1. Send:\n\n   ```json\n   {\n     "weight": 2\n     "speed": "express"\n   }\n   ```\n'
    (finding,) = run("fence-invalid", page(text))
    # `"speed"` is on the page's line 8, three columns in from the content's own column 3.
    assert at(finding) == (8, 6)


# ---------------------------------------------------------------------------------------------
# Item 2: untagged code that is JSON but for a slip

UNTAGGED_SLIP = """\
The parcel:

```
{
  "id": "p-7",
  "weight": 2
  "status": "sorted"
}
```
"""


def test_an_untagged_fence_that_is_json_but_for_a_missing_comma_is_reported() -> None:
    (finding,) = run(RULE, page(UNTAGGED_SLIP))
    assert finding.message.startswith("the untagged fence is JSON but does not parse: expected ','")
    assert "a ',' is missing before this member" in finding.message
    assert "fix the example (and tag it `json`)" in finding.message
    assert at(finding) == (9, 3)
    # A tagged fence stays fence-invalid's: one finding per defect.
    assert run("fence-invalid", page(UNTAGGED_SLIP)) == []
    tagged = UNTAGGED_SLIP.replace("```\n{", "```json\n{")
    assert run(RULE, page(tagged)) == [] and len(run("fence-invalid", page(tagged))) == 1
    assert run(RULE, page(UNTAGGED_SLIP.replace("2\n", "2,\n"))) == []


def test_trailing_commas_and_an_open_brace_in_indented_json_are_reported() -> None:
    trailing = 'The parcel:\n\n    {\n      "id": "p-7",\n      "weight": 2,\n    }\n'
    (finding,) = run(RULE, page(trailing))
    assert "indented code block is JSON but does not parse: trailing comma" in finding.message
    assert at(finding) == (7, 18)
    unclosed = 'The parcel:\n\n    {\n      "id": "p-7",\n      "dims": {"h": 2}\n'
    (finding,) = run(RULE, page(unclosed))
    assert "is not closed" in finding.message


def test_the_body_of_an_untagged_http_message_or_a_labelled_part_is_judged() -> None:
    response = (
        "It answers:\n\n    HTTP/1.1 200 OK\n    Content-Type: application/json\n"
        '    {\n      "id": "p-7"\n      "weight": 2\n    }\n'
    )
    (finding,) = run(RULE, page(response))
    assert at(finding) == (9, 7)
    labelled = (
        '```\nPOST /v1/parcels\n\nRequest body:\n{\n  "weight": 2\n  "speed": "express"\n}\n```\n'
    )
    (finding,) = run(RULE, page(labelled))
    assert at(finding) == (9, 3)


def test_untagged_sketches_and_other_text_stay_silent() -> None:
    sketches = [
        # an elision leaves a trailing comma: a sketch
        '```\n{\n  "id": "p-7",\n  "weight": 2,\n  ...\n}\n```\n',
        '    {\n      "id": "p-7",\n      …\n    }\n',
        # a placeholder, a type notation, a pseudo-schema's variables (a comma left out beside
        # a comment is a slip the comment does not explain: tests/parsing/test_sketch_residue.py)
        '```\n{\n  "id": <parcel id>\n  "weight": 2\n}\n```\n',
        '```\n{\n  "id"?: string,\n  "weight": number,\n}\n```\n',
        '    {\n      "id" : $string,\n      "weight" : $number\n    }\n',
        # no JSON at all: shell output, a grammar, YAML, a list of words
        "```\n$ parcels get p-7\n{ok}\n```\n",
        '    parcel = "{" members "}"\n    members = member *("," member)\n',
        "```\nid: p-7\nweight: 2,\n```\n",
        "```\n[one, two,]\n```\n",
        # a tagged `text` fence is no JSON claim
        '```text\n{\n  "id": "p-7"\n  "weight": 2\n}\n```\n',
    ]
    for text in sketches:
        assert run(RULE, page("Shown:\n\n" + text)) == [], text


def test_the_untagged_reading_is_a_preview_rule(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SPECLINT_PREVIEW", raising=False)  # conftest's preview mode
    root = make_corpus(page(UNTAGGED_SLIP))
    plain = run_cli("check", str(root), "--no-cache", "--select", RULE)
    assert f"[{RULE}]" not in plain.stdout
    assert RULE in plain.stderr  # named as a preview rule not run
    previewed = run_cli("check", str(root), "--no-cache", "--preview", "--select", RULE)
    assert f"docs/guide.md:9:3: warning [{RULE}]" in previewed.stdout


def test_an_excerpt_stopped_where_a_member_was_to_follow_is_not_an_open_bracket() -> None:
    # The start of a longer document, cut after `"$defs": {` to show only its `$id`: an excerpt.
    excerpt = (
        'Bump the version in the `$id`:\n\n```\n{\n  "$schema": "https://json-schema.org/'
        'draft/2020-12/schema",\n  "$id": "https://example.org/facets/1-0-2/Parcel.json",\n'
        '  "$defs": {\n```\n'
    )
    assert run(RULE, page(excerpt)) == []
    cut_after_a_comma = 'The parcel:\n\n    {\n      "id": "p-7",\n'
    assert run(RULE, page(cut_after_a_comma)) == []
