"""Excerpts of a configuration format's root document that a first read of three public
repositories found unbound (issue 46, round 4): a fence placed by the chain of headings above
it (a page on one root member, sections on the members of its map's entries), by the other
examples of its page, and by its shape below its top level. Fixtures of our own."""

from __future__ import annotations

import json

from speclint.analyses.context import Context
from speclint.analyses.prose.fragments import section_schema
from speclint.common.findings import Finding
from speclint.run.catalog import all_rules

GARDEN = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Garden file",
    "type": "object",
    "additionalProperties": False,
    "patternProperties": {"^x-": {}},
    "properties": {
        "version": {"type": "string"},
        "beds": {
            "type": "object",
            "additionalProperties": False,
            "patternProperties": {"^[a-z0-9_-]+$": {"$ref": "#/definitions/bed"}},
        },
        "tools": {"type": "array", "items": {"$ref": "#/definitions/tool"}},
    },
    "definitions": {
        "bed": {
            "type": "object",
            "required": ["soil"],
            "additionalProperties": False,
            "properties": {
                "soil": {"type": "string", "enum": ["clay", "loam", "sand"]},
                "plants": {"type": "array", "items": {"type": "string"}},
                "water": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "schedule": {"type": "string"},
                        "litres": {"type": "integer"},
                    },
                },
            },
        },
        "tool": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"kind": {"type": "string"}, "shed": {"type": "boolean"}},
        },
    },
}

BEDS_PAGE = """\
# Beds top-level element

A garden file declares its beds.

## soil

`soil` says what the bed is made of.

```yaml
soil: clay
```

```yaml
north:
  soil: sand
  plants: true
```

## water

### Long syntax

```yaml
water:
  schedule: daily
  litres: plenty
```
"""


def findings(files: dict[str, str]) -> list[Finding]:
    corpus = Context.from_texts(files)
    return list(all_rules()["example-invalid"].check(corpus, {}))


def garden(**pages: str) -> dict[str, str]:
    files = {"schema/garden.schema.json": json.dumps(GARDEN, indent=2)}
    files.update({f"docs/{name}.md": text for name, text in pages.items()})
    return files


def test_a_section_of_a_member_of_a_maps_entries_binds_its_fences() -> None:
    found = sorted(findings(garden(beds=BEDS_PAGE)), key=lambda f: f.location.line)
    assert [(f.location.line, f.heuristic) for f in found] == [
        (16, "example-invalid/section-scope"),
        (26, "example-invalid/section-scope"),
    ]
    assert "true is not of type" in found[0].message  # `north:` is an entry of `beds`
    assert '"plenty" is not of type' in found[1].message  # `water:` shown with its object


def test_section_schema_steps_through_a_map_and_passes_over_other_headings() -> None:
    corpus = Context.from_texts(garden(beds=BEDS_PAGE))
    page = corpus.documents["docs/beds.md"]
    assert page.prose is not None
    headings = {h.text: h for h in page.prose.headings}
    scope = section_schema(corpus, page, headings["Long syntax"])
    assert scope is not None and scope.path == "beds.water"
    assert scope.steps[0].entries and scope.steps[0].value[1].endswith(
        "/patternProperties/^[a-z0-9_-]+$"
    )
    # A page whose headings name no root member has no scope; nor has a generic word alone.
    other = Context.from_texts(garden(notes="# Notes\n\n## Name\n\ntext\n"))
    notes = other.documents["docs/notes.md"]
    assert notes.prose is not None
    assert all(section_schema(other, notes, h) is None for h in notes.prose.headings)


def test_a_valid_section_fence_is_not_reported() -> None:
    page = BEDS_PAGE.replace("plants: true", "plants: [kale]").replace("plenty", "4")
    assert findings(garden(beds=page)) == []


MERGE_PAGE = """\
# Combining files

Two files are read in turn:

```yaml
beds:
  north:
    soil: loam
    plants: [kale]
```

```yaml
beds:
  south:
    soil: clay
    water: {litres: 3}
```

A key spelt another way is another key:

```yaml
beds:
  north:
    Soil: loam
```

```yaml
bed:
  east:
    soil: sand
    plants: [leek]
```
"""


def test_a_fence_of_one_root_member_binds_by_the_other_examples_of_its_page() -> None:
    found = sorted(findings(garden(merge=MERGE_PAGE)), key=lambda f: f.location.line)
    assert [(f.location.line, f.heuristic) for f in found] == [
        (23, "example-invalid/page-root"),
        (28, "example-invalid/page-root"),
    ]
    assert '"Soil"' in found[0].message
    # Bound by its company, it shows a part: the `soil` its bed requires is not its to give.
    assert "required" not in found[0].message
    assert "(did you mean `beds`?)" in found[1].message


def test_a_lone_excerpt_or_a_misspelt_member_of_another_shape_stays_unbound() -> None:
    alone = MERGE_PAGE.split("A key spelt")[0].replace("plants: [kale]", "plants: [kale]\n")
    lone = "# Combining files\n\n```yaml\nbeds:\n  north:\n    Soil: loam\n```\n"
    assert findings(garden(merge=lone)) == []
    assert findings(garden(merge=alone)) == []
    # `bed:` whose value is not of the shape of `beds` (a map of beds) is not taken for it.
    other = MERGE_PAGE.replace("    soil: sand\n    plants: [leek]\n", "    colour: red\n")
    lines = [f.location.line for f in findings(garden(merge=other))]
    assert lines == [23]


WIDGET = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "size": {"type": "integer"},
        "colour": {"type": "string"},
        "parts": {"type": "object"},
    },
}


def widget_page(lead_in: str) -> dict[str, str]:
    page = f'# Widgets\n\n{lead_in}\n\n```json\n{{"colour": "blue", "parts": ["a"]}}\n```\n'
    # A widget is a part of a catalogue (not a root document), and the example has too few
    # members to bind by its shape: only the sentence above it says what it is.
    catalogue = {
        "type": "object",
        "properties": {"widgets": {"items": {"$ref": "widget.schema.json"}}},
    }
    return {
        "schemas/widget.schema.json": json.dumps(WIDGET),
        "schemas/catalogue.schema.json": json.dumps(catalogue),
        "docs/widgets.md": page,
    }


def test_a_sentence_that_leads_in_to_an_example_and_names_its_definition_binds_it() -> None:
    [found] = findings(widget_page("A small blue widget could appear as:"))
    assert found.heuristic == "example-invalid/lead-in"
    assert found.location.line == 6
    assert '["a"] is not of type "object"' in found.message
    [found] = findings(widget_page("Example request body for a `Widget`:"))
    assert found.heuristic == "example-invalid/lead-in"


def test_a_lead_in_naming_no_definition_or_saying_no_example_binds_nothing() -> None:
    assert findings(widget_page("A small blue gadget could appear as:")) == []
    assert findings(widget_page("A widget has a size and a colour.")) == []


def test_a_changelog_or_a_plain_value_where_an_object_is_declared_does_not_bind_by_page() -> None:
    # A changelog shows the shapes a release left behind.
    assert findings(garden(CHANGELOG=MERGE_PAGE)) == []
    # `north: clay` where a bed is an object: another document's `beds`, not this one's.
    other = MERGE_PAGE.replace("  north:\n    Soil: loam\n", "  north: clay\n")
    assert [f.location.line for f in findings(garden(merge=other))] == [27]
