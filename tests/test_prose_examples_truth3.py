"""Examples in prose that a first read of three public repositories found speclint missing
(issue 46, round 2): a response shown under its GET request line in one fence; an example of a
family of schemas (minimal, extended, by reference) that declare its members alike; a request's
query and path values against the operation's parameter schemas. Fixtures of our own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

PARTS_API = """\
openapi: 3.0.3
info: {title: Parts, version: '1'}
paths:
  /part/{code}:
    get:
      parameters:
        - {name: code, in: path, required: true, schema: {type: string}}
        - {name: offset, in: query, schema: {type: integer, minimum: 0}}
        - {name: limit, in: query, schema: {type: integer, minimum: 1}}
        - {name: view, in: query, schema: {type: string, enum: [brief, full]}}
        - {name: tags, in: query, schema: {type: array, items: {type: string, enum: [a]}}}
      responses:
        '200':
          description: the part's record
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Record'}
  /bin/{slot}:
    parameters:
      - {name: slot, in: path, required: true, schema: {type: integer, minimum: 1}}
    get:
      responses:
        '204': {description: the bin is there}
  /part/{code}/notes:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Note'}
      responses:
        '201': {description: added}
components:
  schemas:
    Record:
      type: object
      properties:
        record:
          type: object
          properties:
            code: {type: string}
            weight: {type: integer}
            colour: {type: string}
          required: [code, weight]
    Note:
      type: object
      properties:
        text: {type: string}
      required: [text]
"""


def rule_findings(rule: str, files: dict[str, str]) -> list[Finding]:
    corpus = Context.from_texts(files)
    return list(all_rules()[rule].check(corpus, {}))


def api_page(body: str) -> dict[str, str]:
    return {"spec/api/openapi.yaml": PARTS_API, "spec/README.md": f"# Parts\n\n{body}"}


ANSWER_UNDER_GET = """\
#### Example request and response

```
GET /part/bolt-7

{
  "record": {
    "weight": 12,
    "colour": "grey"
  }
}
```
"""


def test_a_body_under_a_get_request_line_is_its_answer() -> None:
    [finding] = rule_findings("example-invalid", api_page(ANSWER_UNDER_GET))
    assert finding.message.startswith('example at /record: "code" is a required property')
    assert (
        "the body shown as its answer in `GET /part/bolt-7`"
        in "\n".join(r.note for r in finding.related) + finding.message
    )
    assert finding.heuristic == "example-invalid/by-exchange"
    good = ANSWER_UNDER_GET.replace('"weight"', '"code": "bolt-7",\n    "weight"')
    assert rule_findings("example-invalid", api_page(good)) == []


def test_a_body_under_a_request_line_that_takes_one_is_still_its_request() -> None:
    # A POST's body is its request body (the answer is declared with no content here).
    sent = '```\nPOST /part/bolt-7/notes\n\n{"words": 3}\n```\n'
    [finding] = rule_findings("example-invalid", api_page(sent))
    assert finding.message.startswith('example at /: "text" is a required property')
    # A GET whose operation declares a request body (a search by body): its request body.
    searching = PARTS_API.replace(
        "    get:\n      parameters:",
        "    get:\n      requestBody:\n        content:\n          application/json:\n"
        "            schema: {$ref: '#/components/schemas/Note'}\n      parameters:",
    )
    files = {"spec/api/openapi.yaml": searching, "spec/README.md": "# P\n\n" + ANSWER_UNDER_GET}
    [finding] = rule_findings("example-invalid", files)
    assert finding.message.startswith('example at /: "text" is a required property')
    # A curl command's data is what it sends, even with `-X GET`: never read as the answer.
    sending = (
        '```bash\ncurl -X GET https://x.example/part/bolt-7 -d \'{"record": {"weight": 1}}\'\n```\n'
    )
    assert rule_findings("example-invalid", api_page(sending)) == []


KIT_MINIMAL = """\
{
  "type": "object",
  "properties": {
    "weights": {"type": "array", "items": {"type": "integer"}},
    "labels": {"type": "array", "items": {"type": "string"}},
    "parts": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["labels", "weights", "parts"]
}
"""
# The same document written with references the corpus cannot follow (relative to its `$id`).
KIT_BY_REFERENCE = """\
{
  "$id": "https://kits.example.org/schemas/kit_minimal.json",
  "type": "object",
  "properties": {
    "weights": {"$ref": "/weights"},
    "labels": {"$ref": "/labels"},
    "parts": {"$ref": "/parts"}
  },
  "required": ["labels", "parts"]
}
"""
KIT_EXAMPLE = """\
A kit whose parts are left out:

```
{
  "weights": ["12", "7"],
  "labels": ["left", "right"]
}
```
"""


def kit_files(page: str, **schemas: str) -> dict[str, str]:
    files = {
        "docs/schemas/kit_minimal.json": KIT_MINIMAL,
        "docs/schemas/kit_refs.json": KIT_BY_REFERENCE,
        "docs/kits/rationale.md": f"# Kits\n\n{page}",
    }
    files.update({f"docs/schemas/{name}.json": text for name, text in schemas.items()})
    return files


def test_an_example_of_a_family_of_schemas_that_declare_its_members_alike_is_judged() -> None:
    findings = rule_findings("example-invalid", kit_files(KIT_EXAMPLE))
    assert findings, "the family's schemas agree on `weights`: its strings are judged"
    assert findings[0].message.startswith('example at /weights/0: "12" is not of type "integer"')
    assert findings[0].heuristic == "example-invalid/by-fragment"
    assert findings[0].location.line == 7
    # An extended member of the family (more members, the same schemas for these) agrees too.
    extended = KIT_MINIMAL.replace(
        '"parts": {',
        '"colours": {"type": "array", "items": {"type": "string"}},\n    "parts": {',
    )
    assert rule_findings("example-invalid", kit_files(KIT_EXAMPLE, kit_extended=extended))
    assert (
        rule_findings("example-invalid", kit_files(KIT_EXAMPLE.replace('"12", "7"', "12, 7"))) == []
    )


def test_schemas_that_declare_a_member_differently_leave_the_example_unbound() -> None:
    other = KIT_MINIMAL.replace('"items": {"type": "integer"}', '"items": {"type": "string"}')
    assert rule_findings("example-invalid", kit_files(KIT_EXAMPLE, kit_text=other)) == []


def test_a_document_written_as_its_members_digests_is_not_an_excerpt() -> None:
    digests = (
        "The digest of each member:\n\n```json\n"
        '{"weights": "Zq4x", "labels": "c0Ff", "parts": "9pQe"}\n```\n'
    )
    assert rule_findings("example-invalid", kit_files(digests)) == []
    # One member a string and the others arrays: an invalid excerpt, not another form.
    mixed = digests.replace('"labels": "c0Ff"', '"labels": ["a"]')
    assert rule_findings("example-invalid", kit_files(mixed))


def parameter_findings(body: str) -> list[Finding]:
    return [
        f
        for f in rule_findings("example-invalid", api_page(body))
        if f.heuristic == "example-invalid/parameter-value"
    ]


def test_a_query_value_of_a_request_line_is_judged_against_its_parameter_schema() -> None:
    request = "A short listing:\n\n```\nGET /part/bolt-7?offset=0&limit=0\n```\n"
    [finding] = parameter_findings(request)
    assert finding.message.startswith(
        "query parameter `limit` is `0`: 0 is less than the minimum of 1"
    )
    # Where the value is written: the fence opens on line 5, `0` after `limit=`.
    assert (finding.location.line, finding.location.column) == (6, 33)
    assert "`GET /part/{code}`'s query parameter" in finding.related[0].note
    assert parameter_findings(request.replace("limit=0", "limit=5")) == []
    # A curl URL gives its query too; an enum holds it.
    curl = "```bash\ncurl 'https://parts.example.org/part/bolt-7?view=huge'\n```\n"
    [wrong] = parameter_findings(curl)
    assert wrong.message.startswith("query parameter `view` is `huge`")


def test_a_path_value_of_a_request_is_judged_against_its_template_variable() -> None:
    [finding] = parameter_findings("```\nGET /bin/0\n```\n")
    assert finding.message.startswith("path parameter `slot` is `0`")
    assert parameter_findings("```\nGET /bin/3\n```\n") == []


def test_values_that_stand_for_one_or_that_the_words_call_refused_are_not_judged() -> None:
    placeholders = [
        "GET /bin/{slot}",
        "GET /bin/<slot>",
        "GET /bin/:slot",
        "GET /bin/$SLOT",
        "GET /part/bolt-7?limit={limit}",
        "GET /part/bolt-7?limit=<n>",
        "GET /part/bolt-7?limit=:limit",
        "GET /part/bolt-7?limit=${LIMIT}",
        "GET /part/bolt-7?limit=N",  # a word where a number goes
        "GET /part/bolt-7?view=...",
        "GET /part/bolt-7?view=VIEW",  # a word in capitals where the values are not
        "GET /part/bolt-7?view=your-view",
        "GET /part/bolt-7?tags=b,c",  # a serialised list
        "GET /part/bolt-7?view=brief,huge",
    ]
    for line in placeholders:
        assert parameter_findings(f"```\n{line}\n```\n") == [], line
    refused = "A zero limit returns 400 Bad Request:\n\n```\nGET /part/bolt-7?limit=0\n```\n"
    assert parameter_findings(refused) == []
    shown = "```http\nGET /part/bolt-7?limit=0\n\nHTTP/1.1 400 Bad Request\n```\n"
    assert parameter_findings(shown) == []


def test_speclint_bindings_lists_each_request_parameter_value(make_corpus: MakeCorpus) -> None:
    root = make_corpus(api_page("```\nGET /part/bolt-7?limit=0\n```\n"))
    output = run_cli("bindings", str(root)).output
    assert (
        "spec/README.md:4 query parameter value `0`\n    -> spec/api/openapi.yaml#/paths/"
        "~1part~1{code}/get/parameters/2/schema (by parameter value: `limit` in "
        "`GET /part/bolt-7`, `GET /part/{code}`'s query parameter)"
    ) in output
    assert "speclint: 2 request parameter value(s) bound" in output  # `code` too
