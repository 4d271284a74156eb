"""The import contract (issue 27): the package's layers import only downward, checked by
import-linter on grimp's import graph; there is no import circle; and an import inside a function
says why it is there.

The contract lives in pyproject.toml ([tool.importlinter]); `lint-imports` is also a
pre-commit hook. These tests run it, show that it catches an upward import, check the rule
modules (outside grimp's walk of linter/) against the same layers, and fail on any import
circle, counting the imports made only for type checking."""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

from conftest import REPOSITORY
from speclint.old_paths import new_name

ROOT = REPOSITORY
# What a rule module may import of speclint: the analyses and the layers below them.
RULE_LAYERS = ("speclint.analyses", "speclint.model", "speclint.parsing", "speclint.common")


def layers() -> list[list[str]]:
    """The package's layers, top to bottom, each a list of modules that may import each other."""
    return _layers_contract(containers=None)


def analyses_layers() -> list[list[str]]:
    """The analyses' subpackages, in the layers of their own contract."""
    return _layers_contract(containers=["speclint.analyses"])


def _layers_contract(containers: list[str] | None) -> list[list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    [contract] = [
        c for c in contracts if c["type"] == "layers" and c.get("containers") == containers
    ]
    prefix = "".join(f"{c}." for c in containers or ())
    return [[prefix + m.strip() for m in layer.split(":")] for layer in contract["layers"]]


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
    assert "3 kept, 0 broken" in run.stdout


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    # A copy of the package where a parsing module imports the command line.
    package = tmp_path / "speclint"
    shutil.copytree(ROOT / "linter", package)
    kinds = package / "parsing" / "kinds.py"
    kinds.write_text(
        kinds.read_text(encoding="utf-8") + "\nimport speclint.frontends.cli  # noqa\n"
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = lint_imports(tmp_path, env)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "speclint.parsing.kinds -> speclint.frontends.cli" in run.stdout


def test_the_contract_names_every_package() -> None:
    # A new package outside the contract would be outside its checks.
    named = {module for layer in layers() for module in layer}
    packages = {f"speclint.{path.parent.name}" for path in (ROOT / "linter").glob("*/__init__.py")}
    assert packages <= named, sorted(packages - named)
    assert set(RULE_LAYERS) <= named


def test_the_analyses_contract_names_every_subpackage() -> None:
    # An analyses subpackage outside its contract could import a comparison of revisions.
    named = {module for layer in analyses_layers() for module in layer}
    folder = ROOT / "linter" / "analyses"
    subpackages = {f"speclint.analyses.{path.parent.name}" for path in folder.glob("*/__init__.py")}
    modules = {f"speclint.analyses.{path.stem}" for path in folder.glob("*.py")} - {
        "speclint.analyses.__init__"
    }
    assert subpackages | modules == named


def test_an_analysis_of_one_revision_importing_a_comparison_breaks_the_contract(
    tmp_path: Path,
) -> None:
    package = tmp_path / "speclint"
    shutil.copytree(ROOT / "linter", package)
    shapes = package / "analyses" / "schemas" / "shapes.py"
    shapes.write_text(
        shapes.read_text(encoding="utf-8") + "\nimport speclint.analyses.changes.compat  # noqa\n"
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = lint_imports(tmp_path, env)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "speclint.analyses.schemas.shapes -> speclint.analyses.changes.compat" in run.stdout


def test_rule_modules_import_only_the_analyses_and_below() -> None:
    assert _upward_rule_imports(sorted((ROOT / "rules").glob("*.py"))) == []


def test_an_upward_import_in_a_rule_module_is_caught(tmp_path: Path) -> None:
    # The check above reads what it is given: a rule importing the run or another rule (one rule
    # reads what another does through an analysis, speclint.analyses) is reported, one
    # importing the analyses or a package of the allowed layers is not.
    module = tmp_path / "bad_rule.py"
    module.write_text(
        "from speclint.analyses import assembly\nfrom speclint.rules.x import y\n"
        "import speclint.model.corpus\nfrom speclint.run.engine import lint\n"
        "from .z import w\nfrom speclint import rules, common\n",
        encoding="utf-8",
    )
    assert _upward_rule_imports([module]) == [
        "bad_rule.py: speclint.rules.x",
        "bad_rule.py: speclint.run.engine",
        "bad_rule.py: speclint.rules.z",
        "bad_rule.py: speclint.rules",
    ]


def _upward_rule_imports(paths: list[Path]) -> list[str]:
    wrong = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.level:
                # `from .instance_invalid import x`, `from . import x`: the rules package's own
                names = [".".join(filter(None, ("speclint.rules", node.module)))]
            elif isinstance(node, ast.ImportFrom) and node.module == "speclint":
                names = [f"speclint.{a.name}" for a in node.names]  # `from speclint import rules`
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name in RULE_LAYERS or not name.startswith("speclint."):
                    continue
                if not name.startswith(tuple(f"{p}." for p in RULE_LAYERS)):
                    wrong.append(f"{path.name}: {name}")
    return wrong


def test_there_is_no_import_circle() -> None:
    graph = grimp.build_graph("speclint")  # imports under TYPE_CHECKING count too
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = grimp.ImportGraph()
    for module in ("a", "b", "c", "d"):
        graph.add_module(module)
    graph.add_import(importer="a", imported="b")
    graph.add_import(importer="b", imported="c")
    graph.add_import(importer="c", imported="a")
    graph.add_import(importer="c", imported="d")
    assert _circles(graph) == [{"a", "b", "c"}]


def test_an_import_inside_a_function_says_why() -> None:
    # Issue 27: only to defer an expensive dependency (or where the module is chosen at run
    # time), never to dodge a circle; a comment or the function's docstring says which.
    paths = sorted([*(ROOT / "linter").rglob("*.py"), *(ROOT / "rules").glob("*.py")])
    assert _unexplained_imports(paths) == []


def test_an_unexplained_import_inside_a_function_is_caught(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text(
        "def quiet():\n    from speclint.run import engine\n    return engine\n\n"
        "def said():\n    # Deferred: the engine is slow to import.\n"
        "    from speclint.run import engine\n    return engine\n",
        encoding="utf-8",
    )
    assert _unexplained_imports([module]) == [f"{module}:2: from speclint.run import engine"]


def _unexplained_imports(paths: list[Path]) -> list[str]:
    unexplained = []
    for path in paths:
        source = path.read_text(encoding="utf-8")
        lines = source.split("\n")
        tree = ast.parse(source)
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            docstring = (ast.get_docstring(function) or "").lower()
            for node in ast.walk(function):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                if _typing_only(function, node):
                    continue
                if (
                    "#" in lines[node.lineno - 1]
                    or "import" in docstring
                    or "deferred" in docstring
                ):
                    continue
                above = node.lineno - 2
                while above >= 0 and lines[above].strip().startswith(("from ", "import ", "try:")):
                    above -= 1
                if above < 0 or not lines[above].strip().startswith("#"):
                    unexplained.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    return unexplained


def _typing_only(function: ast.AST, node: ast.AST) -> bool:
    for candidate in ast.walk(function):
        if (
            isinstance(candidate, ast.If)
            and "TYPE_CHECKING" in ast.unparse(candidate.test)
            and any(inner is node for inner in ast.walk(candidate))
        ):
            return True
    return False


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


def test_the_architecture_document_names_only_what_exists() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = sorted(set(re.findall(r"`(speclint(?:\.\w+)+)", text)))
    assert "speclint.analyses.context.Context" in named  # the check reads what it should
    # The flat layout's old paths, named as such, are tests/package/test_old_paths.py's.
    missing = [name for name in named if new_name(name) is None and not _exists(name)]
    assert missing == []
    # and every layer package of the contract is described
    assert all(f"`{module}`" in text for layer in layers() for module in layer)
    # and every analyses subpackage
    subpackages = [
        m for layer in analyses_layers() for m in layer if not m.endswith(("context", "units"))
    ]
    assert [m for m in subpackages if f"`{m}`" not in text] == []


def test_the_readme_links_the_architecture_document() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/architecture.md)" in readme


def _exists(dotted: str) -> bool:
    """A module, or an attribute of one (``speclint.model.corpus.snapshot``). A module is found,
    not imported: importing ``speclint.__main__`` here would leave it in ``sys.modules`` for
    the tests that check nothing imports it (tests/corpus/test_trust_cache.py)."""
    with contextlib.suppress(ImportError, ValueError):
        if importlib.util.find_spec(dotted) is not None:
            return True
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False
