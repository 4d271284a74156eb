"""--diff-base: a real git repository, a base commit, and a change that adds one defect and fixes another."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

from conftest import cli_in_process, copy_bundled_corpus, schema, write_files


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def repository(tmp_path: Path) -> Path:
    repo = tmp_path / "spec-repo"
    copy_bundled_corpus(repo / "corpus")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    # The change: a new duplicate key, and the documented maxRequestBodyBytes row removed.
    ack = repo / "corpus/schemas/heartbeat-ack.schema.json"
    ack.write_text(ack.read_text().replace('"title":', '"title": "Ack",\n  "title":', 1))
    page = repo / "corpus/spec/capabilities.md"
    page.write_text(
        page.read_text().replace(
            "| `limits.maxRequestBodyBytes` | integer | largest request body the host accepts |\n",
            "",
        )
    )
    git(repo, "commit", "-q", "-am", "change")
    return repo


def test_diff_base_reports_what_the_change_adds_and_fixes(tmp_path: Path) -> None:
    repo = repository(tmp_path)
    # A plain run first fills the run cache; the gate must not be answered from it.
    assert cli_in_process("check", "corpus", cwd=repo).returncode == 1
    result = cli_in_process("check", "corpus", "--diff-base", "HEAD~1", cwd=repo)
    assert result.returncode == 1, result.stderr
    reported = [
        line for line in result.stdout.splitlines() if " [" in line and "related:" not in line
    ]
    assert len(reported) == 1 and "[duplicate-key]" in reported[0]
    assert "heartbeat-ack.schema.json" in reported[0]
    assert "1 new finding(s), 1 fixed" in result.stderr
    assert "fixed: [undocumented-field] spec/capabilities.md" in result.stderr
    assert git(repo, "worktree", "list").count("\n") == 0  # the temporary worktree is gone

    # The same gate with a baseline of the base's findings: only the new defect fails.
    git(repo, "checkout", "-q", "HEAD~1")
    assert (
        cli_in_process(
            "baseline", "write", "corpus", "--output", str(tmp_path / "base.json"), cwd=repo
        ).returncode
        == 0
    )
    git(repo, "checkout", "-q", "main")
    gated = cli_in_process("check", "corpus", "--baseline", str(tmp_path / "base.json"), cwd=repo)
    assert gated.returncode == 1
    lines = [line for line in gated.stdout.splitlines() if " [" in line and "related:" not in line]
    assert len(lines) == 1 and "[duplicate-key]" in lines[0]


def test_diff_base_errors_are_clear(tmp_path: Path) -> None:
    repo = repository(tmp_path)
    unknown = cli_in_process("check", "corpus", "--diff-base", "no-such-branch", cwd=repo)
    # A repository with no remote: nothing to fetch it from (a clone's hint: test_cli_habits).
    assert unknown.returncode == 2 and (
        "unknown revision 'no-such-branch': it is not in this repository, which has no remote"
        in unknown.stderr
    )
    plain = tmp_path / "plain"
    copy_bundled_corpus(plain)
    outside = cli_in_process("check", str(plain), "--diff-base", "HEAD")
    assert outside.returncode == 2 and "not inside a git repository" in outside.stderr
    assert "Traceback" not in unknown.stderr + outside.stderr


def test_a_shallow_ci_clone_needs_the_base_fetched_and_then_works(tmp_path: Path) -> None:
    """actions/checkout clones one commit: the base is missing until fetched, then enough."""
    origin = repository(tmp_path)
    base = git(origin, "rev-parse", "HEAD~1")
    clone = tmp_path / "ci-clone"
    git(tmp_path, "clone", "-q", "--depth=1", origin.as_uri(), str(clone))
    assert git(clone, "rev-parse", "--is-shallow-repository") == "true"
    missing = cli_in_process("check", "corpus", "--diff-base", base, cwd=clone)
    assert missing.returncode == 2 and "fetch it first" in missing.stderr
    assert "Traceback" not in missing.stderr
    git(clone, "fetch", "-q", "--depth=1", "origin", base)
    gated = cli_in_process("check", "corpus", "--diff-base", base, cwd=clone)
    assert gated.returncode == 1, gated.stderr
    assert "1 new finding(s), 1 fixed" in gated.stderr


def fetched_hint(stderr: str, which: int = 0) -> list[str]:
    """The ``which``-th command in backquotes of a --diff-base error."""
    commands = re.findall(r"`(git fetch [^`]+)`", stderr)
    assert len(commands) > which, stderr
    return shlex.split(commands[which])


def test_the_hint_fetches_the_missing_base_of_each_kind(tmp_path: Path) -> None:
    """In a shallow one-branch clone (actions/checkout, `git clone --depth=1`), each kind of base
    revision is missing, and the fetch the error names makes it resolve."""
    origin = write_files(tmp_path / "origin", {"corpus/a.schema.json": schema(type="object")})
    git(origin, "init", "-q", "-b", "main")
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "base")
    git(origin, "branch", "feature")
    git(origin, "tag", "v1")
    base = git(origin, "rev-parse", "HEAD")
    git(origin, "commit", "-q", "--allow-empty", "-m", "head")
    cases = [("origin/feature", 0), ("feature", 0), (base, 0), ("v1", 1)]
    for number, (ref, which) in enumerate(cases):
        clone = tmp_path / f"clone-{number}"
        git(tmp_path, "clone", "-q", "--depth=1", origin.as_uri(), str(clone))
        missing = cli_in_process("check", "corpus", "--diff-base", ref, cwd=clone)
        assert missing.returncode == 2, (ref, missing.stderr)
        assert f"unknown revision {ref!r}: fetch it first: `git fetch" in missing.stderr
        command = fetched_hint(missing.stderr, which)
        assert command[:4] == ["git", "fetch", "--no-tags", "--depth=1"], command
        git(clone, *command[1:])
        gated = cli_in_process("check", "corpus", "--diff-base", ref, cwd=clone)
        assert gated.returncode != 2, (ref, command, gated.stderr)
    # An abbreviated id cannot be fetched: the full one must be given.
    clone = tmp_path / "clone-short"
    git(tmp_path, "clone", "-q", "--depth=1", origin.as_uri(), str(clone))
    short = cli_in_process("check", "corpus", "--diff-base", base[:10], cwd=clone)
    assert short.returncode == 2 and "give the full one" in short.stderr
    # A full clone is not made shallow by the fetch it is told.
    full = tmp_path / "full"
    git(tmp_path, "clone", "-q", "--single-branch", origin.as_uri(), str(full))
    missing = cli_in_process("check", "corpus", "--diff-base", "origin/feature", cwd=full)
    command = fetched_hint(missing.stderr)
    assert "--depth=1" not in command
    git(full, *command[1:])
    assert (
        cli_in_process("check", "corpus", "--diff-base", "origin/feature", cwd=full).returncode != 2
    )
    assert git(full, "rev-parse", "--is-shallow-repository") == "false"
