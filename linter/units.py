"""Rules checked one document at a time, so that an edit re-checks only what depends on it
(issue 16, item 2).

A rule module opts in by declaring what one unit of its work reads, with ``READS``:

``READS = "page"``
    One unit per Markdown page. A unit reads that page, every JSON/YAML document (the schemas it
    is compared with), the repository's file listing and the configuration; another page only
    when ``unit_inputs`` names it (``broken-link`` names the pages a link points into, whose
    headings it checks the anchor against). A Markdown edit re-checks that page alone against
    the unchanged schemas.
``READS = "document"``
    One unit per document that ``units`` selects (the rule says which: schemas, API
    documents...). A unit reads that document and the corpus documents its ``$ref``\\s reach,
    transitively (and a metaschema the corpus holds that a ``$schema`` names), the file
    listing, every document's path and kind, and the configuration. A schema edit re-checks
    that schema and the documents that reference it.

and the functions:

- ``check_unit(corpus, document, options) -> list``: what the rule finds in one unit, as
  findings or as the rule's own dataclasses (stored in the rule cache, so made only of what
  ``speclint.storage`` writes). It must read nothing beyond what its kind allows: a result read
  from the cache is trusted to be the one a fresh check would give;
- ``combine(corpus, results, options)`` (optional): the findings, from every unit's result in
  document order, where a rule groups across units (one finding for the same broken link on
  five pages). Without it, the findings are each unit's, in document order;
- ``units(corpus)`` (``"document"`` rules; ``"page"`` rules default to every Markdown page);
- ``unit_inputs(corpus, document)`` (optional): other corpus paths one unit reads.

Its ``check`` is then :func:`check_by_unit`, which is what runs without a cache (``--no-cache``,
an in-memory corpus); the runner calls :func:`checked` with the cached results, so the two give
the same findings in the same order, by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .findings import Finding
from .kinds import DocumentKind

if TYPE_CHECKING:
    from .catalog import RuleInfo
    from .corpus import Corpus, Document

UNIT_KINDS = ("page", "document")
UnitCheck = Callable[["Corpus", "Document", Mapping[str, Any]], list[Any]]
Combine = Callable[["Corpus", Mapping[str, list[Any]], Mapping[str, Any]], Iterable[Finding]]
Units = Callable[["Corpus"], Iterable["Document"]]


def pages(corpus: Corpus) -> Iterator[Document]:
    """Every readable Markdown page: the units of a ``READS = "page"`` rule."""
    return corpus.of_kind(DocumentKind.MARKDOWN)


def concatenated(
    corpus: Corpus, results: Mapping[str, list[Any]], options: Mapping[str, Any]
) -> Iterator[Finding]:
    for found in results.values():
        yield from found


def checked(
    corpus: Corpus,
    options: Mapping[str, Any],
    info: RuleInfo,
    cached: Mapping[str, list[Any]],
    fresh: dict[str, list[Any]],
) -> Iterator[Finding]:
    """The rule's findings: each unit's result from ``cached`` when it is there, else checked now
    (and put in ``fresh``), then combined."""
    assert info.check_unit is not None and info.units is not None
    results: dict[str, list[Any]] = {}
    for document in info.units(corpus):
        found = cached.get(document.path)
        if found is None:
            found = fresh[document.path] = list(info.check_unit(corpus, document, options))
        results[document.path] = found
    yield from (info.combine or concatenated)(corpus, results, options)


def check_by_unit(
    corpus: Corpus,
    options: Mapping[str, Any],
    check_unit: UnitCheck,
    combine: Combine | None = None,
    units: Units = pages,
) -> Iterator[Finding]:
    """What a unit rule's ``check`` is: every unit checked, then combined."""
    results = {
        document.path: list(check_unit(corpus, document, options)) for document in units(corpus)
    }
    yield from (combine or concatenated)(corpus, results, options)


def reach(corpus: Corpus, path: str) -> list[str]:
    """The corpus documents a ``"document"`` unit reads besides itself: those its ``$ref``\\s
    reach, transitively, and the corpus metaschemas their ``$schema`` names; sorted."""
    index = corpus.references
    seen = {path}
    stack = [path]
    while stack:
        current = stack.pop()
        targets = [r.target_path for r in index.within(current, "")]
        document = corpus.documents.get(current)
        data = document.data if document is not None else None
        dialect = data.get("$schema") if isinstance(data, dict) else None
        if isinstance(dialect, str):
            targets.append(index.path_for(dialect.split("#", 1)[0]))
        for target in targets:
            if target is not None and target not in seen:
                seen.add(target)
                stack.append(target)
    seen.discard(path)
    return sorted(seen)
