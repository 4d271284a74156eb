"""route-undeclared (issue 46, item 7), third round: the classes of wrong routes the hand-made
lists found and the rule missed. Slash-less paths the sentence calls a route (in the singular,
or cut short of the API's path), a path a code block holds alone, request lines of an indented
code block, and an example route after "for example". Every fixture is ours."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_cli, run_rule
from speclint.common.findings import Finding

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


# 1. A path without its leading slash that the sentence calls a route: in the singular where the
# API's collection is plural, and cut short of the API's path (the page's example request).


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


# 2. A path a code block holds alone: a request to send, its method left out.


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


# 3. Request lines of an indented code block (CommonMark §4.4): where written, at the method's
# column (the block's four spaces counted).


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


# 4. A route set apart under a heading that lists the API's endpoints, though no operation
# starts as it does: an operation the document lacks, not another API's.

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


# 5. A parameter spelt two ways on one page: `{shelf-id}` where the API and the page's other
# routes write `{shelf_id}`.


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


# 6. A repository of parts, each with its own API document (a family of domain specifications
# beside a core one): a page is held only to the documents of its own part.

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


# 7. `speclint bindings` says what made a route the API's where its shape does not.


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


# 8. A bundle that covers some parts of the API: the repository keeps another part's path items
# in files of the same names, which no document bundles.

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
