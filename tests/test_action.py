"""The GitHub Action (issue 17, item 3): ``action.yml`` is valid action metadata, the documented
workflow is a valid workflow that uses it, and the action's steps, run as a runner runs them (bash
``-eo pipefail``, the step's ``env:`` with its expressions evaluated, ``GITHUB_OUTPUT`` and
``GITHUB_STEP_SUMMARY`` files), gate a real pull-request repository from a shallow clone."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from ruamel.yaml import YAML
from test_diff_base import repository

from conftest import REPOSITORY

ACTION = REPOSITORY / "action.yml"
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def vendored(name: str) -> dict[str, Any]:
    """A SchemaStore schema as check-jsonschema vendors it (with SchemaStore's licence)."""
    folder = resources.files("check_jsonschema") / "builtin_schemas" / "vendor"
    assert (folder / "licenses" / "LICENSE.schemastore").is_file()
    loaded: dict[str, Any] = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def load(text: str) -> Any:
    """YAML as GitHub reads it: 1.2, so `on:` is a key, not True."""
    return YAML(typ="safe", pure=True).load(text)


def action() -> dict[str, Any]:
    loaded: dict[str, Any] = load(ACTION.read_text(encoding="utf-8"))
    return loaded


def test_the_action_is_valid_action_metadata() -> None:
    schema = vendored("github-actions")
    jsonschema.validators.validator_for(schema)(schema).validate(action())
    # The schema is not a stand-in: it rejects what GitHub rejects.
    broken = action()
    broken["runs"]["using"] = "composit"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def test_no_value_is_spliced_into_a_script() -> None:
    """Inputs and event fields reach the scripts through ``env:`` only: ``${{ }}`` in a ``run:``
    would let a branch name or a path inject shell code."""
    declared = set(action()["inputs"])
    for step in action()["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), step.get("name")
        if "run" in step:
            assert step["shell"] == "bash"
    used = set(re.findall(r"inputs\.([\w-]+)", ACTION.read_text(encoding="utf-8")))
    assert used == declared


def test_the_documented_workflow_is_valid_and_uses_the_action() -> None:
    doc = (REPOSITORY / "docs/github-action.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)\n```", doc, re.S)
    workflow = load(blocks[0])
    jsonschema.validate(workflow, vendored("github-workflows"))
    steps = workflow["jobs"]["gate"]["steps"]
    assert any(step.get("uses", "").startswith("speclint/speclint@") for step in steps)
    assert len(blocks[0].splitlines()) <= 15  # "a workflow is ten lines" (and its permissions)
    assert workflow["permissions"] == {
        "contents": "read",
        "security-events": "write",
        "pull-requests": "write",
    }
    # Every input the documentation shows is one the action declares.
    for block in blocks[1:]:
        (step,) = load(block)
        assert set(step["with"]) <= set(action()["inputs"])


def evaluate(value: str, context: dict[str, str]) -> str:
    """A step's ``env:`` value with its expressions evaluated: the context lookups and ``||``
    (the first non-empty operand) that action.yml uses."""

    def one(match: re.Match[str]) -> str:
        for operand in match.group(1).split("||"):
            found = context.get(operand.strip(), "")
            if found:
                return found
        return ""

    return EXPRESSION.sub(one, value)


def run_step(
    step: dict[str, Any], context: dict[str, str], cwd: Path, path: str, files: Path
) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "PATH": path,
        "GITHUB_OUTPUT": str(files / "output"),
        "GITHUB_STEP_SUMMARY": str(files / "summary"),
        **{name: evaluate(str(value), context) for name, value in step.get("env", {}).items()},
    }
    # How a runner runs `shell: bash`.
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


def outputs(files: Path) -> dict[str, str]:
    lines = (files / "output").read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_action_gates_a_pull_request_from_a_shallow_clone(tmp_path: Path) -> None:
    origin = repository(tmp_path)  # the base commit, and a change that adds a duplicate key
    base = subprocess.run(
        ["git", "rev-parse", "HEAD~1"], cwd=origin, capture_output=True, text=True, check=True
    ).stdout.strip()
    workspace = tmp_path / "workspace"
    # What actions/checkout leaves: the pull request's commit, one deep.
    subprocess.run(
        ["git", "clone", "-q", "--depth=1", origin.as_uri(), str(workspace)],
        check=True,
        capture_output=True,
    )
    # The install step, into an environment of its own that sees this one's packages (no
    # download), so the speclint it installs from the action's folder is the one that runs.
    environment = tmp_path / "runner-python"
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", str(environment)], check=True
    )
    path = f"{environment / 'bin'}{os.pathsep}{os.environ['PATH']}"
    defaults = {
        f"inputs.{name}": str(spec.get("default", "")) for name, spec in action()["inputs"].items()
    }
    context = {
        **defaults,
        "inputs.path": "corpus",
        "github.action_path": str(REPOSITORY),
        "github.event.pull_request.base.sha": base,
    }
    files = tmp_path / "runner-files"
    files.mkdir()
    (files / "output").touch()
    steps = {step.get("name", step.get("uses")): step for step in action()["runs"]["steps"]}

    installed = run_step(steps["Install speclint"], context, workspace, path, files)
    assert installed.returncode == 0, installed.stderr
    where = subprocess.run(["bash", "-c", "command -v speclint"], env={"PATH": path}, text=True,
                           capture_output=True)  # fmt: skip
    assert where.stdout.strip() == str(environment / "bin" / "speclint")

    fetched = run_step(
        steps["Fetch the base revision (a pull request's checkout is shallow)"],
        context,
        workspace,
        path,
        files,
    )
    assert fetched.returncode == 0, fetched.stderr

    checked = run_step(steps["Lint the change against its base"], context, workspace, path, files)
    assert checked.returncode == 0, checked.stderr  # the step records the code and goes on
    assert outputs(files)["exit-code"] == "1", checked.stderr  # the change adds a defect
    assert "::error file=corpus/schemas/heartbeat-ack.schema.json" in checked.stdout
    assert "1 new finding(s), 1 fixed" in checked.stderr
    summary = (files / "summary").read_text(encoding="utf-8")
    assert summary.startswith("# speclint: what this change does to the spec")
    upload = steps["Upload SARIF to code scanning"]
    sarif = json.loads((workspace / upload["with"]["sarif_file"]).read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    assert action()["outputs"]["sarif-file"]["value"] == upload["with"]["sarif_file"]
    comment = steps["Comment the report on the pull request"]
    assert "inputs.comment == 'true'" in comment["if"]
    assert "head.repo.full_name == github.repository" in comment["if"]  # not from forks
    assert "speclint.md" in comment["run"]

    context["steps.check.outputs.exit-code"] = outputs(files)["exit-code"]
    gate = run_step(steps["Gate"], context, workspace, path, files)
    assert gate.returncode == 1

    # Warnings too, against no revision: every finding of the corpus counts.
    (files / "output").write_text("")
    context.update({"inputs.base": "none", "inputs.fail-on": "warning"})
    again = run_step(steps["Lint the change against its base"], context, workspace, path, files)
    assert again.returncode == 0, again.stderr
    assert outputs(files)["exit-code"] == "1"
    assert "new finding(s)" not in again.stderr
    # A lint step that never answered fails the gate as speclint's own error would.
    del context["steps.check.outputs.exit-code"]
    assert run_step(steps["Gate"], context, workspace, path, files).returncode == 2
