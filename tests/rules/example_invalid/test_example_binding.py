"""Examples bound by what they are (issue 28): a fence of the prose matched to the definition it
is an instance of by its own values or shape, then validated whole."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.analyses.prose.fences import (
    BY_HEADING,
    BY_SHAPE,
    BY_SHARED,
    BY_TITLE,
    BY_VALUE,
    Binding,
    fence_ties,
)
from speclint.common.findings import Finding, Severity
from speclint.run.catalog import all_rules
from speclint.run.preview import why_heuristic_preview

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


PROTOCOL = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "definitions": {
        "SendRequest": {
            "type": "object",
            "properties": {
                "jsonrpc": {"const": "2.0"},
                "id": {"type": ["string", "integer"]},
                "method": {"const": "message/send"},
                "params": {"$ref": "#/definitions/SendParams"},
            },
            "required": ["jsonrpc", "id", "method", "params"],
        },
        "CancelRequest": {
            "type": "object",
            "properties": {
                "jsonrpc": {"const": "2.0"},
                "id": {"type": ["string", "integer"]},
                "method": {"const": "tasks/cancel"},
                "params": {"type": "object"},
            },
            "required": ["jsonrpc", "id", "method", "params"],
        },
        "SendParams": {
            "type": "object",
            "properties": {"message": {"$ref": "#/definitions/Message"}},
            "required": ["message"],
        },
        "Message": {
            "type": "object",
            "properties": {
                "kind": {"const": "message"},
                "role": {"enum": ["user", "agent"]},
                "messageId": {"type": "string"},
                "count": {"type": "integer"},
            },
            "required": ["kind", "role", "messageId"],
        },
        "Card": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "url": {"type": "string"},
                "version": {"type": "string"},
                "skills": {"type": "array"},
                "icon": {"type": "string"},
            },
            "required": ["name", "url", "version", "skills"],
        },
        "Left": {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {}, "c": {}, "d": {}},
            "required": ["d"],
        },
        "Right": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {}, "c": {}, "e": {}},
            "required": ["e"],
        },
    },
}


def fence(value: Any, language: str = "json") -> str:
    body = json.dumps(value, indent=2) if language.startswith("json") else value
    return f"```{language}\n{body}\n```\n"


def corpus(page: str) -> Context:
    return Context.from_texts(
        {"schemas/protocol.json": json.dumps(PROTOCOL), "spec/guide.md": f"# Guide\n\n{page}"}
    )


def findings(page: str, options: dict[str, Any] | None = None) -> list[Finding]:
    return list(all_rules()["example-invalid"].check(corpus(page), options or {}))


REQUEST = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "message/send",
    "params": {"message": {"role": "user", "messageId": "m-1"}},
}


def test_a_request_is_bound_by_its_method_and_what_it_lacks_is_reported() -> None:
    [finding] = findings("Send it like this:\n\n" + fence(REQUEST))
    assert finding.severity is Severity.ERROR
    assert '"kind" is a required property' in finding.message
    assert '`method: "message/send"`' in finding.message
    assert "protocol.json#/definitions/SendRequest" in finding.message
    assert finding.location.line == 11  # the line of `"message"` in the fence


def test_a_valid_request_bound_by_value_is_quiet() -> None:
    good = json.loads(json.dumps(REQUEST))
    good["params"]["message"]["kind"] = "message"
    assert findings(fence(good)) == []


def test_an_object_bound_by_a_constant_of_its_own() -> None:
    message = {"kind": "message", "role": "robot", "messageId": "m-1"}
    [finding] = findings(fence(message))
    assert '"robot" is not one of' in finding.message
    assert '`kind: "message"`' in finding.message


def test_an_example_is_bound_by_shape_alone_at_warning() -> None:
    card = {"name": "Magic", "url": "https://example.org", "skills": []}
    [finding] = findings("Here is one:\n\n" + fence(card))
    assert finding.severity is Severity.WARNING
    assert '"version" is a required property' in finding.message
    assert "only `Card` declares every one of them" in finding.message


def test_a_message_long_with_its_evidence_keeps_a_fix_and_its_verb_agrees() -> None:
    # The binding's evidence ("its members (…)") is long: the message shortens the fix to
    # "fix either" rather than drop it, and the plural subject takes "bind".
    card = {"name": "Magic", "url": "https://example.org", "skills": []}
    [finding] = findings("Here is one:\n\n" + fence(card))
    assert "fix" in finding.message
    assert ") bind it to" in finding.message
    assert "binds" not in finding.message
    assert [r.note for r in finding.related if "bind" in (r.note or "")] != []


def test_an_example_two_definitions_fit_equally_is_left_unbound() -> None:
    ambiguous = {"a": 1, "b": 2, "c": 3}
    context = corpus(fence(ambiguous))
    assert (
        list(
            fence_ties(
                context, context.documents["spec/guide.md"], Binding(value=False, operation=False)
            )
        )
        == []
    )
    assert findings(fence(ambiguous)) == []


def test_elisions_and_placeholders_are_not_judged() -> None:
    elided = {
        "jsonrpc": "2.0",
        "id": "<request-id>",
        "method": "message/send",
        "params": {"message": {"role": "user", "messageId": "m-1", "...": "..."}},
    }
    assert findings(fence(elided)) == []
    placeholder = {"kind": "message", "role": "user", "messageId": "m", "count": "<n>"}
    assert findings(fence(placeholder)) == []
    # A fence that elides with `...` outside a string is a sketch: not JSON, not bound.
    assert findings('```json\n{"method": "message/send", ...}\n```\n') == []


def test_yaml_fences_and_info_attributes_are_examples_too() -> None:
    yaml_card = "name: Magic\nurl: https://example.org\nversion: 1\nskills: []\n"
    [finding] = findings(fence(yaml_card, "yaml"))
    assert 'is not of type "string"' in finding.message
    titled = "```json,title=request.json\n" + json.dumps(REQUEST) + "\n```\n"
    [finding] = findings(titled)
    assert '"kind" is a required property' in finding.message


def test_each_binding_mode_can_be_switched_off() -> None:
    card = {"name": "Magic", "url": "https://example.org", "skills": []}
    page = fence(REQUEST) + "\n" + fence(card)
    assert [f.severity for f in findings(page)] == [Severity.ERROR, Severity.WARNING]
    # Without values, the request still fits one definition by its members alone: a warning.
    without_values = findings(page, {"by-value": False})
    assert [f.severity for f in without_values] == [Severity.WARNING, Severity.WARNING]
    assert "only `SendRequest` declares" in without_values[0].message
    assert len(findings(page, {"by-shape": False})) == 1
    assert findings(page, {"by-value": False, "by-shape": False}) == []
    context = corpus(page)
    ties = list(
        fence_ties(
            context, context.documents["spec/guide.md"], Binding(shape=False, operation=False)
        )
    )
    assert [t.how for t in ties] == [BY_VALUE]
    ties = list(
        fence_ties(
            context, context.documents["spec/guide.md"], Binding(value=False, operation=False)
        )
    )
    assert BY_SHAPE in [t.how for t in ties]


def test_a_text_tie_to_a_definition_judges_a_whole_example_whole() -> None:
    # "An example `Card`:" with most of Card's required members is a whole Card: what it lacks
    # is its defect. With few of them it is a fragment, judged on what it says.
    whole = {"name": "Magic", "url": "https://example.org", "skills": []}
    [finding] = findings("An example `Card`:\n\n" + fence(whole))
    assert '"version" is a required property' in finding.message
    assert "the definition name ties it" in finding.message
    fragment = {"icon": "x.png"}
    assert findings("An example `Card`:\n\n" + fence(fragment)) == []


def test_counter_examples_sketches_and_proposals_are_not_judged() -> None:
    wrong = {"kind": "message", "role": "robot", "messageId": "m-1"}
    assert findings("### Negative: an unknown role\n\n" + fence(wrong)) == []
    # A sketch of one member of a large object: what it leaves out is not its defect, what it
    # says still is.
    sketch = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {}}}
    sketch["params"]["message"] = {"kind": "x"}  # one of Message's three required members
    [finding] = findings(fence(sketch))
    assert '"message" was expected' in finding.message
    assert "required" not in finding.message
    # A proposal shows the shapes it would change to.
    context = Context.from_texts(
        {"schemas/protocol.json": json.dumps(PROTOCOL), "rfcs/0001-new-send.md": fence(REQUEST)}
    )
    assert list(all_rules()["example-invalid"].check(context, {})) == []


WRONG_ROLE = {"kind": "message", "role": "robot", "messageId": "m-1"}


# Waivers (issue 44, item 12): a comment, in MDX's form or HTML's, between a fence and the text
# that marks it does not part them.
JSX_WAIVER = "{/* speclint-ignore enum-drift: the roles of v2 */}\n"


HTML_WAIVER = "<!-- speclint-ignore enum-drift: the roles of v2 -->\n"


@pytest.mark.parametrize(
    "page",
    [
        # Marked on the fence: its info string, as a word or a title (Mintlify and Docusaurus
        # show it), or a comment line in it that is a label.
        fence(WRONG_ROLE, "json invalid"),
        fence(WRONG_ROLE, "json Invalid example"),
        fence(WRONG_ROLE, "json {2} counter-example"),
        fence(WRONG_ROLE, 'json title="Negative case: an unknown role"'),
        fence(WRONG_ROLE, "json title='Invalid'"),
        '```jsonc\n// invalid: no such role\n{"kind": "message", "role": "robot", "messageId": "m"}\n```\n',
        '```jsonc\n{"kind": "message",\n  // Invalid\n  "role": "robot", "messageId": "m"}\n```\n',
        "```yaml\n# invalid example\nkind: message\nrole: robot\nmessageId: m\n```\n",
        # Marked in the prose: its heading, the label line above it, its section.
        "### Invalid example\n\n" + fence(WRONG_ROLE),
        "### 4.2. Negative: an unknown role\n\n" + fence(WRONG_ROLE),
        "## Negative test cases\n\n" + fence(WRONG_ROLE),
        "Invalid example:\n\n" + fence(WRONG_ROLE),
        "**Bad:**\n\n" + fence(WRONG_ROLE),
        "❌ Wrong\n\n" + fence(WRONG_ROLE),
        "*Example 1 (which fails the test):*\n\n" + fence(WRONG_ROLE),
        "Example 2 (invalid):\n\n" + fence(WRONG_ROLE),
        "Even though not strictly a valid message, a peer sends it.\n\nSee below.\n\n"
        + "More text.\n\n"
        + fence(WRONG_ROLE),
        # A waiver between the label and the fence.
        "Negative:\n\n" + JSX_WAIVER + fence(WRONG_ROLE),
        "Negative:\n\n" + HTML_WAIVER + "\n" + fence(WRONG_ROLE),
    ],
)
def test_an_example_marked_as_one_to_reject_is_not_judged(page: str) -> None:
    assert findings(page) == []


@pytest.mark.parametrize(
    "page",
    [
        # A waiver's rule id (issue 44, item 12): in MDX's JSX comment, with or without a reason.
        "{/* speclint-ignore example-invalid */}\n" + fence(WRONG_ROLE),
        "{/* speclint-ignore example-invalid: robots join in v2 */}\n" + fence(WRONG_ROLE),
        # Names, not words: a rule id in the prose, a code span, a hyphenated word.
        "The example-invalid rule reads this one:\n\n" + fence(WRONG_ROLE),
        "A non-negative count, as the server answers it:\n\n" + fence(WRONG_ROLE),
        "Returns `invalid` when the role is unknown:\n\n" + fence(WRONG_ROLE),
        # A section's word that says nothing of its examples ("400: invalid inputs").
        "Status codes: `400` for invalid inputs.\n\nThe message:\n\n" + fence(WRONG_ROLE),
        # A marker word in an ordinary sentence (issue 44, item 12, review item 4): of a comment,
        # a title, the text above or below, a heading that names a topic.
        '```jsonc\n{"kind": "message",\n  // the server rejects any other role\n'
        '  "role": "robot", "messageId": "m"}\n```\n',
        fence(WRONG_ROLE, 'json title="Reply to an invalid request"'),
        fence(WRONG_ROLE, "json Bad Request"),
        fence(WRONG_ROLE, "json Invalid request"),
        "When the request is invalid, the agent answers with this message:\n\n" + fence(WRONG_ROLE),
        "## Rejected tasks\n\nThe agent says why:\n\n" + fence(WRONG_ROLE),
        "### Invalid roles\n\n" + fence(WRONG_ROLE),
        "Negative numbers are refused:\n\n" + fence(WRONG_ROLE),
        fence(WRONG_ROLE) + "\nThe server rejects it with `invalid_params`.\n",
    ],
)
def test_words_that_do_not_mark_an_example_leave_it_judged(page: str) -> None:
    [finding] = findings(page)
    assert '"robot" is not one of' in finding.message


@pytest.mark.parametrize("waiver", ["", JSX_WAIVER, HTML_WAIVER, HTML_WAIVER + "\n"])
def test_a_waiver_between_a_shortened_example_and_its_text_keeps_it_shortened(
    waiver: str,
) -> None:
    short = {"kind": "message", "role": "user"}  # no `messageId`
    [finding] = findings(fence(short))
    assert '"messageId" is a required property' in finding.message
    assert findings("Other fields trimmed for brevity:\n\n" + waiver + fence(short)) == []


def test_a_description_where_an_object_goes_is_not_judged() -> None:
    card = {"name": "M", "url": "u", "version": "1", "skills": "array of skill objects"}
    assert findings(fence(card)) == []
    card["skills"] = "none"  # one word is a value, and the wrong type
    [finding] = findings(fence(card))
    assert 'is not of type "array"' in finding.message


def test_a_fragment_is_bound_to_its_part() -> None:
    # A response no definition here describes whole: its `result` binds by its own `kind`.
    response = {"jsonrpc": "2.0", "id": 1, "result": {"kind": "message", "messageId": "m-1"}}
    [finding] = findings(fence(response))
    assert finding.message.startswith('example at /result: "role" is a required property')
    assert '`kind: "message"`' in finding.message and "#/definitions/Message" in finding.message
    # A fence holding a member of a larger message, `"message": {...}`, is that member.
    member = '```json\n"message": {\n  "kind": "message",\n  "role": "bot",\n  "messageId": "m"\n}\n```\n'
    [finding] = findings(member)
    assert 'example at /message/role: "bot" is not one of' in finding.message
    assert finding.location.line == 6  # `"role": "bot"` on the page
    # A part with a member its definition does not declare is not bound by a value alone.
    other = {"id": 1, "result": {"kind": "message", "messageId": "m", "ciphertext": "x"}}
    assert findings(fence(other)) == []


def test_an_example_the_text_calls_shortened_is_not_judged_on_what_it_leaves_out() -> None:
    short = {"jsonrpc": "2.0", "method": "message/send", "params": {"message": {"role": "x"}}}
    page = "Unimportant fields trimmed for brevity:\n\n" + fence(short)
    [finding] = findings(page)  # the wrong role still counts, the missing `id` does not
    assert '"x" is not one of' in finding.message
    assert "required" not in finding.message


def test_a_statement_of_brevity_covers_the_run_of_fences_below_it() -> None:
    short = {"jsonrpc": "2.0", "method": "message/send", "params": {"message": {"role": "user"}}}
    page = "Fields trimmed for brevity:\n\n" + fence(short) + fence(short)
    assert findings(page) == []
    assert len(findings("Two requests:\n\n" + fence(short) + fence(short))) == 2


def test_speclint_bindings_lists_each_example_with_its_evidence_or_why_not(
    make_corpus: MakeCorpus,
) -> None:
    ambiguous = {"a": 1, "b": 2, "c": 3}
    page = (
        "# Guide\n\n"
        + fence(REQUEST)
        + "\n"
        + fence(ambiguous)
        + '\n```json\n{"method": "message/send", ...}\n```\n'
        + "\n```sh\ncurl -X POST https://example.org\n```\n"
    )
    root = make_corpus({"schemas/protocol.json": json.dumps(PROTOCOL), "spec/guide.md": page})
    output = run_cli("bindings", str(root)).output
    assert "spec/guide.md:3 json example" in output
    assert (
        "-> schemas/protocol.json#/definitions/SendRequest (by example value: "
        '`method: "message/send"`)' in output
    )
    assert "its members fit several definitions about as well (Left, Right)" in output
    assert "(not bound: not parsed (" in output and "a sketch)" in output
    assert "sh example" not in output  # a shell fence is no example
    assert "speclint: 1 example binding(s); 2 example(s) bound to nothing" in output
    # Switched off in the configuration, the listing says so.
    (root / "speclint.toml").write_text(
        "[rules.example-invalid]\nby-value = false\nby-shape = false\nby-operation = false\n"
    )
    output = run_cli("bindings", str(root)).output
    assert "binding by the example is off" in output


def test_a_json_fence_with_comments_is_an_example_too() -> None:
    commented = '```json\n{\n  "jsonrpc": "2.0", // always\n  "id": 1,\n  "method": "message/send",\n  "params": {"message": {"role": "user", "messageId": "m"}}\n}\n```\n'
    [finding] = findings(commented)
    assert '"kind" is a required property' in finding.message


def test_a_comment_in_the_fence_that_says_fields_are_left_out() -> None:
    body = json.dumps(REQUEST, indent=2).replace("{", "{\n  // irrelevant fields excluded", 1)
    assert findings(f"```json\n{body}\n```\n") == []


class _Counted(tuple[Any, ...]):
    """A page's paragraphs, fences or code spans that count the items read from them by
    iteration."""

    read: ClassVar[list[int]] = [0]

    def __iter__(self) -> Iterator[Any]:
        for item in tuple.__iter__(self):
            _Counted.read[0] += 1
            yield item


def _work_on(blocks: list[str], judged: int) -> int:
    """The paragraphs, fences and code spans of a page of ``blocks`` that example-invalid reads;
    ``judged`` of its examples are found to fail."""
    context = corpus("".join(blocks))
    document = context.documents["spec/guide.md"]
    prose = document.prose
    assert prose is not None
    document.model = dataclasses.replace(
        prose,
        paragraphs=_Counted(prose.paragraphs),
        fences=_Counted(prose.fences),
        inline_code=_Counted(prose.inline_code),
    )
    _Counted.read[0] = 0
    found = list(all_rules()["example-invalid"].check(context, {}))
    assert len(found) == judged  # each example still judged
    return _Counted.read[0]


def _work_on_a_page_of(count: int) -> int:
    """A page of ``count`` examples bound by value, each after a paragraph of its own or in a
    run of fences after one, under one heading: `robot` is no role."""
    message = {"kind": "message", "role": "robot", "messageId": "m-1"}
    blocks = [
        (f"Example {index}:\n\n" if index % 2 == 0 else "") + fence(message) + "\n"
        for index in range(count)
    ]
    return _work_on(blocks, count)


def test_a_page_of_many_fences_is_read_in_linear_work() -> None:
    """Issue 44, item 4: each fence walked back over every earlier fence (the run of fences a
    statement covers) and scanned every paragraph (the one beside it, its section's), so a page of
    20,000 fences took 25 s and one of 50,000 outlived the rule's time box. Counted, not timed:
    four times the fences is about four times the reading, not sixteen."""
    small, large = _work_on_a_page_of(100), _work_on_a_page_of(400)
    assert large <= 5 * small, (small, large)


def _work_on_a_page_of_headed(count: int) -> int:
    """A page of ``count`` examples each directly under a heading of its own, none bound by
    value: half under a heading naming the `Message` definition (tie 5, which looks for the
    heading's code spans), half under a plain heading, where the operation and the request a
    response answers are looked for in the paragraph above (tie 7), and nothing binds them. A
    paragraph follows each example."""
    message = {"kind": "message", "role": "robot", "messageId": "m-1"}
    blocks = [
        (
            f"## `Message` {index}\n\n" + fence(message)
            if index % 2 == 0
            else f"## Reply {index}\n\n" + fence({"id": index, "result": {"n": 1}})
        )
        + "\nA note after it.\n\n"
        for index in range(count)
    ]
    return _work_on(blocks, count // 2)


def test_a_page_of_many_fences_under_headings_is_read_in_linear_work() -> None:
    """Review of issue 44, item 4: ties 5 and 7 scanned every code span (for the heading's) and
    every paragraph (for the one above) of the page for each fence, so 20,000 fences each under a
    `` ## `Thing` i `` heading took 16 s and 50,000 still outlived the rule's time box."""
    small, large = _work_on_a_page_of_headed(100), _work_on_a_page_of_headed(400)
    assert large <= 5 * small, (small, large)


def test_html_around_a_comment_parts_a_fence_from_the_text_above() -> None:
    """Only comments stand between a fence and its text without parting them: a `<details>`
    block holding one is content of the page, so the label above it is not the fence's."""
    details = "<details>\n<!-- a note -->\n<summary>More</summary>\n</details>\n\n"
    assert findings("Negative:\n\n<!-- a note -->\n\n" + fence(WRONG_ROLE)) == []
    [finding] = findings("Negative:\n\n" + details + fence(WRONG_ROLE))
    assert '"robot" is not one of' in finding.message


# Examples the issue 46 acceptance lists showed unbound or unjudged, by class (fixtures of our
# own): an example whose misplaced member keeps it from binding by shape, bound by a heading that
# names its definition; an example written as a member (``"total": {...}``) judged inside the
# value it shows; a streaming section's "partial results" not read as "this example is partial".


# A receipt file: its root titled `receipt`, the currency inside `total`.
RECEIPT = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "receipt",
    "type": "object",
    "required": ["shop", "total"],
    "properties": {
        "shop": {"type": "string"},
        "total": {
            "type": "object",
            "required": ["amount", "currency"],
            "properties": {
                "amount": {"type": "number"},
                "tax": {"type": "number"},
                "currency": {"type": "string"},
            },
        },
        "lines": {"type": "array", "items": {"type": "string"}},
    },
}


# The currency misplaced at the top level: `total` lacks it, and no definition declares every
# member the example has, so its shape binds it nowhere.
MISPLACED = """\
{
  "currency": "EUR",
  // the total
  "total": {"amount": 12.5},
  "shop": "Corner bakery",
  "lines": ["bread"]
}
"""


def files(page: str, schema: dict[str, Any] = RECEIPT) -> dict[str, str]:
    return {"schema/receipt.schema.json": json.dumps(schema), "docs/receipt.md": page}


def findings_misplaced(texts: dict[str, str]) -> list[Finding]:
    corpus = Context.from_texts(texts)
    return list(all_rules()["example-invalid"].check(corpus, {}))


def heading_ties(texts: dict[str, str]) -> list[str]:
    corpus = Context.from_texts(texts)
    return [
        tie.evidence
        for tie in fence_ties(corpus, corpus.documents["docs/receipt.md"], Binding())
        if tie.how == BY_HEADING
    ]


def fence_misplaced(body: str, language: str = "json") -> str:
    return f"```{language}\n{body}```\n"


# A stream's chunk: a definition of a schema file (no root document).
STREAMED = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
        "chunk": {
            "type": "object",
            "required": ["sequence", "text", "final"],
            "properties": {
                "sequence": {"type": "integer"},
                "text": {"type": "string"},
                "final": {"type": "boolean"},
                "model": {"type": "string"},
            },
        }
    },
}


CHUNK = '{"sequence": 1, "text": "Hel", "model": "m1"}\n'


def chunk_findings(paragraph: str) -> list[Finding]:
    page = f"# Streaming\n\n{paragraph}\n\n" + fence_misplaced(CHUNK)
    return findings_misplaced(
        {"schema/chunk.schema.json": json.dumps(STREAMED), "docs/receipt.md": page}
    )


TICKET = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
        "ticket": {
            "type": "object",
            "required": ["id", "opened", "title"],
            "properties": {
                "id": {"type": "string", "format": "uuid"},
                "opened": {"type": "string", "format": "date-time"},
                "title": {"type": "string"},
                "contact": {"type": "string", "format": "email"},
            },
        }
    },
}


def ticket_findings(example: str) -> list[Finding]:
    page = "# Tickets\n\nA ticket as the service stores it:\n\n" + fence_misplaced(example)
    return findings_misplaced(
        {"schema/ticket.schema.json": json.dumps(TICKET), "docs/receipt.md": page}
    )


PACKAGE = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "$id": "https://pkg.example.org/specs/v1/package.schema.json",
    "type": "object",
    "required": ["name", "version"],
    "properties": {
        "name": {"type": "string"},
        "version": {"type": "string"},
        "extensions": {"type": "object", "additionalProperties": True},
    },
}


RETRIES = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "$id": "https://pkg.example.org/specs/v1/retries.schema.json",
    "type": "object",
    "additionalProperties": False,
    "properties": {"attempts": {"type": "integer"}, "backoff": {"enum": ["linear", "exponential"]}},
}


def package_texts(retries: str, schemas: dict[str, Any] | None = None) -> dict[str, str]:
    example = (
        '{\n  "name": "tool",\n  "version": "1.0.0",\n  "extensions": {\n'
        f'    "org.example.pkg.retries": {retries},\n'
        '    "com.example.colours": {"theme": "dark"}\n  }\n}\n'
    )
    found = {"package": PACKAGE, "retries": RETRIES} if schemas is None else schemas
    return {
        **{f"schema/{name}.schema.json": json.dumps(s) for name, s in found.items()},
        "docs/receipt.md": "# Packages\n\n" + fence_misplaced(example),
    }


def test_a_heading_naming_the_definition_binds_an_example_its_defect_keeps_from_its_shape() -> None:
    page = "# Receipts\n\n## Full Receipt Example\n\n" + fence_misplaced(MISPLACED)
    found = findings_misplaced(files(page))
    assert len(found) == 1
    assert found[0].message.startswith('example at /total: "currency" is a required property')
    assert found[0].heuristic == "example-invalid/heading-name"
    assert found[0].location.line == 9  # the `total` member, as written
    assert heading_ties(files(page)) == [
        'the heading "Full Receipt Example" names `receipt`, which declares 3 of its 4 members'
    ]


def test_the_heading_binding_is_a_preview_heuristic() -> None:
    assert "example-invalid/heading-name" in all_rules()["example-invalid"].heuristics
    assert why_heuristic_preview("example-invalid/heading-name") is not None


def test_a_heading_binds_no_example_of_another_shape_nor_a_heading_without_example_words() -> None:
    other = '{"colour": "red", "size": 3, "weight": 2}\n'
    assert heading_ties(files("## Receipt example\n\n" + fence_misplaced(other))) == []
    # The heading is the name alone: a section about the thing, not a caption of its example.
    assert heading_ties(files("## Receipt\n\n" + fence_misplaced(MISPLACED))) == []
    # A heading of several other words is a sentence, not a caption.
    page = "## How a shop prints a receipt example\n\n" + fence_misplaced(MISPLACED)
    assert heading_ties(files(page)) == []


def test_a_heading_naming_two_definitions_binds_nothing() -> None:
    texts = {
        **files("## Full Receipt Example\n\n" + fence_misplaced(MISPLACED)),
        "schema/other.schema.json": json.dumps({**RECEIPT, "$id": "https://o.example/r"}),
    }
    texts["schema/other.schema.json"] = json.dumps(
        {**RECEIPT, "properties": {**RECEIPT["properties"], "extra": {}}}
    )
    assert heading_ties(texts) == []


def test_an_example_the_heading_binds_is_not_judged_for_what_it_leaves_out_when_partial() -> None:
    # Gives under half of the root's required members: one block shown, what it lacks is not
    # the example's defect (as for other ties by text).
    schema = {**RECEIPT, "required": ["shop", "total", "lines", "issued"]}
    schema["properties"] = {**RECEIPT["properties"], "issued": {"type": "string"}}
    page = "## Receipt example\n\n" + fence_misplaced(
        '{"currency": "EUR", "total": {"amount": 1, "currency": "EUR"}}\n'
    )
    assert heading_ties(files(page, schema)) != []
    assert findings_misplaced(files(page, schema)) == []


def test_speclint_bindings_shows_the_heading_and_its_evidence(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        files("# Receipts\n\n## Full Receipt Example\n\n" + fence_misplaced(MISPLACED))
    )
    output = run_cli("bindings", str(root)).output
    assert (
        "docs/receipt.md:5 json example\n"
        '    -> schema/receipt.schema.json (by heading name: the heading "Full Receipt '
        'Example" names `receipt`, which declares 3 of its 4 members)'
    ) in output


def test_an_example_in_member_form_is_judged_inside_the_value_it_shows() -> None:
    page = "# Total\n\nThe `total` member of a receipt.\n\n## Example\n\n" + fence_misplaced(
        '"total": {\n  "amount": 12.5,\n  "tax": 2.1\n}\n'
    )
    found = findings_misplaced(files(page))
    assert len(found) == 1
    assert found[0].message.startswith('example at /total: "currency" is a required property')


def test_an_example_in_member_form_is_not_judged_for_the_members_it_leaves_out() -> None:
    # `shop`, required at the root, is not shown: the example is one member of the receipt.
    page = "## Example\n\n" + fence_misplaced(
        '"total": {\n  "amount": 12.5,\n  "currency": "EUR"\n}\n'
    )
    assert findings_misplaced(files(page)) == []


def test_partial_results_a_protocol_streams_do_not_make_its_example_partial() -> None:
    found = chunk_findings("The server streams partial results as they are generated.")
    assert len(found) == 1 and '"final" is a required property' in found[0].message


def test_a_partial_example_is_still_one_that_leaves_members_out() -> None:
    assert chunk_findings("A partial example of what the server sends:") == []
    assert chunk_findings("Partial response (the server sends more):") == []


def test_an_example_value_not_of_its_uuid_format_is_a_warning_of_its_own_heuristic() -> None:
    found = ticket_findings(
        '{"id": "ticket-42", "opened": "2025-03-01T09:30:00Z", "title": "Printer jam"}\n'
    )
    assert len(found) == 1
    assert found[0].heuristic == "example-invalid/format"
    assert found[0].severity.name == "WARNING"
    assert found[0].message.startswith('example at /id: "ticket-42" is not a `uuid`')
    assert found[0].location.line == 6


def test_values_of_their_format_placeholders_and_unasserted_formats_are_not_reported() -> None:
    valid = (
        '{"id": "3f2b8c1e-5d4a-4e7b-9c2f-1a6d8e0b4c7a", "opened": "2025-03-01T09:30:00Z",'
        ' "title": "Printer jam", "contact": "not an address"}\n'
    )
    assert ticket_findings(valid) == []  # `email` is not among the forms asserted
    for placeholder in ("<ticket-id>", "$TICKET_ID", "ticket-id"):
        example = f'{{"id": "{placeholder}", "opened": "...", "title": "Printer jam"}}\n'
        assert ticket_findings(example) == [], placeholder


def test_a_date_for_a_date_time_is_reported_once_with_the_others_related() -> None:
    found = ticket_findings('{"id": "t-1", "opened": "2025-03-01", "title": "Printer jam"}\n')
    assert len(found) == 1 and "(and 1 more)" in found[0].message
    schema, other = found[0].related
    assert schema.path == "schema/ticket.schema.json" and other.line == 6


def test_the_format_check_is_a_preview_heuristic() -> None:
    assert "example-invalid/format" in all_rules()["example-invalid"].heuristics
    assert why_heuristic_preview("example-invalid/format") is not None


def test_an_extension_member_is_held_to_the_schema_its_reverse_dns_name_gives() -> None:
    found = findings_misplaced(package_texts('{"attempts": 3, "backoff": "random"}'))
    assert len(found) == 1
    assert found[0].heuristic == "example-invalid/extension-name"
    assert found[0].message.startswith("example at /extensions/org.example.pkg.retries/backoff")
    assert found[0].location.line == 8


def test_an_extension_of_its_schema_and_one_no_schema_describes_are_not_reported() -> None:
    assert findings_misplaced(package_texts('{"attempts": 3, "backoff": "linear"}')) == []


def test_an_extension_name_two_schemas_or_none_give_binds_nothing() -> None:
    elsewhere = {**RETRIES, "$id": "https://other.example.net/retries.schema.json"}
    alone = {"package": PACKAGE, "retries": elsewhere}
    assert findings_misplaced(package_texts('{"backoff": "random"}', alone)) == []
    copy = {**RETRIES, "$id": "https://pkg.example.org/specs/v2/retries.schema.json"}
    both = {"package": PACKAGE, "retries": RETRIES, "retries2": copy}
    assert findings_misplaced(package_texts('{"backoff": "random"}', both)) == []


def test_speclint_bindings_shows_the_extension_and_its_evidence(make_corpus: MakeCorpus) -> None:
    output = run_cli("bindings", str(make_corpus(package_texts("{}")))).output
    assert (
        "    -> schema/retries.schema.json at /extensions/org.example.pkg.retries (by extension "
        "name: `org.example.pkg.retries`, the reverse-DNS name of `retries.schema.json` (`$id` "
        "https://pkg.example.org/specs/v1/retries.schema.json))"
    ) in output


def test_a_heading_of_example_words_only_is_captioned_by_the_heading_above() -> None:
    page = "# Receipts\n\n## Receipt\n\nWhat a shop prints.\n\n### Example\n\n" + fence_misplaced(
        MISPLACED
    )
    assert heading_ties(files(page)) == [
        'the heading "Receipt" names `receipt`, which declares 3 of its 4 members'
    ]
    # A section of another subject captions nothing of the receipt's.
    page = "# Receipts\n\n## Printing\n\n### Example\n\n" + fence_misplaced(MISPLACED)
    assert heading_ties(files(page)) == []


def test_a_heading_binding_to_an_api_component_is_measured_as_the_heading_binding() -> None:
    api = {
        "openapi": "3.1.0",
        "info": {"title": "Shop", "version": "1"},
        "paths": {},
        "components": {
            "schemas": {"Receipt": {k: v for k, v in RECEIPT.items() if k != "$schema"}}
        },
    }
    page = "# Receipts\n\n## Receipt\n\n### Example\n\n" + fence_misplaced(MISPLACED)
    found = findings_misplaced({"api/openapi.json": json.dumps(api), "docs/receipt.md": page})
    assert [f.heuristic for f in found] == ["example-invalid/heading-name"]


# Examples a first read of new repositories (issue 46, round 5) showed parsed but never bound,
# by class (fixtures of our own, in styles other than the repository's):
#
# - a section whose heading is a definition's name in words and nothing else ("### Purchase
#   order", "## Parcels"), over an example every member of which that definition declares
#   (``section-title``), or one entry of a map that definition holds, shown alone by its key;
# - one component name in two releases of an API document kept side by side: the newest binds;
# - a wrapper of one object member (``{"message": {...}}``) that several definitions declare, each
#   as a reference to one definition: the value is bound to it (``shared-member``);
# - a wrapper of one member holding objects, in a list or a map by id (``{"edges": [...]}``),
#   bound to the definition whose elements' definition those objects fit (``member-elements``).


SECTION_TITLE = "example-invalid/section-title"


def api(version: str = "3.1.0", release: str = "2.0.0", line_required: bool = True) -> str:
    """An OpenAPI document of a shop: a purchase order of lines, each line a sku and a count."""
    line: dict[str, Any] = {
        "type": "object",
        "properties": {"sku": {"type": "string"}, "count": {"type": "integer"}},
        "additionalProperties": False,
    }
    if line_required:
        line["required"] = ["sku", "count"]
    document = {
        "openapi": version,
        "info": {"title": "Shop", "version": release},
        "paths": {},
        "components": {
            "schemas": {
                "PurchaseOrder": {
                    "type": "object",
                    "required": ["buyer", "lines"],
                    "properties": {
                        "buyer": {"type": "string"},
                        "lines": {"type": "object", "additionalProperties": line},
                    },
                },
                "OrderLine": line,
            }
        },
    }
    return yaml.safe_dump(document, sort_keys=False)


# Lines keyed by their ids, the second one without its count.
ORDER = """\
{
  "buyer": "ada",
  "lines": {
    "l1": {"sku": "A-1", "count": 2},
    "l2": {"sku": "B-7"}
  }
}
"""


# A shipment schema file: parcels under `$defs`, each a weight in grams and a label.
SHIPMENT = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "shipment",
    "type": "object",
    "properties": {"parcels": {"type": "array", "items": {"$ref": "#/$defs/Parcel"}}},
    "$defs": {
        "Parcel": {
            "type": "object",
            "required": ["grams"],
            "properties": {"grams": {"type": "integer"}, "label": {"type": "string"}},
        }
    },
}


def findings_headings(texts: dict[str, str]) -> list[Finding]:
    corpus = Context.from_texts(texts)
    return list(all_rules()["example-invalid"].check(corpus, {}))


def title_ties(texts: dict[str, str], page: str) -> list[str]:
    corpus = Context.from_texts(texts)
    return [
        f"{tie.target.label if tie.target else ''}: {tie.evidence}"
        for tie in fence_ties(corpus, corpus.documents[page], Binding())
        if tie.how == BY_TITLE
    ]


def fence_headings(body: str, language: str = "json") -> str:
    return f"```{language}\n{body}```\n"


SHARED_MEMBER = "example-invalid/shared-member"


def jobs_api(event_job: dict[str, Any] | None = None) -> str:
    """A jobs API: a request and a response each hold a `job` that is a `Job`; an event names
    its job by a string."""
    job_ref = {"$ref": "#/components/schemas/Job"}
    document = {
        "openapi": "3.0.3",
        "info": {"title": "Jobs", "version": "1.0.0"},
        "paths": {},
        "components": {
            "schemas": {
                "CreateJob": {
                    "type": "object",
                    "properties": {"job": job_ref, "dryRun": {"type": "boolean"}},
                },
                "JobCreated": {
                    "type": "object",
                    "properties": {"job": job_ref, "status": {"type": "string"}},
                },
                "JobEvent": {
                    "type": "object",
                    "properties": {"job": event_job or {"type": "string"}},
                },
                "Job": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string"},
                        "steps": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["run"],
                                "properties": {"run": {"type": "string"}},
                            },
                        },
                    },
                },
            }
        },
    }
    return yaml.safe_dump(document, sort_keys=False)


JOB = '{\n  "job": {\n    "name": "nightly",\n    "steps": [{"run": 5}]\n  }\n}\n'


def shared_ties(texts: dict[str, str], page: str) -> list[str]:
    corpus = Context.from_texts(texts)
    return [
        f"{tie.part} {tie.target.label if tie.target else ''}"
        for tie in fence_ties(corpus, corpus.documents[page], Binding())
        if tie.how == BY_SHARED
    ]


MEMBER_ELEMENTS = "example-invalid/member-elements"


def fleet_api() -> str:
    """A fleet API: a depot holds its vehicles in a map by id, a route plan its stops in a list;
    a vehicle and a stop share no members but `id`."""
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Fleet", "version": "3.0.0"},
        "paths": {},
        "components": {
            "schemas": {
                "Depot": {
                    "type": "object",
                    "properties": {
                        "vehicles": {
                            "type": "object",
                            "additionalProperties": {"$ref": "#/components/schemas/Vehicle"},
                        }
                    },
                },
                "RoutePlan": {
                    "type": "object",
                    "properties": {
                        "vehicles": {
                            "type": "array",
                            "items": {"$ref": "#/components/schemas/Stop"},
                        }
                    },
                },
                "Vehicle": {
                    "type": "object",
                    "required": ["plate"],
                    "properties": {
                        "plate": {"type": "string"},
                        "seats": {"type": "integer"},
                        "electric": {"type": "boolean"},
                    },
                },
                "Stop": {
                    "type": "object",
                    "properties": {"place": {"type": "string"}, "minutes": {"type": "integer"}},
                },
            }
        },
    }
    return yaml.safe_dump(document, sort_keys=False)


def test_a_heading_that_is_a_component_name_in_words_binds_an_example_of_its_members() -> None:
    page = (
        "# Ordering\n\n### Purchase order\n\nThe buyer and the lines bought.\n\n"
        + fence_headings(ORDER)
    )
    texts = {"api/shop.yaml": api(), "guide/ordering.md": page}
    found = findings_headings(texts)
    assert [f.heuristic for f in found] == [SECTION_TITLE]
    # The line without its count, where it is written: nested objects are shown whole.
    assert found[0].message.startswith('example at /lines/l2: "count" is a required property')
    assert found[0].location.line == 12
    assert title_ties(texts, "guide/ordering.md") == [
        'api/shop.yaml#/components/schemas/PurchaseOrder: the heading "Purchase order" '
        "names `PurchaseOrder`, which declares every one of its 2 members"
    ]


def test_a_plural_heading_binds_to_a_schema_files_definition_in_yaml() -> None:
    # Another style: a `$defs` entry of a JSON Schema file, a YAML example, a plural heading.
    page = "## Parcels\n\n" + fence_headings("grams: heavy\nlabel: fragile\n", "yaml")
    texts = {"schemas/shipment.schema.json": json.dumps(SHIPMENT), "docs/parcels.md": page}
    found = findings_headings(texts)
    assert [f.heuristic for f in found] == [SECTION_TITLE]
    assert "/grams" in found[0].message and "integer" in found[0].message


def test_the_section_title_binding_is_a_preview_heuristic() -> None:
    assert SECTION_TITLE in all_rules()["example-invalid"].heuristics
    assert why_heuristic_preview(SECTION_TITLE) is not None


def test_a_section_title_binds_nothing_but_an_example_made_of_the_definitions_members() -> None:
    texts = {"schemas/shipment.schema.json": json.dumps(SHIPMENT)}
    # A member the definition does not declare: the section shows something else.
    other = fence_headings('{"grams": "heavy", "carrier": "post"}\n')
    assert title_ties({**texts, "docs/p.md": "## Parcel\n\n" + other}, "docs/p.md") == []
    # A heading that is a sentence, or names more than the definition.
    mine = fence_headings('{"grams": "heavy", "label": "x"}\n')
    for heading in ("## How a parcel is weighed", "## Parcel and label rules"):
        assert title_ties({**texts, "docs/p.md": f"{heading}\n\n{mine}"}, "docs/p.md") == []
    assert title_ties({**texts, "docs/p.md": "## Parcel\n\n" + mine}, "docs/p.md") != []
    # One member under a one-word heading ("## Response" over `{"error": ...}`) says too little.
    one = fence_headings('{"grams": "heavy"}\n')
    assert title_ties({**texts, "docs/p.md": "## Parcel\n\n" + one}, "docs/p.md") == []


def test_what_the_example_leaves_out_at_its_top_is_not_judged() -> None:
    # A parcel shown by its label only, of the three members a parcel requires: the others are
    # said elsewhere. Inside it, what is shown is judged.
    schema = json.loads(json.dumps(SHIPMENT))
    parcel = schema["$defs"]["Parcel"]
    parcel["required"] = ["grams", "label", "carrier", "insured", "sender"]
    for name in ("carrier", "insured", "sender"):
        parcel["properties"][name] = {"type": "string"}
    texts = {"schemas/shipment.schema.json": json.dumps(schema)}
    texts["docs/p.md"] = "## Parcel\n\n" + fence_headings(
        '{"label": "fragile", "carrier": "post"}\n'
    )
    assert title_ties(texts, "docs/p.md") != []
    assert findings_headings(texts) == []
    texts["docs/p.md"] = "## Parcel\n\n" + fence_headings('{"label": 7, "carrier": "post"}\n')
    assert len(findings_headings(texts)) == 1


def test_of_two_releases_of_one_api_the_newest_binds() -> None:
    page = "## Purchase order\n\n" + fence_headings(ORDER)
    texts = {
        "api/shop.yaml": api(release="2.0.0"),
        # The older release, kept for reference: its lines need no count.
        "api/old/shop-1.yaml": api(release="1.4.0", line_required=False),
        "guide/ordering.md": page,
    }
    assert [t.split(":")[0] for t in title_ties(texts, "guide/ordering.md")] == [
        "api/shop.yaml#/components/schemas/PurchaseOrder"
    ]
    # Without a usable release number, the document written in the later OpenAPI version.
    texts["api/shop.yaml"] = api(release="SET-ME")
    texts["api/old/shop-1.yaml"] = api("3.0.3", release="SET-ME", line_required=False)
    assert [t.split(":")[0] for t in title_ties(texts, "guide/ordering.md")] == [
        "api/shop.yaml#/components/schemas/PurchaseOrder"
    ]
    # Two documents at one release: no telling which the page means.
    texts["api/old/shop-1.yaml"] = api(release="SET-ME", line_required=False)
    assert title_ties(texts, "guide/ordering.md") == []


def test_a_wrapper_of_a_member_every_declaring_definition_refers_alike_binds_its_value() -> None:
    texts = {"openapi/jobs.yaml": jobs_api(), "docs/jobs.md": "Submit:\n\n" + fence_headings(JOB)}
    found = findings_headings(texts)
    assert [f.heuristic for f in found] == [SHARED_MEMBER]
    assert found[0].message.startswith("example at /job/steps/0/run: 5 is not of type")
    assert found[0].location.line == 7
    assert shared_ties(texts, "docs/jobs.md") == ["/job openapi/jobs.yaml#/components/schemas/Job"]


def test_a_shared_member_binds_in_a_schema_files_definitions_and_yaml() -> None:
    # Another style: `definitions` of a JSON Schema file, a YAML example.
    payload = {"$ref": "#/definitions/Payload"}
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "Envelope": {"type": "object", "properties": {"payload": payload, "id": {}}},
            "Batch": {"type": "object", "properties": {"payload": payload, "count": {}}},
            "Payload": {
                "type": "object",
                "properties": {"size": {"type": "integer"}, "unit": {"enum": ["kb", "mb"]}},
            },
        },
    }
    texts = {
        "schema/transfer.json": json.dumps(schema),
        "docs/transfer.md": "A transfer:\n\n"
        + fence_headings("payload:\n  size: 3\n  unit: gb\n", "yaml"),
    }
    found = findings_headings(texts)
    assert [f.heuristic for f in found] == [SHARED_MEMBER]
    assert "/payload/unit" in found[0].message


def test_a_shared_member_binds_nothing_where_the_declaring_definitions_differ() -> None:
    page = {"docs/jobs.md": "Submit:\n\n" + fence_headings(JOB)}
    # The event declares its `job` inline: not one definition's instance.
    inline = {"type": "object", "properties": {"name": {}}}
    assert shared_ties({"openapi/jobs.yaml": jobs_api(inline), **page}, "docs/jobs.md") == []
    # The event's `job` is another definition.
    other = {"$ref": "#/components/schemas/CreateJob"}
    assert shared_ties({"openapi/jobs.yaml": jobs_api(other), **page}, "docs/jobs.md") == []
    # A member of the value the definition does not declare: something else.
    odd = '{"job": {"name": "nightly", "owner": "ops"}}\n'
    texts = {"openapi/jobs.yaml": jobs_api(), "docs/jobs.md": "Submit:\n\n" + fence_headings(odd)}
    assert shared_ties(texts, "docs/jobs.md") == []


def test_the_shared_member_binding_is_a_preview_heuristic() -> None:
    assert SHARED_MEMBER in all_rules()["example-invalid"].heuristics
    assert why_heuristic_preview(SHARED_MEMBER) is not None


def test_a_list_where_the_definition_its_elements_fit_holds_a_map_is_reported() -> None:
    # The vehicles in a list, though a depot keeps them in a map by id.
    body = '{\n  "vehicles": [\n    {"plate": "AB-12", "seats": 4, "electric": true}\n  ]\n}\n'
    texts = {
        "api/fleet.yaml": fleet_api(),
        "docs/depots.md": "The depot:\n\n" + fence_headings(body),
    }
    found = findings_headings(texts)
    assert [f.heuristic for f in found] == [MEMBER_ELEMENTS]
    assert found[0].message.startswith("example at /vehicles: ")
    assert 'is not of type "object"' in found[0].message


def test_a_map_by_id_of_elements_is_judged_inside_them_in_yaml() -> None:
    # Another style: a YAML map by id; one vehicle's seats are a word.
    body = "vehicles:\n  v1:\n    plate: AB-12\n    seats: four\n"
    texts = {
        "api/fleet.yaml": fleet_api(),
        "docs/depots.md": "A depot:\n\n" + fence_headings(body, "yaml"),
    }
    found = findings_headings(texts)
    assert [f.heuristic for f in found] == [MEMBER_ELEMENTS]
    assert "/vehicles/v1/seats" in found[0].message


def test_elements_that_fit_two_definitions_alike_bind_by_the_name_the_words_give() -> None:
    # A vehicle kind with the same members: the elements fit both; the words above name one.
    api_text = fleet_api().replace("place:", "plate:").replace("minutes:", "seats:")
    api_text = api_text.replace("Stop", "VehicleKind")
    body = '{"vehicles": [{"plate": "AB-12", "seats": 4}]}\n'
    unnamed = {"api/fleet.yaml": api_text, "docs/d.md": "Like this:\n\n" + fence_headings(body)}
    assert findings_headings(unnamed) == []
    named = {**unnamed, "docs/d.md": "Each Vehicle of the depot:\n\n" + fence_headings(body)}
    assert [f.heuristic for f in findings_headings(named)] == [MEMBER_ELEMENTS]


def test_elements_of_another_shape_bind_nothing() -> None:
    body = '{"vehicles": [{"colour": "red", "wheels": 4}]}\n'
    texts = {
        "api/fleet.yaml": fleet_api(),
        "docs/depots.md": "The depot:\n\n" + fence_headings(body),
    }
    assert findings_headings(texts) == []


def test_the_member_elements_binding_is_a_preview_heuristic() -> None:
    assert MEMBER_ELEMENTS in all_rules()["example-invalid"].heuristics
    assert why_heuristic_preview(MEMBER_ELEMENTS) is not None


def test_elements_of_one_member_name_bind_nothing() -> None:
    # `{"vehicles": {"v1": {"plate": ...}}}` says little: one member name of the elements.
    body = '{"vehicles": {"v1": {"plate": 12}}}\n'
    texts = {
        "api/fleet.yaml": fleet_api(),
        "docs/depots.md": "The depot:\n\n" + fence_headings(body),
    }
    assert findings_headings(texts) == []


def test_an_entry_of_the_sections_map_shown_alone_is_judged_as_its_element() -> None:
    # Under "## Depot": one vehicle of the depot's map by id, its plate a number.
    page = "## Depot\n\nOne of its vehicles:\n\n" + fence_headings(
        '"v7": {"plate": 5, "seats": 2}\n'
    )
    texts = {"api/fleet.yaml": fleet_api(), "docs/depot.md": page}
    found = findings_headings(texts)
    assert [f.heuristic for f in found] == [SECTION_TITLE]
    assert found[0].message.startswith("example at /v7/plate: 5 is not of type")
    assert title_ties(texts, "docs/depot.md") == [
        'api/fleet.yaml#/components/schemas/Vehicle: the heading "Depot" names `Depot`, whose '
        "map of `Vehicle` the entry `v7` is one of: `Vehicle` declares every one of its 2 members"
    ]


def test_a_map_entry_binds_in_a_schema_file_and_yaml_and_only_to_one_element_kind() -> None:
    product = {"type": "object", "properties": {"name": {}, "price": {"type": "number"}}}
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "Catalog": {
                "type": "object",
                "properties": {
                    "products": {"type": "object", "additionalProperties": {"$ref": "#/$defs/P"}}
                },
            },
            "P": product,
        },
    }
    page = "### Catalog\n\n" + fence_headings("sku-1:\n  name: tea\n  price: cheap\n", "yaml")
    texts = {"schemas/shop.schema.json": json.dumps(schema), "docs/catalog.md": page}
    assert [f.heuristic for f in findings_headings(texts)] == [SECTION_TITLE]
    # A second map whose elements declare the same members: no telling which the entry is of.
    schema["$defs"]["Catalog"]["properties"]["gifts"] = {
        "type": "object",
        "additionalProperties": {"$ref": "#/$defs/G"},
    }
    schema["$defs"]["G"] = product
    texts["schemas/shop.schema.json"] = json.dumps(schema)
    assert findings_headings(texts) == []


# Examples in prose that a first read of three public repositories found speclint missing
# (issue 46, round 2): a response shown under its GET request line in one fence; an example of a
# family of schemas (minimal, extended, by reference) that declare its members alike; a request's
# query and path values against the operation's parameter schemas. Fixtures of our own.


PARTS_API = """\
openapi: 3.0.3
info: {title: Parts, version: '1'}
paths:
  /part/{code}:
    get:
      parameters:
        - {name: code, in: path, required: true, schema: {type: string}}
        - {name: offset, in: query, schema: {type: integer, minimum: 0}}
        - {name: limit, in: query, schema: {type: integer, minimum: 1}}
        - {name: view, in: query, schema: {type: string, enum: [brief, full]}}
        - {name: tags, in: query, schema: {type: array, items: {type: string, enum: [a]}}}
      responses:
        '200':
          description: the part's record
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Record'}
  /bin/{slot}:
    parameters:
      - {name: slot, in: path, required: true, schema: {type: integer, minimum: 1}}
    get:
      responses:
        '204': {description: the bin is there}
  /part/{code}/notes:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Note'}
      responses:
        '201': {description: added}
components:
  schemas:
    Record:
      type: object
      properties:
        record:
          type: object
          properties:
            code: {type: string}
            weight: {type: integer}
            colour: {type: string}
          required: [code, weight]
    Note:
      type: object
      properties:
        text: {type: string}
      required: [text]
"""


def rule_findings(rule: str, files: dict[str, str]) -> list[Finding]:
    corpus = Context.from_texts(files)
    return list(all_rules()[rule].check(corpus, {}))


def api_page(body: str) -> dict[str, str]:
    return {"spec/api/openapi.yaml": PARTS_API, "spec/README.md": f"# Parts\n\n{body}"}


ANSWER_UNDER_GET = """\
#### Example request and response

```
GET /part/bolt-7

{
  "record": {
    "weight": 12,
    "colour": "grey"
  }
}
```
"""


KIT_MINIMAL = """\
{
  "type": "object",
  "properties": {
    "weights": {"type": "array", "items": {"type": "integer"}},
    "labels": {"type": "array", "items": {"type": "string"}},
    "parts": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["labels", "weights", "parts"]
}
"""


# The same document written with references the corpus cannot follow (relative to its `$id`).
KIT_BY_REFERENCE = """\
{
  "$id": "https://kits.example.org/schemas/kit_minimal.json",
  "type": "object",
  "properties": {
    "weights": {"$ref": "/weights"},
    "labels": {"$ref": "/labels"},
    "parts": {"$ref": "/parts"}
  },
  "required": ["labels", "parts"]
}
"""


KIT_EXAMPLE = """\
A kit whose parts are left out:

```
{
  "weights": ["12", "7"],
  "labels": ["left", "right"]
}
```
"""


def kit_files(page: str, **schemas: str) -> dict[str, str]:
    files = {
        "docs/schemas/kit_minimal.json": KIT_MINIMAL,
        "docs/schemas/kit_refs.json": KIT_BY_REFERENCE,
        "docs/kits/rationale.md": f"# Kits\n\n{page}",
    }
    files.update({f"docs/schemas/{name}.json": text for name, text in schemas.items()})
    return files


def parameter_findings(body: str) -> list[Finding]:
    return [
        f
        for f in rule_findings("example-invalid", api_page(body))
        if f.heuristic == "example-invalid/parameter-value"
    ]


def test_a_body_under_a_get_request_line_is_its_answer() -> None:
    [finding] = rule_findings("example-invalid", api_page(ANSWER_UNDER_GET))
    assert finding.message.startswith('example at /record: "code" is a required property')
    assert (
        "the body shown as its answer in `GET /part/bolt-7`"
        in "\n".join(r.note for r in finding.related) + finding.message
    )
    assert finding.heuristic == "example-invalid/by-exchange"
    good = ANSWER_UNDER_GET.replace('"weight"', '"code": "bolt-7",\n    "weight"')
    assert rule_findings("example-invalid", api_page(good)) == []


def test_a_body_under_a_request_line_that_takes_one_is_still_its_request() -> None:
    # A POST's body is its request body (the answer is declared with no content here).
    sent = '```\nPOST /part/bolt-7/notes\n\n{"words": 3}\n```\n'
    [finding] = rule_findings("example-invalid", api_page(sent))
    assert finding.message.startswith('example at /: "text" is a required property')
    # A GET whose operation declares a request body (a search by body): its request body.
    searching = PARTS_API.replace(
        "    get:\n      parameters:",
        "    get:\n      requestBody:\n        content:\n          application/json:\n"
        "            schema: {$ref: '#/components/schemas/Note'}\n      parameters:",
    )
    files = {"spec/api/openapi.yaml": searching, "spec/README.md": "# P\n\n" + ANSWER_UNDER_GET}
    [finding] = rule_findings("example-invalid", files)
    assert finding.message.startswith('example at /: "text" is a required property')
    # A curl command's data is what it sends, even with `-X GET`: never read as the answer.
    sending = (
        '```bash\ncurl -X GET https://x.example/part/bolt-7 -d \'{"record": {"weight": 1}}\'\n```\n'
    )
    assert rule_findings("example-invalid", api_page(sending)) == []


def test_an_example_of_a_family_of_schemas_that_declare_its_members_alike_is_judged() -> None:
    findings = rule_findings("example-invalid", kit_files(KIT_EXAMPLE))
    assert findings, "the family's schemas agree on `weights`: its strings are judged"
    assert findings[0].message.startswith('example at /weights/0: "12" is not of type "integer"')
    assert findings[0].heuristic == "example-invalid/by-fragment"
    assert findings[0].location.line == 7
    # An extended member of the family (more members, the same schemas for these) agrees too.
    extended = KIT_MINIMAL.replace(
        '"parts": {',
        '"colours": {"type": "array", "items": {"type": "string"}},\n    "parts": {',
    )
    assert rule_findings("example-invalid", kit_files(KIT_EXAMPLE, kit_extended=extended))
    assert (
        rule_findings("example-invalid", kit_files(KIT_EXAMPLE.replace('"12", "7"', "12, 7"))) == []
    )


def test_schemas_that_declare_a_member_differently_leave_the_example_unbound() -> None:
    other = KIT_MINIMAL.replace('"items": {"type": "integer"}', '"items": {"type": "string"}')
    assert rule_findings("example-invalid", kit_files(KIT_EXAMPLE, kit_text=other)) == []


def test_a_document_written_as_its_members_digests_is_not_an_excerpt() -> None:
    digests = (
        "The digest of each member:\n\n```json\n"
        '{"weights": "Zq4x", "labels": "c0Ff", "parts": "9pQe"}\n```\n'
    )
    assert rule_findings("example-invalid", kit_files(digests)) == []
    # One member a string and the others arrays: an invalid excerpt, not another form.
    mixed = digests.replace('"labels": "c0Ff"', '"labels": ["a"]')
    assert rule_findings("example-invalid", kit_files(mixed))


def test_a_query_value_of_a_request_line_is_judged_against_its_parameter_schema() -> None:
    request = "A short listing:\n\n```\nGET /part/bolt-7?offset=0&limit=0\n```\n"
    [finding] = parameter_findings(request)
    assert finding.message.startswith(
        "query parameter `limit` is `0`: 0 is less than the minimum of 1"
    )
    # Where the value is written: the fence opens on line 5, `0` after `limit=`.
    assert (finding.location.line, finding.location.column) == (6, 33)
    assert "`GET /part/{code}`'s query parameter" in finding.related[0].note
    assert parameter_findings(request.replace("limit=0", "limit=5")) == []
    # A curl URL gives its query too; an enum holds it.
    curl = "```bash\ncurl 'https://parts.example.org/part/bolt-7?view=huge'\n```\n"
    [wrong] = parameter_findings(curl)
    assert wrong.message.startswith("query parameter `view` is `huge`")


def test_a_path_value_of_a_request_is_judged_against_its_template_variable() -> None:
    [finding] = parameter_findings("```\nGET /bin/0\n```\n")
    assert finding.message.startswith("path parameter `slot` is `0`")
    assert parameter_findings("```\nGET /bin/3\n```\n") == []


def test_values_that_stand_for_one_or_that_the_words_call_refused_are_not_judged() -> None:
    placeholders = [
        "GET /bin/{slot}",
        "GET /bin/<slot>",
        "GET /bin/:slot",
        "GET /bin/$SLOT",
        "GET /part/bolt-7?limit={limit}",
        "GET /part/bolt-7?limit=<n>",
        "GET /part/bolt-7?limit=:limit",
        "GET /part/bolt-7?limit=${LIMIT}",
        "GET /part/bolt-7?limit=N",  # a word where a number goes
        "GET /part/bolt-7?view=...",
        "GET /part/bolt-7?view=VIEW",  # a word in capitals where the values are not
        "GET /part/bolt-7?view=your-view",
        "GET /part/bolt-7?tags=b,c",  # a serialised list
        "GET /part/bolt-7?view=brief,huge",
    ]
    for line in placeholders:
        assert parameter_findings(f"```\n{line}\n```\n") == [], line
    refused = "A zero limit returns 400 Bad Request:\n\n```\nGET /part/bolt-7?limit=0\n```\n"
    assert parameter_findings(refused) == []
    shown = "```http\nGET /part/bolt-7?limit=0\n\nHTTP/1.1 400 Bad Request\n```\n"
    assert parameter_findings(shown) == []
