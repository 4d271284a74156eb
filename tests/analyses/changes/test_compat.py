"""The change report where structure cannot say: instances generated from one revision's schema,
validated against the other's (``speclint.analyses.changes.acceptance``), quoted as the evidence."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from test_cli import cli
from test_diff_base import git

from conftest import cli_in_process
from speclint.analyses.changes import witnessed_changes
from speclint.analyses.changes.compat import schema_changes
from speclint.analyses.context import Context

# A request body: what the client submits.
API = """openapi: 3.1.0
info: {title: Orders, version: '1'}
paths:
  /orders:
    post:
      operationId: createOrder
      requestBody:
        content:
          application/json:
            schema: {$ref: '../schemas/order.schema.json'}
      responses:
        '200': {description: created}
"""


def order(**properties: Any) -> str:
    return json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": properties,
        },
        indent=2,
    )


Speclint = Callable[..., subprocess.CompletedProcess[str]]


def changes_between(
    tmp_path: Path, base: str, head: str, speclint: Speclint = cli_in_process
) -> tuple[str, str]:
    """``speclint changes`` of a repository whose head commit replaces the order schema, run in
    this process unless ``speclint`` says otherwise."""
    repo = tmp_path / "spec"
    (repo / "corpus/api").mkdir(parents=True)
    (repo / "corpus/schemas").mkdir()
    (repo / "corpus/api/openapi.yaml").write_text(API)
    schema = repo / "corpus/schemas/order.schema.json"
    schema.write_text(base)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    schema.write_text(head)
    git(repo, "commit", "-q", "-am", "head")
    listed = speclint("changes", "corpus", "--diff-base", "HEAD~1", cwd=repo)
    assert listed.returncode == 0, listed.stderr
    return listed.stdout, listed.stderr


def quoted(line: str) -> Any:
    """The instance a change quotes as its witness."""
    found = re.search(r"`([^`]+)` is valid at the", line)
    assert found, line
    return json.loads(found.group(1))


def test_a_stricter_pattern_on_a_request_field_is_breaking_with_an_instance_it_rejects(
    tmp_path: Path,
) -> None:
    base = {"type": "string", "pattern": "^[a-z]+$"}
    head = {"type": "string", "pattern": "^[a-z]{3}$"}
    stdout, stderr = changes_between(tmp_path, order(code=base), order(code=head))
    # The comparisons can only say "may" of a replaced pattern: an instance proves it.
    (line,) = [ln for ln in stdout.splitlines() if "[constraint narrowed]" in ln]
    assert "breaking [constraint narrowed] `code` of client-submitted" in line
    assert "valid at the base and rejected at the head" in line
    instance = quoted(line)
    # The quoted instance is the proof: the base accepts it, the head does not.
    assert Draft202012Validator(base).is_valid(instance)
    assert not Draft202012Validator(head).is_valid(instance)
    assert "1 breaking" in stderr


def test_a_not_added_to_a_request_field_is_breaking(tmp_path: Path) -> None:
    head = {"type": "string", "not": {"const": "legacy"}}
    stdout, _ = changes_between(tmp_path, order(kind={"type": "string"}), order(kind=head))
    (line,) = [ln for ln in stdout.splitlines() if "is valid at the base" in ln]
    assert line.split(": ", 1)[1].startswith("breaking [constraint narrowed]")
    # A value only the `not` names: found from what the head refuses, not by chance.
    assert quoted(line) == "legacy"


def test_an_enum_rewritten_as_a_union_of_consts_is_no_change(tmp_path: Path) -> None:
    base = {"enum": ["card", "invoice"]}
    head = {"anyOf": [{"const": "card"}, {"const": "invoice"}]}
    stdout, stderr = changes_between(tmp_path, order(pay=base), order(pay=head))
    assert stdout == "", stdout
    assert "0 change(s) since HEAD~1" in stderr


def test_a_union_that_loses_a_value_is_narrowed_not_widened(tmp_path: Path) -> None:
    # Read by keywords alone the enum is gone ("may now be any value") and two members are new;
    # the instances say the one value `wire` is no longer accepted, and nothing new is: the
    # narrowing stands, the widenings are withdrawn.
    base = {"enum": ["card", "invoice", "wire"]}
    head = {"anyOf": [{"const": "card"}, {"const": "invoice"}]}
    stdout, _ = changes_between(tmp_path, order(pay=base), order(pay=head))
    assert stdout, "the narrowing is reported"
    for line in stdout.splitlines():
        assert ": breaking [" in line, line
        assert "[enum value added]" not in line and "[union member added]" not in line


def test_a_one_of_whose_members_overlap_rejects_what_both_accept(tmp_path: Path) -> None:
    # A string of two or three characters matches both members: `oneOf` rejects it.
    base = {"type": "string"}
    head = {"type": "string", "oneOf": [{"maxLength": 3}, {"minLength": 2}]}
    stdout, _ = changes_between(tmp_path, order(code=base), order(code=head))
    (line,) = [ln for ln in stdout.splitlines() if "[accepted values narrowed]" in ln]
    assert ": breaking [" in line and "is valid under each of" in line
    instance = quoted(line)
    assert Draft202012Validator(base).is_valid(instance)
    assert not Draft202012Validator(head).is_valid(instance)


def test_a_location_that_cannot_be_generated_from_is_undecided_not_unchanged(
    tmp_path: Path,
) -> None:
    # A recursive shape cannot be made self-contained: "could not decide" is said, never "no
    # change".
    def tree(pattern: str) -> str:
        return json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "if": {"properties": {"kind": {"pattern": pattern}}},
                "then": {"required": ["kind"]},
                "properties": {"children": {"type": "array", "items": {"$ref": "#"}}},
            }
        )

    stdout, _ = changes_between(tmp_path, tree("^[a-z]+$"), tree("^[a-z]{3}$"))
    (line,) = [ln for ln in stdout.splitlines() if "[change not decided]" in ln]
    assert "additive [change not decided]" in line
    assert "recursive" in line and "review it by hand" in line


def test_the_witness_budget_cut_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(witnessed_changes, "WITNESSED_NODES", 1)

    def corpus(suffix: str) -> Context:
        fields = {
            name: {"type": "string", "pattern": f"^{name}{suffix}$"} for name in ("a", "b", "c")
        }
        return Context.from_texts(
            {"api/openapi.yaml": API, "schemas/order.schema.json": order(**fields)}
        )

    found = schema_changes(corpus("+"), corpus("{2}"))
    witnessed = [c for c in found if "is valid at the base" in c.description]
    (note,) = [c for c in found if c.kind == "not witnessed"]
    assert len(witnessed) == 1 and not note.breaking
    assert note.description.startswith("2 node(s) that differ")
    assert "the budget of 1 witnessed nodes a run was spent" in note.description


def test_the_witnesses_are_the_same_on_every_run(tmp_path: Path) -> None:
    base = order(code={"type": "string", "format": "date"}, n={"type": "integer"})
    head = order(code={"type": "string", "format": "date-time"}, n={"not": {"multipleOf": 7}})
    # One run in this process, one in a child: another interpreter, another hash seed.
    first, _ = changes_between(tmp_path / "one", base, head)
    second, _ = changes_between(tmp_path / "two", base, head, speclint=cli)
    assert "is valid at the base" in first and "is valid at the head" in first
    assert first == second
