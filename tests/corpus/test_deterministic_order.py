"""Deterministic reports (issue 26: the ecosystem check saw an openapi-invalid finding move
between two places of one schema from run to run). jsonschema yields some errors in the order
of a set of property names, which follows the process's hash seed; the finding must not."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from test_cli import cli

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

# Five properties whose `type` is YAML null: each is invalid, and the schema object is
# reported once, at its first error as written.
SHAPES = """\
openapi: 3.1.0
info: {title: Shapes, version: 1.0.0}
paths: {}
components:
  schemas:
    shape:
      type: object
      properties:
        alpha: {type: null}
        beta: {type: null}
        gamma: {type: null}
        delta: {type: null}
        epsilon: {type: null}
"""


def test_a_schema_objects_metaschema_error_does_not_follow_the_hash_seed(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": SHAPES})
    reports = set()
    for seed in ("1", "2", "3", "4", "5"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = cli("check", str(root), "--rule", "openapi-invalid", "--no-cache", env=env)
        reports.add(run.stdout)
    [report] = reports
    assert "/components/schemas/shape/properties/alpha/type" in report
