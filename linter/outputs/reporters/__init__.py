"""Reporters: pure functions from a :class:`Report` to text.

Each reporter module (``<format>_report.py``) defines ``render(report: Report) -> str``;
``rule_doc`` renders a rule's documentation for the terminal instead. Output is deterministic: findings
arrive sorted, and nothing time- or machine-dependent is written unless the caller asks for it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from speclint.common.findings import Finding
from speclint.outputs.formats import FORMATS as FORMATS

# The gate's comparison is made by the run (speclint.run.engine, from speclint.run.baseline); its
# types are re-exported here, where reporters and callers have always imported them.
from speclint.run.baseline import FixedFinding as FixedFinding
from speclint.run.baseline import Gate as Gate
from speclint.run.baseline import UncheckedFinding as UncheckedFinding
from speclint.run.bindings import BoundSet
from speclint.run.catalog import RuleInfo
from speclint.run.coverage import Note
from speclint.run.inventory import Entry
from speclint.run.waivers import Waived


@dataclass(frozen=True)
class Report:
    findings: list[Finding]  # already filtered and sorted
    rules: Mapping[str, RuleInfo]  # every rule that ran (and the internal-error pseudo rule)
    sources: Mapping[str, str]  # corpus-relative path -> text, for excerpts
    root: str  # how the corpus root is shown to the user (as given on the command line)
    tool_version: str
    color: bool = False
    waived: tuple[Waived, ...] = ()  # findings accepted by a waiver, shown apart with the reason
    gate: Gate | None = None  # set by --diff-base / --baseline: findings are then the new ones
    checked: tuple[Entry, ...] = ()  # every file read, with its kind (speclint.run.inventory)
    # What the run did not check (speclint.run.coverage): reported apart, never a finding.
    not_checked: tuple[Note, ...] = ()
    # For which files findings are shown, when not for the whole corpus (`speclint check FILE`):
    # "(findings shown for 1 of 40 files: api/openapi.yaml)".
    scope: str = ""
    quiet: bool = False  # --quiet: the findings only, no summary or "checked" lines
    max_warnings: int | None = None  # --max-warnings: the summary says when warnings exceed it
    # The working folder, root-relative, when speclint runs in a folder of the corpus: the text
    # report names each file from there, as ruff and ESLint do (`capabilities.md`,
    # `../schemas/a.json`), so a terminal can open it. "": the root as given joined with the path.
    here: str = ""
    # The corpus root from the top of its git work tree ("" at the top), for the reports GitHub
    # and GitLab read: they take a path as the repository's, wherever speclint ran. None outside
    # a git work tree (the root as given).
    in_repository: str | None = None
    # The prose value sets and the schema enums they are bound to (speclint.run.bindings), for
    # the HTML report; None when the run did not list them (only `--format html` asks).
    bindings: tuple[BoundSet, ...] | None = None
    # Where the head commit's files are on the forge, ``{server}/{owner}/{name}/blob/{commit}``
    # (GitHub Actions' GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_SHA, read by the
    # command line): the Markdown report links each place to its line there, the path taken
    # from the repository's top (``in_repository``, which must be set). "": no links.
    blob_url: str = ""


Renderer = Callable[[Report], str]


def renderer(name: str) -> Renderer:

    if name not in FORMATS:
        raise ValueError(f"unknown format {name!r} (expected one of: {', '.join(FORMATS)})")
    module = importlib.import_module(f"{__name__}.{name.replace('-', '_')}_report")
    render: Renderer = module.render
    return render
