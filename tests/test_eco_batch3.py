"""Issue 45, ecosystem batch 3 at first read: a `$ref` a bundler inlines that only a `oneOf`
branch rejects, the explanation of a `oneOf` of a Reference and an object, errors past the
cap said, not dropped. Every fixture here is our own."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

from jsonschema import Draft202012Validator

from conftest import run_rule
from speclint.analyses.schemas.validation import explain

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def yaml(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# --- asyncapi-invalid: misplaced `$ref`s inside a `oneOf` branch -------------------------------

EXAMPLES_BY_REF = yaml(
    """
    asyncapi: 2.3.0
    info: {title: Gates, version: '1'}
    channels:
      gate/state:
        subscribe:
          message:
            name: GateState
            payload: {type: object, properties: {open: {type: boolean}}}
            examples:
              - $ref: examples/open.example.json
              - $ref: examples/shut.example.json
    """
)


def test_a_message_example_by_ref_is_inlined(make_corpus: MakeCorpus) -> None:
    # The message's `oneOf [Reference, Message]` fails at the message; only inside the Message
    # branch is `examples/0` said to hold a `$ref`, which AsyncAPI tooling dereferences.
    files: dict[str, str | bytes] = {
        "api/asyncapi.yaml": EXAMPLES_BY_REF,
        "api/examples/open.example.json": json.dumps({"name": "open", "payload": {"open": True}}),
        "api/examples/shut.example.json": json.dumps({"name": "shut", "payload": {"open": False}}),
    }
    assert run_rule(make_corpus(files), "asyncapi-invalid") == []


def test_an_error_inside_an_example_by_ref_is_reported_in_its_file(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        "api/asyncapi.yaml": EXAMPLES_BY_REF,
        "api/examples/open.example.json": json.dumps({"name": "open", "payload": {"open": True}}),
        "api/examples/shut.example.json": json.dumps({"name": "shut", "headers": "none"}),
    }
    [finding] = run_rule(make_corpus(files), "asyncapi-invalid")
    assert finding.location.path == "api/examples/shut.example.json", finding.message
    assert finding.location.pointer == "/headers"


def test_a_message_without_ref_is_not_explained_by_the_reference_branch(
    make_corpus: MakeCorpus,
) -> None:
    # `oneOf [Reference, Message]` on an object without `$ref`: "`$ref` is a required property"
    # is never what is wrong; the Message branch's deepest error is.
    document = EXAMPLES_BY_REF.replace(
        "examples:\n          - $ref: examples/open.example.json\n"
        "          - $ref: examples/shut.example.json\n",
        "examples:\n          - {name: open, headers: none}\n",
    )
    [finding] = run_rule(make_corpus({"api/asyncapi.yaml": document}), "asyncapi-invalid")
    assert '"$ref" is a required property' not in finding.message
    assert finding.location.pointer.startswith(
        "/channels/gate~1state/subscribe/message/examples/0"
    ), finding.message


def test_errors_past_the_cap_are_counted_not_dropped(make_corpus: MakeCorpus) -> None:
    channels = "".join(
        f"  c{i}:\n    description: {i}\n" for i in range(60)
    )  # a description is a string: 60 errors, one per channel
    document = "asyncapi: 2.6.0\ninfo: {title: Many, version: '1'}\nchannels:\n" + channels
    found = run_rule(make_corpus({"api/asyncapi.yaml": document}), "asyncapi-invalid")
    errors = [f for f in found if not f.coverage]
    [note] = [f for f in found if f.coverage]
    assert len(errors) == 50
    assert note.coverage == "errors-not-shown"
    assert note.message.startswith("10 more errors")


def test_schema_errors_past_the_cap_are_counted_not_dropped(make_corpus: MakeCorpus) -> None:
    """schema-invalid cut at 50 errors a schema silently; now as asyncapi-invalid: the first 50,
    and an `info` (what the run did not check) with how many more."""
    members = {f"p{i}": {"type": 5} for i in range(63)}  # a number is no type: 63 errors
    document = json.dumps(
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": members}
    )
    found = run_rule(make_corpus({"schemas/many.json": document}), "schema-invalid")
    errors = [f for f in found if not f.coverage]
    [note] = [f for f in found if f.coverage]
    assert len(errors) == 50
    assert note.coverage == "errors-not-shown"
    assert note.message.startswith("13 more errors of the schema")


# --- example-invalid: the empty value of a query parameter that allows one --------------------


def test_an_empty_example_of_a_parameter_that_allows_one_is_valid(make_corpus: MakeCorpus) -> None:
    # OpenAPI 3.0.3 §4.7.12.1 allowEmptyValue: `?verbose=` is a request the API takes.
    def document(allow: bool) -> str:
        parameter = {"in": "query", "name": "verbose", "schema": {"type": "boolean"}}
        parameter |= {"allowEmptyValue": True} if allow else {}
        operation = {
            "parameters": [parameter | {"example": ""}],
            "responses": {"200": {"description": "ok"}},
        }
        return json.dumps(
            {
                "openapi": "3.0.3",
                "info": {"title": "Gates", "version": "1"},
                "paths": {"/gates": {"get": operation}},
            }
        )

    assert run_rule(make_corpus({"api.json": document(True)}), "example-invalid") == []
    [finding] = run_rule(make_corpus({"api.json": document(False)}), "example-invalid")
    assert finding.location.pointer == "/paths/~1gates/get/parameters/0/example"


# --- example-invalid: items of one `examples` array that share a cause -------------------------


def test_items_of_one_examples_array_failing_alike_are_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^k[0-9]+$", "examples": ["a1", "b2", "k3"]},
            "open": {"type": "boolean", "examples": ["yes", 7]},
        },
    }
    text = json.dumps(schema, indent=2)
    found = run_rule(make_corpus({"schemas/gate.schema.json": text}), "example-invalid")
    by_pointer = {f.location.pointer: f for f in found}
    # `a1` and `b2` break one pattern: one finding; `"yes"` and `7` break one `type`: one too.
    assert set(by_pointer) == {"/properties/code/examples/0", "/properties/open/examples/0"}
    code = by_pointer["/properties/code/examples/0"]
    assert "1 more item of the array fails the same way" in code.message
    assert [r.pointer for r in code.related][1:] == ["/properties/code/examples/1"]
    assert [m.key for m in code.members] == [
        "/properties/code/examples/0",
        "/properties/code/examples/1",
    ]


def test_items_of_one_array_failing_differently_stay_apart(make_corpus: MakeCorpus) -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "string",
        "maxLength": 3,
        "pattern": "^[a-z]+$",
        "examples": ["abcdef", "A1"],
    }
    found = run_rule(make_corpus({"gate.schema.json": json.dumps(schema)}), "example-invalid")
    assert sorted(f.location.pointer for f in found) == ["/examples/0", "/examples/1"]


# --- instance-invalid: a schema in a package manager's folder ----------------------------------


def test_a_schema_in_node_modules_is_not_checked_not_missing(make_corpus: MakeCorpus) -> None:
    # An editor modeline into an npm package's schema: there after `npm install`, never
    # committed. Coverage, not a finding.
    config = {"$schema": "./node_modules/@tools/cli/config/schema.json", "version": 1}
    root = make_corpus({"web/tool.json": json.dumps(config)})
    [finding] = run_rule(root, "instance-invalid")
    assert finding.coverage == "schema-not-loaded", finding.message
    assert "web/node_modules" in finding.message


def test_a_missing_schema_outside_installed_folders_is_still_reported(
    make_corpus: MakeCorpus,
) -> None:
    config = {"$schema": "./schemas/tool.schema.json", "version": 1}
    [finding] = run_rule(make_corpus({"web/tool.json": json.dumps(config)}), "instance-invalid")
    assert finding.coverage is None and "not in the corpus" in finding.message


def test_a_schema_in_a_folder_discovery_leaves_out_is_not_loaded(make_corpus: MakeCorpus) -> None:
    # Go's `go mod vendor` folder (modules.txt) is left out of the corpus; the repository holds it.
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}
    root = make_corpus(
        {
            "vendor/modules.txt": "# example.org/tool v1.0.0\n",
            "vendor/example.org/tool/tool.schema.json": json.dumps(schema),
            "tool.json": json.dumps(
                {"$schema": "./vendor/example.org/tool/tool.schema.json", "version": 1}
            ),
        }
    )
    [finding] = run_rule(root, "instance-invalid")
    assert finding.coverage == "schema-not-loaded", finding.message


def test_a_message_example_by_ref_to_nothing_is_unresolved_refs_alone(
    make_corpus: MakeCorpus,
) -> None:
    # The reference index reads a Message Example Object's `$ref` (a payload's `examples` stay
    # data): a target that is missing is unresolved-ref's, once, not asyncapi-invalid's.
    files: dict[str, str | bytes] = {
        "api/asyncapi.yaml": EXAMPLES_BY_REF,
        "api/examples/open.example.json": json.dumps({"name": "open", "payload": {"open": True}}),
    }
    root = make_corpus(files)
    assert run_rule(root, "asyncapi-invalid") == []
    [finding] = run_rule(root, "unresolved-ref")
    assert finding.location.pointer.endswith("/message/examples/1/$ref"), finding.message


def test_a_nested_oneof_is_explained_by_the_branch_its_discriminator_names() -> None:
    # Swagger 2.0's parameter: `oneOf [body, oneOf [header, query]]`, each fixing `in`. A query
    # parameter of type object is explained by the query branch's `type`, not by the body
    # branch ("`in`: not `body`"), which relevance alone preferred once a depth ranking had
    # chosen the outer branch.
    def kind(name: str, **more: object) -> dict[str, object]:
        return {"properties": {"in": {"enum": [name]}, **more}, "required": ["in"]}

    simple = {"type": {"enum": ["string", "integer", "array"]}}
    schema = {
        "oneOf": [kind("body"), {"oneOf": [kind("header", **simple), kind("query", **simple)]}]
    }
    [error] = Draft202012Validator(schema).iter_errors({"in": "query", "type": "object"})
    specific = explain(error)
    assert list(specific.absolute_path) == ["type"], specific.message


def test_a_pointer_that_leaves_a_keys_slash_unescaped_is_told_how_to_write_it(
    make_corpus: MakeCorpus,
) -> None:
    # An exported AsyncAPI document names `components/messages/v1/Hello` for the key `v1/Hello`:
    # the pointer misses (RFC 6901 writes that `/` as `~1`), and the advice says so rather than
    # "check the spelling". A key that does not exist keeps the usual advice.
    api = yaml(
        """
        asyncapi: 3.0.0
        info: {title: Mirror, version: 1.0.0}
        channels:
          hello:
            address: hello
            messages:
              hello: {$ref: '#/components/messages/v1/Hello'}
              bye: {$ref: '#/components/messages/v1/Bye'}
        components:
          messages:
            v1/Hello: {payload: {type: string}}
        """
    )
    found = {
        f.message.split("`")[1]: f.message
        for f in run_rule(make_corpus({"asyncapi.yaml": api}), "unresolved-ref")
    }
    assert (
        "write the pointer `#/components/messages/v1~1Hello`"
        in found["#/components/messages/v1/Hello"]
    )
    assert "check the spelling" in found["#/components/messages/v1/Bye"]
