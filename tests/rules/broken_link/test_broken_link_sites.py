"""broken-link on documentation sites and on GitHub (issue 26): a link starting with ``/`` is
read as the place that renders the page reads it (GitHub: from the repository root; a
documentation site: by its routes, or not judged when they cannot be known), and an anchor that
differs from a heading only in case is at most an info."""

from __future__ import annotations

import json
import subprocess
import sys

from test_broken_link import MakeCorpus, findings_of

from conftest import run_cli
from speclint.common.findings import Severity
from speclint.parsing.links import INCLUDE
from speclint.run.engine import Options, lint

# --- GitHub ---------------------------------------------------------------------------------------


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


# --- Docusaurus -----------------------------------------------------------------------------------

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


# --- Mintlify -------------------------------------------------------------------------------------


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


# --- MkDocs, Hugo ---------------------------------------------------------------------------------


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


# --- anchors --------------------------------------------------------------------------------------


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


# --- anchors a site's build makes -----------------------------------------------------------------

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


# --- Fern ---------------------------------------------------------------------------------------

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


# --- Sphinx with MyST -----------------------------------------------------------------------

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
