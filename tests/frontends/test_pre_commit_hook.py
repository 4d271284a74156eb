"""speclint's published hook (.pre-commit-hooks.yaml) run by real pre-commit in a real git repo.

The hook is installed once per test run from a snapshot of this checkout (what ``pre-commit
try-repo`` does, kept so that every test reuses one hook environment: the ``hook_home`` fixture of
conftest.py), and is then run the way a spec author meets it: ``pre-commit install``, then
``git commit``."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from test_lsp import RUN_SNAPSHOT

from conftest import schema, write_files
from speclint.frontends import client

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]

IDENTITY = {
    "GIT_AUTHOR_NAME": "Spec Author",
    "GIT_AUTHOR_EMAIL": "author@example.org",
    "GIT_COMMITTER_NAME": "Spec Author",
    "GIT_COMMITTER_EMAIL": "author@example.org",
}


def git(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **IDENTITY},
    )


def spec_repository(
    root: Path, hook_home: tuple[Path, str, Path], files: dict[str, str | bytes], args: str = ""
) -> dict[str, str]:
    """A spec repository at ``root`` with speclint's hook in its .pre-commit-config.yaml and
    installed as git's pre-commit hook; the environment to run git in."""
    shadow, commit, home = hook_home
    hook = "      - id: speclint\n" + (f"        args: [{args}]\n" if args else "")
    write_files(
        root,
        {
            ".pre-commit-config.yaml": (
                f"repos:\n  - repo: {shadow.as_posix()}\n    rev: {commit}\n    hooks:\n{hook}"
            ),
            **files,
        },
    )
    git("init", "-q", cwd=root)
    env = {
        **os.environ,
        **IDENTITY,
        "PRE_COMMIT_HOME": str(home),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "NO_COLOR": "1",
    }
    subprocess.run(
        [sys.executable, "-m", "pre_commit", "install"],
        cwd=root,
        check=True,
        capture_output=True,
        env=env,
    )
    return env


def commit(root: Path, env: dict[str, str], message: str) -> subprocess.CompletedProcess[str]:
    """``git add -A`` and ``git commit``, the hook deciding."""
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    return subprocess.run(
        ["git", "commit", "-q", "-m", message],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # git shows the hook's output on its standard error
        text=True,
        env=env,
        timeout=900,
    )


def head_message(root: Path) -> str:
    return git("log", "-1", "--format=%s", cwd=root).stdout.strip()


RUNS_PAGE = (
    "# Runs\n\n`RunSnapshot.status` is one of `queued` | `running` | `done`.\n\n"
    "A run starts queued.\n"
)
# A finding the repository already has when the hook is adopted: `required` is not an array.
LEGACY = schema(type="object", required="legacyId")


def test_the_hook_judges_the_commit_not_the_corpus(
    tmp_path: Path, hook_home: tuple[Path, str, Path]
) -> None:
    root = tmp_path / "spec-repo"
    env = spec_repository(
        root,
        hook_home,
        {
            "schemas/run-snapshot.schema.json": RUN_SNAPSHOT,
            "schemas/legacy.schema.json": LEGACY,
            "spec/runs.md": RUNS_PAGE,
        },
    )
    # The first commit has nothing to be compared with: every finding is its own.
    first = commit(root, env, "adopt speclint")
    assert first.returncode == 1, first.stdout
    assert "schema-invalid" in first.stdout and "schemas/legacy.schema.json" in first.stdout
    assert "no commit to compare with" in first.stdout
    git("commit", "-q", "--no-verify", "-m", "adopt speclint", cwd=root)

    # A typo fixed in an unrelated page passes, though the corpus still has its old error.
    (root / "spec/runs.md").write_text(RUNS_PAGE.replace("starts queued", "starts out queued"))
    typo = commit(root, env, "typo")
    assert typo.returncode == 0, typo.stdout
    assert head_message(root) == "typo"
    assert "1 finding was already present before this commit" in typo.stdout
    assert "schemas/legacy.schema.json" not in typo.stdout

    # A defect in the file the commit touches blocks it.
    (root / "schemas/run-snapshot.schema.json").write_text(
        RUN_SNAPSHOT.replace('"type": "object"', '"type": "objekt"')
    )
    touched = commit(root, env, "defect in the touched file")
    assert touched.returncode == 1, touched.stdout
    assert "schemas/run-snapshot.schema.json" in touched.stdout
    assert "schema-invalid" in touched.stdout
    assert head_message(root) == "typo"
    (root / "schemas/run-snapshot.schema.json").write_text(RUN_SNAPSHOT)

    # An enum value added to the schema: the drift lands on the prose page, which the commit does
    # not touch, and blocks it all the same.
    (root / "schemas/run-snapshot.schema.json").write_text(
        RUN_SNAPSHOT.replace('"done"', '"done",\n          "failed"')
    )
    elsewhere = commit(root, env, "a status the prose does not list")
    assert elsewhere.returncode == 1, elsewhere.stdout
    assert "spec/runs.md:3:" in elsewhere.stdout
    assert "[enum-drift]" in elsewhere.stdout and "`failed`" in elsewhere.stdout
    assert head_message(root) == "typo"

    # Fixed on both sides, it passes.
    (root / "spec/runs.md").write_text(RUNS_PAGE.replace("| `done`.", "| `done` | `failed`."))
    fixed = commit(root, env, "document the failed status")
    assert fixed.returncode == 0, fixed.stdout
    assert head_message(root) == "document the failed status"


def test_strict_mode_blocks_on_every_finding_of_the_corpus(
    tmp_path: Path, hook_home: tuple[Path, str, Path]
) -> None:
    root = tmp_path / "spec-repo"
    env = spec_repository(
        root,
        hook_home,
        {
            "schemas/run-snapshot.schema.json": RUN_SNAPSHOT,
            "schemas/legacy.schema.json": LEGACY,
            "spec/runs.md": RUNS_PAGE,
        },
        args="--strict",
    )
    git("add", "-A", cwd=root)
    git("commit", "-q", "--no-verify", "-m", "adopt speclint", cwd=root)
    (root / "spec/runs.md").write_text(RUNS_PAGE.replace("starts queued", "starts out queued"))
    typo = commit(root, env, "typo")
    assert typo.returncode == 1, typo.stdout
    assert "schemas/legacy.schema.json" in typo.stdout
    assert head_message(root) == "adopt speclint"
    (root / "schemas/legacy.schema.json").write_text(schema(type="object", required=["legacyId"]))
    clean = commit(root, env, "typo and the legacy schema fixed")
    assert clean.returncode == 0, clean.stdout


def test_files_left_out_of_the_commit_are_not_judged(
    tmp_path: Path, hook_home: tuple[Path, str, Path]
) -> None:
    root = tmp_path / "spec-repo"
    env = spec_repository(
        root,
        hook_home,
        {"schemas/run-snapshot.schema.json": RUN_SNAPSHOT, "spec/runs.md": RUNS_PAGE},
    )
    git("add", "-A", cwd=root)
    git("commit", "-q", "--no-verify", "-m", "start", cwd=root)
    # An untracked draft with an error and an unstaged broken edit: neither is in the commit.
    (root / "schemas/draft.schema.json").write_text(LEGACY)
    (root / "spec/runs.md").write_text(RUNS_PAGE.replace("starts queued", "starts out queued"))
    subprocess.run(["git", "add", "spec/runs.md"], cwd=root, check=True)
    (root / "schemas/run-snapshot.schema.json").write_text(RUN_SNAPSHOT.replace("object", "objekt"))
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "typo only"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout
    assert head_message(root) == "typo only"
    # pre-commit put the unstaged edit back; the draft is still there.
    assert "objekt" in (root / "schemas/run-snapshot.schema.json").read_text()
    assert (root / "schemas/draft.schema.json").is_file()


@pytest.mark.parametrize("args", ["--daemon", ""], ids=["--daemon", "of-its-own-accord"])
def test_the_hook_through_its_daemon_judges_as_it_does_alone(
    args: str, tmp_path: Path, hook_home: tuple[Path, str, Path]
) -> None:
    """``args: [--daemon]``: the hook environment's own daemon answers (issue 29), and the
    commit is judged as without it. With no argument (issue 51; the session's SPECLINT_DAEMON=0
    taken away) the first commit is judged in the hook's process, which starts the checker
    behind it, detached: `git commit` returns without waiting for it, and the next commit is
    answered through it."""
    runtime = Path(tempfile.mkdtemp(prefix="sl-hook-", dir="/tmp"))
    root = tmp_path / "spec-repo"
    env = spec_repository(
        root,
        hook_home,
        {"schemas/run-snapshot.schema.json": RUN_SNAPSHOT, "spec/runs.md": RUNS_PAGE},
        args=args,
    )
    env["XDG_RUNTIME_DIR"] = str(runtime)
    if not args:
        env.pop("SPECLINT_DAEMON", None)
        env.pop("CI", None)
    try:
        git("add", "-A", cwd=root)
        git("commit", "-q", "--no-verify", "-m", "adopt speclint", cwd=root)
        (root / "spec/runs.md").write_text(RUNS_PAGE.replace("starts queued", "starts out queued"))
        typo = commit(root, env, "typo")
        assert typo.returncode == 0, typo.stdout
        assert "daemon is not used" not in typo.stdout
        until = time.monotonic() + 300  # a checker started behind the hook warms, then listens
        while not list(runtime.glob("speclint/*.sock")) and time.monotonic() < until:
            time.sleep(0.2)
        assert list((runtime / "speclint").glob("*.sock")), "no daemon answered"
        (root / "schemas/run-snapshot.schema.json").write_text(
            RUN_SNAPSHOT.replace('"done"', '"done",\n          "failed"')
        )
        drift = commit(root, env, "a status the prose does not list")
        assert drift.returncode == 1, drift.stdout
        assert "[enum-drift]" in drift.stdout and "`failed`" in drift.stdout
        assert "daemon is not used" not in drift.stdout
        assert head_message(root) == "typo"
    finally:
        for lock in (runtime / "speclint").glob("*.lock"):  # a checker warming holds it
            with contextlib.suppress(client.DaemonUnavailable):
                os.close(client.start_lock(lock.with_suffix(".sock"), wait=300))
        for sock in (runtime / "speclint").glob("*.sock"):
            with socket.socket(socket.AF_UNIX) as connection, contextlib.suppress(OSError):
                connection.connect(str(sock))
                client.send(connection, {"command": "stop", "protocol": client.PROTOCOL})
        shutil.rmtree(runtime, ignore_errors=True)


MESSAGE_SCHEMA = json.dumps(
    {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "Message": {
                "type": "object",
                "properties": {
                    "kind": {"const": "message"},
                    "role": {"enum": ["user", "assistant"]},
                },
                "required": ["kind", "role"],
            }
        },
    },
    indent=2,
)
MESSAGES_PAGE = (
    "---\ntitle: Messages\n---\n\n# Messages\n\nA message:\n\n"
    '```json\n{"kind": "message", "role": "user"}\n```\n'
)


def test_a_commit_of_an_mdx_page_alone_runs_the_hook(
    tmp_path: Path, hook_home: tuple[Path, str, Path]
) -> None:
    """A Model Context Protocol-style repository, every spec page MDX (issue 44, item 10): a
    commit that changes only a page's example runs the hook, and its broken example blocks it;
    an MDX waiver with a reason (item 12) lets it through."""
    root = tmp_path / "spec-repo"
    page = "docs/specification/messages.mdx"
    env = spec_repository(
        root, hook_home, {"schema/schema.json": MESSAGE_SCHEMA, page: MESSAGES_PAGE}
    )
    git("add", "-A", cwd=root)
    git("commit", "-q", "--no-verify", "-m", "start", cwd=root)

    broken = MESSAGES_PAGE.replace('"user"', '"robot"')
    (root / page).write_text(broken)
    blocked = commit(root, env, "a broken example")
    assert blocked.returncode == 1, blocked.stdout
    assert f"{page}:10:21:" in blocked.stdout and "[example-invalid]" in blocked.stdout
    assert head_message(root) == "start"

    waiver = "{/* speclint-ignore example-invalid: robots join in v2 */}\n"
    (root / page).write_text(broken.replace("```json", waiver + "```json"))
    waived = commit(root, env, "a robot, waived")
    assert waived.returncode == 0, waived.stdout
    assert head_message(root) == "a robot, waived"
