"""broken-link judges a link as the renderer of its page reads it (issue 45, item 4): Swagger UI
and Redoc deep links against the OpenAPI document's tags and operations, anchors by the site
generator's own slugs, case by whether the renderer forgives it; and a "did you mean" that
proposes only targets that exist (item 9)."""

from __future__ import annotations

import json

from test_broken_link import MakeCorpus, findings_of
from test_cli import cli

from speclint.analyses.api.api_links import deep_link
from speclint.analyses.context import Context
from speclint.analyses.prose.renderers import mkdocs_slug, renderers

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

# --- Swagger UI and Redoc deep links ----------------------------------------------------------


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


# --- renderers ----------------------------------------------------------------------------------


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


# --- did you mean (item 9) ------------------------------------------------------------------------


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
