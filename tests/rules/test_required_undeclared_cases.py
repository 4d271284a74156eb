"""required-undeclared: the cases its documentation leaves to the tests, each named after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule, schema

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_required_undeclared_skips_a_scope_with_a_dynamic_ref(make_corpus: MakeCorpus) -> None:
    # what a `$dynamicRef` declares is known only at validation time (2020-12 §8.2.3.2)
    extended = {"$dynamicRef": "#node", "properties": {"a": {}}, "required": ["b"]}
    root = make_corpus({"schemas/tree.json": schema(**extended)})
    assert run_rule(root, "required-undeclared", {}) == []
    # the control: without it, `b` is declared nowhere
    del extended["$dynamicRef"]
    (root / "schemas/tree.json").write_text(schema(**extended))
    [finding] = run_rule(root, "required-undeclared", {})
    assert finding.location.pointer == "/required/0"
