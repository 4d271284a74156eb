"""closed-event-union: the special cases its docstring leaves out, each a test named after it.
Fixtures: a small notification API and schema written for these tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_rule, schema

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

API = """\
openapi: 3.1.0
info: {title: Notices, version: 1.0.0}
paths:
  /notices:
    get:
      operationId: listNotices
      responses:
        '200':
          description: the notices
          content:
            application/json:
              schema: {$ref: '../schemas/notice.schema.json'}
"""


def corpus(make_corpus: MakeCorpus, kind: dict[str, Any], policy: str) -> Path:
    """A server-emitted `Notice` whose `type` has the schema ``kind``, and a page saying
    ``policy``."""
    notice = schema(
        title="Notice", type="object", properties={"type": kind, "text": {"type": "string"}}
    )
    return make_corpus(
        {
            "api/openapi.yaml": API,
            "schemas/notice.schema.json": notice,
            "COMPATIBILITY.md": f"# Compatibility\n\n{policy}\n",
        }
    )


QUALIFIED = "Clients MUST ignore unknown notice types."
CONSTS = {"oneOf": [{"const": "info"}, {"const": "alert"}]}


def test_closed_event_union_reports_a_one_of_of_consts_as_a_closed_set(
    make_corpus: MakeCorpus,
) -> None:
    (finding,) = run_rule(corpus(make_corpus, CONSTS, QUALIFIED), "closed-event-union")
    assert finding.location.path == "schemas/notice.schema.json"
    assert "COMPATIBILITY.md" in finding.message


def test_closed_event_union_passes_a_one_of_with_an_open_alternative(
    make_corpus: MakeCorpus,
) -> None:
    kind = {"oneOf": [*CONSTS["oneOf"], {"type": "string", "pattern": "^x-"}]}
    assert run_rule(corpus(make_corpus, kind, QUALIFIED), "closed-event-union") == []


def test_closed_event_union_binds_a_prose_statement_naming_no_kind_of_object_to_no_schema(
    make_corpus: MakeCorpus,
) -> None:
    """A prose "ignore unknown types" names no kind of object: it binds only the
    schema whose own description makes it, not every `type` of the corpus."""
    closed = {"enum": ["info", "alert"]}
    unqualified = "Clients MUST ignore unknown types."
    assert run_rule(corpus(make_corpus, closed, unqualified), "closed-event-union") == []
    assert len(run_rule(corpus(make_corpus, closed, QUALIFIED), "closed-event-union")) == 1
