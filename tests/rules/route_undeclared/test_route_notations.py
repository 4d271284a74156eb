"""``route-undeclared`` on the notations a route is written in: every placeholder style, optional
segments, paths without a leading slash or cut short of the API's path, renamed parameters,
routes in front matter and in code blocks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_cli, run_rule, write_files
from speclint.common.findings import Finding
from speclint.parsing.routes import front_matter_routes, optional_forms, relative_route
from speclint.parsing.templates import template_data

# route-undeclared (issue 46, item 7), third round: the classes of wrong routes the hand-made
# lists found and the rule missed. Slash-less paths the sentence calls a route (in the singular,
# or cut short of the API's path), a path a code block holds alone, request lines of an indented
# code block, and an example route after "for example". Every fixture is ours.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


API = """\
openapi: 3.1.0
info: {title: Widgets, version: 3.0.0}
servers: []
paths:
  /v3/status:
    get: {operationId: status, responses: {'200': {description: ok}}}
  /v3/widgets/{widget}/revisions/{revision}:
    get: {operationId: getRevision, responses: {'200': {description: ok}}}
  /v3/widgets/{widget}/revisions/{revision}/render:
    post: {operationId: render, responses: {'200': {description: ok}}}
  /v3/crates/{crate_id}/stop:
    post: {operationId: stopCrate, responses: {'202': {description: ok}}}
  /v3/crates/{crate_id}/info:
    get: {operationId: crateInfo, responses: {'200': {description: ok}}}
  /v3/crates/{crate_id}/data:
    get: {operationId: crateData, responses: {'200': {description: ok}}}
"""


# Routes the API has, so that the page is bound to it (two of its routes, and half, found).
BOUND = """\
# Widgets

- `GET /v3/status`
- `GET /v3/widgets/{widget}/revisions/{revision}`
- `POST /v3/widgets/{widget}/revisions/{revision}/render`
"""


def _run(root: Path) -> list[Finding]:
    return run_rule(root, "route-undeclared")


def bound_page(make_corpus: MakeCorpus, page: str) -> Path:
    return make_corpus({"openapi.yaml": API, "docs/widgets.md": BOUND + "\n" + page})


FLAT = """\
openapi: 3.1.0
info: {title: Runs, version: 1.0.0}
servers: [{url: 'http://localhost:8000'}]
paths:
  /ping:
    get: {operationId: ping, responses: {'200': {description: ok}}}
  /runs:
    post: {operationId: createRun, responses: {'201': {description: ok}}}
  /runs/{run_id}:
    get: {operationId: getRun, responses: {'200': {description: ok}}}
  /thread/{thread_id}:
    get: {operationId: getThread, responses: {'200': {description: ok}}}
"""


LISTING = """\
# Threads

Each server exposes its threads and runs (`GET /runs/{run_id}`):

## Thread API Endpoints

```
GET /thread/{thread_id}
```

## {title}

If blobs are kept, it also exposes them:

```
GET /blobs/{blob_id}
```
"""


DOMAIN = """\
openapi: 3.1.0
info: {title: %s, version: 1.0.0}
paths:
  /%s/{id}:
    get: {operationId: get%s, responses: {'200': {description: ok}}}
  /%s/{id}/items:
    get: {operationId: items%s, responses: {'200': {description: ok}}}
"""


def _domain(name: str) -> str:
    return DOMAIN % (name, name, name, name, name)


BUNDLE = """\
openapi: 3.0.3
info: {title: Tasks, version: 1.0.0}
paths:
  /tasks:
    get: {operationId: listTasks, responses: {'200': {description: ok}}}
  /tasks/{taskId}:
    get: {operationId: getTask, responses: {'200': {description: ok}}}
  /tasks/{taskId}/logs:
    get: {operationId: getLogs, responses: {'200': {description: ok}}}
  /health:
    get: {operationId: health, responses: {'200': {description: ok}}}
"""


ROOT = """\
openapi: 3.0.3
info: {title: Tasks, version: 1.0.0}
paths:
  /tasks:
    $ref: 'paths/core/pTasks.yaml'
  /tasks/{taskId}:
    $ref: 'paths/core/pTask.yaml'
"""


def test_a_slashless_request_path_in_the_singular_and_cut_short_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "For example, a request path could look like `v3/widget/blue-7` for an unversioned one.\n"
    )
    (finding,) = _run(bound_page(make_corpus, page))
    assert (finding.location.line, finding.severity.label) == (7, "info")
    assert "`v3/widget/blue-7` is the path of no operation" in finding.message
    assert "goes on below it (`/revisions/{revision}`)" in finding.message
    assert "says `widgets` where this says `widget`" in finding.message


def test_a_slashless_path_no_word_calls_a_route_is_not_one(make_corpus: MakeCorpus) -> None:
    # the same path, where nothing says it is requested: a folder, a package, a value's format
    page = "The archive unpacks into `v3/widget/blue-7` beside the others.\n"
    assert _run(bound_page(make_corpus, page)) == []
    page = "- `crate/{name}` - a message from a named crate (a role value)\n"
    assert _run(bound_page(make_corpus, page)) == []


def test_a_slashless_template_the_sentence_calls_an_endpoint_is_held(
    make_corpus: MakeCorpus,
) -> None:
    page = "A client stops one with the `v3/crate/{crate_id}/stop` endpoint, then waits.\n"
    (finding,) = _run(bound_page(make_corpus, page))
    assert finding.location.line == 7
    assert "says `crates` where this says `crate`" in finding.message
    # the plural is the API's: nothing to say
    page = "A client stops one with the `v3/crates/{crate_id}/stop` endpoint, then waits.\n"
    assert _run(bound_page(make_corpus, page)) == []


def test_a_route_after_for_example_is_a_claim(make_corpus: MakeCorpus) -> None:
    page = "For example, `DELETE /v3/status` clears it.\n"
    (finding,) = _run(bound_page(make_corpus, page))
    assert "`DELETE /v3/status` is no operation" in finding.message
    # an illustration the line says is one is still set aside
    page = "Register it (on `POST /v3/hooks/{id}` or equivalent) first.\n"
    assert _run(bound_page(make_corpus, page)) == []


def test_a_path_a_code_block_holds_alone_is_held_to_the_api(make_corpus: MakeCorpus) -> None:
    page = "Read its data:\n\n```\n/v3/crates/s-9/data\n```\n\nThen search it:\n\n```\n/v3/crates/s-9/search\n```\n"
    (finding,) = _run(bound_page(make_corpus, page))
    assert (finding.location.line, finding.location.column) == (16, 1)
    assert finding.severity.label == "info"
    assert "`/v3/crates/s-9/search` is the path of no operation" in finding.message


def test_a_path_in_another_block_or_not_the_apis_is_not_held(make_corpus: MakeCorpus) -> None:
    # a JSON block, a block of two lines, a path no operation starts as
    page = (
        '```json\n"/v3/crates/s-9/search"\n```\n\n'
        "```\n/v3/crates/s-9/search\n/v3/crates/s-9/data\n```\n\n"
        "```\n/etc/crates/config\n```\n"
    )
    assert _run(bound_page(make_corpus, page)) == []


def test_a_request_line_of_an_indented_code_block_is_read_where_written(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "A render:\n\n"
        "    POST /v3/widgets/blue-7/render HTTP/1.1\n"
        "    Host: localhost:8000\n"
        "    Content-Type: application/json\n"
    )
    (finding,) = _run(bound_page(make_corpus, page))
    assert (finding.location.line, finding.location.column) == (9, 5)
    assert finding.severity.label == "warning"
    assert "`POST /v3/widgets/blue-7/render` is no operation" in finding.message


def test_a_fenced_block_s_request_line_keeps_its_place(make_corpus: MakeCorpus) -> None:
    page = "- A render:\n\n  ```http\n  POST /v3/widgets/blue-7/render\n  ```\n"
    (finding,) = _run(bound_page(make_corpus, page))
    assert (finding.location.line, finding.location.column) == (10, 3)


def test_a_route_under_an_endpoints_heading_is_the_apis_though_none_starts_so(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {"openapi.yaml": FLAT, "docs/threads.md": LISTING.replace("{title}", "Blob API Endpoints")}
    )
    (finding,) = _run(root)
    assert (finding.location.line, finding.severity.label) == (16, "warning")
    assert "`GET /blobs/{blob_id}` is no operation of `openapi.yaml`" in finding.message
    # under a heading that says nothing of endpoints, or of someone else's: another API's
    for title in ("Blob storage", "Webhook endpoints"):
        root = make_corpus(
            {"openapi.yaml": FLAT, "docs/threads.md": LISTING.replace("{title}", title)}
        )
        assert _run(root) == []


def test_a_listed_route_outside_the_prefix_all_the_apis_paths_share_is_another_surface(
    make_corpus: MakeCorpus,
) -> None:
    api = "\n".join(
        ["openapi: 3.1.0", "info: {title: Jobs, version: 1.0.0}", "paths:"]
        + [
            f"  /v1/{name}:\n    get: {{operationId: {name}, responses: {{'200': {{description: ok}}}}}}"
            for name in ("jobs", "queues", "workers", "tenants", "quotas")
        ]
    )
    page = "# Jobs\n\n- `GET /v1/jobs`\n- `GET /v1/queues`\n\n## Endpoints\n\n- `GET /export`\n- `GET /v1/exports`\n"
    (finding,) = _run(make_corpus({"openapi.yaml": api, "docs/jobs.md": page}))
    assert "`GET /v1/exports` is no operation" in finding.message


def test_a_parameter_respelt_beside_the_apis_spelling_is_an_info(make_corpus: MakeCorpus) -> None:
    page = (
        "Read one at `/v3/crates/{crate_id}/info`, and its data with "
        "`GET /v3/crates/{crate-id}/data`.\n"
    )
    (finding,) = _run(bound_page(make_corpus, page))
    assert (finding.location.line, finding.severity.label) == (7, "info")
    assert "names its parameter `crate-id` where the API names this parameter `crate_id`" in (
        finding.message
    )
    # alone, a separator variant is the same name: no client sends it
    page = "Read its data with `GET /v3/crates/{crate-id}/data`.\n"
    assert _run(bound_page(make_corpus, page)) == []


def test_a_core_page_is_not_held_to_a_domain_parts_document(make_corpus: MakeCorpus) -> None:
    core = (
        "# Core\n\n- `GET /boxes/{id}`\n- `GET /boxes/{id}/items`\n- `DELETE /boxes/{id}/items`\n"
    )
    files: dict[str, str | bytes] = {
        "core/http.md": core,
        "boxes/schemas/openapi.yaml": _domain("boxes"),
        "bags/schemas/openapi.yaml": _domain("bags"),
        "cans/schemas/openapi.yaml": _domain("cans"),
    }
    assert _run(make_corpus(files)) == []
    # the page of the part whose document it is: held to it
    files["boxes/README.md"] = core
    (finding,) = _run(make_corpus(files))
    assert finding.location.path == "boxes/README.md"
    assert "`DELETE /boxes/{id}/items` is no operation" in finding.message


def test_copies_of_one_api_in_other_folders_are_no_parts(make_corpus: MakeCorpus) -> None:
    # the API, a client's copy and a generated one: one API, and the core page is held to it
    core = (
        "# Core\n\n- `GET /boxes/{id}`\n- `GET /boxes/{id}/items`\n- `DELETE /boxes/{id}/items`\n"
    )
    files: dict[str, str | bytes] = {
        "docs/http.md": core,
        "api/openapi.yaml": _domain("boxes"),
        "client/openapi.yaml": _domain("boxes"),
        "generated/openapi.yaml": _domain("boxes"),
    }
    (finding,) = _run(make_corpus(files))
    assert finding.location.path == "docs/http.md"


def test_bindings_say_why_a_route_is_held_as_the_apis(make_corpus: MakeCorpus) -> None:
    page = "Read its data:\n\n```\n/v3/crates/s-9/search\n```\n"
    page += "\nStop it with the `v3/crate/{crate_id}/stop` endpoint.\n"
    output = run_cli("bindings", str(bound_page(make_corpus, page))).output
    assert (
        "docs/widgets.md:10 block route `/v3/crates/s-9/search`\n"
        "    (no operation of openapi.yaml; held as the API's: a code block holds it alone, and "
        "it starts as an operation's path does)"
    ) in output
    assert "held as the API's: the words beside it call it a route)" in output
    root = make_corpus(
        {"openapi.yaml": FLAT, "docs/threads.md": LISTING.replace("{title}", "Blob API Endpoints")}
    )
    output = run_cli("bindings", str(root)).output
    assert "listed under the heading `#blob-api-endpoints`, rooted as the API's paths are" in output


def test_a_route_another_part_of_the_api_declares_is_not_reported(
    make_corpus: MakeCorpus,
) -> None:
    ok = "{responses: {'200': {description: ok}}}"
    page = (
        "# Tasks\n\n- `GET /tasks`\n- `GET /tasks/{taskId}`\n- `GET /tasks/{taskId}/logs`\n"
        "- `GET /health`\n\n## Part 2: Management\n\n"
        "- `POST /tasks`\n- `PATCH /tasks/{taskId}`\n- `DELETE /tasks/{taskId}`\n"
    )
    files: dict[str, str | bytes] = {
        "api/bundled.yaml": BUNDLE,
        "api/tasks.yaml": ROOT,
        "api/paths/core/pTasks.yaml": f"get: {ok}\n",
        "api/paths/core/pTask.yaml": f"get: {ok}\n",
        "api/paths/management/pTasks.yaml": f"post: {ok}\n",
        "api/paths/management/pTask.yaml": f"patch: {ok}\n",
        "README.md": page,
    }
    # POST and PATCH are the management part's; DELETE is no part's
    (finding,) = _run(make_corpus(files))
    assert "`DELETE /tasks/{taskId}` is no operation" in finding.message


# route-undeclared (issue 46, item 7), second round: routes in front matter, pages with too few
# routes to bind alone, every placeholder notation, optional segments, paths without a leading
# slash, renamed parameters, and concrete paths in running text.


API_PLACEHOLDERS = """\
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
BOUND_PLACEHOLDERS = """\
# Sessions

- `POST /v1/session`
- `GET /v1/session/{session_id}`
- `DELETE /v1/session/{session_id}`
"""


def found(root: Path) -> list[tuple[str, int, str]]:
    return [(f.location.path, f.location.line, f.severity.label) for f in _run(root)]


def bound_page_placeholders(
    make_corpus: MakeCorpus, page: str, api: str = API_PLACEHOLDERS
) -> Path:
    return make_corpus({"openapi.yaml": api, "docs/sessions.md": BOUND_PLACEHOLDERS + "\n" + page})


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
    root = make_corpus(
        {"openapi.yaml": API_PLACEHOLDERS, "docs/read.mdx": page + BOUND_PLACEHOLDERS}
    )
    (finding,) = _run(root)
    assert (finding.location.line, finding.severity.label) == (3, "warning")
    assert "`GET /sessions/{session_id}` is no operation of `openapi.yaml`" in finding.message
    assert "the nearest is `GET /session/{session_id}`" in finding.message
    output = run_cli("bindings", str(root)).output
    assert "docs/read.mdx:3 front-matter route `GET /sessions/{session_id}`" in output
    # the operation itself: quiet
    page = page.replace("/sessions/", "/session/")
    assert (
        found(
            make_corpus(
                {"openapi.yaml": API_PLACEHOLDERS, "docs/read.mdx": page + BOUND_PLACEHOLDERS}
            )
        )
        == []
    )


def test_a_page_of_one_wrong_route_is_held_through_the_repository(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    lone = "# End a session\n\nSend `DELETE /sessions/{id}` to end it.\n"
    root = make_corpus(
        {
            "openapi.yaml": API_PLACEHOLDERS,
            "docs/sessions.md": BOUND_PLACEHOLDERS,
            "docs/end.md": lone,
        }
    )
    (finding,) = _run(root)
    assert (finding.location.path, finding.location.line) == ("docs/end.md", 3)
    assert "the nearest is `DELETE /session/{session_id}`" in finding.message
    # without the other pages nothing binds the repository to the document
    alone = write_files(tmp_path / "alone", {"openapi.yaml": API_PLACEHOLDERS, "docs/end.md": lone})
    assert found(alone) == []


def test_a_lone_route_of_another_api_stays_unjudged(make_corpus: MakeCorpus) -> None:
    pages = {
        "openapi.yaml": API_PLACEHOLDERS,
        "docs/sessions.md": BOUND_PLACEHOLDERS,
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
    api = (
        API_PLACEHOLDERS
        + "  /session/{session_id}:fork:\n    post: {responses: {'201': {description: ok}}}\n"
    )
    lone = "Hosts reject `POST /v1/session:fork` requests with 501.\n"
    pages = {"openapi.yaml": api, "docs/sessions.md": BOUND_PLACEHOLDERS, "docs/fork.md": lone}
    (finding,) = _run(make_corpus(pages))
    assert "the nearest is `POST /session/{session_id}:fork`" in finding.message
    assert "custom method `:fork` acts on one of its members" in finding.message


def test_bindings_say_a_page_is_held_through_the_repository(make_corpus: MakeCorpus) -> None:
    lone = "Send `DELETE /sessions/{id}` to end it.\n"
    root = make_corpus(
        {
            "openapi.yaml": API_PLACEHOLDERS,
            "docs/sessions.md": BOUND_PLACEHOLDERS,
            "docs/end.md": lone,
        }
    )
    output = run_cli("bindings", str(root)).output
    assert (
        "docs/end.md:1 code route `DELETE /sessions/{id}`\n"
        "    (no operation of openapi.yaml, bound through the repository's pages; "
        "nearest `DELETE /session/{session_id}`)"
    ) in output


def test_every_placeholder_notation_is_a_variable(make_corpus: MakeCorpus) -> None:
    page = (
        "- `GET /v1/session/<session_id>`\n"
        "- `GET /v1/session/:session_id`\n"
        "- `GET /v1/session/${SESSION_ID}`\n"
        "- `GET /v1/session/$SESSION_ID`\n"
        "- `GET /v1/session/{{session_id}}`\n"
        "- GET /v1/session/<session_id> reads one.\n"
    )
    assert found(bound_page_placeholders(make_corpus, page)) == []
    # a template over any collection (`/<GROUPS>/<gid>`) is no route of this API, and does not
    # unbind the page
    page = "- `GET /<GROUPS>/<gid>`\n- `PUT /<GROUPS>/<gid>`\n- `POST /<GROUPS>`\n- `PUT /v1/session`\n"
    (finding,) = _run(bound_page_placeholders(make_corpus, page))
    assert "`PUT /v1/session` is no operation" in finding.message


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
    (finding,) = _run(bound_page_placeholders(make_corpus, page))
    assert finding.severity.label == "info"
    assert "`POST v1/models/<model>/infer` is no operation" in finding.message
    assert "the nearest is `POST /models/{model}/versions/{version}/infer`" in finding.message
    assert "the form with the optional part" in finding.message
    # neither form: one finding, of the longer
    page = "- `POST /v1/models/<name>[/revisions/<r>]/run`\n"
    (finding,) = _run(bound_page_placeholders(make_corpus, page))
    assert "`POST /v1/models/<name>/revisions/<r>/run`" in finding.message


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
    assert found(bound_page_placeholders(make_corpus, page)) == [
        ("docs/sessions.md", 8, "warning"),
        ("docs/sessions.md", 9, "info"),
        ("docs/sessions.md", 14, "warning"),
    ]


def test_a_renamed_parameter_is_an_info_naming_the_apis(make_corpus: MakeCorpus) -> None:
    (finding,) = _run(bound_page_placeholders(make_corpus, "- `GET /v1/table/{id}/info`\n"))
    assert (finding.location.line, finding.severity.label) == (7, "info")
    assert "the API names this parameter `table_name`" in finding.message
    assert finding.related[0].pointer == "/paths/~1table~1{table_name}~1info/get"
    # a concrete value, or the same name in another convention, is no renamed parameter
    page = (
        "- `GET /v1/table/hpo/info`\n- `GET /v1/table/{tableName}/info`\n"
        "- `GET /v1/table/{parentTableName}/info`\n"  # qualified by its role: the same name
    )
    assert found(bound_page_placeholders(make_corpus, page)) == []


def test_a_concrete_path_below_no_base_path_near_an_operation_is_an_info(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    api = API_PLACEHOLDERS.replace(
        "https://api.sessions.example.net/v1", "https://api.sessions.example.net"
    )
    bound = BOUND_PLACEHOLDERS.replace("/v1/", "/")
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
    elsewhere = {
        "openapi.yaml": API_PLACEHOLDERS,
        "docs/sessions.md": BOUND_PLACEHOLDERS + "\n" + page,
    }
    assert found(write_files(tmp_path / "elsewhere", elsewhere)) == []


def test_a_trailing_slash_after_a_value_is_an_empty_last_variable(make_corpus: MakeCorpus) -> None:
    # `/table/hpo/` is `/table/{table_name}/{x}` with an empty `x`; `/session/` is `/session`
    api = (
        API_PLACEHOLDERS
        + "  /table/{table_name}/{view}:\n    get: {responses: {'200': {description: ok}}}\n"
    )
    page = "- `GET /v1/table/hpo/`\n- `DELETE /v1/session/`\n"
    assert found(bound_page_placeholders(make_corpus, page, api)) == [
        ("docs/sessions.md", 8, "warning")
    ]


def test_a_table_cells_escaped_placeholder_reads_as_the_page_shows_it(
    make_corpus: MakeCorpus,
) -> None:
    # CommonMark §2.4: `\<version\>` in a table cell shows `<version>`; read escaped, the route
    # matched no operation, and the form the document has was reported as missing.
    table = (
        "| Verb | Path |\n| --- | --- |\n"
        "| POST | v1/models/\\<model\\>[/versions/\\<version\\>]/infer |\n"
    )
    (finding,) = _run(bound_page_placeholders(make_corpus, table))
    assert "`POST v1/models/<model>/infer` is no operation" in finding.message
    assert finding.severity.label == "info"


def test_a_wildcard_route_in_a_table_cell_is_a_pattern_not_its_prefix(
    make_corpus: MakeCorpus,
) -> None:
    # A rate-limit table's `POST /sessions/*` names every route below; with the `*` dropped as
    # an emphasis mark it read as `POST /sessions/`, an operation the document lacks.
    table = "| Bucket | Route |\n| --- | --- |\n| writes | `PUT /v1/session/*` |\n"
    assert _run(bound_page_placeholders(make_corpus, table)) == []
    emphasised = "| Bucket | Route |\n| --- | --- |\n| writes | **`PUT /v1/session/{id}`** |\n"
    assert (
        len(_run(bound_page_placeholders(make_corpus, emphasised))) == 1
    )  # emphasis marks still dropped


def test_a_dollar_brace_segment_of_the_document_is_a_variable(make_corpus: MakeCorpus) -> None:
    # no template's expression: the document is read (`openapi-invalid` still says it is no
    # OpenAPI template), and a value or any variable fills the segment
    assert template_data("openapi", {"paths": {"/models/${MODEL}/ready": {}}}) is None
    assert template_data("openapi", {"paths": {"${BASE}/models": {}}}) is not None
    api = API_PLACEHOLDERS.replace("/models/{model}/ready", "/models/${MODEL}/ready")
    page = "- `GET /v1/models/resnet/ready`\n- `GET /v1/models/{model}/ready`\n"
    root = bound_page_placeholders(make_corpus, page, api)
    assert found(root) == []
    output = run_cli("bindings", str(root)).output
    assert output.count("-> `GET /models/${MODEL}/ready` of openapi.yaml") == 2
