"""discriminator-invalid (issue 52, item 6e): a mapping value naming no schema (3.x), a Swagger
2.0 discriminator property not defined and required."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def api(version: str, schemas: str) -> str:
    body = textwrap.indent(textwrap.dedent(schemas), "    ")
    return (
        f"openapi: {version}\ninfo: {{title: Pets, version: 1.0.0}}\npaths: {{}}\n"
        f"components:\n  schemas:\n{body}"
    )


def pet(mapping: str) -> str:
    return (
        "Pet:\n  type: object\n  required: [kind]\n  properties:\n    kind: {type: string}\n"
        f"  discriminator:\n    propertyName: kind\n    mapping:\n{mapping}"
        "Dog: {allOf: [{$ref: '#/components/schemas/Pet'}]}\n"
    )


def pointers(root: Path) -> list[tuple[str, str | None]]:
    return [(f.location.path, f.location.pointer) for f in run_rule(root, "discriminator-invalid")]


def test_mapping_to_a_name_no_schema_has_is_an_error_at_the_entry(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api("3.0.3", pet("      dog: Dgo\n"))})
    [finding] = run_rule(root, "discriminator-invalid")
    assert (finding.location.pointer, finding.location.line) == (
        "/components/schemas/Pet/discriminator/mapping/dog",
        14,
    )
    assert finding.severity.label == "error"
    assert "`Dgo`" in finding.message


def test_mapping_to_a_pointer_to_nothing_is_reported(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"openapi.yaml": api("3.1.0", pet("      dog: '#/components/schemas/Dgo'\n"))}
    )
    assert len(pointers(root)) == 1


def test_mapping_to_a_schema_name_or_pointer_is_fine(make_corpus: MakeCorpus) -> None:
    mapping = "      dog: Dog\n      puppy: '#/components/schemas/Dog'\n"
    root = make_corpus({"openapi.yaml": api("3.0.3", pet(mapping))})
    assert pointers(root) == []


def test_mapping_to_a_file_in_the_corpus_is_fine_and_to_a_missing_file_is_not(
    make_corpus: MakeCorpus,
) -> None:
    mapping = "      dog: './dog.yaml'\n      cat: './cat.yaml'\n"
    root = make_corpus({"openapi.yaml": api("3.0.3", pet(mapping)), "dog.yaml": "type: object\n"})
    assert pointers(root) == [("openapi.yaml", "/components/schemas/Pet/discriminator/mapping/cat")]


def test_mapping_to_a_url_is_not_judged_offline(make_corpus: MakeCorpus) -> None:
    mapping = "      dog: 'https://example.org/schemas/dog.json'\n"
    root = make_corpus({"openapi.yaml": api("3.0.3", pet(mapping))})
    assert pointers(root) == []


def test_schema_file_mapping_names_the_components_of_the_document_reading_it(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "openapi.yaml": api("3.0.3", "Pet: {$ref: './pet.yaml'}\nDog: {type: object}\n"),
            "pet.yaml": "type: object\ndiscriminator:\n  propertyName: kind\n"
            "  mapping:\n    dog: Dog\n    cat: Cat\n",
        }
    )
    assert pointers(root) == [("pet.yaml", "/discriminator/mapping/cat")]


def swagger(definitions: str) -> str:
    body = textwrap.indent(textwrap.dedent(definitions), "  ")
    return (
        f'swagger: "2.0"\ninfo: {{title: Pets, version: 1.0.0}}\npaths: {{}}\ndefinitions:\n{body}'
    )


def test_swagger_discriminator_not_required_is_an_error(make_corpus: MakeCorpus) -> None:
    text = swagger("Pet:\n  discriminator: kind\n  properties:\n    kind: {type: string}\n")
    root = make_corpus({"swagger.yaml": text})
    [finding] = run_rule(root, "discriminator-invalid")
    assert finding.location.pointer == "/definitions/Pet/discriminator"
    assert "not listed in `required`" in finding.message


def test_swagger_discriminator_not_defined_is_an_error(make_corpus: MakeCorpus) -> None:
    text = swagger("Pet:\n  discriminator: kind\n  required: [kind]\n")
    root = make_corpus({"swagger.yaml": text})
    [finding] = run_rule(root, "discriminator-invalid")
    assert "not defined in `properties`" in finding.message


def test_swagger_discriminator_defined_through_all_of_is_fine(make_corpus: MakeCorpus) -> None:
    text = swagger(
        "Base:\n  required: [kind]\n  properties:\n    kind: {type: string}\n"
        "Pet:\n  discriminator: kind\n  allOf: [{$ref: '#/definitions/Base'}]\n"
    )
    root = make_corpus({"swagger.yaml": text})
    assert pointers(root) == []


def test_mapping_pointer_that_passes_through_a_ref_is_resolved_as_resolvers_do(
    make_corpus: MakeCorpus,
) -> None:
    """A generated mapping names a branch of the dereferenced document: the pointer crosses a
    `$ref` on its way (`.../properties/data/oneOf/0` where `data` is a `$ref`)."""
    schemas = (
        "Field:\n  type: object\n  properties:\n    data: {$ref: '#/components/schemas/Data'}\n"
        "Data:\n  oneOf:\n    - {type: object, properties: {kind: {type: string}}}\n"
        "  discriminator:\n    propertyName: kind\n    mapping:\n"
        "      text: '#/components/schemas/Field/properties/data/oneOf/0'\n"
        "      none: '#/components/schemas/Field/properties/data/oneOf/7'\n"
    )
    root = make_corpus({"openapi.yaml": api("3.0.3", schemas)})
    assert pointers(root) == [
        ("openapi.yaml", "/components/schemas/Data/discriminator/mapping/none")
    ]


def test_split_schema_mapping_a_branch_file_by_component_name_is_left_to_the_build(
    make_corpus: MakeCorpus,
) -> None:
    """A schema file maps `#/components/schemas/Dog` while its `oneOf` names `./Dog.yaml`: the
    repository's build names each component after its file (a text merge speclint does not
    read), and the pointer resolves in the assembled document. A name that is no branch file
    is still reported."""
    root = make_corpus(
        {
            "openapi.yaml": api("3.0.3", "Pet: {$ref: './Pet.yaml'}\n"),
            "Pet.yaml": "oneOf:\n  - $ref: './Dog.yaml'\ndiscriminator:\n  propertyName: kind\n"
            "  mapping:\n    dog: '#/components/schemas/Dog'\n"
            "    cat: '#/components/schemas/Cat'\n",
            "Dog.yaml": "type: object\n",
        }
    )
    assert pointers(root) == [("Pet.yaml", "/discriminator/mapping/cat")]
