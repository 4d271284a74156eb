"""``speclint roles``: the role of each schema location, with its evidence."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from speclint.frontends.options import SPEC_PATH, corpus_around, say
from speclint.model.config import ROLE_NAMES


@click.command(name="roles")
@SPEC_PATH
def show_roles(path: Path) -> None:
    """Print the role of each schema location in the corpus at PATH, with its evidence."""

    corpus, covered = corpus_around(path)
    entries = [entry for entry in corpus.roles.listing(corpus) if covered(entry.path)]
    for entry in entries:
        say(f"{entry.path}#{entry.pointer or '/'}: {entry.role}")
        for line in entry.evidence:
            say(f"    {line}")
    tally = Counter(entry.role for entry in entries)
    shown = ", ".join(f"{tally[r]} {r}" for r in ROLE_NAMES if tally[r])
    say(f"speclint: {len(entries)} schema locations: {shown}")
