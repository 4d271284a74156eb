"""type-claim-drift on the claim shapes the hand lists found it did not read (issue 46, item 8):
pseudo-schema notation, model class listings, and a field table's REQUIRED member that the bound
object does not declare. Fixtures are our own."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import openapi_30, run_rule
from speclint.parsing.listings import listings

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

PARCEL = {
    "parcel_reply": {
        "type": "object",
        "properties": {
            "carrier": {"type": "string"},
            "weight": {"type": "number"},
            "ticket": {"type": "string"},
            "legs": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["carrier", "legs"],
    },
    "parcel_fault": {"type": "object", "properties": {"fault": {"type": "string"}}},
}


def found(root: Path) -> list[tuple[str, int, str]]:
    return sorted(
        (
            f.location.path,
            f.location.line,
            "type" if "documented as `" in f.message else "required",
        )
        for f in run_rule(root, "type-claim-drift")
    )


# --- 1. pseudo-schema notation -------------------------------------------------------------------

PSEUDO_PAGE = """\
# Parcels

## Reply

The reply object, *$parcel_reply*, is returned.

```
$parcel_reply =
{
  "carrier" : $string,
  "weight" : $number #optional,
  "ticket" : $string,
  "legs" : [ $string, ... ]
}
```

## Fault

    $parcel_fault =
    {
      "fault": <a sentence>
    }
"""


def test_a_pseudo_schema_member_without_optional_is_required_against_the_component(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api.yaml": openapi_30("Parcels", PARCEL), "docs/parcels.md": PSEUDO_PAGE})
    # `ticket` is shown without `#optional`; the component does not require it.
    assert ("docs/parcels.md", 12, "required") in found(root)
    findings = [f for f in run_rule(root, "type-claim-drift") if f.location.line == 12]
    assert "without `#optional`" in findings[0].message
    assert "pseudo-schema is named `parcel_reply`" in findings[0].message


def test_a_pseudo_schema_type_the_component_contradicts_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    page = PSEUDO_PAGE.replace('"weight" : $number', '"weight" : $boolean')
    root = make_corpus({"api.yaml": openapi_30("Parcels", PARCEL), "docs/parcels.md": page})
    assert ("docs/parcels.md", 11, "type") in found(root)


def test_pseudo_schema_members_that_agree_are_not_reported(make_corpus: MakeCorpus) -> None:
    page = PSEUDO_PAGE.replace('"ticket" : $string,', '"ticket" : $string #optional,')
    root = make_corpus({"api.yaml": openapi_30("Parcels", PARCEL), "docs/parcels.md": page})
    assert [f for f in found(root) if f[1] < 16] == []


def test_pseudo_schemas_on_a_page_that_marks_nothing_optional_claim_no_requiredness(
    make_corpus: MakeCorpus,
) -> None:
    page = PSEUDO_PAGE.replace(" #optional", "")
    root = make_corpus({"api.yaml": openapi_30("Parcels", PARCEL), "docs/parcels.md": page})
    assert found(root) == []


def test_the_pseudo_schema_reader_reads_arrays_references_and_free_text() -> None:
    text = '$a = {\n  "x" : [ $number, ... ],\n  "y" : $other #optional,\n  "z": <text>\n}\n'
    (listing,) = listings(text)
    assert listing.name == "a"
    assert [(m.name, m.offset, m.type, m.required) for m in listing.members] == [
        ("x", 1, "array of number", True),
        ("y", 2, None, False),
        ("z", 3, None, True),
    ]


# --- 2. model listings ---------------------------------------------------------------------------

VISIT = {
    "Visit": {
        "type": "object",
        "properties": {
            "id": {"type": "string", "format": "uuid"},
            "pages": {"type": "array", "items": {"type": "string", "format": "uri"}},
            "cursor": {"type": "string", "format": "uri"},
            "hits": {"type": "integer"},
            "label": {"type": "string"},
        },
        "required": ["id", "pages", "label"],
    }
}

PYTHON_PAGE = """\
# Visits

## The model

```python
class Visit(BaseModel):
    id: UUID
    pages: list[AnyHttpUrl]  # where the visitor went
    cursor: AnyHttpUrl
    hits: int = 0
    label: str | None = None
    note: Optional[str]

    def touch(self) -> None:
        self.hits: int = 1
```
"""


def test_a_python_model_member_without_default_is_required_against_the_schema(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api.yaml": openapi_30("Visits", VISIT), "docs/visits.md": PYTHON_PAGE})
    # `cursor` has no default: the class requires it, the schema does not. `hits` has a
    # default and `label` admits None: neither claims anything against `required`.
    assert found(root) == [("docs/visits.md", 9, "required")]
    (finding,) = run_rule(root, "type-claim-drift")
    assert "the class declares it with no default" in finding.message
    assert "Python class is named `Visit`" in finding.message


def test_a_python_model_type_the_schema_contradicts_is_reported(make_corpus: MakeCorpus) -> None:
    page = PYTHON_PAGE.replace("hits: int = 0", "hits: str = 'x'")
    root = make_corpus({"api.yaml": openapi_30("Visits", VISIT), "docs/visits.md": page})
    assert ("docs/visits.md", 10, "type") in found(root)


def test_a_class_named_for_no_schema_binds_nothing(make_corpus: MakeCorpus) -> None:
    page = PYTHON_PAGE.replace("class Visit(", "class Tracker(")
    root = make_corpus({"api.yaml": openapi_30("Visits", VISIT), "docs/visits.md": page})
    assert found(root) == []


TS_PAGE = """\
# Visits

```ts
export interface Visit {
  id?: string;
  pages: string[];
  cursor: string; // where to go on
  hits: boolean;
  label: string | null;
}
```
"""


def test_a_typescript_interface_states_types_and_requiredness(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api.yaml": openapi_30("Visits", VISIT), "docs/visits.md": TS_PAGE})
    # `id?` is optional where the schema requires it; `cursor` is required where it is not;
    # `hits` is a required boolean where the schema says an optional integer.
    assert found(root) == [
        ("docs/visits.md", 5, "required"),
        ("docs/visits.md", 7, "required"),
        ("docs/visits.md", 8, "required"),
        ("docs/visits.md", 8, "type"),
    ]


def test_the_listing_reader_reads_typed_dicts_and_pydantic_fields() -> None:
    text = (
        "class A(TypedDict, total=False):\n    x: int\n    y: Required[str]\n\n"
        "class B(BaseModel):\n    p: str = Field(..., description='d')\n"
        "    q: str = Field(description='d')\n    r: str = Field('v')\n"
        "    s: ClassVar[int] = 1\n\nclass Color(str, Enum):\n    RED: str = 'red'\n"
    )
    found_ = {
        (listing.name, m.name): m.required for listing in listings(text) for m in listing.members
    }
    assert found_ == {
        ("A", "x"): False,
        ("A", "y"): True,
        ("B", "p"): True,
        ("B", "q"): True,
        ("B", "r"): None,
    }


# --- 4. a REQUIRED member the bound object does not declare ---------------------------------------

SEAL = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Envelope",
    "type": "object",
    "properties": {
        "body": {
            "type": "object",
            "properties": {"format_version": {"type": "string"}, "size": {"type": "integer"}},
            "required": ["format_version"],
        },
        "seal": {
            "type": "object",
            "properties": {"cipher": {"type": "string"}, "chunked": {"type": "boolean"}},
            "required": ["cipher", "chunked"],
        },
        "notes": {"type": "array"},
    },
    "required": ["body", "seal"],
}

SEAL_PAGE = """\
# Seal

The `seal` object says how the body is sealed.

| Parameter | Type | Required? |
| --- | --- | --- |
| cipher | String | Yes |
| chunked | Boolean | Yes |
| nonce | String | Yes |
"""


def test_a_required_row_the_bound_object_does_not_declare_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"schemas/envelope.json": json.dumps(SEAL), "docs/seal.md": SEAL_PAGE})
    assert found(root) == [("docs/seal.md", 9, "required")]
    (finding,) = run_rule(root, "type-claim-drift")
    assert "neither declares nor requires it" in finding.message
    assert finding.related[0].pointer == "/properties/seal"


def test_a_top_level_table_listing_a_member_of_a_nested_object_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Envelope\n\nThe envelope object has these members:\n\n"
        "| Parameter | Type | Required? |\n| --- | --- | --- |\n"
        "| `format_version` | String | Yes |\n| `body` | Object | Yes |\n"
        "| `seal` | Object | Yes |\n| `notes` | Array | No |\n"
    )
    root = make_corpus({"schemas/envelope.json": json.dumps(SEAL), "docs/envelope.md": page})
    assert found(root) == [("docs/envelope.md", 7, "required")]


def test_an_undeclared_optional_row_and_an_unread_reference_are_not_judged(
    make_corpus: MakeCorpus,
) -> None:
    optional = SEAL_PAGE.replace("| nonce | String | Yes |", "| nonce | String | No |")
    root = make_corpus({"schemas/envelope.json": json.dumps(SEAL), "docs/seal.md": optional})
    assert found(root) == []
    unread = json.loads(json.dumps(SEAL))
    unread["properties"]["seal"]["allOf"] = [{"$ref": "https://example.org/remote.json"}]
    root = make_corpus({"schemas/envelope.json": json.dumps(unread), "docs/seal.md": SEAL_PAGE})
    assert found(root) == []


def test_a_required_row_the_object_may_take_by_a_pattern_is_not_reported_undeclared(
    make_corpus: MakeCorpus,
) -> None:
    """`patternProperties` lets members in by their name's shape: the row's `nonce` may be one
    of them, so the object's lacking it by name says nothing."""
    patterned = json.loads(json.dumps(SEAL))
    patterned["properties"]["seal"]["patternProperties"] = {"^n": {"type": "string"}}
    root = make_corpus({"schemas/envelope.json": json.dumps(patterned), "docs/seal.md": SEAL_PAGE})
    assert found(root) == []


def test_an_undeclared_required_row_bound_by_shared_members_alone_is_not_judged(
    make_corpus: MakeCorpus,
) -> None:
    # Nothing on the page names `seal`: the rows shared with it may document another object.
    page = SEAL_PAGE.replace("# Seal", "# Sealing").replace("The `seal` object says", "It says")
    root = make_corpus({"schemas/envelope.json": json.dumps(SEAL), "docs/seal.md": page})
    assert found(root) == []
    # A page whose title names it binds it as well as a lead-in does.
    titled = page.replace("# Sealing", "# Seal Object")
    root = make_corpus({"schemas/envelope.json": json.dumps(SEAL), "docs/seal.md": titled})
    assert found(root) == [("docs/seal.md", 9, "required")]


# --- 3. requiredness and nullability in sentences ------------------------------------------------

LIST = {
    "Paging": {
        "type": "object",
        "properties": {"next_link": {"type": "string"}, "size": {"type": "integer"}},
    },
    "Listing": {
        "type": "object",
        "properties": {
            "paging": {"$ref": "#/components/schemas/Paging"},
            "rows": {"type": "array"},
        },
    },
    "Attachment": {
        "type": "object",
        "properties": {"inline_body": {"type": "string"}, "body_link": {"type": "string"}},
        "required": ["media"],
        "not": {"allOf": [{"required": ["inline_body"]}, {"required": ["body_link"]}]},
    },
}


def test_a_sentence_that_says_a_non_nullable_field_is_null_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Paging\n\nThe last page is the one whose `paging.next_link` is `null`.\n"
    root = make_corpus({"api.yaml": openapi_30("Lists", LIST), "docs/paging.md": page})
    (finding,) = run_rule(root, "type-claim-drift")
    assert (finding.location.line, finding.location.column) == (3, 32)
    assert "says `next_link` may be null" in finding.message
    assert finding.related[0].pointer == "/components/schemas/Paging/properties/next_link"


def test_null_is_not_reported_where_the_schema_allows_it_or_a_refusal_is_described(
    make_corpus: MakeCorpus,
) -> None:
    nullable = {**LIST, "Paging": {**LIST["Paging"], "properties": {
        "next_link": {"type": "string", "nullable": True}, "size": {"type": "integer"}}}}  # fmt: skip
    page = "# Paging\n\nThe last page is the one whose `paging.next_link` is `null`.\n"
    root = make_corpus({"api.yaml": openapi_30("Lists", nullable), "docs/paging.md": page})
    assert found(root) == []
    refusal = "# Paging\n\nThe server returns a 400 error if `next_link` is null.\n"
    root = make_corpus({"api.yaml": openapi_30("Lists", LIST), "docs/paging.md": refusal})
    assert found(root) == []
    # `rows.next_link`: the holder names no object that declares it.
    wrong = "# Paging\n\nThe last page is the one whose `rows.next_link` is `null`.\n"
    root = make_corpus({"api.yaml": openapi_30("Lists", LIST), "docs/paging.md": wrong})
    assert found(root) == []


def test_one_of_two_fields_must_be_given_where_the_schema_asks_for_neither_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Attachments\n\n- Each attachment must carry either `inline_body` or `body_link`.\n"
    root = make_corpus({"api.yaml": openapi_30("Files", LIST), "docs/files.md": page})
    (finding,) = run_rule(root, "type-claim-drift")
    assert finding.location.line == 3
    assert "requires neither" in finding.message
    assert "anyOf: [{required: [inline_body]}, {required: [body_link]}]" in finding.message


def test_one_of_two_is_not_reported_where_the_schema_asks_for_one_or_the_text_is_conditional(
    make_corpus: MakeCorpus,
) -> None:
    asks = {**LIST, "Attachment": {**LIST["Attachment"], "anyOf": [
        {"required": ["inline_body"]}, {"required": ["body_link"]}]}}  # fmt: skip
    page = "# Attachments\n\nEach attachment must carry either `inline_body` or `body_link`.\n"
    root = make_corpus({"api.yaml": openapi_30("Files", asks), "docs/files.md": page})
    assert found(root) == []
    conditional = page.replace("Each attachment", "When sent inline, an attachment")
    root = make_corpus({"api.yaml": openapi_30("Files", LIST), "docs/files.md": conditional})
    assert found(root) == []


def test_the_section_heading_picks_the_object_when_two_declare_the_fields(
    make_corpus: MakeCorpus,
) -> None:
    both = {**LIST, "Mirror": {"type": "object", "properties": {
        "inline_body": {"type": "string"}, "body_link": {"type": "string"}}}}  # fmt: skip
    page = "# Attachments\n\nOne of `inline_body` or `body_link` MUST be given.\n"
    root = make_corpus({"api.yaml": openapi_30("Files", both), "docs/files.md": page})
    (finding,) = run_rule(root, "type-claim-drift")
    assert "schemas/Attachment" in finding.message
    assert "the section's heading names" in finding.message
    unnamed = page.replace("# Attachments", "# Files")
    root = make_corpus({"api.yaml": openapi_30("Files", both), "docs/files.md": unnamed})
    assert found(root) == []


KIT = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Kit",
    "type": "object",
    "properties": {
        "summary": {"type": "string"},
        "topics": {"type": "array", "items": {"type": "string"}},
        "owners": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"handle": {"type": "string"}, "mail": {"type": "string"}},
                "required": ["handle"],
            },
        },
    },
    "required": ["summary"],
}

KIT_PAGE = """\
# Kits

## Extra information

- `topics`: words to find the kit by (OPTIONAL)
- `owners`: a list of owners, where each owner MAY optionally have the following:
  - `handle`: what the owner is called
  - `mail`: where to write
"""


def test_sub_items_an_item_says_may_optionally_be_given_are_optional_claims(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"schemas/kit.json": json.dumps(KIT), "docs/kit.md": KIT_PAGE})
    (finding,) = run_rule(root, "type-claim-drift")
    assert finding.location.line == 7
    assert "`handle` is documented as OPTIONAL (the item `owners` above says" in finding.message
    assert finding.related[0].pointer == "/properties/owners/items/required/0"


def test_an_item_ending_in_required_capitals_is_a_claim(make_corpus: MakeCorpus) -> None:
    page = KIT_PAGE.replace("find the kit by (OPTIONAL)", "find the kit by (REQUIRED)")
    page = page.replace(", where each owner MAY optionally have the following:", " (OPTIONAL)")
    page = page.split("  - `handle`")[0]
    root = make_corpus({"schemas/kit.json": json.dumps(KIT), "docs/kit.md": page})
    assert found(root) == [("docs/kit.md", 5, "required")]


RUNS_API = """\
openapi: 3.0.3
info: {title: Runs, version: "1.0"}
paths:
  /jobs:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/JobStart"}
      responses: {"201": {description: started}}
  /jobs/{job_id}:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/JobResume"}
      responses: {"200": {description: resumed}}
components:
  schemas:
    JobStart:
      type: object
      properties: {task: {type: string}, queue: {type: string}, speed: {type: string}}
      required: [task]
    JobResume:
      type: object
      properties: {answer: {type: object}, speed: {type: string}}
      required: [answer, speed]
"""

RUNS_PAGE = """\
# Jobs

| Method | Endpoint | Description |
| --- | --- | --- |
| `POST` | `/jobs` | Starts a job. Requires `task`. Optional: `queue`, `speed` (`fast`, `slow`). |
| `POST` | `/jobs/{job_id}` | Resumes a job. Requires `answer`. Optional: `speed` for the reply. |
"""


def test_an_endpoint_rows_optional_member_the_request_body_requires_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api.yaml": RUNS_API, "docs/jobs.md": RUNS_PAGE})
    (finding,) = run_rule(root, "type-claim-drift")
    assert (finding.location.line, finding.location.column) == (6, 75)
    assert "`speed` is documented as OPTIONAL (its row says `Optional: speed`)" in finding.message
    assert "the row names `POST /jobs/{job_id}`, its request body" in finding.message
    # `fast` and `slow` are values of `speed`, not members: not read as claims.
    agreeing = RUNS_PAGE.replace("Optional: `speed` for the reply", "Requires `speed` too")
    root = make_corpus({"api.yaml": RUNS_API, "docs/jobs.md": agreeing})
    assert found(root) == []


def test_a_changelogs_sentence_that_a_field_is_null_is_not_a_claim(
    make_corpus: MakeCorpus,
) -> None:
    # A release note says what a version changed, of whichever API: "`next_link` is `null`" in
    # CHANGELOG.md describes a past behaviour, not the schema's field.
    note = "# Changelog\n\n## 1.2.0\n\n- The last page's `paging.next_link` is `null` now.\n"
    root = make_corpus({"api.yaml": openapi_30("Lists", LIST), "CHANGELOG.md": note})
    assert found(root) == []
    root = make_corpus({"api.yaml": openapi_30("Lists", LIST), "docs/notes.md": note})
    assert len(found(root)) == 1  # the same sentence on a page of the specification is one
