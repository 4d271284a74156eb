"""Tests of closed event union."""

from __future__ import annotations

from pathlib import Path

from conftest import BUNDLED_CORPUS
from speclint.analyses.context import Context
from speclint.model.config import load_config
from speclint.run.catalog import all_rules

# Issue 26, items 4 and 5: precision of version-drift, remote-ref, undeclared-tag,
# instance-invalid, openapi-invalid, schema-invalid and parse-error on layouts seen in public spec
# repositories, and short first lines for the closure, union, satisfiability and identity rules.
# Every fixture here is our own.


FIRST_LINE = 200


CAPPED = ("closure-policy", "closed-event-union", "unsatisfiable-schema", "duplicate-id")


MINE = (
    *CAPPED,
    "version-drift",
    "undeclared-tag",
    "instance-invalid",
    "openapi-invalid",
    "schema-invalid",
    "parse-error",
)


def _long_first_lines(root: Path) -> list[tuple[str, int, str]]:
    corpus = Context.load(root, load_config(root))
    long = []
    for rule in MINE:
        for finding in all_rules()[rule].check(corpus, {}):
            first = finding.terminal_message.split("\n")[0]
            if len(first) > FIRST_LINE:
                long.append((rule, len(first), first))
    return long


def test_first_lines_are_short_on_the_bundled_corpus() -> None:
    root = BUNDLED_CORPUS
    assert _long_first_lines(root) == []


def test_first_lines_are_short_on_openwop(openwop: Path) -> None:
    assert _long_first_lines(openwop) == []
