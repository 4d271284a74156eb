"""A finding that stands for many places (``Finding.members``: alike enums, links to one missing
file) is compared place by place, by the pull-request gate (``--diff-base``) and by baselines.

A waiver added at the group's first place moves the finding to the next place; a new place that
sorts first moves it to the new one. Neither is a new drift nor a fixed one: the drift was there
before, and in the second case it has one more place, which is the change's. Identified by its
first place alone, the group was reported "1 new, 1 fixed" (issue 44, item 7 follow-up)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from test_cli import cli
from test_diff_base import git
from test_waivers import status_schema

from conftest import write_files
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Location, Member, Severity
from speclint.model.config import load_config
from speclint.run import baseline
from speclint.run.engine import Options, Outcome, lint

STATUS_PAGE = "# Status\n\nThe `status` field is one of `open` | `closed` | `archived`.\n"
LINK_PAGE = "# {name}\n\n{waiver}See [the guide](missing.md).\n"
LINK_WAIVER = "<!-- speclint-ignore broken-link: the guide lands in v2 -->\n"


def link_page(name: str, waived: bool = False) -> str:
    return LINK_PAGE.format(name=name, waiver=LINK_WAIVER if waived else "")


# Each kind of group: the files of a place, by name; the files every corpus of it has besides.
PLACES: dict[str, tuple[str, Callable[..., str], dict[str, str | bytes]]] = {
    "enum-drift": ("schemas/{}.schema.json", status_schema, {"docs/p.md": STATUS_PAGE}),
    "broken-link": ("docs/{}.md", link_page, {}),
}


# Each kind of group with every place taken out, its files kept: the page no longer lists the
# value the enums lack; the pages no longer link the missing file.
TAKEN_OUT: dict[str, dict[str, str | bytes]] = {
    "enum-drift": {"docs/p.md": STATUS_PAGE.replace(" | `archived`", "")},
    "broken-link": {"docs/b.md": "# b\n", "docs/c.md": "# c\n"},
}


def files_of(rule: str, names: str, waived: str = "") -> dict[str, str | bytes]:
    pattern, make, common = PLACES[rule]
    return {**common, **{pattern.format(n): make(n, n in waived) for n in names}}


def path_of(rule: str, name: str) -> str:
    return PLACES[rule][0].format(name)


def pull_request(
    tmp_path: Path, before: dict[str, str | bytes], after: dict[str, str | bytes]
) -> Path:
    """A repository whose HEAD~1 holds ``before`` and HEAD ``after`` (files missing from it
    deleted)."""
    repo = write_files(tmp_path / "repo", before)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    for gone in set(before) - set(after):
        (repo / gone).unlink()
    write_files(repo, after)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "change")
    return repo


def gate(repo: Path) -> Outcome:
    return lint(repo, Options(diff_base="HEAD~1", cache=False))


def of_rule(findings: tuple[Finding, ...] | list[Finding], rule: str) -> list[Finding]:
    return [f for f in findings if f.rule == rule]


# --- the gate -----------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", PLACES)
def test_a_waiver_at_the_first_place_of_a_group_is_neither_new_nor_fixed(
    tmp_path: Path, rule: str
) -> None:
    repo = pull_request(tmp_path, files_of(rule, "bc"), files_of(rule, "bc", waived="b"))
    outcome = gate(repo)
    assert outcome.gate is not None
    assert of_rule(outcome.findings, rule) == []
    assert outcome.gate.fixed == ()
    [known] = of_rule(outcome.gate.known, rule)
    assert known.location.path == path_of(rule, "c")
    assert [w.finding.location.path for w in outcome.result.waived] == [path_of(rule, "b")]


@pytest.mark.parametrize("rule", PLACES)
@pytest.mark.parametrize("added", ["a", "d"])  # sorting before the group's first place, and last
def test_a_new_place_of_an_old_group_is_new_and_its_old_places_are_not(
    tmp_path: Path, rule: str, added: str
) -> None:
    repo = pull_request(tmp_path, files_of(rule, "bc"), files_of(rule, "bc" + added))
    outcome = gate(repo)
    assert outcome.gate is not None
    assert outcome.gate.fixed == ()
    assert of_rule(outcome.gate.known, rule) == []
    # Reported at the place the change adds, for that place alone; the old places related.
    [new] = of_rule(outcome.findings, rule)
    assert new.location.path == path_of(rule, added)
    assert [m.location.path for m in new.members] == [path_of(rule, added)]
    assert new.message.endswith(
        "\nNew since `HEAD~1`: this place, 1 of the group's 3; the other 2 were already there "
        "(marked on the related locations)"
    )
    marked = sorted(r.path for r in new.related if (r.note or "").endswith("already in `HEAD~1`"))
    assert marked == [path_of(rule, "b"), path_of(rule, "c")]


def test_several_new_places_are_named(tmp_path: Path) -> None:
    repo = pull_request(tmp_path, files_of("broken-link", "bc"), files_of("broken-link", "bcavwxy"))
    [new] = gate(repo).findings
    assert new.location.path == "docs/a.md"
    assert [m.location.path for m in new.members] == [f"docs/{n}.md" for n in "avwxy"]
    assert new.message.endswith(
        "\nNew since `HEAD~1`: 5 of the group's 7 places, this one, `docs/v.md:3`, "
        "`docs/w.md:3`, `docs/x.md:3` and 1 more; the other 2 were already there (marked on "
        "the related locations)"
    )


def test_one_place_that_becomes_a_group_is_an_old_place_of_a_new_group(tmp_path: Path) -> None:
    """The base reported the place alone (no members); the change adds an alike enum."""
    repo = pull_request(tmp_path, files_of("enum-drift", "b"), files_of("enum-drift", "ab"))
    outcome = gate(repo)
    assert outcome.gate is not None and outcome.gate.fixed == ()
    [new] = outcome.findings
    assert new.location.path == "schemas/a.schema.json"
    assert "this place, 1 of the group's 2" in new.message


@pytest.mark.parametrize("rule", PLACES)
def test_a_group_is_fixed_only_when_none_of_its_places_remain(tmp_path: Path, rule: str) -> None:
    # One place left, reported alone: the drift is still there.
    shrunk = gate(pull_request(tmp_path / "one", files_of(rule, "bc"), files_of(rule, "c")))
    assert shrunk.gate is not None
    assert (of_rule(shrunk.findings, rule), shrunk.gate.fixed) == ([], ())
    assert [f.location.path for f in of_rule(shrunk.gate.known, rule)] == [path_of(rule, "c")]
    # No place left: fixed, once, named at the place the base reported it.
    after = {**files_of(rule, "bc"), **TAKEN_OUT[rule]}
    fixed = gate(pull_request(tmp_path / "none", files_of(rule, "bc"), after))
    assert fixed.gate is not None and of_rule(fixed.findings, rule) == []
    assert [(f.rule, f.path) for f in fixed.gate.fixed] == [(rule, path_of(rule, "b"))]
    # The files of its places deleted: no longer checked, not fixed (speclint.run.unchecked).
    common = PLACES[rule][2]
    gone = gate(pull_request(tmp_path / "gone", files_of(rule, "bc"), {**common, "x.md": "# X\n"}))
    assert gone.gate is not None and gone.gate.fixed == ()
    assert [(u.rule, u.path) for u in gone.gate.no_longer_checked] == [(rule, path_of(rule, "b"))]


def test_a_finding_of_one_place_whose_message_changes_is_changed_not_new_and_fixed(
    tmp_path: Path,
) -> None:
    """The same place with the same key saying something else (one more value the enum lacks) is
    that finding changed, for the worse (issue 48, item 3; tests/run/test_changed_findings.py)."""
    before = {"docs/p.md": STATUS_PAGE, "schemas/b.schema.json": status_schema("b")}
    after = {**before, "docs/p.md": STATUS_PAGE.replace("`archived`", "`archived` | `gone`")}
    outcome = gate(pull_request(tmp_path, before, after))
    assert outcome.gate is not None
    assert (outcome.findings, outcome.gate.fixed) == ([], ())
    [changed] = outcome.gate.changed
    assert changed.finding.location.path == "schemas/b.schema.json"
    assert (changed.added, changed.grew) == (("gone",), True)


def test_the_markdown_gate_report_shows_the_new_place_of_an_old_drift(tmp_path: Path) -> None:
    repo = pull_request(tmp_path, files_of("enum-drift", "bc"), files_of("enum-drift", "abc"))
    shown = cli("check", ".", "--diff-base", "HEAD~1", "-f", "markdown", "--no-cache", cwd=repo)
    assert shown.returncode == 0, shown.stderr  # a warning
    text = shown.stdout
    assert "**1 new**, **0 fixed**, 0 changed, 0 waived, 0 unchanged" in text
    assert "### `schemas/a.schema.json:" in text
    assert "New since `HEAD~1`: this place, 1 of the group's 3; the other 2 were already" in text
    assert "already in `HEAD~1`" in text[text.index("Related locations") :]
    assert "1 new finding(s), 0 fixed, 0 changed, 0 unchanged" in shown.stderr


# --- baselines ----------------------------------------------------------------------------------


def write_baseline(root: Path, target: Path) -> list[dict[str, object]]:
    written = cli("baseline", "write", str(root), "--output", str(target))
    assert written.returncode == 0, written.stderr
    entries: list[dict[str, object]] = json.loads(target.read_text())["entries"]
    return entries


def check_against(root: Path, target: Path) -> Outcome:
    return lint(root, Options(baseline=target, cache=False))


@pytest.mark.parametrize("rule", PLACES)
def test_a_baseline_records_every_place_of_a_group_and_accepts_it_however_anchored(
    tmp_path: Path, rule: str
) -> None:
    root = write_files(tmp_path / "spec", files_of(rule, "bc"))
    target = tmp_path / "baseline.json"
    [entry] = [e for e in write_baseline(root, target) if e["rule"] == rule]
    assert entry["path"] == path_of(rule, "b")
    members = entry["members"]
    assert isinstance(members, list)
    assert [m["path"] for m in members] == [path_of(rule, "b"), path_of(rule, "c")]
    # A waiver at the first place: the rest of the group is in the baseline.
    write_files(root, files_of(rule, "bc", waived="b"))
    waived = check_against(root, target)
    assert waived.gate is not None
    assert (of_rule(waived.findings, rule), waived.gate.fixed) == ([], ())
    # A place sorting first is new, alone; the group's entry is not fixed.
    write_files(root, files_of(rule, "abc"))
    grown = check_against(root, target)
    assert grown.gate is not None and grown.gate.fixed == ()
    [new] = of_rule(grown.findings, rule)
    assert new.location.path == path_of(rule, "a")
    assert [m.location.path for m in new.members] == [path_of(rule, "a")]
    assert "this place, 1 of the group's 3" in new.message
    since = f"already in baseline `{target.as_posix()}`"
    assert sum((r.note or "").endswith(since) for r in new.related) == 2


def test_a_baseline_written_before_places_were_recorded_still_matches(tmp_path: Path) -> None:
    """A baseline written before this change has one entry per finding, at a group's first
    place (no `members`): it still accepts the group as it was; one written before findings were
    grouped has an entry per place, which accept the group too."""
    root = write_files(tmp_path / "spec", files_of("enum-drift", "bc"))
    target = tmp_path / "baseline.json"
    write_baseline(root, target)
    document = json.loads(target.read_text())
    for entry in document["entries"]:
        del entry["members"]
    target.write_text(json.dumps(document))
    outcome = check_against(root, target)
    assert outcome.gate is not None
    assert (outcome.findings, outcome.gate.fixed, len(outcome.gate.known)) == ([], (), 1)

    # Before findings were grouped, each enum was a finding of its own, its entry written alone.
    alone = [
        entry
        for name in "bc"
        for entry in write_baseline(
            write_files(tmp_path / name, files_of("enum-drift", name)), tmp_path / f"{name}.json"
        )
    ]
    assert [e["path"] for e in alone] == ["schemas/b.schema.json", "schemas/c.schema.json"]
    target.write_text(json.dumps({"speclint-baseline": 1, "entries": alone}))
    outcome = check_against(root, target)
    assert outcome.gate is not None
    assert (outcome.findings, outcome.gate.fixed, len(outcome.gate.known)) == ([], (), 1)


def test_a_baseline_entry_of_a_group_is_fixed_only_when_none_of_its_places_remain(
    tmp_path: Path,
) -> None:
    root = write_files(tmp_path / "spec", files_of("broken-link", "bc"))
    target = tmp_path / "baseline.json"
    write_baseline(root, target)
    (root / "docs/b.md").unlink()
    shrunk = check_against(root, target)
    assert shrunk.gate is not None and (shrunk.findings, shrunk.gate.fixed) == ([], ())
    (root / "docs/c.md").unlink()
    gone = check_against(root, target)
    assert gone.gate is not None and [f.path for f in gone.gate.fixed] == ["docs/b.md"]


def test_a_baseline_entry_with_malformed_places_is_a_usage_error(tmp_path: Path) -> None:
    root = write_files(tmp_path / "spec", files_of("broken-link", "bc"))
    target = tmp_path / "baseline.json"
    write_baseline(root, target)
    document = json.loads(target.read_text())
    document["entries"][0]["members"][1]["id"] = "not hex"
    target.write_text(json.dumps(document))
    result = cli("check", str(root), "--baseline", str(target))
    assert result.returncode == 2, result.stderr
    assert "entries[0].members[1]" in result.stderr and "Traceback" not in result.stderr


# --- the comparison is linear in the places -----------------------------------------------------


def test_comparing_groups_of_thousands_of_places_reads_each_place_a_bounded_number_of_times(
    tmp_path: Path,
) -> None:
    """280 pages × 2,100 schemas make groups of thousands of places (issue 44, item 7): each
    place's identity is made once per comparison, and no place is compared with every other."""
    root = write_files(tmp_path / "spec", {"docs/p.md": "# P\n"})
    corpus = Context.load(root, load_config(root))
    places = [Location(f"docs/p{n:05}.md", 3, 5, heading="p") for n in range(6000)]

    def group(start: int, stop: int) -> Finding:
        members = tuple(Member(place, "missing.md") for place in places[start:stop])
        return Finding(
            "broken-link",
            Severity.WARNING,
            f"`missing.md` does not exist ({stop - start} links)",
            places[start],
            key="missing.md",
            members=members,
        )

    made: list[int] = []

    def counting(rule: str, place: baseline.Place) -> tuple[str, ...]:
        made.append(1)
        return baseline.gate_place(rule, place)

    matching = replace(baseline.GATE, place=counting)
    base = [baseline.entry_for(corpus, group(3000, 6000))]
    applied = baseline.apply(corpus, [group(0, 6000)], base, matching, since="`main`")
    [new] = applied.new
    assert [m.location for m in new.members] == places[:3000]
    assert (applied.known, applied.fixed) == ([], [])
    assert len(made) <= 2 * (3000 + 6000)


def test_a_group_takes_its_old_places_from_one_group_of_the_base_and_the_other_is_fixed(
    tmp_path: Path,
) -> None:
    """Two groups of the base share a place: the head's group, which has that place and a place
    of the second only, stands for the second; the first, whose other place is gone, is fixed."""
    root = write_files(tmp_path / "spec", {"docs/p.md": "# P\n"})
    corpus = Context.load(root, load_config(root))
    a, b, c = (Location(f"docs/{n}.md", 3, 5, heading=n) for n in "abc")

    def group(message: str, *places: Location) -> Finding:
        members = tuple(Member(place, "missing.md") for place in places)
        return Finding("broken-link", Severity.WARNING, message, places[0], members=members)

    base = [baseline.entry_for(corpus, group(m, *p)) for m, p in (("one", (a, b)), ("two", (b, c)))]
    applied = baseline.apply(corpus, [group("three", b, c)], base, baseline.GATE, since="`main`")
    assert ([f.message for f in applied.known], applied.new) == (["three"], [])
    assert [e.message for e in applied.fixed] == ["one"]
