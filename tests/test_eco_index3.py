"""`index-drift` (issue 26, session 3): a curated list is not an index, a page that walks
through files one per heading is not one either, and an entry whose link CommonMark drops (a
raw space in its target) is reported as what it is, not as a file the list leaves out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_index_drift import run

from speclint.analyses.context import Context
from speclint.model.config import load_config
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

PAGES = ("api", "sdk", "data-model", "levels", "guidelines", "noop")


def area(readme: str) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {f"metrics/{name}.md": f"# {name}\n" for name in PAGES}
    files["metrics/README.md"] = readme
    return files


def links(*names: str) -> str:
    return "".join(f"* [{name.title()}](./{name}.md)\n" for name in names)


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
