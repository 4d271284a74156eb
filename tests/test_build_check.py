"""The build check (benchmarks/build_check.py) on a repository of our own: what it reads from
`speclint build`'s output, the validators' verdicts on bundle and source, the acceptance list
(a bundle that fails where its source passes), and that it writes nothing into the tree."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from conftest import write_files

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
_spec = importlib.util.spec_from_file_location("build_check", BENCHMARKS / "build_check.py")
assert _spec is not None and _spec.loader is not None
build_check = importlib.util.module_from_spec(_spec)
sys.modules["build_check"] = build_check  # dataclasses resolve their module by name
_spec.loader.exec_module(build_check)

NEEDS_CHECK_JSONSCHEMA = pytest.mark.skipif(
    not build_check.check_jsonschema_available(),
    reason="check-jsonschema is not installed (pip install check-jsonschema, or the dev extra): "
    "the schema bundles and sources cannot be checked",
)

REPOSITORY = {
    "schemas/item.schema.json": json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.org/item.schema.json",
            "type": "object",
            "properties": {"id": {"$ref": "id.schema.json"}},
        }
    ),
    "schemas/id.schema.json": json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.org/id.schema.json",
            "type": "string",
        }
    ),
    # Not built: its `$ref` names a file that is not there.
    "schemas/broken.schema.json": json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.org/broken.schema.json",
            "properties": {"x": {"$ref": "missing.schema.json"}},
        }
    ),
    "api/openapi.yaml": """\
openapi: 3.1.0
info: {title: Items, version: 1.0.0}
paths:
  /items/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: The item
          content:
            application/json:
              schema: {$ref: ../schemas/item.schema.json}
""",
}


def checked(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    trees = tmp_path / "trees"
    write_files(trees / "example+items@0123456789ab", REPOSITORY)
    scratch = tmp_path / "scratch"
    build_check.main([str(trees), str(scratch), "--jobs", "1"])
    return scratch, json.loads((scratch / "build-check.json").read_text(encoding="utf-8"))


def by_source(report: dict[str, object]) -> dict[str, dict[str, object]]:
    (repository,) = report["repositories"]  # type: ignore[misc]
    return {e["source"]: e for e in repository["entries"]}


def test_built_and_not_built_are_read_from_the_build_and_the_tree_is_not_written(
    tmp_path: Path,
) -> None:
    scratch, report = checked(tmp_path)
    (repository,) = report["repositories"]  # type: ignore[misc]
    assert repository["name"] == "example/items"
    # `broken.schema.json` has a `$ref` that resolves nowhere: not built, which the build's exit
    # code says (1), as a CI would see it
    assert repository["build_exit"] == 1
    assert repository["tree_changed"] == []
    entries = by_source(report)
    assert sorted(entries) == [
        "api/openapi.yaml",
        "schemas/broken.schema.json",
        "schemas/id.schema.json",
        "schemas/item.schema.json",
    ]
    api = entries["api/openapi.yaml"]
    assert (api["kind"], api["version"], api["bundle"]) == ("openapi", "3.1.0", "api/openapi.yaml")
    # openapi-spec-validator on both: the source from its file URL (its relative `$ref` followed).
    assert api["bundle_check"]["verdict"] == "valid"
    assert api["source_check"]["verdict"] == "valid"
    broken = entries["schemas/broken.schema.json"]
    assert broken["bundle"] is None
    assert "missing.schema.json" in broken["not_built"]
    assert entries["schemas/item.schema.json"]["bundle"] == "schemas/item.schema.json"
    assert (scratch / "bundles" / "example+items@0123456789ab" / "api" / "openapi.yaml").is_file()
    assert not (tmp_path / "trees" / "example+items@0123456789ab" / "build").exists()


@NEEDS_CHECK_JSONSCHEMA
def test_schema_bundles_and_sources_get_the_metaschema_verdicts(tmp_path: Path) -> None:
    scratch, report = checked(tmp_path)
    entries = by_source(report)
    item = entries["schemas/item.schema.json"]
    assert item["bundle_check"]["verdict"] == "valid"
    assert item["source_check"]["verdict"] == "valid"
    # The not-built schema's source is checked too: it is metaschema-valid (only its `$ref`
    # dangles), so it is listed as not built where the source passes.
    assert entries["schemas/broken.schema.json"]["source_check"]["verdict"] == "valid"
    assert [e["source"] for e in report["not_built_where_source_passes"]] == [
        "schemas/broken.schema.json"
    ]
    assert report["fails_where_source_passes"] == []
    # Deterministic: a second run writes the same bytes (no times, no absolute paths).
    first = (scratch / "build-check.json").read_bytes()
    markdown = (scratch / "build-check.md").read_bytes()
    build_check.main([str(tmp_path / "trees"), str(scratch), "--jobs", "2"])
    assert (scratch / "build-check.json").read_bytes() == first
    assert (scratch / "build-check.md").read_bytes() == markdown
    assert str(tmp_path).encode() not in first


@NEEDS_CHECK_JSONSCHEMA
def test_an_invalid_bundle_of_a_valid_source_is_on_the_acceptance_list(tmp_path: Path) -> None:
    # The validators judge files, whoever wrote them: a bundle made invalid after the build is
    # what a build defect looks like (a source that passes, a bundle that does not).
    tree = write_files(tmp_path / "tree", REPOSITORY)
    out = tmp_path / "out"
    code, stderr = build_check.build(tree, out, 300)
    assert code == 1 and "not built: schemas/broken.schema.json" in stderr, stderr
    bundled = out / "schemas" / "item.schema.json"
    item = json.loads(bundled.read_text(encoding="utf-8"))
    item["$defs"]["https://example.org/id.schema.json"]["type"] = "thing"
    bundled.write_text(json.dumps(item), encoding="utf-8")
    api = out / "api" / "openapi.yaml"
    document = build_check.read_data(api)
    document["info"] = "Items"  # an Info Object is an object
    api.write_text(json.dumps(document), encoding="utf-8")
    verdicts = build_check.metaschema(
        [tree / "schemas" / "item.schema.json", out / "schemas" / "item.schema.json"], 300, ()
    )
    assert verdicts[tree / "schemas" / "item.schema.json"].verdict == "valid"
    assert verdicts[out / "schemas" / "item.schema.json"].verdict == "invalid"
    apis = build_check.api_checks([tree / "api" / "openapi.yaml", api], 300, ())
    assert apis[tree / "api" / "openapi.yaml"].verdict == "valid"
    assert apis[api].verdict == "invalid"

    repository = build_check.Repository("example/items", "tree")
    repository.entries, _ = build_check.entries(tree, out, stderr)
    for entry in repository.entries:
        checks = verdicts if entry.kind == "schema" else apis
        entry.source_check = checks.get(tree / entry.source, build_check.Verdict("valid"))
        if entry.bundle is not None:
            entry.bundle_check = checks.get(out / entry.bundle, build_check.Verdict("valid"))
    assert [e.source for e in repository.fails_where_source_passes] == [
        "api/openapi.yaml",
        "schemas/item.schema.json",
    ]
    # The schema bundle fails inside an embedded resource: its file is named, with its verdict
    # alone (valid: the bundle, not the file, is at fault).
    schemas = [e for e in repository.entries if e.kind == "schema"]
    verdicts[tree / "schemas" / "id.schema.json"] = build_check.Verdict("valid")
    build_check.embedded(schemas, verdicts, tree, out)
    (failing,) = [e for e in schemas if e.source == "schemas/item.schema.json"]
    assert failing.embedded == "schemas/id.schema.json"
    assert failing.embedded_check == build_check.Verdict("valid")
    # An embedded file that fails alone carries its defect into the bundle: the source's, not
    # the build's, listed apart from the acceptance list.
    verdicts[tree / "schemas" / "id.schema.json"] = build_check.Verdict("invalid", "type")
    build_check.embedded(schemas, verdicts, tree, out)
    assert [e.source for e in repository.fails_where_source_passes] == ["api/openapi.yaml"]
    assert [e.source for e in repository.fails_in_an_embedded_source] == [
        "schemas/item.schema.json"
    ]


def test_a_validator_that_hangs_is_a_timeout_not_a_stuck_run(tmp_path: Path) -> None:
    # A document whose validation never ends stands in for a hang: the worker is killed at the
    # limit, the file gets `timeout`, and the files after it are still judged.
    slow = tmp_path / "slow.yaml"
    slow.write_text("openapi: 3.1.0\n", encoding="utf-8")
    fine = write_files(tmp_path / "tree", REPOSITORY) / "api" / "openapi.yaml"
    worker = build_check.WORKER
    build_check.WORKER = (
        "import time, sys\nif sys.argv[1].endswith('slow.yaml'):\n    time.sleep(3600)\n" + worker
    )
    try:
        # The limit is generous: the fine file's worker starts and validates within it on a
        # loaded machine too.
        verdicts = build_check.api_checks([slow, fine], 30, ())
    finally:
        build_check.WORKER = worker
    assert verdicts[slow].verdict == "timeout"
    assert verdicts[fine].verdict == "valid"
