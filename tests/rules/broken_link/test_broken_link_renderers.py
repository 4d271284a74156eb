"""broken-link judges a link as the renderer of its page reads it (issue 45, item 4): Swagger UI
and Redoc deep links against the OpenAPI document's tags and operations, anchors by the site
generator's own slugs, case by whether the renderer forgives it; and a "did you mean" that
proposes only targets that exist (item 9)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_broken_link import MakeCorpus, findings_of
from test_cli import cli

from conftest import dedented as md
from conftest import run_rule
from speclint.analyses.api.api_links import deep_link
from speclint.analyses.context import Context
from speclint.analyses.prose.renderers import mkdocs_slug, renderers
from speclint.common.findings import Finding
from speclint.parsing import links
from speclint.parsing.links import page_of
from speclint.parsing.prose import markdown_tokens

API = json.dumps(
    {
        "openapi": "3.1.0",
        "info": {"title": "Pets", "version": "1.0.0"},
        "tags": [{"name": "Pet Store"}],
        "paths": {
            "/pets": {
                "get": {
                    "operationId": "listPets",
                    "tags": ["Pet Store"],
                    "responses": {"200": {"description": "ok"}},
                },
                "post": {
                    "operationId": "createPet",
                    "tags": ["Pet Store"],
                    "responses": {"201": {"description": "ok"}},
                },
            },
            "/things": {"get": {"responses": {"200": {"description": "ok"}}}},
        },
        "components": {"schemas": {"Pet": {"type": "object"}}},
    }
)


def test_deep_link_shapes() -> None:
    assert deep_link("/Pet_Store/listPets") is not None
    assert deep_link("/default/get_things").operation == "get_things"  # type: ignore[union-attr]
    assert deep_link("tag/Pet-Store/operation/listPets").operation == "listPets"  # type: ignore[union-attr]
    assert deep_link("operation/listPets").operation == "listPets"  # type: ignore[union-attr]
    assert deep_link("section/Authentication").judged is False  # type: ignore[union-attr]
    assert deep_link("schema/Pet").schema == "Pet"  # type: ignore[union-attr]
    assert deep_link("create-a-run") is None


def test_deep_links_into_a_redoc_page_are_judged_by_its_document(make_corpus: MakeCorpus) -> None:
    links = (
        "# Guide\n\n[list](api.md#/Pet_Store/listPets) [new](api.md#tag/Pet-Store/operation/createPet)\n"
        "[things](api.md#/default/get_things) [old](api.md#operation/listPets)\n"
        "[tag](api.md#/Pet%20Store) [auth](api.md#section/Authentication) [pet](api.md#schema/Pet)\n"
    )
    root = make_corpus(
        {
            "guide.md": links,
            "api.md": '# API reference\n\n<redoc spec-url="openapi.json"></redoc>\n',
            "openapi.json": API,
        }
    )
    assert findings_of(root) == []  # none of them is a heading, and each names what exists
    (root / "guide.md").write_text(links + "\n[gone](api.md#/Pet_Store/listPet)\n")
    [finding] = findings_of(root)
    assert "no operation `listPet`" in finding.message
    assert "did you mean `listPets`?" in finding.message
    assert "`openapi.json`" in finding.message
    assert "heading" not in finding.message


def test_a_page_that_embeds_swagger_ui_names_its_document(make_corpus: MakeCorpus) -> None:
    # Two OpenAPI documents: the link is judged against the one the page renders.
    other = json.loads(API)
    other["paths"] = {"/users": {"get": {"operationId": "listUsers", "responses": {}}}}
    page = "# API\n\n!!swagger specs/pets.json!!\n\n[list](#/Pet_Store/listUsers)\n"
    root = make_corpus(
        {"api.md": page, "specs/pets.json": API, "specs/users.json": json.dumps(other)}
    )
    [finding] = findings_of(root)
    assert "the API reference `api.md` renders (`specs/pets.json`)" in finding.message
    assert "no operation `listUsers`" in finding.message
    (root / "api.md").write_text(page.replace("listUsers", "listPets"))
    assert findings_of(root) == []


def test_a_page_rendering_a_remote_document_is_not_judged(make_corpus: MakeCorpus) -> None:
    page = '# API\n\n<swagger-ui src="https://example.org/api.yaml"/>\n\n[x](#/pets/nothing)\n'
    root = make_corpus({"api.md": page, "openapi.json": API})
    assert findings_of(root) == []


def test_a_deep_link_without_an_api_anywhere_is_a_missing_anchor(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"a.md": "# A\n\n[x](#/pets/listPets)\n"})
    [finding] = findings_of(root)
    assert "has no heading or anchor `#/pets/listPets`" in finding.message


def test_a_deep_link_into_an_html_page_names_an_operation(make_corpus: MakeCorpus) -> None:
    page = "# A\n\n[x](redoc.html#operation/listPets) [y](app.html#/settings/profile)\n"
    root = make_corpus(
        {
            "a.md": page,
            "redoc.html": "<html></html>",
            "app.html": "<html></html>",
            "openapi.json": API,
        }
    )
    assert findings_of(root) == []  # `#/settings/...`: an application's route, no API tag
    (root / "a.md").write_text(page.replace("#operation/listPets", "#operation/deletePet"))
    [finding] = findings_of(root)
    assert "no operation `deletePet`" in finding.message


def test_the_renderer_of_each_page(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "README.md": "# R\n",
            "mkdocs.yml": "site_name: x\ndocs_dir: site\n",
            "site/index.md": "# I\n",
            "web/docusaurus.config.js": "module.exports = {};\n",
            "web/docs/a.md": "# A\n",
            "web/README.md": "# W\n",
            "manual/conf.py": "project = 'x'\n",
            "manual/b.md": "# B\n",
        }
    )
    found = renderers(Context.load(root))
    assert found.of("README.md").kind == "github"  # beside mkdocs.yml, outside its docs_dir
    assert found.of("site/index.md").kind == "mkdocs"
    assert found.of("web/docs/a.md").kind == "docusaurus"
    assert found.of("web/README.md").kind == "github"
    assert found.of("manual/b.md").kind == "sphinx"


def test_speclint_files_says_which_renderer_renders_the_pages(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "README.md": "# R\n",
            "mkdocs.yml": "site_name: x\n",
            "docs/a.md": "# A\n",
            "docs/b.md": "# B\n",
        }
    )
    listing = cli("files", str(root))
    assert listing.returncode == 0, listing.stderr
    assert (
        "speclint: Markdown pages rendered by GitHub: 1, MkDocs (mkdocs.yml): 2" in listing.stdout
    )


def test_mkdocs_slugs() -> None:
    assert mkdocs_slug("Café  -- Menu") == "cafe-menu"
    assert mkdocs_slug("Run states (v2)") == "run-states-v2"
    assert mkdocs_slug("Run States", cased=True) == "Run-States"


def test_an_mkdocs_page_is_judged_by_mkdocs_slugs(make_corpus: MakeCorpus) -> None:
    page = "# Menu\n\n[a](#cafe-au-lait) [b](#example_1)\n\n## Café au lait\n\n## Example\n\n## Example\n"
    root = make_corpus({"mkdocs.yml": "site_name: x\n", "docs/menu.md": page})
    assert findings_of(root) == []
    (root / "docs/menu.md").write_text(page.replace("#cafe-au-lait", "#cafe-au-lai"))
    [finding] = findings_of(root)
    # The proposal is MkDocs' anchor, not GitHub's `#café-au-lait`, which the site lacks.
    assert "did you mean `#cafe-au-lait`?" in finding.message


# A link to a missing `docs/flags.md#metadata`; `docs/flag.md` is the closest name, and has no
# such heading.
MISNAMED = {"docs/guide.md": "# G\n\n[m](./flags.md#metadata)\n", "docs/flag.md": "# Flag\n"}


def test_did_you_mean_a_file_that_has_the_anchor(make_corpus: MakeCorpus) -> None:
    [finding] = findings_of(make_corpus(MISNAMED | {"flags.md": "# Flags\n\n## Metadata\n"}))
    # `flag.md` is closest by name, but has no `#metadata`: `../flags.md#metadata` does.
    assert "did you mean `../flags.md#metadata`?" in finding.message


def test_did_you_mean_nothing_when_no_close_file_has_the_anchor(make_corpus: MakeCorpus) -> None:
    [finding] = findings_of(make_corpus(MISNAMED))
    assert "did you mean" not in finding.message


def test_a_case_only_difference_on_a_page_written_for_a_site_elsewhere_is_an_info(
    make_corpus: MakeCorpus,
) -> None:
    page = "[x](other.md#The-Part)\n"
    other = "# Other\n\n## The part\n"
    root = make_corpus({"a.md": "# A\n\n" + page, "other.md": other})
    assert findings_of(root) == []  # GitHub alone renders it
    # Front matter, or a Hugo section page beside it: a site built from here reads it.
    for extra in ({"a.md": "---\ntitle: A\n---\n# A\n\n" + page}, {"_index.md": "# Home\n"}):
        root = make_corpus({"a.md": "# A\n\n" + page, "other.md": other} | extra)
        [finding] = findings_of(root)
        assert "write `#the-part`" in finding.message


def test_a_case_only_difference_in_an_assembled_document_is_an_info(
    make_corpus: MakeCorpus,
) -> None:
    # Numbered fragments a script concatenates: read in the build's output, not on GitHub.
    parts = {f"src/body-0{n}-part.md": f"## Part {n}\n\nSee [one](#Part-1).\n" for n in range(1, 7)}
    # A committed copy of the whole: what shows the ids the build makes (five headings or more).
    copy = "# Spec\n\n" + "".join(f"## Part {n}\n\nText.\n\n" for n in range(1, 7))
    [finding] = findings_of(make_corpus(parts | {"spec.md": copy}))
    assert "the build that assembles it" in finding.message


def test_a_redoc_link_into_an_openapi_file_is_judged_by_that_file(make_corpus: MakeCorpus) -> None:
    # A fragment starting with `/` is a JSON pointer into the file, not judged here.
    page = (
        "# A\n\n[pointer](openapi.json#/components/schemas/Pet) [op](openapi.json#operation/listPets)\n"
        "[pointer](openapi.json#/components/schemaz)\n"
    )
    root = make_corpus({"a.md": page, "openapi.json": API})
    assert findings_of(root) == []
    (root / "a.md").write_text(page + "[gone](openapi.json#operation/listPet)\n")
    [finding] = findings_of(root)
    assert "`openapi.json` has no operation `listPet` (did you mean `listPets`?)" in finding.message


# Issue 45, ecosystem batch 6 at first read: links as their renderer reads them (Elastic's
# docs-builder anchors, ReSpec documents assembled by other include forms) and index-drift's
# reading of a folder's index. Every fixture here is our own.


def findings(root: Path, rule: str = "broken-link") -> list[Finding]:
    return [f for f in run_rule(root, rule) if f.coverage is None]


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


def respec_host(body: str) -> str:
    head = (
        "<!DOCTYPE html>\n<html>\n<head>\n"
        '  <script src="https://example.org/respec/respec-lamps.js" class="remove"></script>\n'
        '  <script class="remove">var respecConfig = {specStatus: "base"};</script>\n'
        "</head>\n<body>\n"
    )
    return head + md(body) + "</body>\n</html>\n"


LAMP_HOST = md(
    """
    ## Lamp host

    ### Lamp Off Message {#lamp-off}

    Sent to put it out.
    """
)


LAMP_CLIENT = md(
    """
    ## Lamp client

    Send [the message](#lamp-off) and read [the host](#lamp-host).
    """
)


SLATE_LAYOUT = md(
    """
    <% if current_page.data.includes %>
      <% current_page.data.includes.each do |include| %>
        <%= partial("includes/#{include}") %>
      <% end %>
    <% end %>
    """
)


SLATE_INDEX = md(
    """
    ---
    title: Lamp API
    includes:
      - intro
      - lamp_apis
    ---
    # Introduction
    """
)


def slate_site(lamps: str) -> dict[str, str | bytes]:
    return {
        "slate/config.rb": "set :markdown_engine, :redcarpet\n",
        "slate/source/layouts/layout.erb": SLATE_LAYOUT,
        "slate/source/index.html.md": SLATE_INDEX,
        "slate/source/includes/_intro.md": "# Errors\n\n## Lamp errors\n\nNone.\n",
        "slate/source/includes/_lamp_apis.md.erb": (
            '# Lamp APIs\n\n<%= partial "includes/lamps.md" %>\n'
        ),
        "slate/source/includes/lamps.md": lamps,
        "slate/source/includes/old/lamp-v1.html.md": "# Lamp v1\n",
    }


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


def test_a_transclusion_script_assembles_a_respec_document(make_corpus: MakeCorpus) -> None:
    # A build replaces `<script class="transclude" src="x.md">` with the page, in a section
    # ReSpec reads as Markdown: both pages are one document.
    host = respec_host(
        """
        <section id="client" data-format="markdown">
          <script class="transclude" data-id="client" src="client.md"></script>
        </section>
        <section data-format="markdown">
          <script class="transclude" src="host.md" data-id="host"></script>
        </section>
        """
    )
    root = make_corpus(
        {"spec/lamps.html": host, "spec/client.md": LAMP_CLIENT, "spec/host.md": LAMP_HOST}
    )
    assert findings(root) == []


def test_data_format_markdown_includes_a_markdown_page(make_corpus: MakeCorpus) -> None:
    # `data-include` without `data-include-format`, on an element ReSpec reads as Markdown.
    host = respec_host(
        """
        <section data-format="markdown" data-include="client.md"></section>
        <section
            data-format="markdown"
            data-include="host.md"></section>
        """
    )
    root = make_corpus(
        {"spec/lamps.html": host, "spec/client.md": LAMP_CLIENT, "spec/host.md": LAMP_HOST}
    )
    assert findings(root) == []


def test_an_html_include_without_markdown_format_assembles_nothing(
    make_corpus: MakeCorpus,
) -> None:
    host = respec_host('<section data-include="client.md"></section>\n')
    root = make_corpus({"spec/lamps.html": host, "spec/client.md": LAMP_CLIENT})
    assert {f.message.split(":")[0] for f in findings(root)} == {"`#lamp-off`", "`#lamp-host`"}


def test_respec_example_ids_are_anchors_of_the_document(make_corpus: MakeCorpus) -> None:
    host = respec_host(
        '<section data-include="client.md" data-include-format="markdown"></section>\n'
    )
    client = md(
        """
        ## Lamp client

        <pre class="example json" title="Sample lamp D">{}</pre>

        <aside class="example">Untitled.</aside>

        See [D](#example-sample-lamp-d), [the second](#example-2) and [E](#example-sample-lamp-e).
        """
    )
    root = make_corpus({"spec/lamps.html": host, "spec/client.md": client})
    [finding] = findings(root)
    assert finding.message.startswith("`#example-sample-lamp-e`")


def test_an_included_html_parts_ids_are_the_documents(make_corpus: MakeCorpus) -> None:
    host = respec_host(
        """
        <section data-format="markdown">
          <script class="transclude" src="client.md"></script>
        </section>
        <script class="transclude" src="wire.html"></script>
        """
    )
    client = md(
        """
        ## Lamp client

        See [the wire](#lamp-wire) and [the fuse](#lamp-fuse).
        """
    )
    wire = '<section id="lamp-wire"><h2>Wire</h2></section>\n'
    root = make_corpus({"spec/lamps.html": host, "spec/client.md": client, "spec/wire.html": wire})
    [finding] = findings(root)
    assert finding.message.startswith("`#lamp-fuse`")


def test_a_part_an_extension_fills_leaves_the_documents_anchors_unknown(
    make_corpus: MakeCorpus,
) -> None:
    # `data-lamp-model` is no attribute of ReSpec's: an extension fills the section at render
    # time, with ids written nowhere (`#lampclass`), so the document's anchors are not judged.
    host = respec_host(
        """
        <section data-format="markdown">
          <script class="transclude" src="client.md"></script>
        </section>
        <script class="transclude" src="models.html"></script>
        """
    )
    client = "## Lamp client\n\nSee [the class](#lampclass).\n"
    models = '<section data-lamp-model="org.example.lamps" title="Lamp models"></section>\n'
    files = {"spec/lamps.html": host, "spec/client.md": client, "spec/models.html": models}
    assert findings(make_corpus(files)) == []


def test_a_heading_without_its_space_is_named_instead_of_a_nearest_anchor(
    make_corpus: MakeCorpus,
) -> None:
    page = md(
        """
        # Lamps

        ## 7.3.2 Lamp Identifier

        ####7.5.7 Lamp Type

        See [the type](#757-lamp-type).
        """
    )
    [finding] = findings(make_corpus({"spec/lamps.md": page}))
    assert "did you mean" not in finding.message
    assert "line 5 `####7.5.7 Lamp Type`" in finding.message
    assert "is no heading without a space after its `#`s" in finding.message


def test_unwrapping_a_destination_is_proposed_only_when_it_names_a_file(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Lamps\n\nSee [wiring](</docs/Wiring.md>) and [bulbs]((/docs/Bulbs.md)).\n"
    files: dict[str, str | bytes] = {"spec/lamps.md": page, "docs/Bulbs.md": "# Bulbs\n"}
    files["spec/more.md"] = "# More\n\nSee [wiring]((/docs/Wiring.md)).\n"
    messages = sorted(f.message for f in findings(make_corpus(files)))
    assert len(messages) == 3, messages
    bulbs, more_wiring = messages[0], messages[1]
    assert "write `/docs/Bulbs.md`" in bulbs
    assert "`/docs/Wiring.md` names no file either" in more_wiring
    assert "write `/docs/Wiring.md`" not in " ".join(messages)


def test_a_slate_pages_partials_are_one_document(make_corpus: MakeCorpus) -> None:
    # `lamps.md` is rendered inside `index.html` (its layout's `includes:`, then an ERB
    # partial): `#lamp-errors` is an anchor of that page, and its relative links are read from
    # there (`includes/old/lamp-v1.html`, built from `lamp-v1.html.md`).
    lamps = md(
        """
        # Lamps

        See [errors](#lamp-errors), [the APIs](#lamp-apis) and
        [v1](includes/old/lamp-v1.html).
        """
    )
    assert findings(make_corpus(slate_site(lamps))) == []


def test_a_slate_documents_missing_anchor_is_reported(make_corpus: MakeCorpus) -> None:
    lamps = "# Lamps\n\nSee [fuses](#lamp-fuses).\n"
    [finding] = findings(make_corpus(slate_site(lamps)))
    assert "the document assembled from `slate/source/index.html.md`" in finding.message


# broken-link on Docusaurus sites and generated MDX pages (issue 26, fourth ecosystem reading):
# a relative link without a Markdown extension is a URL resolved against the page's route, a
# file path to a ``.md`` page is looked up from the docs content root too, and HTML inside a
# JavaScript string (``dangerouslySetInnerHTML``) is not read as raw HTML of the page.


CONFIG = "export default {title: 'x'};\n"


def _site(make_corpus: MakeCorpus, files: dict[str, str | bytes]) -> Path:
    return make_corpus({"website/docusaurus.config.js": CONFIG, **files})


GENERATED = (
    "---\ntitle: API\n---\n\n"
    '<div dangerouslySetInnerHTML={{__html: "<nav><a class=\\"toc\\" href=\\"#pkg.Client\\">'
    'Client</a> <a href=\\"#pkg.gone\\">gone</a></nav>\\n<dl><dt id=\\"pkg.Client\\">'
    'Client</dt><dd>x</dd></dl>"}} />\n\n'
    '<a href="./missing.md">kept</a>\n'
)


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


# Notation in JSON fences and MyST cross-references (issue 45, first-read batch 1): a fence that
# writes a syntax sketch is not broken JSON, and a MyST label is not a file path.


LABELLED = "# Roles\n\n(ref-role)=\n## The ref role\n\nText.\n"


CITING = (
    "# Guide\n\nSee the [ref](ref-role) role, [the same](#ref-role), [](ref-role) and "
    "[a typo](ref-rloe).\n"
)


def test_a_myst_label_reference_is_resolved_against_the_labels_of_the_project(
    make_corpus: MakeCorpus,
) -> None:
    """In a MyST project (`myst.yml`, Sphinx's `conf.py`, a Jupyter Book's `_toc.yml`),
    `[text](label)` and `[text](#label)` are cross-references to a `(label)=` target of any
    page, not a file or a heading of this page (issue 45, batch 1). A label no page sets is
    still reported."""
    files = {"docs/myst.yml": "version: 1\n", "docs/roles.md": LABELLED, "docs/guide.md": CITING}
    root = make_corpus(files)
    [finding] = findings_of(root)
    assert finding.message.startswith("`ref-rloe`")


def test_a_label_reference_outside_a_myst_project_is_a_missing_file(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"docs/roles.md": LABELLED, "docs/guide.md": CITING})
    found = {f.message.split("`")[1] for f in findings_of(root)}
    assert found == {"#ref-role", "ref-rloe", "ref-role"}


def test_a_label_counts_only_where_a_myst_project_sets_it_outside_code(
    make_corpus: MakeCorpus,
) -> None:
    """A `(label)=` line that a fence shows as an example, or that a page outside every MyST
    project writes, sets no target: the project's `[text](label)` to it leads nowhere."""
    shown = "# Syntax\n\n```md\n(ref-role)=\n## The ref role\n```\n"
    files = {"docs/myst.yml": "version: 1\n", "docs/syntax.md": shown, "docs/guide.md": CITING}
    found = {f.message.split("`")[1] for f in findings_of(make_corpus(files))}
    assert {"ref-role", "ref-rloe"} <= found
    outside = files | {"docs/syntax.md": "# Syntax\n", "notes/roles.md": LABELLED}
    found = {f.message.split("`")[1] for f in findings_of(make_corpus(outside))}
    assert found == {"#ref-role", "ref-role", "ref-rloe"}


def test_a_label_in_a_sphinx_project_without_myst_sets_no_target(make_corpus: MakeCorpus) -> None:
    # A `conf.py` that loads no MyST: Markdown is not MyST there, and `(ref-role)=` sets nothing;
    # the project's MyST test is one definition (`Renderers.myst_project`) for both its uses.
    files = {
        "docs/conf.py": "extensions = ['sphinx.ext.autodoc']\n",
        "docs/roles.md": LABELLED,
        "docs/guide.md": CITING,
    }
    found = {f.message.split("`")[1] for f in findings_of(make_corpus(files))}
    assert {"ref-role", "ref-rloe"} <= found


# A page renders an API reference by one of API_RENDERING's markers; `api_renderings` tries the
# pattern only on a page holding one of the words every marker holds (RENDERING_WORDS).
_MARKERS = [
    "<redoc spec-url='a.yaml'>",
    '<rapi-doc spec-url="b.json">',
    '<elements-api apiDescriptionUrl="c.yaml"',
    "<openapi-explorer spec-url='d.json'",
    '<swagger-ui url="e.yaml">',
    '<SwaggerUI url="f.json" />',
    "<Redoc specUrl='g.yaml' />",
    '<RedocStandalone specUrl="h.yaml"',
    "<ApiDocMdx specUrl='i.json' />",
    "<Redocusaurus spec='j.yaml'",
    "!!swagger k.json\n",
    "!!swagger-http https://x.example/l.yaml\n",
    "SwaggerUIBundle({url: 'm.json'})",
    "SwaggerUI ({url: 'n.yaml'})",
    "Redoc.init('o.yaml')",
    "<div id = 'swagger-ui'> (p.json)",
    "<div id=\"redoc-container\"> 'q.yaml'",
    "[OAD(r.yaml)]",
    '{{< swaggerui src="s.json" >}}',
    "{{<openapi src='t.yaml'>}}",
]


def _renderings_by_pattern(text: str) -> tuple[bool, list[str]]:
    specs: list[str] = []
    found = False
    for marker in links.API_RENDERING.finditer(text):
        found = True
        spec = links.API_SPEC.search(text, marker.start(), marker.end() + links.API_SPEC_REACH)
        if spec is not None and spec.group(1) not in specs:
            specs.append(spec.group(1))
    return found, specs


def test_every_marker_holds_a_word_the_page_is_searched_for() -> None:
    for marker in _MARKERS:
        assert links.API_RENDERING.search(marker), marker
        assert links.api_renderings(f"# API\n\n{marker}\n") == _renderings_by_pattern(
            f"# API\n\n{marker}\n"
        )
        assert links.api_renderings(f"# API\n\n{marker}\n")[0], marker


@settings(derandomize=True, max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from([*_MARKERS, "redo", "swagger", "<", "{{", "id=", " ", "\n", "a.json"]),
        max_size=8,
    ).map("".join)
)
def test_a_page_renders_what_the_pattern_finds_in_it(text: str) -> None:
    assert links.api_renderings(text) == _renderings_by_pattern(text)
