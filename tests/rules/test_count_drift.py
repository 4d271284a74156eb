"""``count-drift`` on fixtures written here, one test a case, named after it. The rule: a counted
claim ("the four kind discriminators") that no longer matches what it counts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import dedented as page
from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_count_drift_against_the_page_and_against_its_own_list(make_corpus: MakeCorpus) -> None:
    text = page(
        """
        # Interrupts

        Status: Stable, covering the three interrupt kinds.

        ## Kinds

        - `approval`: a person decides.
        - `clarification`: a question.
        - `custom`: anything else.
        - `external`: an outside event.

        The two `mode` values (`sync`, `async`, `batch`) are fixed. Five colour kinds exist.
        """
    )
    root = make_corpus({"spec/interrupt.md": text})
    found = sorted(run_rule(root, "count-drift"), key=lambda f: f.location.line)
    assert [(f.location.line, f.message.split(",")[0]) for f in found] == [
        (3, '"Status: Stable'),
        (12, "claims 2 values of `mode` but lists 3: `sync`"),
    ]
    assert "claims 3 interrupt kinds, but this page lists 4 values of `kind`" in found[0].message
    assert found[0].related[0].line == 7
    fixed = text.replace("three interrupt", "four interrupt").replace("two `mode`", "three `mode`")
    assert run_rule(make_corpus({"spec/interrupt.md": fixed}), "count-drift") == []
