"""Remote references on what the third ecosystem reading showed (issue 26): a URL whose host is
a bare word can never resolve (an unresolved-ref warning); the others are not followed, which
the run says as coverage (issue 45), one note per reference in the file's order."""

from __future__ import annotations

import json

from test_eco_misc import MakeCorpus, not_checked

from conftest import run_rule as run
from speclint.common.findings import Severity


def test_a_url_whose_host_is_a_bare_word_is_a_warning_with_the_url_meant(
    make_corpus: MakeCorpus,
) -> None:
    body = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "filter": {"$ref": "https://schemas/example.org/filter/filter.json"},
            "local": {"$ref": "http://localhost:8080/dev.json"},
            "remote": {"$ref": "https://schemas.example.org/other.json"},
        },
    }
    root = make_corpus({"schemas/query.json": json.dumps(body, indent=2)})
    [warning] = run(root, "unresolved-ref")
    assert warning.severity is Severity.WARNING
    assert "host `schemas` is not a domain name" in warning.message
    assert "did you mean `https://schemas.example.org/filter/filter.json`?" in warning.message
    assert warning.location.pointer == "/properties/filter/$ref"
    # The other two are not followed: coverage, and the broken one is not said twice.
    notes = not_checked(root, "remote-ref")
    assert [n.what.split("`")[1] for n in notes] == [
        "http://localhost:8080/dev.json",
        "https://schemas.example.org/other.json",
    ]


def test_the_notes_follow_the_files_order(make_corpus: MakeCorpus) -> None:
    properties = {f"p{n}": {"$ref": f"https://example.net/{n}.json"} for n in range(12)}
    body = {"type": "object", "properties": properties}
    root = make_corpus({"schemas/many.json": json.dumps(body, indent=2)})
    notes = not_checked(root, "remote-ref")
    assert len(notes) == 12 and [n.line for n in notes] == sorted(n.line for n in notes)
    assert notes[0].what.startswith("`https://example.net/0.json`")


def test_an_instance_naming_its_schema_by_a_raw_url_of_a_held_file_is_checked(
    make_corpus: MakeCorpus,
) -> None:
    """`$schema: https://raw.githubusercontent.com/o/r/main/schemas/t.json` names this
    repository's own `schemas/t.json`: the instance is judged by it, not left unchecked."""
    raw = "https://raw.githubusercontent.com/acme/widgets/main/schemas/translations.json"
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"lang": {"type": "string", "pattern": "^[a-z]{2}$"}},
    }
    root = make_corpus(
        {
            "schemas/translations.json": json.dumps(schema, indent=2),
            "data/translations.json": json.dumps({"$schema": raw, "lang": "English"}, indent=2),
        }
    )
    [finding] = run(root, "instance-invalid")
    assert finding.severity is Severity.ERROR and "English" in finding.message


def test_a_raw_url_of_a_held_file_discovery_leaves_out_says_where_it_is(
    make_corpus: MakeCorpus,
) -> None:
    """The schema sits in a test folder (a fixture, not loaded): the notice names the file and
    how to have the instance checked, not "not in the corpus"."""
    raw = "https://raw.githubusercontent.com/acme/widgets/main/test/translations_schema.json"
    root = make_corpus(
        {
            "test/translations_schema.json": json.dumps({"type": "object"}),
            "data/translations.json": json.dumps({"$schema": raw, "lang": "en"}, indent=2),
        }
    )
    [notice] = run(root, "instance-invalid")
    assert notice.severity is Severity.INFO
    assert "`test/translations_schema.json` in this repository" in notice.message
    assert "not in the corpus" not in notice.message
