"""copy-drift and inline-copy on layouts seen in public repositories (issue 26, classes 1-6).

Each fixture is written here, in our own words, to show one class: what a maintainer of any
repository with that layout expects.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_rule as run
from conftest import schema

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _openapi(name: str, body: dict[str, Any], components: dict[str, Any] | None = None) -> str:
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": name, "version": "1.0.0"},
        "paths": {
            "/v1/Widgets": {
                "post": {
                    "operationId": f"create{name}",
                    "requestBody": {
                        "content": {"application/x-www-form-urlencoded": {"schema": body}}
                    },
                    "responses": {"201": {"description": "created"}},
                }
            }
        },
    }
    if components:
        document["components"] = {"schemas": components}
    return json.dumps(document, indent=2) + "\n"


# --- class 1: a structural key or an inline body's title is not a definition's name ------------


def test_request_bodies_of_separate_apis_with_one_title_are_not_one_definition(
    make_corpus: MakeCorpus,
) -> None:
    first = {
        "type": "object",
        "title": "CreateWidgetRequest",
        "properties": {"Name": {"type": "string"}, "Colour": {"type": "string"}},
    }
    second = {
        "type": "object",
        "title": "CreateWidgetRequest",
        "properties": {
            "Name": {"type": "string"},
            "Colour": {"type": "string"},
            "Size": {"type": "integer"},
        },
    }
    root = make_corpus(
        {"api/shop.json": _openapi("Shop", first), "api/garage.json": _openapi("Garage", second)}
    )
    assert run(root, "copy-drift") == []


def test_same_named_component_schemas_of_one_api_that_differ_are_still_drift(
    make_corpus: MakeCorpus,
) -> None:
    widget = {"type": "object", "properties": {"id": {"type": "string"}, "kind": {"enum": ["a"]}}}
    other = {"type": "object", "properties": {"id": {"type": "string"}, "kind": {"enum": ["b"]}}}
    # Two editions of one API (one title): its `Widget` twice, now different.
    root = make_corpus(
        {
            "api/shop.json": _openapi("Shop", {"type": "string"}, {"Widget": widget}),
            "api/shop.bundle.json": _openapi("Shop", {"type": "string"}, {"Widget": other}),
        }
    )
    [finding] = run(root, "copy-drift")
    assert "2 definitions of `Widget` disagree" in finding.message


# --- issue 45, item 7: a name is not evidence; a reference or a namespace is -------------------


def test_each_apis_own_entity_of_one_common_name_is_not_a_copy(make_corpus: MakeCorpus) -> None:
    widget = {"type": "object", "properties": {"id": {"type": "string"}, "kind": {"enum": ["a"]}}}
    other = {"type": "object", "properties": {"id": {"type": "string"}, "kind": {"enum": ["b"]}}}
    files: dict[str, str | bytes] = {
        "api/shop.json": _openapi("Shop", {"type": "string"}, {"Widget": widget}),
        "api/garage.json": _openapi("Garage", {"type": "string"}, {"Widget": other}),
    }
    assert run(make_corpus(files), "copy-drift") == []
    # One API referring to the other's components ties the two together: one `Widget` now.
    linked = json.loads(_openapi("Garage", {"$ref": "shop.json#/components/schemas/Widget"}))
    linked["components"] = {"schemas": {"Widget": other}}
    files["api/garage.json"] = json.dumps(linked, indent=2) + "\n"
    [finding] = run(make_corpus(files), "copy-drift")
    assert "2 definitions of `Widget` disagree" in finding.message


def _message_schema(identifier: str | None, kinds: list[str]) -> str:
    body: dict[str, Any] = {
        "$defs": {
            "Message": {
                "type": "object",
                "properties": {"kind": {"enum": kinds}, "id": {"type": "string"}},
            }
        }
    }
    if identifier:
        body["$id"] = identifier
    return schema(**body)


def test_two_protocols_messages_that_share_a_name_are_not_copies(
    make_corpus: MakeCorpus,
) -> None:
    # Folders of their own, no `$id`, no reference between them: two protocols.
    root = make_corpus(
        {
            "protocols/chat/messages.json": _message_schema(None, ["hello", "bye"]),
            "protocols/telemetry/messages.json": _message_schema(None, ["sample"]),
        }
    )
    assert run(root, "copy-drift") == []


def test_separately_published_specifications_are_not_copies_but_one_id_base_is(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        "schemas/a/message.json": _message_schema(
            "https://alpha.example.org/spec/message.json", ["hello", "bye"]
        ),
        "schemas/b/message.json": _message_schema(
            "https://beta.example.com/v2/message.json", ["hello"]
        ),
    }
    assert run(make_corpus(files), "copy-drift") == []
    # Published under one base: two schemas of one specification, in whatever folders.
    files["schemas/b/message.json"] = _message_schema(
        "https://alpha.example.org/spec/envelope.json", ["hello"]
    )
    [finding] = run(make_corpus(files), "copy-drift")
    assert "2 definitions of `Message` disagree" in finding.message


# --- class 2: references to each file's own copy of one definition --------------------------


def test_twins_that_each_point_at_their_own_copy_agree(make_corpus: MakeCorpus) -> None:
    def term(common: str) -> str:
        return schema(
            title="Term",
            type="object",
            properties={"id": {"$ref": f"{common}#/$defs/Code"}, "label": {"type": "string"}},
        )

    common = schema(**{"$defs": {"Code": {"type": "string", "pattern": "^[A-Z]+:"}}})
    root = make_corpus(
        {
            "json/common.json": common,
            "json/term.json": term("common.json"),
            "src/common.json": common,
            "src/term.json": term("common.json"),
        }
    )
    assert run(root, "copy-drift") == []


def test_a_ref_to_what_the_other_copy_inlines_is_not_drift(make_corpus: MakeCorpus) -> None:
    code = {"type": "string", "pattern": "^[A-Z]+:"}
    referring = {
        "type": "object",
        "properties": {"id": {"$ref": "#/$defs/Code"}, "label": {"type": "string"}},
    }
    inlining = {"type": "object", "properties": {"id": code, "label": {"type": "string"}}}
    root = make_corpus(
        {
            "schemas/a.schema.json": schema(**{"$defs": {"Code": code, "Term": referring}}),
            "schemas/b.schema.json": schema(**{"$defs": {"Term": inlining}}),
        }
    )
    assert run(root, "copy-drift") == []


# --- class 3: variant files of one schema (strict and lax, model and description) ------------


def _variant(strict: bool, colour: list[str]) -> str:
    def shape(*names: str, **extra: Any) -> dict[str, Any]:
        node: dict[str, Any] = {
            "type": "object",
            "properties": {name: {"type": "string"} for name in names},
            **extra,
        }
        if strict:
            node["additionalProperties"] = False
            node["required"] = list(names[:1])
        return node

    defs = {
        "part": shape("name", "version"),
        "tool": shape("vendor", "name"),
        "contact": shape("email", "phone"),
        "hash": {
            **shape("alg", "content"),
            "properties": {"alg": {"enum": colour}, "content": {"$ref": "#/$defs/text"}},
        },
        "text": {"type": "string"},
    }
    return schema(type="object", properties={"parts": {"type": "array"}}, **{"$defs": defs})


def test_strict_and_lax_variants_differ_by_design(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schema/bom.schema.json": _variant(False, ["MD5", "SHA-1"]),
            "schema/bom-strict.schema.json": _variant(True, ["MD5", "SHA-1"]),
        }
    )
    assert run(root, "copy-drift") == []


def test_a_variant_that_changed_a_shared_member_is_still_drift(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schema/bom.schema.json": _variant(False, ["MD5", "SHA-1"]),
            "schema/bom-strict.schema.json": _variant(True, ["MD5"]),
        }
    )
    [finding] = run(root, "copy-drift")
    assert "2 definitions of `hash` disagree" in finding.message
    assert "`alg.enum`" in finding.message


# --- class 4 and 5: pairing an inline schema with the right definition, on evidence -----------


def _components(**schemas: Any) -> str:
    return textwrap.dedent(
        f"""\
        openapi: 3.0.3
        info: {{title: Features, version: 1.0.0}}
        paths: {{}}
        components:
          schemas: {json.dumps(schemas)}
        """
    )


def test_a_component_is_paired_with_its_own_file_not_with_a_base_it_extends(
    make_corpus: MakeCorpus,
) -> None:
    base = {
        "type": "object",
        "properties": {
            "rel": {"type": "string"},
            "type": {"type": "string"},
            "title": {"type": "string"},
            "length": {"type": "integer"},
            "lang": {"type": "string"},
        },
    }
    link = {"allOf": [{"$ref": "linkBase.json"}, {"properties": {"href": {"type": "string"}}}]}
    component = {
        "type": "object",
        "required": ["href"],
        "properties": {**base["properties"], "href": {"type": "string"}},
    }
    root = make_corpus(
        {
            "api/schemas/linkBase.json": schema(**base),
            "api/schemas/link.json": schema(**link),
            "api/features.yaml": _components(link=component),
        }
    )
    assert run(root, "inline-copy") == []
    assert run(root, "copy-drift") == []


def test_shared_property_names_alone_do_not_make_a_copy(make_corpus: MakeCorpus) -> None:
    def geometry(kind: str, coordinates: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["type", "coordinates"],
            "properties": {"type": {"enum": [kind]}, "coordinates": coordinates},
        }

    pair = {"type": "array", "items": {"type": "number"}, "minItems": 2}
    line = geometry("LineString", {"type": "array", "items": pair, "minItems": 2})
    points = geometry("MultiPoint", {"type": "array", "items": pair})
    root = make_corpus(
        {
            "api/schemas/line.json": schema(**line),
            "api/features.yaml": _components(manyPoints=points),
            "api/bodies.json": _openapi("Bodies", points),  # an unnamed body: members decide
        }
    )
    assert run(root, "inline-copy") == []
    assert run(root, "copy-drift") == []


def test_a_drifted_copy_with_its_own_name_is_one_copy_drift_finding(
    make_corpus: MakeCorpus,
) -> None:
    collection = {
        "type": "object",
        "required": ["id", "links"],
        "properties": {
            name: {"type": "string"} for name in ("id", "title", "links", "extent", "crs")
        },
    }
    copy = {**collection, "properties": dict(list(collection["properties"].items())[:4])}
    copy["properties"]["id"] = {"type": "integer"}
    root = make_corpus(
        {
            "api/schemas/collection.json": schema(**collection),
            "api/features.yaml": _components(collection=copy),
        }
    )
    assert run(root, "inline-copy") == []  # one root cause, one finding: copy-drift's
    [finding] = run(root, "copy-drift")
    assert "2 definitions of `api/schemas/collection.json` disagree" in finding.message
    # The file that has the property is named (issue 45, item 9), not "the first".
    assert (
        "the inline copy in api/features.yaml: properties only in api/schemas/collection.json: crs"
        in finding.message
    )


# --- class 6: an edition of the schema files kept on purpose ----------------------------------


def test_an_edition_of_the_schema_files_reports_only_its_drift(
    make_corpus: MakeCorpus,
) -> None:
    def thing(*names: str) -> dict[str, Any]:
        return {
            "type": "object",
            "required": [names[0]],
            "properties": {name: {"type": "string"} for name in names},
        }

    files = {
        f"{n}": thing(n[:3], n[3:] + "x", "note")
        for n in ("alphaone", "betatwo", "gammathree", "deltafour")
    }
    drifted = {**files["deltafour"], "required": ["del", "note"]}
    tree: dict[str, str | bytes] = {
        f"api/schemas/{name}.json": schema(**node) for name, node in files.items()
    }
    tree["api/edition.yaml"] = _components(**{**files, "deltafour": drifted})
    root = make_corpus(tree)
    assert run(root, "inline-copy") == []  # "replace it with a $ref" is not the fix here
    [drift] = run(root, "copy-drift")
    assert drift.location.pointer == "/components/schemas/deltafour"
    assert "`note` is required by the inline copy in api/edition.yaml" in drift.message


def test_a_proposals_schema_copy_is_a_draft_not_a_drifting_copy(make_corpus: MakeCorpus) -> None:
    # proposals/search/ keeps its own copy of a definition while the change is discussed; it
    # differs (a bbox capped at four numbers). The same copy outside a proposal is drift.
    live = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "point": {
                "type": "object",
                "required": ["type", "coordinates"],
                "properties": {
                    "type": {"type": "string"},
                    "coordinates": {"type": "array", "items": {"type": "number"}},
                    "bbox": {"type": "array", "minItems": 4},
                },
            }
        },
    }
    draft = json.loads(json.dumps(live))
    draft["$defs"]["point"]["properties"]["bbox"]["maxItems"] = 4
    draft["$defs"]["point"]["required"] = ["type"]
    text = json.dumps(draft, indent=2) + "\n"
    root = make_corpus(
        {
            "schemas/geometry.json": json.dumps(live, indent=2) + "\n",
            "proposals/search/geometry-draft.json": text,
        }
    )
    assert run(root, "copy-drift") == []
    (root / "proposals/search/geometry-draft.json").unlink()
    (root / "schemas/geometry-old.json").write_text(text, encoding="utf-8")
    assert [f.rule for f in run(root, "copy-drift")] == ["copy-drift"]
