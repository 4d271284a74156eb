"""enum-drift (issue 46, round 4): a value list a sentence gives as plain words after the field it
names ("List jobs by status (queued, running, done)", "Statuses are queued, running and done."),
held to the field's enum under the heuristic `enum-drift/sentence-values`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule, schema
from speclint.common.findings import Finding

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def job(status: list[str]) -> str:
    return schema(
        title="Job",
        type="object",
        properties={"id": {"type": "string"}, "status": {"type": "string", "enum": status}},
    )


def task(state: list[str]) -> str:
    return schema(
        title="Task",
        type="object",
        properties={"status": {"type": "string", "enum": state}},
    )


def found(make_corpus: MakeCorpus, page: str, status: list[str]) -> list[Finding]:
    root = make_corpus({"schemas/job.schema.json": job(status), "docs/jobs.md": page})
    return run_rule(root, "enum-drift", {})


def where(findings: list[Finding]) -> list[tuple[str, int]]:
    return sorted((f.location.path, f.location.line) for f in findings)


def test_a_parenthesised_list_after_by_field_agrees_with_the_enum(make_corpus: MakeCorpus) -> None:
    page = "# Jobs\n\n- List jobs by status (queued, running, done)\n"
    assert found(make_corpus, page, ["queued", "running", "done"]) == []


def test_a_value_the_enum_lacks_is_found_at_the_enum(make_corpus: MakeCorpus) -> None:
    page = "# Jobs\n\n- List jobs by status (queued, running, paused, done)\n"
    (finding,) = found(make_corpus, page, ["queued", "running", "done"])
    assert finding.location.path == "schemas/job.schema.json"
    assert "lacks `paused`" in finding.message
    assert finding.heuristic == "enum-drift/sentence-values"
    assert [(r.path, r.line) for r in finding.related] == [("docs/jobs.md", 3)]


def test_a_list_the_enum_outgrew_is_found_at_the_sentence(make_corpus: MakeCorpus) -> None:
    page = "# Jobs\n\nStatuses are queued, running and done.\n"
    (finding,) = found(make_corpus, page, ["queued", "running", "failed", "done"])
    assert (finding.location.path, finding.location.line) == ("docs/jobs.md", 3)
    assert "`failed`" in finding.message


def test_a_list_the_words_name_binds_however_far_it_drifted(make_corpus: MakeCorpus) -> None:
    # two of four values renamed, one left out: the values alone are too far apart to bind,
    # but the sentence names the schema (`jobs`) and the field (`status`)
    page = "# Jobs\n\n- List jobs by status (idle, paused, errored, finished)\n"
    root = make_corpus(
        {
            "schemas/job.schema.json": job(["idle", "busy", "paused", "error"]),
            "schemas/task.schema.json": task(["idle", "paused", "gone"]),
            "docs/jobs.md": page,
        }
    )
    findings = run_rule(root, "enum-drift", {})
    # One drift both ways, one finding at the enum, the sentence its related place (issue 48).
    assert where(findings) == [("schemas/job.schema.json", 11)]
    assert [(r.path, r.line) for r in findings[0].related] == [("docs/jobs.md", 3)]


def test_a_list_of_examples_leaves_the_rest_unclaimed(make_corpus: MakeCorpus) -> None:
    page = "# Jobs\n\nFor example, statuses are queued, running and done.\n"
    assert found(make_corpus, page, ["queued", "running", "failed", "done"]) == []


def test_words_that_are_no_values_are_no_list(make_corpus: MakeCorpus) -> None:
    page = "# Jobs\n\nSort jobs by Status (Queued, Running, Done) or by id.\n"
    assert found(make_corpus, page, ["queued", "running", "failed", "done"]) == []
