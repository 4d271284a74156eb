"""Issue 45, ecosystem batch 6 at first read: links as their renderer reads them (Elastic's
docs-builder anchors, ReSpec documents assembled by other include forms) and index-drift's
reading of a folder's index. Every fixture here is our own."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.common.findings import Finding

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def md(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def findings(root: Path, rule: str = "broken-link") -> list[Finding]:
    return [f for f in run_rule(root, rule) if f.coverage is None]


# --- broken-link: Elastic docs-builder's anchors -------------------------------------------------

DOCSET = "project: 'Lamp reference'\ntoc:\n  - toc: reference\n"
LAMP_FIELDS = md(
    """
    # Lamp fields [lamp-fields]

    ## Lamp field details [_lamp_field_details]

    | Field | Description |
    | --- | --- |
    | $$$field-lamp-colour$$$ [lamp.colour](#field-lamp-colour) | The colour. |
    | $$$field-lamp-Watts$$$ [lamp.watts](#field-lamp-watts) | The power. |

    ## Field reuse

    See [details](#_lamp_field_details), [reuse](#field-reuse) and [top](#lamp-fields).
    """
)


def test_docs_builder_inline_and_heading_anchors_are_the_pages_anchors(
    make_corpus: MakeCorpus,
) -> None:
    # docs-builder (a `docset.yml`) makes `$$$x$$$` an anchor (slugified, so `Watts` is
    # `watts`) and `## Title [id]` the heading's id.
    root = make_corpus({"docs/docset.yml": DOCSET, "docs/reference/lamp.md": LAMP_FIELDS})
    assert findings(root) == []


def test_docs_builder_heading_id_replaces_the_slug_and_is_proposed(
    make_corpus: MakeCorpus,
) -> None:
    page = LAMP_FIELDS + "\nSee [the details](#lamp-field-details-_lamp_field_details).\n"
    root = make_corpus({"docs/docset.yml": DOCSET, "docs/reference/lamp.md": page})
    [finding] = findings(root)
    assert "`#lamp-field-details-_lamp_field_details`" in finding.message
    assert "did you mean `#_lamp_field_details`" in finding.message


def test_inline_anchors_are_no_anchors_where_github_renders_the_page(
    make_corpus: MakeCorpus,
) -> None:
    # Without docs-builder, `$$$x$$$` is text: the link leads nowhere on GitHub.
    root = make_corpus({"reference/lamp.md": "Row $$$field-x$$$ [x](#field-x).\n"})
    [finding] = findings(root)
    assert "`#field-x`" in finding.message
