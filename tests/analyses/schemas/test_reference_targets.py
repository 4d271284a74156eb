"""Where a resolved ``$ref``'s target is in its file (``references.located``): a reference to
a subschema an embedded ``$id`` names, or to a pointer below it, is that subschema, never the
whole file that embeds it (JSON Schema 2020-12 §8.2.1, §9.2); every reader of a target asks
the same function."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from speclint.analyses.api.inlining import corpus_target
from speclint.analyses.context import Context
from speclint.analyses.schemas.references import Reference, located
from speclint.analyses.schemas.shapes import Site, follow_once
from speclint.analyses.schemas.subsumption import resolver

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def bundle(refs: dict[str, str]) -> dict[str, str | bytes]:
    """A file of definitions, some named by an embedded ``$id`` or an anchor, and a schema whose
    properties ``$ref`` them (``refs``: property name -> reference)."""
    definitions = {
        "$schema": DRAFT,
        "$id": "https://example.com/definitions.json",
        "type": "object",
        "$defs": {
            "Cat": {
                "$id": "https://example.com/cat.json",
                "type": "object",
                "properties": {"lives": {"type": "integer"}},
            },
            "Dog": {"$id": "https://example.com/dog.json", "type": "string"},
            "Run": {"$anchor": "Run", "type": "boolean"},
        },
    }
    main = {
        "$schema": DRAFT,
        "$id": "https://example.com/main.json",
        "properties": {name: {"$ref": ref} for name, ref in refs.items()},
    }
    return {
        "schemas/definitions.json": json.dumps(definitions),
        "schemas/main.json": json.dumps(main),
    }


CASES = {
    "cat.json": "/$defs/Cat",
    "https://example.com/dog.json": "/$defs/Dog",
    "https://example.com/cat.json#/properties/lives": "/$defs/Cat/properties/lives",
    "definitions.json#Run": "/$defs/Run",
    "definitions.json#/$defs/Dog": "/$defs/Dog",
    "definitions.json": "",
}


@pytest.mark.parametrize(("ref", "pointer"), sorted(CASES.items()))
def test_a_ref_to_an_embedded_id_names_that_subschema_not_the_whole_file(
    make_corpus: MakeCorpus, ref: str, pointer: str
) -> None:
    corpus = Context.load(make_corpus(bundle({"x": ref})))
    main = corpus.documents["schemas/main.json"]
    reference = corpus.references.at(main.path, "/properties/x/$ref")
    assert reference is not None and reference.outcome == "ok"
    assert located(corpus, reference) == ("schemas/definitions.json", pointer)
    # The readers of a target: the inlining of API documents, the subsumption prover, the
    # shapes of schemas.
    target = corpus_target(corpus, main, "/properties/x")
    assert target is not None and (target[0].path, target[1]) == located(corpus, reference)
    at = resolver(corpus)(main.path, "/properties/x")
    assert at is not None and (at.path, at.pointer) == ("schemas/definitions.json", pointer)
    site = Site(main, "/properties/x", main.data["properties"]["x"])
    followed = follow_once(corpus, site)
    assert followed is not None and followed.pointer == pointer


def test_an_anchor_the_index_did_not_place_is_not_the_file_root(make_corpus: MakeCorpus) -> None:
    corpus = Context.load(make_corpus(bundle({})))
    unplaced = Reference(
        "schemas/main.json",
        "/properties/x/$ref",
        "definitions.json#Gone",
        "https://example.com/definitions.json#Gone",
        "ok",
        "schemas/definitions.json",
        None,
    )
    assert located(corpus, unplaced) is None
