"""instance-invalid: data files against the schema they name (issue 14, item 5).

Every fixture is written here; none is copied from a public repository.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import count_builds, run_rule
from conftest import dedented as yaml
from conftest import run_rule as run
from speclint.analyses.context import Context
from speclint.analyses.schemas.instance_schemas import InstanceSchemas
from speclint.common.findings import Finding, Severity
from speclint.model.config import load_config
from speclint.rules import instance_invalid
from speclint.run import runner
from speclint.run.catalog import all_rules
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


WORKFLOW = json.dumps(
    {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.org/schemas/workflow.json",
        "type": "object",
        "required": ["document"],
        "properties": {
            "document": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
            },
            "do": {
                "type": "array",
                "items": {"type": "object", "properties": {"call": {"enum": ["http", "grpc"]}}},
            },
        },
        "additionalProperties": False,
    },
    indent=2,
)


GOOD = "document: {name: order}\ndo:\n  - call: http\n"


BAD = "document: {name: order}\ndo:\n  - call: http2\n"


def run_check(root: Path) -> list[Finding]:
    corpus = Context.load(root, load_config(root))
    return list(all_rules()["instance-invalid"].check(corpus, {}))


@pytest.mark.parametrize(
    ("how", "files"),
    [
        (
            "a $schema member",
            lambda body: {
                "examples/order.json": json.dumps({"$schema": "../schema/workflow.json", **body})
            },
        ),
        (
            "a modeline",
            lambda body: {
                "examples/order.yaml": "# yaml-language-server: $schema=../schema/workflow.json\n"
                + json.dumps(body)
            },
        ),
        (
            "the [instances] table",
            lambda body: {
                "examples/order.yaml": json.dumps(body),
                "speclint.toml": '[instances]\n"examples/*.yaml" = "schema/workflow.json"\n',
            },
        ),
        (
            "the schema's $id",
            lambda body: {
                "examples/order.json": json.dumps(
                    {"$schema": "https://example.org/schemas/workflow.json", **body}
                )
            },
        ),
    ],
)
def test_an_instance_is_checked_however_it_names_its_schema(
    make_corpus: MakeCorpus, how: str, files: Callable[[dict[str, object]], dict[str, str]]
) -> None:
    good = {"document": {"name": "order"}, "do": [{"call": "http"}]}
    bad = {"document": {"name": "order"}, "do": [{"call": "http2"}]}
    assert run_check(make_corpus({"schema/workflow.json": WORKFLOW, **files(good)})) == [], how
    [finding] = run_check(make_corpus({"schema/workflow.json": WORKFLOW, **files(bad)}))
    assert finding.rule == "instance-invalid" and finding.severity is Severity.ERROR
    assert finding.location.pointer == "/do/0/call", how
    assert '"http2" is not one of ["http", "grpc"]' in finding.message
    assert "(schema/workflow.json)" in finding.message
    assert finding.related[0].path == "schema/workflow.json"


def test_the_error_is_at_the_failing_line(make_corpus: MakeCorpus) -> None:
    page = "# yaml-language-server: $schema=../schema/workflow.json\n" + BAD
    [finding] = run_check(
        make_corpus({"schema/workflow.json": WORKFLOW, "examples/order.yaml": page})
    )
    assert (finding.location.line, finding.location.column) == (4, 5)  # the member `call`


def test_a_schema_outside_the_corpus_is_said_not_checked(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schema/other.json": WORKFLOW,
            "a.yaml": "# yaml-language-server: $schema=./missing.json\n" + GOOD,
            "b.json": json.dumps({"$schema": "https://schemas.example.net/x.json", "a": 1}),
        }
    )
    found = {f.location.path: f for f in run_check(root)}
    assert found["a.yaml"].severity is Severity.WARNING
    assert (
        "`./missing.json`, which is not in the corpus (`missing.json`)" in found["a.yaml"].message
    )
    assert found["b.json"].severity is Severity.INFO
    assert found["b.json"].message.startswith("not checked:")
    assert found["b.json"].location.pointer == "/$schema"


def test_each_schema_is_its_own_dialect(make_corpus: MakeCorpus) -> None:
    draft4 = json.dumps(
        {
            "$schema": "http://json-schema.org/draft-04/schema#",
            "type": "object",
            "properties": {"port": {"type": "integer", "minimum": 0, "exclusiveMinimum": True}},
        }
    )
    ok = make_corpus({"s.json": draft4, "i.json": json.dumps({"$schema": "s.json", "port": 1})})
    assert run_check(ok) == []
    bad = make_corpus({"s.json": draft4, "i.json": json.dumps({"$schema": "s.json", "port": 0})})
    [finding] = run_check(bad)
    assert "less than or equal to the minimum of 0" in finding.message


def test_an_unreadable_schema_is_said_and_values_failing_one_rule_are_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"s.json": "{ broken", "i.json": json.dumps({"$schema": "s.json"})})
    [finding] = run_check(root)
    assert "`s.json` could not be read" in finding.message
    schema = json.dumps(
        {
            "type": "object",
            "properties": {"ids": {"type": "array", "items": {"pattern": "^G[0-9]+$"}}},
        }
    )
    data = {"$schema": "s.json", "ids": ["G1", "x", "y", "G2", "z"]}
    [grouped] = run_check(make_corpus({"s.json": schema, "i.json": json.dumps(data)}))
    assert grouped.location.pointer == "/ids/1"
    assert "(2 more values fail the same way" in grouped.message
    assert [r.pointer for r in grouped.related[1:]] == ["/ids/2", "/ids/4"]


def test_values_past_the_related_limit_are_counted_not_said_to_be_listed(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(instance_invalid, "RELATED", 2)
    schema = json.dumps(
        {"type": "object", "properties": {"ids": {"type": "array", "items": {"pattern": "^G"}}}}
    )
    data = {"$schema": "s.json", "ids": ["a", "b", "c", "d", "e"]}
    [grouped] = run_check(make_corpus({"s.json": schema, "i.json": json.dumps(data)}))
    assert "(4 more values fail" in grouped.message  # "the same way", where there is room
    assert "listed as related" not in grouped.message
    assert grouped.message.endswith(
        "\nThe related locations list 2 of its 4 other values, and 2 more are not listed"
    )
    assert [r.pointer for r in grouped.related[1:]] == ["/ids/1", "/ids/2"]


def test_a_long_failure_is_bounded_whole_the_schema_named_on_its_related_location(
    make_corpus: MakeCorpus,
) -> None:
    folder = "schema/" + "/".join(["versions", "2026", "workflows", "definitions", "current"])
    body = {"$schema": f"{folder}/workflow.json", "document": {"name": "order"}}
    body["do"] = [{"call": "a-call-name-that-is-long-enough-to-fill-a-line"}]
    root = make_corpus({f"{folder}/workflow.json": WORKFLOW, "order.json": json.dumps(body)})
    [finding] = run_check(root)
    assert len(finding.message) <= 200, finding.message
    assert finding.related[0].path == f"{folder}/workflow.json"


def test_the_two_rules_that_read_an_instances_schema_look_it_up_once_a_run(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # instance-invalid and duplicate-item read one lookup (speclint.analyses.schemas.instance_schemas),
    # built in this process before the rules fork: their workers inherit it.
    root = make_corpus(
        {
            "schema/workflow.json": WORKFLOW,
            "examples/order.yaml": "# yaml-language-server: $schema=../schema/workflow.json\n"
            + BAD,
            "examples/lost.yaml": "# yaml-language-server: $schema=../schema/lost.json\n" + GOOD,
        }
    )
    built = count_builds(monkeypatch, InstanceSchemas)
    catalog = all_rules()
    corpus = Context.load(root, load_config(root))
    chosen = {r: catalog[r] for r in ("instance-invalid", "duplicate-item")}
    result = runner.run_rules(corpus, chosen, jobs=2, time_box=None, waivers=False)
    assert sorted((f.rule, f.location.path, f.key.split(":")[0]) for f in result.findings) == [
        ("instance-invalid", "examples/lost.yaml", "missing-schema"),
        ("instance-invalid", "examples/order.yaml", "/do/0/call"),
    ]
    assert len(built) == 1


# Issue 45, ecosystem batch 3 at first read: a `$ref` a bundler inlines that only a `oneOf`
# branch rejects, the explanation of a `oneOf` of a Reference and an object, errors past the
# cap said, not dropped. Every fixture here is our own.


def test_a_schema_in_node_modules_is_not_checked_not_missing(make_corpus: MakeCorpus) -> None:
    # An editor modeline into an npm package's schema: there after `npm install`, never
    # committed. Coverage, not a finding.
    config = {"$schema": "./node_modules/@tools/cli/config/schema.json", "version": 1}
    root = make_corpus({"web/tool.json": json.dumps(config)})
    [finding] = run_rule(root, "instance-invalid")
    assert finding.coverage == "schema-not-loaded", finding.message
    assert "web/node_modules" in finding.message


def test_a_missing_schema_outside_installed_folders_is_still_reported(
    make_corpus: MakeCorpus,
) -> None:
    config = {"$schema": "./schemas/tool.schema.json", "version": 1}
    [finding] = run_rule(make_corpus({"web/tool.json": json.dumps(config)}), "instance-invalid")
    assert finding.coverage is None and "not in the corpus" in finding.message


def test_a_schema_in_a_folder_discovery_leaves_out_is_not_loaded(make_corpus: MakeCorpus) -> None:
    # Go's `go mod vendor` folder (modules.txt) is left out of the corpus; the repository holds it.
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}
    root = make_corpus(
        {
            "vendor/modules.txt": "# example.org/tool v1.0.0\n",
            "vendor/example.org/tool/tool.schema.json": json.dumps(schema),
            "tool.json": json.dumps(
                {"$schema": "./vendor/example.org/tool/tool.schema.json", "version": 1}
            ),
        }
    )
    [finding] = run_rule(root, "instance-invalid")
    assert finding.coverage == "schema-not-loaded", finding.message


# Classes found at the first read of ecosystem batch 5 (issue 45): examples, `$schema` paths,
# illustrations and sketches, each on a fixture of ours.


_INFO_SCHEMA = "type: object\nrequired: [title]\nproperties:\n  title: {type: string}\n"


def test_a_schema_path_that_exists_only_from_the_repository_root_is_read_from_there(
    make_corpus: MakeCorpus,
) -> None:
    """`spec/info.yaml` naming `./schemas/info.schema.yaml`, a file only the repository root
    has (where the repository's own linter resolves it): no broken reference, and the instance
    is checked against that schema."""
    root = make_corpus(
        {
            "schemas/info.schema.yaml": _INFO_SCHEMA,
            "spec/info.yaml": "$schema: ./schemas/info.schema.yaml\ntitle: 5\n",
            "spec/other.yaml": "$schema: ./schemas/info.schema.yaml\ntitle: Ok\n",
        }
    )
    [finding] = run_rule(root, "instance-invalid")
    assert finding.location.path == "spec/info.yaml"
    assert finding.location.line == 2 and "not of type" in finding.message


def test_a_schema_path_read_from_its_folder_first_and_missing_from_both_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "schemas/info.schema.yaml": _INFO_SCHEMA,
            "spec/schemas/info.schema.yaml": "type: object\nrequired: [name]\n",
            "spec/info.yaml": "$schema: ./schemas/info.schema.yaml\ntitle: 5\n",
            "spec/gone.yaml": "$schema: ./nowhere/info.schema.yaml\ntitle: Ok\n",
        }
    )
    found = sorted((f.location.path, f.message) for f in run_rule(root, "instance-invalid"))
    assert len(found) == 2, found
    assert found[0][0] == "spec/gone.yaml" and "not in the corpus" in found[0][1]
    # the file beside it wins: its `required: [name]`, not the root's `title` type
    assert found[1][0] == "spec/info.yaml" and '"name" is a required' in found[1][1]


def test_a_modeline_naming_a_schema_only_the_root_has_is_still_a_broken_reference(
    make_corpus: MakeCorpus,
) -> None:
    """The YAML language server reads a modeline's path from the file's folder: an editor finds
    no schema there, whatever the root holds."""
    root = make_corpus(
        {
            "schemas/info.schema.yaml": _INFO_SCHEMA,
            "spec/info.yaml": "# yaml-language-server: $schema=./schemas/info.schema.yaml\ntitle: 5\n",
        }
    )
    [finding] = run_rule(root, "instance-invalid")
    assert "not in the corpus" in finding.message


# Issue 26, items 4 and 5: precision of version-drift, remote-ref, undeclared-tag,
# instance-invalid, openapi-invalid, schema-invalid and parse-error on layouts seen in public spec
# repositories, and short first lines for the closure, union, satisfiability and identity rules.
# Every fixture here is our own.


def test_an_instance_whose_meta_schema_requires_schema_keeps_its_schema_member(
    make_corpus: MakeCorpus,
) -> None:
    # A custom meta-schema (its own dialect) requires `$schema` through a `$ref`ed base, and the
    # documents it judges name it in `$schema`: that member is data here, not an annotation.
    root = make_corpus(
        {
            "meta/base.yaml": yaml(
                """
                $id: http://widgets.example/meta/base.yaml#
                $schema: https://json-schema.org/draft/2019-09/schema
                properties:
                  $schema: {enum: ["http://widgets.example/meta/core.yaml#"]}
                required: [$id, $schema, title]
                """
            ),
            "meta/core.yaml": yaml(
                """
                $id: http://widgets.example/meta/core.yaml#
                $schema: https://json-schema.org/draft/2019-09/schema
                allOf: [{$ref: "http://widgets.example/meta/base.yaml#"}]
                """
            ),
            "bindings/widget.yaml": yaml(
                """
                $id: http://widgets.example/schemas/widget.yaml#
                $schema: http://widgets.example/meta/core.yaml#
                title: A widget
                """
            ),
            "bindings/gadget.yaml": yaml(
                """
                $id: http://widgets.example/schemas/gadget.yaml#
                $schema: http://widgets.example/meta/core.yaml#
                """
            ),
        }
    )
    found = run_rule(root, "instance-invalid")
    assert [(f.location.path, '"title"' in f.message) for f in found] == [
        ("bindings/gadget.yaml", True)
    ]


def test_a_remote_schema_named_by_files_is_coverage_not_a_finding(make_corpus: MakeCorpus) -> None:
    """An editor's modeline naming a published schema: the file is not validated, which the run
    says among what it did not check, one note per file (issue 45)."""
    named = "https://tools.example/schemas/model.json"
    root = make_corpus(
        {
            f"model/{name}.yaml": f"# yaml-language-server: $schema={named}\ngroups: []\n"
            for name in ("a", "b", "c")
        }
        | {"other.json": json.dumps({"$schema": "https://else.example/x.json", "a": 1})}
    )
    outcome = lint(root, Options(cache=False, rules=("instance-invalid",)))
    assert outcome.findings == []
    assert [(n.kind, n.path) for n in outcome.result.coverage] == [
        ("remote-schema", "model/a.yaml"),
        ("remote-schema", "model/b.yaml"),
        ("remote-schema", "model/c.yaml"),
        ("remote-schema", "other.json"),
    ]
    assert "`https://tools.example/schemas/model.json`" in outcome.result.coverage[0].what


# Remote references on what the third ecosystem reading showed (issue 26): a URL whose host is
# a bare word can never resolve (an unresolved-ref warning); the others are not followed, which
# the run says as coverage (issue 45), one note per reference in the file's order.


def test_an_instance_naming_its_schema_by_a_raw_url_of_a_held_file_is_checked(
    make_corpus: MakeCorpus,
) -> None:
    """`$schema: https://raw.githubusercontent.com/o/r/main/schemas/t.json` names this
    repository's own `schemas/t.json`: the instance is judged by it, not left unchecked."""
    raw = "https://raw.githubusercontent.com/acme/widgets/main/schemas/translations.json"
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"lang": {"type": "string", "pattern": "^[a-z]{2}$"}},
    }
    root = make_corpus(
        {
            "schemas/translations.json": json.dumps(schema, indent=2),
            "data/translations.json": json.dumps({"$schema": raw, "lang": "English"}, indent=2),
        }
    )
    [finding] = run(root, "instance-invalid")
    assert finding.severity is Severity.ERROR and "English" in finding.message


def test_a_raw_url_of_a_held_file_discovery_leaves_out_says_where_it_is(
    make_corpus: MakeCorpus,
) -> None:
    """The schema sits in a test folder (a fixture, not loaded): the notice names the file and
    how to have the instance checked, not "not in the corpus"."""
    raw = "https://raw.githubusercontent.com/acme/widgets/main/test/translations_schema.json"
    root = make_corpus(
        {
            "test/translations_schema.json": json.dumps({"type": "object"}),
            "data/translations.json": json.dumps({"$schema": raw, "lang": "en"}, indent=2),
        }
    )
    [notice] = run(root, "instance-invalid")
    assert notice.severity is Severity.INFO
    assert "`test/translations_schema.json` in this repository" in notice.message
    assert "not in the corpus" not in notice.message
