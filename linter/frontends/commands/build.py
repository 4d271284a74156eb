"""``speclint build``: bundle the corpus's schemas and API documents, or check the bundles.

Its engine, outputs and analyses are imported where they are used ("Deferred": the start-up
time of ``speclint.frontends.options``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from speclint.common.writing import OutputError
from speclint.frontends.options import CORPUS_PATH, DEBUG, fail, guarded, load_corpus, say


@click.command(name="build")
@CORPUS_PATH
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Write nothing; exit 1 when the build outputs are missing, stale or extra, or when a "
    "schema or an API document cannot be built.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output folder (default: [build] output in the configuration, else PATH/build).",
)
@click.option(
    "--dereference",
    is_flag=True,
    help="Write the API bundles with no $ref at all (fails on a recursive schema).",
)
@DEBUG
def build_command(
    path: Path, check_only: bool, output: Path | None, dereference: bool, debug: bool
) -> None:
    """Bundle each schema of PATH into a self-contained schema of its own draft, with a catalog,
    and each OpenAPI 3.x / AsyncAPI document into a single file; exit 1 when one cannot be."""
    # Deferred: startup (module docstring).
    from speclint.outputs.build import BuildError, build, output_folder, staleness, write

    corpus = load_corpus(path)
    try:
        folder, confined = output_folder(corpus, output)
    except BuildError as error:
        fail(str(error))
    shown_folder = (output if output is not None else path / corpus.config.build_output).as_posix()
    result = guarded(lambda: build(corpus, dereferenced=dereference), debug)
    shown: dict[tuple[str, bool], list[str]] = {}
    for problem in result.problems:
        shown.setdefault((problem.path, problem.fatal), []).append(problem.message)
    for (schema_path, fatal), messages in sorted(shown.items()):
        more = f" (and {len(messages) - 1} more)" if len(messages) > 1 else ""
        label = "not built" if fatal else "warning"
        say(f"speclint: {label}: {schema_path}: {messages[0]}{more}", err=True)
    built = len(result.bundles) + len(result.api_bundles)
    not_built = sorted({p.path for p in result.problems if p.fatal} - set(result.api_not_built))
    out_of_date = False
    if check_only:
        state = staleness(result, folder)
        out_of_date = not state.clean
        lacking = len(result.api_not_built) + len(not_built)
        if state.clean and not lacking:
            say(f"speclint: {shown_folder}: {built} bundle(s) and the catalog are up to date")
        elif state.clean:  # a source not built is not up to date, whatever the folder holds
            say(
                f"speclint: {shown_folder}: the outputs match this build ({built} bundle(s) and "
                f"the catalog), which lacks {lacking} document(s) it could not bundle"
            )
        for label, paths in (
            ("missing", state.missing),
            ("stale", state.stale),
            ("extra", state.extra),
        ):
            for relative in paths:
                say(f"{shown_folder}/{relative}: {label}")
        for relative, why in state.refused:  # the build's manifest names it: not read
            say(f"{shown_folder}/{relative}: not read: {why}")
        if out_of_date:
            unread = f", {len(state.refused)} not read" if state.refused else ""
            say(
                f"speclint: {shown_folder}: build outputs are out of date ({len(state.missing)} "
                f"missing, {len(state.stale)} stale, {len(state.extra)} extra{unread}); run "
                f"`speclint build {path.as_posix()}` and commit the result",
                err=True,
            )
    else:
        try:
            done = write(result, folder, confined)
        except (BuildError, OutputError) as error:
            fail(str(error))
        for relative, why in done.refused:
            say(
                f"speclint: the build's manifest lists {shown_folder}/{relative}, which it did "
                f"not look at: {why}",
                err=True,
            )
        for relative in done.kept:
            say(
                f"speclint: left {shown_folder}/{relative} in place: an earlier build wrote it, "
                "but it changed since (delete it by hand if it is not needed)",
                err=True,
            )
        for relative in done.held:
            say(
                f"speclint: kept {shown_folder}/{relative} as the last build wrote it: its source "
                "is not built this time",
                err=True,
            )
        removed = f", removed {len(done.deleted)} it no longer builds" if done.deleted else ""
        say(f"speclint: wrote {built} bundle(s) and {shown_folder}/catalog.json{removed}")
    if result.api_not_built:
        # An API document is what a spec repository publishes: one that cannot be bundled is a
        # broken publication, not a skipped file, for the build as for --check.
        say(
            f"speclint: {len(result.api_not_built)} API document(s) could not be bundled "
            f"({', '.join(result.api_not_built)}): see above",
            err=True,
        )
    if not_built:
        # A schema not built is a broken publication too (its bundle is missing, or stale from
        # an earlier build): `check` says why in its findings, the build in its exit code.
        say(
            f"speclint: {len(not_built)} schema(s) could not be bundled: see above",
            err=True,
        )
    if out_of_date or result.api_not_built or not_built:
        sys.exit(1)
