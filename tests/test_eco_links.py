"""broken-link on the layouts the ecosystem check met (issue 26, items 4 and 5): a specification
a build assembles from Markdown fragments or includes, pages rendered from templates, spec-md's
section anchors, links written against a published site's layout, and first lines that fit."""

from __future__ import annotations

import json

from test_broken_link import MakeCorpus, findings_of

from speclint.common.findings import FIRST_LINE

# --- fragments a build script concatenates ---------------------------------------------------------

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


COPY = (
    "# Body\n\n## Terms {#terms-and-words}\n\n"
    '<dl><dt id="def;widget">widget</dt><dd>a <a href="#def;gadget">gadget</a></dd></dl>\n\n'
    "See [the rules](#rules) and [clause 9](#clause-nine).\n\n"
    "## Rules\n\n### Language\n\n## Language\n\n## More\n\n### Extra\n\n### Other\n"
)


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


# --- Jekyll includes ---------------------------------------------------------------------------------


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


# --- content rendered at build time by a template ---------------------------------------------------


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


# --- spec-md ------------------------------------------------------------------------------------------

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


# --- links written against a published site's layout --------------------------------------------------


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


# --- item 5: the first line fits ----------------------------------------------------------------------


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
