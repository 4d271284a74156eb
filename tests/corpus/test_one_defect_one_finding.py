"""One defect at one place is one finding (issue 45, item 7): a misnamed path parameter, which
the OpenAPI validator reports from the template's side and from the parameter's.

Each fixture is written here, in our own words.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_a_misnamed_path_parameter_is_one_finding(make_corpus: MakeCorpus) -> None:
    def document(name: str) -> str:
        return (
            "openapi: 3.1.0\ninfo: {title: Shop, version: '1.0.0'}\npaths:\n"
            "  /widgets/{widgetId}:\n    get:\n      operationId: getWidget\n"
            f"      parameters:\n        - {{name: {name}, in: path, required: true, "
            "schema: {type: string}}\n      responses:\n        '200': {description: ok}\n"
        )

    [finding] = run_rule(
        make_corpus({"api/openapi.yaml": document("widget_id")}), "openapi-invalid"
    )
    assert "`widget_id` is not in the template `/widgets/{widgetId}`" in finding.message
    assert "rename the parameter to `widgetId`" in finding.message
    assert (
        run_rule(make_corpus({"api/openapi.yaml": document("widgetId")}), "openapi-invalid") == []
    )


def test_a_misnamed_path_parameter_of_a_path_item_file_is_reported_where_it_is_written(
    make_corpus: MakeCorpus,
) -> None:
    """The root names `/orgs/{orgId}/users` and keeps its path item in a file of its own, whose
    operations declare `orgID`: the parameter is renamed there, so the finding is there (at
    the operation, as Spectral and Redocly place it), with the template's key related."""
    root = make_corpus(
        {
            "api/openapi.yaml": "openapi: 3.0.3\ninfo: {title: Orgs, version: '1.0.0'}\n"
            "paths:\n  /orgs/{orgId}/users:\n    $ref: ./paths/org-users.yaml\n",
            "api/paths/org-users.yaml": "get:\n  operationId: listOrgUsers\n  parameters:\n"
            "    - {name: orgID, in: path, required: true, schema: {type: string}}\n"
            "  responses:\n    '200': {description: the users}\n",
        }
    )
    [finding] = run_rule(root, "openapi-invalid")
    assert (finding.location.path, finding.location.line) == ("api/paths/org-users.yaml", 1)
    assert finding.location.pointer == "/get"
    assert "`orgID` is not in the template `/orgs/{orgId}/users`" in finding.message
    [template] = finding.related
    assert (template.path, template.line) == ("api/openapi.yaml", 4)


def test_a_duplicate_operation_id_across_path_item_files_names_the_first(
    make_corpus: MakeCorpus,
) -> None:
    """Two path items kept in their own files give their operations one operationId: the
    second is reported at its `operationId` in its file, the first related in its own."""
    root = make_corpus(
        {
            "api/openapi.yaml": "openapi: 3.1.0\ninfo: {title: Shop, version: '1.0.0'}\n"
            "paths:\n  /widgets:\n    $ref: paths/widgets.yaml\n"
            "  /gadgets:\n    $ref: paths/gadgets.yaml\n",
            "api/paths/widgets.yaml": "get:\n  operationId: list\n"
            "  responses:\n    '200': {description: ok}\n",
            "api/paths/gadgets.yaml": "get:\n  operationId: list\n"
            "  responses:\n    '200': {description: ok}\n",
        }
    )
    [finding] = run_rule(root, "openapi-invalid")
    assert (finding.location.path, finding.location.pointer) == (
        "api/paths/gadgets.yaml",
        "/get/operationId",
    )
    [first] = finding.related
    assert (first.path, first.pointer) == ("api/paths/widgets.yaml", "/get/operationId")


# --- a submodule not checked out: not checked, not broken ------------------------------------


def test_refs_into_a_submodule_not_checked_out_are_not_checked_not_broken(
    make_corpus: MakeCorpus,
) -> None:
    import json

    refs = {
        "type": "object",
        "properties": {
            "host": {"$ref": "/sibling/schemas/common.json"},
            "relative": {"$ref": "../sibling/schemas/other.json"},
        },
    }
    files: dict[str, str | bytes] = {
        ".gitmodules": '[submodule "sibling"]\n\tpath = sibling\n\turl = https://example.org/s.git\n',
        "schemas/a.json": json.dumps(refs),
    }
    [finding] = run_rule(make_corpus(files), "unresolved-ref")
    assert finding.severity.label == "info" and finding.message.startswith("not checked")
    assert finding.coverage == "submodule"  # said in the run's summary, not among findings
    assert "`sibling/`" in finding.message and len(finding.related) == 1
    # Checked out, its files are the corpus's: a reference to one it lacks is broken.
    files["sibling/schemas/common.json"] = json.dumps({"type": "string"})
    found = run_rule(make_corpus(files), "unresolved-ref")
    assert found and all(f.severity.label == "error" for f in found)


# --- an example that fails only for a `required` typo: required-undeclared's finding ------------


def _shared_link_api(example: str) -> str:
    # `accessed` is required, `access` is declared: a typo the example cannot satisfy.
    return (
        "openapi: 3.0.3\ninfo: {title: Files, version: '1.0.0'}\npaths:\n"
        "  /files/{id}:\n    get:\n      parameters:\n"
        "        - {name: id, in: path, required: true, schema: {type: string}}\n"
        "      responses:\n        '200':\n          description: ok\n          content:\n"
        "            application/json:\n              schema:\n                type: object\n"
        "                required: [accessed, url]\n                properties:\n"
        "                  access: {type: string}\n                  url: {type: string}\n"
        f"              example: {example}\n"
    )


def test_an_example_lacking_only_a_misspelt_required_member_is_the_typos_finding(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": _shared_link_api("{access: open, url: 'https://x'}")})
    [typo] = run_rule(root, "required-undeclared")
    assert "`accessed` is required" in typo.message and "`access`" in typo.message
    assert run_rule(root, "example-invalid") == []


def test_an_example_failing_for_more_than_the_typo_keeps_its_other_errors(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": _shared_link_api("{access: open}")})
    [finding] = run_rule(root, "example-invalid")
    assert '"url" is a required property' in finding.message
    assert "accessed" not in finding.message and "more error" not in finding.message


def test_a_misspelt_required_member_stays_the_examples_finding_when_the_typo_rule_is_off(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": _shared_link_api("{access: open, url: 'https://x'}"),
            "speclint.toml": '[rules]\nrequired-undeclared = "off"\n',
        }
    )
    [finding] = run_rule(root, "example-invalid")
    assert '"accessed" is a required property' in finding.message


# --- a closed schema's undeclared `required` members: required-undeclared's finding -------------


def _closed_payload_api() -> str:
    # An AsyncAPI 2 message the client publishes: a closed payload requiring a member it does
    # not declare, with no `allOf` anywhere.
    return (
        "asyncapi: 2.4.0\ninfo: {title: Cameras, version: '1.0.0'}\nchannels:\n"
        "  camera.part:\n    publish:\n      message: {$ref: '#/components/messages/Part'}\n"
        "components:\n  messages:\n    Part:\n"
        "      payload: {$ref: '#/components/schemas/Part'}\n  schemas:\n    Part:\n"
        "      type: object\n      additionalProperties: false\n"
        "      required: [path, buffer_ts]\n      properties:\n"
        "        path: {type: string}\n"
    )


def test_a_closed_schemas_undeclared_required_member_is_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/asyncapi.yaml": _closed_payload_api()})
    [typo] = run_rule(root, "required-undeclared")
    assert typo.severity.label == "error" and "`buffer_ts`" in typo.message
    assert run_rule(root, "unsatisfiable-schema") == []


def test_unsatisfiable_schema_never_blames_allof_branches_a_schema_does_not_have(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "api/asyncapi.yaml": _closed_payload_api(),
            "speclint.toml": '[rules]\nrequired-undeclared = "off"\n',
        }
    )
    [finding] = run_rule(root, "unsatisfiable-schema")
    assert "allOf" not in finding.message
    assert "`buffer_ts` is required at `/components/schemas/Part/required`" in finding.message
    assert [r.pointer for r in finding.related] == ["/components/schemas/Part/required"]


def test_a_required_member_whose_schema_has_the_closed_typo_is_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    # The payload requires `part`, whose closed schema requires a member it does not declare.
    api = _closed_payload_api().replace(
        "      payload: {$ref: '#/components/schemas/Part'}\n",
        "      payload:\n        type: object\n        additionalProperties: false\n"
        "        required: [part]\n        properties:\n"
        "          part: {$ref: '#/components/schemas/Part'}\n",
    )
    root = make_corpus({"api/asyncapi.yaml": api})
    [typo] = run_rule(root, "required-undeclared")
    assert typo.severity.label == "error" and "`buffer_ts`" in typo.message
    assert run_rule(root, "unsatisfiable-schema") == []


# --- the typo is left to required-undeclared only when the run runs it -------------------------


def _rules_reporting(root: Path, **chosen: tuple[str, ...]) -> list[str]:
    """The rule of each finding of a run of the engine on ``root`` (the rule cache on: a run of
    another selection must not answer from it)."""
    outcome = lint(root, Options(**chosen))  # type: ignore[arg-type]
    return sorted(f.rule for f in outcome.findings)


def test_the_typo_in_an_example_is_reported_once_whichever_rules_the_run_runs(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": _shared_link_api("{access: open, url: 'https://x'}")})
    both = ("required-undeclared", "example-invalid")
    assert _rules_reporting(root, rules=both) == ["required-undeclared"]
    assert _rules_reporting(root, rules=both, ignore=("required-undeclared",)) == [
        "example-invalid"
    ]
    assert _rules_reporting(root, rules=("example-invalid",)) == ["example-invalid"]
    (root / "speclint.toml").write_text('ignore = ["required-undeclared"]\n', encoding="utf-8")
    assert _rules_reporting(root, rules=both) == ["required-undeclared"]  # the flag wins
    assert "example-invalid" in _rules_reporting(root)


def test_a_schema_unsatisfiable_for_a_closed_typo_is_reported_once_whichever_rules_run(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/asyncapi.yaml": _closed_payload_api()})
    both = ("required-undeclared", "unsatisfiable-schema")
    assert _rules_reporting(root, rules=both) == ["required-undeclared"]
    assert _rules_reporting(root, rules=both, ignore=("required-undeclared",)) == [
        "unsatisfiable-schema"
    ]
    assert _rules_reporting(root, rules=("unsatisfiable-schema",)) == ["unsatisfiable-schema"]
