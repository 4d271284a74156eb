"""A fence the words call another message than the root its members fit (issue 46, round 6).

An API's requests share their top-level members: a lookup request sends a `shelf` and a
`book`, and so does the API's *search* request, with its own rules (the searched book's `isbn`
left out on purpose). Where the repository has a schema for the lookup request only, a search
request fits its members, and member fit alone (root fragment, page root, shape) would report
the missing `isbn` as an error. The section titles over the fence decide: where they name
another request ("The Book Search API Request", "Book search with a shelf" on a page that
speaks of a "book search request"), the fence is not bound, and `speclint bindings` says why.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.analyses.prose.fences import Binding, example_bindings
from speclint.common.findings import Finding
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

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


def context(page: str) -> Context:
    files = {path: json.dumps(schema) for path, schema in SCHEMAS.items()}
    return Context.from_texts({**files, "docs/api.md": f"# Library API\n\n{page}"})


def findings(page: str) -> list[Finding]:
    return list(all_rules()["example-invalid"].check(context(page), {}))


def tied_lines(page: str) -> list[int]:
    corpus = context(page)
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
    assert [f.location.line for f in findings(SPEC)] == [lookup + 3]


def test_a_test_plans_search_case_is_not_bound_to_the_lookup_request() -> None:
    lookup = line_after(PLAN, "### Lookup of a known book")
    assert tied_lines(PLAN) == [lookup]
    assert [f.location.line for f in findings(PLAN)] == [lookup + 3]


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
