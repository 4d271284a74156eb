r"""Write each rule's measured precision into speclint's package (issue 45: preview rules).

Usage::

    python benchmarks/ecosystem/precision.py [--scratch DIR ...] [--output FILE]

speclint decides which rules are *preview* rules (run only with ``--preview``) from their
precision over the hand-read verdicts of ``labels.toml``; it must not read this folder when it
runs, so this script writes what it needs into ``linter/data/precision.json``: per rule the
number of labels counted, their true / false / noise verdicts, the precision (true over all
counted, noise against, as ``check.py`` prints it) and the labels left out as stale, with the
SHA-256 of ``labels.toml`` (``tests/run/test_preview.py`` fails when the file is stale against it).

A label is counted as ``check.py``'s per-rule table counts it (its ``tally``): while its finding
appears in the newest stored run of its repository (``--scratch``, default
``$SPECLINT_ECOSYSTEM_DIR`` or ``/tmp/speclint-ecosystem``, repeatable: the newest run of each
repository across them) at the severity it was read at. A *stale* label (its finding gone, a
fixed false positive or a removed true one, or its severity changed since it was read) is not
counted: it judges a finding the rule no longer makes, and counting it would keep a rule in
preview after its false positives are fixed. A label of a repository with no stored run counts as
read (a batch labelled on a run this scratch folder does not hold), and the script says so.

A label's keys are ``check.Label``'s (``batch`` and ``first_read`` included) and a key it does
not have is ignored; ``check.py`` and ``tests/ecosystem/test_ecosystem.py`` validate the file (this script
does not: it also reads label files of repositories ``repos.toml`` does not list, in tests). Its
stale count differs from ``check.stale``'s list on purpose: a first-read label whose finding is
gone is kept there (it records the first reading) but counts here as not judging any finding. Rerun this script after labelling, and after an
ecosystem run whose findings changed, then regenerate the reference reports (docs/development.md,
"Reference reports"), whose SARIF marks the preview rules, and the rule pages, which show each
rule's precision (``python scripts/rule_pages.py``).

Heuristics (issue 45): a rule with several ways to a finding names them (its ``HEURISTICS``),
and each finding of a run says which made it (``heuristic`` in the JSON report, kept by
``check.py`` since it was recorded). The ``heuristics`` table holds every heuristic of such a
rule (installed speclint's catalog) with the verdicts of the labels whose finding in the newest
stored run carries it, counted as above. A run stored before findings carried their heuristic
attributes none: the script says how many counted labels of such rules it could not attribute,
and the fix is to run those repositories again (``check.py --only ...`` into a scratch folder of
your own, then this script with ``--scratch`` for both folders: the newest run of each
repository is read).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import sys
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from speclint.run.preview import heuristic_rules

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import check  # noqa: E402  (check.py beside this script: its Label, runs and tally)

REPOSITORY = HERE.parent.parent
OUTPUT = REPOSITORY / "linter" / "data" / "precision.json"
ABOUT = (
    "Measured precision of each rule over the hand-read labels of the ecosystem check; written "
    "by benchmarks/ecosystem/precision.py, never by hand."
)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_labels(path: Path) -> list[check.Label]:
    """The labels of ``path``, keeping the fields ``check.Label`` has and ignoring any other; the
    file's validation is ``check.load_labels``'."""
    fields = {field.name for field in dataclasses.fields(check.Label)}
    tables = tomllib.loads(path.read_text(encoding="utf-8")).get("label", [])
    return [check.Label(**{k: v for k, v in t.items() if k in fields}) for t in tables]


def newest_results(scratches: Iterable[Path], names: Iterable[str]) -> dict[str, check.Result]:
    """Each repository's newest stored result across the scratch folders (runs are named by
    their UTC time, so the newest is the greatest name)."""
    past: dict[str, list[tuple[str, check.Result]]] = defaultdict(list)
    for scratch in scratches:
        for name, runs in check.history(scratch).items():
            past[name].extend(runs)
    for runs in past.values():
        runs.sort(key=lambda run: run[0])
    return check.newest(past, names)


def measure(
    results: Mapping[str, check.Result], labels: Sequence[check.Label]
) -> dict[str, dict[str, Any]]:
    """Per rule: the labels counted, their verdicts, the precision, and the stale labels (the
    reading that judges a finding now, ``check.label_index``'s, whose finding is gone or at
    another severity; a first reading superseded by a later one is neither)."""
    counted: dict[str, Counter[str]] = defaultdict(Counter)
    for tallied in check.tally(results.values(), labels):
        counted[tallied.rule].update(tallied.verdicts)
    current = check.label_index(labels)
    present = {(r.repo, r.commit, h.fingerprint): h for r in results.values() for h in r.findings}
    stale: Counter[str] = Counter()
    for label in labels:
        key = (label.repo, label.commit, label.fingerprint)
        if current[key] is not label:
            continue
        if label.repo not in results:
            counted[label.rule][label.verdict] += 1
        elif (hit := present.get(key)) is None or not label.judges(hit):
            stale[label.rule] += 1
    measured = {}
    # tally lists every rule with findings; one with no label, counted or stale, has no entry.
    for rule in sorted(r for r in set(counted) | set(stale) if counted[r].total() or stale[r]):
        measured[rule] = {**_entry(counted[rule]), "stale": stale[rule]}
    return measured


def _entry(counted: Counter[str]) -> dict[str, Any]:
    """One rule's or heuristic's line of the data file: its verdicts and their precision."""
    verdicts = Counter({v: counted[v] for v in check.VERDICTS})
    precision = check.precision_of(verdicts)
    return {
        "labels": verdicts.total(),
        "true": verdicts["true"],
        "false": verdicts["false"],
        "noise": verdicts["noise"],
        "precision": round(precision, 4) if precision is not None else None,
    }


def measure_heuristics(
    results: Mapping[str, check.Result],
    labels: Sequence[check.Label],
    declared: Mapping[str, str],
) -> tuple[dict[str, dict[str, Any]], int]:
    """Per heuristic of ``declared`` (heuristic -> its rule): the verdicts of the labels that
    judge a finding it made, as ``measure`` counts them; and how many counted labels of those
    rules judge a finding that carries no heuristic (a run stored before findings said it)."""
    current = check.label_index(labels)
    counted: dict[str, Counter[str]] = {heuristic: Counter() for heuristic in declared}
    unattributed = 0
    rules = set(declared.values())
    for result in results.values():
        for hit in result.findings:
            label = current.get((result.repo, result.commit, hit.fingerprint))
            if label is None or not label.judges(hit) or hit.rule not in rules:
                continue
            if hit.heuristic in counted:
                counted[hit.heuristic][label.verdict] += 1
            else:
                unattributed += 1
    measured = {}
    for heuristic in sorted(counted):
        measured[heuristic] = _entry(counted[heuristic])
    return measured, unattributed


def document(
    measured: Mapping[str, Mapping[str, Any]],
    labels_sha256: str,
    heuristics: Mapping[str, Mapping[str, Any]] | None = None,
    unattributed: int = 0,
) -> str:
    """The data file's text: sorted keys, one rule (and one heuristic) a line, a newline at
    the end; ``unattributed`` the counted labels of rules with heuristics whose finding names
    none (``tests/run/test_preview.py`` wants 0: the runs read must name them)."""

    def lines(table: Mapping[str, Mapping[str, Any]]) -> str:
        return ",\n".join(
            f"  {json.dumps(key)}: {json.dumps(table[key], sort_keys=True)}"
            for key in sorted(table)
        )

    return (
        "{\n"
        f'"about": {json.dumps(ABOUT)},\n'
        f'"heuristics": {{\n{lines(heuristics or {})}\n}},\n'
        f'"labels_sha256": {json.dumps(labels_sha256)},\n'
        f'"rules": {{\n{lines(measured)}\n}},\n'
        f'"unattributed": {unattributed}\n'
        "}\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_scratch = os.environ.get("SPECLINT_ECOSYSTEM_DIR", "/tmp/speclint-ecosystem")
    parser.add_argument("--scratch", type=Path, action="append", metavar="DIR")
    parser.add_argument("--labels", type=Path, default=check.LABELS_FILE)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    scratches = args.scratch or [Path(default_scratch)]
    labels = read_labels(args.labels)
    results = newest_results(scratches, {label.repo for label in labels})
    unrun = sorted({label.repo for label in labels} - set(results))
    if unrun:
        print(
            f"no stored run of {len(unrun)} labelled repositories (their labels count as read): "
            + ", ".join(unrun),
            file=sys.stderr,
        )
    measured = measure(results, labels)
    heuristics, unattributed = measure_heuristics(results, labels, heuristic_rules())
    if unattributed:
        print(
            f"{unattributed} counted labels judge a finding of a rule with heuristics that names "
            "none (a run stored before findings named their heuristic): run those repositories "
            "again with check.py and pass its scratch folder too",
            file=sys.stderr,
        )
    args.output.write_text(
        document(measured, digest(args.labels), heuristics, unattributed), encoding="utf-8"
    )
    counted = sum(m["labels"] for m in measured.values())
    stale = sum(m["stale"] for m in measured.values())
    print(
        f"{args.output}: {len(measured)} rules, {counted} labels counted, {stale} stale",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
