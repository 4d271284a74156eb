"""unsatisfiable-schema: the RFC 0094 §A createRun defect, its repair, and the edges."""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from conftest import dedented as yaml_text
from conftest import run_rule, schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.model.config import Config
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def createrun_openapi(closed_branches: bool) -> str:
    inline_close = "\n                  additionalProperties: false" if closed_branches else ""
    composition_close = "" if closed_branches else "\n              unevaluatedProperties: false"
    return textwrap.dedent(
        f"""\
        openapi: 3.1.0
        info: {{title: Runs, version: 1.0.0}}
        paths:
          /v1/runs:
            post:
              operationId: createRun
              requestBody:
                content:
                  application/json:
                    schema:{composition_close}
                      allOf:
                        - type: object
                          required: [workflowId]
                          properties:
                            workflowId: {{type: string}}{inline_close.replace(chr(10) + "                  ", chr(10) + "                          ")}
                        - $ref: '../schemas/run-options.schema.json'
              responses:
                '201': {{description: created}}
        """
    )


def run_options(closed: bool) -> str:
    extra = {"additionalProperties": False} if closed else {}
    return schema(type="object", properties={"priority": {"type": "integer"}}, **extra)


def findings(root: Path, scope: str = "client-submitted") -> list[Finding]:
    return list(all_rules()["unsatisfiable-schema"].check(Context.load(root), {"scope": scope}))


def test_createrun_defect_is_found_with_keyword_and_property(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": createrun_openapi(closed_branches=True),
            "schemas/run-options.schema.json": run_options(True),
        }
    )
    [finding] = findings(root)
    assert finding.location.path == "api/openapi.yaml"
    assert (
        finding.location.pointer
        == "/paths/~1v1~1runs/post/requestBody/content/application~1json/schema"
    )
    assert finding.location.line == 10
    assert (
        "`allOf/1/additionalProperties` (from `schemas/run-options.schema.json`) forbids `workflowId`"
        in finding.message
    )
    assert "which `allOf/0` requires" in finding.message
    assert "unevaluatedProperties: false" in finding.message
    # A generated witness, judged by the real validator, not by the generator.
    assert "(valid for `allOf/0`) is rejected at `allOf/1/additionalProperties`" in finding.message
    assert '"workflowId" was unexpected' in finding.message
    assert finding.related[0].path == "schemas/run-options.schema.json"
    assert finding.related[0].pointer == "/additionalProperties"


def test_repaired_createrun_passes(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": createrun_openapi(closed_branches=False),
            "schemas/run-options.schema.json": run_options(False),
        }
    )
    assert findings(root) == []


def test_boolean_false_and_allof_true_false_are_unsatisfiable(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/never.schema.json": "false\n",
            "schemas/both.schema.json": schema(allOf=[True, False]),
            "schemas/fine.schema.json": schema(allOf=[True, {"type": "string"}]),
        }
    )
    assert findings(root) == []  # schema files are checked only with scope = "all"
    assert sorted(f.location.path for f in findings(root, "all")) == [
        "schemas/both.schema.json",
        "schemas/never.schema.json",
    ]


def test_no_verdict_through_a_missing_reference(make_corpus: MakeCorpus) -> None:
    # `not` of a missing schema would look unsatisfiable if the stand-in were trusted.
    doc = createrun_openapi(closed_branches=False).replace(
        "$ref: '../schemas/run-options.schema.json'",
        "not: {$ref: '../schemas/missing.schema.json'}",
    )
    root = make_corpus({"api/openapi.yaml": doc})
    assert findings(root) == []


@pytest.mark.openwop
def test_openwop_createrun_repaired_passes_and_pre_0094_form_is_found(
    openwop: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "openwop"
    shutil.copytree(openwop, copy, ignore=shutil.ignore_patterns("*.md", "SECURITY"))
    # The snapshot lacks run-options.schema.json; write a minimal one from what run-options.md and
    # RFC 0094 name (configurable, tags, metadata), open at its root as RFC 0094 §A left it.
    options = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "configurable": {"type": "object"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "metadata": {"type": "object"},
        },
    }
    (copy / "schemas/run-options.schema.json").write_text(json.dumps(options))
    config = Config(include=("schemas/**/*.json", "api/openapi.yaml"))
    rule = all_rules()["unsatisfiable-schema"]
    assert list(rule.check(Context.load(copy, config), {})) == []

    api = yaml.safe_load((copy / "api/openapi.yaml").read_text(encoding="utf-8"))
    body = api["paths"]["/v1/runs"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body.pop("unevaluatedProperties") is False  # the snapshot holds the repaired form
    body["allOf"][0]["additionalProperties"] = False
    (copy / "schemas/run-options.schema.json").write_text(
        json.dumps({**options, "additionalProperties": False})
    )
    (copy / "api/openapi.yaml").write_text(json.dumps(api, indent=1))
    [finding] = rule.check(Context.load(copy, config), {})
    assert "createRun" in finding.message
    assert "forbids `workflowId`" in finding.message


def huge_composition(size: int) -> dict[str, object]:
    """allOf of anyOf's: its canonical form multiplies out (3**size branches)."""
    return {
        "allOf": [
            {
                "anyOf": [
                    {"properties": {f"p{i}_{k}": {"type": "string"}}, "required": [f"p{i}_{k}"]}
                    for k in range(3)
                ]
            }
            for i in range(size)
        ]
    }


def test_a_decision_past_its_budget_is_unknown_and_the_run_goes_on() -> None:
    import time

    from speclint.analyses.schemas.satisfiability import NO, TIMED_OUT, Decider

    with Decider([], budget=0.3) as decider:
        started = time.monotonic()
        assert (
            decider.decide(huge_composition(14), "file:///corpus/x.json", stand_in=True)
            == TIMED_OUT
        )
        assert decider.timeouts == 1
        # The killed worker is replaced: the next decision is answered normally.
        assert (
            decider.decide({"allOf": [True, False]}, "file:///corpus/x.json", stand_in=True) == NO
        )
        assert time.monotonic() - started < 30  # bounded by the budget, not by the composition


def test_the_budget_option_reaches_the_rule(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"schemas/huge.schema.json": schema(**huge_composition(14), type="object", maxProperties=0)}
    )
    rule = all_rules()["unsatisfiable-schema"]
    # Not judged, and said so: one info finding for that schema, no verdict.
    (finding,) = rule.check(Context.load(root), {"scope": "all", "budget": 0.3})
    assert finding.severity is Severity.INFO
    assert finding.location.path == "schemas/huge.schema.json"
    assert "not checked" in finding.message and "0.3 s" in finding.message
    assert finding.coverage == "undecided"  # the run lists it as coverage (issue 45)


def test_a_missing_schema_nested_under_not_is_never_a_verdict(make_corpus: MakeCorpus) -> None:
    # run-options.schema.json (present) says `not: {$ref: missing}`: with the stand-in `true` the
    # composition is `false`, with `false` it accepts; the verdict depends on the missing file.
    root = make_corpus(
        {
            "api/openapi.yaml": createrun_openapi(closed_branches=False),
            "schemas/run-options.schema.json": schema(**{"not": {"$ref": "missing.schema.json"}}),
        }
    )
    assert findings(root) == []


def body_openapi(body: str) -> str:
    head = "openapi: 3.1.0\ninfo: {title: T, version: 1.0.0}\npaths:\n  /v1/runs:\n    post:\n"
    head += (
        "      requestBody:\n        content:\n          application/json:\n            schema:\n"
    )
    tail = "      responses:\n        '201': {description: created}\n"
    return head + textwrap.indent(textwrap.dedent(body), " " * 14) + tail


@pytest.mark.parametrize("keyword", ["additionalProperties", "unevaluatedProperties"])
def test_declared_property_that_a_closed_branch_rejects(
    make_corpus: MakeCorpus, keyword: str
) -> None:
    body = f"""\
        allOf:
          - {{type: object, properties: {{workflowId: {{type: string}}}}, {keyword}: false}}
          - {{type: object, properties: {{priority: {{type: integer}}}}}}
        """
    root = make_corpus({"api/openapi.yaml": body_openapi(body)})
    [finding] = findings(root)  # `{}` and `{workflowId}` pass: satisfiable, but `priority` is dead
    assert (
        "property `priority` (declared in `allOf/1`) is declared but no valid instance may carry it"
        in finding.message
    )
    assert f"`allOf/0/{keyword}` forbids it" in finding.message
    assert finding.related[0].pointer.endswith(f"/allOf/0/{keyword}")
    # The evidence: a generated instance with `priority`, valid once closure is relaxed, and
    # rejected by the real composition at the closing keyword.
    witness = re.search(
        r"e\.g\. `(\{.*?\})` \(valid for the composition with its closure", finding.message
    )
    assert witness is not None, finding.message
    assert "priority" in json.loads(witness[1])
    assert f"is rejected at `allOf/0/{keyword}`" in finding.message


def test_closing_the_composition_leaves_every_declared_property_reachable(
    make_corpus: MakeCorpus,
) -> None:
    body = """\
        allOf:
          - {type: object, properties: {workflowId: {type: string}}}
          - {type: object, properties: {priority: {type: integer}}}
        unevaluatedProperties: false
        """
    root = make_corpus({"api/openapi.yaml": body_openapi(body)})
    assert findings(root) == []


def test_a_property_forbidden_on_purpose_is_not_reported(make_corpus: MakeCorpus) -> None:
    forbidden = schema(
        type="object",
        properties={"name": {"type": "string"}, "runtime": {"not": {}}, "legacy": False},
        additionalProperties=False,
    )
    root = make_corpus({"schemas/manifest.schema.json": forbidden})
    assert findings(root, "all") == []


def test_asyncapi_payloads_the_client_sends_are_decided(make_corpus: MakeCorpus) -> None:
    dead = "{allOf: [{type: object, required: [a], properties: {a: {}}, additionalProperties: false}, {required: [b]}]}"
    asyncapi = textwrap.dedent(
        f"""\
        asyncapi: 3.0.0
        info: {{title: Events, version: 1.0.0}}
        channels:
          acks:
            address: /acks
            messages:
              ack: {{payload: {dead}}}
              event: {{payload: {dead}}}
        operations:
          sendAck: {{action: receive, channel: {{$ref: '#/channels/acks'}}, messages: [{{$ref: '#/channels/acks/messages/ack'}}]}}
          emitEvent: {{action: send, channel: {{$ref: '#/channels/acks'}}, messages: [{{$ref: '#/channels/acks/messages/event'}}]}}
        """
    )
    root = make_corpus({"api/asyncapi.yaml": asyncapi})
    # No servers: the document describes the host, so what it receives the client submits.
    [finding] = findings(root)
    assert finding.location.pointer == "/channels/acks/messages/ack/payload"
    assert "operation sendAck (action: receive)" in finding.message
    assert "`allOf/0/additionalProperties` forbids `b`, which `allOf/1` requires" in finding.message


# Issue 45, ecosystem batch 4 at first read: the namespace a corpus publishes read off what
# most of its `$id`s agree on, linked release headings, a private tooling manifest, one finding
# for a string enum of numbers. Every fixture here is our own.


NUMERIC_CODES = yaml_text(
    """
    openapi: 3.0.3
    info: {title: Ledger, version: '1'}
    paths:
      /bills:
        get:
          parameters:
            - name: direction
              in: query
              schema:
                type: string
                enum: [0, 1]
          responses:
            '200': {description: ok}
    """
)


def test_an_enum_its_own_type_rejects_is_reported_when_value_invalid_is_off(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {"api/openapi.yaml": NUMERIC_CODES, "speclint.toml": '[rules]\nvalue-invalid = "off"\n'}
    )
    (finding,) = run_rule(root, "unsatisfiable-schema")
    assert "no instance can satisfy" in finding.message


def test_an_empty_enum_is_still_unsatisfiable(make_corpus: MakeCorpus) -> None:
    # No member for value-invalid to report: the schema is the finding.
    root = make_corpus({"api/openapi.yaml": NUMERIC_CODES.replace("enum: [0, 1]", "enum: []")})
    assert len(run_rule(root, "unsatisfiable-schema")) == 1


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _api(schema: str) -> str:
    return (
        "openapi: 3.1.0\ninfo: {title: Parcels, version: 1.0.0}\npaths:\n  /parcels:\n"
        "    post:\n      requestBody:\n        content:\n          application/json:\n"
        f"            schema: {schema}\n"
        "      responses:\n        '201': {description: created}\n"
    )


def test_unsatisfiable_schema_decides_through_a_missing_reference_when_either_reading_agrees(
    make_corpus: MakeCorpus,
) -> None:
    # a string and an integer at once: no value passes, whatever the missing file would say
    contradiction = "{allOf: [{type: string}, {type: integer}, {$ref: 'gone.schema.json'}]}"
    root = make_corpus({"api/openapi.yaml": _api(contradiction)})
    [finding] = run_rule(root, "unsatisfiable-schema", {})
    assert "no instance can satisfy this schema" in finding.message
    # the control: the missing file alone decides, and nothing is said
    open_ended = "{allOf: [{type: string}, {$ref: 'gone.schema.json'}]}"
    (root / "api/openapi.yaml").write_text(_api(open_ended))
    assert run_rule(root, "unsatisfiable-schema", {}) == []
