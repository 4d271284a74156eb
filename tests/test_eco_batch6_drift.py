"""copy-drift and enum-drift on classes of ecosystem batch 6 (issue 45, item 7).

1. copy-drift pairs on evidence: a one-branch ``allOf`` around a ``$ref`` is that ``$ref``; a
   definition named in a schema file of its own is paired with that file, not with another of
   its ``title``; an unnamed message body is not a copy of another message that shares only its
   envelope's member names; a definition composed from another file's parts (a request profile)
   is a variant, not a drifted copy; the first line names the file the definition differs from.
2. enum-drift binds prose on evidence: a section or page that names its schema file binds to
   that file alone; a page in a proposals folder binds only explicitly; a list headed as a
   subset ("Order-relevant ... values") is not the field's whole vocabulary; an operation's own
   response is no vocabulary another API's response is a projection of.

Each fixture is written here, in our own words.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import openapi_30 as _api
from conftest import run_rule as run
from conftest import schema
from speclint.common.findings import Severity
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


# --- 1. copy-drift pairs on evidence -------------------------------------------------------------

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


# --- 2. enum-drift binds prose on evidence -------------------------------------------------------


def _enum_schema(**fields: list[str]) -> str:
    return schema(
        type="object",
        properties={name: {"type": "string", "enum": values} for name, values in fields.items()},
    )


def test_a_section_that_names_its_schema_file_binds_to_that_file(make_corpus: MakeCorpus) -> None:
    page = textwrap.dedent(
        """\
        # Metadata

        ## Property

        *Defined in [slot.property.schema.json](../schemas/slot.property.schema.json).*

        Allowed values for `kind`:

        - `SCALAR`
        - `VEC2`
        - `MAT2`
        - `TEXT`
        """
    )
    files: dict[str, str | bytes] = {
        "schemas/slot.property.schema.json": _enum_schema(kind=["SCALAR", "VEC2", "MAT2", "TEXT"]),
        # Another extension's `kind`, of some of the same values.
        "schemas/buffer.schema.json": _enum_schema(kind=["SCALAR", "VEC2"]),
        "docs/README.md": page,
    }
    # Before: bound by the name `kind` to the buffer's enum, which "lacks" MAT2 and TEXT.
    assert run(make_corpus(files), "enum-drift") == []
    # Without the file it names, the name binds as before.
    files["docs/README.md"] = page.replace("*Defined in", "*See").replace(
        "slot.property.schema.json", "the property schema"
    )
    assert len(run(make_corpus(files), "enum-drift")) == 1


_PROPOSAL = """\
# RFC: Session states

**Status:** Draft
**Version:** 2026-01-01

## Retrieve

- `state` - `open` | `closed` | `expired`
"""


def test_a_page_in_a_proposals_folder_binds_only_explicitly(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/session.schema.json": _enum_schema(state=["open", "closed", "expired", "held"]),
        "rfcs/rfc.sessions.md": _PROPOSAL,
    }
    # Before: its header is a few bold lines, no RFC table, so it bound by the field name.
    assert run(make_corpus(files), "enum-drift") == []
    # The same page among the documentation binds, and is reported.
    root = make_corpus({"schemas/session.schema.json": files["schemas/session.schema.json"]})
    (root / "docs").mkdir()
    (root / "docs/sessions.md").write_text(_PROPOSAL, encoding="utf-8")
    assert len(run(root, "enum-drift")) == 1


def test_a_table_headed_as_a_selection_is_not_the_whole_vocabulary(
    make_corpus: MakeCorpus,
) -> None:
    total = {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["subtotal", "tax", "total", "fee", "tip"]},
            "amount": {"type": "integer"},
        },
    }
    table = textwrap.dedent(
        """\
        # Orders

        **{lead} `Total.type` values:**

        | Type | Meaning |
        |------|---------|
        | `subtotal` | the items |
        | `tax` | the tax |
        | `total` | what was charged |
        """
    )
    files: dict[str, str | bytes] = {
        "schemas/checkout.schema.json": schema(**{"$defs": {"Total": total}}),
        "docs/orders.md": table.replace("{lead}", "Order-relevant"),
    }
    # Before: read as the field's whole set, an error for `fee` and `tip`.
    assert run(make_corpus(files), "enum-drift") == []
    files["docs/orders.md"] = table.replace("{lead}", "The")
    assert len(run(make_corpus(files), "enum-drift")) == 1


def _error_body(codes: list[str], base: str) -> dict[str, Any]:
    return {
        "allOf": [
            {"$ref": base},
            {
                "type": "object",
                "properties": {
                    "status": {"type": "integer", "enum": [400]},
                    "code": {"type": "string", "enum": codes},
                },
            },
        ]
    }


def test_an_operation_s_own_response_is_no_vocabulary_for_another_s(
    make_corpus: MakeCorpus,
) -> None:
    info = {
        "type": "object",
        "required": ["status", "code"],
        "properties": {"status": {"type": "integer"}, "code": {"type": "string"}},
    }
    generic = _error_body(["INVALID_ARGUMENT", "OUT_OF_RANGE"], "#/components/schemas/ErrorInfo")
    # The shared file every API copies: its generic 400, which each API's own 400 extends.
    common = {
        "info": {"title": "Common data types", "version": "wip"},
        "components": {
            "schemas": {"ErrorInfo": info},
            "responses": {
                "Generic400": {
                    "description": "Bad request",
                    "content": {"application/json": {"schema": generic}},
                }
            },
        },
    }
    own = _error_body(
        ["INVALID_ARGUMENT", "OUT_OF_RANGE", "SESSION.DURATION_OUT_OF_RANGE"],
        "../common/common.yaml#/components/schemas/ErrorInfo",
    )
    api = {
        "openapi": "3.0.3",
        "info": {"title": "Sessions", "version": "1.0"},
        "paths": {
            "/sessions": {
                "post": {"responses": {"400": {"$ref": "#/components/responses/Session400"}}}
            }
        },
        "components": {
            "responses": {
                "Session400": {
                    "description": "Bad request",
                    "content": {"application/json": {"schema": own}},
                }
            }
        },
    }
    files: dict[str, str | bytes] = {
        "common/common.yaml": _yaml(common),
        "api/sessions.yaml": _yaml(api),
    }
    # Before: the shared file's Generic400 told to add the API's own code.
    assert run(make_corpus(files), "enum-drift") == []


def test_a_drift_an_unreleased_copy_shares_is_not_only_in_released_copies(
    make_corpus: MakeCorpus,
) -> None:
    states = _enum_schema(state=["queued", "running", "done"])
    root = make_corpus(
        {
            "spec/1.0.0/job.schema.json": states,
            "spec/unreleased/job.schema.json": states,
            "docs/jobs.md": "# Jobs\n\nA job's `state` is one of `queued` | `running` | `paused` | `done`.\n",
        }
    )
    [finding] = lint(root, Options(cache=False, rules=("enum-drift",))).findings
    assert "spec/unreleased/job.schema.json" in {r.path for r in finding.related}
    # Before: "[only released copies have this, and they do not change]", at info.
    assert "only released copies" not in finding.message
    assert finding.severity is not Severity.INFO


def test_a_page_s_opening_names_its_schema_file_a_later_section_only_its_own(
    make_corpus: MakeCorpus,
) -> None:
    def page(where: str) -> str:
        opening = "This binding carries the `slot.property.schema.json` objects.\n\n"
        later = "The buffer is described in `slot.property.schema.json`.\n\n"
        return (
            "# Binding\n\n## Overview\n\n"
            + (opening if where == "opening" else "")
            + "## Kinds\n\nA slot's `kind` is one of `SCALAR` | `VEC2` | `MAT2` | `TEXT`.\n\n"
            + "## Buffers\n\n"
            + (later if where == "later" else "")
        )

    files: dict[str, str | bytes] = {
        "schemas/slot.property.schema.json": _enum_schema(kind=["SCALAR", "VEC2", "MAT2", "TEXT"]),
        "schemas/buffer.schema.json": _enum_schema(kind=["SCALAR", "VEC2"]),
        "docs/binding.md": page("opening"),
    }
    # Before: bound by the name `kind` to the buffer's enum too.
    assert run(make_corpus(files), "enum-drift") == []
    # A file another section names says nothing of this one's list.
    files["docs/binding.md"] = page("later")
    assert len(run(make_corpus(files), "enum-drift")) == 1


def test_a_list_item_that_leads_with_its_schema_binds_to_that_schema(
    make_corpus: MakeCorpus,
) -> None:
    def owner(*kinds: str) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"kind": {"type": "string", "enum": list(kinds)}, "id": {}},
        }

    page = (
        "# Models\n\n"
        "- **{owner}**: `kind` (`ship|pickup|courier`), `id` (what was chosen)\n"
        "- **Parcel**: `id`, `weight`\n"
    )
    files: dict[str, str | bytes] = {
        "schemas/orders.json": schema(
            **{
                "$defs": {
                    "Selection": owner("ship", "pickup", "courier"),
                    "Delivery": owner("ship", "pickup"),
                }
            }
        ),
        "docs/models.md": page.replace("{owner}", "Selection"),
    }
    # Before: bound by the name `kind` to `Delivery`'s enum too, which "lacks" `courier`.
    assert run(make_corpus(files), "enum-drift") == []
    # Naming `Delivery`, the item is that schema's, and it does lack `courier`: an error now.
    files["docs/models.md"] = page.replace("{owner}", "Delivery")
    [finding] = run(make_corpus(files), "enum-drift")
    assert "courier" in finding.message and finding.severity is Severity.ERROR
