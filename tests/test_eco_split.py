"""Issue 45, ecosystem batch 1: split API sources a bundler resolves, versions whose official
schema speclint does not ship, and messages garbled on their way to the report. Every fixture
here is our own."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.model.config import load_config
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def run(root: Path, rule: str) -> list[Finding]:
    return list(all_rules()[rule].check(Context.load(root, load_config(root)), {}))


def yaml(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# --- broken-link: a destination as written, not as a path normalised it ------------------------


def test_a_url_in_parentheses_is_named_as_written(make_corpus: MakeCorpus) -> None:
    # `[x]: (https://…)` keeps the parentheses in its destination: a relative path to GitHub.
    # The message showed `https:/…` (a path normalisation applied to a URL).
    root = make_corpus(
        {
            "docs/guide.md": "# Guide\n\nSee the [collection][c].\n\n"
            "[c]: (https://www.example.com/team/collection)\n",
        }
    )
    [finding] = run(root, "broken-link")
    assert "https:/w" not in finding.message
    assert "`(https://www.example.com/team/collection)`" in finding.message
    assert "parentheses" in finding.message and finding.location.line == 5


def test_a_quoted_destination_on_the_next_line_is_shown_as_written(
    make_corpus: MakeCorpus,
) -> None:
    # `[x](` then a line break and `"path"`: CommonMark reads `"path"` (quotes and all) as the
    # destination. The message showed the parser's `%22path%22`.
    root = make_corpus(
        {
            "docs/guide.md": '# Guide\n\n- [the example](\n  "../assets/example.json")\n',
            "assets/example.json": "{}\n",
        }
    )
    [finding] = run(root, "broken-link")
    assert "%22" not in finding.message
    assert finding.message.startswith('`"../assets/example.json"`')
    assert "quotes are part of the destination: write `../assets/example.json`" in (finding.message)
