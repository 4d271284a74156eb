"""The import contract (issue 27): layers that import only downward, checked by import-linter on
grimp's import graph, and a ratchet on the one import circle the package still has.

The contract lives in pyproject.toml ([tool.importlinter]); `lint-imports` is also a
pre-commit hook. These tests run it, show that it catches an upward import, check the rule
modules (outside grimp's walk of linter/) against the same layers, and fail when a module joins
the circle or a new circle appears."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
# The circle issue 27 is to break: corpus builds its analyses lazily, and they import it back.
# A module may leave it; none may join it.
KNOWN_CIRCLE = frozenset(
    {
        "cache", "catalog", "corpus", "enumerations", "lineage", "links", "references", "rfcs",
        "roles", "shapes", "units", "waivers",
    }
)  # fmt: skip


def layers() -> list[list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [contract] = config["tool"]["importlinter"]["contracts"]
    return [[m.strip() for m in layer.split(":")] for layer in contract["layers"]]


def lint_imports(cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-c",
        "from importlinter.cli import lint_imports_command; lint_imports_command()",
    ]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, timeout=300)


def test_the_layers_contract_is_kept() -> None:
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 kept, 0 broken" in run.stdout


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    # A copy of the package where a parsing module imports the command line.
    package = tmp_path / "speclint"
    shutil.copytree(ROOT / "linter", package)
    kinds = package / "kinds.py"
    kinds.write_text(kinds.read_text(encoding="utf-8") + "\nimport speclint.cli  # noqa\n")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = lint_imports(tmp_path, env)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "speclint.kinds -> speclint.cli" in run.stdout


def test_rule_modules_import_only_the_corpus_its_analyses_and_below() -> None:
    allowed = {name for layer in layers()[-3:] for name in layer}
    wrong = []
    for path in sorted((ROOT / "rules").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] != "speclint" or len(parts) < 2 or parts[1] == "rules":
                    continue
                module = ".".join(parts[:2])
                if module not in allowed and name == ".".join(parts[:2]):
                    wrong.append(f"{path.name}: {module}")
    assert wrong == []


def test_no_module_joins_the_import_circle() -> None:
    graph = grimp.build_graph("speclint")
    circles = _circles(graph)
    for circle in circles:
        joined = {m.removeprefix("speclint.") for m in circle} - KNOWN_CIRCLE
        assert not joined, f"a new import circle or a new member of the known one: {sorted(joined)}"


def _circles(graph: grimp.ImportGraph) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    modules = sorted(graph.modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for start in modules:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            targets = edges[node]
            if position < len(targets):
                work.append((node, position + 1))
                target = targets[position]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found
