"""Run mypy --strict on speclint as the installed package sees it.

setuptools maps ``speclint`` onto ``linter/`` and ``speclint.rules`` onto ``rules/``; mypy resolves
modules from folders, not from an editable install's import hook, so this builds a temporary tree of
symlinks with the installed shape and checks that, reporting paths in the repository's terms.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        package = Path(scratch) / "speclint"
        # linter/ has no rules/ folder, so the link tree gets its own speclint/ holding both.
        package.mkdir()
        for item in (REPOSITORY / "linter").iterdir():
            (package / item.name).symlink_to(item)
        (package / "rules").symlink_to(REPOSITORY / "rules", target_is_directory=True)
        completed = subprocess.run(
            [
                sys.executable,
                "-m",
                "mypy",
                "--config-file",
                str(REPOSITORY / "pyproject.toml"),
                "-p",
                "speclint",
            ],
            cwd=scratch,
            capture_output=True,
            text=True,
        )
    output = (
        (completed.stdout + completed.stderr)
        .replace("speclint/rules/", "rules/")
        .replace("speclint/", "linter/")
    )
    sys.stdout.write(output)
    return completed.returncode


if __name__ == "__main__":
    sys.exit(main())
