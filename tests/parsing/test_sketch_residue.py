"""A JSON example with sketch notation still has to parse where it is plain (issue 46, round 5).

Placeholders (``{device_info}``, ``[reading objects]``), ``#`` and ``//`` comments, elisions and
member excerpts shown without their object's braces made a whole example a sketch, and a comma
left out in its plain part went unreported. Read with the notation set aside, what remains is
judged; an error after notation left in the text (a type name, a ``<placeholder>``) is not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_rule
from speclint.parsing.sketch_residue import residual_failure

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

# An untagged fence holding placeholders in braces and brackets, with a comma left out after
# one of them.
PLACEHOLDERS = """\
# Telemetry

A batch as the gateway sends it:

```
{
    "gateway": "gw-12",
    "devices": {
        "thermo-1": {device_info},
        "thermo-2": {device_info}
        "valve-9": {device_info}
    },
    "readings": [reading objects]
}
```
"""

# A tagged fence holding only members (no outer braces), in YAML's order of a key a line.
EXCERPT = """\
# Lamps

The members a lamp adds:

```json
"label": "Desk lamp"
"watts": 40,
"dimmable": true
```
"""

# A list item's indented block with `#` comments after its lines and a trailing comma.
COMMENTED = """\
# Orders

1. The order, annotated:

        {
          "order": "o-7",        # the shop's identifier
          "lines": [
            {"sku": "k-1", "qty": 2},  # first line
            {"sku": "k-2", "qty": 1},
          ]
        }
"""


def test_placeholder_fence_with_missing_comma(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"telemetry.md": PLACEHOLDERS})
    (finding,) = run_rule(root, "untagged-json-invalid")
    assert finding.location.line == 11
    assert "a ',' is missing" in finding.message
    assert "set aside" in finding.message


def test_member_excerpt_without_braces(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"lamps.md": EXCERPT})
    (finding,) = run_rule(root, "fence-invalid")
    assert (finding.location.line, finding.heuristic) == (7, "fence-invalid/sketch-residue")


def test_commented_block_in_a_list_item(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"orders.md": COMMENTED})
    (finding,) = run_rule(root, "untagged-json-invalid")
    assert finding.location.line == 9
    assert "trailing comma" in finding.message


def test_missing_comma_beside_a_comment_in_an_untagged_fence(make_corpus: MakeCorpus) -> None:
    text = '# Kiosk\n\n```\n{\n  "kiosk": "k-4"  // set by the mall\n  "floor": 2\n}\n```\n'
    (finding,) = run_rule(make_corpus({"kiosk.md": text}), "untagged-json-invalid")
    assert (finding.location.line, finding.location.column) == (6, 3)


def test_unclosed_string_before_punctuation() -> None:
    text = '{\n  "tags": ["red],\n  "size": 3\n}\n'
    failure = residual_failure(text)
    assert failure is not None and failure.line == 2


@pytest.mark.parametrize(
    "text",
    [
        # the slip follows a type name: the sketch's notation, not data
        '{\n  "id": string,\n  "name": "x"\n  "n": 1\n}',
        # a union of values where the parse stops
        '{\n  "mode": "fast" | "safe",\n  "n": 1\n}',
        # a <placeholder> before the failure
        '{\n  "id": <id>\n  "name": "x"\n}',
        # an excerpt whose last member keeps its comma: the object goes on
        '"a": 1,\n"b": {\n  "c": 2\n},\n',
        # an excerpt before an elision
        '"a": {\n  "b": [1, 2]\n},\n...\n',
        # a long string wrapped for display
        '{\n  "note": "a long sentence that\n  goes on",\n  "n": 1\n}',
        # two versions of one member, each under a comment naming it: parts, not one object
        '// Before\n"retries": 3\n\n// After\n"retries": 5, "backoff": "linear"\n',
        # members listed a line each with no comma anywhere: a list of fields
        '"zone": "eu-2"\n"replicas": 4\n',
        # a single member: too little to call JSON
        '"a": 1\n"b"',
        # placeholders only, and it parses once read as empty values
        '{\n  "a": {thing},\n  "b": [some items]\n}',
    ],
)
def test_sketches_stay_silent(text: str) -> None:
    assert residual_failure(text) is None
