"""The documentation site (issue 50, items 1 and 2): a README that fits a screen, a MkDocs site
that builds with no broken link, orphan page or missing anchor, one generated page per rule,
fresh, and pages that speclint's own checks pass."""

from __future__ import annotations

import dataclasses
import filecmp
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import REPOSITORY
from speclint.run.catalog import all_rules

DOCS = REPOSITORY / "docs"
RULE_PAGES = DOCS / "rules"


def rule_pages() -> ModuleType:
    """scripts/rule_pages.py, the generator (a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location(
        "rule_pages", REPOSITORY / "scripts" / "rule_pages.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_fits_a_screen_and_opens_with_how_to_run_it() -> None:
    lines = (REPOSITORY / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150
    # The first screen says how to run speclint on one's own repository, before any caveat.
    first_screen = "\n".join(lines[:40])
    assert "## Run it on your repository" in first_screen
    assert "speclint check .\n" in first_screen
    assert "not on PyPI" not in first_screen
    # Every page the README points to exists.
    for line in lines:
        for target in (part.split(")", 1)[0] for part in line.split("](")[1:]):
            if not target.startswith("http"):
                assert (REPOSITORY / target.split("#", 1)[0]).exists(), target


def test_the_site_builds_with_no_broken_link_orphan_page_or_missing_anchor(
    tmp_path: Path,
) -> None:
    pytest.importorskip("mkdocs", reason="MkDocs is in the dev extra: pip install -e '.[dev]'")
    pytest.importorskip("material", reason="Material for MkDocs is in the dev extra")
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(REPOSITORY / "mkdocs.yml"),
            "--site-dir",
            str(tmp_path / "site"),
        ],
        cwd=REPOSITORY,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-5000:]
    assert (tmp_path / "site" / "rules" / "enum-drift" / "index.html").is_file()


def test_every_rule_has_a_page_and_every_page_is_a_rule() -> None:
    pages = {path.stem for path in RULE_PAGES.glob("*.md")} - {"index"}
    assert pages == set(all_rules())
    nav = (REPOSITORY / "mkdocs.yml").read_text(encoding="utf-8")
    assert all(f"- rules/{rule_id}.md\n" in nav for rule_id in all_rules())


def test_the_generated_pages_are_fresh(tmp_path: Path) -> None:
    """The generator, run into a copy, writes what is committed: rerun
    `python scripts/rule_pages.py` after editing a docstring or precision.json."""
    shutil.copy(REPOSITORY / "mkdocs.yml", tmp_path / "mkdocs.yml")
    rule_pages().write(tmp_path)
    written = sorted(path.name for path in (tmp_path / "docs" / "rules").iterdir())
    committed = sorted(path.name for path in RULE_PAGES.iterdir())
    assert written == committed
    _, differ, errors = filecmp.cmpfiles(
        tmp_path / "docs" / "rules", RULE_PAGES, committed, shallow=False
    )
    assert (differ, errors) == ([], []), "stale: run python scripts/rule_pages.py"
    assert filecmp.cmp(tmp_path / "mkdocs.yml", REPOSITORY / "mkdocs.yml", shallow=False)


def test_no_rule_page_is_over_60_lines() -> None:
    lengths = {
        path.name: len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(RULE_PAGES.glob("*.md"))
        if path.name != "index.md"
    }
    assert {name: length for name, length in lengths.items() if length > 60} == {}


def test_a_rule_page_shows_the_rule_status_and_its_measured_precision() -> None:
    from speclint.run.preview import is_preview, measured

    generator = rule_pages()
    for rule_id, info in all_rules().items():
        status = generator.status_line(info)
        assert status.startswith(f"Severity **{info.severity.label}**")
        assert ("[preview]" in status) == (is_preview(rule_id) and rule_id != "parse-error")
        labels = measured().get(rule_id)
        if labels is None or not labels.labels:
            assert "precision not yet measured" in status
        else:
            assert f"over {labels.labels} labelled findings" in status


DOCSTRING = """\
A value set stated in prose and its enum disagree.

What it does
    Reads ``status`` lists; the ``$ref``\\ s are followed. An <address> is text.
    The sets:
    - a union
      of code spans;
    - a table column.

Example
    ::

        <!-- spec/page.md -->
        `status` is one of `a` | `b`.

    FAIL: ``error [x] ...``

Use instead
    Add it to the enum::

        "enum": ["a", "b"]

    PASS.

Options
    None.
"""


def test_a_docstring_is_rendered_as_markdown_with_fenced_examples() -> None:
    generator = rule_pages()
    info = next(iter(all_rules().values()))
    page = generator.rule_page(dataclasses.replace(info, doc=DOCSTRING))
    body = page.split("\n\n", 2)[2]  # after the mark with the title, and the status line
    assert body == (
        "A value set stated in prose and its enum disagree.\n\n"
        "## What it does\n\n"
        "Reads `status` lists; the `$ref`s are followed. An &lt;address> is text.\n"
        "The sets:\n\n"
        "- a union\n  of code spans;\n- a table column.\n\n"
        "## Example\n\n"
        "```text\n<!-- spec/page.md -->\n`status` is one of `a` | `b`.\n```\n\n"
        "FAIL: `error [x] ...`\n\n"
        "## Use instead\n\n"
        'Add it to the enum:\n\n```text\n"enum": ["a", "b"]\n```\n\n'
        "PASS.\n\n"
        "## Options\n\n"
        "None.\n"
    )


@pytest.mark.parametrize("preview", ["--no-preview", "--preview"])
def test_speclint_finds_nothing_in_the_documentation(preview: str) -> None:
    """The pages are a spec-like corpus: their links, anchors and examples pass speclint's own
    checks, with the default rules and with the preview rules."""
    checked = subprocess.run(
        [sys.executable, "-m", "speclint", "check", "docs/", preview, "--format", "json"],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-3000:]
    report = json.loads(checked.stdout)
    assert report["findings"] == []
