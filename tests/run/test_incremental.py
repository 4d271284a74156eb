"""Incremental rules (issue 16, item 2): after an edit, the rules checked one unit at a time
(``READS = "page"`` or ``"document"``) re-check only the units that read the edited file, and the
reports are byte for byte those of a run with no cache, in one process and in many."""

from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from test_cache import corpus_copy, folder_of, reports

from conftest import BUNDLED_CORPUS, OPENWOP
from speclint.analyses.context import Context
from speclint.analyses.prose.rfcs import corpus_rfcs
from speclint.common.findings import Severity
from speclint.common.storage import dumps, loads
from speclint.model.config import Config, load_config
from speclint.model.corpus import parse_document
from speclint.rules import fence_invalid, undocumented_field
from speclint.run import engine, runner
from speclint.run.cache import RuleCache, _packed
from speclint.run.catalog import RuleInfo, all_rules
from speclint.run.engine import Options, _preparation, lint

# Written out, not derived from READS_PROTOS: a rule that lost the flag would be missed.
PROTO_RULES = {
    "method-table-drift",
    "proto-enum-drift",
    "proto-invalid",
    "proto-message-drift",
    "rpc-operation-drift",
}


def unit_rules() -> dict[str, str]:
    return {
        rule: info.reads for rule, info in all_rules().items() if info.reads in ("page", "document")
    }


def stale_units(root: Path) -> dict[str, set[str]]:
    """For each unit rule, the units the rule cache does not hold for the corpus as it is now."""
    corpus = Context.load(root, load_config(root))
    cache = RuleCache(folder_of(root))
    stale: dict[str, set[str]] = {}
    for rule, info in all_rules().items():
        keys = (
            RuleCache.unit_keys(corpus, rule, info) if info.reads in ("page", "document") else None
        )
        if keys is not None:
            stale[rule] = {path for path, key in keys.items() if cache.get(key) is None}
    return stale


def stale_rules(root: Path) -> set[str]:
    """The rules cached whole (READS = "structured" or "extract") whose entry does not match the
    corpus as it is now."""
    corpus = Context.load(root, load_config(root))
    cache = RuleCache(folder_of(root))
    return {
        rule
        for rule, info in all_rules().items()
        if info.reads in ("structured", "extract")
        and cache.get(RuleCache.key(corpus, rule, info) or "") is None
    }


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


EDITS: list[tuple[str, Callable[[Path], None], dict[str, set[str]], set[str]]] = [
    # (what is edited, the edit, unit rule -> the units it must re-check, the rules cached whole
    # that must run again; the rest stay cached)
    (
        "a sentence reworded (no line moves)",
        lambda root: replace(
            root / "spec/interrupt.md",
            "wait for input from outside.",
            "wait for input from outside (`RunOptions.bogus`).",
        ),
        {"page": {"spec/interrupt.md"}},
        # No value set, policy statement or payload list changed (lines moved would change
        # their locations, and so the findings).
        set(),
    ),
    (
        "a value list in the prose",
        lambda root: replace(root / "spec/interrupt.md", "\n## ", "\n- `gamma`\n\n## "),
        {"page": {"spec/interrupt.md"}},
        {"enum-drift", "proto-enum-drift"},  # a list may be of a proto enum
    ),
    (
        "a heading another page links to",
        lambda root: replace(
            root / "spec/stream-modes.md", "## Resuming a stream", "## Resumption"
        ),
        # The page itself, and every page that may link into it (by its file name).
        {
            "page": {"spec/stream-modes.md"},
            "broken-link": {"spec/stream-modes.md", "spec/rest-endpoints.md"},
        },
        set(),
    ),
    (
        "a proto fence added to a page",
        lambda root: replace(
            root / "spec/grpc-transport.md",
            "| `GET /.well-known/acme` |\n",
            "| `GET /.well-known/acme` |\n\n```proto\nmessage Ping { string id = 1; }\n```\n",
        ),
        {"page": {"spec/grpc-transport.md"}},
        # The rules that read the protos are keyed on each page's proto fences (READS_PROTOS:
        # speclint.run.catalog), whatever else they read of the pages.
        PROTO_RULES,
    ),
    (
        "a page removed",
        lambda root: (root / "spec/capabilities.md").unlink(),
        # The listing changed: every unit reads it (a link's target, a schema's path).
        {"page": {"*"}},
        {"*"},  # the listing changed
    ),
    (
        "a page added with a broken fence",
        lambda root: (root / "spec/new.md").write_text(
            '# New\n\nSee [streams](stream-modes.md#resumption).\n\n```json\n{"a": 1,}\n```\n',
            encoding="utf-8",
        ),
        {"page": {"*"}},
        {"*"},
    ),
    (
        "a schema's enum",
        lambda root: replace(root / "schemas/run-snapshot.schema.json", ', "cancelled"]', "]"),
        # Only the page rules that read the schemas re-check every page (fence-invalid reads
        # none, broken-link only their `$id`s); a document unit only when it reaches the schema.
        {"page": set(), "undocumented-field": {"*"}, "example-invalid": {"*"}},
        {"*"},
    ),
    (
        "a schema's $id",
        lambda root: replace(
            root / "schemas/run-filter.schema.json",
            "run-filter.schema.json",
            "run-filters.schema.json",
        ),
        # broken-link reads the `$id`s: every page is checked against the new set.
        {
            "page": set(),
            "undocumented-field": {"*"},
            "example-invalid": {"*"},
            "broken-link": {"*"},
        },
        {"*"},
    ),
]


def test_an_edit_rechecks_only_what_reads_it_and_reports_what_a_fresh_run_does(
    tmp_path: Path,
) -> None:
    assert {"broken-link", "undocumented-field", "fence-invalid"} <= set(unit_rules())
    root = corpus_copy(tmp_path)
    assert reports(root) == reports(root, "--no-cache")
    assert not any(stale_units(root).values())  # the run filled the rule cache
    assert not stale_rules(root)
    whole = {r for r, i in all_rules().items() if i.reads in ("structured", "extract")}
    for what, edit, expected, rerun in EDITS:
        edit(root)
        assert stale_rules(root) == (whole if rerun == {"*"} else rerun), what
        stale = stale_units(root)
        pages = {p.relative_to(root).as_posix() for p in root.rglob("*.md")}
        for rule, units in stale.items():
            kind = unit_rules()[rule]
            wanted = expected.get(rule, expected["page"] if kind == "page" else set())
            if wanted == {"*"}:
                assert units, (what, rule)
            elif kind == "page":
                assert units == wanted, (what, rule, units)
            else:
                assert units < pages | set(stale[rule]), (what, rule)
        fresh = reports(root, "--no-cache")
        assert reports(root) == fresh, what  # forked, from the rule cache
        assert reports(root, "--debug") == fresh, what  # the same, in this process
        assert not any(stale_units(root).values()), what
        assert not stale_rules(root), what


@pytest.mark.skipif(not OPENWOP.is_dir(), reason="the OpenWOP snapshot is not beside the checkout")
def test_incremental_runs_on_the_openwop_snapshot_report_what_a_fresh_run_does(
    tmp_path: Path,
) -> None:
    root = tmp_path / "openwop"
    shutil.copytree(OPENWOP, root)
    assert reports(root) == reports(root, "--no-cache")
    pages = sorted(root.rglob("*.md"))
    # A heading renamed on a page others link into, and a link broken on another page.
    linked = next(
        p for p in pages if "\n## " in p.read_text(encoding="utf-8") and p.stem != "README"
    )
    text = linked.read_text(encoding="utf-8")
    heading = text[text.index("\n## ") + 4 :].split("\n", 1)[0]
    linked.write_text(text.replace(f"\n## {heading}\n", f"\n## {heading} (renamed)\n", 1))
    other = pages[0]
    other.write_text(other.read_text(encoding="utf-8") + "\n[gone](./no-such-page.md)\n")
    schema = sorted(root.rglob("*.schema.json"))[0]
    schema.write_text(schema.read_text(encoding="utf-8").replace('"description"', '"title"', 1))
    assert os.environ.get("SPECLINT_NO_CACHE", "") in ("", "0")
    assert reports(root) == reports(root, "--no-cache")


def test_a_generated_corpus_reports_the_same_cached_uncached_in_one_process_and_many(
    tmp_path: Path,
) -> None:
    """The benchmark's generated corpus (cross-file `$ref`s, prose, an OpenAPI document): every
    way of running gives the same reports, before and after an edit of a schema and a page."""
    import sys

    from conftest import REPOSITORY

    sys.path.insert(0, str(REPOSITORY / "benchmarks"))
    try:
        from scale import generate_small
    finally:
        sys.path.remove(str(REPOSITORY / "benchmarks"))
    root = tmp_path / "generated"
    generate_small(root, 60, 8)

    def every_way() -> tuple[str, str, str, int]:
        fresh = reports(root, "--no-cache")
        assert reports(root) == fresh
        assert reports(root) == fresh  # now from the run cache
        assert reports(root, "--debug") == fresh  # the rules in this process
        return fresh

    before = every_way()
    schema = sorted((root / "schemas").glob("*.json"))[3]
    schema.write_text(schema.read_text().replace('"minLength": 1', '"minLength": 2', 1))
    page = sorted((root / "spec").glob("*.md"))[0]
    page.write_text(page.read_text() + "\nSee [nowhere](missing.md#gone).\n")
    after = every_way()
    assert after != before and "missing.md" in after[0]


def test_the_reference_index_kept_in_the_rule_cache_is_the_one_a_build_makes() -> None:
    """Restored from its record, the index has the same references and URIs, and makes its
    registry only when a validator is asked for (a page edit does not pay for the crawl)."""
    from jsonschema import Draft202012Validator

    from speclint.analyses.schemas.references import ReferenceIndex, file_uri
    from speclint.common.storage import dumps, loads

    root = Path(BUNDLED_CORPUS)
    built = Context.load(root, load_config(root)).references
    corpus = Context.load(root, load_config(root))
    restored = ReferenceIndex.from_record(corpus, loads(dumps(built.record())))
    assert restored is not None
    assert restored.references == built.references
    assert restored.uri_to_path == built.uri_to_path
    assert restored.built is None  # no registry yet
    validator = restored.validator(
        Draft202012Validator, file_uri("schemas/run-snapshot.schema.json")
    )
    assert not validator.is_valid({"status": "no-such-status"})
    assert restored.built is not None
    assert ReferenceIndex.from_record(corpus, ["not", "a record"]) is None


def test_a_page_from_the_parse_cache_decodes_its_prose_model_only_when_read() -> None:
    from speclint.common.storage import dumps, loads
    from speclint.model.corpus import parse_document
    from speclint.run.cache import _packed

    page = parse_document(
        "spec/interrupt.md", (Path(BUNDLED_CORPUS) / "spec/interrupt.md").read_bytes()
    )
    assert page.prose is not None
    stored = loads(dumps(_packed(page)))
    assert stored.model is None and isinstance(stored.packed_model, bytes)
    assert stored.prose == page.prose  # decoded on first read
    assert stored.packed_model is None
    damaged = loads(dumps(_packed(page)))
    damaged.packed_model = b"not an entry"
    assert damaged.prose == page.prose  # a damaged model is parsed again from the text


def test_what_a_rule_prepares_of_a_page_is_read_without_decoding_its_prose() -> None:
    """fence-invalid reads every page's example conventions for each run (its ``shared``); made
    as the page is parsed and kept in the parse cache with it, they are read back without
    decoding the page's prose model (a one-page edit of OpenWOP decoded the other 72 for them)."""
    wrapped = (
        "# Conventions\n\nLong strings are broken across lines for readability.\n\n"
        '```json\n{"a": "one\ntwo"}\n```\n'
    )
    plain = "# Runs\n\nA run has a status.\n"
    prepare = _preparation(Config(), Options(), caching=True)
    fresh = Context.from_texts({"spec/a.md": plain, "spec/z.md": wrapped})
    expected = fence_invalid.stated_conventions(fresh)
    assert expected == (fence_invalid.WRAPPED,)

    corpus = Context.from_texts({"spec/a.md": plain, "spec/z.md": wrapped})
    for path in ("spec/a.md", "spec/z.md"):
        page = parse_document(path, {"spec/a.md": plain, "spec/z.md": wrapped}[path])
        prepare(page)  # as the run does, on every core
        corpus.documents[path] = loads(dumps(_packed(page)))  # as the parse cache keeps it
    assert fence_invalid.stated_conventions(corpus) == expected
    for page in corpus.documents.values():
        assert page.model is None and isinstance(page.packed_model, bytes), page.path
    # A value the cache holds that is not what `prepare` makes is made again.
    corpus.documents["spec/z.md"].derived[f"prepare:{fence_invalid.ID}"] = ["not", "it"]
    corpus.memo.clear()
    assert fence_invalid.stated_conventions(corpus) == expected


def test_the_names_a_page_writes_are_kept_with_it_for_undocumented_field_s_inputs() -> None:
    """undocumented-field finds a page's inputs from the names the page writes; made as the page
    is parsed and kept in the parse cache, a later run does not read every page again for them
    (0.03 s of a one-page edit of OpenWOP), and finds the same inputs."""
    schema = '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}'
    texts = {
        "schemas/run.schema.json": schema,
        "spec/runs.md": "# Runs\n\n`run.status` is set; see [run](../schemas/run.schema.json).\n",
    }
    fresh = Context.from_texts(texts)
    expected = undocumented_field.unit_inputs(fresh, fresh.documents["spec/runs.md"])
    assert expected == ["schemas/run.schema.json"]
    prepare = _preparation(Config(), Options(), caching=True)
    page = parse_document("spec/runs.md", texts["spec/runs.md"])
    prepare(page)
    kept = loads(dumps(_packed(page)))
    assert kept.derived[f"prepare:{undocumented_field.ID}"] == (
        frozenset({"run"}),
        frozenset({"../schemas/run.schema.json"}),
    )
    corpus = Context.from_texts(texts)
    corpus.documents["spec/runs.md"] = kept
    assert undocumented_field.unit_inputs(corpus, kept) == expected


def test_finding_the_rfcs_decodes_the_prose_of_the_rfcs_alone() -> None:
    """Whether a page is an RFC is asked as it is parsed and kept with it in the parse cache: the
    rules that read the RFCs decode those pages, not every page (a one-page edit of OpenWOP
    decoded 72 pages in each of two workers for them)."""
    rfc = (
        "# RFC 0007: Run leases\n\n| Field | Value |\n| --- | --- |\n| Status | Draft |\n"
        "| Created | 2026-01-02 |\n| Affects | spec/runs.md |\n\n## Summary\n\nLeases.\n"
    )
    texts = {"rfcs/0007-run-leases.md": rfc, "spec/runs.md": "# Runs\n\nA run has a status.\n"}
    prepare = _preparation(Config(), Options(), caching=False)
    corpus = Context.from_texts(texts)
    for path, text in texts.items():
        page = parse_document(path, text)
        prepare(page)
        corpus.documents[path] = loads(dumps(_packed(page)))
    [found] = corpus_rfcs(corpus)
    assert found.document.path == "rfcs/0007-run-leases.md"
    runs = corpus.documents["spec/runs.md"]
    assert runs.model is None and isinstance(runs.packed_model, bytes)


def test_a_failure_while_preparing_a_page_is_left_to_the_rule_that_reads_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the run makes of each page as it is parsed (value sets, whether it is an RFC, the
    rules' ``prepare``) runs outside the rules' isolation: a bug there must not end the parse.
    The page is left without it, and the rule that reads it makes it in its own worker."""
    root = Path(BUNDLED_CORPUS)
    expected = engine.lint(root, engine.Options(cache=False)).findings

    def broken(document: object) -> bool:
        raise RuntimeError("a bug")

    monkeypatch.setattr(engine, "is_rfc", broken)
    assert engine.lint(root, engine.Options(cache=False)).findings == expected


def test_only_the_pages_several_rules_recheck_are_decoded_before_the_workers_fork() -> None:
    """A page that two page rules re-check is decoded once, before the workers fork, and not in
    each; one that a single rule re-checks is left to that rule's worker, where it is decoded
    while the other workers run (a schema edit: example-invalid alone re-checks every page, and
    decoding OpenWOP's 73 here held every rule back 0.2 s)."""
    texts = {f"spec/{name}.md": f"# {name}\n\nA paragraph about `{name}`.\n" for name in "abc"}
    corpus = Context.from_texts(texts)
    for path, text in texts.items():
        corpus.documents[path] = loads(dumps(_packed(parse_document(path, text))))

    def check(corpus: Context, options: object) -> list[object]:
        return []

    rules = {
        rule: RuleInfo(rule, Severity.INFO, "", __name__, check, reads="page")
        for rule in ("first", "second")
    }
    keys = {path: path for path in texts}
    units = {
        "first": runner._Units(keys, {}),  # re-checks every page
        "second": runner._Units(keys, {"spec/b.md": [], "spec/c.md": []}),  # spec/a.md only
    }
    runner._read_models(corpus, rules, units)
    decoded = {path for path, page in corpus.documents.items() if page.packed_model is None}
    assert decoded == {"spec/a.md"}
    assert corpus.documents["spec/b.md"].prose is not None  # the worker decodes it when it reads


RFC_PAGE = (
    "# RFC 0007: Runs\n\n| Field | Value |\n| --- | --- |\n| RFC | 0007 |\n| Title | Runs |\n"
    "| Status | Draft |\n| Created | 2026-01-01 |\n"
)


@pytest.mark.parametrize("reads_rfcs", [False, True])
def test_the_rfcs_are_decoded_before_the_workers_fork_only_for_a_rule_that_reads_them(
    reads_rfcs: bool,
) -> None:
    """A rule that reads the corpus whole but not its RFCs (parse-error, an Arazzo rule) runs
    after any edit: the RFCs' prose is left packed for it (0.3 s of a one-page hook on the MCP
    repository's 83 SEPs); a rule that declares ``READS_RFCS`` has them decoded once, here."""
    texts = {"rfcs/0007-runs.md": RFC_PAGE, "spec/a.md": "# A\n\nProse.\n"}
    corpus = Context.from_texts(texts)
    for path, text in texts.items():
        page = parse_document(path, text)
        _preparation(Config(), Options(), caching=True)(page)  # what the parse cache keeps
        corpus.documents[path] = loads(dumps(_packed(page)))

    def check(corpus: Context, options: object) -> list[object]:
        return []

    rules = {"whole": RuleInfo("whole", Severity.INFO, "", __name__, check, reads_rfcs=reads_rfcs)}
    runner._read_models(corpus, rules, {})
    decoded = {path for path, page in corpus.documents.items() if page.packed_model is None}
    assert decoded == ({"rfcs/0007-runs.md"} if reads_rfcs else set())


def test_the_rules_that_read_the_rfcs_declare_it() -> None:
    readers = {
        rule
        for rule, info in all_rules().items()
        if hasattr(importlib.import_module(info.module), "corpus_rfcs")
    }
    assert readers == {"rfc-header", "rfc-affects", "compat-claim"}
    assert {r for r, info in all_rules().items() if info.reads_rfcs} == readers


def test_the_rules_that_read_the_protos_declare_it() -> None:
    assert {r for r, info in all_rules().items() if info.reads_protos} == PROTO_RULES


def test_the_reference_index_is_kept_while_only_data_no_ref_reaches_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule cache keys the reference index on the documents it reads the content of
    (``references.indexed``: the schema and API documents and the data files a `$ref`
    reaches), and of every other one on whether it parsed: an edit of a data file no `$ref`
    reaches (a plugin's manifest) keeps it; an edit of a reached one, a data file that no longer
    parses and a schema edit build it again. Each run finds what a cold run finds."""
    from conftest import count_builds, schema, write_files
    from speclint.analyses.schemas.references import ReferenceIndex
    from speclint.run.resident import Resident

    monkeypatch.setenv("SPECLINT_CACHE_DIR", str(tmp_path / "cache"))
    api = (
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    $ref: 'paths/a.json'\n"
    )
    path_item = '{"get": {"responses": {"200": {"$ref": "#/missing"}}}}'
    root = write_files(
        tmp_path / "corpus",
        {
            "openapi.yaml": api,
            "paths/a.json": path_item,
            "plugin/manifest.json": '{"name": "a"}',
            "schemas/a.schema.json": schema(type="object", properties={"b": {"$ref": "#/no"}}),
        },
    )
    built = count_builds(monkeypatch, ReferenceIndex)
    resident = Resident(root)

    def run() -> int:
        before = len(built)
        found = lint(root, Options(resident=resident)).findings
        assert found == lint(root, Options(cache=False)).findings
        return len(built) - before - 1  # less the cold run's build

    assert run() == 1
    (root / "plugin/manifest.json").write_text('{"name": "b"}')
    assert run() == 0
    (root / "paths/a.json").write_text(path_item.replace("missing", "absent"))
    assert run() == 1
    (root / "plugin/manifest.json").write_text('{"name": ')
    assert run() == 1
    (root / "schemas/a.schema.json").write_text(schema(type="object"))
    assert run() == 1


def test_the_files_a_ref_reaches_follow_the_ref_map(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Which data files a document's `$ref`s reach is remembered with the document
    (``references._reached``), by the `[ref-map]` it was read with: a resident checker's run
    after the map changes reads the published URL as the corpus file it now maps to, as a cold
    run does."""
    from conftest import write_files
    from speclint.run.resident import Resident

    monkeypatch.setenv("SPECLINT_CACHE_DIR", str(tmp_path / "cache"))
    api = (
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n"
        "  /a:\n    $ref: 'https://api.example/paths/a.json'\n"
    )
    root = write_files(
        tmp_path / "corpus",
        {
            "openapi.yaml": api,
            "paths/a.json": '{"get": {"responses": {"200": {"$ref": "#/missing"}}}}',
        },
    )
    resident = Resident(root)

    def rules() -> list[str]:
        found = lint(root, Options(resident=resident)).findings
        assert found == lint(root, Options(cache=False)).findings
        return sorted(f.rule for f in found if f.location.path == "paths/a.json")

    assert "unresolved-ref" not in rules()  # a remote reference: the file is plain data
    write_files(root, {"speclint.toml": '[ref-map]\n"https://api.example/paths/" = "paths/"\n'})
    assert "unresolved-ref" in rules()  # a fragment now: its own `$ref` is read
    (root / "speclint.toml").unlink()
    assert "unresolved-ref" not in rules()
