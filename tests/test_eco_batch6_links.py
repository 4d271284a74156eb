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


# --- broken-link: a ReSpec document's other include forms, and its examples' ids ---------------


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


# --- index-drift: a folder's menu repeated on its pages, and a listed page's subpages -----------

# A menu of the folder's pages at the top of each of them (a wiki's navigation).
LAMP_PAGES = (
    "wiring",
    "bulbs",
    "switches",
    "shades",
    "dimmers",
    "sockets",
    "cords",
    "plugs",
    "globes",
)
MENU = "".join(f"* [{name}]({name}.md)\n" for name in (*LAMP_PAGES, "fuses"))


def lamp_folder(extra: dict[str, str], fuses: str = "# Fuses\n") -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        f"lamps/{name}.md": MENU + f"\n# {name.title()}\n" for name in LAMP_PAGES
    }
    files["lamps/fuses.md"] = MENU + "\n" + fuses
    files.update(extra)
    return files


def test_a_subpage_its_listed_page_links_needs_no_entry(make_corpus: MakeCorpus) -> None:
    # `fuses-sizes.md` is a page of `fuses.md` (named after it, linked from it), not one of the
    # folder's pages the menu lists.
    files = lamp_folder(
        {"lamps/fuses-sizes.md": "# Fuse sizes\n"}, fuses="# Fuses\n\n[sizes](fuses-sizes.md)\n"
    )
    assert findings(make_corpus(files), "index-drift") == []


def test_a_menu_repeated_on_every_page_reports_a_missing_page_once(
    make_corpus: MakeCorpus,
) -> None:
    # `fuses-sizes.md` is named after `fuses.md`, but no page links it: the menus miss it, once.
    files = lamp_folder({"lamps/fuses-sizes.md": "# Fuse sizes\n"})
    [finding] = findings(make_corpus(files), "index-drift")
    assert finding.message.startswith("`lamps/fuses-sizes.md` is not listed")
    assert "that 10 pages repeat:" in finding.message
    assert {r.path for r in finding.related} >= {"lamps/switches.md", "lamps/wiring.md"}


def test_an_extensionless_route_link_names_its_page(make_corpus: MakeCorpus) -> None:
    # A site's route (`../spec/Fuses`) names `spec/Fuses.md`: the list does list it.
    names = ("Wiring", "Bulbs", "Switches", "Shades", "Plugs", "Fuses")
    listing = "".join(f"* [{n}](../spec/{n}.md)\n" for n in names[:-1]) + "* [F](../spec/Fuses)\n"
    files: dict[str, str | bytes] = {f"spec/{n}.md": f"# {n}\n" for n in names}
    files["guide/README.md"] = "# Guide\n\n" + listing
    assert findings(make_corpus(files), "index-drift") == []


# --- broken-link: messages that propose what works ---------------------------------------------


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


# --- broken-link: a Slate (Middleman) page assembled from its partials -------------------------

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
