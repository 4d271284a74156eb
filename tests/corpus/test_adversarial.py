"""An adversarial corpus: whatever a pull request contains, speclint finishes within its time box
with a located finding or a clear error, reads nothing outside the corpus root, makes no network
call, and still checks the rest of the corpus.

Hypothesis strategies corrupt valid documents at random offsets (derandomized); fixed cases cover
the classic attacks (deep nesting, alias bombs, cyclic references, catastrophic patterns, invalid
UTF-8, binary files, symlinks out of the root, remote references, a 50 MB file).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import cli_in_process, schema, write_files
from speclint.analyses.context import Context
from speclint.parsing.reading import MAX_FILE_BYTES, LoadProblem, read_raw
from speclint.run.runner import run_rules

TIME_BOX = 90  # seconds for a whole run of the adversarial corpus (it takes a few)
DERANDOMIZED = settings(
    max_examples=100,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)

GOOD_SCHEMA = schema(
    **{"$id": "https://example.org/schemas/order.schema.json"},
    type="object",
    required=["id"],
    properties={"id": {"type": "string"}, "lines": {"type": "array", "items": {"type": "integer"}}},
    additionalProperties=False,
)
GOOD_YAML = textwrap.dedent(
    """\
    openapi: 3.1.0
    info:
      title: Orders
      version: 1.0.0
    paths:
      /orders:
        post:
          operationId: createOrder
          requestBody:
            content:
              application/json:
                schema:
                  $ref: '../schemas/order.schema.json'
          responses:
            '201':
              description: Created.
    """
)
# A defect in an ordinary file: it must be reported whatever else the corpus holds.
CANARY = schema(properties={"x": {"$ref": "missing.schema.json"}})


# --- corrupted documents, in process ----------------------------------------------------------


def corrupted(text: str) -> st.SearchStrategy[str]:
    """``text`` cut, or with junk inserted, at a random offset."""
    junk = st.sampled_from(
        [
            "{",
            "}",
            "[",
            "]",
            ":",
            ",",
            '"',
            "\\",
            "\x00",
            "\t-",
            "&a",
            "*a",
            "\n  - ",
            "é",
            "\ufeff",
        ]
    )

    def damage(offset: int, kind: int, piece: str) -> str:
        if kind == 0:
            return text[:offset]
        if kind == 1:
            return text[:offset] + piece + text[offset:]
        return text[:offset] + piece + text[offset + 1 :]

    return st.builds(damage, st.integers(0, len(text)), st.integers(0, 2), junk)


def check_in_process(files: dict[str, str]) -> list[Any]:
    corpus = Context.from_texts(files)
    result = run_rules(corpus, jobs=1, time_box=None)
    assert not [f for f in result.findings if f.rule == "internal-error"], result.findings
    for finding in result.findings:
        assert finding.location.line >= 1 and finding.location.column >= 1
    return result.findings


@DERANDOMIZED
@given(text=corrupted(GOOD_SCHEMA))
def test_json_damaged_anywhere_is_a_finding_and_the_rest_is_checked(text: str) -> None:
    findings = check_in_process(
        {"schemas/order.schema.json": text, "schemas/canary.schema.json": CANARY}
    )
    assert any(
        f.rule == "unresolved-ref" and f.location.path == "schemas/canary.schema.json"
        for f in findings
    )
    if not text.strip():
        return  # cut to nothing: no document, none broken (coverage counts an empty file)
    try:
        json.loads(text)
    except ValueError:
        located = [f for f in findings if f.location.path == "schemas/order.schema.json"]
        assert any(f.rule == "parse-error" for f in located), located
        lines = text.count("\n") + 1
        assert all(f.location.line <= lines + 1 for f in located)


@DERANDOMIZED
@given(text=corrupted(GOOD_YAML))
def test_yaml_damaged_anywhere_is_a_finding_and_the_rest_is_checked(text: str) -> None:
    findings = check_in_process(
        {
            "api/openapi.yaml": text,
            "schemas/order.schema.json": GOOD_SCHEMA,
            "schemas/canary.schema.json": CANARY,
        }
    )
    assert any(
        f.rule == "unresolved-ref" and f.location.path == "schemas/canary.schema.json"
        for f in findings
    )


@DERANDOMIZED
@given(
    keys=st.lists(st.sampled_from(["a", "b", "type"]), min_size=2, max_size=6),
    yaml=st.booleans(),
)
def test_duplicate_keys_are_found_in_json_and_yaml(keys: list[str], yaml: bool) -> None:
    if len(set(keys)) == len(keys):
        keys = [*keys, keys[0]]
    if yaml:
        text = "".join(f"{k}: {i}\n" for i, k in enumerate(keys))
        path = "api/extra.yaml"
    else:
        text = "{" + ", ".join(f'"{k}": {i}' for i, k in enumerate(keys)) + "}"
        path = "schemas/extra.json"
    findings = check_in_process({path: text})
    assert any(f.rule == "duplicate-key" and f.location.path == path for f in findings)


# --- the fixed attacks, end to end in a guarded process ---------------------------------------


def adversarial_corpus(tmp_path: Path) -> tuple[Path, Path]:
    """A corpus holding every attack, the canary, and a secret beside it that must stay unread."""
    secret = tmp_path / "secret.schema.json"
    secret.write_text(schema(title="SECRET"))
    root = write_files(
        tmp_path / "spec",
        {
            "schemas/order.schema.json": GOOD_SCHEMA,
            "schemas/canary.schema.json": CANARY,
            "api/openapi.yaml": GOOD_YAML,
            # Cyclic $ref chain across three files.
            "schemas/cycle-a.schema.json": schema(**{"$ref": "cycle-b.schema.json"}),
            "schemas/cycle-b.schema.json": schema(**{"$ref": "cycle-c.schema.json"}),
            "schemas/cycle-c.schema.json": schema(**{"$ref": "cycle-a.schema.json"}),
            # 10,000-deep nesting, in JSON and in YAML.
            "schemas/deep.schema.json": "[" * 10_000 + "]" * 10_000,
            "api/deep.yaml": "a: " + "[" * 10_000 + "]" * 10_000 + "\n",
            # A YAML alias bomb ("billion laughs").
            "api/bomb.yaml": "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n"
                for i in range(9)
            ),
            # A catastrophic-backtracking pattern, with an example that triggers it.
            "schemas/redos.schema.json": schema(
                type="object",
                properties={"name": {"type": "string", "pattern": "^(a|a)*$"}},
                examples=[{"name": "a" * 40 + "!"}],
            ),
            # References that leave the corpus: a relative path out, a file URL, remote URLs.
            "schemas/escape.schema.json": schema(
                properties={
                    "up": {"$ref": "../../secret.schema.json"},
                    "file": {"$ref": secret.as_uri()},
                    "http": {"$ref": "http://schemas.example.net/x.json"},
                    "https": {"$ref": "https://schemas.example.net/y.json#/$defs/Y"},
                }
            ),
            # Invalid UTF-8, and binary content under a schema's name.
            "spec/latin1.md": "# Caf\xe9\n".encode("latin-1"),
            "schemas/bad-utf8.schema.json": b'{"title": "\xff\xfe"}',
            "schemas/picture.schema.json": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        },
    )
    (root / "schemas/empty-folder").mkdir()
    # Symlinks out of the root: a file, and a folder (to the folder holding the secret).
    os.symlink(secret, root / "schemas/link.schema.json")
    os.symlink(tmp_path, root / "schemas/outside")
    # A file over the size limit (50 MB): refused by its size, never read.
    with open(root / "schemas/huge.schema.json", "wb") as huge:
        huge.write(b"[" + b"0," * (25 * 1024 * 1024) + b"0]")
    assert (root / "schemas/huge.schema.json").stat().st_size > MAX_FILE_BYTES
    return root, secret


def test_a_read_with_a_limit_refuses_a_longer_file_by_its_size_and_a_head_reads_its_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "page.html").write_bytes(b"<head>" + b"x" * 10_000)
    os.mkfifo(tmp_path / "pipe.html")
    sizes: list[int] = []
    real = os.read

    def counted(descriptor: int, size: int) -> bytes:
        sizes.append(size)
        return real(descriptor, size)

    monkeypatch.setattr(os, "read", counted)
    refused = read_raw(tmp_path, "page.html", 100)
    assert isinstance(refused, LoadProblem) and "100-byte limit" in refused.message
    assert sizes == []  # told by its status: not a byte read
    assert read_raw(tmp_path, "page.html", 100, head=True) == b"<head>" + b"x" * 94
    assert sum(sizes) == 100
    assert isinstance(read_raw(tmp_path, "pipe.html", 100, head=True), LoadProblem)  # no block


GUARD = """
import json, os, sys
root, secret, log = sys.argv[1], sys.argv[2], sys.argv[3]
watched = os.path.dirname(os.path.dirname(root))  # the test's tmp folder
def audit(event, args):
    network = event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "urllib.Request")
    if network and not (event == "urllib.Request" and str(args[0]).startswith("file:")):
        with open(log, "a") as out:
            out.write("NETWORK " + event + " " + repr(args) + "\\n")
        raise OSError("network access is forbidden in this test")
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.path.realpath(os.fsdecode(args[0]))
        if path.startswith(watched) and not path.startswith(os.path.realpath(root)) and path != os.path.realpath(log):
            with open(log, "a") as out:
                out.write("OUTSIDE " + path + "\\n")
sys.addaudithook(audit)
from speclint.frontends.cli import main
sys.argv = ["speclint", "check", root, "--format", "json", "--no-progress"]
main()
"""


def test_every_attack_at_once_in_a_guarded_process(tmp_path: Path) -> None:
    root, secret = adversarial_corpus(tmp_path)
    log = tmp_path / "audit.log"
    done = subprocess.run(
        [sys.executable, "-c", GUARD, str(root), str(secret), str(log)],
        capture_output=True,
        text=True,
        timeout=TIME_BOX,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stderr
    events = log.read_text() if log.exists() else ""
    assert "NETWORK" not in events, events
    assert "OUTSIDE" not in events, events  # neither the secret nor anything beside the root
    report = json.loads(done.stdout)
    findings = report["findings"]
    assert not [f for f in findings if f["rule"] == "internal-error"], findings

    def rules_at(path: str) -> set[str]:
        return {f["rule"] for f in findings if f["location"]["path"] == path}

    assert "unresolved-ref" in rules_at("schemas/canary.schema.json")  # the rest is checked
    assert rules_at("schemas/order.schema.json") == set()
    assert rules_at("api/openapi.yaml") == set()
    for path in (
        "schemas/deep.schema.json",
        "api/deep.yaml",
        "api/bomb.yaml",
        "spec/latin1.md",
        "schemas/bad-utf8.schema.json",
        "schemas/picture.schema.json",
        "schemas/link.schema.json",
        "schemas/huge.schema.json",
    ):
        assert "parse-error" in rules_at(path), (path, rules_at(path))
    cycle = [f for f in findings if "circular" in f["message"]]
    assert len(cycle) == 1 and cycle[0]["location"]["path"].startswith("schemas/cycle-")
    assert "unresolved-ref" in rules_at("schemas/escape.schema.json")
    # The remote URLs are not followed: said among what was not checked, not as findings.
    remote = [n for n in report["not_checked"]["notes"] if n["kind"] == "remote-ref"]
    assert {n["path"] for n in remote} == {"schemas/escape.schema.json"} and len(remote) == 2
    redos = [f for f in findings if f["location"]["path"] == "schemas/redos.schema.json"]
    assert any("catastrophic backtracking" in f["message"] for f in redos), redos
    # Nothing was reported from inside the symlinked folder (it is not followed).
    assert not [f for f in findings if f["location"]["path"].startswith("schemas/outside/")]
    by_message = {
        f["location"]["path"]: f["message"] for f in findings if f["rule"] == "parse-error"
    }
    assert "outside the corpus root" in by_message["schemas/link.schema.json"]
    assert "limit" in by_message["schemas/huge.schema.json"]
    assert "nest" in by_message["schemas/deep.schema.json"].lower()


def test_an_empty_corpus_says_it_checked_nothing_and_fails(tmp_path: Path) -> None:
    # A gate that passes what it did not understand gives a false all-clear (issue 14).
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "package.json").write_text('{"name": "x", "version": "1.0.0"}')
    done = cli_in_process("check", str(empty))
    assert done.returncode == 2 and done.stdout == ""
    assert (
        "nothing to check" in done.stderr
        and "among 1 JSON/YAML/Markdown/.proto file" in done.stderr
    )
    assert "Traceback" not in done.stderr


NO_FORK = pytest.mark.skipif(
    "fork" not in __import__("multiprocessing").get_all_start_methods(),
    reason="the time box kills a forked child; this platform cannot fork, so rules run in-process",
)


@NO_FORK
@pytest.mark.parametrize("box", [1.0])
def test_a_rule_that_hangs_is_stopped_by_its_time_box(box: float, tmp_path: Path) -> None:
    """The runner's guarantee, independent of any one attack: a rule that never returns is killed
    and reported, and the other rules' findings stand."""
    from speclint.common.findings import Severity
    from speclint.run.catalog import RuleInfo
    from speclint.run.runner import select_rules

    def hang(corpus: Any, options: Any) -> Any:
        while True:
            pass

    corpus = Context.from_texts({"schemas/canary.schema.json": CANARY})
    rules = dict(select_rules(corpus, ["unresolved-ref"]))
    rules["hangs"] = RuleInfo("hangs", Severity.ERROR, "Never returns.", "tests.hangs", hang)
    result = run_rules(corpus, rules, jobs=2, time_box=box)
    stopped = [f for f in result.findings if f.rule == "internal-error"]
    assert len(stopped) == 1 and "time box of 1 s" in stopped[0].message
    assert any(f.rule == "unresolved-ref" for f in result.findings)


@NO_FORK
def test_a_single_hanging_rule_is_time_boxed_too() -> None:
    from speclint.common.findings import Severity
    from speclint.run.catalog import RuleInfo

    def hang(corpus: Any, options: Any) -> Any:
        while True:
            pass

    corpus = Context.from_texts({"schemas/canary.schema.json": CANARY})
    rules = {"hangs": RuleInfo("hangs", Severity.ERROR, "Never returns.", "tests.hangs", hang)}
    result = run_rules(corpus, rules, jobs=1, time_box=1.0)
    assert [f.rule for f in result.findings] == ["internal-error"]


def test_ids_and_refs_that_are_no_uris_are_findings_not_a_dead_run(tmp_path: Path) -> None:
    """`http://[bad`: an unclosed IPv6 literal makes Python's URL functions raise ValueError;
    it ended the whole run (exit 2) before, now the reference is an unresolved-ref finding and
    every rule runs, `speclint build` included."""
    root = write_files(
        tmp_path / "spec",
        {
            "schemas/a.schema.json": schema(
                **{
                    "$id": "http://[bad/a.json",
                    "properties": {
                        "b": {"$ref": "http://[worse/b.json"},
                        "c": {"$ref": "#/$defs/c"},
                    },
                    "$defs": {"c": {"type": "string", "examples": [1]}},
                }
            ),
            "schemas/b.schema.json": schema(
                **{"$defs": {"x": {"$id": "http://[in/x.json", "type": "string"}}}
            ),
        },
    )
    result = run_rules(Context.load(root))
    rules = sorted(f.rule for f in result.findings)
    assert rules == ["example-invalid", "unresolved-ref"]
    [unresolved] = [f for f in result.findings if f.rule == "unresolved-ref"]
    assert "not a URI reference" in unresolved.message
    built = cli_in_process("build", str(root), "--output", str(tmp_path / "out"))
    assert "Traceback" not in built.stderr and "internal error" not in built.stderr
