"""Tests of openapi invalid."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from test_provenance import findings

from conftest import run_cli, run_rule
from speclint.analyses.context import Context
from speclint.analyses.repository.provenance import BUNDLE
from speclint.common.findings import Finding
from speclint.parsing.templates import template_data

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


API = """\
openapi: 3.1.0
info: {title: Sessions, version: 1.0.0}
servers:
  - url: https://api.sessions.example.net/v1
paths:
  /session/{session_id}:
    get: {operationId: getSession, responses: {'200': {description: ok}}}
    delete: {operationId: endSession, responses: {'204': {description: ok}}}
  /session:
    post: {operationId: startSession, responses: {'201': {description: ok}}}
  /table/{table_name}/info:
    get: {operationId: tableInfo, responses: {'200': {description: ok}}}
  /table/{table_name}/search:
    post: {operationId: searchTable, responses: {'200': {description: ok}}}
  /models/{model}/versions/{version}/infer:
    post: {operationId: inferVersion, responses: {'200': {description: ok}}}
  /models/{model}/ready:
    get: {operationId: modelReady, responses: {'200': {description: ok}}}
"""


# Routes the API has, so that a page is bound to it (two of its routes, and half, found).
BOUND = """\
# Sessions

- `POST /v1/session`
- `GET /v1/session/{session_id}`
- `DELETE /v1/session/{session_id}`
"""


def _run(root: Path) -> list[Finding]:
    return run_rule(root, "route-undeclared")


def found(root: Path) -> list[tuple[str, int, str]]:
    return [(f.location.path, f.location.line, f.severity.label) for f in _run(root)]


def bound_page(make_corpus: MakeCorpus, page: str, api: str = API) -> Path:
    return make_corpus({"openapi.yaml": api, "docs/sessions.md": BOUND + "\n" + page})


def test_a_dollar_brace_segment_of_the_document_is_a_variable(make_corpus: MakeCorpus) -> None:
    # no template's expression: the document is read (`openapi-invalid` still says it is no
    # OpenAPI template), and a value or any variable fills the segment
    assert template_data("openapi", {"paths": {"/models/${MODEL}/ready": {}}}) is None
    assert template_data("openapi", {"paths": {"${BASE}/models": {}}}) is not None
    api = API.replace("/models/{model}/ready", "/models/${MODEL}/ready")
    page = "- `GET /v1/models/resnet/ready`\n- `GET /v1/models/{model}/ready`\n"
    root = bound_page(make_corpus, page, api)
    assert found(root) == []
    output = run_cli("bindings", str(root)).output
    assert output.count("-> `GET /models/${MODEL}/ready` of openapi.yaml") == 2


# Issue 45, ecosystem batch 4 at first read, provenance: a bundler's output named through a
# script's variables is its source's bundle; two renderings of one deeply nested document compare
# equal; two editions of one API are not drifted copies. Every fixture here is our own.


def yaml(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


FLATTEN_SCRIPT = yaml(
    """
    #!/usr/bin/env bash
    set -e
    here=$(realpath "$0")
    toolsDir=$(dirname "$here")
    top=$(realpath "$toolsDir/..")
    srcSpec=$(realpath "$top/src/garden.yml")
    outSpec=$(realpath -m "$top/garden.yml")
    echo swagger flatten "$srcSpec" -o "$outSpec" --format yaml
    swagger flatten "$srcSpec" -o "$outSpec" --format yaml
    """
)


BUNDLE_SCRIPT = FLATTEN_SCRIPT.replace("swagger flatten", "redocly bundle").replace(
    " --format yaml", ""
)


GARDEN_SOURCE = yaml(
    """
    openapi: 3.0.3
    info: {title: Garden, version: 1.0.0}
    paths:
      /beds:
        $ref: paths/beds.yml
      /tools:
        get:
          responses:
            '200': {summary: the tools}
    """
)


BEDS = yaml(
    """
    get:
      responses:
        '200':
          description: the beds
          content:
            application/json:
              schema:
                type: object
                required: [rows]
                properties:
                  width: {type: number}
    """
)


# The bundle as a bundler may write it: not equal to the source once dereferenced (a schema
# hoisted and renamed, a tool's extension added), so only the command says it is a bundle.
GARDEN_FLAT = yaml(
    """
    openapi: 3.0.3
    info: {title: Garden, version: 1.0.0}
    paths:
      /beds:
        get:
          responses:
            '200':
              description: the beds
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/getBedsOKBody'}
      /tools:
        get:
          responses:
            '200': {summary: the tools}
    components:
      schemas:
        getBedsOKBody:
          type: object
          required: [rows]
          properties:
            width: {type: number, x-go-type: float64}
    """
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


# Issue 45, ecosystem batch 6 at first read, provenance: the files a repository's own build
# writes are generated, found by evidence: a Makefile recipe whose output names a loop's variable,
# a program of the repository that writes files by a path template (run by hand: no command names
# it), a script argument's default output, a bundler command in a guide's fence, an API document
# in a folder only a build writes. Findings are not located in them, a defect their source has is
# reported once (at the source), and an API's inline schema is never called a copy of a file
# written from it. Every fixture here is our own.


BAD_PATH_SOURCE = yaml(
    """
    openapi: 3.0.3
    info: {title: Kennel, version: 1.0.0}
    paths:
      /dogs/{dogId}:
        $ref: ./paths/dog.yaml
    """
)


BAD_PATH = yaml(
    """
    get:
      responses:
        '200': {description: the dog}
    """
)


BAD_PATH_BUNDLED = yaml(
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
    # The path parameter no operation declares is reported at the source, and once only.
    assert [f["location"]["path"] for f in invalid] == ["specs/kennel.yaml"]
