"""The work an API bundle does grows with the document, not with its square (issue 47).

A split document whose components name one another in a chain (each schema of a shared file
naming the next) took one pass over every component per link of the chain, and each component
walked its whole file's `$ref`s: 13 minutes on a real split document. The work is counted here
(walks of a document's `$ref`s), never timed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import write_files
from speclint.analyses.context import Context
from speclint.model.config import load_config
from speclint.model.corpus import Document
from speclint.outputs import api_bundle
from speclint.outputs.api_bundle import bundle_api

LINKS = 40


def chained(root: Path) -> None:
    schemas = "".join(
        f"    S{i}:\n      type: object\n      properties:\n"
        f"        next: {{$ref: '#/components/schemas/S{i + 1}'}}\n"
        for i in range(LINKS)
    )
    write_files(
        root,
        {
            "api/openapi.yaml": (
                "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n"
                "paths:\n  /a:\n    get:\n      responses:\n        '200':\n"
                "          description: ok\n          content:\n            application/json:\n"
                "              schema: {$ref: 'shared.yaml#/components/schemas/S0'}\n"
            ),
            "api/shared.yaml": (
                "openapi: 3.1.0\ninfo: {title: s, version: '1'}\npaths: {}\ncomponents:\n"
                f"  schemas:\n{schemas}    S{LINKS}: {{type: string}}\n"
            ),
        },
    )


def test_a_chain_of_components_walks_each_file_a_bounded_number_of_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chained(tmp_path)
    corpus = Context.load(tmp_path, load_config(tmp_path))
    walks: list[str] = []
    real = api_bundle.ref_sites

    def counted(document: Document) -> Iterator[tuple[str, str, str]]:
        walks.append(document.path)
        return real(document)

    monkeypatch.setattr(api_bundle, "ref_sites", counted)
    built = bundle_api(corpus, corpus.documents["api/openapi.yaml"])
    schemas: dict[str, Any] = built.tree["components"]["schemas"]
    assert sorted(schemas) == sorted(f"S{i}" for i in range(LINKS + 1))
    assert schemas["S3"]["properties"]["next"] == {"$ref": "#/components/schemas/S4"}
    # Each file's `$ref`s walked a bounded number of times, however long the chain (one pass
    # over every component per link walked the shared file LINKS * LINKS / 2 times).
    assert walks.count("api/shared.yaml") <= 2, len(walks)
    assert walks.count("api/openapi.yaml") <= 2, len(walks)


def test_a_key_written_twice_is_bundled_with_its_last_value_and_said(tmp_path: Path) -> None:
    # YAML 1.2 forbids a duplicate key; most parsers (PyYAML, every JSON one) keep the last,
    # as speclint's own reading does. The bundle holds that reading, not the first value.
    write_files(
        tmp_path,
        {
            "api/openapi.yaml": (
                "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n"
                "paths:\n  /things/{id}:\n    delete:\n      parameters:\n"
                "        - {in: query, name: epoch, schema: {type: integer}}\n"
                "      parameters:\n        - $ref: '#/components/parameters/id'\n"
                "      responses:\n        '204': {description: gone}\n"
                "components:\n  parameters:\n    id:\n      in: path\n      name: id\n"
                "      required: true\n      schema: {$ref: 'common.yaml#/Id'}\n"
            ),
            "api/common.yaml": "Id: {type: string}\n",
        },
    )
    corpus = Context.load(tmp_path, load_config(tmp_path))
    built = bundle_api(corpus, corpus.documents["api/openapi.yaml"])
    operation = built.plain()["paths"]["/things/{id}"]["delete"]
    assert operation["parameters"] == [{"$ref": "#/components/parameters/id"}]
    assert built.plain()["components"]["parameters"]["id"]["schema"] == {
        "$ref": "#/components/schemas/Id"
    }
    [note] = built.duplicates
    assert "`parameters`" in note and "lines 6 and 8" in note
