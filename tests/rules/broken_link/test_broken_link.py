"""broken-link: relative links, images, anchors, schema `$id` links and `file.md §Section`
references, each with a PASS and a FAIL case on a small corpus written here."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from test_index_drift import TERMS, run
from test_openapi_invalid import _report

from conftest import run_cli, run_rule, schema
from speclint.analyses.context import Context
from speclint.analyses.schemas import roles
from speclint.common.findings import Finding, Severity
from speclint.model.config import load_config
from speclint.parsing.prose import github_anchor
from speclint.rules.broken_link import github_slug
from speclint.run.catalog import all_rules
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def findings_of(root: Path, options: Mapping[str, Any] | None = None) -> list[Finding]:
    corpus = Context.load(root)
    return list(all_rules()["broken-link"].check(corpus, options or {}))


def messages(root: Path, options: Mapping[str, Any] | None = None) -> list[str]:
    return [f.message for f in findings_of(root, options)]


RUNS = (
    "# Runs\n"
    "\n"
    "See [the state machine](lifecycle.md#states), [create](#Create-A-Run) and\n"
    '`errors.md` §"Retry budget".\n'
    "\n"
    "## Create a Run!\n"
)


def test_docstring_example_fails_then_passes(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "spec/runs.md": RUNS,
            "spec/lifecycle.md": "# Lifecycle\n\n## Run states\n",
            "spec/errors.md": "# Errors\n\n## Retry budgets (normative)\n",
        }
    )
    found = sorted(findings_of(root), key=lambda f: (f.location.line, f.location.column))
    third = RUNS.split("\n")[2]
    # `#Create-A-Run` works: GitHub, the only renderer here, forgives the case.
    assert [(f.location.line, f.location.column) for f in found] == [
        (3, third.index("lifecycle.md#states") + 1),
        (4, 13),
    ]
    anchor, section = found
    assert "`spec/lifecycle.md` has no heading or anchor `#states`" in anchor.message
    assert "did you mean `#run-states`?" in anchor.message
    assert anchor.related[0].path == "spec/lifecycle.md"
    assert "`spec/errors.md` has no section `Retry budget`" in section.message
    assert all(f.location.pointer == "#runs" for f in found)
    (root / "spec/runs.md").write_text(
        RUNS.replace("#states", "#run-states")
        .replace("#Create-A-Run", "#create-a-run")
        .replace("Retry budget", "Retry budgets")
    )
    assert findings_of(root) == []


def test_relative_links_and_images_to_files_and_folders(make_corpus: MakeCorpus) -> None:
    page = (
        "# Guide\n\n"
        "[up](../README.md), [folder](../tools/), [script](../tools/gen.py),\n"
        "[space](my%20notes.md), [plain](../README.md?plain=1) ![diagram](img/flow.png)\n"
        "[angle](<my notes.md>) [here](.)\n"
    )
    root = make_corpus(
        {
            "README.md": "# Readme\n",
            "docs/guide.md": page,
            "docs/my notes.md": "# Notes\n",
            "docs/img/flow.png": b"\x89PNG\r\n\x1a\n",
            "tools/gen.py": "print()\n",
            "tools/README.md": "# Tools\n",
        }
    )
    assert findings_of(root) == []
    (root / "docs/img/flow.png").unlink()
    (root / "tools/gen.py").unlink()
    found = findings_of(root)
    assert [f.message.split(":")[0] for f in found] == [
        "`img/flow.png` → `docs/img/flow.png`",
        "`../tools/gen.py` → `tools/gen.py`",
    ]
    image = next(f for f in found if "flow.png" in f.message)
    assert "no such image" in image.message
    assert (image.location.line, image.location.column) == (
        4,
        page.split("\n")[3].index("img/") + 1,
    )


def test_a_case_mismatch_is_broken_and_names_the_right_case(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"README.md": "# Readme\n\nSee [governance](governance.md).\n", "GOVERNANCE.md": "# G\n"}
    )
    [finding] = findings_of(root)
    assert "the repository has `GOVERNANCE.md`" in finding.message
    assert "Write `GOVERNANCE.md`" in finding.message


def test_a_missing_file_suggests_a_close_name_and_groups_its_links(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "spec/a.md": "# A\n\n[events](event.md)\n\n## More\n\nAgain [events](./event.md).\n",
            "spec/b.md": "# B\n\n[events](event.md)\n",
            "spec/events.md": "# Events\n",
        }
    )
    [finding] = findings_of(root)
    assert "`spec/event.md`: no such file" in finding.message
    assert "did you mean `events.md`?" in finding.message
    assert "3 links" in finding.message
    assert (finding.location.path, finding.location.line) == ("spec/a.md", 3)
    assert [(r.path, r.line, r.note) for r in finding.related] == [
        ("spec/a.md", 7, "also links `./event.md`"),
        ("spec/b.md", 3, "also links `event.md`"),
    ]


def test_did_you_mean_prefers_the_nearest_folder(make_corpus: MakeCorpus) -> None:
    # A README linking as if from the folder above: `engine/registry.go` beside it is meant,
    # not the file of that name one folder further, whose path is the more alike
    # (`engine/lib/registry.go` for `engine/engine/registry.go`).
    root = make_corpus(
        {
            "engine/README.md": "# Engine\n\n[registry](engine/registry.go)\n",
            "engine/registry.go": "package engine\n",
            "engine/lib/registry.go": "package lib\n",
            "cmd/engine/registry.go": "package main\n",
        }
    )
    [finding] = findings_of(root)
    assert "(did you mean `registry.go`?)" in finding.message


def test_links_out_of_the_root_are_never_looked_at(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"README.md": "# R\n\n[sibling](../other/README.md) [up](../../x)\n"})
    (root.parent / "other").mkdir()
    assert findings_of(root) == []


def test_urls_and_other_schemes_are_not_fetched(make_corpus: MakeCorpus) -> None:
    page = (
        "# R\n\n[site](https://example.org/missing.md) [mail](mailto:a@example.org)\n"
        "[proto](//cdn.example.org/x.js) <https://example.org/x> [tpl]({{ base }}/x.md)\n"
    )
    root = make_corpus({"README.md": page})
    assert findings_of(root) == []


def test_a_web_address_without_its_scheme_is_a_relative_path(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"README.md": "# R\n\nSee [the store](schemastore.org).\n"})
    [finding] = findings_of(root)
    assert "needs its scheme: `https://schemastore.org`" in finding.message


def test_code_spans_code_blocks_and_footnotes_are_not_links(make_corpus: MakeCorpus) -> None:
    page = (
        "# R\n\n"
        "Write `[x](missing.md)` like this.\n\n"
        "```markdown\n[x](missing.md)\n```\n\n"
        "    [x](indented.md)\n\n"
        "A note.[^1]\n\n"
        "[^1]: [issue 12](https://example.org/issues/12).\n"
    )
    root = make_corpus({"README.md": page})
    assert findings_of(root) == []


def test_reference_style_links_are_checked_once_at_the_definition(
    make_corpus: MakeCorpus,
) -> None:
    page = "# R\n\n[one][spec] and [two][spec], [ok][]\n\n[spec]: ./spec.md\n[ok]: ./README.md\n"
    root = make_corpus({"README.md": page})
    [finding] = findings_of(root)
    assert (finding.location.line, finding.location.column) == (5, 9)
    assert finding.message.startswith("`./spec.md` → `spec.md`")
    (root / "spec.md").write_text("# Spec\n")
    assert findings_of(root) == []


def test_raw_html_links_and_images(make_corpus: MakeCorpus) -> None:
    page = (
        "# R\n\n"
        '<p align="center"><img src="logo.svg" alt="logo"></p>\n\n'
        'Read <a href="docs/intro.md#start">the intro</a>.\n'
    )
    root = make_corpus({"README.md": page, "docs/intro.md": "# Intro\n\n## Start\n"})
    assert [m.split(":")[0] for m in messages(root)] == ["`logo.svg` → `logo.svg`"]
    (root / "logo.svg").write_text("<svg/>")
    assert findings_of(root) == []


def test_an_anchor_written_from_the_heading_text_passes(make_corpus: MakeCorpus) -> None:
    page = (
        "# API\n\n[create](#create-a-run), [other](other.md#the-best-section)\n\n## Create a Run!\n"
    )
    root = make_corpus({"api.md": page, "other.md": '# Other\n\n## The "Best" Section\n'})
    assert findings_of(root) == []
    (root / "api.md").write_text(page.replace("#create-a-run", "#create-run"))
    [finding] = findings_of(root)
    assert "this page has no heading or anchor `#create-run`" in finding.message
    assert "did you mean `#create-a-run`?" in finding.message
    assert finding.related == ()


def test_a_case_only_difference_is_reported_on_a_site_unless_ignore_case(
    make_corpus: MakeCorpus,
) -> None:
    page = "# API\n\n[create](#Create-A-Run)\n\n## Create a Run\n"
    root = make_corpus({"api.md": page})
    assert findings_of(root) == []  # GitHub renders it, and forgives the case
    root = make_corpus({"mkdocs.yml": "site_name: x\n", "docs/api.md": page})
    [finding] = findings_of(root)
    assert "the anchor of this page is `#create-a-run`" in finding.message
    assert "MkDocs" in finding.message
    assert findings_of(root, {"ignore-case": True}) == []


def test_repeated_headings_and_explicit_anchors(make_corpus: MakeCorpus) -> None:
    page = (
        "# Page\n\n"
        "[a](#example) [b](#example-1) [c](#example-2) [d](#legacy) [e](#pinned)\n"
        "[f](#custom) [g](#top) [h](gen.py#L10-L20) [i](data.json#/definitions/x)\n"
        "[j](#user-content-example) [k](#trailing-)\n\n"
        "## Example\n\n## Example\n\n## Example\n\n"
        '<a name="legacy"></a>\n\n<div id="pinned">x</div>\n\n'
        "## Custom heading {#custom}\n\n"
        '## Trailing <a id="t"></a>\n'
    )
    root = make_corpus({"page.md": page, "gen.py": "x = 1\n", "data.json": "{}\n"})
    assert findings_of(root) == []
    (root / "page.md").write_text(page.replace("#example-2", "#example-3"))
    [finding] = findings_of(root)
    assert "`#example-3`" in finding.message


def test_anchors_switch_turns_fragment_checks_off(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"a.md": "# A\n\n[x](b.md#nowhere)\n", "b.md": "# B\n"})
    assert len(findings_of(root)) == 1
    assert findings_of(root, {"anchors": False}) == []


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Create a Run!", "create-a-run"),
        ("😄 emoji", "-emoji"),
        ("Valid Heading 20.04 ✔️", "valid-heading-2004-\ufe0f"),
        ("Foo_bar baz", "foo_bar-baz"),
        ("A — B", "a--b"),
        ("Привет non-latin 你好", "привет-non-latin-你好"),
        ("L'Hôpital's Rule", "lhôpitals-rule"),
        ("`code` + *em*", "code--em"),
        ("The (RFC 0041) rule: v1.2/v2", "the-rfc-0041-rule-v12v2"),
    ],
)
def test_github_slug_rules(heading: str, anchor: str) -> None:
    assert github_slug(heading) == anchor
    assert github_anchor(heading) == anchor  # the prose model agrees on these


def test_github_slug_drops_other_numbers_as_github_does() -> None:
    # GitHub keeps \p{Word}: letters, marks, decimal and letter numbers, connectors.
    assert github_slug("x² and ½") == "x-and-"


def test_duplicate_numbering_under_both_schemes(make_corpus: MakeCorpus) -> None:
    # "Foo", "Foo 1", "Foo": html-pipeline counts repeats (`foo-1` twice), github-slugger
    # skips the taken `foo-1` (`foo-2`); both are accepted.
    page = "# P\n\n[a](#foo-1) [b](#foo-2)\n\n## Foo\n\n## Foo 1\n\n## Foo\n"
    root = make_corpus({"p.md": page})
    assert findings_of(root) == []


def test_site_routes_and_extension_less_links(make_corpus: MakeCorpus) -> None:
    docs_json = json.dumps(
        {
            "redirects": [
                {"source": "/spec/basic/security", "destination": "/guides/security"},
                {"source": "/spec/latest", "destination": "/spec/basic"},
            ]
        }
    )
    page = (
        "---\ntitle: Tools\n---\n\n# Tools\n\n"
        "[auth](../basic/auth) [latest](/spec/latest) [meta](/spec/basic/index#meta)\n"
        "[sec](../basic/security) [old](./2133-ext.md) [get](/spec/basic/index#tasks%2Fget)\n"
    )
    root = make_corpus(
        {
            "docs/docs.json": docs_json,
            "docs/spec/server/tools.mdx": page,
            "docs/spec/server/2133-ext.mdx": "# Ext\n",
            "docs/spec/basic/auth.mdx": "# Auth\n",
            "docs/spec/basic/index.mdx": "# Basic\n\n## `_meta`\n\n## `tasks/get`\n",
        }
    )
    assert findings_of(root) == []
    (root / "docs/spec/server/tools.mdx").write_text(page + "[gone](../basic/gone)\n")
    [finding] = findings_of(root)
    assert "`docs/spec/basic/gone`: no such file" in finding.message


def test_root_relative_links_as_repository_paths(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"README.md": "# R\n\n[spec](/spec/intro.md)\n"})
    [finding] = findings_of(root)  # GitHub renders README.md: `/` is the repository root
    assert "`spec/intro.md`: no such file" in finding.message
    assert findings_of(root, {"root-relative": "site"}) == []  # read as a site route


def test_mdx_component_titles_are_anchors(make_corpus: MakeCorpus) -> None:
    page = '# Debug\n\n[logs](#getting-logs)\n\n<Accordion title="Getting logs">\nx\n</Accordion>\n'
    root = make_corpus({"debug.mdx": page})
    assert findings_of(root) == []


BASE = "https://example.org/spec/v1/"


def _id_corpus(make_corpus: MakeCorpus, page: str, ids: int = 3) -> Path:
    files: dict[str, str | bytes] = {"spec/links.md": page}
    for index in range(ids):
        files[f"schemas/s{index}.schema.json"] = schema(
            **{"$id": f"{BASE}s{index}.schema.json", "type": "object"}
        )
    return make_corpus(files)


def test_a_link_to_an_id_no_schema_has(make_corpus: MakeCorpus) -> None:
    page = (
        "# Links\n\n"
        f"[s1]({BASE}s1.schema.json) [home](https://example.org/spec/v1/intro)\n"
        f"[other](https://other.example/spec/v1/x.schema.json) [gone]({BASE}s9.schema.json)\n"
    )
    [finding] = findings_of(_id_corpus(make_corpus, page))
    assert "no corpus schema has this `$id`" in finding.message
    assert "did you mean" in finding.message
    assert finding.location.line == 4


def test_a_folder_with_few_ids_is_not_owned(make_corpus: MakeCorpus) -> None:
    page = f"# Links\n\n[gone]({BASE}s9.schema.json)\n"
    assert findings_of(_id_corpus(make_corpus, page, ids=2)) == []
    assert findings_of(_id_corpus(make_corpus, page), {"schema-ids": False}) == []


COMPAT = (
    "# Compatibility\n\n"
    "## 1. Scope\n\n"
    "## 2. Rules\n\n"
    "### 2.1 Additive changes (normative)\n\n"
    "**Convergence rule.** Hosts converge.\n\n"
    "### R-1 — Host-Scoped Keys (normative)\n\n"
    "Common error codes:\n\n"
    "- `a`\n\n"
    "## Appendix B — Examples\n"
)


@pytest.mark.parametrize(
    "reference",
    [
        '`compat.md` §"Additive changes"',
        '`compat.md` §"Additive"',  # a shortened title
        "`compat.md` §“Rules”",
        '[compat](./compat.md) §"Convergence rule"',  # a bold lead-in
        'compat.md §"Common error codes"',  # a label line
        "`compat.md` §2.1",
        "`compat.md` §2",
        "`compat.md` §B",
        "`compat.md` §Scope",
        "`compat.md` §`hosts`",  # a name the page speaks of
        '`compat.md` §"`hosts`"',  # a quoted name, not a title
        '`compat.md` §"R-1 host-scoped keys."',  # dashes and a closing period set aside
        '`compat.md` §"Additive changes (RFC 9)"',  # notes in parentheses set aside
        '`compat.md` §1, §2.1 and §"Rules"',
        "`other.md` §Whatever",  # no such page: not this check's business
        '`compat.md` `§"Nothing"` in code',
        '[`compat.md` §"Nothing"](compat.md#2-rules)',  # inside a link: the link is checked
    ],
)
def test_section_references_that_resolve(make_corpus: MakeCorpus, reference: str) -> None:
    root = make_corpus({"spec/compat.md": COMPAT, "spec/page.md": f"# Page\n\nSee {reference}.\n"})
    assert findings_of(root) == []


@pytest.mark.parametrize(
    ("reference", "section"),
    [
        ('`compat.md` §"Removal rules"', "Removal rules"),
        ("`compat.md` §3.1", "numbered `3.1"),
        ("`compat.md` §C", "numbered `C"),
        ("`compat.md` §Deprecation", "Deprecation"),
        ("`compat.md` §`lifetimes`", "lifetimes"),
        ('`compat.md` §2, §"Gone"', "Gone"),
        ('`spec/compat.md` §"Gone"', "Gone"),
    ],
)
def test_section_references_that_name_nothing(
    make_corpus: MakeCorpus, reference: str, section: str
) -> None:
    root = make_corpus({"spec/compat.md": COMPAT, "spec/page.md": f"# Page\n\nSee {reference}.\n"})
    [finding] = findings_of(root)
    name = section.removeprefix("numbered `")
    shown = section if section != name else f"`{section}"
    assert f"`spec/compat.md` has no section {shown}`" in finding.message
    assert finding.location.line == 3
    assert finding.location.column == 5 + reference.index("§", reference.find(name) - 3)
    assert finding.related[0].path == "spec/compat.md"


def test_numbers_are_not_checked_on_a_page_without_numbered_headings(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {"a.md": "# A\n\n## A note on scope\n", "b.md": "# B\n\nSee `a.md` §4 and `a.md` §C.\n"}
    )
    assert findings_of(root) == []


def test_section_references_switch(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"a.md": "# A\n", "b.md": '# B\n\nSee `a.md` §"Nowhere".\n'})
    assert len(findings_of(root)) == 1
    assert findings_of(root, {"section-references": False}) == []


def test_ignore_globs_match_the_target_or_its_path(make_corpus: MakeCorpus) -> None:
    page = "# R\n\n[a](generated/api.md) [b](../x/gen.md) [c](missing.md)\n"
    root = make_corpus({"docs/readme.md": page})
    assert len(findings_of(root)) == 3
    assert messages(root, {"ignore": ["generated/*", "x/**", "docs/missing.md"]}) == []


def test_bad_markdown_is_no_traceback(make_corpus: MakeCorpus) -> None:
    page = "# R\n\n" + "[" * 500 + "x" + "](y.md)" * 3 + "\n\n" + ">" * 200 + " deep\n"
    root = make_corpus({"r.md": page, "bin.md": b"\xff\xfe\x00bad"})
    for finding in findings_of(root):
        assert finding.location.path == "r.md"


def test_html_a_documentation_build_writes_is_not_missing(make_corpus: MakeCorpus) -> None:
    """`python/api/index.html` beside a Sphinx `conf.py` is build output (A2A's SDK page read by
    hand); the same link with no build configured above it is broken."""
    files: dict[str, str | bytes] = {
        "docs/sdk/python.md": "# Python SDK\n\nSee the [API reference](python/api/index.html).\n",
        "docs/sdk/python/conf.py": "project = 'sdk'\n",
        "docs/sdk/python/index.rst": "SDK\n===\n",
    }
    root = make_corpus(files)
    assert findings_of(root) == []
    (root / "docs/sdk/python/conf.py").unlink()
    [finding] = findings_of(root)
    assert "python/api/index.html" in finding.message


def test_links_past_the_related_limit_are_counted_not_said_to_be_listed(
    make_corpus: MakeCorpus,
) -> None:
    # 205 links to one missing file: 200 related locations at most, so the message may not say
    # that all are listed (issue 44); it says how many are left out.
    page = "# Links\n\n" + "".join(f"See [the events](events.md) ({n}).\n\n" for n in range(205))
    [finding] = findings_of(make_corpus({"spec/a.md": page}))
    assert "(205 links)" in finding.message
    assert "all listed" not in finding.message
    assert finding.message.endswith(
        "\nThe related locations list 200 of its 204 other links, and 4 more are not listed"
    )
    assert len(finding.related) == 200
    # within the limit, every link is related and the message says so
    short = "# Links\n\n" + "".join(f"See [the events](events.md) ({n}).\n\n" for n in range(3))
    [finding] = findings_of(make_corpus({"spec/a.md": short}))
    assert "(3 links, all listed as related locations)" in finding.message
    assert "not listed" not in finding.message


def test_a_link_in_an_mdx_comment_is_not_judged(make_corpus: MakeCorpus) -> None:
    """MDX's comment renders to nothing, as an HTML comment does: a target an editor kept in
    one (`{/* see [old](gone.md) */}`, on its own lines or inside a paragraph) leads no reader
    anywhere. A link beside it, and one after an unclosed `/*`, are still judged."""
    page = (
        "# Page\n\n"
        "{/* see [old](gone-1.md) */}\n\n"
        "Read [this](a.md) {/* or [that](gone-2.md),\n  now removed */} and [more](gone-3.md).\n\n"
        "{/*\n[kept](gone-4.md)\n*/}\n\n"
        "A /* path glob */ then [broken](gone-5.md).\n"
    )
    root = make_corpus({"docs/p.mdx": page, "docs/a.md": "# A\n"})
    targets = sorted(f.message.split("`")[1] for f in findings_of(root) if f.rule == "broken-link")
    assert targets == ["gone-3.md", "gone-5.md"], targets


def broken_links(root: Path) -> list[str]:
    corpus = Context.load(root, load_config(root))
    return [f.location.path for f in all_rules()["broken-link"].check(corpus, {})]


def test_an_entry_whose_link_target_has_a_raw_space(make_corpus: MakeCorpus) -> None:
    def page(target: str) -> str:
        items = "".join(f"* [{t}]({target if ' ' in t else f'./obj/{t}.md'})\n" for t in TERMS)
        return f"# Terms\n\n{items}"

    files: dict[str, str | bytes] = {f"docs/obj/{t}.md": f"# {t}\n" for t in TERMS}
    files["docs/terms.md"] = page("./obj/Complex Value.md")
    root = make_corpus(files)
    [finding] = run(root)
    assert finding.key == "unlinked:docs/obj/Complex Value.md"
    assert (finding.location.path, finding.location.line, finding.location.column) == (
        "docs/terms.md",
        6,
        19,
    )
    assert "is not listed" not in finding.message
    assert "a space" in finding.message
    assert "`<./obj/Complex Value.md>`" in finding.message
    assert "`./obj/Complex%20Value.md`" in finding.message
    # One defect, one finding: `broken-link` does not see a link CommonMark does not make.
    assert broken_links(root) == []
    for fixed in ("<./obj/Complex Value.md>", "./obj/Complex%20Value.md"):
        (root / "docs/terms.md").write_text(page(fixed))
        assert run(root) == [], fixed
        assert broken_links(root) == [], fixed


def found(root: Path, *rules: str) -> list[Finding]:
    return lint(root, Options(cache=False, rules=rules)).findings


PAGE = """\
# Guide

## Setup

See [the steps](#steps){extra}.

## Usage

Read [the reference](reference.md).
"""


GUIDE = PAGE.format(extra="").replace("reference.md", "manual.md")


def test_docusaurus_versioned_docs_are_frozen_copies_of_docs(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "website/versions.json": '["1.2.0"]\n',
            "website/docs/guide.md": PAGE.format(extra=""),
            "website/versioned_docs/version-1.2.0/guide.md": PAGE.format(
                extra=", and [the old steps](#old-steps)"
            ),
        }
    )
    findings = found(root, "broken-link")
    # `#steps` and `reference.md` are dead in both: one finding each, at `docs/`, the frozen
    # copy related (its message names its own folder's `reference.md`: the same defect).
    assert sorted(f.location.path for f in findings) == ["website/docs/guide.md"] * 2
    for finding in findings:
        assert [r.path for r in finding.related if r.note and "frozen" in r.note] == [
            "website/versioned_docs/version-1.2.0/guide.md"
        ]
    # `#old-steps` is dead only in the released page: history, not reported.
    assert not any("old-steps" in f.message for f in findings)


def test_a_document_set_folder_is_a_snapshot_of_its_parent_in_another_spelling(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            # The maintained text, named with underscores; the sets' copies with spaces.
            "api/documents/Spec_v1.1.md": PAGE.format(extra=""),
            "api/documents/v1.1-document-set/Spec v1.1.md": PAGE.format(
                extra=", and [table 6](#table-6)"
            ),
            "api/documents/v1.0-document-set/Spec v1.0.md": PAGE.format(extra=""),
            # A patch release kept in the set, and maintained beside it.
            "api/documents/Guide_v1.1.1.md": GUIDE,
            "api/documents/v1.1-document-set/Guide_v1.1.1.md": GUIDE,
        }
    )
    findings = found(root, "broken-link")
    assert sorted(f.location.path for f in findings) == [
        "api/documents/Guide_v1.1.1.md",
        "api/documents/Guide_v1.1.1.md",
        "api/documents/Spec_v1.1.md",
        "api/documents/Spec_v1.1.md",
    ]
    [steps] = [f for f in findings if "#steps" in f.message and "Spec" in f.location.path]
    assert {r.path for r in steps.related if r.note and "frozen" in r.note} == {
        "api/documents/v1.1-document-set/Spec v1.1.md",
        "api/documents/v1.0-document-set/Spec v1.0.md",
    }


def test_a_version_folders_own_page_is_no_snapshot_of_its_parents(
    make_corpus: MakeCorpus,
) -> None:
    # `schemas/README.md` lists the versions; `schemas/1.0.0/README.md` describes 1.0.0: two
    # pages with the same name, not a copy (a dead link in each is each one's own).
    root = make_corpus(
        {
            "schemas/README.md": "# Schemas\n\nEvery version: see [the list](#versions).\n",
            "schemas/1.0.0/README.md": "# Release 1.0.0\n\nFirst release; [notes](#versions).\n",
            "schemas/2.0.0/README.md": "# Release 2.0.0\n\nSecond release; [notes](#versions).\n",
        }
    )
    paths = sorted(f.location.path for f in found(root, "broken-link"))
    assert "schemas/README.md" in paths
    assert "schemas/2.0.0/README.md" in paths


def test_the_newest_release_beside_a_snapshot_is_not_frozen_by_the_parent(
    make_corpus: MakeCorpus,
) -> None:
    # `next/1.1/` is a copy of `next/` (the same text); `next/2.0/` is the release being
    # written, no copy of anything: a dead link only it has is its own, at warning.
    page = "# Next\n\nThe next release is being written; see the drafts below.\n"
    root = make_corpus(
        {
            "next/README.md": page,
            "next/1.1/README.md": page,
            "next/2.0/README.md": "# 2.0\n\nNew features: [voxels](#voxels).\n",
        }
    )
    [finding] = found(root, "broken-link")
    assert finding.location.path == "next/2.0/README.md"
    assert finding.severity is Severity.WARNING


def test_a_page_written_with_lone_carriage_returns_is_read_line_for_line(
    make_corpus: MakeCorpus,
) -> None:
    """A generated page whose lines end in a lone `\\r` (CommonMark §2.1 counts it a line ending,
    as editors do) crashed example-invalid: the page's lines, split on `\\n` only, were fewer
    than the parser's, and looking above a fence ran past them. Every rule now counts the lines
    the parser counts, and a finding's line is the one an editor shows."""
    schema = '{"type": "object", "properties": {"id": {"type": "string"}}}'
    page = "\r".join(
        [
            "# Thing",
            "",
            "An example of `thing.schema.json`:",
            "",
            "```json",
            '{"id": "a"}',
            "```",
            "",
            "```json",
            '{"id": 5}',
            "```",
            "",
            "See [the schema](thing.schema.json#/nowhere) and [missing](gone.md).",  # line 13
            "",
        ]
    )
    root = make_corpus({"schemas/thing.schema.json": schema, "docs/thing.md": page})
    result = run_cli("check", str(root), "--preview", "--no-cache", "--format", "json")
    assert "internal-error" not in result.output, result.output
    [link] = [f for f in run_rule(root, "broken-link") if "gone.md" in f.message]
    assert (link.location.line, link.location.column) == (13, 60)


API = (
    "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n"
    "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n"
)


def test_a_shared_analysis_that_fails_costs_its_readers_not_the_run(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An analysis the run builds before the rules fork (here the roles) that meets an input
    speclint did not foresee: each rule that reads it reports an internal error, the rest of
    the corpus is still checked, and the run still writes its report."""

    def broken(*args: object, **kwargs: object) -> object:
        raise AttributeError("an input nobody foresaw")

    monkeypatch.setattr(roles.RoleMap, "build", broken)
    page = "# P\n\nSee [missing](gone.md).\n"
    code, findings = _report(make_corpus({"api/openapi.yaml": API, "docs/p.md": page}))
    assert code == 1
    rules = {f["rule"] for f in findings}
    assert "internal-error" in rules and "broken-link" in rules


def test_a_url_in_parentheses_is_named_as_written(make_corpus: MakeCorpus) -> None:
    # `[x]: (https://…)` keeps the parentheses in its destination: a relative path to GitHub.
    # The message showed `https:/…` (a path normalisation applied to a URL).
    root = make_corpus(
        {
            "docs/guide.md": "# Guide\n\nSee the [collection][c].\n\n"
            "[c]: (https://www.example.com/team/collection)\n",
        }
    )
    [finding] = run_rule(root, "broken-link")
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
    [finding] = run_rule(root, "broken-link")
    assert "%22" not in finding.message
    assert finding.message.startswith('`"../assets/example.json"`')
    assert "quotes are part of the destination: write `../assets/example.json`" in (finding.message)


# Issue 49's precision classes of the Overlay rules (and arazzo-invalid's design folders), each a
# case on a fixture written here: archived overlays are records (not applied), a proposal's draft is
# told at info, Overlay 1.1 is validated by its own schema (and 1.1's `info.description` is no
# defect of a 1.0 overlay), and a release-to-release overlay applies to its first release.


def test_a_page_in_a_qualified_archive_folder_is_a_record_for_broken_link(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Notes\n\nSee [the guide](missing.md).\n"
    root = make_corpus({"docs/old_archive/notes.md": page, "docs/notes.md": page})
    paths = [f.location.path for f in run_rule(root, "broken-link")]
    assert paths == ["docs/notes.md"]
