"""Issue 49's precision classes of the Overlay rules (and arazzo-invalid's design folders), each a
case on a fixture written here: archived overlays are records (not applied), a proposal's draft is
told at info, Overlay 1.1 is validated by its own schema (and 1.1's `info.description` is no
defect of a 1.0 overlay), and a release-to-release overlay applies to its first release."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.analyses.overlays import applied_to
from speclint.model.config import load_config
from speclint.parsing.kinds import archive_folder, in_record_folder

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

API = """openapi: 3.1.0
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: The pets}
"""

# An action that selects nothing (`/pet`) and one that makes the document invalid.
UNMATCHED = "  - target: $.paths['/pet'].get\n    update: {summary: s}\n"
BREAKING = "  - target: $.paths['/pets'].get.responses['200']\n    update: {description: [x]}\n"


def overlay(*actions: str, version: str = "1.0.0", info: str = "", head: str = "") -> str:
    return (
        f"overlay: {version}\ninfo: {{title: Fixes, version: 1.0.0{info}}}\n{head}"
        + "actions:\n"
        + "".join(actions)
    )


def applied(root: Path, path: str) -> tuple[str, ...]:
    corpus = Context.load(root, load_config(root))
    return applied_to(corpus, corpus.documents[path]).paths


# 1. Archive folders


@pytest.mark.parametrize(
    "name",
    ["archive", "_archive_", "archived", "archives", "overlays_archive", "overlay-archives",
     "old_archive", "Docs.Archive", "archive-2019", "archive_v1"],
)  # fmt: skip
def test_an_archive_word_qualified_in_a_folder_name_is_an_archive(name: str) -> None:
    assert archive_folder(name)
    assert in_record_folder(f"scripts/{name}/fix.yaml")


@pytest.mark.parametrize(
    "name",
    ["archiver", "archive-utils", "archive.org", "archive_test", "myarchive", "archives-api"],
)
def test_a_name_that_only_begins_with_an_archive_word_is_no_archive(name: str) -> None:
    assert not archive_folder(name)
    assert not in_record_folder(f"scripts/{name}/fix.yaml")


def test_a_file_named_like_an_archive_is_not_in_one() -> None:
    assert not in_record_folder("scripts/overlays_archive.yaml")


def test_a_page_in_a_qualified_archive_folder_is_a_record_for_broken_link(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Notes\n\nSee [the guide](missing.md).\n"
    root = make_corpus({"docs/old_archive/notes.md": page, "docs/notes.md": page})
    paths = [f.location.path for f in run_rule(root, "broken-link")]
    assert paths == ["docs/notes.md"]
