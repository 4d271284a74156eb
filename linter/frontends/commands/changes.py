"""``speclint changes``: the contract changes of a corpus since a git revision.

Its engine, outputs and analyses are imported where they are used ("Deferred": the start-up
time of ``speclint.frontends.options``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from speclint.frontends.options import CORPUS_PATH, guarded, load_corpus, say


@click.command(name="changes")
@CORPUS_PATH
@click.option("--diff-base", "diff_base", metavar="REF", required=True, help="The base revision.")
@click.option("--breaking", "only_breaking", is_flag=True, help="List only breaking changes.")
@click.option(
    "--fail-on",
    type=click.Choice(["breaking"]),
    default=None,
    help="Exit 1 when a breaking change is listed.",
)
def show_changes(path: Path, diff_base: str, only_breaking: bool, fail_on: str | None) -> None:
    """List the contract changes of PATH since git revision REF, classified by role."""
    # Deferred: startup (module docstring).
    from speclint.analyses.changes.proto_changes import contract_changes
    from speclint.outputs.reporters.text_report import CONTINUATION, detail, position
    from speclint.run.engine import base_corpus

    corpus = load_corpus(path)
    base = guarded(lambda: base_corpus(path, diff_base, corpus.config), False)
    changes = [c for c in contract_changes(base, corpus) if c.breaking or not only_breaking]
    shown_root = path.as_posix().rstrip("/") or "."
    for change in changes:
        verdict = "breaking" if change.breaking else "additive"
        # Paths as `check` shows them (the root as typed, joined), so a terminal can open them.
        say(
            f"{position(shown_root, change.location)}: {verdict} [{change.kind}] "
            f"{change.description}"
        )
        for related in change.related:  # the Arazzo step a change breaks, as `check` shows one
            say(f"{CONTINUATION}related: {position(shown_root, related)} {detail(related)}")
    broken = sum(c.breaking for c in changes)
    say(f"speclint: {len(changes)} change(s) since {diff_base}, {broken} breaking", err=True)
    if fail_on == "breaking" and broken:
        sys.exit(1)
