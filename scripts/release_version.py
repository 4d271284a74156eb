"""Check that a release tag names the version being released: ``vX.Y.Z`` equal to the version in
``pyproject.toml`` and to ``speclint.__version__`` (``linter/__init__.py``).

Run by ``.github/workflows/release.yml`` before anything is built or published, so a tag pushed on
the wrong commit, or a version bumped in one place only, stops the release. Prints the major-version
tag (``v0`` for 0.x) that the release moves, for the workflow to use.

    python scripts/release_version.py v0.1.0
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Release tags are plain versions: a pre-release or local suffix is not published by this workflow.
TAG = re.compile(r"v(?P<major>0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")


def package_version(root: Path) -> str:
    with (root / "pyproject.toml").open("rb") as handle:
        version: str = tomllib.load(handle)["project"]["version"]
    return version


def module_version(root: Path) -> str:
    # Read without importing: the release job checks the tree, not whatever speclint is installed.
    tree = ast.parse((root / "linter" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    raise LookupError("linter/__init__.py sets no __version__")


def check(tag: str, root: Path = ROOT) -> str:
    """The major-version tag to move, or ValueError saying what disagrees."""
    matched = TAG.fullmatch(tag)
    if matched is None:
        raise ValueError(f"{tag!r} is not a release tag: expected vX.Y.Z, for example v0.1.0")
    wanted = tag[1:]
    for where, version in (
        ("pyproject.toml", package_version(root)),
        ("linter/__init__.py", module_version(root)),
    ):
        if version != wanted:
            raise ValueError(
                f"the tag {tag} releases {wanted}, but {where} says {version}: "
                "bump the version in pyproject.toml and linter/__init__.py, commit, and tag that commit"
            )
    return f"v{matched['major']}"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: release_version.py vX.Y.Z", file=sys.stderr)
        return 2
    try:
        print(check(argv[0]))
    except ValueError as error:
        print(f"release: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
