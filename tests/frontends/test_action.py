"""The GitHub Action (issue 17, item 3): ``action.yml`` is valid action metadata, the documented
workflow is a valid workflow that uses it, and the action's steps, run as a runner runs them (bash
``-eo pipefail``, the step's ``env:`` with its expressions evaluated, ``GITHUB_OUTPUT`` and
``GITHUB_STEP_SUMMARY`` files), gate a real pull-request repository from a shallow clone; and
(issue 44, item 1) what the job summary, the comment and code scanning get is the reports speclint
wrote in the run, never a file of the pull request's checkout."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from ruamel.yaml import YAML
from test_diff_base import git, repository

from conftest import REPOSITORY, schema, write_files
from speclint.outputs.reporters.markdown_report import GATE_BUDGET

PR_COMMENT_LIMIT = 65_536  # GitHub's limit on an issue or pull-request comment body

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


def needed_permissions() -> dict[str, str]:
    """The GITHUB_TOKEN permissions the action's steps use."""
    steps = action()["runs"]["steps"]
    needed = {"contents": "read"}  # the checkout, and the fetch of the base commit
    if any(step.get("uses", "").startswith("github/codeql-action/upload-sarif@") for step in steps):
        needed["security-events"] = "write"
    if any("gh pr comment" in step.get("run", "") for step in steps):
        needed["pull-requests"] = "write"
    return needed


def yaml_blocks(text: str) -> list[str]:
    return re.findall(r"```yaml\n(.*?)\n```", text, re.S)


def documented_workflow(source: str) -> str:
    """The workflow a page shows first: docs/github-action.md's, or the README's in its section
    on the GitHub Action."""
    text = (REPOSITORY / source).read_text(encoding="utf-8")
    if source == "README.md":
        heading = "\n## On every pull request: the GitHub Action\n"
        text = text.split(heading, 1)[1].split("\n## ", 1)[0]
    return yaml_blocks(text)[0]


@pytest.mark.parametrize("source", ["docs/github-action.md", "README.md"])
def test_a_documented_workflow_is_valid_and_grants_what_the_action_needs(source: str) -> None:
    """Copied as shown, the workflow runs the action with the token permissions its steps use:
    with less, the SARIF upload or the comment fails; a repository whose default token is
    read-only gets none of them without the block."""
    block = documented_workflow(source)
    workflow = load(block)
    jsonschema.validate(workflow, vendored("github-workflows"))
    steps = workflow["jobs"]["gate"]["steps"]
    assert any(step.get("uses", "").startswith("speclint/speclint@") for step in steps)
    assert len(block.splitlines()) <= 15  # "a workflow is ten lines" (and its permissions)
    assert workflow["permissions"] == needed_permissions()
    assert set(needed_permissions()) == {"contents", "security-events", "pull-requests"}


def test_the_documented_inputs_are_the_actions() -> None:
    doc = (REPOSITORY / "docs/github-action.md").read_text(encoding="utf-8")
    # Every input the documentation shows is one the action declares.
    for block in yaml_blocks(doc)[1:]:
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
    (files / "runner-temp").mkdir(exist_ok=True)
    environment = {
        **os.environ,
        "PATH": path,
        "GITHUB_OUTPUT": str(files / "output"),
        "GITHUB_STEP_SUMMARY": str(files / "summary"),
        "RUNNER_TEMP": str(files / "runner-temp"),
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


def step_outputs(files: Path, step_id: str) -> dict[str, str]:
    """The step's outputs as later steps' expressions see them."""
    return {f"steps.{step_id}.outputs.{name}": value for name, value in outputs(files).items()}


def hash_files(workspace: Path, pattern: str) -> str:
    """hashFiles() as GitHub evaluates it, as far as a test needs: a hash when the pattern
    names a file of the workspace, or a folder holding one (links followed), else ''."""
    found = workspace / pattern
    if found.is_file() or (found.is_dir() and any(p.is_file() for p in found.rglob("*"))):
        return "a hash"
    return ""


def holds(condition: str, context: dict[str, str], workspace: Path) -> bool:
    """A step's ``if:`` evaluated: the ``&&`` of ``always()`` and of ``==``/``!=`` between
    strings, context values and ``hashFiles(...)``, which is all action.yml uses (anything else
    fails the test, so a new form is taught here before it is trusted)."""

    def operand(text: str) -> str:
        if quoted := re.fullmatch(r"'([^']*)'", text):
            return quoted.group(1)
        if called := re.fullmatch(r"hashFiles\('([^']*)'\)", text):
            return hash_files(workspace, called.group(1))
        assert re.fullmatch(r"[\w.-]+", text), f"an operand this test cannot evaluate: {text}"
        return context.get(text, "")

    for term in EXPRESSION.sub(r"\1", condition).split("&&"):
        term = term.strip()
        if term == "always()":
            continue
        compared = re.fullmatch(r"(\S+)\s*(==|!=)\s*(\S+)", term)
        assert compared, f"an expression this test cannot evaluate: {term}"
        left, operator, right = compared.groups()
        if (operand(left) == operand(right)) != (operator == "=="):
            return False
    return True


def uploaded_sarif(step: dict[str, Any], context: dict[str, str], workspace: Path) -> list[Path]:
    """The files upload-sarif sends: its ``sarif_file``, or every .sarif file of that folder."""
    named = workspace / evaluate(step["with"]["sarif_file"], context)
    return sorted(named.rglob("*.sarif")) if named.is_dir() else [named]


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
    context.update(step_outputs(files, "check"))
    upload = steps["Upload SARIF to code scanning"]
    assert holds(upload["if"], context, workspace)
    (uploaded,) = uploaded_sarif(upload, context, workspace)
    assert json.loads(uploaded.read_text(encoding="utf-8"))["version"] == "2.1.0"
    assert evaluate(action()["outputs"]["sarif-file"]["value"], context) == str(uploaded)
    comment = steps["Comment the report on the pull request"]
    assert "inputs.comment == 'true'" in comment["if"]
    assert "head.repo.full_name == github.repository" in comment["if"]  # not from forks
    report = evaluate(comment["env"]["SPECLINT_REPORT"], context)
    assert Path(report).read_text(encoding="utf-8") == summary
    # The full reports, beside the comment, are the run's artifact (issue 48, item 6).
    artifact = steps["Upload the full reports as the run's artifact"]
    assert artifact["uses"].startswith("actions/upload-artifact@")
    assert holds(artifact["if"], context, workspace)
    folder = Path(evaluate(artifact["with"]["path"], context))
    assert sorted(p.name for p in folder.iterdir()) == [
        "comment.md",
        "speclint.md",
        "speclint.sarif",
    ]
    full = evaluate(action()["outputs"]["report-file"]["value"], context)
    assert Path(full).parent == folder and Path(full).read_text(encoding="utf-8").startswith(
        "# speclint: what this change does to the spec"
    )

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


# --- a pull request's files are never the report (issue 44, item 1) -----------------------------

# What actions/checkout persists in .git/config: the job's token, base64 (a stand-in here).
SECRET = "eC1hY2Nlc3MtdG9rZW46Z2hzX2Zha2VfdG9rZW5fZm9yX3Rlc3Rz"
FORGED = "all clear: a report the pull request wrote"


def pull_request_checkout(tmp_path: Path, committed: str) -> Path:
    """A checkout of a pull request that commits its own `speclint.sarif` and `speclint.md`:
    a folder and a link to .git/config (speclint refuses the outputs, exit 2), or regular files
    (with a configuration that stops speclint, exit 2, or not), beside a schema with a defect."""
    workspace = write_files(
        tmp_path / "workspace", {"schemas/run.schema.json": schema(type="object", required="id")}
    )
    git(workspace, "init", "-q", "-b", "main")
    git(
        workspace,
        "config",
        "http.https://github.com/.extraheader",
        f"AUTHORIZATION: basic {SECRET}",
    )
    forged = json.dumps({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": FORGED}}}]})
    if committed == "a folder and a link":
        write_files(workspace, {"speclint.sarif/forged.sarif": forged})
        (workspace / "speclint.md").symlink_to(".git/config")
    else:
        write_files(workspace, {"speclint.sarif": forged, "speclint.md": f"# {FORGED}\n"})
    if committed == "reports of its own, and a configuration that stops speclint":
        write_files(workspace, {"speclint.toml": "fail-on = [\n"})
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "-m", "a pull request")
    return workspace


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize(
    "committed",
    [
        "a folder and a link",
        "reports of its own, and a configuration that stops speclint",
        "reports of its own",
    ],
)
def test_the_action_shows_and_uploads_only_the_reports_speclint_wrote(
    tmp_path: Path, committed: str
) -> None:
    """The lint step, the SARIF upload and the comment, run as action.yml has them: the job
    summary, the comment and code scanning get speclint's reports of this run or none, never a
    file of the checkout (the token behind a link to .git/config, or a report of the pull
    request's own), and never a SARIF of a run that could not run."""
    workspace = pull_request_checkout(tmp_path, committed)
    files, comments, path = commenting_runner(tmp_path)
    context = pull_request_context({"github.repository": "owner/spec"})
    steps = {step.get("name", step.get("uses")): step for step in action()["runs"]["steps"]}

    checked = run_step(steps["Lint the change against its base"], context, workspace, path, files)
    assert checked.returncode == 0, checked.stderr
    # A configuration that stops speclint is exit 2 wherever the reports go; committed reports
    # stop it only when it writes them in the checkout.
    code = outputs(files)["exit-code"]
    stopped = committed == "reports of its own, and a configuration that stops speclint"
    assert code == "2" if stopped else code in {"1", "2"}, checked.stderr
    ran = code == "1"
    context.update(step_outputs(files, "check"))
    upload = steps["Upload SARIF to code scanning"]
    uploaded = (
        uploaded_sarif(upload, context, workspace)
        if holds(upload["if"], context, workspace)
        else []
    )
    comment = steps["Comment the report on the pull request"]
    if holds(comment["if"], context, workspace):
        posted = run_step(comment, context, workspace, path, files)
        assert posted.returncode == 0, posted.stderr

    summary = (files / "summary").read_text(encoding="utf-8")
    shown = {
        "the job summary": summary,
        "the comment": comments.read_text(encoding="utf-8") if comments.exists() else "",
        **{f"the upload of {p}": p.read_text(encoding="utf-8") for p in uploaded},
    }
    for where, text in shown.items():
        assert SECRET not in text and "extraheader" not in text, where
        assert FORGED not in text, where
    sarif_file = evaluate(action()["outputs"]["sarif-file"]["value"], context)
    report_file = evaluate(action()["outputs"]["report-file"]["value"], context)
    if ran:
        # speclint's own reports, in the run's folder, are what the reviewers get.
        (sarif,) = uploaded
        assert str(sarif) == sarif_file and sarif.is_file() and not sarif.is_symlink()
        assert not sarif.resolve().is_relative_to(workspace.resolve())
        log = json.loads(sarif.read_text(encoding="utf-8"))
        assert log["runs"][0]["tool"]["driver"]["name"] == "speclint"
        assert {result["ruleId"] for result in log["runs"][0]["results"]} == {"schema-invalid"}
        # No base: the comment and the job summary are the summary, with a link to the run
        # whose artifact holds the full report (issue 48, item 6).
        assert summary.startswith("# speclint summary") and "schema-invalid" in summary
        assert shown["the comment"] == summary + ARTIFACT_LINE
        full = Path(report_file).read_text(encoding="utf-8")
        assert full.startswith("# speclint report") and "schema-invalid" in full
    else:
        # Exit 2: no SARIF is offered (its missing results would read as open alerts fixed).
        assert uploaded == [] and sarif_file == ""
    # The action wrote nothing into the checkout: the pull request's files are as it made them.
    assert git(workspace, "status", "--porcelain", "--ignored") == ""


# --- the comment fits, whatever the corpus (issue 48, item 6) ----------------------------------

RUN = {
    "github.server_url": "https://github.example",
    "github.repository": "owner/spec",
    "github.run_id": "42",
}
ARTIFACT_LINE = (
    "\nThe full reports (Markdown, SARIF) are the artifact `speclint-reports` of "
    "https://github.example/owner/spec/actions/runs/42\n"
)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def commenting_runner(tmp_path: Path) -> tuple[Path, Path, str]:
    """The runner's files (outputs, job summary), where gh's stand-in writes the comment it would
    post (what --body-file names), and the PATH the steps run with: the stand-in, then this
    interpreter's speclint, the one under test (the install step is tested above)."""
    files = tmp_path / "runner-files"
    files.mkdir()
    (files / "output").touch()
    (files / "summary").touch()
    stand_ins = tmp_path / "bin"
    stand_ins.mkdir()
    comments = files / "comments"
    (stand_ins / "gh").write_text(
        '#!/bin/bash\nwhile [ $# -gt 0 ]; do\n  if [ "$1" = --body-file ]; then\n'
        f'    cat -- "$2" >> {shlex.quote(str(comments))}; exit 0\n  fi\n  shift\ndone\nexit 1\n'
    )
    (stand_ins / "gh").chmod(0o755)
    path = os.pathsep.join([str(stand_ins), str(Path(sys.executable).parent), os.environ["PATH"]])
    return files, comments, path


def pull_request_context(extra: dict[str, str]) -> dict[str, str]:
    """The expressions of a run for pull request 7 of a same-repository branch, with no base, the
    inputs at their defaults but for ``extra``."""
    return {
        **{
            f"inputs.{name}": str(spec.get("default", ""))
            for name, spec in action()["inputs"].items()
        },
        "inputs.base": "none",
        "github.event_name": "pull_request",
        "github.event.pull_request.head.repo.full_name": "owner/spec",
        "github.event.pull_request.number": "7",
        "github.token": "a token",
        **RUN,
        **extra,
    }


def test_without_a_base_the_comment_is_a_summary_and_the_full_reports_are_the_artifact(
    tmp_path: Path,
) -> None:
    """``base: none`` on a corpus with thousands of findings: the whole-corpus report (over
    GitHub's 65,536-character limit on a comment) is the artifact the comment links to; the
    comment and the job summary are the summary, under the budget."""
    links = "".join(f"[page {n}](missing-{n}.md)\n\n" for n in range(2500))
    workspace = write_files(tmp_path / "workspace", {"docs/links.md": f"# Links\n\n{links}"})
    git(workspace, "init", "-q", "-b", "main")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "-m", "a pull request")
    files, comments, path = commenting_runner(tmp_path)
    context = pull_request_context({"inputs.fail-on": "warning"})
    steps = {step.get("name", step.get("uses")): step for step in action()["runs"]["steps"]}
    checked = run_step(steps["Lint the change against its base"], context, workspace, path, files)
    assert checked.returncode == 0, checked.stderr
    assert outputs(files)["exit-code"] == "1", checked.stderr
    context.update(step_outputs(files, "check"))
    comment = steps["Comment the report on the pull request"]
    assert holds(comment["if"], context, workspace)
    posted = run_step(comment, context, workspace, path, files)
    assert posted.returncode == 0, posted.stderr

    body = comments.read_text(encoding="utf-8")
    assert len(body) <= GATE_BUDGET + len(ARTIFACT_LINE) < PR_COMMENT_LIMIT
    assert body.startswith("# speclint summary") and body.endswith(ARTIFACT_LINE)
    assert "| `broken-link` | 0 | 2500 | 0 | 2500 |" in body
    assert "| `docs/links.md` | 2500 |" in body
    assert (files / "summary").read_text(encoding="utf-8") + ARTIFACT_LINE == body
    artifact = steps["Upload the full reports as the run's artifact"]
    assert holds(artifact["if"], context, workspace)
    full = Path(evaluate(artifact["with"]["path"], context)) / "speclint.md"
    assert len(full.read_text(encoding="utf-8")) > PR_COMMENT_LIMIT  # what is never commented


# --- no Python of the pull request's runs in the job (issue 44 review, item 8) ------------------

# Modules a pull request commits at the root of its checkout, each writing a file when it runs:
# `python -m pip` puts the working folder first on sys.path, so its `pip` would be the pip run.
SHADOWS = ("pip/__main__.py", "pip/__init__.py", "click/__init__.py", "speclint/__init__.py")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_no_module_of_the_checkout_runs_in_the_actions_steps(tmp_path: Path) -> None:
    """The install and lint steps, run as action.yml has them in a checkout that commits `pip`,
    `click` and `speclint` packages: none of their code runs (`python -I -m pip`; the `speclint`
    console script puts its own folder on sys.path, not the working one). The install step
    installs a stand-in wheel (pip's --dry-run, no index: nothing is downloaded or installed),
    so that only what the step runs is tested."""
    ran = tmp_path / "ran"
    ran.mkdir()
    workspace = pull_request_checkout(tmp_path, "reports of its own")
    write_files(
        workspace,
        {
            shadow: f"open({str(ran / shadow.replace('/', '-'))!r}, 'w').write('ran')\n"
            for shadow in SHADOWS
        },
    )
    # The project the step installs: a wheel, so that pip builds nothing (offline, no setuptools).
    stand_in = tmp_path / "stand_in-0-py3-none-any.whl"
    with zipfile.ZipFile(stand_in, "w") as wheel:
        info = "stand_in-0.dist-info"
        wheel.writestr(f"{info}/METADATA", "Metadata-Version: 2.1\nName: stand-in\nVersion: 0\n")
        wheel.writestr(
            f"{info}/WHEEL",
            "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        wheel.writestr(f"{info}/RECORD", f"{info}/METADATA,,\n{info}/WHEEL,,\n{info}/RECORD,,\n")
    files = tmp_path / "runner-files"
    files.mkdir()
    (files / "output").touch()
    (files / "summary").touch()
    # This interpreter (its packages, setuptools among them) is the `python` of the steps.
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    context = {
        **{
            f"inputs.{name}": str(spec.get("default", ""))
            for name, spec in action()["inputs"].items()
        },
        "inputs.base": "none",
        "github.action_path": str(stand_in),
    }
    steps = {step.get("name", step.get("uses")): step for step in action()["runs"]["steps"]}
    install = dict(steps["Install speclint"])
    report = tmp_path / "pip-report.json"
    install["env"] = {
        **install.get("env", {}),
        **{f"PIP_{flag}": "1" for flag in ("DRY_RUN", "NO_INDEX", "NO_DEPS")},
        "PIP_REPORT": str(report),
    }
    installed = run_step(install, context, workspace, path, files)
    assert installed.returncode == 0, installed.stderr
    assert sorted(p.name for p in ran.iterdir()) == []
    # pip itself ran, and would have installed the project at the action's path.
    (would,) = json.loads(report.read_text(encoding="utf-8"))["install"]
    assert would["metadata"]["name"] == "stand-in"
    checked = run_step(steps["Lint the change against its base"], context, workspace, path, files)
    assert checked.returncode == 0, checked.stderr
    assert outputs(files)["exit-code"] == "1", checked.stderr  # speclint itself ran
    assert sorted(p.name for p in ran.iterdir()) == []


@pytest.mark.parametrize(
    ("value", "passed"), [("true", ["--preview"]), ("false", ["--no-preview"]), ("", [])]
)
def test_the_preview_input_reaches_speclint(tmp_path: Path, value: str, passed: list[str]) -> None:
    """The ``preview`` input becomes ``--preview``/``--no-preview`` (issue 45), through ``env:``
    like every input; a stand-in ``speclint`` records the command line the step gives it."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    recorded = tmp_path / "arguments"
    stand_in = bin_folder / "speclint"
    stand_in.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {shlex.quote(str(recorded))}\n')
    stand_in.chmod(0o755)
    files = tmp_path / "runner-files"
    files.mkdir()
    (files / "output").touch()
    context = {
        **{
            f"inputs.{name}": str(spec.get("default", ""))
            for name, spec in action()["inputs"].items()
        },
        "inputs.preview": value,
    }
    steps = {step.get("name", step.get("uses")): step for step in action()["runs"]["steps"]}
    path = f"{bin_folder}{os.pathsep}{os.environ['PATH']}"
    done = run_step(steps["Lint the change against its base"], context, tmp_path, path, files)
    assert done.returncode == 0, done.stderr
    arguments = recorded.read_text(encoding="utf-8").splitlines()
    assert [a for a in arguments if a in ("--preview", "--no-preview")] == passed
