"""Fences and files read as examples (issue 45, first-read batch 6): a code callout, an elision of
two dots or around a phrase, files shown side by side, an example page embedded in another, and
the files a site's build or a repository's stated convention reads otherwise than as strict JSON
or a single YAML document."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

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
    root = make_corpus({"docs/usage.md": "# Usage\n\n" + fence("json", excused)})
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
    root = make_corpus({"wiki/examples/extend.md": example, "wiki/modules/purchase.md": module})
    found = run_rule(root, "fence-invalid")
    assert [f.location.path for f in found] == ["wiki/examples/extend.md"]
    assert [(r.path, r.line) for r in found[0].related] == [("wiki/modules/purchase.md", 12)]


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
