"""type-claim-drift, the classes a first read of three more repositories missed (issue 46, item
8): generator model pages, requiredness sentences, members a section documents that its object
lacks, and claims in an API document's descriptions."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import run_rule
from speclint.frontends.cli import main

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def reported(root: Path) -> list[tuple[str, int, str]]:
    """(path, line, message) of each type-claim-drift finding of a whole run (generated pages'
    findings filtered as a run does)."""
    out = root.parent / f"{root.name}-report.json"
    result = CliRunner().invoke(
        main,
        ["check", str(root), "--preview", "--no-cache", "--select", "type-claim-drift",
         "--format", "json", "-o", str(out), "--exit-zero"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return sorted(
        (f["location"]["path"], f["location"]["line"], f["message"])
        for f in json.loads(out.read_text(encoding="utf-8"))["findings"]
    )


PETSTORE = {
    "openapi": "3.1.0",
    "info": {"title": "Shelter", "version": "1"},
    "paths": {},
    "components": {
        "schemas": {
            "Pet": {
                "title": "Pet",
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "age": {"type": "integer"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["name", "tags"],
            },
            # a copy that kept the title it was pasted with: not the page's model
            "PetDraft": {
                "title": "Pet",
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "age": {"type": "string"},
                    "tags": {"type": "array"},
                },
            },
        }
    },
}


FOOTER = "[[Back to Model list]](../README.md#models) [[Back to README]](../README.md)\n"


def model_page(rows: str) -> str:
    return (
        "# Pet\n\n\n## Properties\n\nName | Type | Description | Notes\n"
        "------------ | ------------- | ------------- | -------------\n"
        f"{rows}\n## Example\n\nText.\n\n{FOOTER}"
    )


def test_a_generator_model_page_marked_optional_where_the_component_requires_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    page = model_page(
        "**name** | **str** | The name. | \n"
        "**age** | **int** | The age. | [optional] \n"
        "**tags** | **List[str]** | Tags. | [optional] \n"
    )
    root = make_corpus({"api/openapi.json": json.dumps(PETSTORE, indent=1), "docs/Pet.md": page})
    found = reported(root)
    assert [(path, line) for path, line, _ in found] == [("docs/Pet.md", 10)]
    message = found[0][2]
    assert "`tags` is documented as OPTIONAL (its Notes cell says `[optional]`)" in message
    assert "#/components/schemas/Pet/required" in message
    assert "regenerate it" in message


def test_a_generator_model_page_without_the_optional_mark_claims_required(
    make_corpus: MakeCorpus,
) -> None:
    page = model_page(
        "**name** | **str** | The name. | \n"
        "**age** | **int** | The age. | \n"
        "**tags** | **List[str]** | Tags. | \n"
    )
    root = make_corpus({"api/openapi.json": json.dumps(PETSTORE, indent=1), "docs/Pet.md": page})
    found = reported(root)
    assert [(path, line) for path, line, _ in found] == [("docs/Pet.md", 9)]
    assert "`age` is documented as REQUIRED (its Notes cell has no `[optional]`" in found[0][2]


def test_a_generator_model_page_type_is_held_to_the_component_its_title_names(
    make_corpus: MakeCorpus,
) -> None:
    page = model_page(
        "**name** | **str** | The name. | \n"
        "**age** | **str** | The age. | [optional] \n"
        "**tags** | **List[str]** | Tags. | \n"
    )
    root = make_corpus({"api/openapi.json": json.dumps(PETSTORE, indent=1), "docs/Pet.md": page})
    found = reported(root)
    assert [(path, line) for path, line, _ in found] == [("docs/Pet.md", 9)]
    assert "`age` is documented as `**str**`" in found[0][2]
    assert "Pet/properties/age` says `type: integer`" in found[0][2]


def test_a_generator_operation_page_parameters_table_claims_nothing(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# PetsApi\n\n## Parameters\n\nName | Type | Description | Notes\n"
        "------------- | ------------- | ------------- | -------------\n"
        "**age** | **int** | The age. | \n**name** | **str** | The name. | [optional] \n\n" + FOOTER
    )
    root = make_corpus(
        {"api/openapi.json": json.dumps(PETSTORE, indent=1), "docs/PetsApi.md": page}
    )
    assert reported(root) == []
    assert run_rule(root, "type-claim-drift") == []


ARCHIVE_API = """\
openapi: 3.1.0
info: {title: Archive, version: "1"}
paths:
  /bundles/{bundle}/files/{kind}:
    get:
      parameters:
        - name: bundle
          in: path
          required: true
          description: The bundle's id.
          schema: {type: string}
        - name: kind
          in: path
          required: true
          description: >-
            The kind of file to return. If omitted, the server
            picks the kind it stores first.
          schema: {type: string}
        - name: limit
          in: query
          description: How many to return. If not given, all are.
        - name: trace
          in: header
          required: true
          description: If not supplied by the caller, the gateway adds one.
          schema: {type: string}
          schema: {type: integer}
      responses:
        "200":
          description: The file.
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Blob"}
components:
  schemas:
    Blob:
      type: object
      properties:
        inline:
          type: string
          description: The bytes as text. Either inline or link must be given.
        link:
          type: string
          description: Where the bytes are.
        size:
          type: integer
          description: Either inline or link is counted when present.
"""


def test_one_of_two_members_required_in_a_property_description_is_held_to_its_object(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": ARCHIVE_API})
    found = [f for f in run_rule(root, "type-claim-drift") if "one of" in f.message]
    assert [(f.location.path, f.location.line) for f in found] == [("api/openapi.yaml", 41)]
    assert "one of `inline` or `link` must be given" in found[0].message
    assert [(r.path, r.pointer) for r in found[0].related] == [
        ("api/openapi.yaml", "/components/schemas/Blob")
    ]


def test_one_of_two_members_is_not_reported_where_the_object_asks_for_one(
    make_corpus: MakeCorpus,
) -> None:
    api = ARCHIVE_API.replace(
        "      type: object\n      properties:\n        inline:",
        "      type: object\n      anyOf: [{required: [inline]}, {required: [link]}]\n"
        "      properties:\n        inline:",
    )
    root = make_corpus({"api/openapi.yaml": api})
    assert [f for f in run_rule(root, "type-claim-drift") if "one of" in f.message] == []


def test_a_required_parameter_whose_description_lets_it_be_left_out_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": ARCHIVE_API})
    found = [f for f in run_rule(root, "type-claim-drift") if "left out" in f.message]
    assert [(f.location.line, f.location.pointer) for f in found] == [
        (16, "/paths/~1bundles~1{bundle}~1files~1{kind}/get/parameters/1")
    ]
    assert "parameter `kind` says it may be left out" in found[0].message
    assert "`in: path` parameter, always required" in found[0].message


PLAYBOOK = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Playbook",
    "type": "object",
    "properties": {
        "steps": {"type": "object", "additionalProperties": {"$ref": "#/$defs/step"}},
        "revision": {"type": "string"},
        "mounts": {"type": "array", "items": {"$ref": "#/$defs/mount"}},
        "imports": {"type": "array", "items": {"$ref": "#/$defs/import"}},
    },
    "$defs": {
        "step": {"type": "object", "properties": {"run": {"type": "string"}}},
        "mount": {
            "type": "object",
            "properties": {"source": {"type": "string"}, "target": {"type": "string"}},
        },
        "import": {
            "oneOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "properties": {"file": {"type": "string"}, "tag": {"type": "string"}},
                },
            ]
        },
    },
}


def playbook(pages: dict[str, str], schema: dict[str, object] = PLAYBOOK) -> dict[str, str]:
    return {"schema/playbook.json": json.dumps(schema, indent=2), **pages}


def test_a_required_mark_after_a_link_item_is_held_to_the_object_it_lists(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Playbook file\n\nA playbook is a file defining:\n"
        "- [Revision](revision.md) (Optional)\n- [Steps](steps.md) (Required)\n"
        "- [Mounts](mounts.md)\n"
    )
    root = make_corpus(playbook({"docs/file.md": page}))
    found = run_rule(root, "type-claim-drift")
    assert [(f.location.path, f.location.line) for f in found] == [("docs/file.md", 5)]
    assert "`steps` is documented as REQUIRED (its item says `(Required)`)" in found[0].message
    required = {**PLAYBOOK, "required": ["steps"]}
    assert (
        run_rule(make_corpus(playbook({"docs/file.md": page}, required)), "type-claim-drift") == []
    )


def test_a_sentence_that_a_document_must_declare_a_member_is_held_to_the_object_having_it(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Steps\n\nA playbook file must declare a `steps` top-level element as a map of "
        "step names to steps.\n\nA step may name a `run` command; when it does, `run` is "
        "required to be a string.\n"
    )
    root = make_corpus(playbook({"docs/steps.md": page}))
    found = run_rule(root, "type-claim-drift")
    assert [(f.location.line, f.location.column) for f in found] == [(3, 1)]
    assert "the text says `steps` is required" in found[0].message
    assert [(r.path, r.pointer) for r in found[0].related] == [("schema/playbook.json", "")]


def test_a_member_said_required_under_a_section_binds_to_the_object_the_headings_name(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Imports\n\n## Long form\n\n### file\n\n`file` is required and names the playbook "
        "to import.\n\n### tag\n\n`tag` is optional.\n"
    )
    root = make_corpus(playbook({"docs/imports.md": page}))
    found = run_rule(root, "type-claim-drift")
    assert [(f.location.line, f.related[0].pointer) for f in found] == [(7, "/$defs/import")]
    with_required = json.loads(json.dumps(PLAYBOOK))
    with_required["$defs"]["import"]["oneOf"][1]["required"] = ["file"]
    assert run_rule(make_corpus(playbook({"docs/imports.md": page}, with_required)),
                    "type-claim-drift") == []  # fmt: skip


def test_a_list_whose_lead_says_each_item_must_have_its_keys_is_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Mounts\n\n## mounts\n\nBind a folder into each step. Each item in the list must "
        "have two keys:\n\n- `source`: the folder on the host.\n- `target`: where it appears.\n"
    )
    root = make_corpus(playbook({"docs/mounts.md": page}))
    found = run_rule(root, "type-claim-drift")
    assert [(f.location.line, f.related[0].pointer) for f in found] == [(7, "/$defs/mount")]
    assert "`source` and `target` are documented as REQUIRED" in found[0].message
    optional_lead = page.replace("must have two keys", "may have two keys")
    assert run_rule(make_corpus(playbook({"docs/mounts.md": optional_lead})),
                    "type-claim-drift") == []  # fmt: skip


TASK = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
        "task": {
            "type": "object",
            "properties": {n: {"type": "string"} for n in ("image", "command", "user", "labels",
                                                           "timeout", "retries")},
            "patternProperties": {"^x-": {}},
            "additionalProperties": False,
        }
    },
    "type": "object",
    "properties": {"tasks": {"type": "object", "additionalProperties": {"$ref": "#/$defs/task"}}},
}  # fmt: skip


def task_page(extra: str) -> str:
    sections = ["image", "command", "user", "labels", "timeout", extra, "x-team"]
    return (
        "# Tasks\n\nA task is a unit of work.\n\n"
        + "".join(f"## {name}\n\nWhat `{name}` does.\n\n" for name in sections)
        + "## Examples\n\nSee below.\n"
    )


def test_a_section_naming_a_member_the_closed_object_lacks_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {"schema/tasks.json": json.dumps(TASK), "docs/tasks.md": task_page("warmup")}
    )
    found = run_rule(root, "type-claim-drift")
    assert [(f.location.line, f.location.column) for f in found] == [(25, 4)]
    assert "the section `warmup` documents a member of `schema/tasks.json#/$defs/task`" in (
        found[0].message
    )


def test_sections_of_declared_members_or_of_an_open_object_are_not_reported(
    make_corpus: MakeCorpus,
) -> None:
    declared = make_corpus(
        {"schema/tasks.json": json.dumps(TASK), "docs/tasks.md": task_page("retries")}
    )
    assert run_rule(declared, "type-claim-drift") == []
    task = json.loads(json.dumps(TASK))
    del task["$defs"]["task"]["additionalProperties"]
    open_object = make_corpus(
        {"schema/tasks.json": json.dumps(task), "docs/tasks.md": task_page("warmup")}
    )
    assert run_rule(open_object, "type-claim-drift") == []


def test_other_generators_language_types_are_read_on_a_model_page(
    make_corpus: MakeCorpus,
) -> None:
    api = json.loads(json.dumps(PETSTORE))
    api["components"]["schemas"]["Pet"]["properties"]["born"] = {"type": "integer"}
    page = model_page(
        "**name** | Pointer to **string** | The name. | \n"
        "**age** | **Integer** | The age. | [optional] \n"
        "**tags** | [**List&lt;String&gt;**](String.md) | Tags. | \n"
        "**born** | **OffsetDateTime** | When. | [optional] \n"
    )
    root = make_corpus({"api/openapi.json": json.dumps(api, indent=1), "docs/Pet.md": page})
    found = reported(root)
    assert [(path, line) for path, line, _ in found] == [("docs/Pet.md", 11)]
    assert "`born` is documented as `**OffsetDateTime**`" in found[0][2]


def test_a_sentence_saying_a_member_is_of_a_type_is_held_to_its_declaration(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Playbook\n\n`revision` is a string naming the playbook's version.\n\n"
        "`mounts` is a list of folders.\n\nThe `steps` value must be a mapping of names to "
        "steps.\n\n`imports` is an object, or a string or a list.\n"
    )
    root = make_corpus(playbook({"docs/playbook.md": page}))
    assert run_rule(root, "type-claim-drift") == []
    wrong = page.replace("`revision` is a string", "`revision` is an integer")
    found = run_rule(make_corpus(playbook({"docs/playbook.md": wrong})), "type-claim-drift")
    assert [(f.location.line, f.related[0].pointer) for f in found] == [(3, "/properties/revision")]
    assert "the text says `revision` is an integer" in found[0].message


def test_a_generator_model_of_an_inner_schema_binds_by_its_generated_name(
    make_corpus: MakeCorpus,
) -> None:
    api = json.loads(json.dumps(PETSTORE))
    api["components"]["schemas"]["Pet"]["properties"]["toys"] = {
        "title": "Toys",
        "oneOf": [
            {"type": "string"},
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"label": {"type": "string"}, "weight": {"type": "number"}},
                    "required": ["label"],
                },
            },
        ],
    }
    page = model_page(
        "**label** | **str** | | [optional] \n**weight** | **float** | | [optional] \n"
    )
    page = page.replace("# Pet\n", "# ToysOneOfInner\n", 1)
    root = make_corpus({"api/openapi.json": json.dumps(api, indent=1), "docs/Toys.md": page})
    found = reported(root)
    assert [(path, line) for path, line, _ in found] == [("docs/Toys.md", 8)]
    assert "`label` is documented as OPTIONAL" in found[0][2]
    assert "Pet/properties/toys/oneOf/1/items/required" in found[0][2]


def test_a_path_parameter_left_out_by_a_route_without_it_is_not_reported(
    make_corpus: MakeCorpus,
) -> None:
    api = ARCHIVE_API.replace(
        "paths:\n", "paths:\n  /bundles/{bundle}/files:\n    get:\n      responses: {}\n", 1
    )
    root = make_corpus({"api/openapi.yaml": api})
    assert [f for f in run_rule(root, "type-claim-drift") if "left out" in f.message] == []


# type-claim-drift, the classes a first read of three more repositories missed (issue 46, item
# 8): requiredness said with emphasised keywords, null said of a field a heading names or of a
# dotted path led by an object's name, and null said where OpenAPI 3.1 no longer reads
# ``nullable``. Fixtures are our own, in styles other specs write.


LOAN = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Loan",
    "type": "object",
    "properties": {
        "borrower": {"type": "string"},
        "amount": {"type": "number"},
        "due": {"type": "string"},
    },
    "required": ["amount"],
}


def lines(root: Path, word: str) -> list[tuple[str, int]]:
    return sorted(
        (f.location.path, f.location.line)
        for f in run_rule(root, "type-claim-drift")
        if word in f.message
    )


PARCEL_API = {
    "openapi": "3.1.0",
    "info": {"title": "Parcels", "version": "2"},
    "paths": {},
    "components": {
        "schemas": {
            "Parcel": {
                "type": "object",
                "properties": {
                    "weight": {"type": "number"},
                    "labels": {"type": "array", "items": {"type": "string"}},
                    "note": {"type": ["string", "null"]},
                },
            },
            "Depot": {
                "type": "object",
                "properties": {
                    "labels": {"type": "array", "items": {"type": "string"}},
                    "hours": {"type": "string", "nullable": True},
                },
            },
        }
    },
}


CRATE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Crate",
    "type": "object",
    "properties": {
        "tags": {"type": "array", "items": {"type": "string"}},
        "owner_urls": {"type": "array", "items": {"type": "string"}},
        "label": {"type": "string"},
    },
}


TRIP = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Trip",
    "type": "object",
    "properties": {
        "stops": {"type": "object", "additionalProperties": {"type": "string"}},
        "driver": {"type": "string"},
        "seats": {"type": "integer"},
    },
}


def test_required_said_with_bold_or_starred_keyword(make_corpus: MakeCorpus) -> None:
    page = (
        "# Loans\n\n"
        "A Loan ***MUST*** contain a `borrower` property.\n\n"  # line 3: not required
        "* The object **MUST** contain an `amount` property.\n"  # line 5: required, fine
    )
    root = make_corpus({"loan.schema.json": json.dumps(LOAN), "docs/loans.md": page})
    assert lines(root, "is required") == [("docs/loans.md", 3)]


def test_required_said_with_emphasis_in_a_list_of_rules(make_corpus: MakeCorpus) -> None:
    page = (
        "# Loan rules\n\n"
        "- The object __MUST__ include the `due` property; its value is a date.\n"  # line 3
        "- The object __MAY__ include the `borrower` property.\n\n"
        "When a loan is refinanced, the following rules apply:\n\n"
        "- The request **MUST** include a `borrower` property.\n"  # a condition's rule
    )
    root = make_corpus({"loan.schema.json": json.dumps(LOAN), "docs/rules.md": page})
    assert lines(root, "is required") == [("docs/rules.md", 3)]


def test_null_said_under_a_heading_naming_the_field(make_corpus: MakeCorpus) -> None:
    page = (
        "# Parcel rules\n\n"
        "## Parcel.labels\n\n"
        "- May be null, or left out.\n"  # line 5: arrays only
        "- Must not be empty.\n\n"
        "### `weight`\n\n"
        "Can be `null` while the parcel is unweighed.\n\n"  # line 10: number only
        "## Parcel.note\n\n"
        "- MAY be null.\n"  # line 14: null allowed, fine
    )
    root = make_corpus({"openapi.json": json.dumps(PARCEL_API), "docs/rules.md": page})
    assert lines(root, "may be null") == [("docs/rules.md", 5), ("docs/rules.md", 10)]


def test_null_said_of_a_dotted_path_led_by_the_object_name(make_corpus: MakeCorpus) -> None:
    page = (
        "# Depots\n\n"
        "A depot is closed when Depot.labels is null or missing.\n\n"  # line 3
        "Parcel.note is null until a clerk writes one.\n"  # line 5: allowed
    )
    root = make_corpus({"openapi.json": json.dumps(PARCEL_API), "docs/depots.md": page})
    assert lines(root, "may be null") == [("docs/depots.md", 3)]


def test_nullable_is_no_keyword_in_openapi_31(make_corpus: MakeCorpus) -> None:
    page = "# Depots\n\nThe `hours` field may be null on holidays.\n"
    root = make_corpus({"openapi.json": json.dumps(PARCEL_API), "docs/depots.md": page})
    assert lines(root, "may be null") == [("docs/depots.md", 3)]
    older = json.loads(json.dumps(PARCEL_API))
    older["openapi"] = "3.0.3"
    older["components"]["schemas"]["Parcel"]["properties"]["note"] = {"type": "string"}
    root = make_corpus({"openapi.json": json.dumps(older), "docs/depots.md": page})
    assert lines(root, "may be null") == []


def test_member_named_in_a_near_miss_spelling(make_corpus: MakeCorpus) -> None:
    page = (
        "# Crates\n\n"
        "Sort the crate by the `tag` field before shipping.\n\n"  # line 3
        "The *owner_url* attribute says who owns it.\n\n"  # line 5
        "**Attribute**: labels\n\n"  # line 7
        "The `label` field is free text, and the `weight` property is not ours.\n"  # fine
    )
    root = make_corpus({"crate.schema.json": json.dumps(CRATE), "docs/crates.md": page})
    assert lines(root, "no schema declares") == [
        ("docs/crates.md", 3),
        ("docs/crates.md", 5),
        ("docs/crates.md", 7),
    ]


def test_member_word_in_a_compound_names_no_member(make_corpus: MakeCorpus) -> None:
    page = (
        "# Crates\n\nThe tag field names are free; the `tag` key values are sorted.\n\n"
        "The tag key orders the crates.\n\n"  # English: a key that tags
        "Make the tag field optional where no tags are known.\n"  # English: a field of tags
    )
    root = make_corpus({"crate.schema.json": json.dumps(CRATE), "docs/crates.md": page})
    assert lines(root, "no schema declares") == []


def test_type_between_dashes_after_the_field(make_corpus: MakeCorpus) -> None:
    page = (
        "# Trips\n\n"
        "## Trip\n\n"
        "- **stops** - array - the stops, in order\n"  # line 5: an object (a map)
        "- **driver** - string - who drives\n"
        "* `seats` \u2013 boolean \u2013 whether seats are booked\n"  # line 7
        "- **driver** - the person - not a type\n"
    )
    root = make_corpus({"trip.schema.json": json.dumps(TRIP), "docs/trips.md": page})
    assert lines(root, "is documented as") == [("docs/trips.md", 5), ("docs/trips.md", 7)]


def test_union_said_of_a_member(make_corpus: MakeCorpus) -> None:
    page = (
        "# Trips\n\n"
        "A trip MAY contain a `stops` property, and its value **MUST** be an object or a URI string.\n\n"
        "The `seats` value is an integer or a float.\n\n"  # line 5: integer only
        "The `driver` field may be a string or null.\n\n"  # not a type union we judge
        "The `stops` member is a map or an object.\n"  # both objects: fine
    )
    root = make_corpus({"trip.schema.json": json.dumps(TRIP), "docs/trips.md": page})
    assert lines(root, "is either") == [("docs/trips.md", 3), ("docs/trips.md", 5)]


def test_heading_naming_a_class_binds_its_list(make_corpus: MakeCorpus) -> None:
    page = (
        "# Reference\n\n"
        "## Top level (Trip class)\n\n"
        "- **seats** - string - how many seats\n"  # line 5
        "- **driver** - string - who drives\n"
        "- **legs** - integer - not declared, not judged\n"
        "- **cargo** - boolean - not declared either\n"
    )
    root = make_corpus({"trip.schema.json": json.dumps(TRIP), "docs/ref.md": page})
    assert lines(root, "is documented as") == [("docs/ref.md", 5)]


def test_copies_of_one_definition_are_one_object(make_corpus: MakeCorpus) -> None:
    """The same object written out in two schemas, and a published copy of an API document
    under docs/: one candidate, not two that the sentence cannot choose between."""
    page = "# Seating\n\nThe `seats` value is an integer or a float.\n"
    api = json.loads(json.dumps(PARCEL_API))
    root = make_corpus(
        {
            "trip.schema.json": json.dumps(TRIP),
            "schemas/journey.json": json.dumps(TRIP),
            "docs/trips.md": page,
        }
    )
    assert lines(root, "is either") == [("docs/trips.md", 3)]
    rules = "# Rules\n\n## Parcel.weight\n\n- May be null.\n"
    root = make_corpus(
        {"openapi.json": json.dumps(api), "docs/openapi.json": json.dumps(api), "docs/r.md": rules}
    )
    assert lines(root, "may be null") == [("docs/r.md", 5)]


def test_dotted_member_the_named_object_lacks(make_corpus: MakeCorpus) -> None:
    page = (
        "# Depot rules\n\n"
        "1. A depot with an empty Depot.opening_hours MUST be skipped.\n"  # line 3: `hours`
        "2. Sort by `Parcel.weight`, then by Parcel.label.\n"  # line 4: `labels` (one line)
        "3. Depot.hours and Parcel.note are fine; see openapi.json and Parcel.Weight.\n"
    )
    root = make_corpus({"openapi.json": json.dumps(PARCEL_API), "docs/rules.md": page})
    assert lines(root, "declares no") == [("docs/rules.md", 3), ("docs/rules.md", 4)]


def test_dotted_member_in_a_migration_guide_or_an_older_copy(make_corpus: MakeCorpus) -> None:
    older = json.loads(json.dumps(PARCEL_API))
    older["components"]["schemas"]["Depot"]["properties"]["opening_hours"] = {"type": "string"}
    page = (
        "# Depot rules\n\nA depot with an empty Depot.opening_hours MUST be skipped.\n\n"
        "- `Depot.closing_hours` of older versions is obsolete.\n"
    )
    guide = "# Moving to v2\n\nDepot.opening_hours is now `hours`.\n"
    root = make_corpus(
        {
            "openapi.json": json.dumps(PARCEL_API),
            "docs/openapi.json": json.dumps(older),  # a stale published copy
            "docs/rules.md": page,
            "docs/migration-guide.md": guide,
        }
    )
    assert lines(root, "declares no") == [("docs/rules.md", 3)]


def test_near_miss_of_a_member_many_objects_have(make_corpus: MakeCorpus) -> None:
    """`messages` where four objects declare `message`: the text may mean a request's field of
    another API, not a misspelling of theirs."""
    page = "# Errors\n\nA missing `messages` field is rejected.\n"
    files: dict[str, str | bytes] = {"docs/errors.md": page}
    for i in range(4):
        schema = {"title": f"S{i}", "type": "object", "properties": {"message": {"type": "string"}}}
        files[f"s{i}.schema.json"] = json.dumps(schema)
        root = make_corpus(files)
        found = lines(root, "no schema declares")
        assert found == ([("docs/errors.md", 3)] if i < 3 else []), i


def test_near_miss_that_is_a_key_of_the_repositorys_data_files(make_corpus: MakeCorpus) -> None:
    """A rule file's `value` key: the text speaks of that file's format (no schema here
    describes it), not of the schema's `values`."""
    schema = {"title": "Range", "type": "object", "properties": {"values": {"type": "array"}}}
    page = "# Writing rules\n\nSet the `value` field of each rule to the expected level.\n"
    files: dict[str, str | bytes] = {"range.schema.json": json.dumps(schema), "docs/rules.md": page}
    assert lines(make_corpus(files), "no schema declares") == [("docs/rules.md", 3)]
    files["rules/levels.yaml"] = "checks:\n  - name: level\n    value: 3\n"
    assert lines(make_corpus(files), "no schema declares") == []


@pytest.mark.xfail(
    strict=True,
    reason="ecosystem false positive (ChainAgnostic/CAIPs caip-222.md:96, labelled false): a "
    "parameter the page defines itself is read as a near miss of another schema's member",
)
def test_a_near_miss_the_page_defines_as_its_own_parameter_is_no_drift(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Ship call\n\n"
        "## Parameters\n\n"
        "- `tag`: the one tag this call ships under.\n\n"
        "Give the `tag` field on every call.\n"  # the page's own parameter, not Crate's `tags`
    )
    root = make_corpus({"crate.schema.json": json.dumps(CRATE), "docs/ship.md": page})
    assert lines(root, "no schema declares") == []
