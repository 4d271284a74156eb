"""``duplicate-key`` on fixtures written here, one test a case, named after it. The rule: the same
key twice in one JSON object or YAML mapping."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import findings_of

# The corpus-integrity rules, each with the PASS and FAIL cases of its docstring.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


OPENAPI_HEAD = "openapi: 3.1.0\ninfo:\n  title: Runs\n  version: 1.0.0\n"


def test_duplicate_key_fail_and_pass(make_corpus: MakeCorpus) -> None:
    doc = (
        OPENAPI_HEAD
        + "paths: {}\ncomponents:\n  schemas:\n    Run:\n      properties:\n        status:\n          type: string\n        status:\n          enum: [running, done]\n"
    )
    root = make_corpus({"api/openapi.yaml": doc})
    [finding] = findings_of("duplicate-key", root)
    assert finding.location.line == 12
    assert finding.related[0].line == 10
    assert "`status`" in finding.message
    (root / "api/openapi.yaml").write_text(
        doc.replace("        status:\n          enum", "        state:\n          enum")
    )
    assert findings_of("duplicate-key", root) == []


@pytest.mark.parametrize("name", ["config.json", "config.yaml"])
def test_duplicate_key_with_the_same_value_is_a_warning(make_corpus: MakeCorpus, name: str) -> None:
    same = '{"options": {"strict": true, "paths": {"a": [1]}, "strict": true, "paths": {"a": [1]}}}'
    root = make_corpus({name: same})
    found = findings_of("duplicate-key", root)
    assert [f.severity.label for f in found] == ["warning", "warning"]
    assert all("with the same value" in f.message for f in found)


@pytest.mark.parametrize(
    "first, again",
    [("true", "false"), ("1", "true"), ("1", "1.0"), ('{"a": [1]}', '{"a": [2]}')],
)
def test_duplicate_key_with_another_value_stays_an_error(
    make_corpus: MakeCorpus, first: str, again: str
) -> None:
    root = make_corpus({"config.json": f'{{"strict": {first}, "strict": {again}}}'})
    [finding] = findings_of("duplicate-key", root)
    assert finding.severity.label == "error" and "parsers keep only one" in finding.message


def test_duplicates_are_listed_as_written_outer_before_inner(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"config.json": '{"a": 1, "a": {"b": 1, "b": 2}}'})
    assert [f.location.pointer for f in findings_of("duplicate-key", root)] == ["/a", "/a/b"]
