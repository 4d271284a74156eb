"""Tests of openapi invalid."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_cli, run_rule
from speclint.common.findings import Finding
from speclint.parsing.templates import template_data

# route-undeclared (issue 46, item 7), second round: routes in front matter, pages with too few
# routes to bind alone, every placeholder notation, optional segments, paths without a leading
# slash, renamed parameters, and concrete paths in running text.


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
