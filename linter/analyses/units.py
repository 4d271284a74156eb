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

``READS = "extract"``
    Checked whole, as ``READS = "structured"`` rules are, but keyed also on what the rule reads
    of each Markdown page: ``extract(document)``, a pure function of the page (the
    ignore-unknown statements ``closed-event-union`` reads, the value sets ``enum-drift``
    binds), through which, and only through which, the rule reads Markdown. An edit that
    leaves every page's extract as it was (a sentence reworded, a link fixed) keeps the rule's
    findings.

and the functions:

- ``check_unit(corpus, document, options) -> list``: what the rule finds in one unit, as
  findings or as the rule's own dataclasses (stored in the rule cache, so made only of what
  ``speclint.common.storage`` writes). It must read nothing beyond what its kind allows: a result
  read from the cache is trusted to be the one a fresh check would give;
- ``combine(corpus, results, options)`` (optional): the findings, from every unit's result in
  document order, where a rule groups across units (one finding for the same broken link on
  five pages). Without it, the findings are each unit's, in document order;
- ``units(corpus)`` (``"document"`` rules; ``"page"`` rules default to every Markdown page);
- ``unit_inputs(corpus, document)`` (optional): other corpus paths one unit reads;
- ``unit_reach(corpus, document)`` (optional, ``"document"`` rules): the corpus paths one unit
  reads besides its document, in place of all that its ``$ref``\\s reach (``openapi-invalid``
  reads the files its API structure is kept in, not the schema files its schemas name, which
  schema-invalid judges: a schema edit keeps its result);
- ``shared(corpus)`` (optional, ``"page"`` rules): what every unit reads of the JSON/YAML
  documents, as data whose ``repr`` is exact (``None``: nothing), in place of all of them, so a
  schema edit keeps the results of a rule that never reads schemas (``fence-invalid``), or
  reads only their ``$id``\\s (``broken-link``).

Any rule may also declare ``prepare(page)``: what it reads of one Markdown page alone, a pure
function of the page's text. The run makes it as each page is parsed (on every core, in
``Corpus.from_snapshot``) and the parse cache keeps it with the page, so a later run reads it
without decoding the page's prose (``fence-invalid``'s example conventions of every page, which
its ``shared`` reads: 0.4 s of a one-page edit on OpenWOP went to decoding 72 unchanged pages
for them). The rule reads it through :func:`prepared`, which makes it when it is missing.

Its ``check`` is then :func:`check_by_unit`, which is what runs without a cache (``--no-cache``,
an in-memory corpus); the runner calls its ``checked`` with the cached results, so the two give
the same findings in the same order, by construction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from speclint.analyses.schemas.instance_schemas import Schema
from speclint.common.findings import Finding
from speclint.model.corpus import kept
from speclint.model.descriptions import API_KINDS, described_page
from speclint.parsing.kinds import DocumentKind

if TYPE_CHECKING:
    from speclint.analyses.context import Context
    from speclint.model.corpus import Document

T = TypeVar("T")
E = TypeVar("E")

UNIT_KINDS = ("page", "document")
CACHED_WHOLE = ("structured", "extract")  # one rule-cache entry for all the rule's findings
UnitCheck = Callable[["Context", "Document", Mapping[str, Any]], list[Any]]
Combine = Callable[["Context", Mapping[str, list[Any]], Mapping[str, Any]], Iterable[Finding]]
Units = Callable[["Context"], Iterable["Document"]]


def pages(corpus: Context) -> Iterator[Document]:
    """Every readable Markdown page: the units of a ``READS = "page"`` rule."""
    return corpus.of_kind(DocumentKind.MARKDOWN)


def pages_and_descriptions(corpus: Context) -> list[Document]:
    """The Markdown pages, and the API documents whose descriptions (read as a page,
    ``speclint.model.descriptions``) hold a code block: the units of a rule that reads code
    blocks wherever prose has them."""
    described = []
    for document in corpus.of_kind(*API_KINDS):
        page = described_page(document)
        if page is not None and page.page.prose is not None and page.page.prose.fences:
            described.append(document)
    return [*corpus.of_kind(DocumentKind.MARKDOWN), *described]


def concatenated(
    corpus: Context, results: Mapping[str, list[Any]], options: Mapping[str, Any]
) -> Iterator[Finding]:
    for found in results.values():
        yield from found


def check_by_unit(
    corpus: Context,
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


def reach(corpus: Context, path: str) -> list[str]:
    """The corpus documents a ``"document"`` unit reads besides itself: those its ``$ref``\\s
    reach, transitively, and the corpus metaschemas their ``$schema`` names; sorted."""
    memo: dict[str, list[str]] = corpus.memo.setdefault("units.reach", {})
    found = memo.get(path)
    if found is None:
        found = memo[path] = _reach(corpus, path)
    return found


def schema_reach(corpus: Context, document: Document) -> list[str]:
    """The ``unit_inputs`` of a rule whose units are instances
    (``speclint.analyses.schemas.instance_schemas``): the schema the instance names, when the corpus
    holds it, and the documents that schema's ``$ref``\\s reach."""
    target = corpus.instances.of(document)
    if not isinstance(target, Schema):
        return []
    path = target.document.path
    return [path, *reach(corpus, path)]


def _reach(corpus: Context, path: str) -> list[str]:
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


def kept_with_page(
    document: Document, name: str, make: Callable[[Document], list[E]], hint: Any
) -> list[E]:
    """:func:`kept` for a list (an extract, made at parse time when a ``READS = "extract"``
    rule's digest asks for it), returned as a copy: the memo is stored as it is."""
    return list(kept(document, name, make, hint))


def prepared(document: Document, rule_id: str, prepare: Callable[[Document], T], hint: Any) -> T:
    """A rule's ``prepare(document)``, :func:`kept` (``hint``: the type it returns)."""
    return kept(document, f"prepare:{rule_id}", prepare, hint)


def extract_digest(document: Document, rule_id: str, extract: Callable[[Document], Any]) -> str:
    """The digest of what a ``READS = "extract"`` rule reads of a page: memoised on the document,
    so the parse cache keeps it with the page (a pure function of the page's text, and of the
    code, which names the parse cache's folder)."""

    name = f"extract:{rule_id}"
    memo = document.derived.get(name)
    if isinstance(memo, str):
        return memo
    shown = repr(extract(document)).encode("utf-8", "surrogateescape")
    digest = document.derived[name] = hashlib.sha256(shown).hexdigest()
    return digest
