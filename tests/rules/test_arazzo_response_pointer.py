"""``arazzo-response-pointer`` on fixtures written here, one test a case, named after it. The rule:
an Arazzo `$response.body#/pointer` or `$response.header.<name>` that the response of the"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


PETS = """\
openapi: 3.1.0
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
        - $ref: '#/components/parameters/Trace'
      responses: {'200': {description: ok}}
    post:
      operationId: addPet
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Pet'}
      responses: {'201': {description: ok}}
  /pets/{petId}:
    parameters:
      - {name: petId, in: path, required: true, schema: {type: string}}
    get:
      operationId: getPet
      responses: {'200': {description: ok}}
components:
  parameters:
    Trace: {name: X-Trace-Id, in: header, schema: {type: string}}
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string}
        age: {type: integer}
"""


HEAD = """\
arazzo: 1.0.1
info: {title: Adopt, version: 1.0.0}
sourceDescriptions:
  - {name: pets, url: ../api/pets.yaml, type: openapi}
workflows:
  - workflowId: main
    steps:
"""


def flows(steps: str, head: str = HEAD) -> dict[str, str | bytes]:
    """The pet store at api/pets.yaml and a workflow at flows/main.arazzo.yaml with ``steps``
    (indented as list items of ``steps``)."""
    return {"api/pets.yaml": PETS, "flows/main.arazzo.yaml": head + steps}


def test_body_pointers_into_responses_declaring_no_content_are_one_warning_per_operation(
    make_corpus: MakeCorpus,
) -> None:
    """The pet store's 200s give a description only: the API document is silent, so the reads
    cannot be checked; one warning per Arazzo document and operation, its reads related. A
    string body read at `#/x` contradicts the document: still an error."""
    files = flows(
        "      - stepId: a\n        operationId: getPet\n"
        "        parameters: [{name: petId, in: path, value: '1'}]\n"
        "        outputs: {name: $response.body#/name, age: $response.body#/age}\n"
        "      - stepId: b\n        operationId: getPet\n"
        "        parameters: [{name: petId, in: path, value: '2'}]\n"
        "        outputs: {tag: $response.body#/tag}\n"
        "      - stepId: c\n        operationId: listPets\n"
        "        outputs: {x: $response.body#/x}\n"
    )
    files["api/pets.yaml"] = PETS.replace(
        "      operationId: listPets\n"
        "      parameters:\n"
        "        - {name: limit, in: query, schema: {type: integer}}\n"
        "        - $ref: '#/components/parameters/Trace'\n"
        "      responses: {'200': {description: ok}}",
        "      operationId: listPets\n"
        "      responses:\n"
        "        '200': {description: ok, content: {text/plain: {schema: {type: string}}}}",
    )
    findings = run_rule(make_corpus(files), "arazzo-response-pointer")
    assert [(f.severity.name, f.location.pointer) for f in findings] == [
        ("ERROR", "/workflows/0/steps/2/outputs/x"),
        ("WARNING", "/workflows/0/steps/0/outputs/name"),
    ]
    warning = findings[1]
    assert warning.message.startswith(
        "step `a`: api/pets.yaml declares no response content for GET /pets/{petId} "
        "(responses 200), so what the document reads of its body (`$response.body#/age`, "
        "`$response.body#/name`, `$response.body#/tag`) cannot be checked"
    )
    assert "declare the response's content schema in api/pets.yaml" in warning.message
    files["api/pets.yaml"] = PETS.replace(
        "{'200': {description: ok}}", "{'204': {description: ok}}"
    )
    findings = run_rule(make_corpus(files), "arazzo-response-pointer")
    assert {f.severity.name for f in findings} == {"ERROR"}  # 204 No Content: no body to read
    assert [r.pointer for r in warning.related] == [
        "/paths/~1pets~1{petId}/get",
        "/workflows/0/steps/0/outputs/age",
        "/workflows/0/steps/1/outputs/tag",
    ]
    # A redirect's value is in its Location header, which is what the fix says to read.
    files["api/pets.yaml"] = PETS.replace(
        "{'200': {description: ok}}", "{'302': {description: to the pet}}"
    )
    redirect = run_rule(make_corpus(files), "arazzo-response-pointer")[-1]
    assert redirect.severity.name == "WARNING" and "(responses 302)" in redirect.message
    assert "read `$response.header.Location`" in redirect.message


LIBRARY = """\
openapi: 3.1.0
info: {title: Library, version: 1.0.0}
paths:
  /books:
    post:
      operationId: addBook
      parameters:
        - {name: X-Shelf, in: header, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [isbn]
              properties:
                isbn: {type: string}
                pages: {type: integer}
      responses:
        '201':
          description: added
          headers:
            X-Copies: {schema: {type: integer}}
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: {type: string}
        '422': {description: refused}
"""


HEAD_COMPARED = """\
arazzo: 1.0.1
info: {title: Lend, version: 1.0.0}
sourceDescriptions:
  - {name: library, url: ./library.yaml, type: openapi}
workflows:
  - workflowId: lend
"""


def lend(body: str, head: str = HEAD_COMPARED) -> dict[str, str | bytes]:
    """The library API and a workflow `lend` whose fields (indented under it) are ``body``."""
    return {"library.yaml": LIBRARY, "lend.arazzo.yaml": head + body}


def test_a_content_type_response_header_is_always_there(make_corpus: MakeCorpus) -> None:
    steps = """\
    steps:
      - stepId: add
        operationId: addBook
        outputs:
          type: $response.header.content-type
          copies: $response.header.X-Copies
          other: $response.header.X-Other
"""
    (finding,) = run_rule(make_corpus(lend(steps)), "arazzo-response-pointer")
    assert finding.location.pointer == "/workflows/0/steps/0/outputs/other"


SHOP = """\
openapi: 3.1.0
info: {title: Shop, version: 1.0.0}
paths:
  /orders:
    post:
      operationId: placeOrder
      responses:
        '201':
          description: placed
          headers:
            Location: {schema: {type: string}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Order'}
        '400':
          description: rejected
          content:
            application/json:
              schema:
                type: object
                properties:
                  title: {type: string}
  /orders/{id}:
    get:
      operationId: getOrder
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: the order
          content:
            application/json:
              schema:
                allOf:
                  - $ref: '#/components/schemas/Order'
                  - description: with its history
  /search:
    get:
      operationId: search
      responses:
        '200':
          description: hits
          content:
            application/json:
              schema:
                oneOf:
                  - type: array
                    items: {$ref: '#/components/schemas/Order'}
                  - type: object
                    properties:
                      next: {type: string}
  /notes:
    get:
      operationId: notes
      responses:
        '200':
          description: free-form
          content:
            application/json:
              schema: {type: object}
  /ping:
    get:
      operationId: ping
      responses:
        '200': {description: pong}
components:
  schemas:
    Order:
      type: object
      properties:
        orderId: {type: string}
        lines:
          type: array
          items:
            type: object
            properties:
              sku: {type: string}
"""


HEAD_EXPRESSIONS = """\
arazzo: 1.0.1
info: {title: Shop flows, version: 1.0.0}
sourceDescriptions:
  - {name: shop, url: ../api/shop.yaml, type: openapi}
workflows:
  - workflowId: buy
    inputs:
      type: object
      properties:
        sku: {type: string}
        page[size]: {type: integer}
        $.xgafv: {type: string}
    steps:
"""


def flows_expressions(steps: str, tail: str = "") -> dict[str, str | bytes]:
    """The shop at api/shop.yaml and workflow `buy` at flows/buy.arazzo.yaml with ``steps``
    (indented as list items of ``steps``), then ``tail`` (more workflows, components)."""
    return {"api/shop.yaml": SHOP, "flows/buy.arazzo.yaml": HEAD_EXPRESSIONS + steps + tail}


PLACE = """\
      - stepId: place
        operationId: placeOrder
        outputs:
          orderId: $response.body#/orderId
          where: $response.header.Location
"""


def test_a_body_pointer_the_response_schema_lacks_names_the_nearest(
    make_corpus: MakeCorpus,
) -> None:
    steps = PLACE.replace("#/orderId", "#/orderid").replace("Location", "location")
    root = make_corpus(flows_expressions(steps))
    (finding,) = run_rule(root, "arazzo-response-pointer")
    assert finding.location.pointer == "/workflows/0/steps/0/outputs/orderId"
    assert "POST /orders (responses 201) has no `orderid`" in finding.message
    assert "did you mean `#/orderId`" in finding.message
    assert finding.related[0].path == "api/shop.yaml"


def test_pointers_through_refs_all_of_one_of_and_items(make_corpus: MakeCorpus) -> None:
    steps = (
        "      - stepId: read\n        operationId: getOrder\n        outputs:\n"
        "          sku: $response.body#/lines/0/sku\n"
        "          bad: $response.body#/lines/0/SKU\n"
        "      - stepId: find\n        operationId: search\n        outputs:\n"
        "          first: $response.body#/0/orderId\n"
        "          next: $response.body#/next\n"
        "          none: $response.body#/nxt\n"
        "      - stepId: notes\n        operationId: notes\n        outputs:\n"
        "          any: $response.body#/whatever/0\n"
    )
    findings = run_rule(make_corpus(flows_expressions(steps)), "arazzo-response-pointer")
    assert [f.location.pointer for f in findings] == [
        "/workflows/0/steps/0/outputs/bad",
        "/workflows/0/steps/1/outputs/none",
    ]
    assert "has no `SKU` at `#/lines/0`; did you mean `#/lines/0/sku`?" in findings[0].message


def test_a_step_asserting_an_error_status_reads_that_response(make_corpus: MakeCorpus) -> None:
    steps = (
        "      - stepId: reject\n        operationId: placeOrder\n"
        "        successCriteria: [{condition: $statusCode == 400}]\n"
        "        outputs: {title: $response.body#/title}\n"
        "        onFailure:\n          - name: why\n            type: end\n"
        "            criteria: [{condition: $response.body#/title != null}]\n"
    )
    assert run_rule(make_corpus(flows_expressions(steps)), "arazzo-response-pointer") == []


def test_a_body_the_response_does_not_declare_and_an_unknown_header(
    make_corpus: MakeCorpus,
) -> None:
    steps = (
        "      - stepId: ping\n        operationId: ping\n"
        "        outputs: {x: $response.body#/x, h: $response.header.X-Trace}\n"
    )
    findings = run_rule(make_corpus(flows_expressions(steps)), "arazzo-response-pointer")
    # The body: the API document declares none, so the read cannot be checked (a warning).
    assert "declares no response header `X-Trace`" in findings[0].message
    assert findings[1].severity.name == "WARNING"
    assert "declares no response content for GET /ping" in findings[1].message


def test_an_unresolved_or_remote_step_is_not_judged(make_corpus: MakeCorpus) -> None:
    steps = PLACE.replace("placeOrder", "placeOrdr").replace("#/orderId", "#/nope")
    assert run_rule(make_corpus(flows_expressions(steps)), "arazzo-response-pointer") == []
    files = flows_expressions(PLACE.replace("#/orderId", "#/nope"))
    files["flows/buy.arazzo.yaml"] = str(files["flows/buy.arazzo.yaml"]).replace(
        "../api/shop.yaml", "https://example.com/shop.yaml"
    )
    assert run_rule(make_corpus(files), "arazzo-response-pointer") == []


def test_a_response_schema_in_another_file_is_followed(make_corpus: MakeCorpus) -> None:
    files = flows_expressions(
        "      - stepId: read\n        operationId: getOrder\n"
        "        outputs: {a: $response.body#/total, b: $response.body#/totl}\n"
    )
    files["api/shop.yaml"] = SHOP.replace(
        "                  - description: with its history",
        "                  - $ref: './totals.yaml'",
    )
    files["api/totals.yaml"] = "type: object\nproperties:\n  total: {type: number}\n"
    (finding,) = run_rule(make_corpus(files), "arazzo-response-pointer")
    assert "has no `totl`; did you mean `#/total`?" in finding.message


MakeCorpus = Callable[[dict[str, str | bytes]], Path]

KENNEL = """\
openapi: 3.1.0
info: {title: Kennel, version: 1.0.0}
paths:
  /dogs/{id}:
    delete:
      operationId: removeDog
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '404':
          description: no such dog
          content:
            application/json:
              schema:
                type: object
                properties:
                  detail: {type: string}
  /dogs:
    get:
      operationId: listDogs
      responses:
        '200': {$ref: './responses.yaml#/Dogs'}
"""

FLOW = """\
arazzo: 1.0.1
info: {title: Kennel flows, version: 1.0.0}
sourceDescriptions:
  - {name: kennel, url: ../api/kennel.yaml, type: openapi}
workflows:
  - workflowId: tidy
    steps:
"""


def corpus(make_corpus: MakeCorpus, steps: str) -> Path:
    return make_corpus({"api/kennel.yaml": KENNEL, "flows/tidy.arazzo.yaml": FLOW + steps})


def test_arazzo_response_pointer_reads_every_response_of_an_operation_declaring_no_2xx(
    make_corpus: MakeCorpus,
) -> None:
    """`removeDog` declares only a 404: an output reads that response, not nothing."""
    steps = (
        "      - stepId: remove\n        operationId: removeDog\n"
        "        parameters: [{name: id, in: path, value: '1'}]\n"
        "        outputs: {why: $response.body#/detail, typo: $response.body#/detial}\n"
    )
    (finding,) = run_rule(corpus(make_corpus, steps), "arazzo-response-pointer")
    assert finding.location.pointer == "/workflows/0/steps/0/outputs/typo"
    assert "(responses 404)" in finding.message
    assert "did you mean `#/detail`?" in finding.message


def test_arazzo_response_pointer_skips_a_response_object_in_another_file(
    make_corpus: MakeCorpus,
) -> None:
    """What a Response Object `$ref`'d into another file declares is not read here: unknown,
    so no pointer into it is reported."""
    steps = (
        "      - stepId: list\n        operationId: listDogs\n"
        "        outputs: {anything: $response.body#/nowhere}\n"
    )
    assert run_rule(corpus(make_corpus, steps), "arazzo-response-pointer") == []
