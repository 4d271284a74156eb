"""A path key of an OpenAPI document with an empty template, a variable twice, or a query.

What it does
    In each Paths Object of an OpenAPI (or Swagger 2.0) document, reports at the path key an
    empty template ``{}`` (it names no path parameter), a variable written twice
    (``/runs/{id}/steps/{id}``), or a query string (``/runs?status=open``: the query belongs in
    ``in: query`` parameters). In OpenAPI 3.2 each is an error (its Path Templating grammar; "Each
    template expression MUST NOT appear more than once"); before 3.2 the empty template is an
    error (each template expression MUST correspond to a path parameter), the others warnings.
    A Paths Object kept in its own file (``paths: {$ref: ...}``) is judged there. ``webhooks``
    keys (names) and callback keys (runtime expressions) are no paths and are not judged.

Why is this bad?
    A path key is appended to the server URL as a path (OpenAPI 3.1.1 §4.8.8): a ``?`` in it is
    part of no request path, so no request matches the key, and the query it spells is described
    by no parameter. ``{}`` and a repeated ``{id}`` have no parameter of their own: Path
    Templating (3.0.4, 3.1.1 Definitions) asks that each template expression correspond to a
    path parameter, and a parameter is one value, so generated clients and servers drop or
    mangle the second segment.

Example
    ::

        paths:
          /runs/{id}/steps/{id}:
            get: ...
          /runs?status=open:
            get: ...

    FAIL: ``warning [path-key-invalid] template variable `{id}` appears twice in path ...``

Use instead
    ::

        paths:
          /runs/{runId}/steps/{stepId}:
            get: ...
          /runs:
            get:
              parameters: [{name: status, in: query, schema: {type: string}}]

    PASS.

Options
    None.

Limitations
    Path parameters declared but not in the path, or in the path but not declared, are
    ``openapi-invalid``'s.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.path_keys import PathsObject, paths_objects
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity

ID = "path-key-invalid"
SEVERITY = Severity.ERROR
PREVIEW = True  # new (issue 52): labelled in benchmarks/ecosystem (precision.json); leaving preview is decided there
FACTS = ("references",)  # a Paths Object kept in its own file is reached by its `$ref`

_VARIABLE = re.compile(r"\{([^{}]*)\}")
# RFC 6570 §3.2.8, §3.2.9: form-style query expansion `{?a,b}` and continuation `{&c}`.
_EXPANSION = re.compile(r"\{[?&]([^{}]*)\}")


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for paths in paths_objects(corpus):
        for key in paths.keys:
            yield from _judged(paths, key)


def _judged(paths: PathsObject, key: str) -> Iterator[Finding]:
    # OpenAPI 3.2.0 (Paths Object, Path Templating) gives a path template's grammar and says a
    # template expression MUST NOT appear more than once; earlier versions have neither.
    strict = _at_least_32(paths.version)
    swagger = paths.version.startswith("2")
    where = paths.holder.location(paths.at(key))
    names = _VARIABLE.findall(key)
    if "" in names:
        yield Finding(
            ID,
            Severity.WARNING if swagger else Severity.ERROR,
            f"path `{key}` has an empty template `{{}}`, which names no path parameter (each "
            "template expression MUST correspond to a path parameter, OpenAPI Path "
            "Templating); name the variable and declare it as an `in: path` parameter",
            where,
            key=f"{paths.pointer}:{key}:empty",
        )
    for name, count in sorted(Counter(n for n in names if n).items()):
        if count < 2:
            continue
        yield Finding(
            ID,
            Severity.ERROR if strict else Severity.WARNING,
            f"template variable `{{{name}}}` appears {_times(count)} in path `{key}`: one path "
            "parameter holds one value, so the segments cannot differ (OpenAPI 3.2 says a "
            "template expression MUST NOT appear more than once); give each segment a "
            "variable of its own and declare it as an `in: path` parameter",
            where,
            key=f"{paths.pointer}:{key}:twice:{name}",
        )
    query = _query(key)
    if query is not None:
        what, path, named = query
        describe = (
            "describe " + ", ".join(f"`{n}`" for n in named) + " with `in: query` parameters"
            if named
            else "describe its query with `in: query` parameters"
        )
        yield Finding(
            ID,
            Severity.ERROR if strict else Severity.WARNING,
            f"path `{key}` carries {what}: a path key is appended to the server URL as a path, "
            "so no request matches it (OpenAPI Paths Object); write the path as "
            f"`{path}` and {describe}",
            where,
            key=f"{paths.pointer}:{key}:query",
        )


def _query(key: str) -> tuple[str, str, list[str]] | None:
    """What query ``key`` spells (a query string, or an RFC 6570 query expansion such as
    ``{?id*}``, which OpenAPI's path templating does not have), the path before it and the
    names of its parameters; None when it spells none."""
    expansion = _EXPANSION.search(key)
    if expansion is not None:
        # RFC 6570 §2.4: a variable may carry a prefix (`:3`) or explode (`*`) modifier.
        names = [n.split(":")[0].rstrip("*") for n in expansion.group(1).split(",")]
        what = f"an RFC 6570 query expansion `{expansion.group(0)}`, which OpenAPI's path templating does not have"
        return what, key[: expansion.start()], [n for n in names if n]
    if "?" not in key:
        return None
    path, _, query = key.partition("?")
    names = [part.split("=")[0] for part in query.split("&")]
    return f"a query string `?{query}`", path, [n for n in names if n]


def _at_least_32(version: str) -> bool:
    major, _, minor = version.partition(".")
    return major.isdigit() and minor.isdigit() and (int(major), int(minor)) >= (3, 2)


def _times(count: int) -> str:
    return "twice" if count == 2 else f"{count} times"
