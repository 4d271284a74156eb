"""``arazzo-duplicate-id`` on fixtures written here, one test a case, named after it. The rule: an
Arazzo workflowId, stepId or source description name given twice where it must be unique."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_arazzo_response_pointer import HEAD_EXPRESSIONS, LIBRARY, PLACE, SHOP

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


ARAZZO_RULES = (
    "arazzo-invalid",
    "arazzo-unresolved-source",
    "arazzo-unresolved-operation",
    "arazzo-unknown-parameter",
    "arazzo-payload-invalid",
    "arazzo-unresolved-expression",
    "arazzo-response-pointer",
    "arazzo-unknown-target",
    "arazzo-duplicate-id",
)


HEAD = """\
arazzo: 1.0.1
info: {title: Lend, version: 1.0.0}
sourceDescriptions:
  - {name: library, url: ./library.yaml, type: openapi}
workflows:
  - workflowId: lend
"""


def lend(body: str, head: str = HEAD) -> dict[str, str | bytes]:
    """The library API and a workflow `lend` whose fields (indented under it) are ``body``."""
    return {"library.yaml": LIBRARY, "lend.arazzo.yaml": head + body}


ARAZZO_1_1 = """\
arazzo: 1.1.0
info: {title: Orders, version: 1.0.0}
sourceDescriptions:
  - {name: events, url: ./events.yaml, type: asyncapi}
workflows:
  - workflowId: watch
    outputs:
      seen: $message.payload#/id
    steps:
      - stepId: wait
        channelPath: '{$sourceDescriptions.events.url}#/channels/orders'
        action: receive
        outputs:
          id: $message.payload#/id
"""


EVENTS = """\
asyncapi: 3.0.0
info: {title: Events, version: 1.0.0}
channels:
  orders: {address: orders}
"""


def test_an_arazzo_1_1_document_is_listed_not_checked_and_judged_by_no_rule(
    make_corpus: MakeCorpus,
) -> None:
    caller = HEAD.replace(
        "type: openapi}", "type: openapi}\n  - {name: orders, url: ./orders.yaml, type: arazzo}"
    )
    files = lend("    steps:\n      - {stepId: go, workflowId: $sourceDescriptions.orders.watch}\n")
    files["lend.arazzo.yaml"] = files["lend.arazzo.yaml"].replace(HEAD, caller)
    files |= {"orders.yaml": ARAZZO_1_1, "events.yaml": EVENTS}
    root = make_corpus(files)
    found = [f for rule in ARAZZO_RULES for f in run_rule(root, rule)]
    (note,) = found
    assert note.location.path == "orders.yaml" and note.coverage == "no-schema"
    assert "no Arazzo rule judges it" in note.message


def flows(steps: str, tail: str = "") -> dict[str, str | bytes]:
    """The shop at api/shop.yaml and workflow `buy` at flows/buy.arazzo.yaml with ``steps``
    (indented as list items of ``steps``), then ``tail`` (more workflows, components)."""
    return {"api/shop.yaml": SHOP, "flows/buy.arazzo.yaml": HEAD_EXPRESSIONS + steps + tail}


def test_repeated_step_and_workflow_ids(make_corpus: MakeCorpus) -> None:
    steps = PLACE + "      - {stepId: place, operationId: ping}\n"
    tail = "  - workflowId: buy\n    steps:\n      - {stepId: place, operationId: ping}\n"
    findings = run_rule(make_corpus(flows(steps, tail)), "arazzo-duplicate-id")
    assert [f.location.pointer for f in findings] == ["/workflows/0/steps/1", "/workflows/1"]
    assert "stepId `place` is given twice in workflow `buy`" in findings[0].message
    assert findings[0].related[0].pointer == "/workflows/0/steps/0"


def test_an_id_given_three_times_says_so_at_each_repeat(make_corpus: MakeCorpus) -> None:
    steps = PLACE + "      - {stepId: place, operationId: ping}\n" * 2
    findings = run_rule(make_corpus(flows(steps)), "arazzo-duplicate-id")
    assert [f.location.pointer for f in findings] == [
        "/workflows/0/steps/1",
        "/workflows/0/steps/2",
    ]
    assert all("is given 3 times in workflow `buy`" in f.message for f in findings)
    assert all("can mean any of them" in f.message for f in findings)
