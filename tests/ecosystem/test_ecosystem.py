"""The ecosystem check's lists and bookkeeping (benchmarks/ecosystem/check.py), without network or
mirrors: repos.toml and labels.toml validate, precision counts noise against, the diff goes by
fingerprint, and the sample of unlabelled findings is fixed by its seed."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import BENCHMARKS

ECOSYSTEM = BENCHMARKS / "ecosystem"
_spec = importlib.util.spec_from_file_location("ecosystem_check", ECOSYSTEM / "check.py")
assert _spec is not None and _spec.loader is not None
check = importlib.util.module_from_spec(_spec)
sys.modules["ecosystem_check"] = check  # dataclasses resolve their module by name
_spec.loader.exec_module(check)

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def hit(fingerprint: str, rule: str = "broken-link", path: str = "a.md", line: int = 1) -> object:
    return check.Hit(rule, "warning", path, line, f"message {fingerprint}", fingerprint)


def result(repo: str, *hits: object, commit: str = COMMIT) -> object:
    return check.Result(repo, commit, 1.0, 50.0, 0, 3, list(hits))


def label(fingerprint: str, verdict: str, repo: str = "o/a", rule: str = "broken-link") -> object:
    return check.Label(repo, COMMIT, rule, "a.md", fingerprint, verdict, "because")


def test_the_repository_list_validates_and_is_varied_enough() -> None:
    repos = check.load_repos()
    assert len(repos) >= 30
    assert len({r.name for r in repos}) == len(repos)
    assert any(r.slow for r in repos)


def test_the_labels_validate_against_the_repository_list() -> None:
    labels = check.load_labels(check.load_repos())
    assert all(label.verdict in check.VERDICTS for label in labels)


def write_labels(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "labels.toml"
    path.write_text(body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        ({"repo": "o/unknown"}, "not in repos.toml"),
        ({"commit": "f" * 40}, "commit is not the one"),
        ({"verdict": "maybe"}, "verdict must be"),
        ({"reason": "  "}, "missing or empty reason"),
    ],
)
def test_a_bad_label_is_an_error(tmp_path: Path, change: dict[str, str], complaint: str) -> None:
    entry = {
        "repo": "o/a",
        "commit": COMMIT,
        "rule": "broken-link",
        "path": "a.md",
        "fingerprint": "f1",
        "verdict": "true",
        "reason": "the anchor is gone",
    }
    entry.update(change)
    body = "[[label]]\n" + "".join(f'{k} = "{v}"\n' for k, v in entry.items())
    repos = [check.Repo("o/a", COMMIT, "test")]
    with pytest.raises(ValueError, match=complaint):
        check.load_labels(repos, write_labels(tmp_path, body))
    entry.update({"repo": "o/a", "commit": COMMIT, "verdict": "true", "reason": "fine"})
    body = "[[label]]\n" + "".join(f'{k} = "{v}"\n' for k, v in entry.items())
    assert len(check.load_labels(repos, write_labels(tmp_path, body))) == 1


def test_a_bad_repository_entry_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "repos.toml"
    path.write_text('[[repo]]\nname = "nobody"\ncommit = "abc"\nkind = ""\n', encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        check.load_repos(path)
    assert "owner/repo" in str(raised.value) and "40 lowercase hex" in str(raised.value)
    assert "one non-empty line" in str(raised.value)


def test_precision_counts_noise_against() -> None:
    results = [result("o/a", hit("f1"), hit("f2"), hit("f3"), hit("f4"), hit("x", rule="other"))]
    labels = [label("f1", "true"), label("f2", "noise"), label("f3", "false")]
    (links, other) = check.tally(results, labels)
    assert (links.rule, links.findings, links.repos, links.labelled) == ("broken-link", 4, 1, 3)
    assert links.precision == pytest.approx(1 / 3)
    assert other.precision is None


def test_a_label_counts_only_at_its_commit() -> None:
    moved = [result("o/a", hit("f1"), commit="f" * 40)]
    assert check.tally(moved, [label("f1", "true")])[0].labelled == 0


def test_the_diff_goes_by_fingerprint() -> None:
    before = {"o/a": result("o/a", hit("kept"), hit("gone")), "o/new": result("o/new")}
    renamed = check.Hit("broken-link", "warning", "a.md", 9, "reworded", "kept")
    after = {
        "o/a": result("o/a", renamed, hit("fresh")),
        "o/b": result("o/b", hit("first run")),
        "o/new": result("o/new"),
    }
    (change,) = check.diff(before, after)
    assert change.repo == "o/a"
    assert [h.fingerprint for h in change.gained] == ["fresh"]
    assert [h.fingerprint for h in change.lost] == ["gone"]
    assert "+ a.md:1: broken-link message fresh" in check.diff_text([change], limit=5)


def test_stale_labels_are_those_whose_finding_is_gone() -> None:
    results = {"o/a": result("o/a", hit("f1"))}
    labels = [label("f1", "true"), label("f2", "false"), label("f3", "true", repo="o/not-run")]
    assert [x.fingerprint for x in check.stale(results, labels)] == ["f2"]


def test_the_sample_is_fixed_by_its_seed_and_skips_labelled_findings() -> None:
    hits = [hit(f"f{i:02}", line=i) for i in range(40)]
    results = [result("o/a", *hits[:20]), result("o/b", *hits[20:])]
    labels = [label("f00", "true")]
    first = check.sample(results, labels, 10, seed=7)
    assert first == check.sample(list(reversed(results)), labels, 10, seed=7)
    assert len(first["broken-link"]) == 10
    assert ("o/a", hits[0]) not in first["broken-link"]
    assert first != check.sample(results, labels, 10, seed=8)
    assert len(check.sample(results, labels, 100, seed=7)["broken-link"]) == 39


def test_a_sample_capped_per_repository_takes_the_others_first() -> None:
    # One repository's 30 findings of a rule would fill a 10-finding sample nearly alone.
    crowded = [hit(f"a{i:02}", line=i) for i in range(30)]
    quiet = [hit(f"b{i}", line=i) for i in range(3)] + [hit(f"c{i}", line=i) for i in range(2)]
    results = [result("o/a", *crowded), result("o/b", *quiet[:3]), result("o/c", *quiet[3:])]
    capped = check.sample(results, [], 10, seed=3, per_repo=4)["broken-link"]
    assert Counter(repo for repo, _ in capped) == {"o/a": 4, "o/b": 3, "o/c": 2}
    assert (
        capped == check.sample(list(reversed(results)), [], 10, seed=3, per_repo=4)["broken-link"]
    )
    uncapped = check.sample(results, [], 10, seed=3)["broken-link"]
    assert sum(repo == "o/a" for repo, _ in uncapped) > 4


def test_a_finding_that_names_a_file_the_mirror_lacks_is_not_sampled() -> None:
    # A partial mirror leaves large blobs out of the extracted tree: a link to one is reported
    # missing, and a reader would judge the extraction, not speclint (batch 6: a PDF).
    lacking = check.Hit("broken-link", "warning", "a.md", 3, "`card.pdf` does not exist", "f1")
    kept = check.Hit("broken-link", "warning", "a.md", 4, "`gone.md` does not exist", "f2")
    found = result("o/a", lacking, kept)
    found.absent = ["docs/card.pdf"]
    assert [h.fingerprint for _, h in check.sample([found], [], 5, 0)["broken-link"]] == ["f2"]
    found.absent = []
    assert len(check.sample([found], [], 5, 0)["broken-link"]) == 2
    found.absent = ["docs/ard.pdf", "gone"]  # a tail of a named file, a stem: neither named
    assert len(check.sample([found], [], 5, 0)["broken-link"]) == 2
    stored = check.Result.from_json({**result("o/a").to_json(), "absent": ["x.bin"]})
    assert stored.absent == ["x.bin"]
    older = result("o/a").to_json()
    del older["absent"]  # a run stored before gaps were recorded
    assert check.Result.from_json(older).absent == []


def test_the_markdown_report_has_both_tables() -> None:
    results = {"o/a": result("o/a", hit("f1"))}
    text = check.markdown_report(results, check.tally(results.values(), []), [], "meta")
    assert "| o/a | 3 | 1 | 0/1/0 |" in text and "| broken-link | 1 | 1 | 0 |" in text


def test_rule_times_are_summed_and_the_slowest_repository_named() -> None:
    a = result("o/a", hit("f1"))
    a.rule_seconds = {"broken-link": 1.5, "schema-invalid": 0.25}
    b = result("o/b", hit("f2"))
    b.rule_seconds = {"broken-link": 2.0}
    links, schemas = check.tally([a, b], [])
    assert (links.seconds, links.slowest) == (3.5, "o/b")
    assert (schemas.rule, schemas.findings, schemas.seconds) == ("schema-invalid", 0, 0.25)
    assert "slowest in" in check.rule_table([links, schemas], markdown=False)


def test_speclint_writes_each_rules_time_where_asked(tmp_path: Path) -> None:
    """SPECLINT_RULE_TIMES: the file the ecosystem check reads; every rule that ran is in it."""
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "a.json").write_text(
        '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}\n'
    )
    times = tmp_path / "times.json"
    env = {**os.environ, "SPECLINT_RULE_TIMES": str(times), "SPECLINT_NO_CACHE": "1"}
    for extra in ([], ["--debug"]):  # forked workers, and in this process (--debug)
        times.unlink(missing_ok=True)
        run = subprocess.run(
            [sys.executable, "-m", "speclint", "check", str(root), "--no-progress", *extra],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 0, run.stderr
        spent = json.loads(times.read_text(encoding="utf-8"))
        assert "schema-invalid" in spent and all(v >= 0 for v in spent.values())


def test_a_label_judges_its_finding_only_at_the_severity_it_was_read() -> None:
    """A warning called noise and since made an info is read again, not counted as noise."""
    info = check.Hit("broken-link", "info", "a.md", 1, "message f1", "f1")
    noise = check.Label("o/a", COMMIT, "broken-link", "a.md", "f1", "noise", "why", "warning")
    (links,) = check.tally([result("o/a", info)], [noise])
    assert links.labelled == 0
    assert check.stale({"o/a": result("o/a", info)}, [noise]) == [noise]
    assert [
        h.fingerprint for _, h in check.sample([result("o/a", info)], [noise], 5, 1)["broken-link"]
    ] == ["f1"]
    same = check.Label("o/a", COMMIT, "broken-link", "a.md", "f1", "noise", "why", "info")
    (links,) = check.tally([result("o/a", info)], [same])
    assert links.labelled == 1 and check.stale({"o/a": result("o/a", info)}, [same]) == []


# Batches chosen for one issue's new document kinds rather than to resemble OpenWOP, smaller than
# 15 because few public repositories hold those kinds: batch 7, the Arazzo and Overlay users and
# tools of issue 49 (8 repositories).
KIND_BATCHES = {7: 8, 8: 8}


def test_each_later_batch_has_fifteen_repositories_and_its_first_read_record() -> None:
    """Issue 45: repositories are added in batches of at least 15 read at first sight (a batch of
    one issue's new document kinds, ``KIND_BATCHES``, as many as it was chosen with), and each
    batch's first-read precision is recorded in batch-N.md beside repos.toml."""
    repos = check.load_repos()
    batches = Counter(r.batch for r in repos)
    assert batches[0] >= 30 and max(batches) >= 1
    labels = check.load_labels(repos)
    for batch in sorted(set(batches) - {0}):
        assert batches[batch] >= KIND_BATCHES.get(batch, 15), batch
        assert (ECOSYSTEM / f"batch-{batch}.md").is_file(), batch
        assert any(x.first_read and x.batch == batch for x in labels), batch


def test_a_bad_batch_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "repos.toml"
    entry = f'[[repo]]\nname = "o/a"\ncommit = "{COMMIT}"\nkind = "test"\n'
    path.write_text(entry + "batch = 1\n", encoding="utf-8")
    assert check.load_repos(path)[0].batch == 1
    path.write_text(entry, encoding="utf-8")
    assert check.load_repos(path)[0].batch == 0
    for bad in ('"1"', "-1", "true"):
        path.write_text(entry + f"batch = {bad}\n", encoding="utf-8")
        with pytest.raises(ValueError, match="batch must be"):
            check.load_repos(path)


@pytest.mark.parametrize(
    ("extra", "complaint"),
    [
        ("batch = 0\n", "batch is not the one repos.toml gives"),
        ('first_read = "yes"\n', "first_read must be true or false"),
        ('batch = "1"\n', "batch must be a whole number"),
    ],
)
def test_a_bad_first_read_label_is_an_error(tmp_path: Path, extra: str, complaint: str) -> None:
    repos = [check.Repo("o/a", COMMIT, "test", batch=1)]
    body = (
        f'[[label]]\nrepo = "o/a"\ncommit = "{COMMIT}"\nrule = "broken-link"\npath = "a.md"\n'
        'fingerprint = "f1"\nverdict = "true"\nreason = "gone"\n'
    )
    (read,) = check.load_labels(repos, write_labels(tmp_path, body + "first_read = true\n"))
    assert (read.batch, read.first_read) == (1, True)  # no batch field: the repository's
    with pytest.raises(ValueError, match=complaint):
        check.load_labels(repos, write_labels(tmp_path, body + extra))


def test_first_read_and_current_precision_per_batch_and_rule() -> None:
    """First read counts every label given at first sight, even of a finding fixed since; now
    counts the labels of current findings, first read or not; errors and warnings apart."""
    repos = [check.Repo("o/a", COMMIT, "old"), check.Repo("o/b", COMMIT, "new", batch=1)]

    def read(fingerprint: str, verdict: str, severity: str, first: bool = True) -> object:
        return check.Label(
            "o/b", COMMIT, "broken-link", "a.md", fingerprint, verdict, "why", severity, 1, first
        )

    labels = [
        label("a1", "true"),  # batch 0, not first read
        read("gone", "false", "warning"),  # its finding was fixed: first read only
        read("b1", "true", "warning"),
        read("b2", "noise", "info"),
        read("b3", "true", "warning", first=False),  # labelled after a fix: now only
    ]
    info = check.Hit("broken-link", "info", "a.md", 2, "message b2", "b2")
    results = [result("o/a", hit("a1")), result("o/b", hit("b1"), info, hit("b3"))]
    rows = {(r.batch, r.rule): r for r in check.batch_precision(repos, results, labels)}
    assert list(rows) == [
        (0, check.ALL_RULES),
        (0, check.SEVERE),
        (0, "broken-link"),
        (1, check.ALL_RULES),
        (1, check.SEVERE),
        (1, "broken-link"),
    ]
    batch1 = rows[1, "broken-link"]
    assert batch1.first_read == Counter(true=1, false=1, noise=1)
    assert batch1.current == Counter(true=2, noise=1)
    assert check.precision_of(rows[1, check.SEVERE].first_read) == pytest.approx(1 / 2)
    assert check.precision_of(rows[1, check.SEVERE].current) == 1.0
    assert not rows[0, "broken-link"].first_read and rows[0, "broken-link"].current["true"] == 1
    only_old = check.batch_precision(repos, results[:1], labels)
    assert {r.batch for r in only_old} == {0}  # a batch not run is not shown
    text = check.batch_table(list(rows.values()), markdown=False)
    assert "1/1/1" in text and "33%" in text and "first-read precision" in text


def test_a_first_read_label_is_kept_when_its_finding_is_gone_and_can_be_read_again() -> None:
    """A first-read verdict is the batch's record: its finding fixed, it is not stale (it is
    counted as gone); its finding at another severity, a later label judges it now, and the
    first-read figure keeps the first verdict."""
    repos = [check.Repo("o/b", COMMIT, "new", batch=1)]

    def read(fingerprint: str, verdict: str, severity: str, first: bool) -> object:
        return check.Label(
            "o/b", COMMIT, "broken-link", "a.md", fingerprint, verdict, "why", severity, 1, first
        )

    first = [read("fixed", "false", "warning", True), read("moved", "noise", "warning", True)]
    info = check.Hit("broken-link", "info", "a.md", 1, "message moved", "moved")
    results = {"o/b": result("o/b", info)}
    assert check.stale(results, first) == [first[1]]  # read it again at its new severity
    assert check.gone_since_first_read(results, first) == Counter(false=1)
    again = read("moved", "true", "info", False)
    labels = [*first, again]
    assert check.stale(results, labels) == []
    rows = {r.rule: r for r in check.batch_precision(repos, results.values(), labels)}
    row = rows[check.ALL_RULES]
    assert row.first_read == Counter(false=1, noise=1) and row.current == Counter(true=1)
    assert check.tally(results.values(), labels)[0].verdicts == Counter(true=1)


def test_a_fingerprint_has_at_most_one_first_read_and_one_later_label(tmp_path: Path) -> None:
    repos = [check.Repo("o/a", COMMIT, "test", batch=1)]
    one = (
        f'[[label]]\nrepo = "o/a"\ncommit = "{COMMIT}"\nrule = "broken-link"\npath = "a.md"\n'
        'fingerprint = "f1"\nverdict = "true"\nreason = "gone"\n'
    )
    first = one + "first_read = true\n"
    assert len(check.load_labels(repos, write_labels(tmp_path, first + one))) == 2
    with pytest.raises(ValueError, match="labelled twice"):
        check.load_labels(repos, write_labels(tmp_path, first + first))
    with pytest.raises(ValueError, match="labelled twice"):
        check.load_labels(repos, write_labels(tmp_path, one + one))


def test_every_rule_runs_in_the_ecosystem_preview_ones_included(tmp_path: Path) -> None:
    # The preview rules are the ones whose precision the ecosystem measures: a run without them
    # would make their labels stale, and keep them in preview for good (issue 45).
    command = check.speclint_command(tmp_path, tmp_path / "report.json", 60)
    assert command[3:5] == ["check", str(tmp_path)] and "--preview" in command


def test_mirror_gaps_are_the_files_the_extraction_lacked(tmp_path: Path) -> None:
    """A partial mirror lacks some blobs: the gaps asked of the mirror are the files extract()
    left out, and only those (a symbolic link is never extracted, so it is no gap)."""

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(work), *args], capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    work = tmp_path / "work"
    work.mkdir()
    git("init", "-q")
    (work / "kept.md").write_text("kept\n")
    (work / "lost.json").write_text("{}\n")
    (work / "link").symlink_to("lost.json")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    commit = git("rev-parse", "HEAD")
    for name in ("lost.json", "link"):
        blob = git("rev-parse", f"HEAD:{name}")
        (work / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    repo = check.Repo("o/r", commit, "openapi")
    mirrors = tmp_path / "mirrors"
    (mirrors / repo.slug).mkdir(parents=True)
    (mirrors / repo.slug / "repo").symlink_to(work / ".git")
    tree = check.extract(repo, mirrors, tmp_path / "scratch")
    assert sorted(p.name for p in tree.iterdir()) == ["kept.md"]
    recorded = check.gaps_file(tree).read_text()
    assert recorded == "lost.json\n"
    check.gaps_file(tree).unlink()  # a run stored before the gaps were recorded
    assert check.mirror_gaps(repo, mirrors, tree) == ["lost.json"]
    assert check.gaps_file(tree).read_text() == recorded
