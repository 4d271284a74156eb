"""Fences and files read as examples (issue 45, first-read batch 6): a code callout, an elision of
two dots or around a phrase, files shown side by side, an example page embedded in another, and
the files a site's build or a repository's stated convention reads otherwise than as strict JSON
or a single YAML document."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.common.findings import Severity

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def fence(language: str, body: str) -> str:
    return f"```{language}\n{body}\n```\n\n"


# --- fence-invalid: code callouts ---------------------------------------------------------------

# A fence with numbered code callouts after its values (Elastic docs-builder, AsciiDoc): each is
# explained by the numbered list under the fence, and the site strips them from the copied code.
CALLOUTS = '{\n  "kind": "event", <1>\n  "tags": ["a", "b"], <2>\n  "n": 1\n}'


def test_a_code_callout_is_an_annotation_not_json(make_corpus: MakeCorpus) -> None:
    page = "# Usage\n\n" + fence("json", CALLOUTS) + "1. The kind.\n2. The tags.\n"
    root = make_corpus({"docs/usage.md": page})
    assert run_rule(root, "fence-invalid") == []


def test_a_slip_beside_a_code_callout_is_still_reported(make_corpus: MakeCorpus) -> None:
    """Stripped of its callouts, the fence is judged as strict JSON: a trailing comma is a slip."""
    body = '{\n  "event": {\n    "kind": "event", <1>\n    "n": 1,\n  },\n  "x": 2\n}'
    root = make_corpus({"docs/usage.md": "# Usage\n\n" + fence("json", body)})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.line, "trailing comma" in f.message) for f in found] == [(7, True)]


def test_a_trailing_comma_far_from_a_note_is_reported(make_corpus: MakeCorpus) -> None:
    """A note (an elision, a comment) excuses the comma it leaves trailing, not every comma of
    the fence."""
    body = '{\n  "event": {\n    "n": 1,\n  },\n  "user": {\n    "name": "a",\n    ...\n  }\n}'
    root = make_corpus({"docs/usage.md": "# Usage\n\n" + fence("json", body)})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.line, "trailing comma" in f.message) for f in found] == [(6, True)]
    excused = '{\n  "user": {\n    "name": "a",\n    ...\n  },\n  "n": 1, // more\n}'
    elided = '{\n  "n": 1,\n  "apis": [...],\n}'  # a note on the comma's own line
    page = "# Usage\n\n" + fence("json", excused) + fence("json", elided)
    root = make_corpus({"docs/usage.md": page})
    assert run_rule(root, "fence-invalid") == []


# --- fence-invalid: elisions --------------------------------------------------------------------

TWO_DOTS = '{\n  "id": "did:example:1",\n  "keys": [{..}],\n  ..\n  "also": ["x"]\n}'
PHRASE = (
    '{\n  "id": "p-1",\n  "subject": {\n    "id": "s-1",\n    ... the rest goes here ...\n  }\n}'
)
PHRASE_TWO_DOTS = '{\n  "id": "p-1",\n  ..other properties of the document ..\n  "n": 1\n}'


def test_an_elision_of_two_dots_or_around_a_phrase_is_a_sketch(make_corpus: MakeCorpus) -> None:
    page = "# Sketches\n\n" + fence("json", TWO_DOTS) + fence("json", PHRASE)
    page += fence("json", PHRASE_TWO_DOTS)
    root = make_corpus({"docs/sketches.md": page})
    assert run_rule(root, "fence-invalid") == []


def test_the_real_slip_of_a_fence_with_two_dot_elisions_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    body = '{\n  "id": "d-1",\n  "keys": [{..}],\n  ..\n  "service": [{\n    "type": "t"\n    "url": "u"\n  }]\n}'
    root = make_corpus({"docs/sketches.md": "# Sketches\n\n" + fence("json", body)})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.line, f.location.column) for f in found] == [(10, 5)]
    assert "missing" in found[0].message


# --- fence-invalid: files side by side ----------------------------------------------------------

SIDE_BY_SIDE = """\
# In the source
- name: secret
  type: keyword

# flat.yml
user.secret:
  name: secret

# nested.yml
user:
  fields:
    user.secret:
      type: keyword"""


def test_a_yaml_fence_of_files_side_by_side_is_not_one_document(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"docs/files.md": "# Files\n\n" + fence("yaml", SIDE_BY_SIDE)})
    assert run_rule(root, "fence-invalid") == []


def test_a_broken_file_among_files_side_by_side_is_reported(make_corpus: MakeCorpus) -> None:
    broken = SIDE_BY_SIDE.replace("  name: secret", "  name: secret\n - bad: [")
    root = make_corpus({"docs/files.md": "# Files\n\n" + fence("yaml", broken)})
    assert len(run_rule(root, "fence-invalid")) == 1
    # no comment heads the second part: one document, and a sequence then a mapping is a slip
    merged = "- name: secret\n  type: keyword\n\nuser.secret:\n  name: secret"
    root = make_corpus({"docs/files.md": "# Files\n\n" + fence("yaml", merged)})
    assert len(run_rule(root, "fence-invalid")) == 1


# --- fence-invalid: an example page embedded in another -----------------------------------------

EXAMPLE = '{\n  "inputs": {\n    "id": "x",\n  }\n}'


def test_an_embedded_example_page_is_one_finding_with_the_copy_related(
    make_corpus: MakeCorpus,
) -> None:
    example = fence("json", EXAMPLE) + "Ask for more time.\n"
    module = "# Purchase\n\n" + fence("json", '{"a": 1}') + "## Extend\n\n" + example
    search = fence("json", '{\n  "from": "a",\n}')
    offer = "# Offer\n\nSearch for offers:\n\n" + search  # one fence, under a heading
    files = {
        "wiki/examples/extend.md": example,
        "wiki/modules/purchase.md": module,
        "wiki/examples/search.md": search,
        "wiki/modules/offer.md": offer,
    }
    found = run_rule(make_corpus(files), "fence-invalid")
    assert [f.location.path for f in found] == [
        "wiki/examples/extend.md",
        "wiki/examples/search.md",
    ]
    assert [(r.path, r.line) for r in found[0].related] == [("wiki/modules/purchase.md", 12)]
    assert [(r.path, r.line) for r in found[1].related] == [("wiki/modules/offer.md", 7)]


def test_two_pages_with_the_same_broken_fence_are_both_reported(make_corpus: MakeCorpus) -> None:
    """The same body on two example pages of one fence each: neither embeds the other, and
    fixing one does not fix the other."""
    one = fence("json", EXAMPLE)
    two = fence("json", EXAMPLE) + "Cancel the package.\n"
    root = make_corpus({"wiki/examples/confirm.md": one, "wiki/examples/cancel.md": two})
    found = run_rule(root, "fence-invalid")
    assert sorted(f.location.path for f in found) == [
        "wiki/examples/cancel.md",
        "wiki/examples/confirm.md",
    ]


# --- parse-error: files a build or a stated convention reads otherwise --------------------------


def test_a_fragment_in_a_design_record_is_at_most_info(make_corpus: MakeCorpus) -> None:
    """fence-invalid does not judge a design record's examples; parse-error tells of its files
    that do not parse, at info: a draft of a change under discussion, not the contract."""
    broken = "- name: event\n    - name: original\n      type: keyword\n"
    root = make_corpus({"rfcs/text/0042/event.yml": broken, "schemas/event.yml": broken})
    found = {f.location.path: f.severity for f in run_rule(root, "parse-error")}
    assert found == {"rfcs/text/0042/event.yml": Severity.INFO, "schemas/event.yml": Severity.ERROR}


CATALOG = """\
---
# yaml-language-server: $schema=https://example.com/catalog-info.json
apiVersion: backstage.io/v1alpha1
kind: Component
metadata: {name: thing}
---
# yaml-language-server: $schema=https://example.com/resource.json
apiVersion: backstage.io/v1alpha1
kind: Resource
metadata: {name: pipeline}
"""


def test_a_stream_of_resources_each_naming_its_schema_is_data(make_corpus: MakeCorpus) -> None:
    """A descriptor of several entities (Backstage's catalog-info.yaml, Kubernetes manifests),
    each document with its own `apiVersion`, `kind` and modeline: every document is meant."""
    spec = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n---\nextra: 1\n"
    root = make_corpus({"catalog-info.yaml": CATALOG, "api/openapi.yaml": spec})
    assert [f.location.path for f in run_rule(root, "parse-error")] == ["api/openapi.yaml"]


FRONT_MATTER = '---\nversion: 1.1\nlayout: null\n---\n{\n  "data": [\n    {"id": "a"}\n  ]\n}\n'


def test_a_json_file_with_front_matter_is_read_after_it(make_corpus: MakeCorpus) -> None:
    """A site generator (Jekyll) strips a file's front matter before it serves the JSON."""
    broken = FRONT_MATTER.replace('{"id": "a"}', '{"id": "a",}')
    root = make_corpus({"_format/statements.json": FRONT_MATTER, "_format/broken.json": broken})
    found = run_rule(root, "parse-error")
    assert [(f.location.path, f.location.line) for f in found] == [("_format/broken.json", 7)]


EXAMPLE_WITH_NOTES = """\
{
  "type": "leg",
  "from": "P:A",
  // the place must be in the list of places
  "geometry": {"type": "LineString", "coordinates": [...]}
}"""


def test_an_example_file_a_page_shows_is_read_as_the_fence_is(make_corpus: MakeCorpus) -> None:
    """The source of an example a page shows verbatim, or includes (MyST's literalinclude), is
    read with the fence's allowances: comments and elisions are notes there, as in the fence."""
    two = '{\n  "name": "p1"\n},\n{\n  "name": "p2"\n}'
    page = "# Leg\n\n" + fence("json", EXAMPLE_WITH_NOTES) + fence("json", two)
    page += "```{literalinclude} ../examples/included.json\n```\n"
    files = {
        "wiki/objects/leg.md": page,
        "wiki/examples/leg.json": EXAMPLE_WITH_NOTES + "\n",
        "wiki/examples/pair.json": two + "\n",
        "wiki/examples/included.json": EXAMPLE_WITH_NOTES,
        "wiki/examples/alone.json": EXAMPLE_WITH_NOTES.replace("P:A", "P:B"),
    }
    found = run_rule(make_corpus(files), "parse-error")
    errors = [f.location.path for f in found if f.coverage is None]
    assert errors == ["wiki/examples/alone.json"]
    notes = sorted(f.location.path for f in found if f.coverage is not None)
    assert notes == [
        "wiki/examples/included.json",
        "wiki/examples/leg.json",
        "wiki/examples/pair.json",
    ]


COMMENTED = '{\n  "scale": [\n    // the voxel size\n    0.5, 0.5\n  ]\n}\n'


def test_examples_with_comments_where_the_repository_says_so(make_corpus: MakeCorpus) -> None:
    """A repository that says its JSON examples carry comments: an example file with comment
    lines is JSON with comments there, not a file to rename `.jsonc` (its build reads `.json`)."""
    says = "# Spec\n\nSome of the JSON examples in this document include comments.\n"
    files = {"index.md": says, "examples/scale/one.json": COMMENTED, "data/one.json": COMMENTED}
    found = run_rule(make_corpus(files), "parse-error")
    assert [(f.location.path, f.coverage is None) for f in found] == [
        ("data/one.json", True),
        ("examples/scale/one.json", False),
    ]
    make_corpus({"index.md": "# Spec\n"})  # said nowhere
    found = run_rule(make_corpus({}), "parse-error")
    assert [(f.location.path, f.coverage) for f in found] == [
        ("data/one.json", None),
        ("examples/scale/one.json", None),
    ]


def test_a_comment_standing_where_a_value_goes_is_a_sketch(make_corpus: MakeCorpus) -> None:
    """`"<FIELD>": /* value */,` says what the value would be, as `...` there does (read after
    issue 46's fence work, an in-toto-shaped descriptor sketch); a slip elsewhere in the fence
    is still reported."""
    sketch = (
        '# D\n\n```json\n{\n  "fields": {\n    "<FIELD_1>": /* value */,\n    ...\n  }\n}\n```\n'
    )
    assert run_rule(make_corpus({"docs/d.md": sketch}), "fence-invalid") == []
    slip = sketch.replace('"fields": {', '"name": "x" "y",\n  "fields": {')
    found = run_rule(make_corpus({"docs/d.md": slip}), "fence-invalid")
    assert [f.location.line for f in found] == [5]
