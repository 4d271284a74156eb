"""The corpus-integrity rules, each with the PASS and FAIL cases of its docstring."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from jsonschema import validators

from conftest import schema
from speclint.analyses.context import Context
from speclint.analyses.schemas.validation import install_safe_patterns
from speclint.common.findings import Finding
from speclint.rules import unresolved_ref
from speclint.run.catalog import all_rules
from speclint.run.coverage import Note, of_corpus


def findings_of(rule: str, root: Path) -> list[Finding]:
    corpus = Context.load(root)
    return list(all_rules()[rule].check(corpus, {}))


MakeCorpus = Callable[[dict[str, str | bytes]], Path]

OPENAPI_HEAD = "openapi: 3.1.0\ninfo:\n  title: Runs\n  version: 1.0.0\n"
ASYNCAPI_HEAD = "asyncapi: 3.0.0\ninfo:\n  title: Run events\n  version: 1.2.0\n"


def test_parse_error_fail_and_pass(make_corpus: MakeCorpus) -> None:
    broken = '{\n  "type": "object",\n  "required": ["id"],\n}\n'
    root = make_corpus(
        {"schemas/run.schema.json": broken, "schemas/ok.schema.json": schema(type="object")}
    )
    [finding] = findings_of("parse-error", root)
    assert (finding.location.path, finding.location.line, finding.location.column) == (
        "schemas/run.schema.json",
        3,
        21,
    )
    # At the trailing comma itself, named as what it is (not "expected a property name" on the
    # next line, where the decoder gave up).
    assert "trailing comma before `}`" in finding.message
    (root / "schemas/run.schema.json").write_text(schema(type="object", required=["id"]))
    assert findings_of("parse-error", root) == []


def test_parse_error_for_binary_and_non_utf8_files(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/blob.schema.json": b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR",
            "spec/latin1.md": "# Caf\xe9\n".encode("latin-1"),
        }
    )
    found = {f.location.path: f for f in findings_of("parse-error", root)}
    assert "binary" in found["schemas/blob.schema.json"].message
    assert "UTF-8" in found["spec/latin1.md"].message
    assert found["spec/latin1.md"].location.line == 1


def test_duplicate_key_fail_and_pass(make_corpus: MakeCorpus) -> None:
    doc = (
        OPENAPI_HEAD
        + "paths: {}\ncomponents:\n  schemas:\n    Run:\n      properties:\n        status:\n          type: string\n        status:\n          enum: [running, done]\n"
    )
    root = make_corpus({"api/openapi.yaml": doc})
    [finding] = findings_of("duplicate-key", root)
    assert finding.location.line == 12
    assert finding.related[0].line == 10
    assert "`status`" in finding.message
    (root / "api/openapi.yaml").write_text(
        doc.replace("        status:\n          enum", "        state:\n          enum")
    )
    assert findings_of("duplicate-key", root) == []


@pytest.mark.parametrize("name", ["config.json", "config.yaml"])
def test_duplicate_key_with_the_same_value_is_a_warning(make_corpus: MakeCorpus, name: str) -> None:
    same = '{"options": {"strict": true, "paths": {"a": [1]}, "strict": true, "paths": {"a": [1]}}}'
    root = make_corpus({name: same})
    found = findings_of("duplicate-key", root)
    assert [f.severity.label for f in found] == ["warning", "warning"]
    assert all("with the same value" in f.message for f in found)


@pytest.mark.parametrize(
    "first, again",
    [("true", "false"), ("1", "true"), ("1", "1.0"), ('{"a": [1]}', '{"a": [2]}')],
)
def test_duplicate_key_with_another_value_stays_an_error(
    make_corpus: MakeCorpus, first: str, again: str
) -> None:
    root = make_corpus({"config.json": f'{{"strict": {first}, "strict": {again}}}'})
    [finding] = findings_of("duplicate-key", root)
    assert finding.severity.label == "error" and "parsers keep only one" in finding.message


def test_duplicates_are_listed_as_written_outer_before_inner(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"config.json": '{"a": 1, "a": {"b": 1, "b": 2}}'})
    assert [f.location.pointer for f in findings_of("duplicate-key", root)] == ["/a", "/a/b"]


def test_schema_invalid_fail_and_pass(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schemas/run.schema.json": schema(type="object", required="runId")})
    [finding] = findings_of("schema-invalid", root)
    assert finding.location.pointer == "/required"
    assert 'not of type "array"' in finding.message
    (root / "schemas/run.schema.json").write_text(schema(type="object", required=["runId"]))
    assert findings_of("schema-invalid", root) == []


def test_schema_invalid_uses_the_declared_dialect(make_corpus: MakeCorpus) -> None:
    # draft-04's exclusiveMinimum is a boolean; a number is invalid there and valid in 2020-12.
    draft4 = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "minimum": 1,
        "exclusiveMinimum": 1,
    }
    root = make_corpus(
        {
            "schemas/a.schema.json": json.dumps(draft4),
            "schemas/b.schema.json": schema(exclusiveMinimum=1),
        }
    )
    found = findings_of("schema-invalid", root)
    assert [f.location.path for f in found] == ["schemas/a.schema.json"]


def test_schema_invalid_unknown_dialect(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/a.schema.json": json.dumps(
                {"$schema": "https://json-schema.org/draft/2099/schema"}
            )
        }
    )
    assert any("unknown dialect" in f.message for f in findings_of("schema-invalid", root))


def test_openapi_invalid_fail_and_pass(make_corpus: MakeCorpus) -> None:
    doc = OPENAPI_HEAD + (
        "paths:\n  /v1/runs/{runId}:\n    get:\n      parameters:\n        - {name: runId, in: path, required: true, schema: {type: string}}\n"
        "      responses:\n        '200':\n          content: {application/json: {schema: {type: object}}}\n"
    )
    root = make_corpus({"api/openapi.yaml": doc})
    [finding] = findings_of("openapi-invalid", root)
    assert '"description" is a required property' in finding.message
    assert finding.location.pointer == "/paths/~1v1~1runs~1{runId}/get/responses/200"
    assert finding.location.line == 11
    (root / "api/openapi.yaml").write_text(
        doc.replace("'200':\n", "'200':\n          description: The run.\n")
    )
    assert findings_of("openapi-invalid", root) == []


def test_openapi_invalid_locates_the_semantic_errors_at_their_nodes(
    make_corpus: MakeCorpus,
) -> None:
    """openapi-spec-validator's own checks carry no path: each is placed at its node, a repeated
    name at the repetition with the first as related, and no `<unset>` keyword."""
    doc = OPENAPI_HEAD + (
        "tags:\n  - name: runs\n  - name: runs\n"
        "paths:\n  /v1/runs:\n    get:\n      operationId: listRuns\n"
        "      responses: {'200': {description: ok}}\n"
        "    post:\n      operationId: listRuns\n      responses: {'200': {description: ok}}\n"
        "  /v1/runs/{runId}:\n    get:\n      operationId: getRun\n      parameters:\n"
        "        - {name: verbose, in: query, schema: {type: boolean}}\n"
        "        - {name: verbose, in: query, schema: {type: boolean}}\n"
        "      responses: {'200': {description: ok}}\n"
    )
    root = make_corpus({"api/openapi.yaml": doc})
    found = {f.location.pointer: f for f in findings_of("openapi-invalid", root)}
    assert all("<unset>" not in f.message for f in found.values())
    operation = found["/paths/~1v1~1runs/post/operationId"]
    assert (operation.location.line, operation.location.column) == (14, 7)
    assert '"listRuns"' in operation.message and "operationId of its own" in operation.message
    [first] = operation.related
    assert (first.line, first.pointer) == (11, "/paths/~1v1~1runs/get/operationId")
    parameter = found["/paths/~1v1~1runs~1{runId}/get/parameters/1/name"]
    assert parameter.location.line == 21
    assert parameter.related[0].pointer.endswith("/parameters/0/name")
    assert found["/tags/1/name"].related[0].line == 6
    unresolved = found["/paths/~1v1~1runs~1{runId}/get"]
    assert '"runId"' in unresolved.message and unresolved.location.line == 17
    fixed = (
        doc.replace(
            "    post:\n      operationId: listRuns", "    post:\n      operationId: startRun"
        )
        .replace("  - name: runs\n  - name: runs\n", "  - name: runs\n")
        .replace(
            "        - {name: verbose, in: query, schema: {type: boolean}}\n" * 2,
            "        - {name: verbose, in: query, schema: {type: boolean}}\n"
            "        - {name: runId, in: path, required: true, schema: {type: string}}\n",
        )
    )
    (root / "api/openapi.yaml").write_text(fixed)
    assert findings_of("openapi-invalid", root) == []


def test_openapi_invalid_still_checks_past_a_missing_ref(make_corpus: MakeCorpus) -> None:
    doc = OPENAPI_HEAD + (
        "paths:\n  /v1/runs:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        "          content: {application/json: {schema: {$ref: '../schemas/missing.schema.json'}}}\n"
        "    post:\n      responses:\n        '201':\n          content: {}\n"
    )
    root = make_corpus({"api/openapi.yaml": doc})
    assert any("description" in f.message for f in findings_of("openapi-invalid", root))


def test_asyncapi_invalid_fail_and_pass(make_corpus: MakeCorpus) -> None:
    doc = ASYNCAPI_HEAD + "  contact: spec-team@example.org\n"
    root = make_corpus({"api/asyncapi.yaml": doc})
    [finding] = findings_of("asyncapi-invalid", root)
    assert finding.location.pointer == "/info/contact"
    assert finding.location.line == 5
    (root / "api/asyncapi.yaml").write_text(
        ASYNCAPI_HEAD + "  contact:\n    email: spec-team@example.org\n"
    )
    assert findings_of("asyncapi-invalid", root) == []


def test_asyncapi_invalid_explains_the_branch_the_author_wrote(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"api/asyncapi.yaml": ASYNCAPI_HEAD + "channels:\n  runEvents:\n    address: 5\n"}
    )
    [finding] = findings_of("asyncapi-invalid", root)
    assert finding.location.pointer == "/channels/runEvents/address"


def test_asyncapi_unknown_version(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/asyncapi.yaml": ASYNCAPI_HEAD.replace("3.0.0", "9.9.9")})
    [finding] = findings_of("asyncapi-invalid", root)
    assert "9.9.9" in finding.message and "3.0.0" in finding.message


def test_unresolved_ref_groups_sites_per_missing_file(make_corpus: MakeCorpus) -> None:
    refs = "".join(
        f"  /v1/r{i}:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        f"          content: {{application/json: {{schema: {{$ref: '../schemas/error-envelope.schema.json'}}}}}}\n"
        for i in range(3)
    )
    root = make_corpus({"api/openapi.yaml": OPENAPI_HEAD + "paths:\n" + refs})
    [finding] = findings_of("unresolved-ref", root)
    assert "schemas/error-envelope.schema.json` does not exist" in finding.message
    assert len(finding.related) == 2
    (root / "schemas").mkdir()
    (root / "schemas/error-envelope.schema.json").write_text(schema(type="object"))
    assert findings_of("unresolved-ref", root) == []


def test_unresolved_ref_past_its_related_limit_counts_the_sites_left_out(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(unresolved_ref, "RELATED_LIMIT", 2)
    refs = "".join(
        f"  /v1/r{i}:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        f"          content: {{application/json: {{schema: {{$ref: '../schemas/gone.json'}}}}}}\n"
        for i in range(5)
    )
    root = make_corpus({"api/openapi.yaml": OPENAPI_HEAD + "paths:\n" + refs})
    [finding] = findings_of("unresolved-ref", root)
    assert "5 `$ref`s point to it." in finding.message
    assert "all listed" not in finding.message
    assert finding.message.endswith(
        "\nThe related locations list 2 of its 4 other `$ref`s, and 2 more are not listed"
    )
    assert len(finding.related) == 2
    # `$id`s no schema declares, one generated family under one folder: the same
    (root / "api/openapi.yaml").unlink()
    refs = [{"$ref": f"https://example.org/store/{v}.json"} for v in range(4)]
    root = make_corpus(
        {"schemas/all.json": schema(**{"$id": "https://example.org/all.json", "oneOf": refs})}
    )
    [family] = findings_of("unresolved-ref", root)
    assert "and 3 more). Add the schemas" in family.message
    assert family.message.endswith("list 2 of its 3 other `$ref`s, and 1 more is not listed")


def test_unresolved_ref_missing_pointer_and_id_base(make_corpus: MakeCorpus) -> None:
    common = schema(
        **{
            "$id": "https://acme.example/schemas/common.schema.json",
            "$defs": {"Id": {"type": "string"}},
        }
    )
    run = schema(
        **{
            "$id": "https://acme.example/schemas/run.schema.json",
            "properties": {
                "id": {"$ref": "common.schema.json#/$defs/Id"},
                "x": {"$ref": "common.schema.json#/$defs/Idd"},
            },
        }
    )
    root = make_corpus({"schemas/common.schema.json": common, "schemas/run.schema.json": run})
    [finding] = findings_of("unresolved-ref", root)
    assert finding.location.pointer == "/properties/x/$ref"
    assert "`/$defs/Idd`" in finding.message


def test_unresolved_ref_reports_a_cycle_once(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/a.schema.json": schema(**{"$ref": "b.schema.json"}),
            "schemas/b.schema.json": schema(**{"$ref": "a.schema.json"}),
            "schemas/tree.schema.json": schema(
                type="object", properties={"children": {"type": "array", "items": {"$ref": "#"}}}
            ),
        }
    )
    [finding] = findings_of("unresolved-ref", root)
    assert "circular $ref chain" in finding.message
    assert "a.schema.json" in finding.message and "b.schema.json" in finding.message


def remote_notes(corpus: Context) -> list[Note]:
    return [note for note in of_corpus(corpus) if note.kind == "remote-ref"]


def test_a_remote_ref_is_not_followed_and_ref_map_maps_it(make_corpus: MakeCorpus) -> None:
    doc = schema(properties={"envelope": {"$ref": "https://schemas.example.net/envelope.json"}})
    root = make_corpus({"schemas/run.schema.json": doc})
    [note] = remote_notes(Context.load(root))
    assert (note.path, note.line) == ("schemas/run.schema.json", 5)
    assert findings_of("unresolved-ref", root) == []
    (root / "speclint.toml").write_text(
        'include = ["schemas/**/*.json"]\n[ref-map]\n"https://schemas.example.net/" = "vendor/"\n'
    )
    (root / "vendor").mkdir()
    (root / "vendor/envelope.json").write_text(schema(type="object"))
    from speclint.model.config import load_config

    corpus = Context.load(root, load_config(root))
    assert remote_notes(corpus) == []
    [missing] = all_rules()["unresolved-ref"].check(corpus, {})
    assert "did not load (check `include`)" in missing.message  # vendor/ is outside the globs
    (root / "speclint.toml").write_text(
        'include = ["schemas/**/*.json", "vendor/**/*.json"]\n'
        '[ref-map]\n"https://schemas.example.net/" = "vendor/"\n'
    )
    corpus = Context.load(root, load_config(root))
    assert remote_notes(corpus) == []
    assert list(all_rules()["unresolved-ref"].check(corpus, {})) == []


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


def test_openapi_invalid_reads_patterns_as_ecma_262(make_corpus: MakeCorpus) -> None:
    # JSON Schema patterns are ECMA-262 (2020-12 Validation, section 6.3.3): Unicode property
    # escapes and `(?<name>...)` groups are valid there, though Python's `re` rejects them.
    def schemas(pattern: str) -> Path:
        doc = OPENAPI_HEAD + (
            "paths: {}\ncomponents:\n  schemas:\n"
            f"    Name: {{type: string, pattern: '{pattern}'}}\n"
        )
        return make_corpus({"api/openapi.yaml": doc})

    assert findings_of("openapi-invalid", schemas(r"^\p{L}+$")) == []
    assert findings_of("openapi-invalid", schemas(r"^(?<word>\w+)$")) == []
    [broken] = findings_of("openapi-invalid", schemas("^(("))
    assert broken.location.pointer == "/components/schemas/Name/pattern"
    assert 'is not a "regex"' in broken.message


def test_openapi_invalid_judges_jsonschema_dialects_first_with_the_run_s_classes(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A schema object naming a JSON Schema dialect (`$schema`) is judged by jsonschema-rs
    first also with the run's time-limited draft classes registered, as every run has them
    (``install_safe_patterns``): their ``check_schema`` is jsonschema's, in a function of its
    own. They were missed, and such objects went to the Python metaschema validator alone
    (0.7 s of a cold check of OpenWOP, nine schema objects)."""
    install_safe_patterns()
    dialect = "https://json-schema.org/draft/2020-12/schema"
    registered = validators.validator_for({"$schema": dialect})
    asked: list[object] = []
    original = registered.iter_errors

    def counting(self: object, instance: object, *args: object, **kwargs: object) -> object:
        asked.append(instance)
        return original(self, instance, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(registered, "iter_errors", counting)
    doc = OPENAPI_HEAD + (
        "paths: {}\ncomponents:\n  schemas:\n"
        f"    Name:\n      $schema: {dialect}\n      type: string\n      pattern: '^[a-z]+$'\n"
    )
    assert findings_of("openapi-invalid", make_corpus({"api/openapi.yaml": doc})) == []
    assert asked == []
    # A schema it rejects is still explained by the Python validator, at its place.
    broken = doc.replace("type: string", "type: strin")
    [finding] = findings_of("openapi-invalid", make_corpus({"api/openapi.yaml": broken}))
    assert finding.location.pointer.startswith("/components/schemas/Name"), finding
    assert asked


@pytest.mark.parametrize(
    ("pattern", "invalid"),
    [(r"^\p{L}+$", False), (r"[\d-z]", False), (r"\h", False), ("(?i)a", True), ("(?P<x>a)", True)],
)
def test_a_schema_object_naming_its_dialect_reads_patterns_as_ecma_262_too(
    make_corpus: MakeCorpus, pattern: str, invalid: bool
) -> None:
    """With `$schema` in the object (and the run's time-limited draft classes registered, as in
    every run), a `pattern` is still judged by OpenAPI 3.1's ECMA-262 `regex` format, as the
    library judges it: not by Python's `re` (which accepts `(?i)a` and rejects `[\\d-z]`)."""
    install_safe_patterns()
    doc = OPENAPI_HEAD + (
        "paths: {}\ncomponents:\n  schemas:\n"
        "    Name:\n      $schema: https://json-schema.org/draft/2020-12/schema\n"
        f"      type: string\n      pattern: '{pattern}'\n"
    )
    found = findings_of("openapi-invalid", make_corpus({"api/openapi.yaml": doc}))
    assert bool(found) == invalid, found
    for finding in found:
        assert finding.location.pointer == "/components/schemas/Name/pattern"
        assert 'is not a "regex"' in finding.message


def test_a_schema_object_naming_its_dialect_is_reported_at_its_first_error_as_written(
    make_corpus: MakeCorpus,
) -> None:
    """As an object without `$schema` is: the error that comes first in the object as written
    (`format` before `minLength` here), not the first the metaschema validator yields."""
    install_safe_patterns()
    doc = OPENAPI_HEAD + (
        "paths: {}\ncomponents:\n  schemas:\n"
        "    Name:\n      $schema: https://json-schema.org/draft/2020-12/schema\n"
        "      type: string\n      format: 5\n      minLength: -1\n"
    )
    [finding] = findings_of("openapi-invalid", make_corpus({"api/openapi.yaml": doc}))
    assert finding.location.pointer == "/components/schemas/Name/format", finding


def test_schema_invalid_asks_the_python_validator_only_about_rejected_schemas(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """jsonschema-rs judges first; the slower validator explains only what it rejects, with the
    same findings as before (issue 16)."""
    import speclint.rules.schema_invalid as rule

    asked: list[object] = []
    original = rule.located_errors

    def counting(validator: object, part: object, limit: int) -> object:
        asked.append(part)
        return original(validator, part, limit)  # type: ignore[arg-type]

    monkeypatch.setattr(rule, "located_errors", counting)
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}
    root = make_corpus(
        {
            "schemas/ok.schema.json": schema(type="object", properties={"a": {"type": "string"}}),
            "schemas/old.schema.json": json.dumps(draft7),
            "schemas/bad.schema.json": schema(type="objekt"),
        }
    )
    [finding] = findings_of("schema-invalid", root)
    assert finding.location.path == "schemas/bad.schema.json" and "objekt" in finding.message
    assert len(asked) == 1
