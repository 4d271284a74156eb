"""pattern-portability: schema patterns ECMA-262's unicode mode refuses, and how to write them."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import regress

from conftest import run_rule
from speclint.common.findings import Severity
from speclint.parsing.ecma_patterns import portability, unreadable
from speclint.run import preview

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_file(**body: Any) -> dict[str, str | bytes]:
    return {"schemas/slug.schema.json": json.dumps({"$schema": DIALECT, **body}, indent=2)}


def api(version: str, schemas: str) -> str:
    body = textwrap.indent(textwrap.dedent(schemas), "    ")
    return (
        f"openapi: {version}\ninfo: {{title: Runs, version: 1.0.0}}\npaths: {{}}\n"
        f"components:\n  schemas:\n{body}"
    )


def found(root: Path) -> list[tuple[str | None, str]]:
    return [(f.location.pointer, f.message) for f in run_rule(root, "pattern-portability")]


def refused(root: Path, rule: str) -> list[tuple[str | None, int, str]]:
    """The patterns no engine reads that ``rule`` reports: (pointer, line, message)."""
    return [
        (f.location.pointer, f.location.line, f.message)
        for f in run_rule(root, rule)
        if f.key.endswith(":unreadable-pattern")
    ]


# --- the docstring's example --------------------------------------------------------------------


def test_the_docstring_example_fails_with_its_rewrite(make_corpus: MakeCorpus) -> None:
    root = make_corpus(schema_file(type="string", pattern=r"^[a-z]+\-[0-9]+$"))
    [(pointer, message)] = found(root)
    assert pointer == "/pattern"
    assert "`\\-` outside a character class" in message
    assert 'write "^[a-z]+-[0-9]+$" (the same in Python and ECMA-262)' in message


def test_the_docstring_fix_passes(make_corpus: MakeCorpus) -> None:
    root = make_corpus(schema_file(type="string", pattern="^[a-z]+-[0-9]+$"))
    assert found(root) == []


def test_the_rule_runs_by_default_as_its_labels_prove_it() -> None:
    # 29 labelled findings of the ecosystem check, 28 true (22 read at first sight): over the
    # bar, so the module declares no preview and the default set runs it.
    assert preview.why_preview("pattern-portability") == ""


# --- where patterns are --------------------------------------------------------------------------


def test_a_pattern_in_an_openapi_schema_object(make_corpus: MakeCorpus) -> None:
    doc = api("3.1.0", r"Tag: {type: string, pattern: '^#\#[a-z]+$'}")
    [(pointer, message)] = found(make_corpus({"api/openapi.yaml": doc}))
    assert pointer == "/components/schemas/Tag/pattern"
    assert 'write "^##[a-z]+$"' in message


def test_a_patternproperties_key_is_reported_at_the_key(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        schema_file(type="object", patternProperties={r"^x\-": {"type": "string"}, "^y-": {}})
    )
    [(pointer, message)] = found(root)
    assert pointer == "/patternProperties/^x\\-"
    assert 'write "^x-"' in message


def test_a_pattern_inside_defs(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        schema_file(**{"$defs": {"Lang": {"type": "string", "pattern": "^[a-z]]?$"}}})
    )
    [(pointer, message)] = found(root)
    assert pointer == "/$defs/Lang/pattern"
    assert "`]` alone outside a character class" in message and r'write "^[a-z]\\]?$"' in message


def test_a_property_named_pattern_is_no_keyword(make_corpus: MakeCorpus) -> None:
    # `properties: {pattern: ...}` declares a member called "pattern": its value is a schema.
    root = make_corpus(
        schema_file(
            type="object",
            properties={"pattern": {"type": "string", "enum": [r"a\-b"]}},
        )
    )
    assert found(root) == []


def test_a_data_file_member_called_pattern_is_not_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"examples/indicator.json": json.dumps({"pattern": r"[a:b = 'x\-']"})})
    assert found(root) == []


# --- what is the other rules' -------------------------------------------------------------------


def test_a_pattern_no_engine_reads_is_left_to_openapi_invalid(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": api("3.1.0", "Name: {type: string, pattern: '^a(b$'}")})
    assert found(root) == []
    [invalid] = run_rule(root, "openapi-invalid")
    assert invalid.location.pointer == "/components/schemas/Name/pattern"


def test_python_only_syntax_in_openapi_3_is_openapi_invalid_s(make_corpus: MakeCorpus) -> None:
    # openapi-invalid judges `format: regex` with regress without `u`: `(?i)` fails there.
    root = make_corpus({"api/openapi.yaml": api("3.0.3", "Name: {type: string, pattern: '(?i)x'}")})
    assert found(root) == []
    assert [f.location.pointer for f in run_rule(root, "openapi-invalid")] == [
        "/components/schemas/Name/pattern"
    ]


def test_python_only_syntax_in_a_schema_file_is_reported(make_corpus: MakeCorpus) -> None:
    [(_, message)] = found(make_corpus(schema_file(type="string", pattern="(?i)^abc$")))
    assert "read by no ECMA-262 engine" in message and "spell the cases out" in message


def test_ecma_only_syntax_is_portable(make_corpus: MakeCorpus) -> None:
    # Valid ECMA-262 in unicode mode though Python refuses it: portable as JSON Schema means it.
    assert found(make_corpus(schema_file(type="string", pattern=r"^\p{L}+$"))) == []


def test_an_oversized_pattern_is_schema_invalid_s(make_corpus: MakeCorpus) -> None:
    assert found(make_corpus(schema_file(type="string", pattern=r"\-a{4294967296}"))) == []


# --- the wording: unicode mode only, Python only, legacy only -------------------------------------


def test_legacy_only_syntax_says_python_refuses_it_too(make_corpus: MakeCorpus) -> None:
    [(_, message)] = found(make_corpus(schema_file(type="string", pattern=r"^a\z")))
    assert "only ECMA-262 without the `u` flag (Annex B) reads it" in message
    assert "write `z` if the letter is meant" in message


def test_an_anchor_gets_its_equivalent_not_a_letter(make_corpus: MakeCorpus) -> None:
    [(_, message)] = found(make_corpus(schema_file(type="string", pattern=r"\A[a-z]+\Z")))
    assert "without the `u` flag it is the letter `A`" in message
    assert r'write "^[a-z]+(?![\\s\\S])"' in message


def test_a_long_pattern_gets_the_construct_s_fix(make_corpus: MakeCorpus) -> None:
    pattern = "^(" + "|".join(f"w{i}" for i in range(40)) + r")\#[a-z]+\#$"
    [(_, message)] = found(make_corpus(schema_file(type="string", pattern=pattern)))
    assert "write `#` without the backslash, and alike for the 1 others" in message


# --- the rewrite keeps the meaning ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "portable"),
    [
        (r"^a\-b$", "^a-b$"),
        (r"^[\w\#]+$", r"^[\w#]+$"),
        ("]?", r"\]?"),
        ("[]a]", r"[\]a]"),
        ("a{", r"a\{"),
        ("a}", r"a\}"),
        ("x{,3}", "x{0,3}"),
        (r"\08", r"\x008"),
        (r"[\1]", r"[\x01]"),
        (r"\101", r"\x41"),
        (r"\a", r"\x07"),
        ("(?P<n>a)b", "(a)b"),
        ("a(?#note)b", "ab"),
        (r"\N{EM DASH}", r"\u2014"),
    ],
)
def test_each_rewrite_means_the_same_in_python_and_ecma_262(pattern: str, portable: str) -> None:
    found = portability(pattern)
    assert found is not None and found.portable == portable
    regress.Regex(portable, flags="u")  # accepted in unicode mode
    for text in ("a-b", "a]", "]", "a{", "a}", "xxx", "\x008", "\x01", "A", "\x07", "ab", "—", ""):
        ecma = regress.Regex(portable, flags="u").find(text) is not None
        assert bool(re.search(pattern, text)) == bool(re.search(portable, text)) == ecma, text


@pytest.mark.parametrize("pattern", ["(?P<n>a)(?P=n)", "a++", "(?>a)", r"(?i)a\-"])
def test_no_rewrite_where_no_spelling_keeps_the_meaning(pattern: str) -> None:
    found = portability(pattern)
    assert found is not None and found.portable is None and found.fix


@pytest.mark.parametrize("pattern", [r"[\-\w]", r"\/\.", r"(?<n>a)\k<n>", r"\u{1F600}", "a{2,3}"])
def test_unicode_mode_patterns_are_not_reported(pattern: str) -> None:
    assert portability(pattern) is None


# --- a pattern no engine reads: the finding of the rule that judges the document's schemas ------
# Python's `re` and ECMA-262 with and without `u` refuse it; the metaschemas' `format: "regex"`,
# which check-jsonschema asserts, is not asserted by schema-invalid's metaschema check.


def test_a_pattern_no_engine_reads_in_a_schema_file_is_one_schema_invalid_error(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(schema_file(type="object", properties={"id": {"pattern": "^a(b$"}}))
    [finding] = run_rule(root, "schema-invalid")
    assert finding.severity is Severity.ERROR
    assert finding.location.pointer == "/properties/id/pattern"
    assert finding.location.line == 6  # the line `"pattern": "^a(b$"` is written on
    assert "missing ), unterminated subpattern at position 2" in finding.message
    assert "close the group with `)`, or write `\\(` for a literal `(`" in finding.message
    assert found(root) == []  # not pattern-portability's too


def test_a_patternproperties_key_no_engine_reads_is_reported_at_the_key(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(schema_file(type="object", patternProperties={"^a(b$": {}, "^c-": {}}))
    [(pointer, line, message)] = refused(root, "schema-invalid")
    assert (pointer, line) == ("/patternProperties/^a(b$", 5)
    assert 'pattern "^a(b$" is read by no engine' in message
    assert found(root) == []


def test_a_draft_07_schema_file(make_corpus: MakeCorpus) -> None:
    body = {"$schema": "http://json-schema.org/draft-07/schema#", "pattern": "[z-a]"}
    root = make_corpus({"schemas/range.schema.json": json.dumps(body, indent=2)})
    [(pointer, _, message)] = refused(root, "schema-invalid")
    assert pointer == "/pattern"
    assert "bad character range z-a at position 1" in message
    assert "write the range low to high" in message


def test_asyncapi_invalid_reports_a_payload_pattern_no_engine_reads_at_the_pattern(
    make_corpus: MakeCorpus,
) -> None:
    doc = (
        "asyncapi: 2.6.0\ninfo: {title: Runs, version: 1.0.0}\nchannels:\n  runs:\n"
        "    publish:\n      message:\n        payload: {type: string, pattern: '^a(b$'}\n"
    )
    root = make_corpus({"api/asyncapi.yaml": doc})
    [(pointer, line, _)] = refused(root, "asyncapi-invalid")
    assert (pointer, line) == ("/channels/runs/publish/message/payload/pattern", 7)
    assert found(root) == []


def test_a_swagger_2_schema_is_openapi_invalid_s(make_corpus: MakeCorpus) -> None:
    # Swagger 2.0's validator does not assert `format: regex`, as OpenAPI 3's does.
    doc = (
        "swagger: '2.0'\ninfo: {title: Runs, version: 1.0.0}\npaths: {}\n"
        "definitions:\n  Name: {type: string, pattern: 'a**'}\n"
    )
    root = make_corpus({"api/swagger.yaml": doc})
    [(pointer, _, message)] = refused(root, "openapi-invalid")
    assert pointer == "/definitions/Name/pattern"
    assert "multiple repeat at position 2" in message


def test_an_openapi_3_pattern_no_engine_reads_is_reported_once(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": api("3.1.0", "Name: {type: string, pattern: '^a(b$'}")})
    [invalid] = run_rule(root, "openapi-invalid")
    assert 'is not a "regex"' in invalid.message  # the validator's own error, not ours too


def test_an_openapi_3_0_schema_file_keeps_its_validator_s_error_alone(
    make_corpus: MakeCorpus,
) -> None:
    # Judged as the OpenAPI 3.0 Schema Object it is, by a validator that asserts the format.
    root = make_corpus(
        {
            "api/openapi.yaml": api("3.0.3", "Name: {$ref: '../schemas/name.yaml'}"),
            "schemas/name.yaml": "type: string\npattern: '^a(b$'\n",
        }
    )
    [invalid] = run_rule(root, "schema-invalid")
    assert invalid.location.pointer == "/pattern" and 'is not a "regex"' in invalid.message


def test_a_valid_pattern_is_no_finding(make_corpus: MakeCorpus) -> None:
    root = make_corpus(schema_file(type="string", pattern=r"^\p{L}[a-z(]*\($"))
    assert run_rule(root, "schema-invalid") == [] and found(root) == []


def test_a_non_portable_pattern_is_only_pattern_portability_s(make_corpus: MakeCorpus) -> None:
    root = make_corpus(schema_file(type="string", pattern=r"^a\-b$"))
    assert run_rule(root, "schema-invalid") == []
    [(pointer, _)] = found(root)
    assert pointer == "/pattern"


@pytest.mark.parametrize(
    ("pattern", "fix"),
    [
        ("a)", "delete the `)` that closes no group"),
        ("[a-", "close the class with `]`"),
        ("*a", "write `\\` before a quantifier"),
        ("a{3,1}", "write the smaller count first"),
        ("a\\", "for a literal backslash at the end"),
        ("**/*.md", "a glob such as `*.md` is no regular expression"),
        ("^(?i)a$", "JSON Schema patterns take no flags"),
        ("(?<a>x)(?<a>y)", "2020-12 Validation §6.3.3"),
    ],
)
def test_each_error_gets_its_fix(pattern: str, fix: str) -> None:
    found = unreadable(pattern)
    assert found is not None and fix in found.fix and found.python and found.ecma


@pytest.mark.parametrize("pattern", [r"\p{L}", r"^a\-b$", "(?i)x", r"\p{Foo}", "a{4294967296}"])
def test_a_pattern_some_engine_reads_or_none_compiles_is_not_unreadable(pattern: str) -> None:
    # Unicode mode, Python, ECMA-262 without `u` read the first four; the last is oversized.
    assert unreadable(pattern) is None
