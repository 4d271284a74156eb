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
