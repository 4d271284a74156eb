"""``closure-policy`` on fixtures written here, one test a case, named after it. The rule: a shape
closed or left open against its role: client-submitted open, branch-closed, or server-emitted
closed."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.model.config import load_config
from speclint.run.catalog import all_rules

# closure-policy and closed-event-union: RFC 0094 §G and §C, by role.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


POLICY = textwrap.dedent(
    """\
    # Compatibility

    ## Schema closure

    - Client-submitted shapes are closed at their outermost composition.
    - Server-emitted shapes stay open, so a host can add an optional field.

    ## Events

    Clients MUST ignore unknown event types on the stream.
    """
)


def api(request: str, response: str) -> str:
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
                    schema: {request}
              responses:
                '201':
                  description: created
                  content:
                    application/json:
                      schema: {response}
        """
    )


ENFORCED = {"enforce": ["client", "server"]}


def run(root: Path, rule: str, options: dict[str, Any] | None = None) -> list[Finding]:
    # These fixtures state no policy unless they say so: closure-policy is told to apply both
    # sides (see test_a_repository_that_states_no_closure_policy_is_not_judged_by_one).
    if options is None:
        options = ENFORCED if rule == "closure-policy" else {}
    return list(all_rules()[rule].check(Context.load(root, load_config(root)), options))


CLOSED = "{type: object, properties: {a: {type: string}}, additionalProperties: false}"


OPEN = "{type: object, properties: {a: {type: string}}}"


@pytest.mark.parametrize(
    ("request_schema", "expected"),
    [
        (CLOSED, None),
        (OPEN, "is open: it has no `additionalProperties: false`"),
        (
            "{allOf: [{properties: {a: {}}}, {properties: {b: {}}}], unevaluatedProperties: false}",
            None,
        ),
        (
            "{allOf: [{properties: {a: {}}}, {properties: {b: {}}}]}",
            "its `allOf` composition has no `unevaluatedProperties: false`",
        ),
        (
            "{oneOf: [{properties: {a: {}}, additionalProperties: false}, {properties: {b: {}}, additionalProperties: false}]}",
            None,
        ),
        (
            "{oneOf: [{properties: {a: {}}, additionalProperties: false}, {properties: {b: {}}}]}",
            "not every `oneOf` alternative is closed",
        ),
        ("{type: object, additionalProperties: {type: string}}", None),  # a map: deliberate
        ("{type: string}", None),  # not an object: closure does not apply
        ("{$ref: '../schemas/options.schema.json', unevaluatedProperties: false}", None),
        ("{$ref: '../schemas/options.schema.json'}", "is open"),
    ],
)
def test_client_submitted_shapes_must_be_closed_at_the_outermost_composition(
    make_corpus: MakeCorpus, request_schema: str, expected: str | None
) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": api(
                request_schema, CLOSED.replace(", additionalProperties: false", "")
            ),
            "schemas/options.schema.json": schema(type="object", properties={"p": {}}),
        }
    )
    found = run(root, "closure-policy")
    if expected is None:
        assert found == []
    else:
        [finding] = found
        assert expected in finding.message
        assert "POST /v1/runs (createRun) request body" in finding.message


def test_closed_allof_branches_are_one_finding_naming_each_branch(make_corpus: MakeCorpus) -> None:
    request = "{allOf: [{properties: {a: {}}, additionalProperties: false}, {$ref: '../schemas/options.schema.json'}]}"
    options = schema(type="object", properties={"p": {}}, additionalProperties=False)
    root = make_corpus(
        {"api/openapi.yaml": api(request, OPEN), "schemas/options.schema.json": options}
    )
    [finding] = run(root, "closure-policy")
    assert "`allOf/0` by `additionalProperties: false`" in finding.message
    assert (
        "`allOf/1` by `additionalProperties: false` (in `schemas/options.schema.json`)"
        in finding.message
    )
    assert "the composition itself is open" in finding.message
    assert finding.location.path == "api/openapi.yaml"
    notes = {(r.path, r.note) for r in finding.related}
    assert ("schemas/options.schema.json", "allOf/1 is closed here") in notes
    assert ("api/openapi.yaml", "allOf/0 is closed here") in notes


def test_server_emitted_shape_closed_at_its_root_cites_the_policy(make_corpus: MakeCorpus) -> None:
    snapshot = schema(type="object", properties={"id": {}}, additionalProperties=False)
    files: dict[str, str | bytes] = {
        "api/openapi.yaml": api(CLOSED, "{$ref: '../schemas/snapshot.schema.json'}"),
        "schemas/snapshot.schema.json": snapshot,
    }
    [finding] = run(make_corpus(files), "closure-policy")
    assert finding.location.path == "schemas/snapshot.schema.json"
    assert finding.location.pointer == "/additionalProperties"
    assert "emitted by POST /v1/runs (createRun) response 201" in finding.message
    assert "COMPATIBILITY.md" not in finding.message  # no policy in this corpus
    with_policy = make_corpus({**files, "COMPATIBILITY.md": POLICY})
    [finding] = run(with_policy, "closure-policy")
    assert 'COMPATIBILITY.md: "Server-emitted shapes stay open' in finding.message
    assert any(r.path == "COMPATIBILITY.md" and r.line == 6 for r in finding.related)
    opened = make_corpus(
        {**files, "schemas/snapshot.schema.json": schema(type="object", properties={"id": {}})}
    )
    assert run(opened, "closure-policy") == []


def test_a_shape_in_both_roles_stays_open_and_is_closed_at_the_client_use(
    make_corpus: MakeCorpus,
) -> None:
    shared = schema(type="object", properties={"id": {}}, additionalProperties=False)
    ref = "{$ref: '../schemas/shared.schema.json'}"
    root = make_corpus({"api/openapi.yaml": api(ref, ref), "schemas/shared.schema.json": shared})
    [finding] = run(root, "closure-policy")
    assert "(also client-submitted)" in finding.message
    assert "`unevaluatedProperties: false` beside the `$ref`" in finding.message
    fixed = make_corpus(
        {
            "api/openapi.yaml": api(ref[:-1] + ", unevaluatedProperties: false}", ref),
            "schemas/shared.schema.json": schema(type="object", properties={"id": {}}),
        }
    )
    assert run(fixed, "closure-policy") == []


def test_roles_override_takes_a_shape_out_of_the_policy(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": api(OPEN, OPEN)})
    assert len(run(root, "closure-policy")) == 1
    (root / "speclint.toml").write_text(
        '[roles]\n"api/openapi.yaml#/paths/~1v1~1runs/post/requestBody/content/application~1json/schema" = "unused"\n'
    )
    assert run(root, "closure-policy") == []


def test_a_repository_that_states_no_closure_policy_is_not_judged_by_one(
    make_corpus: MakeCorpus,
) -> None:
    snapshot = schema(type="object", properties={"id": {}}, additionalProperties=False)
    files: dict[str, str | bytes] = {
        "api/openapi.yaml": api(OPEN, "{$ref: '../schemas/snapshot.schema.json'}"),
        "schemas/snapshot.schema.json": snapshot,
    }
    assert run(make_corpus(files), "closure-policy", {}) == []  # issue 14: OpenWOP's policy
    server_only = POLICY.replace(
        "- Client-submitted shapes are closed at their outermost composition.\n", ""
    )
    found = run(make_corpus({**files, "COMPATIBILITY.md": server_only}), "closure-policy", {})
    assert [f.location.path for f in found] == ["schemas/snapshot.schema.json"]
    both = run(make_corpus({**files, "COMPATIBILITY.md": POLICY}), "closure-policy", {})
    assert len(both) == 2
