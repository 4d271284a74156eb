"""The gate of a commit (issue 17, item 1): ``speclint hook`` lints what the index holds, against
HEAD, with both sides answered from the caches when they were linted before, and reports exactly
what a run without any cache reports."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_compat_claim import STREAM_MODES
from test_compat_claim import pull_request as compat_pull_request
from test_diff_base import git

from conftest import cli_in_process, write_files
from speclint.parsing.gitbase import head_commit, tracked_listing
from speclint.parsing.tree import SKIPPED_FOLDERS, listing
from speclint.run import engine

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def speclint(cwd: Path, cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """speclint, run in this process, with a cache folder of the test's own (what is compared is
    what the gate reports; the caches are on disk)."""
    return cli_in_process(*args, cwd=cwd, env={**os.environ, "SPECLINT_CACHE_DIR": str(cache)})


def test_the_index_is_listed_in_the_order_a_checkout_is_walked(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "repo",
        {
            "z.md": "# z\n",
            "a.md": "# a\n",
            "b/c.json": "{}\n",
            "b/a/d.md": "# d\n",
            "b-c/e.yaml": "x: 1\n",
            "node_modules/pkg/package.json": "{}\n",
        },
    )
    (root / "linked").symlink_to(root / "b", target_is_directory=True)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "all")
    assert tracked_listing(root, SKIPPED_FOLDERS) == listing(root)
    # An untracked file is in the folder, not in the commit; a staged one is in both.
    write_files(root, {"b/draft.md": "# draft\n", "b/new.md": "# new\n"})
    git(root, "add", "b/new.md")
    staged = tracked_listing(root, SKIPPED_FOLDERS)
    assert staged is not None
    assert "b/new.md" in staged and "b/draft.md" not in staged
    assert "b/draft.md" in listing(root)
    # Outside a work tree there is no index, and no HEAD to compare with.
    outside = write_files(tmp_path / "plain", {"a.md": "# a\n"})
    assert tracked_listing(outside, SKIPPED_FOLDERS) is None
    assert head_commit(outside) is None


def test_the_index_lists_links_and_leaves_out_what_the_disk_no_longer_has(tmp_path: Path) -> None:
    """What the walk meets of each file of the index, asked in one status call
    (``gitbase._a_file_or_link``): a link to a file and a dangling link are files, a link to a
    folder is not entered, a file deleted from the disk is not there."""
    root = write_files(tmp_path / "repo", {"a.md": "# a\n", "b/c.json": "{}\n", "gone.md": "# g\n"})
    (root / "to-file.md").symlink_to(root / "a.md")
    (root / "dangling.md").symlink_to(root / "nowhere.md")
    (root / "to-folder").symlink_to(root / "b", target_is_directory=True)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "all")
    (root / "gone.md").unlink()
    listed = tracked_listing(root, SKIPPED_FOLDERS)
    assert listed == listing(root)
    assert listed is not None and {"to-file.md", "dangling.md"} <= set(listed)
    assert "to-folder" not in listed and "gone.md" not in listed


def pull_request(tmp_path: Path, compatibility: str) -> Path:
    """The bundled corpus as a base commit, and a head that removes a request enum value while
    its RFC claims ``compatibility`` (compat-claim fires on "additive")."""
    return compat_pull_request(
        tmp_path, (STREAM_MODES, '"enum": ["updates", "values"]'), compatibility
    )


@pytest.mark.parametrize("compatibility", ["additive", "breaking"])
def test_a_gate_answered_from_the_caches_reports_what_one_without_them_does(
    tmp_path: Path, compatibility: str
) -> None:
    repo = pull_request(tmp_path, compatibility)
    cache = tmp_path / "cache"
    gate = ("check", "corpus", "--diff-base", "HEAD~1", "--format", "json", "--no-progress")
    uncached = speclint(repo, cache, *gate, "--no-cache")
    assert uncached.returncode == 1, uncached.stderr
    assert ('"rule": "compat-claim"' in uncached.stdout) == (compatibility == "additive")
    # Cold, warm, and after plain runs of both revisions filled the run cache.
    runs = [speclint(repo, cache, *gate), speclint(repo, cache, *gate)]
    assert speclint(repo, cache, "check", "corpus").returncode == 1
    runs.append(speclint(repo, cache, *gate))
    for run in runs:
        assert (run.returncode, run.stdout, run.stderr) == (
            uncached.returncode,
            uncached.stdout,
            uncached.stderr,
        )


def test_the_warm_hook_lints_neither_revision_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = pull_request(tmp_path, "additive")
    git(repo, "reset", "-q", "--soft", "HEAD~1")  # the change staged, as a commit is made
    monkeypatch.setenv("SPECLINT_CACHE_DIR", str(tmp_path / "cache"))
    ran: list[set[str]] = []
    real = engine.run_rules

    def counted(corpus, rules, *args, **kwargs):  # type: ignore[no-untyped-def]
        ran.append(set(rules))
        return real(corpus, rules, *args, **kwargs)

    monkeypatch.setattr(engine, "run_rules", counted)
    options = engine.Options(diff_base="HEAD", staged=True)
    first = engine.lint(repo / "corpus", options)
    assert len(ran) == 2  # the base, then the head
    ran.clear()
    second = engine.lint(repo / "corpus", options)
    # The base is the run cache's. The head's result is not: compat-claim found the claim, which
    # no plain run has, so every rule runs again (answered by the rule cache).
    assert len(ran) == 1 and "compat-claim" in ran[0] and "enum-drift" in ran[0]
    assert [f.rule for f in second.findings] == [f.rule for f in first.findings]
    assert "compat-claim" in {f.rule for f in second.findings}

    # With nothing for compat-claim to judge (the claim withdrawn), only compat-claim runs.
    rfc = repo / "corpus/rfcs/0001-run-cancellation.md"
    rfc.write_text(
        rfc.read_text().replace("| Compatibility | additive |", "| Compatibility | breaking |")
    )
    git(repo, "add", "-A")
    engine.lint(repo / "corpus", options)
    ran.clear()
    engine.lint(repo / "corpus", options)
    assert ran == [{"compat-claim"}]
    assert head_commit(repo) is not None
