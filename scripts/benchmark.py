"""Benchmark speclint on a corpus: wall-clock time, peak memory, per-rule time, decision tally.

Usage::

    python scripts/benchmark.py [CORPUS ...] [--repeat N]

CORPUS defaults to the bundled ``corpus/`` and, when present, ``../shared/openwop-corpus``. Each
figure is the median of ``--repeat`` runs (default 3). Times are measured here, not asserted in
tests: report them in the issue note.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def whole_run(corpus: Path, repeat: int) -> tuple[float, int, str]:
    """Median wall-clock seconds and peak RSS (KB) of `speclint check CORPUS` in a fresh process."""
    times = []
    peak = 0
    summary = ""
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "speclint", "check", str(corpus), "--no-progress"],
            capture_output=True,
            text=True,
            check=False,
        )
        times.append(time.perf_counter() - start)
        peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before)
        summary = (done.stdout.strip().splitlines() or [""])[-1]
    return statistics.median(times), peak, summary


def per_rule(corpus_root: Path, repeat: int) -> list[tuple[str, float, int]]:
    from speclint.analyses.context import Context
    from speclint.model.config import load_config
    from speclint.run.catalog import all_rules
    from speclint.run.runner import run_rules

    rows = []
    for rule_id, info in all_rules().items():
        times, count = [], 0
        for _ in range(repeat):
            corpus = Context.load(corpus_root, load_config(corpus_root))
            _ = corpus.references  # shared set-up, timed apart below
            _ = corpus.roles
            start = time.perf_counter()
            count = len(run_rules(corpus, {rule_id: info}).findings)
            times.append(time.perf_counter() - start)
        rows.append((rule_id, statistics.median(times), count))
    return rows


def setup_times(corpus_root: Path) -> dict[str, float]:
    from speclint.analyses.context import Context
    from speclint.model.config import load_config

    start = time.perf_counter()
    corpus = Context.load(corpus_root, load_config(corpus_root))
    loaded = time.perf_counter()
    _ = corpus.references
    referenced = time.perf_counter()
    _ = corpus.roles
    roled = time.perf_counter()
    from speclint.analyses.schemas.fingerprints import all_shapes

    shapes = len(all_shapes(corpus))
    fingerprinted = time.perf_counter()
    return {
        "load and parse": loaded - start,
        "reference index": referenced - loaded,
        "roles": roled - referenced,
        "fingerprints": fingerprinted - roled,
        "shapes": float(shapes),
        "files": float(len(corpus.documents)),
    }


def decision_tally(corpus_root: Path, scope: str) -> tuple[Counter[str], float]:
    from speclint.analyses.context import Context
    from speclint.model.config import load_config
    from speclint.rules.unsatisfiable_schema import decisions

    corpus = Context.load(corpus_root, load_config(corpus_root))
    start = time.perf_counter()
    tally = Counter(verdict for _, verdict in decisions(corpus, scope))
    return tally, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    arguments = parser.parse_args()
    corpora = arguments.corpora or [
        p for p in (HERE / "corpus", HERE.parent / "shared" / "openwop-corpus") if p.is_dir()
    ]
    for corpus in corpora:
        print(f"## {corpus}")
        seconds, peak, summary = whole_run(corpus, arguments.repeat)
        print(
            f"speclint check: {seconds:.2f} s median of {arguments.repeat}, peak RSS {peak / 1024:.0f} MB"
        )
        print(f"  {summary}")
        setup = setup_times(corpus)
        print(
            f"set-up: {int(setup['files'])} files; load+parse {setup['load and parse']:.2f} s, "
            f"reference index {setup['reference index']:.2f} s, roles {setup['roles']:.2f} s, "
            f"fingerprints of {int(setup['shapes'])} schema locations {setup['fingerprints']:.3f} s"
        )
        print("per rule (after set-up):")
        for rule_id, rule_seconds, count in per_rule(corpus, arguments.repeat):
            print(f"  {rule_id:24} {rule_seconds:6.2f} s  {count:4} findings")
        for scope in ("client-submitted", "all"):
            tally, took = decision_tally(corpus, scope)
            shown = ", ".join(f"{k} {v}" for k, v in sorted(tally.items()))
            print(
                f"satisfiability ({scope}): {sum(tally.values())} schemas in {took:.2f} s: {shown}"
            )
        print()


if __name__ == "__main__":
    main()
