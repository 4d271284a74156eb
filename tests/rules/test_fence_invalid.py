"""Fence reading mistakes (issue 46, item 5): what a string holds is data, never a sketch's
notation (an author's `Name <name@example.org>`, markup, a URL's `//`); a TypeScript-style
sketch of a payload (`"id"?: string`, `string[]`, `field: Type`) is a sketch, not broken JSON."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def fence(language: str, body: str) -> str:
    return f"```{language}\n{body}\n```\n\n"


def lines_reported(make_corpus: MakeCorpus, *fences: str) -> list[tuple[int, str]]:
    page = "# Usage\n\n" + "".join(fences)
    root = make_corpus({"docs/usage.md": page})
    return [(f.location.line, f.message.split(": ", 1)[1]) for f in run_rule(root, "fence-invalid")]


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


JOB = """\
    Job:
      type: object
      required: [id, state]
      properties:
        id: {type: string}
        state: {type: string, enum: [queued, running, done]}
"""


def api(
    paths: str = "", schemas: str = JOB, top: str = "", version: str = "3.1.0", info: str = ""
) -> str:
    """An OpenAPI document: ``info`` (YAML members of ``info``), ``top`` (YAML members after
    ``info``), ``paths`` (under ``paths:``) and ``schemas`` (under ``components/schemas``)."""
    return (
        f"openapi: {version}\ninfo:\n  title: Jobs\n  version: 1.0.0\n"
        + textwrap.indent(textwrap.dedent(info), "  ")
        + textwrap.dedent(top)
        + ("paths:\n" + textwrap.indent(textwrap.dedent(paths), "  ") if paths else "paths: {}\n")
        + "components:\n  schemas:\n"
        + schemas
    )


BROKEN_FENCE = """\
description: |
  Jobs run processes.

  ## A job

  ```json
  {
    "id": "job-1"
    "state": "queued"
  }
  ```
"""


def test_a_broken_fence_in_a_literal_description_is_reported_at_its_line(
    make_corpus: MakeCorpus,
) -> None:
    # a `description` member of an example is data, not prose
    schemas = (
        JOB + '      example:\n        id: job-1\n        description: "```json\\n{,}\\n```"\n'
    )
    root = make_corpus({"openapi.yaml": api(info=BROKEN_FENCE, schemas=schemas)})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.line, f.location.column) for f in found] == [(13, 7)]  # `"state"`
    assert found[0].location.path == "openapi.yaml"
    assert found[0].location.pointer == "/info/description"


def test_an_indented_block_of_a_description_is_untagged_json_invalids(
    make_corpus: MakeCorpus,
) -> None:
    # (a description is read as prose when it holds a fence or a route: `/jobs` here)
    info = """\
    description: |
      Jobs run processes; `/jobs` lists them. A job:

          {
            "id": "job-1"
            "state": "queued"
          }
    """
    root = make_corpus({"openapi.yaml": api(info=info)})
    assert run_rule(root, "fence-invalid") == []
    found = run_rule(root, "untagged-json-invalid")
    assert [(f.location.line, f.location.column) for f in found] == [(10, 11)]  # `"state"`
    assert "indented code block is JSON" in found[0].message


def test_an_untagged_sketch_of_a_description_is_judged_as_a_pages_is(
    make_corpus: MakeCorpus,
) -> None:
    # a string broken across lines is as often a sketch's shorthand as a slip: on a page it is
    # not reported, and a description's untagged block is read by the same policy
    sketch = '```\n{\n  "id": "job-1",\n  "note": "runs\n  for ever"\n}\n```\n'
    info = "description: |\n" + textwrap.indent(sketch, "  ")
    root = make_corpus({"openapi.yaml": api(info=info), "guide.md": sketch})
    assert run_rule(root, "fence-invalid") == []
    assert run_rule(root, "untagged-json-invalid") == []


def test_a_folded_or_quoted_description_is_reported_at_its_key(make_corpus: MakeCorpus) -> None:
    paths = """\
    /jobs:
      get:
        description: "Lists jobs:\\n\\n```json\\n{\\"id\\": \\"job-1\\",}\\n```\\n"
        responses:
          '200': {description: OK}
    """
    root = make_corpus({"openapi.yaml": api(paths)})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.line, f.location.pointer) for f in found] == [
        (8, "/paths/~1jobs/get/description")
    ]


def test_a_json_api_documents_descriptions_are_read(make_corpus: MakeCorpus) -> None:
    document = (
        '{"openapi": "3.1.0",\n "info": {"title": "Jobs", "version": "1",\n'
        '  "description": "```json\\n{\\"a\\": 1 \\"b\\": 2}\\n```"},\n "paths": {}}\n'
    )
    # JSON Schema gives `description` no markup (Validation 2020-12 §9.1): a schema file's
    # descriptions are not read
    schema = (
        '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",\n'
        ' "description": "```json\\n{\\"a\\": 1 \\"b\\": 2}\\n```"}\n'
    )
    root = make_corpus({"openapi.json": document, "job.schema.json": schema})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.path, f.location.line) for f in found] == [("openapi.json", 3)]


# Notation in JSON fences and MyST cross-references (issue 45, first-read batch 1): a fence that
# writes a syntax sketch is not broken JSON, and a MyST label is not a file path.


def findings_of(rule: str, root: Path) -> list[Finding]:
    return list(all_rules()[rule].check(Context.load(root), {}))


# A scope object written as a notation: bare keys and placeholder letters for the values.
PLACEHOLDER_LETTERS = '{\n  "Y": {\n    methods: [P, Q, R],\n    events: [S, T]\n  }\n}'


# A grammar of an object: an optional member marked `*`, repetitions `(x)+`.
GRAMMAR = "[scopeName]: {\n  *chains: [(chain_id)+],\n  methods: [(method_name)+]\n}"


# A member sketched: its name bare, its body elided.
ELIDED = '{\n  "issuer": "did:example:1",\n  signature: {\n    ...\n  }\n}'


# A "MUST be of the form" template in a specification's own notation: `*` zero or more,
# `+` one or more, `?` optional, after a value (issue 45, batch 3).
TEMPLATES = [
    ("yaml", '{\n  "mirrors": [\n    "URL", *\n  ]\n}'),
    ("yaml", '{\n  "mirrors": {\n    "URL", *\n  }\n}'),
    ("json", '{\n  "mirrors": [\n    "URL", +\n  ]\n}'),
    ("json", '{\n  "name": "STRING"?,\n  "size": 1\n}'),
    ("yaml", 'HTTP/1.1 200 OK\nContent-Type: application/json\n\n{\n  "ids": [ "ID" * ]\n}'),
]


def test_a_notation_sketch_in_a_json_fence_is_not_broken_json(make_corpus: MakeCorpus) -> None:
    page = "# Scopes\n\n" + fence("jsonc", PLACEHOLDER_LETTERS) + fence("json", GRAMMAR)
    page += fence("json", ELIDED)
    root = make_corpus({"spec/scopes.md": page})
    assert findings_of("fence-invalid", root) == []


def test_a_slip_in_otherwise_valid_json_is_still_reported(make_corpus: MakeCorpus) -> None:
    slips = [
        '{\n  "a": 1,\n  "b": [1, 2],\n}',  # a trailing comma in a json fence
        '{\n  "a": "x,\n  "b": 2\n}',  # a closing quote left out
        '{\n  "a": tru,\n  "b": 2\n}',  # one bare word: a misspelt literal
        '{\n  "a": {"b": 1},\n  c: {"d": 2}\n}',  # a bare key with a real body
        '{\n  "a": 1, // one, two, three\n  b: 2\n}',  # a comment's words are not values
    ]
    page = "# Slips\n\n" + "".join(
        fence("json" if i < 4 else "jsonc", s) for i, s in enumerate(slips)
    )
    root = make_corpus({"spec/slips.md": page})
    assert len(findings_of("fence-invalid", root)) == len(slips)


def test_a_template_in_the_specs_notation_is_not_broken_data(make_corpus: MakeCorpus) -> None:
    page = "# Discovery\n\n" + "".join(fence(language, body) for language, body in TEMPLATES)
    assert findings_of("fence-invalid", make_corpus({"spec/discovery.md": page})) == []


def test_a_slip_beside_a_notation_mark_is_still_reported(make_corpus: MakeCorpus) -> None:
    slips = [
        '{\n  "mirrors": [\n    "URL", *\n  ],\n  "name": "a"\n  "size": 1\n}',  # comma
        '{\n  "self": "http://x/1"",\n  "ids": [ "ID", * ]\n}',  # a stray quote
        '{\n  "items": [\n    "a"\n  }\n}',  # `[` closed by `}`
    ]
    page = "# Slips\n\n" + "".join(fence("yaml", s) for s in slips)
    found = findings_of("fence-invalid", make_corpus({"spec/slips.md": page}))
    assert len(found) == len(slips)


def test_a_yaml_fence_of_bare_lines_is_colour_not_data(make_corpus: MakeCorpus) -> None:
    # Entity paths with `#` comments, tagged `yaml` only to be coloured: YAML reads the lines
    # as one plain scalar, which a comment breaks; no reader takes them for data.
    paths = "things/t1/parts/p1/versions/v1   # inlined\nthings/t1/parts/p1/versions/v2\n"
    page = "# Filters\n\n" + fence("yaml", paths)
    assert findings_of("fence-invalid", make_corpus({"spec/filters.md": page})) == []
    # A broken mapping is still reported.
    page += fence("yaml", "things:\n  - t1\n   bad: [\n")
    assert len(findings_of("fence-invalid", make_corpus({"spec/filters.md": page}))) == 1
