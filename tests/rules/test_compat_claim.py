"""compat-claim and the schema diff behind it: each change classified by role, and the RFC gate."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_cli import cli
from test_diff_base import git

from conftest import BUNDLED_CORPUS, copy_bundled_corpus
from speclint.analyses.changes.compat import Change, schema_changes
from speclint.analyses.changes.effective_schemas import at_base
from speclint.analyses.changes.named_changes import is_definition
from speclint.analyses.context import Context
from speclint.analyses.prose.rfcs import corpus_rfcs
from speclint.model.config import load_config
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import split_pointer
from speclint.rules.compat_claim import claim


def bundled() -> Context:
    return Context.load(BUNDLED_CORPUS, load_config(BUNDLED_CORPUS))


def changed(edits: dict[str, tuple[str, str]]) -> list[Change]:
    """The changes from the bundled corpus to a copy with each (old, new) text edit applied."""
    base = bundled()
    texts = base.sources()
    for path, (old, new) in edits.items():
        assert old in texts[path], f"{old!r} is not in {path}"
        texts[path] = texts[path].replace(old, new, 1)
    head = Context.from_texts(texts, base.config)
    return schema_changes(base, head)


def kinds(changes: list[Change]) -> set[tuple[str, bool, str]]:
    return {(c.kind, c.breaking, c.role) for c in changes}


STREAM_MODES = '"enum": ["updates", "values", "messages"]'


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        # A client may no longer send a value: breaking.
        (
            {"schemas/run-options.schema.json": (STREAM_MODES, '"enum": ["updates", "values"]')},
            {("enum value removed", True, "client-submitted")},
        ),
        # A client may send a new value: additive.
        (
            {
                "schemas/run-options.schema.json": (
                    STREAM_MODES,
                    '"enum": ["updates", "values", "messages", "debug"]',
                )
            },
            {("enum value added", False, "client-submitted")},
        ),
        # A new optional request property: additive.
        (
            {
                "schemas/run-options.schema.json": (
                    '"properties": {',
                    '"properties": {\n    "label": {"type": "string"},',
                )
            },
            {("property added", False, "client-submitted")},
        ),
        # A new required request member: breaking.
        (
            {
                "schemas/heartbeat-ack.schema.json": (
                    '"required": ["sequence"]',
                    '"required": ["sequence", "nonce"]',
                )
            },
            {("required added", True, "client-submitted")},
        ),
        # A new status the host may report, with no ignore-unknown statement for `status`.
        (
            {"schemas/run-snapshot.schema.json": ('"cancelled"]', '"cancelled", "paused"]')},
            {("enum value added", True, "server-emitted")},
        ),
        # A new event type: COMPATIBILITY.md tells clients to ignore unknown event types.
        (
            {"schemas/run-event.schema.json": ('"interrupt.raised"]', '"interrupt.raised", "x"]')},
            {("enum value added", False, "server-emitted")},
        ),
        # A property clients read disappears: breaking.
        (
            {
                "schemas/run-snapshot.schema.json": (
                    '"workflowId": { "$ref": "common.schema.json#/$defs/Id" },\n',
                    "",
                )
            },
            {("property removed", True, "server-emitted")},
        ),
        # Closing a request shape breaks clients; the same keyword on a response does not.
        (
            {
                "schemas/run-filter.schema.json": (
                    '"type": "object",',
                    '"type": "object",\n  "additionalProperties": false,',
                )
            },
            # No use reaches run-filter: it is judged from both sides.
            {("shape closed", True, "unused")},
        ),
        (
            {
                "schemas/run-snapshot.schema.json": (
                    '"type": "object",',
                    '"type": "object",\n  "additionalProperties": false,',
                )
            },
            {("shape closed", False, "server-emitted")},
        ),
        # A narrowed input type and a tightened bound.
        (
            {
                "schemas/run-options.schema.json": (
                    '"minimum": 0,\n      "maximum": 9',
                    '"minimum": 1,\n      "maximum": 9',
                )
            },
            {("bound tightened", True, "client-submitted")},
        ),
        # An annotation is no contract change.
        (
            {
                "api/openapi.yaml": (
                    "operationId: listRuns",
                    "operationId: listRuns\n      deprecated: true",
                )
            },
            set(),
        ),
    ],
)
def test_changes_are_classified_by_role(
    edits: dict[str, tuple[str, str]], expected: set[tuple[str, bool, str]]
) -> None:
    assert kinds(changed(edits)) == expected


def test_a_policy_for_unknown_enum_values_makes_new_output_values_additive() -> None:
    status = {"schemas/run-snapshot.schema.json": ('"cancelled"]', '"cancelled", "paused"]')}
    policy = (
        "Clients MUST ignore\nunknown fields.",
        "Clients MUST ignore\nunknown fields and unknown enum values.",
    )
    assert kinds(changed({**status, "COMPATIBILITY.md": policy})) == {
        ("enum value added", False, "server-emitted")
    }


def test_a_removed_operation_and_a_removed_schema_file_are_breaking() -> None:
    base = bundled()
    texts = base.sources()
    openapi = texts["api/openapi.yaml"]
    start = openapi.index("  /.well-known/acme:")
    texts["api/openapi.yaml"] = openapi[:start] + openapi[openapi.index("components:", start) :]
    del texts["schemas/run-filter.schema.json"]
    changes = schema_changes(base, Context.from_texts(texts, base.config))
    removed = {(c.kind, c.location.path) for c in changes if c.breaking}
    assert removed == {
        ("operation removed", "api/openapi.yaml"),
        ("schema file removed", "schemas/run-filter.schema.json"),
    }
    (operation,) = [c for c in changes if c.kind == "operation removed"]
    assert "getCapabilities" in operation.description


def test_a_ref_replaced_by_its_copy_compares_by_content() -> None:
    # RFC 0094 §D single-sources copies through `$ref`; the diff follows references on both sides,
    # so an exact copy is no change and a drifted copy is the change it makes.
    ref = '"workflowId": { "$ref": "common.schema.json#/$defs/Id" }'
    copy = '"workflowId": { "type": "string", "pattern": "^[a-z0-9-]{4,64}$" }'
    assert changed({"schemas/run-snapshot.schema.json": (ref, copy)}) == []
    drifted = copy.replace('"string"', '["string", "null"]')
    assert kinds(changed({"schemas/run-snapshot.schema.json": (ref, drifted)})) == {
        ("type widened", True, "server-emitted")
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("`additive`", "additive"),
        ("`additive` / defect repair (see §Compatibility)", "additive"),
        ("Backward compatible", "additive"),
        ("non-breaking", "additive"),
        ("**breaking** (major release)", "breaking"),
        ("additive for hosts; breaking for clients", "breaking"),
        ("see below", None),
    ],
)
def test_what_a_compatibility_field_claims(value: str, expected: str | None) -> None:
    text = f"# RFC 0007\n\n| Field | Value |\n| --- | --- |\n| RFC | 0007 |\n| Status | Draft |\n| Compatibility | {value} |\n"
    (rfc,) = corpus_rfcs(Context.from_texts({"rfcs/0007.md": text}))
    assert claim(rfc) == expected


# --- the gate, end to end on a real git repository ----------------------------------------------


def pull_request(tmp_path: Path, schema_edit: tuple[str, str], compatibility: str) -> Path:
    """A repository whose base is the bundled corpus and whose head edits a schema and the RFC."""
    repo = tmp_path / "spec-repo"
    copy_bundled_corpus(repo / "corpus")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    options = repo / "corpus/schemas/run-options.schema.json"
    old, new = schema_edit
    assert old in options.read_text()
    options.write_text(options.read_text().replace(old, new, 1))
    rfc = repo / "corpus/rfcs/0001-run-cancellation.md"
    rfc.write_text(
        rfc.read_text()
        .replace("| Compatibility | additive |", f"| Compatibility | {compatibility} |")
        .replace("| Updated | 2026-02-20 |", "| Updated | 2026-03-20 |")
    )
    git(repo, "commit", "-q", "-am", "RFC 0001: change run options")
    return repo


def test_an_additive_claim_beside_a_removed_request_enum_value_fails(tmp_path: Path) -> None:
    repo = pull_request(tmp_path, (STREAM_MODES, '"enum": ["updates", "values"]'), "additive")
    result = cli("check", "corpus", "--diff-base", "HEAD~1", "--rule", "compat-claim", cwd=repo)
    assert result.returncode == 1, result.stderr
    (line,) = [ln for ln in result.stdout.splitlines() if "[compat-claim]" in ln]
    assert line.startswith("corpus/rfcs/0001-run-cancellation.md:")
    assert "error [compat-claim] RFC 0001 says `Compatibility: additive`" in line
    assert "`streamMode`" in line and "no longer accepts `messages`" in line
    assert "related: corpus/schemas/run-options.schema.json:" in result.stdout

    listed = cli("changes", "corpus", "--diff-base", "HEAD~1", cwd=repo)
    assert listed.returncode == 0, listed.stderr
    assert "breaking [enum value removed]" in listed.stdout
    assert "1 change(s) since HEAD~1, 1 breaking" in listed.stderr


def test_an_additive_claim_beside_a_new_optional_property_passes(tmp_path: Path) -> None:
    repo = pull_request(
        tmp_path,
        ('"properties": {', '"properties": {\n    "label": {"type": "string"},'),
        "additive",
    )
    result = cli("check", "corpus", "--diff-base", "HEAD~1", "--rule", "compat-claim", cwd=repo)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "[compat-claim]" not in result.stdout


def test_a_breaking_change_declared_breaking_passes(tmp_path: Path) -> None:
    repo = pull_request(tmp_path, (STREAM_MODES, '"enum": ["updates", "values"]'), "breaking")
    result = cli("check", "corpus", "--diff-base", "HEAD~1", "--rule", "compat-claim", cwd=repo)
    assert result.returncode == 0, result.stdout + result.stderr


def test_without_diff_base_the_rule_is_silent() -> None:
    # In a whole run; asked for alone, it is refused (test_cli_habits.py).
    result = cli("check", str(BUNDLED_CORPUS))
    assert result.returncode == 1 and "[compat-claim]" not in result.stdout


def test_a_removal_from_a_moved_proto_is_the_breaking_rfcs_not_an_additive_ones(
    tmp_path: Path,
) -> None:
    # A review found it: the rpc removed with its file's move is located in the base's path,
    # which only the base has; the RFC that declares that path breaking owns it.
    repo = tmp_path / "spec-repo"
    copy_bundled_corpus(repo / "corpus")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    old = repo / "corpus/api/grpc/runs.proto"
    text = old.read_text()
    cancel = text[text.index("  rpc CancelRun") : text.index("}\n\nmessage CreateRunRequest")]
    (repo / "corpus/api/runs.proto").write_text(text.replace(cancel, ""))
    old.unlink()
    rfc = repo / "corpus/rfcs/0001-run-cancellation.md"
    rfc.write_text(
        rfc.read_text()
        .replace("| Compatibility | additive |", "| Compatibility | breaking |")
        .replace("`api/openapi.yaml` ·", "`api/grpc/runs.proto` · `api/runs.proto` ·")
    )
    additive = (repo / "corpus/rfcs/0001-run-cancellation.md").read_text()
    (repo / "corpus/rfcs/0002-wording.md").write_text(
        additive.replace("RFC 0001: Run cancellation", "RFC 0002: Wording")
        .replace("| RFC | 0001 |", "| RFC | 0002 |")
        .replace("| Compatibility | breaking |", "| Compatibility | additive |")
        .replace("`api/grpc/runs.proto` · `api/runs.proto` ·", "`README.md` ·")
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "RFC 0001: the gRPC surface moves; RFC 0002: wording")
    listed = cli("changes", "corpus", "--diff-base", "HEAD~1", "--breaking", cwd=repo)
    assert "breaking [rpc removed]" in listed.stdout
    assert "corpus/api/grpc/runs.proto:" in listed.stdout  # where the base had it
    result = cli("check", "corpus", "--diff-base", "HEAD~1", "--rule", "compat-claim", cwd=repo)
    assert "[compat-claim]" not in result.stdout, result.stdout


# --- every keyword that narrows or widens (issue 47, item 1) -------------------------------------

DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema"
DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def schema_diff(base: dict[str, Any], head: dict[str, Any], path: str = "s/x.json") -> list[Change]:
    """The changes of one schema file (no use reaches it: judged from both sides)."""
    texts = {path: json.dumps({"$schema": DRAFT_2020, **base})}
    after = {path: json.dumps({"$schema": DRAFT_2020, **head})}
    return schema_changes(Context.from_texts(texts), Context.from_texts(after))


def at(changes: list[Change]) -> set[tuple[str, str | None]]:
    return {(c.kind, c.location.pointer) for c in changes}


def member(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"m": schema}}


@pytest.mark.parametrize(
    ("base", "head", "expected"),
    [
        # `type` dropped: any type is allowed now (a widening, server-emitted breaking)
        ({"type": "object"}, {}, {("type widened", "")}),
        # ... but not beside values that still say the type
        ({"type": "string", "enum": ["a", "b"]}, {"enum": ["a", "b"]}, set()),
        ({"type": "string"}, {"type": ["string", "null"]}, {("type widened", "/type")}),
        ({"type": ["string", "null"]}, {"type": "string"}, {("type narrowed", "/type")}),
        ({"type": "number"}, {"type": "integer"}, {("type narrowed", "/type")}),
        ({"type": "integer"}, {"type": "number"}, {("type widened", "/type")}),
        # `additionalProperties` absent or `true`, then a schema: every undeclared member narrowed
        (
            member({"type": "object"}),
            member({"type": "object", "additionalProperties": {"type": "string"}}),
            {("type narrowed", "/properties/m/additionalProperties/type")},
        ),
        (
            {"type": "object", "additionalProperties": True},
            {"type": "object", "additionalProperties": {"type": "string"}},
            {("type narrowed", "/additionalProperties/type")},
        ),
        (
            {"type": "object", "unevaluatedProperties": {"type": "string"}},
            {"type": "object"},
            {("type widened", "/unevaluatedProperties")},
        ),
        (
            {"type": "object", "additionalProperties": False},
            {"type": "object"},
            {("shape opened", "")},
        ),
        # `items` true or absent, then a schema
        (
            {"type": "array", "items": True},
            {"type": "array", "items": {"enum": ["a"]}},
            {("enum value removed", "/items/enum")},
        ),
        (
            {"type": "object"},
            {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
            {("pattern added", "/propertyNames/pattern")},
        ),
        (
            {"type": "object", "patternProperties": {"^x-": {"type": "string"}}},
            {"type": "object"},
            {("type widened", "/patternProperties/^x-")},
        ),
        # assertions of the validation vocabulary
        (
            {"type": "number"},
            {"type": "number", "multipleOf": 2},
            {("constraint narrowed", "/multipleOf")},
        ),
        ({"multipleOf": 2}, {"multipleOf": 4}, {("constraint narrowed", "/multipleOf")}),
        ({"multipleOf": 4}, {"multipleOf": 2}, {("constraint widened", "/multipleOf")}),
        # an invalid `multipleOf` (schema-invalid's) is none, never a division by zero
        ({"multipleOf": 0}, {"multipleOf": 2}, {("constraint narrowed", "/multipleOf")}),
        # every multiple of 1.5 is one of 0.5; 0.5 is no multiple of 0.75, nor 0.75 of 0.5
        ({"multipleOf": 0.5}, {"multipleOf": 1.5}, {("constraint narrowed", "/multipleOf")}),
        (
            {"multipleOf": 0.5},
            {"multipleOf": 0.75},
            {("constraint narrowed", "/multipleOf"), ("constraint widened", "/multipleOf")},
        ),
        (
            {"type": "string"},
            {"type": "string", "format": "uuid"},
            {("constraint narrowed", "/format")},
        ),
        ({"format": "uuid"}, {}, {("constraint widened", "")}),
        (
            {"pattern": "^a"},
            {"pattern": "^b"},
            {("constraint narrowed", "/pattern"), ("constraint widened", "/pattern")},
        ),
        (
            {"type": "array"},
            {"type": "array", "uniqueItems": True},
            {("constraint narrowed", "/uniqueItems")},
        ),
        ({"contains": {"type": "string"}}, {}, {("constraint widened", "")}),
        (
            {"contains": {"type": "string"}},
            {"contains": {"type": "string"}, "minContains": 2},
            {("constraint narrowed", "/minContains")},
        ),
        (
            {"contains": {"type": "string"}, "maxContains": 2},
            {"contains": {"type": "string"}},
            {("constraint widened", "")},
        ),
        ({}, {"not": {"type": "null"}}, {("constraint narrowed", "/not")}),
        (
            {"dependentRequired": {"a": ["b"]}},
            {"dependentRequired": {"a": ["b", "c"]}},
            {("constraint narrowed", "/dependentRequired")},
        ),
        ({"maxLength": 5}, {"maxLength": 9}, {("bound loosened", "/maxLength")}),
        ({"minimum": 1}, {}, {("bound loosened", "")}),
        # a bound made exclusive is tighter, not one removed
        ({"minimum": 0}, {"exclusiveMinimum": 0}, {("bound tightened", "/exclusiveMinimum")}),
        # ... and one made inclusive is looser only: no bound was added
        ({"exclusiveMinimum": 0}, {"minimum": 0}, {("bound loosened", "/minimum")}),
    ],
)
def test_each_keyword_that_narrows_or_widens_is_compared(
    base: dict[str, Any], head: dict[str, Any], expected: set[tuple[str, str]]
) -> None:
    assert at(schema_diff(base, head)) == expected
    assert schema_diff(head, head) == []


NARROWS, WIDENS, NEITHER = "narrows", "widens", "neither"
# Each keyword group of ``keyword_comparisons``, one change each way: (base, head, {(kind, what
# it does to the values the location accepts)}). Fewer values break a client-submitted
# location, more a server-emitted one (compat's table); the other is listed as additive.
KEYWORD_GROUP_CHANGES: dict[str, tuple[dict[str, Any], dict[str, Any], set[tuple[str, str]]]] = {
    "enum value removed": (
        {"enum": ["a", "b"]},
        {"enum": ["a"]},
        {("enum value removed", NARROWS)},
    ),
    "enum value added": ({"enum": ["a"]}, {"enum": ["a", "b"]}, {("enum value added", WIDENS)}),
    "const added": (
        {"type": "string"},
        {"type": "string", "const": "a"},
        {("enum value removed", NARROWS)},
    ),
    "enum gone": (
        {"type": "string", "enum": ["a"]},
        {"type": "string"},
        {("enum value added", WIDENS)},
    ),
    "required added": (
        {"type": "object", "properties": {"a": {}}},
        {"type": "object", "properties": {"a": {}}, "required": ["a"]},
        {("required added", NARROWS)},
    ),
    "required removed": (
        {"type": "object", "properties": {"a": {}}, "required": ["a"]},
        {"type": "object", "properties": {"a": {}}},
        {("required removed", WIDENS)},
    ),
    "properties closed": (
        {"type": "object", "properties": {"a": {}}},
        {"type": "object", "properties": {"a": {}}, "additionalProperties": False},
        {("shape closed", NARROWS)},
    ),
    "properties closed (unevaluated)": (
        {"type": "object"},
        {"type": "object", "unevaluatedProperties": False},
        {("shape closed", NARROWS)},
    ),
    "properties opened": (
        {"type": "object", "additionalProperties": False},
        {"type": "object"},
        {("shape opened", WIDENS)},
    ),
    "property added": (
        {"type": "object", "properties": {"a": {}}},
        {"type": "object", "properties": {"a": {}, "b": {}}},
        {("property added", NEITHER)},
    ),
    "type narrowed": (
        {"type": ["string", "null"]},
        {"type": "string"},
        {("type narrowed", NARROWS)},
    ),
    "type widened": ({"type": "string"}, {"type": ["string", "null"]}, {("type widened", WIDENS)}),
    "type dropped": ({"type": "object"}, {}, {("type widened", WIDENS)}),
    **{
        f"{keyword} {what}": (
            {"type": "string" if "Length" in keyword else "number", **base},
            {"type": "string" if "Length" in keyword else "number", **head},
            {(kind, NARROWS if kind == "bound tightened" else WIDENS)},
        )
        for lower, keyword in [
            *((True, k) for k in ("minimum", "exclusiveMinimum", "minLength")),
            *((False, k) for k in ("maximum", "exclusiveMaximum", "maxLength")),
        ]
        for what, base, head, kind in (
            ("added", {}, {keyword: 8}, "bound tightened"),
            ("tightened", {keyword: 4 if lower else 12}, {keyword: 8}, "bound tightened"),
            ("loosened", {keyword: 8}, {keyword: 4 if lower else 12}, "bound loosened"),
            ("removed", {keyword: 8}, {}, "bound loosened"),
        )
    },
    "minItems tightened": (
        {"type": "array"},
        {"type": "array", "minItems": 1},
        {("bound tightened", NARROWS)},
    ),
    "maxProperties loosened": (
        {"type": "object", "maxProperties": 2},
        {"type": "object", "maxProperties": 3},
        {("bound loosened", WIDENS)},
    ),
    "minimum made exclusive": (
        {"minimum": 0},
        {"exclusiveMinimum": 0},
        {("bound tightened", NARROWS)},
    ),
    "exclusiveMinimum made inclusive": (
        {"exclusiveMinimum": 0},
        {"minimum": 0},
        {("bound loosened", WIDENS)},
    ),
    "pattern added": (
        {"type": "string"},
        {"type": "string", "pattern": "^a"},
        {("pattern added", NARROWS)},
    ),
    "pattern removed": (
        {"type": "string", "pattern": "^a"},
        {"type": "string"},
        {("constraint widened", WIDENS)},
    ),
    "format added": (
        {"type": "string"},
        {"type": "string", "format": "uuid"},
        {("constraint narrowed", NARROWS)},
    ),
    "multipleOf narrowed": (
        {"multipleOf": 2},
        {"multipleOf": 4},
        {("constraint narrowed", NARROWS)},
    ),
    "multipleOf widened": ({"multipleOf": 4}, {"multipleOf": 2}, {("constraint widened", WIDENS)}),
    "uniqueItems added": (
        {"type": "array"},
        {"type": "array", "uniqueItems": True},
        {("constraint narrowed", NARROWS)},
    ),
    "contains removed": ({"contains": {"type": "string"}}, {}, {("constraint widened", WIDENS)}),
    "minContains raised": (
        {"contains": {"type": "string"}},
        {"contains": {"type": "string"}, "minContains": 2},
        {("constraint narrowed", NARROWS)},
    ),
    "not added": ({}, {"not": {"type": "null"}}, {("constraint narrowed", NARROWS)}),
    "dependentRequired added": (
        {"type": "object"},
        {"type": "object", "dependentRequired": {"a": ["b"]}},
        {("constraint narrowed", NARROWS)},
    ),
    "items false removed": (
        {"type": "array", "items": False},
        {"type": "array"},
        {("constraint widened", WIDENS)},
    ),
    "anyOf member added": (
        {"anyOf": [{"type": "string"}, {"type": "null"}]},
        {"anyOf": [{"type": "string"}, {"type": "null"}, {"type": "integer"}]},
        {("union member added", WIDENS)},
    ),
    "anyOf member removed": (
        {"anyOf": [{"type": "string"}, {"type": "null"}]},
        {"anyOf": [{"type": "string"}]},
        {("union member removed", NARROWS)},
    ),
}


def api_using(schema: dict[str, Any], role: str) -> str:
    """An OpenAPI 3.1 document whose one operation sends (``client-submitted``), returns
    (``server-emitted``) or both sends and returns ``components/schemas/S``, whose property
    ``v`` is ``schema``."""
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/S"}}}}
    response: dict[str, Any] = {"description": "ok"}
    operation: dict[str, Any] = {"responses": {"200": response}}
    if role != "server-emitted":
        operation["requestBody"] = body
    if role != "client-submitted":
        response.update(body)
    return json.dumps(
        {
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "paths": {"/x": {"post": operation}},
            "components": {
                "schemas": {
                    "S": {"type": "object", "properties": {"v": schema}},
                    "Id": {"type": "string"},
                }
            },
        }
    )


def api_diff(base: dict[str, Any], head: dict[str, Any], role: str) -> list[Change]:
    texts = {"api/openapi.json": api_using(base, role)}
    after = {"api/openapi.json": api_using(head, role)}
    return schema_changes(Context.from_texts(texts), Context.from_texts(after))


@pytest.mark.parametrize("role", ["client-submitted", "server-emitted", "both"])
@pytest.mark.parametrize("case", sorted(KEYWORD_GROUP_CHANGES))
def test_each_keyword_group_change_is_listed_breaking_or_additive_by_role(
    case: str, role: str
) -> None:
    # every change is listed, the non-breaking ones as additive for reviewers (compat's
    # docstring): a bound tightened on a response is additive, not silent
    base, head, expected = KEYWORD_GROUP_CHANGES[case]
    breaking = {
        NARROWS: role != "server-emitted",
        WIDENS: role != "client-submitted",
        NEITHER: False,
    }
    listed = {(c.kind, c.breaking, c.role) for c in api_diff(base, head, role)}
    assert listed == {(kind, breaking[does], role) for kind, does in expected}


@pytest.mark.parametrize("role", ["client-submitted", "server-emitted"])
def test_a_bound_beside_a_ref_is_listed_for_either_role(role: str) -> None:
    # `runId: {$ref: Id}` gains `maxLength: 8` beside its `$ref` (2020-12 Core §8.2.3.1: both
    # apply): tighter for whoever sends it (breaking), for whoever reads it (additive)
    reference = {"$ref": "#/components/schemas/Id"}
    tighter = api_diff(reference, {**reference, "maxLength": 8}, role)
    assert [(c.kind, c.breaking, c.location.pointer) for c in tighter] == [
        (
            "bound tightened",
            role == "client-submitted",
            "/components/schemas/S/properties/v/maxLength",
        )
    ]
    looser = api_diff({**reference, "maxLength": 8}, reference, role)
    assert [(c.kind, c.breaking) for c in looser] == [("bound loosened", role == "server-emitted")]


def test_a_nested_value_valid_at_the_base_and_rejected_at_the_head_is_breaking_for_a_request(
    tmp_path: Path,
) -> None:
    # a request's free-form `metadata` map, its values now required to be strings
    def api(metadata: str) -> str:
        return (
            "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /runs:\n    post:\n"
            "      requestBody:\n        content:\n          application/json:\n            schema:\n"
            "              type: object\n              properties:\n"
            f"                metadata: {metadata}\n"
            "      responses: {'204': {description: ok}}\n"
        )

    base = Context.from_texts({"api/openapi.yaml": api("{type: object}")})
    head = Context.from_texts(
        {"api/openapi.yaml": api("{type: object, additionalProperties: {type: string}}")}
    )
    [change] = schema_changes(base, head)
    assert (change.kind, change.breaking, change.role) == (
        "type narrowed",
        True,
        "client-submitted",
    )
    assert change.location.pointer is not None
    assert change.location.pointer.endswith("/properties/metadata/additionalProperties/type")


# --- a `$ref` with keywords beside it (issue 47, item 1) -----------------------------------------

RESULT_TYPE = {"type": "string", "enum": ["complete", "input_required", "failed"]}


def test_a_ref_with_a_default_beside_it_compares_as_its_target() -> None:
    # the real-world shape: `{$ref, default}` at the base, the target inlined at the head with
    # one value fewer: one change, the value removed; no "type narrowed" of the bare `$ref`
    base = {
        "$defs": {"ResultType": RESULT_TYPE},
        "properties": {
            "resultType": {"$ref": "#/$defs/ResultType", "default": "complete", "description": "d"}
        },
    }
    head = {
        "$defs": {"ResultType": RESULT_TYPE},
        "properties": {"resultType": {"type": "string", "enum": ["complete", "input_required"]}},
    }
    [change] = schema_diff(base, head)
    assert change.kind == "enum value removed" and "`failed`" in change.description
    assert change.location.pointer == "/properties/resultType/enum"
    assert change.base is not None and change.base.pointer == "/$defs/ResultType/enum"
    # the enum dropped at the head: a widening, not a narrowing
    head["properties"] = {"resultType": {"type": "string"}}
    assert {c.kind for c in schema_diff(base, head)} == {"enum value added"}


def test_a_ref_with_assertions_beside_it_compares_as_its_target_and_them_in_2020_12() -> None:
    base = {
        "$defs": {"Kind": RESULT_TYPE},
        "properties": {"kind": {"$ref": "#/$defs/Kind", "enum": ["complete", "input_required"]}},
    }
    same = {"properties": {"kind": {"type": "string", "enum": ["complete", "input_required"]}}}
    assert schema_diff(base, {**base, **same}) == []
    fewer = {"properties": {"kind": {"type": "string", "enum": ["complete"]}}}
    [change] = schema_diff(base, {**base, **fewer})
    assert change.kind == "enum value removed" and "`input_required`" in change.description
    assert "`failed`" not in change.description  # the sibling `enum` never allowed it
    assert change.base is not None and change.base.pointer == "/properties/kind/enum"


def test_a_ref_extended_by_properties_beside_it_pairs_each_part_with_the_head() -> None:
    base = {
        "$defs": {"Base": {"type": "object", "properties": {"id": {"type": "string"}}}},
        "properties": {
            "item": {
                "$ref": "#/$defs/Base",
                "properties": {"size": {"type": "integer"}},
                "required": ["size"],
            }
        },
    }
    inlined = {
        "type": "object",
        "properties": {"id": {"type": "string"}, "size": {"type": "integer"}},
        "required": ["size"],
    }
    assert schema_diff(base, {**base, "properties": {"item": inlined}}) == []
    narrowed = json.loads(json.dumps(inlined))
    narrowed["properties"]["size"]["maximum"] = 9
    narrowed["properties"]["id"]["minLength"] = 1
    assert at(schema_diff(base, {**base, "properties": {"item": narrowed}})) == {
        ("bound tightened", "/properties/item/properties/size/maximum"),
        ("bound tightened", "/properties/item/properties/id/minLength"),
    }


def test_a_ref_in_draft_07_ignores_the_keywords_beside_it() -> None:
    # draft-07 §8.3: "All other properties in a "$ref" object MUST be ignored."
    def draft_07(kind: dict[str, Any]) -> str:
        return json.dumps(
            {
                "$schema": DRAFT_07,
                "definitions": {"Kind": RESULT_TYPE},
                "properties": {"kind": kind},
            }
        )

    base = draft_07({"$ref": "#/definitions/Kind", "enum": ["complete"]})
    head = draft_07(RESULT_TYPE)
    assert (
        schema_changes(
            Context.from_texts({"s/x.json": base}), Context.from_texts({"s/x.json": head})
        )
        == []
    )


def test_definitions_moved_to_defs_with_the_dialect_are_still_compared() -> None:
    # a schema moved from draft-07 to 2020-12 renames `definitions` to `$defs`: each definition
    # is paired with its old self, reached from the root or not (a bag of definitions)
    def schema(dialect: str, holder: str, values: list[str]) -> str:
        return json.dumps(
            {"$schema": dialect, holder: {"Kind": {"type": "string", "enum": values}}}
        )

    base = Context.from_texts({"s/x.json": schema(DRAFT_07, "definitions", ["a", "b"])})
    same = Context.from_texts({"s/x.json": schema(DRAFT_2020, "$defs", ["a", "b"])})
    assert schema_changes(base, same) == []
    fewer = Context.from_texts({"s/x.json": schema(DRAFT_2020, "$defs", ["a"])})
    assert at(schema_changes(base, fewer)) == {("enum value removed", "/$defs/Kind/enum")}


def test_nested_definitions_respelled_with_the_dialect_are_neither_removed_nor_added() -> None:
    # draft-07 -> 2020-12 respells every `definitions` keyword along a pointer
    # (`definitions/Holder/definitions/Inner` is `$defs/Holder/$defs/Inner`), not a property
    # named `$defs`, which stays as it is
    def schema(dialect: str, holder: str, values: list[str]) -> str:
        inner = {"type": "string", "enum": values}
        named = {"properties": {"$defs": {"type": "string"}}}
        return json.dumps(
            {"$schema": dialect, holder: {"Holder": {**named, holder: {"Inner": inner}}}}
        )

    base = Context.from_texts({"s/x.json": schema(DRAFT_07, "definitions", ["a", "b"])})
    same = Context.from_texts({"s/x.json": schema(DRAFT_2020, "$defs", ["a", "b"])})
    assert schema_changes(base, same) == []
    fewer = Context.from_texts({"s/x.json": schema(DRAFT_2020, "$defs", ["a"])})
    assert at(schema_changes(base, fewer)) == {
        ("enum value removed", "/$defs/Holder/$defs/Inner/enum")
    }
    head = fewer.documents["s/x.json"]
    assert at_base(head, "/properties/$defs") is None  # a property, no keyword: kept
    assert at_base(base.documents["s/x.json"], "/$defs/Holder/properties/$defs") == (
        "/definitions/Holder/properties/$defs"
    )


def test_a_type_moved_into_the_branches_of_a_composition_is_no_type_dropped() -> None:
    base = {"$defs": {"Obj": {"type": "object"}}, "type": "object"}
    moved = {**base, "type": None, "allOf": [{"$ref": "#/$defs/Obj"}, {"required": ["a"]}]}
    del moved["type"]
    assert "type widened" not in {c.kind for c in schema_diff(base, moved)}
    either = {"$defs": base["$defs"], "anyOf": [{"$ref": "#/$defs/Obj"}, {"type": "string"}]}
    # a real widening: the plain schema became a union of itself and a new `string` member, which
    # the union pairing reports as the member added (breaking for whoever reads it)
    widened = [c for c in schema_diff(base, either) if c.breaking]
    assert [c.kind for c in widened] in (["type widened"], ["union member added"])
    assert "`string`" in widened[0].description


@pytest.mark.parametrize(
    "inline",
    [
        {"type": "object", "additionalProperties": {"$ref": "#/$defs/Asset"}},
        {"type": "array", "items": {"$ref": "#/$defs/Asset"}},
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/Asset"}}},
    ],
    ids=["additionalProperties", "items", "properties"],
)
def test_a_schema_moved_behind_a_described_one_member_all_of_is_the_same_schema(
    inline: dict[str, Any],
) -> None:
    # `{description, allOf: [{$ref: X}]}` is how a `$ref` gets a description where `$ref`'s
    # siblings are ignored; X holding what the base wrote inline changes nothing (a subschema
    # of X is not "absent" beside the base's)
    asset = {"type": "object", "required": ["href"], "properties": {"href": {"type": "string"}}}
    base = {"$defs": {"Asset": asset}, "properties": {"assets": inline}}
    wrapped = {"description": "the assets", "allOf": [{"$ref": "#/$defs/Assets"}]}
    head = {"$defs": {"Asset": asset, "Assets": inline}, "properties": {"assets": wrapped}}
    assert {c.kind for c in schema_diff(base, head)} == {"definition added"}
    assert {c.kind for c in schema_diff(head, base)} == {"definition removed"}
    # and what changes inside X is still found, at X
    narrowed = json.loads(json.dumps(head))
    narrowed["$defs"]["Asset"] = {**asset, "required": ["href", "type"]}
    assert ("required added", "/$defs/Asset/required") in at(schema_diff(base, narrowed))


def test_a_property_moved_into_an_all_of_branch_is_not_removed() -> None:
    # the head keeps `a` through its branch `Common`: no property is removed or added, either way
    text = {"type": "string"}
    base = {"$defs": {"Common": {"properties": {"a": text}}}, "properties": {"a": text, "b": text}}
    head = {**base, "properties": {"b": text}, "allOf": [{"$ref": "#/$defs/Common"}]}
    assert schema_diff(base, head) == []
    assert schema_diff(head, base) == []
    # a change of the moved property is found where it now stands
    head["$defs"] = {"Common": {"properties": {"a": {"type": "string", "maxLength": 3}}}}
    assert at(schema_diff(base, head)) == {
        ("bound tightened", "/$defs/Common/properties/a/maxLength")
    }
    # and a property no branch declares is still removed
    gone = {**head, "properties": {}}
    assert ("property removed", "/properties") in at(schema_diff(base, gone))


def test_a_long_chain_of_refs_with_keywords_beside_them_is_read_within_a_bound() -> None:
    # untrusted input: each link a `$ref` with an assertion beside it, deeper than Python's
    # recursion limit if each were joined to the next
    links = {f"L{i}": {"$ref": f"#/links/L{i + 1}", "minLength": 1} for i in range(1500)}
    links["L1500"] = {"type": "string"}
    base = {"links": links, "properties": {"p": {"$ref": "#/links/L0"}}}
    head = {"links": links, "properties": {"p": {"type": "string"}}}
    # read within the bound: what lies past it is unknown, never a RecursionError
    assert {c.kind for c in schema_diff(base, head)} <= {"bound loosened", "type narrowed"}


def test_a_definition_removed_breaks_and_one_added_is_additive() -> None:
    # a published schema's definitions are addressable (`x.json#/$defs/Batch`): one removed
    # breaks every `$ref` to it from outside the file, as a schema file removed does
    kept = {"type": "string"}
    base = {"$defs": {"Kept": kept, "Batch": {"type": "array", "$defs": {"Item": kept}}}}
    head = {"$defs": {"Kept": kept, "Single": {"type": "object"}}}
    changes = schema_diff(base, head)
    assert {(c.kind, c.breaking, c.location.pointer) for c in changes} == {
        ("definition removed", True, "/$defs/Batch"),  # its own nested definitions with it
        ("definition added", False, "/$defs/Single"),
    }
    # a move between `definitions` and `$defs` (the dialect's spelling) is neither
    moved = {"$schema": DRAFT_07, "definitions": base["$defs"]}
    assert (
        schema_changes(
            Context.from_texts({"s/x.json": json.dumps(moved)}),
            Context.from_texts({"s/x.json": json.dumps({"$schema": DRAFT_2020, **base})}),
        )
        == []
    )


def test_a_components_schema_removed_from_an_api_document_breaks() -> None:
    def api(schemas: dict[str, Any]) -> str:
        return json.dumps(
            {
                "openapi": "3.1.0",
                "info": {"title": "t", "version": "1"},
                "paths": {},
                "components": {"schemas": schemas},
            }
        )

    base = Context.from_texts({"api/openapi.json": api({"A": {"type": "string"}, "B": {}})})
    head = Context.from_texts({"api/openapi.json": api({"A": {"type": "string"}})})
    assert {(c.kind, c.breaking, c.location.pointer) for c in schema_changes(base, head)} == {
        ("definition removed", True, "/components/schemas/B")
    }


def test_a_definition_nested_in_an_api_component_removed_breaks() -> None:
    # `components/schemas/B/$defs/Nested` is as addressable as a schema file's nested
    # `$defs/Holder/$defs/Inner`: removing it breaks `openapi.json#/.../B/$defs/Nested`
    def api(nested: dict[str, Any]) -> str:
        inline = {"type": "object", "$defs": nested}
        operation = {"requestBody": {"content": {"application/json": {"schema": inline}}}}
        return json.dumps(
            {
                "openapi": "3.1.0",
                "info": {"title": "t", "version": "1"},
                "paths": {"/b": {"post": operation}},
                "components": {"schemas": {"B": {"type": "object", "$defs": nested}}},
            }
        )

    kept = {"Kept": {"type": "string"}}
    base = Context.from_texts({"api/openapi.json": api({**kept, "Nested": {"type": "string"}})})
    head = Context.from_texts({"api/openapi.json": api(kept)})
    body = "/paths/~1b/post/requestBody/content/application~1json/schema"
    assert {(c.kind, c.breaking, c.location.pointer) for c in schema_changes(base, head)} == {
        ("definition removed", True, "/components/schemas/B/$defs/Nested"),
        ("definition removed", True, f"{body}/$defs/Nested"),  # an inline schema's, too
    }
    assert {(c.kind, c.location.pointer) for c in schema_changes(head, base)} == {
        ("definition added", "/components/schemas/B/$defs/Nested"),
        ("definition added", f"{body}/$defs/Nested"),
    }


def test_a_definition_at_any_depth_of_a_schema_file_is_one() -> None:
    # a `$defs` below a property is a keyword of that property's schema: its entries are
    # definitions (`x.json#/properties/p/$defs/Inner`) as the root's are
    base = {"properties": {"p": {"$defs": {"Inner": {"type": "string"}}, "type": "object"}}}
    head = {"properties": {"p": {"$defs": {}, "type": "object"}}}
    assert at(schema_diff(base, head)) == {("definition removed", "/properties/p/$defs/Inner")}


def test_a_property_named_defs_is_no_definition() -> None:
    # `properties/$defs` is a property of that name: its own members are properties, and
    # removing it is a property removed, not a definition removed
    inner = {"type": "object", "properties": {"a": {"type": "string"}}}
    base = {"type": "object", "properties": {"$defs": inner, "definitions": inner}}
    fewer = {"type": "object", "properties": {"$defs": {**inner, "properties": {}}}}
    assert at(schema_diff(base, fewer)) == {
        ("property removed", "/properties"),  # `definitions`
        ("property removed", "/properties/$defs/properties"),  # `a`
    }


@pytest.mark.parametrize(
    ("kind", "pointer", "expected"),
    [
        (DocumentKind.SCHEMA, "/$defs/A", True),
        (DocumentKind.SCHEMA, "/definitions/A", True),
        (DocumentKind.SCHEMA, "/$defs/A/$defs/B", True),
        (DocumentKind.SCHEMA, "/properties/p/items/definitions/B", True),
        (DocumentKind.SCHEMA, "/$defs/properties", True),  # a definition named `properties`
        (DocumentKind.SCHEMA, "/$defs", False),
        (DocumentKind.SCHEMA, "/properties/$defs", False),  # a property named `$defs`
        (DocumentKind.SCHEMA, "/properties/$defs/A", False),  # a keyword of that property
        (DocumentKind.SCHEMA, "/properties/definitions/A", False),
        (DocumentKind.SCHEMA, "/$defs/A/properties/B", False),
        (DocumentKind.SCHEMA, "/enum/0/$defs/A", False),  # data
        (DocumentKind.SCHEMA, "/components/schemas/A", False),  # a schema's keyword
        (DocumentKind.OPENAPI, "/components/schemas/B", True),
        (DocumentKind.OPENAPI, "/components/schemas/B/$defs/Nested", True),
        (DocumentKind.OPENAPI, "/components/schemas/B/properties/$defs/Nested", False),
        (DocumentKind.OPENAPI, "/components/schemas/B/properties/x/$defs/Nested", True),
        (DocumentKind.OPENAPI, "/components/responses/B", False),
        (DocumentKind.OPENAPI, "/components/schemas", False),
        (DocumentKind.OPENAPI, "/definitions/B", True),  # Swagger 2.0's components/schemas
        (DocumentKind.ASYNCAPI, "/components/schemas/B", True),
        (DocumentKind.ASYNCAPI, "/components/messages/M/payload/$defs/B", True),
        (DocumentKind.ASYNCAPI, "/components/messages/M/examples/0/$defs/B", False),
    ],
)
def test_is_definition_reads_the_position_of_each_key(
    kind: DocumentKind, pointer: str, expected: bool
) -> None:
    document = SimpleNamespace(kind=kind)
    assert is_definition(document, split_pointer(pointer)) is expected  # type: ignore[arg-type]


def test_a_constraint_an_all_of_branch_already_imposes_is_no_change() -> None:
    # the parent's `allOf` branch types `id` and requires it: saying it again beside the
    # `allOf` allows nothing less, so nothing narrowed
    branch = {
        "type": "object",
        "required": ["id"],
        "properties": {"id": {"type": "string", "enum": ["a", "b"]}},
    }
    base = {
        "$defs": {"Meta": branch},
        "type": "object",
        "properties": {"id": {}},
        "allOf": [{"$ref": "#/$defs/Meta"}],
    }
    again = {**base, "required": ["id"], "properties": {"id": {"type": "string"}}}
    assert schema_diff(base, again) == []
    values = {**base, "properties": {"id": {"enum": ["a", "b", "c"]}}}
    assert schema_diff(base, values) == []
    # what the branch does not already impose still narrows
    tighter = {**base, "properties": {"id": {"type": "string", "maxLength": 3}}}
    assert at(schema_diff(base, tighter)) == {("bound tightened", "/properties/id/maxLength")}
