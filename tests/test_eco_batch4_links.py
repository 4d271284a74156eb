"""Issue 45, ecosystem batch 4 at first read: links as the site that publishes them reads them
(a Docusaurus partial's routes and ``@site/`` alias, the FHIR IG Publisher's flat output, a
proposal's preamble that is no site's front matter), and a list of one kind of page that is no
index of its folder. Every fixture here is our own."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def md(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# --- broken-link: a Docusaurus partial outside the content plugins -----------------------------

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


# --- broken-link: the FHIR IG Publisher's flat output ------------------------------------------

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


# --- broken-link: a proposal's preamble is not a site's front matter ---------------------------

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


def test_a_proposals_preamble_leaves_the_page_to_github(make_corpus: MakeCorpus) -> None:
    # GitHub renders the proposal (no site here) and forgives the fragment's case.
    files: dict[str, str | bytes] = {"FIPS/fip-0099.md": PREAMBLE}
    assert run_rule(make_corpus(files), "broken-link") == []


def test_a_sites_front_matter_still_makes_case_an_info(make_corpus: MakeCorpus) -> None:
    page = PREAMBLE.replace('fip: "0099"\n', "layout: page\n")
    files: dict[str, str | bytes] = {"FIPS/fip-0099.md": page}
    found = run_rule(make_corpus(files), "broken-link")
    assert [f.severity.name for f in found] == ["INFO"]


# --- index-drift: a list of one kind of page -----------------------------------------------------

KINDS = {
    "kinds/README.md": "# Kinds\n",
    "kinds/bike-share.md": "# Bike share\n",
    "kinds/car-share.md": "# Car share\n",
    "kinds/ride-hail.md": "# Ride hail\n",
    "kinds/delivery-robots.md": "# Delivery robots\n",
    "kinds/event_types.md": "# Event types\n",
    "kinds/vehicle_states.md": "# Vehicle states\n",
}
KINDS_LIST = md(
    """
    # Fleet

    Vehicles.

    # Kinds

    Get started with a kind:

    - [Bike share](kinds/bike-share.md)
    - [Car share](kinds/car-share.md)
    - [Ride hail](kinds/ride-hail.md)
    - [Delivery robots](kinds/delivery-robots.md)
    """
)


def test_a_list_of_one_kind_of_page_is_no_index_of_the_others(make_corpus: MakeCorpus) -> None:
    # The listed pages share a naming shape (`-` between words) that the unlisted ones lack
    # (`_`): those are another kind of page, which the list does not claim.
    files: dict[str, str | bytes] = {**KINDS, "README.md": KINDS_LIST}
    assert run_rule(make_corpus(files), "index-drift") == []


def test_a_missing_page_of_the_listed_shape_is_still_reported(make_corpus: MakeCorpus) -> None:
    kinds = {k: v for k, v in KINDS.items() if k != "kinds/vehicle_states.md"}
    files: dict[str, str | bytes] = {**kinds, "README.md": KINDS_LIST, "kinds/scooters.md": "# S\n"}
    found = run_rule(make_corpus(files), "index-drift")
    assert sorted(f.message.split("`")[1] for f in found) == ["kinds/scooters.md"], [
        f.message for f in found
    ]
