"""The change-report comparison (benchmarks/changes/run.py): reading each tool's report, pairing
changes by unit, and one pair run end to end on a git repository of our own. No network and no
external tool: the parts that run json-schema-diff, openapi-diff, Optic or buf are skipped unless
the tool is given by its environment variable (SPECLINT_BENCH_JSON_SCHEMA_DIFF, ...)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import BENCHMARKS

BENCH = BENCHMARKS / "changes"
_spec = importlib.util.spec_from_file_location("changes_bench", BENCH / "run.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["changes_bench"] = bench  # dataclasses resolve their module by name
_spec.loader.exec_module(bench)


def test_the_pinned_pairs_are_ten_or_more_real_revisions_with_their_changelogs() -> None:
    pairs = tomllib.loads((BENCH / "pairs.toml").read_text(encoding="utf-8"))["pair"]
    assert len(pairs) >= 10
    assert len({p["id"] for p in pairs}) == len(pairs)
    for pair in pairs:
        assert pair["kind"] in bench.KIND_TOOLS
        assert len(pair["base"]) == 40 and len(pair["head"]) == 40 and pair["base"] != pair["head"]
        assert pair["files"] and pair["changelog_url"].startswith("https://")
    assert {p["kind"] for p in pairs} == {"schema", "openapi", "proto"}
    assert any(p.get("named") for p in pairs)


def test_speclint_lines_are_read_into_units_by_definition_with_their_role() -> None:
    text = (
        "./s.json:6:13: additive [property added] unused `s.json#/definitions/A` has new `x`\n"
        "./s.json:9:21: breaking [enum value removed] `m` of client-submitted "
        "`s.json#/$defs/B/properties/m` no longer accepts `a`: requests that send it are rejected\n"
        "speclint: 2 change(s) since HEAD~1, 1 breaking\n"
    )
    side = bench.parse_speclint(text, "schema")
    assert [(c.unit, c.kind, c.breaking) for c in side.changes] == [
        ("s.json#/definitions/A", "property added", False),
        ("s.json#/$defs/B", "enum value removed", True),
    ]
    assert side.roles == {"s.json#/definitions/A": "unused", "s.json#/$defs/B": "client-submitted"}


def test_api_pointers_come_down_to_the_operation_or_the_component() -> None:
    assert bench.unit_of_pointer("a.yaml#/paths/~1jobs/post/requestBody/content") == (
        "a.yaml#/paths/~1jobs/post"
    )
    assert bench.unit_of_pointer("a.yaml#/components/schemas/Job/properties/id") == (
        "a.yaml#/components/schemas/Job"
    )
    assert bench.unit_of_pointer("a.yaml#/info") == "a.yaml#"


def test_proto_changes_of_both_sides_meet_at_the_top_level_name() -> None:
    buf = '{"path":"a.proto","start_line":3,"type":"FIELD_SAME_TYPE","message":"Field \\"2\\" with name \\"b\\" on message \\"Outer.Inner\\" changed type."}'
    theirs = bench.parse_buf(buf + "\n")
    ours = bench.parse_speclint(
        "a.proto:3:5: breaking [field type changed] `x.v1.Outer.Inner.b` changed from int32 to int64\n",
        "proto",
    )
    assert theirs.changes[0].unit == ours.changes[0].unit == "Outer"


def test_a_file_option_is_the_files_change_on_both_sides_not_a_name_in_its_value() -> None:
    # speclint's line names the option's value (`Acme.Billing.V1`, capitalised like a message)
    # and buf's names the file: both are the file's unit, one row per file, in agreement.
    buf = "".join(
        json.dumps(
            {
                "path": f"acme/{name}/v1/{name}.proto",
                "type": "FILE_SAME_CSHARP_NAMESPACE",
                "message": f'File option "csharp_namespace" changed from "" to "Acme.{name.title()}.V1".',
            }
        )
        + "\n"
        for name in ("billing", "orders")
    )
    ours = bench.parse_speclint(
        "".join(
            f"acme/{name}/v1/{name}.proto:3:1: breaking [file option changed] `csharp_namespace` "
            f"of `acme/{name}/v1/{name}.proto` is now `Acme.{name.title()}.V1` (was `(unset)`): "
            "the code generated for its language moves\n"
            for name in ("billing", "orders")
        ),
        "proto",
    )
    rows = bench.compare(ours, bench.parse_buf(buf))
    assert [(r["unit"], r["reported"], r["disagreement"]) for r in rows] == [
        ("file acme/billing/v1/billing.proto", "both", False),
        ("file acme/orders/v1/orders.proto", "both", False),
    ]


def test_a_package_rename_is_the_old_packages_change_on_both_sides() -> None:
    # speclint says "renamed" once; buf (PACKAGE category) says the old package is deleted.
    ours = bench.parse_speclint(
        "a.proto:2:1: breaking [package renamed] package `acme.v1` was renamed `corp.acme.v1`: "
        "every message, enum and service changed its full name (gRPC routes calls by it, `Any` "
        "types by it)\n",
        "proto",
    )
    theirs = bench.parse_buf(
        '{"path":"","type":"PACKAGE_NO_DELETE","message":"Previously present package '
        '\\"acme.v1\\" was deleted."}\n'
        '{"path":"a.proto","type":"FILE_SAME_PACKAGE","message":"File package changed from '
        '\\"acme.v1\\" to \\"corp.acme.v1\\"."}\n'
    )
    assert [c.unit for c in ours.changes] == ["package acme.v1"]
    assert [c.unit for c in theirs.changes] == ["package acme.v1", "file a.proto"]
    rows = {r["unit"]: r for r in bench.compare(ours, theirs)}
    assert rows["package acme.v1"]["reported"] == "both"
    assert not rows["package acme.v1"]["disagreement"]


def test_json_schema_diff_verdicts_follow_the_role() -> None:
    lines = "\n".join(
        json.dumps(row)
        for row in (
            {"unit": "s#/$defs/Req", "additions": True, "removals": False},
            {"unit": "s#/$defs/Res", "additions": True, "removals": False},
            {"unit": "s#/$defs/Free", "additions": False, "removals": True},
            {"unit": "s#/$defs/Bad", "error": "Circular $ref pointer found"},
        )
    )
    roles = {"s#/$defs/Req": "client-submitted", "s#/$defs/Res": "server-emitted"}
    side = bench.parse_json_schema_diff(lines, roles)
    assert [(c.unit, c.kind, c.breaking) for c in side.changes] == [
        ("s#/$defs/Req", "widened", False),  # a request that accepts more breaks no client
        ("s#/$defs/Res", "widened", True),  # a response that may hold more does
        ("s#/$defs/Free", "narrowed", True),  # no role: judged both ways
    ]
    assert side.errors == ["s#/$defs/Bad: Circular $ref pointer found"]


def test_openapi_diff_locations_and_removed_paths_become_operations() -> None:
    output = "Breaking changes found between the two specifications:\n" + json.dumps(
        {
            "breakingDifferences": [
                {
                    "type": "breaking",
                    "code": "path.remove",
                    "sourceSpecEntityDetails": [{"location": "paths./b"}],
                },
                {
                    "type": "breaking",
                    "code": "response.body.scope.add",
                    "sourceSpecEntityDetails": [
                        {"location": "paths./a.get.responses.200.content.application/json.schema"}
                    ],
                },
            ],
            "nonBreakingDifferences": [],
            "unclassifiedDifferences": [],
        }
    )
    base = {"paths": {"/b": {"get": {}, "post": {}}}}
    side = bench.parse_openapi_diff(output, "o.json", base)
    assert sorted(c.unit for c in side.changes) == [
        "o.json#/paths/~1a/get",
        "o.json#/paths/~1b/get",
        "o.json#/paths/~1b/post",
    ]
    assert all(c.breaking for c in side.changes)


def test_optic_failed_checks_are_breaking_under_their_operation() -> None:
    output = "\n".join(
        [
            "x t o1.yaml",
            "x GET /b: removed",
            "  ",
            "  x [prevent operation removal] cannot remove an operation. This is a breaking change.",
            "  at o1.yaml:15:328",
            "x GET /a: ",
            "  - query parameter q: ",
            "    x [prevent requiring existing query parameters] cannot make 'q' required.",
            "GET /c: ",
            "  - description changed",
        ]
    )
    side = bench.parse_optic(output, "o.yaml")
    assert [(c.unit, c.kind, c.breaking) for c in side.changes] == [
        ("o.yaml#/paths/~1b/get", "operation removed", False),
        ("o.yaml#/paths/~1b/get", "prevent operation removal", True),
        ("o.yaml#/paths/~1a/get", "prevent requiring existing query parameters", True),
    ]


def test_a_component_change_counts_for_every_operation_that_reaches_it() -> None:
    document = {
        "paths": {
            "/a": {"get": {"responses": {"200": {"$ref": "#/components/responses/R"}}}},
            "/b": {"post": {"requestBody": {"$ref": "#/components/schemas/Other"}}},
        },
        "components": {
            "responses": {"R": {"content": {"x": {"schema": {"$ref": "#/components/schemas/S"}}}}},
            "schemas": {"S": {"type": "object"}, "Other": {"type": "string"}},
        },
    }
    reach = bench.operations_reaching(document, "o.yaml")
    assert reach["o.yaml#/components/schemas/S"] == ["o.yaml#/paths/~1a/get"]  # through a response
    side = bench.Side("speclint", [bench.Reported("o.yaml#/components/schemas/S", "k", True, "t")])
    assert [c.unit for c in bench.spread_components(side, reach).changes] == [
        "o.yaml#/paths/~1a/get"
    ]


def test_units_pair_by_name_and_disagreements_are_marked_with_a_hint() -> None:
    ours = bench.Side(
        "speclint",
        [
            bench.Reported("s#/$defs/A", "enum value removed", True, "a"),
            bench.Reported("s#/$defs/B", "required added", True, "b"),
            bench.Reported("s#/$defs/C", "property added", False, "c"),
        ],
    )
    theirs = bench.Side(
        "json-schema-diff",
        [
            bench.Reported("s#/$defs/B", "narrowed", True, "removals"),
            bench.Reported("s#/$defs/D", "narrowed", True, "removals"),
        ],
    )
    rows = {row["unit"]: row for row in bench.compare(ours, theirs)}
    assert rows["s#/$defs/A"]["reported"] == "only speclint" and rows["s#/$defs/A"]["disagreement"]
    assert "enum" in rows["s#/$defs/A"]["hint"]
    assert rows["s#/$defs/B"]["reported"] == "both" and not rows["s#/$defs/B"]["disagreement"]
    assert not rows["s#/$defs/C"]["disagreement"]  # additive on one side, silence on the other
    assert (
        rows["s#/$defs/D"]["reported"] == "only json-schema-diff"
        and rows["s#/$defs/D"]["disagreement"]
    )


def test_a_definitions_change_counts_for_every_schema_unit_that_reaches_it() -> None:
    # json-schema-diff diffs `Message` with its `$ref`s resolved: a change of `Part` is its too,
    # through `Content` and across a sibling file; `Other` reaches nothing.
    documents = {
        "s/a.json": {
            "$defs": {
                "Message": {"properties": {"content": {"$ref": "#/$defs/Content"}}},
                "Content": {"items": {"$ref": "#/$defs/Part"}},
                "Part": {"type": "string"},
                "Other": {"$ref": "b.json"},
            }
        },
        "s/b.json": {"type": "object"},
    }
    reach = bench.definitions_reaching(documents)
    assert reach["s/a.json#/$defs/Part"] == [
        "s/a.json#/$defs/Content",
        "s/a.json#/$defs/Message",
        "s/a.json#/$defs/Part",
    ]
    assert reach["s/b.json#"] == ["s/a.json#/$defs/Other", "s/b.json#"]
    assert "s/a.json#/$defs/Other" not in reach["s/a.json#/$defs/Part"]
    ours = bench.Side(
        "speclint", [bench.Reported("s/a.json#/$defs/Part", "type narrowed", True, "t")]
    )
    theirs = bench.Side(
        "json-schema-diff",
        [
            bench.Reported(unit, "narrowed", True, "removals")
            for unit in (
                "s/a.json#/$defs/Part",
                "s/a.json#/$defs/Content",
                "s/a.json#/$defs/Message",
            )
        ],
    )
    rows = bench.compare(bench.spread_components(ours, reach), theirs)
    assert [(r["reported"], r["disagreement"]) for r in rows] == [("both", False)] * 3


def test_a_unit_the_tool_gave_no_verdict_on_is_no_disagreement() -> None:
    ours = bench.Side(
        "speclint", [bench.Reported("s#/$defs/Big", "required added", True, "requires `id`")]
    )
    theirs = bench.parse_json_schema_diff(
        '{"unit": "s#/$defs/Big", "error": "timed out after 30 s"}\n', {}
    )
    [row] = bench.compare(ours, theirs)
    assert row["reported"] == "json-schema-diff gave no verdict" and not row["disagreement"]


def test_named_breaking_changes_are_found_only_in_breaking_lines() -> None:
    side = bench.Side(
        "speclint",
        [
            bench.Reported("s#/$defs/Batch", "definition removed", True, "`Batch` removed"),
            bench.Reported("s#/$defs/Tool", "property added", False, "`Tool` has new `icons`"),
        ],
    )
    named = [{"text": "batching removed", "match": "Batch"}, {"text": "icons", "match": "icons"}]
    assert [n["found"] for n in bench.named_found(named, side)] == [True, False]


def test_schema_units_are_the_root_and_each_definition_over_the_whole_table() -> None:
    document = {"$schema": "x", "type": "object", "$defs": {"A": {"type": "string"}, "B/c": {}}}
    units = dict(bench.schema_units(document))
    assert sorted(units) == ["", "/$defs/A", "/$defs/B~1c"]
    assert units["/$defs/A"] == {"allOf": [{"$ref": "#/$defs/A"}], "$defs": document["$defs"]}
    assert "$schema" not in units[""]
    assert bench.schema_units({"definitions": {"A": {}}}) == [
        ("/definitions/A", {"allOf": [{"$ref": "#/definitions/A"}], "definitions": {"A": {}}})
    ]


def _mirror(tmp_path: Path) -> tuple[Path, str, str]:
    """A bare repository of our own with two revisions of one schema (the head removes an enum
    value and moves the file)."""
    work = tmp_path / "work"
    work.mkdir()
    identity = [
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "-c",
        "commit.gpgsign=false",
    ]

    def commit(path: str, schema: dict[str, object]) -> str:
        for item in work.iterdir():
            if item.name != ".git":
                shutil.rmtree(item) if item.is_dir() else item.unlink()
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(json.dumps(schema, indent=2), encoding="utf-8")
        subprocess.run(["git", "add", "-A"], cwd=work, check=True)
        subprocess.run(["git", *identity, "commit", "-qm", path], cwd=work, check=True)
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=work, check=True, capture_output=True, text=True
        ).stdout.strip()

    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    mode = {"type": "string", "enum": ["a", "b"]}
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"Options": {"type": "object", "properties": {"mode": mode}}},
    }
    base = commit("v1/s.json", schema)
    mode["enum"] = ["a"]
    head = commit("v2/s.json", schema)
    mirrors = tmp_path / "mirrors"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(mirrors / "o+r")], check=True)
    return mirrors, base, head


def _pair(base: str, head: str) -> dict[str, object]:
    return {
        "id": "own",
        "repository": "o/r",
        "mirror": "o+r",
        "kind": "schema",
        "base": base,
        "head": head,
        "files": [{"base": "v1/s.json", "head": "v2/s.json", "as": "s.json"}],
        "named": [{"text": "mode b removed", "match": "mode"}],
    }


def _options(tmp_path: Path, mirrors: Path) -> SimpleNamespace:
    """The command line's options for one pair run on our own mirror, speclint run as installed."""
    return SimpleNamespace(
        scratch=tmp_path / "scratch",
        mirrors=mirrors,
        speclint=[sys.executable, "-m", "speclint"],
        tool_timeout=300.0,
        unit_timeout=60.0,
    )


def test_a_pair_runs_end_to_end_and_an_absent_tool_is_skipped_saying_so(tmp_path: Path) -> None:
    mirrors, base, head = _mirror(tmp_path)
    options = _options(tmp_path, mirrors)
    result = bench.run_pair(_pair(base, head), options, {"json-schema-diff": None})
    assert result["files"] == ["s.json"]
    assert result["speclint"]["breaking"] >= 1 and result["speclint"]["errors"] == []
    assert result["speclint"]["named"][0]["found"]
    assert "not given" in result["tools"]["json-schema-diff"]["skipped"]
    table = bench.markdown([result])
    assert "| own | schema |" in table and "skipped: not given" in table
    # Deterministic: the same pair run again writes the same result.
    assert bench.run_pair(_pair(base, head), options, {"json-schema-diff": None}) == result


def test_the_scratch_folder_may_not_be_inside_the_repository() -> None:
    with pytest.raises(SystemExit):
        bench.main(["--scratch", str(bench.REPOSITORY / "scratch"), "--mirrors", "/nonexistent"])


@pytest.mark.skipif(
    not os.environ.get("SPECLINT_BENCH_JSON_SCHEMA_DIFF"),
    reason="json-schema-diff is not installed here (give SPECLINT_BENCH_JSON_SCHEMA_DIFF)",
)
def test_json_schema_diff_sees_the_removed_value_as_a_narrowing(tmp_path: Path) -> None:
    mirrors, base, head = _mirror(tmp_path)
    options = _options(tmp_path, mirrors)
    # An enum is outside json-schema-diff's keywords: it reports nothing, and the row says why.
    tool = Path(os.environ["SPECLINT_BENCH_JSON_SCHEMA_DIFF"])
    result = bench.run_pair(_pair(base, head), options, {"json-schema-diff": tool})
    rows = result["tools"]["json-schema-diff"]["rows"]
    assert [r["hint"] for r in rows if r["disagreement"]] == [
        "json-schema-diff reads no enum/const/pattern (its KEYWORDS.md)"
    ]


def test_an_openapi_diff_failure_is_a_skip_naming_its_error_not_a_crash() -> None:
    output = (
        "OpenApiDiffErrorImpl [VError]: ReferenceError: Circular $ref pointer found at /x/\n"
        "    at json-schema-diff.js:29:15 {\n  jse_shortmsg: 'ReferenceError',\n}\n"
    )
    side = bench.parse_openapi_diff(output, "o.json", {})
    assert side.changes == []
    assert side.skipped is not None and "Circular $ref" in side.skipped


def test_a_result_does_not_name_the_scratch_folder(tmp_path: Path) -> None:
    result = {"errors": [f"Error opening file {tmp_path}/base/x.json"]}
    assert bench.without_scratch(result, tmp_path) == {
        "errors": ["Error opening file <pair>/base/x.json"]
    }


def test_no_changes_from_a_tool_is_a_result_and_an_optic_error_a_skip() -> None:
    assert (
        bench.parse_openapi_diff(
            "No changes found between the two specifications\n", "o", {}
        ).skipped
        is None
    )
    assert bench.parse_optic("✔ API a.yaml\nOperations: 4 operations changed\n", "o").changes == []
    assert bench._OPTIC_SUMMARY.search("✔ API a.yaml\nOperations: 4 operations changed\n")
    assert not bench._OPTIC_SUMMARY.search("Error downloading https://example.invalid/x.yaml\n")


def test_a_definition_moved_from_definitions_to_defs_is_the_same_unit() -> None:
    # MCP moved from draft-07 `definitions` to 2020-12 `$defs` between two releases.
    assert bench._unit_name("/definitions/Tool") == bench._unit_name("/$defs/Tool") == "Tool"
