"""Examples bound by where they are and what carries them (issue 28, items 1 and 5): the OpenAPI
operation a fence sits under, the JSON-RPC request a response answers, an envelope's nested
discriminator, example files with no ``$schema``; defaults judged where they are written."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema

from conftest import run_cli
from speclint.analyses.api.exchanges import side_said
from speclint.analyses.context import Context
from speclint.analyses.prose.fences import BY_OPERATION, Binding, fence_ties
from speclint.analyses.schemas.validation import explain
from speclint.common.findings import Finding, Severity
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

METHODS = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
        "CallToolRequest": {
            "type": "object",
            "properties": {
                "jsonrpc": {"const": "2.0"},
                "id": {"type": "integer"},
                "method": {"const": "tools/call"},
                "params": {"type": "object"},
            },
            "required": ["jsonrpc", "id", "method", "params"],
        },
        "CallToolResult": {
            "type": "object",
            "properties": {"content": {"type": "array"}, "isError": {"type": "boolean"}},
            "required": ["content"],
        },
        "ListToolsRequest": {
            "type": "object",
            "properties": {
                "jsonrpc": {"const": "2.0"},
                "id": {"type": "integer"},
                "method": {"const": "tools/list"},
                "params": {"type": "object"},
            },
            "required": ["jsonrpc", "id", "method"],
        },
        "ListToolsResult": {
            "type": "object",
            "properties": {"tools": {"type": "array"}, "nextCursor": {"type": "string"}},
            "required": ["tools"],
        },
    },
}


def fence(value: Any) -> str:
    return f"```json\n{json.dumps(value, indent=2)}\n```\n"


def example_findings(files: dict[str, str], options: dict[str, Any] | None = None) -> list[Finding]:
    corpus = Context.from_texts(files)
    return list(all_rules()["example-invalid"].check(corpus, options or {}))


def rpc_page(body: str) -> dict[str, str]:
    return {"schemas/methods.json": json.dumps(METHODS), "spec/tools.md": f"# Tools\n\n{body}"}


CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "x"}}


def test_a_response_is_bound_to_the_result_of_the_request_above_it() -> None:
    answer = {"jsonrpc": "2.0", "id": 7, "result": {"isError": False}}
    page = "## Calling\n\n**Request:**\n\n" + fence(CALL) + "\n**Response:**\n\n" + fence(answer)
    [finding] = example_findings(rpc_page(page))
    assert finding.message.startswith('example at /result: "content" is a required property')
    assert "answering the `tools/call` request above" in finding.message
    assert finding.severity is Severity.ERROR
    # A valid result is quiet; a response to another id answers another request.
    good = {"jsonrpc": "2.0", "id": 7, "result": {"content": []}}
    assert example_findings(rpc_page("## Calling\n\n" + fence(CALL) + fence(good))) == []
    other = {"jsonrpc": "2.0", "id": 8, "result": {"isError": False}}
    assert example_findings(rpc_page("## Calling\n\n" + fence(CALL) + fence(other))) == []
    # Under another heading, the request above is another section's.
    apart = "## Calling\n\n" + fence(CALL) + "\n## Errors\n\n" + fence(answer)
    assert example_findings(rpc_page(apart)) == []


def test_a_response_is_bound_by_the_method_its_text_names() -> None:
    answer = {"jsonrpc": "2.0", "id": 1, "result": {"nextCursor": "c"}}
    [finding] = example_findings(rpc_page("The answer to `tools/list`:\n\n" + fence(answer)))
    assert '"tools" is a required property' in finding.message
    assert "answering `tools/list`, which the text names" in finding.message
    # Switched off, nothing binds it.
    options = {"by-operation": False}
    assert example_findings(rpc_page("Answer to `tools/list`:\n\n" + fence(answer)), options) == []


RUNS_API = """\
openapi: 3.1.0
info: {title: Runs, version: '1'}
servers:
  - url: https://api.example.org/api
paths:
  /v1/runs/{runId}:pause:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                reason: {type: string}
                drainPolicy: {type: string, enum: [immediate, drain]}
              additionalProperties: false
      responses:
        '202':
          description: accepted
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Paused'}
        '409':
          description: conflict
          content:
            application/json:
              schema: {type: object, properties: {error: {type: string}}}
components:
  schemas:
    Paused:
      type: object
      properties:
        runId: {type: string}
        status: {type: string, enum: [paused]}
        pausedAt: {type: string}
      required: [runId, status]
"""


def api_page(body: str) -> dict[str, str]:
    return {"api/openapi.yaml": RUNS_API, "spec/rest.md": f"# REST\n\n{body}"}


def test_an_example_under_an_operation_is_its_request_or_response() -> None:
    request = {"reason": "maintenance", "drainPolicy": "later"}
    response = {"runId": "run-1", "status": "pausing"}
    page = (
        "#### `POST /v1/runs/{id}:pause` request\n\n"
        + fence(request)
        + "\nResponse:\n\n"
        + fence(response)
    )
    first, second = example_findings(api_page(page))
    assert '"later" is not one of ["immediate", "drain"]' in first.message
    assert "under `POST /v1/runs/{runId}:pause`, its request body" in first.message
    assert first.related[0].pointer.endswith(
        "/application~1json/schema/properties/drainPolicy/enum"
    )
    assert '"pausing" is not one of ["paused"]' in second.message
    assert "its 202 response" in second.message
    # The path written with the server's base path names the operation too.
    based = "Request body of `POST /api/v1/runs/{runId}:pause`:\n\n" + fence(request)
    assert len(example_findings(api_page(based))) == 1


def test_an_operation_without_a_side_or_with_another_shape_binds_nothing() -> None:
    request = {"reason": "maintenance", "drainPolicy": "later"}
    # Neither "request" nor "response": which body it shows is not said.
    assert (
        example_findings(api_page("#### `POST /v1/runs/{runId}:pause`\n\n" + fence(request))) == []
    )
    # Said, but the example is not that body's shape (an event the operation emits).
    event = {"type": "run.paused", "sequence": 4, "at": "now"}
    page = "#### `POST /v1/runs/{runId}:pause` response\n\n" + fence(event)
    assert example_findings(api_page(page)) == []
    corpus = Context.from_texts(api_page(page))
    ties = list(
        fence_ties(corpus, corpus.documents["spec/rest.md"], Binding(value=False, shape=False))
    )
    assert not [t for t in ties if t.how == BY_OPERATION]


def test_an_operation_reads_the_side_in_the_words_an_exchange_reads() -> None:
    # One list of side words (exchanges.side_said): "Response body" is a response, not both
    # sides because it says "body"; "payload" is the request, "output" a response.
    response = {"runId": "run-1", "status": "pausing"}
    page = "The response body of `POST /v1/runs/{runId}:pause`:\n\n" + fence(response)
    (found,) = example_findings(api_page(page))
    assert "its 202 response" in found.message
    request = {"reason": "maintenance", "drainPolicy": "later"}
    page = "The payload of `POST /v1/runs/{runId}:pause`:\n\n" + fence(request)
    (found,) = example_findings(api_page(page))
    assert "its request body" in found.message
    assert side_said("Response body:") == "response"
    assert side_said("Request body and response:") == ""


def test_a_field_sketch_under_an_operation_is_not_judged() -> None:
    sketch = {"reason": "string (optional)", "drainPolicy": "immediate | drain (optional)"}
    page = "#### `POST /v1/runs/{runId}:pause` request\n\n" + fence(sketch)
    assert example_findings(api_page(page)) == []


EVENTS = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
        "Closed": {
            "type": "object",
            "properties": {
                "context": {
                    "type": "object",
                    "properties": {
                        "type": {"enum": ["dev.example.closed.1.0.0"]},
                        "id": {"type": "string"},
                    },
                    "required": ["type", "id"],
                },
                "subject": {"type": "object"},
            },
            "required": ["context", "subject"],
        },
        "Opened": {
            "type": "object",
            "properties": {
                "context": {
                    "type": "object",
                    "properties": {"type": {"enum": ["dev.example.opened.1.0.0"]}},
                },
                "subject": {"type": "object"},
            },
        },
    },
}


def test_a_discriminator_of_another_version_binds_and_is_the_defect() -> None:
    event = {"context": {"type": "dev.example.closed.0.9", "id": "e"}, "subject": {}}
    files = {
        "schemas/events.json": json.dumps(EVENTS),
        "spec/events.md": "# Events\n\n" + fence(event),
    }
    [finding] = example_findings(files)
    assert '"dev.example.closed.0.9" is not one of ["dev.example.closed.1.0.0"]' in finding.message
    # said on the schema's related location when the message has no room for it
    assert "(fixed at another version)" in finding.related[0].note


def test_an_envelope_is_bound_by_the_discriminator_it_carries() -> None:
    event = {"context": {"type": "dev.example.closed.1.0.0", "id": 3}, "subject": {}}
    files = {
        "schemas/events.json": json.dumps(EVENTS),
        "spec/events.md": "# Events\n\n" + fence(event),
    }
    [finding] = example_findings(files)
    assert 'example at /context/id: 3 is not of type "string"' in finding.message
    assert '`context.type: "dev.example.closed.1.0.0"`' in finding.message


def test_example_files_are_bound_like_fences(make_corpus: MakeCorpus) -> None:
    event = {"context": {"type": "dev.example.closed.1.0.0"}, "subject": {}}
    files: dict[str, str | bytes] = {
        "schemas/events.json": json.dumps(EVENTS),
        "examples/closed.json": json.dumps(event, indent=2),
        # Files meant to fail, and data outside an example folder, are not judged.
        "examples/invalid/closed.json": json.dumps(event),
        "config/closed.json": json.dumps(event),
        # A `$ref` beside the members merges a base example in: what it lacks may come from it.
        "examples/merged.json": json.dumps({"$ref": "base.json", **event}),
    }
    [finding] = example_findings({k: str(v) for k, v in files.items()})
    assert finding.location.path == "examples/closed.json"
    assert finding.location.line == 2  # the `context` member that lacks `id`
    assert '"id" is a required property' in finding.message
    assert '`context.type: "dev.example.closed.1.0.0"`' in finding.message
    assert finding.related[0].path == "schemas/events.json"
    output = run_cli("bindings", str(make_corpus(files))).output
    assert "examples/closed.json example file" in output
    assert "-> schemas/events.json#/$defs/Closed (by example value:" in output
    assert "examples/invalid/closed.json" not in output


def test_an_elision_written_as_a_comment_sets_missing_members_aside() -> None:
    answer = '```json\n{\n  "jsonrpc": "2.0",\n  "id": 7,\n  "result": {\n    "isError": false\n    // ... other fields ...\n  }\n}\n```\n'
    assert example_findings(rpc_page("## Calling\n\n" + fence(CALL) + answer)) == []


DEFAULTS_API = """\
openapi: 3.1.0
info: {title: Defaults, version: '1'}
paths:
  /a:
    get:
      parameters:
        - name: mode
          in: query
          schema: {type: string, enum: [fast, slow], default: medium}
        - name: shared
          in: query
          schema: {$ref: '#/components/schemas/Shared'}
      responses:
        '200': {description: ok}
  /b:
    get:
      parameters:
        - name: shared
          in: query
          schema: {$ref: '#/components/schemas/Shared'}
      responses:
        '200': {description: ok}
components:
  schemas:
    Shared: {type: integer, minimum: 1, default: 0}
"""


def test_openapi_defaults_are_judged_once_where_they_are_written() -> None:
    corpus = Context.from_texts({"api/openapi.yaml": DEFAULTS_API})
    rules = all_rules()
    values = list(rules["value-invalid"].check(corpus, {}))
    assert sorted(f.location.pointer for f in values) == [
        "/components/schemas/Shared/default",
        "/paths/~1a/get/parameters/0/schema/default",
    ]
    assert any('"medium" is not one of ["fast", "slow"]' in f.message for f in values)
    # openapi-invalid leaves them to value-invalid: no second finding at a use site.
    assert not [
        f for f in rules["openapi-invalid"].check(corpus, {}) if "default" in f.location.pointer
    ]


CAPABILITIES = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "protocolVersion": {"type": "string"},
        "search": {
            "type": "object",
            "properties": {
                "supported": {"type": "boolean"},
                "backends": {"type": "array", "items": {"enum": ["lucene", "sphinx"]}},
            },
            "additionalProperties": False,
        },
        "limits": {"type": "object", "properties": {"maxRuns": {"type": "integer"}}},
    },
    "required": ["protocolVersion"],
}


def test_a_member_shown_alone_is_bound_as_a_fragment_of_its_definition() -> None:
    def page(value: Any) -> dict[str, str]:
        return {
            "schemas/capabilities.json": json.dumps(CAPABILITIES),
            "spec/search.md": "# Search\n\nAdvertised as:\n\n" + fence(value),
        }

    shown = {"search": {"supported": True, "backends": ["lucene", "in-memory"]}}
    [finding] = example_findings(page(shown))
    assert finding.severity is Severity.WARNING
    assert 'example at /search/backends/1: "in-memory" is not one of' in finding.message
    assert "only `capabilities.json` declares `search`" in finding.related[0].note
    # What the definition requires besides the member shown is not the fragment's to give.
    assert "protocolVersion" not in finding.message
    assert example_findings(page({"search": {"supported": True, "backends": ["lucene"]}})) == []
    # A member whose members its schema does not declare is some other thing of that name.
    assert example_findings(page({"search": {"engine": "x", "backends": ["in-memory"]}})) == []
    # One member alone (a single value) is too little to bind.
    assert example_findings(page({"limits": {"maxRuns": "many"}})) == []


def test_a_oneof_failure_is_explained_by_the_branch_its_discriminator_names() -> None:
    # A `file` part that gives `data` where `bytes` is required: the explanation is the file
    # branch's, not '"text" was expected' from the text branch (issue 28).
    part = {
        "oneOf": [
            {
                "properties": {"kind": {"const": "text"}, "text": {"type": "string"}},
                "required": ["kind", "text"],
            },
            {
                "properties": {
                    "kind": {"const": "file"},
                    "file": {"oneOf": [{"required": ["bytes"]}, {"required": ["uri"]}]},
                },
                "required": ["kind", "file"],
            },
        ]
    }
    message = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {"kind": {"const": "message"}, "parts": {"type": "array", "items": part}},
        "required": ["kind"],
    }
    example = {"kind": "message", "parts": [{"kind": "file", "file": {"data": "aGk="}}]}
    files = {
        "schemas/message.json": json.dumps(message),
        "spec/parts.md": "# Parts\n\n" + fence(example),
    }
    [finding] = example_findings(files)
    assert 'example at /parts/0/file: "bytes" is a required property' in finding.message
    assert '"text" was expected' not in finding.message


def test_a_result_of_another_kind_is_not_bound_by_the_request_name() -> None:
    # `tools/call` answered with a task handle, not a CallToolResult: its members say so.
    answer = {"jsonrpc": "2.0", "id": 7, "result": {"task": {"taskId": "t-1"}}}
    assert example_findings(rpc_page("## Calling\n\n" + fence(CALL) + fence(answer))) == []


def test_an_array_items_enum_is_no_discriminator() -> None:
    # The metaschema's `type: anyOf [enum, array of enum]`: `["object", null]` fails the array
    # branch at its item 1, which is the explanation (not "is not one of" for the whole list).
    names = {"enum": ["object", "string", "null"]}
    schema = {"anyOf": [names, {"type": "array", "items": names}]}
    [error] = jsonschema.Draft202012Validator(schema).iter_errors(["object", None])
    assert list(explain(error).absolute_path) == [1]


def test_an_example_naming_its_schema_is_bound_to_it(make_corpus: MakeCorpus) -> None:
    run = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.org/schemas/run.json",
        "type": "object",
        "properties": {"status": {"enum": ["queued", "done"]}, "id": {"type": "string"}},
    }
    named = {"$schema": "https://example.org/schemas/run.json", "status": "lost", "id": "r"}
    files = {"schemas/run.json": json.dumps(run), "spec/runs.md": "# Runs\n\n" + fence(named)}
    [finding] = example_findings(files)
    assert '"lost" is not one of ["queued", "done"]' in finding.message
    assert '`$schema: "https://example.org/schemas/run.json"`' in finding.message
    # A `$schema` naming nothing in the corpus binds nothing by itself.
    elsewhere = dict(named, **{"$schema": "https://example.org/other.json"})
    files["spec/runs.md"] = "# Runs\n\n" + fence(elsewhere)
    assert example_findings(files) == []
    # An example file naming its schema by OpenLineage's `_schemaURL`.
    files["examples/run.json"] = json.dumps(
        {"_schemaURL": "https://example.org/schemas/run.json", "status": "lost"}
    )
    [finding] = example_findings(files)
    assert finding.location.path == "examples/run.json"


def test_a_type_name_as_a_wrong_value_of_the_right_type_is_judged() -> None:
    # `"role": "object"` is a wrong value, not a field sketch: only a type named where another
    # type goes, or a union of values, stands in.
    call = dict(CALL, params={"name": "x"}, jsonrpc="object")
    [finding] = example_findings(rpc_page("## Calling\n\n" + fence(call)))
    assert '"2.0" was expected' in finding.message


SWAGGER = """\
swagger: '2.0'
info: {title: Pages, version: '1'}
paths: {}
definitions:
  Page:
    type: object
    properties:
      size: {type: integer, minimum: 0, exclusiveMinimum: false, default: 0}
      mode: {type: string, enum: [a, b], default: c}
"""


def test_swagger_defaults_are_not_judged_as_2020_12() -> None:
    corpus = Context.from_texts({"api/swagger.yaml": SWAGGER})
    # Draft-04 with OpenAPI's words (a boolean `exclusiveMinimum` is no bound of 0): value-invalid
    # leaves Swagger 2.0's defaults to openapi-invalid's validator, as before issue 28.
    found = all_rules()["value-invalid"].check(corpus, {})
    assert not [f for f in found if "default" in f.location.pointer]
