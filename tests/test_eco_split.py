"""Issue 45, ecosystem batch 1: split API sources a bundler resolves, versions whose official
schema speclint does not ship, and messages garbled on their way to the report. Every fixture
here is our own."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import run_rule
from speclint.analyses import units
from speclint.analyses.api import inlining, openapi_validation
from speclint.analyses.context import Context
from speclint.analyses.schemas import validation
from speclint.common.findings import Severity
from speclint.model.config import load_config
from speclint.rules import asyncapi_invalid, openapi_invalid, schema_invalid
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def yaml(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# --- broken-link: a destination as written, not as a path normalised it ------------------------


def test_a_url_in_parentheses_is_named_as_written(make_corpus: MakeCorpus) -> None:
    # `[x]: (https://…)` keeps the parentheses in its destination: a relative path to GitHub.
    # The message showed `https:/…` (a path normalisation applied to a URL).
    root = make_corpus(
        {
            "docs/guide.md": "# Guide\n\nSee the [collection][c].\n\n"
            "[c]: (https://www.example.com/team/collection)\n",
        }
    )
    [finding] = run_rule(root, "broken-link")
    assert "https:/w" not in finding.message
    assert "`(https://www.example.com/team/collection)`" in finding.message
    assert "parentheses" in finding.message and finding.location.line == 5


def test_a_quoted_destination_on_the_next_line_is_shown_as_written(
    make_corpus: MakeCorpus,
) -> None:
    # `[x](` then a line break and `"path"`: CommonMark reads `"path"` (quotes and all) as the
    # destination. The message showed the parser's `%22path%22`.
    root = make_corpus(
        {
            "docs/guide.md": '# Guide\n\n- [the example](\n  "../assets/example.json")\n',
            "assets/example.json": "{}\n",
        }
    )
    [finding] = run_rule(root, "broken-link")
    assert "%22" not in finding.message
    assert finding.message.startswith('`"../assets/example.json"`')
    assert "quotes are part of the destination: write `../assets/example.json`" in (finding.message)


# --- a release whose official schema is not shipped: not checked, never an error ---------------


def test_an_asyncapi_1_document_is_not_checked_not_invalid(make_corpus: MakeCorpus) -> None:
    document = {
        "asyncapi": "1.2.0",
        "info": {"title": "Events", "version": "1"},
        "topics": {"message": {"subscribe": {"$ref": "#/components/messages/m"}}},
    }
    root = make_corpus({"events/async.json": json.dumps(document, indent=2)})
    [finding] = run_rule(root, "asyncapi-invalid")
    assert finding.severity is Severity.INFO
    assert "not checked" in finding.message and "1.2.0" in finding.message
    assert finding.coverage == "no-schema"  # said in the run's summary, not among findings


def test_an_asyncapi_value_that_is_no_release_is_still_an_error(make_corpus: MakeCorpus) -> None:
    document = {"asyncapi": "2.6", "info": {"title": "Events", "version": "1"}, "channels": {}}
    root = make_corpus({"events/async.json": json.dumps(document, indent=2)})
    [finding] = run_rule(root, "asyncapi-invalid")
    assert finding.severity is Severity.ERROR


def test_an_openapi_release_without_a_shipped_schema_is_not_checked(
    make_corpus: MakeCorpus,
) -> None:
    later = yaml(
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
    swagger = yaml(
        """
        swagger: "2.0"
        info: {title: Widgets, version: "1"}
        paths:
          /a:
            get:
              responses:
                "200": {description: ok, schema: {type: object, items: [{type: string}]}}
        """
    )
    root = make_corpus({"api/swagger.yaml": swagger})
    errors = [f for f in run_rule(root, "openapi-invalid") if f.severity is Severity.ERROR]
    assert errors and all(f.message.endswith("valid Swagger 2.0") for f in errors)


# --- openapi-invalid: a split source as its bundle reads ---------------------------------------

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
        "api/openapi.yaml": yaml(SPLIT_API),
        "api/texts.yaml": "intro: The widgets API.\n",
        "api/ops/list.yaml": yaml(operation),
        "api/params/limit.yaml": yaml("name: limit\nin: query\nschema: {type: integer}\n"),
    }


def test_a_ref_where_the_bundler_inlines_it_is_not_an_error(make_corpus: MakeCorpus) -> None:
    # `get: {$ref: ops/list.yaml}` and `description: {$ref: texts.yaml#/intro}`: no Reference
    # Object is allowed there, and redocly/swagger-cli bundle replace them by their targets.
    # Each operation was two errors ("$ref" not allowed, "responses" missing); the missing
    # operation file is unresolved-ref's, not also two errors here.
    root = make_corpus(split_api())
    assert run_rule(root, "openapi-invalid") == []
    [missing] = run_rule(root, "unresolved-ref")
    assert "ops/missing.yaml" in missing.message


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
    cyclic = yaml(
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


def test_a_properties_map_kept_in_another_file_is_judged_there(make_corpus: MakeCorpus) -> None:
    # `properties: {$ref: attributes.yaml#/ids}` in an OpenAPI 3.0 schema file: the bundler
    # puts the map in its place. It was "`$ref`: ... is not of type object" in every schema
    # file that did so; now the map is judged, and its own errors are reported where written.
    files = split_api()
    files["api/ops/list.yaml"] = files["api/ops/list.yaml"].replace(
        "schema: {type: array, items: {type: string}}", "schema: {$ref: ../models/widget.yaml}"
    )
    files["api/models/widget.yaml"] = yaml(
        """
        type: object
        properties:
          $ref: attributes.yaml#/widget_ids
        """
    )
    files["api/models/attributes.yaml"] = yaml(
        """
        widget_ids:
          ids: {type: array, items: {type: integer}}
        """
    )
    root = make_corpus(files)
    assert run_rule(root, "schema-invalid") == []
    files["api/models/attributes.yaml"] = files["api/models/attributes.yaml"].replace(
        "type: array,", "type: array, minItems: -1,"
    )
    root = make_corpus(files)
    [finding] = run_rule(root, "schema-invalid")
    assert finding.location.path == "api/models/attributes.yaml"
    assert finding.location.pointer == "/widget_ids/ids/minItems"


def test_an_asyncapi_split_source_is_validated_as_its_bundle(make_corpus: MakeCorpus) -> None:
    document = yaml(
        """
        asyncapi: 2.6.0
        info:
          $ref: parts/info.yaml
        channels:
          widgets:
            description:
              $ref: parts/texts.yaml#/widgets
            subscribe:
              message: {payload: {type: string}}
        """
    )
    files = {
        "api/asyncapi.yaml": document,
        "api/parts/info.yaml": "title: Widgets\nversion: '1'\n",
        "api/parts/texts.yaml": "widgets: The widget events.\n",
    }
    assert run_rule(make_corpus(files), "asyncapi-invalid") == []
    files["api/parts/info.yaml"] = "title: Widgets\nversion: '1'\ncontact: widgets@example.org\n"
    [finding] = run_rule(make_corpus(files), "asyncapi-invalid")
    assert (finding.location.path, finding.location.pointer) == ("api/parts/info.yaml", "/contact")


def test_a_properties_map_in_an_openapi_31_document_is_inlined(make_corpus: MakeCorpus) -> None:
    # OpenAPI 3.1's own schema does not look inside schema objects; the dialect's metaschema
    # said `/…/properties/$ref: "…" is not of type "object", "boolean"`.
    document = yaml(
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


def test_a_target_reached_through_ref_map_is_inlined_and_checked(make_corpus: MakeCorpus) -> None:
    # The operation is named by its published URL, which `[ref-map]` maps to the corpus: the
    # reference index resolves it ("ok"), so it is inlined and checked like a relative one.
    # Resolved apart, it was "missing", and its errors were dropped as unresolved-ref's, which
    # had nothing to say: a silent gap.
    broken = LIST_OPERATION.replace("    description: The widgets.\n", "")
    files = split_api(broken)
    files["api/openapi.yaml"] = files["api/openapi.yaml"].replace(
        "$ref: ops/list.yaml", "$ref: https://widgets.example/api/ops/list.yaml"
    )
    files["speclint.toml"] = '[ref-map]\n"https://widgets.example/api/" = "api/"\n'
    root = make_corpus(files)
    assert [
        f.message for f in run_rule(root, "unresolved-ref") if "widgets.example" in f.message
    ] == []
    [finding] = run_rule(root, "openapi-invalid")
    assert finding.location.path == "api/ops/list.yaml"
    assert '"description" is a required property' in finding.message


def test_a_target_named_by_an_anchor_is_inlined_and_checked(make_corpus: MakeCorpus) -> None:
    # `properties: {$ref: attributes.yaml#ids}`: a schema map kept in a file, named by the
    # `$anchor` of the schema that holds it, as the reference index resolves it.
    api = yaml(
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
    attributes = yaml(
        """
        $anchor: ids
        id: {type: string}
        size: {type: 12}
        """
    )
    root = make_corpus({"api/openapi.yaml": api, "api/attributes.yaml": attributes})
    found = run_rule(root, "openapi-invalid")
    assert [f.location.path for f in found] == ["api/attributes.yaml"], [f.message for f in found]


def test_a_default_response_kept_in_a_missing_file_is_unresolved(make_corpus: MakeCorpus) -> None:
    # A Responses Object's `default` is a response, not a schema's default value: its `$ref`
    # is indexed (and so resolved, inlined and reported) like any other response's.
    api = SPLIT_API.replace("      $ref: ops/missing.yaml\n", "      $ref: ops/list.yaml\n")
    operation = LIST_OPERATION + "  default:\n    $ref: ../responses/gone.yaml\n"
    files = {**split_api(operation), "api/openapi.yaml": yaml(api)}
    [missing] = run_rule(make_corpus(files), "unresolved-ref")
    assert "responses/gone.yaml" in missing.message


def test_what_a_unit_reads_is_within_what_its_refs_reach(make_corpus: MakeCorpus) -> None:
    # The rules' unit keys are `units.reach` (made without validating): every file the view
    # inlines and every part openapi-invalid reads must be in it, through a relative path, a
    # chain of inlined pieces, a `[ref-map]` URL and an anchor alike.
    chained = LIST_OPERATION + "x-note: none\n"
    files = split_api(chained)
    files["api/openapi.yaml"] = files["api/openapi.yaml"].replace(
        "$ref: ops/missing.yaml", "$ref: https://widgets.example/api/ops/more.yaml"
    )
    files["api/ops/more.yaml"] = yaml(
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
    files["api/bodies/widget.yaml"] = yaml(
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


def _one_error_each() -> dict[str, str | bytes]:
    """An AsyncAPI document and an OpenAPI 3.0 schema file, one error each, nothing inlined."""
    return {
        "api/asyncapi.yaml": yaml(
            """
            asyncapi: 2.6.0
            info: {title: Widgets, version: '1', contact: widgets@example.org}
            channels: {}
            """
        ),
        "api/openapi.yaml": yaml(
            """
            openapi: 3.0.3
            info: {title: Widgets, version: '1'}
            paths: {}
            components:
              schemas:
                Widget: {$ref: '../schemas/widget.yaml'}
            """
        ),
        "schemas/widget.yaml": "type: integer\nminimum: zero\n",
    }


@pytest.mark.parametrize("rule", ["asyncapi-invalid", "schema-invalid"])
def test_a_document_with_nothing_inlined_is_validated_once(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch, rule: str
) -> None:
    # The errors found while looking for `$ref`s to inline are the check's own when the view is
    # the data they were found in: not a second validation of the same data.
    files = _one_error_each()
    root = make_corpus(files)
    module = asyncapi_invalid if rule == "asyncapi-invalid" else schema_invalid
    calls: list[int] = []
    # asyncapi-invalid locates the errors it judged while inlining (`validation.located`).
    name = "located" if rule == "asyncapi-invalid" else "located_errors"
    real = getattr(validation, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    found = run_rule(root, rule)
    assert len(found) == 1, [f.message for f in found]
    assert len(calls) == 1


@pytest.mark.parametrize("rule", ["asyncapi-invalid", "schema-invalid"])
def test_no_documents_view_or_errors_are_kept_for_the_run(
    make_corpus: MakeCorpus, rule: str
) -> None:
    # A document's view and errors are read once, by its own check: the run keeps none of them
    # (every document's errors were kept in the run-wide memo until the run ended).
    root = make_corpus(_one_error_each())
    corpus = Context.load(root, load_config(root))
    assert len(list(all_rules()[rule].check(corpus, {}))) == 1
    assert [key for key in corpus.memo if key.startswith(f"{rule}:")] == []
