"""Issue 25, items 7, 10 and 16: a catastrophic pattern costs its time once, not once per value;
discovery skips installed environments and says so; a JSON parse error names the actual fault.

Every fixture here is written for the test (the virtual environment is made by `python -m venv`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import regex
from test_cli import cli

from conftest import BUNDLED_CORPUS, schema, write_files
from speclint.analyses.context import Context
from speclint.analyses.schemas import validation
from speclint.parsing.structured import ParseFailure, parse_json
from speclint.run.runner import run_rules, select_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

NO_FORK = pytest.mark.skipif(
    "fork" not in __import__("multiprocessing").get_all_start_methods(),
    reason="the time box kills a forked child; this platform cannot fork",
)

# --- item 7: one catastrophic pattern does not time-box the rule ---------------------------------

SLOW = {"type": "string", "pattern": "(a+)+$"}
LONG = "a" * 5000 + "!"  # `(a+)+$` backtracks exponentially on it: every search times out
BOX = 5.0  # the rule's time box here; unbounded, the slow values alone take 32 x 0.25 s


def _slow_corpus() -> Context:
    return Context.from_texts(
        {
            # 16 values against the pattern in one schema, and a wrong type after them.
            "schemas/many.schema.json": schema(
                type="object",
                properties={"name": SLOW},
                examples=[{"name": LONG}] * 16 + [{"name": 5}],
            ),
            # The same pattern in 16 more schemas, one value each.
            **{
                f"schemas/one-{index:02}.schema.json": schema(
                    type="object", properties={"name": SLOW}, examples=[{"name": LONG}]
                )
                for index in range(16)
            },
            "schemas/zz-other.schema.json": schema(
                type="object", properties={"n": {"type": "integer"}}, examples=[{"n": "x"}]
            ),
        }
    )


def full_limit_searches(monkeypatch: pytest.MonkeyPatch, log: Path) -> Callable[[], list[float]]:
    """The time limits `validation.search` passes to `regex`, as searches run (in this process
    or a rule worker forked from it: each appends a line to ``log``); the count of full-limit
    searches bounds the time spent whatever the machine's load."""
    real = regex.search

    def recording(pattern: str, text: str, timeout: float | None = None) -> object:
        with log.open("a", encoding="utf-8") as out:
            out.write(f"{timeout or 0.0}\n")
        return real(pattern, text, timeout=timeout)

    monkeypatch.setattr(regex, "search", recording)
    return lambda: [float(line) for line in log.read_text().split()] if log.exists() else []


@NO_FORK
def test_a_catastrophic_pattern_does_not_time_box_example_invalid(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    corpus = _slow_corpus()
    recorded = full_limit_searches(monkeypatch, tmp_path / "limits")
    started = time.monotonic()
    result = run_rules(corpus, select_rules(corpus, ["example-invalid"]), jobs=1, time_box=BOX)
    elapsed = time.monotonic() - started
    limits = recorded()
    assert not [f for f in result.findings if f.rule == "internal-error"], result.findings
    # At most one full-limit search per document (17), not one per slow value (32): bounded by
    # the mechanism, not by how busy the machine is. The wall clock only catches a hang.
    assert limits, "every search is recorded, in the worker too"
    assert sum(limit == validation.PATTERN_TIMEOUT for limit in limits) <= 17, limits
    assert elapsed < BOX * 4, elapsed
    at = {(f.location.path, f.key) for f in result.findings}
    # The unrelated defects, before and after the slow values, are there.
    assert ("schemas/zz-other.schema.json", "/examples/0") in at
    assert ("schemas/many.schema.json", "/examples/16") in at
    # One finding for the pattern in the schema with 16 slow values: at the first one.
    many = [f for f in result.findings if f.location.path == "schemas/many.schema.json"]
    slow = [f for f in many if "catastrophic backtracking" in f.message]
    assert [f.key for f in slow] == ["/examples/0"], many
    assert "not judged against it again" in slow[0].message
    # Each of the other schemas says it too (each file's findings stand alone in the cache).
    for index in range(16):
        [one] = [
            f for f in result.findings if f.location.path == f"schemas/one-{index:02}.schema.json"
        ]
        assert "catastrophic backtracking" in one.message


OPENAPI_30 = """\
openapi: 3.0.3
info: {title: Names, version: 1.0.0}
paths:
  /names:
    post:
      requestBody:
        content:
          application/json:
            schema: {type: string, pattern: '^(a|a)*$'}
            example: EXAMPLE
      responses:
        '204': {description: stored}
""".replace("EXAMPLE", json.dumps("a" * 40 + "!"))


@NO_FORK
def test_patterns_are_bounded_where_jsonschema_and_openapi_3_0_search_them() -> None:
    """`additionalProperties` finds the keys `patternProperties` covers with its own bare
    `re.search`, and OpenAPI 3.0's dialect searches `pattern` with `regress`: both backtrack
    without a limit (2^40 steps here)."""
    corpus = Context.from_texts(
        {
            "api/openapi.yaml": OPENAPI_30,
            "schemas/keys.schema.json": schema(
                type="object",
                patternProperties={"^(a|a)*$": {}},
                additionalProperties=False,
                examples=[{"a" * 40 + "!": 1}],
            ),
        }
    )
    result = run_rules(corpus, select_rules(corpus, ["example-invalid"]), jobs=1, time_box=BOX)
    assert not [f for f in result.findings if f.rule == "internal-error"], result.findings
    by_path = {f.location.path: f.message for f in result.findings}
    assert "catastrophic backtracking" in by_path["api/openapi.yaml"], by_path
    # The key is reported for the pattern, not called an extra property on a guess.
    assert "catastrophic backtracking" in by_path["schemas/keys.schema.json"], by_path
    assert "additional" not in by_path["schemas/keys.schema.json"].lower(), by_path


def test_patterns_that_time_out_have_a_budget(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Many different slow patterns: after the budget of time spent on timeouts, each further
    search has a short limit, so their total time is bounded too."""
    monkeypatch.setattr(validation, "PATTERN_BUDGET", 1.0)
    monkeypatch.setattr(validation, "_SLOW", set())
    monkeypatch.setattr(validation, "_SPENT", [0.0])
    patterns = [f"(?:x{index})?(a+)+$" for index in range(40)]  # 40 x 0.25 s unbounded
    recorded = full_limit_searches(monkeypatch, tmp_path / "limits")
    started = time.monotonic()
    assert [validation.search(p, LONG) for p in patterns] == [None] * 40
    limits = recorded()
    # Once 1 s has gone on timeouts, every search gets the short limit: at most 1 / 0.25 + 1
    # full-limit searches (more only if a timeout overran under load), the rest short.
    full = sum(limit == validation.PATTERN_TIMEOUT for limit in limits)
    assert full <= 5 and len(limits) - full >= 35, limits
    assert time.monotonic() - started < 40 * validation.PATTERN_TIMEOUT, "no bound at all"
    # A pattern that is quick on its value is still judged after the budget is spent.
    assert validation.search("^a+!$", LONG) is True
    assert validation.search("^b", LONG) is False


# --- item 10: discovery skips installed environments ---------------------------------------------

BROKEN_JSON = '{\n  "type": "object",\n  "required": ["id"],\n}\n'


def _installed(root: Path) -> None:
    """A real virtual environment at `.venv/` with a package's files in it, and other installs."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")],
        check=True,
        capture_output=True,
        timeout=120,
    )
    sites = sorted((root / ".venv").glob("lib/python*/site-packages"))
    site = sites[0] if sites else root / ".venv" / "Lib" / "site-packages"  # Windows
    write_files(
        site,
        {
            "somepkg/schema.schema.json": BROKEN_JSON,
            "somepkg/README.md": "# Somepkg\n\nSee [the docs](missing.md).\n",
        },
    )
    write_files(
        root,
        {
            # A tox environment, PEP 582 packages, a bare site-packages folder.
            ".tox/py312/pkg/broken.schema.json": BROKEN_JSON,
            "__pypackages__/3.12/lib/pkg/broken.schema.json": BROKEN_JSON,
            "tools/lib/site-packages/pkg/broken.schema.json": BROKEN_JSON,
            # Go's `go mod vendor` (modules.txt): an install.
            "go/vendor/modules.txt": "# example.org/x v1.0.0\n",
            "go/vendor/example.org/x/broken.schema.json": BROKEN_JSON,
            # A folder named vendor that is the corpus's own: linted.
            "third_party/vendor/schemas/keep.schema.json": BROKEN_JSON,
            # A cache folder (Cache Directory Tagging: pytest, mypy, ruff write one).
            ".pytest_cache/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n",
            ".pytest_cache/README.md": "# pytest cache\n\n[link](nowhere.md)\n",
        },
    )


def test_a_virtual_environment_and_other_installs_are_not_linted(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/run.schema.json": schema(type="object", properties={"id": {"type": "string"}}),
            "vendor/schemas/ours.schema.json": BROKEN_JSON,  # no install marker: corpus content
        }
    )
    _installed(root)
    done = cli("check", str(root), "--format", "json", "--no-cache")
    assert done.returncode == 1, done.stderr
    paths = sorted({f["location"]["path"] for f in json.loads(done.stdout)["findings"]})
    assert paths == [
        "third_party/vendor/schemas/keep.schema.json",
        "vendor/schemas/ours.schema.json",
    ], paths


def test_speclint_files_says_which_folders_it_skipped_and_why(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"schemas/run.schema.json": schema(type="object", properties={"id": {"type": "string"}})}
    )
    _installed(root)
    done = cli("files", str(root))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    skipped = {line.split()[0]: line for line in lines if "skipped:" in line}
    assert set(skipped) == {
        ".venv/",
        ".tox/",
        "__pypackages__/",
        "tools/lib/site-packages/",
        "go/vendor/",
        ".pytest_cache/",
    }, lines
    assert "a Python virtual environment (pyvenv.cfg)" in skipped[".venv/"]
    assert "modules.txt" in skipped["go/vendor/"]
    assert "CACHEDIR.TAG" in skipped[".pytest_cache/"]
    assert not [line for line in lines if "somepkg" in line]
    assert any(line.startswith("schemas/run.schema.json") for line in lines)


# --- item 16: a parse error names the actual fault -----------------------------------------------


def _failure(text: str) -> ParseFailure:
    with pytest.raises(ParseFailure) as caught:
        parse_json(text)
    return caught.value


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        # At the comma, not at the `}` or `]` on the next line.
        (
            '{\n  "type": "object",\n  "required": ["id"],\n}\n',
            (3, 21),
            "trailing comma before `}`",
        ),
        ('{\n  "required": [\n    "id",\n  ]\n}\n', (3, 9), "trailing comma before `]`"),
        ('{"a": [1, 2, ]}', (1, 12), "trailing comma before `]`"),
        # A missing comma: at the member or item that should follow one.
        ('{\n  "a": 1\n  "b": 2\n}', (3, 3), "a ',' is missing before this member"),
        ("[\n  1\n  2\n]", (3, 3), "a ',' is missing before this item"),
        # Single quotes, unquoted names and comments are not JSON.
        ("{'a': 1}", (1, 2), "single quotes"),
        ("{\"a\": 'x'}", (1, 7), "single quotes"),
        ("{a: 1}", (1, 2), "property name `a` is not quoted"),
        ('{\n  // a comment\n  "a": 1\n}', (2, 3), "JSON has no comments"),
        # An object left open names where it was opened.
        ('{\n  "a": {\n    "b": 1\n', (4, 1), "the object opened at line 2 is not closed"),
    ],
)
def test_a_json_parse_error_names_the_fault_where_it_is(
    text: str, where: tuple[int, int], says: str
) -> None:
    failure = _failure(text)
    assert says in failure.message, failure.message
    assert (failure.line, failure.column) == where, failure.message


def test_the_bundled_corpus_reports_its_trailing_comma_at_the_comma() -> None:
    done = cli("check", str(BUNDLED_CORPUS), "--rule", "parse-error", "--no-cache")
    [line] = [x for x in done.stdout.splitlines() if "broken.schema.json" in x]
    assert ":7:33: error [parse-error] trailing comma before `}`" in line, line
