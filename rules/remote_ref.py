"""A ``$ref`` to a network URL that the corpus does not hold and no ``ref-map`` entry maps.

What it does
    Reports each ``$ref`` whose target is an ``http(s)`` URL outside the corpus' own ``$id``
    namespace. speclint never fetches it: resolving references chosen by a pull request over the
    network would let that pull request make the CI machine open arbitrary connections, and makes
    the result depend on a server that can change or vanish. The published JSON Schema
    metaschemas resolve offline (jsonschema-specifications) and are not reported; a generated
    bundle's references are judged at its sources.

Why is this bad?
    Validation and code generation depend on a document the corpus does not pin; it may change
    without a commit, or be unreachable in an offline build.

Example
    ::

        payload:
          $ref: 'https://schemas.example.net/envelope.json'

    FAIL: ``warning [remote-ref] `https://schemas.example.net/envelope.json` is a remote URL ...``

Use instead
    Vendor the schema into the corpus and reference it relatively, or keep the URL and map it in
    ``speclint.toml``::

        [ref-map]
        "https://schemas.example.net/" = "vendor/example-net/"

    PASS.

Options
    None (``ref-map`` is corpus configuration).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.corpus import Corpus
from speclint.findings import Finding, Severity
from speclint.references import Reference

ID = "remote-ref"
SEVERITY = Severity.WARNING
# Reads JSON/YAML documents only: its cached result stands while only prose changes.
READS = "structured"


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    groups: dict[str, list[Reference]] = defaultdict(list)
    for reference in corpus.references.references:
        if reference.outcome == "remote" and reference.path not in corpus.derived:
            groups[reference.target.split("#", 1)[0]].append(reference)
    for target, references in sorted(groups.items()):
        first, *others = references
        yield Finding(
            ID,
            SEVERITY,
            f"`{first.value}` is a remote URL; speclint does not fetch it, so nothing behind it is "
            "checked. Vendor the schema into the corpus and reference it relatively, or map the "
            "URL to a corpus file with [ref-map] in speclint.toml",
            corpus.documents[first.path].location(first.pointer),
            related=tuple(
                corpus.documents[r.path].location(r.pointer, note="also references it")
                for r in others
            ),
            key=target,
        )
