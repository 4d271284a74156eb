"""Classes of wrong routes and type disagreements a first read of three public repositories
missed (issue 46, round 2): a route with its leading segments left off, a method in brackets,
a field table's "will be null" for a type that rejects null, a documented field the schema
does not declare, a key index annotating types in parentheses."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.common.findings import Finding

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

LIBRARY = """\
openapi: 3.0.3
info: {title: Library, version: 1.0.0}
servers:
  - url: /library/2
paths:
  /shelf/about:
    get: {operationId: about, responses: {'200': {description: ok}}}
  /shelf/{id}:
    get: {operationId: book, responses: {'200': {description: ok}}}
  /shelf/{id}/notes:
    get: {operationId: notes, responses: {'200': {description: ok}}}
"""

LIBRARY_PAGE = """\
# Library

Read a book with `GET /shelf/{id}` and its notes with `GET /shelf/{id}/notes`.

The server describes itself at `GET /shelf/about`.

## Example request

```
GET /about
```
"""


def _routes(root: Path) -> list[Finding]:
    return run_rule(root, "route-undeclared")


def test_a_route_with_its_leading_segment_left_off_names_the_operation(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": LIBRARY, "docs/library.md": LIBRARY_PAGE})
    (finding,) = _routes(root)
    assert finding.location.line == 10
    assert "`GET /about` is no operation" in finding.message
    assert "the nearest is `GET /shelf/about`, whose path has `/shelf` before it" in finding.message


def test_a_route_below_a_prefix_the_page_names_is_no_slip(make_corpus: MakeCorpus) -> None:
    page = LIBRARY_PAGE.replace("# Library\n", "# Library\n\nPaths below are under `/shelf`.\n")
    root = make_corpus({"api/openapi.yaml": LIBRARY, "docs/library.md": page})
    assert _routes(root) == []


AGENTS = """\
openapi: 3.0.1
info: {title: Agents, version: 1.0.0}
servers:
  - url: 'http://0.0.0.0:8000'
paths:
  /xy/v1/robot/jobs:
    get: {operationId: listJobs, responses: {'200': {description: ok}}}
    post: {operationId: createJob, responses: {'200': {description: ok}}}
  /xy/v1/robot/jobs/{job_id}/moves:
    get: {operationId: listMoves, responses: {'200': {description: ok}}}
    post: {operationId: addMove, responses: {'200': {description: ok}}}
"""

AGENTS_PAGE = """\
# Agents

- `GET /xy/v1/robot/jobs` lists the jobs.
- `POST /xy/v1/robot/jobs` creates one.
- `GET /xy/v1/robot/jobs/{job_id}/moves` lists its moves.
"""


def test_a_method_in_brackets_before_a_path_is_a_route(make_corpus: MakeCorpus) -> None:
    page = AGENTS_PAGE + (
        "\nTo change the order, override the router of **[POST]** `/robot/jobs/{job_id}/moves`.\n"
    )
    root = make_corpus({"api/openapi.yaml": AGENTS, "docs/agents.md": page})
    (finding,) = _routes(root)
    assert finding.location.line == 7
    assert "`POST /robot/jobs/{job_id}/moves` is no operation" in finding.message
    assert "whose path has `/xy/v1` before it" in finding.message


def _claims(root: Path) -> list[Finding]:
    return run_rule(root, "type-claim-drift")


ORDERS = """\
openapi: 3.0.3
info: {title: Orders, version: 1.0.0}
paths: {}
components:
  schemas:
    Order:
      type: object
      required: [order_id]
      properties:
        order_id: {type: string}
        note: {type: string}
        total: {type: integer}
        receipt: {type: string}
"""

ORDER_TABLE = """\
# Orders

The `Order` object has the following properties:

| Property   | Type      | Description              |
| ---------- | --------- | ------------------------ |
| `order_id` | `string`  | The order's id.          |
| `note`     | `string`  | A note.                  |
| `total`    | `integer` | The total, in cents.     |
| `lines`    | `array`   | The lines of the order.  |
| `receipt`  | `string`  | The receipt, once paid.  |
"""


def test_a_documented_member_the_named_object_lacks_is_reported(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": ORDERS, "docs/orders.md": ORDER_TABLE})
    (finding,) = _claims(root)
    assert (finding.location.line, finding.severity.label) == (10, "info")
    assert "`lines` is documented as a member (`array`)" in finding.message
    assert "does not declare it (an open object lets it through)" in finding.message


def test_a_documented_member_a_closed_object_lacks_is_a_warning(make_corpus: MakeCorpus) -> None:
    api = ORDERS.replace(
        "      required: [order_id]\n",
        "      required: [order_id]\n      additionalProperties: false\n",
    )
    root = make_corpus({"api/openapi.yaml": api, "docs/orders.md": ORDER_TABLE})
    (finding,) = _claims(root)
    assert finding.severity.label == "warning"
    assert "and rejects it (a closed object)" in finding.message


def test_a_reference_bound_by_shared_members_only_reports_no_member_it_lacks(
    make_corpus: MakeCorpus,
) -> None:
    page = ORDER_TABLE.replace("The `Order` object has the following properties:", "Fields:")
    page = page.replace("# Orders", "# Reference")
    root = make_corpus({"api/openapi.yaml": ORDERS, "docs/orders.md": page})
    assert _claims(root) == []


NULL_TABLE = """\
# Orders

The `Order` object:

| Field      | Type     | Description                                                    |
| ---------- | -------- | -------------------------------------------------------------- |
| `order_id` | string   | The order's id.                                                |
| `receipt`  | string   | The receipt; before payment the value will be `null`.          |
"""


def test_a_table_cell_saying_its_field_will_be_null_is_held_to_the_type(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": ORDERS, "docs/orders.md": NULL_TABLE})
    (finding,) = _claims(root)
    assert finding.location.line == 8
    assert "the text says `receipt` may be null" in finding.message


HTML_TABLE = """\
# Orders

The response has the following fields:

<table>
<tr><td>
<code>order_id</code><br/>
string
</td><td>
The order's id.
</td></tr>
<tr><td>
<code>receipt</code><br/>
string
</td><td>
The receipt; if the order is unpaid the value will be <code>null</code>.
</td></tr>
</table>
"""


def test_an_html_table_row_saying_its_field_will_be_null_is_held_to_the_type(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": ORDERS, "docs/orders.md": HTML_TABLE})
    (finding,) = _claims(root)
    assert finding.location.line == 16
    assert "the text says `receipt` may be null" in finding.message


def test_a_null_cell_against_a_nullable_field_is_no_finding(make_corpus: MakeCorpus) -> None:
    api = ORDERS.replace("receipt: {type: string}", "receipt: {type: string, nullable: true}")
    root = make_corpus({"api/openapi.yaml": api, "docs/orders.md": NULL_TABLE})
    assert _claims(root) == []


KEYS = """\
{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "title": {"type": "string"},
    "authors": {"type": "array", "items": {"type": "object"}},
    "contact": {"type": "array", "items": {"type": "object"}},
    "keywords": {"type": "array", "items": {"type": "string"}}
  }
}
"""

KEY_INDEX = """\
# Keys

## Index

- [`title`](#title)
- [`authors`](#authors) (array of objects)
- [`contact`](#contact) (object)
- [`keywords`](#keywords) (array of strings)
"""


def test_a_key_index_linking_each_key_states_its_type(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schema.json": KEYS, "guide.md": KEY_INDEX})
    (finding,) = _claims(root)
    assert finding.location.line == 7
    assert "`contact` is documented as `object`" in finding.message


PARTNERS = """\
openapi: 3.0.3
info: {title: Partners, version: 1.0.0}
paths:
  /accounts/{ID}:
    get: {operationId: account, responses: {'200': {description: ok}}}
  /accounts/{ID}/error:
    put: {operationId: accountError, responses: {'200': {description: ok}}}
  /partnerRequests/grants/{ID}:
    put: {operationId: grant, responses: {'200': {description: ok}}}
  /partnerRequests/grants/{ID}/error:
    put: {operationId: grantError, responses: {'200': {description: ok}}}
"""

PARTNER_PAGE = """\
# Partners

- `GET /accounts/{ID}` reads an account.
- `PUT /accounts/{ID}/error` reports an error.
- `PUT /partnerRequests/grants/{ID}` answers a grant.

The **PUT /partnerRequests/grants/{ID}/error** callback carries the same content as the
**PUT /grants/{ID}/error** callback of the core API.
"""


def test_a_route_of_one_collection_among_several_left_off_may_be_another_apis(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": PARTNERS, "docs/partners.md": PARTNER_PAGE})
    assert _routes(root) == []


NESTED_HTML = """\
# Orders

<table>
<tr><td>
<code>order</code><br/>
object
</td><td>
The order.
<table>
<tr><td>
<code>order_id</code><br/>
string
</td><td>
The id; for a draft the value will be <code>null</code>.
</td></tr>
</table>
</td></tr>
</table>
"""


def test_a_nested_html_rows_null_is_its_own_field_not_the_outer_rows(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": ORDERS, "docs/orders.md": NESTED_HTML})
    (finding,) = _claims(root)
    assert "the text says `order_id` may be null" in finding.message
    assert finding.location.line == 14
