"""The run's stages and the one interface to what they reuse (issue 50, item 5): the engine asks
``speclint.run.reuse.Caches`` for files' bytes and for the run, parse and rule caches, and the
cache folder (``FolderCaches``) and a resident checker (``Resident``, the daemon's and the
language server's) answer alike."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import write_files
from speclint.run import resident as resident_module
from speclint.run.engine import Options, lint
from speclint.run.resident import Resident
from speclint.run.reuse import FolderCaches, caches_for

# A schema whose enum the page lists with one value missing: one enum-drift finding.
CORPUS = {
    "schemas/run.schema.json": json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.com/run.schema.json",
            "title": "Run",
            "type": "object",
            "properties": {"status": {"enum": ["queued", "running", "done"]}},
        }
    ),
    "spec/runs.md": "# Runs\n\nThe `status` field is one of `queued`, `running`.\n",
}


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SPECLINT_CACHE_DIR", str(tmp_path / "cache"))
    # Files written a moment ago are trusted by their status at once (not two seconds later).
    monkeypatch.setattr(resident_module, "RACY_NANOSECONDS", 0)
    return write_files(tmp_path / "corpus", CORPUS)


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The caches of the cache folder the runs open, by name, in order."""
    names: list[str] = []
    for name in ("runs", "documents", "results"):
        made = getattr(FolderCaches, name).func

        def counting(self: FolderCaches, made=made, name=name) -> object:  # type: ignore[no-untyped-def]
            names.append(name)
            return made(self)

        monkeypatch.setattr(FolderCaches, name, property(counting))
    yield names


def test_a_run_the_run_cache_answers_opens_neither_the_parse_nor_the_rule_cache(
    corpus: Path, opened: list[str]
) -> None:
    cold = lint(corpus)
    assert {"runs", "documents", "results"} <= set(opened)
    opened.clear()
    warm = lint(corpus)
    assert set(opened) == {"runs"}
    assert warm.findings == cold.findings and warm.corpus is None


def test_a_run_that_keeps_the_corpus_parses_it_even_when_the_run_cache_answers(
    corpus: Path, opened: list[str]
) -> None:
    lint(corpus)
    opened.clear()
    kept = lint(corpus, Options(keep_corpus=True))
    assert kept.corpus is not None and "documents" in opened


def test_no_cache_means_no_caches_for_a_resident_checker_too(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    resident = Resident(corpus)
    assert caches_for(corpus, False, resident) is None
    monkeypatch.setenv("SPECLINT_NO_CACHE", "1")
    assert caches_for(corpus, True, resident) is None
    assert caches_for(corpus, True, None) is None


def test_a_resident_checker_answers_only_for_its_own_corpus(corpus: Path, tmp_path: Path) -> None:
    resident = Resident(corpus)
    assert caches_for(corpus, True, resident) is resident
    other = write_files(tmp_path / "other", {"a.md": "# A\n"})
    assert isinstance(caches_for(other, True, resident), FolderCaches)


def test_the_cache_folder_and_a_resident_checker_give_the_same_findings(corpus: Path) -> None:
    cold = lint(corpus, Options(cache=False)).findings
    assert [f.rule for f in cold] == ["enum-drift"]
    resident = Resident(corpus)
    answers = [
        lint(corpus).findings,  # the folder, cold
        lint(corpus).findings,  # the folder, from the run cache
        lint(corpus, Options(resident=resident)).findings,  # memory, cold
        lint(corpus, Options(resident=resident)).findings,  # memory, from its run cache
    ]
    assert all(answer == cold for answer in answers)
    assert resident.files.reads == 0  # the second resident run read no file again


def test_an_open_editors_text_replaces_the_files_through_the_caches_too(corpus: Path) -> None:
    fixed = CORPUS["spec/runs.md"].replace("`running`.", "`running`, `done`.")
    resident = Resident(corpus)
    for options in (Options(cache=False), Options(), Options(resident=resident)):
        overlaid = lint(corpus, Options(**{**options.__dict__, "overlay": {"spec/runs.md": fixed}}))
        assert overlaid.findings == [], options
        assert [f.rule for f in lint(corpus, options).findings] == ["enum-drift"]
