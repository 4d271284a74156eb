"""Notation in JSON fences and MyST cross-references (issue 45, first-read batch 1): a fence that
writes a syntax sketch is not broken JSON, and a MyST label is not a file path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def findings_of(rule: str, root: Path) -> list[Finding]:
    return list(all_rules()[rule].check(Context.load(root), {}))


def fence(language: str, body: str) -> str:
    return f"```{language}\n{body}\n```\n\n"


# A scope object written as a notation: bare keys and placeholder letters for the values.
PLACEHOLDER_LETTERS = '{\n  "Y": {\n    methods: [P, Q, R],\n    events: [S, T]\n  }\n}'
# A grammar of an object: an optional member marked `*`, repetitions `(x)+`.
GRAMMAR = "[scopeName]: {\n  *chains: [(chain_id)+],\n  methods: [(method_name)+]\n}"
# A member sketched: its name bare, its body elided.
ELIDED = '{\n  "issuer": "did:example:1",\n  signature: {\n    ...\n  }\n}'


def test_a_notation_sketch_in_a_json_fence_is_not_broken_json(make_corpus: MakeCorpus) -> None:
    page = "# Scopes\n\n" + fence("jsonc", PLACEHOLDER_LETTERS) + fence("json", GRAMMAR)
    page += fence("json", ELIDED)
    root = make_corpus({"spec/scopes.md": page})
    assert findings_of("fence-invalid", root) == []


def test_a_slip_in_otherwise_valid_json_is_still_reported(make_corpus: MakeCorpus) -> None:
    slips = [
        '{\n  "a": 1,\n  "b": [1, 2],\n}',  # a trailing comma in a json fence
        '{\n  "a": "x,\n  "b": 2\n}',  # a closing quote left out
        '{\n  "a": tru,\n  "b": 2\n}',  # one bare word: a misspelt literal
        '{\n  "a": {"b": 1},\n  c: {"d": 2}\n}',  # a bare key with a real body
        '{\n  "a": 1, // one, two, three\n  b: 2\n}',  # a comment's words are not values
    ]
    page = "# Slips\n\n" + "".join(
        fence("json" if i < 4 else "jsonc", s) for i, s in enumerate(slips)
    )
    root = make_corpus({"spec/slips.md": page})
    assert len(findings_of("fence-invalid", root)) == len(slips)


LABELLED = "# Roles\n\n(ref-role)=\n## The ref role\n\nText.\n"
CITING = (
    "# Guide\n\nSee the [ref](ref-role) role, [the same](#ref-role), [](ref-role) and "
    "[a typo](ref-rloe).\n"
)


# A "MUST be of the form" template in a specification's own notation: `*` zero or more,
# `+` one or more, `?` optional, after a value (issue 45, batch 3).
TEMPLATES = [
    ("yaml", '{\n  "mirrors": [\n    "URL", *\n  ]\n}'),
    ("yaml", '{\n  "mirrors": {\n    "URL", *\n  }\n}'),
    ("json", '{\n  "mirrors": [\n    "URL", +\n  ]\n}'),
    ("json", '{\n  "name": "STRING"?,\n  "size": 1\n}'),
    ("yaml", 'HTTP/1.1 200 OK\nContent-Type: application/json\n\n{\n  "ids": [ "ID" * ]\n}'),
]


def test_a_template_in_the_specs_notation_is_not_broken_data(make_corpus: MakeCorpus) -> None:
    page = "# Discovery\n\n" + "".join(fence(language, body) for language, body in TEMPLATES)
    assert findings_of("fence-invalid", make_corpus({"spec/discovery.md": page})) == []


def test_a_slip_beside_a_notation_mark_is_still_reported(make_corpus: MakeCorpus) -> None:
    slips = [
        '{\n  "mirrors": [\n    "URL", *\n  ],\n  "name": "a"\n  "size": 1\n}',  # comma
        '{\n  "self": "http://x/1"",\n  "ids": [ "ID", * ]\n}',  # a stray quote
        '{\n  "items": [\n    "a"\n  }\n}',  # `[` closed by `}`
    ]
    page = "# Slips\n\n" + "".join(fence("yaml", s) for s in slips)
    found = findings_of("fence-invalid", make_corpus({"spec/slips.md": page}))
    assert len(found) == len(slips)


def test_a_yaml_fence_of_bare_lines_is_colour_not_data(make_corpus: MakeCorpus) -> None:
    # Entity paths with `#` comments, tagged `yaml` only to be coloured: YAML reads the lines
    # as one plain scalar, which a comment breaks; no reader takes them for data.
    paths = "things/t1/parts/p1/versions/v1   # inlined\nthings/t1/parts/p1/versions/v2\n"
    page = "# Filters\n\n" + fence("yaml", paths)
    assert findings_of("fence-invalid", make_corpus({"spec/filters.md": page})) == []
    # A broken mapping is still reported.
    page += fence("yaml", "things:\n  - t1\n   bad: [\n")
    assert len(findings_of("fence-invalid", make_corpus({"spec/filters.md": page}))) == 1


def test_a_myst_label_reference_is_resolved_against_the_labels_of_the_project(
    make_corpus: MakeCorpus,
) -> None:
    """In a MyST project (`myst.yml`, Sphinx's `conf.py`, a Jupyter Book's `_toc.yml`),
    `[text](label)` and `[text](#label)` are cross-references to a `(label)=` target of any
    page, not a file or a heading of this page (issue 45, batch 1). A label no page sets is
    still reported."""
    files = {"docs/myst.yml": "version: 1\n", "docs/roles.md": LABELLED, "docs/guide.md": CITING}
    root = make_corpus(files)
    [finding] = findings_of("broken-link", root)
    assert finding.message.startswith("`ref-rloe`")


def test_a_label_reference_outside_a_myst_project_is_a_missing_file(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"docs/roles.md": LABELLED, "docs/guide.md": CITING})
    found = {f.message.split("`")[1] for f in findings_of("broken-link", root)}
    assert found == {"#ref-role", "ref-rloe", "ref-role"}


def test_a_label_counts_only_where_a_myst_project_sets_it_outside_code(
    make_corpus: MakeCorpus,
) -> None:
    """A `(label)=` line that a fence shows as an example, or that a page outside every MyST
    project writes, sets no target: the project's `[text](label)` to it leads nowhere."""
    shown = "# Syntax\n\n```md\n(ref-role)=\n## The ref role\n```\n"
    files = {"docs/myst.yml": "version: 1\n", "docs/syntax.md": shown, "docs/guide.md": CITING}
    found = {f.message.split("`")[1] for f in findings_of("broken-link", make_corpus(files))}
    assert {"ref-role", "ref-rloe"} <= found
    outside = files | {"docs/syntax.md": "# Syntax\n", "notes/roles.md": LABELLED}
    found = {f.message.split("`")[1] for f in findings_of("broken-link", make_corpus(outside))}
    assert found == {"#ref-role", "ref-role", "ref-rloe"}


def test_a_label_in_a_sphinx_project_without_myst_sets_no_target(make_corpus: MakeCorpus) -> None:
    # A `conf.py` that loads no MyST: Markdown is not MyST there, and `(ref-role)=` sets nothing;
    # the project's MyST test is one definition (`Renderers.myst_project`) for both its uses.
    files = {
        "docs/conf.py": "extensions = ['sphinx.ext.autodoc']\n",
        "docs/roles.md": LABELLED,
        "docs/guide.md": CITING,
    }
    found = {f.message.split("`")[1] for f in findings_of("broken-link", make_corpus(files))}
    assert {"ref-role", "ref-rloe"} <= found
