"""Work on every core (issue 16, item 3): the parse split across forked processes and the pool of
rule workers give the results a single process gives, whatever the split and whatever a worker
does (retires, dies, cannot send its results)."""

from __future__ import annotations

import gc
import os
import pickle
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from conftest import BUNDLED_CORPUS
from speclint.analyses.context import Context
from speclint.common import collector, parallel
from speclint.common.findings import Finding, Location, Severity
from speclint.model.config import load_config
from speclint.model.corpus import parse_document
from speclint.run import engine, runner
from speclint.run.catalog import RuleInfo


def test_shares_are_balanced_by_weight_and_deterministic() -> None:
    weights = [50, 10, 10, 10, 10, 10]
    dealt = parallel.shares(weights, 2)
    assert dealt == parallel.shares(weights, 2)
    assert sorted(i for share in dealt for i in share) == list(range(len(weights)))
    assert sorted(sum(weights[i] for i in share) for share in dealt) == [50, 50]


def test_a_forked_map_gives_the_sequential_results_in_order() -> None:
    items = list(range(40))
    weights = [parallel.MIN_WEIGHT] * len(items)
    pids: set[int] = set()

    def square(n: int) -> tuple[int, int]:
        return n * n, os.getpid()

    found = parallel.forked_map(square, items, weights, 3)
    assert [value for value, _ in found] == [n * n for n in items]
    pids = {pid for _, pid in found}
    assert len(pids) == 3 and os.getpid() in pids  # three processes shared the work


def test_what_a_child_cannot_send_is_computed_here() -> None:
    parent = os.getpid()

    def awkward(n: int) -> Any:
        # In a child, a value pickle refuses: the parent computes that share itself.
        return (lambda: n) if os.getpid() != parent else n

    items = list(range(10))
    found = parallel.forked_map(awkward, items, [parallel.MIN_WEIGHT] * len(items), 2)
    assert found == items


def test_a_parsed_page_read_back_from_a_child_is_the_page_it_parsed() -> None:
    # The prose model's classes are pickled as their constructor calls (``sent_by_fields``): a
    # page sent from a parsing child must read back equal, its paragraphs still slicing the one
    # page text they share, and its headings the objects its inline code names.
    text = (
        "# Title\n\nA `code` paragraph [link](a.md).\n\n- an item with `x`\n\n"
        "| a | b \\| c |\n| --- | --- |\n| `1` | 2 |\n\n```json\n{}\n```\n<!-- note -->\n"
    )
    page = parse_document("page.md", text.encode())
    back = pickle.loads(pickle.dumps(page, protocol=5))
    assert back.model == page.model and back.model is not None
    assert back.derived == page.derived
    paragraph = back.model.paragraphs[0]
    assert (
        paragraph.page is back.model.page and paragraph.text == "A `code` paragraph [link](a.md)."
    )
    assert back.model.inline_code[0].heading is back.model.headings[0]


def test_a_class_with_a_field_its_constructor_does_not_take_is_not_sent_by_fields() -> None:
    @dataclass(frozen=True)
    class Made:
        given: int
        derived: int = field(init=False, default=0)

    with pytest.raises(TypeError, match="constructor"):
        parallel.sent_by_fields(Made)


def test_small_work_is_not_forked() -> None:
    found = parallel.forked_map(lambda n: os.getpid(), [1, 2, 3], [10, 10, 10], 4)
    assert set(found) == {os.getpid()}


@pytest.mark.parametrize("retire", [True, False])
def test_the_rule_pool_reports_what_one_process_does_whether_workers_retire_or_not(
    monkeypatch: pytest.MonkeyPatch, retire: bool
) -> None:
    root = Path(BUNDLED_CORPUS)
    corpus = Context.load(root, load_config(root))
    alone = runner.run_rules(corpus, debug=True)
    monkeypatch.setattr(runner, "_grown", lambda worker, ceiling: retire)
    started: list[int] = []
    original = runner.start_child

    def counting(process: Any) -> None:
        started.append(1)
        original(process)

    monkeypatch.setattr(runner, "start_child", counting)
    pooled = runner.run_rules(Context.load(root, load_config(root)), jobs=2)
    assert pooled.findings == alone.findings
    if retire:
        # A fresh worker for every rule that reads the shared indexes; the early worker, forked
        # before they are built, runs the rules that read none one after another.
        primed = sum(1 for info in alone.rules.values() if info.needs_indexes)
        assert len(started) >= primed + 1
    else:
        assert len(started) <= 3  # two workers, and the early one for openapi-invalid


def test_a_rule_is_timed_in_its_worker_not_by_when_this_process_reads_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rule forked before the shared indexes (``NEEDS_INDEXES = False``) finished long before
    the parent, building the indexes, read its answer: its duration was the parent's (SchemaStore:
    asyncapi-invalid "15 s", 0.02 s alone), and the next run ordered its rules by it."""
    root = Path(BUNDLED_CORPUS)
    corpus = Context.load(root, load_config(root))

    def quick(corpus: Context, options: Any) -> list[Any]:
        return []

    def slow_prime(
        corpus: Context,
        protos: bool = False,
        schemas: bool = False,
        instances: bool = False,
        prose: bool = False,
    ) -> None:
        time.sleep(1.5)

    selected = {
        "early": RuleInfo("early", Severity.ERROR, "", __name__, quick, needs_indexes=False),
        "late": RuleInfo("late", Severity.ERROR, "", __name__, quick),
    }
    monkeypatch.setattr(runner, "prime", slow_prime)
    durations: dict[str, float] = {}
    found = runner._forked(corpus, selected, 2, 60.0, durations)
    assert found == {"early": [], "late": []}
    assert set(durations) == {"early", "late"}
    assert durations["early"] < 1.0, durations


def test_a_rule_that_finished_while_this_process_built_the_indexes_is_not_stopped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The early rule's answer waited in its pipe while the parent compiled the protos (envoy on
    a loaded machine: longer than the time box): the parent read one batch of it, judged the
    rule over its time box, and reported it stopped. Its time box counts from when the parent
    can read it."""
    root = Path(BUNDLED_CORPUS)
    corpus = Context.load(root, load_config(root))
    where = Location("a.json", 1, 1)
    ran = tmp_path / "ran"

    def finds(corpus: Context, options: Any) -> list[Finding]:
        ran.touch()  # in the worker: the rule has run, its answer follows at once
        return [Finding("early", Severity.ERROR, "found", where)]

    def slow_prime(
        corpus: Context,
        protos: bool = False,
        schemas: bool = False,
        instances: bool = False,
        prose: bool = False,
    ) -> None:
        # Building the indexes outlasts the early rule, however slowly the machine runs it:
        # done only once the rule has run, and then past its whole time box.
        hang_guard = time.monotonic() + 60
        while not ran.exists() and time.monotonic() < hang_guard:
            time.sleep(0.01)
        time.sleep(1.5)

    selected = {
        "early": RuleInfo("early", Severity.ERROR, "", __name__, finds, needs_indexes=False),
        "late": RuleInfo("late", Severity.ERROR, "", __name__, lambda c, o: []),
    }
    monkeypatch.setattr(runner, "prime", slow_prime)
    found = runner._forked(corpus, selected, 2, 1.0, {})
    assert [f.message for f in found["early"]] == ["found"]


def test_a_signal_raised_as_a_worker_starts_leaves_no_worker_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A signal held across the fork is raised as ``start_child`` returns: the worker it started
    must still be stopped, or the interpreter waits for it at exit (a hung, killed run)."""
    import multiprocessing

    from speclint.common.lifecycle import Interrupted

    original = runner.start_child
    calls: list[int] = []

    def interrupted_after_start(process: Any) -> None:
        original(process)
        calls.append(1)
        if len(calls) == 2:  # the second worker: the first is already running a rule
            raise Interrupted(15)

    monkeypatch.setattr(runner, "start_child", interrupted_after_start)
    root = Path(BUNDLED_CORPUS)
    with pytest.raises(Interrupted):
        runner.run_rules(Context.load(root, load_config(root)), jobs=2)
    assert calls == [1, 1]
    assert multiprocessing.active_children() == []  # every worker was stopped and joined


def _collector_state(corpus: Context, options: Any) -> list[Finding]:
    """A rule that reports the state of its process's garbage collector."""
    state = f"{gc.get_freeze_count()};{gc.get_threshold()}"
    return [Finding("probe", Severity.INFO, state, Location("x", 1, 1))]


def test_a_worker_inherits_the_heap_frozen_and_the_run_leaves_the_collector_as_it_found_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 29: a run makes few collector passes, and a forked worker's passes leave what it
    inherited alone (``gc.freeze``: 0.46 s of CPU went to the collector in a cold OpenWOP run,
    38 -> 28 s on OpenWOP ten times over). A resident checker lives on after the run: nothing may
    stay frozen (its garbage would never be collected) and its thresholds are its own again."""
    root = Path(BUNDLED_CORPUS)
    probe = RuleInfo("probe", Severity.INFO, "", __name__, _collector_state)
    monkeypatch.setattr(engine, "select_rules", lambda corpus, *a, **k: {"probe": probe})
    before = gc.get_threshold()
    gc.set_threshold(700, 9, 11)
    try:
        outcome = engine.lint(root, engine.Options(cache=False, progress=None))
        assert gc.get_threshold() == (700, 9, 11)
    finally:
        gc.set_threshold(*before)
    assert gc.get_freeze_count() == 0
    (finding,) = [f for f in outcome.findings if f.rule == "probe"]
    frozen, thresholds = finding.message.split(";")
    assert int(frozen) > 1000  # the worker's inheritance, out of its passes
    assert thresholds == str(collector.RUN_THRESHOLDS)


def test_a_parse_child_inherits_the_heap_frozen_and_nothing_stays_frozen() -> None:
    weights = [parallel.MIN_WEIGHT] * 4
    found = parallel.forked_map(
        lambda n: (os.getpid(), gc.get_freeze_count()), [1, 2, 3, 4], weights, 2
    )
    children = [frozen for pid, frozen in found if pid != os.getpid()]
    assert children and all(frozen > 1000 for frozen in children)
    assert gc.get_freeze_count() == 0


def test_a_process_that_froze_its_own_objects_keeps_collecting_what_it_makes_after() -> None:
    """A host that called ``gc.freeze`` itself (objects it cannot take back selectively): a fork
    in speclint then freezes nothing, or the cycles it makes after would never be collected."""
    import weakref

    class Node:
        pass

    gc.freeze()
    try:
        # A cycle alive during the fork, garbage after it.
        cycle = Node()
        cycle.me = cycle  # type: ignore[attr-defined]
        alive = weakref.ref(cycle)
        parallel.forked_map(lambda n: os.getpid(), [1, 2], [parallel.MIN_WEIGHT] * 2, 2)
        del cycle
        gc.collect()
        assert alive() is None
    finally:
        gc.unfreeze()


def _resident_mb() -> float:
    with open(f"/proc/{os.getpid()}/status", encoding="ascii") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


@pytest.mark.skipif(
    not Path("/proc/self/status").exists() or collector._trimmer() is None,
    reason="needs Linux's /proc and glibc's malloc_trim",
)
def test_memory_the_c_heap_keeps_free_is_handed_back() -> None:
    """Blocks freed inside the C heap (a cold parse's file bytes, let go once parsed) stay
    resident, and a forked worker counts them as its own: handed back, they are not."""
    blocks = [bytearray(8192) for _ in range(8000)]  # 64 MB, each block in the C heap
    kept = blocks[1::2]  # every other one stays: the freed ones are holes inside the heap
    del blocks
    before = _resident_mb()
    collector.release_free_memory()
    assert before - _resident_mb() > 8  # each hole holds a whole page at least: 16 MB
    assert len(kept) == 4000


def test_free_memory_is_handed_back_before_each_worker_is_forked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events: list[str] = []
    monkeypatch.setattr(runner, "release_free_memory", lambda: events.append("release"))
    started = runner.start_child

    def start(process: Any) -> None:
        events.append("fork")
        started(process)

    monkeypatch.setattr(runner, "start_child", start)
    probe = RuleInfo("probe", Severity.INFO, "", __name__, _collector_state)
    other = RuleInfo("other", Severity.INFO, "", __name__, _collector_state)
    corpus = Context.load(Path(BUNDLED_CORPUS))
    runner.run_rules(corpus, {"probe": probe, "other": other}, jobs=2)
    forks = [n for n, event in enumerate(events) if event == "fork"]
    assert forks and all(events[n - 1] == "release" for n in forks)
