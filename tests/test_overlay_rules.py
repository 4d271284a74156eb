"""OpenAPI Overlays checked against the documents they apply to (issue 49, item 5): the official
Overlay 1.0 schema (``overlay-invalid``), targets evaluated as RFC 9535 JSONPath
(``overlay-target-unmatched``), and the actions applied and the result validated as
``openapi-invalid`` validates (``overlay-breaks-document``). Fixtures written here."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import yaml

from conftest import run_cli, run_rule
from speclint.analyses.context import Context
from speclint.analyses.overlays import Action, actions_of, apply_action, compiled, overlay_validator
from speclint.parsing.kinds import DocumentKind, classify

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


# overlay-invalid


def test_the_vendored_schema_is_the_published_file_unchanged() -> None:
    folder = resources.files("speclint").joinpath("data", "overlay")
    provenance = json.loads(folder.joinpath("PROVENANCE.json").read_text("utf-8"))
    assert provenance["repository"] == "OAI/Overlay-Specification"
    assert len(provenance["commit"]) == 40
    for name, digest in provenance["files"].items():
        assert hashlib.sha256(folder.joinpath(name).read_bytes()).hexdigest() == digest
    assert "Apache License" in folder.joinpath("LICENSE").read_text("utf-8")


def test_an_overlay_is_a_kind_of_its_own_and_a_flag_named_overlay_is_not() -> None:
    assert classify("o.yaml", yaml.safe_load(overlay())).kind is DocumentKind.OVERLAY
    assert classify("o.yaml", {"overlay": 1.0, "actions": []}).dialect == "Overlay 1.0"
    assert classify("c.yaml", {"overlay": True, "actions": []}).kind is DocumentKind.DATA


def test_speclint_files_lists_an_overlay_with_its_kind(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "  - target: $.info\n    update: {x-a: 1}\n")
    run = run_cli("files", str(root))
    [row] = [line for line in run.output.splitlines() if line.startswith("overlay.yaml")]
    assert row.split()[1] == "overlay"
    assert "1 OpenAPI Overlay (1.0)" in run.output


def test_a_misspelt_action_field_is_reported_at_the_action(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "  - target: $.paths['/pets']\n    remvoe: true\n")
    [finding] = run_rule(root, "overlay-invalid")
    assert finding.location.pointer == "/actions/0"
    assert "'remvoe'" in finding.message or '"remvoe"' in finding.message
    assert "valid Overlay 1.0" in finding.message


def test_a_valid_overlay_passes_the_schema(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "  - target: $.paths['/pets']\n    remove: true\n    x-why: old\n")
    assert run_rule(root, "overlay-invalid") == []


def test_an_overlay_of_a_release_without_a_shipped_schema_is_not_checked(
    make_corpus: MakeCorpus,
) -> None:
    root = corpus(make_corpus, "  - target: $.info\n    copy: $.x\n", version="1.1.0")
    [note] = run_rule(root, "overlay-invalid")
    assert note.coverage == "no-schema"


# overlay-target-unmatched


def test_a_target_that_selects_nothing_names_the_nearest_member(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "  - target: $.paths['/pet'].get\n    update: {summary: x}\n")
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert finding.location.pointer == "/actions/0/target"
    assert "`$.paths` has no member `/pet`" in finding.message
    assert "did you mean `/pets`" in finding.message
    assert finding.related[0].path == "openapi.yaml"
    assert finding.related[0].pointer == "/paths"


def test_a_target_that_selects_a_node_passes(make_corpus: MakeCorpus) -> None:
    root = corpus(
        make_corpus,
        "  - target: $.paths['/pets'].get\n    update: {summary: x}\n",
        "  - target: $.paths[?@.get.operationId == 'getPet']\n    remove: true\n",
    )
    assert run_rule(root, "overlay-target-unmatched") == []


def test_a_filter_that_selects_nothing_says_the_plain_prefix_resolves(
    make_corpus: MakeCorpus,
) -> None:
    root = corpus(make_corpus, "  - target: $.paths.*[?@.deprecated == true]\n    remove: true\n")
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert "`$.paths` resolves" in finding.message


def test_a_target_that_is_no_jsonpath_is_reported(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "  - target: $.paths[?\n    remove: true\n")
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert "is no JSONPath (RFC 9535)" in finding.message


def test_a_dashed_name_without_brackets_is_no_rfc_9535_jsonpath(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "  - target: $.paths.*[?@.x-internal]\n    remove: true\n")
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert "goes in brackets" in finding.message


def test_a_remote_extends_is_a_coverage_note_not_a_finding(make_corpus: MakeCorpus) -> None:
    root = corpus(
        make_corpus,
        "  - target: $.paths['/nowhere']\n    remove: true\n",
        extends="https://example.com/openapi.yaml",
    )
    [note] = run_rule(root, "overlay-target-unmatched")
    assert note.coverage == "overlay-target"
    assert "remote document" in note.message
    run = run_cli("check", str(root), "--preview", "--no-cache")
    assert "not in the repository, its actions not checked" in run.output


def test_without_extends_the_document_its_targets_point_into_is_used(
    make_corpus: MakeCorpus,
) -> None:
    root = corpus(
        make_corpus, "  - target: $.paths['/pets'].post\n    remove: true\n", extends=None
    )
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert "selects no node of openapi.yaml" in finding.message


# overlay-breaks-document


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


def test_a_remove_that_breaks_the_document_is_reported(make_corpus: MakeCorpus) -> None:
    root = corpus(
        make_corpus, "  - target: $.paths['/pets'].get.responses['200']\n    remove: true\n"
    )
    found = run_rule(root, "overlay-breaks-document")
    # openapi-invalid's errors of an empty `responses` (`minProperties`, and 3.1's `required`).
    assert found and {f.location.pointer for f in found} == {"/actions/0"}
    assert all("/paths/~1pets/get/responses:" in f.message for f in found)


def test_an_error_the_document_already_has_is_not_the_overlay_s(make_corpus: MakeCorpus) -> None:
    broken = API.replace('"200": {description: A pet}', '"200": {}')
    root = make_corpus(
        {
            "openapi.yaml": broken,
            "overlay.yaml": overlay("  - target: $.info\n    update: {title: Public}\n"),
        }
    )
    assert run_rule(root, "overlay-breaks-document") == []
    assert run_rule(root, "openapi-invalid") != []


def test_an_action_that_repairs_an_earlier_one_leaves_nothing(make_corpus: MakeCorpus) -> None:
    root = corpus(
        make_corpus,
        "  - target: $.paths['/pets'].get.responses['200']\n    update: {description: [x]}\n",
        "  - target: $.paths['/pets'].get.responses['200']\n    update: {description: x}\n",
    )
    assert run_rule(root, "overlay-breaks-document") == []


# Applying actions (Overlay 1.0.0 §4.4.3)


def action(target: str, **fields: object) -> Action:
    return actions_of({"actions": [{"target": target, **fields}]})[0]


def test_an_update_merges_objects_recursively_and_appends_to_arrays() -> None:
    data = {"info": {"title": "A", "contact": {"name": "n"}}, "tags": [{"name": "a"}]}
    data = apply_action(data, action("$.info", update={"contact": {"email": "e"}, "title": "B"}))
    data = apply_action(data, action("$.tags", update={"name": "b"}))
    assert data == {
        "info": {"title": "B", "contact": {"name": "n", "email": "e"}},
        "tags": [{"name": "a"}, {"name": "b"}],
    }


def test_remove_deletes_every_selected_node_later_indexes_first() -> None:
    data = {"servers": [{"url": "a", "x": 1}, {"url": "b"}, {"url": "c", "x": 1}]}
    data = apply_action(data, action("$.servers[?@.x]", remove=True))
    assert data == {"servers": [{"url": "b"}]}


def test_a_target_that_is_no_jsonpath_changes_nothing() -> None:
    data = {"info": {}}
    before = copy.deepcopy(data)
    assert isinstance(compiled("$.info["), str)
    assert apply_action(data, action("$.info[", update={"a": 1})) == before


def test_the_schema_accepts_a_minimal_overlay_and_rejects_one_without_actions() -> None:
    validator = overlay_validator()
    assert validator.is_valid(yaml.safe_load(overlay("  - target: $\n")))
    assert not validator.is_valid({"overlay": "1.0.0", "info": {"title": "t", "version": "1"}})


def test_the_document_an_overlay_applies_to_is_not_changed(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "  - target: $.paths['/pets']\n    remove: true\n")
    context = Context.load(root)
    before = copy.deepcopy(context.documents["openapi.yaml"].data)
    list(run_rule(root, "overlay-breaks-document"))
    assert context.documents["openapi.yaml"].data == before
