"""Examples bound by the HTTP exchange they are part of (issue 46, item 2): an ``http``/``hurl``
fence, a ``curl`` command or a bare request line names an OpenAPI operation by its method and
concrete path; its own body is that operation's request body, and the fences after it are its
request or a response as a status line or the words above them say."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_example_binding import PARTS_API

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.analyses.prose.fences import BY_EXCHANGE, Binding, example_bindings, fence_ties
from speclint.common.findings import Finding
from speclint.parsing.http_requests import fence_request, request_path
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


JOBS_API = """\
openapi: 3.1.0
info: {title: Jobs, version: '2'}
servers:
  - url: https://api.example.org/api/v2
paths:
  /jobs:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/JobRequest'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Job'}
        '409':
          description: conflict
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Problem'}
  /jobs/{jobId}:
    get:
      parameters:
        - {name: jobId, in: path, required: true, schema: {type: string}}
        - {name: view, in: query, schema: {type: string}}
      responses:
        '200':
          description: the job
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Job'}
  /jobs/search:
    get:
      responses:
        '200':
          description: the jobs found
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: {type: array, items: {$ref: '#/components/schemas/Job'}}
                  total: {type: integer}
                required: [items]
components:
  schemas:
    JobRequest:
      type: object
      properties:
        name: {type: string}
        priority: {type: string, enum: [low, high]}
      required: [name]
      additionalProperties: false
    Job:
      type: object
      properties:
        id: {type: string}
        name: {type: string}
        state: {type: string, enum: [queued, running, done]}
      required: [id, name, state]
    Problem:
      type: object
      properties:
        title: {type: string}
        status: {type: integer}
      required: [title, status]
"""


def page(body: str) -> dict[str, str]:
    return {"api/openapi.yaml": JOBS_API, "docs/guide.md": f"# Guide\n\n{body}"}


def findings(files: dict[str, str], options: dict[str, Any] | None = None) -> list[Finding]:
    corpus = Context.from_texts(files)
    return list(all_rules()["example-invalid"].check(corpus, options or {}))


def said(finding: Finding) -> str:
    """The finding's message and its related locations' notes (where the evidence goes when
    the message is too long to say it)."""
    return "\n".join([finding.message, *(r.note for r in finding.related)])


def exchange_ties(files: dict[str, str]) -> dict[int, list[str]]:
    """Each fence line bound by an exchange, with the evidence of each tie."""
    corpus = Context.from_texts(files)
    found: dict[int, list[str]] = {}
    for tie in fence_ties(corpus, corpus.documents["docs/guide.md"], Binding()):
        if tie.how == BY_EXCHANGE:
            found.setdefault(tie.fence.line, []).append(tie.evidence)
    return found


HTTP_REQUEST = """\
```http
POST /api/v2/jobs HTTP/1.1
Host: api.example.org
Content-Type: application/json

{"name": "nightly", "priority": "urgent"}
```
"""


def test_an_http_fence_body_binds_to_the_request_body_of_its_operation() -> None:
    [finding] = findings(page(HTTP_REQUEST))
    assert finding.message.startswith('example at /priority: "urgent" is not one of')
    assert "its body in `POST /api/v2/jobs`, `POST /jobs`'s request body" in said(finding)
    assert finding.heuristic == "example-invalid/by-exchange"
    # Where the body writes the wrong value: the fence opens on line 3, the value is on line 8.
    assert (finding.location.line, finding.location.column) == (8, 21)
    good = HTTP_REQUEST.replace("urgent", "high")
    assert findings(page(good)) == []
    # Switched off with the other ties by place.
    assert findings(page(HTTP_REQUEST), {"by-operation": False}) == []


CURL_POST = """\
```bash
$ curl -X POST https://api.example.org/api/v2/jobs \\
    -H 'Content-Type: application/json' \\
    -d '{
      "name": "nightly",
      "priority": 5
    }'
```
"""


def test_a_curl_data_body_binds_to_the_request_body() -> None:
    [finding] = findings(page(CURL_POST))
    assert finding.message.startswith('example at /priority: 5 is not of type "string"')
    assert "`curl -X POST …/api/v2/jobs`" in said(finding)
    assert (finding.location.line, finding.location.column) == (8, 7)
    # `--json` sends a JSON body too, and says POST itself.
    json_only = "```sh\ncurl --json '{\"name\": 3}' localhost:8080/api/v2/jobs\n```\n"
    [typed] = findings(page(json_only))
    assert typed.message.startswith('example at /name: 3 is not of type "string"')
    # A form body is not JSON: nothing to bind.
    form = "```sh\ncurl -d 'name=nightly' https://api.example.org/api/v2/jobs\n```\n"
    assert findings(page(form)) == [] and exchange_ties(page(form)) == {}


CURL_GET = """\
```bash
curl -s https://api.example.org/api/v2/jobs/job-42 -H 'Accept: application/json'
```

Response:

```json
{"id": "job-42", "name": "nightly", "state": "paused"}
```
"""


def test_a_response_after_a_curl_command_binds_to_the_success_response() -> None:
    [finding] = findings(page(CURL_GET))
    assert finding.message.startswith('example at /state: "paused" is not one of')
    assert "after `curl -X GET …/api/v2/jobs/job-42`, `GET /jobs/{jobId}`'s 200 response" in said(
        finding
    )
    # The related location names the request that binds it.
    assert any(r.line == 3 for r in finding.related)
    assert findings(page(CURL_GET.replace("paused", "done"))) == []


def test_a_response_reached_through_a_chain_of_references_binds() -> None:
    # OpenAPI 3.1 §4.8.23: a Reference Object may name another; the response it ends at binds.
    chained = JOBS_API.replace(
        """      responses:
        '200':
          description: the job
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Job'}
  /jobs/search:""",
        """      responses:
        '200': {$ref: '#/components/responses/JobAlias'}
  /jobs/search:""",
    ).replace(
        "components:\n",
        """components:
  responses:
    JobAlias: {$ref: '#/components/responses/Job'}
    Job:
      description: the job
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Job'}
""",
    )
    files = {"api/openapi.yaml": chained, "docs/guide.md": f"# Guide\n\n{CURL_GET}"}
    [finding] = findings(files)
    assert finding.message.startswith('example at /state: "paused" is not one of')


HTTP_EXCHANGE = """\
```http
POST /api/v2/jobs HTTP/1.1
Content-Type: application/json

{"name": "nightly"}
```

```http
HTTP/1.1 201 Created
Content-Type: application/json

{"id": 7, "name": "nightly", "state": "queued"}
```
"""


def test_a_status_line_says_which_response_a_fence_shows() -> None:
    [finding] = findings(page(HTTP_EXCHANGE))
    assert finding.message.startswith('example at /id: 7 is not of type "string"')
    assert "after `POST /api/v2/jobs`, `POST /jobs`'s 201 response" in said(finding)
    assert finding.location.line == 14
    # A 409 is answered with a problem, not a job: its own schema binds it.
    conflict = HTTP_EXCHANGE.replace("201 Created", "409 Conflict").replace(
        '{"id": 7, "name": "nightly", "state": "queued"}', '{"title": "exists", "status": "409"}'
    )
    [problem] = findings(page(conflict))
    assert problem.message.startswith('example at /status: "409" is not of type "integer"')
    assert "`POST /jobs`'s 409 response" in said(problem)
    # Both messages in one fence: each body binds to its side.
    one = HTTP_EXCHANGE.replace("```\n\n```http\n", "\n")
    [both] = findings(page(one))
    assert "its `201` body in `POST /api/v2/jobs`, `POST /jobs`'s 201 response" in said(both)


REQUEST_LINE = """\
```text
GET /api/v2/jobs/job-42?view=FULL HTTP/1.1
Accept: application/json
```

The server returns the job:

```yaml
id: job-42
name: nightly
state: stopped
```
"""


def test_a_bare_request_line_with_a_query_string_names_its_templated_operation() -> None:
    [finding] = findings(page(REQUEST_LINE))
    assert finding.message.startswith('example at /state: "stopped" is not one of')
    assert "after `GET /api/v2/jobs/job-42`, `GET /jobs/{jobId}`'s 200 response" in (said(finding))
    # Below no base path, and a concrete path before a templated one (OpenAPI 3.1 §4.8.8.2):
    # `/jobs/search` is the search, not the job called `search`.
    search = REQUEST_LINE.replace("/api/v2/jobs/job-42?view=FULL", "/jobs/search?q=x").replace(
        "id: job-42\nname: nightly\nstate: stopped", "total: 2"
    )
    assert exchange_ties(page(search)) == {
        10: ["after `GET /jobs/search`, `GET /jobs/search`'s 200 response"]
    }
    [missing] = findings(page(search))
    assert missing.message.startswith('example at /: "items" is a required property')
    # Words that say a response, over a fence of another shape: something else the section
    # shows (none of its members is the search's).
    other = REQUEST_LINE.replace("/api/v2/jobs/job-42?view=FULL", "/jobs/search")
    assert exchange_ties(page(other)) == {}


UNKNOWN_ROUTE = """\
```http
POST /api/v2/widgets HTTP/1.1
Content-Type: application/json

{"name": 3}
```

Response:

```json
{"id": 1}
```
"""


def test_a_request_to_a_path_the_document_does_not_have_binds_nothing(
    make_corpus: MakeCorpus,
) -> None:
    assert findings(page(UNKNOWN_ROUTE)) == []
    assert exchange_ties(page(UNKNOWN_ROUTE)) == {}
    output = run_cli("bindings", str(make_corpus(page(UNKNOWN_ROUTE)))).output
    assert (
        "docs/guide.md:3 http example\n    (not bound: `POST /api/v2/widgets` names no operation "
        "of the OpenAPI documents of this page's version line)"
    ) in output
    assert "after `POST /api/v2/widgets`, which names no operation" in output
    # A path in another shape than a request (a sentence, a fence of nothing): no crash.
    odd = "```http\nGET\n```\n\n```bash\ncurl\n```\n\n```sh\ncurl -X\n```\n"
    assert findings(page(odd)) == []


AMBIGUOUS = """\
```bash
curl -X POST https://api.example.org/api/v2/jobs -d '{"name": "nightly"}'
```

```json
{"id": "job-1", "name": "nightly", "state": "paused"}
```

The request and the response it gets:

```json
{"id": "job-1", "name": "nightly", "state": "paused"}
```
"""


def test_a_fence_whose_side_nothing_says_is_not_bound(make_corpus: MakeCorpus) -> None:
    ties = exchange_ties(page(AMBIGUOUS))
    assert list(ties) == [3]  # the command's own body; not the two fences after it
    corpus = Context.from_texts(page(AMBIGUOUS))
    whys = {
        b.fence.line: b.why for b in example_bindings(corpus, corpus.documents["docs/guide.md"])
    }
    assert whys[7].startswith(
        "after `curl -X POST …/api/v2/jobs`, but nothing above it says whether it is the "
        "request body or a response"
    )
    assert whys[13].startswith("after `curl -X POST …/api/v2/jobs`, but nothing above it says")
    # A heading ends the exchange: what follows it is another section's.
    apart = CURL_GET.replace("Response:", "## Other\n\nResponse:")
    assert exchange_ties(page(apart)) == {}


def test_speclint_bindings_shows_the_exchange_and_its_evidence(make_corpus: MakeCorpus) -> None:
    output = run_cli("bindings", str(make_corpus(page(CURL_GET + "\n" + HTTP_REQUEST)))).output
    assert (
        "docs/guide.md:9 json example\n"
        "    -> api/openapi.yaml#/paths/~1jobs~1{jobId}/get/responses/200/content/"
        "application~1json/schema (by example exchange: after `curl -X GET "
        "…/api/v2/jobs/job-42`, `GET /jobs/{jobId}`'s 200 response)"
    ) in output
    assert "docs/guide.md:13 http example\n    -> api/openapi.yaml#/paths/~1jobs/post/" in output


def test_request_fences_are_read_as_written() -> None:
    assert request_path("https://h.example/api/v2/jobs?x=1#top") == ("/api/v2/jobs", "host")
    assert request_path("localhost:8080/jobs") == ("/jobs", "host")
    assert request_path("http://<domain>/jobs") == ("/jobs", "host")
    assert request_path("${BASE_URL}/jobs") == ("/jobs", "variable")
    assert request_path("{{host}}/jobs") == ("/jobs", "variable")
    assert request_path("/jobs") == ("/jobs", "")
    assert request_path("jobs") is None
    request = fence_request("shell", "curl -XPUT \"$API/jobs/1\" --data-raw '[1]' | jq .\n")
    assert request is not None and (request.method, request.path) == ("PUT", "/jobs/1")
    assert request.messages[0].body.strip() == "[1]"
    head = fence_request("console", "$ curl -I https://h.example/jobs\n")
    assert head is not None and head.method == "HEAD"
    hurl = fence_request("hurl", 'POST {{host}}/jobs\n{"name": "a"}\nHTTP 201\n[Asserts]\n')
    assert hurl is not None and [m.status for m in hurl.messages] == ["", "201"]
    assert hurl.messages[0].body.strip() == '{"name": "a"}'
    assert fence_request("json", '{"name": "a"}') is None
    assert fence_request("python", "requests.post('/jobs')") is None


def test_a_url_to_a_host_without_the_base_path_is_another_service() -> None:
    # The documented API is below `/api/v2`: a URL to a host that leaves it out calls
    # something else with a path alike (an admin service beside it).
    other = CURL_GET.replace("https://api.example.org/api/v2/jobs", "http://admin.local/jobs")
    assert exchange_ties(page(other)) == {}
    # A variable may stand for the server URL with its base path; a request line is often
    # written relative to the server.
    variable = CURL_GET.replace("https://api.example.org/api/v2/jobs", "$API/jobs")
    assert list(exchange_ties(page(variable))) == [9]
    relative = REQUEST_LINE.replace("/api/v2/jobs/job-42", "/jobs/job-42")
    assert list(exchange_ties(page(relative))) == [10]


def test_a_page_kept_for_an_api_as_it_was_binds_nothing() -> None:
    files = page(HTTP_REQUEST)
    files["docs/obsolete/guide-v1.md"] = files.pop("docs/guide.md")
    assert findings(files) == []


def test_a_page_of_an_old_folder_is_kept_for_an_api_as_it_was() -> None:
    # `old/` is one of the superseded folders (kinds.SUPERSEDED_FOLDERS), for every reader
    files = page(HTTP_REQUEST)
    files["docs/Old/guide-v1.md"] = files.pop("docs/guide.md")
    assert findings(files) == []
    files["docs/older/guide-v1.md"] = files.pop("docs/Old/guide-v1.md")
    assert len(findings(files)) == 1  # a folder whose name only starts so is no such folder


CLOSED_OVER_PARTS = JOBS_API.replace(
    "      requestBody:\n        content:\n          application/json:\n"
    "            schema: {$ref: '#/components/schemas/JobRequest'}",
    "      requestBody:\n        content:\n          application/json:\n"
    "            schema:\n              additionalProperties: false\n"
    "              allOf: [{$ref: '#/components/schemas/JobRequest'}]",
)


def test_a_schema_closed_over_its_parts_is_not_each_examples_defect() -> None:
    # `additionalProperties` sees only sibling `properties` (JSON Schema 2020-12 §10.3.2.3):
    # the body takes no member, which unsatisfiable-schema reports once.
    files = {**page(HTTP_REQUEST.replace("urgent", "high")), "api/openapi.yaml": CLOSED_OVER_PARTS}
    assert CLOSED_OVER_PARTS != JOBS_API
    assert findings(files) == []
    corpus = Context.from_texts(files)
    [example] = example_bindings(corpus, corpus.documents["docs/guide.md"])
    assert "schema is closed (`additionalProperties: false`) over members only" in example.why


def test_the_words_that_say_the_side_may_stand_above_a_line_that_says_nothing_of_it() -> None:
    scoped = CURL_GET.replace("Response:\n", "Response:\n\n**Required scope: `read:jobs`**\n")
    [finding] = findings(page(scoped))
    assert "`GET /jobs/{jobId}`'s 200 response" in said(finding)
    # Not past the fence before: what is said above that one is about that one.
    past = CURL_GET.replace("Response:\n", "Response:\n\n```text\nnothing\n```\n")
    assert exchange_ties(page(past)) == {}


@pytest.mark.parametrize(
    "info", ["json Response", 'json title="Response"', "json title='200 OK response'"]
)
def test_a_fence_titled_by_its_side_needs_no_words_above(info: str) -> None:
    # A documentation site's code group labels each fence in its info string (Mintlify's
    # ```json Response, Docusaurus's title="..."): the title says the side, as words above would.
    titled = CURL_GET.replace("Response:\n\n```json", f"```{info}")
    [finding] = findings(page(titled))
    assert "`GET /jobs/{jobId}`'s 200 response" in said(finding)
    # Untitled and with nothing above it, the same fence is not bound.
    assert findings(page(CURL_GET.replace("Response:\n\n", ""))) == []


def test_a_word_between_alternative_request_lines_is_no_body() -> None:
    # A template of alternatives (`PUT /` or `PATCH /`, one body below both): "or" is prose.
    template = 'PUT /jobs\nContent-Type: application/json\nor\nPATCH /jobs\n\n{"name": "a"}\n'
    request = fence_request("yaml", template)
    assert request is not None and request.messages[0].body == ""
    assert '{"name": "a"}' in request.messages[1].body
    mapping = fence_request("http", "POST /jobs\nContent-Type: application/yaml\n\nname: a\n")
    assert mapping is not None and "name: a" in mapping.messages[0].body


def test_a_page_of_requests_is_walked_once_for_its_exchanges_and_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import speclint.analyses.api.exchanges as exchanges

    read: list[str] = []

    def counted(language: str, content: str) -> Any:
        read.append(content)
        return fence_request(language, content)

    monkeypatch.setattr(exchanges, "fence_request", counted)
    requests = "".join(f"```http\nGET /api/v2/jobs/job-{n}?view=FULL\n```\n\n" for n in range(3))
    corpus = Context.from_texts(page(requests + CURL_GET))
    document = corpus.documents["docs/guide.md"]
    exchanges.page_exchanges(corpus, document)
    assert len(exchanges.parameter_values(corpus, document)) == 7  # 3 ids, 3 views, job-42
    # Each fence read once: three request lines, the curl command, the response fence.
    assert len(read) == 5


# Examples in prose that a first read of three public repositories found speclint missing
# (issue 46, round 2): a response shown under its GET request line in one fence; an example of a
# family of schemas (minimal, extended, by reference) that declare its members alike; a request's
# query and path values against the operation's parameter schemas. Fixtures of our own.


def api_page(body: str) -> dict[str, str]:
    return {"spec/api/openapi.yaml": PARTS_API, "spec/README.md": f"# Parts\n\n{body}"}


def test_speclint_bindings_lists_each_request_parameter_value(make_corpus: MakeCorpus) -> None:
    root = make_corpus(api_page("```\nGET /part/bolt-7?limit=0\n```\n"))
    output = run_cli("bindings", str(root)).output
    assert (
        "spec/README.md:4 query parameter value `0`\n    -> spec/api/openapi.yaml#/paths/"
        "~1part~1{code}/get/parameters/2/schema (by parameter value: `limit` in "
        "`GET /part/bolt-7`, `GET /part/{code}`'s query parameter)"
    ) in output
    assert "speclint: 2 request parameter value(s) bound" in output  # `code` too
