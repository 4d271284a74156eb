"""value-invalid (defaults, consts and enum members against their own schema) and the examples
example-invalid now finds at every depth."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from test_unresolved_ref import schema_text
from test_unsatisfiable_schema import NUMERIC_CODES

from conftest import dedented as yaml
from conftest import findings_of, run_rule, schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_default_outside_its_enum_fails_and_passes(make_corpus: MakeCorpus) -> None:
    mode = {"type": "string", "enum": ["sync", "async"], "default": "auto"}
    root = make_corpus(
        {"schemas/run.schema.json": schema(type="object", properties={"mode": mode})}
    )
    [finding] = findings_of("value-invalid", root)
    assert finding.location.pointer == "/properties/mode/default"
    assert finding.location.line == 11
    assert "keyword `enum`" in finding.message and '"auto"' in finding.message
    assert "one of the `enum` values" in finding.message
    assert finding.related[0].pointer == "/properties/mode/enum"
    mode["default"] = "sync"
    (root / "schemas/run.schema.json").write_text(schema(type="object", properties={"mode": mode}))
    assert findings_of("value-invalid", root) == []


def test_enum_member_and_const_against_their_siblings(make_corpus: MakeCorpus) -> None:
    body = {
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": ["running", None]},
            "kind": {"type": "string", "const": 3},
            "level": {"type": "integer", "minimum": 1, "enum": [0, 1, 2]},
        },
    }
    root = make_corpus({"schemas/run.schema.json": schema(**body)})
    found = {f.location.pointer: f for f in findings_of("value-invalid", root)}
    assert set(found) == {
        "/properties/status/enum/1",
        "/properties/kind/const",
        "/properties/level/enum/0",
    }
    assert "add its type to `type`" in found["/properties/status/enum/1"].message
    assert "keyword `minimum`" in found["/properties/level/enum/0"].message
    body["properties"] = {
        "status": {"type": ["string", "null"], "enum": ["running", None]},
        "kind": {"type": "string", "const": "3"},
        "level": {"type": "integer", "minimum": 0, "enum": [0, 1, 2]},
    }
    (root / "schemas/run.schema.json").write_text(schema(**body))
    assert findings_of("value-invalid", root) == []


def test_values_are_judged_in_their_own_dialect(make_corpus: MakeCorpus) -> None:
    """OpenAPI 3.0 `nullable` admits null into an enum; draft-07 ignores a `$ref`'s siblings;
    OpenAPI `default`s are judged here too (issue 28), once, where they are written."""
    openapi = (
        "openapi: 3.0.3\ninfo: {title: Runs, version: 1.0.0}\npaths: {}\n"
        "components:\n  schemas:\n    Run:\n      type: object\n      properties:\n"
        "        status: {type: string, nullable: true, enum: [running, null]}\n"
        "        mode: {type: string, enum: [a, b], default: c}\n"
    )
    draft7 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"m": {"enum": ["y"]}},
        "properties": {"d": {"$ref": "#/definitions/m", "default": "x"}},
    }
    root = make_corpus({"api/openapi.yaml": openapi, "schemas/old.schema.json": json.dumps(draft7)})
    [default] = findings_of("value-invalid", root)
    assert default.location.pointer == "/components/schemas/Run/properties/mode/default"
    (root / "api/openapi.yaml").write_text(openapi.replace("nullable: true, ", ""))
    found = findings_of("value-invalid", root)
    assert [f.location.pointer for f in found] == [
        "/components/schemas/Run/properties/status/enum/1",
        "/components/schemas/Run/properties/mode/default",
    ]


def test_keywords_option_switches_checks_off(make_corpus: MakeCorpus) -> None:
    body = {"properties": {"a": {"type": "string", "enum": ["x"], "default": "y", "const": 1}}}
    root = make_corpus({"schemas/a.schema.json": schema(**body)})
    assert len(findings_of("value-invalid", root)) == 3
    only = findings_of("value-invalid", root, {"keywords": ["const"]})
    assert [f.location.pointer for f in only] == ["/properties/a/const"]


def test_examples_at_every_depth(make_corpus: MakeCorpus) -> None:
    """Response headers, OpenAPI 3.0 schema objects and draft-04 tuple items hold examples too."""
    openapi = (
        "openapi: 3.0.3\ninfo: {title: Runs, version: 1.0.0}\n"
        "paths:\n  /runs:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        "          headers:\n            X-Rate:\n              schema: {type: integer}\n"
        "              example: many\n"
        "components:\n  schemas:\n    Run:\n      type: object\n      properties:\n"
        "        size: {type: integer, example: big}\n"
    )
    draft4 = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "array",
        "items": [{"type": "string"}, {"type": "integer", "examples": ["two"]}],
    }
    root = make_corpus(
        {"api/openapi.yaml": openapi, "schemas/pair.schema.json": json.dumps(draft4, indent=2)}
    )
    found = sorted(f.location.pointer for f in findings_of("example-invalid", root))
    assert found == [
        "/components/schemas/Run/properties/size/example",
        "/items/1/examples/0",
        "/paths/~1runs/get/responses/200/headers/X-Rate/example",
    ]
    (root / "api/openapi.yaml").write_text(
        openapi.replace("example: many", "example: 5").replace("example: big", "example: 3")
    )
    draft4["items"][1]["examples"] = [2]  # type: ignore[index]
    (root / "schemas/pair.schema.json").write_text(json.dumps(draft4))
    assert findings_of("example-invalid", root) == []


SEND_PARAMS = {
    "$defs": {
        "MessageSendParams": {
            "type": "object",
            "properties": {"message": {"type": "string"}, "blocking": {"type": "boolean"}},
            "required": ["message"],
        },
        "AgentSkill": {"type": "object", "properties": {"id": {"type": "string"}}},
    }
}


def test_a_fence_is_tied_to_the_definition_its_heading_or_paragraph_introduces(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Methods\n\n### 7.1. `MessageSendParams` Object\n\n"
        '```json\n{"message": "hi", "blocking": "yes"}\n```\n\n'
        "Request `MessageSendParams` object:\n\n"
        '```json\n{"blocking": 1}\n```\n'
    )
    root = make_corpus({"schemas/api.schema.json": schema(**SEND_PARAMS), "spec/methods.md": page})
    found = findings_of("example-invalid", root)
    assert [(f.location.line, f.related[1].line) for f in found] == [(6, 3), (12, 9)]
    assert all("MessageSendParams" in f.message for f in found)
    fixed = page.replace('"yes"', "true").replace('{"blocking": 1}', '{"blocking": false}')
    (root / "spec/methods.md").write_text(fixed)
    assert findings_of("example-invalid", root) == []


def test_a_text_naming_a_definition_among_other_things_ties_nothing(
    make_corpus: MakeCorpus,
) -> None:
    """ "Each `AgentSkill` maps to a `MessageSendParams`:" is about the fence, not its type; and
    a heading with other words ("Sending `MessageSendParams` twice") is not the object's."""
    page = (
        "# Agents\n\nEach `AgentSkill` maps to one `MessageSendParams`:\n\n"
        '```json\n{"name": "card", "skills": []}\n```\n\n'
        "## Sending `MessageSendParams` twice\n\n"
        '```json\n{"blocking": 1}\n```\n'
    )
    root = make_corpus({"schemas/api.schema.json": schema(**SEND_PARAMS), "spec/agents.md": page})
    assert findings_of("example-invalid", root) == []


def test_a_configured_fence_tie_that_matches_no_heading_is_a_finding(
    make_corpus: MakeCorpus,
) -> None:
    config = (
        "[rules.example-invalid.fences]\n"
        '"spec/methods.md#send-a-mesage" = "schemas/api.schema.json#/$defs/MessageSendParams"\n'
        '"spec/gone.md" = "schemas/api.schema.json"\n'
    )
    root = make_corpus(
        {
            "schemas/api.schema.json": schema(**SEND_PARAMS),
            "spec/methods.md": "# Methods\n\n## Send a message\n\nText.\n",
            "speclint.toml": config,
        }
    )
    from speclint.model.config import load_config

    corpus = Context.load(root, load_config(root))
    options = corpus.config.rule_options.get("example-invalid", {})
    found = sorted(
        list(all_rules()["example-invalid"].check(corpus, options)), key=lambda f: f.location.line
    )
    assert [(f.location.line, f.severity.label) for f in found] == [(2, "warning"), (3, "warning")]
    assert {f.location.path for f in found} == {"speclint.toml"}
    assert "did you mean `#send-a-message`" in found[0].message
    assert "names no Markdown page" in found[1].message
    (root / "speclint.toml").write_text(
        config.replace("mesage", "message").replace(
            '"spec/gone.md" = "schemas/api.schema.json"\n', ""
        )
    )
    corpus = Context.load(root, load_config(root))
    assert (
        list(
            all_rules()["example-invalid"].check(
                corpus, corpus.config.rule_options.get("example-invalid", {})
            )
        )
        == []
    )


def test_a_draft_04_property_named_id_is_no_crash(make_corpus: MakeCorpus) -> None:
    """Reaching `#/properties/kind` steps through the `properties` map, whose `id` member is a
    schema, not a draft-04 id: `referencing` called `.startswith` on it (SchemaStore's
    specif-1.0.json)."""
    body = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "items": {
            "oneOf": [
                {
                    "properties": {
                        "id": {"type": "string"},
                        "kind": {"type": "string", "enum": ["a", 2]},
                    }
                }
            ]
        },
    }
    root = make_corpus({"schemas/odd.schema.json": json.dumps(body)})
    [finding] = findings_of("value-invalid", root)
    assert finding.location.pointer == "/items/oneOf/0/properties/kind/enum/1"


def test_defaults_that_say_none_by_convention(make_corpus: MakeCorpus) -> None:
    body = {
        "properties": {
            "name": {"type": "string", "default": None},
            "limits": {"type": "object", "required": ["max"], "default": {}},
            "tags": {"type": "array", "minItems": 1, "default": []},
            "port": {"type": "integer", "default": "8080"},
        }
    }
    root = make_corpus({"schemas/a.schema.json": schema(**body)})
    [finding] = findings_of("value-invalid", root)
    assert finding.location.pointer == "/properties/port/default"


def test_a_large_enum_keeps_json_schema_equality() -> None:
    """Enums of 16 or more members are checked by hashing: `1.0` is the member `1`, `true` is not
    `1`, and arrays and objects still compare by value."""
    from speclint.analyses.schemas.validation import safe_validator_class

    members: list[object] = [f"v{i}" for i in range(20)] + [1, False, None, [1, 2], {"a": 1}]
    validator = safe_validator_class({})({"enum": members})
    for accepted in ("v7", 1.0, 1, False, None, [1, 2], {"a": 1}):
        assert validator.is_valid(accepted), accepted
    for rejected in ("v20", True, 0, 2, [2, 1], {"a": 2}, [1]):
        assert not validator.is_valid(rejected), rejected


def test_a_schema_object_whose_schema_is_no_string_is_left_and_the_rest_is_checked(
    make_corpus: MakeCorpus,
) -> None:
    """A `"$schema": 5` inside a schema is schema-invalid's to report; value-invalid leaves that
    object's values unjudged and judges the others (it looks each object up once, and the look-up
    of that one raised out of the rule: an internal error, every finding of the file lost)."""
    body = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "bad": {"$schema": 5, "type": "string", "enum": ["x", 1]},
            "other": {"type": "string", "enum": ["y", 2]},
        },
    }
    root = make_corpus({"schemas/run.schema.json": json.dumps(body, indent=1)})
    found = findings_of("value-invalid", root)
    assert [f.location.pointer for f in found] == ["/properties/other/enum/1"]


CODES = yaml(
    """
    openapi: 3.0.3
    info: {title: Codes, version: '1'}
    paths: {}
    components:
      schemas:
        Reason:
          type: string
          enum:
            - '07'
            - 08
            - x
        Interval:
          type: string
          enum: [D, 240, '5']
    """
)


def test_an_enum_its_own_type_rejects_is_one_finding(make_corpus: MakeCorpus) -> None:
    # value-invalid reports the members that break one keyword once, at the first, each of
    # them a member (a waiver of one covers that one); the schema they leave empty is the same
    # defect, not a second finding.
    root = make_corpus({"api/openapi.yaml": NUMERIC_CODES})
    [finding] = run_rule(root, "value-invalid")
    assert "(1 more `enum` member the same way" in finding.message
    assert [m.location.pointer for m in finding.members] == [
        "/paths/~1bills/get/parameters/0/schema/enum/0",
        "/paths/~1bills/get/parameters/0/schema/enum/1",
    ]
    assert run_rule(root, "unsatisfiable-schema") == []


def test_enum_members_breaking_different_keywords_are_told_apart(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        "schemas/code.json": schema_text(
            "https://example.org/code.json",
            type="string",
            maxLength=3,
            enum=["abc", "toolong", 4, 5],
        )
    }
    found = run_rule(make_corpus(files), "value-invalid")
    assert sorted(f.location.pointer or "" for f in found) == ["/enum/1", "/enum/2"]


def test_an_unquoted_number_in_a_string_enum_is_told_to_be_quoted(
    make_corpus: MakeCorpus,
) -> None:
    findings = run_rule(make_corpus({"api/openapi.yaml": CODES}), "value-invalid")
    advice = sorted(f.message.split("; ", 1)[1] for f in findings)
    assert advice == [
        'written unquoted, `08`, YAML reads it as a number: quote it (`"08"`)',
        'written unquoted, `240`, YAML reads it as a number: quote it (`"240"`)',
    ]


def test_a_number_in_a_json_string_enum_keeps_its_advice(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/code.json": schema_text(
            "https://example.org/code.json", type="string", enum=["a", 2]
        )
    }
    (finding,) = run_rule(make_corpus(files), "value-invalid")
    assert "remove the member from the `enum`, or add its type to `type`" in finding.message


def errors(found: list[Finding]) -> list[Finding]:
    return [f for f in found if f.severity is Severity.ERROR]


def test_placeholder_defaults_are_one_info_and_wrong_types_stay_errors(
    make_corpus: MakeCorpus,
) -> None:
    body = {
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": ["app", "lib"], "default": ""},
            "serial": {"type": "string", "pattern": "^urn:", "default": ""},
            "limit": {"type": "integer", "maximum": 9007199254740991, "default": 2**63 - 1},
            "version": {"type": "string", "enum": ["0.1.0", "0.2.0"], "default": "latest"},
            "port": {"type": "integer", "default": ""},
            "mode": {"enum": ["sync", "async"], "default": "auto"},
            "step": {"type": "string", "enum": ["a", "b"], "default": "latest"},
        },
    }
    root = make_corpus({"schemas/conf.schema.json": schema(**body)})
    found = findings_of("value-invalid", root)
    assert sorted(f.location.pointer or "" for f in errors(found)) == [
        "/properties/mode/default",
        "/properties/port/default",
        "/properties/step/default",
    ]
    [info] = [f for f in found if f.severity is Severity.INFO]
    assert "4 defaults" in info.message
    assert info.location.pointer == "/properties/kind/default"
    assert {r.pointer for r in info.related} == {
        "/properties/serial/default",
        "/properties/limit/default",
        "/properties/version/default",
    }
    assert len(info.terminal_message.split("\n")[0]) <= 200


# The corpus-integrity rules, each with the PASS and FAIL cases of its docstring.


OPENAPI_HEAD = "openapi: 3.1.0\ninfo:\n  title: Runs\n  version: 1.0.0\n"


_SCHEMA_DEFECTS = {  # defect: (the schema, where the finding points in 3.0 and in 3.1)
    "a valid document": ("", None),
    "a schema of the wrong type": ("{type: 5}", "/type"),
    "a discriminator that is not an object": ("{discriminator: 5}", "/discriminator"),
    "a required list of numbers": ("{type: object, required: [1]}", "/required"),
    "a property schema that is a string": ("{properties: {id: nope}}", "/properties/id"),
    "a default that breaks its schema": ("{type: integer, default: soon}", "/default"),
    "an unknown dialect": ("{$schema: 'https://example.org/dialect'}", ""),
    # A schema object naming a JSON Schema dialect is judged by that dialect's metaschema
    # (jsonschema-rs first there too, issue 16).
    "a 2020-12 schema of the wrong type": (
        "{$schema: 'https://json-schema.org/draft/2020-12/schema', type: 5}",
        "/type",
    ),
}


@pytest.mark.parametrize("defect", sorted(_SCHEMA_DEFECTS))
@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_openapi_invalid_judges_schemas_as_openapi_spec_validator_does(
    make_corpus: MakeCorpus, defect: str, version: str
) -> None:
    # The rule judges with jsonschema-rs first and asks the Python validators only about what it
    # rejects (issue 13: a 20 MB document did not finish); the verdicts must stay the library's
    # own, on every OpenAPI version's walker, each placed at the schema that is wrong.
    import yaml
    from openapi_spec_validator.shortcuts import get_validator_cls

    bad, where = _SCHEMA_DEFECTS[defect]
    chain = "".join(
        f"    S{i}:\n      type: object\n      properties:\n"
        f"        next: {{$ref: '#/components/schemas/S{i + 1}'}}\n"
        for i in range(40)
    )
    doc = (
        OPENAPI_HEAD.replace("3.1.0", version)
        + "paths:\n  /runs:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        + "          content: {application/json: {schema: {$ref: '#/components/schemas/S0'}}}\n"
        + "components:\n  schemas:\n"
        + chain
        + "    S40: {type: string}\n"
        + (f"    Bad: {bad}\n" if bad else "")
    )
    root = make_corpus({"api/openapi.yaml": doc})
    data = yaml.safe_load(doc)
    library = list(get_validator_cls(data)(data).iter_errors())
    found = findings_of("openapi-invalid", root)
    if where == "/default":
        # The library's verdict, given once at the default by value-invalid (issue 28).
        assert library and not found, (found, library)
        [value] = findings_of("value-invalid", root)
        assert value.location.pointer == "/components/schemas/Bad/default"
        return
    assert bool(found) == bool(library) == bool(bad), (found, library)
    for finding in found:
        assert finding.location.pointer.startswith("/components/schemas/Bad"), finding
        assert finding.location.line == doc.count("\n", 0, doc.index("    Bad:")) + 1
    if found and version == "3.1.0":
        # 3.0's structural schema already rejects the schema object as a whole
        assert any(f.location.pointer.startswith(f"/components/schemas/Bad{where}") for f in found)


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_value_invalid_skips_a_schema_whose_references_do_not_resolve(
    make_corpus: MakeCorpus,
) -> None:
    # what the missing schema allows is unknown: the default may be its to accept or refuse
    size = {"allOf": [{"$ref": "units.schema.json"}], "type": "string", "default": 3}
    root = make_corpus({"schemas/parcel.schema.json": schema(properties={"size": size})})
    assert run_rule(root, "value-invalid", {}) == []
    # the control: with the referenced schema present, the integer default fails `type: string`
    (root / "schemas/units.schema.json").write_text(schema(minLength=1))
    [finding] = run_rule(root, "value-invalid", {})
    assert finding.location.pointer == "/properties/size/default"
