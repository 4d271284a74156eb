"""broken-link on layouts of the third ecosystem reading (issue 26): a link checker's fixture
pages, MyST cross-references in a Sphinx project, meeting records, and W3C publication
snapshots (``publication/ver10/``)."""

from __future__ import annotations

import json
from pathlib import Path

from test_broken_link import MakeCorpus, findings_of
from test_cli import cli


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
