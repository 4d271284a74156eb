"""Discovery by content, what a run says it checked, version lines and derived bundles (issue 14).

Every fixture here is written for the test; none is copied from a public repository.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_cli import cli

from conftest import run_rule, schema
from speclint.analyses.context import Context
from speclint.common.findings import Severity
from speclint.model.config import load_config
from speclint.parsing.kinds import DocumentKind, classify, looks_like_schema
from speclint.parsing.versions import version_lines
from speclint.run.catalog import all_rules
from speclint.run.coverage import of_corpus
from speclint.run.inventory import entries

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def load(root: Path) -> Context:
    return Context.load(root, load_config(root))


def draft(uri: str, **body: Any) -> str:
    return json.dumps({"$schema": uri, **body}, indent=2)


KINDS: dict[str, tuple[str, str, str]] = {
    # path: (text, kind, dialect)
    "a/d4.json": (draft("http://json-schema.org/draft-04/schema#", type="object"), "json-schema", "draft-04"),
    "b/d6.json": (draft("http://json-schema.org/draft-06/schema#", type="string"), "json-schema", "draft-06"),
    "c/d7.json": (draft("http://json-schema.org/draft-07/schema", type="array"), "json-schema", "draft-07"),
    "d/d2019.json": (draft("https://json-schema.org/draft/2019-09/schema", type="integer"), "json-schema", "2019-09"),
    "e/d2020.yaml": ("$schema: https://json-schema.org/draft/2020-12/schema\ntype: object\n", "json-schema", "2020-12"),
    "f/bare.json": ('{"type": "object", "properties": {"id": {"type": "string"}}}', "json-schema", ""),
    "g/openapi30.yaml": ("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n", "openapi", "OpenAPI 3.0"),
    "g/openapi31.json": ('{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}', "openapi", "OpenAPI 3.1"),
    "g/swagger.yaml": ("swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n", "openapi", "Swagger 2.0"),
    "h/async2.yaml": ("asyncapi: 2.6.0\ninfo: {title: t, version: '1'}\nchannels: {}\n", "asyncapi", "AsyncAPI 2.6"),
    "h/async3.yaml": ("asyncapi: 3.0.0\ninfo: {title: t, version: '1'}\n", "asyncapi", "AsyncAPI 3.0"),
    "i/by-schema.json": ('{"$schema": "../f/bare.json", "id": "x"}', "instance", ""),
    "i/by-modeline.yaml": ("# yaml-language-server: $schema=../f/bare.json\nid: x\n", "instance", ""),
    "j/package.json": ('{"name": "x", "version": "1.0.0", "type": "module"}', "data", ""),
    "j/workflow.yml": ("on: push\njobs: {build: {runs-on: ubuntu-latest}}\n", "data", ""),
    "k/page.md": ("# Page\n\nText.\n", "markdown", ""),
    "k/page.mdx": ("import X from './x'\n\n# Page\n\n<X />\n", "markdown", ""),
}  # fmt: skip


def test_every_kind_and_dialect_is_told_by_content(make_corpus: MakeCorpus) -> None:
    root = make_corpus({path: text for path, (text, _, _) in KINDS.items()})
    found = {entry.path: entry for entry in entries(load(root))}
    for path, (_, kind, dialect) in KINDS.items():
        assert (found[path].kind, found[path].dialect) == (kind, dialect), (path, found[path])
        assert found[path].reason, path


def test_a_ref_target_is_a_schema_though_it_says_nothing_of_itself(make_corpus: MakeCorpus) -> None:
    # A plain definitions container: no $schema, and keywords alone do not make it a schema.
    shared = json.dumps({"definitions": {"Id": {"type": "string"}}, "info": "shared types"})
    root = make_corpus(
        {
            "schemas/run.json": schema(
                properties={"id": {"$ref": "../common/shared.json#/definitions/Id"}}
            ),
            "common/shared.json": shared,
            "api/openapi.yaml": (
                "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n"
                "components:\n  schemas:\n    Tag: {$ref: '../common/tag.yaml'}\n"
                "  parameters:\n    P: {$ref: '../common/param.yaml'}\n"
            ),
            "common/tag.yaml": "name: tag\nlabel: Tag\n",
            "common/param.yaml": "name: p\nin: query\n",
        }
    )
    corpus = load(root)
    assert corpus.documents["common/shared.json"].kind is DocumentKind.SCHEMA
    assert "a `$ref` in schemas/run.json" in corpus.documents["common/shared.json"].reason
    assert corpus.documents["common/tag.yaml"].kind is DocumentKind.SCHEMA  # a schema place
    assert corpus.documents["common/param.yaml"].kind is DocumentKind.DATA  # a parameter


def test_schema_keywords_alone_are_not_enough_for_data_files() -> None:
    assert looks_like_schema({"type": "object", "properties": {"a": {"type": "string"}}})
    assert not looks_like_schema({"name": "x", "type": "module"})  # package.json
    assert not looks_like_schema({"type": "module"})
    assert not looks_like_schema({"title": "x", "description": "y"})  # nothing it constrains
    assert not looks_like_schema({"properties": {"a": 1}})  # a property that is not a schema
    assert (
        classify("x.json", {"$schema": "https://example.org/my-dialect", "type": "object"}).kind
        is DocumentKind.SCHEMA
    )


def test_configured_instances_and_fixtures(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schema/workflow.json": schema(type="object"),
            "examples/a.yaml": "document: {name: a}\n",
            "test/fixtures/broken.yaml": "document: [\n",
            "speclint.toml": '[instances]\n"examples/*.yaml" = "schema/workflow.json"\n',
        }
    )
    corpus = load(root)
    example = corpus.documents["examples/a.yaml"]
    assert (example.kind, example.schema) == (DocumentKind.INSTANCE, "schema/workflow.json")
    assert "test/fixtures/broken.yaml" not in corpus.documents  # not read: no parse error
    listed = {entry.path: entry for entry in entries(corpus)}
    assert listed["test/fixtures/broken.yaml"].kind == "fixture"
    (root / "speclint.toml").write_text("fixtures = []\n")
    assert "test/fixtures/broken.yaml" in load(root).documents


def test_jsonc_files_and_application_tags_are_valid(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    marker = tmp_path / "ran"
    root = make_corpus(
        {
            "tsconfig.json": '{\n  // options\n  "compilerOptions": {"strict": true,},\n}\n',
            ".vscode/settings.json": '{"editor.tabSize": 2, /* team */ }\n',
            "notes.jsonc": '{"a": 1, // one\n "b": [1, 2,]}\n',
            "mkdocs.yml": (
                "site_name: Spec\nmarkdown_extensions:\n"
                "  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
                f"  - run: !!python/object/apply:os.system ['touch {marker}']\n"
            ),
            "schemas/a.schema.json": schema(type="string"),
        }
    )
    corpus = load(root)
    for path in ("tsconfig.json", ".vscode/settings.json", "notes.jsonc", "mkdocs.yml"):
        assert corpus.documents[path].usable, (path, corpus.documents[path].problem)
    assert corpus.documents["notes.jsonc"].data == {"a": 1, "b": [1, 2]}
    assert corpus.documents["tsconfig.json"].position("/compilerOptions") == (3, 3)
    assert run_rule(root, "parse-error") == []
    assert not marker.exists()
    # A `.json` file that is not a JSONC file by name still has to be JSON.
    (root / "data.json").write_text('{"a": 1,}\n')
    assert [f.location.path for f in run_rule(root, "parse-error")] == ["data.json"]


def test_git_ignored_files_are_not_read_but_tracked_ones_are(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            ".gitignore": "generated/\n*.local.json\n",
            "schemas/a.schema.json": schema(type="string"),
            "generated/b.schema.json": "{ not json",
            "schemas/c.local.json": "{ not json",
            "schemas/kept.local.json": schema(type="integer"),
        }
    )
    git = ["git", "-c", "user.email=t@example.org", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=root, check=True)
    subprocess.run(
        [*git, "add", "-f", ".gitignore", "schemas/a.schema.json", "schemas/kept.local.json"],
        cwd=root,
        check=True,
    )
    subprocess.run([*git, "commit", "-qm", "x"], cwd=root, check=True)
    corpus = load(root)
    assert "generated/b.schema.json" not in corpus.documents
    assert "schemas/c.local.json" not in corpus.documents
    assert corpus.documents["schemas/kept.local.json"].kind is DocumentKind.SCHEMA  # tracked
    assert run_rule(root, "parse-error") == []


def test_reports_say_what_was_checked(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/a.schema.json": schema(type="string"),
            "schemas/b.json": draft("http://json-schema.org/draft-07/schema#", type="string"),
            "api/openapi.yaml": KINDS["g/openapi31.json"][0],
            "spec/page.md": "# Page\n",
            "package.json": KINDS["j/package.json"][0],
        }
    )
    text = cli("check", str(root), "--no-cache")
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[-1] == (
        "speclint: checked 2 JSON Schemas (1 2020-12, 1 draft-07), 1 OpenAPI document (3.1), "
        "1 Markdown page; 1 other JSON/YAML file ignored"
    )
    report = json.loads(cli("check", str(root), "--format", "json").stdout)
    assert report["checked"] == {"json-schema": 2, "openapi": 1, "markdown": 1, "data": 1}
    sarif = json.loads(cli("check", str(root), "--format", "sarif").stdout)
    artifacts = {
        a["location"]["uri"]: a.get("properties", {}).get("kind")
        for a in sarif["runs"][0]["artifacts"]
    }
    assert artifacts["schemas/b.json"] == "json-schema" and artifacts["package.json"] == "data"
    listed = cli("files", str(root))
    assert listed.returncode == 0
    line = next(x for x in listed.stdout.splitlines() if x.startswith("schemas/b.json"))
    assert "json-schema draft-07" in line and "`$schema` is draft-07" in line


VERSIONED_PAGE = "# Modes\n\nThe `mode` is one of `fast`, `slow` or `safe`.\n"


def versioned(version: str, required: list[str]) -> str:
    return schema(
        **{"$defs": {"Run": {"type": "object", "required": required, "properties": {
            "id": {"type": "string"}, "mode": {"enum": ["fast", "slow"]}, "note": {"type": "string"},
        }}}}
    )  # fmt: skip


def test_copies_in_different_versions_are_history_not_drift(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "definitions/1.0.0/run.json": versioned("1.0.0", ["id"]),
        "definitions/2.0.0/run.json": versioned("2.0.0", ["id", "mode"]),
        "schema/2025-01-01/run.json": versioned("x", ["id", "note"]),
        "schema/draft/run.json": versioned("x", ["id", "mode", "note"]),
    }
    root = make_corpus(files)
    assert run_rule(root, "copy-drift") == []
    # The same two copies in one version do drift.
    files["definitions/2.0.0/other.json"] = versioned("2.0.0", ["id", "note"])
    [drift] = run_rule(make_corpus(files), "copy-drift")
    assert {drift.location.path, *(r.path for r in drift.related)} == {
        "definitions/2.0.0/run.json",
        "definitions/2.0.0/other.json",
    }
    # Version lines can be turned off.
    files["speclint.toml"] = "versions = false\n"
    assert len(run_rule(make_corpus(files), "copy-drift")) >= 1


def test_version_lines_read_folders_files_and_unreleased_siblings() -> None:
    lines = version_lines(
        [
            "definitions/2.0.0/info.json",
            "schemas/2.0.0-rc1.json",
            "schemas/3.1.0-without-$id.json",
            "schema/2025-06-18/schema.json",
            "schema/draft/schema.json",
            "spec/v1/runs.md",
            "docs/draft/notes.md",  # `draft` with no versioned siblings: not a version
            "schemas/run.schema.json",
            "schemas/clang-format-18.x.json",
            "schemas/update-manifest-5.json",
            "schemas/cryproj.52.schema.json",
            "bench/s00042.schema.json",
        ]
    )
    assert lines.of("schemas/clang-format-18.x.json") == "18.x"
    assert lines.of("schemas/update-manifest-5.json") == "5"
    assert lines.of("schemas/cryproj.52.schema.json") == "52"
    assert lines.of("bench/s00042.schema.json") == ""
    assert lines.of("definitions/2.0.0/info.json") == "2.0.0"
    assert lines.of("schemas/2.0.0-rc1.json") == "2.0.0-rc1"
    assert lines.of("schemas/3.1.0-without-$id.json") == "3.1.0"
    assert lines.of("schema/draft/schema.json") == "draft"
    assert lines.of("spec/v1/runs.md") == "v1"
    assert lines.of("docs/draft/notes.md") == ""
    assert lines.comparable("schemas/run.schema.json", "spec/v1/runs.md")
    assert not lines.comparable("schema/draft/schema.json", "schema/2025-06-18/schema.json")


def test_identical_copies_and_references_to_each_files_own_definitions_are_not_drift(
    make_corpus: MakeCorpus,
) -> None:
    def binding(extra: dict[str, Any]) -> str:
        return schema(**{"definitions": {
            "policy": {"type": "object", "properties": {"queue": {"$ref": "#/definitions/id"}, "max": {"type": "integer"}}},
            "id": {"type": "object", "properties": {"arn": {"type": "string"}, "name": {"type": "string"}, **extra}},
        }})  # fmt: skip

    root = make_corpus({"b/channel.json": binding({}), "b/operation.json": binding({})})
    assert run_rule(root, "copy-drift") == []
    root = make_corpus({"b/channel.json": binding({}), "b/operation.json": binding({"x": {}})})
    [drift] = run_rule(root, "copy-drift")  # the two `id`s differ; `policy` itself says the same
    assert drift.location.pointer == "/definitions/id"


def test_a_generated_bundle_is_judged_at_its_sources(make_corpus: MakeCorpus) -> None:
    def source(name: str) -> dict[str, Any]:
        return {
            "$id": f"https://example.org/definitions/1.0.0/{name}.json",
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "examples": [{"a": 1}],  # a defect, in the source
        }

    files: dict[str, str | bytes] = {
        f"definitions/1.0.0/{name}.json": json.dumps(source(name))
        for name in ("info", "tag", "server")
    }
    bundle = {
        "type": "object",
        "definitions": {source(n)["$id"]: source(n) for n in ("info", "tag", "server")},
    }
    files["schemas/1.0.0.json"] = json.dumps(bundle)
    root = make_corpus(files)
    assert load(root).derived == {"schemas/1.0.0.json": 3}
    found = run_rule(root, "example-invalid")
    assert sorted(f.location.path for f in found) == sorted(
        f"definitions/1.0.0/{n}.json" for n in ("info", "tag", "server")
    )
    assert run_rule(root, "copy-drift") == []


def test_examples_that_are_references_and_examples_under_definitions(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "schemas/a.json": draft(
                "http://json-schema.org/draft-07/schema#",
                definitions={"Port": {"type": "integer", "examples": [80, "eighty"]}},
                type="object",
                example={"$ref": "https://example.org/examples/a.json"},
            )
        }
    )
    [finding] = run_rule(root, "example-invalid")
    assert finding.location.pointer == "/definitions/Port/examples/1"


def test_prose_binds_within_its_version_and_to_a_union_as_a_whole(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Modes\n\nThe `mode` is one of `fast`, `slow` or `safe`.\n"
    union = schema(**{"$defs": {
        "Fast": {"type": "object", "properties": {"mode": {"const": "fast"}}},
        "Slow": {"type": "object", "properties": {"mode": {"const": "slow"}}},
    }, "oneOf": [{"$ref": "#/$defs/Fast"}, {"$ref": "#/$defs/Slow"}]})  # fmt: skip
    enum = schema(type="object", properties={"mode": {"enum": ["fast", "slow"]}})
    files: dict[str, str | bytes] = {
        "docs/2.0.0/modes.md": page,
        "schema/1.0.0/run.json": enum,  # another version: the page does not describe it
        # One tag per branch: the union's values are one set (issue 26), not a branch's one.
        "schema/2.0.0/union.json": union,
    }
    [drift] = run_rule(make_corpus(files), "enum-drift")
    assert (drift.location.path, drift.location.pointer) == ("schema/2.0.0/union.json", "/oneOf")
    assert "`safe`" in drift.message
    files["schema/2.0.0/run.json"] = enum
    drifts = run_rule(make_corpus(files), "enum-drift")
    # Never the 1.0.0 schema: the page is of 2.0.0.
    assert sorted(d.location.path for d in drifts) == [
        "schema/2.0.0/run.json",
        "schema/2.0.0/union.json",
    ]
    assert all("`safe`" in d.message for d in drifts)


@pytest.mark.parametrize("name", ["TEMPLATE.md", "0000-template.md"])
def test_an_rfc_template_is_not_an_rfc(make_corpus: MakeCorpus, name: str) -> None:
    template = "# RFC NNNN\n\n| Field | Value |\n|---|---|\n| RFC | NNNN |\n| Status | Draft |\n| Created | YYYY-MM-DD |\n"
    assert run_rule(make_corpus({f"rfcs/{name}": template}), "rfc-header") == []


def test_an_internal_error_names_the_file_and_the_rule(make_corpus: MakeCorpus) -> None:
    from speclint.common.findings import Severity
    from speclint.run.catalog import RuleInfo
    from speclint.run.runner import INTERNAL_ERROR, run_rules

    def fragile(corpus: Context, options: Any) -> Any:
        for document in corpus.of_kind(DocumentKind.SCHEMA):
            yield from document.data["properties"]["a"]  # a KeyError on the one without `a`

    root = make_corpus(
        {
            "schemas/a.schema.json": schema(properties={"a": {}}),
            "schemas/b.schema.json": schema(properties={"b": {}}),
        }
    )
    info = RuleInfo("fragile", Severity.ERROR, "A rule with a bug.", __name__, fragile)
    result = run_rules(load(root), {"fragile": info}, debug=False, time_box=None)
    [crash] = [f for f in result.findings if f.rule == INTERNAL_ERROR]
    assert crash.location.path == "schemas/b.schema.json"
    assert (
        "rule `fragile` crashed (KeyError: 'a') while reading schemas/b.schema.json"
        in crash.message
    )


def test_openapi_30_examples_are_read_in_the_openapi_30_dialect(make_corpus: MakeCorpus) -> None:
    # OpenAPI 3.0 Schema Objects: `nullable`, and boolean `exclusiveMinimum` (3.0.3 §4.7.24);
    # read as 2020-12, `null` was "not a string" and `exclusiveMinimum: true` not a number.
    doc = (
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /runs:\n    get:\n"
        "      responses:\n        '200':\n          description: ok\n          content:\n"
        "            application/json:\n              schema:\n                type: object\n"
        "                properties:\n                  note: {type: string, nullable: true}\n"
        "                  count: {type: integer, minimum: 0, exclusiveMinimum: true}\n"
        "              example: {note: null, count: COUNT}\n"
    )
    assert (
        run_rule(make_corpus({"api/openapi.yaml": doc.replace("COUNT", "1")}), "example-invalid")
        == []
    )
    [finding] = run_rule(
        make_corpus({"api/openapi.yaml": doc.replace("COUNT", "0")}), "example-invalid"
    )
    assert "less than or equal to the minimum of 0" in finding.message
    assert finding.location.pointer.endswith("/example")


def test_asyncapi_2_operation_messages_have_their_examples_checked(make_corpus: MakeCorpus) -> None:
    doc = (
        "asyncapi: 2.6.0\ninfo: {title: t, version: '1'}\nchannels:\n  runs:\n    subscribe:\n"
        "      message:\n        oneOf:\n          - payload: {type: object, properties: {id: {type: string}}}\n"
        "            examples: [{payload: {id: 7}}]\n"
        "    publish:\n      message:\n        payload: {type: integer}\n        examples: [{payload: 1}]\n"
    )
    [finding] = run_rule(make_corpus({"api/asyncapi.yaml": doc}), "example-invalid")
    assert finding.location.pointer == "/channels/runs/subscribe/message/oneOf/0/examples/0/payload"
    assert '7 is not of type "string"' in finding.message


FENCES = {
    "broken": ('{\n  "mimeType": "image/png"\n  "priority": 0.9\n}', True),
    "typographic quotes": ('{\n  \u201cenumNames\u201d: ["Red"]\n}', True),
    "broken yaml": ("kind: [a, b\nname: x", True),
    "fine": ('{"a": [1, 2]}', False),
    "a member fragment": ('"configurable": {\n  "model": {"type": "string"}\n}', False),
    "a request line above a body": ('POST /v1/runs\n{"a": 1}', False),
    "a stream of values": ('{"a": 1}\n{"b": 2}', False),
    "a JWT": ('{"alg": "RS256"}.{"exp": 1}', False),
    "an ellipsis": ('{"a": 1, ...}', False),
    "a union sketch": ('{"kind": "a" | "b"}', False),
    "comments in a json fence": ('{\n  // the id\n  "id": "x"\n}', False),
    "a block comment for a body": ('{"method": "send", "params": { /* the request */ }}', False),
    "an unclosed object": ('{\n  "id": 1,\n  "result": {\n    /* a result */\n  }', True),
    "a placeholder": ('{"id": <id>, "name": "x"}', False),
    "a template": ('{"url": "${base}/x", "n": ${count}}', False),
    "an elided value": ('{"a": ..., "b": 1}', False),
    # `...` also ends a YAML document: a yaml fence that has one is not judged.
    "an ellipsis in a yaml fence": ("kind: [a, b\nitems:\n  - a\n  ...", False),
}


@pytest.mark.parametrize("name", sorted(FENCES))
def test_a_broken_example_fence_is_a_finding_and_a_sketch_is_not(
    make_corpus: MakeCorpus, name: str
) -> None:
    body, broken = FENCES[name]
    language = "yaml" if "yaml" in name else "json"
    page = f"# Tools\n\nAn example:\n\n```{language}\n{body}\n```\n"
    found = run_rule(make_corpus({"spec/tools.md": page}), "fence-invalid")
    assert bool(found) == broken, found
    if name == "broken":
        [finding] = found
        assert (finding.location.line, finding.location.column) == (8, 3)
        assert "expected ',' or '}'" in finding.message and finding.location.pointer == "#tools"


DRAFT4 = "http://json-schema.org/draft-04/schema#"


def test_a_draft04_id_sets_the_base_of_its_own_definitions(make_corpus: MakeCorpus) -> None:
    # A draft-07 schema that embeds a draft-04 schema whose `id` is its own base URI: its
    # `#/definitions/...` are its own (draft-04 Core §7.2), and it is judged by draft-04.
    embedded = {
        "id": "https://example.org/legacy.json#",
        "$schema": DRAFT4,
        "definitions": {"positive": {"type": "integer", "minimum": 0, "exclusiveMinimum": True}},
        "properties": {"count": {"$ref": "#/definitions/positive"}},
    }
    root = make_corpus(
        {
            "schemas/bundle.json": draft(
                "http://json-schema.org/draft-07/schema#",
                definitions={"legacy": embedded, "local": {"type": "string"}},
                properties={
                    "a": {"$ref": "#/definitions/local"},
                    "b": {"$ref": "#/definitions/legacy"},
                },
            )
        }
    )
    assert run_rule(root, "unresolved-ref") == []
    assert run_rule(root, "schema-invalid") == []
    # The same boolean exclusiveMinimum where draft-07 is in force is invalid.
    broken = draft(
        "http://json-schema.org/draft-07/schema#",
        definitions={"n": {"type": "integer", "minimum": 0, "exclusiveMinimum": True}},
    )
    [finding] = run_rule(make_corpus({"schemas/bundle.json": broken}), "schema-invalid")
    assert finding.location.pointer == "/definitions/n/exclusiveMinimum"


def test_missing_ids_of_one_generated_family_are_one_finding(make_corpus: MakeCorpus) -> None:
    refs = [{"$ref": f"https://example.org/store/{v}.json"} for v in ("1.0.0", "2.0.0", "3.0.0")]
    root = make_corpus(
        {
            "schemas/all.json": schema(**{"$id": "https://example.org/all.json", "oneOf": refs}),
            "schemas/other.json": schema(
                **{"$id": "https://example.org/other.json", "properties": {
                    "a": {"$ref": "https://example.org/lone/a.json"},
                    "b": {"$ref": "https://example.org/lone/b.json"},
                }}
            ),
        }
    )  # fmt: skip
    found = sorted(run_rule(root, "unresolved-ref"), key=lambda f: f.location.path)
    assert [f.location.path for f in found] == [
        "schemas/all.json",
        "schemas/other.json",
        "schemas/other.json",
    ]
    assert "3 `$ref`s name `$id`s under `https://example.org/store/`" in found[0].message
    assert len(found[0].related) == 2


def test_files_of_the_wrong_shape_for_a_schema_are_no_internal_error(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "schemas/list.schema.json": '[{"type": "string"}, {"type": "integer"}]',
            "schemas/scalar.schema.json": '"just a string"',
            "schemas/package.json": '{"name": "schemas", "version": "1.0.0"}',
            "schemas/a.schema.json": schema(
                properties={
                    "x": {"$ref": "list.schema.json#/0"},
                    "y": {"$ref": "scalar.schema.json"},
                }
            ),
        }
    )
    done = cli("check", str(root), "--no-cache", "--format", "json")
    report = json.loads(done.stdout)
    assert not [f for f in report["findings"] if f["rule"] == "internal-error"], report["findings"]
    assert report["checked"]["json-schema"] == 1
    kinds = {e.path: e.kind for e in entries(load(root))}
    assert kinds["schemas/list.schema.json"] == kinds["schemas/package.json"] == "data"


def test_satisfiability_of_another_dialect_is_decided_in_its_own_terms(
    make_corpus: MakeCorpus,
) -> None:
    body = (
        "{allOf: [{type: object, properties: {a: {type: string}}, required: [a],"
        " additionalProperties: false}, {type: object, properties: {b: {type: string}},"
        " required: [b], additionalProperties: false}]}"
    )

    def api(version: str, schema: str = body) -> str:
        return (
            f"openapi: {version}\ninfo: {{title: t, version: '1'}}\npaths:\n  /runs:\n    post:\n"
            "      requestBody:\n        content:\n          application/json:\n"
            f"            schema: {schema}\n      responses:\n        '201': {{description: ok}}\n"
            "components:\n  schemas:\n    Open: {type: object}\n"
        )

    [decided] = run_rule(make_corpus({"api/openapi.yaml": api("3.1.0")}), "unsatisfiable-schema")
    assert (
        decided.severity.label == "error"
        and "unevaluatedProperties: false` next" in decided.message
    )
    # OpenAPI 3.0 has the same defect, and no `unevaluatedProperties` to fix it with.
    [decided] = run_rule(make_corpus({"api/openapi.yaml": api("3.0.3")}), "unsatisfiable-schema")
    assert decided.severity.label == "error"
    assert "In OpenAPI 3.0" in decided.message and "no `unevaluatedProperties`" in decided.message
    # Read in 3.0's own terms, never as 2020-12: a boolean exclusive bound is a bound, and the
    # keywords beside a `$ref` are ignored (OpenAPI 3.0.3 §4.7.24), so neither is a "no".
    siblings = (
        "{allOf: [{$ref: '#/components/schemas/Open', required: [x], properties: {x: {not: {}}}}]}"
    )
    bound = "{type: integer, minimum: 1, maximum: 2, exclusiveMinimum: true}"
    for in_3_0 in (siblings, bound):
        assert (
            run_rule(
                make_corpus({"api/openapi.yaml": api("3.0.3", in_3_0)}), "unsatisfiable-schema"
            )
            == []
        )
    # (In 3.1 the siblings apply, and the same schema is a "no".)
    [decided] = run_rule(
        make_corpus({"api/openapi.yaml": api("3.1.0", siblings)}), "unsatisfiable-schema"
    )
    assert decided.severity.label == "error"
    # ... while 3.0's bound read as 3.0 can still contradict: 1 < n < 2 has no integer.
    tight = (
        "{type: integer, minimum: 1, maximum: 2, exclusiveMinimum: true, exclusiveMaximum: true}"
    )
    [decided] = run_rule(
        make_corpus({"api/openapi.yaml": api("3.0.3", tight)}), "unsatisfiable-schema"
    )
    assert decided.severity.label == "error"

    def draft(uri: str, **body: Any) -> str:
        return json.dumps({"$schema": uri, **body})

    closed = {"allOf": [
        {"type": "object", "properties": {"a": {}}, "required": ["a"], "additionalProperties": False},
        {"type": "object", "properties": {"b": {}}, "required": ["b"], "additionalProperties": False},
    ]}  # fmt: skip
    ignored_siblings = {
        "definitions": {"open": {"type": "object"}},
        "allOf": [{"$ref": "#/definitions/open", "required": ["x"], "properties": {"x": False}}],
    }
    files = {
        "schemas/closed.json": draft("http://json-schema.org/draft-07/schema#", **closed),
        "schemas/siblings.json": draft(
            "http://json-schema.org/draft-07/schema#", **ignored_siblings
        ),
        "schemas/old.json": draft("http://json-schema.org/draft-03/schema#", **closed),
        "speclint.toml": '[rules.unsatisfiable-schema]\nscope = "all"\n',
    }
    corpus = load(make_corpus(files))
    found = {
        f.location.path: f
        for f in all_rules()["unsatisfiable-schema"].check(corpus, {"scope": "all"})
    }
    assert found["schemas/closed.json"].severity.label == "error"
    assert "In draft-07" in found["schemas/closed.json"].message
    assert "schemas/siblings.json" not in found  # draft-07 ignores keywords beside `$ref`
    # A dialect speclint cannot translate is "not checked", never a verdict.
    assert found["schemas/old.json"].severity.label == "info"
    assert "the schema is draft-03" in found["schemas/old.json"].message


def test_a_bare_count_counts_only_a_list_close_by(make_corpus: MakeCorpus) -> None:
    far = "\n".join(["Filler line."] * 60)
    table = "| `type` | use |\n|---|---|\n| `a` | x |\n| `b` | y |\n| `c` | z |\n"
    page = f"# Fields\n\nObjects expose two types of fields.\n\n{far}\n\n## Types\n\n{table}"
    assert run_rule(make_corpus({"spec/page.md": page}), "count-drift") == []
    near = f"# Fields\n\nObjects expose two types of fields.\n\n{table}"
    [finding] = run_rule(make_corpus({"spec/page.md": near}), "count-drift")
    assert "claims 2 types" in finding.message


def test_refs_to_published_metaschemas_resolve_offline_and_pass_fail_folders_are_fixtures(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "schemas/a.json": draft(
                DRAFT4,
                properties={
                    "d": {"$ref": "http://json-schema.org/draft-04/schema#/properties/description"}
                },
            ),
            "schemas/pass/example.yaml": "openapi: 3.0.0\ninfo: {title: t, version: '9.9.9'}\npaths: {}\n",
            "schemas/fail/broken.yaml": "openapi: [\n",
        }
    )
    assert run_rule(root, "unresolved-ref") == []
    assert not [n for n in of_corpus(load(root)) if n.kind == "remote-ref"]  # resolved offline
    kinds = {e.path: e.kind for e in entries(load(root))}
    assert kinds["schemas/pass/example.yaml"] == kinds["schemas/fail/broken.yaml"] == "fixture"


def test_a_partial_view_of_a_shape_is_not_an_inline_copy(make_corpus: MakeCorpus) -> None:
    # CloudEvents' subscription filter lists the event attributes with none required: a view
    # of the event for matching, not a copy of the event schema.
    event = draft(
        "http://json-schema.org/draft-07/schema#",
        type="object",
        required=["id", "source", "type"],
        properties={k: {"type": "string"} for k in ("id", "source", "type", "subject", "time")},
    )
    filter_props = ", ".join(f"{k}: {{type: string}}" for k in ("id", "source", "type", "subject"))
    doc = (
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"
        f"    Attributes: {{type: object, properties: {{{filter_props}}}}}\n"
    )
    root = make_corpus({"formats/event.json": event, "api/openapi.yaml": doc})
    assert run_rule(root, "inline-copy") == [] and run_rule(root, "copy-drift") == []
    copied = doc.replace("type: object, properties", "type: object, required: [id], properties")
    # Requiring a field makes it a copy; one that already disagrees is copy-drift's (issue 26).
    root = make_corpus({"formats/event.json": event, "api/openapi.yaml": copied})
    assert run_rule(root, "inline-copy") == [] and len(run_rule(root, "copy-drift")) == 1


def test_a_swagger_2_document_is_validated_and_said_to_be_read_in_part(
    make_corpus: MakeCorpus,
) -> None:
    doc = (
        "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths:\n  /runs:\n    get:\n"
        "      responses:\n        '200': {description: ok, schema: {type: object}}\n"
    )
    [said] = run_rule(make_corpus({"api/swagger.yaml": doc}), "openapi-invalid")
    assert said.severity is Severity.INFO and "validated as Swagger 2.0" in said.message
    assert said.location.pointer == "/swagger"
    broken = doc.replace("description: ok, ", "")
    found = run_rule(make_corpus({"api/swagger.yaml": broken}), "openapi-invalid")
    assert any(
        f.severity is Severity.ERROR and '"description" is a required property' in f.message
        for f in found
    )


def test_examples_that_inherit_other_examples_are_data_not_schemas(
    make_corpus: MakeCorpus,
) -> None:
    # A corpus that assembles its examples with a resolver: a schema's `example` names an
    # example file by `$ref`; that example inherits a base example's members by `$ref` (`allOf`
    # of `$ref`s looks like a schema by its keywords), and the base is an event with its event
    # type as `type`. None of the three is a schema; the schemas stay schemas.
    root = make_corpus(
        {
            "defs/thing.yaml": (
                "title: Thing\ntype: object\nproperties:\n  kind: {type: string}\n"
                "  detail: {$ref: 'detail.yaml'}\n"
                "example:\n  $ref: '../examples/thing.json'\n"
            ),
            "defs/detail.yaml": "type: object\nproperties:\n  n: {type: integer}\n",
            "examples/thing.json": json.dumps(
                {"allOf": [{"$ref": "parts/base.json"}, {"$ref": "parts/extra.json"}]}
            ),
            "examples/parts/base.json": json.dumps({"type": "org.example.thing", "n": 1}),
            "examples/parts/extra.json": json.dumps({"detail": {"n": 2}}),
            "examples/alias.json": json.dumps({"$ref": "parts/base.json"}),
            # A real schema kept in an examples folder keeps its kind.
            "examples/schemas/point.json": json.dumps(
                {"type": "object", "properties": {"x": {"$ref": "../coord.json"}}}
            ),
            "examples/coord.json": json.dumps({"description": "a coordinate", "minimum": 0}),
        }
    )
    documents = load(root).documents
    kinds = {path: document.kind for path, document in documents.items()}
    for path in (
        "examples/thing.json",
        "examples/parts/base.json",
        "examples/parts/extra.json",
        "examples/alias.json",
    ):
        assert kinds[path] is DocumentKind.DATA, (path, documents[path].reason)
    assert "named by an example in defs/thing.yaml" in documents["examples/thing.json"].reason
    assert "examples/parts/base.json" in documents["examples/alias.json"].reason
    for path in ("defs/thing.yaml", "defs/detail.yaml", "examples/schemas/point.json"):
        assert kinds[path] is DocumentKind.SCHEMA, path
    assert kinds["examples/coord.json"] is DocumentKind.SCHEMA  # the target of a schema's `$ref`


def test_an_api_documents_example_files_are_not_schemas(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": (
                "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n"
                "components:\n  schemas:\n"
                "    Thing:\n      type: object\n"
                "      example: {$ref: 'samples/thing.json'}\n"
                "  examples:\n    Other: {externalValue: 'samples/other.json'}\n"
                "    Ref: {$ref: 'samples/ref.yaml'}\n"
            ),
            "api/samples/thing.json": json.dumps({"allOf": [{"$ref": "base.json"}]}),
            "api/samples/base.json": json.dumps({"type": "object", "properties": {"a": {}}}),
            "api/samples/other.json": json.dumps({"type": "object", "required": ["a"]}),
            "api/samples/ref.yaml": "value: {a: 1}\n",
        }
    )
    documents = load(root).documents
    for path in ("api/samples/thing.json", "api/samples/other.json", "api/samples/ref.yaml"):
        assert documents[path].kind is DocumentKind.DATA, (path, documents[path].reason)
    # What an example names is not promoted to a schema on its account; by its own keywords a
    # file still is one.
    assert documents["api/samples/base.json"].kind is DocumentKind.SCHEMA
    assert "a `$ref`" not in documents["api/samples/base.json"].reason


def test_a_schema_ref_to_a_whole_api_document_is_a_finding(make_corpus: MakeCorpus) -> None:
    # A schema library kept as an OpenAPI document with empty `paths`; a schema names the file
    # without a fragment, so it reaches the document's root, no schema (any value passes).
    root = make_corpus(
        {
            "schemas/library.yaml": (
                "openapi: 3.0.3\ninfo: {title: l, version: '1'}\npaths: {}\n"
                "components:\n  schemas:\n    expression: {type: object}\n"
                "    other: {type: string}\n"
            ),
            "schemas/query.yaml": (
                "type: object\nproperties:\n  filter:\n    oneOf:\n      - type: string\n"
                "      - $ref: 'library.yaml'\n  exact:\n"
                "    $ref: 'library.yaml#/components/schemas/expression'\n"
            ),
        }
    )
    [finding] = run_rule(root, "unresolved-ref")
    assert finding.location.path == "schemas/query.yaml"
    assert finding.location.pointer == "/properties/filter/oneOf/1/$ref"
    assert "whole OpenAPI 3.0 document schemas/library.yaml" in finding.message
    assert "`library.yaml#/components/schemas/expression`" in finding.message
    assert finding.related[0].path == "schemas/library.yaml"


@pytest.mark.parametrize(
    "globs",
    [
        (),
        ("**/*.json",),
        ("**/*.json", "**/*.yaml", "docs/**/*.md", "a?c/*.proto"),
        ("build/**", "**/fixtures/**", "*.json", "[x].json", "a+b/**", "**"),
    ],
)
def test_any_glob_matches_what_one_of_its_globs_matches(globs: tuple[str, ...]) -> None:
    """Discovery asks one regular expression of every path (``corpus.any_glob``): it says what
    matching each glob's own would, also for globs holding what a regex reads as an operator."""
    from speclint.model.corpus import any_glob, glob_to_regex

    paths = [
        "a.json",
        "x/a.json",
        "x/y/a.yaml",
        "docs/a.md",
        "docs/x/b.md",
        "abc/p.proto",
        "abbc/p.proto",
        "build/out.json",
        "x/fixtures/a.json",
        "[x].json",
        "x.json",
        "a+b/c",
        "aab/c",
        "a.json.bak",
        "",
    ]
    one_by_one = [p for p in paths if any(glob_to_regex(g).match(p) for g in globs)]
    assert [p for p in paths if any_glob(globs)(p)] == one_by_one
