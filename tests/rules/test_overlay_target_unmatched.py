"""``overlay-target-unmatched`` on fixtures written here, one test a case, named after it. The
rule: an Overlay action whose `target` selects no node of the document the overlay applies to."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import yaml
from test_overlay_breaks_document import (
    API,
    API_ARCHIVED,
    applied,
    assembled,
    overlay,
    overlay_archived,
)

from conftest import run_cli, run_rule
from speclint.analyses.context import Context
from speclint.analyses.repository.downloads import build_outputs
from speclint.analyses.workflows.overlays import (
    Action,
    actions_of,
    apply_action,
    compiled,
    legacy_dialect,
    legacy_reading,
    overlay_validator,
    validation_scope,
)
from speclint.common.findings import Severity
from speclint.parsing.kinds import DocumentKind, classify

# OpenAPI Overlays checked against the documents they apply to (issue 49, item 5): the official
# Overlay 1.0 schema (``overlay-invalid``), targets evaluated as RFC 9535 JSONPath
# (``overlay-target-unmatched``), and the actions applied and the result validated as
# ``openapi-invalid`` validates (``overlay-breaks-document``). Fixtures written here.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def corpus(make_corpus: MakeCorpus, *actions: str, **kwargs: str | None) -> Path:
    return make_corpus({"openapi.yaml": API, "overlay.yaml": overlay(*actions, **kwargs)})


def action(target: str, **fields: object) -> Action:
    return actions_of({"actions": [{"target": target, **fields}]})[0]


ARCHIVED = "  - target: $.components.schemas.{name}.description\n    update: old text\n"


LEGACY = [
    "  - target: $.paths./pets/{petId}.get\n    update: {summary: x}\n",
    "  - target: $.paths./pets.get\n    update: {summary: s}\n",
    "  - target: $.paths./pets/{petId}.get.parameters[?(@.name=='petId')]\n"
    "    update: {description: d}\n",
]


OTHER_API = """openapi: 3.1.0
info: {title: Shop, version: 1.0.0}
paths:
  /orders:
    get:
      responses:
        "200": {description: The orders}
components:
  schemas:
    Order: {type: object}
"""


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
        make_corpus,
        "  - target: $.paths['/pets'].get\n    update: {summary: s}\n",
        "  - target: $.paths['/pets'].post\n    remove: true\n",
        "  - target: $.paths['/pets'].get.responses\n    update: {'404': {description: d}}\n",
        extends=None,
    )
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert "selects no node of openapi.yaml" in finding.message


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


def test_a_guessed_document_matching_most_targets_keeps_the_unmatched_one(
    make_corpus: MakeCorpus,
) -> None:
    actions = ["  - target: $.paths['/pets'].get\n    update: {summary: s}\n"] * 3
    actions.append("  - target: $.paths['/pet'].get\n    update: {summary: s}\n")
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": overlay(*actions, extends=None)})
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert finding.location.pointer == "/actions/3/target"
    assert finding.coverage is None


def test_with_extends_every_unmatched_target_is_a_finding(make_corpus: MakeCorpus) -> None:
    actions = [ARCHIVED.format(name=n) for n in ("Dog", "Cat", "Bird")]
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": overlay(*actions)})
    found = run_rule(root, "overlay-target-unmatched")
    assert [f.location.pointer for f in found] == [f"/actions/{i}/target" for i in range(3)]


def test_an_overlay_named_for_another_version_than_the_document_is_not_checked(
    make_corpus: MakeCorpus,
) -> None:
    actions = "  - target: $.paths['/pet'].get\n    update: {summary: s}\n"
    root = make_corpus(
        {"api-1.4.0.yaml": API, "fixes-overlay-1.2.0.yaml": overlay(actions, extends=None)}
    )
    [note] = run_rule(root, "overlay-target-unmatched")
    assert note.coverage == "overlay-target"
    assert "names version 1.2.0" in note.message


def test_an_overlay_named_for_the_document_s_version_is_checked_as_if_it_extended_it(
    make_corpus: MakeCorpus,
) -> None:
    actions = [ARCHIVED.format(name=n) for n in ("Dog", "Cat")]
    actions.append("  - target: $.paths['/pets'].get\n    update: {summary: s}\n")
    root = make_corpus(
        {
            "api-1.2.yaml": API,
            "api-1.4.0.yaml": API,
            "fixes-overlay-1.2.0.yaml": overlay(*actions, extends=None),
        }
    )
    found = run_rule(root, "overlay-target-unmatched")
    assert [f.location.pointer for f in found] == ["/actions/0/target", "/actions/1/target"]
    assert all("selects no node of api-1.2.yaml" in f.message for f in found)


def test_targets_in_the_legacy_dialect_are_one_finding_per_overlay(
    make_corpus: MakeCorpus,
) -> None:
    root = corpus(make_corpus, *LEGACY)
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert finding.location.pointer == "/actions/0/target"
    assert finding.severity is Severity.WARNING
    assert "(and 2 more of its targets) is no RFC 9535 JSONPath" in finding.message
    assert "Speakeasy's legacy JSONPath dialect reads" in finding.message
    assert "`$.paths['/pets/{petId}'].get`" in finding.message
    assert "x-speakeasy-jsonpath: rfc9535" in finding.message
    assert [r.pointer for r in finding.related] == ["/actions/1/target", "/actions/2/target"]


def test_a_legacy_target_is_evaluated_as_the_dialect_reads_it(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, *LEGACY, "  - target: $.paths./pet.get\n    remove: true\n")
    found = run_rule(root, "overlay-target-unmatched")
    [unmatched] = [f for f in found if f.key != "legacy-dialect"]
    assert unmatched.location.pointer == "/actions/3/target"
    assert "did you mean `/pets`" in unmatched.message


def test_an_overlay_declaring_rfc_9535_has_a_finding_per_invalid_target(
    make_corpus: MakeCorpus,
) -> None:
    text = overlay(*LEGACY).replace("actions:\n", "x-speakeasy-jsonpath: rfc9535\nactions:\n")
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": text})
    found = run_rule(root, "overlay-target-unmatched")
    assert len(found) == 3
    assert all("is no JSONPath (RFC 9535)" in f.message for f in found)


def test_the_legacy_reading_brackets_members_that_are_no_shorthand() -> None:
    assert legacy_reading("$.paths./a/{id}.get") == "$.paths['/a/{id}'].get"
    assert legacy_reading("$.components.schemas.x-y") == "$.components.schemas['x-y']"
    assert legacy_reading("$..x-y[0]") == "$..['x-y'][0]"
    assert legacy_reading("$.paths./a[?(@.name=='b.c')]") == "$.paths['/a'][?(@.name=='b.c')]"
    assert legacy_reading("$.paths['/a'].get") is None  # nothing to read otherwise
    assert legacy_reading("$.paths[?") is None


def test_the_legacy_dialect_is_speakeasy_s_default_for_overlay_1_0_only() -> None:
    assert legacy_dialect({"overlay": "1.0.0", "actions": []})
    assert not legacy_dialect({"overlay": "1.0.0", "x-speakeasy-jsonpath": "rfc9535"})
    assert not legacy_dialect({"overlay": "1.1.0", "actions": []})


def test_a_guess_prefers_a_matching_document_in_the_overlay_s_own_folder(
    make_corpus: MakeCorpus,
) -> None:
    # Another folder's document has `components.schemas` (deeper prefixes), the overlay's
    # neighbour matches its targets: the neighbour is the one.
    actions = [
        "  - target: $.info.title\n    update: Renamed\n",
        "  - target: $.components.schemas.Missing\n    update: {type: object}\n",
    ]
    root = make_corpus(
        {
            "shop/openapi.yaml": OTHER_API,
            "pets/openapi.yaml": API,
            "pets/overlay.yaml": overlay(*actions, extends=None),
        }
    )
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert "selects no node of pets/openapi.yaml" in finding.message


def test_a_guess_falls_back_to_a_farther_document_when_none_nearby_matches(
    make_corpus: MakeCorpus,
) -> None:
    actions = ["  - target: $.paths['/orders'].get\n    update: {summary: s}\n"] * 2
    actions.append("  - target: $.paths['/order'].get\n    update: {summary: s}\n")
    root = make_corpus(
        {
            "shop/openapi.yaml": OTHER_API,
            "pets/openapi.yaml": API,
            "pets/overlay.yaml": overlay(*actions, extends=None),
        }
    )
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert "selects no node of shop/openapi.yaml" in finding.message


def test_an_overlay_named_for_the_release_the_unnamed_document_declares_is_checked(
    make_corpus: MakeCorpus,
) -> None:
    # Same major and minor (a patch release apart), or a declared version that is no release
    # (`latest`): checked.
    actions = "".join(
        f"  - target: $.paths['{path}'].get\n    update: {{summary: s}}\n"
        for path in ("/pets", "/pets/{petId}", "/pet")
    )
    for declared in ("1.14.2", "latest"):
        api = API.replace("version: 1.0.0", f"version: {declared}")
        root = make_corpus(
            {"api.yaml": api, "fixes-overlay-1.14.yaml": overlay(actions, extends=None)}
        )
        [finding] = run_rule(root, "overlay-target-unmatched")
        assert finding.coverage is None, declared
        assert "selects no node of api.yaml" in finding.message


def test_a_reference_to_another_file_validates_the_overlaid_document_whole() -> None:
    before = {"openapi": "3.1.0", "paths": {"/a": {"$ref": "other.yaml#/a"}, "/b": {}}}
    after = {**before, "paths": {**before["paths"], "/b": {"summary": "s"}}}
    assert validation_scope(before, after) is None
    local = {"openapi": "3.1.0", "paths": {f"/p{i}": {} for i in range(9)}}
    changed = {**local, "paths": {**local["paths"], "/p0": {"summary": "s"}}}
    assert validation_scope(local, changed) == frozenset({("openapi",), ("paths", "/p0")})


def test_a_guess_between_tied_documents_prefers_the_one_most_targets_select(
    make_corpus: MakeCorpus,
) -> None:
    # Both documents have `paths` (the plain prefix of a wildcard target); the variant with the
    # header is the one the overlay is written for, though its name is not the plainest.
    header = API.replace(
        '"200": {description: A pet}',
        '"200": {description: A pet, headers: {X-Version: {schema: {type: string}}}}',
    )
    actions = [
        "  - target: $.paths.*.get.responses.*.headers['X-Version'].schema\n"
        "    update: {const: v1}\n",
        "  - target: $.paths.*.get.responses.*.headers['X-Trace'].schema\n    update: {const: t}\n",
    ]
    root = make_corpus(
        {
            "openapi.yaml": API,
            "openapi-header.yaml": header,
            "overlay-header.yaml": overlay(*actions, extends=None),
        }
    )
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert finding.location.pointer == "/actions/1/target"
    assert "selects no node of openapi-header.yaml" in finding.message


def test_a_target_an_earlier_action_creates_is_matched(make_corpus: MakeCorpus) -> None:
    actions = [
        "  - target: $.paths\n    update: {/toys: {}}\n",
        "  - target: $.paths['/toys']\n    update: {summary: Toys}\n",
    ]
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": overlay(*actions)})
    assert run_rule(root, "overlay-target-unmatched") == []


def test_a_target_an_earlier_action_removed_is_unmatched(make_corpus: MakeCorpus) -> None:
    actions = [
        "  - target: $.paths['/pets']\n    remove: true\n",
        "  - target: $.paths['/pets'].get\n    update: {summary: s}\n",
    ]
    root = make_corpus({"openapi.yaml": API, "overlay.yaml": overlay(*actions)})
    [finding] = run_rule(root, "overlay-target-unmatched")
    assert finding.location.pointer == "/actions/1/target"


def test_a_guess_never_takes_the_document_a_build_writes_by_applying_the_overlay(
    make_corpus: MakeCorpus,
) -> None:
    """A package.json script writes `mock/openapi.yaml` by applying `mock/overlay.yaml` to
    `openapi.yaml`: the output sits beside the overlay (nearest), lacks what the overlay removed,
    and is no input of it; the overlay applies to `openapi.yaml`, where its targets resolve."""
    actions = [
        "  - target: $.paths['/pets/{petId}']\n    remove: true\n",
        "  - target: $.info.title\n    update: Mock pets\n",
    ]
    output = API.replace("  /pets/{petId}:", "  /gone:").replace("title: Pets", "title: Mock")
    script = "bump overlay openapi.yaml mock/overlay.yaml > mock/openapi.yaml"
    root = make_corpus(
        {
            "openapi.yaml": API,
            "mock/openapi.yaml": output,
            "mock/overlay.yaml": overlay(*actions, extends=None),
            "package.json": json.dumps({"name": "pets", "scripts": {"mock": script}}),
        }
    )
    assert "mock/overlay.yaml" in build_outputs(Context.load(root))["mock/openapi.yaml"]
    assert run_rule(root, "overlay-target-unmatched") == []


# Issue 49's precision classes of the Overlay rules (and arazzo-invalid's design folders), each a
# case on a fixture written here: archived overlays are records (not applied), a proposal's draft is
# told at info, Overlay 1.1 is validated by its own schema (and 1.1's `info.description` is no
# defect of a 1.0 overlay), and a release-to-release overlay applies to its first release.


# An action that selects nothing (`/pet`) and one that makes the document invalid.
UNMATCHED = "  - target: $.paths['/pet'].get\n    update: {summary: s}\n"


BREAKING = "  - target: $.paths['/pets'].get.responses['200']\n    update: {description: [x]}\n"


# An action of each part that matches (`/pets`), in the combined one with its members reordered.
MATCHED = "  - target: $.paths['/pets'].get\n    update: {summary: s, description: d}\n"


REORDERED = "  - target: $.paths['/pets'].get\n    update: {description: d, summary: s}\n"


OWN = "  - target: $.paths['/dogs'].get\n    update: {summary: s}\n"


def test_an_archived_overlay_of_a_release_still_held_is_checked(make_corpus: MakeCorpus) -> None:
    # `fixes-1.2.0.yaml` kept in the archive beside `api-1.2.0.yaml`: what it was written for.
    root = make_corpus(
        {
            "api-1.2.0.yaml": API_ARCHIVED,
            "api-1.3.0.yaml": API_ARCHIVED,
            "overlays_archive/fixes-1.2.0.yaml": overlay_archived(UNMATCHED),
            "overlays_archive/fixes-1.1.0.yaml": overlay_archived(UNMATCHED),
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
    root = make_corpus(
        {"openapi.yaml": API_ARCHIVED, "overlay-archives/fix.yaml": overlay_archived(legacy)}
    )
    assert [f.coverage for f in run_rule(root, "overlay-target-unmatched")] == ["overlay-record"]


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
    files["specs/other.yaml"] = API_ARCHIVED
    files["specs/overlays/all-overlay.yaml"] = overlay_archived(
        REORDERED, UNMATCHED, BREAKING, head="extends: ../other.yaml\n"
    )
    found = run_rule(make_corpus(files), "overlay-target-unmatched")
    assert sorted(f.location.path for f in found) == [
        "specs/overlays/a-overlay.yaml",
        "specs/overlays/all-overlay.yaml",
    ]
