"""Waivers: accepted findings move aside with their reason; bad waivers are findings themselves."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import REPOSITORY, schema, write_files
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Location, Member, Severity
from speclint.model.config import load_config
from speclint.outputs.reporters import Report, renderer
from speclint.run.runner import RunResult, run_rules
from speclint.run.waivers import collect

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

OPENAPI = textwrap.dedent(
    """\
    openapi: 3.1.0
    info: {title: t, version: 1.0.0}
    paths:
      /runs:
        get:
          responses:
            '200':
              description: ok
              content:
                application/json:
                  schema: {$ref: '../schemas/error.schema.json'}
    """
)
CLOSED = {"type": "object", "properties": {"code": {}}, "additionalProperties": False}


def result(root: Path) -> RunResult:
    return run_rules(Context.load(root, load_config(root)))


def rules_of(run: RunResult) -> list[str]:
    return sorted(f.rule for f in run.findings)


# The closure policy these corpora break: closure-policy judges only a corpus that states it.
POLICY_PAGE = "# Compatibility\n\nServer-emitted shapes stay open, so a host can add a field.\n"


@pytest.fixture
def make_corpus(tmp_path: Path) -> MakeCorpus:
    def build(files: dict[str, str | bytes]) -> Path:
        return write_files(tmp_path / "spec", {"COMPATIBILITY.md": POLICY_PAGE, **files})

    return build


@pytest.fixture(autouse=True)
def fixed_today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECLINT_TODAY", "2026-11-22")


def test_an_in_document_waiver_with_a_reason_moves_the_finding_aside(
    make_corpus: MakeCorpus,
) -> None:
    plain = make_corpus(
        {"api/openapi.yaml": OPENAPI, "schemas/error.schema.json": schema(**CLOSED)}
    )
    assert rules_of(result(plain)) == ["closure-policy"]
    waived = {
        **CLOSED,
        "x-speclint-ignore": ["closure-policy"],
        "x-speclint-reason": "frozen until v2 (RFC 0073)",
    }
    root = make_corpus({"api/openapi.yaml": OPENAPI, "schemas/error.schema.json": schema(**waived)})
    run = result(root)
    assert run.findings == []
    [accepted] = run.waived
    assert accepted.finding.rule == "closure-policy"
    assert accepted.waiver.reason == "frozen until v2 (RFC 0073)"


@pytest.mark.parametrize(
    ("marker", "message"),
    [
        ({"x-speclint-ignore": ["closure-policy"]}, "gives no reason, so it waives nothing"),
        (
            {
                "x-speclint-ignore": {
                    "rules": ["closure-policy"],
                    "reason": "v2",
                    "expires": "2026-01-01",
                }
            },
            "expired on 2026-01-01",
        ),
        (
            {"x-speclint-ignore": ["enum-drift"], "x-speclint-reason": "old"},
            "matches no finding any more",
        ),
    ],
)
def test_reasonless_expired_and_stale_waivers_are_findings(
    make_corpus: MakeCorpus, marker: dict[str, object], message: str
) -> None:
    root = make_corpus(
        {"api/openapi.yaml": OPENAPI, "schemas/error.schema.json": schema(**CLOSED, **marker)}
    )
    run = result(root)
    assert rules_of(run) == [
        "closure-policy",
        "waiver",
    ]  # the finding is back, plus the waiver's own
    [problem] = [f for f in run.findings if f.rule == "waiver"]
    assert message in problem.message
    assert problem.location.path == "schemas/error.schema.json"
    assert problem.location.pointer == "/x-speclint-ignore"
    assert run.waived == []


def test_markdown_and_configured_waivers(make_corpus: MakeCorpus) -> None:
    page = textwrap.dedent(
        """\
        # Interrupts

        Status: Stable, with the three interrupt kinds below.

        ## Kinds

        - `approval`: yes or no.
        - `clarification`: a question.
        - `custom`: anything.
        - `external`: an event.
        """
    )
    root = make_corpus({"spec/interrupt.md": page})
    assert rules_of(result(root)) == ["count-drift"]
    commented = page.replace(
        "Status: Stable",
        "<!-- speclint-ignore count-drift: the fourth kind is experimental -->\nStatus: Stable",
    )
    root = make_corpus({"spec/interrupt.md": commented})
    run = result(root)
    assert run.findings == [] and run.waived[0].waiver.reason == "the fourth kind is experimental"
    root = make_corpus(
        {
            "spec/interrupt.md": page,
            "speclint.toml": '[[waivers]]\nrule = "count-drift"\npath = "spec/interrupt.md"\nreason = "tracked in #12"\nwho = "ann"\nexpires = 2027-01-01\n',
        }
    )
    run = result(root)
    assert run.findings == [] and run.waived[0].waiver.kind == "external"
    assert run.waived[0].waiver.who == "ann" and run.waived[0].waiver.expires == "2027-01-01"


# A page of a Model Context Protocol-style site (every page MDX) whose example its schema rejects
# (issue 44, item 12): an HTML comment does not compile in MDX, so its waiver is a JSX comment.
MESSAGE_SCHEMA = json.dumps(
    {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "Message": {
                "type": "object",
                "properties": {"kind": {"const": "message"}, "role": {"enum": ["user", "agent"]}},
                "required": ["kind", "role"],
            }
        },
    }
)
ROBOT_EXAMPLE = '```json\n{"kind": "message", "role": "robot"}\n```\n'


def messages_page(waiver: str = "") -> str:
    return f"# Messages\n\nA message:\n\n{waiver}{ROBOT_EXAMPLE}"


def test_an_mdx_waiver_with_a_reason_waives_and_is_recorded(make_corpus: MakeCorpus) -> None:
    plain = make_corpus({"schema.json": MESSAGE_SCHEMA, "docs/messages.mdx": messages_page()})
    assert rules_of(result(plain)) == ["example-invalid"]
    waiver = "{/* speclint-ignore example-invalid: robots join in v2 */}\n"
    root = make_corpus({"schema.json": MESSAGE_SCHEMA, "docs/messages.mdx": messages_page(waiver)})
    corpus = Context.load(root, load_config(root))
    run = run_rules(corpus)
    assert run.findings == []
    [accepted] = run.waived
    assert accepted.finding.rule == "example-invalid"
    assert accepted.waiver.reason == "robots join in v2"
    assert (accepted.waiver.origin.path, accepted.waiver.origin.line) == ("docs/messages.mdx", 5)
    report = Report(
        run.findings, run.rules, corpus.sources(), "corpus", "0", waived=tuple(run.waived)
    )
    [listed] = json.loads(renderer("json")(report))["waived"]
    assert listed["rule"] == "example-invalid"
    assert listed["waiver"]["reason"] == "robots join in v2"


@pytest.mark.parametrize(
    ("page", "waiver"),
    [
        ("docs/messages.md", "<!-- speclint-ignore example-invalid -->\n"),
        ("docs/messages.mdx", "{/* speclint-ignore example-invalid */}\n"),
        ("docs/messages.mdx", "{/* speclint-ignore example-invalid: */}\n"),
    ],
)
def test_a_markdown_or_mdx_waiver_without_a_reason_waives_nothing(
    make_corpus: MakeCorpus, page: str, waiver: str
) -> None:
    """The rule id a waiver names is no word of the page's prose: the example is judged, the
    waiver without a reason is a finding, and nothing is waived."""
    root = make_corpus({"schema.json": MESSAGE_SCHEMA, page: messages_page(waiver)})
    run = result(root)
    assert rules_of(run) == ["example-invalid", "waiver"]
    [problem] = [f for f in run.findings if f.rule == "waiver"]
    assert "gives no reason, so it waives nothing" in problem.message
    assert (problem.location.path, problem.location.line) == (page, 5)
    assert run.waived == []


# A page whose example is tied to its schema by the text just above it ("A `Thing`
# ([schema](...)):"): the waiver goes between that text and the fence, where a waiver of the fence
# must stand (issue 44, item 12, review item 3).
THING_SCHEMA = schema(
    title="Thing", type="object", properties={"n": {"type": "integer"}}, required=["n"]
)
THING_EXAMPLE = '```json\n{"n": "x"}\n```\n'
THING_TEXT = "A `Thing` ([schema](../schemas/thing.schema.json)):\n"
JSX_WAIVER = "{/* speclint-ignore example-invalid: counts are strings until v2 */}\n"
HTML_WAIVER = "<!-- speclint-ignore example-invalid: counts are strings until v2 -->\n"


def thing_page(waiver: str) -> str:
    return f"# Thing\n\n{THING_TEXT}\n{waiver}{THING_EXAMPLE}"


@pytest.mark.parametrize(
    ("page", "text"),
    [
        ("docs/thing.mdx", thing_page(JSX_WAIVER)),
        ("docs/thing.mdx", thing_page(JSX_WAIVER + "\n")),
        ("docs/thing.mdx", f"# Thing\n\n{THING_TEXT}{JSX_WAIVER}{THING_EXAMPLE}"),
        # Where the language server's quick fix writes it: above the block the fence ends.
        ("docs/thing.mdx", f"# Thing\n\n{JSX_WAIVER}{THING_TEXT}{THING_EXAMPLE}"),
        ("docs/thing.md", thing_page(HTML_WAIVER)),
        ("docs/thing.md", thing_page(HTML_WAIVER + "\n")),
    ],
)
def test_a_waiver_above_a_fence_keeps_the_text_that_ties_the_fence(
    make_corpus: MakeCorpus, page: str, text: str
) -> None:
    """The waiver is not the paragraph beside the fence: the text above still ties it, the
    finding is waived and recorded, and the waiver is not called stale."""
    files = {"schemas/thing.schema.json": THING_SCHEMA}
    assert rules_of(result(make_corpus({**files, page: thing_page("")}))) == ["example-invalid"]
    run = result(make_corpus({**files, page: text}))
    assert run.findings == []
    [accepted] = run.waived
    assert accepted.finding.rule == "example-invalid"
    assert "the adjacent text ties it" in accepted.finding.message
    assert accepted.waiver.reason == "counts are strings until v2"


@pytest.mark.parametrize(
    ("page", "waiver"),
    [
        ("docs/thing.mdx", "{/* speclint-ignore example-invalid */}\n"),
        ("docs/thing.md", "<!-- speclint-ignore example-invalid -->\n"),
    ],
)
def test_a_waiver_without_a_reason_above_a_tied_fence_waives_nothing(
    make_corpus: MakeCorpus, page: str, waiver: str
) -> None:
    run = result(make_corpus({"schemas/thing.schema.json": THING_SCHEMA, page: thing_page(waiver)}))
    assert rules_of(run) == ["example-invalid", "waiver"]
    [problem] = [f for f in run.findings if f.rule == "waiver"]
    assert "gives no reason, so it waives nothing" in problem.message
    assert run.waived == []


# How a page shows a waiver to its readers (this project's docs/gate.md does): samples in a fence or an
# indented code block, not waivers (issue 44, item 12, review item 5).
WAIVER_SAMPLES = """\
# Waivers

Write a waiver in MDX like this:

```mdx
{/* speclint-ignore enum-drift: the table lists the v2 statuses on purpose */}
```

And in Markdown:

````markdown
<!-- speclint-ignore enum-drift: the table lists the v2 statuses on purpose -->
````

Or indented:

    <!-- speclint-ignore enum-drift: the table lists the v2 statuses on purpose -->
    {/* speclint-ignore enum-drift: the table lists the v2 statuses on purpose */}
"""


def test_a_waiver_shown_in_a_code_block_is_no_waiver(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"docs/howto.md": WAIVER_SAMPLES, "docs/howto.mdx": WAIVER_SAMPLES})
    corpus = Context.load(root, load_config(root))
    assert collect(corpus) == []
    assert rules_of(run_rules(corpus)) == []


def test_the_waiver_samples_of_this_documentation_are_no_waivers() -> None:
    page = (REPOSITORY / "docs" / "gate.md").read_text(encoding="utf-8")
    assert "speclint-ignore" in page  # the samples this test is about
    assert collect(Context.from_texts({"docs/gate.md": page})) == []


def test_sarif_with_suppressions_still_validates_and_other_reports_show_the_reason(
    make_corpus: MakeCorpus,
) -> None:
    from test_reporters import load_sarif_validator

    waived = {**CLOSED, "x-speclint-ignore": ["closure-policy"], "x-speclint-reason": "frozen"}
    root = make_corpus({"api/openapi.yaml": OPENAPI, "schemas/error.schema.json": schema(**waived)})
    corpus = Context.load(root, load_config(root))
    run = run_rules(corpus)
    report = Report(
        run.findings, run.rules, corpus.sources(), "corpus", "0", waived=tuple(run.waived)
    )
    sarif = json.loads(renderer("sarif")(report))
    [suppressed] = sarif["runs"][0]["results"]
    assert suppressed["suppressions"][0]["justification"] == "frozen"
    assert suppressed["suppressions"][0]["kind"] == "inSource"
    validator = load_sarif_validator()  # the OASIS schema, checked by its sha256
    assert [e.message for e in validator.iter_errors(sarif)] == []
    assert json.loads(renderer("json")(report))["waived"][0]["waiver"]["reason"] == "frozen"
    assert "frozen" in renderer("markdown")(report)
    assert "1 waived" in renderer("text")(report)


# --- grouped findings: a waiver covers its own place of a group (issue 44, item 7) -------------
# One finding stands for a disagreement repeated in many places (alike enums, alike lists, alike
# proto enums, links to one missing file, `$ref`s to one missing schema, values failing one way).
# A waiver is written at one of them: it waives that place, the others stay reported, and it is
# not stale.

REASON = "v1 keeps two states; archived comes in v2"
STATUS_PAGE = "# Status\n\nThe `status` field is one of `open` | `closed` | `archived`.\n"


def status_schema(name: str, waived: bool = False) -> str:
    status: dict[str, object] = {"enum": ["open", "closed"]}
    if waived:
        status |= {"x-speclint-ignore": ["enum-drift"], "x-speclint-reason": REASON}
    return schema(
        **{"$id": f"https://ex.com/{name}.schema.json", "title": f"T{name}"},
        type="object",
        properties={"status": status},
    )


def of_rule(run: RunResult, rule: str) -> list[Finding]:
    return [f for f in run.findings if f.rule == rule]


def assert_waived_at(run: RunResult, rule: str, *paths: str) -> None:
    """Each of ``paths`` has its waived record of ``rule``, and no waiver is a finding."""
    assert sorted(w.finding.location.path for w in run.waived if w.finding.rule == rule) == sorted(
        paths
    )
    assert of_rule(run, "waiver") == []


@pytest.mark.parametrize(("waived", "reported"), [("a", "b"), ("b", "a")])
def test_a_waiver_on_one_of_alike_enums_waives_that_enum_alone(
    tmp_path: Path, waived: str, reported: str
) -> None:
    files = {
        "docs/p.md": STATUS_PAGE,
        **{f"schemas/{n}.schema.json": status_schema(n, n == waived) for n in "ab"},
    }
    run = result(write_files(tmp_path / "both", files))
    [finding] = of_rule(run, "enum-drift")
    assert finding.location.path == f"schemas/{reported}.schema.json"
    assert_waived_at(run, "enum-drift", f"schemas/{waived}.schema.json")
    [accepted] = run.waived
    assert accepted.waiver.reason == REASON
    [marked] = [r for r in finding.related if r.path == f"schemas/{waived}.schema.json"]
    assert marked.note is not None and marked.note.endswith("; waived here")
    # The finding kept has the fingerprint it has when its enum is the only one: a baseline or
    # a code-scanning alert made before the other enum was added still matches it.
    del files[f"schemas/{waived}.schema.json"]
    [alone] = of_rule(result(write_files(tmp_path / "alone", files)), "enum-drift")
    assert finding.fingerprint == alone.fingerprint


@pytest.mark.parametrize(("waived", "reported"), [("p1", "p2"), ("p2", "p1")])
def test_a_waiver_above_one_of_alike_lists_waives_that_list_alone(
    make_corpus: MakeCorpus, waived: str, reported: str
) -> None:
    text = "# Status\n\n{}The `status` field is one of `open` | `closed`.\n"
    comment = "<!-- speclint-ignore enum-drift: archived is not shown to readers yet -->\n"
    three = schema(type="object", properties={"status": {"enum": ["open", "closed", "archived"]}})
    root = make_corpus(
        {
            "schemas/t.schema.json": three,
            **{f"docs/{p}.md": text.format(comment if p == waived else "") for p in ("p1", "p2")},
        }
    )
    run = result(root)
    [finding] = of_rule(run, "enum-drift")
    assert finding.location.path == f"docs/{reported}.md"
    assert "`archived`" in finding.message
    assert_waived_at(run, "enum-drift", f"docs/{waived}.md")


PROTO = (
    'syntax = "proto3";\npackage pkg{n};\nenum TaskState {{\n  TASK_STATE_UNSPECIFIED = 0;\n'
    "  TASK_STATE_SUBMITTED = 1;\n  TASK_STATE_CANCELLED = 2;\n}}\n"
)
TASK_STATE = json.dumps(
    {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://ex.com/s.schema.json",
        "title": "TaskState",
        "enum": ["submitted", "canceled"],
    }
)


@pytest.mark.parametrize(("waived", "reported"), [("p001", "p000"), ("p000", "p001")])
def test_a_configured_waiver_of_one_of_alike_proto_enums_waives_that_enum_alone(
    tmp_path: Path, waived: str, reported: str
) -> None:
    files: dict[str, str | bytes] = {
        "schemas/s.schema.json": TASK_STATE,
        "protos/p000.proto": PROTO.format(n="000"),
        "protos/p001.proto": PROTO.format(n="001"),
        "speclint.toml": (
            f'[[waivers]]\nrule = "proto-enum-drift"\npath = "protos/{waived}.proto"\n'
            'reason = "the legacy package is frozen until v2"\n'
        ),
    }
    run = result(write_files(tmp_path / "both", files))
    [finding] = of_rule(run, "proto-enum-drift")
    assert finding.location.path == f"protos/{reported}.proto"
    assert_waived_at(run, "proto-enum-drift", f"protos/{waived}.proto")
    del files[f"protos/{waived}.proto"], files["speclint.toml"]
    [alone] = of_rule(result(write_files(tmp_path / "alone", files)), "proto-enum-drift")
    assert finding.fingerprint == alone.fingerprint


@pytest.mark.parametrize(("waived", "reported"), [("b", "a"), ("a", "b")])
def test_a_waiver_above_one_of_the_links_to_a_missing_file_waives_that_link_alone(
    tmp_path: Path, waived: str, reported: str
) -> None:
    comment = "<!-- speclint-ignore broken-link: the guide lands in v2 -->\n"
    files: dict[str, str | bytes] = {
        f"docs/{p}.md": f"# {p}\n\n{comment if p == waived else ''}See [the guide](missing.md).\n"
        for p in "ab"
    }
    run = result(write_files(tmp_path / "both", files))
    [finding] = of_rule(run, "broken-link")
    assert finding.location.path == f"docs/{reported}.md"
    assert_waived_at(run, "broken-link", f"docs/{waived}.md")
    del files[f"docs/{waived}.md"]
    [alone] = of_rule(result(write_files(tmp_path / "alone", files)), "broken-link")
    assert finding.fingerprint == alone.fingerprint


def test_a_waiver_on_one_of_the_refs_to_a_missing_schema_waives_that_ref_alone(
    make_corpus: MakeCorpus,
) -> None:
    waived = {"$ref": "gone.schema.json", "x-speclint-ignore": ["unresolved-ref"]}
    waived["x-speclint-reason"] = "gone.schema.json is published with v2"
    root = make_corpus(
        {
            "schemas/a.schema.json": schema(properties={"x": waived}),
            "schemas/b.schema.json": schema(properties={"x": {"$ref": "gone.schema.json"}}),
        }
    )
    run = result(root)
    [finding] = of_rule(run, "unresolved-ref")
    assert finding.location.path == "schemas/b.schema.json"
    assert_waived_at(run, "unresolved-ref", "schemas/a.schema.json")


def test_a_waiver_of_one_of_the_values_failing_one_way_waives_that_value_alone(
    make_corpus: MakeCorpus,
) -> None:
    ids = schema(type="object", properties={"ids": {"type": "array", "items": {"pattern": "^G"}}})
    root = make_corpus(
        {
            "s.json": ids,
            "i.json": json.dumps({"$schema": "s.json", "ids": ["x", "G1", "y", "z"]}),
            "speclint.toml": (
                '[[waivers]]\nrule = "instance-invalid"\npath = "i.json"\nwhere = "/ids/0"\n'
                'reason = "the import keeps the legacy id"\n'
            ),
        }
    )
    run = result(root)
    [finding] = of_rule(run, "instance-invalid")
    assert finding.location.pointer == "/ids/2"
    assert "/ids/0" not in {r.pointer for r in finding.related if r.note == "fails the same way"}
    [accepted] = run.waived
    assert accepted.finding.location.pointer == "/ids/0"
    assert of_rule(run, "waiver") == []


def test_waivers_at_every_place_of_a_group_waive_it_whole_each_with_its_own_record(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "docs/p.md": STATUS_PAGE,
            **{f"schemas/{n}.schema.json": status_schema(n, True) for n in "abc"},
        }
    )
    run = result(root)
    assert of_rule(run, "enum-drift") == []
    assert_waived_at(run, "enum-drift", *(f"schemas/{n}.schema.json" for n in "abc"))


def test_a_group_moved_to_a_place_past_its_related_cap_relates_the_place_it_left() -> None:
    """The related locations list some places (their cap), the members all of them: the finding
    moved to an unlisted place names the place it was at among the places, and not itself."""
    places = [Location(f"docs/{p}.md", 3, 5, pointer="") for p in "abc"]
    members = tuple(Member(replace(place, note="also links"), "missing") for place in places)
    target = Location("docs/missing.md", note="the file it names")
    finding = Finding(
        "broken-link",
        Severity.WARNING,
        "`missing.md` does not exist (3 links)",
        places[0],
        related=(target, members[1].location),
        key="missing",
        members=members,
    )
    moved = finding.at(members[2])
    assert (moved.location, moved.location.note, moved.key, moved.members) == (
        places[2],
        None,
        "missing",
        (),
    )
    assert [(r.path, r.note) for r in moved.related] == [
        ("docs/missing.md", "the file it names"),
        ("docs/a.md", "also links"),
        ("docs/b.md", "also links"),
    ]
    assert finding.at(members[1]).related == (target, members[0].location)
    assert finding.at(members[0]) == replace(finding, members=())
