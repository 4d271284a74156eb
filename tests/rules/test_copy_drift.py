"""``copy-drift`` on fixtures written here, one test a case, named after it. The rule: definitions
of one shape that disagree: a schema, its inline copies, and the field lists prose gives for it."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import openapi_30, run_rule, schema
from conftest import openapi_30 as _api
from conftest import run_rule as run
from speclint.analyses.context import Context
from speclint.analyses.repository.provenance import COPY
from speclint.common.findings import Finding

# copy-drift, inline-copy and count-drift on classes of ecosystem batch 3 (issue 45).
#
# 1. copies paired by name alone: two generated renderings of one model, one name in separate API
#    documents of one title, a designed subset sharing a ``title``; and "absent from" for a copy
#    without the property at all;
# 2. a committed bundle's components are not inline copies of their own source files, even when
#    the source's description (copied by the bundler) says "the same as" something.
#
# Each fixture is written here, in our own words.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _shelf(*kinds: str) -> dict[str, Any]:
    members = {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "kind": {"type": "string", "enum": list(kinds)},
    }
    return {"type": "object", "required": ["id"], "properties": members}


def _deal(*members: str, title: str = "Deal") -> str:
    properties = {name: {"type": "number"} for name in ("price", "cut", *members)}
    return schema(
        title=title, type="object", required=["price", "cut", *members], properties=properties
    )


def test_two_renderings_a_build_command_writes_are_not_copies(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "shelf/schemas/document.json": schema(**{"$defs": {"Shelf": _shelf("books")}}),
        "shelf/schemas/openapi.yaml": _api("Shelves", {"Shelf": _shelf("books", "maps")}),
    }
    # Before: two renderings of one model read as a hand copy that drifted.
    assert len(run(make_corpus(files), "copy-drift")) == 1
    files["Makefile"] = (
        "schemas:\n"
        "\tpython tools/render.py --kind json-schema --output shelf/schemas/document.json model.json\n"
        "\tpython tools/render.py --kind openapi --output shelf/schemas/openapi.yaml model.json\n"
    )
    assert run(make_corpus(files), "copy-drift") == []


def test_one_name_in_separate_apis_of_one_title_is_two_entities(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "shelves/openapi.yaml": _api("Library API", {"Registry": _shelf("shelves")}),
        "loans/openapi.yaml": _api("Library API", {"Registry": _shelf("loans")}),
    }
    # Before: one product's per-domain APIs, each its own `Registry`, paired by title.
    assert run(make_corpus(files), "copy-drift") == []
    # Side by side in one folder they are editions of one API: drift.
    files = {
        "api/library.yaml": _api("Library API", {"Registry": _shelf("shelves")}),
        "api/library-public.yaml": _api("Library API", {"Registry": _shelf("loans")}),
    }
    assert len(run(make_corpus(files), "copy-drift")) == 1


def test_a_shared_title_alone_pairs_nothing(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/deal.json": _deal("lowest"),
        "schemas/deal-short.json": _deal(),  # a designed subset titled as its whole
    }
    assert run(make_corpus(files), "copy-drift") == []
    # A `$ref` between the files is evidence: then the copy lacks the members altogether.
    short = json.loads(_deal("extra"))
    short["properties"]["extra"] = {"$ref": "deal.json#/properties/price"}
    files["schemas/deal-short.json"] = json.dumps(short, indent=2)
    [finding] = run(make_corpus(files), "copy-drift")
    # Before: "required by the schema but not by" a copy that does not have it at all.
    assert (
        "`extra` is required by `schemas/deal-short.json` but absent from `schemas/deal.json#/`"
        in (finding.message)
    )


# copy-drift and enum-drift on classes of ecosystem batch 6 (issue 45, item 7).
#
# 1. copy-drift pairs on evidence: a one-branch ``allOf`` around a ``$ref`` is that ``$ref``; a
#    definition named in a schema file of its own is paired with that file, not with another of
#    its ``title``; an unnamed message body is not a copy of another message that shares only its
#    envelope's member names; a definition composed from another file's parts (a request profile)
#    is a variant, not a drifted copy; the first line names the file the definition differs from.
# 2. enum-drift binds prose on evidence: a section or page that names its schema file binds to
#    that file alone; a page in a proposals folder binds only explicitly; a list headed as a
#    subset ("Order-relevant ... values") is not the field's whole vocabulary; an operation's own
#    response is no vocabulary another API's response is a projection of.
#
# Each fixture is written here, in our own words.


_BLURB = {
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {"plain": {"type": "string"}, "html": {"type": "string"}},
}


def _gadget(blurb: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["id"],
        "properties": {"id": {"type": "string"}, "label": {"type": "string"}, "blurb": blurb},
    }


def _body(action: str, message: dict[str, Any], context_ref: str) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["context", "message"],
        "properties": {
            "context": {
                "allOf": [{"$ref": context_ref}, {"properties": {"action": {"enum": [action]}}}]
            },
            "message": {"type": "object", "properties": message},
        },
    }


def _yaml(data: Any) -> str:
    return json.dumps(data, indent=2) + "\n"


def test_a_one_branch_all_of_around_a_ref_is_that_ref(make_corpus: MakeCorpus) -> None:
    json_side = {"$ref": "#/$defs/Blurb", "description": "What the gadget is."}
    files: dict[str, str | bytes] = {
        "schemas/gadgets.json": schema(
            **{"$defs": {"Gadget": _gadget(json_side), "Blurb": _BLURB}}
        ),
        # OpenAPI 3.0 cannot put a description beside a `$ref`: its authors wrap the `$ref` in
        # an `allOf` of one branch, which says the same.
        "api/gadgets.yaml": _api(
            "Gadgets",
            {
                "Gadget": _gadget(
                    {
                        "allOf": [{"$ref": "#/components/schemas/Blurb"}],
                        "description": "What the gadget is.",
                    }
                ),
                "Blurb": _BLURB,
            },
        ),
    }
    assert run(make_corpus(files), "copy-drift") == []
    # A real difference beside the wrapper is still one.
    narrower = dict(
        _BLURB,
        properties={"plain": {"type": "string", "maxLength": 80}, "html": {"type": "string"}},
    )
    files["api/gadgets.yaml"] = _api(
        "Gadgets",
        {
            "Gadget": _gadget({"allOf": [{"$ref": "#/components/schemas/Blurb"}]}),
            "Blurb": narrower,
        },
    )
    assert any(
        "maxLength" in f.message or "plain" in f.message
        for f in run(make_corpus(files), "copy-drift")
    )


def test_an_envelope_s_member_names_alone_pair_no_message(make_corpus: MakeCorpus) -> None:
    # Every message of the protocol is one `{context, message}` envelope, each its own body.
    categories = {"categories": {"type": "array", "items": {"type": "string"}}}
    drifted = {"categories": {"type": "array", "items": {"type": "string", "maxLength": 20}}}
    body = _body("rate", drifted, "../schemas/Context.yaml")
    files: dict[str, str | bytes] = {
        "schemas/Context.yaml": _yaml(
            {
                "type": "object",
                "required": ["domain", "action"],
                "properties": {"domain": {"type": "string"}, "action": {"type": "string"}},
            }
        ),
        "schemas/io/Acknowledge.yaml": _yaml(
            _body("acknowledge", {"ack": {"type": "string"}}, "../Context.yaml")
        ),
        "schemas/io/Rate.yaml": _yaml(_body("rate", categories, "../Context.yaml")),
        "api/openapi.yaml": _api(
            "Ratings",
            {},
            {
                "/rate": {
                    "post": {
                        "requestBody": {"content": {"application/json": {"schema": body}}},
                        "responses": {"200": {"description": "ok"}},
                    }
                }
            },
        ),
    }
    [finding] = run(make_corpus(files), "copy-drift")
    # Before: paired with the first message of the same envelope, Acknowledge.yaml.
    assert "Rate.yaml" in finding.message and "Acknowledge" not in finding.message


def test_a_definition_s_own_file_is_its_original_not_a_file_of_its_title(
    make_corpus: MakeCorpus,
) -> None:
    members = {
        "_type": {"type": "string", "enum": ["STATE"]},
        "value": {"type": "string"},
        "terminal": {"type": "boolean"},
    }
    state = {"title": "STATE", "type": "object", "required": ["value"], "properties": members}
    # The union wrapper requires `_type` on top of the state it wraps, by design; the API's
    # `UMState` is its rendering, titled as the state.
    wrapper = {"title": "STATE", "type": "object", "allOf": [{"$ref": "State.yaml"}]}
    wrapper["required"] = ["_type"]
    rendered = dict(state, required=["value", "_type"])
    files: dict[str, str | bytes] = {
        "schemas/State.yaml": _yaml(state),
        "schemas/UMState.yaml": _yaml(wrapper),
        "api/openapi.yaml": _api("States", {"UMState": rendered}),
    }
    root = make_corpus(files)
    assert run(root, "copy-drift") == []
    # Without a file of its own name, the title pairs it with the state, as before.
    (root / "schemas/UMState.yaml").unlink()
    [finding] = run(root, "copy-drift")
    assert "`_type`" in finding.message


def test_a_ref_into_its_own_copy_of_a_schema_file_is_that_file_s_ref(
    make_corpus: MakeCorpus,
) -> None:
    label = {
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]+$"},
            "text": {"type": "string"},
        },
    }

    def shelf(code_ref: str) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": {"type": "string"},
                "code": {"$ref": code_ref},
                "size": {"type": "integer", "minimum": 0},
            },
        }

    paths = {
        "/labels": {
            "get": {
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {"schema": {"$ref": "../schemas/Label.yaml"}}
                        },
                    }
                }
            }
        }
    }
    files: dict[str, str | bytes] = {
        "schemas/Label.yaml": _yaml(label),
        "schemas/Shelf.yaml": _yaml(shelf("Label.yaml#/properties/code")),
        # The API's own copies, each pointing at its own file's `Label`.
        "api/openapi.yaml": _api(
            "Shelves",
            {"Label": label, "Shelf": shelf("#/components/schemas/Label/properties/code")},
            paths,
        ),
    }
    # Before: `code.$ref`: "schemas/Label.yaml#/properties/code" vs "api/openapi.yaml#/...".
    assert run(make_corpus(files), "copy-drift") == []


def test_a_profile_built_from_another_file_s_parts_is_a_variant(make_corpus: MakeCorpus) -> None:
    definitions = {
        "entry": {
            "type": "object",
            "required": ["id", "kind"],
            "properties": {
                "id": {"type": "string"},
                "kind": {"type": "string"},
                "links": {"$ref": "#/definitions/links"},
                "parts": {"$ref": "#/definitions/parts"},
            },
        },
        "links": {"type": "object", "properties": {"self": {"type": "string"}}},
        "parts": {"type": "array", "items": {"type": "string"}},
        "partsFromClient": {"type": "array", "items": {"type": "string", "maxLength": 9}},
    }
    profile_entry = {
        "type": "object",
        "required": ["kind"],
        "properties": {
            "id": {"type": "string"},
            "kind": {"type": "string"},
            "parts": {"$ref": "document.json#/definitions/partsFromClient"},
        },
    }
    files: dict[str, str | bytes] = {
        "schemas/document.json": schema(
            properties={"data": {"$ref": "#/definitions/entry"}}, definitions=definitions
        ),
        # The request profile: its own `entry`, made of the document's parts for a request
        # (no server links, the client's parts), by design.
        "schemas/create.json": schema(
            properties={"data": {"$ref": "#/definitions/entry"}},
            definitions={"entry": profile_entry},
        ),
    }
    assert run(make_corpus(files), "copy-drift") == []
    # A copy that uses the same parts and drifted is still reported.
    profile_entry["properties"]["parts"] = {"$ref": "document.json#/definitions/parts"}
    files["schemas/create.json"] = schema(
        properties={"data": {"$ref": "#/definitions/entry"}},
        definitions={
            "entry": profile_entry,
            "unused": {"$ref": "document.json#/definitions/links"},
        },
    )
    assert len(run(make_corpus(files), "copy-drift")) == 1


# copy-drift and inline-copy on layouts seen in public repositories (issue 26, classes 1-6).
#
# Each fixture is written here, in our own words, to show one class: what a maintainer of any
# repository with that layout expects.


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


# copy-drift and inline-copy, ecosystem classes of issue 26 session 3.
#
# 1. one definition drifting across several files is one finding, not a group plus its pairs;
# 2. an inline schema is a copy of a definition only on real evidence, not a few shared key names;
# 3. bundled API documents: a ``$ref`` to each file's own copy of a named object definition is no
#    difference, and an older release of a bundle (same title, older ``info.version``) is history;
# 4. a self-contained bundle republishes schema files on purpose: no inline-copy there.
#
# Each fixture is written here, in our own words.


_BRIEF = {
    "title": "BriefNotice",
    "type": "object",
    "required": ["kind", "slot", "author", "body"],
    "properties": {
        "kind": {"type": "string"},
        "slot": {"type": "string"},
        "author": {"type": "string", "pattern": "^@"},
        "body": {"type": "object"},
    },
}


def _body_api(body: dict[str, Any]) -> str:
    paths = {
        "/venues/{venue}/notices": {
            "put": {
                "requestBody": {"content": {"application/json": {"schema": body}}},
                "responses": {"200": {"description": "stored"}},
            }
        }
    }
    return openapi_30("Notices", {}, paths, version="1.0.0")


_AREA = {
    "type": "object",
    "properties": {
        "bounds": {"type": "array", "items": {"type": "number"}},
        "frame": {"enum": ["plain", "curved"]},
    },
}


_LINK = {"type": "object", "required": ["href"], "properties": {"href": {}, "rel": {}}}


def _shelf_bundled(area: str, link: str, titled: bool = True) -> dict[str, Any]:
    members: dict[str, Any] = {
        "id": {"type": "string"},
        "area": {"$ref": area},
        "links": {"type": "array", "items": {"$ref": link}},
    }
    if titled:
        members["title"] = {"type": "string"}
    return {"type": "object", "required": ["id", "links"], "properties": members}


def _bundle(version: str, titled: bool = True) -> str:
    stale_area = {**_AREA, "properties": {**_AREA["properties"], "frame": {"enum": ["plain"]}}}
    return openapi_30(
        "Shelf building blocks",
        {
            "shelf": _shelf_bundled(
                "#/components/schemas/area", "#/components/schemas/link", titled
            ),
            "area": stale_area,
            "link": _LINK,
        },
        version=version,
    )


def _bundle_beside_its_release(make_corpus: MakeCorpus, version: str) -> list[Finding]:
    """copy-drift on split sources, their bundle at ``version``, and the previous release of the
    same bundle kept beside it (history, not a copy)."""
    root = make_corpus(
        {
            "api/schemas/shelf.yaml": json.dumps(_shelf_bundled("area.yaml", "link.yaml")),
            "api/schemas/area.yaml": json.dumps(_AREA),
            "api/schemas/link.yaml": json.dumps(_LINK),
            "api/blocks.yaml": _bundle(version),
            "api/blocks-1-0.yaml": _bundle("1.0.2", titled=False),
        }
    )
    return run(root, "copy-drift")


def test_a_definition_drifting_across_four_files_is_one_finding(make_corpus: MakeCorpus) -> None:
    def setting(scoped: bool) -> str:
        members: dict[str, Any] = {
            "level": {"enum": ["off", "warn", "deny"]},
            "priority": {"type": "integer"},
        }
        if scoped:
            members["scope"] = {"type": "string"}
        return schema(**{"$defs": {"Setting": {"type": "object", "properties": members}}})

    root = make_corpus(
        {
            "schemas/tool-alpha.json": setting(False),
            "schemas/tool-beta.json": setting(True),
            "schemas/tool-gamma.json": setting(True),
            "schemas/tool-delta.json": setting(False),
        }
    )
    findings = run(root, "copy-drift")
    assert len(findings) == 1, [f.message for f in findings]
    [finding] = findings
    assert "4 definitions of `Setting` disagree" in finding.message
    places = {finding.location.path, *(r.path for r in finding.related)}
    assert places == {
        "schemas/tool-alpha.json",
        "schemas/tool-beta.json",
        "schemas/tool-gamma.json",
        "schemas/tool-delta.json",
    }


def test_an_inline_body_sharing_some_key_names_is_not_a_copy(make_corpus: MakeCorpus) -> None:
    # A full notice for one venue: it has the venue and a body of its own members; the brief
    # notice file shares four key names with it, and nothing else.
    full = {
        "type": "object",
        "required": ["kind", "venue", "author", "slot", "body"],
        "properties": {
            "kind": {"type": "string"},
            "venue": {"type": "string", "pattern": "^!"},
            "author": {"type": "string", "pattern": "^@"},
            "slot": {"type": "string", "pattern": "^@"},
            "body": {
                "type": "object",
                "required": ["state"],
                "properties": {"state": {"type": "string"}, "label": {"type": "string"}},
            },
        },
    }
    root = make_corpus(
        {"schemas/brief-notice.json": schema(**_BRIEF), "api/notices.yaml": _body_api(full)}
    )
    assert run(root, "copy-drift") == []
    assert run(root, "inline-copy") == []


def test_an_inline_body_with_the_same_members_that_lost_a_pattern_is_drift(
    make_corpus: MakeCorpus,
) -> None:
    restated = json.loads(json.dumps(_BRIEF))
    del restated["title"]
    restated["properties"]["author"] = {"type": "string"}
    root = make_corpus(
        {"schemas/brief-notice.json": schema(**_BRIEF), "api/notices.yaml": _body_api(restated)}
    )
    [finding] = run(root, "copy-drift")
    assert finding.location.path == "api/notices.yaml"
    assert "`author.pattern`" in finding.message


def test_a_bundle_pointing_at_its_own_copies_reports_only_the_copy_that_drifted(
    make_corpus: MakeCorpus,
) -> None:
    findings = _bundle_beside_its_release(make_corpus, "1.1.0")
    assert [(f.location.path, f.location.pointer) for f in findings] == [
        ("api/blocks.yaml", "/components/schemas/area")
    ], [f.message for f in findings]
    [finding] = findings
    assert "`frame" in finding.message
    assert "api/blocks-1-0.yaml" not in {r.path for r in finding.related}


def test_a_bundle_at_a_development_placeholder_is_the_live_one_not_an_older_release(
    make_corpus: MakeCorpus,
) -> None:
    # `0.0.0` is what a build replaces with the release: the bundle being written, newer than
    # the released one beside it (history), not older than it.
    findings = _bundle_beside_its_release(make_corpus, "0.0.0")
    assert [(f.location.path, f.location.pointer) for f in findings] == [
        ("api/blocks.yaml", "/components/schemas/area")
    ], [f.message for f in findings]


# Issue 45, ecosystem batch 4 at first read, provenance: a bundler's output named through a
# script's variables is its source's bundle; two renderings of one deeply nested document compare
# equal; two editions of one API are not drifted copies. Every fixture here is our own.


def _nested(levels: int, bottom: str = "Leaf") -> dict[str, Any]:
    node: dict[str, Any] = {"$ref": f"#/components/schemas/{bottom}"}
    for level in range(levels):
        node = {"type": "object", "properties": {f"level{level}": node}}
    return node


def _deep_api(title: str, path: str) -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": title, "version": "1"},
        "paths": {path: {"get": {"responses": {"200": {"description": "ok"}}}}},
        "components": {
            "schemas": {
                "Deep": _nested(28),
                "Leaf": {"type": "object", "required": ["id"], "properties": {"id": {}}},
            }
        },
    }


def _kennel(kinds: list[str]) -> str:
    return json.dumps(
        {
            "openapi": "3.0.3",
            "info": {"title": "Kennel", "version": "1"},
            "paths": {},
            "components": {
                "schemas": {
                    "Dog": {
                        "type": "object",
                        "required": ["kind"],
                        "properties": {"kind": {"enum": kinds}, "name": {"type": "string"}},
                    }
                }
            },
        },
        indent=1,
    )


def test_a_json_rendering_is_not_paired_with_its_yaml(make_corpus: MakeCorpus) -> None:
    # The JSON rendering of a YAML document is its copy: its definitions are read at the YAML.
    document = _deep_api("Shop", "/orders")
    members = {"a": {"type": "string"}, "b": {"type": "string"}}
    document["components"]["schemas"]["Deep"] = {"required": ["a"], "properties": members}
    other = _deep_api("Shop", "/stock")
    other["components"]["schemas"]["Deep"] = {"required": ["b"], "properties": members}
    root = make_corpus(
        {
            "api/orders.yaml": json.dumps(document, indent=1),  # JSON is YAML
            "api/orders.json": json.dumps(document),
            "api/stock.yaml": json.dumps(other, indent=1),
        }
    )
    corpus = Context.load(root)
    assert corpus.provenance["api/orders.json"].kind == COPY
    found = run_rule(root, "copy-drift")
    assert len(found) == 1
    paths = {found[0].location.path, *(r.path for r in found[0].related)}
    assert paths == {"api/orders.yaml", "api/stock.yaml"}


def test_a_drifts_message_names_the_other_definition(make_corpus: MakeCorpus) -> None:
    # The finding is at one copy; its message names the other, not the finding's own place.
    def api(path: str, kind: str) -> str:
        document = _deep_api("Shop", path)
        document["components"]["schemas"]["Deep"] = {
            "type": "object",
            "required": ["age"],
            "properties": {"age": {"type": kind}, "name": {"type": "string"}},
        }
        return json.dumps(document, indent=1)

    root = make_corpus(
        {"api/orders.yaml": api("/orders", "integer")} | {"api/stock.yaml": api("/stock", "string")}
    )
    (found,) = run_rule(root, "copy-drift")
    here = found.location.path
    other = ({"api/orders.yaml", "api/stock.yaml"} - {here}).pop()
    assert f"`{other}#/components/schemas/Deep`" in found.message
    assert f"`{here}#" not in found.message


@pytest.mark.parametrize(
    ("name", "reported"),
    [
        ("kennel_preview", False),
        ("beta-kennel", False),
        ("kennel.next", False),
        ("kennel_dogs", True),
        ("kennel-dev", True),
        ("kennel-public", True),
    ],
)
def test_a_preview_edition_is_not_a_drifted_copy(
    make_corpus: MakeCorpus, name: str, reported: bool
) -> None:
    # The preview edition adds a kind on purpose; a second file of the same API that is no
    # channel's (another part of it, a deployment, an audience's filtered edition) still drifts.
    root = make_corpus(
        {"api/kennel.json": _kennel(["hound"]), f"api/{name}.json": _kennel(["hound", "toy"])}
    )
    assert bool(run_rule(root, "copy-drift")) is reported


def test_a_generators_output_is_not_paired_with_its_input(make_corpus: MakeCorpus) -> None:
    # `openapi.json` is written from `openapi.yaml` by the repository's own tool, which puts the
    # real schemas where the YAML has placeholders: the two differ by design.
    script = "#!/bin/sh\nnode fill.js ../openapi.yaml ../models.json > ../openapi.json\n"
    files: dict[str, str | bytes] = {
        "api/openapi.yaml": _kennel(["hound"]),
        "api/openapi.json": _kennel(["hound", "toy"]),
        "api/models.json": json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema"}),
    }
    assert run_rule(make_corpus(files), "copy-drift") != []  # no evidence: drift
    root = make_corpus({**files, "api/tools/fill.sh": script})
    assert Context.load(root).provenance["api/openapi.json"].inputs == (
        "api/openapi.yaml",
        "api/models.json",
    )
    assert run_rule(root, "copy-drift") == []


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def channel(kind: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["kind", "to"],
        "properties": {"kind": kind, "to": {"type": "string"}},
        **more,
    }


def drift(make_corpus: MakeCorpus, first: dict[str, Any], second: dict[str, Any]) -> list[str]:
    """The copy-drift messages of `Channel` defined as ``first`` in one file and ``second`` in
    another of the same folder."""
    files: dict[str, str | bytes] = {
        "schemas/sms.schema.json": schema(**{"$defs": {"Channel": first}}),
        "schemas/mail.schema.json": schema(**{"$defs": {"Channel": second}}),
    }
    return [f.message for f in run_rule(make_corpus(files), "copy-drift")]


def test_copy_drift_reads_a_one_value_enum_as_that_const(make_corpus: MakeCorpus) -> None:
    const = channel({"const": "sms"})
    assert drift(make_corpus, const, channel({"enum": ["sms"]})) == []
    (message,) = drift(make_corpus, const, channel({"enum": ["sms", "mms"]}))
    assert "2 definitions of `Channel` disagree" in message
