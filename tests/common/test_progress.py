"""Progress: a bar on a terminal for long checks, and nothing at all anywhere else."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from test_cli import cli

from conftest import BUNDLED_CORPUS, schema
from speclint.common.progress import TerminalProgress, reporting, tracked


def test_tracked_reports_each_step_to_the_installed_sink_only() -> None:
    seen: list[tuple[str, int, int]] = []
    assert list(tracked(iter("abc"), "letters")) == ["a", "b", "c"]  # no sink: nothing happens
    with reporting(lambda what, done, total: seen.append((what, done, total))):
        assert list(tracked(iter("abc"), "letters")) == ["a", "b", "c"]
    assert seen == [("letters", 0, 3), ("letters", 1, 3), ("letters", 2, 3), ("letters", 3, 3)]
    assert list(tracked("xy", "after")) == ["x", "y"]  # the sink is gone again


def test_terminal_bar_draws_then_erases_itself_and_skips_short_lists() -> None:
    stream = io.StringIO()
    bar = TerminalProgress(stream, width=10, minimum=5)
    bar("short", 0, 4)
    assert stream.getvalue() == ""
    bar("decide", 0, 20)
    bar("decide", 10, 20)  # within 0.1 s of the last draw: skipped
    bar("decide", 20, 20)
    drawn = stream.getvalue()
    assert drawn.startswith("\r\x1b[Kdecide [----------] 0/20")
    assert "10/20" not in drawn
    assert drawn.endswith("\r\x1b[K")


def test_check_draws_a_bar_on_stderr_only_when_asked_or_on_a_terminal(
    make_corpus: Callable[[dict[str, str | bytes]], Path],
) -> None:
    body = {"type": "object", "properties": {"a": {"type": "string"}}}
    paths = "".join(
        f"  /r{i}:\n    post:\n      requestBody:\n        content:\n          application/json:\n"
        f"            schema: {json.dumps(body)}\n      responses:\n        '200': {{description: ok}}\n"
        for i in range(12)
    )
    root = make_corpus(
        {
            "schemas/a.schema.json": schema(type="string"),
            "api/openapi.yaml": f"openapi: 3.1.0\ninfo: {{title: t, version: 1.0.0}}\npaths:\n{paths}",
        }
    )
    # In a real process: rules run in forked children, which write to the inherited stderr.
    shown = cli("check", str(root), "--rule", "unsatisfiable-schema", "--progress")
    assert "unsatisfiable-schema: deciding schemas [" in shown.stderr
    # (text mode reads the bar's carriage returns as newlines)
    assert "0/12" in shown.stderr and shown.stderr.endswith("\x1b[K")
    assert "\x1b[K" not in shown.stdout  # the report itself is untouched
    quiet = cli("check", str(root), "--rule", "unsatisfiable-schema")  # stderr is no terminal
    assert quiet.stderr == "" and quiet.stdout == shown.stdout
    bundled = cli("check", str(BUNDLED_CORPUS), "--no-progress")
    assert "\x1b[K" not in bundled.stderr
    # Several rules in parallel: the parent draws one bar of rules done.
    parallel = cli("check", str(BUNDLED_CORPUS), "--progress", "--no-cache")
    assert "rules [" in parallel.stderr and parallel.stderr.endswith("\x1b[K")
    assert parallel.stdout == bundled.stdout


def test_parsing_counts_kilobytes_and_moves_inside_one_big_yaml_document(
    make_corpus: Callable[[dict[str, str | bytes]], Path],
) -> None:
    from speclint.analyses.context import Context
    from speclint.model.corpus import PARSING

    # One big document is most of a parse: its bar must move while ruamel reads it (issue 13).
    schemas = "".join(
        f"    S{i}:\n      type: object\n      description: {'words ' * 20}\n" for i in range(4000)
    )
    big = f"openapi: 3.1.0\ninfo: {{title: t, version: 1.0.0}}\npaths: {{}}\ncomponents:\n  schemas:\n{schemas}"
    root = make_corpus({"api/openapi.yaml": big, "schemas/a.schema.json": schema(type="string")})
    seen: list[tuple[str, int, int]] = []
    with reporting(lambda what, done, total: seen.append((what, done, total))):
        corpus = Context.load(root)
    assert corpus.documents["api/openapi.yaml"].data["components"]["schemas"]["S3999"]
    parsing = [(done, total) for what, done, total in seen if what == PARSING]
    total = len(big.encode()) // 1024 + 1
    assert {t for _, t in parsing} == {total}
    done = [d for d, _ in parsing]
    assert done[0] == 0 and done[-1] == total and done == sorted(done)
    assert len(set(done)) > 50  # counted as the document is read, not once it is parsed
