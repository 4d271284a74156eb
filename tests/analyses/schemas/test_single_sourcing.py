"""inline-copy, copy-drift and version-drift: one definition per shape, one version per corpus."""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import run_rule, schema
from speclint.analyses.context import Context
from speclint.analyses.schemas.fingerprints import all_shapes, shape_of
from speclint.analyses.schemas.shapes import Site
from speclint.model.config import load_config

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


CHUNK = {
    "type": "object",
    "required": ["nodeId", "chunk"],
    "properties": {
        "nodeId": {"$ref": "#/$defs/Id"},
        "runId": {"$ref": "#/$defs/Id"},
        "chunk": {"type": "string"},
        "isLast": {"type": "boolean"},
    },
}
PAYLOADS = schema(**{"$defs": {"Id": {"type": "string", "minLength": 4}, "outputChunk": CHUNK}})


def asyncapi(payload: str, comment: str = "") -> str:
    return textwrap.dedent(
        f"""\
        asyncapi: 3.0.0
        info: {{title: Events, version: 1.0.0, description: This document follows AsyncAPI 3.0.0.}}
        channels:
          events:
            messages:
              chunk:
                {comment}
                payload: {payload}
        """
    )


INLINE = (
    "{type: object, required: [nodeId, chunk], properties: {nodeId: {$ref: "
    "'../schemas/payloads.schema.json#/$defs/Id'}, runId: {$ref: '../schemas/payloads.schema.json#/$defs/Id'}, "
    "chunk: {type: string}, isLast: {type: boolean}}}"
)


# --- fingerprints ---------------------------------------------------------------------------------


def test_fingerprints_ignore_prose_and_order_but_not_refs_required_or_constraints(
    make_corpus: MakeCorpus,
) -> None:
    base = {
        "type": "object",
        "required": ["a", "b"],
        "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/X"}},
    }
    variants = {
        "same": {
            "description": "other words",
            "properties": {"b": {"$ref": "#/$defs/X", "title": "B"}, "a": {"type": "string"}},
            "required": ["b", "a"],
            "type": "object",
        },
        "ref": {**base, "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/Y"}}},
        "required": {**base, "required": ["a"]},
        "constraint": {
            **base,
            "properties": {"a": {"type": "string", "maxLength": 3}, "b": {"$ref": "#/$defs/X"}},
        },
    }
    defs = {"X": {"type": "string"}, "Y": {"type": "string"}, "base": base, **variants}
    corpus = Context.load(make_corpus({"schemas/s.schema.json": schema(**{"$defs": defs})}))
    document = corpus.documents["schemas/s.schema.json"]
    digest = {
        name: shape_of(corpus, Site(document, f"/$defs/{name}", value)).digest
        for name, value in defs.items()
    }
    assert digest["same"] == digest["base"]
    for name in ("ref", "required", "constraint"):
        assert digest[name] != digest["base"], name


# --- inline-copy ----------------------------------------------------------------------------------


def test_an_inline_copy_is_reported_with_the_ref_to_write(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"schemas/payloads.schema.json": PAYLOADS, "api/asyncapi.yaml": asyncapi(INLINE)}
    )
    [finding] = run_rule(root, "inline-copy")
    assert "the same shape as `schemas/payloads.schema.json#/$defs/outputChunk`" in finding.message
    assert "$ref: '../schemas/payloads.schema.json#/$defs/outputChunk'" in finding.message
    assert finding.location.pointer == "/channels/events/messages/chunk/payload"
    assert finding.related[0].path == "schemas/payloads.schema.json"
    assert run_rule(root, "copy-drift") == []  # a faithful copy has not drifted (yet)


def test_a_verbatim_comment_lowers_the_similarity_bar(make_corpus: MakeCorpus) -> None:
    partial = "{type: object, properties: {nodeId: {type: string}, chunk: {type: string}, isLast: {}, extra: {}}}"
    files: dict[str, str | bytes] = {"schemas/payloads.schema.json": PAYLOADS}
    plain = make_corpus({**files, "api/asyncapi.yaml": asyncapi(partial)})
    assert run_rule(plain, "inline-copy") == []  # 3 of 5 names: not a copy on its own
    claimed = make_corpus(
        {
            **files,
            "api/asyncapi.yaml": asyncapi(
                partial, "# The outputChunk payload, referenced here verbatim."
            ),
        }
    )
    [finding] = run_rule(claimed, "inline-copy")
    assert "Its comment says so" in finding.message


# --- copy-drift -----------------------------------------------------------------------------------


def test_a_drifted_copy_and_a_prose_field_list_are_reported_with_every_difference(
    make_corpus: MakeCorpus,
) -> None:
    drifted = INLINE.replace("required: [nodeId, chunk]", "required: [nodeId, runId, chunk]")
    prose = textwrap.dedent(
        """\
        # Streams

        ## Chunks

        Schema: `payloads.schema.json#/$defs/outputChunk`. The bare `{nodeId, chunk, isLast}`
        shape is the minimum compliant payload.
        """
    )
    root = make_corpus(
        {
            "schemas/payloads.schema.json": PAYLOADS,
            "api/asyncapi.yaml": asyncapi(drifted),
            "spec/streams.md": prose,
        }
    )
    [finding] = run_rule(root, "copy-drift")
    assert finding.location.path == "api/asyncapi.yaml"  # the copy is what to remove
    assert "3 definitions of `outputChunk` disagree" in finding.message
    # The first line holds what fits (issue 26); the rest is on the related locations.
    said = finding.message + " ".join(r.note or "" for r in finding.related)
    assert (
        "`runId` is required by the inline copy in api/asyncapi.yaml but not by "
        "`schemas/payloads.schema.json`" in said
    )
    assert (
        "`isLast` is required by spec/streams.md:5 but not by `schemas/payloads.schema.json`, "
        "the inline copy in api/asyncapi.yaml" in finding.message
    )
    assert {r.path for r in finding.related} == {"schemas/payloads.schema.json", "spec/streams.md"}


def test_prose_alone_against_the_schema_is_reported_at_its_required(
    make_corpus: MakeCorpus,
) -> None:
    prose = "# S\n\nSee [chunks](../schemas/payloads.schema.json#/$defs/outputChunk). The minimum compliant payload is `{nodeId, chunk}`.\n"
    agreeing = make_corpus({"schemas/payloads.schema.json": PAYLOADS, "spec/s.md": prose})
    assert run_rule(agreeing, "copy-drift") == []
    disagreeing = make_corpus(
        {
            "schemas/payloads.schema.json": PAYLOADS,
            "spec/s.md": prose.replace("{nodeId, chunk}", "{nodeId, chunk, seq}"),
        }
    )
    [finding] = run_rule(disagreeing, "copy-drift")
    assert finding.location.path == "schemas/payloads.schema.json"
    assert finding.location.pointer == "/$defs/outputChunk/required"
    assert (
        "`seq` is required by spec/s.md:3 but not by the schema (the schema does not even declare it)"
        in finding.message
    )


def test_same_named_definitions_in_two_files_that_differ(make_corpus: MakeCorpus) -> None:
    condition = {
        "type": "object",
        "properties": {"type": {"enum": ["equals", "regex"]}, "value": {}},
    }
    wider = {
        "type": "object",
        "properties": {"type": {"enum": ["equals", "regex", "truthy"]}, "value": {}},
    }
    files: dict[str, str | bytes] = {
        "schemas/a.schema.json": schema(**{"$defs": {"EdgeCondition": condition}}),
        "schemas/b.schema.json": schema(**{"$defs": {"EdgeCondition": condition}}),
    }
    assert run_rule(make_corpus(files), "copy-drift") == []  # the same shape twice is not drift
    files["schemas/b.schema.json"] = schema(**{"$defs": {"EdgeCondition": wider}})
    [finding] = run_rule(make_corpus(files), "copy-drift")
    assert "2 definitions of `EdgeCondition` disagree" in finding.message
    assert '`type.enum`: ["equals", "regex"] vs ["equals", "regex", "truthy"]' in finding.message
    assert {finding.location.path, finding.related[0].path} == {
        "schemas/a.schema.json",
        "schemas/b.schema.json",
    }


# --- version-drift --------------------------------------------------------------------------------

CHANGELOG = "# Changelog\n\n## [Unreleased]\n\n## [1.2.0] - 2026-05-01\n\n## [1.1.0] - 2026-01-01\n"


@pytest.mark.parametrize(
    ("declared", "options", "reported"),
    [
        ("1.2.0", {}, False),
        ("1.2", {}, False),  # 1.2 and 1.2.0 are one version
        ("1.2.7", {}, False),  # patch differences are not drift on minor precision
        ("1.2.7", {"precision": "patch"}, True),
        ("1.0", {}, True),
        ("2.0.0", {"version": "2.0.0"}, False),  # the configured version wins
    ],
)
def test_info_version_against_the_corpus_version(
    make_corpus: MakeCorpus, declared: str, options: dict[str, Any], reported: bool
) -> None:
    api = f'openapi: 3.1.0\ninfo: {{title: t, version: "{declared}"}}\npaths: {{}}\n'
    root = make_corpus({"CHANGELOG.md": CHANGELOG, "api/openapi.yaml": api})
    found = run_rule(root, "version-drift", options)
    assert bool(found) is reported
    if found:
        assert found[0].location.line == 2 and found[0].related[0].line in {1, 5}


def test_package_json_and_self_description(make_corpus: MakeCorpus) -> None:
    package = json.dumps({"name": "x", "version": "1.1.0"})
    root = make_corpus(
        {
            "CHANGELOG.md": CHANGELOG,
            "package.json": package,
            "api/asyncapi.yaml": asyncapi("{type: string}")
            .replace("version: 1.0.0", "version: 1.2.0")
            .replace("AsyncAPI 3.0.0", "AsyncAPI 2.6.0"),
        }
    )
    found = sorted(run_rule(root, "version-drift"), key=lambda f: f.location.path)
    assert [f.location.path for f in found] == ["api/asyncapi.yaml", "package.json"]
    assert (
        "calls this document AsyncAPI 2.6.0, but it declares `asyncapi: 3.0.0`" in found[0].message
    )
    assert "package.json says 1.1.0, but CHANGELOG.md's latest release is 1.2.0" in found[1].message


# --- the real OpenWOP snapshot --------------------------------------------------------------------


def test_openwop_output_chunk_drift_is_found(openwop: Path) -> None:
    [finding] = [
        f
        for f in run_rule(openwop, "copy-drift")
        if f.location.path == "schemas/run-event-payloads.schema.json"
    ]
    assert finding.location.path == "schemas/run-event-payloads.schema.json"
    assert finding.location.pointer == "/$defs/outputChunk/required"
    said = finding.message + " ".join(r.note or "" for r in finding.related)  # issue 26
    assert "`runId` is required by" in said and "does not even declare it" in said
    assert "`isLast` is required by" in finding.message
    assert {r.path for r in finding.related} == {"api/asyncapi.yaml", "spec/v1/stream-modes.md"}
    assert run_rule(openwop, "inline-copy") == [] and run_rule(openwop, "version-drift") == []


def test_openwop_inline_copy_without_islast_and_version_1_0(openwop: Path, tmp_path: Path) -> None:
    copy = tmp_path / "c"
    shutil.copytree(openwop, copy)
    payloads = json.loads(
        (copy / "schemas/run-event-payloads.schema.json").read_text(encoding="utf-8")
    )
    chunk = payloads["$defs"]["outputChunk"]
    inline = {
        "type": "object",
        "required": ["nodeId", "runId", "chunk"],  # the documented minimum, without isLast
        "properties": {
            name: value for name, value in chunk["properties"].items() if name != "meta"
        },
    }
    inline["properties"]["runId"] = {"type": "string"}
    asyncapi_path = copy / "api/asyncapi.yaml"
    text = asyncapi_path.read_text(encoding="utf-8")
    reference = "      $ref: '../schemas/run-event-payloads.schema.json#/$defs/outputChunk'"
    assert reference in text
    asyncapi_path.write_text(
        text.replace(reference, "      " + json.dumps(inline), 1), encoding="utf-8"
    )
    openapi_path = copy / "api/openapi.yaml"
    openapi_path.write_text(
        openapi_path.read_text(encoding="utf-8").replace(
            '  version: "1.1.0"', '  version: "1.0"', 1
        ),
        encoding="utf-8",
    )
    [copied] = run_rule(copy, "inline-copy")
    assert "`schemas/run-event-payloads.schema.json#/$defs/outputChunk`" in copied.message
    assert "$ref: '../schemas/run-event-payloads.schema.json#/$defs/outputChunk'" in copied.message
    drift = run_rule(copy, "copy-drift")
    assert any(
        "`isLast` is required by" in f.message
        and "the inline copy in api/asyncapi.yaml" in f.message.split("`isLast`")[1].split(";")[0]
        for f in drift
    ), [f.message for f in drift]
    [version] = run_rule(copy, "version-drift")
    assert (
        version.location.path == "api/openapi.yaml" and "`info.version` is 1.0" in version.message
    )


def test_fingerprinting_openwop_covers_every_schema_location(openwop: Path) -> None:
    corpus = Context.load(openwop, load_config(openwop))
    shapes = all_shapes(corpus)
    assert len(shapes) > 300
    assert len({(s.site.document.path, s.site.pointer) for s in shapes}) == len(shapes)
