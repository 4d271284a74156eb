"""route-undeclared (issue 46, item 7), second round: routes in front matter, pages with too few
routes to bind alone, every placeholder notation, optional segments, paths without a leading
slash, renamed parameters, and concrete paths in running text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_cli, run_rule, write_files
from speclint.common.findings import Finding
from speclint.parsing.routes import front_matter_routes, optional_forms, relative_route
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


# 1. Front matter that names an operation.


def test_front_matter_reads_the_operation_in_every_spelling() -> None:
    page = '---\ntitle: Read\nopenapi: "openapi.yaml GET /sessions/{session_id}"\n---\n# Read\n'
    ((request),) = front_matter_routes(page)
    assert (request.method, request.target, request.line) == ("GET", "/sessions/{session_id}", 2)
    assert [r.method for r in front_matter_routes("---\nopenapi: get /session\n---\n")] == ["GET"]
    assert [r.target for r in front_matter_routes("---\napi: 'POST /x/y'\n---\n")] == ["/x/y"]
    assert list(front_matter_routes("---\nopenapi: 3.1.0\n---\n")) == []
    assert list(front_matter_routes("# no front matter\nopenapi: GET /x\n")) == []


def test_front_matter_route_the_document_lacks_is_a_warning(make_corpus: MakeCorpus) -> None:
    page = '---\ntitle: Read a session\nopenapi: "GET /sessions/{session_id}"\n---\n\n'
    root = make_corpus({"openapi.yaml": API, "docs/read.mdx": page + BOUND})
    (finding,) = _run(root)
    assert (finding.location.line, finding.severity.label) == (3, "warning")
    assert "`GET /sessions/{session_id}` is no operation of `openapi.yaml`" in finding.message
    assert "the nearest is `GET /session/{session_id}`" in finding.message
    output = run_cli("bindings", str(root)).output
    assert "docs/read.mdx:3 front-matter route `GET /sessions/{session_id}`" in output
    # the operation itself: quiet
    page = page.replace("/sessions/", "/session/")
    assert found(make_corpus({"openapi.yaml": API, "docs/read.mdx": page + BOUND})) == []


# 2. Pages with too few routes to bind alone.


def test_a_page_of_one_wrong_route_is_held_through_the_repository(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    lone = "# End a session\n\nSend `DELETE /sessions/{id}` to end it.\n"
    root = make_corpus({"openapi.yaml": API, "docs/sessions.md": BOUND, "docs/end.md": lone})
    (finding,) = _run(root)
    assert (finding.location.path, finding.location.line) == ("docs/end.md", 3)
    assert "the nearest is `DELETE /session/{session_id}`" in finding.message
    # without the other pages nothing binds the repository to the document
    alone = write_files(tmp_path / "alone", {"openapi.yaml": API, "docs/end.md": lone})
    assert found(alone) == []


def test_a_lone_route_of_another_api_stays_unjudged(make_corpus: MakeCorpus) -> None:
    pages = {
        "openapi.yaml": API,
        "docs/sessions.md": BOUND,
        # judged through the repository
        "docs/end.md": "Send `DELETE /sessions/{id}` to end it.\n",
        # no operation near, no first segment of the API's
        "docs/auth.md": "Get a token with `POST /oauth/token`.\n",
        # a roadmap, a design folder, another host: aside as on a bound page
        "docs/next.md": "## Roadmap\n\n- `PATCH /session/{session_id}`\n",
        "rfcs/0001-patch.md": "- `PATCH /session/{session_id}`\n",
        "docs/hook.md": "```sh\ncurl -X DELETE https://hooks.partner.io/v1/sessions/1\n```\n",
        # one segment off at the API's root: another API's (a registry the document mirrors)
        "docs/mirror.md": "- `GET /v1/table-archive/{name}/info`\n",
        # a section that lists defects on purpose
        "docs/defects.md": "## Seeded defects\n\n- `PATCH /v1/session/{session_id}`\n",
        # a sentence that says there is no such route
        "docs/none.md": "There is no `GET /v1/session` wire surface.\n",
    }
    assert found(make_corpus(pages)) == [("docs/end.md", 1, "warning")]


def test_a_collections_custom_method_for_a_members_is_named(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    api = API + "  /session/{session_id}:fork:\n    post: {responses: {'201': {description: ok}}}\n"
    lone = "Hosts reject `POST /v1/session:fork` requests with 501.\n"
    pages = {"openapi.yaml": api, "docs/sessions.md": BOUND, "docs/fork.md": lone}
    (finding,) = _run(make_corpus(pages))
    assert "the nearest is `POST /session/{session_id}:fork`" in finding.message
    assert "custom method `:fork` acts on one of its members" in finding.message


def test_bindings_say_a_page_is_held_through_the_repository(make_corpus: MakeCorpus) -> None:
    lone = "Send `DELETE /sessions/{id}` to end it.\n"
    root = make_corpus({"openapi.yaml": API, "docs/sessions.md": BOUND, "docs/end.md": lone})
    output = run_cli("bindings", str(root)).output
    assert (
        "docs/end.md:1 code route `DELETE /sessions/{id}`\n"
        "    (no operation of openapi.yaml, bound through the repository's pages; "
        "nearest `DELETE /session/{session_id}`)"
    ) in output


# 3. Placeholder notations.


def test_every_placeholder_notation_is_a_variable(make_corpus: MakeCorpus) -> None:
    page = (
        "- `GET /v1/session/<session_id>`\n"
        "- `GET /v1/session/:session_id`\n"
        "- `GET /v1/session/${SESSION_ID}`\n"
        "- `GET /v1/session/$SESSION_ID`\n"
        "- `GET /v1/session/{{session_id}}`\n"
        "- GET /v1/session/<session_id> reads one.\n"
    )
    assert found(bound_page(make_corpus, page)) == []
    # a template over any collection (`/<GROUPS>/<gid>`) is no route of this API, and does not
    # unbind the page
    page = "- `GET /<GROUPS>/<gid>`\n- `PUT /<GROUPS>/<gid>`\n- `POST /<GROUPS>`\n- `PUT /v1/session`\n"
    (finding,) = _run(bound_page(make_corpus, page))
    assert "`PUT /v1/session` is no operation" in finding.message


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


# 4. Optional segments.


def test_optional_forms_are_both_routes() -> None:
    assert optional_forms("/models/<m>[/versions/<v>]/infer") == (
        "/models/<m>/versions/<v>/infer",
        "/models/<m>/infer",
    )
    assert optional_forms("/models") == ("/models",)


def test_an_optional_part_the_document_lacks_names_the_form_it_has(
    make_corpus: MakeCorpus,
) -> None:
    page = "- `POST v1/models/<model>[/versions/<version>]/infer`\n"
    (finding,) = _run(bound_page(make_corpus, page))
    assert finding.severity.label == "info"
    assert "`POST v1/models/<model>/infer` is no operation" in finding.message
    assert "the nearest is `POST /models/{model}/versions/{version}/infer`" in finding.message
    assert "the form with the optional part" in finding.message
    # neither form: one finding, of the longer
    page = "- `POST /v1/models/<name>[/revisions/<r>]/run`\n"
    (finding,) = _run(bound_page(make_corpus, page))
    assert "`POST /v1/models/<name>/revisions/<r>/run`" in finding.message


# 5. Routes without a leading slash.


def test_a_path_without_a_leading_slash_is_read_where_it_is_the_apis() -> None:
    assert relative_route("v2/models/x/ready") == ("", "v2/models/x/ready")
    assert relative_route("POST run/{run_id}/cancel") == ("POST", "run/{run_id}/cancel")
    assert relative_route("docs/api.md") is None
    assert relative_route("a few words") is None


def test_a_route_without_a_leading_slash_is_held_to_the_operations(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "- `GET v1/models/resnet/ready`\n"  # the operation
        "- `DELETE v1/models/resnet/ready`\n"  # another method: warning
        "- `v1/models/resnet/readyz`\n"  # a path mention, one segment off: info
        "- `application/json`, `src/main`, `docs/api.md`\n"  # no route of the API
        "\n| Endpoint |\n| --- |\n| `GET models/resnet/status` |\n"
    )
    assert found(bound_page(make_corpus, page)) == [
        ("docs/sessions.md", 8, "warning"),
        ("docs/sessions.md", 9, "info"),
        ("docs/sessions.md", 14, "warning"),
    ]


# 6. A renamed parameter.


def test_a_renamed_parameter_is_an_info_naming_the_apis(make_corpus: MakeCorpus) -> None:
    (finding,) = _run(bound_page(make_corpus, "- `GET /v1/table/{id}/info`\n"))
    assert (finding.location.line, finding.severity.label) == (7, "info")
    assert "the API names this parameter `table_name`" in finding.message
    assert finding.related[0].pointer == "/paths/~1table~1{table_name}~1info/get"
    # a concrete value, or the same name in another convention, is no renamed parameter
    page = (
        "- `GET /v1/table/hpo/info`\n- `GET /v1/table/{tableName}/info`\n"
        "- `GET /v1/table/{parentTableName}/info`\n"  # qualified by its role: the same name
    )
    assert found(bound_page(make_corpus, page)) == []


# 7. A concrete path in running text.


def test_a_concrete_path_below_no_base_path_near_an_operation_is_an_info(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    api = API.replace("https://api.sessions.example.net/v1", "https://api.sessions.example.net")
    bound = BOUND.replace("/v1/", "/")
    page = "Search it:\n\n`/table/hpo_phenopackets/search`\n\n/table/hpo_phenopackets/searches\n"
    root = make_corpus({"openapi.yaml": api, "docs/sessions.md": bound + "\n" + page})
    assert found(root) == [("docs/sessions.md", 11, "info")]
    # a file, a page link, a path of no segment of the API's, one segment far off: quiet
    page = (
        "See `/table/hpo/info.json`, [`/table/hpo/about`](../about.md) and\n\n"
        "/usr/local/find\n\n`/table/hpo/sortables`\n"
    )
    quiet = {"openapi.yaml": api, "docs/sessions.md": bound + "\n" + page}
    assert found(write_files(tmp_path / "quiet", quiet)) == []
    # outside the base path the servers declare: another URL of the deployment (a web page)
    page = "/table/hpo_phenopackets/searches\n"
    elsewhere = {"openapi.yaml": API, "docs/sessions.md": BOUND + "\n" + page}
    assert found(write_files(tmp_path / "elsewhere", elsewhere)) == []


def test_a_trailing_slash_after_a_value_is_an_empty_last_variable(make_corpus: MakeCorpus) -> None:
    # `/table/hpo/` is `/table/{table_name}/{x}` with an empty `x`; `/session/` is `/session`
    api = API + "  /table/{table_name}/{view}:\n    get: {responses: {'200': {description: ok}}}\n"
    page = "- `GET /v1/table/hpo/`\n- `DELETE /v1/session/`\n"
    assert found(bound_page(make_corpus, page, api)) == [("docs/sessions.md", 8, "warning")]


def test_a_table_cells_escaped_placeholder_reads_as_the_page_shows_it(
    make_corpus: MakeCorpus,
) -> None:
    # CommonMark §2.4: `\<version\>` in a table cell shows `<version>`; read escaped, the route
    # matched no operation, and the form the document has was reported as missing.
    table = (
        "| Verb | Path |\n| --- | --- |\n"
        "| POST | v1/models/\\<model\\>[/versions/\\<version\\>]/infer |\n"
    )
    (finding,) = _run(bound_page(make_corpus, table))
    assert "`POST v1/models/<model>/infer` is no operation" in finding.message
    assert finding.severity.label == "info"


def test_a_wildcard_route_in_a_table_cell_is_a_pattern_not_its_prefix(
    make_corpus: MakeCorpus,
) -> None:
    # A rate-limit table's `POST /sessions/*` names every route below; with the `*` dropped as
    # an emphasis mark it read as `POST /sessions/`, an operation the document lacks.
    table = "| Bucket | Route |\n| --- | --- |\n| writes | `PUT /v1/session/*` |\n"
    assert _run(bound_page(make_corpus, table)) == []
    emphasised = "| Bucket | Route |\n| --- | --- |\n| writes | **`PUT /v1/session/{id}`** |\n"
    assert len(_run(bound_page(make_corpus, emphasised))) == 1  # emphasis marks still dropped
