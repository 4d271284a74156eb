"""Agent Feedback Protocol v1.2: `--format afp` and `speclint afp`, checked against JSON Schemas
written from the protocol's tables (linter/data/afp/)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from test_cli import cli

from conftest import BUNDLED_CORPUS, cli_in_process, copy_bundled_corpus
from speclint.outputs.afp import ID_PATTERN, schema

REQUEST = Draft202012Validator(schema("request"))
RESPONSE = Draft202012Validator(schema("response"))


def afp(
    request: Any, *args: str, cwd: Path | None = None, child: bool = False
) -> tuple[int, dict[str, Any]]:
    """Send a request to `speclint afp` on stdin; the exit code and the parsed response. The
    command runs in this process, or in a child process (``child``) for a test of the real
    stdin and stdout an agent talks to."""
    text = request if isinstance(request, str) else json.dumps(request)
    if not child:
        done = cli_in_process("afp", *args, cwd=cwd, input=text)
    else:
        done = subprocess.run(
            [sys.executable, "-m", "speclint", "afp", *args],
            input=text,
            capture_output=True,
            text=True,
            cwd=cwd,
            timeout=300,
        )
    assert "Traceback" not in done.stderr, done.stderr
    response = json.loads(done.stdout)
    assert not list(RESPONSE.iter_errors(response)), list(RESPONSE.iter_errors(response))
    return done.returncode, response


def areas(response: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["id"]: a for a in response["feedback"]["areas_for_improvement"]}


def test_the_schemas_are_the_tables() -> None:
    """The request schema accepts the protocol's shapes and refuses what its tables forbid."""
    request = {
        "protocol_version": "1.2",
        "iteration": 2,
        "artifact": {"media_type": "text/markdown", "content": "# x", "artifact_ref": "abc123"},
        "applied_feedback": {"items": [{"id": "enum-drift.0123456789abcdef", "status": "partial"}]},
        "x-requester": "author-agent",
    }
    assert REQUEST.is_valid(request)
    for broken in (
        {**request, "sessionID": "ses_1"},  # §2.1: tool-managed session fields are forbidden
        {**request, "protocol_version": "1.1"},
        {**request, "artifact": {"content": "# x"}},
        {**request, "applied_feedback": {"items": [{"id": "x", "status": "done"}]}},
    ):
        assert not REQUEST.is_valid(broken)
    assert not RESPONSE.is_valid({"protocol_version": "1.2", "iteration": 1, "status": "success"})
    assert not RESPONSE.is_valid(
        {
            "protocol_version": "1.2",
            "iteration": 1,
            "status": "error",
            "error": {"code": "INTERNAL_ERROR", "message": "x"},
            "feedback": {},
        }
    )


def test_format_afp_is_a_valid_response_with_stable_ids() -> None:
    # One run in this process and one in a child (another interpreter, another hash seed).
    first = cli_in_process("check", str(BUNDLED_CORPUS), "--format", "afp")
    second = cli("check", str(BUNDLED_CORPUS), "--format", "afp")
    assert first.stdout == second.stdout  # deterministic
    response = json.loads(first.stdout)
    assert not list(RESPONSE.iter_errors(response))
    assert response["status"] == "success" and response["iteration"] == 1
    items = response["feedback"]["areas_for_improvement"]
    text = cli_in_process("check", str(BUNDLED_CORPUS), "--format", "json")
    assert len(items) == len(json.loads(text.stdout)["findings"])
    ids = [item["id"] for item in items]
    assert len(set(ids)) == len(ids) and all(ID_PATTERN.match(i) for i in ids)
    # Errors come first, and every item says what to do.
    severities = [item["x-speclint-severity"] for item in items]
    assert severities == sorted(severities, key=["error", "warning", "info"].index)
    assert all(item["recommendation"] and item["recommendation"][0].isupper() for item in items)
    assert response["feedback"]["confidence"]["level"] == "medium"  # broken.schema.json


def test_round_trip_over_two_iterations(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    copy_bundled_corpus(corpus)
    request = {
        "protocol_version": "1.2",
        "iteration": 1,
        "artifact": {"media_type": "inode/directory", "content": str(corpus)},
    }
    code, first = afp(request)
    assert code == 0 and first["iteration"] == 1 and "applied_feedback_ack" not in first
    found = areas(first)
    (dates,) = [i for i, a in found.items() if "earlier than `Created`" in a["description"]]
    (remote,) = [i for i, a in found.items() if a["x-speclint-rule"] == "undeclared-tag"]

    # The agent applies one item, rejects another, and reports on one speclint never issued.
    rfc = corpus / "rfcs/0001-run-cancellation.md"
    rfc.write_text(rfc.read_text().replace("| Updated | 2026-02-20 |", "| Updated | 2026-03-20 |"))
    request = {
        "protocol_version": "1.2",
        "iteration": 2,
        "artifact": {"media_type": "inode/directory", "content": str(corpus)},
        "applied_feedback": {
            "items": [
                {"id": dates, "status": "accepted"},
                {"id": remote, "status": "rejected", "reason_code": "out_of_scope"},
                {"id": "scope-definition-lacks-detail-01", "status": "partial"},
            ]
        },
    }
    assert REQUEST.is_valid(request)
    code, second = afp(request)
    assert code == 0 and second["iteration"] == 2
    ack = second["applied_feedback_ack"]["items"]
    assert [(a["id"], a["processing_status"]) for a in ack] == [
        (dates, "acknowledged"),
        (remote, "acknowledged"),
        ("scope-definition-lacks-detail-01", "unknown_id"),
    ]
    assert [a["x-speclint-still-reported"] for a in ack] == [False, True, False]
    assert dates not in areas(second) and remote in areas(second)
    assert set(areas(second)) == set(found) - {dates}  # the other ids are stable


def test_an_inline_schema_inside_a_corpus(tmp_path: Path) -> None:
    """An agent revises one schema without writing it: speclint lints it in the corpus's place."""
    fixed = json.loads((BUNDLED_CORPUS / "schemas/run-filter.schema.json").read_text())
    fixed["required"] = ["status"]
    request = {
        "protocol_version": "1.2",
        "iteration": 1,
        "artifact": {
            "media_type": "application/schema+json",
            "content": fixed,
            "x-speclint-path": "schemas/run-filter.schema.json",
        },
    }
    code, response = afp(request, str(BUNDLED_CORPUS))
    assert code == 0
    assert response["feedback"]["areas_for_improvement"] == []  # the defect is repaired
    assert any(p["aspect"] == "schema-invalid" for p in response["feedback"]["positive_points"])

    broken = {**fixed, "required": "status"}
    request["artifact"]["content"] = broken
    code, response = afp(request, str(BUNDLED_CORPUS))
    items = response["feedback"]["areas_for_improvement"]
    assert [i["x-speclint-rule"] for i in items] == ["schema-invalid"]
    assert items[0]["x-speclint-location"]["path"] == "schemas/run-filter.schema.json"


def test_a_markdown_artifact_on_its_own() -> None:
    page = '# Runs\n\n```json\n{"a": 1, "a": 2}\n```\n'
    request = {"iteration": 1, "artifact": {"media_type": "text/markdown", "content": page}}
    # Through a child's real stdin and stdout, as an agent sends it.
    code, response = afp(request, child=True)  # no protocol_version: §5.1's own example omits it
    assert code == 0 and response["protocol_version"] == "1.2"
    assert response["feedback"]["confidence"]["level"] == "high"


@pytest.mark.parametrize(
    ("request_text", "code"),
    [
        ("{not json", "INVALID_REQUEST"),
        (
            '{"protocol_version": "1.1", "iteration": 1, "artifact": {"media_type": "text/markdown", "content": ""}}',
            "INVALID_REQUEST",
        ),
        (
            '{"iteration": 3, "sessionID": "s", "artifact": {"media_type": "text/markdown", "content": ""}}',
            "INVALID_REQUEST",
        ),
        (
            '{"iteration": 1, "artifact": {"media_type": "image/png", "content": "x"}}',
            "UNSUPPORTED_MEDIA_TYPE",
        ),
        (
            '{"iteration": 1, "artifact": {"media_type": "inode/directory", "content": "/no/such/dir"}}',
            "INVALID_REQUEST",
        ),
        (
            '{"iteration": 1, "artifact": {"media_type": "text/markdown", "content": "x", "x-speclint-path": "../etc/passwd"}}',
            "INVALID_REQUEST",
        ),
    ],
)
def test_bad_requests_get_error_responses(request_text: str, code: str) -> None:
    exit_code, response = afp(request_text)
    assert exit_code == 2
    assert response["status"] == "error" and response["error"]["code"] == code
    assert response["error"]["message"]
