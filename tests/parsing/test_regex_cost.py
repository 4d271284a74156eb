"""Patterns the repository writes that cannot be compiled (issue 44, items 2 and 3): a repeat
count past what `re` and `regex` take, and counted repeats that `regex` copies into gigabytes.
Each is one finding at the pattern, is never compiled, and costs no other finding of any rule.

Every fixture is written here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import regex

from conftest import schema
from speclint.analyses.context import Context
from speclint.analyses.schemas import validation, witnesses
from speclint.common.findings import Finding
from speclint.model.config import ConfigError, config_from_table
from speclint.parsing.regex_cost import MAX_COUNT, MAX_ELEMENTS, compiled_elements, oversized
from speclint.run.catalog import all_rules

OVERFLOWING = "a{4294967296}"  # `regex` raises its error, `re` an OverflowError
EXPANDING = "(?:a{3000}){3000}"  # 30 bytes that `regex` compiled to 2.4 GB in 5.6 s


# --- the reading: what compiling a pattern would cost ----------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "refused"),
    [
        (OVERFLOWING, True),
        (EXPANDING, True),
        ("a{1000000}", True),
        ("(?:(?:a{100}){100}){100}", True),  # nested repeats multiply
        ("(?:ab|cd){100000}", True),  # each alternative is copied
        ("(?=a){2000000}", True),  # a lookahead is copied too
        ("[a]{5000000}", True),
        # Only the lower count is copied: a long upper bound costs nothing.
        ("a{0,4294967294}", False),
        ("a{1,10000000}", False),
        ("(?:a{1,3000}){1,3000}", False),
        ("(?:a{3000}){0,3000}", False),
        ("(?:a{300}){300}", False),  # 90,000 elements
        ("^[a-f0-9]{64}$", False),
        (r"^(\d{1,3}\.){3}\d{1,3}$", False),
        # A brace that is not a count, or sits in a class, an escape or a comment.
        (r"\{3000000\}", False),
        (r"[{]{3}|[a{3000000}]", False),
        (r"\p{L}{3}\x{100000}", False),
        ("(?#a{3000000})b", False),
        ("a{x}{e<=1}", False),
        # Verbose mode skips whitespace between an item and its count, and inside the count.
        ("(?:a{3000}) {3000}", False),  # a space repeated: 6,000 elements
        ("(?x)(?:a{3000}) {3000}", True),
        ("(?x)(?:a{300}){3 0 0 0}", True),
        ("(?x)(?:a{300}){3#comment\n000}", True),
        # A `)` that closes nothing (a class read otherwise) is not a way around the count.
        ("a)(?:b{3000}){3000}", True),
        ("(?V1)[[a](]a{3000}){3000}", True),
        # A count of more digits than Python converts is past the limit, not an error.
        ("a{" + "9" * 5000 + "}", True),
    ],
)
def test_a_pattern_is_refused_by_what_compiling_it_would_cost(pattern: str, refused: bool) -> None:
    assert (oversized(pattern) is not None) == refused, compiled_elements(pattern)


def test_what_is_written_is_not_held_against_a_pattern() -> None:
    """A long pattern with no repeats (a list of names) compiles in proportion to its length:
    only what repeats add counts against it."""
    names = "|".join(f"name{index}" for index in range(40_000))
    assert compiled_elements(names) > MAX_ELEMENTS
    assert oversized(f"^(?:{names})$") is None


def test_the_count_limit_is_the_engines_own() -> None:
    """`re` and `regex` both take counts up to 2^32 - 2 and refuse the next: said as such."""
    assert "past the 4,294,967,294" in (oversized(OVERFLOWING) or "")
    for engine in (regex, __import__("re")):
        engine.compile(f"a{{0,{MAX_COUNT}}}")
        with pytest.raises((OverflowError, regex.error, __import__("re").error)):
            engine.compile(f"a{{0,{MAX_COUNT + 1}}}")


def test_a_pattern_nested_ten_thousand_deep_is_read_without_recursion() -> None:
    deep = "(?:" * 10_000 + "a{2}" + "){2}" * 10_000
    assert oversized(deep) is not None  # 2^10,000, kept to a ceiling
    assert oversized("(" * 10_000 + "a" + ")" * 10_000) is None


def test_the_reading_takes_time_linear_in_the_pattern() -> None:
    """No scan of the reading runs past the next group (a comment, a named group, a call) or a
    short argument (`\\p{...}`): 300,000 unclosed comments were read in quadratic time. A hang
    guard in a child process (quadratic, these take hours), not a timing."""
    script = (
        "from speclint.parsing.regex_cost import oversized\n"
        "for piece in ('(?#', '\\\\p{', '(?P=', '(?<', '[[:', '{9,', '(?x)('):\n"
        "    oversized(piece * 300_000)\n"
        "print('read')"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "read", done.stderr


# --- one finding at the pattern, and every other finding kept ---------------------------------------


def _api(pattern: str) -> str:
    """An OpenAPI document with the pattern in one request body and a wrong example in another."""
    return f"""\
openapi: 3.1.0
info: {{title: Names, version: 1.0.0}}
paths:
  /names:
    post:
      requestBody:
        content:
          application/json:
            schema: {{type: string, pattern: {json.dumps(pattern)}}}
            example: abc
      responses:
        '204': {{description: stored}}
  /counts:
    post:
      requestBody:
        content:
          application/json:
            schema: {{type: integer}}
            example: not-a-count
      responses:
        '204': {{description: stored}}
"""


def _asyncapi(pattern: str) -> str:
    return f"""\
asyncapi: 3.0.0
info: {{title: Events, version: 1.0.0}}
components:
  schemas:
    Name: {{type: string, pattern: {json.dumps(pattern)}}}
"""


def _corpus(pattern: str) -> Context:
    return Context.from_texts(
        {
            # The pattern as a `pattern` and as a `patternProperties` key, and a wrong example.
            "schemas/named.schema.json": schema(
                type="object",
                properties={
                    "name": {"type": "string", "pattern": pattern},
                    "n": {"type": "integer"},
                },
                patternProperties={pattern: {"type": "string"}},
                required=["name", "other"],
                examples=[{"name": "abc", "n": "not-a-count", "abc": 1}],
            ),
            # Another file with defects of its own.
            "schemas/other.schema.json": schema(
                type="object",
                properties={"n": {"type": "integer", "default": "x"}},
                examples=[{"n": "not-a-count"}],
            ),
            "data/named.json": json.dumps(
                {"$schema": "../schemas/named.schema.json", "name": "abc", "n": "not-a-count"}
            ),
            "data/other.json": json.dumps(
                {"$schema": "../schemas/other.schema.json", "n": "not-a-count"}
            ),
            "api/openapi.yaml": _api(pattern),
            "api/asyncapi.yaml": _asyncapi(pattern),
        }
    )


RULES = (
    "schema-invalid",
    "openapi-invalid",
    "asyncapi-invalid",
    "example-invalid",
    "instance-invalid",
    "value-invalid",
    "duplicate-item",
    "required-undeclared",
)


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The patterns handed to `regex` to compile (directly, or as a string to search with); the
    refused ones raise MemoryError, as compiling the expanding one would have run out of memory
    on a smaller machine (here it is not left to take 2.4 GB)."""
    seen: list[str] = []
    real_compile, real_search = regex.compile, regex.search

    def watched(pattern: Any) -> None:
        if isinstance(pattern, str):
            seen.append(pattern)
            if pattern in (OVERFLOWING, EXPANDING):
                raise MemoryError(f"{pattern} compiled")

    def compile_(pattern: Any, *args: Any, **kwargs: Any) -> Any:
        watched(pattern)
        return real_compile(pattern, *args, **kwargs)

    def search(pattern: Any, *args: Any, **kwargs: Any) -> Any:
        watched(pattern)
        return real_search(pattern, *args, **kwargs)

    monkeypatch.setattr(regex, "compile", compile_)
    monkeypatch.setattr(regex, "search", search)
    yield seen


def _findings(context: Context) -> list[Finding]:
    catalog = all_rules()
    return [finding for rule in RULES for finding in catalog[rule].check(context, {})]


@pytest.mark.parametrize("pattern", [OVERFLOWING, EXPANDING])
def test_a_pattern_that_cannot_be_compiled_is_one_finding_and_nothing_is_lost(
    pattern: str, compiled: list[str]
) -> None:
    found = _findings(_corpus(pattern))
    at = {(f.rule, f.location.path, f.location.pointer) for f in found}
    refused = [f for f in found if f.key.endswith(":oversized-pattern")]
    # One finding per place the pattern is written, at that place, by the rule that judges
    # the document's schemas.
    assert sorted((f.rule, f.location.path, f.location.pointer) for f in refused) == [
        ("asyncapi-invalid", "api/asyncapi.yaml", "/components/schemas/Name/pattern"),
        (
            "openapi-invalid",
            "api/openapi.yaml",
            "/paths/~1names/post/requestBody/content/application~1json/schema/pattern",
        ),
        ("schema-invalid", "schemas/named.schema.json", "/patternProperties/" + pattern),
        ("schema-invalid", "schemas/named.schema.json", "/properties/name/pattern"),
    ], refused
    for finding in refused:
        assert f"pattern {json.dumps(pattern)} cannot be compiled" in finding.message
        assert finding.location.line > 1
    # Every other finding of the rules that judge values, in the same files and the others.
    assert {
        ("example-invalid", "schemas/named.schema.json", "/examples/0"),
        ("example-invalid", "schemas/other.schema.json", "/examples/0"),
        (
            "example-invalid",
            "api/openapi.yaml",
            "/paths/~1counts/post/requestBody/content/application~1json/example",
        ),
        ("instance-invalid", "data/named.json", "/n"),
        ("instance-invalid", "data/other.json", "/n"),
        ("value-invalid", "schemas/other.schema.json", "/properties/n/default"),
    } <= at, sorted(at)
    # The values are not judged against it, on a guess either way: `abc` is not called a
    # mismatch, and the `abc` key is not held to the subschema of the key pattern.
    named = [f for f in found if f.location.path == "schemas/named.schema.json"]
    assert not [f for f in named if "does not match" in f.message or "abc" in f.message], named
    # Never handed to `regex` (nor to `re`: `regex.compile` is the first to see a pattern).
    assert pattern not in compiled


def test_a_pattern_that_cannot_be_compiled_gets_no_generated_witness(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hypothesis builds the strings a pattern's counts ask for: nine-million-character ones,
    for minutes, for the expanding pattern. Such a schema is not generated from, and the
    witness built by hand passes over the pattern (`re` raised OverflowError there)."""
    asked: list[Any] = []

    def from_schema(schema: Any, **kwargs: Any) -> Any:
        asked.append(schema)
        raise NotImplementedError("no generation in this test")

    import hypothesis_jsonschema

    monkeypatch.setattr(hypothesis_jsonschema, "from_schema", from_schema)
    for pattern in (OVERFLOWING, EXPANDING):
        node = {"type": "object", "properties": {"a": {"type": "string", "pattern": pattern}}}
        assert witnesses.generate(node) == []
        assert witnesses.minimal({**node, "required": ["a"]}) is witnesses._NONE
    # Nor one whose repeats ask for long strings: 25 of `^[a-z]{2000}$` took Hypothesis 55 s.
    assert witnesses.generate({"type": "string", "pattern": "^[a-z]{2000}$"}) == []
    assert asked == []
    witnesses.generate({"type": "string", "pattern": "^[a-f0-9]{64}$"})
    witnesses.generate({"type": "string", "pattern": "^(?:" + "|".join(["word"] * 500) + ")$"})
    assert len(asked) == 2  # others are generated from as before


def test_a_configured_versions_pattern_that_cannot_be_compiled_is_a_configuration_error() -> None:
    with pytest.raises(ConfigError, match="`versions` is too large to compile"):
        config_from_table({"versions": OVERFLOWING}, "speclint.toml")


# --- what compiling costs the process ---------------------------------------------------------------


@pytest.fixture
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(validation, "_COMPILED", {})
    monkeypatch.setattr(validation, "_CACHE_SIZE", [0])
    monkeypatch.setattr(validation, "_COMPILING", [0.0])
    monkeypatch.setattr(validation, "_UNCOMPILED", set())


@pytest.fixture
def each_compile_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that advances one second at each reading: each compile is charged one second,
    whatever it really takes (the budget is counted here, not timed)."""
    ticks = iter(range(10**9))
    monkeypatch.setattr(validation, "_clock", lambda: float(next(ticks)))


@pytest.mark.usefixtures("fresh_cache")
def test_compiled_patterns_are_kept_within_a_bounded_size(compiled: list[str]) -> None:
    """`regex` keeps 500 compiled patterns whatever their size (40 of 100,000 elements held
    580 MB); here they are kept within CACHED_BYTES, and each is compiled once while kept."""
    large = [f"b{index}a{{90000}}" for index in range(6)]  # about 10 MB each
    for pattern in large:
        assert validation.search(pattern, "xyz") is False
    assert validation._CACHE_SIZE[0] <= validation.CACHED_BYTES
    assert len(validation._COMPILED) < len(large)
    compiled.clear()
    for _ in range(3):
        assert validation.search("^ab+$", "abbb") is True
    assert compiled == ["^ab+$"]


def _alternation(number: int) -> str:
    """A pattern of 400 names, about 7,600 elements and 0.1 MB compiled, as a list of time zones
    writes it."""
    return "^(?:" + "|".join(f"zone{number}_{index:03d}/City_Name" for index in range(400)) + ")$"


@pytest.mark.usefixtures("fresh_cache")
def test_patterns_used_in_turn_are_compiled_once(compiled: list[str]) -> None:
    """Review of issue 44, items 2 and 3: 30 alternations of 7,602 elements used in turn by 600
    schemas were compiled again for each one, as a cache of 200,000 elements let them go (and
    each compile was charged to the budget, which ran out: 60 examples not judged). Kept by the
    memory they hold, least recently used first, they are compiled once each."""
    patterns = [_alternation(number) for number in range(30)]
    assert sum(compiled_elements(p) for p in patterns) > 200_000
    judged = [validation.search(p, "zone0_000/Town_Name") for _ in range(3) for p in patterns]
    assert judged == [False] * 90
    assert len(compiled) == 30


@pytest.mark.usefixtures("fresh_cache")
def test_ordinary_patterns_do_not_spend_the_compile_budget(compiled: list[str]) -> None:
    """Review of issue 44, items 2 and 3: 500 schemas with a pattern each of the shape
    `^k0[a-z]{5000}$` (5,004 elements, half a millisecond to compile) spent a budget of 2 million
    elements, and the values of the last 101 were not judged, silently. The budget is of the
    time compiling takes, which these never come near: every value is judged."""
    patterns = [f"^k{index}[a-z]{{5000}}$" for index in range(450)]
    assert sum(compiled_elements(p) for p in patterns) > 2_000_000
    assert [validation.search(p, "abc") for p in patterns] == [False] * 450
    assert len(compiled) == 450
    assert not validation._UNCOMPILED


@pytest.mark.usefixtures("fresh_cache", "each_compile_a_second")
def test_large_patterns_have_a_compile_budget(
    monkeypatch: pytest.MonkeyPatch, compiled: list[str]
) -> None:
    """Hundreds of distinct patterns just under the bound (up to 0.05 s each) in a small file
    would take a rule's time box: past COMPILE_BUDGET seconds of compiling, a large pattern (more
    elements than LARGE_PATTERN and than its length) is not compiled, and its values are not
    judged; one that costs about its length still is, and so is one compiled before."""
    monkeypatch.setattr(validation, "COMPILE_BUDGET", 2.0)
    judged = [validation.search(f"c{index}a{{20000}}", "xyz") for index in range(4)]
    assert judged == [False, False, True, True]  # not judged: no mismatch on a guess
    assert [p for p in compiled if p.startswith("c")] == ["c0a{20000}", "c1a{20000}"]
    assert validation.compiled_pattern("c9a{20000}") is None
    assert validation.left_uncompiled("c9a{20000}")
    assert validation.search("c0a{20000}", "xyz") is False  # kept compiled
    assert validation.search("^ab$", "ab") is True
    assert validation.search("^ab$", "abc") is False
    names = "^(?:" + "|".join(f"name{index}" for index in range(300)) + ")$"
    assert validation.search(names, "name7") is True  # about its length: compiled
    assert not validation.left_uncompiled(names)


@pytest.mark.usefixtures("fresh_cache", "each_compile_a_second")
def test_a_pattern_compiled_again_is_charged_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the budget bounds is the time compiling takes: a pattern the cache let go and
    compiled again costs that time again (five near-bound patterns used in turn by the values
    of a 10 KB file would otherwise be compiled without end)."""
    monkeypatch.setattr(validation, "CACHED_PATTERNS", 1)
    for pattern in ("d0a{20000}", "d1a{20000}", "d0a{20000}"):
        validation.search(pattern, "xyz")
    assert validation._COMPILING[0] == 3.0


def _budget_corpus() -> Context:
    """A schema whose two examples fail a large pattern, and one with a large pattern as a
    `patternProperties` key; a data file against each."""
    return Context.from_texts(
        {
            "schemas/named.schema.json": schema(
                type="object",
                properties={"name": {"type": "string", "pattern": "^n[a-z]{5000}$"}},
                examples=[{"name": "abc"}, {"name": "abd"}],
            ),
            "schemas/keyed.schema.json": schema(
                type="object", patternProperties={"^k[a-z]{5000}$": {"type": "integer"}}
            ),
            "data/named.json": json.dumps(
                {"$schema": "../schemas/named.schema.json", "name": "abc"}
            ),
            "data/keyed.json": json.dumps({"$schema": "../schemas/keyed.schema.json", "kab": 1}),
        }
    )


@pytest.mark.usefixtures("fresh_cache")
def test_a_value_the_compile_budget_leaves_unjudged_is_said_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Review of issue 44, items 2 and 3: a value left unjudged because the budget was spent
    passed in silence. It is said, once per file and pattern, among what the run did not check
    (coverage, not an error: the value may be valid, and no edit of the data makes it judged)."""
    monkeypatch.setattr(validation, "COMPILE_BUDGET", 0.0)
    catalog = all_rules()
    context = _budget_corpus()
    [example] = catalog["example-invalid"].check(context, {})
    assert example.coverage == "pattern-not-compiled"
    assert example.location.path == "schemas/named.schema.json"
    assert 'the value "abc" is not judged against pattern "^n[a-z]{5000}$"' in example.message
    assert "nor are this file's other values" in example.message
    assert "compiling it was left out" in example.message
    keyed, named = sorted(
        catalog["instance-invalid"].check(context, {}), key=lambda f: f.location.path
    )
    assert (keyed.location.path, named.location.path) == ("data/keyed.json", "data/named.json")
    assert {keyed.coverage, named.coverage} == {"pattern-not-compiled"}
    assert 'the value "abc" is not judged against pattern "^n[a-z]{5000}$"' in named.message
    assert 'the names of its members are not judged against pattern "^k' in keyed.message


@pytest.mark.usefixtures("fresh_cache", "each_compile_a_second")
def test_a_file_spends_its_own_compile_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file checked alone gives what it gives in a full run: the budget a document's values
    may spend compiling is its own, not what the process has left after the others (a file's
    result is cached by itself, and the run's order is no input)."""
    monkeypatch.setattr(validation, "COMPILE_BUDGET", 2.0)
    spender = schema(
        type="object",
        properties={
            f"p{index}": {"type": "string", "pattern": f"^p{index}[a-z]{{5000}}$"}
            for index in range(3)
        },
    )
    files = {
        "schemas/many.schema.json": spender,
        "data/many.json": json.dumps(
            {"$schema": "../schemas/many.schema.json", "p0": "a", "p1": "b", "p2": "c"}
        ),
        "schemas/one.schema.json": schema(
            type="object", properties={"name": {"type": "string", "pattern": "^n[a-z]{5000}$"}}
        ),
        "data/one.json": json.dumps({"$schema": "../schemas/one.schema.json", "name": "abc"}),
    }
    rule = all_rules()["instance-invalid"]
    context = Context.from_texts(files)
    everything = {(f.location.path, f.coverage, f.message) for f in rule.check(context, {})}
    monkeypatch.setattr(validation, "_COMPILED", {})
    monkeypatch.setattr(validation, "_COMPILING", [0.0])
    alone = Context.from_texts({k: v for k, v in files.items() if "one" in k})
    by_itself = {(f.location.path, f.coverage, f.message) for f in rule.check(alone, {})}
    assert {f for f in everything if f[0] == "data/one.json"} == by_itself
    # The pattern of `one` is compiled and judged: an error, not a note; `many` spent its own.
    assert [bool(coverage) for _, coverage, _ in by_itself] == [False]
    assert any(f[0] == "data/many.json" and f[1] == "pattern-not-compiled" for f in everything)


def test_the_bound_is_what_regex_copies(compiled: list[str]) -> None:
    """The reading agrees with `regex` where it is cheap to ask: patterns under the bound
    compile, and the ones a `{3000}` of a `{3000}` stands for are refused before it."""
    for pattern in ("(?:a{300}){300}", "a{1,10000000}", "(?:a{3000}){0,3000}"):
        assert validation.compiled_pattern(pattern) is not None, pattern
    assert validation.compiled_pattern(EXPANDING) is None
