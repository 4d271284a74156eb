"""A finding of the base that is gone at the head because the head no longer checks where it was
(a `$ref` it goes through broken, its schema unreadable, removed or remote) is *no longer
checked*, never fixed (issue 48; ``speclint.run.unchecked``): counted apart by the hook, the
gate's stderr line, the Markdown report's counts line and the JSON report. On real two-commit
repositories: an example whose schema's `$ref` the commit breaks, and one the commit fixes."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from test_changed_findings import gate, two_commits
from test_diff_base import git

from conftest import cli_in_process as cli  # what the hook and gate print: in process
from conftest import schema, write_files
from speclint.common.findings import Finding, Location, Severity
from speclint.run.baseline import Entry
from speclint.run.unchecked import Revision, no_longer_checked

CONFIG = 'fail-on = "error"\n'
PAGE = '# Runs\n\nA `RunSnapshot`:\n\n```json\n{"runId": "r1", "status": "paused"}\n```\n'


def run_snapshot(status_ref: str = "#/$defs/Status", **more: object) -> str:
    """The RunSnapshot schema, its `status` a `$ref` to ``status_ref``; ``more``: other
    properties."""
    snapshot = json.loads(schema(title="RunSnapshot", type="object"))
    snapshot["properties"] = {
        "runId": {"type": "string"},
        "status": {"$ref": status_ref},
        **more,
    }
    snapshot["$defs"] = {"Status": {"enum": ["queued", "running", "done"]}}
    return json.dumps(snapshot, indent=2) + "\n"


SCHEMA = "schemas/run.schema.json"
BASE = {"spec/runs.md": PAGE, SCHEMA: run_snapshot()}


def example_findings(repo: Path) -> tuple[list[str], list[str], list[str]]:
    """The example-invalid findings the gate against HEAD~1 calls new, fixed and no longer
    checked (the last with why), by file."""
    outcome = gate(repo)
    assert outcome.gate is not None
    return (
        [f.location.path for f in outcome.findings if f.rule == "example-invalid"],
        [f.path for f in outcome.gate.fixed if f.rule == "example-invalid"],
        [f"{u.path}: {u.why}" for u in outcome.gate.no_longer_checked],
    )


def test_a_commit_that_breaks_the_ref_an_example_goes_through_fixes_nothing(
    tmp_path: Path,
) -> None:
    """The commit points `status` at a definition that does not exist: the example's schema no
    longer resolves, so the example is not checked and its finding is gone. Before, the hook
    said "this commit fixes 1 finding"."""
    repo = write_files(tmp_path / "repo", {"speclint.toml": CONFIG, **BASE})
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    write_files(repo, {SCHEMA: run_snapshot("#/$defs/Missing")})
    git(repo, "add", "-A")
    env = {**os.environ, "SPECLINT_CACHE_DIR": str(tmp_path / "cache")}
    done: subprocess.CompletedProcess[str] = cli("hook", cwd=repo, env=env)
    assert "fixes" not in done.stderr, done.stderr
    assert (
        "speclint: this commit leaves 1 finding(s) HEAD had no longer checked, not fixed: "
        f"a `$ref` in `{SCHEMA}` does not resolve: `unresolved-ref` at line 10"
    ) in done.stderr
    assert done.returncode == 1  # the broken `$ref` itself is new
    assert "[unresolved-ref]" in done.stdout

    git(repo, "commit", "-q", "-m", "break the ref")
    new, fixed, unchecked = example_findings(repo)
    assert (new, fixed) == ([], [])
    assert unchecked == [
        f"spec/runs.md: a `$ref` in `{SCHEMA}` does not resolve: `unresolved-ref` at line 10"
    ]
    shown = cli("check", ".", "--diff-base", "HEAD~1", "--no-cache", cwd=repo)
    assert "1 new finding(s), 0 fixed, 1 no longer checked, 0 changed" in shown.stderr
    assert "  no longer checked: [example-invalid] spec/runs.md" in shown.stderr


def test_a_real_fix_is_fixed(tmp_path: Path) -> None:
    """The commit corrects the example's value: the schema is checked as before, so the
    finding is fixed, and the hook says so."""
    repo = write_files(tmp_path / "repo", {"speclint.toml": CONFIG, **BASE})
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    write_files(repo, {"spec/runs.md": PAGE.replace('"paused"', '"done"')})
    git(repo, "add", "-A")
    env = {**os.environ, "SPECLINT_CACHE_DIR": str(tmp_path / "cache")}
    done = cli("hook", cwd=repo, env=env)
    assert "speclint: this commit fixes 1 finding(s)" in done.stderr, done.stderr
    assert "no longer checked" not in done.stderr
    assert done.returncode == 0
    git(repo, "commit", "-q", "-m", "fix the example")
    assert example_findings(repo) == ([], ["spec/runs.md"], [])


def test_a_broken_ref_the_base_had_too_does_not_hide_a_fix(tmp_path: Path) -> None:
    """The schema has a broken `$ref` elsewhere at both revisions: it did not keep the base
    from finding the example's error, so the example corrected at the head is fixed."""
    broken = {"links": {"$ref": "#/$defs/Links"}}
    base = {"spec/runs.md": PAGE, SCHEMA: run_snapshot(**broken)}
    after = {"spec/runs.md": PAGE.replace('"paused"', '"done"')}
    repo = two_commits(tmp_path, base, after)
    assert example_findings(repo) == ([], ["spec/runs.md"], [])


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        ("remove", f"`{SCHEMA}` is no longer in the corpus"),
        ("unreadable", f"`{SCHEMA}` cannot be read: `parse-error` at line 4"),
        ("remote", f"`{SCHEMA}` line 10: remote reference not followed"),
    ],
)
def test_an_example_whose_schema_the_commit_takes_out_of_sight_is_no_longer_checked(
    tmp_path: Path, edit: str, why: str
) -> None:
    """The schema the example is checked against removed, made unreadable, or its `$ref`
    pointed at a URL speclint never fetches (a coverage note): no longer checked, with why."""
    repo = write_files(tmp_path / "repo", {"speclint.toml": CONFIG, **BASE})
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    if edit == "remove":
        git(repo, "rm", "-q", SCHEMA)
    elif edit == "unreadable":
        write_files(repo, {SCHEMA: run_snapshot().replace('"object",', '"object",,', 1)})
    else:
        write_files(repo, {SCHEMA: run_snapshot("https://example.org/status.json")})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", edit)
    assert example_findings(repo) == ([], [], [f"spec/runs.md: {why}"])


def test_the_reports_count_what_is_no_longer_checked_apart_from_the_fixed(tmp_path: Path) -> None:
    """The Markdown report's counts line and its own section; the JSON report's
    `gate.no_longer_checked`, with why; `gate.fixed` without it."""
    after = {SCHEMA: run_snapshot("#/$defs/Missing")}
    repo = two_commits(tmp_path, BASE, after)
    done = cli(
        "check", ".", "--diff-base", "HEAD~1", "--no-cache", "--format", "markdown", cwd=repo
    )
    text = done.stdout
    assert "**1 new**, **0 fixed**, 1 no longer checked, 0 changed" in text
    assert "## No longer checked, not fixed (1)" in text
    assert "## Fixed by this change" not in text
    [line] = [line for line in text.splitlines() if line.startswith("- `example-invalid`")]
    assert line.startswith("- `example-invalid` at `spec/runs.md` (`#runs`): example at /status")
    assert line.endswith(f"(a `$ref` in `{SCHEMA}` does not resolve: `unresolved-ref` at line 10)")
    done = cli("check", ".", "--diff-base", "HEAD~1", "--no-cache", "--format", "json", cwd=repo)
    document = json.loads(done.stdout)
    assert document["gate"]["fixed"] == []
    [gone] = document["gate"]["no_longer_checked"]
    assert (gone["rule"], gone["path"]) == ("example-invalid", "spec/runs.md")
    assert gone["why"].startswith(f"a `$ref` in `{SCHEMA}` does not resolve")
    done = cli("check", ".", "--diff-base", "HEAD~1", "--no-cache", "--format", "html", cwd=repo)
    assert "<strong>0 fixed</strong>, 1 no longer checked, " in done.stdout
    assert "<h2>No longer checked, not fixed (1)</h2>" in done.stdout
    assert '<section id="fixed">' not in done.stdout


def test_a_rule_that_did_not_run_to_its_end_at_the_head_fixed_nothing() -> None:
    """An internal error naming the rule (it crashed, or its time box stopped it) at the head
    and not at the base: its findings the head lacks are no longer checked."""
    entry = Entry("0" * 24, "enum-drift", "spec/runs.md", "#runs", "`paused` is missing")
    other = Entry("1" * 24, "broken-link", "spec/runs.md", "#runs", "no `missing.md`")
    stopped = Finding(
        "internal-error",
        Severity.ERROR,
        "rule `enum-drift` was stopped by its time box",
        Location(".", 1, 1),
        key="enum-drift",
    )
    files = frozenset({"spec/runs.md"})
    base = Revision(files, [], ())
    head = Revision(files, [stopped], ())
    found = no_longer_checked([entry, other], {}, base, head)
    assert found == {entry: "rule `enum-drift` did not run to its end (internal-error)"}
    assert no_longer_checked([entry], {}, Revision(files, [stopped], ()), head) == {}
