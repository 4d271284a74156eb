"""The corpus registry behind every `$ref` (speclint.analyses.schemas.references, issue 29).

The registry is crawled once per run. A schema whose subschemas hold no `$id` and no anchor is
registered without walking them (SchemaStore: 2.5 s of crawling saved); these tests hold what the
crawl must still find: anchors (`$anchor`, draft-07's `$id: "#name"`), embedded `$id`s, and, for an
`$id` two files declare (a bundle holding a copy of another file's schema), the same file every run,
whatever the process's hash seed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing.exceptions import Unresolvable

from speclint.analyses.context import Context
from speclint.analyses.schemas.references import (
    EMBEDDED_KEY,
    NAMES_INSIDE_KEY,
    Reference,
    file_uri,
)
from speclint.run.engine import Options, lint
from speclint.run.resident import Resident

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema"
DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def reference_at(root: Path, path: str, pointer: str) -> Reference:
    found = Context.load(root).references.at(path, pointer)
    assert found is not None, (path, pointer)
    return found


def test_an_anchor_inside_another_file_resolves(make_corpus: MakeCorpus) -> None:
    names = {
        "$schema": DRAFT_2020,
        "$defs": {"name": {"$anchor": "name", "type": "string", "minLength": 1}},
    }
    user = {
        "$schema": DRAFT_2020,
        "type": "object",
        "properties": {
            "name": {"$ref": "names.json#name"},
            "alias": {"$ref": "names.json#alias"},
        },
    }
    root = make_corpus(
        {"schemas/names.json": json.dumps(names), "schemas/user.json": json.dumps(user)}
    )
    found = reference_at(root, "schemas/user.json", "/properties/name/$ref")
    assert found.outcome == "ok", found
    assert found.target_path == "schemas/names.json"
    missing = reference_at(root, "schemas/user.json", "/properties/alias/$ref")
    assert missing.outcome != "ok", missing


def test_a_draft_07_plain_name_id_resolves(make_corpus: MakeCorpus) -> None:
    # Draft-07 Core §8.2.3: `"$id": "#name"` names a subschema; there is no `$anchor` in it.
    names = {
        "$schema": DRAFT_07,
        "definitions": {"code": {"$id": "#code", "type": "string", "pattern": "^[A-Z]+$"}},
    }
    user = {"$schema": DRAFT_07, "properties": {"code": {"$ref": "names.json#code"}}}
    root = make_corpus(
        {"schemas/names.json": json.dumps(names), "schemas/user.json": json.dumps(user)}
    )
    found = reference_at(root, "schemas/user.json", "/properties/code/$ref")
    assert found.outcome == "ok", found


def embedded_money(make_corpus: MakeCorpus, bundle_head: dict[str, str]) -> Reference:
    """The reference of `order.json` to the `$id` a bundle embeds under ``$defs`` (the bundle's
    root members: ``bundle_head``)."""
    bundle = {
        **bundle_head,
        "$defs": {"money": {"$id": "https://example.test/money.json", "type": "number"}},
    }
    order = {
        "$schema": DRAFT_2020,
        "properties": {"total": {"$ref": "https://example.test/money.json"}},
    }
    root = make_corpus(
        {"schemas/bundle.json": json.dumps(bundle), "schemas/order.json": json.dumps(order)}
    )
    return reference_at(root, "schemas/order.json", "/properties/total/$ref")


def test_an_embedded_id_resolves_by_its_uri(make_corpus: MakeCorpus) -> None:
    head = {"$schema": DRAFT_2020, "$id": "https://example.test/bundle.json"}
    found = embedded_money(make_corpus, head)
    assert found.outcome == "ok", found
    assert found.target_path == "schemas/bundle.json"


def test_an_inner_id_under_an_https_draft_04_dialect_uri_resolves(make_corpus: MakeCorpus) -> None:
    # `referencing` reads the https form of the draft-04 URI as 2020-12 (`$id`); the check that
    # lets a schema skip the crawl must not read it as draft-04 (`id`) and miss the `$id`.
    found = embedded_money(make_corpus, {"$schema": "https://json-schema.org/draft-04/schema#"})
    assert found.outcome == "ok", found


def printed_under_seeds(script: str, root: Path, seeds: int) -> set[str]:
    """The lines ``script`` prints for ``root`` in child processes of ``seeds`` hash seeds (the
    registry's crawl order followed the seed)."""
    seen: set[str] = set()
    for seed in range(seeds):
        done = subprocess.run(
            [sys.executable, "-c", script, str(root)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            check=True,
        )
        seen.update(done.stdout.splitlines())
    return seen


# Which file's schema the registry holds under an `$id` two files declare, printed by a child
# process of a given hash seed (the crawl's order followed the seed).
_WINNER = """
import sys
from pathlib import Path
from speclint.analyses.context import Context
corpus = Context.load(Path(sys.argv[1]))
resolver = corpus.references.registry.resolver()
for name in ["info", *(f"info{number}" for number in range(12))]:
    print(resolver.lookup(f"https://example.test/{name}.json").contents.get("description"))
"""


def test_an_id_two_files_declare_names_the_first_file_every_run(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {}
    # Thirteen contested `$id`s: with one, a lucky seed would pass whatever the order.
    for number in range(12):
        files[f"definitions/info{number}.json"] = json.dumps(
            {
                "$schema": DRAFT_07,
                "$id": f"https://example.test/info{number}.json",
                "description": "the file",
                "type": "object",
            }
        )
    files["definitions/info.json"] = json.dumps(
        {
            "$schema": DRAFT_07,
            "$id": "https://example.test/info.json",
            "description": "the file",
            "type": "object",
        }
    )
    files["schemas/bundle.json"] = json.dumps(
        {
            "$schema": DRAFT_07,
            "$id": "https://example.test/bundle.json",
            "definitions": {
                "info": {
                    "$id": "https://example.test/info.json",
                    "description": "the bundle's copy",
                    "type": "object",
                },
                **{
                    f"info{number}": {
                        "$id": f"https://example.test/info{number}.json",
                        "description": "the bundle's copy",
                    }
                    for number in range(12)
                },
            },
        }
    )
    root = make_corpus(files)
    seen = printed_under_seeds(_WINNER, root, 6)
    # `definitions/` comes before `schemas/`: the standalone file keeps its `$id`.
    assert seen == {"the file"}


def test_an_anchor_written_with_an_escaped_key_resolves(make_corpus: MakeCorpus) -> None:
    # `"\u0024anchor"` is `$anchor` once parsed: judged from the data, not the text.
    names = '{"$schema": "%s", "$defs": {"name": {"\\u0024anchor": "name", "type": "string"}}}'
    user = {"$schema": DRAFT_2020, "properties": {"name": {"$ref": "names.json#name"}}}
    root = make_corpus(
        {"schemas/names.json": names % DRAFT_2020, "schemas/user.json": json.dumps(user)}
    )
    found = reference_at(root, "schemas/user.json", "/properties/name/$ref")
    assert found.outcome == "ok", found


_ANCHOR_WINNER = """
import sys
from pathlib import Path
from speclint.analyses.context import Context
corpus = Context.load(Path(sys.argv[1]))
resolver = corpus.references.registry.resolver()
print(resolver.lookup("https://example.test/x.json#n").contents.get("type"))
"""


def test_an_anchor_inside_an_id_two_files_declare_is_the_first_file_s(
    make_corpus: MakeCorpus,
) -> None:
    def copy(kind: str) -> str:
        return json.dumps(
            {
                "$schema": DRAFT_2020,
                "$id": "https://example.test/x.json",
                "$defs": {"n": {"$anchor": "n", "type": kind}},
            }
        )

    root = make_corpus({"a/x.json": copy("string"), "b/x.json": copy("integer")})
    seen = printed_under_seeds(_ANCHOR_WINNER, root, 8)
    assert seen == {"string"}


def test_a_resident_checker_reads_a_file_promoted_to_a_schema_afresh(
    make_corpus: MakeCorpus,
) -> None:
    """A plain JSON file an API document reaches (a path item: data) becomes a schema when a
    schema references it; its `$id` then moves the base of its `$ref`s. The resident checker
    (the daemon, the language server) keeps documents between runs: what it memoised of the file
    as data must not be read for the schema (a false unresolved-ref the CLI did not give)."""
    thing = {
        "$id": "sub/thing.json",
        "get": {
            "responses": {
                "200": {
                    "description": "ok",
                    "content": {"application/json": {"schema": {"$ref": "other.json"}}},
                }
            }
        },
    }
    api = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    $ref: '../shared/thing.json'\n"
    root = make_corpus(
        {
            "api/openapi.yaml": api,
            "shared/thing.json": json.dumps(thing),
            "shared/sub/other.json": json.dumps({"$schema": DRAFT_2020, "type": "string"}),
        }
    )
    resident = Resident(root)
    options = Options(resident=resident, rules=("unresolved-ref",))
    cold = Options(rules=("unresolved-ref",), cache=False)
    assert lint(root, options).findings == lint(root, cold).findings
    user = {"$schema": DRAFT_2020, "$ref": "../shared/thing.json"}
    (root / "schemas").mkdir()
    (root / "schemas/user.json").write_text(json.dumps(user))
    fresh = lint(root, cold).findings
    assert fresh == []  # a schema: `other.json` is read against its `$id`, `shared/sub/`
    assert lint(root, options).findings == fresh


def _shown(errors: Any) -> list[tuple[Any, ...]]:
    return sorted(
        (e.message, e.validator, list(e.absolute_path), [str(t) for t in e.absolute_schema_path])
        for e in errors
    )


def test_a_schema_looked_up_once_judges_values_as_its_reference_does(
    make_corpus: MakeCorpus,
) -> None:
    """value-invalid looks each schema object up once for all its values
    (``ReferenceIndex.validator_at``: SchemaStore's 77,000 values, 80 µs a lookup) instead of
    validating each through ``{"$ref": uri}``: the errors must be the same ones, schema paths
    included (its related location reads them), under an embedded `$id` whose relative `$ref`
    resolves against it, through another file, at a `false` schema, in another dialect (a
    `$ref` with siblings included, which the outer validator's dialect reads)."""
    shared = {"$schema": DRAFT_2020, "$defs": {"code": {"type": "string", "pattern": "^[A-Z]+$"}}}
    main = {
        "$schema": DRAFT_2020,
        "$id": "https://example.com/main.json",
        "$defs": {
            "inner": {
                "$id": "https://example.com/nested/inner.json",
                "type": "object",
                "properties": {"code": {"$ref": "../shared.json#/$defs/code"}},
                "required": ["code"],
            },
            "level": {"enum": ["low", "high"], "default": "mid"},
            "never": False,
            "old": {"$schema": DRAFT_07, "type": "integer", "exclusiveMinimum": 3},
            # Draft-07 ignores a `$ref`'s siblings, 2020-12 does not: the outer class decides.
            "beside": {"$schema": DRAFT_07, "$ref": "#/$defs/level", "type": "integer"},
        },
    }
    shared["$id"] = "https://example.com/shared.json"
    root = make_corpus(
        {"schemas/main.json": json.dumps(main), "schemas/shared.json": json.dumps(shared)}
    )
    index = Context.load(root).references
    dialect = Draft202012Validator
    uri_of = {
        pointer: f"{file_uri('schemas/main.json')}#{pointer}"
        for pointer in (
            "/$defs/inner",
            "/$defs/level",
            "/$defs/never",
            "/$defs/old",
            "/$defs/beside",
        )
    }
    cases = [
        ("/$defs/inner", {"code": "abc"}),
        ("/$defs/inner", {}),
        ("/$defs/inner", {"code": "ABC"}),
        ("/$defs/level", "mid"),
        ("/$defs/level", "low"),
        ("/$defs/never", 1),
        ("/$defs/old", 3),
        ("/$defs/old", "x"),
        ("/$defs/beside", "low"),
    ]
    for pointer, value in cases:
        through_ref = _shown(index.validator(dialect, uri_of[pointer]).iter_errors(value))
        looked_up = _shown(index.validator_at(dialect, uri_of[pointer]).iter_errors(value))
        assert looked_up == through_ref, (pointer, value)
    # Every case above but the valid ones fails: the comparison is not of empty lists.
    assert (
        sum(bool(_shown(index.validator(dialect, uri_of[p]).iter_errors(v))) for p, v in cases) == 7
    )
    with pytest.raises(Unresolvable):
        index.validator_at(dialect, f"{file_uri('schemas/main.json')}#/$defs/missing")


@pytest.mark.parametrize("bundle", ["a-bundle.schema.json", "values.schema.json"])
def test_an_embedded_id_naming_another_file_leaves_the_uri_to_that_file(
    make_corpus: MakeCorpus, bundle: str
) -> None:
    # A chart's values schema holds a copy of `config.json` under `"$id": "config.json"`: the
    # file's own URI, claimed twice. Before or after it in path order, the file keeps it, and
    # the run is not lost to the clash (it was an internal error).
    config = {"title": "Config", "type": "object", "properties": {"port": {"type": "integer"}}}
    values = {
        "$schema": DRAFT_2020,
        "type": "object",
        "properties": {"worker": {"$ref": "config.json"}},
        "$defs": {"copy": {"$id": "config.json", "type": "object", "properties": {}}},
    }
    root = make_corpus(
        {"helm/chart/config.json": json.dumps(config), f"helm/chart/{bundle}": json.dumps(values)}
    )
    found = reference_at(root, f"helm/chart/{bundle}", "/properties/worker/$ref")
    assert found.outcome == "ok", found
    assert found.target_path == "helm/chart/config.json"
    outcome = lint(root, Options(cache=False, preview=True))
    assert not [f for f in outcome.result.findings if f.rule == "internal-error"]


def test_what_the_registry_keeps_of_a_schema_is_its_contents(make_corpus: MakeCorpus) -> None:
    """Whether a schema names anything below its root, and which resources it embeds, are kept
    with the document (``references.names_inside``, ``references.embedded_uris``): a resident
    checker's next run does not walk it again. An edit makes another document, walked afresh:
    an anchor added, then an embedded draft-04 `id`, resolve as a cold run resolves them."""
    names = {"$schema": DRAFT_2020, "$defs": {"name": {"type": "string"}}}
    user = {
        "$schema": DRAFT_2020,
        "properties": {
            "name": {"$ref": "names.json#name"},
            "total": {"$ref": "money.json"},
        },
    }
    root = make_corpus(
        {"schemas/names.json": json.dumps(names), "schemas/user.json": json.dumps(user)}
    )
    resident = Resident(root)
    options = Options(resident=resident, rules=("unresolved-ref",))
    cold = Options(rules=("unresolved-ref",), cache=False)

    def unresolved() -> list[str]:
        """The references unresolved, as a cold run finds them, and each one's target file
        too (the registry's ``uri_to_path``)."""
        outcomes = [lint(root, replace(how, keep_corpus=True)) for how in (options, cold)]
        targets = [
            [(r.pointer, r.outcome, r.target_path) for r in outcome.corpus.references.references]
            for outcome in outcomes
            if outcome.corpus is not None
        ]
        assert targets[0] == targets[1] and outcomes[0].findings == outcomes[1].findings
        held[:] = targets[0]
        return sorted(f.location.pointer for f in outcomes[0].findings)

    held: list[tuple[str, str, str | None]] = []

    assert unresolved() == ["/properties/name/$ref", "/properties/total/$ref"]
    kept = next(d for d in resident.documents.kept.values() if d.path == "schemas/names.json")
    assert kept.derived[NAMES_INSIDE_KEY] is False and kept.derived[EMBEDDED_KEY] == ()
    names["$defs"]["name"]["$anchor"] = "name"
    (root / "schemas/names.json").write_text(json.dumps(names))
    assert unresolved() == ["/properties/total/$ref"]
    # A draft-04 schema embedded by its `id`, which the crawl of a 2020-12 document does not
    # read: only the embedded resources (``embedded_resources``) register it.
    draft_04 = "http://json-schema.org/draft-04/schema#"
    names["$defs"]["money"] = {"$schema": draft_04, "id": "money.json", "type": "number"}
    (root / "schemas/names.json").write_text(json.dumps(names))
    assert unresolved() == []
    assert ("/properties/total/$ref", "ok", "schemas/names.json") in held
