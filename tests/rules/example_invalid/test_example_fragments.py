"""Fragments of a root document (issue 46, item 3): a fence showing some members of the file a
schema describes is validated for what it shows, and an attribute section's example binds
through the root to that attribute's schema."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli, run_rule, schema
from speclint.analyses.context import Context
from speclint.analyses.prose import fragments
from speclint.analyses.prose.fences import Binding, example_bindings
from speclint.analyses.prose.fragments import BY_FRAGMENT, document_roots, section_schema
from speclint.common.findings import Finding
from speclint.parsing.structured import resolve_pointer
from speclint.run.catalog import all_rules
from speclint.run.preview import why_heuristic_preview

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


STEP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["run"],
    "properties": {
        "run": {"type": "string"},
        "shell": {"enum": ["bash", "sh", "pwsh"]},
        "timeout": {"type": "integer"},
    },
}


# A pipeline file: closed at the root and in each pipeline and step, enums deep down.
PIPELINE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.org/pipeline.schema.json",
    "title": "Pipeline file",
    "type": "object",
    "additionalProperties": False,
    "required": ["version", "pipelines"],
    "properties": {
        "version": {"type": "string"},
        "name": {"type": "string"},
        "pipelines": {"type": "object", "additionalProperties": {"$ref": "#/$defs/pipeline"}},
        "variables": {"type": "object", "additionalProperties": {"type": "string"}},
        "init_steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
    },
    "$defs": {
        "pipeline": {
            "type": "object",
            "additionalProperties": False,
            "required": ["steps"],
            "properties": {
                "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
                "trigger": {"enum": ["push", "manual", "schedule"]},
            },
        },
        "step": STEP,
    },
}


# Another root that declares the same top-level members: a fence of both is neither's.
DEPLOY = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Deploy file",
    "type": "object",
    "properties": {
        "pipelines": {"type": "array"},
        "variables": {"type": "array"},
        "name": {"type": "string"},
    },
}


def yaml(body: str, heading: str = "## Example", intro: str = "For example:") -> str:
    return f"{heading}\n\n{intro}\n\n```yaml\n{body}```\n\n"


def context(page: str, schemas: dict[str, Any] | None = None) -> Context:
    files = {
        path: json.dumps(schema)
        for path, schema in (schemas or {"schemas/pipeline.schema.json": PIPELINE}).items()
    }
    return Context.from_texts({**files, "docs/guide.md": f"# Guide\n\n{page}"})


def findings(page: str, schemas: dict[str, Any] | None = None) -> list[Finding]:
    return list(all_rules()["example-invalid"].check(context(page, schemas), {}))


def ties(page: str, schemas: dict[str, Any] | None = None) -> list[Any]:
    corpus = context(page, schemas)
    document = corpus.documents["docs/guide.md"]
    return [t for e in example_bindings(corpus, document, Binding()) for t in e.ties]


def line_of(page: str, text: str) -> int:
    """The line of the guide (its `# Guide` heading and blank line first) holding ``text``."""
    return (f"# Guide\n\n{page}").split("\n").index(text) + 1


def test_an_unknown_member_deep_in_a_fragment_is_reported_where_it_is() -> None:
    page = yaml(
        "pipelines:\n"
        "  build:\n"
        "    steps:\n"
        "      - run: make\n"
        "        shel: bash\n"
        "variables:\n"
        '  CI: "true"\n'
    )
    [finding] = findings(page)
    assert '("shel" was unexpected)' in finding.message
    assert "a fragment of `pipeline.schema.json`" in str(finding.related[0].note)
    # Where every binding reports an unknown member: the object that holds it.
    assert finding.location.line == line_of(page, "      - run: make")
    assert finding.heuristic == "example-invalid/by-fragment"


def test_a_wrong_enum_value_deep_in_a_fragment_is_reported() -> None:
    page = yaml(
        "pipelines:\n"
        "  deploy:\n"
        "    trigger: push\n"
        "    steps:\n"
        "      - run: ./deploy.sh\n"
        "        shell: zsh\n"
        "variables:\n"
        '  REGION: "eu"\n'
    )
    [finding] = findings(page)
    assert '"zsh" is not one of' in finding.message
    assert finding.location.line == line_of(page, "        shell: zsh")


def test_a_valid_fragment_leaving_out_required_top_level_members_is_quiet() -> None:
    # `version` is required at the root: an excerpt need not show it. The fence is bound, so
    # the quiet is the fragment's validity, not a missed binding.
    page = yaml("pipelines:\n  build:\n    steps:\n      - run: make\nvariables:\n  CI: yes\n")
    assert findings(page) == []
    [tie] = ties(page)
    assert tie.how == BY_FRAGMENT and tie.fragment
    assert tie.evidence == (
        "a fragment of `pipeline.schema.json`: members `pipelines`, `variables` declared by "
        "its root"
    )


def test_a_nested_object_shown_whole_is_judged_for_its_required_members() -> None:
    # A pipeline shown in full lacks its one required member: the fragment is answerable for
    # what it shows, and it shows this pipeline.
    page = yaml("pipelines:\n  build:\n    trigger: push\nvariables:\n  CI: yes\n")
    [finding] = findings(page)
    assert '"steps" is a required property' in finding.message


def test_an_attribute_sections_example_of_its_value_binds_through_the_root() -> None:
    page = yaml("- run: checkout\n  timeout: soon\n", heading="## `init_steps`")
    [finding] = findings(page)
    assert '"soon" is not of type "integer"' in finding.message
    assert "schemas/pipeline.schema.json#/properties/init_steps" in finding.message
    assert "the value of `init_steps` of `pipeline.schema.json`" in str(finding.related[0].note)
    assert finding.location.line == line_of(page, "  timeout: soon")


def test_an_attribute_section_showing_the_attribute_itself_is_a_fragment() -> None:
    page = yaml("init_steps:\n  - run: checkout\n    shell: fish\n", heading="## `init_steps`")
    [finding] = findings(page)
    assert '"fish" is not one of' in finding.message
    # A dotted heading walks into a map's members (`pipelines.build` is one pipeline).
    page = yaml("steps:\n  - run: make\n    timeout: 1\ntrigger: nightly\n", "### pipelines.build")
    [finding] = findings(page)
    assert '"nightly" is not one of' in finding.message


def test_a_fence_two_roots_fit_is_not_bound() -> None:
    schemas = {"schemas/pipeline.schema.json": PIPELINE, "schemas/deploy.schema.json": DEPLOY}
    page = yaml(
        "pipelines:\n  build:\n    steps:\n      - run: make\n        shel: bash\nvariables: {}\n"
    )
    assert ties(page, schemas) == []
    assert findings(page, schemas) == []
    corpus = context(page, schemas)
    [example] = example_bindings(corpus, corpus.documents["docs/guide.md"], Binding())
    assert "fit the roots of several schemas" in example.why


def test_a_fence_of_one_generic_member_is_not_bound() -> None:
    # Even where the page names the root's file: `name` says nothing of whose it is.
    page = yaml("name: 42\n", intro="See `pipeline.schema.json`:")
    assert ties(page) == []
    assert findings(page) == []
    # With a member that says whose it is, the same `name` is judged.
    [finding] = findings(yaml("name: 42\npipelines: {}\n"))
    assert '42 is not of type "string"' in finding.message


def test_one_member_binds_where_the_page_names_the_root_and_its_shape_is_the_roots() -> None:
    body = "pipelines:\n  build:\n    steps: []\n    trigger: nightly\n"
    assert findings(yaml(body)) == []
    [finding] = findings("The file follows `pipeline.schema.json`.\n\n" + yaml(body))
    assert '"nightly" is not one of' in finding.message
    # Of another shape below (most members of each pipeline undeclared there): another
    # document's member of the same name, as a registry index's `packs` is no lockfile's.
    other = "pipelines:\n  build:\n    owner: me\n    latest: 1.0\n    trigger: nightly\n"
    assert findings("The file follows `pipeline.schema.json`.\n\n" + yaml(other)) == []


def test_a_schema_another_uses_as_a_member_is_no_root() -> None:
    # `step.schema.json` is the value of `init_steps` items: a part, not a document.
    parent = {
        "type": "object",
        "properties": {
            "init_steps": {"type": "array", "items": {"$ref": "step.schema.json"}},
            "name": {"type": "string"},
        },
    }
    schemas = {"schemas/step.schema.json": STEP, "schemas/file.schema.json": parent}
    page = yaml("run: make\nshell: zsh\n")
    assert ties(page, schemas) == []
    # The schema that uses it is a root: its excerpt binds, through it to the step.
    page = yaml("init_steps:\n  - run: make\n    shell: zsh\nname: build\n")
    [tie] = ties(page, schemas)
    assert tie.target.label == "schemas/file.schema.json"
    [finding] = findings(page, schemas)
    assert '"zsh" is not one of' in finding.message


def test_the_binding_is_a_preview_heuristic_and_listed_with_its_evidence(
    make_corpus: MakeCorpus,
) -> None:
    assert why_heuristic_preview("example-invalid/by-fragment")
    page = "# Guide\n\n" + yaml("pipelines:\n  build:\n    steps: []\nvariables: {}\n")
    root = make_corpus(
        {"schemas/pipeline.schema.json": json.dumps(PIPELINE), "docs/guide.md": page}
    )
    output = run_cli("bindings", str(root)).output
    assert (
        "-> schemas/pipeline.schema.json (by root fragment: a fragment of `pipeline.schema.json`: "
        "members `pipelines`, `variables` declared by its root)" in output
    )


def test_frozen_versions_of_the_root_are_not_a_second_root() -> None:
    # The release folders keep older versions of the file (one with another enum): a page of
    # no version shows the live one, beside them; without it, the newest release.
    older = json.loads(json.dumps(PIPELINE))
    older["$defs"]["step"]["properties"]["shell"]["enum"] = ["bash", "zsh"]
    page = yaml("pipelines:\n  b:\n    steps:\n      - run: x\n        shell: zsh\nvariables: {}\n")
    live = {
        "schemas/pipeline.schema.json": PIPELINE,
        "schemas/1.0.0/pipeline.schema.json": older,
    }
    [finding] = findings(page, live)
    assert '"zsh" is not one of' in finding.message
    releases = {
        "schemas/1.0.0/pipeline.schema.json": older,
        "schemas/2.0.0/pipeline.schema.json": PIPELINE,
    }
    [tie] = ties(page, releases)
    assert tie.target.label == "schemas/2.0.0/pipeline.schema.json"


def test_an_excerpt_of_a_root_of_branches_is_not_faulted_for_the_branch_it_leaves_out() -> None:
    # The root is one of two shapes, closed by `unevaluatedProperties`: an excerpt showing
    # members of one branch fails that branch's `required`, and so "evaluates" nothing there.
    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "oneOf": [
            {
                "allOf": [{"$ref": "#/$defs/common"}],
                "properties": {"image": {"type": "string"}},
                "required": ["image"],
            },
            {
                "allOf": [{"$ref": "#/$defs/common"}],
                "properties": {"build": {"type": "object"}},
                "required": ["build"],
            },
        ],
        "unevaluatedProperties": False,
        "$defs": {
            "common": {"properties": {"runArgs": {"type": "array"}, "mounts": {"type": "array"}}}
        },
    }
    schemas = {"schemas/container.schema.json": root}
    page = yaml("runArgs: [a]\nmounts: []\n")
    [tie] = ties(page, schemas)
    assert tie.how == BY_FRAGMENT
    assert findings(page, schemas) == []
    # What the excerpt gets wrong is still found.
    [finding] = findings(yaml("runArgs: a\nmounts: []\n"), schemas)
    assert 'is not of type "array"' in finding.message


def test_a_root_of_branches_that_refer_to_each_other_is_read_once_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each `anyOf` branch refers back to both: read without a bound, 2^8 walks and more.
    branches = {
        f"b{i}": {
            "anyOf": [{"$ref": f"#/$defs/b{(i + 1) % 6}"}, {"$ref": f"#/$defs/b{(i + 2) % 6}"}],
            "properties": {f"m{i}": {"type": "string"}},
        }
        for i in range(6)
    }
    root = {"anyOf": [{"$ref": "#/$defs/b0"}], "$defs": branches}
    corpus = context("", {"schemas/tangle.schema.json": root})
    reads: list[str] = []

    def counted(data: Any, pointer: str) -> Any:
        reads.append(pointer)
        return resolve_pointer(data, pointer)

    monkeypatch.setattr(fragments, "resolve_pointer", counted)
    [found] = document_roots(corpus)
    assert set(found.members) == {f"m{i}" for i in range(6)}
    # Each of its 20 schemas (the root, its branch, 6 definitions and their 12 branches) read
    # once, and each `$ref` followed once.
    assert len(reads) <= 2 * 20


# A fence the words call another message than the root its members fit (issue 46, round 6).
#
# An API's requests share their top-level members: a lookup request sends a `shelf` and a
# `book`, and so does the API's *search* request, with its own rules (the searched book's `isbn`
# left out on purpose). Where the repository has a schema for the lookup request only, a search
# request fits its members, and member fit alone (root fragment, page root, shape) would report
# the missing `isbn` as an error. The section titles over the fence decide: where they name
# another request ("The Book Search API Request", "Book search with a shelf" on a page that
# speaks of a "book search request"), the fence is not bound, and `speclint bindings` says why.


OBJECT = {
    "type": "object",
    "required": ["kind", "isbn"],
    "properties": {"kind": {"type": "string"}, "isbn": {"type": "string"}},
}


# The one schema of the repository: the lookup request (its file is named for it).
LOOKUP = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Lookup request",
    "type": "object",
    "required": ["shelf", "book"],
    "properties": {
        "shelf": {
            "type": "object",
            "required": ["room"],
            "properties": {"room": {"type": "string"}},
        },
        "book": OBJECT,
        "hints": {"type": "object"},
    },
}


SCHEMAS = {"schemas/lookup-request.schema.json": LOOKUP}


# A request without the book's `isbn`: a search request's, an error in a lookup request.
NO_ISBN = '{\n  "shelf": {"room": "east"},\n  "book": {"kind": "novel"}\n}\n'


def fence(body: str) -> str:
    return f"```json\n{body}```\n\n"


# Style 1: a specification's sections, each request defined, then "Example (non-normative)".
SPEC = (
    "## Lookup API\n\n### The Lookup API Request\n\nA lookup request names a shelf and a book.\n\n"
    "### Example (non-normative)\n\n" + fence(NO_ISBN) + "## Book Search API\n\n"
    "### The Book Search API Request\n\nThe `book` MUST carry a `kind`; its `isbn` SHOULD be "
    "left out.\n\n### Example (non-normative)\n\nThe following asks for the novels:\n\n"
    + fence(NO_ISBN)
)


# Style 2: a test plan's cases, titled by what they try, under the operation they are of.
PLAN = (
    "## Lookup\n\n### Lookup of a known book\n\n**Request:**\n\n"
    + fence(NO_ISBN)
    + "## Search\n\nA book search request leaves the `isbn` out.\n\n"
    "### Book search with a shelf\n\n**Request:**\n\n" + fence(NO_ISBN)
)


def context_called_otherwise(page: str) -> Context:
    files = {path: json.dumps(schema) for path, schema in SCHEMAS.items()}
    return Context.from_texts({**files, "docs/api.md": f"# Library API\n\n{page}"})


def findings_called_otherwise(page: str) -> list[Finding]:
    return list(all_rules()["example-invalid"].check(context_called_otherwise(page), {}))


def tied_lines(page: str) -> list[int]:
    corpus = context_called_otherwise(page)
    document = corpus.documents["docs/api.md"]
    return [e.fence.line for e in example_bindings(corpus, document, Binding()) if e.ties]


def line_after(page: str, text: str) -> int:
    """The line of the first fence after ``text`` in the page (its `# Library API` first)."""
    lines = f"# Library API\n\n{page}".split("\n")
    start = lines.index(text)
    return next(n for n, line in enumerate(lines, 1) if n > start and line == "```json")


def test_the_search_requests_example_is_not_bound_to_the_lookup_request() -> None:
    lookup = line_after(SPEC, "### The Lookup API Request")
    search = line_after(SPEC, "### The Book Search API Request")
    assert tied_lines(SPEC) == [lookup]
    assert search not in tied_lines(SPEC)
    # The lookup request's example misses `isbn`: an error; the search request's is not one.
    assert [f.location.line for f in findings_called_otherwise(SPEC)] == [lookup + 3]


def test_a_test_plans_search_case_is_not_bound_to_the_lookup_request() -> None:
    lookup = line_after(PLAN, "### Lookup of a known book")
    assert tied_lines(PLAN) == [lookup]
    assert [f.location.line for f in findings_called_otherwise(PLAN)] == [lookup + 3]


def test_a_heading_that_names_the_roots_own_request_keeps_the_binding() -> None:
    page = "## Lookups\n\n### Valid lookup request with a shelf\n\n" + fence(NO_ISBN)
    assert len(tied_lines(page)) == 1
    # "Example request", "an empty request": no name of another message.
    for title in ("Example request", "An empty request body"):
        assert len(tied_lines(f"## {title}\n\n" + fence(NO_ISBN))) == 1


def test_bindings_say_what_the_words_call_the_fence(make_corpus: MakeCorpus) -> None:
    files: dict[str, Any] = {path: json.dumps(schema) for path, schema in SCHEMAS.items()}
    root = make_corpus({**files, "docs/api.md": f"# Library API\n\n{SPEC}"})
    output = run_cli("bindings", "--all", str(root)).output
    assert (
        "the words call it a request named `book`, `search` under the heading "
        "`The Book Search API Request`, not the message `lookup-request.schema.json` is "
        "named for" in output
    )


# example-invalid/envelope-kind (issue 46, round 4): an envelope whose payload member is open
# (`"data": {"type": "object"}`), its payload's schema named by the kind the example gives
# (`"kind": "ping"` and `ping.schema.json`), validates the payload against that schema.


def envelope(data: dict[str, Any] | None = None) -> str:
    return schema(
        type="object",
        properties={
            "metadata": {
                "type": "object",
                "properties": {"kind": {"type": "string", "enum": ["ping", "pong"]}},
                "required": ["kind"],
            },
            "data": data or {"type": "object", "description": "The message's content"},
        },
        required=["metadata", "data"],
        additionalProperties=False,
    )


PING = schema(
    type="object",
    properties={"seq": {"type": "integer"}},
    required=["seq"],
    additionalProperties=False,
)


def page(data: dict[str, Any], kind: str = "ping") -> str:
    example = json.dumps({"metadata": {"kind": kind}, "data": data}, indent=2)
    return f"# Messages\n\n<!-- schema: schemas/message.schema.json -->\n```json\n{example}\n```\n"


def findings_envelope(
    make_corpus: MakeCorpus, files: dict[str, str | bytes]
) -> list[tuple[str, int]]:
    root = make_corpus(files)
    return [
        (f.heuristic or "", f.location.line)
        for f in run_rule(root, "example-invalid")
        if f.location.path == "docs/messages.md"
    ]


def test_the_payload_is_held_to_the_schema_its_kind_names(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/message.schema.json": envelope(),
        "schemas/ping.schema.json": PING,
        "docs/messages.md": page({"sequence": 1}),
    }
    # at `data`, whose member `sequence` its schema does not allow
    assert findings_envelope(make_corpus, files) == [("example-invalid/envelope-kind", 9)]


def test_a_payload_its_schema_accepts_is_no_finding(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/message.schema.json": envelope(),
        "schemas/ping.schema.json": PING,
        "docs/messages.md": page({"seq": 1}),
    }
    assert findings_envelope(make_corpus, files) == []


def test_a_kind_two_schemas_are_named_after_binds_nothing(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/message.schema.json": envelope(),
        "schemas/v1/ping.schema.json": PING,
        "schemas/v2/ping.schema.json": PING,
        "docs/messages.md": page({"sequence": 1}),
    }
    assert findings_envelope(make_corpus, files) == []


def test_a_payload_the_envelope_describes_is_the_envelopes(make_corpus: MakeCorpus) -> None:
    # the envelope says what `data` is (a reference): its own validation judges it
    files: dict[str, str | bytes] = {
        "schemas/message.schema.json": envelope({"$ref": "ping.schema.json"}),
        "schemas/ping.schema.json": PING,
        "docs/messages.md": page({"sequence": 1}),
    }
    assert "example-invalid/envelope-kind" not in [
        h for h, _ in findings_envelope(make_corpus, files)
    ]
    assert findings_envelope(make_corpus, files) == [
        ("example-invalid/explicit", 9)
    ]  # judged, by the envelope


def test_a_kind_named_by_a_schemas_title_binds_too(make_corpus: MakeCorpus) -> None:
    titled = json.loads(PING) | {"title": "Pong"}
    files: dict[str, str | bytes] = {
        "schemas/message.schema.json": envelope(),
        "schemas/answer.schema.json": json.dumps(titled),
        "docs/messages.md": page({"seq": "one"}, kind="pong"),
    }
    assert findings_envelope(make_corpus, files) == [("example-invalid/envelope-kind", 10)]


# Excerpts of a configuration format's root document that a first read of three public
# repositories found unbound (issue 46, round 4): a fence placed by the chain of headings above
# it (a page on one root member, sections on the members of its map's entries), by the other
# examples of its page, and by its shape below its top level. Fixtures of our own.


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


def findings_scope(files: dict[str, str]) -> list[Finding]:
    corpus = Context.from_texts(files)
    return list(all_rules()["example-invalid"].check(corpus, {}))


def garden(**pages: str) -> dict[str, str]:
    files = {"schema/garden.schema.json": json.dumps(GARDEN, indent=2)}
    files.update({f"docs/{name}.md": text for name, text in pages.items()})
    return files


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


def test_a_section_of_a_member_of_a_maps_entries_binds_its_fences() -> None:
    found = sorted(findings_scope(garden(beds=BEDS_PAGE)), key=lambda f: f.location.line)
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
    assert findings_scope(garden(beds=page)) == []


def test_a_fence_of_one_root_member_binds_by_the_other_examples_of_its_page() -> None:
    found = sorted(findings_scope(garden(merge=MERGE_PAGE)), key=lambda f: f.location.line)
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
    assert findings_scope(garden(merge=lone)) == []
    assert findings_scope(garden(merge=alone)) == []
    # `bed:` whose value is not of the shape of `beds` (a map of beds) is not taken for it.
    other = MERGE_PAGE.replace("    soil: sand\n    plants: [leek]\n", "    colour: red\n")
    lines = [f.location.line for f in findings_scope(garden(merge=other))]
    assert lines == [23]


def test_a_sentence_that_leads_in_to_an_example_and_names_its_definition_binds_it() -> None:
    [found] = findings_scope(widget_page("A small blue widget could appear as:"))
    assert found.heuristic == "example-invalid/lead-in"
    assert found.location.line == 6
    assert '["a"] is not of type "object"' in found.message
    [found] = findings_scope(widget_page("Example request body for a `Widget`:"))
    assert found.heuristic == "example-invalid/lead-in"


def test_a_lead_in_naming_no_definition_or_saying_no_example_binds_nothing() -> None:
    assert findings_scope(widget_page("A small blue gadget could appear as:")) == []
    assert findings_scope(widget_page("A widget has a size and a colour.")) == []


def test_a_changelog_or_a_plain_value_where_an_object_is_declared_does_not_bind_by_page() -> None:
    # A changelog shows the shapes a release left behind.
    assert findings_scope(garden(CHANGELOG=MERGE_PAGE)) == []
    # `north: clay` where a bed is an object: another document's `beds`, not this one's.
    other = MERGE_PAGE.replace("  north:\n    Soil: loam\n", "  north: clay\n")
    assert [f.location.line for f in findings_scope(garden(merge=other))] == [27]
