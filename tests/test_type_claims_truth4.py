"""type-claim-drift, the classes a first read of three more repositories missed (issue 46, item
8): generator model pages, requiredness sentences, members a section documents that its object
lacks, and claims in an API document's descriptions."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from conftest import run_rule
from speclint.frontends.cli import main

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def reported(root: Path) -> list[tuple[str, int, str]]:
    """(path, line, message) of each type-claim-drift finding of a whole run (generated pages'
    findings filtered as a run does)."""
    out = root.parent / f"{root.name}-report.json"
    result = CliRunner().invoke(
        main,
        ["check", str(root), "--preview", "--no-cache", "--select", "type-claim-drift",
         "--format", "json", "-o", str(out), "--exit-zero"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return sorted(
        (f["location"]["path"], f["location"]["line"], f["message"])
        for f in json.loads(out.read_text(encoding="utf-8"))["findings"]
    )


# --- generator model pages -------------------------------------------------------------------

PETSTORE = {
    "openapi": "3.1.0",
    "info": {"title": "Shelter", "version": "1"},
    "paths": {},
    "components": {
        "schemas": {
            "Pet": {
                "title": "Pet",
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "age": {"type": "integer"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["name", "tags"],
            },
            # a copy that kept the title it was pasted with: not the page's model
            "PetDraft": {
                "title": "Pet",
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "age": {"type": "string"},
                    "tags": {"type": "array"},
                },
            },
        }
    },
}
FOOTER = "[[Back to Model list]](../README.md#models) [[Back to README]](../README.md)\n"


def model_page(rows: str) -> str:
    return (
        "# Pet\n\n\n## Properties\n\nName | Type | Description | Notes\n"
        "------------ | ------------- | ------------- | -------------\n"
        f"{rows}\n## Example\n\nText.\n\n{FOOTER}"
    )


def test_a_generator_model_page_marked_optional_where_the_component_requires_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    page = model_page(
        "**name** | **str** | The name. | \n"
        "**age** | **int** | The age. | [optional] \n"
        "**tags** | **List[str]** | Tags. | [optional] \n"
    )
    root = make_corpus({"api/openapi.json": json.dumps(PETSTORE, indent=1), "docs/Pet.md": page})
    found = reported(root)
    assert [(path, line) for path, line, _ in found] == [("docs/Pet.md", 10)]
    message = found[0][2]
    assert "`tags` is documented as OPTIONAL (its Notes cell says `[optional]`)" in message
    assert "#/components/schemas/Pet/required" in message
    assert "regenerate it" in message


def test_a_generator_model_page_without_the_optional_mark_claims_required(
    make_corpus: MakeCorpus,
) -> None:
    page = model_page(
        "**name** | **str** | The name. | \n"
        "**age** | **int** | The age. | \n"
        "**tags** | **List[str]** | Tags. | \n"
    )
    root = make_corpus({"api/openapi.json": json.dumps(PETSTORE, indent=1), "docs/Pet.md": page})
    found = reported(root)
    assert [(path, line) for path, line, _ in found] == [("docs/Pet.md", 9)]
    assert "`age` is documented as REQUIRED (its Notes cell has no `[optional]`" in found[0][2]


def test_a_generator_model_page_type_is_held_to_the_component_its_title_names(
    make_corpus: MakeCorpus,
) -> None:
    page = model_page(
        "**name** | **str** | The name. | \n"
        "**age** | **str** | The age. | [optional] \n"
        "**tags** | **List[str]** | Tags. | \n"
    )
    root = make_corpus({"api/openapi.json": json.dumps(PETSTORE, indent=1), "docs/Pet.md": page})
    found = reported(root)
    assert [(path, line) for path, line, _ in found] == [("docs/Pet.md", 9)]
    assert "`age` is documented as `**str**`" in found[0][2]
    assert "Pet/properties/age` says `type: integer`" in found[0][2]


def test_a_generator_operation_page_parameters_table_claims_nothing(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# PetsApi\n\n## Parameters\n\nName | Type | Description | Notes\n"
        "------------- | ------------- | ------------- | -------------\n"
        "**age** | **int** | The age. | \n**name** | **str** | The name. | [optional] \n\n" + FOOTER
    )
    root = make_corpus(
        {"api/openapi.json": json.dumps(PETSTORE, indent=1), "docs/PetsApi.md": page}
    )
    assert reported(root) == []
    assert run_rule(root, "type-claim-drift") == []
