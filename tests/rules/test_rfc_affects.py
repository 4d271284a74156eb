"""``rfc-affects`` on fixtures written here, one test a case, named after it. The rule: an RFC
whose `Affects` names a file that does not exist."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_rfc_header import LIFECYCLE, rfc

from conftest import run_rule

# rfc-header and rfc-affects: RFC header tables checked against the lifecycle and the tree.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


BASE: dict[str, str | bytes] = {
    "api/openapi.yaml": "openapi: 3.1.0\ninfo: {title: t, version: 1.0.0}\npaths: {}\n",
    "speclint.toml": LIFECYCLE,
}


def test_rfc_affects_reports_each_missing_path(make_corpus: MakeCorpus) -> None:
    affects = (
        "`api/openapi.yaml` (ops) · `schemas/gone.schema.json` · `openapi.yaml` · `spec/` · `docs/`"
    )
    root = make_corpus(
        {**BASE, "spec/x.md": "# X\n", "rfcs/0001-a.md": rfc("0001", Affects=affects)}
    )
    found = run_rule(root, "rfc-affects")
    assert sorted(f.message.split("`")[3] for f in found) == ["docs/", "schemas/gone.schema.json"]
    assert all(f.location.line == 10 for f in found)


def test_openwop_rfcs(openwop: Path) -> None:
    """The snapshot's four RFC headers are consistent; Affects names files the snapshot lacks
    (see SNAPSHOT.md: run-options and annotation schemas are known to be absent)."""
    assert run_rule(openwop, "rfc-header") == []
    missing = {f.message.split("`")[3] for f in run_rule(openwop, "rfc-affects")}
    assert {"schemas/run-options.schema.json", "schemas/annotation.schema.json"} <= missing
    assert all(not (openwop / path).exists() for path in missing)


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _rfc(affects: str) -> str:
    return (
        "# RFC 0007: Quotas\n\n| Field | Value |\n|---|---|\n| **RFC** | 0007 |\n"
        "| **Status** | Draft |\n"
        f"| **Affects** | {affects} |\n\n## Summary\n\nText.\n"
    )


def _missing(root: Path) -> list[str]:
    return sorted(f.message.split("`")[3] for f in run_rule(root, "rfc-affects", {}))


def test_rfc_affects_finds_a_path_relative_to_the_rfcs_own_folder(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "proposals/0007-quotas.md": _rfc("`diagrams/quota.md`"),
            "proposals/diagrams/quota.md": "# Q\n",
        }
    )
    assert _missing(root) == []
    (root / "proposals/diagrams/quota.md").unlink()
    assert _missing(root) == ["diagrams/quota.md"]


def test_rfc_affects_finds_a_bare_file_name_a_file_of_the_corpus_has(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        "proposals/0007-quotas.md": _rfc("`limits.md`"),
        "spec/v1/limits.md": "# Limits\n",
        "spec/v2/limits.md": "# Limits\n",
    }
    assert _missing(make_corpus(files)) == []
    # the control: a name no file has, and a path with a folder, which is not a bare name
    files["proposals/0007-quotas.md"] = _rfc("`quotas.md` · `spec/limits.md`")
    assert _missing(make_corpus(files)) == ["quotas.md", "spec/limits.md"]
