"""HTTP transcripts and endpoint lists in ``json``/``yaml`` fences (issue 45, item 2b): a fence
that shows a request or a response as it goes over the wire is not a broken document; its body
is the document it shows, parsed and bound as any other example."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import findings_of, schema
from speclint.parsing.transcripts import http_bodies, path_list

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


REQUEST_YAML = (
    "# Create\n\n```yaml\nPOST /v1/things HTTP/1.1\nHost: api.example.com\n"
    "Content-Type: application/yaml\n\nname: lamp\nsize: 3\n```\n"
)
RESPONSE_JSON = (
    "# Read\n\n```json\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n"
    '{\n  "name": "lamp"\n  "size": 3\n}\n```\n'
)


def test_a_request_in_a_yaml_fence_is_a_transcript_not_a_broken_document(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"docs/create.md": REQUEST_YAML})
    assert findings_of("fence-invalid", root) == []


def test_a_broken_body_of_a_response_is_reported_at_its_own_line(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"docs/read.md": RESPONSE_JSON})
    [finding] = findings_of("fence-invalid", root)
    # Line 3 opens the fence; the member after the missing comma is on line 9.
    assert (finding.location.line, finding.location.column) == (9, 3)
    assert "body of the HTTP message" in finding.message


def test_a_request_line_alone_and_a_broken_yaml_body_each_judged(make_corpus: MakeCorpus) -> None:
    bare = "# Get\n\n```json\nGET /v1/things/1 HTTP/1.1\nAccept: application/json\n```\n"
    broken = REQUEST_YAML.replace("size: 3", "size: [3")
    root = make_corpus({"docs/get.md": bare, "docs/broken.md": broken})
    assert [f.location.path for f in findings_of("fence-invalid", root)] == ["docs/broken.md"]


def test_a_yaml_mapping_keyed_by_operations_is_a_document_not_a_transcript(
    make_corpus: MakeCorpus,
) -> None:
    keyed = "# Operations\n\n```yaml\nGET /things:\n  summary: [list\n```\n"
    [finding] = findings_of("fence-invalid", make_corpus({"docs/operations.md": keyed}))
    assert "the yaml fence does not parse" in finding.message
    assert not path_list("/v1/things:\n/v1/parts:\n")


def test_a_body_of_another_media_type_is_not_judged(make_corpus: MakeCorpus) -> None:
    signed = (
        "# Signed\n\n```json\nPOST /receiver HTTP/1.1\nContent-Type: application/jose\n\n"
        "{eyJhbGciOi.broken\n```\n"
    )
    assert findings_of("fence-invalid", make_corpus({"docs/signed.md": signed})) == []


def test_a_list_of_endpoints_is_not_a_broken_document(make_corpus: MakeCorpus) -> None:
    listed = "# Endpoints\n\n```yaml\n{baseUrl}/v1/things\n{baseUrl}/v1/things/{id}\n```\n"
    assert findings_of("fence-invalid", make_corpus({"docs/endpoints.md": listed})) == []


def test_a_transcript_body_tied_to_a_schema_is_validated_at_its_line(
    make_corpus: MakeCorpus,
) -> None:
    thing = schema(type="object", properties={"size": {"type": "integer"}})
    page = (
        "# Create\n\n```json schema=thing.schema.json\nPOST /v1/things HTTP/1.1\n"
        'Content-Type: application/json\n\n{\n  "size": "three"\n}\n```\n'
    )
    root = make_corpus({"thing.schema.json": thing, "create.md": page})
    [finding] = findings_of("example-invalid", root)
    assert finding.location.line == 8  # `"size": "three"`
    assert "three" in finding.message


def test_several_messages_in_one_fence_are_each_a_body() -> None:
    text = (
        "POST /v1/things HTTP/1.1\nContent-Type: application/json\n\n{}\n\n"
        'HTTP/1.1 201 Created\nLocation: /v1/things/1\n\n{"id": 1}\n'
    )
    bodies = http_bodies(text)
    assert bodies is not None and [b.strip() for b in bodies] == ["{}", '{"id": 1}']
    assert all(b.count("\n") == text.count("\n") for b in bodies)  # lines kept
    assert http_bodies('{"a": 1}') is None
    assert http_bodies("kind: Thing\nname: x") is None


def test_an_endpoint_list_needs_every_line_to_be_an_endpoint() -> None:
    assert path_list("GET /v1/things\nPOST /v1/things\n/v1/things/{id}\n")
    assert not path_list("/v1/things: {get: {}}\n")
    assert not path_list("name: lamp\n")
