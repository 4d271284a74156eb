"""example-invalid (issue 46, item 6): the examples of an API document kept in other files.

A split OpenAPI document keeps path items, responses, request bodies and parameters in files of
their own, and examples in example files (``externalValue``, ``$ref``): each is judged as an
inline example is, against the schema of the place that refers to it, and reported where it is
written.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

JOB = """\
    Job:
      type: object
      required: [id, state]
      properties:
        id: {type: string}
        state: {type: string, enum: [queued, running, done]}
"""


def api(paths: str, components: str = "", version: str = "3.1.0", schemas: str = "") -> str:
    """An OpenAPI document with ``paths`` (YAML, under ``paths:``; none when empty), the ``Job``
    schema and ``schemas`` (under ``components/schemas``), and ``components`` (YAML, under
    ``components:``)."""
    return (
        f"openapi: {version}\ninfo: {{title: Jobs, version: 1.0.0}}\n"
        + ("paths:\n" + textwrap.indent(textwrap.dedent(paths), "  ") if paths else "paths: {}\n")
        + "components:\n  schemas:\n"
        + JOB
        + textwrap.indent(textwrap.dedent(schemas), "    ")
        + textwrap.indent(textwrap.dedent(components), "  ")
    )


def findings(root: Path) -> list[Finding]:
    """example-invalid's findings, its notes (coverage) left out."""
    found = all_rules()["example-invalid"].check(Context.load(root), {})
    return [f for f in found if f.coverage is None]


def places(root: Path) -> list[tuple[str, int, str | None]]:
    return [(f.location.path, f.location.line, f.location.pointer) for f in findings(root)]


PATH_ITEM = """\
get:
  responses:
    '200':
      description: The job.
      content:
        application/json:
          schema: {$ref: '../openapi.yaml#/components/schemas/Job'}
          example: {id: job-1, state: %s}
"""


def test_a_path_item_files_inline_example_is_judged_there(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "openapi.yaml": api("/jobs: {$ref: ./paths/jobs.yaml}\n"),
            "paths/jobs.yaml": PATH_ITEM % "paused",
        }
    )
    found = findings(root)
    assert [(f.location.path, f.location.line) for f in found] == [("paths/jobs.yaml", 8)]
    assert '"paused" is not one of' in found[0].message
    assert found[0].severity.label == "error"
    related = [(r.path, r.line) for r in found[0].related]
    # The schema it fails (the media type's, in the same file), and the `$ref` that brings
    # the path item into the document.
    assert related == [("paths/jobs.yaml", 7), ("openapi.yaml", 4)]


def test_the_same_example_inline_and_in_a_path_item_file_is_found_in_each(
    make_corpus: MakeCorpus,
) -> None:
    inline = textwrap.indent(PATH_ITEM % "paused", "  ").replace("../openapi.yaml#", "#")
    root = make_corpus(
        {
            "openapi.yaml": api(f"/jobs: {{$ref: ./paths/jobs.yaml}}\n/inline:\n{inline}"),
            "paths/jobs.yaml": PATH_ITEM % "paused",
        }
    )
    assert {path for path, _, _ in places(root)} == {"openapi.yaml", "paths/jobs.yaml"}


def test_an_examples_entry_of_a_response_file_is_judged_there(make_corpus: MakeCorpus) -> None:
    response = """\
    description: One job.
    content:
      application/json:
        schema: {$ref: '../openapi.yaml#/components/schemas/Job'}
        examples:
          good: {value: {id: job-1, state: done}}
          wrong: {summary: A job, value: {id: 42, state: done}}
    """
    paths = """\
    /jobs/{id}:
      get:
        parameters: [{name: id, in: path, required: true, schema: {type: string}}]
        responses:
          '200': {$ref: ./responses/job.yaml}
    """
    root = make_corpus(
        {"openapi.yaml": api(paths), "responses/job.yaml": textwrap.dedent(response)}
    )
    found = findings(root)
    assert places(root) == [
        ("responses/job.yaml", 7, "/content/application~1json/examples/wrong/value")
    ]
    assert "42 is not of type" in found[0].message


def test_an_external_value_file_is_judged_against_the_media_types_schema(
    make_corpus: MakeCorpus,
) -> None:
    paths = """\
    /jobs:
      get:
        responses:
          '200':
            description: A job.
            content:
              application/json:
                schema: {$ref: '#/components/schemas/Job'}
                examples:
                  stored: {externalValue: ./examples/job.json}
    """
    root = make_corpus(
        {
            "openapi.yaml": api(paths),
            "examples/job.json": '{\n  "id": "job-1",\n  "state": "exploded"\n}\n',
        }
    )
    found = findings(root)
    assert places(root) == [("examples/job.json", 1, "")]
    assert '"exploded" is not one of' in found[0].message
    notes = [r.note for r in found[0].related]
    assert notes == [
        "the schema it fails",
        "`externalValue: ./examples/job.json` names this example",
    ]


def test_an_example_file_named_by_ref_in_example_is_the_literal_example(
    make_corpus: MakeCorpus,
) -> None:
    paths = """\
    /jobs:
      get:
        responses:
          '200':
            description: A job.
            content:
              application/json:
                schema: {$ref: '#/components/schemas/Job'}
                example: {$ref: ./examples/job.yaml}
    """
    root = make_corpus(
        {"openapi.yaml": api(paths), "examples/job.yaml": "id: job-1\nstate: exploded\n"}
    )
    assert places(root) == [("examples/job.yaml", 1, "")]


def test_an_example_file_named_by_ref_in_a_schemas_own_example_is_that_schemas_example(
    make_corpus: MakeCorpus,
) -> None:
    """A schema written in place in a media type, in a path-item file, with ``example: {$ref:
    ...}``: the bundler's convention one level down; a warning, as a schema's own example is
    (JSON Schema only recommends that it validate)."""
    path_item = """\
patch:
  requestBody:
    content:
      application/json:
        schema:
          type: array
          items: {$ref: '../openapi.yaml#/components/schemas/Job'}
          example: {$ref: ./examples/jobs.yaml}
  responses:
    '204': {description: Updated.}
"""
    root = make_corpus(
        {
            "openapi.yaml": api("/jobs:\n  $ref: ./paths/jobs.yaml\n"),
            "paths/jobs.yaml": path_item,
            "paths/examples/jobs.yaml": '[{"id": "job-1", "state": queued"}]\n',
        }
    )
    (found,) = findings(root)
    assert (found.location.path, found.location.pointer) == ("paths/examples/jobs.yaml", "")
    assert found.severity is Severity.WARNING
    assert "example at /0/state" in found.message
    assert (
        "paths/jobs.yaml",
        "/patch/requestBody/content/application~1json/schema/example/$ref",
    ) in {(r.path, r.pointer) for r in found.related}


def test_a_referenced_example_object_of_a_components_examples_file(
    make_corpus: MakeCorpus,
) -> None:
    paths = """\
    /jobs:
      post:
        requestBody:
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Job'}
              examples:
                queued: {$ref: './components/examples.yaml#/QueuedJob'}
        responses:
          '201':
            description: Created.
    """
    examples = "QueuedJob:\n  summary: A queued job\n  value:\n    id: job-1\n    state: waiting\n"
    root = make_corpus({"openapi.yaml": api(paths), "components/examples.yaml": examples})
    found = findings(root)
    assert places(root) == [("components/examples.yaml", 3, "/QueuedJob/value")]
    assert [r.path for r in found[0].related] == ["openapi.yaml", "openapi.yaml"]


def test_a_components_example_with_an_external_value_is_followed(
    make_corpus: MakeCorpus,
) -> None:
    paths = """\
    /jobs:
      get:
        responses:
          '200':
            description: A job.
            content:
              application/json:
                schema: {$ref: '#/components/schemas/Job'}
                examples:
                  one: {$ref: '#/components/examples/One'}
    """
    components = "examples:\n  One: {externalValue: ./examples/one.json}\n"
    root = make_corpus(
        {
            "openapi.yaml": api(paths, components),
            "examples/one.json": '{"id": "job-1", "state": "exploded"}\n',
        }
    )
    assert places(root) == [("examples/one.json", 1, "")]


def test_the_same_examples_valid_give_nothing(make_corpus: MakeCorpus) -> None:
    paths = """\
    /jobs: {$ref: ./paths/jobs.yaml}
    /jobs/{id}:
      get:
        parameters: [{$ref: ./parameters/id.yaml}]
        responses:
          '200': {$ref: ./responses/job.yaml}
          '201':
            description: Created.
            content:
              application/json:
                schema: {$ref: '#/components/schemas/Job'}
                example: {$ref: ./examples/two.yaml}
                examples:
                  stored: {externalValue: ./examples/job.json}
                  named: {$ref: './components/examples.yaml#/QueuedJob'}
    """
    response = (
        "description: One job.\ncontent:\n  application/json:\n"
        "    schema: {$ref: '../openapi.yaml#/components/schemas/Job'}\n"
        "    examples:\n      one: {value: {id: job-1, state: done}}\n"
    )
    root = make_corpus(
        {
            "openapi.yaml": api(paths),
            "paths/jobs.yaml": PATH_ITEM % "running",
            "responses/job.yaml": response,
            "parameters/id.yaml": "name: id\nin: path\nrequired: true\n"
            "schema: {type: string, minLength: 4}\nexample: job-1\n",
            "examples/job.json": '{"id": "job-1", "state": "queued"}\n',
            "examples/two.yaml": "id: job-2\nstate: done\n",
            "components/examples.yaml": "QueuedJob:\n  value: {id: job-1, state: queued}\n",
        }
    )
    assert places(root) == []


def test_a_parameter_file_example_is_judged_as_a_parameters_value(
    make_corpus: MakeCorpus,
) -> None:
    paths = """\
    /jobs/{id}:
      get:
        parameters: [{$ref: ./parameters/id.yaml}]
        responses:
          '200': {description: The job.}
    """
    parameter = "name: id\nin: path\nrequired: true\nschema: {type: string, minLength: 4}\n"
    root = make_corpus(
        {"openapi.yaml": api(paths), "parameters/id.yaml": parameter + "example: j1\n"}
    )
    assert places(root) == [("parameters/id.yaml", 5, "/example")]


def test_an_example_file_named_from_two_media_types_is_judged_against_each(
    make_corpus: MakeCorpus,
) -> None:
    paths = """\
    /jobs:
      get:
        responses:
          '200':
            description: A job.
            content:
              application/json:
                schema: {$ref: '#/components/schemas/Job'}
                examples: {stored: {externalValue: ./examples/job.json}}
      post:
        requestBody:
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Draft'}
              examples: {stored: {externalValue: ./examples/job.json}}
        responses:
          '201': {description: Created.}
    """
    draft = "Draft: {type: object, additionalProperties: false, properties: {id: {type: string}}}\n"
    root = make_corpus(
        {
            "openapi.yaml": api(paths, schemas=draft),
            "examples/job.json": '{"id": "job-1", "state": "queued"}\n',
        }
    )
    found = findings(root)
    # Valid as a Job (the response), not as a Draft (the request, which has no `state`).
    assert [f.location.path for f in found] == ["examples/job.json"]
    assert "state" in found[0].message and "Additional properties" in found[0].message
    assert found[0].related[0].pointer.endswith("/application~1json/schema/additionalProperties")


def test_an_example_file_failing_two_media_types_alike_is_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    media = "application/json: {schema: {$ref: '#/components/schemas/Job'}, examples: {s: {externalValue: ./examples/job.json}}}"
    paths = f"""\
    /jobs:
      get:
        responses:
          '200':
            description: A job.
            content: {{{media}}}
      put:
        requestBody:
          content: {{{media}}}
        responses:
          '200': {{description: Replaced.}}
    """
    root = make_corpus(
        {
            "openapi.yaml": api(paths),
            "examples/job.json": '{"id": "job-1", "state": "exploded"}\n',
        }
    )
    found = findings(root)
    assert [f.location.path for f in found] == ["examples/job.json"]
    schemas = [r for r in found[0].related if r.note == "the schema it fails"]
    assert len(schemas) == 2


def test_a_request_body_file_reads_its_direction_from_where_it_is_referred_to(
    make_corpus: MakeCorpus,
) -> None:
    # OpenAPI 3.0.3 §4.7.24.1: a required readOnly member is required of responses only.
    component = """\
    Run:
      type: object
      required: [id, name]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string}
    """
    paths = """\
    /runs:
      post:
        requestBody: {$ref: ./bodies/run.yaml}
        responses:
          '201': {$ref: ./responses/run.yaml}
    """
    body = (
        "content:\n  application/json:\n"
        "    schema: {$ref: '../openapi.yaml#/components/schemas/Run'}\n"
        "    example: {name: nightly}\n"
    )
    response = "description: Created.\n" + body
    document = api(paths, version="3.0.3", schemas=component)
    root = make_corpus(
        {"openapi.yaml": document, "bodies/run.yaml": body, "responses/run.yaml": response}
    )
    found = findings(root)
    assert [f.location.path for f in found] == ["responses/run.yaml"]
    assert '"id" is a required property' in found[0].message


def test_a_reference_out_of_the_root_is_not_followed_and_is_said(tmp_path: Path) -> None:
    root = tmp_path / "spec"
    (root / "api").mkdir(parents=True)
    # Out of the root, an example the schema would reject: never read.
    (tmp_path / "outside.json").write_text('{"id": 1, "state": "exploded"}\n', encoding="utf-8")
    paths = """\
    /jobs:
      get:
        responses:
          '200':
            description: A job.
            content:
              application/json:
                schema: {$ref: '#/components/schemas/Job'}
                examples:
                  out: {externalValue: ../../outside.json}
                  far: {$ref: '../../outside.json'}
                  web: {externalValue: 'https://example.com/job.json'}
                  gone: {externalValue: ./missing.json}
    """
    (root / "api" / "openapi.yaml").write_text(api(paths), encoding="utf-8")
    assert findings(root) == []
    result = run_cli(
        "check", str(root), "--no-cache", "--preview", "--select", "example-invalid",
        "--format", "json",
    )  # fmt: skip
    report = json.loads(result.stdout)
    assert report["findings"] == []
    assert report["not_checked"]["counts"] == {
        "remote-example": 1,
        "example-outside-root": 2,
        "example-not-found": 1,
    }
    text = run_cli("check", str(root), "--no-cache", "--preview", "--select", "example-invalid")
    assert "2 example references of API documents leading out of the root" in text.output


def test_a_non_json_external_value_is_not_judged(make_corpus: MakeCorpus) -> None:
    paths = """\
    /jobs:
      get:
        responses:
          '200':
            description: A job.
            content:
              application/xml:
                schema: {$ref: '#/components/schemas/Job'}
                examples: {stored: {externalValue: ./examples/job.xml}}
    """
    root = make_corpus({"openapi.yaml": api(paths), "examples/job.xml": "<job><id>1</id></job>\n"})
    found = list(all_rules()["example-invalid"].check(Context.load(root), {}))
    assert found == []


def test_a_path_item_file_two_api_documents_share_is_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "openapi.yaml": api("/jobs: {$ref: ./paths/jobs.yaml}\n"),
            "openapi-public.yaml": api("/jobs: {$ref: ./paths/jobs.yaml}\n"),
            "paths/jobs.yaml": PATH_ITEM % "paused",
        }
    )
    assert [path for path, _, _ in places(root)] == ["paths/jobs.yaml"]


SCHEMA_FILE = json.dumps(
    {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["kind", "id"],
        "properties": {
            "kind": {"const": "job"},
            "id": {"type": "string"},
            "state": {"enum": ["queued", "done"]},
        },
    }
)


def test_an_example_file_an_api_document_names_is_bound_by_that_reference(
    make_corpus: MakeCorpus,
) -> None:
    paths = """\
    /jobs:
      get:
        responses:
          '200':
            description: A job.
            content:
              application/json:
                schema: {$ref: '../schemas/job.schema.json'}
                examples: {stored: {externalValue: ./examples/job.json}}
    """
    root = make_corpus(
        {
            "api/openapi.yaml": api(paths),
            "schemas/job.schema.json": SCHEMA_FILE,
            "api/examples/job.json": '{"kind": "job", "id": "j-1", "state": "exploded"}\n',
        }
    )
    found = findings(root)
    # Once, by the reference (a declared tie), not again by its `kind` value.
    assert [(f.location.path, f.heuristic) for f in found] == [
        ("api/examples/job.json", "example-invalid/in-document")
    ]
    output = run_cli("bindings", str(root)).output
    assert "api/examples/job.json example file\n    -> api/openapi.yaml#/paths/" in output
    assert "(by reference: `externalValue: ./examples/job.json` names this example" in output


def test_an_example_file_no_document_names_is_still_bound_by_its_values(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": api(""),
            "schemas/job.schema.json": SCHEMA_FILE,
            "examples/job.json": '{"kind": "job", "id": "j-1", "state": "exploded"}\n',
        }
    )
    found = findings(root)
    assert [(f.location.path, f.heuristic) for f in found] == [
        ("examples/job.json", "example-invalid/by-value")
    ]


def test_an_examples_map_kept_in_a_file_is_followed(make_corpus: MakeCorpus) -> None:
    paths = """\
    /jobs:
      get:
        responses:
          '200':
            description: A job.
            content:
              application/json:
                schema: {$ref: '#/components/schemas/Job'}
                examples: {$ref: ./examples/jobs.yaml}
    """
    examples = (
        "queued:\n  value: {id: job-1, state: queued}\nodd:\n  value: {id: job-2, state: odd}\n"
    )
    root = make_corpus({"openapi.yaml": api(paths), "examples/jobs.yaml": examples})
    found = findings(root)
    assert places(root) == [("examples/jobs.yaml", 4, "/odd/value")]
    assert found[0].related[1].note == "`$ref: ./examples/jobs.yaml` names these examples"


MENU = """\
MenuItem:
  oneOf: [{$ref: '#/components/schemas/Drink'}, {$ref: '#/components/schemas/Cake'}]
Base:
  type: object
  required: [id, name]
  properties:
    id: {type: string, readOnly: true}
    name: {type: string}
Drink:
  allOf:
    - $ref: '#/components/schemas/Base'
    - {type: object, required: [kind], properties: {kind: {const: drink}, volume: {type: number}}}
Cake:
  allOf:
    - $ref: '#/components/schemas/Base'
    - {type: object, required: [kind], properties: {kind: {const: cake}}}
"""


def test_a_request_example_of_a_oneof_may_leave_out_what_every_branch_reads_only(
    make_corpus: MakeCorpus,
) -> None:
    # A request body omits the `readOnly` members its branches' base requires (OpenAPI 3.0.3
    # §4.7.24.1; read alike in 3.1): the branch it fits but for them satisfies the `oneOf`.
    paths = """\
    /menu:
      post:
        requestBody:
          content:
            application/json:
              schema: {$ref: '#/components/schemas/MenuItem'}
              examples:
                drink: {value: {name: Tea, kind: drink, volume: 250}}
                wrong: {value: {name: Tea, kind: drink, volume: large}}
        responses:
          '201': {description: Created.}
    """
    root = make_corpus({"openapi.yaml": api(paths, schemas=MENU)})
    found = findings(root)
    assert [f.location.pointer for f in found] == [
        "/paths/~1menu/post/requestBody/content/application~1json/examples/wrong/value"
    ]


def test_an_edit_of_a_path_item_file_is_seen_through_the_cache(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "openapi.yaml": api("/jobs: {$ref: ./paths/jobs.yaml}\n"),
            "paths/jobs.yaml": PATH_ITEM % "queued",
        }
    )
    select = ("--preview", "--select", "example-invalid", "--exit-zero")
    assert "paths/jobs.yaml" not in run_cli("check", str(root), *select).output
    (root / "paths/jobs.yaml").write_text(PATH_ITEM % "paused", encoding="utf-8")
    cached = run_cli("check", str(root), *select).output
    assert "paths/jobs.yaml:8:" in cached
    assert cached == run_cli("check", str(root), *select, "--no-cache").output


def test_a_path_item_file_that_refers_on_to_another_is_followed(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "openapi.yaml": api("/jobs: {$ref: ./paths/jobs.yaml}\n"),
            "paths/jobs.yaml": "$ref: ./v2/jobs.yaml\n",
            "paths/v2/jobs.yaml": (PATH_ITEM % "paused").replace("../openapi", "../../openapi"),
        }
    )
    assert [path for path, _, _ in places(root)] == ["paths/v2/jobs.yaml"]


def test_a_null_for_a_31_schemas_leftover_nullable_is_the_schemas_defect_reported_once(
    make_corpus: MakeCorpus,
) -> None:
    # OpenAPI 3.1 has no `nullable` (oas30-leftover reports the schema, once): an example giving
    # `null` there says what the author meant, in the main document and in a path-item file
    # alike; a `null` for a schema that never said `nullable` is still the example's defect.
    item = PATH_ITEM.replace("{$ref: '../openapi.yaml#/components/schemas/Job'}", "%s").replace(
        "{id: job-1, state: %s}", "%s"
    )
    note = "{type: object, properties: {note: {type: string, nullable: true}}}"
    strict = "{type: object, properties: {note: {type: string}}}"
    for schema, expected in ((note, []), (strict, [("paths/jobs.yaml", 8)])):
        inline = textwrap.indent(item % (schema, "{note: null}"), "  ")
        root = make_corpus(
            {
                "openapi.yaml": api(f"/jobs: {{$ref: ./paths/jobs.yaml}}\n/inline:\n{inline}"),
                "paths/jobs.yaml": item % (schema, "{note: null}"),
            }
        )
        # the refused `null`s: the document's one note, each place in it
        told = [(at.path, at.line) for f in findings(root) for at in (f.location, *f.related)]
        assert [(p, line) for p, line in told if p != "openapi.yaml"] == expected
        assert bool([p for p, _ in told if p == "openapi.yaml"]) == bool(expected)
        leftovers = all_rules()["oas30-leftover"].check(Context.load(root), {})
        assert len(list(leftovers)) == (2 if expected == [] else 0)
        # Where oas30-leftover does not run, the examples still say it: the document's one
        # note of refused `null`s, both places in it.
        alone = Context.load(root)
        alone.running = frozenset({"example-invalid"})
        judged = all_rules()["example-invalid"].check(alone, {})
        [note] = [f for f in judged if f.coverage is None]
        assert note.message.startswith("2 examples in this document give `null`")
        assert len(note.related) == 2  # each refused `null`


def test_a_null_for_a_nullable_no_rule_reports_is_still_the_examples(
    make_corpus: MakeCorpus,
) -> None:
    # AsyncAPI has no `nullable` either, and oas30-leftover judges OpenAPI 3.1 only: the
    # example's finding is then the one place the defect is said.
    asyncapi = textwrap.dedent(
        """\
        asyncapi: 3.0.0
        info: {title: Jobs, version: 1.0.0}
        components:
          messages:
            Job:
              payload:
                type: object
                properties: {note: {type: string, nullable: true}}
                examples: [{note: null}]
        """
    )
    root = make_corpus({"asyncapi.yaml": asyncapi})
    assert list(all_rules()["oas30-leftover"].check(Context.load(root), {})) == []
    assert [p for p, _, _ in places(root)] == ["asyncapi.yaml"]


def test_a_path_item_files_example_of_another_form_than_its_format_is_warned_there(
    make_corpus: MakeCorpus,
) -> None:
    """A date-time given as a date in a parameter example kept in a path-item file is told
    where it is written, as an inline one is (the format check ran only on the root's own)."""
    item = textwrap.dedent(
        """\
        get:
          parameters:
            - name: since
              in: query
              schema: {type: string, format: date-time}
              examples:
                day: {value: '2024-05-01'}
          responses:
            '200': {description: ok}
        """
    )
    root = make_corpus(
        {"openapi.yaml": api("/jobs: {$ref: ./paths/jobs.yaml}\n"), "paths/jobs.yaml": item}
    )
    [found] = [f for f in findings(root) if f.heuristic == "example-invalid/format"]
    assert found.location.path == "paths/jobs.yaml"
    assert "date-time" in found.message
