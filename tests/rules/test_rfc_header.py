"""``rfc-header`` on fixtures written here, one test a case, named after it. The rule: an RFC
header that is incomplete or contradicts itself or the RFCs it names."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.analyses.prose.rfcs import affected_paths

# rfc-header and rfc-affects: RFC header tables checked against the lifecycle and the tree.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def rfc(number: str, **fields: str) -> str:
    header = {
        "RFC": number,
        "Title": "A change",
        "Status": "`Draft`",
        "Created": "2026-01-01",
        "Updated": "2026-01-02 (Draft → Active, after review)",
        "Affects": "`api/openapi.yaml`",
        "Compatibility": "additive",
        "Supersedes": "—",
        "Superseded by": "—",
    }
    header.update({k.replace("_", " "): v for k, v in fields.items()})
    rows = "\n".join(f"| **{k}** | {v} |" for k, v in header.items())
    return (
        f"# RFC {number}: A change\n\n| Field | Value |\n|---|---|\n{rows}\n\n## Summary\n\nText.\n"
    )


LIFECYCLE = (
    '[rules.rfc-header]\nstatuses = ["Draft", "Active", "Accepted", "Rejected", "Withdrawn", '
    '"Superseded"]\n'
)


BASE: dict[str, str | bytes] = {
    "api/openapi.yaml": "openapi: 3.1.0\ninfo: {title: t, version: 1.0.0}\npaths: {}\n",
    "speclint.toml": LIFECYCLE,
}


def test_a_consistent_header_passes_and_each_defect_is_named(make_corpus: MakeCorpus) -> None:
    good = make_corpus({**BASE, "rfcs/0001-a.md": rfc("0001")})
    assert run_rule(good, "rfc-header") == []
    cases = {
        "status": (
            rfc("0001", Status="Approved"),
            "`Status` is `Approved`, not a lifecycle status",
            7,
        ),
        "order": (
            rfc("0001", Updated="2025-12-31"),
            "`Updated` (2025-12-31) is earlier than `Created` (2026-01-01)",
            9,
        ),
        "date": (
            rfc("0001", Created="last spring"),
            "`Created` (last spring) has no YYYY-MM-DD date",
            8,
        ),
        "number": (rfc("0002"), "the header says RFC 0002 but the file is named 0001", 5),
        "superseded": (rfc("0001", Status="Superseded"), "`Superseded by` names no RFC", 7),
    }
    for name, (text, message, line) in cases.items():
        [finding] = run_rule(make_corpus({**BASE, "rfcs/0001-a.md": text}), "rfc-header")
        assert message in finding.message, name
        assert (finding.location.path, finding.location.line) == ("rfcs/0001-a.md", line), name


def test_required_fields_follow_what_nearly_all_rfcs_beside_it_carry(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {**BASE, "rfcs/0001-a.md": rfc("0001")}
    for n in range(2, 11):
        extra = {"Author(s)": f"A{n}", **({"PR": f"#{n}"} if n % 3 else {})}
        if n == 4:
            extra["Compatibility"] = ""
        files[f"rfcs/{n:04d}-x.md"] = rfc(f"{n:04d}", **extra)
    found = run_rule(make_corpus(files), "rfc-header")
    by_file = {f.location.path: f.message for f in found}
    assert set(by_file) == {"rfcs/0001-a.md", "rfcs/0004-x.md"}
    assert "lacks `Author(s)`" in by_file["rfcs/0001-a.md"]  # nine in ten carry it
    assert "`Compatibility`" in by_file["rfcs/0004-x.md"]
    assert "`Author(s)`" not in by_file["rfcs/0004-x.md"]
    # `PR` is on six in ten (MCP's SEPs name a PR when there is one): not the convention.
    assert not any("`PR`" in message for message in by_file.values())


def test_each_folder_and_header_style_is_a_convention_of_its_own(make_corpus: MakeCorpus) -> None:
    # MCP keeps SEPs as bullet-list headers in `seps/` and renders them as tables elsewhere.
    def bullets(number: str, status: str = "Final") -> str:
        return (
            f"# SEP-{number}: A change\n\n- **Status**: {status}\n- **Type**: Standards Track\n"
            f"- **Created**: 2025-09-30\n- **Author(s)**: Someone\n\n## Abstract\n\nText.\n"
        )

    files: dict[str, str | bytes] = {
        "api/openapi.yaml": BASE["api/openapi.yaml"],
        **{f"rfcs/{n:04d}-x.md": rfc(f"{n:04d}") for n in range(1, 5)},
        **{f"seps/{n}-y.md": bullets(str(n)) for n in range(100, 104)},
        "seps/TEMPLATE.md": bullets("NNNN", "Draft | Final").replace("2025-09-30", "YYYY-MM-DD"),
    }
    assert run_rule(make_corpus(files), "rfc-header") == []
    files["seps/104-z.md"] = bullets("104", "Fnial")
    [typo] = run_rule(make_corpus(files), "rfc-header")
    assert typo.location.path == "seps/104-z.md" and typo.location.line == 3
    assert "`Fnial`, which no other RFC uses; 4 RFCs of the corpus use `Final`" in typo.message


def test_without_a_stated_lifecycle_any_status_the_corpus_uses_is_its_own(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        "api/openapi.yaml": BASE["api/openapi.yaml"],
        "rfcs/0001-a.md": rfc("0001", Status="Final"),
        "rfcs/0002-b.md": rfc("0002", Status="Approved"),
        "rfcs/0003-c.md": rfc("0003", Status="Final"),
    }
    assert run_rule(make_corpus(files), "rfc-header") == []


def test_supersedes_must_be_reciprocal(make_corpus: MakeCorpus) -> None:
    one_sided = {
        **BASE,
        "rfcs/0001-a.md": rfc("0001", Status="Superseded", Superseded_by="[RFC 0002](0002-b.md)"),
        "rfcs/0002-b.md": rfc("0002"),
    }
    [finding] = run_rule(make_corpus(one_sided), "rfc-header")
    assert finding.location.path == "rfcs/0001-a.md"
    assert (
        "names RFC 0002, but rfcs/0002-b.md's `Supersedes` does not name RFC 0001"
        in finding.message
    )
    both = {**one_sided, "rfcs/0002-b.md": rfc("0002", Supersedes="RFC 0001")}
    assert run_rule(make_corpus(both), "rfc-header") == []


def test_tables_that_are_not_rfc_headers_are_left_alone(make_corpus: MakeCorpus) -> None:
    page = (
        "# Statuses\n\n| status | terminal | meaning |\n|---|---|---|\n| `running` | no | busy |\n"
    )
    legend = "# RFCs\n\n| Status | Meaning |\n|---|---|\n| Draft | open |\n"
    root = make_corpus({**BASE, "spec/runs.md": page, "rfcs/README.md": legend})
    assert run_rule(root, "rfc-header") == []


def test_affected_paths_drop_notes_and_keep_files_and_code_folders() -> None:
    value = (
        "`schemas/capabilities.schema.json` (additive `host.feedback` block) · new "
        "`schemas/annotation.schema.json` · COMPATIBILITY.md · `conformance/` (§B/§D) · "
        "`conformance/*.test.ts` · [site](https://example.org/x.json)"
    )
    assert affected_paths(value) == [
        "schemas/capabilities.schema.json",
        "schemas/annotation.schema.json",
        "conformance/",
        "COMPATIBILITY.md",
    ]
