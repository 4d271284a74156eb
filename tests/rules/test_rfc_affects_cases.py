"""rfc-affects: how a path of ``Affects`` is looked up, each case a test named after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

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
