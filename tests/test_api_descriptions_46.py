"""An API document's own prose and vendor examples (issue 46's missed classes).

- ``x-examples`` (a map of name to example, as Stoplight and others write it on a schema or a
  media type) is validated against its schema as ``examples`` are: a preview heuristic of
  ``example-invalid``.
- The ``description`` text of an OpenAPI or AsyncAPI document is CommonMark (OpenAPI 3.1 §4.3):
  its fences and the routes it names are read as a page's are, and reported at the line of the
  YAML or JSON file they are written on.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.common.findings import Finding

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

JOB = """\
    Job:
      type: object
      required: [id, state]
      properties:
        id: {type: string}
        state: {type: string, enum: [queued, running, done]}
"""


def api(paths: str = "", schemas: str = JOB, top: str = "", version: str = "3.1.0") -> str:
    """An OpenAPI document: ``top`` (YAML members after ``info``), ``paths`` (under ``paths:``)
    and ``schemas`` (under ``components/schemas``)."""
    return (
        f"openapi: {version}\ninfo:\n  title: Jobs\n  version: 1.0.0\n"
        + textwrap.dedent(top)
        + ("paths:\n" + textwrap.indent(textwrap.dedent(paths), "  ") if paths else "paths: {}\n")
        + "components:\n  schemas:\n"
        + schemas
    )


def lines_of(found: list[Finding]) -> list[tuple[str, int]]:
    return [(f.location.path, f.location.line) for f in found if f.coverage is None]


# ---------------------------------------------------------------- x-examples


X_SCHEMA = (
    JOB
    + """\
      x-examples:
        Queued:
          id: job-1
          state: queued
        Paused:
          id: job-2
          state: paused
"""
)


def test_a_schemas_x_examples_are_validated_against_it(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(schemas=X_SCHEMA)})
    found = [f for f in run_rule(root, "example-invalid") if f.coverage is None]
    assert lines_of(found) == [("openapi.yaml", 18)]  # `Paused:`
    assert '"paused" is not one of' in found[0].message
    assert found[0].location.pointer == "/components/schemas/Job/x-examples/Paused"
    assert found[0].heuristic == "example-invalid/x-examples"


def test_a_media_types_x_examples_are_validated_against_its_schema(
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
                x-examples:
                  first: {id: job-1, state: done}
                  second:
                    summary: An example object, its value the example
                    value: {id: job-2}
    """
    root = make_corpus({"openapi.yaml": api(paths)})
    found = [f for f in run_rule(root, "example-invalid") if f.coverage is None]
    assert [f.location.pointer for f in found] == [
        "/paths/~1jobs/get/responses/200/content/application~1json/x-examples/second/value"
    ]
    assert '"state" is a required property' in found[0].message
    assert found[0].heuristic == "example-invalid/x-examples"


def test_an_empty_or_valid_x_examples_map_is_no_finding(make_corpus: MakeCorpus) -> None:
    schemas = (
        JOB + "      x-examples: {}\n    Other:\n      type: string\n      x-examples: {a: b}\n"
    )
    root = make_corpus({"openapi.yaml": api(schemas=schemas)})
    assert lines_of(run_rule(root, "example-invalid")) == []
