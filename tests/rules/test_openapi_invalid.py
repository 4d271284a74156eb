"""``openapi-invalid`` on fixtures written here, one test a case, named after it. The rule: an
OpenAPI document that fails the OpenAPI specification."""

from __future__ import annotations

import importlib
import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from jsonschema import validators
from test_overlay_breaks_document import overlay
from test_provenance import BEDS, FLATTEN_SCRIPT, GARDEN_FLAT, GARDEN_SOURCE, findings

from conftest import dedented as yaml_text
from conftest import findings_of, run_cli, run_rule
from speclint.analyses import units
from speclint.analyses.api import inlining, openapi_validation
from speclint.analyses.context import Context
from speclint.analyses.prose import enumerations
from speclint.analyses.repository.provenance import BUNDLE
from speclint.analyses.schemas.validation import install_safe_patterns
from speclint.common.findings import Finding, Severity
from speclint.model.config import load_config
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.rules import openapi_invalid
from speclint.run import catalog, runner

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


BUNDLE_SCRIPT = FLATTEN_SCRIPT.replace("swagger flatten", "redocly bundle").replace(
    " --format yaml", ""
)


@pytest.mark.parametrize("script", [FLATTEN_SCRIPT, BUNDLE_SCRIPT], ids=["flatten", "bundle"])
def test_a_bundlers_output_named_by_variables_is_its_sources_bundle(
    make_corpus: MakeCorpus, script: str
) -> None:
    root = make_corpus(
        {
            "tools/build.sh": script,
            "src/garden.yml": GARDEN_SOURCE,
            "src/paths/beds.yml": BEDS,
            "garden.yml": GARDEN_FLAT,
        }
    )
    made = Context.load(root).provenance["garden.yml"]
    assert made.kind == BUNDLE
    assert made.sources == ("src/garden.yml",)
    assert "tools/build.sh:9" in made.evidence  # the command itself, not its `echo`
    # The defect (a response without its description) is reported once, at the source.
    invalid = [f for f in findings(root) if f["rule"] == "openapi-invalid"]
    assert {f["location"]["path"] for f in invalid} == {"src/garden.yml"}


BAD_PATH_SOURCE = yaml_text(
    """
    openapi: 3.0.3
    info: {title: Kennel, version: 1.0.0}
    paths:
      /dogs/{dogId}:
        $ref: ./paths/dog.yaml
    """
)


BAD_PATH = yaml_text(
    """
    get:
      responses:
        '200': {description: the dog}
    """
)


BAD_PATH_BUNDLED = yaml_text(
    """
    openapi: 3.0.3
    info: {title: Kennel, version: 1.0.0}
    x-rendered-for: codegen
    paths:
      /dogs/{dogId}:
        get:
          responses:
            '200': {description: the dog}
    """
)


def test_a_generated_files_defect_its_source_has_is_reported_once(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        "specs/kennel.yaml": BAD_PATH_SOURCE,
        "specs/paths/dog.yaml": BAD_PATH,
        "dist/kennel-codegen.yaml": BAD_PATH_BUNDLED,
    }
    invalid = [f for f in findings(make_corpus(files)) if f["rule"] == "openapi-invalid"]
    # The path parameter no operation declares is reported at the source, and once only: at
    # the operation where it is written (its own file, which the root names by `$ref`).
    assert [f["location"]["path"] for f in invalid] == ["specs/paths/dog.yaml"]


def test_a_components_schemas_map_written_as_a_ref_is_inlined_as_its_bundle_reads(
    make_corpus: MakeCorpus,
) -> None:
    """`components: {schemas: {$ref: ./schemas/_index.yaml}}`: redocly bundle replaces the map
    as it replaces `paths: {$ref: …}`; read as written its `$ref` member was a schema named `$ref`
    whose value (a string) is no schema. Inlined, the map's own defects are still reported, in
    the file they are written in."""
    api = (
        "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n"
        "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        "components:\n  schemas:\n    $ref: ./schemas/_index.yaml\n"
    )
    index = "Thing:\n  $ref: ./Thing.yaml\nOther:\n  type: object\n  required: 5\n"
    root = make_corpus(
        {
            "api/openapi.yaml": api,
            "api/schemas/_index.yaml": index,
            "api/schemas/Thing.yaml": "type: object\nproperties:\n  id: {type: string}\n",
        }
    )
    found = run_rule(root, "openapi-invalid")
    assert not [f for f in found if f.location.pointer == "/components/schemas/$ref"], found
    [defect] = found
    assert defect.location.path == "api/schemas/_index.yaml"
    assert defect.location.line == 5


API_SOURCES = (
    "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n"
    "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n"
)


def _report(root: Path) -> tuple[int, list[dict[str, object]]]:
    result = run_cli("check", str(root), "--preview", "--no-cache", "--quiet", "--format", "json")
    return result.exit_code, json.loads(result.output)["findings"]


def test_a_component_that_is_no_object_is_read_past(make_corpus: MakeCorpus) -> None:
    """`components.requestBodies.X: "text"`: the roles analysis asked it for its `content` and
    the whole run ended in an internal error (exit 2, no report). It is openapi-invalid's
    finding, and every rule runs."""
    api = API_SOURCES + "components:\n  requestBodies:\n    Broken: just text\n"
    code, findings = _report(make_corpus({"api/openapi.yaml": api}))
    assert code == 1
    assert {f["rule"] for f in findings} == {"openapi-invalid"}


def swagger_findings(make_corpus: MakeCorpus, api: str) -> list[Finding]:
    """openapi-invalid's findings on ``api`` as a Swagger 2.0 document, its notes left out."""
    return [
        f
        for f in run_rule(make_corpus({"api/swagger.yaml": api}), "openapi-invalid")
        if not f.coverage
    ]


def test_a_swagger_2_default_that_stands_for_unset_is_no_error(make_corpus: MakeCorpus) -> None:
    """openapi-invalid judges Swagger 2.0's schema defaults itself (value-invalid does not read
    Swagger 2.0): with value-invalid's conventions, so `default: ""` under `format: email` (an
    empty string for "unset") is no error, while a default of the wrong type still is."""
    head = "swagger: '2.0'\ninfo: {title: T, version: '1'}\n"
    api = head + (
        "paths:\n  /m:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        "          schema:\n            type: object\n            properties:\n"
        "              from: {type: string, format: email, default: ''}\n"
        "              count: {type: string, default: 5}\n"
    )
    [finding] = swagger_findings(make_corpus, api)
    assert finding.location.pointer.endswith("/count/default"), finding.message


def test_a_swagger_2_definitions_error_is_reported_where_the_definition_is_written(
    make_corpus: MakeCorpus,
) -> None:
    """The validator walks a definition through each `$ref` that uses it, and a shared
    parameter through each operation: the error is said once, at the definition or parameter,
    not at the first response or operation that happened to reach it."""
    api = yaml_text(
        """\
        swagger: "2.0"
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              parameters: [{$ref: "#/parameters/since"}]
              responses: {"200": {description: ok, schema: {$ref: "#/definitions/Rate"}}}
          /b:
            get:
              responses: {"200": {description: ok, schema: {$ref: "#/definitions/Rate"}}}
        parameters:
          since: {name: since, in: query, type: string, format: date, default: yesterday}
        definitions:
          Rate:
            type: object
            properties:
              value: {type: number, default: "0.2"}
        """
    )
    found = swagger_findings(make_corpus, api)
    assert sorted(f.location.pointer for f in found) == [
        "/definitions/Rate/properties/value/default",
        "/parameters/since",
    ], [f.message for f in found]


def test_a_swagger_2_tuple_items_list_is_no_error_but_its_schemas_are_judged(
    make_corpus: MakeCorpus,
) -> None:
    """Swagger 2.0 takes `items` from JSON Schema draft 4, where a list of schemas is a tuple
    (the official 2.0 schema accepts it; openapi-spec-validator's walker refused the list):
    no error for the list, and each schema in it is still judged."""
    api = yaml_text(
        """\
        swagger: "2.0"
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              responses: {"200": {description: ok, schema: {$ref: "#/definitions/Pair"}}}
        definitions:
          Pair:
            type: array
            items:
              - {type: string}
              - {type: integer, minimum: low}
        """
    )
    found = swagger_findings(make_corpus, api)
    assert [f.location.pointer for f in found] == ["/definitions/Pair/items/1/minimum"]


TEMPLATE = """\
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      responses: {"200": {description: ok}}
components:
  responses:
    #REF_SHARED_RESPONSES
"""


@pytest.mark.parametrize("scripted", [True, False])
def test_a_member_left_empty_over_a_marker_the_build_fills_is_the_builds(
    make_corpus: MakeCorpus, scripted: bool
) -> None:
    """A template's `responses:` over only `#REF_SHARED_RESPONSES`, which the build's `sed`
    replaces by a file's text, is no defect of the template: a note of what was not judged.
    Without a build line naming the marker it is an empty member, an error."""
    # a line continued by `\`, as build scripts chain their steps
    build = (
        "sed -e '/#REF_SHARED_RESPONSES/{r src/responses.yml' -e 'd}' src/api.yml > api.yml && \\\n"
        "  echo built\n"
    )
    files: dict[str, str | bytes] = {"src/api.yml": TEMPLATE}
    if scripted:
        files["scripts/build.sh"] = "#!/bin/sh\n" + build
    found = run_rule(make_corpus(files), "openapi-invalid")
    assert [f.coverage for f in found] == (["build-placeholder"] if scripted else [None])
    assert found[0].location.pointer == "/components/responses"


def test_a_page_whose_value_sets_fail_to_build_leaves_the_other_pages_primed(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run builds each page's value sets before the rules fork: one page that meets an input
    speclint did not foresee is rebuilt (and fails) in each rule that reads it, but the other
    pages' sets are still built once, not once per rule."""
    real = enumerations._prose_sets

    def broken_on_a(document: Document) -> list[enumerations.ProseSet]:
        if document.path == "docs/a.md":
            raise AttributeError("an input nobody foresaw")
        return real(document)

    monkeypatch.setattr(enumerations, "_prose_sets", broken_on_a)
    page = "# P\n\nThe mode is one of `on` or `off`.\n"
    root = make_corpus({"docs/a.md": page, "docs/b.md": page, "docs/c.md": page})
    corpus = Context.load(root, load_config(root))
    runner.prime(corpus, prose=True)  # as for a run with a rule that reads them
    primed = {p for p, d in corpus.documents.items() if "prose_sets" in d.derived}
    assert primed == {"docs/b.md", "docs/c.md"}


def test_a_rule_that_leaves_a_defect_to_no_rule_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`LEAVES_TO` names the rules a rule leaves a defect to when they run; a misspelt id would
    read as "not run" and the rule would quietly report the defect itself. The catalog refuses it."""
    folder = tmp_path / "fake_rules"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    body = "SEVERITY = None\nREADS = 'all'\ndef check(corpus, options):\n    return iter(())\n"
    (folder / "alpha.py").write_text(f"ID = 'alpha'\nLEAVES_TO = ('beta',)\n{body}")
    (folder / "beta.py").write_text(f"ID = 'beta'\n{body}")
    monkeypatch.syspath_prepend(str(tmp_path))
    fake = importlib.import_module("fake_rules")
    monkeypatch.setattr(catalog, "package", fake)
    catalog.all_rules.cache_clear()
    try:
        assert catalog.all_rules()["alpha"].leaves_to == ("beta",)
        catalog.all_rules.cache_clear()
        (folder / "alpha.py").write_text(f"ID = 'alpha'\nLEAVES_TO = ('betta',)\n{body}")
        sys.modules.pop("fake_rules.alpha", None)
        with pytest.raises(RuntimeError, match="LEAVES_TO names no rule"):
            catalog.all_rules()
    finally:
        catalog.all_rules.cache_clear()


def _piece(name: str, real_error: bool = False) -> str:
    """One namespace of an API kept in pieces, named by the repository's own convention
    (`name@200`, `name::query.x`), which its merger renames; responses without descriptions."""
    operation: dict[str, object] = {
        "operationId": f"{name}.get",
        "parameters": [
            {"$ref": f"#/components/parameters/{name}::query.{p}"} for p in ("a", "b", "c")
        ],
        "responses": {
            "200": {"$ref": f"#/components/responses/{name}@200"},
            "404": {"$ref": f"#/components/responses/{name}@404"},
        },
    }
    if real_error:
        operation["parameters"].append(  # type: ignore[attr-defined]
            {"name": "q", "in": "body", "schema": {"type": "string"}}
        )
    data = {
        "openapi": "3.1.0",
        "info": {"title": f"The {name} API", "version": "1.0.0"},
        "paths": {f"/{name}": {"get": operation}},
        "components": {
            "parameters": {
                f"{name}::query.{p}": {"name": p, "in": "query", "schema": {"type": "string"}}
                for p in ("a", "b", "c")
            },
            "responses": {
                f"{name}@{code}": {"content": {"application/json": {"schema": {}}}}
                for code in ("200", "404")
            },
        },
    }
    return yaml.safe_dump(data, sort_keys=False)


PIECES = {
    "api/namespaces/plants.yaml": _piece("plants", real_error=True),
    "api/namespaces/seeds.yaml": _piece("seeds"),
    "package.json": json.dumps(
        {"name": "garden-api-tools", "scripts": {"merge": "node tools/merger/merge.js"}}
    ),
}


WORKFLOW = """\
name: Build
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: npm ci && npm run merge -- --source ./api --output build/garden.yaml
"""


def test_a_key_naming_convention_is_one_finding_per_components_map(
    make_corpus: MakeCorpus,
) -> None:
    """Without evidence of a merge, the component keys that break the name pattern the same way
    are one convention: one finding per components map of a document, the other keys related,
    not one finding a key (2,723 in one repository)."""
    root = make_corpus(dict(PIECES))
    found = [f for f in run_rule(root, "openapi-invalid") if f.coverage is None]
    plants = [f for f in found if f.location.path == "api/namespaces/plants.yaml"]
    keys = [f for f in plants if "does not match" in f.message]
    assert sorted(f.message.split(":")[0] for f in keys) == [
        "/components/parameters",
        "/components/responses",
    ]
    [parameters] = [f for f in keys if f.message.startswith("/components/parameters")]
    assert len(parameters.related) == 2
    assert "3 keys" in parameters.message
    assert any("'body' is not one of" in f.message or '"body"' in f.message for f in plants)


def test_the_pieces_a_merge_step_takes_are_not_judged_for_what_the_merge_fixes(
    make_corpus: MakeCorpus,
) -> None:
    """A workflow runs the repository's own merge over the folder (`npm run merge -- --source
    ./api`): its API documents are pieces of the API the build assembles. What a merger
    rewrites (component key names, a response's missing description) is not reported there;
    a real error in a piece still is, and the piece is listed as coverage."""
    root = make_corpus({**PIECES, ".github/workflows/build.yml": WORKFLOW})
    found = run_rule(root, "openapi-invalid")
    errors = [f for f in found if f.coverage is None]
    assert not [f for f in errors if "does not match" in f.message], errors
    assert not [f for f in errors if '"description" is a required' in f.message], errors
    [real] = errors
    assert real.location.path == "api/namespaces/plants.yaml"
    assert "body" in real.message
    notes = [f for f in found if f.coverage == "build-source"]
    assert sorted(f.location.path for f in notes) == [
        "api/namespaces/plants.yaml",
        "api/namespaces/seeds.yaml",
    ]


def test_a_merge_command_on_a_folder_without_api_documents_changes_nothing(
    make_corpus: MakeCorpus,
) -> None:
    workflow = WORKFLOW.replace("--source ./api", "--source ./docs")
    root = make_corpus(
        {**PIECES, ".github/workflows/build.yml": workflow, "docs/readme.md": "# Docs\n"}
    )
    found = [f for f in run_rule(root, "openapi-invalid") if f.coverage is None]
    assert [f for f in found if '"description" is a required' in f.message]


def _errors(found: list) -> list:  # type: ignore[type-arg]
    return [f for f in found if f.coverage is None]


LIBRARY = textwrap.dedent(
    """\
    openapi: 3.0.3
    info: {title: Shared schemas, version: '1.0.0'}
    components:
      schemas:
        Thing:
          type: object
          properties:
            name: {type: string}
    """
)


SERVICE = textwrap.dedent(
    """\
    openapi: 3.0.3
    info: {title: Things, version: '1.0.0'}
    paths:
      /things:
        get:
          responses:
            '200':
              description: the things
              content:
                application/json:
                  schema:
                    $ref: '%s#/components/schemas/Thing'
    """
)


def test_a_swaggerhub_domain_is_not_required_to_have_paths(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "Shared-Schemas/openapi.yaml": LIBRARY,
            "Things/openapi.yaml": SERVICE
            % "https://api.swaggerhub.com/domains/acme/Shared-Schemas/1.0.0",
        }
    )
    found = run_rule(root, "openapi-invalid")
    assert _errors(found) == [], found
    [note] = found
    assert note.coverage == "component-library" and "Shared-Schemas" in note.message


def test_a_components_only_document_without_domain_evidence_still_needs_paths(
    make_corpus: MakeCorpus,
) -> None:
    # Referenced for its components by a plain URL (published for any OpenAPI 3.0 tool, which
    # rejects it without `paths`): still an error.
    root = make_corpus(
        {
            "core/openapi/shared.yaml": LIBRARY,
            "ext/openapi.yaml": SERVICE
            % "https://raw.githubusercontent.com/acme/things/main/core/openapi/shared.yaml",
        }
    )
    found = _errors(run_rule(root, "openapi-invalid"))
    assert [f.location.path for f in found] == ["core/openapi/shared.yaml"], found
    assert '"paths" is a required property' in found[0].message


def test_a_document_whose_header_says_it_is_a_domain_is_not_required_to_have_paths(
    make_corpus: MakeCorpus,
) -> None:
    header = "# OpenAPI version identifier - required for OpenAPI 3.0 domains\n"
    found = run_rule(make_corpus({"Old-Schemas/openapi.yaml": header + LIBRARY}), "openapi-invalid")
    assert [f.coverage for f in found] == ["component-library"], found


def test_a_comment_about_the_domain_model_is_no_domain_evidence(make_corpus: MakeCorpus) -> None:
    header = "# The shared domain model of the shop\n"
    found = run_rule(make_corpus({"model/openapi.yaml": header + LIBRARY}), "openapi-invalid")
    assert [f.coverage for f in found] == [None], found


def api(version: str = "1.0.0", extra: str = "") -> str:
    return (
        yaml_text(
            f"""
        openapi: 3.1.0
        info: {{title: Widgets, version: "{version}"}}
        paths: {{}}
        """
        )
        + extra
    )


def test_a_bundler_configuration_with_an_openapi_section_is_not_an_api_document(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "redocly.yaml": yaml_text(
                """
                apis:
                  main: {root: openapi/openapi.yaml}
                openapi:
                  theme: {colors: {primary: {main: '#123456'}}}
                """
            ),
            "openapi/openapi.yaml": api(),
        }
    )
    corpus = Context.load(root, load_config(root))
    assert corpus.documents["redocly.yaml"].kind is DocumentKind.DATA
    assert run_rule(root, "openapi-invalid") == []


def test_a_text_file_ref_where_a_string_belongs_is_the_bundlers_business(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "openapi/api.yaml": yaml_text(
                """
                openapi: 3.0.3
                info:
                  title: Widgets
                  version: "1.0"
                  description: {$ref: ./intro.md}
                tags:
                  - name: About
                    description: {$ref: ./tags/about.md}
                  - name: Broken
                    description: {$ref: ./tags/missing.md}
                paths: {}
                """
            ),
            "openapi/intro.md": "# Intro\n",
            "openapi/tags/about.md": "About.\n",
        }
    )
    found = run_rule(root, "openapi-invalid")
    assert [f.location.pointer for f in found] == ["/tags/1/description/$ref"]
    assert "missing.md" in found[0].message


def test_a_docs_only_openapi_30_document_without_paths_is_a_notice(
    make_corpus: MakeCorpus,
) -> None:
    docs_only = yaml_text(
        """
        openapi: 3.0.3
        info: {title: Background, version: "1.0"}
        tags: [{name: About, description: Prose only.}]
        """
    )
    components_only = yaml_text(
        """
        openapi: 3.0.3
        info: {title: Parts, version: "1.0"}
        components: {schemas: {Widget: {type: object}}}
        """
    )
    root = make_corpus({"docs/openapi.yaml": docs_only, "parts/openapi.yaml": components_only})
    found = {f.location.path: f.severity for f in run_rule(root, "openapi-invalid")}
    assert found == {"docs/openapi.yaml": Severity.INFO, "parts/openapi.yaml": Severity.ERROR}


SPLIT_API = """
openapi: 3.0.3
info: {title: Widgets, version: "1"}
tags:
  - name: Intro
    description:
      $ref: texts.yaml#/intro
paths:
  /widgets:
    get:
      $ref: ops/list.yaml
    post:
      $ref: ops/missing.yaml
"""


LIST_OPERATION = """
operationId: listWidgets
parameters:
  - $ref: ../params/limit.yaml
responses:
  "200":
    description: The widgets.
    content:
      application/json:
        schema: {type: array, items: {type: string}}
"""


def split_api(operation: str = LIST_OPERATION) -> dict[str, str]:
    return {
        "api/openapi.yaml": yaml_text(SPLIT_API),
        "api/texts.yaml": "intro: The widgets API.\n",
        "api/ops/list.yaml": yaml_text(operation),
        "api/params/limit.yaml": yaml_text("name: limit\nin: query\nschema: {type: integer}\n"),
    }


def test_an_openapi_release_without_a_shipped_schema_is_not_checked(
    make_corpus: MakeCorpus,
) -> None:
    later = yaml_text(
        """
        openapi: 3.9.0
        info: {title: Widgets, version: "1"}
        paths: {}
        """
    )
    wrong = later.replace("3.9.0", '"3.0"')
    root = make_corpus({"api/later.yaml": later, "api/wrong.yaml": wrong})
    found = {f.location.path: f for f in run_rule(root, "openapi-invalid")}
    assert found["api/later.yaml"].severity is Severity.INFO
    assert "not checked" in found["api/later.yaml"].message
    assert found["api/later.yaml"].coverage == "no-schema"
    assert found["api/wrong.yaml"].coverage is None
    assert found["api/wrong.yaml"].severity is Severity.ERROR


def test_a_swagger_document_is_named_as_swagger_in_its_messages(make_corpus: MakeCorpus) -> None:
    # "fix it so the document is valid OpenAPI " (no version): a Swagger 2.0 document has none.
    swagger = yaml_text(
        """
        swagger: "2.0"
        info: {title: Widgets, version: "1"}
        paths:
          /a:
            get:
              responses:
                "200": {description: ok, schema: {type: object, minProperties: many}}
        """
    )
    root = make_corpus({"api/swagger.yaml": swagger})
    errors = [f for f in run_rule(root, "openapi-invalid") if f.severity is Severity.ERROR]
    assert errors and all(f.message.endswith("valid Swagger 2.0") for f in errors)


def test_an_error_inside_an_inlined_operation_is_reported_in_its_file(
    make_corpus: MakeCorpus,
) -> None:
    # The operation's own content is checked as the bundle holds it, and the error is placed in
    # the file it is written in, at its line.
    broken = LIST_OPERATION.replace("    description: The widgets.\n", "")
    root = make_corpus(split_api(broken))
    [finding] = run_rule(root, "openapi-invalid")
    assert finding.location.path == "api/ops/list.yaml"
    assert finding.location.pointer == "/responses/200"
    assert finding.location.line == 5  # `"200":` in ops/list.yaml
    assert '"description" is a required property' in finding.message
    assert "`api/openapi.yaml` reaches this file by `$ref`" in finding.message


def test_a_ref_that_contains_itself_is_one_finding(make_corpus: MakeCorpus) -> None:
    cyclic = yaml_text(
        """
        openapi: 3.0.3
        info: {title: Widgets, version: "1"}
        paths:
          /widgets:
            get:
              $ref: "#/paths/~1widgets"
        """
    )
    root = make_corpus({"api/openapi.yaml": cyclic})
    [finding] = run_rule(root, "openapi-invalid")
    assert finding.location.pointer == "/paths/~1widgets/get"
    assert "contains it" in finding.message


def test_a_properties_map_in_an_openapi_31_document_is_inlined(make_corpus: MakeCorpus) -> None:
    # OpenAPI 3.1's own schema does not look inside schema objects; the dialect's metaschema
    # said `/…/properties/$ref: "…" is not of type "object", "boolean"`.
    document = yaml_text(
        """
        openapi: 3.1.0
        info: {title: Widgets, version: "1"}
        paths:
          /widgets:
            get:
              responses:
                "200":
                  description: The widgets.
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          $ref: parts.yaml#/widget_fields
        """
    )
    parts = "widget_fields:\n  id: {type: string}\n"
    root = make_corpus({"api/openapi.yaml": document, "api/parts.yaml": parts})
    assert run_rule(root, "openapi-invalid") == []
    root = make_corpus(
        {"api/openapi.yaml": document, "api/parts.yaml": parts.replace("string", "strin")}
    )
    [finding] = run_rule(root, "openapi-invalid")
    assert (finding.location.path, finding.location.pointer) == (
        "api/parts.yaml",
        "/widget_fields/id/type",
    )


def test_a_source_past_the_inlining_budget_is_said_not_checked(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Bounded: a target larger than what is left of the budget is not inlined, and that is a
    # note that it was not checked, not an error of the document.
    monkeypatch.setattr(inlining, "BUDGET", 5)
    root = make_corpus(split_api())
    found = run_rule(root, "openapi-invalid")
    assert [f for f in found if f.severity is not Severity.INFO] == []
    notes = [f for f in found if "not checked" in f.message]
    assert [n.location.pointer for n in notes] == ["/paths/~1widgets/get"]
    assert [n.coverage for n in notes] == ["not-inlined"]


def test_an_inlined_piece_is_quoted_as_its_file_writes_it(make_corpus: MakeCorpus) -> None:
    # Inlined, a piece's `$ref`s are rebased onto the document (`../params/limit.yaml` becomes
    # `params/limit.yaml`); a message about the piece quotes them as its file writes them.
    broken = LIST_OPERATION.replace(
        '  "200":\n', '  "404":\n    - $ref: ../params/limit.yaml\n  "200":\n'
    )
    [finding] = run_rule(make_corpus(split_api(broken)), "openapi-invalid")
    assert finding.location.path == "api/ops/list.yaml"
    assert '"../params/limit.yaml"' in finding.message


def test_a_target_named_by_an_anchor_is_inlined_and_checked(make_corpus: MakeCorpus) -> None:
    # `properties: {$ref: attributes.yaml#ids}`: a schema map kept in a file, named by the
    # `$anchor` of the schema that holds it, as the reference index resolves it.
    api = yaml_text(
        """
        openapi: 3.1.0
        info: {title: Widgets, version: "1"}
        paths: {}
        components:
          schemas:
            Widget:
              type: object
              properties:
                $ref: attributes.yaml#ids
        """
    )
    attributes = yaml_text(
        """
        $anchor: ids
        id: {type: string}
        size: {type: 12}
        """
    )
    root = make_corpus({"api/openapi.yaml": api, "api/attributes.yaml": attributes})
    found = run_rule(root, "openapi-invalid")
    assert [f.location.path for f in found] == ["api/attributes.yaml"], [f.message for f in found]


def test_what_a_unit_reads_is_within_what_its_refs_reach(make_corpus: MakeCorpus) -> None:
    # The rules' unit keys are `units.reach` (made without validating): every file the view
    # inlines and every part openapi-invalid reads must be in it, through a relative path, a
    # chain of inlined pieces, a `[ref-map]` URL and an anchor alike.
    chained = LIST_OPERATION + "x-note: none\n"
    files = split_api(chained)
    files["api/openapi.yaml"] = files["api/openapi.yaml"].replace(
        "$ref: ops/missing.yaml", "$ref: https://widgets.example/api/ops/more.yaml"
    )
    files["api/ops/more.yaml"] = yaml_text(
        """
        operationId: moreWidgets
        description:
          $ref: ../texts.yaml#/intro
        requestBody:
          $ref: ../bodies/widget.yaml
        responses:
          default:
            $ref: ../responses/error.yaml
        """
    )
    files["api/bodies/widget.yaml"] = yaml_text(
        """
        content:
          application/json:
            schema:
              type: object
              properties:
                $ref: ../attributes.yaml#ids
        """
    )
    files["api/attributes.yaml"] = "$anchor: ids\nid: {type: string}\n"
    files["api/responses/error.yaml"] = "description: An error.\n"
    files["speclint.toml"] = '[ref-map]\n"https://widgets.example/api/" = "api/"\n'
    root = make_corpus(files)
    corpus = Context.load(root, load_config(root))
    document = corpus.documents["api/openapi.yaml"]
    reached = set(units.reach(corpus, document.path))
    view = openapi_validation._inlined(corpus, document)
    parts = {part.path for part, _, _ in openapi_validation._api_parts(corpus, document)}
    assert {"api/ops/list.yaml", "api/ops/more.yaml", "api/texts.yaml"} <= view.files()
    assert view.files() <= reached
    assert parts - {document.path} <= reached
    assert "api/attributes.yaml" in reached and "api/responses/error.yaml" in reached
    assert openapi_invalid.unit_reach(corpus, document) == sorted(reached)


# The corpus-integrity rules, each with the PASS and FAIL cases of its docstring.


OPENAPI_HEAD = "openapi: 3.1.0\ninfo:\n  title: Runs\n  version: 1.0.0\n"


def test_openapi_invalid_fail_and_pass(make_corpus: MakeCorpus) -> None:
    doc = OPENAPI_HEAD + (
        "paths:\n  /v1/runs/{runId}:\n    get:\n      parameters:\n        - {name: runId, in: path, required: true, schema: {type: string}}\n"
        "      responses:\n        '200':\n          content: {application/json: {schema: {type: object}}}\n"
    )
    root = make_corpus({"api/openapi.yaml": doc})
    [finding] = findings_of("openapi-invalid", root)
    assert '"description" is a required property' in finding.message
    assert finding.location.pointer == "/paths/~1v1~1runs~1{runId}/get/responses/200"
    assert finding.location.line == 11
    (root / "api/openapi.yaml").write_text(
        doc.replace("'200':\n", "'200':\n          description: The run.\n")
    )
    assert findings_of("openapi-invalid", root) == []


def test_openapi_invalid_locates_the_semantic_errors_at_their_nodes(
    make_corpus: MakeCorpus,
) -> None:
    """openapi-spec-validator's own checks carry no path: each is placed at its node, a repeated
    name at the repetition with the first as related, and no `<unset>` keyword."""
    doc = OPENAPI_HEAD + (
        "tags:\n  - name: runs\n  - name: runs\n"
        "paths:\n  /v1/runs:\n    get:\n      operationId: listRuns\n"
        "      responses: {'200': {description: ok}}\n"
        "    post:\n      operationId: listRuns\n      responses: {'200': {description: ok}}\n"
        "  /v1/runs/{runId}:\n    get:\n      operationId: getRun\n      parameters:\n"
        "        - {name: verbose, in: query, schema: {type: boolean}}\n"
        "        - {name: verbose, in: query, schema: {type: boolean}}\n"
        "      responses: {'200': {description: ok}}\n"
    )
    root = make_corpus({"api/openapi.yaml": doc})
    found = {f.location.pointer: f for f in findings_of("openapi-invalid", root)}
    assert all("<unset>" not in f.message for f in found.values())
    operation = found["/paths/~1v1~1runs/post/operationId"]
    assert (operation.location.line, operation.location.column) == (14, 7)
    assert '"listRuns"' in operation.message and "operationId of its own" in operation.message
    [first] = operation.related
    assert (first.line, first.pointer) == (11, "/paths/~1v1~1runs/get/operationId")
    parameter = found["/paths/~1v1~1runs~1{runId}/get/parameters/1/name"]
    assert parameter.location.line == 21
    assert parameter.related[0].pointer.endswith("/parameters/0/name")
    assert found["/tags/1/name"].related[0].line == 6
    unresolved = found["/paths/~1v1~1runs~1{runId}/get"]
    assert '"runId"' in unresolved.message and unresolved.location.line == 17
    fixed = (
        doc.replace(
            "    post:\n      operationId: listRuns", "    post:\n      operationId: startRun"
        )
        .replace("  - name: runs\n  - name: runs\n", "  - name: runs\n")
        .replace(
            "        - {name: verbose, in: query, schema: {type: boolean}}\n" * 2,
            "        - {name: verbose, in: query, schema: {type: boolean}}\n"
            "        - {name: runId, in: path, required: true, schema: {type: string}}\n",
        )
    )
    (root / "api/openapi.yaml").write_text(fixed)
    assert findings_of("openapi-invalid", root) == []


def test_openapi_invalid_still_checks_past_a_missing_ref(make_corpus: MakeCorpus) -> None:
    doc = OPENAPI_HEAD + (
        "paths:\n  /v1/runs:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        "          content: {application/json: {schema: {$ref: '../schemas/missing.schema.json'}}}\n"
        "    post:\n      responses:\n        '201':\n          content: {}\n"
    )
    root = make_corpus({"api/openapi.yaml": doc})
    assert any("description" in f.message for f in findings_of("openapi-invalid", root))


def test_openapi_invalid_reads_patterns_as_ecma_262(make_corpus: MakeCorpus) -> None:
    # JSON Schema patterns are ECMA-262 (2020-12 Validation, section 6.3.3): Unicode property
    # escapes and `(?<name>...)` groups are valid there, though Python's `re` rejects them.
    def schemas(pattern: str) -> Path:
        doc = OPENAPI_HEAD + (
            "paths: {}\ncomponents:\n  schemas:\n"
            f"    Name: {{type: string, pattern: '{pattern}'}}\n"
        )
        return make_corpus({"api/openapi.yaml": doc})

    assert findings_of("openapi-invalid", schemas(r"^\p{L}+$")) == []
    assert findings_of("openapi-invalid", schemas(r"^(?<word>\w+)$")) == []
    [broken] = findings_of("openapi-invalid", schemas("^(("))
    assert broken.location.pointer == "/components/schemas/Name/pattern"
    assert 'is not a "regex"' in broken.message


def test_openapi_invalid_judges_jsonschema_dialects_first_with_the_run_s_classes(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A schema object naming a JSON Schema dialect (`$schema`) is judged by jsonschema-rs
    first also with the run's time-limited draft classes registered, as every run has them
    (``install_safe_patterns``): their ``check_schema`` is jsonschema's, in a function of its
    own. They were missed, and such objects went to the Python metaschema validator alone
    (0.7 s of a cold check of OpenWOP, nine schema objects)."""
    install_safe_patterns()
    dialect = "https://json-schema.org/draft/2020-12/schema"
    registered = validators.validator_for({"$schema": dialect})
    asked: list[object] = []
    original = registered.iter_errors

    def counting(self: object, instance: object, *args: object, **kwargs: object) -> object:
        asked.append(instance)
        return original(self, instance, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(registered, "iter_errors", counting)
    doc = OPENAPI_HEAD + (
        "paths: {}\ncomponents:\n  schemas:\n"
        f"    Name:\n      $schema: {dialect}\n      type: string\n      pattern: '^[a-z]+$'\n"
    )
    assert findings_of("openapi-invalid", make_corpus({"api/openapi.yaml": doc})) == []
    assert asked == []
    # A schema it rejects is still explained by the Python validator, at its place.
    broken = doc.replace("type: string", "type: strin")
    [finding] = findings_of("openapi-invalid", make_corpus({"api/openapi.yaml": broken}))
    assert finding.location.pointer.startswith("/components/schemas/Name"), finding
    assert asked


@pytest.mark.parametrize(
    ("pattern", "invalid"),
    [(r"^\p{L}+$", False), (r"[\d-z]", False), (r"\h", False), ("(?i)a", True), ("(?P<x>a)", True)],
)
def test_a_schema_object_naming_its_dialect_reads_patterns_as_ecma_262_too(
    make_corpus: MakeCorpus, pattern: str, invalid: bool
) -> None:
    """With `$schema` in the object (and the run's time-limited draft classes registered, as in
    every run), a `pattern` is still judged by OpenAPI 3.1's ECMA-262 `regex` format, as the
    library judges it: not by Python's `re` (which accepts `(?i)a` and rejects `[\\d-z]`)."""
    install_safe_patterns()
    doc = OPENAPI_HEAD + (
        "paths: {}\ncomponents:\n  schemas:\n"
        "    Name:\n      $schema: https://json-schema.org/draft/2020-12/schema\n"
        f"      type: string\n      pattern: '{pattern}'\n"
    )
    found = findings_of("openapi-invalid", make_corpus({"api/openapi.yaml": doc}))
    assert bool(found) == invalid, found
    for finding in found:
        assert finding.location.pointer == "/components/schemas/Name/pattern"
        assert 'is not a "regex"' in finding.message


def test_a_schema_object_naming_its_dialect_is_reported_at_its_first_error_as_written(
    make_corpus: MakeCorpus,
) -> None:
    """As an object without `$schema` is: the error that comes first in the object as written
    (`format` before `minLength` here), not the first the metaschema validator yields."""
    install_safe_patterns()
    doc = OPENAPI_HEAD + (
        "paths: {}\ncomponents:\n  schemas:\n"
        "    Name:\n      $schema: https://json-schema.org/draft/2020-12/schema\n"
        "      type: string\n      format: 5\n      minLength: -1\n"
    )
    [finding] = findings_of("openapi-invalid", make_corpus({"api/openapi.yaml": doc}))
    assert finding.location.pointer == "/components/schemas/Name/format", finding


# OpenAPI Overlays checked against the documents they apply to (issue 49, item 5): the official
# Overlay 1.0 schema (``overlay-invalid``), targets evaluated as RFC 9535 JSONPath
# (``overlay-target-unmatched``), and the actions applied and the result validated as
# ``openapi-invalid`` validates (``overlay-breaks-document``). Fixtures written here.


API_OVERLAY = """openapi: 3.1.0
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


def corpus(make_corpus: MakeCorpus, *actions: str, **kwargs: str | None) -> Path:
    return make_corpus({"openapi.yaml": API_OVERLAY, "overlay.yaml": overlay(*actions, **kwargs)})


def test_a_remove_that_breaks_the_document_is_reported(make_corpus: MakeCorpus) -> None:
    root = corpus(
        make_corpus, "  - target: $.paths['/pets'].get.responses['200']\n    remove: true\n"
    )
    found = run_rule(root, "overlay-breaks-document")
    # openapi-invalid's errors of an empty `responses` (`minProperties`, and 3.1's `required`).
    assert found and {f.location.pointer for f in found} == {"/actions/0"}
    assert all("/paths/~1pets/get/responses:" in f.message for f in found)


def test_an_error_the_document_already_has_is_not_the_overlay_s(make_corpus: MakeCorpus) -> None:
    broken = API_OVERLAY.replace('"200": {description: A pet}', '"200": {}')
    root = make_corpus(
        {
            "openapi.yaml": broken,
            "overlay.yaml": overlay("  - target: $.info\n    update: {title: Public}\n"),
        }
    )
    assert run_rule(root, "overlay-breaks-document") == []
    assert run_rule(root, "openapi-invalid") != []


def test_a_swagger_definitions_defect_two_operations_reach_is_reported_once_at_the_definition(
    make_corpus: MakeCorpus,
) -> None:
    """Swagger 2.0's validator follows a response schema's `$ref` into `definitions` and names
    the defect by the operation's pointer, which the file does not have: it is written (and
    fixed) at the definition, once, however many operations reach it."""
    text = yaml_text(
        """
        swagger: '2.0'
        info: {title: Kennel, version: 1.0.0}
        paths:
          /dogs:
            get:
              responses:
                '200': {description: the dogs, schema: {$ref: '#/definitions/Dogs'}}
          /puppies:
            get:
              responses:
                '200': {description: the puppies, schema: {$ref: '#/definitions/Dogs'}}
        definitions:
          Dogs:
            type: array
            items: '#/definitions/Dog'
        """
    )
    found = run_rule(make_corpus({"kennel.yaml": text}), "openapi-invalid")
    [finding] = [f for f in found if f.severity is Severity.ERROR]
    assert finding.location.pointer == "/definitions/Dogs/items"
    assert finding.location.line == 15
