"""Issue 26, item 4: false-positive classes of the reference and identity rules.

- a ``$ref`` into a plain YAML/JSON fragment file (not a schema) resolves;
- openapi-invalid keeps its semantic checks when one ``$ref`` does not resolve;
- a missing file referenced from many places, in many folders, is one finding naming it;
- one schema published as YAML and as JSON under one ``$id`` is not a duplicate id;
- a legacy ``$schema`` URI is read as the draft it names, with at most one info.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from test_cli import cli

from conftest import findings_of
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.outputs.api_bundle import bundle_api, external_refs
from speclint.parsing.kinds import DocumentKind

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


# --- a `$ref` into a plain fragment file ---------------------------------------------------------

API_WITH_FRAGMENTS = """\
openapi: 3.1.0
info: {title: Runs, version: 1.0.0}
servers:
  - $ref: ../common/servers.yaml#/prod
paths:
  /runs/{runId}:
    $ref: paths/run.yaml
  /health:
    get:
      operationId: health
      parameters:
        - $ref: ../common/parameters.yaml#/verbose
      responses:
        "200":
          description: Up.
"""

PATH_ITEM = """\
get:
  operationId: getRun
  parameters:
    - $ref: ../../common/parameters.yaml#/runId
  responses:
    "200":
      description: The run.
"""

SERVERS = """\
prod:
  url: https://api.example.org
  description: Production
"""

PARAMETERS = """\
runId:
  name: runId
  in: path
  required: true
  schema: {type: string}
verbose:
  name: verbose
  in: query
  schema: {type: boolean}
"""


def fragment_corpus(make_corpus: MakeCorpus) -> Path:
    return make_corpus(
        {
            "api/openapi.yaml": API_WITH_FRAGMENTS,
            "api/paths/run.yaml": PATH_ITEM,
            "common/servers.yaml": SERVERS,
            "common/parameters.yaml": PARAMETERS,
        }
    )


def test_ref_into_a_plain_fragment_file_resolves(make_corpus: MakeCorpus) -> None:
    root = fragment_corpus(make_corpus)
    assert findings_of("unresolved-ref", root) == []
    corpus = Context.load(root)
    # The fragments stay data: no rule reads them as schemas.
    for path in ("common/servers.yaml", "common/parameters.yaml", "api/paths/run.yaml"):
        assert corpus.documents[path].kind is DocumentKind.DATA
    assert all(d.kind is not DocumentKind.DATA for d in corpus.of_kind(DocumentKind.SCHEMA))
    assert findings_of("schema-invalid", root) == []
    # The fragment's own `$ref` is resolved too (and so checked).
    [inner] = [r for r in corpus.references.references if r.path == "api/paths/run.yaml"]
    assert (inner.outcome, inner.target_path) == ("ok", "common/parameters.yaml")


def test_an_api_with_fragment_files_bundles(make_corpus: MakeCorpus) -> None:
    """The bundler follows resolved references: fragments become components."""
    root = fragment_corpus(make_corpus)
    corpus = Context.load(root)
    built = bundle_api(corpus, corpus.documents["api/openapi.yaml"]).plain()
    assert list(external_refs(built)) == []
    assert set(built["components"]["parameters"]) == {"runId", "verbose"}
    assert built["components"]["pathItems"]["run"]["get"]["operationId"] == "getRun"


def test_a_fragment_files_own_broken_ref_is_reported(make_corpus: MakeCorpus) -> None:
    root = fragment_corpus(make_corpus)
    (root / "api/paths/run.yaml").write_text(PATH_ITEM.replace("#/runId", "#/runIdentifier"))
    [finding] = findings_of("unresolved-ref", root)
    assert finding.location.path == "api/paths/run.yaml"
    assert "`/runIdentifier`" in finding.message


def test_missing_fragment_pointer_is_still_reported(make_corpus: MakeCorpus) -> None:
    root = fragment_corpus(make_corpus)
    (root / "common/servers.yaml").write_text(SERVERS.replace("prod:", "production:"))
    [finding] = findings_of("unresolved-ref", root)
    assert finding.location.path == "api/openapi.yaml"
    assert "common/servers.yaml" in finding.message and "`/prod`" in finding.message


def test_a_file_path_ref_with_braces_names_that_file(make_corpus: MakeCorpus) -> None:
    """`paths/runs_{runId}.yaml` (Redocly's layout) is a file path, not an invalid URI."""
    root = fragment_corpus(make_corpus)
    (root / "api/paths/run.yaml").rename(root / "api/paths/runs_{runId} copy.yaml")
    text = (root / "api/openapi.yaml").read_text()
    (root / "api/openapi.yaml").write_text(
        text.replace("paths/run.yaml", "paths/runs_{runId} copy.yaml")
    )
    assert findings_of("unresolved-ref", root) == []
    corpus = Context.load(root)
    [inner] = [r for r in corpus.references.references if r.path.startswith("api/paths/")]
    assert inner.outcome == "ok"


def test_a_ref_to_an_existing_text_file_is_not_missing(make_corpus: MakeCorpus) -> None:
    """Redocly replaces a `$ref` to a Markdown file or a code sample by its text: the file is
    there, so it is not reported missing; a missing one still is."""
    api = API_WITH_FRAGMENTS.replace(
        "info: {title: Runs, version: 1.0.0}",
        "info:\n  title: Runs\n  version: 1.0.0\n  description:\n    $ref: ./intro.md",
    ).replace(
        "      operationId: health\n",
        "      operationId: health\n      x-codeSamples:\n        - lang: C#\n"
        "          source:\n            $ref: ./samples/health.cs\n"
        "        - lang: PHP\n          source:\n            $ref: ./samples/health.php\n",
    )
    root = make_corpus(
        {
            "api/openapi.yaml": api,
            "api/intro.md": "# Runs\n\nThe runs API.\n",
            "api/samples/health.cs": "var health = client.Health();\n",
            "api/paths/run.yaml": PATH_ITEM,
            "common/servers.yaml": SERVERS,
            "common/parameters.yaml": PARAMETERS,
        }
    )
    [finding] = findings_of("unresolved-ref", root)
    assert "`api/samples/health.php` does not exist" in finding.message


# --- openapi-invalid past an unresolvable `$ref` -------------------------------------------------

API_DUPLICATES = """\
openapi: 3.1.0
info: {title: Runs, version: 1.0.0}
paths:
  /runs:
    get:
      operationId: listRuns
      parameters:
        - $ref: ../common/missing.yaml#/limit
      responses:
        "200": {description: Runs.}
    post:
      operationId: listRuns
      responses:
        "201": {description: Created.}
  /runs/{runId}:
    get:
      operationId: getRun
      responses:
        "200": {description: The run.}
"""


def test_openapi_semantic_checks_run_past_an_unresolvable_ref(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": API_DUPLICATES})
    messages = [f.message for f in findings_of("openapi-invalid", root)]
    assert any("listRuns" in m and "not unique" in m for m in messages), messages
    assert any("runId" in m for m in messages), messages
    # The broken reference itself is unresolved-ref's one finding, not openapi-invalid's.
    assert not any("missing.yaml" in m for m in messages), messages
    [unresolved] = findings_of("unresolved-ref", root)
    assert "common/missing.yaml" in unresolved.message


def test_openapi_checks_run_past_a_missing_whole_file(make_corpus: MakeCorpus) -> None:
    """A parameter `$ref` to a missing file (no fragment) is not an empty parameter: no crash."""
    root = make_corpus({"api/openapi.yaml": API_DUPLICATES.replace("#/limit", "")})
    messages = [f.message for f in findings_of("openapi-invalid", root)]
    assert any("listRuns" in m and "not unique" in m for m in messages), messages
    assert any("runId" in m for m in messages), messages
    assert not any("cannot check" in m for m in messages), messages


def test_openapi_checks_run_past_a_remote_parameter(make_corpus: MakeCorpus) -> None:
    """A remote parameter is unknown, not an empty parameter: no crash, the rest is checked."""
    remote = "https://schemas.example.org/parameters/limit.yaml"
    root = make_corpus(
        {"api/openapi.yaml": API_DUPLICATES.replace("../common/missing.yaml#/limit", remote)}
    )
    messages = [f.message for f in findings_of("openapi-invalid", root)]
    assert any("listRuns" in m and "not unique" in m for m in messages), messages
    assert not any("cannot check" in m for m in messages), messages


def test_openapi_semantic_checks_run_past_a_missing_pointer(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": API_DUPLICATES.replace("missing.yaml", "parameters.yaml"),
            "common/parameters.yaml": PARAMETERS,
        }
    )
    messages = [f.message for f in findings_of("openapi-invalid", root)]
    assert any("listRuns" in m and "not unique" in m for m in messages), messages
    assert any("runId" in m for m in messages), messages


# --- one finding per missing file ----------------------------------------------------------------


def test_a_missing_file_referenced_from_twenty_places_is_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {}
    sites = 0
    # The same missing file, spelled from three folders (`../`, `./`, `a/../`, bare).
    spellings = {
        "api/one.schema.json": "../shared/error.schema.json",
        "api/v2/two.schema.json": "../../shared/./error.schema.json#/$defs/code",
        "shared/three.schema.json": "error.schema.json",
        "shared/deep/four.schema.json": "../x/../error.schema.json",
    }
    for path, value in spellings.items():
        properties = {f"p{i}": {"$ref": value} for i in range(5)}
        files[path] = json.dumps({"type": "object", "properties": properties}, indent=2)
        sites += 5
    root = make_corpus(files)
    [finding] = findings_of("unresolved-ref", root)
    assert sites == 20
    assert len(finding.related) == 19
    assert "`shared/error.schema.json` does not exist" in finding.message
    assert "20 `$ref`s" in finding.message
    assert {r.path for r in finding.related} == set(spellings)


def test_a_missing_file_named_by_path_and_by_id_is_one_finding(make_corpus: MakeCorpus) -> None:
    """`https://example.org/spec/gone.json` is where the corpus publishes `schemas/gone.json`
    (its other `$id`s say so): a reference by `$id` and one by path miss the same file."""
    spec = "https://example.org/spec/"
    root = make_corpus(
        {
            "schemas/a.json": json.dumps({"$id": spec + "a.json", "$ref": spec + "gone.json"}),
            "schemas/b.json": json.dumps({"$id": spec + "b.json", "type": "string"}),
            "other/c.schema.json": json.dumps({"$ref": "../schemas/gone.json"}),
            "other/d.schema.json": json.dumps({"$ref": spec + "never.json"}),
        }
    )
    found = findings_of("unresolved-ref", root)
    [missing] = [f for f in found if "gone.json" in f.message]
    assert "`schemas/gone.json` does not exist" in missing.message
    assert missing.location.path == "other/c.schema.json"
    assert [r.path for r in missing.related] == ["schemas/a.json"]
    # An `$id` no reference names by path: the file it would be in is named.
    [unknown] = [f for f in found if "never.json" in f.message]
    assert "`schemas/never.json` would" in unknown.message


def test_a_missing_file_is_named_relative_to_the_base_in_force(make_corpus: MakeCorpus) -> None:
    """A relative `$id` moves the base: the missing file is where a validator looks."""
    root = make_corpus(
        {
            "schemas/run.schema.json": json.dumps(
                {"$id": "v1/run.schema.json", "$ref": "status.schema.json"}
            )
        }
    )
    [finding] = findings_of("unresolved-ref", root)
    assert "`schemas/v1/status.schema.json` does not exist" in finding.message


# --- one schema in two formats ------------------------------------------------------------------

RUN = {
    "$id": "https://example.org/schemas/run",
    "description": "A run.\nOne per request.",
    "type": "object",
    "properties": {"id": {"type": "string"}, "created": {"type": "string", "format": "date"}},
}

# The YAML source the JSON was generated from: a block scalar ends in a newline the generator
# dropped, and `$schema` only in one of them.
RUN_YAML = """\
$schema: https://json-schema.org/draft/2020-12/schema
$id: https://example.org/schemas/run
description: |
  A run.
  One per request.
type: object
properties:
  id:
    type: string
  created: {type: string, format: date}
"""


def test_one_schema_published_as_yaml_and_json_is_not_a_duplicate(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"schemas/run.json": json.dumps(RUN), "schemas/run.yaml": RUN_YAML})
    assert findings_of("duplicate-id", root) == []


def test_a_description_reflowed_by_the_conversion_is_the_same_schema(
    make_corpus: MakeCorpus,
) -> None:
    """The converter joined a literal block scalar's lines into one (a line break is a space
    once rendered): the descriptions differ only in whitespace, the schemas not at all."""
    reflowed = dict(RUN, description="A run.  One per request.")
    root = make_corpus({"schemas/run.json": json.dumps(reflowed), "schemas/run.yaml": RUN_YAML})
    assert findings_of("duplicate-id", root) == []


def test_a_description_whose_words_differ_is_another_schema(make_corpus: MakeCorpus) -> None:
    edited = dict(RUN, description="A run. One per user.")
    root = make_corpus({"schemas/run.json": json.dumps(edited), "schemas/run.yaml": RUN_YAML})
    assert len(findings_of("duplicate-id", root)) == 1


def test_two_formats_that_differ_are_still_a_duplicate(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/run.json": json.dumps(RUN),
            "schemas/run.yaml": RUN_YAML.replace("type: string\n", "type: integer\n"),
        }
    )
    [finding] = findings_of("duplicate-id", root)
    assert "schemas/run" in finding.message


def test_same_content_under_another_name_is_judged_as_before(make_corpus: MakeCorpus) -> None:
    """Only the extension may differ: `run.yaml` and `copy.json` are two files, one `$id`."""
    other = dict(RUN, properties={"id": {"type": "integer"}})
    root = make_corpus({"schemas/run.yaml": RUN_YAML, "schemas/copy.json": json.dumps(other)})
    assert len(findings_of("duplicate-id", root)) == 1


# --- legacy `$schema` URIs ----------------------------------------------------------------------

LEGACY = {
    "http://json-schema.org/schema#": "draft",
    "http://json-schema.org/draft-04/schema": "draft-04",
    "https://json-schema.org/draft-06/schema": "draft-06",
    "https://json-schema.org/draft-07/schema#": "draft-07",
    "http://json-schema.org/hyper-schema#": "draft",
}


def legacy_schema(uri: str) -> str:
    # Valid in draft-04 to -07; read as 2020-12, the array `items` is an error.
    body = {
        "$schema": uri,
        "type": "object",
        "definitions": {"count": {"type": "integer", "minimum": 0}},
        "properties": {
            "count": {"$ref": "#/definitions/count"},
            "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]},
        },
    }
    return json.dumps(body, indent=2)


def test_legacy_schema_uris_are_read_as_the_draft_they_name(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        f"schemas/s{i}.json": legacy_schema(uri) for i, uri in enumerate(LEGACY)
    }
    root = make_corpus(files)
    found = findings_of("schema-invalid", root)
    assert all(f.severity is Severity.INFO for f in found), [f.message for f in found]
    by_path: dict[str, list[Finding]] = {}
    for finding in found:
        by_path.setdefault(finding.location.path, []).append(finding)
    assert all(len(these) == 1 for these in by_path.values())
    for i, (uri, draft) in enumerate(LEGACY.items()):
        these = by_path.get(f"schemas/s{i}.json", [])
        if uri.startswith("http://json-schema.org/draft-04/schema"):
            assert these == []  # a spelling jsonschema knows: nothing to say
        elif uri.endswith(("schema#", "hyper-schema#")) and "draft" not in uri:
            [info] = these
            assert (
                "draft-07" in info.message
            )  # the latest draft of its day that keeps `items: [..]`
        else:
            [info] = these
            assert draft in info.message


def test_legacy_uri_still_reports_real_errors_in_the_draft_it_names(
    make_corpus: MakeCorpus,
) -> None:
    body = json.loads(legacy_schema("https://json-schema.org/draft-06/schema"))
    body["required"] = "count"
    root = make_corpus({"schemas/s.json": json.dumps(body, indent=2)})
    found = findings_of("schema-invalid", root)
    errors = [f for f in found if f.severity is Severity.ERROR]
    assert [f.message.split(":", 1)[0] for f in errors] == ["/required"], [f.message for f in found]
    assert "draft-06" in errors[0].message


def test_a_custom_dialect_the_corpus_holds_is_judged_by_its_metaschema(
    make_corpus: MakeCorpus,
) -> None:
    """A custom metaschema in the corpus (a draft's metaschema plus constraints of its own) is
    the judge itself: its own constraints are checked, and no info says they are not."""
    meta = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://example.org/meta.json",
        "allOf": [{"$ref": "http://json-schema.org/draft-07/schema#"}],
        "required": ["title"],
    }
    root = make_corpus(
        {
            "schemas/meta.json": json.dumps(meta),
            "schemas/s.json": legacy_schema("https://example.org/meta.json"),
        }
    )
    found = [f for f in findings_of("schema-invalid", root) if f.location.path == "schemas/s.json"]
    assert [(f.severity, f.message.split(" (keyword")[0]) for f in found] == [
        (Severity.ERROR, '/: "title" is a required property')
    ], [f.message for f in found]
    assert "https://example.org/meta.json" in found[0].message
    body = json.loads(legacy_schema("https://example.org/meta.json"))
    (root / "schemas/s.json").write_text(json.dumps({**body, "title": "A count"}))
    assert [
        f for f in findings_of("schema-invalid", root) if f.location.path == "schemas/s.json"
    ] == []


def test_a_custom_metaschema_that_does_not_resolve_is_one_info(make_corpus: MakeCorpus) -> None:
    """A held metaschema whose own `$ref` leaves the corpus: judged by the draft it builds on,
    and one info says its own keywords were not checked."""
    meta = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://example.org/meta.json",
        "allOf": [{"$ref": "https://example.org/elsewhere.json"}],
    }
    root = make_corpus(
        {
            "schemas/meta.json": json.dumps(meta),
            "schemas/s.json": legacy_schema("https://example.org/meta.json"),
        }
    )
    found = findings_of("schema-invalid", root)
    [info] = [f for f in found if f.location.path == "schemas/s.json"]
    assert info.severity is Severity.INFO
    assert "draft-07" in info.message
    assert "its own keywords are not checked" in info.message
    assert info.coverage == "custom-dialect"  # coverage, not a finding (issue 45)


def test_an_unknown_dialect_is_not_told_to_become_a_draft(make_corpus: MakeCorpus) -> None:
    """A dialect nobody here holds (the next draft a standards repository writes, a project's
    published metaschema) is not a typo: the info says what was not checked and how to have it
    checked, and offers the draft's URI only as a condition."""
    root = make_corpus({"schemas/s.json": legacy_schema("https://example.org/next/schema")})
    [info] = findings_of("schema-invalid", root)
    assert info.severity is Severity.INFO
    assert "keywords of that dialect are not checked" in info.message
    assert 'if it means draft-07, use "http://json-schema.org/draft-07/schema#"' in info.message
    assert "add its metaschema to the repository" in info.message


def test_a_dialect_published_where_the_schema_is_is_the_projects_own(
    make_corpus: MakeCorpus,
) -> None:
    """The repository that writes the next draft declares it in its own schemas (the same host
    as their `$id`): no notice; a schema elsewhere naming that dialect still gets one."""
    own = json.loads(legacy_schema("https://example.org/next/schema"))
    own["$id"] = "https://example.org/next/output/schema"
    foreign = {**own, "$id": "https://other.example.net/schema.json"}
    root = make_corpus(
        {"specs/output/schema.json": json.dumps(own), "vendor/schema.json": json.dumps(foreign)}
    )
    found = findings_of("schema-invalid", root)
    assert [(f.location.path, f.severity) for f in found] == [("vendor/schema.json", Severity.INFO)]


def test_the_summary_counts_an_unknown_dialect_as_another_dialect(
    make_corpus: MakeCorpus,
) -> None:
    """A schema whose `$schema` no validator knows has a dialect, just not one named here: the
    run's summary says "another dialect", not "no `$schema`"."""
    root = make_corpus(
        {
            "schemas/next.json": legacy_schema("https://example.org/next/schema"),
            "schemas/bare.json": json.dumps({"type": "object"}),
        }
    )
    run = cli("check", str(root), "--no-cache", "--no-progress")
    summary = run.stdout + run.stderr
    assert "2 JSON Schemas (1 another dialect, 1 no `$schema`)" in summary, summary


def test_a_name_below_a_list_in_a_pointer_is_a_missing_pointer_not_a_crash(
    make_corpus: MakeCorpus,
) -> None:
    # `referencing` reads a token below a list with `int()`: `#/list/name` raised ValueError out
    # of the reference index, and the whole run ended in an internal error.
    root = make_corpus(
        {
            "api.yaml": "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /pets:\n"
            "    get:\n      parameters:\n        - $ref: 'p.yaml#/list/name'\n"
            "      responses: {'200': {description: ok}}\n",
            "p.yaml": "list:\n  - {name: a, in: query, schema: {type: string}}\ncount: 5\n",
            "q.yaml": "{$ref: 'p.yaml#/count/x'}\n",  # below a number (review): TypeError
        }
    )
    references = Context.load(root).references.references
    for referrer in ("api.yaml", "q.yaml"):
        [reference] = [r for r in references if r.path == referrer]
        assert (reference.outcome, reference.target_path) == ("missing-pointer", "p.yaml")
