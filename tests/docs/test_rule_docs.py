"""Every rule module documents itself the way `speclint rule ID` and SARIF expect."""

from __future__ import annotations

import pytest

from speclint.common.findings import Severity
from speclint.run.catalog import all_rules

SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Options")


@pytest.mark.parametrize("rule_id", sorted(all_rules()))
def test_rule_docstring_has_the_house_sections_and_examples(rule_id: str) -> None:
    info = all_rules()[rule_id]
    positions = [info.doc.find(section) for section in SECTIONS]
    assert all(p >= 0 for p in positions), f"{rule_id}: missing sections"
    assert positions == sorted(positions), f"{rule_id}: sections out of order"
    assert "FAIL" in info.doc and "PASS" in info.doc
    assert info.summary and len(info.summary) < 140
    assert isinstance(info.severity, Severity)
    assert info.module.endswith(rule_id.replace("-", "_"))


def test_the_rules_index_lists_every_rule() -> None:
    from conftest import REPOSITORY

    index = (REPOSITORY / "docs" / "rules" / "index.md").read_text(encoding="utf-8")
    for rule_id, info in all_rules().items():
        assert f"| [`{rule_id}`]({rule_id}.md) | {info.severity.label} |" in index, rule_id
