"""Examples in prose that a first read of three public repositories found speclint missing
(issue 46, round 2): a response shown under its GET request line in one fence; an example of a
family of schemas (minimal, extended, by reference) that declare its members alike; a request's
query and path values against the operation's parameter schemas. Fixtures of our own."""

from __future__ import annotations

from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.run.catalog import all_rules

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
      responses:
        '200':
          description: the part's record
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Record'}
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
