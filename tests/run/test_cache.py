"""The run and parse caches: a cached run reports byte for byte what a fresh one does, and every
input the result depends on invalidates it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from conftest import cli_in_process, copy_bundled_corpus
from speclint.common.cache_folder import ENTRY, corpus_folder
from speclint.common.places import cache_home
from speclint.run.cache import KEEP_RUNS, RunCache


def corpus_copy(tmp_path: Path) -> Path:
    target = tmp_path / "corpus"
    copy_bundled_corpus(target)
    return target


def folder_of(root: Path) -> Path:
    found = corpus_folder(root)
    assert found is not None
    return found


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def reports(root: Path, *extra: str) -> tuple[str, str, str, int]:
    """The text, SARIF and Markdown reports of one run (written outside the corpus)."""
    sarif, markdown = root.parent / "r.sarif", root.parent / "r.md"
    # In this process: what is compared is the reports; the cache is on disk (a run in process
    # keeps nothing in memory for the next) and the rules still run in forked workers.
    done = cli_in_process(
        "check",
        str(root),
        *("--format", "sarif", "--output", str(sarif)),
        *("--format", "markdown", "--output", str(markdown)),
        *("--format", "text"),
        *extra,
    )
    return (
        done.stdout,
        sarif.read_text(encoding="utf-8"),
        markdown.read_text(encoding="utf-8"),
        done.returncode,
    )


def test_a_cached_run_is_byte_identical_and_changes_invalidate_it(tmp_path: Path) -> None:
    root = corpus_copy(tmp_path)
    before = tree(root)
    fresh = reports(root, "--no-cache")
    home = cache_home() / "corpora"
    assert not any(
        (p / "root.txt").read_text().strip() == str(root.resolve())
        for p in (home.iterdir() if home.is_dir() else ())
        if (p / "root.txt").is_file()
    )  # --no-cache writes nothing (not even the folder, when this test runs first)
    first = reports(root)
    assert first == fresh
    assert tree(root) == before  # nothing is written into the corpus: the cache is the user's
    runs = list((folder_of(root) / "runs").glob(f"*{ENTRY}"))
    assert len(runs) == 1
    assert reports(root) == fresh  # from the run cache
    assert list((folder_of(root) / "runs").glob(f"*{ENTRY}")) == runs  # a hit: no new entry

    # A content change is seen (and its revert brings the cached result back).
    options = root / "schemas/run-options.schema.json"
    original = options.read_text()
    options.write_text(
        original.replace('"additionalProperties": false', '"additionalProperties": true')
    )
    changed = reports(root)
    assert changed[0] != fresh[0] and changed[0].count("\n") != fresh[0].count("\n")
    options.write_text(original)
    assert reports(root) == fresh

    # So is a configuration change.
    config = root / "speclint.toml"
    config.write_text(config.read_text() + '\n[rules.undeclared-tag]\nseverity = "off"\n')
    quieter = reports(root)
    assert "[undeclared-tag]" in fresh[0] and "[undeclared-tag]" not in quieter[0]


def test_corrupt_cache_entries_are_ignored(tmp_path: Path) -> None:
    root = corpus_copy(tmp_path)
    fresh = reports(root)
    entries = [p for p in folder_of(root).rglob(f"*{ENTRY}")]
    assert len(entries) > 10
    for entry in entries:
        entry.write_bytes(b"not a cache entry")
    assert reports(root) == fresh


def test_the_parse_cache_serves_unchanged_files_after_an_edit(tmp_path: Path) -> None:
    """After one file changes, the run is a miss but the other files' parses are reused: the
    result is the same as without any cache."""
    root = corpus_copy(tmp_path)
    reports(root)
    page = root / "spec/interrupt.md"
    page.write_text(page.read_text() + "\nOne more paragraph.\n")
    assert reports(root) == reports(root, "--no-cache")


def test_rules_that_read_only_json_and_yaml_keep_results_across_prose_edits(tmp_path: Path) -> None:
    """unresolved-ref and its kind (READS = "structured") are served from the rule cache after a
    prose edit, and re-run after a schema edit (rules checked one unit at a time are
    test_incremental's)."""
    from speclint.analyses.context import Context
    from speclint.model.config import load_config
    from speclint.run.cache import RuleCache
    from speclint.run.catalog import all_rules

    root = corpus_copy(tmp_path)
    structured = sorted(r for r, info in all_rules().items() if info.reads == "structured")
    assert {"unresolved-ref", "duplicate-key", "required-undeclared"} <= set(structured)
    reports(root)
    page = root / "spec/interrupt.md"
    page.write_text(page.read_text() + "\nMore prose.\n")
    corpus = Context.load(root, load_config(root))
    cache = RuleCache(folder_of(root))
    rules = all_rules()
    keys = [cache.key(corpus, r, rules[r]) or "" for r in structured]
    assert all(cache.get(k) is not None for k in keys)
    assert reports(root) == reports(root, "--no-cache")

    ack = root / "schemas/heartbeat-ack.schema.json"
    ack.write_text(ack.read_text().replace('"required": ["sequence"]', '"required": "sequence"'))
    corpus = Context.load(root, load_config(root))
    key = RuleCache.key(corpus, "unresolved-ref", rules["unresolved-ref"])
    assert RuleCache(folder_of(root)).get(key or "") is None
    after = reports(root)
    assert "heartbeat-ack.schema.json" in after[0] and "[schema-invalid]" in after[0]
    assert after == reports(root, "--no-cache")


def test_caches_of_other_speclint_code_are_never_used(tmp_path: Path, monkeypatch: Any) -> None:
    """The caches are keyed on the installed code, not only the version: entries written by
    other code (an upgrade, or an edit within one version) are ignored."""
    import speclint.run.cache as cache

    root = corpus_copy(tmp_path)
    fresh = reports(root)
    folder = folder_of(root)
    before = sorted(p.name for p in folder.glob("parse-*"))
    assert before == [f"parse-{cache.code_fingerprint()}"]
    assert len(list((folder / before[0]).glob(f"*{ENTRY}"))) > 10  # one per document
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "1111111111111111")
    other = cache.ParseCache(folder)
    assert other.cached("spec/interrupt.md", (root / "spec/interrupt.md").read_bytes()) is None
    assert other.misses == 1  # nothing of the real installation's entries is read
    monkeypatch.undo()
    assert reports(root) == fresh  # the CLI (its own fingerprint) still reports the same


def test_a_file_that_is_not_linted_still_invalidates_when_a_rule_looks_for_it(
    tmp_path: Path,
) -> None:
    """rfc-affects asks whether a path exists on disk (`conformance/run.ts` is never linted):
    the run cache keys on which files exist, not only on the linted ones."""
    root = tmp_path / "spec"
    (root / "rfcs").mkdir(parents=True)
    (root / "rfcs/0007-runs.md").write_text(
        "# RFC 0007: Runs\n\n| Field | Value |\n| --- | --- |\n| RFC | 0007 |\n"
        "| Title | Runs |\n| Status | Draft |\n| Created | 2026-01-01 |\n"
        "| Updated | 2026-01-02 |\n| Affects | `conformance/run.ts` |\n"
        "| Compatibility | additive |\n"
    )
    missing = "`conformance/run.ts`, which does not exist"
    assert missing in cli_in_process("check", str(root)).stdout
    (root / "conformance").mkdir()
    (root / "conformance/run.ts").write_text("export {};\n")
    assert missing not in cli_in_process("check", str(root)).stdout


def test_a_shortened_message_from_the_caches_prints_as_a_fresh_one(tmp_path: Path) -> None:
    """A message whose first line a terminal shows shortened (a Wording) is the same from the run
    cache and from the rule cache as from a fresh run."""
    from speclint.analyses.context import Context
    from speclint.model.config import load_config
    from speclint.run.cache import RuleCache
    from speclint.run.catalog import all_rules

    long = [f"a-rather-long-status-value-{n}" for n in range(10)]
    listed = " | ".join(f"`{v}`" for v in ["open", "closed", *long])
    root = tmp_path / "spec"
    (root / "docs").mkdir(parents=True)
    (root / "schemas").mkdir()
    (root / "docs/p.md").write_text(f"# Status\n\nThe `status` field is one of {listed}.\n")
    (root / "docs/other.md").write_text("# Other\n\nSome prose.\n")
    (root / "schemas/t.schema.json").write_text(
        '{"type": "object", "properties": {"status": {"enum": ["open", "closed"]}}}\n'
    )
    fresh = reports(root, "--no-cache")
    shortened = "lacks `a-rather-long-status-value-0` and 9 more, which the prose documents"
    assert shortened in fresh[0]  # the terminal's form, not the whole message
    assert reports(root) == fresh  # cold
    assert reports(root) == fresh  # from the run cache
    other = root / "docs/other.md"
    other.write_text(other.read_text() + "\nMore prose.\n")
    corpus = Context.load(root, load_config(root))
    key = RuleCache.key(corpus, "enum-drift", all_rules()["enum-drift"])
    [cached] = RuleCache(folder_of(root)).get(key or "")
    assert cached.shortened is not None and cached.terminal_message != cached.message
    assert reports(root) == reports(root, "--no-cache")  # from the rule cache


def test_an_edit_to_a_build_program_that_keeps_its_writes_still_invalidates_unresolved_ref(
    tmp_path: Path,
) -> None:
    """unresolved-ref reads a build program's text for the folder it copies
    (``downloads.program_text_names``), not only the names it writes: an edit that changes the
    folder and keeps the writes changes the rule's key."""
    import json

    from speclint.analyses.context import Context
    from speclint.model.config import load_config
    from speclint.run.cache import RuleCache
    from speclint.run.catalog import all_rules

    root = tmp_path / "spec"
    (root / "scripts").mkdir(parents=True)
    (root / "profiles").mkdir()
    (root / "package.json").write_text(
        json.dumps({"scripts": {"generate": "node scripts/generate.js"}})
    )
    program = root / "scripts/generate.js"
    program.write_text(
        'const SOURCE_DIR = "profiles"\nfs.writeFileSync(`${TARGET_DIR}/words.json`, "{}")\n'
    )
    (root / "profiles/card.json").write_text(json.dumps({"$ref": "words.json#/definitions/a"}))
    info = all_rules()["unresolved-ref"]

    def key() -> str | None:
        return RuleCache.key(Context.load(root, load_config(root)), "unresolved-ref", info)

    before = key()
    assert before is not None
    program.write_text(program.read_text().replace('"profiles"', '"cards"'))
    assert key() != before


GUIDE = (
    "# Contributing\n\nBuild the site:\n\n```bash\nnpm run build\n```\n\n"
    "The answer is `200`: see <https://example.org> for more.\n"
)
API = '{"openapi": "3.1.0", "info": {"title": "Vendor", "version": "1"}, "paths": {}}\n'


def provenance_key(root: Path) -> str | None:
    """The rule-cache key of inline-copy (it reads provenance), the corpus read through the
    parse cache as a run reads it."""
    from speclint.analyses.context import Context
    from speclint.model.config import load_config
    from speclint.run.cache import ParseCache, RuleCache
    from speclint.run.catalog import all_rules

    parses = ParseCache(folder_of(root))
    corpus = Context.load(root, load_config(root), parses)
    assert parses.misses <= 1  # the others come from the entries the last run wrote
    return RuleCache.key(corpus, "inline-copy", all_rules()["inline-copy"])


def guide_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "spec"
    (root / "docs").mkdir(parents=True)
    (root / "CONTRIBUTING.md").write_text(GUIDE)
    (root / "docs/other.md").write_text("# Other\n\nSome prose.\n")
    (root / "api.json").write_text(API)
    return root


def test_a_guide_s_fence_that_starts_downloading_a_file_changes_the_key_of_a_rule_that_reads_provenance(
    tmp_path: Path,
) -> None:
    """The pages' shell fences reach the key through what each page keeps of itself in the parse
    cache (``downloads.page_commands``): a fence that now downloads ``api.json`` makes it
    vendored, and inline-copy, which reads provenance, must run again."""
    root = guide_corpus(tmp_path)
    reports(root)
    before = provenance_key(root)
    assert before is not None
    guide = root / "CONTRIBUTING.md"
    guide.write_text(
        GUIDE.replace("npm run build", "curl -sSL https://vendor.example/api.json -o api.json")
    )
    reports(root)
    after = provenance_key(root)
    assert after is not None and after != before
    assert reports(root) == reports(root, "--no-cache")


def test_a_page_edit_elsewhere_keeps_the_key_of_a_rule_that_reads_provenance(
    tmp_path: Path,
) -> None:
    root = guide_corpus(tmp_path)
    reports(root)
    before = provenance_key(root)
    other = root / "docs/other.md"
    other.write_text(
        other.read_text() + "\n```bash\ncurl -o /tmp/x.json https://vendor.example/x.json\n```\n"
    )
    reports(root)
    assert provenance_key(root) == before


def test_a_damaged_commands_memo_in_a_parse_entry_is_a_miss_never_a_wrong_key(
    tmp_path: Path,
) -> None:
    """A parse entry whose page keeps a memo of the wrong shape (damaged, or written by other
    code) is read again from the page: the key is the one the page itself gives."""
    import dataclasses

    from speclint.analyses.repository.downloads import PAGE_COMMANDS
    from speclint.common.storage import dumps
    from speclint.run.cache import ParseCache

    root = guide_corpus(tmp_path)
    guide = root / "CONTRIBUTING.md"
    guide.write_text(
        GUIDE.replace("npm run build", "curl -sSL https://vendor.example/api.json -o api.json")
    )
    reports(root)
    fresh = provenance_key(root)
    raw = guide.read_bytes()
    parses = ParseCache(folder_of(root))
    entry = parses.folder / f"{parses._name('CONTRIBUTING.md', raw)}{ENTRY}"
    document = parses.cached("CONTRIBUTING.md", raw)
    assert document is not None and PAGE_COMMANDS in document.derived
    for damaged in ("not a memo", [["downloads"], [[5, "curl"]]], (("downloads",), ((5, 6),))):
        document.derived[PAGE_COMMANDS] = damaged
        entry.write_bytes(dumps(dataclasses.replace(document)))
        assert provenance_key(root) == fresh


def test_the_run_cache_keeps_the_entries_used_last_not_those_written_last(tmp_path: Path) -> None:
    # The hook's base (HEAD) is read by every attempt at a commit and written by none: eight
    # attempts must not push it out.
    folder = tmp_path / "corpus-cache"
    folder.mkdir(mode=0o700)
    runs = RunCache(folder)
    runs.put("head-of-the-branch", {"findings": []})
    for attempt in range(KEEP_RUNS - 1):
        runs.put(f"attempt-{attempt}", {"findings": []})
    entries = sorted(runs.folder.iterdir())
    for age, entry in enumerate(entries):  # written a second apart, the head first
        os.utime(entry, (1_000 + age, 1_000 + age))
    os.utime(runs.folder / f"head-of-the-branch{ENTRY}", (1_000, 1_000))
    assert runs.get("head-of-the-branch") is not None
    runs.put("one-more-attempt", {"findings": []})
    assert runs.get("head-of-the-branch") is not None
    assert len(list(runs.folder.iterdir())) == KEEP_RUNS
