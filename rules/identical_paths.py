"""Two paths of an OpenAPI document that are the same path but for the names of their variables.

What it does
    In each Paths Object of an OpenAPI (or Swagger 2.0) document, reports a path key that is
    another key of the same object once the names of their template variables are set aside
    (``/runs/{runId}`` after ``/runs/{id}``), at the later key, with the earlier one as related
    location. A Paths Object kept in its own file (``paths: {$ref: ...}``) is judged there.
    The keys of ``webhooks`` (names) and of callbacks (runtime expressions) are no paths and
    are not judged.

Why is this bad?
    "Templated paths with the same hierarchy but different templated names MUST NOT exist as
    they are identical" (OpenAPI 3.0.4 §4.7.8, 3.1.1 §4.8.8, 3.2.0 Paths Object): every request
    either path matches, the other matches too, so a server routes it to one of the two by a
    rule of its own, and the other's operations are unreachable or shadowed. Swagger 2.0 says
    nothing of it, but the two paths collide the same way: a warning there.

Example
    ::

        paths:
          /runs/{id}:
            get: ...
          /runs/{runId}:
            delete: ...

    FAIL: ``error [identical-paths] path `/runs/{runId}` is path `/runs/{id}` with other
    variable names ...``

Use instead
    ::

        paths:
          /runs/{runId}:
            get: ...
            delete: ...

    PASS.

Options
    None.

Limitations
    Paths a request may match both with their variables in other places (``/{a}/b`` and
    ``/a/{b}``) are ambiguous, not identical: OpenAPI leaves their matching to the tooling and
    this rule does not report them. Paths of several documents a build merges into one are
    not compared.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.operations import TEMPLATE
from speclint.analyses.api.path_keys import paths_objects
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity

ID = "identical-paths"
SEVERITY = Severity.ERROR
PREVIEW = True  # new (issue 52): labelled in benchmarks/ecosystem (precision.json); leaving preview is decided there
FACTS = ("references",)  # a Paths Object kept in its own file is reached by its `$ref`


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for paths in paths_objects(corpus):
        # Swagger 2.0's Paths Object has no such MUST NOT (it came with 3.0): a warning there.
        severity = Severity.WARNING if paths.version.startswith("2") else SEVERITY
        first: dict[str, str] = {}  # the path with its variables unnamed -> the first key so
        for key in paths.keys:
            shape = TEMPLATE.sub("{}", key)
            earlier = first.setdefault(shape, key)
            if earlier == key or "{" not in key:
                continue
            rule = (
                "every request matches both, so a server routes it to one of them"
                if severity is Severity.WARNING
                else "templated paths that differ only in their variables' names MUST NOT "
                "exist, as every request matches both (OpenAPI Paths Object)"
            )
            yield Finding(
                ID,
                severity,
                f"path `{key}` is path `{earlier}` with other variable names: {rule}; "
                "move its operations under "
                f"`{earlier}` (one variable name) and delete this path",
                paths.holder.location(paths.at(key)),
                related=(paths.holder.location(paths.at(earlier), note="the same path"),),
                key=f"{paths.pointer}:{key}",
            )
