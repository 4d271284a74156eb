"""Issue 45, ecosystem batch 5 at first read: links as the published document reads them (a
ReSpec document assembled from Markdown pages, files a build copies into place), and a stale
list of links reported once. Every fixture here is our own."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_rule
from speclint.analyses.prose.assembly import respec_slug
from speclint.common.findings import Finding
from speclint.parsing import reading
from speclint.rules import broken_link
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def md(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def findings(root: Path) -> list[Finding]:
    return [f for f in run_rule(root, "broken-link") if f.coverage is None]


# --- broken-link: a ReSpec document assembled from Markdown pages ------------------------------

RESPEC_HOST = md(
    """
    <!DOCTYPE html>
    <html>
    <head>
      <script src="https://www.w3.org/Tools/respec/respec-w3c" class="remove" defer></script>
      <script class="remove">var respecConfig = {specStatus: "ED"};</script>
    </head>
    <body>
    <section id="abstract"><p>Lamps.</p></section>
    <section data-include="parts/lamp.protocol.md" data-include-format="markdown"></section>
    <section data-include="parts/lamp.binding.md" data-include-format='markdown'></section>
    </body>
    </html>
    """
)
LAMP_PROTOCOL = md(
    """
    ## Lamp Protocol

    ### ACK - Lamp

    Sent when the lamp is lit.

    ### Lamp Off Message

    Sent to put it out.
    """
)


def test_a_respec_documents_parts_link_the_ids_respec_gives_the_headings(
    make_corpus: MakeCorpus,
) -> None:
    # ReSpec puts both pages in `index.html`: `#ack-lamp` (ReSpec's id of "ACK - Lamp", where
    # GitHub's slug is `#ack---lamp`) and `#abstract` are ids of the one page.
    root = make_corpus(
        {
            "index.html": RESPEC_HOST,
            "parts/lamp.protocol.md": LAMP_PROTOCOL,
            "parts/lamp.binding.md": md(
                """
                ## Lamp Binding

                Reply with [ACK](#ack-lamp), after [the message](#lamp-off-message); see the
                [abstract](#abstract).
                """
            ),
        }
    )
    assert findings(root) == []


def test_a_respec_documents_github_slug_is_broken_and_respecs_id_proposed(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "index.html": RESPEC_HOST,
            "parts/lamp.protocol.md": LAMP_PROTOCOL,
            "parts/lamp.binding.md": "## Lamp Binding\n\nReply with [ACK](#ack---lamp).\n",
        }
    )
    found = findings(root)
    assert [f.location.path for f in found] == ["parts/lamp.binding.md"]
    assert "the document assembled from `index.html`" in found[0].message
    assert "(did you mean `#ack-lamp`?)" in found[0].message


def test_an_html_page_without_respec_assembles_nothing(make_corpus: MakeCorpus) -> None:
    # The same markup in a page that does not load ReSpec: each Markdown page is its own.
    host = "\n".join(
        line for line in RESPEC_HOST.splitlines() if "<script" not in line and "respec" not in line
    )
    root = make_corpus(
        {
            "index.html": host,
            "parts/lamp.protocol.md": LAMP_PROTOCOL,
            "parts/lamp.binding.md": "## Lamp Binding\n\nReply with [ACK](#ack-lamp).\n",
        }
    )
    assert [f.location.path for f in findings(root)] == ["parts/lamp.binding.md"]


def test_a_part_including_a_file_not_in_the_repository_leaves_its_anchors_unjudged(
    make_corpus: MakeCorpus,
) -> None:
    # `tables/lamp.html` (a build's output) brings ids of its own into the document.
    root = make_corpus(
        {
            "index.html": RESPEC_HOST,
            "parts/lamp.protocol.md": LAMP_PROTOCOL
            + '\n<p data-include="tables/lamp.html" data-include-format="html"></p>\n',
            "parts/lamp.binding.md": "## Lamp Binding\n\nSee [the table](#Lamp-table).\n",
        }
    )
    assert findings(root) == []


def test_a_part_including_an_example_as_text_keeps_its_anchors_judged(
    make_corpus: MakeCorpus,
) -> None:
    # A JSON example shown in a `<pre>` brings no ids: the document is still known.
    root = make_corpus(
        {
            "index.html": RESPEC_HOST,
            "parts/lamp.protocol.md": LAMP_PROTOCOL
            + '\n<pre class="json" data-include="message/example/lamp.json"></pre>\n',
            "parts/lamp.binding.md": "## Lamp Binding\n\nSee [the table](#Lamp-table).\n",
        }
    )
    assert [f.location.path for f in findings(root)] == ["parts/lamp.binding.md"]


def test_a_respec_page_after_many_html_pages_in_path_order_is_still_read(
    make_corpus: MakeCorpus,
) -> None:
    # A folder of generated HTML that sorts first (`docs/api/`, 201 pages) does not hide the
    # page that loads ReSpec.
    generated: dict[str, str | bytes] = {
        f"docs/api/p{n:03}.html": f"<html><body><p>{n}</p></body></html>\n" for n in range(201)
    }
    root = make_corpus(
        {
            **generated,
            "index.html": RESPEC_HOST,
            "parts/lamp.protocol.md": LAMP_PROTOCOL,
            "parts/lamp.binding.md": "## Lamp Binding\n\nReply with [ACK](#ack-lamp).\n",
        }
    )
    assert findings(root) == []


def test_an_html_page_over_the_size_limit_is_told_by_its_size_not_read(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = RESPEC_HOST.replace("<body>", "<body>\n" + "<p>lamp</p>\n" * 200_000)  # 2.2 MB
    assert len(big) > broken_link.HTML_HOST_BYTES
    root = make_corpus(
        {
            "index.html": big,
            "parts/lamp.protocol.md": LAMP_PROTOCOL,
            "parts/lamp.binding.md": "## Lamp Binding\n\nReply with [ACK](#ack-lamp).\n",
        }
    )
    bytes_read: list[int] = []
    real = reading.os.read

    def counted(descriptor: int, size: int) -> bytes:
        chunk = real(descriptor, size)
        bytes_read.append(len(chunk))
        return chunk

    monkeypatch.setattr(reading.os, "read", counted)
    # not assembled (over the limit): the part's link is judged on its own page
    assert [f.location.path for f in findings(root)] == ["parts/lamp.binding.md"]
    assert sum(bytes_read) < broken_link.HTML_HOST_BYTES  # the page's head at most


def test_respecs_slug_is_its_addid() -> None:
    assert respec_slug("ACK - Catalog") == "ack-catalog"
    assert respec_slug("  Café Über_all  ") == "cafe-uber_all"
    assert respec_slug("2. Scope") == "x2-scope"
    assert respec_slug("?!") == "generatedID"


# --- broken-link: a file a build copies into place ------------------------------------------

COPY_SCRIPT = md(
    """
    #!/bin/bash
    set -e
    mkdir -p ./site/example
    cp -r ./schemas/**/example/*.json ./site/example
    """
)


def test_a_link_into_a_folder_a_build_copies_files_into_is_coverage(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "scripts/publish.sh": COPY_SCRIPT,
            "schemas/lamp/example/lamp.json": "{}\n",
            "README.md": md(
                """
                # Lamps

                An [example](site/example/lamp.json); a [missing page](site/lamp.md), an
                [example no source has](site/example/bulb.json).
                """
            ),
        }
    )
    outcome = lint(root, Options(cache=False))
    broken = [f for f in outcome.findings if f.rule == "broken-link"]
    # Only what the copy provides is the build's: `site/lamp.md` is in no copy's folder, and
    # no source of the copy is `bulb.json`.
    assert sorted(f.message.split(":")[0] for f in broken) == [
        "`site/example/bulb.json` → `site/example/bulb.json`",
        "`site/lamp.md` → `site/lamp.md`",
    ]
    notes = [(n.kind, n.path, n.line) for n in outcome.result.coverage]
    assert notes == [("build-copy", "README.md", 3)]
    assert "schemas/lamp/example/lamp.json" in outcome.result.coverage[0].what
    assert "scripts/publish.sh:4" in outcome.result.coverage[0].what


def test_a_copy_of_one_file_names_no_folder(make_corpus: MakeCorpus) -> None:
    # `cp a.json site/example` copies one file to a name, which may be a file: nothing known.
    script = "#!/bin/bash\ncp ./schemas/lamp.json ./site/example\n"
    root = make_corpus(
        {
            "scripts/publish.sh": script,
            "schemas/lamp.json": "{}\n",
            "README.md": "# Lamps\n\nAn [example](site/example/lamp.json).\n",
        }
    )
    assert len(findings(root)) == 1


def test_a_respec_parts_relative_link_is_read_from_the_html_page(make_corpus: MakeCorpus) -> None:
    # ReSpec puts the part into `index.html`: `message/example/x.json` is read from the root,
    # into the folder the build copies the examples to.
    root = make_corpus(
        {
            "index.html": RESPEC_HOST,
            ".github/scripts/pages.sh": "#!/bin/bash\ncp -r ./examples/*.json ./message/example\n",
            "examples/lamp.json": "{}\n",
            "parts/lamp.protocol.md": LAMP_PROTOCOL,
            "parts/lamp.binding.md": "## Lamp Binding\n\n[Example](message/example/lamp.json)\n",
        }
    )
    assert findings(root) == []


# --- broken-link: one stale list, one finding ----------------------------------------------

STALE_TOC = md(
    """
    # Proposal

    ## Contents

    - [Introduction](#introduction)
    - [Goals](#goals)
    - [Walk-through](#walk-through)
      - [Use case 1](#use-case-1)
      - [Use case 2](#use-case-2)
    - [Alternatives](#alternatives)
      - [Alternative 1](#alternative-1)

    ## Introduction

    ## Goals

    ## Walk-through

    See [the plan](#plan).
    """
)


def test_a_list_whose_anchors_fail_alike_is_one_finding(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"proposal.md": STALE_TOC})
    found = findings(root)
    # The list's four dead entries are one finding, at the first, the others related; the
    # dead link outside the list is its own.
    assert sorted(f.location.line for f in found) == [8, 19]
    stale = next(f for f in found if f.location.line == 8)
    assert stale.message.startswith("4 links of the list at line 5 fail alike")
    assert [r.line for r in stale.related if r.line != 8] == [9, 10, 11]


def test_a_list_with_a_few_dead_entries_among_many_keeps_one_finding_each(
    make_corpus: MakeCorpus,
) -> None:
    # Three renamed headings among twelve entries: three defects, not one stale list.
    items = [f"- [Part {n}](#part-{n})" for n in range(1, 10)]
    headings = [f"## Part {n}" for n in range(1, 10)]
    page = "# Doc\n\n" + "\n".join(
        [*items, "- [Old 1](#old-1)", "- [Old 2](#old-2)", "- [Old 3](#old-3)"]
    )
    root = make_corpus({"doc.md": page + "\n\n" + "\n\n".join(headings) + "\n"})
    assert [f.location.line for f in findings(root)] == [12, 13, 14]


def test_a_recursive_copy_of_a_folder_provides_its_files_only(make_corpus: MakeCorpus) -> None:
    # `cp -r shapes site` makes `site` a copy of `shapes`, or `site/shapes` (`site` existing):
    # `README.md` at the root is no file of it.
    root = make_corpus(
        {
            "Makefile": "site:\n\tcp -r ./shapes ./site\n",
            "shapes/round.json": "{}\n",
            "README.md": md(
                """
                # Shapes

                [Round](site/round.json), [again](site/shapes/round.json), [read me](site/README.md).
                """
            ),
        }
    )
    assert [f.message.split(":")[0] for f in findings(root)] == [
        "`site/README.md` → `site/README.md`"
    ]
