"""``untagged-json-invalid`` on fixtures written here, one test a case, named after it. The rule:
an untagged code block in the prose that is plainly JSON and broken by a slip."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_fence_invalid import BROKEN_FENCE, api

from conftest import run_rule

# An API document's own prose and vendor examples (issue 46's missed classes).
#
# - ``x-examples`` (a map of name to example, as Stoplight and others write it on a schema or a
#   media type) is validated against its schema as ``examples`` are: a preview heuristic of
#   ``example-invalid``.
# - The ``description`` text of an OpenAPI or AsyncAPI document is CommonMark (OpenAPI 3.1 §4.3):
#   its fences and the routes it names are read as a page's are, and reported at the line of the
#   YAML or JSON file they are written on.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_an_untagged_fence_of_a_description_is_untagged_json_invalids(
    make_corpus: MakeCorpus,
) -> None:
    info = BROKEN_FENCE.replace("```json", "```")
    page = '```\n{"a": 1\n"b": 2}\n```\n'
    root = make_corpus({"openapi.yaml": api(info=info), "guide.md": page})
    # one reading of an untagged block, on a page or in a description: untagged-json-invalid's
    assert run_rule(root, "fence-invalid") == []
    found = run_rule(root, "untagged-json-invalid")
    assert [(f.location.path, f.location.line, f.location.column) for f in found] == [
        ("guide.md", 3, 1),
        ("openapi.yaml", 13, 7),  # `"state"`, at the file's line
    ]
    assert found[1].location.pointer == "/info/description"
    assert "untagged fence is JSON" in found[1].message


MakeCorpus = Callable[[dict[str, str | bytes]], Path]

SLIP = 'The parcel:\n\n    {\n      "id": "p-7"\n      "weight": 2\n    }\n'
RFC_HEADER = (
    "# RFC 0003: Parcel weights\n\n| Field | Value |\n|---|---|\n| **RFC** | 0003 |\n"
    "| **Status** | Draft |\n| **Created** | 2026-04-01 |\n\n"
)


def test_untagged_json_invalid_skips_a_design_record_or_a_proposal(make_corpus: MakeCorpus) -> None:
    # an example there sketches a change under discussion, not the specification
    root = make_corpus(
        {
            "adr/0003-weights.md": "# Weights\n\n" + SLIP,
            "proposals/weights.md": "# Weights\n\n" + SLIP,
            "notes/0003-weights.md": RFC_HEADER + SLIP,
            "docs/parcels.md": "# Parcels\n\n" + SLIP,
        }
    )
    found = run_rule(root, "untagged-json-invalid", {})
    assert [f.location.path for f in found] == ["docs/parcels.md"]
