"""``closed-event-union`` on fixtures written here, one test a case, named after it. The rule: a
server-emitted discriminator (an event `type`, a `kind`) that is a closed enum while the corpus
says to ignore unknown values."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from test_closure_policy import POLICY, api, run

from conftest import BUNDLED_CORPUS, run_rule, schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.model.config import load_config
from speclint.run.catalog import all_rules

FIRST_LINE = 200


CAPPED = ("closure-policy", "closed-event-union", "unsatisfiable-schema", "duplicate-id")


MINE = (
    *CAPPED,
    "version-drift",
    "undeclared-tag",
    "instance-invalid",
    "openapi-invalid",
    "schema-invalid",
    "parse-error",
)


def _long_first_lines(root: Path) -> list[tuple[str, int, str]]:
    corpus = Context.load(root, load_config(root))
    long = []
    for rule in MINE:
        for finding in all_rules()[rule].check(corpus, {}):
            first = finding.terminal_message.split("\n")[0]
            if len(first) > FIRST_LINE:
                long.append((rule, len(first), first))
    return long


def test_first_lines_are_short_on_the_bundled_corpus() -> None:
    root = BUNDLED_CORPUS
    assert _long_first_lines(root) == []


def test_first_lines_are_short_on_openwop(openwop: Path) -> None:
    assert _long_first_lines(openwop) == []


# closure-policy and closed-event-union: RFC 0094 §G and §C, by role.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


ENFORCED = {"enforce": ["client", "server"]}


CLOSED = "{type: object, properties: {a: {type: string}}, additionalProperties: false}"


EVENT_TYPE_CLOSED = {"enum": ["run.started", "run.finished"]}


EVENT_TYPE_OPEN = {
    "anyOf": [{"enum": ["run.started", "run.finished"]}, {"type": "string", "pattern": "^x-"}]
}


def events(
    type_schema: dict[str, Any], description: str = "", closed: bool = False
) -> dict[str, str | bytes]:
    body: dict[str, Any] = {
        "title": "RunEvent",
        "type": "object",
        "properties": {"type": {"$ref": "#/$defs/EventType"}, "payload": {}},
        "$defs": {
            "EventType": {**type_schema, **({"description": description} if description else {})}
        },
    }
    if closed:
        body["additionalProperties"] = False
    return {
        "api/openapi.yaml": api(CLOSED, "{$ref: '../schemas/run-event.schema.json'}"),
        "schemas/run-event.schema.json": schema(**body),
    }


def test_closed_event_type_against_the_prose_policy(make_corpus: MakeCorpus) -> None:
    root = make_corpus({**events(EVENT_TYPE_CLOSED), "COMPATIBILITY.md": POLICY})
    [finding] = run(root, "closed-event-union")
    assert finding.location.pointer == "/$defs/EventType/enum"
    assert "closed enum of 2 values" in finding.message
    assert "COMPATIBILITY.md:10 says to ignore unknown event types" in finding.message
    assert finding.related[0].path == "schemas/run-event.schema.json"
    assert any(r.path == "COMPATIBILITY.md" for r in finding.related)


def test_the_rfc_0094_repair_is_quiet(make_corpus: MakeCorpus) -> None:
    root = make_corpus({**events(EVENT_TYPE_OPEN), "COMPATIBILITY.md": POLICY})
    assert run(root, "closed-event-union") == []


def test_no_policy_or_another_discriminator_means_no_finding(make_corpus: MakeCorpus) -> None:
    assert run(make_corpus(events(EVENT_TYPE_CLOSED)), "closed-event-union") == []
    other = POLICY.replace("unknown event types", "unknown interrupt kinds")
    root = make_corpus({**events(EVENT_TYPE_CLOSED), "COMPATIBILITY.md": other})
    assert run(root, "closed-event-union") == []
    strict = POLICY.replace("MUST ignore", "MUST reject")
    root = make_corpus({**events(EVENT_TYPE_CLOSED), "COMPATIBILITY.md": strict})
    assert run(root, "closed-event-union") == []


def test_the_enums_own_description_is_a_policy_statement(make_corpus: MakeCorpus) -> None:
    said = "Readers MUST NOT throw on unknown types."
    [finding] = run(make_corpus(events(EVENT_TYPE_CLOSED, said)), "closed-event-union")
    assert (
        f'its own description tells readers to ignore unknown values ("{said}")' in finding.message
    )


def test_configured_fields_bind_without_prose(make_corpus: MakeCorpus) -> None:
    root = make_corpus(events(EVENT_TYPE_CLOSED))
    field = "schemas/run-event.schema.json#/properties/type"
    [finding] = run(root, "closed-event-union", {"fields": [field]})
    assert "the configuration binds it" in finding.message


def test_a_client_submitted_closed_enum_is_not_a_union_problem(make_corpus: MakeCorpus) -> None:
    files = events(EVENT_TYPE_CLOSED)
    files["api/openapi.yaml"] = api("{$ref: '../schemas/run-event.schema.json'}", CLOSED)
    root = make_corpus({**files, "COMPATIBILITY.md": POLICY})
    assert run(root, "closed-event-union") == []


def test_openwop_run_event_fires_both_rules_and_the_0094_repair_quiets_them(
    openwop: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "openwop"
    shutil.copytree(openwop, copy)
    target = "schemas/run-event.schema.json"

    def on_run_event(rule: str) -> list[Finding]:
        return [f for f in run(copy, rule) if f.location.path == target]

    [union] = on_run_event("closed-event-union")
    assert union.location.pointer == "/$defs/RunEventType/enum"
    [closure] = on_run_event("closure-policy")
    assert closure.location.pointer == "/additionalProperties"

    # RFC 0094 §C: the enum stays the catalog, a vendor-prefix branch admits the rest, and the
    # event object opens (§G).
    document = json.loads((copy / target).read_text(encoding="utf-8"))
    closed_enum = document["$defs"]["RunEventType"]
    document["$defs"]["RunEventType"] = {
        "description": closed_enum["description"],
        "anyOf": [
            {"type": "string", "enum": closed_enum["enum"]},
            {"type": "string", "pattern": "^x-[a-z0-9-]+\\."},
        ],
    }
    del document["additionalProperties"]
    (copy / target).write_text(json.dumps(document, indent=2), encoding="utf-8")
    assert on_run_event("closed-event-union") == []
    assert on_run_event("closure-policy") == []


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
