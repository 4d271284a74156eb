"""The schema index of ``speclint.analyses.schemas.declarations`` (where a ``required`` name is declared) is
built once a run, whichever of the rules that read it ask: ``required-undeclared`` reports from it,
``example-invalid`` and ``unsatisfiable-schema`` read what it reports (issue 45 review)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import count_builds
from speclint.analyses.context import Context
from speclint.analyses.schemas.declarations import SchemaIndex
from speclint.model.config import load_config
from speclint.run import runner
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
READERS = ("example-invalid", "required-undeclared", "unsatisfiable-schema")

API = (
    "openapi: 3.0.3\ninfo: {title: Files, version: '1.0.0'}\npaths:\n"
    "  /files:\n    get:\n      responses:\n        '200':\n          description: ok\n"
    "          content:\n            application/json:\n              schema:\n"
    "                type: object\n                additionalProperties: false\n"
    "                required: [accessed]\n                properties:\n"
    "                  access: {type: string}\n"
    "              example: {access: open}\n"
)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    return count_builds(monkeypatch, SchemaIndex)


def test_the_three_rules_that_read_the_schema_index_build_it_once(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus({"api/openapi.yaml": API})
    corpus = Context.load(root, load_config(root))
    built = _counting(monkeypatch)
    catalog = all_rules()
    result = runner.run_rules(
        corpus, {r: catalog[r] for r in READERS}, jobs=1, time_box=None, waivers=False
    )
    assert [f.rule for f in result.findings] == ["required-undeclared"]
    assert len(built) == 1


def test_the_run_builds_the_schema_index_before_forking_when_two_rules_read_it(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus({"api/openapi.yaml": API})
    asked: list[bool] = []
    prime = runner.prime

    def recording(
        corpus: Context,
        protos: bool = False,
        schemas: bool = False,
        instances: bool = False,
        prose: bool = False,
    ) -> None:
        asked.append(schemas)
        prime(corpus, protos, schemas, instances, prose)
        assert "schemas" in corpus.facts or not schemas

    monkeypatch.setattr(runner, "prime", recording)
    catalog = all_rules()
    for chosen, primed in ((READERS, True), (("required-undeclared", "schema-invalid"), False)):
        asked.clear()
        corpus = Context.load(root, load_config(root))
        runner.run_rules(corpus, {r: catalog[r] for r in chosen}, jobs=2, waivers=False)
        assert asked == [primed]
