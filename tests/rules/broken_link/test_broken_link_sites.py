"""broken-link on documentation sites and on GitHub (issue 26): a link starting with ``/`` is
read as the place that renders the page reads it (GitHub: from the repository root; a
documentation site: by its routes, or not judged when they cannot be known), and an anchor that
differs from a heading only in case is at most an info."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_broken_link import MakeCorpus, findings_of
from test_cli import cli

from conftest import dedented as md
from conftest import run_cli, run_rule
from speclint.common.findings import Severity
from speclint.parsing.links import INCLUDE
from speclint.run.engine import Options, lint


def test_a_leading_slash_is_the_repository_root_on_github(make_corpus: MakeCorpus) -> None:
    readme = "# R\n\n[intro](/spec/intro.md) [logo](/img/logo.png) [api](/spec/intro.md#scope)\n"
    root = make_corpus(
        {
            "README.md": readme,
            "spec/intro.md": "# Intro\n\n## Scope\n",
            "img/logo.png": b"\x89PNG",
        }
    )
    assert findings_of(root) == []
    (root / "README.md").write_text(readme + "\n[gone](/spec/gone.md) [old](/spec/intro.md#aims)\n")
    found = sorted(f.message for f in findings_of(root))
    assert len(found) == 2
    assert "`/spec/gone.md` → `spec/gone.md`: no such file" in found[0]
    assert "`spec/intro.md` has no heading or anchor `#aims`" in found[1]


def test_root_relative_option_still_chooses(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"README.md": "# R\n\n[gone](/spec/gone.md)\n"})
    assert findings_of(root, {"root-relative": "site"}) == []
    assert len(findings_of(root, {"root-relative": "repository"})) == 1


def test_a_site_page_by_its_front_matter_is_not_judged_as_github(make_corpus: MakeCorpus) -> None:
    # Jekyll, Hugo... front matter: the page is served by a site whose routes are not known here.
    page = "---\nlayout: page\npermalink: /guide/\n---\n\n# Guide\n\n[about](/about/)\n"
    titled = "---\ntitle: Terms\ndescription: x\n---\n\nSee [v1](/provenance/v1).\n"
    root = make_corpus({"guide.md": page, "spec/terms.md": titled})
    assert findings_of(root) == []


def test_a_page_under_a_hugo_section_is_written_for_a_site_as_front_matter_says(
    make_corpus: MakeCorpus,
) -> None:
    # Hugo content (a section's `_index.md` above it) without Hugo's configuration here: the
    # renderer and the route reading agree that a site built elsewhere serves it.
    page = "# Guide\n\n[about](/about/) [intro](/docs/intro)\n"
    root = make_corpus({"content/_index.md": "# Home\n", "content/guide/page.md": page})
    assert findings_of(root) == []
    (root / "content/_index.md").unlink()
    assert len(findings_of(root)) == 2  # GitHub's: from the repository root


DOCUSAURUS_PAGE = (
    "# Setup\n\n"
    "[intro](/docs/intro) [welcome](/docs/intro#welcome) [install](/docs/basics/install)\n"
    "[start](/docs/start) [logo](/img/logo.png) [post](/blog/2024/hello) [self](/docs/guide/setup)\n"
)


def _docusaurus(make_corpus: MakeCorpus, page: str) -> MakeCorpus:
    return make_corpus(
        {
            "website/docusaurus.config.js": "export default {title: 'x'};\n",
            "website/docs/intro.md": "# Intro\n\n## Welcome\n",
            "website/docs/guide/setup.mdx": page,
            "website/docs/01-basics/02-install.md": "# Install\n",
            "website/docs/custom.md": "---\nslug: /start\n---\n\n# Start here\n",
            "website/static/img/logo.png": b"\x89PNG",
        }
    )


def test_docusaurus_routes_resolve(make_corpus: MakeCorpus) -> None:
    root = _docusaurus(make_corpus, DOCUSAURUS_PAGE)
    assert findings_of(root) == []


def test_a_missing_docusaurus_route_is_reported(make_corpus: MakeCorpus) -> None:
    root = _docusaurus(
        make_corpus, DOCUSAURUS_PAGE + "[gone](/docs/gone) [bad](/docs/intro#nope)\n"
    )
    found = sorted(findings_of(root), key=lambda f: f.location.column)
    assert len(found) == 2
    assert "`/docs/gone`" in found[0].message
    assert "no page of the documentation site" in found[0].message
    assert "`#nope`" in found[1].message


def test_docusaurus_routes_outside_the_docs_are_not_judged(make_corpus: MakeCorpus) -> None:
    # A blog post, a plugin's page, a tag or category page the site generates: routes this
    # rule cannot know.
    extra = "[x](/blog/nothing) [y](/community/chat) [t](/docs/tags/api) [c](/docs/category/x)\n"
    root = _docusaurus(make_corpus, DOCUSAURUS_PAGE + extra)
    assert findings_of(root) == []


def test_a_docusaurus_category_slug_is_a_route(make_corpus: MakeCorpus) -> None:
    category = json.dumps({"label": "Guides", "link": {"type": "generated-index", "slug": "/all"}})
    root = _docusaurus(make_corpus, DOCUSAURUS_PAGE + "[all](/docs/all) [no](/docs/none)\n")
    (root / "website/docs/guide/_category_.json").write_text(category)
    [finding] = findings_of(root)
    assert "`/docs/none`" in finding.message


def test_mintlify_routes_are_file_paths_from_the_docs_root(make_corpus: MakeCorpus) -> None:
    page = "# A\n\n[b](/guides/b) [c](/guides/b#usage)\n"
    files: dict[str, str | bytes] = {
        "docs/docs.json": json.dumps({"name": "x", "navigation": []}),
        "docs/guides/a.mdx": page,
        "docs/guides/b.mdx": "# B\n\n## Usage\n",
    }
    root = make_corpus(files)
    assert findings_of(root) == []
    (root / "docs/guides/a.mdx").write_text(page + "[gone](/guides/gone)\n")
    [finding] = findings_of(root)
    assert "`/guides/gone`" in finding.message
    assert "no page of the documentation site" in finding.message


def test_mintlify_generated_reference_pages_are_not_judged(make_corpus: MakeCorpus) -> None:
    # `openapi` in the navigation makes a page per operation: routes with no file.
    config = {"name": "x", "navigation": [{"group": "API", "openapi": "openapi.yaml"}]}
    root = make_corpus(
        {
            "docs/docs.json": json.dumps(config),
            "docs/guides/a.mdx": "# A\n\n[op](/api-reference/users/list)\n",
        }
    )
    assert findings_of(root) == []


def test_mkdocs_and_hugo_routes_resolve_or_are_not_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "mkdocs.yml": "site_name: x\ndocs_dir: pages\n",
            "pages/index.md": "# Home\n\n[a](/guide/a/) [b](/guide/a/#part) [c](/unknown/)\n",
            "pages/guide/a.md": "# A\n\n## Part\n",
            "site/hugo.toml": "title = 'x'\n",
            "site/content/docs/one.md": "# One\n\n[two](/docs/two/) [z](/docs/elsewhere/)\n",
            "site/content/docs/two/_index.md": "# Two\n",
        }
    )
    assert findings_of(root) == []
    (root / "pages/index.md").write_text("# Home\n\n[b](/guide/a/#whole)\n")
    [finding] = findings_of(root)
    assert "`#whole`" in finding.message


def test_a_case_only_anchor_difference_is_nothing_on_github_and_an_info_on_a_site(
    make_corpus: MakeCorpus,
) -> None:
    pages = {
        "api.md": "# API\n\n[create](#Create-A-Run) [other](other.md#The-Part)\n\n## Create a Run\n",
        "other.md": "# Other\n\n## The part\n",
    }
    # GitHub looks a fragment up without regard to case: both links work.
    assert findings_of(make_corpus(pages)) == []
    root = make_corpus(
        {"docusaurus.config.js": "module.exports = {};\n"}
        | {f"docs/{name}": text for name, text in pages.items()}
    )
    found = findings_of(root)
    assert len(found) == 2
    assert {f.severity for f in found} == {Severity.INFO}
    assert all("Docusaurus" in f.message for f in found)


def test_a_hugo_configuration_folder_makes_a_site(make_corpus: MakeCorpus) -> None:
    # `config/_default/hugo.toml` beside `content/`: the pages are the site's, not GitHub's.
    root = make_corpus(
        {
            "config/_default/hugo.toml": "title = 'x'\n",
            "content/docs/one.md": "# One\n\n[two](/docs/two/) [z](/docs/elsewhere/)\n",
            "content/docs/two.md": "# Two\n",
        }
    )
    assert findings_of(root) == []
    (root / "content/docs/one.md").write_text("# One\n\n[two](/docs/two/#gone)\n")
    [finding] = findings_of(root)
    assert "`#gone`" in finding.message


def test_a_page_rendered_into_a_site_reads_the_sites_routes(make_corpus: MakeCorpus) -> None:
    # `seps/12-x.md` is what a build script renders to `docs/seps/12-x.mdx`: its `/` links are
    # the site's routes, and a route the site lacks is reported once, on the rendered copy.
    page = "# SEP 12\n\n[charter](/community/charter) [gone](/community/gone)\n"
    root = make_corpus(
        {
            "docs/docs.json": json.dumps({"name": "x"}),
            "docs/community/charter.mdx": "# Charter\n",
            "docs/seps/12-proposal.mdx": page,
            "seps/12-proposal.md": page,
        }
    )
    [finding] = findings_of(root)
    assert finding.location.path == "docs/seps/12-proposal.mdx"
    assert "`/community/gone`" in finding.message


def test_a_text_fragment_is_not_an_anchor(make_corpus: MakeCorpus) -> None:
    page = "# A\n\n[x](b.md#:~:text=How%20to) [y](b.md#usage:~:text=z) [z](b.md#nope:~:text=z)\n"
    root = make_corpus({"a.md": page, "b.md": "# B\n\n## Usage\n"})
    [finding] = findings_of(root)
    assert "`#nope`" in finding.message


def test_fragments_into_a_page_with_build_time_includes_are_not_judged(
    make_corpus: MakeCorpus,
) -> None:
    # A Hugo shortcode renders headings (an API's operations) that the source does not hold.
    api = '# API\n\n{{% http-api spec="server" api="rooms" %}}\n'
    taught = '# API\n\n```\n{{% http-api spec="server" %}}\n```\n'
    root = make_corpus(
        {
            "api.md": api,
            "taught.md": taught,
            "guide.md": "# Guide\n\n[join](api.md#put_join) [x](taught.md#put_join)\n",
        }
    )
    [finding] = findings_of(root)  # a page that only quotes a shortcode is read as written
    assert "`taught.md` has no heading or anchor `#put_join`" in finding.message


def test_a_snippet_include_is_found_in_time_linear_in_the_blank_lines_above_it() -> None:
    """A pymdownx snippet line (`--8<--`, indented or not) marks a page as pulling in content;
    a page of a million blank lines (what a page of fences leaves once they are taken out) is
    read in linear time: `^\\s*` ran on over every blank line below each line start (issue 44,
    item 4: 42 s for a page of 50,000 fences). A hang guard in a child process, not a timing."""
    assert INCLUDE.search('# P\n\n  --8<-- "x.md"\n')
    assert INCLUDE.search('# P\n\n\n\t--8<-- "x.md"\n')
    assert not INCLUDE.search("# P\n\nA --8<-- in a sentence\n")
    script = (
        "from speclint.parsing.links import INCLUDE\n"
        "print(INCLUDE.search(chr(10) * 1_000_000 + '--') is None)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "True", done.stderr


def test_heading_attributes_give_anchors(make_corpus: MakeCorpus) -> None:
    # Hugo's Goldmark `{id="x"}`, and an id among classes (`{#x .wide}`, kramdown, attr_list).
    page = (
        "# P\n\n[a](#legacy-login) [b](#wide-one) [c](#login)\n\n"
        '## Login {id="legacy-login"}\n\n## Wide {#wide-one .wide}\n\n## Login\n'
    )
    root = make_corpus({"p.md": page})
    assert findings_of(root) == []
    (root / "p.md").write_text(page.replace("(#login)", "(#legacy)"))
    [finding] = findings_of(root)
    assert "`#legacy`" in finding.message


# A page of numbered requirements, each opened by its item code; a build script of the site (in
# `site/`, whose content the build copies from `spec/`) wraps every code in an `<a id>`.
CODED_ITEMS = (
    "# Features\n\n"
    "- `(ABC1)` The client connects.\n"
    "  - `(ABC1a)` It retries, as [ABC2](#ABC2) says.\n"
    "- `(ABC2)` The client retries.\n\n"
    "`(ABC3)` Stated apart. See [ABC9](#ABC9), [abc1](#abc1) and [ABC3](features.md#ABC3).\n"
)


def test_an_item_code_whose_anchor_the_sites_build_makes_is_coverage(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "site/hugo.yaml": "title: Spec\n",
            "spec/features.md": CODED_ITEMS,
            "README.md": "# R\n\nSee [ABC1](spec/features.md#ABC1).\n",
        }
    )
    outcome = lint(root, Options(cache=False))
    # A fragment that is no item's code (`#ABC9`), or not exactly one (`#abc1`), is broken.
    assert sorted(f.message.split(":")[0] for f in outcome.findings) == ["`#ABC9`", "`#abc1`"]
    assert [(n.kind, n.path, n.line) for n in outcome.result.coverage] == [
        ("build-anchor", "README.md", 3),
        ("build-anchor", "spec/features.md", 4),
        ("build-anchor", "spec/features.md", 7),
    ]
    last = run_cli("check", str(root), "--no-cache").output.splitlines()[-1]
    assert last.endswith("not checked: 3 links to anchors a site's build makes of item codes")


def test_item_codes_are_no_anchors_where_github_alone_renders_the_page(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"spec/features.md": CODED_ITEMS})
    found = findings_of(root)
    assert sorted(f.message.split(":")[0] for f in found) == [
        "`#ABC2`",
        "`#ABC9`",
        "`#abc1`",
        "`features.md#ABC3`",
    ]
    assert not any(f.coverage for f in found)


def test_a_page_opening_few_paragraphs_with_a_code_is_no_page_of_coded_items(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Notes\n\n`v2` The second version.\n\n`(B1)` A note. See [B1](#B1).\n"
    root = make_corpus({"site/hugo.yaml": "title: Spec\n", "notes.md": page})
    [finding] = findings_of(root)
    assert "`#B1`" in finding.message and finding.coverage is None


FERN_DOCS = """\
instances:
  - url: example.docs.buildwithfern.com/docs
tabs:
  guides:
    display-name: Guides
    skip-slug: true
navigation:
  - tab: guides
    layout:
      - section: Cookbooks
        slug: cookbooks
        contents:
          - page: Overview
            path: pages/overview.mdx
            slug: /start
          - section: Basics
            skip-slug: true
            contents:
              - page: Upload a file
                path: pages/recipes/upload.mdx
                slug: upload_file
      - api: API Reference
redirects:
  - source: /docs/cookbooks/old_upload
    destination: /docs/cookbooks/upload_file
"""


def _fern_site(
    overview: str, extra: dict[str, str | bytes] | None = None
) -> dict[str, str | bytes]:
    return {
        "fern/docs.yml": FERN_DOCS,
        "fern/fern.config.json": '{"organization": "example", "version": "1.0.0"}\n',
        "fern/pages/overview.mdx": overview,
        "fern/pages/recipes/upload.mdx": "# Upload\n\n## Steps\n",
        **(extra or {}),
    }


def test_a_fern_page_links_routes_of_its_slugs_and_redirects(make_corpus: MakeCorpus) -> None:
    # `/docs/cookbooks/start` links `upload_file`: the browser reads `/docs/cookbooks/upload_file`,
    # the slug docs.yml gives `pages/recipes/upload.mdx`, not a file beside the page.
    page = (
        '# Overview\n\n<a href="upload_file">Upload</a> [old](old_upload) '
        "[steps](upload_file#steps)\n"
    )
    root = make_corpus(_fern_site(page))
    assert findings_of(root) == []


def test_a_fern_route_no_slug_serves_is_reported(make_corpus: MakeCorpus) -> None:
    page = "# Overview\n\n[gone](uplod_file) [nowhere](upload_file#nowhere)\n"
    found = sorted(f.message for f in findings_of(make_corpus(_fern_site(page))))
    assert len(found) == 2, found
    assert "serves the route `/docs/cookbooks/uplod_file` (did you mean" in found[1]
    assert "`/docs/cookbooks/upload_file`" in found[1]
    assert "has no heading or anchor `#nowhere`" in found[0]


def test_a_cached_fern_page_is_judged_again_when_docs_yml_changes(
    make_corpus: MakeCorpus,
) -> None:
    # The page's links are judged against docs.yml's slugs: an edit there reaches the cached
    # result of a page that did not change.
    root = make_corpus(_fern_site("# Overview\n\n[recipe](upload_file)\n"))
    assert "no findings" in run_cli("check", str(root), "--preview").output
    docs = root / "fern/docs.yml"
    docs.write_text(docs.read_text().replace("slug: upload_file", "slug: upload"))
    cached = run_cli("check", str(root), "--preview").output
    assert cached == run_cli("check", str(root), "--preview", "--no-cache").output
    assert "serves the route `/docs/cookbooks/upload_file`" in cached


def test_a_fern_link_to_a_missing_file_stays_a_file(make_corpus: MakeCorpus) -> None:
    # `x.ipynb` names a file, not a route: a notebook left behind is still a broken link.
    root = make_corpus(_fern_site("# Overview\n\n[notebook](upload_file.ipynb)\n"))
    [finding] = findings_of(root)
    assert "no such file in the repository" in finding.message


def test_a_fern_site_whose_navigation_is_elsewhere_is_not_judged(make_corpus: MakeCorpus) -> None:
    # Versions keep their navigation in other files: the routes are not known, said so.
    docs = "versions:\n  - display-name: v1\n    path: versions/v1.yml\n"
    files = _fern_site("# Overview\n\n[recipe](upload_file)\n", {"fern/docs.yml": docs})
    [finding] = findings_of(make_corpus(files))
    assert finding.severity == Severity.INFO
    assert finding.coverage == "site-route"
    assert "not checked" in finding.message


def test_docs_yml_outside_fern_is_no_fern_site(make_corpus: MakeCorpus) -> None:
    # `docs.yml` alone is a common name: no Fern project, no Fern site; links are file paths.
    root = make_corpus({"docs.yml": FERN_DOCS, "pages/overview.md": "# O\n\n[x](upload_file)\n"})
    [finding] = findings_of(root)
    assert "no such file in the repository" in finding.message


SPHINX_PAGE = (
    "# Database\n\n"
    "Set [db_kwargs](Hub.db_kwargs), see [the API](rest-api-get-users), [spawners](Spawner)\n"
    "and [the setup](setup.md), ![form](form.png).\n"
)


def test_myst_cross_references_of_a_sphinx_source_folder_are_not_judged(
    make_corpus: MakeCorpus,
) -> None:
    # `docs/source/conf.py` loads myst_parser: `[text](target)` naming no file is a
    # cross-reference to a label, a Python object or a directive's target (not known here);
    # a target with a file's extension is still a path.
    conf = 'extensions = [\n    "sphinx.ext.autodoc",\n    "myst_parser",\n]\n'
    root = make_corpus(
        {"docs/source/conf.py": conf, "docs/source/explanation/database.md": SPHINX_PAGE}
    )
    found = sorted(f.message for f in findings_of(root))
    assert len(found) == 2, found
    assert found[0].startswith("`form.png`") and found[1].startswith("`setup.md`")


def test_a_sphinx_project_without_myst_judges_its_links_as_paths(make_corpus: MakeCorpus) -> None:
    # No MyST extension in conf.py: nothing makes cross-references of Markdown links.
    root = make_corpus(
        {
            "docs/source/conf.py": 'extensions = ["sphinx.ext.autodoc"]\n',
            "docs/source/explanation/database.md": SPHINX_PAGE,
        }
    )
    assert len(findings_of(root)) == 5


def test_a_leading_slash_on_a_sphinx_page_is_the_source_folder(make_corpus: MakeCorpus) -> None:
    # Sphinx reads `/images/x.png` from its source folder (where conf.py is), not the
    # repository root; a README that GitHub renders still reads it from the root.
    page = "# URLs\n\n![form](/images/form.png) [spawners](/reference/spawners)\n"
    files: dict[str, str | bytes] = {
        "docs/source/conf.py": 'extensions = ["myst_parser"]\n',
        "docs/source/reference/urls.md": page,
        "docs/source/reference/spawners.md": "# Spawners\n",
        "docs/source/images/form.png": b"\x89PNG",
        "README.md": "# R\n\n![form](/images/form.png)\n",
    }
    root = make_corpus(files)
    [finding] = findings_of(root)
    assert finding.location.path == "README.md"
    (root / "docs/source/reference/urls.md").write_text(page + "\n![gone](/images/gone.png)\n")
    found = sorted(f.message for f in findings_of(root))
    assert len(found) == 2
    assert "`/images/gone.png` → `docs/source/images/gone.png`: no such image" in found[1]


# Issue 45, ecosystem batch 4 at first read: links as the site that publishes them reads them
# (a Docusaurus partial's routes and ``@site/`` alias, the FHIR IG Publisher's flat output, a
# proposal's preamble that is no site's front matter), and a list of one kind of page that is no
# index of its folder. Every fixture here is our own.


DOCUSAURUS = {
    "docusaurus.config.ts": "export default {title: 'Gates'}\n",
    "docs/gates/05_opening.mdx": md(
        """
        # Opening

        ## Write APIs

        Text.
        """
    ),
    "docs/guides/tour.mdx": md(
        """
        # Tour

        ```mdx-code-block
        import Part from "@site/src/components/Shared/gates/tour-part.mdx"

        <Part />
        ```
        """
    ),
}


IG = {
    "ig.ini": "[IG]\nig = input/gates.xml\n",
    "input/images/key.public.json": '{"keys": []}\n',
    "input/images/Logo1.png": b"\x89PNG",
    "input/resources/bundle-one.json": '{"resourceType": "Bundle", "id": "one"}\n',
    "input/pages/keys.md": md(
        """
        # Keys

        [key](key.public.json), ![logo](Logo1.png), [bundle](Bundle-one.json),
        [other page](brands.html).
        """
    ),
    "input/pages/brands.md": "# Brands\n",
}


PREAMBLE = md(
    """
    ---
    fip: "0099"
    title: Gates
    author: A. Author (@a)
    status: Draft
    type: Technical
    created: 2026-01-01
    ---

    # Gates

    See [the design](#Gate-Design).

    ## Gate Design
    """
)


def test_a_partials_route_link_resolves_against_its_importers_route(
    make_corpus: MakeCorpus,
) -> None:
    # Served inside `/docs/guides/tour`, whose browser resolves the extension-less link (the
    # `..` above the root stay at the root) to `/docs/gates/opening`: the doc `05_opening.mdx`.
    files: dict[str, str | bytes] = {
        **DOCUSAURUS,
        "src/components/Shared/gates/tour-part.mdx": md(
            """
            See [opening](../../../../docs/gates/opening#write-apis).
            """
        ),
    }
    assert run_rule(make_corpus(files), "broken-link") == []


def test_a_partials_route_link_keeps_its_fragment_and_route_checks(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        **DOCUSAURUS,
        "src/components/Shared/gates/tour-part.mdx": md(
            """
            See [opening](../../../../docs/gates/opening#read-apis) and
            [closing](../../../../docs/gates/closing).
            """
        ),
    }
    found = run_rule(make_corpus(files), "broken-link")
    messages = sorted(f.message for f in found)
    assert len(found) == 2, messages
    assert any("#read-apis" in m for m in messages)
    assert any("closing" in m for m in messages)


def test_a_partial_nobody_imports_reads_a_link_climbing_to_the_site_as_its_route(
    make_corpus: MakeCorpus,
) -> None:
    # From any page no deeper than the climb, the browser lands on `/docs/gates/opening`.
    files: dict[str, str | bytes] = {
        **DOCUSAURUS,
        "src/components/Shared/gates/lone.mdx": md(
            """
            See [opening](../../../../docs/gates/opening#write-apis) and
            [closing](../../../../docs/gates/closing).
            """
        ),
    }
    found = run_rule(make_corpus(files), "broken-link")
    assert [f.message.split("`")[1] for f in found] == ["../../../../docs/gates/closing"]


def test_the_site_alias_resolves_from_the_docusaurus_site_root(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        **DOCUSAURUS,
        "src/components/Shared/img/gate.png": b"\x89PNG",
        "src/components/Shared/gates/tour-part.mdx": md(
            """
            ![gate](@site/src/components/Shared/img/gate.png)
            ![gone](@site/src/components/Shared/img/gone.png)
            """
        ),
    }
    found = run_rule(make_corpus(files), "broken-link")
    assert [f.message.split("`")[1] for f in found] == [
        "@site/src/components/Shared/img/gone.png"
    ], [f.message for f in found]
    assert "`src/components/Shared/img/gone.png`" in found[0].message


def test_the_site_alias_is_a_path_off_a_docusaurus_site(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "docs/img/gate.png": b"\x89PNG",
        "docs/tour.md": "# Tour\n\n![gate](@site/docs/img/gate.png)\n",
    }
    assert len(run_rule(make_corpus(files), "broken-link")) == 1


def test_an_implementation_guides_pages_link_its_flat_output(make_corpus: MakeCorpus) -> None:
    # IG Publisher writes pages, `input/images/*` and each resource (as `Type-id.json`) side by
    # side at the output's root: a page's relative link names them there.
    assert run_rule(make_corpus(IG), "broken-link") == []


def test_an_implementation_guides_missing_output_is_reported_with_a_flat_guess(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        **IG,
        "input/pages/keys.md": "# Keys\n\n![logo](Logo2.png) and [b](Bundle-two.json).\n",
    }
    found = run_rule(make_corpus(files), "broken-link")
    messages = sorted(f.message for f in found)
    assert len(found) == 2, messages
    # The guess is a name the published guide has (`Logo1.png`), never `../images/...`,
    # which leads nowhere once the guide is flat.
    assert all("../" not in m for m in messages), messages
    assert any("did you mean `Logo1.png`" in m for m in messages), messages


def test_a_folder_without_ig_configuration_keeps_its_paths(make_corpus: MakeCorpus) -> None:
    files = {k: v for k, v in IG.items() if k != "ig.ini"}
    found = run_rule(make_corpus(files), "broken-link")
    assert len(found) == 3, [f.message for f in found]  # `brands.html` is `brands.md` (#4)


def test_a_shorthand_guides_resource_pages_are_not_judged(make_corpus: MakeCorpus) -> None:
    # SUSHI makes the resources of `input/fsh/` at build: their pages are not in the repository.
    files: dict[str, str | bytes] = {
        **{k: v for k, v in IG.items() if k != "ig.ini"},
        "sushi-config.yaml": "id: gates\n",
        "input/fsh/gates.fsh": "Profile: Gate\nId: gate\n",
        "input/pages/keys.md": "# Keys\n\n[gate](StructureDefinition-gate.html), [x](gone.html)\n",
    }
    found = run_rule(make_corpus(files), "broken-link")
    assert [f.message.split("`")[1] for f in found] == ["gone.html"], [f.message for f in found]


def test_a_proposals_preamble_leaves_the_page_to_github(make_corpus: MakeCorpus) -> None:
    # GitHub renders the proposal (no site here) and forgives the fragment's case.
    files: dict[str, str | bytes] = {"FIPS/fip-0099.md": PREAMBLE}
    assert run_rule(make_corpus(files), "broken-link") == []


def test_a_sites_front_matter_still_makes_case_an_info(make_corpus: MakeCorpus) -> None:
    page = PREAMBLE.replace('fip: "0099"\n', "layout: page\n")
    files: dict[str, str | bytes] = {"FIPS/fip-0099.md": page}
    found = run_rule(make_corpus(files), "broken-link")
    assert [f.severity.name for f in found] == ["INFO"]


# broken-link on layouts of the third ecosystem reading (issue 26): a link checker's fixture
# pages, MyST cross-references in a Sphinx project, meeting records, and W3C publication
# snapshots (``publication/ver10/``).


def linked(root: Path) -> list[str]:
    """The paths of the broken-link findings of a whole run (discovery, folding and all)."""
    run = cli("check", str(root), "--no-cache", "--format", "json")
    findings = json.loads(run.stdout)["findings"]
    return sorted(f["location"]["path"] for f in findings if f["rule"] == "broken-link")


def test_a_link_checkers_fake_pages_are_fixtures(make_corpus: MakeCorpus) -> None:
    """Pages broken on purpose to exercise a tool are test data: listed, not checked."""
    page = "# Check me\n\nSee [missing](#no-such-heading) and [gone](gone.md).\n"
    root = make_corpus(
        {"tools/fake-docs/links.md": page, "tools/mocks/page.md": page, "docs/guide.md": page}
    )
    assert linked(root) == ["docs/guide.md", "docs/guide.md"]
    listing = cli("files", str(root)).stdout
    assert "tools/fake-docs/links.md" in listing and "fixture" in listing


def test_myst_fragments_in_a_sphinx_project_are_cross_references(
    make_corpus: MakeCorpus,
) -> None:
    """In a Sphinx project, MyST reads `#pkg.module.Class` as a cross-reference to any target
    of the project (autodoc's objects), not a heading of the page: not judged. The same page
    outside a Sphinx project is judged."""
    page = "# Quickstart\n\nThe schema is a [Namespace](#pkg.types.Namespace) object.\n"
    root = make_corpus(
        {
            "tools/docs/conf.py": "extensions = ['myst_nb', 'sphinx.ext.autosummary']\n",
            "tools/docs/quickstart.md": page,
            "guide/quickstart.md": page,
        }
    )
    found = findings_of(root)
    assert [f.location.path for f in found] == ["guide/quickstart.md"]
    # conf.py is only read for its place: a link to a missing file is still reported there.
    (root / "tools/docs/quickstart.md").write_text(page + "\nSee [setup](setup.md).\n")
    assert [f.location.path for f in findings_of(root)] == [
        "guide/quickstart.md",
        "tools/docs/quickstart.md",
    ]


def test_meeting_minutes_are_records_not_judged(make_corpus: MakeCorpus) -> None:
    """Minutes quote the specification as it stood that day, its section links included."""
    quote = "# Meeting 89\n\nWe read the passage on [location objects](#location-object).\n"
    root = make_corpus(
        {
            "meeting_minutes/240711_TC_89.md": quote,
            "meetings/2024/notes.md": quote,
            "spec/notes.md": quote,
        }
    )
    assert [f.location.path for f in findings_of(root)] == ["spec/notes.md"]


def test_a_w3c_publication_snapshot_is_a_release(make_corpus: MakeCorpus) -> None:
    """`publication/ver10/` is the published 1.0, frozen once `ver11/` exists: a link only its
    pages break is history readers do not follow; the live snapshot's is reported."""
    page = "# Testing\n\nThe [template](inputs/template.html.t) renders the report.\n"
    root = make_corpus(
        {
            "publication/ver10/rec/testing/README.md": page,
            "publication/ver11/rec/testing/README.md": page.replace("template.html.t", "t.html.t"),
            "publication/ver11/rec/testing/inputs/t.html.t": "<html></html>\n",
        }
    )
    assert linked(root) == []
    (root / "publication/ver11/rec/testing/inputs/t.html.t").unlink()
    assert linked(root) == ["publication/ver11/rec/testing/README.md"]


def test_an_unused_link_definition_is_not_a_link(make_corpus: MakeCorpus) -> None:
    """CommonMark renders nothing for a `[label]: target` no link uses: nobody can follow it.
    A used one is still judged, at the definition."""
    page = (
        "# Verify\n\n## Step two: check\n\nSee [the step][used].\n\n"
        "[used]: #step-3\n[left-behind]: #check-expectations\n"
    )
    root = make_corpus({"spec/verify.md": page})
    found = findings_of(root)
    assert [(f.location.line, f.message.split(":")[0]) for f in found] == [(7, "`#step-3`")]


def test_a_template_page_is_filled_in_by_its_build(make_corpus: MakeCorpus) -> None:
    """`spec-template.md` gets sections generated from a schema appended at build time: its
    fragments are not judged; a file link in it is."""
    page = "# Spec\n\nSee the [reference object](#reference-object) and [x](missing.md).\n"
    root = make_corpus(
        {
            "spec/1.4/spec-template.md": page,
            "spec/1.4/spec.md": page.replace("missing.md", "gone.md"),
        }
    )
    found = sorted((f.location.path, f.message.split(" ")[0]) for f in findings_of(root))
    assert found == [
        ("spec/1.4/spec-template.md", "`missing.md`"),
        ("spec/1.4/spec.md", "`#reference-object`:"),
        ("spec/1.4/spec.md", "`gone.md`"),
    ]


def test_an_archive_folder_is_history(make_corpus: MakeCorpus) -> None:
    page = "# Old schemas\n\nThe tests are in [tests](../../tests/v3.0).\n"
    root = make_corpus({"_archive_/schemas/v3.0/README.md": page, "schemas/v3.0/README.md": page})
    assert [f.location.path for f in findings_of(root)] == ["schemas/v3.0/README.md"]


def test_a_readme_listing_a_documents_pages_assembles_them(make_corpus: MakeCorpus) -> None:
    """A folder whose README lists its pages in order by path is one document a build makes,
    combined with another folder (the one holding the listed pages the folder lacks): links are
    written from the top of either. Without the list, the same links are broken."""
    readme = (
        "# Submission\n\nThese pages are combined with `book/` into one PDF, in this order:\n\n"
        "- front/cover\n- front/legal\n- scope\n- terms\n- annexes/history\n- licenses/open-1.0\n"
    )
    files: dict[str, str | bytes] = {
        "submission/front/cover.md": "# Cover\n",
        "submission/front/legal.md": "## Legal\n\nSee [the licence](./licenses/open-1.0.md).\n",
        "submission/annexes/history.md": "## History\n\n![diagram](images/draft.png)\n",
        "submission/images/draft.png": b"\x89PNG\r\n",
        "book/scope.md": "# Scope\n",
        "book/terms.md": "# Terms\n",
        "book/licenses/open-1.0.md": "# Open licence 1.0\n",
        # A link broken from every root is still reported.
        "submission/front/more.md": "## More\n\nSee [gone](gone.md).\n",
    }
    root = make_corpus({**files, "submission/README.md": readme})
    assert [f.message.split(" ")[0] for f in findings_of(root)] == ["`gone.md`"]
    (root / "submission/README.md").write_text("# Submission\n\nThe pages of the PDF.\n")
    assert sorted(f.location.path for f in findings_of(root)) == [
        "submission/annexes/history.md",
        "submission/front/legal.md",
        "submission/front/more.md",
    ]
