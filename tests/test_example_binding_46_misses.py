"""Examples the issue 46 acceptance lists showed unbound or unjudged, by class (fixtures of our
own): an example whose misplaced member keeps it from binding by shape, bound by a heading that
names its definition; an example written as a member (``"total": {...}``) judged inside the
value it shows; a streaming section's "partial results" not read as "this example is partial".
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.analyses.prose.fences import BY_HEADING, Binding, fence_ties
from speclint.common.findings import Finding
from speclint.run.catalog import all_rules
from speclint.run.preview import why_heuristic_preview

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

# A receipt file: its root titled `receipt`, the currency inside `total`.
RECEIPT = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "receipt",
    "type": "object",
    "required": ["shop", "total"],
    "properties": {
        "shop": {"type": "string"},
        "total": {
            "type": "object",
            "required": ["amount", "currency"],
            "properties": {
                "amount": {"type": "number"},
                "tax": {"type": "number"},
                "currency": {"type": "string"},
            },
        },
        "lines": {"type": "array", "items": {"type": "string"}},
    },
}

# The currency misplaced at the top level: `total` lacks it, and no definition declares every
# member the example has, so its shape binds it nowhere.
MISPLACED = """\
{
  "currency": "EUR",
  // the total
  "total": {"amount": 12.5},
  "shop": "Corner bakery",
  "lines": ["bread"]
}
"""


def files(page: str, schema: dict[str, Any] = RECEIPT) -> dict[str, str]:
    return {"schema/receipt.schema.json": json.dumps(schema), "docs/receipt.md": page}


def findings(texts: dict[str, str]) -> list[Finding]:
    corpus = Context.from_texts(texts)
    return list(all_rules()["example-invalid"].check(corpus, {}))


def heading_ties(texts: dict[str, str]) -> list[str]:
    corpus = Context.from_texts(texts)
    return [
        tie.evidence
        for tie in fence_ties(corpus, corpus.documents["docs/receipt.md"], Binding())
        if tie.how == BY_HEADING
    ]


def fence(body: str, language: str = "json") -> str:
    return f"```{language}\n{body}```\n"


# --- a heading that names the definition --------------------------------------------------------


def test_a_heading_naming_the_definition_binds_an_example_its_defect_keeps_from_its_shape() -> None:
    page = "# Receipts\n\n## Full Receipt Example\n\n" + fence(MISPLACED)
    found = findings(files(page))
    assert len(found) == 1
    assert found[0].message.startswith('example at /total: "currency" is a required property')
    assert found[0].heuristic == "example-invalid/heading-name"
    assert found[0].location.line == 9  # the `total` member, as written
    assert heading_ties(files(page)) == [
        'the heading "Full Receipt Example" names `receipt`, which declares 3 of its 4 members'
    ]


def test_the_heading_binding_is_a_preview_heuristic() -> None:
    assert "example-invalid/heading-name" in all_rules()["example-invalid"].heuristics
    assert why_heuristic_preview("example-invalid/heading-name") is not None


def test_a_heading_binds_no_example_of_another_shape_nor_a_heading_without_example_words() -> None:
    other = '{"colour": "red", "size": 3, "weight": 2}\n'
    assert heading_ties(files("## Receipt example\n\n" + fence(other))) == []
    # The heading is the name alone: a section about the thing, not a caption of its example.
    assert heading_ties(files("## Receipt\n\n" + fence(MISPLACED))) == []
    # A heading of several other words is a sentence, not a caption.
    page = "## How a shop prints a receipt example\n\n" + fence(MISPLACED)
    assert heading_ties(files(page)) == []


def test_a_heading_naming_two_definitions_binds_nothing() -> None:
    texts = {
        **files("## Full Receipt Example\n\n" + fence(MISPLACED)),
        "schema/other.schema.json": json.dumps({**RECEIPT, "$id": "https://o.example/r"}),
    }
    texts["schema/other.schema.json"] = json.dumps(
        {**RECEIPT, "properties": {**RECEIPT["properties"], "extra": {}}}
    )
    assert heading_ties(texts) == []


def test_an_example_the_heading_binds_is_not_judged_for_what_it_leaves_out_when_partial() -> None:
    # Gives under half of the root's required members: one block shown, what it lacks is not
    # the example's defect (as for other ties by text).
    schema = {**RECEIPT, "required": ["shop", "total", "lines", "issued"]}
    schema["properties"] = {**RECEIPT["properties"], "issued": {"type": "string"}}
    page = "## Receipt example\n\n" + fence(
        '{"currency": "EUR", "total": {"amount": 1, "currency": "EUR"}}\n'
    )
    assert heading_ties(files(page, schema)) != []
    assert findings(files(page, schema)) == []


def test_speclint_bindings_shows_the_heading_and_its_evidence(make_corpus: MakeCorpus) -> None:
    root = make_corpus(files("# Receipts\n\n## Full Receipt Example\n\n" + fence(MISPLACED)))
    output = run_cli("bindings", str(root)).output
    assert (
        "docs/receipt.md:5 json example\n"
        '    -> schema/receipt.schema.json (by heading name: the heading "Full Receipt '
        'Example" names `receipt`, which declares 3 of its 4 members)'
    ) in output


# --- an example written as a member --------------------------------------------------------------


def test_an_example_in_member_form_is_judged_inside_the_value_it_shows() -> None:
    page = "# Total\n\nThe `total` member of a receipt.\n\n## Example\n\n" + fence(
        '"total": {\n  "amount": 12.5,\n  "tax": 2.1\n}\n'
    )
    found = findings(files(page))
    assert len(found) == 1
    assert found[0].message.startswith('example at /total: "currency" is a required property')


def test_an_example_in_member_form_is_not_judged_for_the_members_it_leaves_out() -> None:
    # `shop`, required at the root, is not shown: the example is one member of the receipt.
    page = "## Example\n\n" + fence('"total": {\n  "amount": 12.5,\n  "currency": "EUR"\n}\n')
    assert findings(files(page)) == []


# --- "partial results" ---------------------------------------------------------------------------

# A stream's chunk: a definition of a schema file (no root document).
STREAMED = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
        "chunk": {
            "type": "object",
            "required": ["sequence", "text", "final"],
            "properties": {
                "sequence": {"type": "integer"},
                "text": {"type": "string"},
                "final": {"type": "boolean"},
                "model": {"type": "string"},
            },
        }
    },
}
CHUNK = '{"sequence": 1, "text": "Hel", "model": "m1"}\n'


def chunk_findings(paragraph: str) -> list[Finding]:
    page = f"# Streaming\n\n{paragraph}\n\n" + fence(CHUNK)
    return findings({"schema/chunk.schema.json": json.dumps(STREAMED), "docs/receipt.md": page})


def test_partial_results_a_protocol_streams_do_not_make_its_example_partial() -> None:
    found = chunk_findings("The server streams partial results as they are generated.")
    assert len(found) == 1 and '"final" is a required property' in found[0].message


def test_a_partial_example_is_still_one_that_leaves_members_out() -> None:
    assert chunk_findings("A partial example of what the server sends:") == []
    assert chunk_findings("Partial response (the server sends more):") == []


# --- a value not of its format's form ------------------------------------------------------------

TICKET = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
        "ticket": {
            "type": "object",
            "required": ["id", "opened", "title"],
            "properties": {
                "id": {"type": "string", "format": "uuid"},
                "opened": {"type": "string", "format": "date-time"},
                "title": {"type": "string"},
                "contact": {"type": "string", "format": "email"},
            },
        }
    },
}


def ticket_findings(example: str) -> list[Finding]:
    page = "# Tickets\n\nA ticket as the service stores it:\n\n" + fence(example)
    return findings({"schema/ticket.schema.json": json.dumps(TICKET), "docs/receipt.md": page})


def test_an_example_value_not_of_its_uuid_format_is_a_warning_of_its_own_heuristic() -> None:
    found = ticket_findings(
        '{"id": "ticket-42", "opened": "2025-03-01T09:30:00Z", "title": "Printer jam"}\n'
    )
    assert len(found) == 1
    assert found[0].heuristic == "example-invalid/format"
    assert found[0].severity.name == "WARNING"
    assert found[0].message.startswith('example at /id: "ticket-42" is not a `uuid`')
    assert found[0].location.line == 6


def test_values_of_their_format_placeholders_and_unasserted_formats_are_not_reported() -> None:
    valid = (
        '{"id": "3f2b8c1e-5d4a-4e7b-9c2f-1a6d8e0b4c7a", "opened": "2025-03-01T09:30:00Z",'
        ' "title": "Printer jam", "contact": "not an address"}\n'
    )
    assert ticket_findings(valid) == []  # `email` is not among the forms asserted
    for placeholder in ("<ticket-id>", "$TICKET_ID", "ticket-id"):
        example = f'{{"id": "{placeholder}", "opened": "...", "title": "Printer jam"}}\n'
        assert ticket_findings(example) == [], placeholder


def test_a_date_for_a_date_time_is_reported_once_with_the_others_related() -> None:
    found = ticket_findings('{"id": "t-1", "opened": "2025-03-01", "title": "Printer jam"}\n')
    assert len(found) == 1 and "(and 1 more)" in found[0].message
    schema, other = found[0].related
    assert schema.path == "schema/ticket.schema.json" and other.line == 6


def test_the_format_check_is_a_preview_heuristic() -> None:
    assert "example-invalid/format" in all_rules()["example-invalid"].heuristics
    assert why_heuristic_preview("example-invalid/format") is not None


# --- an extension's member, by its reverse-DNS name ----------------------------------------------

PACKAGE = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "$id": "https://pkg.example.org/specs/v1/package.schema.json",
    "type": "object",
    "required": ["name", "version"],
    "properties": {
        "name": {"type": "string"},
        "version": {"type": "string"},
        "extensions": {"type": "object", "additionalProperties": True},
    },
}
RETRIES = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "$id": "https://pkg.example.org/specs/v1/retries.schema.json",
    "type": "object",
    "additionalProperties": False,
    "properties": {"attempts": {"type": "integer"}, "backoff": {"enum": ["linear", "exponential"]}},
}


def package_texts(retries: str, schemas: dict[str, Any] | None = None) -> dict[str, str]:
    example = (
        '{\n  "name": "tool",\n  "version": "1.0.0",\n  "extensions": {\n'
        f'    "org.example.pkg.retries": {retries},\n'
        '    "com.example.colours": {"theme": "dark"}\n  }\n}\n'
    )
    found = {"package": PACKAGE, "retries": RETRIES} if schemas is None else schemas
    return {
        **{f"schema/{name}.schema.json": json.dumps(s) for name, s in found.items()},
        "docs/receipt.md": "# Packages\n\n" + fence(example),
    }


def test_an_extension_member_is_held_to_the_schema_its_reverse_dns_name_gives() -> None:
    found = findings(package_texts('{"attempts": 3, "backoff": "random"}'))
    assert len(found) == 1
    assert found[0].heuristic == "example-invalid/extension-name"
    assert found[0].message.startswith("example at /extensions/org.example.pkg.retries/backoff")
    assert found[0].location.line == 8


def test_an_extension_of_its_schema_and_one_no_schema_describes_are_not_reported() -> None:
    assert findings(package_texts('{"attempts": 3, "backoff": "linear"}')) == []


def test_an_extension_name_two_schemas_or_none_give_binds_nothing() -> None:
    elsewhere = {**RETRIES, "$id": "https://other.example.net/retries.schema.json"}
    alone = {"package": PACKAGE, "retries": elsewhere}
    assert findings(package_texts('{"backoff": "random"}', alone)) == []
    copy = {**RETRIES, "$id": "https://pkg.example.org/specs/v2/retries.schema.json"}
    both = {"package": PACKAGE, "retries": RETRIES, "retries2": copy}
    assert findings(package_texts('{"backoff": "random"}', both)) == []


def test_speclint_bindings_shows_the_extension_and_its_evidence(make_corpus: MakeCorpus) -> None:
    output = run_cli("bindings", str(make_corpus(package_texts("{}")))).output
    assert (
        "    -> schema/retries.schema.json at /extensions/org.example.pkg.retries (by extension "
        "name: `org.example.pkg.retries`, the reverse-DNS name of `retries.schema.json` (`$id` "
        "https://pkg.example.org/specs/v1/retries.schema.json))"
    ) in output


def test_a_heading_of_example_words_only_is_captioned_by_the_heading_above() -> None:
    page = "# Receipts\n\n## Receipt\n\nWhat a shop prints.\n\n### Example\n\n" + fence(MISPLACED)
    assert heading_ties(files(page)) == [
        'the heading "Receipt" names `receipt`, which declares 3 of its 4 members'
    ]
    # A section of another subject captions nothing of the receipt's.
    page = "# Receipts\n\n## Printing\n\n### Example\n\n" + fence(MISPLACED)
    assert heading_ties(files(page)) == []


def test_a_heading_binding_to_an_api_component_is_measured_as_the_heading_binding() -> None:
    api = {
        "openapi": "3.1.0",
        "info": {"title": "Shop", "version": "1"},
        "paths": {},
        "components": {
            "schemas": {"Receipt": {k: v for k, v in RECEIPT.items() if k != "$schema"}}
        },
    }
    page = "# Receipts\n\n## Receipt\n\n### Example\n\n" + fence(MISPLACED)
    found = findings({"api/openapi.json": json.dumps(api), "docs/receipt.md": page})
    assert [f.heuristic for f in found] == ["example-invalid/heading-name"]
