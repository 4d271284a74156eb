"""openapi-invalid judges every schema object of an OpenAPI 3 document where it is written, and
a schema file that only OpenAPI 3.0 documents ``$ref`` is judged as the 3.0 Schema Object it is
(issue 29: per-object openapi-invalid; the defects the session-8 note recorded)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import findings_of
from speclint.analyses.api import inlining
from speclint.analyses.context import Context
from speclint.model import corpus as corpus_module
from speclint.model.config import Config
from speclint.model.corpus import Document, parse_document, refine
from speclint.parsing.kinds import DocumentKind
from speclint.run.cache import RuleCache
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

HEAD = "openapi: {version}\ninfo: {{title: Pets, version: '1'}}\n"
BAD = "{type: string, maxLength: -1}"


# Each place an OpenAPI 3.1 document holds a schema object, with BAD written there; the library's
# walk reached only operations' parameters and responses and `components/schemas`.
PLACES = {
    "request body": (
        "paths:\n  /pets:\n    post:\n      requestBody:\n        content:\n"
        f"          application/json: {{schema: {BAD}}}\n"
        "      responses: {'201': {description: ok}}\n",
        "/paths/~1pets/post/requestBody/content/application~1json/schema/maxLength",
    ),
    "response header": (
        "paths:\n  /pets:\n    get:\n      responses:\n        '200':\n"
        f"          description: ok\n          headers: {{X-Rate: {{schema: {BAD}}}}}\n",
        "/paths/~1pets/get/responses/200/headers/X-Rate/schema/maxLength",
    ),
    "request body component": (
        "paths: {}\ncomponents:\n  requestBodies:\n    Pet:\n      content:\n"
        f"        application/json: {{schema: {BAD}}}\n",
        "/components/requestBodies/Pet/content/application~1json/schema/maxLength",
    ),
    "parameter component": (
        "paths: {}\ncomponents:\n  parameters:\n    Limit:\n      name: limit\n      in: query\n"
        f"      schema: {BAD}\n",
        "/components/parameters/Limit/schema/maxLength",
    ),
    "header component": (
        f"paths: {{}}\ncomponents:\n  headers:\n    X-Rate: {{schema: {BAD}}}\n",
        "/components/headers/X-Rate/schema/maxLength",
    ),
    "webhook": (
        "webhooks:\n  newPet:\n    post:\n      requestBody:\n        content:\n"
        f"          application/json: {{schema: {BAD}}}\n"
        "      responses: {'200': {description: ok}}\n",
        "/webhooks/newPet/post/requestBody/content/application~1json/schema/maxLength",
    ),
    "default response": (
        "paths:\n  /pets:\n    get:\n      responses:\n        default:\n"
        f"          description: e\n          content: {{application/json: {{schema: {BAD}}}}}\n",
        "/paths/~1pets/get/responses/default/content/application~1json/schema/maxLength",
    ),
    "callback": (
        "paths:\n  /pets:\n    post:\n      callbacks:\n        onAdded:\n"
        "          '{$request.body#/url}':\n            post:\n              requestBody:\n"
        f"                content: {{application/json: {{schema: {BAD}}}}}\n"
        "              responses: {'200': {description: ok}}\n"
        "      responses: {'201': {description: ok}}\n",
        "/paths/~1pets/post/callbacks/onAdded/{$request.body#~1url}/post/requestBody/content/"
        "application~1json/schema/maxLength",
    ),
}


@pytest.mark.parametrize("place", sorted(PLACES))
def test_every_schema_object_of_an_openapi_3_1_document_is_judged(
    make_corpus: MakeCorpus, place: str
) -> None:
    body, pointer = PLACES[place]
    doc = HEAD.format(version="3.1.0") + body
    root = make_corpus({"api/openapi.yaml": doc})
    found = findings_of("openapi-invalid", root)
    assert [f.location.pointer for f in found] == [pointer], found
    assert "-1 is less than the minimum of 0" in found[0].message
    assert found[0].location.line == doc.count("\n", 0, doc.index("maxLength")) + 1
    # the same object, valid, is quiet
    fixed = make_corpus({"api/openapi.yaml": doc.replace("maxLength: -1", "maxLength: 8")})
    assert findings_of("openapi-invalid", fixed) == []


def _split(version: str, pet: str) -> dict[str, str | bytes]:
    """An API whose response is kept in a file of its own, and whose schema is a file."""
    return {
        "api/openapi.yaml": HEAD.format(version=version)
        + "paths:\n  /pets:\n    get:\n      responses:\n"
        + "        '200': {$ref: 'responses.yaml#/Pets'}\n",
        "api/responses.yaml": "Pets:\n  description: ok\n  content:\n    application/json:\n"
        "      schema: {$ref: '../schemas/pet.yaml'}\n"
        "    text/csv:\n      schema: {type: string, required: 5}\n",
        "schemas/pet.yaml": pet,
    }


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_a_schema_in_a_fragment_file_is_reported_in_that_file_once(
    make_corpus: MakeCorpus, version: str
) -> None:
    root = make_corpus(_split(version, "type: object\nproperties:\n  age: {type: integer}\n"))
    [finding] = findings_of("openapi-invalid", root)
    assert finding.location.path == "api/responses.yaml"
    assert finding.location.pointer == "/Pets/content/text~1csv/schema/required"
    assert finding.location.line == 7
    assert "`api/openapi.yaml` reaches this file by `$ref`" in finding.message


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_a_schema_file_is_judged_in_its_file_by_schema_invalid_not_at_the_ref(
    make_corpus: MakeCorpus, version: str
) -> None:
    # An error in a `$ref`'d schema file was reported twice: by openapi-invalid at the `$ref`,
    # with a pointer through it, and by schema-invalid in the file.
    files = _split(version, "type: object\nproperties:\n  age: {type: integer, maxLength: -1}\n")
    files["api/responses.yaml"] = str(files["api/responses.yaml"]).replace(", required: 5", "")
    root = make_corpus(files)
    assert findings_of("openapi-invalid", root) == []
    [finding] = findings_of("schema-invalid", root)
    assert (finding.location.path, finding.location.pointer) == (
        "schemas/pet.yaml",
        "/properties/age/maxLength",
    )


def test_a_schema_file_only_openapi_3_0_references_is_judged_as_3_0(
    make_corpus: MakeCorpus,
) -> None:
    # OpenAPI 3.0.3 §4.7.24: `exclusiveMinimum` is a boolean beside `minimum`; 2020-12 calls
    # that an error, 3.0 requires the `minimum`.
    valid_30 = "type: object\nproperties:\n  age: {$ref: 'age.yaml'}\n"
    age = "type: integer\nminimum: 0\nexclusiveMinimum: true\nnullable: true\n"
    files = _split("3.0.3", valid_30)
    files["schemas/age.yaml"] = age
    root = make_corpus(files)
    corpus = Context.load(root)
    assert corpus.documents["schemas/pet.yaml"].dialect == "OpenAPI 3.0"
    assert corpus.documents["schemas/age.yaml"].dialect == "OpenAPI 3.0"  # through pet.yaml
    assert findings_of("schema-invalid", root) == []
    # 3.0's own rule: `exclusiveMinimum` needs its `minimum`
    files["schemas/age.yaml"] = age.replace("minimum: 0\n", "")
    [finding] = findings_of("schema-invalid", make_corpus(files))
    assert finding.location.path == "schemas/age.yaml"
    assert '"minimum" is a dependency of "exclusiveMinimum"' in finding.message
    assert "OpenAPI 3.0 Schema Object" in finding.message


def test_a_schema_file_other_documents_reference_too_keeps_the_default_dialect(
    make_corpus: MakeCorpus,
) -> None:
    age = "type: integer\nminimum: 0\nexclusiveMinimum: true\n"
    files: dict[str, str | bytes] = {
        "api/v3.yaml": HEAD.format(version="3.0.3")
        + "paths: {}\ncomponents: {schemas: {Age: {$ref: '../schemas/age.yaml'}}}\n",
        "api/v31.yaml": HEAD.format(version="3.1.0")
        + "paths: {}\ncomponents: {schemas: {Age: {$ref: '../schemas/age.yaml'}}}\n",
        "schemas/age.yaml": age,
        # a cycle reached from 3.0 alone is 3.0 through and through
        "schemas/a.yaml": "type: object\nproperties: {b: {$ref: 'b.yaml'}}\n",
        "schemas/b.yaml": "type: object\nproperties: {a: {$ref: 'a.yaml'}}\n",
    }
    files["api/v3.yaml"] = str(files["api/v3.yaml"]).replace(
        "Age: {", "A: {$ref: '../schemas/a.yaml'}, Age: {"
    )
    corpus = Context.load(make_corpus(files))
    assert corpus.documents["schemas/age.yaml"].dialect == ""
    assert corpus.documents["schemas/a.yaml"].dialect == "OpenAPI 3.0"
    assert corpus.documents["schemas/b.yaml"].dialect == "OpenAPI 3.0"
    [finding] = findings_of("schema-invalid", make_corpus(files))
    assert finding.location.path == "schemas/age.yaml"  # judged as 2020-12


def _keys(root: Path, rule: str) -> dict[str, str]:
    keys = RuleCache.unit_keys(Context.load(root), rule, all_rules()[rule])
    assert keys is not None
    return keys


def test_a_unit_s_key_holds_every_file_it_reads_without_validating_it(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The unit's key is every file the document's `$ref`s reach (`units.reach`): a fragment
    # edit re-checks the document, and so (the price of a key made without validating the
    # document) does a schema edit.
    files = _split("3.1.0", "type: object\n")
    root = make_corpus(files)
    before = _keys(root, "openapi-invalid")["api/openapi.yaml"]
    (root / "api/responses.yaml").write_text(str(files["api/responses.yaml"]) + "# edited\n")
    assert _keys(root, "openapi-invalid")["api/openapi.yaml"] != before
    # Made without inlining, so without validating the document (a fully cached run
    # validated every API document to make its keys).
    calls: list[str] = []
    real = inlining.inline_misplaced
    monkeypatch.setattr(
        inlining,
        "inline_misplaced",
        lambda corpus, document, *rest: (
            calls.append(document.path) or real(corpus, document, *rest)
        ),
    )
    _keys(root, "openapi-invalid")
    assert calls == []


def test_a_referrer_s_version_is_part_of_a_schema_file_s_key(make_corpus: MakeCorpus) -> None:
    # The file is judged as 3.0 or 2020-12 by who references it: a cached verdict of one is not
    # the other's.
    root = make_corpus(_split("3.0.3", "type: integer\nminimum: 0\nexclusiveMinimum: true\n"))
    as_30 = _keys(root, "schema-invalid")["schemas/pet.yaml"]
    assert findings_of("schema-invalid", root) == []
    api = root / "api/openapi.yaml"
    api.write_text(api.read_text().replace("3.0.3", "3.1.0"))
    assert _keys(root, "schema-invalid")["schemas/pet.yaml"] != as_30
    [finding] = findings_of("schema-invalid", root)
    assert finding.location.pointer == "/exclusiveMinimum"


def test_a_component_reached_by_an_operation_is_reported_once_where_it_is_written(
    make_corpus: MakeCorpus,
) -> None:
    # The library judged a component at the first `$ref` that reached it, with a pointer through
    # that `$ref` (ogcapi-features' example: /paths/.../schema/properties/... for an error in
    # /components/schemas/...); the finding belongs where the author can fix it.
    doc = HEAD.format(version="3.1.0") + (
        "paths:\n  /pets:\n    get:\n      responses:\n        '200':\n"
        "          description: ok\n"
        "          content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}\n"
        "components:\n  schemas:\n    Pet:\n      type: object\n"
        "      properties:\n        kind: {oneOf: [{type: null}, {type: string}]}\n"
    )
    [finding] = findings_of("openapi-invalid", make_corpus({"api/openapi.yaml": doc}))
    assert finding.location.pointer == "/components/schemas/Pet/properties/kind/oneOf/0/type"
    assert finding.location.line == doc.count("\n", 0, doc.index("kind:")) + 1


def test_parts_kept_in_files_are_judged_whatever_their_name_says(make_corpus: MakeCorpus) -> None:
    # A `default` response is structure, not a data keyword (review: it was skipped, and its
    # file left out of the unit's key); a path item whose route ends in `/items` was taken for a
    # schema file by the `$ref`'s place, and then judged by no one.
    root = make_corpus(
        {
            "api/openapi.yaml": HEAD.format(version="3.0.3")
            + "paths:\n  /orders/{id}/items: {$ref: 'order-items.yaml'}\n"
            + "  /pets:\n    get:\n      responses:\n        default: {$ref: 'error.yaml'}\n",
            "api/order-items.yaml": "get:\n  parameters:\n"
            "    - {name: id, in: path, required: true, schema: {type: string, minLength: -1}}\n"
            "  responses: {'200': {description: ok}}\n",
            "api/error.yaml": "description: e\ncontent:\n  application/json:\n"
            "    schema: {type: integer, minimum: zero}\n",
        }
    )
    found = {(f.location.path, f.location.pointer) for f in findings_of("openapi-invalid", root)}
    assert found == {
        ("api/order-items.yaml", "/get/parameters/0/schema/minLength"),
        ("api/error.yaml", "/content/application~1json/schema/minimum"),
    }
    keys = _keys(root, "openapi-invalid")["api/openapi.yaml"]
    (root / "api/error.yaml").write_text("description: e\n")
    assert _keys(root, "openapi-invalid")["api/openapi.yaml"] != keys


def test_a_schema_file_a_fragment_names_is_a_schema_judged_in_its_dialect(
    make_corpus: MakeCorpus,
) -> None:
    # Named only by a response kept in a file of its own: it stayed data, and no rule judged it.
    files: dict[str, str | bytes] = {
        "api/openapi.yaml": HEAD.format(version="3.0.3")
        + "paths:\n  /pets:\n    get:\n      responses:\n        '200': {$ref: 'ok.yaml'}\n",
        "api/ok.yaml": "description: ok\ncontent:\n  application/json:\n"
        "    schema: {$ref: '../schemas/err.yaml'}\n",
        "schemas/err.yaml": "nullable: true\nminimum: zero\n",
    }
    root = make_corpus(files)
    assert Context.load(root).documents["schemas/err.yaml"].dialect == "OpenAPI 3.0"
    [finding] = findings_of("schema-invalid", root)
    assert (finding.location.path, finding.location.pointer) == ("schemas/err.yaml", "/minimum")


def test_a_schema_file_a_2020_12_schema_names_too_keeps_the_default_dialect(
    make_corpus: MakeCorpus,
) -> None:
    # person.json has no `$schema` and no 3.0 document reaches it: it is 2020-12, and so is
    # the name.json it names, though a 3.0 document names it too.
    root = make_corpus(
        {
            "api.yaml": HEAD.format(version="3.0.3")
            + "paths: {}\ncomponents: {schemas: {Name: {$ref: 'schemas/name.json'}}}\n",
            "schemas/person.json": '{"type": "object", "properties": {"name": {"$ref": "name.json"}}}',
            "schemas/name.json": '{"type": "number", "minimum": 0, "exclusiveMinimum": true}',
        }
    )
    assert Context.load(root).documents["schemas/name.json"].dialect == ""
    [finding] = findings_of("schema-invalid", root)
    assert (finding.location.path, finding.location.pointer) == (
        "schemas/name.json",
        "/exclusiveMinimum",
    )


def test_a_route_or_header_name_is_no_schema_place(make_corpus: MakeCorpus) -> None:
    # `refine` matched schema places on unescaped pointers: the path item of `/orders/{id}/items`
    # looked like an `items` schema, and became one; an OpenAPI `headers` map holds Header
    # Objects, not schemas (an AsyncAPI one holds a schema).
    root = make_corpus(
        {
            "api/openapi.yaml": HEAD.format(version="3.1.0")
            + "paths:\n  /orders/{id}/items: {$ref: 'order-items.yaml'}\n"
            + "  /pets:\n    get:\n      responses:\n        '200':\n"
            + "          description: ok\n          headers: {X-Rate: {$ref: 'rate.yaml'}}\n"
            + "          content: {application/json: {schema: {$ref: 'pet.yaml'}}}\n",
            "api/order-items.yaml": "get:\n  responses: {'200': {description: ok}}\n",
            "api/rate.yaml": "schema: {type: integer}\n",
            "api/pet.yaml": "title: Pet\n",
            # a path item kept apart, whose response names a header kept apart (review)
            "api/cats.yaml": "get:\n  responses:\n    '200':\n      description: ok\n"
            "      headers: {X-Rate: {$ref: 'rate2.yaml'}}\n",
            "api/rate2.yaml": "required: true\nschema: {type: integer}\n",
            # AsyncAPI's `headers` is a schema, in a fragment it reaches too
            "events/asyncapi.yaml": "asyncapi: 3.0.0\ninfo: {title: t, version: '1'}\n"
            "components: {messages: {Ping: {$ref: 'ping.yaml'}}}\n",
            "events/ping.yaml": "headers: {$ref: 'ping-headers.yaml'}\npayload: {type: object}\n",
            "events/ping-headers.yaml": "type: object\nproperties: {id: {type: string}}\n",
        }
    )
    api = root / "api/openapi.yaml"
    api.write_text(api.read_text().replace("paths:\n", "paths:\n  /cats: {$ref: 'cats.yaml'}\n"))
    documents = Context.load(root).documents
    assert documents["api/order-items.yaml"].kind is DocumentKind.DATA
    assert documents["api/rate.yaml"].kind is DocumentKind.DATA
    assert documents["api/rate2.yaml"].kind is DocumentKind.DATA
    assert documents["events/ping-headers.yaml"].kind is DocumentKind.SCHEMA
    assert documents["api/pet.yaml"].kind is DocumentKind.SCHEMA  # a schema place still is one


def test_fragments_shared_by_many_documents_are_walked_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A walk per API document made versioned APIs sharing their fragments cost documents ×
    # fragments (400 × 2,000: 3.4 s of `refine`; review). Each fragment is read at most once per
    # kind of API that reaches it.
    documents = {
        f"api/v{i}.yaml": parse_document(
            f"api/v{i}.yaml",
            (HEAD.format(version="3.1.0") + "paths: {$ref: 'paths.yaml'}\n").encode(),
        )
        for i in range(20)
    }
    documents["api/paths.yaml"] = parse_document(
        "api/paths.yaml", "\n".join(f"/p{j}: {{$ref: 'p{j}.yaml'}}" for j in range(30)).encode()
    )
    for j in range(30):
        documents[f"api/p{j}.yaml"] = parse_document(
            f"api/p{j}.yaml",
            f"get: {{responses: {{'200': {{$ref: 'p{(j + 1) % 30}.yaml'}}}}}}\n".encode(),
        )
    reads: dict[str, int] = {}
    original = corpus_module._anywhere_refs

    def counted(document: Document) -> set[str]:
        reads[document.path] = reads.get(document.path, 0) + 1
        return original(document)

    monkeypatch.setattr(corpus_module, "_anywhere_refs", counted)
    refine(documents, Config())
    fragments = [path for path in reads if not path.startswith("api/v")]
    assert len(fragments) == 31
    assert max(reads[path] for path in fragments) == 1
