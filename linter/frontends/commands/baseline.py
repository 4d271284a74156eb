"""``speclint baseline write``: accept the current findings.

Its engine, outputs and analyses are imported where they are used ("Deferred": the start-up
time of ``speclint.frontends.options``).
"""

from __future__ import annotations

from pathlib import Path

import click

from speclint.frontends.options import CORPUS_PATH, guarded, say, time_limit_of, write_file


@click.group(name="baseline")
def baseline_group() -> None:
    """Accept the current findings, so a gate fails only on new ones."""


@baseline_group.command(name="write")
@CORPUS_PATH
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Baseline file (default: speclint-baseline.json in PATH).",
)
def baseline_write(path: Path, output: Path | None) -> None:
    """Record every current finding of the corpus at PATH in a baseline file."""
    # Deferred: startup (module docstring).
    from speclint.run.baseline import render
    from speclint.run.engine import Options, lint

    outcome = guarded(
        lambda: lint(path, Options(keep_corpus=True, time_limit=time_limit_of(None))), False
    )
    assert outcome.corpus is not None
    findings = outcome.result.findings
    target = output or path / "speclint-baseline.json"
    write_file(target, render(outcome.corpus, findings))
    say(f"speclint: wrote {len(findings)} finding(s) to {target}")
