"""``broken-link`` on documents a build assembles: a specification put together from Markdown
fragments or includes (ReSpec, spec-md), pages rendered from templates, files a build copies
into place; a link is judged as the published document reads it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from test_broken_link import findings_of

from conftest import dedented as md
from conftest import run_rule
from speclint.analyses.prose.assembly import respec_slug
from speclint.common.findings import FIRST_LINE, Finding
from speclint.parsing import reading
from speclint.rules import broken_link
from speclint.run.engine import Options, lint

# Issue 45, ecosystem batch 5 at first read: links as the published document reads them (a
# ReSpec document assembled from Markdown pages, files a build copies into place), and a stale
# list of links reported once. Every fixture here is our own.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def findings(root: Path) -> list[Finding]:
    return [f for f in run_rule(root, "broken-link") if f.coverage is None]


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


COPY_SCRIPT = md(
    """
    #!/bin/bash
    set -e
    mkdir -p ./site/example
    cp -r ./schemas/**/example/*.json ./site/example
    """
)


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


# broken-link on the layouts the ecosystem check met (issue 26, items 4 and 5): a specification
# a build assembles from Markdown fragments or includes, pages rendered from templates, spec-md's
# section anchors, links written against a published site's layout, and first lines that fit.


FRAGMENTS = {
    "std/src/body-00.md": "# Body\n\nThe body of the standard.\n",
    "std/src/body-01-terms.md": (
        "## Terms {#terms-and-words}\n\n"
        "widget\n:   a [gadget](#def;gadget) that turns\n\n"
        "See [the rules](#rules) and [clause 9](#clause-nine).\n"
    ),
    "std/src/body-02-rules.md": (
        "## Rules\n\nTerms are in [terms](#terms-and-words) and [Language](#language-1).\n\n"
        "### Language\n"
    ),
    "std/src/body-03-language.md": "## Language\n\nSee [rules](#rules).\n",
    "std/src/body-04-more.md": "## More\n\n### Extra\n\n### Other\n",
}


COPY = (
    "# Body\n\n## Terms {#terms-and-words}\n\n"
    '<dl><dt id="def;widget">widget</dt><dd>a <a href="#def;gadget">gadget</a></dd></dl>\n\n'
    "See [the rules](#rules) and [clause 9](#clause-nine).\n\n"
    "## Rules\n\n### Language\n\n## Language\n\n## More\n\n### Extra\n\n### Other\n"
)


SPEC_MD = {
    "spec/Spec.md": (
        "# Spec\n\nSee [conformance](#sec-Appendix-Conformance).\n\n"
        "# [Overview](Section 1 -- Overview.md)\n\n# [Conformance](Appendix A -- Conformance.md)\n"
    ),
    "spec/Section 1 -- Overview.md": (
        "# Overview\n\n## Scalars\n\n**Custom Scalars**\n\nSee [custom](#sec-Scalars.Custom-Scalars),"
        " [@once](#sec--once), [conf](#sec-Appendix-Conformance) and [gone](#sec-Nowhere-Here).\n\n"
        "## @once\n"
    ),
    "spec/Appendix A -- Conformance.md": "# A. Appendix: Conformance\n\nSee [o](#sec-Overview).\n",
}


def test_fragments_resolve_anchors_in_the_assembled_document(make_corpus: MakeCorpus) -> None:
    root = make_corpus(FRAGMENTS)
    found = findings_of(root)
    # The anchors in sibling fragments resolve; `#clause-nine` is nowhere; `#def;gadget` is an id
    # the build makes, not known without a copy of the assembled document: not judged.
    assert [(f.location.path, f.message.split(":")[0]) for f in found] == [
        ("std/src/body-01-terms.md", "`#clause-nine`")
    ]
    assert "the document assembled from `std/src`" in found[0].message


def test_pages_with_their_own_title_are_not_fragments(make_corpus: MakeCorpus) -> None:
    # Numbered pages that each start with a title are pages of their own: a bare `#x` is this
    # page's anchor, and one in a sibling page does not resolve.
    root = make_corpus(
        {
            "docs/01-intro.md": "# Intro\n\nSee [setup](#setup).\n",
            "docs/02-setup.md": "# Setup\n\n## Setup steps\n",
            "docs/03-use.md": "# Use\n",
        }
    )
    assert [f.message.split(":")[0] for f in findings_of(root)] == ["`#setup`"]


def test_a_committed_copy_reports_a_shared_defect_once(make_corpus: MakeCorpus) -> None:
    files = dict(FRAGMENTS)
    files["std/src/body-04-more.md"] += "\nA [widget](#def;widget) and a [gizmo](#def;gizmo).\n"
    root = make_corpus({**files, "std/share/standard.md": COPY})
    found = sorted(findings_of(root), key=lambda f: f.message)
    # With the assembled copy committed, its generated ids are known: `#def;widget` resolves,
    # `#def;gizmo` and `#def;gadget` do not. `#clause-nine` and `#def;gadget` are broken in a
    # fragment and in the copy: one finding each, at the fragment, the copy's link related.
    assert [(f.location.path, f.message.split(":")[0]) for f in found] == [
        ("std/src/body-01-terms.md", "`#clause-nine`"),
        ("std/src/body-01-terms.md", "`#def;gadget`"),
        ("std/src/body-04-more.md", "`#def;gizmo`"),
    ]
    for finding in found[:2]:
        assert "std/share/standard.md" in [r.path for r in finding.related]


def test_jekyll_fragments_resolve_in_the_including_page(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "_config.yml": "title: site\n",
            "spec/specification.md": (
                "# Specification\n\nSee [alpha](#alpha).\n\n"
                "{% include_relative types/alpha.md %}\n{% include_relative types/beta.md %}\n"
                "{% include messages/trace.md %}\n"
            ),
            "spec/types/alpha.md": '#### <a href="#alpha" name="alpha"></a>Alpha\n\nUses [beta](#beta).\n',
            "spec/types/beta.md": (
                '#### <a href="#beta" name="beta"></a>Beta\n\nSee [trace](#trace) and [gamma](#gamma).\n'
            ),
            "_includes/messages/trace.md": '#### <a href="#trace" name="trace"></a>Trace\n',
        }
    )
    found = findings_of(root)
    assert [(f.location.path, f.message.split(":")[0]) for f in found] == [
        ("spec/types/beta.md", "`#gamma`")
    ]


def test_anchors_of_a_macro_rendered_page_are_not_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "mkdocs.yml": "site_name: x\n",
            "docs/glossary.md": "# Glossary\n\n{{ MACROS___make_glossary() }}\n",
            "docs/index.md": "# Index\n\n[t](glossary.md#tsv-extensions) [g](glossery.md)\n",
        }
    )
    assert [f.message.split(":")[0] for f in findings_of(root)] == [
        "`glossery.md` → `docs/glossery.md`"
    ]


def test_spec_md_section_anchors(make_corpus: MakeCorpus) -> None:
    package = {"name": "s", "devDependencies": {"spec-md": "3.1.0"}}
    root = make_corpus({**SPEC_MD, "package.json": json.dumps(package)})
    found = findings_of(root)
    assert [(f.location.path, f.message.split(":")[0]) for f in found] == [
        ("spec/Section 1 -- Overview.md", "`#sec-Nowhere-Here`")
    ]


def test_a_spec_md_anchor_matching_a_heading_anywhere(make_corpus: MakeCorpus) -> None:
    # No spec-md in package.json: the pages are read alone, and a `#sec-` anchor that names a
    # heading of its page by spec-md's scheme is not judged broken.
    root = make_corpus({"spec/page.md": "# Page\n\n## Field Rules\n\n[r](#sec-Field-Rules)\n"})
    assert findings_of(root) == []


def test_site_routes_not_knowable_are_not_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "site/config.toml": "title = 'x'\n",
            "site/content/_index.md": "# Home\n\n## Devices\n",
            "site/content/api/_index.md": "# API\n\n[devices](../index.html#devices)\n",
            "www/_config.yml": "title: x\n",
            "www/_redirects": "/notes/plan https://example.org/plan 302\n",
            "www/index.md": (
                "# W\n\n[levels](spec/latest/levels) [start](get-started) [plan](notes/plan)\n"
            ),
            "www/how-to/get-started.md": "---\npermalink: /get-started\n---\n# Start\n",
            "spec/levels.md": (
                "---\ntitle: Levels\n---\n# Levels\n\n[old](../v0.1/levels.md) [typo](levls.md)\n"
            ),
            "notes/plain.md": "# Plain\n\n[old](../v0.1/levels.md)\n",
        }
    )
    found = sorted(f.message.split(":")[0] for f in findings_of(root))
    # A page GitHub renders, and a missing `.md` page on a site page, are still judged.
    assert found == ["`../v0.1/levels.md` → `v0.1/levels.md`", "`levls.md` → `spec/levls.md`"]
    assert {f.location.path for f in findings_of(root)} == {"notes/plain.md", "spec/levels.md"}


def test_the_first_line_of_a_long_finding_fits(make_corpus: MakeCorpus) -> None:
    long = "section/" + "-".join(["Calling-Meta-Resolver-APIs"] * 8)
    root = make_corpus({"a.md": f"# A\n\n## Calling\n\n[x](#{long}) [y](#{long})\n"})
    [finding] = findings_of(root)
    assert len(finding.terminal_message.split("\n", 1)[0]) <= FIRST_LINE
    assert any(long in (r.note or "") for r in finding.related)


def test_a_jekyll_page_links_from_its_pretty_url(make_corpus: MakeCorpus) -> None:
    # Jekyll serves `guide/overview.md` at `guide/overview/`: `../img/a.png` there is
    # `guide/img/a.png`. A link that names nothing from either place is still reported.
    root = make_corpus(
        {
            "_config.yml": "title: x\n",
            "guide/overview.md": "---\nlayout: page\n---\n## O\n\n![a](../img/a.png) ![b](../img/b.png)\n",
            "guide/img/a.png": b"\x89PNG",
        }
    )
    assert [f.message.split(":")[0] for f in findings_of(root)] == ["`../img/b.png` → `img/b.png`"]


def test_an_excerpt_of_the_assembled_document_links_into_it(make_corpus: MakeCorpus) -> None:
    # A page cut from the standard (it starts at `###`, every heading is the standard's) keeps
    # the links written for the whole document.
    excerpt = "### Language\n\nSee [rules](#rules) and [gone](#gone-rule).\n"
    root = make_corpus({**FRAGMENTS, "examples/language.md": excerpt})
    assert sorted(f.message.split(":")[0] for f in findings_of(root)) == [
        "`#clause-nine`",
        "`#gone-rule`",
    ]


def test_a_page_an_api_description_renders_is_not_judged(make_corpus: MakeCorpus) -> None:
    # `tags/auth.md` is the text of a tag's description: Redoc renders it into the reference,
    # where `#tag/Objects` is an anchor. The same link on a page of its own is reported.
    api = (
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n"
        "tags:\n  - name: Auth\n    description:\n      $ref: ./tags/auth.md\n"
    )
    page = "## Auth\n\nSee [objects](#tag/Objects).\n"
    root = make_corpus({"api/openapi.yaml": api, "api/tags/auth.md": page, "docs/a.md": page})
    assert [f.location.path for f in findings_of(root)] == ["docs/a.md"]


def test_a_missing_anchor_names_the_heading_that_holds_its_words(make_corpus: MakeCorpus) -> None:
    # `#context` is a word of "Event context": a better guess than the closer spelling `#content`.
    spec = "# Spec\n\n## Content\n\n## Event context\n\n### id (context)\n"
    root = make_corpus(
        {"spec.md": spec, "binding.md": "# B\n\n[c](spec.md#context) [i](spec.md#id)\n"}
    )
    found = sorted(f.message for f in findings_of(root))
    assert "(did you mean `#event-context`?)" in found[0]
    assert "(did you mean `#id-context`?)" in found[1]
