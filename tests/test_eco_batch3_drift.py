"""copy-drift, inline-copy and count-drift on classes of ecosystem batch 3 (issue 45).

1. copies paired by name alone: two generated renderings of one model, one name in separate API
   documents of one title, a designed subset sharing a ``title``; and "absent from" for a copy
   without the property at all;
2. a committed bundle's components are not inline copies of their own source files, even when
   the source's description (copied by the bundler) says "the same as" something.

Each fixture is written here, in our own words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import openapi_30 as _api
from conftest import run_rule as run
from conftest import schema

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _shelf(*kinds: str) -> dict[str, Any]:
    members = {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "kind": {"type": "string", "enum": list(kinds)},
    }
    return {"type": "object", "required": ["id"], "properties": members}


# --- 1. copies paired by name alone ------------------------------------------------------------


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


def _deal(*members: str, title: str = "Deal") -> str:
    properties = {name: {"type": "number"} for name in ("price", "cut", *members)}
    return schema(
        title=title, type="object", required=["price", "cut", *members], properties=properties
    )


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


# --- 2. a committed bundle's components are not inline copies of their sources ------------------

_OVERVIEW = {
    "type": "object",
    "description": "Basically the same as the Deal, without its lowest price.",
    "required": ["price", "cut"],
    "properties": {"price": {"type": "number"}, "cut": {"type": "integer"}},
}


def test_a_bundle_s_component_with_its_source_s_description_is_no_claimed_copy(
    make_corpus: MakeCorpus,
) -> None:
    source = _api(
        "Deals",
        {"overview": {"$ref": "../schemas/overview.json"}},
        {"/deals": {"get": {"responses": {"200": {"description": "ok"}}}}},
    )
    bundle_paths = {
        "/deals": {
            "get": {
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/overview"}
                            }
                        },
                    }
                }
            }
        }
    }
    files: dict[str, str | bytes] = {
        "schemas/overview.json": schema(**_OVERVIEW),
        "api/openapi.yaml": source,
        # The committed bundle, built before the last edit of its source (not equal to it).
        "dist/openapi.yaml": _api("Deals", {"overview": _OVERVIEW}, bundle_paths),
    }
    # Before: the bundler's copy of the source's description read as the author's word that
    # the component is a copy, which kept it reported in a bundle.
    assert run(make_corpus(files), "inline-copy") == []
    # The author's own words above a hand copy still count.
    claimed = dict(_OVERVIEW, description="A copy of schemas/overview.json, kept in step.")
    files["dist/openapi.yaml"] = _api("Deals", {"overview": claimed}, bundle_paths)
    [finding] = run(make_corpus(files), "inline-copy")
    assert "Its comment says so" in finding.message
