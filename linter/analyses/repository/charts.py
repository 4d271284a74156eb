"""A Helm chart's values as Helm validates them: an override merged over the chart's defaults.

A chart may hold a ``values.schema.json`` beside its ``Chart.yaml``. Helm does not validate a
values file given with ``-f`` (an ``examples/*/values.yaml``, a README snippet) on its own: it
first merges the chart's default ``values.yaml`` under it, then validates the result against the
schema (Helm documentation, "Charts", *Schema Files*: "the schema is applied to the final
.Values object"; *Values Files*: the chart's ``values.yaml`` comes first, a file given with
``-f`` overrides it). So a ``required`` member the defaults give is not missing from an override,
and what the defaults hold is not the override's to fix.

Helm's merge (``chartutil.CoalesceTables``): maps are merged member by member, at every depth; any
other value (a list, a scalar) replaces the default; a ``null`` removes the default's member
(Helm documentation, "Values Files": "If you need to delete a key from the default values, you
may override the value of the key to be null").
"""

from __future__ import annotations

import posixpath
from typing import Any

from speclint.analyses.context import Context
from speclint.model.corpus import Document
from speclint.parsing.structured import holds_pointer
from speclint.parsing.templates import HELM_CHART

VALUES_SCHEMA = "values.schema.json"  # Helm reads the schema of a chart's values by this name
DEFAULT_VALUES = "values.yaml"  # and the chart's default values by this one


def chart_of(corpus: Context, path: str) -> str | None:
    """The folder of the Helm chart ``path`` belongs to: the nearest folder upward (its own
    included) with a ``Chart.yaml``; None outside every chart. A chart is packaged, versioned
    and documented on its own: its README describes its values, not another chart's."""
    memo: dict[str, str | None] = corpus.memo.setdefault("chart_of", {})
    folder = posixpath.dirname(path)
    if folder in memo:
        return memo[folder]
    seen = []
    found: str | None = None
    while True:
        if folder in memo:
            found = memo[folder]
            break
        seen.append(folder)
        if posixpath.join(folder, HELM_CHART) in corpus.tree:
            found = folder
            break
        if not folder:
            break
        folder = posixpath.dirname(folder)
    for each in seen:
        memo[each] = found
    return found


def same_chart(corpus: Context, first: str, second: str) -> bool:
    """Whether one may describe the other as far as charts go: not in two different charts (a
    page outside every chart, a repository's docs, may describe any chart's values)."""
    one, other = chart_of(corpus, first), chart_of(corpus, second)
    return one is None or other is None or one == other


def chart_defaults(corpus: Context, schema: Document, pointer: str) -> Document | None:
    """The chart's default values when ``schema#pointer`` is a chart's values schema (the root
    of a ``values.schema.json`` with a ``Chart.yaml`` beside it) and the chart's
    ``values.yaml`` is in the corpus as a mapping; else None."""
    folder, name = posixpath.split(schema.path)
    if pointer or name != VALUES_SCHEMA:
        return None
    if posixpath.join(folder, HELM_CHART) not in corpus.tree:
        return None
    defaults = corpus.documents.get(posixpath.join(folder, DEFAULT_VALUES))
    if defaults is None or not isinstance(defaults.data, dict):
        return None
    return defaults


def merged_values(defaults: Any, override: Any) -> Any:
    """``override`` merged over ``defaults`` as Helm coalesces values: maps member by member,
    other values replaced, a ``null`` member deleted."""
    if not (isinstance(defaults, dict) and isinstance(override, dict)):
        return override
    merged = dict(defaults)
    for key, value in override.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = merged_values(merged.get(key), value)
    return merged


def gives(override: Any, pointer: str) -> bool:
    """Whether the override itself holds the value at ``pointer`` (the merged values' place an
    error is at): what is only the defaults' is not the override's to fix."""
    return holds_pointer(override, pointer)
