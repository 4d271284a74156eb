"""Issue 26, precision of the value rules on repositories nobody tuned them for.

example-invalid, value-invalid, fence-invalid, unresolved-ref and enum-drift each had classes of
findings that are true to the letter but not worth a maintainer's time (a ``null`` example where
``nullable: true`` stands beside a ``$ref`` in OpenAPI 3.0; an empty-string default meaning
"unset"), or false (an example that merges another example file by ``$ref``). Each class is a
small corpus of our own here.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.run.catalog import all_rules
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def findings_of(rule: str, root: Path) -> list[Finding]:
    return list(all_rules()[rule].check(Context.load(root), {}))


def errors(found: list[Finding]) -> list[Finding]:
    return [f for f in found if f.severity is Severity.ERROR]


# --- example-invalid -------------------------------------------------------------------------

OAS30_NULLS = textwrap.dedent(
    """\
    openapi: 3.0.1
    info: {title: Calls, version: 1.0.0}
    paths:
      /calls/{id}:
        get:
          parameters:
            - {name: id, in: path, required: true, schema: {type: string}}
          responses:
            '200':
              description: A call.
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/call'}
                  examples:
                    ended: {value: {sid: CA1, state: ended, owner: {name: ann}}}
                    ringing: {value: {sid: CA2, state: null, owner: null}}
                    queued: {value: {sid: CA3, state: null, owner: null}}
                    wrong: {value: {sid: CA4, state: hung-up, owner: null}}
    components:
      schemas:
        call:
          type: object
          properties:
            sid: {type: string}
            state: {$ref: '#/components/schemas/call_state', nullable: true}
            owner: {$ref: '#/components/schemas/owner'}
        call_state: {type: string, enum: [ringing, ended]}
        owner: {type: object, properties: {name: {type: string}}}
    """
)


def test_oas30_nullable_beside_ref_admits_null_and_other_nulls_are_one_info(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": OAS30_NULLS})
    found = findings_of("example-invalid", root)
    # `state: null` is what `nullable: true` beside the `$ref` says (3.0 ignores siblings of a
    # `$ref`, every 3.0 tool honours it); `hung-up` is still outside the enum.
    [wrong] = errors(found)
    assert "hung-up" in wrong.message and "/examples/wrong/value" in (wrong.location.pointer or "")
    assert "null" not in wrong.message.split(";")[0].lower()
    # `owner: null` where nothing says nullable: one info for the document, every place related.
    [nulls] = [f for f in found if f.severity is Severity.INFO]
    assert "3 examples" in nulls.message and "nullable" in nulls.message
    assert len(nulls.related) == 2


def test_oas30_null_in_a_nullable_enum_is_told_to_add_null_to_the_enum(
    make_corpus: MakeCorpus,
) -> None:
    """The schema says `nullable: true` already; only its `enum` lacks `null` (OpenAPI 3.0.3
    has an enum restrict null too): the notice asks for `null` in the enum, not for
    `nullable`, which is there."""
    nullable_enum = OAS30_NULLS.replace(
        "owner: {$ref: '#/components/schemas/owner'}",
        "owner: {type: string, nullable: true, enum: [ann, bob]}",
    ).replace("owner: {name: ann}", "owner: ann")
    root = make_corpus({"api/openapi.yaml": nullable_enum})
    [nulls] = [f for f in findings_of("example-invalid", root) if f.severity is Severity.INFO]
    assert "3 examples" in nulls.message
    assert "add `null` to the enum" in nulls.message
    assert "add `nullable: true`" not in nulls.message


def test_an_elided_value_in_an_example_is_not_judged(make_corpus: MakeCorpus) -> None:
    """`"..."` among coordinates is "and so on", not a number; a wrong value beside it still
    fails."""
    api = textwrap.dedent(
        """\
        openapi: 3.0.3
        info: {title: Places, version: 1.0.0}
        paths:
          /places:
            get:
              responses:
                '200':
                  description: Places.
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          coordinates: {type: array, items: {type: number}}
                      examples:
                        cut: {value: {coordinates: [7.1, 50.7, "...", 8.2]}}
                        wrong: {value: {coordinates: [7.1, "north"]}}
        """
    )
    root = make_corpus({"api/openapi.yaml": api})
    found = errors(findings_of("example-invalid", root))
    assert [f.location.pointer for f in found] == [
        "/paths/~1places/get/responses/200/content/application~1json/examples/wrong/value"
    ], [f.message for f in found]


FORM_ARRAYS = textwrap.dedent(
    """\
    openapi: 3.0.1
    info: {title: Roles, version: 1.0.0}
    paths:
      /roles:
        get:
          parameters:
            - name: Status
              in: query
              schema: {type: array, items: {type: string}}
              example: pending,reserved
          responses:
            '200': {description: ok}
        post:
          requestBody:
            content:
              application/x-www-form-urlencoded:
                schema:
                  type: object
                  properties:
                    Permission: {type: array, items: {type: string}}
                    Muted: {type: boolean}
                    Settings: {type: object}
                examples:
                  one: {value: {Permission: sendMessage}}
                  two: {value: {Permission: 'sendMessage,leave', Settings: '{"a": 1}'}}
                  flag: {value: {Permission: [leave], Muted: 'true'}}
          responses:
            '201': {description: created}
    """
)


def test_form_serialised_array_examples_are_not_judged_but_other_types_are(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": FORM_ARRAYS})
    [muted] = findings_of("example-invalid", root)
    assert "/Muted" in muted.message and "boolean" in muted.message


def test_prose_examples_and_wrapped_examples_are_descriptions(make_corpus: MakeCorpus) -> None:
    wrapped_inputs = {
        "description": "In the example below the first input has no uncertainty at all",
        "inputs": {"m1": 1.0},
    }
    inputs = {"type": "object", "additionalProperties": {"type": "number"}}
    body = {
        "type": "object",
        "properties": {
            "resource": {
                "type": "object",
                "examples": ["a reference to a service used in a task (a bom-ref)"],
            },
            "options": {"type": "object", "examples": ["keepalive_timeout"]},
            # `required` branches of a `oneOf` all accept a string: a second error at the root.
            "choice": {
                "type": "object",
                "oneOf": [{"required": ["ref"]}, {"required": ["url"]}],
                "examples": ["a reference to a configuration file in a repository"],
            },
            "inputs": {**inputs, "examples": [wrapped_inputs]},
            # Each example keyed by its property's name, for readers.
            "scale": {"type": "array", "items": {"type": "number"}, "examples": [{"scale": [1]}]},
            "degree": {"type": "integer", "examples": [{"degree": "two"}]},
            "more": {
                **inputs,
                "examples": [{"description": "Two inputs with their values", "more": {"m": "x"}}],
            },
        },
    }
    root = make_corpus({"schemas/task.schema.json": schema(**body)})
    found = findings_of("example-invalid", root)
    assert sorted(f.location.pointer or "" for f in found) == [
        "/properties/degree/examples/0",
        "/properties/more/examples/0",
        "/properties/options/examples/0",
    ]
    [more] = [f for f in found if "/more/" in (f.location.pointer or "")]
    assert "/more/m" in more.message


def test_an_example_merging_another_example_by_ref_is_not_judged_there(
    make_corpus: MakeCorpus,
) -> None:
    api = textwrap.dedent(
        """\
        openapi: 3.1.0
        info: {title: Context, version: 1.0.0}
        paths:
          /context:
            get:
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          event: {type: object, required: [type], properties: {type: {type: string}}}
                          end: {type: string}
                      examples:
                        merged:
                          value: {event: {room: r1, $ref: ../examples/message.yaml}, end: 3}
        """
    )
    root = make_corpus({"api/openapi.yaml": api, "examples/message.yaml": "type: m.text\n"})
    # The merged object is what the site build makes of it; `end` is judged as before, alone.
    [end] = findings_of("example-invalid", root)
    assert "/end" in end.message and "more error" not in end.message


def test_the_first_line_of_an_example_finding_fits(make_corpus: MakeCorpus) -> None:
    long_path = "/v1/" + "/".join(f"Segment{n}/{{Segment{n}Sid}}" for n in range(8))
    api = textwrap.dedent(
        f"""\
        openapi: 3.1.0
        info: {{title: Long, version: 1.0.0}}
        paths:
          '{long_path}':
            get:
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema: {{type: object, properties: {{price: {{type: number}}}}}}
                      example: {{price: '0.05'}}
        """
    )
    root = make_corpus({"api/openapi.yaml": api})
    [finding] = findings_of("example-invalid", root)
    assert '"0.05" is not of type "number"' in finding.message
    assert len(finding.terminal_message.split("\n")[0]) <= 200


# --- value-invalid ---------------------------------------------------------------------------


def test_placeholder_defaults_are_one_info_and_wrong_types_stay_errors(
    make_corpus: MakeCorpus,
) -> None:
    body = {
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": ["app", "lib"], "default": ""},
            "serial": {"type": "string", "pattern": "^urn:", "default": ""},
            "limit": {"type": "integer", "maximum": 9007199254740991, "default": 2**63 - 1},
            "version": {"type": "string", "enum": ["0.1.0", "0.2.0"], "default": "latest"},
            "port": {"type": "integer", "default": ""},
            "mode": {"enum": ["sync", "async"], "default": "auto"},
            "step": {"type": "string", "enum": ["a", "b"], "default": "latest"},
        },
    }
    root = make_corpus({"schemas/conf.schema.json": schema(**body)})
    found = findings_of("value-invalid", root)
    assert sorted(f.location.pointer or "" for f in errors(found)) == [
        "/properties/mode/default",
        "/properties/port/default",
        "/properties/step/default",
    ]
    [info] = [f for f in found if f.severity is Severity.INFO]
    assert "4 defaults" in info.message
    assert info.location.pointer == "/properties/kind/default"
    assert {r.pointer for r in info.related} == {
        "/properties/serial/default",
        "/properties/limit/default",
        "/properties/version/default",
    }
    assert len(info.terminal_message.split("\n")[0]) <= 200


# --- released versions: a defect only frozen copies have ------------------------------------


def released_api(version: str, facets: list[str], broken: str = "") -> str:
    properties = {name: {"$ref": f"facets/{name}.json"} for name in facets}
    if broken:
        properties["live"] = {"$ref": f"facets/{broken}.json"}
    return schema(**{"$id": f"https://example.org/spec/{version}/Api.json"}, properties=properties)


def test_a_defect_only_frozen_copies_have_is_one_info(make_corpus: MakeCorpus) -> None:
    # 1-0-4 and 1-0-5 refer to facet files never published beside them; 2-0-0, the live
    # version, dropped those references. A released file cannot change: one info, not 5 errors.
    # A defect of the live version is an error as before.
    root = make_corpus(
        {
            "spec/1-0-4/Api.json": released_api("1-0-4", ["Sql", "Owner"]),
            "spec/1-0-5/Api.json": released_api("1-0-5", ["Sql", "Owner", "Tags"]),
            "spec/2-0-0/Api.json": released_api("2-0-0", [], broken="Gone"),
            "spec/2-0-0/facets/Kept.json": schema(type="object"),
        }
    )
    found = lint(root, Options(cache=False, rules=("unresolved-ref",))).findings
    [live] = [f for f in found if f.severity is Severity.ERROR]
    assert live.location.path == "spec/2-0-0/Api.json"
    [frozen] = [f for f in found if f.severity is not Severity.ERROR]
    assert frozen.severity is Severity.INFO
    assert frozen.location.path == "spec/1-0-5/Api.json"
    assert len(frozen.terminal_message.split("\n")[0]) <= 200
    assert "released" in frozen.message
    # `Sql` and `Owner` are missing from both released folders: each is one finding for both
    # (unresolved-ref groups one name missing in several folders), related here at its first.
    others = {(r.path, r.pointer) for r in frozen.related}
    assert others == {
        ("spec/1-0-4/Api.json", "/properties/Sql/$ref"),
        ("spec/1-0-4/Api.json", "/properties/Owner/$ref"),
    }
    assert all("in none of the 2 folders" in str(r.note) for r in frozen.related)
    assert len(found) == 2


def test_a_file_no_newer_version_has_is_not_a_frozen_copy(make_corpus: MakeCorpus) -> None:
    # 1-0-5 has `Extra.json`, 2-0-0 has no counterpart of it (neither its path nor its `$id`):
    # nothing newer holds it, so it is no frozen copy of anything, and its defect stays an error.
    # `Api.json`, which 2-0-0 has, is frozen as before.
    extra = schema(
        **{"$id": "https://example.org/spec/1-0-5/Extra.json"},
        properties={"x": {"$ref": "facets/Gone.json"}},
    )
    root = make_corpus(
        {
            "spec/1-0-5/Api.json": released_api("1-0-5", ["Sql"]),
            "spec/1-0-5/Extra.json": extra,
            "spec/2-0-0/Api.json": released_api("2-0-0", []),
        }
    )
    found = lint(root, Options(cache=False, rules=("unresolved-ref",))).findings
    assert sorted((f.location.path, f.severity) for f in found) == [
        ("spec/1-0-5/Api.json", Severity.INFO),
        ("spec/1-0-5/Extra.json", Severity.ERROR),
    ]
    assert "released" not in next(f for f in found if "Extra" in f.location.path).message


def test_one_slip_frozen_into_every_file_of_a_release_is_one_info(make_corpus: MakeCorpus) -> None:
    # Every schema of the released 1-0-5 refers to a file never published; the live 2-0-0
    # fixed them all. One info for the rule, whatever the number of files, not one per file.
    def released(version: str, name: str, broken: bool) -> str:
        refs = {"facet": {"$ref": f"facets/{name}Facet.json"}} if broken else {}
        return schema(**{"$id": f"https://example.org/spec/{version}/{name}.json"}, properties=refs)

    names = ("Api", "Run", "Job")
    files: dict[str, str | bytes] = {
        f"spec/1-0-5/{n}.json": released("1-0-5", n, True) for n in names
    }
    files.update({f"spec/2-0-0/{n}.json": released("2-0-0", n, False) for n in names})
    found = lint(make_corpus(files), Options(cache=False, rules=("unresolved-ref",))).findings
    [only] = found
    assert only.severity is Severity.INFO
    assert {r.path for r in only.related} >= {"spec/1-0-5/Run.json", "spec/1-0-5/Job.json"}


# --- fence-invalid ---------------------------------------------------------------------------

WRAPPED_EXAMPLE = (
    "An example:\n\n```json\n{                        # a log object\n"
    '  "text": "the nightly run of the scanner on\n'
    '           every binary of the branch",\n  "id": "%s"\n}\n```\n'
)


def test_strings_wrapped_in_many_examples_are_the_convention(make_corpus: MakeCorpus) -> None:
    # Nothing says so in words, but the specification breaks long strings in its examples
    # for display, again and again: its convention, not a parse error per example.
    pages = {f"spec/object-{n}.md": WRAPPED_EXAMPLE % n for n in range(3)}
    assert findings_of("fence-invalid", make_corpus(pages)) == []


def test_one_wrapped_string_is_still_a_broken_example(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"spec/object.md": WRAPPED_EXAMPLE % 1})
    [finding] = findings_of("fence-invalid", root)
    assert finding.severity is Severity.WARNING


SKETCH_FENCE = '```jsonc\n{\n  "weights": [\n    {"-": [R, {"var": "now"}]}\n  ]\n}\n```\n'


def test_fences_of_a_design_record_are_not_judged_and_type_names_are_sketches(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "docs/architecture-decisions/rollout.md": "# Rollout\n\n" + SKETCH_FENCE,
            "proposals/tags/README.md": "# Tags\n\n```yaml\ntags:\n  - a\n   b: 1\n```\n",
            "docs/reference/rollout.md": "# Rollout\n\n" + SKETCH_FENCE,
            "spec/errors.md": '# Errors\n\n```json\n{\n  "retry_after_ms": integer\n}\n```\n',
        }
    )
    found = {f.location.path: f.severity for f in findings_of("fence-invalid", root)}
    assert found == {
        "docs/reference/rollout.md": Severity.WARNING,
    }


def test_a_defect_of_an_api_line_beside_a_newer_one_is_not_frozen(make_corpus: MakeCorpus) -> None:
    # `numbers_v1` and `numbers_v2` are two API lines, both served: the older one is no
    # released snapshot, and its defects stay what they are.
    root = make_corpus(
        {
            "spec/numbers_v1.json": released_api("v1", ["Sql"]),
            "spec/numbers_v2.json": released_api("v2", []),
        }
    )
    found = lint(root, Options(cache=False, rules=("unresolved-ref",))).findings
    assert [(f.location.path, f.severity) for f in found] == [
        ("spec/numbers_v1.json", Severity.ERROR)
    ]


# --- enum-drift ------------------------------------------------------------------------------


def test_a_name_binds_to_the_schema_whose_values_agree_not_to_others_of_that_name(
    make_corpus: MakeCorpus,
) -> None:
    # The page lists the membership values of the member event; a deprecated endpoint of
    # another API document has an older `membership` enum. The name alone does not say the page
    # describes that endpoint, and one schema of the name agrees with the page.
    event = {"type": "object", "properties": {"membership": {"enum": MEMBERSHIP}}}
    legacy = {"type": "object", "properties": {"membership": {"enum": MEMBERSHIP[:2]}}}
    root = make_corpus(
        {
            "schemas/member-event.schema.json": schema(**event),
            "schemas/legacy-sync.schema.json": schema(**legacy),
            "spec/auth.md": "# Auth\n\nThe user's `membership` flips to `join` / `invite` / `knock`.\n",
        }
    )
    assert findings_of("enum-drift", root) == []
    # With no schema that agrees, the page's value is drift against both: one disagreement,
    # the two enums of the same values in one finding (issue 44).
    (root / "schemas/member-event.schema.json").write_text(schema(**legacy))
    [finding] = findings_of("enum-drift", root)
    assert "lacks `knock`" in finding.message
    assert finding.location.path == "schemas/legacy-sync.schema.json"
    assert [r.path for r in finding.related] == ["spec/auth.md", "schemas/member-event.schema.json"]


MEMBERSHIP = ["join", "invite", "knock", "leave", "ban"]


def test_an_enum_in_a_then_branch_is_not_the_fields_vocabulary(make_corpus: MakeCorpus) -> None:
    body = {
        "type": "object",
        "properties": {"requirement": {"type": "string"}, "kind": {"type": "string"}},
        "if": {"properties": {"kind": {"const": "event"}}},
        "then": {"properties": {"requirement": {"enum": ["required", "recommended"]}}},
    }
    page = "# Fields\n\nThe `requirement` is one of `required` | `recommended` | `optional`.\n"
    root = make_corpus({"schemas/attribute.schema.json": schema(**body), "spec/fields.md": page})
    assert findings_of("enum-drift", root) == []


def test_a_table_of_a_few_values_by_name_alone_is_not_the_whole_vocabulary(
    make_corpus: MakeCorpus,
) -> None:
    methods = ["initialize", "ping", "tools/list", "tools/call", "prompts/list", "prompts/get"]
    body = {"type": "object", "properties": {"method": {"enum": methods}}}
    page = (
        "# Tools\n\nThe tool methods:\n\n| `method` | Purpose |\n|---|---|\n"
        "| `tools/list` | lists the tools |\n| `tools/call` | calls one |\n"
    )
    root = make_corpus({"schemas/request.schema.json": schema(**body), "spec/tools.md": page})
    assert findings_of("enum-drift", root) == []
    # A table of most of the values does say the rest are missing.
    most = page + "| `initialize` | starts |\n| `ping` | checks |\n| `prompts/list` | lists |\n"
    (root / "spec/tools.md").write_text(most)
    [finding] = findings_of("enum-drift", root)
    assert "`prompts/get`" in finding.message


def test_a_projection_needs_more_than_annotation_names(make_corpus: MakeCorpus) -> None:
    api = textwrap.dedent(
        """\
        openapi: 3.1.0
        info: {title: Functions, version: 1.0.0}
        paths: {}
        components:
          schemas:
            argument:
              type: object
              properties:
                title: {type: string}
                description: {type: string}
                type: {type: string, enum: [string, number, datetime, geometry]}
        """
    )
    sortable = {
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "description": {"type": "string"},
            "type": {"enum": ["string", "number", "integer"]},
            "format": {"type": "string"},
        },
    }
    root = make_corpus(
        {"api/functions.yaml": api, "schemas/sortable.schema.json": schema(**sortable)}
    )
    assert findings_of("enum-drift", root) == []


def test_a_ref_by_url_to_a_file_served_beside_the_document_resolves(
    make_corpus: MakeCorpus,
) -> None:
    # `all.json` says it is served at https://example.org/store/; its `$ref`s name files of
    # that folder by URL, and the files are beside it in the repository (one declares another
    # `$id`: a URL serves the file there all the same).
    store = {
        "$id": "https://example.org/store/all.json",
        "oneOf": [
            {"$ref": "https://example.org/store/one-plain.json"},
            {"$ref": "https://example.org/store/two-plain.json"},
            {"$ref": "https://example.org/store/gone.json"},
        ],
    }
    root = make_corpus(
        {
            "schemas/all.json": schema(**store),
            "schemas/one-plain.json": schema(type="object"),
            "schemas/two-plain.json": schema(**{"$id": "https://example.org/defs/two.json"}),
        }
    )
    [finding] = findings_of("unresolved-ref", root)
    assert "gone.json" in finding.message


def test_a_yaml_stream_and_an_environment_placeholder_are_not_parse_errors(
    make_corpus: MakeCorpus,
) -> None:
    manifests = "```yaml\nkind: Deployment\nname: proxy\n---\nkind: FeatureFlag\nname: e2e\n```\n"
    broken = "```yaml\nkind: Deployment\n---\nkind: [FeatureFlag\n```\n"
    env = '```json\n{\n  "retry": {"max": $RETRY_MAX_MS, "factor": 2}\n}\n```\n'
    root = make_corpus(
        {
            "docs/deploy.md": "# Deploy\n\n" + manifests,
            "docs/broken.md": "# Broken\n\n" + broken,
            "docs/retry.md": "# Retry\n\n" + env,
        }
    )
    assert [f.location.path for f in findings_of("fence-invalid", root)] == ["docs/broken.md"]


def test_a_slip_only_the_text_of_a_released_page_has_is_not_reported(
    make_corpus: MakeCorpus,
) -> None:
    # versions/3.1.0.md has an example with a trailing comma that 3.1.1 fixed: history that
    # readers no longer read. The live text's own slip is reported as ever.
    broken = '# Spec\n\n```json\n{"a": 1 "b": 2}\n```\n'
    fixed = '# Spec\n\n```json\n{"a": 1, "b": 2}\n```\n'
    root = make_corpus(
        {
            "versions/3.0.0.md": fixed,
            "versions/3.1.0.md": broken,
            "versions/3.1.1.md": fixed + '\n## Other\n\n```json\n{"c": 3,}\n```\n',
        }
    )
    assert {f.location.path for f in findings_of("fence-invalid", root)} == {
        "versions/3.1.0.md",
        "versions/3.1.1.md",
    }  # what the rule sees; the run folds history
    found = lint(root, Options(cache=False, rules=("fence-invalid",))).findings
    assert [(f.location.path, f.severity) for f in found] == [
        ("versions/3.1.1.md", Severity.WARNING)
    ]
