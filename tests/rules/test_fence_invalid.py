"""Fence reading mistakes (issue 46, item 5): what a string holds is data, never a sketch's
notation (an author's `Name <name@example.org>`, markup, a URL's `//`); a TypeScript-style
sketch of a payload (`"id"?: string`, `string[]`, `field: Type`) is a sketch, not broken JSON."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli import cli
from test_example_files import JOB

from conftest import findings_of, run_rule
from speclint.analyses.context import Context
from speclint.common.findings import Severity
from speclint.model.config import load_config
from speclint.rules import fence_invalid
from speclint.run.engine import Options, lint

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


# Classes found at the first read of ecosystem batch 4 (issue 45), each on a fixture of ours.


def test_a_json5_fence_is_read_as_json5(make_corpus: MakeCorpus) -> None:
    """JSON5 allows unquoted keys and single quotes: a `json5` fence using them parses; one
    JSON5 rejects too (a missing comma) is still reported, at JSON5's place."""
    good = "```json5\n{\n  id: 'a',  // a comment\n  tags: [1, 2,],\n}\n```\n"
    bad = "```json5\n{\n  id: 'a'\n  name: 'b'\n}\n```\n"
    root = make_corpus({"docs/good.md": "# G\n\n" + good, "docs/bad.md": "# B\n\n" + bad})
    [finding] = run_rule(root, "fence-invalid")
    assert finding.location.path == "docs/bad.md"
    assert finding.location.line == 6  # `name`, where JSON5 stops
    assert "quoted" not in finding.message  # no JSON advice for a JSON5 fence


def test_a_fence_a_build_fills_from_a_file_is_not_judged(make_corpus: MakeCorpus) -> None:
    """spec-up's `[[insert: path]]` (and pymdownx.snippets' `--8<--`, `{% include %}`) in a
    `json` fence: the build puts the file's content there; the directive is no broken JSON."""
    page = "".join(
        f"# P{i}\n\n```json\n{directive}\n```\n\n"
        for i, directive in enumerate(
            [
                "[[insert: test/a.json]]",
                "[[insert ./test/a.json]]",
                '--8<-- "test/a.json"',
                "{% include a.json %}",
            ]
        )
    )
    page += '```json\n{"a": 1 "b": 2}\n```\n'  # a real slip: still reported
    root = make_corpus({"spec/spec.md": page, "spec/test/a.json": '{"a": 1}'})
    [finding] = run_rule(root, "fence-invalid")
    assert finding.location.line == len(page.split("\n")) - 2


# Classes found at the first read of ecosystem batch 5 (issue 45): examples, `$schema` paths,
# illustrations and sketches, each on a fixture of ours.


def _page(*fences: str) -> str:
    return "# Messages\n\n" + "\n".join(f"```json\n{f}\n```\n" for f in fences)


def test_values_written_as_function_calls_are_a_notation_for_computed_values(
    make_corpus: MakeCorpus,
) -> None:
    envelope = """{
  "header": encode({
      "kind": "sealed",
      "mode": "fast", // or "slow"
  }),
  "to": [
    {"key": encode(recipient key), "hint": digest(header.key)}
  ],
  "tag": "c2lnbmVk"
}"""
    root = make_corpus({"docs/envelope.md": _page(envelope)})
    assert run_rule(root, "fence-invalid") == []


def test_a_missing_comma_beside_a_computed_value_is_still_reported(
    make_corpus: MakeCorpus,
) -> None:
    # the notation's own extra `)` (inside the braces of the argument) does not end the call
    slip = (
        '{\n  "header": encode({"kind": "sealed", "hint": hash(key))}),\n'
        '  "body": "c2Vh"\n  "tag": "dGFn"\n}'
    )
    root = make_corpus({"docs/envelope.md": _page(slip)})
    [finding] = run_rule(root, "fence-invalid")
    assert finding.location.line == 7 and "',' is missing" in finding.message


def test_a_prose_placeholder_in_an_array_is_a_description_of_its_items(
    make_corpus: MakeCorpus,
) -> None:
    proof = '{\n  "digest": "5817...0968",\n  "rows": [ 4 arrays of 32 bytes between 0 and 255]\n}'
    numbers = '{\n  "rows": [1 2 3]\n}'  # commas left out of numbers: a slip
    root = make_corpus({"docs/proof.md": _page(proof, numbers)})
    [finding] = run_rule(root, "fence-invalid")
    assert finding.location.line == 12  # the second fence's `[1 2 3]`


def test_an_elision_in_a_string_spanning_lines_is_an_elided_value(
    make_corpus: MakeCorpus,
) -> None:
    batch = '{\n  "items": [\n    {"id": "1", "message": "{\n        ...\n    }"}\n  ]\n}'
    root = make_corpus({"docs/batch.md": _page(batch)})
    assert run_rule(root, "fence-invalid") == []


def test_many_calls_whose_brackets_never_close_take_linear_time() -> None:
    """Each unclosed call is looked for to the end of the text: after one, no other is (40,000
    of them took minutes; a hang guard, not a timing)."""
    code = "from speclint.parsing.sketches import sketch_notes\nsketch_notes('[' + 'f(, ' * 40000 + ']')"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# Fences and files read as examples (issue 45, first-read batch 6): a code callout, an elision of
# two dots or around a phrase, files shown side by side, an example page embedded in another, and
# the files a site's build or a repository's stated convention reads otherwise than as strict JSON
# or a single YAML document.


# A fence with numbered code callouts after its values (Elastic docs-builder, AsciiDoc): each is
# explained by the numbered list under the fence, and the site strips them from the copied code.
CALLOUTS = '{\n  "kind": "event", <1>\n  "tags": ["a", "b"], <2>\n  "n": 1\n}'


TWO_DOTS = '{\n  "id": "did:example:1",\n  "keys": [{..}],\n  ..\n  "also": ["x"]\n}'


PHRASE = (
    '{\n  "id": "p-1",\n  "subject": {\n    "id": "s-1",\n    ... the rest goes here ...\n  }\n}'
)


PHRASE_TWO_DOTS = '{\n  "id": "p-1",\n  ..other properties of the document ..\n  "n": 1\n}'


SIDE_BY_SIDE = """\
# In the source
- name: secret
  type: keyword

# flat.yml
user.secret:
  name: secret

# nested.yml
user:
  fields:
    user.secret:
      type: keyword"""


EXAMPLE = '{\n  "inputs": {\n    "id": "x",\n  }\n}'


def test_a_code_callout_is_an_annotation_not_json(make_corpus: MakeCorpus) -> None:
    page = "# Usage\n\n" + fence("json", CALLOUTS) + "1. The kind.\n2. The tags.\n"
    root = make_corpus({"docs/usage.md": page})
    assert run_rule(root, "fence-invalid") == []


def test_a_slip_beside_a_code_callout_is_still_reported(make_corpus: MakeCorpus) -> None:
    """Stripped of its callouts, the fence is judged as strict JSON: a trailing comma is a slip."""
    body = '{\n  "event": {\n    "kind": "event", <1>\n    "n": 1,\n  },\n  "x": 2\n}'
    root = make_corpus({"docs/usage.md": "# Usage\n\n" + fence("json", body)})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.line, "trailing comma" in f.message) for f in found] == [(7, True)]


def test_a_trailing_comma_far_from_a_note_is_reported(make_corpus: MakeCorpus) -> None:
    """A note (an elision, a comment) excuses the comma it leaves trailing, not every comma of
    the fence."""
    body = '{\n  "event": {\n    "n": 1,\n  },\n  "user": {\n    "name": "a",\n    ...\n  }\n}'
    root = make_corpus({"docs/usage.md": "# Usage\n\n" + fence("json", body)})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.line, "trailing comma" in f.message) for f in found] == [(6, True)]
    excused = '{\n  "user": {\n    "name": "a",\n    ...\n  },\n  "n": 1, // more\n}'
    elided = '{\n  "n": 1,\n  "apis": [...],\n}'  # a note on the comma's own line
    page = "# Usage\n\n" + fence("json", excused) + fence("json", elided)
    root = make_corpus({"docs/usage.md": page})
    assert run_rule(root, "fence-invalid") == []


def test_an_elision_of_two_dots_or_around_a_phrase_is_a_sketch(make_corpus: MakeCorpus) -> None:
    page = "# Sketches\n\n" + fence("json", TWO_DOTS) + fence("json", PHRASE)
    page += fence("json", PHRASE_TWO_DOTS)
    root = make_corpus({"docs/sketches.md": page})
    assert run_rule(root, "fence-invalid") == []


def test_the_real_slip_of_a_fence_with_two_dot_elisions_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    body = '{\n  "id": "d-1",\n  "keys": [{..}],\n  ..\n  "service": [{\n    "type": "t"\n    "url": "u"\n  }]\n}'
    root = make_corpus({"docs/sketches.md": "# Sketches\n\n" + fence("json", body)})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.line, f.location.column) for f in found] == [(10, 5)]
    assert "missing" in found[0].message


def test_a_yaml_fence_of_files_side_by_side_is_not_one_document(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"docs/files.md": "# Files\n\n" + fence("yaml", SIDE_BY_SIDE)})
    assert run_rule(root, "fence-invalid") == []


def test_a_broken_file_among_files_side_by_side_is_reported(make_corpus: MakeCorpus) -> None:
    broken = SIDE_BY_SIDE.replace("  name: secret", "  name: secret\n - bad: [")
    root = make_corpus({"docs/files.md": "# Files\n\n" + fence("yaml", broken)})
    assert len(run_rule(root, "fence-invalid")) == 1
    # no comment heads the second part: one document, and a sequence then a mapping is a slip
    merged = "- name: secret\n  type: keyword\n\nuser.secret:\n  name: secret"
    root = make_corpus({"docs/files.md": "# Files\n\n" + fence("yaml", merged)})
    assert len(run_rule(root, "fence-invalid")) == 1


def test_an_embedded_example_page_is_one_finding_with_the_copy_related(
    make_corpus: MakeCorpus,
) -> None:
    example = fence("json", EXAMPLE) + "Ask for more time.\n"
    module = "# Purchase\n\n" + fence("json", '{"a": 1}') + "## Extend\n\n" + example
    search = fence("json", '{\n  "from": "a",\n}')
    offer = "# Offer\n\nSearch for offers:\n\n" + search  # one fence, under a heading
    files = {
        "wiki/examples/extend.md": example,
        "wiki/modules/purchase.md": module,
        "wiki/examples/search.md": search,
        "wiki/modules/offer.md": offer,
    }
    found = run_rule(make_corpus(files), "fence-invalid")
    assert [f.location.path for f in found] == [
        "wiki/examples/extend.md",
        "wiki/examples/search.md",
    ]
    assert [(r.path, r.line) for r in found[0].related] == [("wiki/modules/purchase.md", 12)]
    assert [(r.path, r.line) for r in found[1].related] == [("wiki/modules/offer.md", 7)]


def test_two_pages_with_the_same_broken_fence_are_both_reported(make_corpus: MakeCorpus) -> None:
    """The same body on two example pages of one fence each: neither embeds the other, and
    fixing one does not fix the other."""
    one = fence("json", EXAMPLE)
    two = fence("json", EXAMPLE) + "Cancel the package.\n"
    root = make_corpus({"wiki/examples/confirm.md": one, "wiki/examples/cancel.md": two})
    found = run_rule(root, "fence-invalid")
    assert sorted(f.location.path for f in found) == [
        "wiki/examples/cancel.md",
        "wiki/examples/confirm.md",
    ]


def test_a_comment_standing_where_a_value_goes_is_a_sketch(make_corpus: MakeCorpus) -> None:
    """`"<FIELD>": /* value */,` says what the value would be, as `...` there does (read after
    issue 46's fence work, an in-toto-shaped descriptor sketch); a slip elsewhere in the fence
    is still reported."""
    sketch = (
        '# D\n\n```json\n{\n  "fields": {\n    "<FIELD_1>": /* value */,\n    ...\n  }\n}\n```\n'
    )
    assert run_rule(make_corpus({"docs/d.md": sketch}), "fence-invalid") == []
    slip = sketch.replace('"fields": {', '"name": "x" "y",\n  "fields": {')
    found = run_rule(make_corpus({"docs/d.md": slip}), "fence-invalid")
    assert [f.location.line for f in found] == [5]


# Issue 49, first-read batch 7: the general classes behind its false and noise verdicts. A
# docs renderer's diff markers in a fence, a `$ref` to a plain-name fragment (an `$anchor`), a
# readOnly property an example of a request leaves out, a `.json` file its tool reads as JSON with
# comments, a test input whose name says it is broken on purpose, and a third party's API document
# kept as a tool's input.


# Old and new lines together, each marked: the page renders a diff, the `--` line is not part of
# the document shown.
DIFF_YAML = "top: {\n  inner: value\n} # [!code --]\n  } # [!code ++]\nnext: other"


DIFF_JSON = '{\n  "mode": "old", // [!code --]\n  "mode": "new", // [!code ++]\n  "n": 1\n}'


# `"$ref": "#jobId"` names the subschema whose `$anchor` is `jobId` (JSON Schema 2020-12 §8.2.2):
# a string. Read as the document's root it was an object, and the page's `string` a drift.
ANCHORED = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Pipeline",
    "type": "object",
    "properties": {
        "name": {"$anchor": "jobId", "type": "string"},
        "after": {"$ref": "#jobId"},
        "before": {"$ref": "#noSuchAnchor"},
    },
}


BROKEN_API = "openapi: 3.0.3\ninfo: {title: %s, version: '1'%s}\npaths:\n  /a:\n    get: {}\n"


def findings_by_path(root: Path) -> set[str]:
    run = cli("check", str(root), "--preview", "--no-cache", "--format", "json")
    return {f["location"]["path"] for f in json.loads(run.stdout)["findings"]}


THIRD_PARTY = (
    "openapi: 3.0.3\ninfo: {title: %s, version: '1'%s}\nservers: [{url: '%s'}]\n"
    "paths:\n  /a:\n    get:\n      parameters:\n"
    "        - {name: n, in: query, schema: {type: integer}, example: many}\n"
    "      responses: {'200': {description: OK}}\n"
)


def collected_apis(count: int) -> dict[str, str]:
    domains = [("chat", "chatco.com"), ("maps", "mapsco.com"), ("pay", "payco.co.uk")]
    return {
        f"examples/apis/{name}.yaml": THIRD_PARTY % (name, "", f"https://api.{domain}/v1")
        for name, domain in domains[:count]
    }


def test_a_fence_with_diff_markers_is_read_without_the_removed_lines(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Migrate\n\n" + fence("yaml", DIFF_YAML) + fence("json", DIFF_JSON)
    root = make_corpus({"docs/migrate.md": page})
    assert run_rule(root, "fence-invalid") == []


def test_a_slip_in_a_fence_with_diff_markers_is_still_reported(make_corpus: MakeCorpus) -> None:
    """The added line itself is read: a trailing comma there is a slip."""
    body = '{\n  "mode": "old" // [!code --]\n  "mode": "new", // [!code ++]\n}'
    root = make_corpus({"docs/migrate.md": "# Migrate\n\n" + fence("json", body)})
    found = run_rule(root, "fence-invalid")
    assert [("trailing comma" in f.message) for f in found] == [True]


def test_a_ref_to_an_anchor_resolves_to_its_pointer_not_the_root(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schemas/pipeline.json": json.dumps(ANCHORED, indent=2)})
    context = Context.load(root, load_config(root))
    found = context.references.at("schemas/pipeline.json", "/properties/after/$ref")
    assert found is not None and found.outcome == "ok"
    assert found.target_pointer == "/properties/name"
    missing = context.references.at("schemas/pipeline.json", "/properties/before/$ref")
    assert missing is not None and missing.outcome != "ok"


def test_a_data_file_named_broken_on_purpose_is_a_fixture(make_corpus: MakeCorpus) -> None:
    """`*-with-errors`, `invalid-*`, `*.invalid.*`, `broken-*`: a validator's negative inputs,
    listed as fixtures; a page named so is about the subject, and is read."""
    names = ("pets-with-errors.yaml", "invalid-pets.yaml", "pets.invalid.yaml", "broken_pets.yml")
    files = {f"resources/{name}": BROKEN_API % ("Pets", "") for name in names}
    files["resources/pets.yaml"] = BROKEN_API % ("Pets", "")
    root = make_corpus(files)
    assert findings_by_path(root) == {"resources/pets.yaml"}
    rows = {line.split()[0]: line for line in cli("files", str(root)).stdout.splitlines()}
    assert all("fixture" in rows[f"resources/{name}"] for name in names)


def test_a_document_that_says_it_is_a_torture_test_is_not_judged(make_corpus: MakeCorpus) -> None:
    files = {
        "examples/errors/flows.yaml": BROKEN_API
        % ("Validator Torture Test", ", description: A purposely broken document"),
        "examples/flows.yaml": BROKEN_API % ("Flows", ", description: Tests the flows"),
    }
    root = make_corpus(files)
    assert findings_by_path(root) == {"examples/flows.yaml"}
    rows = {line.split()[0]: line for line in cli("files", str(root)).stdout.splitlines()}
    assert "test input" in rows["examples/errors/flows.yaml"]
    # Not silent: the run's summary says one document was left unreported, and which.
    report = json.loads(cli("check", str(root), "--no-cache", "--format", "json").stdout)
    assert report["not_checked"]["counts"]["test-input"] == 1
    (note,) = [n for n in report["not_checked"]["notes"] if n["kind"] == "test-input"]
    assert note["path"] == "examples/errors/flows.yaml" and "Torture Test" in note["what"]


def test_an_api_document_with_a_copiers_mark_is_vendored(make_corpus: MakeCorpus) -> None:
    files = {
        "specs/chat.yaml": THIRD_PARTY
        % (
            "Chat",
            ", x-origin: [{url: 'https://chat.example.net/openapi.json'}]",
            "https://api.chat.dev",
        ),
        "specs/own.yaml": THIRD_PARTY % ("Own", "", "https://api.own.dev"),
    }
    root = make_corpus(files)
    assert findings_by_path(root) == {"specs/own.yaml"}
    rows = {line.split()[0]: line for line in cli("files", str(root)).stdout.splitlines()}
    assert "vendored" in rows["specs/chat.yaml"] and "x-origin" in rows["specs/chat.yaml"]


def test_a_folder_named_for_the_servers_domain_holds_a_vendored_copy(
    make_corpus: MakeCorpus,
) -> None:
    files = {
        "inputs/voice.io/v1/openapi.yaml": THIRD_PARTY % ("Voice", "", "https://api.voice.io"),
        "inputs/mine/openapi.yaml": THIRD_PARTY % ("Mine", "", "https://api.mine.dev"),
    }
    assert findings_by_path(make_corpus(files)) == {"inputs/mine/openapi.yaml"}


def test_a_folder_collecting_apis_of_three_organisations_one_marked_is_vendored(
    make_corpus: MakeCorpus,
) -> None:
    files = collected_apis(3)
    mark = ", x-origin: [{url: 'https://elsewhere.example.org/a.json'}]"
    files["examples/apis/pay.yaml"] = files["examples/apis/pay.yaml"].replace(
        "version: '1'", "version: '1'" + mark
    )
    assert findings_by_path(make_corpus(files)) == set()


def test_a_repository_s_own_descriptions_of_other_companies_apis_are_judged(
    make_corpus: MakeCorpus,
) -> None:
    """Three organisations' APIs, none marked as copied and none in a domain-named folder: a
    collection its repository writes itself (one description per exchange) owns its defects."""
    three = collected_apis(3)
    assert findings_by_path(make_corpus(three)) == set(three)


def test_a_folder_of_two_organisations_apis_is_not_a_collection(make_corpus: MakeCorpus) -> None:
    """A company's API and its payments arm's, side by side: both judged."""
    two = collected_apis(2)
    assert findings_by_path(make_corpus(two)) == set(two)


def test_a_document_beside_marked_copies_of_other_organisations_is_vendored(
    make_corpus: MakeCorpus,
) -> None:
    """Two copies bear a copier's mark; the third, unmarked, is of a third organisation."""
    files = collected_apis(3)
    mark = ", x-origin: [{url: 'https://elsewhere.example.org/a.json'}]"
    for name in ("examples/apis/chat.yaml", "examples/apis/maps.yaml"):
        files[name] = files[name].replace("version: '1'", "version: '1'" + mark)
    assert findings_by_path(make_corpus(files)) == set()


# Issue 26, precision of the value rules on repositories nobody tuned them for.
#
# example-invalid, value-invalid, fence-invalid, unresolved-ref and enum-drift each had classes of
# findings that are true to the letter but not worth a maintainer's time (a ``null`` example where
# ``nullable: true`` stands beside a ``$ref`` in OpenAPI 3.0; an empty-string default meaning
# "unset"), or false (an example that merges another example file by ``$ref``). Each class is a
# small corpus of our own here.


WRAPPED_EXAMPLE = (
    "An example:\n\n```json\n{                        # a log object\n"
    '  "text": "the nightly run of the scanner on\n'
    '           every binary of the branch",\n  "id": "%s"\n}\n```\n'
)


SKETCH_FENCE = '```jsonc\n{\n  "weights": [\n    {"-": [R, {"var": "now"}]}\n  ]\n}\n```\n'


def test_strings_wrapped_in_many_examples_are_the_convention(make_corpus: MakeCorpus) -> None:
    # Nothing says so in words, but the specification breaks long strings in its examples
    # for display, again and again: its convention, not a parse error per example.
    pages = {f"spec/object-{n}.md": WRAPPED_EXAMPLE % n for n in range(3)}
    assert findings_of("fence-invalid", make_corpus(pages)) == []


def test_one_wrapped_string_is_still_a_broken_example(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"spec/object.md": WRAPPED_EXAMPLE % 1})
    [finding] = findings_of("fence-invalid", root)
    assert finding.severity is Severity.WARNING


def test_fences_of_a_design_record_are_not_judged_and_type_names_are_sketches(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "docs/architecture-decisions/rollout.md": "# Rollout\n\n" + SKETCH_FENCE,
            "proposals/tags/README.md": "# Tags\n\n```yaml\ntags:\n  - a\n   b: 1\n```\n",
            "docs/reference/rollout.md": "# Rollout\n\n" + SKETCH_FENCE,
            "spec/errors.md": '# Errors\n\n```json\n{\n  "retry_after_ms": integer\n}\n```\n',
        }
    )
    found = {f.location.path: f.severity for f in findings_of("fence-invalid", root)}
    assert found == {
        "docs/reference/rollout.md": Severity.WARNING,
    }


def test_a_yaml_stream_and_an_environment_placeholder_are_not_parse_errors(
    make_corpus: MakeCorpus,
) -> None:
    manifests = "```yaml\nkind: Deployment\nname: proxy\n---\nkind: FeatureFlag\nname: e2e\n```\n"
    broken = "```yaml\nkind: Deployment\n---\nkind: [FeatureFlag\n```\n"
    env = '```json\n{\n  "retry": {"max": $RETRY_MAX_MS, "factor": 2}\n}\n```\n'
    root = make_corpus(
        {
            "docs/deploy.md": "# Deploy\n\n" + manifests,
            "docs/broken.md": "# Broken\n\n" + broken,
            "docs/retry.md": "# Retry\n\n" + env,
        }
    )
    assert [f.location.path for f in findings_of("fence-invalid", root)] == ["docs/broken.md"]


def test_a_slip_only_the_text_of_a_released_page_has_is_not_reported(
    make_corpus: MakeCorpus,
) -> None:
    # versions/3.1.0.md has an example with a trailing comma that 3.1.1 fixed: history that
    # readers no longer read. The live text's own slip is reported as ever.
    broken = '# Spec\n\n```json\n{"a": 1 "b": 2}\n```\n'
    fixed = '# Spec\n\n```json\n{"a": 1, "b": 2}\n```\n'
    root = make_corpus(
        {
            "versions/3.0.0.md": fixed,
            "versions/3.1.0.md": broken,
            "versions/3.1.1.md": fixed + '\n## Other\n\n```json\n{"c": 3,}\n```\n',
        }
    )
    assert {f.location.path for f in findings_of("fence-invalid", root)} == {
        "versions/3.1.0.md",
        "versions/3.1.1.md",
    }  # what the rule sees; the run folds history
    found = lint(root, Options(cache=False, rules=("fence-invalid",))).findings
    assert [(f.location.path, f.severity) for f in found] == [
        ("versions/3.1.1.md", Severity.WARNING)
    ]


# Whether a page states that its examples wrap strings (`fence_invalid.states_wrapping`): the
# pattern searched only on the lines holding a reason's word must answer as searched everywhere.
_STATEMENT_BITS = st.sampled_from(
    [
        "line breaks",
        "Line-Break",
        "wrapped",
        "split across two lines",
        "folded onto lines",
        " for readability",
        "LEGİBILITY",  # İ: read as i by the pattern's ignore-case matching
        "legıble",
        "clarity",
        "display purposes",
        "preſentation purposes",
        "formatting purposes",
        "readab",
        "\n",
        ".",
        " ",
        "x",
        "é",
        "😀",
    ]
)


@settings(derandomize=True, max_examples=500, deadline=None)
@given(st.lists(_STATEMENT_BITS, max_size=12).map("".join))
def test_a_wrapping_statement_is_found_on_its_line_as_in_the_whole_page(text: str) -> None:
    assert fence_invalid.states_wrapping(text) == (
        fence_invalid.WRAPPED_STATED.search(text) is not None
    )


def test_a_statement_is_found_whatever_else_the_page_holds() -> None:
    stated = "Line breaks in the examples are for display purposes only."
    assert fence_invalid.states_wrapping(f"# Title\n\n{stated}\n")
    assert fence_invalid.states_wrapping(f"İ\n{stated}")  # a character lower case makes two
    # Characters the pattern reads as ASCII letters, which lower case leaves as they are.
    assert fence_invalid.states_wrapping("Line breaks are for legıbility.")
    assert fence_invalid.states_wrapping("Line breaks are for preſentation purposes.")
    assert not fence_invalid.states_wrapping("Line breaks.\nFor readability.\n")  # two lines


def test_every_character_read_as_an_ascii_letter_is_known() -> None:
    # The lines searched are found in lower case, which misses what `re`'s case folding alone
    # reads as an ASCII letter: those characters send a page to the whole search.
    letter = re.compile(r"(?i)[a-z]")
    folded = {chr(c) for c in range(0x80, sys.maxunicode + 1) if letter.fullmatch(chr(c))}
    assert folded == set(fence_invalid._FOLDED_AS_ASCII)
