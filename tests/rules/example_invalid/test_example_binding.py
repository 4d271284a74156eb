"""Examples bound by what they are (issue 28): a fence of the prose matched to the definition it
is an instance of by its own values or shape, then validated whole."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.analyses.prose.fences import BY_SHAPE, BY_VALUE, Binding, fence_ties
from speclint.common.findings import Finding, Severity
from speclint.run.catalog import all_rules

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
