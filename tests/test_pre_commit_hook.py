"""speclint's published hook (.pre-commit-hooks.yaml) run by real pre-commit in a real git repo."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPOSITORY, schema, write_files

pytestmark = pytest.mark.slow


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


def pre_commit(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_hook_fails_on_a_defect_and_passes_after_the_fix(tmp_path: Path) -> None:
    spec = tmp_path / "spec-repo"
    write_files(spec, {"schemas/run.schema.json": schema(type="object", required="runId")})
    git("init", "-q", cwd=spec)
    git("add", "-A", cwd=spec)
    home = tmp_path / "pre-commit-home"
    # try-repo installs the hook from this checkout (including uncommitted changes) into its own
    # virtualenv, exactly as a spec repository's `repos:` entry would.
    failing = pre_commit(
        "try-repo", str(REPOSITORY), "speclint", "--all-files", cwd=spec, home=home
    )
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "schema-invalid" in failing.stdout
    assert "schemas/run.schema.json" in failing.stdout

    (spec / "schemas/run.schema.json").write_text(schema(type="object", required=["runId"]))
    git("add", "-A", cwd=spec)
    passing = pre_commit(
        "try-repo", str(REPOSITORY), "speclint", "--all-files", cwd=spec, home=home
    )
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout
