"""The build check (benchmarks/build_check.py) on a repository of our own: what it reads from
`speclint build`'s output, the validators' verdicts on bundle and source, the acceptance list
(a bundle that fails where its source passes), and that it writes nothing into the tree."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from conftest import BENCHMARKS, write_files

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


@pytest.fixture(scope="module")
def checked_items(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, object]]:
    """(the folder, the scratch folder, the report) of one run of the build check on REPOSITORY,
    shared by the tests that read it: none changes it (a second run writes the same bytes, which
    is what the test that makes one asserts)."""
    base = tmp_path_factory.mktemp("build-check")
    return (base, *checked(base))


def by_source(report: dict[str, object]) -> dict[str, dict[str, object]]:
    (repository,) = report["repositories"]  # type: ignore[misc]
    return {e["source"]: e for e in repository["entries"]}


def test_built_and_not_built_are_read_from_the_build_and_the_tree_is_not_written(
    checked_items: tuple[Path, Path, dict[str, object]],
) -> None:
    tmp_path, scratch, report = checked_items
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
def test_schema_bundles_and_sources_get_the_metaschema_verdicts(
    checked_items: tuple[Path, Path, dict[str, object]],
) -> None:
    tmp_path, scratch, report = checked_items
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
        # The limit is what the test waits out for the slow file, and still generous: the fine
        # file's worker starts and validates within it on a loaded machine too (about 2 s with
        # seven sessions on two cores).
        verdicts = build_check.api_checks([slow, fine], 10, ())
    finally:
        build_check.WORKER = worker
    assert verdicts[slow].verdict == "timeout"
    assert verdicts[fine].verdict == "valid"


def test_an_error_inside_a_draft07_bundles_embedded_file_names_that_file(tmp_path: Path) -> None:
    # Draft-04..07 bundles embed under `definitions`, which check-jsonschema spells
    # `$.definitions['URI']` (and `$['definitions']['URI']`); 2020-12 ones under `$defs`.
    out = write_files(
        tmp_path / "out",
        {
            "catalog.json": json.dumps(
                {"https://example.org/core.json": {"file": "schemas/core.json"}}
            )
        },
    )
    tree = tmp_path / "tree"
    alone = {tree / "schemas" / "core.json": build_check.Verdict("invalid", "pattern")}
    for error in (
        "$.definitions['https://example.org/core.json'].properties.id.pattern: not a 'regex'",
        "$['definitions']['https://example.org/core.json'].pattern: not a 'regex'",
        "$['$defs']['https://example.org/core.json'].pattern: not a 'regex'",
    ):
        entry = build_check.Entry(
            "schema",
            "root.json",
            bundle="root.json",
            bundle_check=build_check.Verdict("invalid", error),
        )
        build_check.embedded([entry], alone, tree, out)
        assert entry.embedded == "schemas/core.json", error
        assert entry.embedded_check == build_check.Verdict("invalid", "pattern")


def test_the_files_a_source_is_made_of_follow_relative_refs_inside_the_tree_only(
    tmp_path: Path,
) -> None:
    tree = write_files(
        tmp_path / "tree",
        {
            "api/openapi.yaml": "openapi: 3.1.0\npaths:\n  /a: {$ref: 'paths/a.yaml'}\n"
            "  /b: {$ref: 'https://example.org/b.yaml'}\n  /c: {$ref: '../../outside.yaml'}\n",
            "api/paths/a.yaml": "get:\n  parameters: [{$ref: '../parameters/p.yaml#/P'}]\n",
            "api/parameters/p.yaml": "P: {name: p, in: query, schema: {$ref: '#/S'}}\nS: {}\n",
            "api/unused.yaml": "x: 1\n",
        },
    )
    write_files(tmp_path, {"outside.yaml": "x: 1\n"})
    assert build_check.reached_files(tree, "api/openapi.yaml") == {
        "api/openapi.yaml",
        "api/paths/a.yaml",
        "api/parameters/p.yaml",
    }


def test_a_failing_bundle_is_the_sources_defect_when_speclint_reports_what_it_shows(
    tmp_path: Path,
) -> None:
    # The root's validator passes (it never judges what a Reference Object names); the bundle
    # fails on the path item file's parameter; speclint reports that parameter in that file.
    tree = write_files(
        tmp_path / "tree",
        {
            "openapi.yaml": "openapi: 3.1.0\npaths:\n  /a: {$ref: 'paths/a.yaml'}\n",
            "paths/a.yaml": "get: {parameters: [{$ref: '../p.yaml', required: true}]}\n",
            "p.yaml": "{name: p, in: query}\n",
            "other.yaml": "openapi: 3.1.0\n",
        },
    )

    def failing() -> build_check.Entry:
        return build_check.Entry(
            "openapi",
            "openapi.yaml",
            "3.1.0",
            bundle="openapi.yaml",
            source_check=build_check.Verdict("valid"),
            bundle_check=build_check.Verdict(
                "invalid",
                "/components/pathItems/a/get/parameters/0: Unevaluated properties are not "
                "allowed ('required' was unexpected)",
            ),
        )

    said = {
        "path": "paths/a.yaml",
        "line": 1,
        "pointer": "/get/parameters/0",
        "rule": "openapi-invalid",
        "message": "/get/parameters/0: Unevaluated properties are not allowed ('required' was "
        "unexpected); a Reference Object takes only `summary` and `description` beside `$ref`",
    }
    unrelated = {
        **said,
        "pointer": "/get",
        "message": "/get: the object is not valid under the schema",
    }
    elsewhere = {**said, "path": "other.yaml"}
    repository = build_check.Repository("example/api", "tree")

    entry = failing()
    repository.entries = [entry]
    build_check.attribute([entry], tree, [elsewhere, unrelated], ())
    # A file the source does not reach, or a message that shares only the words every
    # validator message has, says nothing of this bundle: it stays on the acceptance list.
    assert entry.reported == ""
    assert repository.fails_where_source_passes == [entry]

    build_check.attribute([entry], tree, [elsewhere, unrelated, said], ())
    assert entry.reported.startswith("paths/a.yaml:1: openapi-invalid: ")
    assert "`Unevaluated`" in entry.reported
    assert repository.fails_where_source_passes == []
    assert repository.fails_in_a_reported_source == [entry]
    assert "speclint: paths/a.yaml:1" in build_check.markdown([repository], True)
