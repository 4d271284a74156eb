"""Issue 44, item 13: a finding's message is whole in every report but the terminal's, is never
cut at its key word, never says its first sentence twice, and writes values as JSON does."""

from __future__ import annotations

import hashlib
import json
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_cli import cli
from test_reporters import RULES, load_sarif_validator, make_report

from conftest import OPENWOP, REPOSITORY, schema
from speclint.analyses.context import Context
from speclint.analyses.schemas.validation import json_spelled
from speclint.common.findings import (
    FIRST_LINE,
    Finding,
    Location,
    Severity,
    first_fitting,
    headed,
    json_value,
)
from speclint.outputs.reporters import renderer
from speclint.outputs.reporters.github_report import escape_data
from speclint.run.catalog import RuleInfo, all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

VALUES = [f"a-rather-long-value-name-{n}" for n in range(12)]
WHOLE = (
    f"`mode` lacks {', '.join(f'`{v}`' for v in VALUES)}, which the prose documents: add them "
    "to the enum at `/properties/mode/enum`, or remove them from the other side"
)
SHORT = "`mode` lacks 12 values the prose documents (each on a related location): add them"


def long_finding() -> Finding:
    return Finding(
        "enum-drift",
        Severity.WARNING,
        first_fitting(WHOLE, SHORT),
        Location("schemas/a.json", 6, 7, pointer="/properties/mode/enum"),
        related=(Location("docs/guide.md", 2, 1, note="documents them"),),
    )


# --- whole where it is read whole -----------------------------------------------------------


def test_a_shortened_message_is_whole_in_every_report_but_the_terminal() -> None:
    finding = long_finding()
    assert finding.message == WHOLE and finding.terminal_message == SHORT
    report = make_report([finding])
    text = renderer("text")(report)
    assert f"[enum-drift] {SHORT}\n" in text and VALUES[-1] not in text.split("\n", 1)[0]
    document = json.loads(renderer("json")(report))
    assert document["findings"][0]["message"] == WHOLE
    result = json.loads(renderer("sarif")(report))["runs"][0]["results"][0]
    assert result["message"]["text"] == WHOLE
    assert all(f"`{v}`" in result["message"]["markdown"] for v in VALUES)
    [issue] = json.loads(renderer("gitlab")(report))
    assert issue["description"] == WHOLE
    failure = ElementTree.fromstring(renderer("junit")(report)).find(".//failure")
    assert failure is not None and failure.get("message") == WHOLE
    assert WHOLE in (failure.text or "")
    assert escape_data(WHOLE) in renderer("github")(report)
    assert WHOLE in renderer("markdown")(report)


def test_when_no_first_line_fits_nothing_is_cut() -> None:
    head = "example at /: " + ", ".join(f'"{v}"' for v in VALUES) + " were unexpected"
    message = first_fitting(
        f"{head}; the example fails `schemas/x.json`, which its `$schema` binds it to: fix it",
        f"{head}; its `$schema` binds it to `schemas/x.json`",
    )
    finding = Finding("example-invalid", Severity.ERROR, message, Location("p.md"))
    assert finding.message.endswith("which its `$schema` binds it to: fix it")
    shown = finding.terminal_message
    assert len(shown.split("\n", 1)[0]) <= FIRST_LINE and "\u2026" not in shown
    assert shown.replace("\n", " ").endswith("its `$schema` binds it to `schemas/x.json`")


def test_a_tail_added_to_a_wording_reaches_both_forms() -> None:
    # enum-drift adds "and N more are not listed" on a line of its own after choosing a
    # wording: the terminal's short form must survive the addition.
    message = first_fitting("x " * 200 + "detail", "short form") + "\nand 3 more"
    finding = Finding("enum-drift", Severity.WARNING, message, Location("p.md"))
    assert finding.message.endswith("detail\nand 3 more")
    assert finding.terminal_message == "short form\nand 3 more"


def test_a_long_head_is_said_once() -> None:
    head = "client-submitted shape (POST /v1/runs) closes `allOf` branches: " + "x " * 100
    message = headed(head, "; remove the closing keyword", "client-submitted shape closes branches")
    finding = Finding("closure-policy", Severity.ERROR, message, Location("a.yaml"))
    assert finding.message == head + "; remove the closing keyword"
    assert finding.message.count("client-submitted shape") == 1
    assert finding.terminal_message == (
        "client-submitted shape closes branches;\nremove the closing keyword"
    )


def test_a_long_message_is_one_sentence_on_one_line_outside_the_terminal() -> None:
    # issue 45: openapi-invalid's and schema-invalid's long messages carried a line break after
    # their `;` in JSON and SARIF ("(keyword `type`);\nfix it so ..."): the break is the
    # terminal's layout, not part of the message.
    head = "/paths/~1v1~1runs/get: " + "x" * 150 + " (keyword `required`)"
    message = headed(head, "; fix it so the document is valid OpenAPI 3.0.0", head)
    finding = Finding("openapi-invalid", Severity.ERROR, message, Location("a.yaml"))
    assert "\n" not in finding.message
    assert finding.message == head + "; fix it so the document is valid OpenAPI 3.0.0"
    assert finding.terminal_message == head + ";\nfix it so the document is valid OpenAPI 3.0.0"
    report = make_report([finding])
    assert json.loads(renderer("json")(report))["findings"][0]["message"] == finding.message
    assert f"[openapi-invalid] {head};\n" in renderer("text")(report)


def test_an_example_bound_by_a_long_failure_is_bounded_whole(make_corpus: MakeCorpus) -> None:
    # Every wording is too long: the message used to be cut at the terminal's first line
    # ("... binds it to …"), then printed whole in JSON (over 300 characters). The whole message
    # is bounded now (issue 45, class 9): the names run is cut to its first ones and how many
    # more, and what binds the example is said on the schema's related location.
    names = [f"anExtraordinarilyLongPropertyName{n}" for n in range(5)]
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.org/schemas/thing.schema.json",
        "type": "object",
        "properties": {"$schema": {"type": "string"}, "id": {"type": "string"}},
        "additionalProperties": False,
    }
    example = {"$schema": schema["$id"], "id": "x", **dict.fromkeys(names, 1)}
    root = make_corpus(
        {
            "schemas/thing.schema.json": json.dumps(schema, indent=2),
            "docs/thing.md": f"# Thing\n\n```json\n{json.dumps(example, indent=2)}\n```\n",
        }
    )
    run = cli("check", str(root), "--no-cache", "--format", "json")
    [finding] = json.loads(run.stdout)["findings"]
    assert len(finding["message"]) <= FIRST_LINE, finding["message"]
    assert f'"{names[0]}"' in finding["message"] and "more were unexpected" in finding["message"]
    assert "binds the example here" in finding["related"][0]["note"]
    text = cli("check", str(root), "--no-cache", "--no-color").stdout
    assert not any(line.rstrip().endswith("\u2026") for line in text.splitlines())


# --- said once ------------------------------------------------------------------------------


def opening(message: str) -> str:
    """The first clause: up to the first sentence or clause mark, or the first line's end."""
    found = re.match(r"(.+?)(?:[.;:,](?:\s|$)|\n)", message)
    return found.group(1) if found else message


def repeated_openings(findings: list[dict[str, Any]]) -> list[str]:
    """Messages whose opening clause (four words or more besides its code spans) comes again."""
    repeated = []
    for finding in findings:
        message = finding["message"]
        said = opening(message)
        if len(re.sub(r"`[^`]*`", "", said).split()) >= 4 and message.count(said) > 1:
            repeated.append(f"{finding['rule']}: {message[:300]}")
    return repeated


def reported(root: Path) -> list[dict[str, Any]]:
    """The findings of a whole run over ``root``, as the JSON report gives them."""
    run = cli("check", str(root), "--no-cache", "--no-progress", "--format", "json")
    assert run.returncode in (0, 1), run.stderr
    findings: list[dict[str, Any]] = json.loads(run.stdout)["findings"]
    return findings


def test_no_message_repeats_its_first_sentence_on_the_bundled_corpus() -> None:
    findings = reported(REPOSITORY / "corpus")
    assert {"closure-policy", "closed-event-union"} <= {f["rule"] for f in findings}
    assert repeated_openings(findings) == []


@pytest.mark.skipif(not OPENWOP.is_dir(), reason=f"the OpenWOP snapshot is not at {OPENWOP}")
def test_no_message_repeats_its_first_sentence_on_openwop() -> None:
    assert repeated_openings(reported(OPENWOP)) == []


# --- JSON's words for JSON values -----------------------------------------------------------

# Python's spellings of a value outside a code span: True, False, None, a 'quoted' string (of
# two characters or more: a parse error quotes the one it found, "no ',' after the last member").
PYTHON = re.compile(r"\b(?:True|False|None)\b|(?<![\w'])'[^'\s]{2,}'(?![\w'])")


def python_values(findings: list[dict[str, Any]]) -> list[str]:
    return [
        f"{f['rule']}: {text}"
        for f in findings
        for text in (f["message"], *(r["note"] or "" for r in f["related"]))
        if PYTHON.search(re.sub(r"`[^`]*`", "", text))
    ]


def test_json_value_and_json_spelled() -> None:
    assert [json_value(v) for v in (True, False, None, "on", 1.5, [1, "a"])] == [
        "true",
        "false",
        "null",
        '"on"',
        "1.5",
        '[1, "a"]',
    ]
    assert json_value(list(range(100))).endswith(", \u2026 81 more]")
    assert json_spelled("True is not one of ['a', None]") == 'true is not one of ["a", null]'
    assert json_spelled("False schema does not allow False") == "False schema does not allow false"
    assert json_spelled("the operation's name isn't 'x'") == "the operation's name isn't \"x\""
    assert json_spelled("'it\\'s' does not match '^\\\\d$'") == '"it\'s" does not match "^\\\\d$"'


def test_messages_write_values_as_json(make_corpus: MakeCorpus) -> None:
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "mode": {"enum": [True, False, None], "default": "sometimes"},
            "level": {"type": "string", "default": True},
            "nothing": {"const": None, "examples": [False]},
        },
        "additionalProperties": False,
        "examples": [{"mode": "yes", "level": None, "extra": True}],
    }
    root = make_corpus({"schemas/flags.schema.json": json.dumps(schema, indent=2)})
    findings = reported(root)
    said = " ".join(f["message"] for f in findings)
    assert "true is not of type" in said and "null was expected" in said
    assert "[true, false, null]" in said
    assert python_values(findings) == []


def test_no_python_value_in_a_message_of_the_bundled_corpus() -> None:
    findings = reported(REPOSITORY / "corpus")
    assert any("is not one of" in f["message"] for f in findings)
    assert python_values(findings) == []


# --- SARIF: rule help for the rules with results -------------------------------------------


def test_sarif_carries_rule_help_only_for_the_rules_with_results() -> None:
    finding = long_finding()
    document = json.loads(renderer("sarif")(make_report([finding])))
    assert not list(load_sarif_validator().iter_errors(document))
    rules = document["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted(RULES)  # every rule that ran is listed
    assert [r["id"] for r in rules if "help" in r] == ["enum-drift"]
    for rule in rules:
        assert len(rule["shortDescription"]["text"]) <= 1024
        assert len(rule["fullDescription"]["text"]) <= 1024


def test_a_sarif_log_of_one_finding_is_small_with_every_rule_listed(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"a.md": "# A\n\nSee [x](#nope).\n"})
    run = cli("check", str(root), "--no-cache", "--format", "sarif")
    document = json.loads(run.stdout)
    assert not list(load_sarif_validator().iter_errors(document))
    rules = document["runs"][0]["tool"]["driver"]["rules"]
    assert len(rules) == len(all_rules()) and len(document["runs"][0]["results"]) == 1
    helped = [r for r in rules if "help" in r]
    assert [r["id"] for r in helped] == ["broken-link"]
    # The rest of the log is bounded by what it says, not by every rule's documentation: a
    # descriptor without help is a few hundred bytes (its descriptions at most 1 KB each).
    size = len(run.stdout.encode())
    help_size = len(json.dumps(helped[0]["help"], indent=2).encode())
    assert size - help_size < 1_500 * len(rules) + 10_000, size


def test_a_rule_without_a_catalog_entry_still_gets_help() -> None:
    stray = Finding("zz-stray", Severity.WARNING, "odd", Location("schemas/a.json", 1, 1))
    rules = {**RULES, "zz-stray": RuleInfo("zz-stray", Severity.WARNING, "", "", lambda *_: ())}
    report = replace(make_report([stray]), rules=rules)
    driver = json.loads(renderer("sarif")(report))["runs"][0]["tool"]["driver"]
    assert [r["id"] for r in driver["rules"] if "help" in r] == ["zz-stray"]


# --- fingerprints stay what they were --------------------------------------------------------


def _fingerprint(rule: str, path: str, pointer: str, key: str) -> str:
    """A finding's fingerprint as SARIF and GitLab reports have carried it: the digest of its rule,
    file, pointer and key."""
    identity = "\x1f".join((rule, path, pointer, key))
    return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:32]


LONG_MEMBERS = [f"a-rather-long-member-of-the-enum-{n}" for n in range(12)]
_API = """\
openapi: 3.1.0
info: {title: Runs, version: 1.0.0}
paths:
  /runs:
    get:
      responses:
        '200': {content: {application/json: {schema: {type: object}}}}
components:
  schemas:
    Count: 5
"""
_EVENTS = """\
asyncapi: 3.0.0
info: {title: Events, version: 1.0.0, contact: spec-team@example.org}
"""


def test_a_finding_keeps_its_fingerprint_though_its_message_speaks_json() -> None:
    """Review of issue 44, item 13: the key of a finding of instance-invalid, schema-invalid,
    openapi-invalid and asyncapi-invalid held its message, which now writes values as JSON; so
    their fingerprints changed on upgrading, and code scanning and GitLab closed those findings
    and opened them again as new. The key holds the library's message as it was (a long one cut
    at 240 characters), while the message shown speaks JSON."""
    context = Context.from_texts(
        {
            "schemas/run.schema.json": schema(
                type="object",
                properties={
                    "mode": {"enum": ["a", "b"]},
                    "kind": {"enum": LONG_MEMBERS},
                    "modes": {"items": {"enum": ["a", "b"]}},
                },
            ),
            "schemas/filter.schema.json": schema(type="object", required="status"),
            "data/run.json": json.dumps(
                {
                    "$schema": "../schemas/run.schema.json",
                    "mode": "c",
                    "kind": "zz",
                    "modes": ["c", "d"],
                }
            ),
            "api/openapi.yaml": _API,
            "api/asyncapi.yaml": _EVENTS,
        }
    )
    long_message = f"'zz' is not one of {LONG_MEMBERS!r}"
    assert len(long_message) > 240
    expected = {
        ("instance-invalid", "data/run.json", "/mode"): (
            "'c' is not one of ['a', 'b'] (keyword `enum`)",
            '"c" is not one of ["a", "b"] (keyword `enum`)',
        ),
        ("instance-invalid", "data/run.json", "/kind"): (
            f"{long_message[:237]}... (keyword `enum`)",
            '"zz" is not one of ["a-rather-long-mem',
        ),
        ("schema-invalid", "schemas/filter.schema.json", "/required"): (
            "'status' is not of type 'array' (keyword `type`)",
            '"status" is not of type "array" (keyword `type`)',
        ),
        ("openapi-invalid", "api/openapi.yaml", "/paths/~1runs/get/responses/200"): (
            "'description' is a required property (keyword `required`)",
            '"description" is a required property (keyword `required`)',
        ),
        ("openapi-invalid", "api/openapi.yaml", "/components/schemas/Count"): (
            "5 is not of type 'object', 'boolean'",
            '5 is not of type "object", "boolean"',
        ),
        ("asyncapi-invalid", "api/asyncapi.yaml", "/info/contact"): (
            "'spec-team@example.org' is not of type 'object' (keyword `type`)",
            '"spec-team@example.org" is not of type "object" (keyword `type`)',
        ),
    }
    catalog = all_rules()
    found = {
        (f.rule, f.location.path, f.location.pointer or ""): f
        for rule in sorted({rule for rule, _, _ in expected})
        for f in catalog[rule].check(context, {})
    }
    for (rule, path, pointer), (_, shown) in expected.items():
        assert shown in found[rule, path, pointer].message
    changed = [
        (rule, pointer, found[rule, path, pointer].key)
        for (rule, path, pointer), (key, _) in expected.items()
        if found[rule, path, pointer].fingerprint
        != _fingerprint(rule, path, pointer, f"{pointer}:{key}")
    ]
    assert changed == []
    # Two values failing one way are one finding; each keeps its fingerprint where it stands
    # alone (a waiver at the other splits the group).
    grouped = found["instance-invalid", "data/run.json", "/modes/0"]
    assert [grouped.at(m).fingerprint for m in grouped.members] == [
        _fingerprint(
            "instance-invalid",
            "data/run.json",
            f"/modes/{n}",
            f"/modes/{n}:'{value}' is not one of ['a', 'b'] (keyword `enum`)",
        )
        for n, value in enumerate("cd")
    ]


# --- a shortened message survives the process pool and the caches (issue 44, review item 15) -----


def test_a_wording_keeps_its_short_form_through_pickle_and_copy() -> None:
    """The process pool sends results back pickled (speclint.common.parallel): a str subclass
    is rebuilt with ``__new__(cls, text)``, which has no short form to give."""
    import copy
    import pickle

    from speclint.common.findings import Wording

    wording = Wording(WHOLE, SHORT)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(wording, protocol))
        assert type(again) is Wording and again == WHOLE and again.shortened == SHORT
    for made in (copy.copy(wording), copy.deepcopy(wording)):
        assert type(made) is Wording and made.shortened == SHORT


def test_a_finding_given_wordings_holds_plain_strings_that_the_caches_store() -> None:
    """msgpack writes exact types only: a Wording kept in a note or a short form would make the
    rule cache refuse the rule's whole result, silently, on every run."""
    import pickle

    from speclint.common.findings import Wording
    from speclint.common.storage import dumps, loads

    finding = Finding(
        "enum-drift",
        Severity.WARNING,
        Wording(WHOLE, Wording(SHORT, "shorter")),
        Location("schemas/a.json", 6, 7),
        related=(Location("docs/guide.md", 2, 1, note=Wording("documents them", "them")),),
    )
    assert type(finding.shortened) is str and type(finding.related[0].note) is str
    for again in (loads(dumps([finding])), pickle.loads(pickle.dumps([finding]))):
        assert again == [finding]
        assert again[0].terminal_message == SHORT
