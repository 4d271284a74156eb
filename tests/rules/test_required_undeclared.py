"""``required-undeclared`` on fixtures written here, one test a case, named after it. The rule: a
``required`` name that no ``properties`` or ``patternProperties`` in scope declares."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import findings_of, run_cli, run_rule
from conftest import schema as conftest_schema
from speclint.common.findings import Finding, Severity
from speclint.parsing.versions import maintained_copies, version_lines, version_place
from speclint.run.engine import Options, lint

# Released snapshots kept beside the maintained text (issue 45, batch 6), each on a fixture of ours.
#
# A folder named for a release that copies its parent's files (``examples/2026-04-17/`` beside
# ``examples/``, ``documents/v1.1-document-set/`` beside ``documents/``, Docusaurus's
# ``versioned_docs/version-X/`` beside ``docs/``) is frozen: a defect it shares with the maintained
# copy is one finding there, with the snapshot a related location; one only the snapshot has is
# history (``released-versions``, ``speclint.run.history``).


DRAFT_04 = "http://json-schema.org/draft-04/schema#"
DRAFT_07 = "http://json-schema.org/draft-07/schema#"

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def schema(*required: str) -> str:
    return json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {"id": {"type": "string"}},
            "required": list(required),
        },
        indent=2,
    )


def found(root: Path, *rules: str) -> list[Finding]:
    return lint(root, Options(cache=False, rules=rules)).findings


def test_a_dated_snapshot_folder_folds_into_the_maintained_copy_beside_it(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            # The parent's file is the one still edited; `2026-04-17/` is its copy at release.
            "examples/order.json": schema("idd"),
            "examples/2026-04-17/order.json": schema("idd"),
            "examples/2026-01-30/order.json": schema("idd", "gone"),
        }
    )
    findings = found(root, "required-undeclared")
    [repeated] = [f for f in findings if "`idd`" in f.message]
    assert repeated.location.path == "examples/order.json"
    assert repeated.severity is Severity.WARNING
    assert {r.path for r in repeated.related if r.note and "frozen" in r.note} == {
        "examples/2026-04-17/order.json",
        "examples/2026-01-30/order.json",
    }
    # What only a release has is said once, at info: the release does not change.
    [gone] = [f for f in findings if "`gone`" in f.message]
    assert gone.location.path == "examples/2026-01-30/order.json"
    assert gone.severity is Severity.INFO
    assert len(findings) == 2


def test_a_release_folder_with_no_maintained_copy_is_reported_as_it_is(
    make_corpus: MakeCorpus,
) -> None:
    # Nothing newer holds `legacy.json`: its defect is its own (issue 45, item 6's premise).
    root = make_corpus(
        {
            "examples/order.json": schema(),
            "examples/2026-04-17/order.json": schema(),
            "examples/2026-04-17/legacy.json": schema("idd"),
        }
    )
    [finding] = found(root, "required-undeclared")
    assert finding.location.path == "examples/2026-04-17/legacy.json"
    assert finding.severity is Severity.WARNING


def test_an_unreleased_folder_is_no_snapshot_of_its_parent(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "examples/order.json": schema("idd"),
            "examples/2026-04-17/order.json": schema(),
            "examples/unreleased/order.json": schema("idd"),
        }
    )
    findings = found(root, "required-undeclared")
    assert sorted(f.location.path for f in findings) == [
        "examples/order.json",
        "examples/unreleased/order.json",
    ]
    assert {f.severity for f in findings} == {Severity.WARNING}


def test_an_api_line_folder_is_no_snapshot_of_its_parent(
    make_corpus: MakeCorpus,
) -> None:
    # `v1/` beside `users.json` may be a line still served: both are reported.
    root = make_corpus({"api/users.json": schema("idd"), "api/v1/users.json": schema("idd")})
    assert sorted(f.location.path for f in found(root, "required-undeclared")) == [
        "api/users.json",
        "api/v1/users.json",
    ]


def test_a_version_in_the_folder_and_the_file_name_lines_the_sets_up() -> None:
    first = "api/v1.0-set/Spec v1.0.md"
    second = "api/v1.1-set/Spec v1.1.md"
    lines = version_lines([first, second])
    assert version_place(first, lines.of(first)) == version_place(second, lines.of(second))


def test_maintained_copies_need_the_parent_to_hold_the_file() -> None:
    paths = [
        "examples/2026-04-17/order.json",
        "examples/order.json",
        "examples/2026-04-17/only-then.json",
        "website/versioned_docs/version-2.0/intro.md",
        "website/docs/intro.md",
        "community_versioned_docs/version-2.0/faq.md",
        "community/faq.md",
    ]
    snapshots = maintained_copies(paths, version_lines(paths))
    assert {path: s.live for path, s in snapshots.items()} == {
        "examples/2026-04-17/order.json": "examples/order.json",
        "website/versioned_docs/version-2.0/intro.md": "website/docs/intro.md",
        "community_versioned_docs/version-2.0/faq.md": "community/faq.md",
    }
    assert snapshots["website/versioned_docs/version-2.0/intro.md"].folder == (
        "website/versioned_docs/version-2.0/"
    )
    assert snapshots["website/versioned_docs/version-2.0/intro.md"].home == "website/docs/"


# required-undeclared classes found at the first read of ecosystem batch 6 (issue 45).


def test_a_required_item_holding_a_comma_separated_list_is_said_to_be_one(
    make_corpus: MakeCorpus,
) -> None:
    """`required: ["accountId, created, updated"]` is one item: the message says a list was
    written as one name, and which of its names no property declares, not "declare
    `accountId, created, updated` in `properties`"."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"accountId": {"type": "string"}, "created": {"type": "string"}},
        "required": ["accountId, created, updated"],
    }
    root = make_corpus({"schemas/account.json": json.dumps(schema, indent=2)})
    result = run_cli("check", str(root), "--no-cache", "--quiet", "--format", "json")
    (finding,) = json.loads(result.output)["findings"]
    assert finding["rule"] == "required-undeclared"
    message = finding["message"]
    assert "one `required` item holding 3 comma-separated names" in message
    assert "declare `updated` in `properties`" in message
    assert "`accountId`," not in message.split("declare")[-1]


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_required_undeclared_skips_a_scope_with_a_dynamic_ref(
    make_corpus: MakeCorpus,
) -> None:
    # what a `$dynamicRef` declares is known only at validation time (2020-12 §8.2.3.2)
    extended = {"$dynamicRef": "#node", "properties": {"a": {}}, "required": ["b"]}
    root = make_corpus({"schemas/tree.json": conftest_schema(**extended)})
    assert run_rule(root, "required-undeclared", {}) == []
    # the control: without it, `b` is declared nowhere
    del extended["$dynamicRef"]
    (root / "schemas/tree.json").write_text(conftest_schema(**extended))
    [finding] = run_rule(root, "required-undeclared", {})
    assert finding.location.pointer == "/required/0"


def test_required_undeclared_fail_with_a_suggestion_and_pass(make_corpus: MakeCorpus) -> None:
    body = {"type": "object", "properties": {"workflowId": {"type": "string"}}}
    root = make_corpus(
        {"schemas/run.schema.json": conftest_schema(**body, required=["workflowID"])}
    )
    [finding] = findings_of("required-undeclared", root)
    assert finding.severity is Severity.WARNING
    assert finding.location.pointer == "/required/0"
    assert finding.location.line == 10
    assert "did you mean `workflowId`?" in finding.message
    assert finding.related[0].pointer == "/properties"
    assert "`workflowId`" in (finding.related[0].note or "")
    conditional = {
        **body,
        "required": ["workflowId"],
        "if": {"properties": {"mode": {"const": "scheduled"}}},
        "then": {"required": ["workflowId"]},
    }
    (root / "schemas/run.schema.json").write_text(conftest_schema(**conditional))
    assert findings_of("required-undeclared", root) == []


def test_required_undeclared_in_a_closed_shape_is_an_error(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/a.json": conftest_schema(
                type="object",
                properties={"name": {"type": "string"}},
                required=["name", "version"],
                additionalProperties=False,
            )
        }
    )
    [finding] = findings_of("required-undeclared", root)
    assert finding.severity is Severity.ERROR
    assert finding.location.pointer == "/required/1"
    assert "`additionalProperties: false`" in finding.message
    assert any(r.pointer == "/additionalProperties" for r in finding.related)


def test_required_undeclared_reads_the_whole_scope_and_skips_a_map_a_required_under_not_and_a_schema_declaring_nothing(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        "schemas/base.json": conftest_schema(type="object", properties={"id": {"type": "string"}}),
        # allOf branches, a `$ref` to another file, unevaluatedProperties over the composition
        "schemas/composed.json": conftest_schema(
            allOf=[{"$ref": "base.json"}, {"properties": {"name": {}}}],
            required=["id", "name"],
            unevaluatedProperties=False,
        ),
        # pure constraints under a parent that declares the names
        "schemas/either.json": conftest_schema(
            properties={"a": {}, "b": {}}, anyOf=[{"required": ["a"]}, {"required": ["b"]}]
        ),
        # a pure constraint with no context at all
        "schemas/lonely.json": conftest_schema(anyOf=[{"required": ["a"]}, {"required": ["b"]}]),
        # a pattern declares the name; `not` forbids a name; a map's keys need no declaration
        "schemas/pattern.json": conftest_schema(
            properties={"a": {}}, patternProperties={"^x-": {}}, required=["x-trace"]
        ),
        "schemas/forbid.json": conftest_schema(
            properties={"a": {}}, **{"not": {"required": ["legacy"]}}
        ),
        "schemas/map.json": conftest_schema(
            properties={"a": {}}, additionalProperties={"type": "string"}, required=["b"]
        ),
        # a mixin: the schema that uses it declares `b`
        "schemas/mixin.json": conftest_schema(
            **{
                "$defs": {"needsB": {"properties": {"a": {}}, "required": ["b"]}},
                "allOf": [{"$ref": "#/$defs/needsB"}, {"properties": {"b": {}}}],
            }
        ),
        # the draft-07 metaschema declares `type`
        "schemas/meta.json": json.dumps(
            {"$schema": DRAFT_07, "allOf": [{"$ref": DRAFT_07}], "required": ["type"]}
        ),
    }
    assert findings_of("required-undeclared", make_corpus(files)) == []
    files["schemas/composed.json"] = conftest_schema(
        allOf=[{"$ref": "base.json"}, {"properties": {"name": {}}}],
        required=["id", "nmae"],
        unevaluatedProperties=False,
    )
    [finding] = findings_of("required-undeclared", make_corpus(files))
    assert finding.severity is Severity.ERROR
    assert "`nmae`" in finding.message and "did you mean `name`?" in finding.message


def test_required_undeclared_skips_what_it_cannot_read(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/missing.json": conftest_schema(
            allOf=[{"$ref": "nowhere.json"}], properties={"a": {}}, required=["b"]
        ),
        "schemas/remote.json": conftest_schema(
            allOf=[{"$ref": "https://remote.example/x.json"}], properties={"a": {}}, required=["b"]
        ),
        "schemas/names.json": conftest_schema(
            properties={"a": {}}, propertyNames={"maxLength": 3}, required=["b"]
        ),
        # `properties` that is itself a JSON Reference (inlined by bundlers)
        "api/models/thing.yml": "type: object\nproperties:\n  $ref: 'attributes.yml#/x'\nrequired: [b]\n",
        "api/models/attributes.yml": "x:\n  b: {type: string}\n",
        "api/openapi.yaml": (
            "openapi: 3.0.3\ninfo: {title: T, version: 1.0.0}\npaths: {}\ncomponents:\n  schemas:\n"
            "    Thing: {$ref: 'models/thing.yml'}\n"
        ),
        # draft-07: `required` beside a `$ref` is ignored, as every sibling
        "schemas/sibling.json": json.dumps(
            {
                "$schema": DRAFT_07,
                "definitions": {"a": {"properties": {"x": {}}}},
                "properties": {"p": {"$ref": "#/definitions/a", "required": ["y"]}},
            }
        ),
    }
    assert findings_of("required-undeclared", make_corpus(files)) == []


def test_required_undeclared_in_a_condition_is_a_warning(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/a.json": conftest_schema(
                properties={"kind": {}},
                additionalProperties=False,
                **{"if": {"required": ["knd"]}, "then": {"required": ["kind"]}},
            )
        }
    )
    [finding] = findings_of("required-undeclared", root)
    assert finding.location.pointer == "/if/required/0"
    assert finding.severity is Severity.WARNING
    assert "did you mean `kind`?" in finding.message


def test_required_undeclared_in_every_dialect_and_api_document(make_corpus: MakeCorpus) -> None:
    openapi = {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1.0.0"},
        "paths": {
            "/runs": {
                "post": {
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {
                                "application/json": {
                                    "schema": {"properties": {"runId": {}}, "required": ["runID"]}
                                }
                            },
                        }
                    }
                }
            }
        },
        "components": {"schemas": {"Run": {"properties": {"status": {}}, "required": ["state"]}}},
    }
    asyncapi = {
        "asyncapi": "2.6.0",
        "info": {"title": "T", "version": "1.0.0"},
        "channels": {},
        "components": {
            "messages": {"Ping": {"payload": {"properties": {"at": {}}, "required": ["when"]}}}
        },
    }
    swagger = {
        "swagger": "2.0",
        "info": {"title": "T", "version": "1.0.0"},
        "paths": {},
        "definitions": {"Pet": {"properties": {"name": {}}, "required": ["nmae"]}},
    }
    draft04 = {
        "$schema": DRAFT_04,
        "definitions": {"item": {"properties": {"size": {}}, "required": ["sise"]}},
        "properties": {"a": {}},
        "dependencies": {"a": {"properties": {"b": {}}, "required": ["c"]}},
    }
    root = make_corpus(
        {
            "api/openapi.json": json.dumps(openapi),
            "api/asyncapi.json": json.dumps(asyncapi),
            "api/swagger.json": json.dumps(swagger),
            "schemas/old.json": json.dumps(draft04),
        }
    )
    found = {
        (f.location.path, f.location.pointer) for f in findings_of("required-undeclared", root)
    }
    assert found == {
        (
            "api/openapi.json",
            "/paths/~1runs/post/responses/200/content/application~1json/schema/required/0",
        ),
        ("api/openapi.json", "/components/schemas/Run/required/0"),
        ("api/asyncapi.json", "/components/messages/Ping/payload/required/0"),
        ("api/swagger.json", "/definitions/Pet/required/0"),
        ("schemas/old.json", "/definitions/item/required/0"),
        ("schemas/old.json", "/dependencies/a/required/0"),
    }


def test_required_undeclared_is_the_one_finding_of_a_closed_typo(make_corpus: MakeCorpus) -> None:
    body = {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["nmae"],
        "additionalProperties": False,
    }
    openapi = {
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1.0.0"},
        "paths": {
            "/runs": {
                "post": {
                    "requestBody": {"content": {"application/json": {"schema": body}}},
                    "responses": {"204": {"description": "ok"}},
                }
            }
        },
    }
    root = make_corpus({"api/openapi.json": json.dumps(openapi)})
    # one defect, one finding: the typo, where it is written (issue 45)
    assert findings_of("unsatisfiable-schema", root) == []
    [finding] = findings_of("required-undeclared", root)
    assert finding.severity is Severity.ERROR
    assert "did you mean `name`" in finding.message


def test_required_undeclared_leaves_generated_bundles_to_their_sources(
    make_corpus: MakeCorpus,
) -> None:
    def source(name: str) -> dict[str, Any]:
        return {
            "$id": f"https://example.org/definitions/1.0.0/{name}.json",
            "properties": {"a": {}},
            "required": ["b"],
        }

    names = ("info", "tag", "server")
    files: dict[str, str | bytes] = {
        f"definitions/1.0.0/{n}.json": json.dumps({"$schema": DRAFT_07, **source(n)}) for n in names
    }
    files["schemas/1.0.0.json"] = json.dumps(
        {"$schema": DRAFT_07, "definitions": {source(n)["$id"]: source(n) for n in names}}
    )
    found = findings_of("required-undeclared", make_corpus(files))
    assert sorted(f.location.path for f in found) == [
        f"definitions/1.0.0/{n}.json" for n in sorted(names)
    ]
