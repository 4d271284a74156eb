"""``speclint files``: what speclint reads of a corpus, and why.

Its engine, outputs and analyses are imported where they are used ("Deferred": the start-up
time of ``speclint.frontends.options``).
"""

from __future__ import annotations

from pathlib import Path

import click

from speclint.frontends.options import SPEC_PATH, corpus_around, say


@click.command(name="files")
@SPEC_PATH
def show_files(path: Path) -> None:
    """List each file speclint reads in PATH: its kind, dialect, and why it was classified so;
    and each folder it did not enter (a virtual environment, installed packages), and why."""
    # Deferred: startup (module docstring).
    from speclint.analyses.prose.renderers import summary
    from speclint.run.coverage import by_file
    from speclint.run.coverage import listed as not_checked
    from speclint.run.coverage import phrase as coverage_phrase
    from speclint.run.inventory import SKIPPED, Entry, entries, phrase, skipped

    corpus, covered = corpus_around(path)
    inventory = [entry for entry in entries(corpus) if covered(entry.path)]
    folders = [entry for entry in skipped(corpus) if covered(entry.path)]
    # What was found and not checked (issue 45), on each file's line; a file speclint does not
    # read at all (a reStructuredText page) gets a line of its own.
    notes = [note for note in not_checked(corpus) if covered(note.path)]
    known = {entry.path for entry in inventory}
    unread = {
        note.path: Entry(note.path, "not read", "", note.what)
        for note in notes
        if note.path not in known
    }
    listed = sorted((*inventory, *folders, *unread.values()), key=lambda entry: entry.path)
    missed_in = by_file(notes)
    width = max((len(entry.path) for entry in listed), default=0)
    for entry in listed:
        if entry.kind == SKIPPED:
            say(f"{entry.path:<{width}}  skipped: {entry.reason}")
            continue
        kind = f"{entry.kind} {entry.dialect}".strip()
        missed = missed_in.get(entry.path, "") if entry.path in known else ""
        reason = f"{entry.reason}; {missed}" if missed else entry.reason
        say(f"{entry.path:<{width}}  {kind:<22}  {reason}")
    left = f"; {len(folders)} folder{'s' if len(folders) != 1 else ''} skipped" if folders else ""
    # Which program renders the pages, so which anchors their links are judged by (issue 45);
    # the count of what was read stays the last line.
    rendered = summary(corpus)
    if rendered:
        say(f"speclint: {rendered}")
    said = coverage_phrase(notes)
    say(f"speclint: {phrase(inventory)}{left}" + (f"; {said}" if said else ""))
