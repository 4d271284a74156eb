"""The pre-commit hook's figures on a repository: what a commit waits for (issue 51).

``benchmarks/run.py`` calls :func:`hook_figures` on OpenWOP and on the large repository pinned in
``LARGE`` (the Model Context Protocol's specification, ~950 files, every page ``.mdx``). The tree
is copied into a git repository of the benchmark's own, committed once as ``base``, and each
scenario is a commit the hook judges against it, made anew each time (so no run cache answers
it), with the caches warm as they are on a working day:

- **clean**: a commit of a file the hook runs for (its ``files`` pattern) that the corpus does not
  read (a ``package.json``, a CI workflow): the corpus is as HEAD has it;
- **one page**: a sentence added to one Markdown page;
- **one schema**: a description changed in one JSON Schema;
- **nothing changed**: ``speclint check`` again on the same files (the run cache answers).

Each hook scenario is timed in the hook's own process (``--no-daemon``) and, when this speclint
starts a resident checker by itself, as a user's later commits meet it (the checker started by
the warm-up commit). Medians of ``repeat`` commits; figures are printed, never asserted.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

# The large repository of issue 51's targets, pinned in the ecosystem list (repos.toml).
LARGE = "modelcontextprotocol/modelcontextprotocol"

# What the hook runs for (.pre-commit-hooks.yaml's `files`): a commit of such a file that the
# corpus does not read is the "clean" commit.
HOOKED = re.compile(r"\.(json|jsonc|yaml|yml|md|mdx|markdown|proto)$", re.IGNORECASE)

OUTSIDE = ".github/speclint-benchmark.yml"
DESCRIPTION = re.compile(r'"description"\s*:\s*"')

TARGETS = {"clean": 0.5, "one page": 1.0, "one schema": 2.0, "nothing changed": 0.15}


@dataclass
class HookFigures:
    name: str
    files: int
    # scenario -> median seconds, in the hook's own process and through its resident checker
    in_process: dict[str, float] = field(default_factory=dict)
    resident: dict[str, float] = field(default_factory=dict)
    nothing_changed: float = 0.0
    notes: list[str] = field(default_factory=list)


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    )
    return done.stdout


def git_copy(tree: Path, target: Path) -> Path:
    """``tree`` copied to ``target`` as a git repository with one commit, tagged ``base``."""
    shutil.copytree(tree, target, ignore=shutil.ignore_patterns(".git", ".speclint-cache"))
    _git(target, "init", "-q")
    _git(target, "config", "user.email", "bench@speclint.invalid")
    _git(target, "config", "user.name", "speclint benchmark")
    _git(target, "add", "-A")
    _git(target, "commit", "-q", "-m", "base")
    _git(target, "tag", "base")
    return target


def _discovered(repo: Path) -> list[tuple[str, str]]:
    """(path, kind) of each file speclint reads in ``repo``, in a process of its own."""
    probe = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from speclint.analyses.context import Context\n"
        "corpus = Context.load(Path(sys.argv[1]))\n"
        "print(json.dumps(sorted((d.path, d.kind.value) for d in corpus.documents.values())))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(repo)], capture_output=True, text=True, check=True
    )
    return [(path, kind) for path, kind in json.loads(done.stdout)]


def _edits(repo: Path) -> tuple[dict[str, Callable[[int], None]], list[str]]:
    """Each scenario's edit (the ``n``-th commit of its kind, staged), and what was not found."""
    discovered = _discovered(repo)
    # A JSON or YAML file that is no kind of API or schema document is listed, never judged.
    read = {path for path, kind in discovered if kind != "data"}
    tracked = _git(repo, "ls-files").splitlines()
    # Else a new one, in a folder no corpus reads.
    other = next((p for p in tracked if HOOKED.search(p) and p not in read), OUTSIDE)
    page = next((p for p, kind in discovered if kind == "markdown"), None)
    schemas = [p for p, kind in discovered if kind == "json-schema" and p.endswith(".json")]
    schema = next((p for p in schemas if DESCRIPTION.search((repo / p).read_text("utf-8"))), None)
    edits: dict[str, Callable[[int], None]] = {}
    missing = []

    def staged(path: str, change: Callable[[str, int], str]) -> Callable[[int], None]:
        def edit(n: int) -> None:
            file = repo / path
            file.parent.mkdir(parents=True, exist_ok=True)
            before = file.read_text("utf-8") if file.exists() else "note: a file no corpus reads\n"
            file.write_text(change(before, n), "utf-8")
            _git(repo, "add", path)

        return edit

    edits["clean"] = staged(other, lambda text, n: text + "\n" * (n + 1))
    if page is not None:
        edits["one page"] = staged(page, lambda text, n: text + f"\nA sentence, number {n}.\n")
    else:
        missing.append("one page: no Markdown page")
    if schema is not None:
        edits["one schema"] = staged(
            schema,
            lambda text, n: DESCRIPTION.sub(rf"\g<0>Edit {n}. ", text, count=1),
        )
    else:
        missing.append("one schema: no JSON Schema with a description")
    return edits, missing


def _timed(command: list[str], repo: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed in {repo}:\n{done.stderr}")
    return elapsed


def _listening(speclint: list[str], repo: Path, env: dict[str, str], wait: float = 300) -> None:
    """Once the checker the first commit started listens (it warms before it does)."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        status = subprocess.run(
            [*speclint, "daemon", "status", str(repo)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        if re.search(r"process \d+", status.stdout):
            return
        time.sleep(0.5)
    raise SystemExit(f"no resident checker of {repo} listened within {wait:g} s")


def _reset(repo: Path) -> None:
    _git(repo, "reset", "-q", "--hard", "base")
    _git(repo, "clean", "-fdq")


def hook_figures(name: str, tree: Path, repeat: int, scratch: Path) -> HookFigures:
    """The hook's figures on ``tree`` (copied into ``scratch``)."""
    repo = git_copy(tree, scratch / f"hook-{re.sub(r'[^A-Za-z0-9_.-]', '-', name)}")
    runtime = Path(tempfile.mkdtemp(prefix="sl-hook-", dir="/tmp"))
    runtime.chmod(0o700)
    env = {
        **os.environ,
        "SPECLINT_CACHE_DIR": str(scratch / f"cache-hook-{repo.name}"),
        "XDG_RUNTIME_DIR": str(runtime),
    }
    env.pop("CI", None)  # a CI variable turns the hook's resident checker off
    speclint = [sys.executable, "-m", "speclint"]
    hook_help = subprocess.run(
        [*speclint, "hook", "--help"], capture_output=True, text=True, env=env, check=False
    ).stdout
    modes = {"in_process": ["--no-daemon"] if "--no-daemon" in hook_help else []}
    if "--no-daemon" in hook_help:
        modes["resident"] = []  # the default: through the checker the warm-up commit started
    edits, missing = _edits(repo)
    figures = HookFigures(name, len(_git(repo, "ls-files").splitlines()), notes=missing)
    try:
        check = [*speclint, "check", ".", "--no-progress"]
        _timed(check, repo, env)  # the caches, warm
        figures.nothing_changed = statistics.median(_timed(check, repo, env) for _ in range(repeat))
        for mode, extra in modes.items():
            command = [*speclint, "hook", *extra]
            for scenario, edit in edits.items():
                times = []
                for n in range(repeat + 1):
                    _reset(repo)
                    edit(n + (100 if mode == "resident" else 0))
                    elapsed = _timed(command, repo, env)
                    if n:  # the first commit of each kind warms what the kind re-runs
                        times.append(elapsed)
                    if mode == "resident" and n == 0:
                        _listening(speclint, repo, env)
                getattr(figures, mode)[scenario] = statistics.median(times)
            _reset(repo)
    finally:
        subprocess.run(
            [*speclint, "daemon", "stop", str(repo)], capture_output=True, env=env, check=False
        )
        shutil.rmtree(runtime, ignore_errors=True)
    return figures


def print_hook_figures(rows: list[HookFigures]) -> None:
    print(
        "\n| the pre-commit hook, caches warm | files | clean | one page | one schema | "
        "nothing changed (check) |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        for label, figures in (("in its own process", r.in_process), ("resident", r.resident)):
            if not figures:
                continue
            cells = " | ".join(
                f"{figures[s]:.2f} s" if s in figures else "–"
                for s in ("clean", "one page", "one schema")
            )
            print(f"| {r.name}, {label} | {r.files} | {cells} | {r.nothing_changed:.2f} s |")
        for note in r.notes:
            print(f"|  {r.name}: {note} | | | | | |")
    print("\n| hook target (large repository) | figure | |")
    print("| --- | --- | --- |")
    large = rows[-1]
    for scenario, limit in TARGETS.items():
        if scenario == "nothing changed":
            figure = large.nothing_changed
        else:
            best = large.resident or large.in_process
            if scenario not in best:
                continue
            figure = best[scenario]
        verdict = "met" if figure <= limit else "NOT met"
        print(f"| {scenario} ≤ {limit:g} s | {figure:.2f} s | {verdict} |")
