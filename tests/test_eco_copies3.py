"""copy-drift and inline-copy, ecosystem classes of issue 26 session 3.

1. one definition drifting across several files is one finding, not a group plus its pairs;
2. an inline schema is a copy of a definition only on real evidence, not a few shared key names;
3. bundled API documents: a ``$ref`` to each file's own copy of a named object definition is no
   difference, and an older release of a bundle (same title, older ``info.version``) is history;
4. a self-contained bundle republishes schema files on purpose: no inline-copy there.

Each fixture is written here, in our own words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import openapi_30, schema
from conftest import run_rule as run
from speclint.common.findings import Finding

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


# --- class 1: one drift across N files is one finding ------------------------------------------


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


# --- class 2: shared key names alone do not make an inline schema a copy ------------------------


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


# --- class 3: bundles whose refs point at their own copy; an older release of a bundle ---------


_AREA = {
    "type": "object",
    "properties": {
        "bounds": {"type": "array", "items": {"type": "number"}},
        "frame": {"enum": ["plain", "curved"]},
    },
}
_LINK = {"type": "object", "required": ["href"], "properties": {"href": {}, "rel": {}}}


def _shelf(area: str, link: str, titled: bool = True) -> dict[str, Any]:
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
            "shelf": _shelf("#/components/schemas/area", "#/components/schemas/link", titled),
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
            "api/schemas/shelf.yaml": json.dumps(_shelf("area.yaml", "link.yaml")),
            "api/schemas/area.yaml": json.dumps(_AREA),
            "api/schemas/link.yaml": json.dumps(_LINK),
            "api/blocks.yaml": _bundle(version),
            "api/blocks-1-0.yaml": _bundle("1.0.2", titled=False),
        }
    )
    return run(root, "copy-drift")


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


# --- class 4: a self-contained bundle republishes schema files on purpose ----------------------


_EXTENSION = {
    "type": "object",
    "properties": {
        "storageFrame": {"type": "string", "format": "uri"},
        "epoch": {"type": "number"},
    },
}


def _extension_blocks(base_ref: str) -> str:
    return openapi_30(
        "Frame extension building blocks",
        {
            "shelf": {
                "allOf": [{"$ref": base_ref}, {"$ref": "#/components/schemas/frameExtension"}]
            },
            "frameExtension": _EXTENSION,
        },
        version="1.0.0",
    )


def test_a_self_contained_bundle_is_not_told_to_ref_the_file_it_republishes(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        "ext/schemas/frameExtension.yaml": json.dumps(_EXTENSION),
        "ext/schemas/shelf.yaml": json.dumps({"type": "object", "properties": {"id": {}}}),
    }
    # Its only outside reference is the published address of the base: a bundle.
    bundled = make_corpus(
        {
            **files,
            "ext/blocks.yaml": _extension_blocks(
                "https://schemas.example.org/shelf/1.0/shelf.yaml"
            ),
        }
    )
    assert run(bundled, "inline-copy") == []
    assert run(bundled, "copy-drift") == []
    # The same document referring to a file beside it is not self-contained: its copy is one
    # to replace with a `$ref`.
    split = make_corpus({**files, "ext/blocks.yaml": _extension_blocks("schemas/shelf.yaml")})
    [finding] = run(split, "inline-copy")
    assert "$ref: 'schemas/frameExtension.yaml'" in finding.message


def test_a_bundle_at_a_development_placeholder_is_the_live_one_not_an_older_release(
    make_corpus: MakeCorpus,
) -> None:
    # `0.0.0` is what a build replaces with the release: the bundle being written, newer than
    # the released one beside it (history), not older than it.
    findings = _bundle_beside_its_release(make_corpus, "0.0.0")
    assert [(f.location.path, f.location.pointer) for f in findings] == [
        ("api/blocks.yaml", "/components/schemas/area")
    ], [f.message for f in findings]
