"""``asyncapi-invalid`` on fixtures written here, one test a case, named after it. The rule: an
AsyncAPI document that fails the official AsyncAPI JSON Schema of its declared version."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from conftest import dedented as yaml
from conftest import findings_of, run_rule
from speclint.analyses.context import Context
from speclint.analyses.schemas import validation
from speclint.analyses.schemas.validation import explain
from speclint.common.findings import Severity
from speclint.model.config import load_config
from speclint.rules import asyncapi_invalid, schema_invalid
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


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


# The corpus-integrity rules, each with the PASS and FAIL cases of its docstring.


ASYNCAPI_HEAD = "asyncapi: 3.0.0\ninfo:\n  title: Run events\n  version: 1.2.0\n"


def test_asyncapi_invalid_fail_and_pass(make_corpus: MakeCorpus) -> None:
    doc = ASYNCAPI_HEAD + "  contact: spec-team@example.org\n"
    root = make_corpus({"api/asyncapi.yaml": doc})
    [finding] = findings_of("asyncapi-invalid", root)
    assert finding.location.pointer == "/info/contact"
    assert finding.location.line == 5
    (root / "api/asyncapi.yaml").write_text(
        ASYNCAPI_HEAD + "  contact:\n    email: spec-team@example.org\n"
    )
    assert findings_of("asyncapi-invalid", root) == []


def test_asyncapi_invalid_explains_the_branch_the_author_wrote(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"api/asyncapi.yaml": ASYNCAPI_HEAD + "channels:\n  runEvents:\n    address: 5\n"}
    )
    [finding] = findings_of("asyncapi-invalid", root)
    assert finding.location.pointer == "/channels/runEvents/address"


def test_asyncapi_invalid_names_the_shipped_releases_for_a_release_it_has_no_schema_of(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/asyncapi.yaml": ASYNCAPI_HEAD.replace("3.0.0", "9.9.9")})
    [finding] = findings_of("asyncapi-invalid", root)
    assert "9.9.9" in finding.message and "3.0.0" in finding.message
