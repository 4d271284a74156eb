"""Classes found at the first read of ecosystem batch 5 (issue 45), each on a fixture of ours."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_cli, run_rule
from speclint.analyses.context import Context
from speclint.analyses.prose import enumerations
from speclint.analyses.schemas import roles
from speclint.model.config import load_config
from speclint.model.corpus import Document
from speclint.run import catalog, runner

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

API = (
    "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n"
    "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n"
)


def _report(root: Path) -> tuple[int, list[dict[str, object]]]:
    result = run_cli("check", str(root), "--preview", "--no-cache", "--quiet", "--format", "json")
    return result.exit_code, json.loads(result.output)["findings"]


def test_a_component_that_is_no_object_is_read_past(make_corpus: MakeCorpus) -> None:
    """`components.requestBodies.X: "text"`: the roles analysis asked it for its `content` and
    the whole run ended in an internal error (exit 2, no report). It is openapi-invalid's
    finding, and every rule runs."""
    api = API + "components:\n  requestBodies:\n    Broken: just text\n"
    code, findings = _report(make_corpus({"api/openapi.yaml": api}))
    assert code == 1
    assert {f["rule"] for f in findings} == {"openapi-invalid"}


def test_a_shared_analysis_that_fails_costs_its_readers_not_the_run(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An analysis the run builds before the rules fork (here the roles) that meets an input
    speclint did not foresee: each rule that reads it reports an internal error, the rest of
    the corpus is still checked, and the run still writes its report."""

    def broken(*args: object, **kwargs: object) -> object:
        raise AttributeError("an input nobody foresaw")

    monkeypatch.setattr(roles.RoleMap, "build", broken)
    page = "# P\n\nSee [missing](gone.md).\n"
    code, findings = _report(make_corpus({"api/openapi.yaml": API, "docs/p.md": page}))
    assert code == 1
    rules = {f["rule"] for f in findings}
    assert "internal-error" in rules and "broken-link" in rules


def test_a_swagger_2_default_that_stands_for_unset_is_no_error(make_corpus: MakeCorpus) -> None:
    """openapi-invalid judges Swagger 2.0's schema defaults itself (value-invalid does not read
    Swagger 2.0): with value-invalid's conventions, so `default: ""` under `format: email` (an
    empty string for "unset") is no error, while a default of the wrong type still is."""
    head = "swagger: '2.0'\ninfo: {title: T, version: '1'}\n"
    api = head + (
        "paths:\n  /m:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        "          schema:\n            type: object\n            properties:\n"
        "              from: {type: string, format: email, default: ''}\n"
        "              count: {type: string, default: 5}\n"
    )
    found = run_rule(make_corpus({"api/swagger.yaml": api}), "openapi-invalid")
    [finding] = [f for f in found if not f.coverage]
    assert finding.location.pointer.endswith("/count/default"), finding.message


def test_a_page_whose_value_sets_fail_to_build_leaves_the_other_pages_primed(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run builds each page's value sets before the rules fork: one page that meets an input
    speclint did not foresee is rebuilt (and fails) in each rule that reads it, but the other
    pages' sets are still built once, not once per rule."""
    real = enumerations._prose_sets

    def broken_on_a(document: Document) -> list[enumerations.ProseSet]:
        if document.path == "docs/a.md":
            raise AttributeError("an input nobody foresaw")
        return real(document)

    monkeypatch.setattr(enumerations, "_prose_sets", broken_on_a)
    page = "# P\n\nThe mode is one of `on` or `off`.\n"
    root = make_corpus({"docs/a.md": page, "docs/b.md": page, "docs/c.md": page})
    corpus = Context.load(root, load_config(root))
    runner.prime(corpus)
    primed = {p for p, d in corpus.documents.items() if "prose_sets" in d.derived}
    assert primed == {"docs/b.md", "docs/c.md"}


def test_a_rule_that_leaves_a_defect_to_no_rule_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`LEAVES_TO` names the rules a rule leaves a defect to when they run; a misspelt id would
    read as "not run" and the rule would quietly report the defect itself. The catalog refuses it."""
    folder = tmp_path / "fake_rules"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    body = "SEVERITY = None\nREADS = 'all'\ndef check(corpus, options):\n    return iter(())\n"
    (folder / "alpha.py").write_text(f"ID = 'alpha'\nLEAVES_TO = ('beta',)\n{body}")
    (folder / "beta.py").write_text(f"ID = 'beta'\n{body}")
    monkeypatch.syspath_prepend(str(tmp_path))
    fake = importlib.import_module("fake_rules")
    monkeypatch.setattr(catalog, "package", fake)
    catalog.all_rules.cache_clear()
    try:
        assert catalog.all_rules()["alpha"].leaves_to == ("beta",)
        catalog.all_rules.cache_clear()
        (folder / "alpha.py").write_text(f"ID = 'alpha'\nLEAVES_TO = ('betta',)\n{body}")
        sys.modules.pop("fake_rules.alpha", None)
        with pytest.raises(RuntimeError, match="LEAVES_TO names no rule"):
            catalog.all_rules()
    finally:
        catalog.all_rules.cache_clear()
