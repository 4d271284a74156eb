"""``overlay-breaks-document`` on fixtures written here, one test a case, named after it. The rule:
an Overlay action that makes the OpenAPI document it applies to invalid."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli, run_rule, write_files
from speclint.analyses.context import Context
from speclint.analyses.workflows.overlays import (
    Action,
    actions_of,
    applied_to,
    apply_action,
)
from speclint.model.config import load_config
from speclint.rules import overlay_breaks_document

# OpenAPI Overlays checked against the documents they apply to (issue 49, item 5): the official
# Overlay 1.0 schema (``overlay-invalid``), targets evaluated as RFC 9535 JSONPath
# (``overlay-target-unmatched``), and the actions applied and the result validated as
# ``openapi-invalid`` validates (``overlay-breaks-document``). Fixtures written here.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


API = """openapi: 3.1.0
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: The pets}
  /pets/{petId}:
    get:
      operationId: getPet
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string}}
      responses:
        "200": {description: A pet}
"""


def overlay(*actions: str, extends: str | None = "openapi.yaml", version: str = "1.0.0") -> str:
    head = f"overlay: {version}\ninfo: {{title: Fixes, version: 1.0.0}}\n"
    if extends is not None:
        head += f"extends: {extends}\n"
    return head + "actions:\n" + "".join(actions)


def corpus(make_corpus: MakeCorpus, *actions: str, **kwargs: str | None) -> Path:
    return make_corpus({"openapi.yaml": API, "overlay.yaml": overlay(*actions, **kwargs)})


def action(target: str, **fields: object) -> Action:
    return actions_of({"actions": [{"target": target, **fields}]})[0]


ARCHIVED = "  - target: $.components.schemas.{name}.description\n    update: old text\n"


MANY = (
    """openapi: 3.1.0
info: {title: Zoo, version: 1.0.0}
paths:
"""
    + "".join(
        f"""  /animals{i}:
    get:
      operationId: list{i}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {{$ref: '#/components/schemas/Animal{i % 2}'}}
"""
        for i in range(8)
    )
    + """components:
  schemas:
    Animal0: {type: object}
    Animal1: {type: object}
    Unused: {type: string}
"""
)


def test_an_update_that_breaks_the_document_is_reported_at_the_action(
    make_corpus: MakeCorpus,
) -> None:
    root = corpus(
        make_corpus,
        "  - target: $.info\n    update: {x-a: 1}\n",
        "  - target: $.paths['/pets'].get.responses['200']\n    update: {description: [x]}\n",
    )
    [finding] = run_rule(root, "overlay-breaks-document")
    assert finding.location.pointer == "/actions/1"
    assert "/paths/~1pets/get/responses/200/description" in finding.message
    assert finding.related[0].path == "openapi.yaml"


def test_an_action_that_repairs_an_earlier_one_leaves_nothing(make_corpus: MakeCorpus) -> None:
    root = corpus(
        make_corpus,
        "  - target: $.paths['/pets'].get.responses['200']\n    update: {description: [x]}\n",
        "  - target: $.paths['/pets'].get.responses['200']\n    update: {description: x}\n",
    )
    assert run_rule(root, "overlay-breaks-document") == []


def test_the_document_an_overlay_applies_to_is_not_changed(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "  - target: $.paths['/pets']\n    remove: true\n")
    context = Context.load(root)
    before = copy.deepcopy(context.documents["openapi.yaml"].data)
    list(run_rule(root, "overlay-breaks-document"))
    assert context.documents["openapi.yaml"].data == before


def test_an_error_is_blamed_on_the_last_action_whose_nodes_touch_its_place(
    make_corpus: MakeCorpus,
) -> None:
    root = corpus(
        make_corpus,
        "  - target: $.paths['/pets'].get.responses\n    update: {'200': {description: [x]}}\n",
        "  - target: $.info\n    update: {x-a: 1}\n",
        # Selects a node inside the broken one: the later of the two that touch it is named.
        "  - target: $.paths['/pets'].get.responses['200']\n    update: {x-b: 1}\n",
    )
    [finding] = run_rule(root, "overlay-breaks-document")
    assert finding.location.pointer == "/actions/2"
    assert "this action makes openapi.yaml invalid" in finding.message


def test_an_error_no_action_touches_is_reported_at_the_actions(make_corpus: MakeCorpus) -> None:
    # Removing the parameter leaves `{petId}` in the path unresolved: the error is at the
    # operation, which neither holds the removed node nor lies inside it.
    root = corpus(
        make_corpus,
        "  - target: $.paths['/pets/{petId}'].get.parameters[0]\n    remove: true\n",
    )
    found = run_rule(root, "overlay-breaks-document")
    assert found
    assert {f.location.pointer for f in found} <= {"/actions", "/actions/0"}


def test_a_document_is_validated_once_and_once_per_overlay_whatever_the_actions(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    many = "".join(f"  - target: $.info\n    update: {{x-n{i}: {i}}}\n" for i in range(30))
    root = make_corpus(
        {
            "openapi.yaml": API,
            "a.yaml": overlay(many),
            "b.yaml": overlay(many, "  - target: $.paths['/pets']\n    remove: true\n"),
        }
    )
    calls: list[str] = []
    validate = overlay_breaks_document.openapi_findings

    def counted(corpus: Context, document: Any) -> Any:
        calls.append(document.path)
        return validate(corpus, document)

    monkeypatch.setattr(overlay_breaks_document, "openapi_findings", counted)
    list(run_rule(root, "overlay-breaks-document"))
    assert calls == ["openapi.yaml"] * 3  # the document once, each overlaid result once


def test_a_guessed_document_matching_few_targets_is_not_checked(make_corpus: MakeCorpus) -> None:
    # An archived overlay of an older version: its schemas were renamed since.
    actions = [ARCHIVED.format(name=n) for n in ("Dog", "Cat", "Bird")]
    actions.append("  - target: $.paths['/pets'].get\n    update: {summary: s}\n")
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": overlay(*actions, extends=None)})
    [note] = run_rule(root, "overlay-target-unmatched")
    assert note.coverage == "overlay-target"
    assert "no document of the repository matches most of its targets" in note.message
    assert "1 of 4" in note.message
    assert run_rule(root, "overlay-breaks-document") == []


def test_an_array_update_of_an_array_is_concatenated_not_nested(make_corpus: MakeCorpus) -> None:
    # Replacing a parameter list: remove its items, then update it with the new list.
    root = corpus(
        make_corpus,
        "  - target: $.paths['/pets/{petId}'].get.parameters[*]\n    remove: true\n",
        "  - target: $.paths['/pets/{petId}'].get.parameters\n"
        "    update: [{name: petId, in: path, required: true, schema: {type: string}}]\n",
    )
    assert run_rule(root, "overlay-breaks-document") == []
    data = {"tags": [{"name": "a"}]}
    assert apply_action(data, action("$.tags", update=[{"name": "b"}])) == {
        "tags": [{"name": "a"}, {"name": "b"}]
    }


def test_an_overlay_without_actions_is_the_schema_s_not_a_crash(make_corpus: MakeCorpus) -> None:
    text = "overlay: 1.0.0\ninfo: {title: Fixes, version: 1.0.0}\n"
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": text})
    assert run_rule(root, "overlay-breaks-document") == []
    [note] = run_rule(root, "overlay-target-unmatched")
    assert note.coverage == "overlay-target"


def test_a_guess_between_tied_documents_picks_one_and_reports_once(
    make_corpus: MakeCorpus,
) -> None:
    # Two copies of one document in one folder: the action breaks both; one finding, on the
    # copy of the plainest name.
    broken = "  - target: $.paths['/pets'].get.responses\n    update: {'200': {description: [x]}}\n"
    root = make_corpus(
        {
            "openapi.yaml": API,
            "openapi-copy.yaml": API,
            "overlay.yaml": overlay(broken, extends=None),
        }
    )
    found = run_rule(root, "overlay-breaks-document")
    assert found
    assert {f.message.split(" invalid")[0] for f in found} == {
        "applying this action makes openapi.yaml"
    }
    assert len({f.key for f in found}) == len(found)


def test_an_overlay_named_for_a_release_the_unnamed_document_does_not_declare_is_not_checked(
    make_corpus: MakeCorpus,
) -> None:
    actions = "  - target: $.paths['/pet'].get\n    update: {summary: s}\n"
    api = API.replace("version: 1.0.0", "version: 1.14.0")
    root = make_corpus({"api.yaml": api, "fixes-overlay-1.8.yaml": overlay(actions, extends=None)})
    [note] = run_rule(root, "overlay-target-unmatched")
    assert note.coverage == "overlay-target"
    assert "declares `info.version: 1.14.0`" in note.message
    assert run_rule(root, "overlay-breaks-document") == []


def test_an_overlaid_document_is_validated_only_where_the_overlay_changed_it(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus(
        {
            "openapi.yaml": MANY,
            "overlay.yaml": overlay(
                "  - target: $.paths['/animals3'].get\n    update: {summary: s}\n"
            ),
        }
    )
    seen: list[list[str]] = []
    validate = overlay_breaks_document.openapi_findings

    def counted(corpus: Context, document: Any) -> Any:
        seen.append(sorted(document.data["paths"]))
        return validate(corpus, document)

    monkeypatch.setattr(overlay_breaks_document, "openapi_findings", counted)
    assert run_rule(root, "overlay-breaks-document") == []
    whole, overlaid = seen
    assert len(whole) == 8
    assert overlaid == ["/animals3"]


def test_a_changed_component_breaks_the_unchanged_path_that_references_it(
    make_corpus: MakeCorpus,
) -> None:
    # The path parameter is declared in a component: made a query parameter, the path's
    # template is left unresolved, at the path, which the overlay did not touch.
    api = MANY.replace(
        "  /animals3:\n    get:\n",
        "  /animals3/{id}:\n    get:\n      parameters: [$ref: '#/components/parameters/Id']\n",
    ).replace(
        "components:\n",
        "components:\n  parameters:\n"
        "    Id: {name: id, in: path, required: true, schema: {type: string}}\n",
    )
    root = make_corpus(
        {
            "openapi.yaml": api,
            "overlay.yaml": overlay(
                "  - target: $.components.parameters.Id\n    update: {in: query, required: false}\n"
            ),
        }
    )
    [finding] = run_rule(root, "overlay-breaks-document")
    assert "was not resolved" in finding.message
    assert finding.related[0].pointer == "/paths/~1animals3~1{id}/get"


def test_an_operation_id_made_a_duplicate_of_an_unchanged_operation_s_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "openapi.yaml": MANY,
            "overlay.yaml": overlay(
                "  - target: $.paths['/animals5'].get\n    update: {operationId: list2}\n"
            ),
        }
    )
    found = run_rule(root, "overlay-breaks-document")
    assert any("list2" in f.message and "unique" in f.message for f in found), found


# Issue 49's precision classes of the Overlay rules (and arazzo-invalid's design folders), each a
# case on a fixture written here: archived overlays are records (not applied), a proposal's draft is
# told at info, Overlay 1.1 is validated by its own schema (and 1.1's `info.description` is no
# defect of a 1.0 overlay), and a release-to-release overlay applies to its first release.


API_ARCHIVED = """openapi: 3.1.0
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


def overlay_archived(*actions: str, version: str = "1.0.0", info: str = "", head: str = "") -> str:
    return (
        f"overlay: {version}\ninfo: {{title: Fixes, version: 1.0.0{info}}}\n{head}"
        + "actions:\n"
        + "".join(actions)
    )


def applied(root: Path, path: str) -> tuple[str, ...]:
    corpus = Context.load(root, load_config(root))
    return applied_to(corpus, corpus.documents[path]).paths


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


# An action of each part that matches (`/pets`), in the combined one with its members reordered.
MATCHED = "  - target: $.paths['/pets'].get\n    update: {summary: s, description: d}\n"


REORDERED = "  - target: $.paths['/pets'].get\n    update: {description: d, summary: s}\n"


def assembled(*extra: str) -> dict[str, str | bytes]:
    return {
        "specs/api.yaml": API_ARCHIVED,
        "specs/overlays/a-overlay.yaml": overlay_archived(
            MATCHED, UNMATCHED, head="extends: ../api.yaml\n"
        ),
        "specs/overlays/b-overlay.yaml": overlay_archived(BREAKING, head="extends: ../api.yaml\n"),
        "specs/overlays/all-overlay.yaml": overlay_archived(
            REORDERED, UNMATCHED, BREAKING, *extra, head="extends: ../api.yaml\n"
        ),
    }


def test_an_overlay_in_an_archive_folder_is_a_record_not_applied(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus(
        {
            "openapi.yaml": API_ARCHIVED,
            "scripts/overlays_archive/fix.yaml": overlay_archived(UNMATCHED, BREAKING),
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
        tmp_path / "kept",
        {"openapi.yaml": API_ARCHIVED, "scripts/fix.yaml": overlay_archived(UNMATCHED, BREAKING)},
    )
    assert [f.coverage for f in run_rule(root, "overlay-target-unmatched")] == [None]
    assert len(run_rule(root, "overlay-breaks-document")) == 1


def test_every_overlay_rule_checks_an_overlay_1_1(make_corpus: MakeCorpus) -> None:
    # A copy (1.1.0 §4.4.3) of a response into the one the action's target selects: applied,
    # so that the target selects something afterwards and the result is judged.
    moved = (
        "  - target: $.paths['/pets'].get.responses\n"
        "    update: {'404': {}}\n"
        "  - target: $.paths['/pets'].get.responses['404']\n"
        "    copy: $.paths['/pets'].get.responses['200']\n"
    )
    root = make_corpus({"openapi.yaml": API_ARCHIVED, "overlay.yaml": overlay_archived(moved, version="1.1.0",
                                                                     head="extends: openapi.yaml\n")})  # fmt: skip
    assert run_rule(root, "overlay-invalid") == []
    assert run_rule(root, "overlay-target-unmatched") == []
    assert run_rule(root, "overlay-breaks-document") == []  # the `404` has the `200`'s description
    root = make_corpus({"openapi.yaml": API_ARCHIVED, "overlay.yaml": overlay_archived(UNMATCHED, BREAKING,
                        version="1.1.0", head="extends: openapi.yaml\n")})  # fmt: skip
    assert len(run_rule(root, "overlay-target-unmatched")) == 1
    assert len(run_rule(root, "overlay-breaks-document")) == 1


def test_an_overlay_of_a_release_without_a_schema_is_checked_by_no_rule(
    make_corpus: MakeCorpus,
) -> None:
    fix = overlay_archived(UNMATCHED, BREAKING, version="1.2.0", head="extends: openapi.yaml\n")
    root = make_corpus({"openapi.yaml": API_ARCHIVED, "overlay.yaml": fix})
    assert [f.coverage for f in run_rule(root, "overlay-invalid")] == ["no-schema"]
    assert run_rule(root, "overlay-target-unmatched") == []
    assert run_rule(root, "overlay-breaks-document") == []


@pytest.mark.parametrize(
    "name", ["base-1.2.0-to-1.3.0-changes.yaml", "1.2.0_to_1.3.0.yaml", "from-1.2-to-1.3.yaml"]
)
def test_a_release_to_release_overlay_applies_to_its_first_release(
    make_corpus: MakeCorpus, name: str
) -> None:
    files: dict[str, str | bytes] = {
        "specs/api-1.2.0.yaml": OLD,
        "specs/api-1.3.0.yaml": NEW,
        f"specs/overlays/{name}": overlay_archived(ADDS),
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
            "specs/overlays/fix.yaml": overlay_archived(ADDS, head="extends: ../api-1.3.0.yaml\n"),
        }
    )
    [finding] = run_rule(root, "overlay-breaks-document")
    assert "/components/schemas/Status/enum" in finding.message


def test_a_release_to_release_overlay_without_its_first_release_is_not_checked(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "specs/api.yaml": NEW,
            "specs/overlays/base-1.2.0-to-1.3.0-changes.yaml": overlay_archived(ADDS),
        }
    )
    [note] = run_rule(root, "overlay-target-unmatched")
    assert note.coverage == "overlay-target"
    assert "turns release 1.2.0 into 1.3.0" in note.message
    assert run_rule(root, "overlay-breaks-document") == []
    # Named for none, the document of the first release by its `info.version`.
    root = make_corpus(
        {
            "specs/api.yaml": OLD,
            "specs/overlays/base-1.2.0-to-1.3.0-changes.yaml": overlay_archived(ADDS),
        }
    )
    assert applied(root, "specs/overlays/base-1.2.0-to-1.3.0-changes.yaml") == ("specs/api.yaml",)


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


def released_action(release: str, target: str, **fields: object) -> Action:
    overlay = {"overlay": release, "actions": [{"target": target, **fields}]}
    return actions_of(overlay)[0]


def document() -> dict[str, Any]:
    return {"info": {"title": "A", "tags": ["x"]}, "paths": {"/a": {"get": {}}, "/b": {"put": {}}}}


def test_overlay_breaks_document_replaces_an_array_member_in_a_1_0_merge_and_concatenates_it_in_1_1() -> (
    None
):
    update = {"tags": ["y"]}
    replaced = apply_action(document(), released_action("1.0.0", "$.info", update=update))
    assert replaced["info"]["tags"] == ["y"]
    concatenated = apply_action(document(), released_action("1.1.0", "$.info", update=update))
    assert concatenated["info"]["tags"] == ["x", "y"]


def test_overlay_breaks_document_applies_a_copy_only_when_it_selects_exactly_one_node() -> None:
    one = apply_action(document(), released_action("1.1.0", "$.paths['/a']", copy="$.info"))
    assert one["paths"]["/a"] == {"get": {}, "title": "A", "tags": ["x"]}
    several = apply_action(document(), released_action("1.1.0", "$.info", copy="$.paths.*"))
    assert several == document()
    none = apply_action(document(), released_action("1.1.0", "$.info", copy="$.missing"))
    assert none == document()
