"""A finding whose cause the base had (the same rule, file, pointer or heading and key: the
binding, the pair, the reference) and whose message differs at the head is *changed*, neither
fixed nor new (issue 48, item 3). The ``--diff-base`` gate and the hook pair findings so, on real
two-commit repositories: an enum drift that lacks one more value is one drift made worse (it fails
the gate as a new finding would), one that lacks one value fewer is one drift narrowed (it does
not fail), and a finding of another cause is still new, or fixed."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from test_cli import cli
from test_diff_base import git

from conftest import schema, write_files
from speclint.run.engine import Options, Outcome, lint

CONFIG = 'fail-on = "error"\n'
PAGE = "# Runs\n\n`RunSnapshot.status` is one of `queued` | `running` | `done`.\n\nA run starts queued.\n"


def run_snapshot(*values: str, modes: tuple[str, ...] = ()) -> str:
    """The RunSnapshot schema, its `status` enum of ``values``; ``modes``: a `mode` enum too."""
    properties: dict[str, object] = {"runId": {"type": "string"}, "status": {"enum": list(values)}}
    if modes:
        properties["mode"] = {"enum": list(modes)}
    return schema(title="RunSnapshot", type="object", properties=properties)


def two_commits(tmp_path: Path, before: dict[str, str], after: dict[str, str]) -> Path:
    """A repository whose HEAD~1 holds ``before`` and HEAD ``after`` (written over it)."""
    repo = write_files(tmp_path / "repo", {"speclint.toml": CONFIG, **before})
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    write_files(repo, after)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "change")
    return repo


def gate(repo: Path) -> Outcome:
    return lint(repo, Options(diff_base="HEAD~1", cache=False))


def drifts(outcome: Outcome) -> tuple[list[str], list[str], list[str]]:
    """The enum-drift findings the gate calls new, fixed and changed, by file."""
    assert outcome.gate is not None
    return (
        [f.location.path for f in outcome.findings if f.rule == "enum-drift"],
        [f.path for f in outcome.gate.fixed if f.rule == "enum-drift"],
        [c.finding.location.path for c in outcome.gate.changed],
    )


def test_an_enum_drift_that_grows_by_one_value_is_changed_not_fixed_and_new(
    tmp_path: Path,
) -> None:
    base = {
        "spec/runs.md": PAGE,
        "schemas/run.schema.json": run_snapshot("queued", "running", "done", "failed", "lost"),
    }
    grown = {
        "schemas/run.schema.json": run_snapshot(
            "queued", "running", "done", "failed", "lost", "paused"
        )
    }
    repo = two_commits(tmp_path, base, grown)
    outcome = gate(repo)
    assert drifts(outcome) == ([], [], ["spec/runs.md"])
    assert outcome.gate is not None
    [changed] = outcome.gate.changed
    assert (changed.added, changed.removed, changed.grew) == (("paused",), (), True)
    assert "`failed`, `lost`:" in changed.base_message and "`paused`" in changed.finding.message

    # The command line: counted on stderr, shown in the text report, and failing the gate (the
    # drift is an error, and worse than it was).
    done = cli("check", ".", "--diff-base", "HEAD~1", "--no-cache", cwd=repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "against HEAD~1: 0 new finding(s), 0 fixed, 1 changed, 0 unchanged" in done.stderr
    assert "changed: [enum-drift] spec/runs.md:3: now also names `paused`" in done.stderr
    assert "changed since `HEAD~1` (worse: counts as new): now also names `paused`" in done.stdout
    assert "speclint: no new findings; 1 changed (1 worse)" in done.stdout

    # The reviewer's Markdown report: a row saying what changed; the JSON report: both messages.
    shown = cli("check", ".", "--diff-base", "HEAD~1", "--no-cache", "-f", "markdown", cwd=repo)
    text = shown.stdout
    assert "**0 new**, **0 fixed**, 1 changed, 0 waived, 0 unchanged" in text
    assert "## Changed by this change (1)" in text
    assert "| worse | error | `enum-drift` | `spec/runs.md:3:1` | now also names `paused` |" in text
    assert "**The change adds 1 error.**" in text
    document = cli("check", ".", "--diff-base", "HEAD~1", "--no-cache", "-f", "json", cwd=repo)
    [entry] = json.loads(document.stdout)["gate"]["changed"]
    assert (entry["added"], entry["removed"], entry["worse"]) == (["paused"], [], True)
    assert entry["base_message"] == changed.base_message


def test_a_drift_that_shrinks_is_changed_and_does_not_fail_the_gate(tmp_path: Path) -> None:
    base = {
        "spec/runs.md": PAGE,
        "schemas/run.schema.json": run_snapshot("queued", "running", "done", "failed", "lost"),
    }
    shrunk = {"schemas/run.schema.json": run_snapshot("queued", "running", "done", "failed")}
    repo = two_commits(tmp_path, base, shrunk)
    outcome = gate(repo)
    assert drifts(outcome) == ([], [], ["spec/runs.md"])
    assert outcome.gate is not None
    [changed] = outcome.gate.changed
    assert (changed.added, changed.removed, changed.grew) == ((), ("lost",), False)
    assert outcome.gate.grown == ()
    done = cli("check", ".", "--diff-base", "HEAD~1", "--no-cache", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 new finding(s), 0 fixed, 1 changed, 0 unchanged" in done.stderr
    assert "no longer names `lost`" in done.stdout
    shown = cli("check", ".", "--diff-base", "HEAD~1", "--no-cache", "-f", "markdown", cwd=repo)
    assert "| narrower | error | `enum-drift` |" in shown.stdout
    assert "**The change adds no error.**" in shown.stdout


def test_a_finding_of_another_cause_is_still_new_and_one_gone_still_fixed(tmp_path: Path) -> None:
    """The drift of `status` is fixed (the page documents every value) and a `mode` value the
    page does not document is added in the same commit: other bindings, so fixed and new, not
    one changed finding."""
    mode_page = PAGE + "\n`RunSnapshot.mode` is one of `batch` | `stream`.\n"
    base = {
        "spec/runs.md": mode_page,
        "schemas/run.schema.json": run_snapshot(
            "queued", "running", "done", "failed", modes=("batch", "stream")
        ),
    }
    after = {
        "spec/runs.md": mode_page.replace("`done`.", "`done` | `failed`."),
        "schemas/run.schema.json": run_snapshot(
            "queued", "running", "done", "failed", modes=("batch", "stream", "replay")
        ),
    }
    repo = two_commits(tmp_path, base, after)
    outcome = gate(repo)
    assert outcome.gate is not None
    new, fixed, changed = drifts(outcome)
    assert (new, fixed, changed) == (["spec/runs.md"], ["spec/runs.md"], [])
    [finding] = [f for f in outcome.findings if f.rule == "enum-drift"]
    assert "`replay`" in finding.message
    done = cli("check", ".", "--diff-base", "HEAD~1", "--no-cache", cwd=repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 new finding(s), 1 fixed, 0 changed, 0 unchanged" in done.stderr


def test_the_hook_does_not_say_a_commit_that_only_repoints_a_ref_fixes_anything(
    tmp_path: Path,
) -> None:
    """The commit points `status`'s `$ref` at the legacy definition: the example that failed
    against the one fails against the other, its message naming other values. Before, the hook
    said "this commit fixes 1 finding" and failed on "1 new"."""
    snapshot = json.loads(schema(title="RunSnapshot", type="object"))
    snapshot["properties"] = {"runId": {"type": "string"}, "status": {"$ref": "#/$defs/Status"}}
    snapshot["$defs"] = {
        "Status": {"enum": ["queued", "running", "done"]},
        "LegacyStatus": {"enum": ["pending", "active"]},
    }
    text = json.dumps(snapshot, indent=2) + "\n"
    page = '# Runs\n\nA `RunSnapshot`:\n\n```json\n{"runId": "r1", "status": "paused"}\n```\n'
    repo = write_files(
        tmp_path / "repo",
        {"speclint.toml": CONFIG, "spec/runs.md": page, "schemas/run.schema.json": text},
    )
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    write_files(
        repo,
        {"schemas/run.schema.json": text.replace('"#/$defs/Status"', '"#/$defs/LegacyStatus"')},
    )
    git(repo, "add", "-A")
    env = {**os.environ, "SPECLINT_CACHE_DIR": str(tmp_path / "cache")}
    done: subprocess.CompletedProcess[str] = cli("hook", cwd=repo, env=env)
    assert "fixes" not in done.stderr, done.stderr
    assert "this commit changes 1 finding(s) HEAD already had" in done.stderr
    assert "speclint: no new findings; 1 changed" in done.stdout
    assert "reworded; before: example at /status" in done.stdout
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_baseline_keeps_matching_by_content_and_has_no_changed_findings(
    tmp_path: Path,
) -> None:
    """A baseline accepts the offending content it hashed (for a Markdown finding, its line):
    the drift of an unchanged prose line stays accepted though the enum it is bound to grew, and
    nothing is called changed (a baseline file holds no keys to compare causes by)."""
    root = write_files(
        tmp_path / "spec",
        {
            "spec/runs.md": PAGE,
            "schemas/run.schema.json": run_snapshot("queued", "running", "done", "failed"),
        },
    )
    target = tmp_path / "baseline.json"
    assert cli("baseline", "write", str(root), "--output", str(target)).returncode == 0
    grown = run_snapshot("queued", "running", "done", "failed", "paused")
    write_files(root, {"schemas/run.schema.json": grown})
    outcome = lint(root, Options(baseline=target, cache=False))
    assert outcome.gate is not None and outcome.gate.changed == ()
    assert outcome.findings == [] and outcome.gate.fixed == ()
    [known] = outcome.gate.known
    assert known.rule == "enum-drift" and "`paused`" in known.message
