"""The bundled corpus: every implemented rule finds its seeded defect, and nothing else is found."""

from __future__ import annotations

import re
from collections import Counter

from conftest import BUNDLED_CORPUS
from speclint.analyses.context import Context
from speclint.model.config import load_config
from speclint.run.catalog import all_rules
from speclint.run.runner import run_rules

ROW = re.compile(r"^\|\s*`(?P<rule>[a-z0-9-]+)`\s*\|\s*`(?P<file>[^`]+)`\s*\|")


def seeded_rows() -> list[tuple[str, str]]:
    """(rule id, file) per row of the "Seeded defects" table of corpus/README.md: one finding each."""
    rows = []
    for line in (BUNDLED_CORPUS / "README.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            rows.append((match["rule"], match["file"]))
    return rows


def seeded_defects() -> dict[str, str]:
    return dict(seeded_rows())


def test_the_readme_lists_a_seeded_defect_for_every_rule_in_the_catalog() -> None:
    seeded = seeded_defects()
    assert set(all_rules()) <= set(seeded), "every implemented rule needs a seeded defect"
    assert len(seeded) >= 18  # the whole catalog of rules.md, implemented or pending


def test_every_implemented_rule_finds_its_seeded_defect_and_nothing_else() -> None:
    corpus = Context.load(BUNDLED_CORPUS, load_config(BUNDLED_CORPUS))
    result = run_rules(corpus)
    # A rule that judges a change (compat-claim) is silent without a base; its own tests give it one.
    implemented = {rule_id for rule_id, info in all_rules().items() if not info.needs_base}
    expected = Counter((rule, path) for rule, path in seeded_rows() if rule in implemented)
    assert Counter((f.rule, f.location.path) for f in result.findings) == expected
