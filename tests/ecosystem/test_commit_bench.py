"""The hook benchmark's commits (benchmarks/commits.py): each scenario stages the change it is
named after, on a git copy of the bundled corpus, and the large repository it names is pinned."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from conftest import BENCHMARKS, REPOSITORY

_spec = importlib.util.spec_from_file_location("commit_bench", BENCHMARKS / "commits.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["commit_bench"] = bench  # dataclasses resolve their module by name
_spec.loader.exec_module(bench)


def _staged(repo: Path) -> dict[str, str]:
    done = subprocess.run(
        ["git", "-C", str(repo), "diff", "--cached", "--name-status"],
        capture_output=True,
        text=True,
        check=True,
    )
    return {line.split("\t")[1]: line.split("\t")[0] for line in done.stdout.splitlines()}


def test_each_scenario_stages_one_file_of_its_kind(tmp_path: Path) -> None:
    repo = bench.git_copy(REPOSITORY / "corpus", tmp_path / "repo")
    edits, missing = bench._edits(repo)
    assert missing == []
    kinds = dict(bench._discovered(repo))
    for scenario, edit in edits.items():
        bench._reset(repo)
        edit(3)
        [(path, _)] = _staged(repo).items()
        if scenario == "one page":
            assert kinds[path] == "markdown" and "number 3" in (repo / path).read_text()
        elif scenario == "one schema":
            assert kinds[path] == "json-schema" and "Edit 3. " in (repo / path).read_text()
        else:  # clean: a file the hook runs for that the corpus does not judge
            assert bench.HOOKED.search(path) and kinds.get(path, "data") == "data"
    bench._reset(repo)
    assert _staged(repo) == {}


def test_the_large_repository_is_pinned_in_the_ecosystem_list() -> None:
    repos = (BENCHMARKS / "ecosystem" / "repos.toml").read_text(encoding="utf-8")
    assert f'name = "{bench.LARGE}"' in repos
