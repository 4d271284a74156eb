"""Issue 49's precision classes of the Overlay rules (and arazzo-invalid's design folders), each a
case on a fixture written here: archived overlays are records (not applied), a proposal's draft is
told at info, Overlay 1.1 is validated by its own schema (and 1.1's `info.description` is no
defect of a 1.0 overlay), and a release-to-release overlay applies to its first release."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_cli, run_rule, write_files
from speclint.analyses.context import Context
from speclint.analyses.workflows.overlays import applied_to
from speclint.common.findings import Severity
from speclint.model.config import load_config
from speclint.parsing.kinds import archive_folder, in_record_folder

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

API = """openapi: 3.1.0
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: The pets}
"""

# An action that selects nothing (`/pet`) and one that makes the document invalid.
UNMATCHED = "  - target: $.paths['/pet'].get\n    update: {summary: s}\n"
BREAKING = "  - target: $.paths['/pets'].get.responses['200']\n    update: {description: [x]}\n"


def overlay(*actions: str, version: str = "1.0.0", info: str = "", head: str = "") -> str:
    return (
        f"overlay: {version}\ninfo: {{title: Fixes, version: 1.0.0{info}}}\n{head}"
        + "actions:\n"
        + "".join(actions)
    )


def applied(root: Path, path: str) -> tuple[str, ...]:
    corpus = Context.load(root, load_config(root))
    return applied_to(corpus, corpus.documents[path]).paths


# 1. Archive folders


@pytest.mark.parametrize(
    "name",
    ["archive", "_archive_", "archived", "archives", "overlays_archive", "overlay-archives",
     "old_archive", "Docs.Archive", "archive-2019", "archive_v1"],
)  # fmt: skip
def test_an_archive_word_qualified_in_a_folder_name_is_an_archive(name: str) -> None:
    assert archive_folder(name)
    assert in_record_folder(f"scripts/{name}/fix.yaml")


@pytest.mark.parametrize(
    "name",
    ["archiver", "archive-utils", "archive.org", "archive_test", "myarchive", "archives-api"],
)
def test_a_name_that_only_begins_with_an_archive_word_is_no_archive(name: str) -> None:
    assert not archive_folder(name)
    assert not in_record_folder(f"scripts/{name}/fix.yaml")


def test_a_file_named_like_an_archive_is_not_in_one() -> None:
    assert not in_record_folder("scripts/overlays_archive.yaml")


def test_an_overlay_in_an_archive_folder_is_a_record_not_applied(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus(
        {
            "openapi.yaml": API,
            "scripts/overlays_archive/fix.yaml": overlay(UNMATCHED, BREAKING),
        }
    )
    [note] = run_rule(root, "overlay-target-unmatched")
    assert note.coverage == "overlay-record"
    assert "archive" in note.message
    assert run_rule(root, "overlay-breaks-document") == []
    run = run_cli("check", str(root), "--preview")
    assert "1 archived OpenAPI Overlay (the record of an edit already applied)" in run.output
    # The same overlay outside the archive is checked.
    root = write_files(
        tmp_path / "kept", {"openapi.yaml": API, "scripts/fix.yaml": overlay(UNMATCHED, BREAKING)}
    )
    assert [f.coverage for f in run_rule(root, "overlay-target-unmatched")] == [None]
    assert len(run_rule(root, "overlay-breaks-document")) == 1


def test_an_archived_overlay_of_a_release_still_held_is_checked(make_corpus: MakeCorpus) -> None:
    # `fixes-1.2.0.yaml` kept in the archive beside `api-1.2.0.yaml`: what it was written for.
    root = make_corpus(
        {
            "api-1.2.0.yaml": API,
            "api-1.3.0.yaml": API,
            "overlays_archive/fixes-1.2.0.yaml": overlay(UNMATCHED),
            "overlays_archive/fixes-1.1.0.yaml": overlay(UNMATCHED),
        }
    )
    assert applied(root, "overlays_archive/fixes-1.2.0.yaml") == ("api-1.2.0.yaml",)
    found = {f.location.path: f.coverage for f in run_rule(root, "overlay-target-unmatched")}
    assert found == {
        "overlays_archive/fixes-1.2.0.yaml": None,
        "overlays_archive/fixes-1.1.0.yaml": "overlay-record",
    }


def test_an_archived_overlay_in_a_legacy_dialect_is_not_reported(make_corpus: MakeCorpus) -> None:
    legacy = "  - target: $.paths./pets.get\n    update: {summary: s}\n"
    root = make_corpus({"openapi.yaml": API, "overlay-archives/fix.yaml": overlay(legacy)})
    assert [f.coverage for f in run_rule(root, "overlay-target-unmatched")] == ["overlay-record"]


def test_an_invalid_overlay_in_an_archive_folder_is_told_at_info(make_corpus: MakeCorpus) -> None:
    misspelt = "  - target: $.paths['/pets']\n    remvoe: true\n"
    root = make_corpus({"openapi.yaml": API, "old_archive/fix.yaml": overlay(misspelt)})
    [finding] = run_rule(root, "overlay-invalid")
    assert finding.severity is Severity.INFO
    assert finding.message.endswith("(an archived file: the record of what was, kept as it was "
                                    "and not maintained)")  # fmt: skip


def test_a_page_in_a_qualified_archive_folder_is_a_record_for_broken_link(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Notes\n\nSee [the guide](missing.md).\n"
    root = make_corpus({"docs/old_archive/notes.md": page, "docs/notes.md": page})
    paths = [f.location.path for f in run_rule(root, "broken-link")]
    assert paths == ["docs/notes.md"]


# 2. Design folders

DRAFT = """overlay: 1.0.0
info: {title: A proposal's example, version: 1.0.0}
updates:
  - target: $.info
    merge: {x-draft: true}
"""


def test_a_draft_overlay_in_a_proposals_folder_is_told_at_info(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus({"proposals/Overlays/Changes.yml": DRAFT})
    findings = run_rule(root, "overlay-invalid")
    assert findings
    assert {f.severity for f in findings} == {Severity.INFO}
    assert all(
        f.message.endswith("(a design record's file: a draft, not the specification)")
        for f in findings
    )
    root = write_files(tmp_path / "kept", {"overlays/Changes.yml": DRAFT})
    assert {f.severity for f in run_rule(root, "overlay-invalid")} == {Severity.ERROR}


def test_an_arazzo_draft_in_a_proposals_folder_is_told_at_info(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    draft = (
        "arazzo: 1.0.1\ninfo: {title: Draft, version: 1.0.0}\n"
        "sourceDescriptions: [{name: pets, url: ./pets.yaml, type: openapi}]\n"
        "workflows:\n  - workflowId: adopt\n    steps:\n"
        "      - {stepId: find, operationId: a, operationPath: x}\n"
    )
    root = make_corpus({"proposals/adopt.arazzo.yaml": draft})
    findings = run_rule(root, "arazzo-invalid")
    assert findings
    assert {f.severity for f in findings} == {Severity.INFO}
    assert all("(a design record's file: a draft, not the specification)" in f.message
               for f in findings)  # fmt: skip
    root = write_files(tmp_path / "kept", {"workflows/adopt.arazzo.yaml": draft})
    assert {f.severity for f in run_rule(root, "arazzo-invalid")} == {Severity.ERROR}


# 3. Overlay 1.1


def test_an_overlay_1_0_with_the_1_1_info_description_is_valid(make_corpus: MakeCorpus) -> None:
    fix = overlay("  - target: $.info\n    update: {x-a: 1}\n", info=", description: Why")
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": fix})
    assert run_rule(root, "overlay-invalid") == []
    # Not a string: what the 1.1 schema would reject too.
    fix = overlay("  - target: $.info\n    update: {x-a: 1}\n", info=", description: [Why]")
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": fix})
    [finding] = run_rule(root, "overlay-invalid")
    assert finding.location.pointer == "/info"


def test_an_overlay_1_0_with_a_1_1_copy_action_still_fails(make_corpus: MakeCorpus) -> None:
    fix = overlay("  - target: $.info\n    copy: $.paths\n")
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": fix})
    [finding] = run_rule(root, "overlay-invalid")
    assert "'copy'" in finding.message or '"copy"' in finding.message


def test_an_overlay_1_1_is_validated_against_the_1_1_schema(make_corpus: MakeCorpus) -> None:
    valid = overlay(
        "  - target: $.info\n    copy: $.paths\n", version="1.1.0", info=", description: Why"
    )
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": valid})
    assert run_rule(root, "overlay-invalid") == []
    wrong = overlay("  - target: $.info\n    copy: [$.paths]\n", version="1.1.0")
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": wrong})
    [finding] = run_rule(root, "overlay-invalid")
    assert finding.location.pointer == "/actions/0/copy"
    assert "valid Overlay 1.1" in finding.message


def test_every_overlay_rule_checks_an_overlay_1_1(make_corpus: MakeCorpus) -> None:
    # A copy (1.1.0 §4.4.3) of a response into the one the action's target selects: applied,
    # so that the target selects something afterwards and the result is judged.
    moved = (
        "  - target: $.paths['/pets'].get.responses\n"
        "    update: {'404': {}}\n"
        "  - target: $.paths['/pets'].get.responses['404']\n"
        "    copy: $.paths['/pets'].get.responses['200']\n"
    )
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": overlay(moved, version="1.1.0",
                                                                     head="extends: openapi.yaml\n")})  # fmt: skip
    assert run_rule(root, "overlay-invalid") == []
    assert run_rule(root, "overlay-target-unmatched") == []
    assert run_rule(root, "overlay-breaks-document") == []  # the `404` has the `200`'s description
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": overlay(UNMATCHED, BREAKING,
                        version="1.1.0", head="extends: openapi.yaml\n")})  # fmt: skip
    assert len(run_rule(root, "overlay-target-unmatched")) == 1
    assert len(run_rule(root, "overlay-breaks-document")) == 1


def test_an_overlay_of_a_release_without_a_schema_is_checked_by_no_rule(
    make_corpus: MakeCorpus,
) -> None:
    fix = overlay(UNMATCHED, BREAKING, version="1.2.0", head="extends: openapi.yaml\n")
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": fix})
    assert [f.coverage for f in run_rule(root, "overlay-invalid")] == ["no-schema"]
    assert run_rule(root, "overlay-target-unmatched") == []
    assert run_rule(root, "overlay-breaks-document") == []


# 4. Release-to-release overlays

STATUS = """openapi: 3.0.3
info: {{title: Runs, version: {version}}}
paths: {{}}
components:
  schemas:
    Status: {{type: string, enum: [{values}]}}
"""
OLD = STATUS.format(version="1.2.0", values="open, closed")
NEW = STATUS.format(version="1.3.0", values="open, closed, archived")
ADDS = "  - target: $.components.schemas.Status.enum\n    update: [archived]\n"


@pytest.mark.parametrize(
    "name", ["base-1.2.0-to-1.3.0-changes.yaml", "1.2.0_to_1.3.0.yaml", "from-1.2-to-1.3.yaml"]
)
def test_a_release_to_release_overlay_applies_to_its_first_release(
    make_corpus: MakeCorpus, name: str
) -> None:
    files: dict[str, str | bytes] = {
        "specs/api-1.2.0.yaml": OLD,
        "specs/api-1.3.0.yaml": NEW,
        f"specs/overlays/{name}": overlay(ADDS),
    }
    root = make_corpus(files)
    assert applied(root, f"specs/overlays/{name}") == ("specs/api-1.2.0.yaml",)
    assert run_rule(root, "overlay-target-unmatched") == []
    assert run_rule(root, "overlay-breaks-document") == []


def test_a_release_to_release_overlay_judged_against_its_output_duplicates_the_enum(
    make_corpus: MakeCorpus,
) -> None:
    # The control: what the guess made of it before, named as the second release's document.
    root = make_corpus(
        {
            "specs/api-1.3.0.yaml": NEW,
            "specs/overlays/fix.yaml": overlay(ADDS, head="extends: ../api-1.3.0.yaml\n"),
        }
    )
    [finding] = run_rule(root, "overlay-breaks-document")
    assert "/components/schemas/Status/enum" in finding.message


def test_a_release_to_release_overlay_without_its_first_release_is_not_checked(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {"specs/api.yaml": NEW, "specs/overlays/base-1.2.0-to-1.3.0-changes.yaml": overlay(ADDS)}
    )
    [note] = run_rule(root, "overlay-target-unmatched")
    assert note.coverage == "overlay-target"
    assert "turns release 1.2.0 into 1.3.0" in note.message
    assert run_rule(root, "overlay-breaks-document") == []
    # Named for none, the document of the first release by its `info.version`.
    root = make_corpus(
        {"specs/api.yaml": OLD, "specs/overlays/base-1.2.0-to-1.3.0-changes.yaml": overlay(ADDS)}
    )
    assert applied(root, "specs/overlays/base-1.2.0-to-1.3.0-changes.yaml") == ("specs/api.yaml",)


# 6. An overlay assembled from the actions of others (the parts), applied to the same document

# An action of each part that matches (`/pets`), in the combined one with its members reordered.
MATCHED = "  - target: $.paths['/pets'].get\n    update: {summary: s, description: d}\n"
REORDERED = "  - target: $.paths['/pets'].get\n    update: {description: d, summary: s}\n"
OWN = "  - target: $.paths['/dogs'].get\n    update: {summary: s}\n"


def assembled(*extra: str) -> dict[str, str | bytes]:
    return {
        "specs/api.yaml": API,
        "specs/overlays/a-overlay.yaml": overlay(MATCHED, UNMATCHED, head="extends: ../api.yaml\n"),
        "specs/overlays/b-overlay.yaml": overlay(BREAKING, head="extends: ../api.yaml\n"),
        "specs/overlays/all-overlay.yaml": overlay(
            REORDERED, UNMATCHED, BREAKING, *extra, head="extends: ../api.yaml\n"
        ),
    }


def test_an_unmatched_target_of_a_part_repeated_in_the_combined_overlay_is_reported_once(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(assembled())
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert finding.location.path == "specs/overlays/a-overlay.yaml"
    assert finding.location.pointer == "/actions/1/target"
    [_, also] = finding.related
    assert (also.path, also.pointer) == ("specs/overlays/all-overlay.yaml", "/actions/1/target")
    assert also.note is not None and also.note.startswith("also in specs/overlays/all-overlay")


def test_an_error_a_part_makes_repeated_in_the_combined_overlay_is_reported_once(
    make_corpus: MakeCorpus,
) -> None:
    # Without the part both would report it: the combined overlay applies the same action.
    files = assembled()
    del files["specs/overlays/b-overlay.yaml"]
    twice = run_rule(make_corpus(files), "overlay-breaks-document")
    assert [f.location.path for f in twice] == ["specs/overlays/all-overlay.yaml"]
    [finding] = run_rule(make_corpus(assembled()), "overlay-breaks-document")
    assert (finding.location.path, finding.location.pointer) == (
        "specs/overlays/b-overlay.yaml",
        "/actions/0",
    )
    assert [(r.path, r.pointer) for r in finding.related[1:]] == [
        ("specs/overlays/all-overlay.yaml", "/actions/2")
    ]


def test_an_unmatched_action_of_the_combined_overlay_s_own_is_still_reported_there(
    make_corpus: MakeCorpus,
) -> None:
    found = run_rule(make_corpus(assembled(OWN)), "overlay-target-unmatched")
    assert sorted((f.location.path, f.location.pointer) for f in found) == [
        ("specs/overlays/a-overlay.yaml", "/actions/1/target"),
        ("specs/overlays/all-overlay.yaml", "/actions/3/target"),
    ]


def test_an_overlay_is_no_part_of_one_holding_its_actions_but_applied_to_another_document(
    make_corpus: MakeCorpus,
) -> None:
    files = assembled()
    files["specs/other.yaml"] = API
    files["specs/overlays/all-overlay.yaml"] = overlay(
        REORDERED, UNMATCHED, BREAKING, head="extends: ../other.yaml\n"
    )
    found = run_rule(make_corpus(files), "overlay-target-unmatched")
    assert sorted(f.location.path for f in found) == [
        "specs/overlays/a-overlay.yaml",
        "specs/overlays/all-overlay.yaml",
    ]
