"""broken-link on Docusaurus sites and generated MDX pages (issue 26, fourth ecosystem reading):
a relative link without a Markdown extension is a URL resolved against the page's route, a
file path to a ``.md`` page is looked up from the docs content root too, and HTML inside a
JavaScript string (``dangerouslySetInnerHTML``) is not read as raw HTML of the page."""

from __future__ import annotations

from pathlib import Path

from test_broken_link import MakeCorpus, findings_of

from speclint.parsing.links import page_of
from speclint.parsing.prose import markdown_tokens

CONFIG = "export default {title: 'x'};\n"


def _site(make_corpus: MakeCorpus, files: dict[str, str | bytes]) -> Path:
    return make_corpus({"website/docusaurus.config.js": CONFIG, **files})


def test_a_url_link_from_a_blog_post_is_not_judged(make_corpus: MakeCorpus) -> None:
    """A blog post is served at a route its date and slug rules make (`/blog/hello`, or
    `/blog/2024/05/01/hello`): a URL resolved against it cannot be known, and is not judged.
    A file path from it (an image) still is."""
    post = (
        "---\ntitle: Hello\ndate: 2024-05-01\n---\n\n"
        "Start with the [guide](../getting-started) or the [news](../../news).\n"
    )
    files: dict[str, str | bytes] = {
        "website/blog/hello/index.mdx": post,
        "website/src/pages/getting-started/index.mdx": "# Getting started\n",
    }
    root = _site(make_corpus, files)
    assert findings_of(root) == []
    (root / "website/blog/hello/index.mdx").write_text(post + "\n![chart](./chart.png)\n")
    [finding] = findings_of(root)
    assert "`website/blog/hello/chart.png`: no such image" in finding.message


def test_a_url_link_from_a_doc_resolves_against_its_route(make_corpus: MakeCorpus) -> None:
    """A doc's route is known (`slug`, `id`, number prefixes): `./intro` from the doc served at
    `/docs/advanced` is `/docs/intro`, wherever the file is. A URL that reaches no doc is
    still reported."""
    advanced = "---\nslug: /advanced\n---\n\n# Advanced\n\nRead the [intro](./intro) first.\n"
    root = _site(
        make_corpus,
        {
            "website/docs/intro.md": "# Intro\n\n## Welcome\n",
            "website/docs/guide/deep/advanced.md": advanced,
        },
    )
    assert findings_of(root) == []
    page = root / "website/docs/guide/deep/advanced.md"
    page.write_text(advanced + "\nSee [welcome](./intro#welcome), [gone](./outro).\n")
    [finding] = findings_of(root)
    assert finding.message.startswith("`./outro` → ")
    page.write_text(advanced + "\nSee [welcome](./intro#hello).\n")
    [finding] = findings_of(root)
    assert "`website/docs/intro.md` has no heading or anchor `#hello`" in finding.message


def test_a_markdown_file_path_is_looked_up_from_the_docs_root(make_corpus: MakeCorpus) -> None:
    """Docusaurus resolves `spec/x.md` from the current folder, then from the docs content root,
    then from the site folder; `./x.md` and `../x.md` only from the current folder."""
    facet = "# Column lineage\n\n## Transformation type\n"
    page = "# Spark\n\nSee [types](spec/facets/lineage.md#transformation-type).\n"
    files: dict[str, str | bytes] = {
        "website/docs/spec/facets/lineage.md": facet,
        "website/docs/integrations/spark/columns.md": page,
    }
    root = _site(make_corpus, files)
    assert findings_of(root) == []
    (root / "website/docs/integrations/spark/columns.md").write_text(
        page + "\n[kinds](spec/facets/lineage.md#kinds) [here](./spec/facets/lineage.md)\n"
    )
    found = sorted(f.message for f in findings_of(root))
    assert len(found) == 2
    assert "`website/docs/integrations/spark/spec/facets/lineage.md`: no such file" in found[0]
    assert "`website/docs/spec/facets/lineage.md` has no heading or anchor `#kinds`" in found[1]


def test_without_a_site_a_markdown_path_is_the_current_folders(make_corpus: MakeCorpus) -> None:
    """GitHub renders the page: `spec/x.md` is a path from the page's folder only."""
    root = make_corpus(
        {
            "docs/spec/facets/lineage.md": "# Column lineage\n",
            "docs/integrations/spark.md": "# Spark\n\nSee [types](spec/facets/lineage.md).\n",
        }
    )
    [finding] = findings_of(root)
    assert "`docs/integrations/spec/facets/lineage.md`: no such file" in finding.message


GENERATED = (
    "---\ntitle: API\n---\n\n"
    '<div dangerouslySetInnerHTML={{__html: "<nav><a class=\\"toc\\" href=\\"#pkg.Client\\">'
    'Client</a> <a href=\\"#pkg.gone\\">gone</a></nav>\\n<dl><dt id=\\"pkg.Client\\">'
    'Client</dt><dd>x</dd></dl>"}} />\n\n'
    '<a href="./missing.md">kept</a>\n'
)


def test_html_in_a_javascript_string_is_not_raw_html(make_corpus: MakeCorpus) -> None:
    """The escaped quote of `href=\\"#x\\"` is no link target: links inside a JavaScript string
    are injected as written at run time and not judged; the ids in it are anchors of the
    page. Raw HTML beside the expression is still read."""
    other = "# Usage\n\n[client](api.md#pkg.Client) [nope](api.md#pkg.Nope)\n"
    root = make_corpus({"docs/api.md": GENERATED, "docs/usage.md": other})
    found = sorted(f.message for f in findings_of(root))
    assert len(found) == 2
    assert "`./missing.md` → `docs/missing.md`: no such file" in found[0]
    assert "`docs/api.md` has no heading or anchor `#pkg.Nope`" in found[1]


def test_the_page_model_reads_a_javascript_string_for_anchors_only() -> None:
    tokens, env = markdown_tokens(GENERATED)
    page = page_of(GENERATED, tokens, env, [])
    assert [link.target for link in page.links] == ["./missing.md"]
    assert page.links[0].line == 7
    assert "pkg.Client" in page.anchors
    assert not any("\\" in anchor for anchor in page.anchors)


def test_a_url_link_from_a_partial_is_not_judged(make_corpus: MakeCorpus) -> None:
    """A `_`-named doc is a partial (excluded from the docs by Docusaurus's default): it is
    rendered inside the page that imports it, at that page's route, which is not known."""
    partial = "Set the [transport](../transports) first.\n"
    root = _site(
        make_corpus,
        {
            "website/docs/client/_transport.md": partial,
            "website/docs/client/java.md": "# Java\n\nSee [the setup](./setup).\n",
        },
    )
    [finding] = findings_of(root)
    assert finding.location.path == "website/docs/client/java.md"
