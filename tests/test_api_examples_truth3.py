"""Classes of invalid examples a first read of a public repository missed (issue 46, round 2):

- an API document published twice, as written (``$ref``\\s to its components) and dereferenced
  (every ``$ref`` written out in place): the copies of one example are one finding, at the
  example as written, each copy a related location, wherever the copy sits;
- a schema example of an API document written as the JSON text of the object its schema wants
  (``example: |-`` over lines): the API exchanges a string there, so it is reported, with the
  fix (write the value itself); a JSON Schema file's block of JSON text is still judged by the
  value it shows;
- a sample response after a ``curl`` call, bound through the operation although the dereferenced
  copy gives the same schema in another text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_cli import cli

from speclint.parsing.inlined import content_digest, source_pointer

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

# A component used by `$ref` in two responses; its `age` example is not an integer.
API = """\
openapi: 3.0.1
info: {title: Pets, version: '1'}
paths:
  /pets:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/NewPet'}
      responses:
        '200':
          description: the pet made
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        '422':
          description: not made
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Problem'}
  /pets/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: the pet
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
components:
  schemas:
    NewPet:
      type: object
      properties:
        name: {type: string}
      required: [name]
    Pet:
      type: object
      properties:
        id: {type: string}
        name: {type: string}
        age: {type: integer, example: old}
        traits: {$ref: '#/components/schemas/Traits'}
      required: [id, name]
    Traits:
      description: Anything the owner tells.
      type: object
%s
    Problem:
      type: object
      properties:
        detail: {type: string}
"""
NO_EXAMPLE = ""
# A block scalar holding JSON text where the schema wants an object.
JSON_TEXT = """\
      example: |-
        {
        "playful": true,
        "colour": "brown"
        }"""


def dereferenced(root: Any, node: Any = None) -> Any:
    """``node`` of ``root`` with every local ``$ref`` written out in place (what a bundler's
    dereference does)."""
    node = root if node is None else node
    if isinstance(node, dict):
        reference = node.get("$ref")
        if isinstance(reference, str) and reference.startswith("#/"):
            target: Any = root
            for token in reference[2:].split("/"):
                target = target[token]
            return dereferenced(root, target)
        return {k: dereferenced(root, v) for k, v in node.items()}
    if isinstance(node, list):
        return [dereferenced(root, v) for v in node]
    return node


def published_twice(example: str) -> dict[str, str | bytes]:
    written = API % example
    copy = dereferenced(yaml.safe_load(written))
    return {"api/openapi.yml": written, "api/openapi.json": json.dumps(copy, indent=2) + "\n"}


def findings(root: Path, rule: str = "example-invalid") -> list[dict[str, Any]]:
    run = cli("check", str(root), "--no-cache", "--preview", "--format", "json")
    assert run.returncode in (0, 1), run.stderr
    return [f for f in json.loads(run.stdout)["findings"] if f["rule"] == rule]


def test_copies_in_a_dereferenced_twin_are_one_finding_at_the_example_as_written(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(published_twice(NO_EXAMPLE))
    found = findings(root)
    # The twin fold once kept the copy at the component's own pointer, and every inlined copy
    # (at a path's pointer) as a finding of its own.
    (one,) = found
    assert one["location"]["path"] == "api/openapi.yml"
    assert one["location"]["pointer"] == "/components/schemas/Pet/properties/age/example"
    copies = {r["pointer"] for r in one["related"] if r["path"] == "api/openapi.json"}
    success = "/responses/200/content/application~1json/schema/properties/age/example"
    assert copies == {
        "/components/schemas/Pet/properties/age/example",
        f"/paths/~1pets/post{success}",
        f"/paths/~1pets~1{{id}}/get{success}",
    }


def test_a_copy_only_the_dereferenced_twin_has_is_kept(make_corpus: MakeCorpus) -> None:
    files = published_twice(NO_EXAMPLE)
    copy = json.loads(files["api/openapi.json"])
    inlined = copy["paths"]["/pets"]["post"]["responses"]["200"]["content"]["application/json"]
    inlined["schema"]["properties"]["name"]["example"] = 7  # edited in the copy alone
    files["api/openapi.json"] = json.dumps(copy, indent=2) + "\n"
    at = {(f["location"]["path"], f["location"]["pointer"]) for f in findings(make_corpus(files))}
    assert (
        "api/openapi.json",
        "/paths/~1pets/post/responses/200/content/application~1json/schema/properties/name/example",
    ) in at
    assert ("api/openapi.yml", "/components/schemas/Pet/properties/age/example") in at


@pytest.mark.parametrize("copy", ["api/openapi.dereferenced.json", "bundle/openapi-resolved.yaml"])
def test_a_dereferenced_copy_under_another_name_is_one_finding_at_the_example_as_written(
    make_corpus: MakeCorpus, copy: str
) -> None:
    """The copy is recognised by its content (the source once its `$ref`s are read), not by
    its name: another name, another folder, or the same format as the source."""
    files = published_twice(NO_EXAMPLE)
    inlined = json.loads(files.pop("api/openapi.json"))
    text = json.dumps(inlined, indent=2) if copy.endswith(".json") else yaml.safe_dump(inlined)
    (one,) = findings(make_corpus({**files, copy: text + "\n"}))
    assert one["location"]["path"] == "api/openapi.yml"
    assert one["location"]["pointer"] == "/components/schemas/Pet/properties/age/example"
    assert len([r for r in one["related"] if r["path"] == copy]) == 3


@pytest.mark.parametrize("copy", ["api/openapi.json", "api/openapi.dereferenced.json"])
def test_a_prose_example_binds_to_the_source_not_to_both_texts_of_a_dereferenced_copy(
    make_corpus: MakeCorpus, copy: str
) -> None:
    """The component in the document and in its dereferenced copy are one definition (issue
    46, item 4): the example fits it, not "several definitions", and is judged at the source."""
    files = published_twice(NO_EXAMPLE)
    files[copy] = files.pop("api/openapi.json")
    example = '```json\n{"id": "p1", "name": "Rex", "age": "three"}\n```\n'
    files["docs/pets.md"] = "# Pets\n\nA pet as the API returns it:\n\n" + example
    (found,) = [f for f in findings(make_corpus(files)) if f["location"]["path"] == "docs/pets.md"]
    assert "`three`" in found["message"] or '"three"' in found["message"]
    assert {r["path"] for r in found["related"]} - {"docs/pets.md"} == {"api/openapi.yml"}


def test_a_document_under_another_name_that_says_more_is_no_copy(make_corpus: MakeCorpus) -> None:
    files = published_twice(NO_EXAMPLE)
    other = json.loads(files.pop("api/openapi.json"))
    other["components"]["schemas"]["Owner"] = {"type": "object"}  # not the source's content
    files["api/owners.json"] = json.dumps(other, indent=2) + "\n"
    at = {f["location"]["path"] for f in findings(make_corpus(files))}
    assert at == {"api/openapi.yml", "api/owners.json"}


def test_json_text_of_an_object_in_an_api_schema_example_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yml": API % JSON_TEXT})
    (found,) = [
        f
        for f in findings(root)
        if f["location"]["pointer"] == "/components/schemas/Traits/example"
    ]
    assert found["heuristic"] == "example-invalid/api-json-text"
    assert "JSON text" in found["message"]
    assert "write the object itself" in found["message"]


def test_json_text_in_a_json_schema_file_is_still_judged_by_the_value_it_shows(
    make_corpus: MakeCorpus,
) -> None:
    text = '{\n  "playful": true\n}'
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"traits": {"type": "object", "examples": [text]}},
    }
    root = make_corpus({"schemas/pet.schema.json": json.dumps(schema, indent=2) + "\n"})
    assert findings(root) == []


def test_a_sample_response_binds_though_a_dereferenced_copy_gives_its_schema_again(
    make_corpus: MakeCorpus,
) -> None:
    files = published_twice(NO_EXAMPLE)
    files["docs/calling.md"] = """\
# Calling the API

To make a pet run

```sh
curl --request POST \\
  --url http://localhost:8000/pets \\
  --header 'Content-Type: application/json' \\
  --data '{"name": "Rex"}'
```

To get a response like this:

```json
{
  "name": "Rex",
  "age": 3
}
```
"""
    page = [f for f in findings(make_corpus(files)) if f["location"]["path"] == "docs/calling.md"]
    (missing,) = page
    assert '"id" is a required property' in missing["message"]
    assert missing["heuristic"] == "example-invalid/by-exchange"


def test_an_inlined_copy_reads_as_its_reference() -> None:
    written = yaml.safe_load(API % NO_EXAMPLE)
    copy = dereferenced(written)
    inlined = "/paths/~1pets~1{id}/get/responses/200/content/application~1json/schema"
    assert source_pointer(written, f"{inlined}/properties/age") == (
        "/components/schemas/Pet/properties/age"
    )
    assert source_pointer(written, f"{inlined}/properties/nothing") is None
    memo: dict[str, str] = {}
    pet = written["components"]["schemas"]["Pet"]
    assert content_digest(copy, copy["components"]["schemas"]["Pet"]) == content_digest(
        written, pet, memo
    )
    assert content_digest(written, {"$ref": "#/components/schemas/Pet"}, memo) == (
        content_digest(written, pet, memo)
    )
    assert content_digest(written, pet) != content_digest(
        written, written["components"]["schemas"]["Problem"]
    )
