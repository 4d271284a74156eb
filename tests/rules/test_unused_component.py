"""``unused-component`` on fixtures written here, one test a case, named after it. The rule: the
components of an OpenAPI document that no operation reaches, one warning per document."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import dedented as yaml
from conftest import run_rule
from speclint.common.findings import Finding, Severity

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

HEAD = """
openapi: 3.1.0
info: {title: Kennel, version: 1.0.0}
"""

# One operation whose response uses `Dog`.
PATHS = """
paths:
  /dogs:
    get:
      responses:
        '200':
          description: the dogs
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Dog'}
"""


def _api(components: str, paths: str = PATHS, head: str = HEAD) -> str:
    return yaml(head) + yaml(paths) + yaml(components)


def _unused(findings: list[Finding]) -> list[str]:
    """The pointers the one finding lists as unused."""
    assert len(findings) == 1, findings
    return [r.pointer for r in findings[0].related]


def test_unused_components_are_one_warning_per_document(make_corpus: MakeCorpus) -> None:
    components = """
    components:
      schemas:
        Dog: {type: object}
        Puppy: {type: object}
      parameters:
        limit: {name: limit, in: query, schema: {type: integer}}
    """
    findings = run_rule(make_corpus({"openapi.yaml": _api(components)}), "unused-component")
    assert _unused(findings) == ["/components/schemas/Puppy", "/components/parameters/limit"]
    finding = findings[0]
    assert finding.severity is Severity.WARNING
    assert finding.location.pointer == "/components"
    assert "2 components no operation reaches" in str(finding.message)
    assert "`schemas/Puppy`" in str(finding.message)


def test_every_component_used_is_silent(make_corpus: MakeCorpus) -> None:
    components = """
    components:
      schemas:
        Dog: {type: object}
    """
    assert run_rule(make_corpus({"openapi.yaml": _api(components)}), "unused-component") == []


def test_a_component_reached_through_another_component_is_used(make_corpus: MakeCorpus) -> None:
    components = """
    components:
      schemas:
        Dog:
          type: object
          properties:
            owner: {$ref: '#/components/schemas/Owner'}
        Owner: {type: object}
    """
    assert run_rule(make_corpus({"openapi.yaml": _api(components)}), "unused-component") == []


def test_a_component_used_only_by_an_unused_component_is_unused(make_corpus: MakeCorpus) -> None:
    components = """
    components:
      schemas:
        Dog: {type: object}
        Cat:
          type: object
          properties:
            owner: {$ref: '#/components/schemas/Owner'}
        Owner: {type: object}
    """
    findings = run_rule(make_corpus({"openapi.yaml": _api(components)}), "unused-component")
    assert _unused(findings) == ["/components/schemas/Cat", "/components/schemas/Owner"]


def test_a_ref_into_a_component_uses_it(make_corpus: MakeCorpus) -> None:
    paths = """
    paths:
      /dogs/{id}:
        get:
          parameters:
            - {name: id, in: path, required: true, schema: {$ref: '#/components/schemas/Dog/properties/id'}}
          responses:
            '204': {description: done}
    """
    components = """
    components:
      schemas:
        Dog:
          type: object
          properties:
            id: {type: string}
    """
    root = make_corpus({"openapi.yaml": _api(components, paths)})
    assert run_rule(root, "unused-component") == []


def test_a_component_used_by_a_path_item_in_another_file_is_used(make_corpus: MakeCorpus) -> None:
    paths = """
    paths:
      /dogs:
        $ref: paths/dogs.yaml
    """
    item = yaml(
        """
        get:
          responses:
            '200':
              description: the dogs
              content:
                application/json:
                  schema: {$ref: '../openapi.yaml#/components/schemas/Dog'}
        """
    )
    components = """
    components:
      schemas:
        Dog: {type: object}
        Puppy: {type: object}
    """
    root = make_corpus({"openapi.yaml": _api(components, paths), "paths/dogs.yaml": item})
    assert _unused(run_rule(root, "unused-component")) == ["/components/schemas/Puppy"]


def test_a_component_another_api_document_refs_is_used(make_corpus: MakeCorpus) -> None:
    components = """
    components:
      schemas:
        Dog: {type: object}
        Error: {type: object}
    """
    other = _api(
        "",
        paths="""
        paths:
          /cats:
            get:
              responses:
                default:
                  description: failure
                  content:
                    application/json:
                      schema: {$ref: 'kennel.yaml#/components/schemas/Error'}
        """,
    )
    root = make_corpus({"kennel.yaml": _api(components), "cattery.yaml": other})
    assert run_rule(root, "unused-component") == []


def test_a_component_an_asyncapi_document_refs_is_used(make_corpus: MakeCorpus) -> None:
    components = """
    components:
      schemas:
        Dog: {type: object}
        Adopted: {type: object}
    """
    events = yaml(
        """
        asyncapi: 3.0.0
        info: {title: Kennel events, version: 1.0.0}
        channels:
          adoptions:
            messages:
              adopted:
                payload: {$ref: 'openapi.yaml#/components/schemas/Adopted'}
        """
    )
    root = make_corpus({"openapi.yaml": _api(components), "events.yaml": events})
    assert run_rule(root, "unused-component") == []


def test_a_components_library_without_operations_is_not_judged(make_corpus: MakeCorpus) -> None:
    library = yaml(
        HEAD
        + """
        components:
          schemas:
            Money: {type: object}
            Address: {type: object}
        """
    )
    assert run_rule(make_corpus({"common.yaml": library}), "unused-component") == []


def test_a_discriminator_mapping_value_is_a_use(make_corpus: MakeCorpus) -> None:
    components = """
    components:
      schemas:
        Dog:
          oneOf:
            - {$ref: '#/components/schemas/Terrier'}
          discriminator:
            propertyName: breed
            mapping:
              terrier: '#/components/schemas/Terrier'
              poodle: Poodle
        Terrier: {type: object}
        Poodle: {type: object}
    """
    assert run_rule(make_corpus({"openapi.yaml": _api(components)}), "unused-component") == []


def test_an_allof_child_of_a_parent_with_a_discriminator_is_used(make_corpus: MakeCorpus) -> None:
    components = """
    components:
      schemas:
        Dog:
          type: object
          discriminator: {propertyName: breed}
          properties:
            breed: {type: string}
        Terrier:
          allOf:
            - {$ref: '#/components/schemas/Dog'}
            - {type: object}
    """
    assert run_rule(make_corpus({"openapi.yaml": _api(components)}), "unused-component") == []


def test_a_component_that_refs_a_subtype_kept_in_another_file_is_used(
    make_corpus: MakeCorpus,
) -> None:
    # A root that lists its polymorphic subtypes by `$ref` so that a bundler keeps them: each
    # is reached through its base's discriminator, in the file the `$ref` names.
    components = """
    components:
      schemas:
        Dog:
          type: object
          discriminator: {propertyName: breed}
          properties:
            breed: {type: string}
        Terrier: {$ref: 'breeds.yaml#/Terrier'}
    """
    breeds = yaml(
        """
        Terrier:
          allOf:
            - {$ref: 'openapi.yaml#/components/schemas/Dog'}
            - {type: object}
        """
    )
    root = make_corpus({"openapi.yaml": _api(components), "breeds.yaml": breeds})
    assert run_rule(root, "unused-component") == []


def test_an_allof_child_of_a_parent_without_a_discriminator_is_unused(
    make_corpus: MakeCorpus,
) -> None:
    components = """
    components:
      schemas:
        Dog: {type: object}
        Terrier:
          allOf:
            - {$ref: '#/components/schemas/Dog'}
    """
    findings = run_rule(make_corpus({"openapi.yaml": _api(components)}), "unused-component")
    assert _unused(findings) == ["/components/schemas/Terrier"]


def test_a_security_scheme_a_requirement_names_is_used(make_corpus: MakeCorpus) -> None:
    components = """
    security:
      - apiKey: []
    components:
      schemas:
        Dog: {type: object}
      securitySchemes:
        apiKey: {type: apiKey, name: key, in: header}
        basic: {type: http, scheme: basic}
    """
    findings = run_rule(make_corpus({"openapi.yaml": _api(components)}), "unused-component")
    assert _unused(findings) == ["/components/securitySchemes/basic"]


def test_a_swagger_2_unused_definition_is_reported_at_its_map(make_corpus: MakeCorpus) -> None:
    document = yaml(
        """
        swagger: '2.0'
        info: {title: Kennel, version: 1.0.0}
        paths:
          /dogs:
            get:
              responses:
                '200':
                  description: the dogs
                  schema: {$ref: '#/definitions/Dog'}
        definitions:
          Dog: {type: object}
          Puppy: {type: object}
        """
    )
    findings = run_rule(make_corpus({"swagger.yaml": document}), "unused-component")
    assert _unused(findings) == ["/definitions/Puppy"]
    assert findings[0].location.pointer == "/definitions"


def test_the_security_hint_is_given_only_for_an_unused_scheme(make_corpus: MakeCorpus) -> None:
    components = """
    components:
      schemas:
        Dog: {type: object}
        Puppy: {type: object}
      securitySchemes:
        basic: {type: http, scheme: basic}
    """
    findings = run_rule(make_corpus({"openapi.yaml": _api(components)}), "unused-component")
    assert "name it in a `security` requirement" in str(findings[0].message)
    schemas_only = run_rule(
        make_corpus({"openapi.yaml": _api(components.replace("securitySchemes", "x-unused"))}),
        "unused-component",
    )
    assert "security" not in str(schemas_only[0].message)


def test_a_component_a_description_renders_by_pointer_is_used(make_corpus: MakeCorpus) -> None:
    # Redoc renders a component named in Markdown: `<SchemaDefinition schemaRef=... />`.
    head = """
    openapi: 3.1.0
    info:
      title: Kennel
      version: 1.0.0
      description: |
        <SchemaDefinition schemaRef="#/components/schemas/Puppy" exampleRef="#/components/examples/Rex" />
    """
    components = """
    components:
      schemas:
        Dog: {type: object}
        Puppy: {type: object}
      examples:
        Rex: {value: {name: Rex}}
        Fido: {value: {name: Fido}}
    """
    root = make_corpus({"openapi.yaml": _api(components, head=head)})
    assert _unused(run_rule(root, "unused-component")) == ["/components/examples/Fido"]


def test_a_component_naming_a_file_the_operations_ref_directly_is_used(
    make_corpus: MakeCorpus,
) -> None:
    paths = """
    paths:
      /dogs:
        get:
          responses:
            '200':
              description: the dogs
              content:
                application/json:
                  schema: {$ref: 'schemas/dog.yaml'}
    """
    components = """
    components:
      schemas:
        Dog: {$ref: 'schemas/dog.yaml'}
        Cat: {$ref: 'schemas/cat.yaml'}
    """
    root = make_corpus(
        {
            "openapi.yaml": _api(components, paths),
            "schemas/dog.yaml": "type: object\n",
            "schemas/cat.yaml": "type: object\n",
        }
    )
    # `Cat` names a file no operation reaches: unused like any other component.
    assert _unused(run_rule(root, "unused-component")) == ["/components/schemas/Cat"]


def test_a_component_that_is_no_object_is_left_to_openapi_invalid(make_corpus: MakeCorpus) -> None:
    components = """
    components:
      schemas:
        Dog: {type: object}
      requestBodies:
        Broken: just text
    """
    assert run_rule(make_corpus({"openapi.yaml": _api(components)}), "unused-component") == []


def test_a_component_that_is_a_broken_ref_is_left_to_unresolved_ref(
    make_corpus: MakeCorpus,
) -> None:
    components = """
    components:
      schemas:
        Dog: {type: object}
        Gone: {$ref: 'schemas/gone.yaml'}
    """
    assert run_rule(make_corpus({"openapi.yaml": _api(components)}), "unused-component") == []
