"""The rule context (issue 27): the corpus model is plain data; the derived facts are the
analysis layer's, built once, and a rule reads only the facts its module declares."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from speclint.analyses.context import FACTS, Context, UndeclaredFact
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Corpus
from speclint.run.catalog import RuleInfo, all_rules
from speclint.run.runner import INTERNAL_ERROR, run_rules

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.org/run.schema.json",
    "type": "object",
    "properties": {"status": {"$ref": "status.schema.json"}},
}
STATUS = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.org/status.schema.json",
    "enum": ["queued", "running"],
}
FILES = {
    "schemas/run.schema.json": json.dumps(SCHEMA),
    "schemas/status.schema.json": json.dumps(STATUS),
}


def test_the_model_knows_nothing_of_the_analyses() -> None:
    corpus = Corpus.from_texts(FILES)
    for fact in FACTS:
        assert not hasattr(corpus, fact)
    context = Context.of(corpus)
    assert context.documents is corpus.documents  # the same documents, not a copy
    assert [r.target_path for r in context.references.references] == ["schemas/status.schema.json"]


def test_a_view_reads_only_its_declared_facts_and_shares_what_is_built() -> None:
    context = Context.from_texts(FILES)
    view = context.reading(["references"])
    assert view.references is context.references  # built once, whichever asks first
    with pytest.raises(UndeclaredFact, match=r"`roles`.*FACTS"):
        view.roles  # noqa: B018
    assert context.roles is not None  # the run itself reads everything
    assert view.documents is context.documents


def test_a_rule_reading_an_undeclared_fact_is_an_internal_error() -> None:
    def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
        for path in corpus.derived:  # not declared below
            yield Finding("nosy", Severity.ERROR, "derived", Location(path, 1, 1))

    declared = RuleInfo("nosy", Severity.ERROR, "doc", __name__, check, facts=frozenset())
    honest = RuleInfo(
        "honest", Severity.ERROR, "doc", __name__, check, facts=frozenset({"derived"})
    )
    context = Context.from_texts(FILES)
    result = run_rules(context, {"nosy": declared, "honest": honest}, jobs=1, time_box=None)
    [crash] = [f for f in result.findings if f.rule == INTERNAL_ERROR]
    assert "nosy" in crash.message and "FACTS" in crash.message
    assert not [f for f in result.findings if f.rule == "honest"]  # nothing derived here


def test_every_rule_declares_known_facts() -> None:
    rules = all_rules()
    assert all(info.facts <= FACTS for info in rules.values())
    # Declarations are read from the modules: the rules that resolve references say so.
    assert "references" in rules["unresolved-ref"].facts
    assert "roles" in rules["closure-policy"].facts
    assert rules["parse-error"].facts == frozenset()
