"""Examples a first read of new repositories (issue 46, round 5) showed parsed but never bound,
by class (fixtures of our own, in styles other than the repository's):

- a section whose heading is a definition's name in words and nothing else ("### Purchase
  order", "## Parcels"), over an example every member of which that definition declares
  (``section-title``), or one entry of a map that definition holds, shown alone by its key;
- one component name in two releases of an API document kept side by side: the newest binds;
- a wrapper of one object member (``{"message": {...}}``) that several definitions declare, each
  as a reference to one definition: the value is bound to it (``shared-member``);
- a wrapper of one member holding objects, in a list or a map by id (``{"edges": [...]}``),
  bound to the definition whose elements' definition those objects fit (``member-elements``).
"""

from __future__ import annotations

import json
from typing import Any

import yaml

from speclint.analyses.context import Context
from speclint.analyses.prose.fences import BY_SHARED, BY_TITLE, Binding, fence_ties
from speclint.common.findings import Finding
from speclint.run.catalog import all_rules
from speclint.run.preview import why_heuristic_preview

SECTION_TITLE = "example-invalid/section-title"


def api(version: str = "3.1.0", release: str = "2.0.0", line_required: bool = True) -> str:
    """An OpenAPI document of a shop: a purchase order of lines, each line a sku and a count."""
    line: dict[str, Any] = {
        "type": "object",
        "properties": {"sku": {"type": "string"}, "count": {"type": "integer"}},
        "additionalProperties": False,
    }
    if line_required:
        line["required"] = ["sku", "count"]
    document = {
        "openapi": version,
        "info": {"title": "Shop", "version": release},
        "paths": {},
        "components": {
            "schemas": {
                "PurchaseOrder": {
                    "type": "object",
                    "required": ["buyer", "lines"],
                    "properties": {
                        "buyer": {"type": "string"},
                        "lines": {"type": "object", "additionalProperties": line},
                    },
                },
                "OrderLine": line,
            }
        },
    }
    return yaml.safe_dump(document, sort_keys=False)


# Lines keyed by their ids, the second one without its count.
ORDER = """\
{
  "buyer": "ada",
  "lines": {
    "l1": {"sku": "A-1", "count": 2},
    "l2": {"sku": "B-7"}
  }
}
"""

# A shipment schema file: parcels under `$defs`, each a weight in grams and a label.
SHIPMENT = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "shipment",
    "type": "object",
    "properties": {"parcels": {"type": "array", "items": {"$ref": "#/$defs/Parcel"}}},
    "$defs": {
        "Parcel": {
            "type": "object",
            "required": ["grams"],
            "properties": {"grams": {"type": "integer"}, "label": {"type": "string"}},
        }
    },
}


def findings(texts: dict[str, str]) -> list[Finding]:
    corpus = Context.from_texts(texts)
    return list(all_rules()["example-invalid"].check(corpus, {}))


def title_ties(texts: dict[str, str], page: str) -> list[str]:
    corpus = Context.from_texts(texts)
    return [
        f"{tie.target.label if tie.target else ''}: {tie.evidence}"
        for tie in fence_ties(corpus, corpus.documents[page], Binding())
        if tie.how == BY_TITLE
    ]


def fence(body: str, language: str = "json") -> str:
    return f"```{language}\n{body}```\n"


def test_a_heading_that_is_a_component_name_in_words_binds_an_example_of_its_members() -> None:
    page = "# Ordering\n\n### Purchase order\n\nThe buyer and the lines bought.\n\n" + fence(ORDER)
    texts = {"api/shop.yaml": api(), "guide/ordering.md": page}
    found = findings(texts)
    assert [f.heuristic for f in found] == [SECTION_TITLE]
    # The line without its count, where it is written: nested objects are shown whole.
    assert found[0].message.startswith('example at /lines/l2: "count" is a required property')
    assert found[0].location.line == 12
    assert title_ties(texts, "guide/ordering.md") == [
        'api/shop.yaml#/components/schemas/PurchaseOrder: the heading "Purchase order" '
        "names `PurchaseOrder`, which declares every one of its 2 members"
    ]


def test_a_plural_heading_binds_to_a_schema_files_definition_in_yaml() -> None:
    # Another style: a `$defs` entry of a JSON Schema file, a YAML example, a plural heading.
    page = "## Parcels\n\n" + fence("grams: heavy\nlabel: fragile\n", "yaml")
    texts = {"schemas/shipment.schema.json": json.dumps(SHIPMENT), "docs/parcels.md": page}
    found = findings(texts)
    assert [f.heuristic for f in found] == [SECTION_TITLE]
    assert "/grams" in found[0].message and "integer" in found[0].message


def test_the_section_title_binding_is_a_preview_heuristic() -> None:
    assert SECTION_TITLE in all_rules()["example-invalid"].heuristics
    assert why_heuristic_preview(SECTION_TITLE) is not None


def test_a_section_title_binds_nothing_but_an_example_made_of_the_definitions_members() -> None:
    texts = {"schemas/shipment.schema.json": json.dumps(SHIPMENT)}
    # A member the definition does not declare: the section shows something else.
    other = fence('{"grams": "heavy", "carrier": "post"}\n')
    assert title_ties({**texts, "docs/p.md": "## Parcel\n\n" + other}, "docs/p.md") == []
    # A heading that is a sentence, or names more than the definition.
    mine = fence('{"grams": "heavy", "label": "x"}\n')
    for heading in ("## How a parcel is weighed", "## Parcel and label rules"):
        assert title_ties({**texts, "docs/p.md": f"{heading}\n\n{mine}"}, "docs/p.md") == []
    assert title_ties({**texts, "docs/p.md": "## Parcel\n\n" + mine}, "docs/p.md") != []
    # One member under a one-word heading ("## Response" over `{"error": ...}`) says too little.
    one = fence('{"grams": "heavy"}\n')
    assert title_ties({**texts, "docs/p.md": "## Parcel\n\n" + one}, "docs/p.md") == []


def test_what_the_example_leaves_out_at_its_top_is_not_judged() -> None:
    # A parcel shown by its label only, of the three members a parcel requires: the others are
    # said elsewhere. Inside it, what is shown is judged.
    schema = json.loads(json.dumps(SHIPMENT))
    parcel = schema["$defs"]["Parcel"]
    parcel["required"] = ["grams", "label", "carrier", "insured", "sender"]
    for name in ("carrier", "insured", "sender"):
        parcel["properties"][name] = {"type": "string"}
    texts = {"schemas/shipment.schema.json": json.dumps(schema)}
    texts["docs/p.md"] = "## Parcel\n\n" + fence('{"label": "fragile", "carrier": "post"}\n')
    assert title_ties(texts, "docs/p.md") != []
    assert findings(texts) == []
    texts["docs/p.md"] = "## Parcel\n\n" + fence('{"label": 7, "carrier": "post"}\n')
    assert len(findings(texts)) == 1


def test_of_two_releases_of_one_api_the_newest_binds() -> None:
    page = "## Purchase order\n\n" + fence(ORDER)
    texts = {
        "api/shop.yaml": api(release="2.0.0"),
        # The older release, kept for reference: its lines need no count.
        "api/old/shop-1.yaml": api(release="1.4.0", line_required=False),
        "guide/ordering.md": page,
    }
    assert [t.split(":")[0] for t in title_ties(texts, "guide/ordering.md")] == [
        "api/shop.yaml#/components/schemas/PurchaseOrder"
    ]
    # Without a usable release number, the document written in the later OpenAPI version.
    texts["api/shop.yaml"] = api(release="SET-ME")
    texts["api/old/shop-1.yaml"] = api("3.0.3", release="SET-ME", line_required=False)
    assert [t.split(":")[0] for t in title_ties(texts, "guide/ordering.md")] == [
        "api/shop.yaml#/components/schemas/PurchaseOrder"
    ]
    # Two documents at one release: no telling which the page means.
    texts["api/old/shop-1.yaml"] = api(release="SET-ME", line_required=False)
    assert title_ties(texts, "guide/ordering.md") == []


# --- a wrapper of one member several definitions declare as one definition ------------------

SHARED_MEMBER = "example-invalid/shared-member"


def jobs_api(event_job: dict[str, Any] | None = None) -> str:
    """A jobs API: a request and a response each hold a `job` that is a `Job`; an event names
    its job by a string."""
    job_ref = {"$ref": "#/components/schemas/Job"}
    document = {
        "openapi": "3.0.3",
        "info": {"title": "Jobs", "version": "1.0.0"},
        "paths": {},
        "components": {
            "schemas": {
                "CreateJob": {
                    "type": "object",
                    "properties": {"job": job_ref, "dryRun": {"type": "boolean"}},
                },
                "JobCreated": {
                    "type": "object",
                    "properties": {"job": job_ref, "status": {"type": "string"}},
                },
                "JobEvent": {
                    "type": "object",
                    "properties": {"job": event_job or {"type": "string"}},
                },
                "Job": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string"},
                        "steps": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["run"],
                                "properties": {"run": {"type": "string"}},
                            },
                        },
                    },
                },
            }
        },
    }
    return yaml.safe_dump(document, sort_keys=False)


JOB = '{\n  "job": {\n    "name": "nightly",\n    "steps": [{"run": 5}]\n  }\n}\n'


def shared_ties(texts: dict[str, str], page: str) -> list[str]:
    corpus = Context.from_texts(texts)
    return [
        f"{tie.part} {tie.target.label if tie.target else ''}"
        for tie in fence_ties(corpus, corpus.documents[page], Binding())
        if tie.how == BY_SHARED
    ]


def test_a_wrapper_of_a_member_every_declaring_definition_refers_alike_binds_its_value() -> None:
    texts = {"openapi/jobs.yaml": jobs_api(), "docs/jobs.md": "Submit:\n\n" + fence(JOB)}
    found = findings(texts)
    assert [f.heuristic for f in found] == [SHARED_MEMBER]
    assert found[0].message.startswith("example at /job/steps/0/run: 5 is not of type")
    assert found[0].location.line == 7
    assert shared_ties(texts, "docs/jobs.md") == ["/job openapi/jobs.yaml#/components/schemas/Job"]


def test_a_shared_member_binds_in_a_schema_files_definitions_and_yaml() -> None:
    # Another style: `definitions` of a JSON Schema file, a YAML example.
    payload = {"$ref": "#/definitions/Payload"}
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "Envelope": {"type": "object", "properties": {"payload": payload, "id": {}}},
            "Batch": {"type": "object", "properties": {"payload": payload, "count": {}}},
            "Payload": {
                "type": "object",
                "properties": {"size": {"type": "integer"}, "unit": {"enum": ["kb", "mb"]}},
            },
        },
    }
    texts = {
        "schema/transfer.json": json.dumps(schema),
        "docs/transfer.md": "A transfer:\n\n" + fence("payload:\n  size: 3\n  unit: gb\n", "yaml"),
    }
    found = findings(texts)
    assert [f.heuristic for f in found] == [SHARED_MEMBER]
    assert "/payload/unit" in found[0].message


def test_a_shared_member_binds_nothing_where_the_declaring_definitions_differ() -> None:
    page = {"docs/jobs.md": "Submit:\n\n" + fence(JOB)}
    # The event declares its `job` inline: not one definition's instance.
    inline = {"type": "object", "properties": {"name": {}}}
    assert shared_ties({"openapi/jobs.yaml": jobs_api(inline), **page}, "docs/jobs.md") == []
    # The event's `job` is another definition.
    other = {"$ref": "#/components/schemas/CreateJob"}
    assert shared_ties({"openapi/jobs.yaml": jobs_api(other), **page}, "docs/jobs.md") == []
    # A member of the value the definition does not declare: something else.
    odd = '{"job": {"name": "nightly", "owner": "ops"}}\n'
    texts = {"openapi/jobs.yaml": jobs_api(), "docs/jobs.md": "Submit:\n\n" + fence(odd)}
    assert shared_ties(texts, "docs/jobs.md") == []


def test_the_shared_member_binding_is_a_preview_heuristic() -> None:
    assert SHARED_MEMBER in all_rules()["example-invalid"].heuristics
    assert why_heuristic_preview(SHARED_MEMBER) is not None


# --- a wrapper of one member holding a collection of some definition's elements ---------------

MEMBER_ELEMENTS = "example-invalid/member-elements"


def fleet_api() -> str:
    """A fleet API: a depot holds its vehicles in a map by id, a route plan its stops in a list;
    a vehicle and a stop share no members but `id`."""
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Fleet", "version": "3.0.0"},
        "paths": {},
        "components": {
            "schemas": {
                "Depot": {
                    "type": "object",
                    "properties": {
                        "vehicles": {
                            "type": "object",
                            "additionalProperties": {"$ref": "#/components/schemas/Vehicle"},
                        }
                    },
                },
                "RoutePlan": {
                    "type": "object",
                    "properties": {
                        "vehicles": {
                            "type": "array",
                            "items": {"$ref": "#/components/schemas/Stop"},
                        }
                    },
                },
                "Vehicle": {
                    "type": "object",
                    "required": ["plate"],
                    "properties": {
                        "plate": {"type": "string"},
                        "seats": {"type": "integer"},
                        "electric": {"type": "boolean"},
                    },
                },
                "Stop": {
                    "type": "object",
                    "properties": {"place": {"type": "string"}, "minutes": {"type": "integer"}},
                },
            }
        },
    }
    return yaml.safe_dump(document, sort_keys=False)


def test_a_list_where_the_definition_its_elements_fit_holds_a_map_is_reported() -> None:
    # The vehicles in a list, though a depot keeps them in a map by id.
    body = '{\n  "vehicles": [\n    {"plate": "AB-12", "seats": 4, "electric": true}\n  ]\n}\n'
    texts = {"api/fleet.yaml": fleet_api(), "docs/depots.md": "The depot:\n\n" + fence(body)}
    found = findings(texts)
    assert [f.heuristic for f in found] == [MEMBER_ELEMENTS]
    assert found[0].message.startswith("example at /vehicles: ")
    assert 'is not of type "object"' in found[0].message


def test_a_map_by_id_of_elements_is_judged_inside_them_in_yaml() -> None:
    # Another style: a YAML map by id; one vehicle's seats are a word.
    body = "vehicles:\n  v1:\n    plate: AB-12\n    seats: four\n"
    texts = {"api/fleet.yaml": fleet_api(), "docs/depots.md": "A depot:\n\n" + fence(body, "yaml")}
    found = findings(texts)
    assert [f.heuristic for f in found] == [MEMBER_ELEMENTS]
    assert "/vehicles/v1/seats" in found[0].message


def test_elements_that_fit_two_definitions_alike_bind_by_the_name_the_words_give() -> None:
    # A vehicle kind with the same members: the elements fit both; the words above name one.
    api_text = fleet_api().replace("place:", "plate:").replace("minutes:", "seats:")
    api_text = api_text.replace("Stop", "VehicleKind")
    body = '{"vehicles": [{"plate": "AB-12", "seats": 4}]}\n'
    unnamed = {"api/fleet.yaml": api_text, "docs/d.md": "Like this:\n\n" + fence(body)}
    assert findings(unnamed) == []
    named = {**unnamed, "docs/d.md": "Each Vehicle of the depot:\n\n" + fence(body)}
    assert [f.heuristic for f in findings(named)] == [MEMBER_ELEMENTS]


def test_elements_of_another_shape_bind_nothing() -> None:
    body = '{"vehicles": [{"colour": "red", "wheels": 4}]}\n'
    texts = {"api/fleet.yaml": fleet_api(), "docs/depots.md": "The depot:\n\n" + fence(body)}
    assert findings(texts) == []


def test_the_member_elements_binding_is_a_preview_heuristic() -> None:
    assert MEMBER_ELEMENTS in all_rules()["example-invalid"].heuristics
    assert why_heuristic_preview(MEMBER_ELEMENTS) is not None


def test_elements_of_one_member_name_bind_nothing() -> None:
    # `{"vehicles": {"v1": {"plate": ...}}}` says little: one member name of the elements.
    body = '{"vehicles": {"v1": {"plate": 12}}}\n'
    texts = {"api/fleet.yaml": fleet_api(), "docs/depots.md": "The depot:\n\n" + fence(body)}
    assert findings(texts) == []


# --- one entry of a map the section's definition holds, shown alone by its key ----------------


def test_an_entry_of_the_sections_map_shown_alone_is_judged_as_its_element() -> None:
    # Under "## Depot": one vehicle of the depot's map by id, its plate a number.
    page = "## Depot\n\nOne of its vehicles:\n\n" + fence('"v7": {"plate": 5, "seats": 2}\n')
    texts = {"api/fleet.yaml": fleet_api(), "docs/depot.md": page}
    found = findings(texts)
    assert [f.heuristic for f in found] == [SECTION_TITLE]
    assert found[0].message.startswith("example at /v7/plate: 5 is not of type")
    assert title_ties(texts, "docs/depot.md") == [
        'api/fleet.yaml#/components/schemas/Vehicle: the heading "Depot" names `Depot`, whose '
        "map of `Vehicle` the entry `v7` is one of: `Vehicle` declares every one of its 2 members"
    ]


def test_a_map_entry_binds_in_a_schema_file_and_yaml_and_only_to_one_element_kind() -> None:
    product = {"type": "object", "properties": {"name": {}, "price": {"type": "number"}}}
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "Catalog": {
                "type": "object",
                "properties": {
                    "products": {"type": "object", "additionalProperties": {"$ref": "#/$defs/P"}}
                },
            },
            "P": product,
        },
    }
    page = "### Catalog\n\n" + fence("sku-1:\n  name: tea\n  price: cheap\n", "yaml")
    texts = {"schemas/shop.schema.json": json.dumps(schema), "docs/catalog.md": page}
    assert [f.heuristic for f in findings(texts)] == [SECTION_TITLE]
    # A second map whose elements declare the same members: no telling which the entry is of.
    schema["$defs"]["Catalog"]["properties"]["gifts"] = {
        "type": "object",
        "additionalProperties": {"$ref": "#/$defs/G"},
    }
    schema["$defs"]["G"] = product
    texts["schemas/shop.schema.json"] = json.dumps(schema)
    assert findings(texts) == []
