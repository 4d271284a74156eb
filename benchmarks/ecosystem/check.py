r"""Ecosystem check: lint public spec repositories and compare runs (issue 26).

Usage::

    python benchmarks/ecosystem/check.py [--only NAME ...] [--batch N] [--skip-slow] [--jobs N]
        [--mirrors DIR] [--scratch DIR] [--no-run] [--sample N --seed S [--per-repo K]] [--markdown FILE]

Each repository of ``repos.toml`` (beside this script) is extracted once per pinned commit from a
bare git mirror (``--mirrors``, default ``/work/.mirror``, one ``owner+name/repo`` folder per
repository, as the ``fetch`` tool leaves them) into ``--scratch`` (default
``$SPECLINT_ECOSYSTEM_DIR``, else ``/tmp/speclint-ecosystem``). Nothing of those repositories is
copied into this one. ``speclint check --preview --no-cache --format json`` then runs on each with
no configuration (every rule: the preview rules are the ones being measured) and a private cache folder, in a fresh process; the script measures wall time and the
peak resident memory of the whole process tree and keeps every finding (rule, severity, path, line,
message, fingerprint: the one SARIF's ``partialFingerprints`` carry) under
``SCRATCH/runs/<time>/``.

A repository's ``batch`` (``repos.toml``) is the set of repositories it was added with, run and
labelled at first sight before any code was changed for them (issue 45); the original 45 are batch
0 and need no field.

It prints, like ruff's ecosystem check and mypy_primer:

- per repository: findings by severity, time, peak MB, internal errors, exit code;
- per rule: findings, repositories, and over the hand-read labels of ``labels.toml`` the true /
  false / noise counts and the precision (true over all labelled: noise counts against);
- per batch, per rule and overall (and errors and warnings alone): the first-read precision, over
  the labels given at first sight (``first_read = true`` in ``labels.toml``), and the current
  precision, over the labels of the batch's current findings;
- the diff against the previous stored run of each repository (findings gained and lost, by
  fingerprint);
- labels whose finding no longer appears (stale), and a seeded random sample of unlabelled
  findings per rule to read next.

CI does not run this (it needs the mirrors and minutes); ``tests/ecosystem/test_ecosystem.py`` checks the
list, the labels and the bookkeeping on synthetic results.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPOS_FILE = HERE / "repos.toml"
LABELS_FILE = HERE / "labels.toml"
VERDICTS = ("true", "false", "noise")
INTERNAL_ERROR = "internal-error"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")
COMMIT = re.compile(r"^[0-9a-f]{40}$")


def speclint_command(root: Path, report: Path, time_limit: float) -> list[str]:
    """The command run on one repository: every rule, preview ones included (a preview rule is
    one whose precision is still being measured here: leaving it out would make its labels
    look stale, and keep it in preview for good), no cache, the JSON report to ``report``."""
    return [
        sys.executable,
        "-m",
        "speclint",
        "check",
        str(root),
        "--preview",
        "--no-cache",
        "--no-progress",
        "--quiet",
        "--format",
        "json",
        "--output",
        str(report),
        "--time-limit",
        str(time_limit),
    ]


@dataclass(frozen=True)
class Repo:
    name: str
    commit: str
    kind: str
    subfolder: str = ""
    slow: bool = False
    # The batch the repository was added in: a set of repositories added together and read at
    # first sight (issue 45); the original 45 are batch 0.
    batch: int = 0

    @property
    def slug(self) -> str:
        return self.name.replace("/", "+")


@dataclass(frozen=True)
class Label:
    repo: str
    commit: str
    rule: str
    path: str
    fingerprint: str
    verdict: str
    reason: str
    # The severity the finding had when it was read: a verdict of "noise" on a warning says
    # nothing of the same finding made an info, so a label whose severity no longer matches is
    # read again instead of counted. Empty in labels written before it was recorded.
    severity: str = ""
    # The batch of the labelled repository (0 for the original 45), and whether the verdict was
    # given at first sight: on the batch's first run, before any code was changed for it. First-
    # read labels give the figure that says whether precision generalizes (issue 45).
    batch: int = 0
    first_read: bool = False

    def judges(self, hit: Hit) -> bool:
        """Whether this verdict still applies to ``hit`` (its finding, at its severity)."""
        return not self.severity or self.severity == hit.severity


@dataclass(frozen=True)
class Hit:
    """One finding of one repository's run, as the JSON report gives it."""

    rule: str
    severity: str
    path: str
    line: int
    message: str
    fingerprint: str
    # The rule's heuristic that made it (issue 45: ``precision.py`` measures each); "" for a
    # rule with one way to a finding, and in runs stored before findings carried it.
    heuristic: str = ""


@dataclass
class Result:
    repo: str
    commit: str
    seconds: float
    peak_mb: float
    exit_code: int
    files: int
    findings: list[Hit] = field(default_factory=list)
    stderr: str = ""
    # Each rule's wall time in this repository (speclint's SPECLINT_RULE_TIMES file); empty in
    # runs stored before it was recorded.
    rule_seconds: dict[str, float] = field(default_factory=dict)
    # Files of the pinned commit the mirror lacks (large blobs a partial mirror left out): a
    # finding that names one is the extraction's, not speclint's; empty in runs stored before.
    absent: list[str] = field(default_factory=list)

    @property
    def internal_errors(self) -> int:
        return sum(h.rule == INTERNAL_ERROR for h in self.findings)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        hits = [Hit(**h) for h in data.pop("findings")]
        return cls(**data, findings=hits)


# --- the lists -----------------------------------------------------------------------------------


def load_repos(path: Path = REPOS_FILE) -> list[Repo]:
    """The repositories of ``repos.toml``; raises ``ValueError`` naming every bad entry."""
    tables = tomllib.loads(path.read_text(encoding="utf-8")).get("repo", [])
    repos, errors, seen = [], [], set()
    for index, table in enumerate(tables, 1):
        where = f"{path.name} repo #{index} ({table.get('name', '?')})"
        unknown = set(table) - {"name", "commit", "kind", "subfolder", "slow", "batch"}
        if unknown:
            errors.append(f"{where}: unknown keys {sorted(unknown)}")
        name, commit = str(table.get("name", "")), str(table.get("commit", ""))
        if not NAME.match(name):
            errors.append(f"{where}: name must be owner/repo")
        if not COMMIT.match(commit):
            errors.append(f"{where}: commit must be 40 lowercase hex digits")
        if not str(table.get("kind", "")).strip() or "\n" in str(table.get("kind", "")):
            errors.append(f"{where}: kind must be one non-empty line")
        subfolder = str(table.get("subfolder", ""))
        if subfolder.startswith("/") or ".." in Path(subfolder).parts:
            errors.append(f"{where}: subfolder must be relative and inside the repository")
        if not isinstance(table.get("slow", False), bool):
            errors.append(f"{where}: slow must be true or false")
        batch = table.get("batch", 0)
        if not isinstance(batch, int) or isinstance(batch, bool) or batch < 0:
            errors.append(f"{where}: batch must be a whole number, 0 or more")
            batch = 0
        if name in seen:
            errors.append(f"{where}: listed twice")
        seen.add(name)
        repos.append(
            Repo(
                name,
                commit,
                str(table.get("kind", "")),
                subfolder,
                bool(table.get("slow", False)),
                batch,
            )
        )
    if errors:
        raise ValueError("\n".join(errors))
    return repos


def load_labels(repos: Sequence[Repo], path: Path = LABELS_FILE) -> list[Label]:
    """The verdicts of ``labels.toml``; raises ``ValueError`` naming every bad entry: an unknown
    repository or commit, a verdict outside true/false/noise, an empty or multi-line reason, a
    fingerprint labelled twice, a batch other than the repository's."""
    if not path.exists():
        return []
    tables = tomllib.loads(path.read_text(encoding="utf-8")).get("label", [])
    pinned = {r.name: r.commit for r in repos}
    labels, errors, seen = [], [], set()
    keys = ("repo", "commit", "rule", "path", "fingerprint", "verdict", "reason")
    optional = ("severity", "batch", "first_read")
    batches = {r.name: r.batch for r in repos}
    for index, table in enumerate(tables, 1):
        where = (
            f"{path.name} label #{index} ({table.get('repo', '?')} {table.get('fingerprint', '?')})"
        )
        missing = [k for k in keys if not isinstance(table.get(k), str) or not table[k].strip()]
        if missing:
            errors.append(f"{where}: missing or empty {', '.join(missing)}")
            continue
        if set(table) - set(keys) - set(optional):
            errors.append(f"{where}: unknown keys {sorted(set(table) - set(keys) - set(optional))}")
        if table.get("severity", "error") not in ("error", "warning", "info"):
            errors.append(f"{where}: severity must be error, warning or info")
        # Without a batch field, the repository's own (the original labels predate batches).
        repo_batch = batches.get(str(table["repo"]), 0)
        batch, first_read = table.get("batch", repo_batch), table.get("first_read", False)
        if not isinstance(first_read, bool):
            errors.append(f"{where}: first_read must be true or false")
            first_read = False
        if not isinstance(batch, int) or isinstance(batch, bool):
            errors.append(f"{where}: batch must be a whole number")
            batch = 0
        elif batch != repo_batch:
            errors.append(f"{where}: batch is not the one repos.toml gives the repository")
        label = Label(
            **{k: table[k] for k in keys},
            severity=str(table.get("severity", "")),
            batch=batch,
            first_read=first_read,
        )
        if label.repo not in pinned:
            errors.append(f"{where}: repository not in repos.toml")
        elif label.commit != pinned[label.repo]:
            errors.append(f"{where}: commit is not the one repos.toml pins")
        if label.verdict not in VERDICTS:
            errors.append(f"{where}: verdict must be one of {', '.join(VERDICTS)}")
        if "\n" in label.reason:
            errors.append(f"{where}: reason must be one line")
        # A first-read verdict is never replaced (it is the batch's record), so a finding read
        # again later (its severity changed) has one label of each kind; the later one judges it.
        if (label.repo, label.fingerprint, label.first_read) in seen:
            errors.append(f"{where}: fingerprint labelled twice")
        seen.add((label.repo, label.fingerprint, label.first_read))
        labels.append(label)
    if errors:
        raise ValueError("\n".join(errors))
    return labels


# --- running -------------------------------------------------------------------------------------


def extract(repo: Repo, mirrors: Path, scratch: Path) -> Path:
    """The repository's tree at its pinned commit, extracted once under ``scratch/trees``.

    File by file through ``git cat-file --batch`` rather than ``git archive``, which stops at the
    first object a partial mirror lacks and leaves a silently truncated tree. Symbolic links are
    skipped: a tree from elsewhere must not point outside itself."""
    tree = scratch / "trees" / f"{repo.slug}@{repo.commit[:12]}"
    if tree.is_dir():
        return tree
    git_dir = mirrors / repo.slug / "repo"
    if not git_dir.is_dir():
        raise FileNotFoundError(f"no mirror at {git_dir} (fetch github:{repo.name})")
    partial = tree.with_name(tree.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    batch = subprocess.Popen(
        ["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert batch.stdin is not None and batch.stdout is not None
    missing: list[str] = []
    for sha, relative in _files(git_dir, repo.commit):
        batch.stdin.write(sha + b"\n")
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            missing.append(relative.as_posix())
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)  # the newline after each object
        target = partial / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    batch.stdin.close()
    batch.wait()
    if missing:
        print(f"{repo.name}: {len(missing)} files missing from the mirror", file=sys.stderr)
    gaps_file(tree).write_text("".join(f"{path}\n" for path in sorted(missing)), "utf-8")
    partial.rename(tree)
    return tree


def _files(git_dir: Path, commit: str) -> list[tuple[bytes, Path]]:
    """(object id, relative path) of each file of ``commit`` that an extraction writes: its
    blobs, but no symbolic link (a tree from elsewhere must not point outside itself) and no
    path that leaves the tree."""
    listing = subprocess.run(
        ["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", commit],
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    files = []
    for row in filter(None, listing):
        meta, raw_path = row.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind != b"blob" or mode == b"120000":
            continue
        relative = Path(raw_path.decode("utf-8", "surrogateescape"))
        if not relative.is_absolute() and ".." not in relative.parts:
            files.append((sha, relative))
    return files


def gaps_file(tree: Path) -> Path:
    """Where the paths the mirror lacks of an extracted tree are kept: beside it, not in it."""
    return tree.with_name(tree.name + ".absent")


def mirror_gaps(repo: Repo, mirrors: Path, tree: Path) -> list[str]:
    """The files of the pinned commit that ``tree``'s extraction lacked: as recorded beside it,
    else asked of the mirror once (``git cat-file --batch-check``) and recorded."""
    gaps = gaps_file(tree)
    if not gaps.is_file():
        git_dir = mirrors / repo.slug / "repo"
        wanted = _files(git_dir, repo.commit)
        asked = b"".join(sha + b"\n" for sha, _ in wanted)
        answers = subprocess.run(
            ["git", "--git-dir", str(git_dir), "cat-file", "--batch-check"],
            input=asked,
            capture_output=True,
            check=True,
        ).stdout.splitlines()
        missing = sorted(
            path.as_posix()
            for (_, path), answer in zip(wanted, answers, strict=True)
            if answer.endswith(b" missing")
        )
        gaps.write_text("".join(f"{path}\n" for path in missing), "utf-8")
    return gaps.read_text("utf-8").splitlines()


def names_absent(hit: Hit, absent: Iterable[str]) -> bool:
    """Whether ``hit`` names a file the extraction lacks (by its name: a link or `$ref` writes it
    relative to the page), so a reader would judge the extraction, not speclint."""
    for path in absent:
        name = re.escape(path.rpartition("/")[2])
        # the whole name, not a tail of another one (`a.pdf` is not named by `data.pdf`)
        if path == hit.path or re.search(rf"(?<![\w.-]){name}(?![\w-]|\.\w)", hit.message):
            return True
    return False


def run_speclint(repo: Repo, tree: Path, scratch: Path, time_limit: int) -> Result:
    """One cold ``speclint check`` of ``tree``: its findings, wall time and the peak RSS of the
    process and every descendant it waited for (``wait4``'s rusage folds the children's
    ``ru_maxrss`` into the child's, as ``RUSAGE_CHILDREN`` does in benchmarks/run.py)."""
    root = tree / repo.subfolder if repo.subfolder else tree
    with tempfile.TemporaryDirectory(prefix="speclint-eco-", dir=scratch) as private:
        report = Path(private) / "report.json"
        times = Path(private) / "rule-times.json"
        env = {
            **os.environ,
            "SPECLINT_CACHE_DIR": str(Path(private) / "cache"),
            "SPECLINT_RULE_TIMES": str(times),
        }
        command = speclint_command(root, report, time_limit)
        errors = Path(private) / "stderr.txt"
        start = time.perf_counter()
        with errors.open("wb") as stderr:
            process = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=stderr, env=env, cwd=root
            )
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)  # Popen must not wait again
        seconds = time.perf_counter() - start
        report_written = report.exists()
        document = json.loads(report.read_text(encoding="utf-8")) if report_written else {}
        tail = errors.read_text(encoding="utf-8", errors="replace")[-2000:]
        rule_seconds = json.loads(times.read_text(encoding="utf-8")) if times.exists() else {}
    prefix = f"{repo.subfolder.strip('/')}/" if repo.subfolder else ""
    hits = [
        Hit(
            rule=f["rule"],
            severity=f["severity"],
            path=prefix + (f["location"]["path"] or ""),
            line=f["location"]["line"] or 0,
            message=f["message"],
            fingerprint=f["fingerprint"],
            heuristic=f.get("heuristic") or "",
        )
        for f in document.get("findings", [])
    ]
    return Result(
        repo=repo.name,
        commit=repo.commit,
        seconds=round(seconds, 2),
        peak_mb=round(usage.ru_maxrss / 1024, 1),
        exit_code=process.returncode,
        files=sum(document.get("checked", {}).values()) if document else 0,
        findings=hits,
        # A run that wrote no report did not check anything, whatever its exit code (exit 1 from
        # an interpreter that cannot import speclint looks like "findings" otherwise).
        stderr="" if process.returncode in (0, 1) and report_written else tail or "no report",
        rule_seconds=rule_seconds,
    )


def stored_runs(scratch: Path) -> list[Path]:
    """Run folders, oldest first (their names are UTC times)."""
    runs = scratch / "runs"
    return sorted(p for p in runs.iterdir() if p.is_dir()) if runs.is_dir() else []


def read_run(folder: Path) -> dict[str, Result]:
    return {
        r.repo: r
        for r in (
            Result.from_json(json.loads(p.read_text(encoding="utf-8")))
            for p in sorted(folder.glob("*.json"))
            if p.name != "run.json"
        )
    }


def history(scratch: Path) -> dict[str, list[tuple[str, Result]]]:
    """Every stored result of each repository, oldest first, with the name of its run."""
    found: dict[str, list[tuple[str, Result]]] = defaultdict(list)
    for folder in stored_runs(scratch):
        for name, result in read_run(folder).items():
            found[name].append((folder.name, result))
    return found


def newest(
    past: dict[str, list[tuple[str, Result]]], names: Iterable[str], before: str | None = None
) -> dict[str, Result]:
    """Each repository's newest stored result from a run older than ``before`` (any, if None)."""
    chosen = {}
    for name in names:
        earlier = [result for run, result in past.get(name, []) if before is None or run < before]
        if earlier:
            chosen[name] = earlier[-1]
    return chosen


# --- the bookkeeping (pure; tests call these) ----------------------------------------------------


@dataclass(frozen=True)
class RuleTally:
    rule: str
    findings: int
    repos: int
    verdicts: Counter[str]
    seconds: float = 0.0  # summed over the repositories
    slowest: str = ""  # the repository where it took longest

    @property
    def labelled(self) -> int:
        return sum(self.verdicts.values())

    @property
    def precision(self) -> float | None:
        return precision_of(self.verdicts)


def label_index(labels: Iterable[Label]) -> dict[tuple[str, str, str], Label]:
    """The label that judges each finding now: a later reading over the first-read one."""
    ordered = sorted(labels, key=lambda label: not label.first_read)
    return {(label.repo, label.commit, label.fingerprint): label for label in ordered}


def tally(results: Iterable[Result], labels: Iterable[Label]) -> list[RuleTally]:
    """Per rule over the current findings: counts, repositories, verdicts of the labelled ones."""
    index = label_index(labels)
    counts: Counter[str] = Counter()
    repos: dict[str, set[str]] = defaultdict(set)
    verdicts: dict[str, Counter[str]] = defaultdict(Counter)
    seconds: Counter[str] = Counter()
    slowest: dict[str, tuple[float, str]] = {}
    for result in results:
        for rule, spent in result.rule_seconds.items():
            seconds[rule] += spent
            if spent > slowest.get(rule, (-1.0, ""))[0]:
                slowest[rule] = (spent, result.repo)
        for hit in result.findings:
            counts[hit.rule] += 1
            repos[hit.rule].add(result.repo)
            label = index.get((result.repo, result.commit, hit.fingerprint))
            if label is not None and label.judges(hit):
                verdicts[hit.rule][label.verdict] += 1
    return [
        RuleTally(
            rule,
            counts[rule],
            len(repos[rule]),
            verdicts[rule],
            round(seconds[rule], 2),
            slowest.get(rule, (0.0, ""))[1],
        )
        for rule in sorted(counts.keys() | seconds.keys(), key=lambda r: (-counts[r], r))
    ]


ALL_RULES = "(all rules)"
SEVERE = "(errors+warnings)"


def precision_of(verdicts: Counter[str]) -> float | None:
    """True over every labelled finding: a noise verdict counts against, like a false one."""
    labelled = sum(verdicts.values())
    return verdicts["true"] / labelled if labelled else None


@dataclass(frozen=True)
class BatchPrecision:
    """One rule's verdicts in one batch (or all rules', or errors' and warnings' alone): at first
    read, over the labels given at first sight (whatever has become of their findings since),
    and now, over the labels that judge a current finding of the batch's repositories."""

    batch: int
    rule: str
    first_read: Counter[str]
    current: Counter[str]


def batch_precision(
    repos: Iterable[Repo], results: Iterable[Result], labels: Iterable[Label]
) -> list[BatchPrecision]:
    """Per batch of the repositories in ``results``, per rule and overall: first-read and current
    verdicts. First read is the figure that says whether precision generalizes to repositories
    nobody had read (issue 45); current says how much of that the fixes since have recovered."""
    batch_of = {r.name: r.batch for r in repos}
    results = list(results)
    labels = list(labels)
    shown = {batch_of.get(r.repo, 0) for r in results}

    def groups(rule: str, severity: str) -> tuple[str, ...]:
        return (rule, ALL_RULES, *((SEVERE,) if severity in ("error", "warning") else ()))

    first: dict[tuple[int, str], Counter[str]] = defaultdict(Counter)
    current: dict[tuple[int, str], Counter[str]] = defaultdict(Counter)
    for label in labels:
        if label.first_read and label.batch in shown:
            for group in groups(label.rule, label.severity):
                first[label.batch, group][label.verdict] += 1
    index = label_index(labels)
    for result in results:
        for hit in result.findings:
            label = index.get((result.repo, result.commit, hit.fingerprint))
            if label is not None and label.judges(hit):
                for group in groups(hit.rule, hit.severity):
                    current[batch_of.get(result.repo, 0), group][label.verdict] += 1
    overall = {ALL_RULES: 0, SEVERE: 1}
    keys = sorted(first.keys() | current.keys(), key=lambda k: (k[0], overall.get(k[1], 2), k[1]))
    return [BatchPrecision(b, rule, first[b, rule], current[b, rule]) for b, rule in keys]


@dataclass(frozen=True)
class Change:
    repo: str
    gained: list[Hit]
    lost: list[Hit]
    commit_changed: bool = False


def diff(previous: dict[str, Result], current: dict[str, Result]) -> list[Change]:
    """Findings gained and lost per repository, by fingerprint (a finding whose message changed
    but whose fingerprint did not is the same finding). Repositories without a previous run are
    left out: everything would be 'gained'."""
    changes = []
    for name in sorted(current):
        if name not in previous:
            continue
        before = {h.fingerprint: h for h in previous[name].findings}
        after = {h.fingerprint: h for h in current[name].findings}
        gained = [after[k] for k in after.keys() - before.keys()]
        lost = [before[k] for k in before.keys() - after.keys()]
        if gained or lost:
            order = lambda h: (h.path, h.line, h.rule, h.message)  # noqa: E731
            changes.append(
                Change(
                    name,
                    sorted(gained, key=order),
                    sorted(lost, key=order),
                    previous[name].commit != current[name].commit,
                )
            )
    return changes


def stale(results: dict[str, Result], labels: Iterable[Label]) -> list[Label]:
    """Labels of a repository that ran at the labelled commit whose finding did not appear, or
    appeared at another severity (to read again). Not first-read labels whose finding is gone
    (fixed: they stay, as the batch's first-read record) or that a later label supersedes."""
    labels = list(labels)
    present = {(r.repo, r.commit, h.fingerprint): h for r in results.values() for h in r.findings}
    current = label_index(labels)

    def is_stale(label: Label) -> bool:
        key = (label.repo, label.commit, label.fingerprint)
        if current[key] is not label:
            return False
        hit = present.get(key)
        return not label.first_read if hit is None else not label.judges(hit)

    return [
        label
        for label in labels
        if label.repo in results and results[label.repo].commit == label.commit and is_stale(label)
    ]


def gone_since_first_read(results: dict[str, Result], labels: Iterable[Label]) -> Counter[str]:
    """Per verdict, the first-read labels of the run repositories whose finding no longer
    appears: what the fixes since the first read removed (false ones, one hopes)."""
    present = {(r.repo, r.commit, h.fingerprint) for r in results.values() for h in r.findings}
    return Counter(
        label.verdict
        for label in labels
        if label.first_read
        and label.repo in results
        and results[label.repo].commit == label.commit
        and (label.repo, label.commit, label.fingerprint) not in present
    )


def sample(
    results: Iterable[Result],
    labels: Iterable[Label],
    per_rule: int,
    seed: int,
    per_repo: int | None = None,
) -> dict[str, list[tuple[str, Hit]]]:
    """Up to ``per_rule`` unlabelled findings of each rule, drawn with ``random.Random(seed)`` from
    a canonical order, so one seed always gives the same sample for the same findings.

    ``per_repo`` caps one repository's share of a rule's sample (batch 6 on, issue 45): one
    repository's build convention misread by a rule is one class, and without the cap it filled a
    rule's whole sample (2,723 findings of one merge convention gave all 25 of a rule's labels).
    Without it the draw is the one batches 1-5 were sampled with. A finding that names a file
    the mirror lacks (``Result.absent``) is not drawn: its reader would judge the extraction."""
    index = label_index(labels)
    pool: dict[str, list[tuple[str, Hit]]] = defaultdict(list)
    for result in results:
        for hit in result.findings:
            label = index.get((result.repo, result.commit, hit.fingerprint))
            if (label is None or not label.judges(hit)) and not names_absent(hit, result.absent):
                pool[hit.rule].append((result.repo, hit))
    chosen = {}
    for rule in sorted(pool):
        candidates = sorted(pool[rule], key=lambda item: (item[0], item[1].fingerprint))
        draw = random.Random(f"{seed}:{rule}")
        if per_repo is None:
            picked = draw.sample(candidates, min(per_rule, len(candidates)))
        else:
            taken: Counter[str] = Counter()
            picked = []
            for repo, hit in draw.sample(candidates, len(candidates)):
                if len(picked) == per_rule:
                    break
                if taken[repo] < per_repo:
                    taken[repo] += 1
                    picked.append((repo, hit))
        chosen[rule] = sorted(picked, key=lambda item: (item[0], item[1].path, item[1].line))
    return chosen


# --- printing ------------------------------------------------------------------------------------


def table(header: Sequence[str], rows: Iterable[Sequence[object]], markdown: bool) -> str:
    cells = [[str(c) for c in header], *[[str(c) for c in row] for row in rows]]
    if markdown:
        lines = ["| " + " | ".join(row) + " |" for row in cells]
        lines.insert(1, "|" + "|".join(" --- " for _ in header) + "|")
        return "\n".join(lines)
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def repo_table(results: dict[str, Result], markdown: bool) -> str:
    rows: list[tuple[object, ...]] = []
    for name in sorted(results):
        r = results[name]
        severities = Counter(h.severity for h in r.findings)
        rows.append(
            (
                name,
                r.files,
                len(r.findings),
                f"{severities['error']}/{severities['warning']}/{severities['info']}",
                f"{r.seconds:.1f}",
                f"{r.peak_mb:.0f}",
                r.internal_errors,
                r.exit_code,
            )
        )
    total = [h for r in results.values() for h in r.findings]
    severities = Counter(h.severity for h in total)
    rows.append(
        (
            f"total ({len(results)})",
            sum(r.files for r in results.values()),
            len(total),
            f"{severities['error']}/{severities['warning']}/{severities['info']}",
            f"{sum(r.seconds for r in results.values()):.1f}",
            f"{max((r.peak_mb for r in results.values()), default=0):.0f}",
            sum(r.internal_errors for r in results.values()),
            f"{sum(r.exit_code == 2 for r in results.values())} were 2",
        )
    )
    header = ("repository", "files", "findings", "E/W/I", "s", "peak MB", "internal", "exit")
    return table(header, rows, markdown)


def rule_table(tallies: Sequence[RuleTally], markdown: bool) -> str:
    rows = [
        (
            t.rule,
            t.findings,
            t.repos,
            t.labelled,
            f"{t.verdicts['true']}/{t.verdicts['false']}/{t.verdicts['noise']}",
            "—" if t.precision is None else f"{t.precision:.0%}",
            f"{t.seconds:.1f}",
            t.slowest or "—",
        )
        for t in tallies
    ]
    header = (
        "rule",
        "findings",
        "repos",
        "labelled",
        "true/false/noise",
        "precision",
        "s (sum)",
        "slowest in",
    )
    return table(header, rows, markdown)


def batch_table(rows: Sequence[BatchPrecision], markdown: bool) -> str:
    def verdicts(counts: Counter[str]) -> str:
        return f"{counts['true']}/{counts['false']}/{counts['noise']}" if counts else "—"

    def share(counts: Counter[str]) -> str:
        value = precision_of(counts)
        return "—" if value is None else f"{value:.0%}"

    header = ("batch", "rule", "first read t/f/n", "first-read precision", "now t/f/n", "now")
    return table(
        header,
        [
            (
                r.batch,
                r.rule,
                verdicts(r.first_read),
                share(r.first_read),
                verdicts(r.current),
                share(r.current),
            )
            for r in rows
        ],
        markdown,
    )


def hit_line(hit: Hit) -> str:
    return f"{hit.path}:{hit.line}: {hit.rule} {hit.message}"


def diff_text(changes: Sequence[Change], limit: int) -> str:
    if not changes:
        return "no change against the previous run"
    out = []
    for change in changes:
        by_rule = Counter(h.rule for h in change.gained)
        by_rule_lost = Counter(h.rule for h in change.lost)
        rules = ", ".join(
            f"{rule} +{by_rule[rule]} -{by_rule_lost[rule]}"
            for rule in sorted(by_rule.keys() | by_rule_lost.keys())
        )
        moved = " (commit changed)" if change.commit_changed else ""
        out.append(f"{change.repo}{moved}: +{len(change.gained)} -{len(change.lost)} ({rules})")
        shown = [("+", h) for h in change.gained] + [("-", h) for h in change.lost]
        out.extend(f"  {sign} {hit_line(h)}" for sign, h in shown[:limit])
        if len(shown) > limit:
            out.append(f"  … {len(shown) - limit} more")
    return "\n".join(out)


def sample_text(chosen: dict[str, list[tuple[str, Hit]]]) -> str:
    out = []
    for rule, items in chosen.items():
        out.append(f"{rule} ({len(items)} unlabelled to read)")
        out.extend(f"  {repo} {h.fingerprint} {hit_line(h)}" for repo, h in items)
    return "\n".join(out) or "every finding is labelled"


def markdown_report(
    results: dict[str, Result],
    tallies: Sequence[RuleTally],
    changes: Sequence[Change],
    meta: str,
    batches: Sequence[BatchPrecision] = (),
) -> str:
    gained = sum(len(c.gained) for c in changes)
    lost = sum(len(c.lost) for c in changes)
    return (
        "\n\n".join(
            [
                "## Ecosystem check",
                meta,
                "### Per repository\n\nE/W/I: errors/warnings/info; peak MB: the whole process tree.",
                repo_table(results, markdown=True),
                "### Per rule\n\nPrecision: true over labelled (noise counts against).",
                rule_table(tallies, markdown=True),
                "### Per batch\n\nFirst read: labels given at first sight; now: labels of current"
                " findings.",
                batch_table(batches, markdown=True),
                f"### Against the previous run\n\n+{gained} -{lost} findings.",
                "```\n" + diff_text(changes, limit=20) + "\n```",
            ]
        )
        + "\n"
    )


# --- the command ---------------------------------------------------------------------------------


def speclint_revision() -> str:
    done = subprocess.run(
        ["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


def run_revision(folder: Path) -> str:
    """The speclint revision a stored run recorded (its run.json)."""
    try:
        return str(json.loads((folder / "run.json").read_text(encoding="utf-8"))["speclint"])
    except (OSError, ValueError, KeyError):
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    default_scratch = os.environ.get("SPECLINT_ECOSYSTEM_DIR", "/tmp/speclint-ecosystem")
    parser.add_argument("--scratch", type=Path, default=Path(default_scratch))
    parser.add_argument("--only", nargs="+", metavar="NAME", help="owner/repo (or repo) to run")
    parser.add_argument(
        "--skip-slow", action="store_true", help="leave out repositories marked slow"
    )
    parser.add_argument("--batch", type=int, metavar="N", help="only the repositories of batch N")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--time-limit", type=int, default=900, help="per repository, seconds")
    parser.add_argument("--no-run", action="store_true", help="report on the newest stored run")
    parser.add_argument("--sample", type=int, default=5, metavar="N", help="unlabelled per rule")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--per-repo", type=int, metavar="K", help="at most K of one repository in a rule's sample"
    )
    parser.add_argument("--diff-limit", type=int, default=20, help="lines per repository")
    parser.add_argument("--markdown", type=Path, metavar="FILE")
    args = parser.parse_args(argv)

    try:
        repos = load_repos()
        labels = load_labels(repos)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    chosen = [
        r
        for r in repos
        if (not args.only or r.name in args.only or r.name.split("/")[1] in args.only)
        and not (args.skip_slow and r.slow)
        and (args.batch is None or r.batch == args.batch)
    ]
    if (args.only or args.batch is not None) and not chosen:
        print("no repository of repos.toml is chosen by --only and --batch", file=sys.stderr)
        return 2
    scratch: Path = args.scratch.resolve()
    scratch.mkdir(parents=True, exist_ok=True)

    past = history(scratch)
    names = [r.name for r in chosen]
    if args.no_run:
        # Each repository's newest stored result, against the one before it: a run of --only
        # some repositories does not hide the others.
        results = newest(past, names)
        if not results:
            print(f"no stored result under {scratch}", file=sys.stderr)
            return 2
        previous = {
            name: runs[-2][1] for name, runs in past.items() if name in results and len(runs) > 1
        }
        runs_used = sorted({past[name][-1][0] for name in results})
        run_name = runs_used[0] if len(runs_used) == 1 else f"{runs_used[0]}`…`{runs_used[-1]}"
        revision = ", ".join(sorted({run_revision(scratch / "runs" / run) for run in runs_used}))
    else:
        folder = scratch / "runs" / datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        folder.mkdir(parents=True)
        run_name = folder.name
        revision = speclint_revision()
        previous = newest(past, names, before=folder.name)
        (folder / "run.json").write_text(
            json.dumps({"speclint": revision, "repos": [r.name for r in chosen]}) + "\n"
        )

        def one(repo: Repo) -> Result | None:
            try:
                tree = extract(repo, args.mirrors, scratch)
            except (FileNotFoundError, subprocess.CalledProcessError) as error:
                print(f"{repo.name}: not extracted: {error}", file=sys.stderr)
                return None
            result = run_speclint(repo, tree, scratch, args.time_limit)
            result.absent = mirror_gaps(repo, args.mirrors, tree)
            (folder / f"{repo.slug}.json").write_text(json.dumps(result.to_json()) + "\n")
            print(
                f"{repo.name}: {len(result.findings)} findings, {result.seconds:.1f} s, "
                f"{result.peak_mb:.0f} MB, exit {result.exit_code}",
                file=sys.stderr,
            )
            if result.stderr:
                print(result.stderr, file=sys.stderr)
            return result

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = {r.repo: r for r in pool.map(one, chosen) if r is not None}

    unchecked = sorted(name for name, r in results.items() if not r.files)
    if unchecked:
        print(
            f"{len(unchecked)} repositories checked no file: {', '.join(unchecked)}",
            file=sys.stderr,
        )
        if len(unchecked) == len(results):
            print("no repository was checked: is speclint installed?", file=sys.stderr)
            return 2
    tallies = tally(results.values(), labels)
    changes = diff(previous, results)
    meta = f"Run `{run_name}` of speclint `{revision}`, {len(results)} repositories."
    print(meta + "\n")
    print(repo_table(results, markdown=False) + "\n")
    print(rule_table(tallies, markdown=False) + "\n")
    batches = batch_precision(repos, results.values(), labels)
    print("Per batch (first read: labels given at first sight; now: labels of current findings):")
    print(batch_table(batches, markdown=False) + "\n")
    print("Against the previous run:\n" + diff_text(changes, args.diff_limit) + "\n")
    old = stale(results, labels)
    if old:
        print(f"Stale labels ({len(old)}): their finding no longer appears, or changed severity")
        for label in old:
            print(f"  {label.repo} {label.fingerprint} {label.path} {label.rule}")
        print()
    gone = gone_since_first_read(results, labels)
    if gone:
        print(
            f"First-read labels whose finding is gone (kept as the first-read record): "
            f"{gone['true']} true, {gone['false']} false, {gone['noise']} noise\n"
        )
    if args.sample:
        for repo in chosen:
            tree = scratch / "trees" / f"{repo.slug}@{repo.commit[:12]}"
            found = results.get(repo.name)
            if found is not None and not found.absent and tree.is_dir():
                found.absent = mirror_gaps(repo, args.mirrors, tree)  # a run stored before
        print(f"Unlabelled findings to read next (seed {args.seed}):")
        print(sample_text(sample(results.values(), labels, args.sample, args.seed, args.per_repo)))
    if args.markdown:
        args.markdown.write_text(
            markdown_report(results, tallies, changes, meta, batches), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
