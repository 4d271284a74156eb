"""`index-drift`: index pages that list a file that does not exist or miss one that does."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from conftest import dedented as md
from conftest import run_rule, schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.model.config import load_config
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


RULE = "index-drift"


def run(root: Path, options: Mapping[str, Any] | None = None) -> list[Finding]:
    return list(all_rules()[RULE].check(Context.load(root, load_config(root)), options or {}))


def schemas(*names: str) -> dict[str, str | bytes]:
    return {f"schemas/{name}.schema.json": schema(type="object") for name in names}


def table(*names: str) -> str:
    rows = "".join(f"| `{name}` | the {name.split('.')[0]} shape |\n" for name in names)
    return f"# Schemas\n\n| Schema | Describes |\n| --- | --- |\n{rows}"


def test_docstring_example_fail_and_pass(make_corpus: MakeCorpus) -> None:
    readme = table(
        "run.schema.json", "event.schema.json", "error.schema.json", "cancel.schema.json"
    )
    root = make_corpus(
        {**schemas("run", "event", "error", "snapshot"), "schemas/README.md": readme}
    )
    absent, missing = sorted(run(root), key=lambda f: f.key or "")
    assert absent.key == "absent:schemas/cancel.schema.json"
    assert (absent.location.path, absent.location.line, absent.location.column) == (
        "schemas/README.md",
        8,
        3,
    )
    assert "lists `cancel.schema.json`, which does not exist" in absent.message
    assert absent.location.pointer == "#schemas"
    assert missing.key == "missing:schemas/snapshot.schema.json"
    assert missing.location.line == 3  # the table
    assert "`schemas/snapshot.schema.json` is not listed" in missing.message
    assert "`*.schema.json`" in missing.message
    [related] = missing.related
    assert (related.path, related.line) == ("schemas/snapshot.schema.json", 1)
    assert all(f.severity.label == "warning" for f in (absent, missing))
    fixed = table(
        "run.schema.json", "event.schema.json", "error.schema.json", "snapshot.schema.json"
    )
    (root / "schemas/README.md").write_text(fixed)
    assert run(root) == []


def test_a_see_also_list_is_not_an_index(make_corpus: MakeCorpus) -> None:
    see_also = (
        "# Runs\n\nText.\n\n## See also\n\n"
        "- [`event.md`](./event.md)\n- [`error.md`](./error.md)\n- [`snapshot.md`](./snapshot.md)\n"
    )
    few = "# Spec\n\n- [Runs](runs.md)\n- [Events](event.md)\n- [Errors](error.md)\n"
    files: dict[str, str | bytes] = {
        f"spec/{name}.md": f"# {name}\n" for name in ("event", "error", "snapshot", "cancel")
    }
    files["spec/runs.md"] = see_also
    # A README whose list names 3 of the folder's 10 pages claims nothing about the folder.
    files.update({f"spec/page-{n}.md": f"# {n}\n" for n in range(5)})
    files["spec/README.md"] = few
    assert run(make_corpus(files)) == []


def test_a_see_also_section_of_an_index_page_is_not_an_index(make_corpus: MakeCorpus) -> None:
    readme = (
        "# RFCs\n\nHow to write one.\n\n## See also\n\n"
        "- [RFC 1](0001-a.md)\n- [RFC 2](0002-b.md)\n- [RFC 3](0003-c.md)\n"
    )
    files: dict[str, str | bytes] = {
        f"rfcs/000{n}-{c}.md": f"# RFC {n}\n" for n, c in ((1, "a"), (2, "b"), (3, "c"), (4, "d"))
    }
    files["rfcs/README.md"] = readme
    assert run(make_corpus(files)) == []


def test_a_list_of_the_roots_community_files_needs_more_evidence(make_corpus: MakeCorpus) -> None:
    readme = "# Project\n\n- [Contributing](CONTRIBUTING.md)\n- [Governance](GOVERNANCE.md)\n- [Security](SECURITY.md)\n"
    files: dict[str, str | bytes] = {
        f"{name}.md": f"# {name}\n"
        for name in ("CONTRIBUTING", "GOVERNANCE", "SECURITY", "CHANGELOG")
    }
    files["README.md"] = readme
    assert run(make_corpus(files)) == []


def test_links_to_missing_files_are_left_to_broken_link(make_corpus: MakeCorpus) -> None:
    rows = "".join(f"| [{n:04d}](./{n:04d}-x.md) | RFC {n} |\n" for n in (1, 2, 3, 4))
    readme = f"# RFCs\n\n| RFC | Title |\n| --- | --- |\n{rows}"
    files: dict[str, str | bytes] = {f"rfcs/{n:04d}-x.md": f"# RFC {n}\n" for n in (1, 2, 3)}
    files["rfcs/README.md"] = readme
    root = make_corpus(files)
    assert run(root) == []
    [finding] = run(root, {"links": True})
    assert finding.key == "absent:rfcs/0004-x.md"
    assert finding.location.line == 8


def test_a_missing_file_is_reported_once_per_file_with_the_file_related(
    make_corpus: MakeCorpus,
) -> None:
    readme = table(*(f"s{n}.schema.json" for n in range(6)))
    root = make_corpus({**schemas(*(f"s{n}" for n in range(8))), "schemas/README.md": readme})
    found = run(root)
    assert [f.key for f in found] == [
        "missing:schemas/s6.schema.json",
        "missing:schemas/s7.schema.json",
    ]
    assert [f.related[0].path for f in found] == [
        "schemas/s6.schema.json",
        "schemas/s7.schema.json",
    ]


def test_subfolders_are_read_only_where_the_entries_go(make_corpus: MakeCorpus) -> None:
    readme = table(
        "run.schema.json",
        "event.schema.json",
        "envelopes/ask.schema.json",
        "envelopes/tell.schema.json",
    )
    files = {
        **schemas("run", "event", "envelopes/ask", "envelopes/tell", "envelopes/ack"),
        **schemas("v2/run", "v2/event"),  # another version's folder: not this index's
        "schemas/README.md": readme,
    }
    [finding] = run(make_corpus(files))
    assert finding.key == "missing:schemas/envelopes/ack.schema.json"
    assert "`schemas/envelopes/`" in finding.message


def test_a_document_map_split_by_topic_is_one_index(make_corpus: MakeCorpus) -> None:
    readme = (
        "# Spec\n\nIntro.\n\n## Document map\n\n### Wire\n\n"
        "- [`runs.md`](./runs.md) — runs.\n- [`events.md`](./events.md) and\n"
        "  [`errors.md`](./errors.md) — events and errors.\n\n### Agents\n\n"
        "- [`agents.md`](./agents.md) — agents.\n- [`memory.md`](./memory.md) — memory.\n"
    )
    names = ("runs", "events", "errors", "agents", "memory", "tools")
    files: dict[str, str | bytes] = {f"spec/{name}.md": f"# {name}\n" for name in names}
    files["spec/README.md"] = readme
    [finding] = run(make_corpus(files))
    assert finding.key == "missing:spec/tools.md"
    assert finding.location.line == 9  # the first entry of the section
    assert finding.location.pointer == "#document-map"


def test_steps_that_name_a_file_are_not_entries_of_the_index(make_corpus: MakeCorpus) -> None:
    rows = "".join(f"| [{n:04d}](./{n:04d}-x.md) | RFC {n} |\n" for n in (1, 2, 3))
    readme = (
        "# RFCs\n\n## Process\n\n1. Copy `0000-template.md` to a new file.\n"
        "2. Open a pull request.\n3. Wait a week.\n\n## Index\n\n"
        f"| RFC | Title |\n| --- | --- |\n{rows}\n## See also\n\n- `CONTRIBUTING.md`\n- `MAINTAINERS.md`\n"
    )
    files: dict[str, str | bytes] = {f"rfcs/{n:04d}-x.md": f"# RFC {n}\n" for n in (1, 2, 3)}
    files["rfcs/README.md"] = readme
    assert run(make_corpus(files)) == []


def test_a_file_the_page_mentions_elsewhere_is_not_reported(make_corpus: MakeCorpus) -> None:
    readme = table("run.schema.json", "event.schema.json", "error.schema.json") + (
        "\n## Internal\n\n`snapshot.schema.json` is generated; it is not listed above.\n"
    )
    root = make_corpus(
        {**schemas("run", "event", "error", "snapshot"), "schemas/README.md": readme}
    )
    assert run(root) == []


def test_ignore_option(make_corpus: MakeCorpus) -> None:
    readme = table("run.schema.json", "event.schema.json", "error.schema.json")
    root = make_corpus(
        {**schemas("run", "event", "error", "internal"), "schemas/README.md": readme}
    )
    assert [f.key for f in run(root)] == ["missing:schemas/internal.schema.json"]
    assert run(root, {"ignore": ["schemas/internal*"]}) == []


def test_declared_pages_and_inference_off(make_corpus: MakeCorpus) -> None:
    # Two entries only: too few to infer an index, but the configuration declares one.
    page = "# Catalog\n\n- `schemas/run.schema.json`\n- `schemas/gone.schema.json`\n"
    readme = table("run.schema.json", "event.schema.json", "error.schema.json")
    root = make_corpus(
        {
            **schemas("run", "event", "error", "extra"),
            "docs/catalog.md": page,
            "schemas/README.md": readme,
        }
    )
    assert [f.key for f in run(root)] == ["missing:schemas/extra.schema.json"]
    options = {"pages": {"docs/catalog.md": "schemas/*.schema.json"}, "infer": False}
    found = run(root, options)
    assert sorted(f.key or "" for f in found) == [
        "absent:schemas/gone.schema.json",
        "missing:schemas/error.schema.json",
        "missing:schemas/event.schema.json",
        "missing:schemas/extra.schema.json",
    ]
    assert all(f.location.path == "docs/catalog.md" for f in found)
    assert "option `pages`" in found[0].message


def test_files_discovery_does_not_read_are_not_required(make_corpus: MakeCorpus) -> None:
    readme = table("run.schema.json", "event.schema.json", "error.schema.json")
    root = make_corpus(
        {
            **schemas("run", "event", "error", "local"),
            "schemas/README.md": readme,
            "speclint.toml": 'exclude = ["schemas/local.schema.json"]\n',
        }
    )
    assert run(root) == []


def test_names_that_leave_the_root_are_not_followed(make_corpus: MakeCorpus) -> None:
    readme = table(
        "run.schema.json", "event.schema.json", "error.schema.json", "../../../etc/passwd.json"
    )
    root = make_corpus({**schemas("run", "event", "error"), "schemas/README.md": readme})
    assert run(root) == []


# Issue 45, ecosystem batch 4 at first read: links as the site that publishes them reads them
# (a Docusaurus partial's routes and ``@site/`` alias, the FHIR IG Publisher's flat output, a
# proposal's preamble that is no site's front matter), and a list of one kind of page that is no
# index of its folder. Every fixture here is our own.


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


def test_index_drift_does_not_require_a_page_whose_name_joins_its_words_otherwise_than_every_listed_one(
    make_corpus: MakeCorpus,
) -> None:
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


# Issue 45, ecosystem batch 6 at first read: links as their renderer reads them (Elastic's
# docs-builder anchors, ReSpec documents assembled by other include forms) and index-drift's
# reading of a folder's index. Every fixture here is our own.


def findings(root: Path, rule: str = "broken-link") -> list[Finding]:
    return [f for f in run_rule(root, rule) if f.coverage is None]


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


# `index-drift` (issue 26, session 3): a curated list is not an index, a page that walks
# through files one per heading is not one either, and an entry whose link CommonMark drops (a
# raw space in its target) is reported as what it is, not as a file the list leaves out.


PAGES = ("api", "sdk", "data-model", "levels", "guidelines", "noop")


def area(readme: str) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {f"metrics/{name}.md": f"# {name}\n" for name in PAGES}
    files["metrics/README.md"] = readme
    return files


def links(*names: str) -> str:
    return "".join(f"* [{name.title()}](./{name}.md)\n" for name in names)


TERMS = (
    "Age",
    "Allele",
    "Bases",
    "Complex Value",
    "Date",
    "Entity",
    "Gene",
    "Intron",
    "Locus",
    "Marker",
    "Nucleotide",
)


def test_a_sections_short_list_of_some_pages_is_a_selection(make_corpus: MakeCorpus) -> None:
    chosen = links("api", "sdk", "data-model", "levels")  # 4 of the folder's 6 pages
    curated = (
        "# Metrics\n\nWhat metrics are for.\n\n## Overview\n\nThe model.\n\n"
        f"## Specifications\n\n{chosen}\n## References\n\n* [Paper](https://example.org/p)\n"
    )
    assert run(make_corpus(area(curated))) == []


def test_a_list_that_means_to_be_complete_keeps_the_lower_bar(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    chosen = links("api", "sdk", "data-model", "levels")
    expected = ["missing:metrics/guidelines.md", "missing:metrics/noop.md"]
    pages = {
        # the page's own list, under its title: the README exists to list the folder
        "own": f"# Metrics\n\n{chosen}",
        # a section whose heading says it is the folder's contents
        "heading": f"# Metrics\n\nIntro.\n\n## Contents\n\n{chosen}",
        # a section whose sentence before the list says so
        "intro": f"# Metrics\n\nIntro.\n\n## Pages\n\nEvery page of this folder:\n\n{chosen}",
    }
    for name, readme in pages.items():
        root = tmp_path / name
        for path, text in area(readme).items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(str(text))
        assert sorted(f.key or "" for f in run(root)) == expected, name


def test_a_sections_list_that_names_nearly_all_pages_is_an_index(make_corpus: MakeCorpus) -> None:
    nearly = links("api", "sdk", "data-model", "levels", "guidelines")  # 5 of 6
    readme = f"# Metrics\n\nIntro.\n\n## Known pages\n\n{nearly}"
    [finding] = run(make_corpus(area(readme)))
    assert finding.key == "missing:metrics/noop.md"
    assert finding.location.pointer == "#known-pages"


def test_a_page_that_walks_through_files_one_per_heading_is_not_an_index(
    make_corpus: MakeCorpus,
) -> None:
    names = ("landing", "conformance", "collections", "collection", "items")
    files: dict[str, str | bytes] = {f"examples/{n}.xml": "<a/>\n" for n in (*names, "api")}
    tour = "".join(
        f"## Responses to `/{n}`\n\n* A [{n} response]({n}.xml). What it shows.\n\n" for n in names
    )
    files["examples/README.md"] = f"# XML examples\n\n## Overview\n\nWhat they show.\n\n{tour}"
    root = make_corpus(files)
    assert run(root) == []
    # The same files as one list are the folder's index, and `api.xml` is missing from it.
    listed = "".join(f"* [{n}]({n}.xml)\n" for n in names)
    (root / "examples/README.md").write_text(f"# XML examples\n\n{listed}")
    assert [f.key for f in run(root)] == ["missing:examples/api.xml"]


def test_a_raw_space_on_an_mkdocs_site_is_a_link(make_corpus: MakeCorpus) -> None:
    """MkDocs renders with Python-Markdown, which takes a target with a space as a link."""
    items = "".join(f"* [{t}](./obj/{t}.md)\n" for t in TERMS)
    files: dict[str, str | bytes] = {f"docs/obj/{t}.md": f"# {t}\n" for t in TERMS}
    files["docs/terms.md"] = f"# Terms\n\n{items}"
    assert any(" " in t for t in TERMS)
    root = make_corpus({**files, "mkdocs.yml": "site_name: Terms\n"})
    assert run(root) == []
    (root / "mkdocs.yml").unlink()
    assert [f.key for f in run(root)] == [f"unlinked:docs/obj/{t}.md" for t in TERMS if " " in t]


def test_a_table_entry_whose_link_target_has_a_raw_space(make_corpus: MakeCorpus) -> None:
    rows = "".join(f"| [{t}](obj/{t}.md) | the {t.lower()} |\n" for t in TERMS)
    files: dict[str, str | bytes] = {f"docs/obj/{t}.md": f"# {t}\n" for t in TERMS}
    files["docs/README.md"] = f"# Terms\n\n| Term | Means |\n| --- | --- |\n{rows}"
    [finding] = run(make_corpus(files))
    assert finding.key == "unlinked:docs/obj/Complex Value.md"
    assert finding.location.line == 8


def test_a_catch_all_page_need_not_be_listed(make_corpus: MakeCorpus) -> None:
    names = ("alpha", "beta", "gamma", "delta", "epsilon")
    files: dict[str, str | bytes] = {f"servers/{n}.md": f"# {n}\n" for n in (*names, "zeta")}
    files["servers/other.md"] = "# Other servers\n\nNo longer maintained: ...\n"
    listed = "".join(f"- [{n.title()}]({n}.md)\n" for n in names)
    files["servers/README.md"] = f"# Servers\n\nThe servers we know of.\n\n{listed}"
    # `zeta.md` is a server the list leaves out; `other.md` holds what the list's entries do not.
    assert [f.key for f in run(make_corpus(files))] == ["missing:servers/zeta.md"]
