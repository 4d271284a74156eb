"""instance-invalid: data files against the schema they name (issue 14, item 5).

Every fixture is written here; none is copied from a public repository.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import count_builds
from speclint.analyses.context import Context
from speclint.analyses.schemas.instance_schemas import InstanceSchemas
from speclint.common.findings import Finding, Severity
from speclint.model.config import load_config
from speclint.rules import instance_invalid
from speclint.run import runner
from speclint.run.catalog import all_rules

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


def run(root: Path) -> list[Finding]:
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
    assert run(make_corpus({"schema/workflow.json": WORKFLOW, **files(good)})) == [], how
    [finding] = run(make_corpus({"schema/workflow.json": WORKFLOW, **files(bad)}))
    assert finding.rule == "instance-invalid" and finding.severity is Severity.ERROR
    assert finding.location.pointer == "/do/0/call", how
    assert '"http2" is not one of ["http", "grpc"]' in finding.message
    assert "(schema/workflow.json)" in finding.message
    assert finding.related[0].path == "schema/workflow.json"


def test_the_error_is_at_the_failing_line(make_corpus: MakeCorpus) -> None:
    page = "# yaml-language-server: $schema=../schema/workflow.json\n" + BAD
    [finding] = run(make_corpus({"schema/workflow.json": WORKFLOW, "examples/order.yaml": page}))
    assert (finding.location.line, finding.location.column) == (4, 5)  # the member `call`


def test_a_schema_outside_the_corpus_is_said_not_checked(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schema/other.json": WORKFLOW,
            "a.yaml": "# yaml-language-server: $schema=./missing.json\n" + GOOD,
            "b.json": json.dumps({"$schema": "https://schemas.example.net/x.json", "a": 1}),
        }
    )
    found = {f.location.path: f for f in run(root)}
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
    assert run(ok) == []
    bad = make_corpus({"s.json": draft4, "i.json": json.dumps({"$schema": "s.json", "port": 0})})
    [finding] = run(bad)
    assert "less than or equal to the minimum of 0" in finding.message


def test_an_unreadable_schema_is_said_and_values_failing_one_rule_are_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"s.json": "{ broken", "i.json": json.dumps({"$schema": "s.json"})})
    [finding] = run(root)
    assert "`s.json` could not be read" in finding.message
    schema = json.dumps(
        {
            "type": "object",
            "properties": {"ids": {"type": "array", "items": {"pattern": "^G[0-9]+$"}}},
        }
    )
    data = {"$schema": "s.json", "ids": ["G1", "x", "y", "G2", "z"]}
    [grouped] = run(make_corpus({"s.json": schema, "i.json": json.dumps(data)}))
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
    [grouped] = run(make_corpus({"s.json": schema, "i.json": json.dumps(data)}))
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
    [finding] = run(root)
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
