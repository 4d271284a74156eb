"""An API document's description naming one of its routes by its root, misspelt (issue 46,
round 5).

A description says "poll it via /export_state" where the API's route is
``/exportstate/{export_id}``: a path of one segment, its parameter implied, one segment
misspelt. A reference page generated from the document copies the sentence; it is the same
defect, related to the finding at the document."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
RULE = "route-undeclared"
SENTENCE = "A handle for the export, to be polled via {route} until the archive is ready."


def api(route: str, sentence: str = SENTENCE) -> str:
    """An OpenAPI 3.1 document written as JSON (the style of a generated specification)."""
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Archive", "version": "4"},
        "paths": {
            "/exports": {
                "post": {"responses": {"202": {"description": "accepted"}}},
            },
            "/exportstate/{export_id}": {
                "get": {
                    "parameters": [
                        {
                            "name": "export_id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                    ],
                    "responses": {"200": {"description": "the state"}},
                }
            },
        },
        "components": {
            "schemas": {
                "ExportAccepted": {
                    "type": "object",
                    "properties": {
                        "export_id": {
                            "type": "string",
                            "description": sentence.format(route=route),
                        }
                    },
                }
            }
        },
    }
    return json.dumps(document, indent=2)


REFERENCE = """\
# Archive reference

## ExportAccepted

| Field | Type | Description |
|---|---|---|
| export_id | `string` | {sentence} |
"""


def test_a_description_names_a_route_by_its_misspelt_root(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"archive.json": api("/export_state")})
    (finding,) = run_rule(root, RULE)
    assert finding.location.path == "archive.json"
    assert "`GET /exportstate/{export_id}`" in finding.message
    assert "says `exportstate` where this says `export_state`" in finding.message


def test_a_generated_reference_page_copying_the_description_is_related(
    make_corpus: MakeCorpus,
) -> None:
    sentence = SENTENCE.format(route="/export_state")
    root = make_corpus(
        {
            "archive.json": api("/export_state"),
            "docs/reference.md": REFERENCE.format(sentence=sentence),
        }
    )
    (finding,) = run_rule(root, RULE)
    copies = [r for r in finding.related if r.path == "docs/reference.md"]
    assert [(r.line, r.note) for r in copies] == [
        (7, "the same description, copied into this page")
    ]


def test_the_right_root_and_other_paths_stay_silent(make_corpus: MakeCorpus) -> None:
    for route in ("/exportstate", "/exportstate/{export_id}", "/tmp", "/scratch_area"):
        root = make_corpus({"archive.json": api(route)})
        assert run_rule(root, RULE) == [], route


CLIENT_PAGE = """\
# ExportsApi

Method | HTTP request | Description
------------- | ------------- | -------------
[**start_export**](ExportsApi.md#start_export) | **POST** /exports | Start
[**export_state**](ExportsApi.md#export_state) | **GET** /exportstate/{{export_id}} | State

# **start_export**

Returns an ExportAccepted:

{sentence}
"""
STREAMED = "A handle for the export, whose progress streams from the {route} endpoint as it runs."


def test_a_generated_client_page_copy_is_related_once(make_corpus: MakeCorpus) -> None:
    sentence = STREAMED.format(route="/exports/{export_id}/progress")
    root = make_corpus(
        {
            "archive.json": api("/exports/{export_id}/progress", STREAMED),
            "client/docs/ExportsApi.md": CLIENT_PAGE.format(sentence=sentence),
        }
    )
    (finding,) = run_rule(root, RULE)
    copies = [r for r in finding.related if r.path == "client/docs/ExportsApi.md"]
    assert [r.line for r in copies] == [12]
