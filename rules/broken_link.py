"""A Markdown link, image or section reference that leads nowhere in the repository.

What it does
    Checks offline every link of the Markdown pages (inline, reference-style, images, raw HTML; not
    in code or comments) and every ``file.md §Section`` reference. A relative path must name a file
    or folder of the repository, in its case (as on GitHub); a fragment, an anchor of the page as
    its renderer makes them (``speclint files`` names it); a ``/`` link or a site route is read as
    that renderer reads it; a section reference must name a heading, bold lead-in, label line or
    number of the page. ``http(s)`` URLs are never fetched, but one into the corpus's own ``$id``
    folders must be a corpus schema's ``$id``. Links to one missing target are one finding, the
    others related; "did you mean" proposes only a target that works.

Why is this bad?
    Links are how a spec's reader goes from a rule to its definition; a renamed heading or a moved
    file breaks every link to it silently. A dead link misleads but changes no contract: a
    ``warning``.

Example
    ``spec/runs.md``::

        See [the state machine](lifecycle.md#states) and `errors.md` §"Retry budget".

    FAIL when ``spec/lifecycle.md`` has no heading "States" (``warning [broken-link] ... has no
    heading or anchor `#states` (did you mean `#run-states`?) ...``) and ``spec/errors.md`` no
    section "Retry budget".

Use instead
    ::

        See [the state machine](lifecycle.md#run-states) and `errors.md` §"Retry budgets".

    PASS when the pages have the headings "Run states" and "Retry budgets".

Options
    ``ignore`` (default ``[]``): globs of link targets not checked, as written or resolved
    (``["generated/**", "https://example.org/*"]``). ``anchors`` (default ``true``): check fragments
    into Markdown pages; ``section-references`` (default ``true``): ``file.md §Section`` references;
    ``schema-ids`` (default ``true``): links into the ``$id`` folders. ``ignore-case`` (default
    ``false``): accept a case-only fragment difference on a site too. ``root-relative`` (default
    ``"auto"``: as the page's renderer reads it): read a ``/`` link always as a site route
    (``"site"``) or from the repository root (``"repository"``).

Limitations
    A case-only fragment difference is fine where GitHub renders the page, an ``info`` on a site.
    Not judged: what a build makes (copied files, anchors of includes, templates, MyST
    cross-references, routes set in code), meeting records, archives, a page an API description
    renders.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import hashlib
import json
import posixpath
import re
from collections import ChainMap, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any
from urllib.parse import unquote, urlsplit

from speclint.analyses.api.api_links import (
    ApiNames,
    DeepLink,
    Missing,
    api_names,
    bare,
    deep_link,
    judge,
)
from speclint.analyses.context import Context
from speclint.analyses.prose import assembly
from speclint.analyses.prose.assembly import Assembly
from speclint.analyses.prose.renderers import (
    DOCS_BUILDER,
    DOCUSAURUS_CONTENT,
    ELSEWHERE,
    FERN,
    FERN_CONFIG,
    FHIR_IG,
    FHIR_IG_CONFIGS,
    FHIR_IG_PAGES,
    GITHUB_RENDERER,
    SITE_CONFIGS,
    SPHINX,
    SPHINX_CONFIG,
    Renderer,
    mkdocs_slug,
    renderers,
    served_folders,
    site_config,
    site_path,
)
from speclint.analyses.repository.downloads import Copy, build_folders
from speclint.analyses.units import check_by_unit
from speclint.common.findings import (
    Finding,
    Location,
    Member,
    Severity,
    first_fitting,
    left_out,
    terminal_form,
)
from speclint.model.corpus import Document
from speclint.parsing.kinds import (
    MARKDOWN_SUFFIXES,
    DocumentKind,
    in_record_folder,
    under_folder_holding,
)
from speclint.parsing.links import (
    NUMBERED,
    LinkSite,
    Page,
    SectionSite,
    github_slug,
    normal_text,
    read_page,
    without_fences,
)
from speclint.parsing.prose import ProseDocument, parse_markdown

ID = "broken-link"
SEVERITY = Severity.WARNING
FACTS = ("references",)  # speclint.analyses.context
RELATED_LIMIT = 200
# The HTML pages read for ReSpec's includes: how many at most, and how long each may be (a
# ReSpec document's page is small; the Markdown it includes holds the text). Those that load
# ReSpec are read first: how many pages' heads are looked at for that, and how much of each (a
# page loads ReSpec with a `<script>` of its `<head>`).
HTML_HOSTS = 200
HTML_HOST_BYTES = 1 << 20
HTML_SCANNED = 2000
HTML_HEAD_BYTES = 16 << 10
ID_FAMILY = 3  # schema `$id`s in one folder before the corpus is taken to own that folder
# What a documentation site serves for an extension-less route (`../basic/auth`).
PAGE_SUFFIXES = (".md", ".mdx", "/index.md", "/index.mdx", "/README.md", "/readme.md")
# Docusaurus strips a number prefix from each folder and file of a doc's id (`01-basics/02-x`).
NUMBER_PREFIX = re.compile(r"^\d+[-_.]")
SCHEMA_SUFFIXES = (".schema.json", ".schema.yaml", ".schema.yml", ".json", ".yaml", ".yml")
# A web address written without its scheme (`example.org`, `www.example.com/x`): a relative
# path to GitHub.
WEB_ADDRESS = re.compile(
    r"^(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|edu|gov|info|ai|co)(?:/|$)",
    re.IGNORECASE,
)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# GitHub's line anchors (`#L10`, `#L10-L20`, `#L3C5-L8C2`) on a file's page.
LINE_ANCHOR = re.compile(r"^L\d+(?:C\d+)?(?:-L\d+(?:C\d+)?)?$")
# Not a path but a template or a placeholder: `{{ url }}`, `${base}/x`, `<your-file>`.
TEMPLATE = re.compile(r"\{\{|\}\}|\$\{|[<>*]")


@dataclass(frozen=True)
class Problem:
    """A broken link, before grouping: ``group`` is what all sites of one defect share."""

    group: tuple[str, ...]
    path: str
    site: LinkSite | SectionSite
    message: str
    related: tuple[Location, ...] = ()
    pointer: str = ""  # the anchor of the heading the link is under (set by ``check_unit``)
    severity: Severity = SEVERITY
    rank: int = 0  # 1 on a committed copy of an assembled document: its parts' sites go first
    coverage: str | None = None  # a link not checked (``speclint.run.coverage``), no finding


def _not_checked(kind: str, path: str, site: LinkSite | SectionSite, message: str) -> Problem:
    """A link speclint could not judge (``speclint.run.coverage`` kind ``kind``): one note a
    link, in the run's summary, never a finding."""
    return Problem(
        (kind, path, str(site.line), str(site.column)),
        path,
        site,
        message,
        severity=Severity.INFO,
        coverage=kind,
    )


@dataclass(frozen=True)
class Options:
    ignore: tuple[str, ...]
    anchors: bool
    ignore_case: bool
    sections: bool
    schema_ids: bool
    root_relative: str  # "auto", "site" or "repository"

    @classmethod
    def read(cls, options: Mapping[str, Any]) -> Options:
        ignore = options.get("ignore", ())
        if isinstance(ignore, str):
            ignore = (ignore,)
        return cls(
            ignore=tuple(str(g) for g in ignore),
            anchors=bool(options.get("anchors", True)),
            ignore_case=bool(options.get("ignore-case", False)),
            sections=bool(options.get("section-references", True)),
            schema_ids=bool(options.get("schema-ids", True)),
            root_relative=str(options.get("root-relative", "auto")),
        )


READS = "page"  # each page's links, against the listing and the pages they point into


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, combine)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Problem]:
    """The broken links of one page, before they are grouped across pages."""
    settings = Options.read(options)
    tree = _tree(corpus)
    path = document.path
    page = tree.pages.get(path)
    problems: list[Problem] = []
    # A page an API description `$ref`s as its text (a tag's description) is rendered into the
    # API reference (Redoc's `#tag/x`, `#operation/x`, paths of the published site): its links
    # are written for that rendering, which is not knowable here.
    rendered_in_api = path in tree.api_texts
    # A meeting's record (minutes quoting the specification of that day, its section links
    # included) is history: nobody edits it when the specification moves on.
    record = in_record_folder(path)
    for site in page.links if page is not None and not rendered_in_api and not record else ():
        problem = _link_problem(corpus, tree, settings, path, site)
        if problem is not None:
            problems.append(problem)
    if settings.sections and page is not None and not record:
        for section in page.sections:
            problem = _section_problem(tree, path, section)
            if problem is not None:
                problems.append(problem)
    # Where each one sits, from this page's model: combining them reads no page again.
    return [
        dataclasses.replace(problem, pointer=_pointer(document, problem.site.line))
        for problem in problems
    ]


def _pointer(document: Document, line: int) -> str:
    heading = document.prose.heading_at(line) if document.prose else None
    return f"#{heading.anchor}" if heading else ""


def unit_inputs(corpus: Context, document: Document) -> list[str]:
    """The other pages one page's check reads: those a link with a fragment or a section
    reference may point into (by file name; for a folder or an extension-less route, also the index pages that
    serve one), for their anchors and headings. Everything else it reads is the listing and the JSON/YAML documents."""
    tree = _tree(corpus)
    page = tree.pages.get(document.path)
    if page is None:
        return []
    stems = {_stem(site.page) for site in page.sections}
    for site in page.links:
        if "#" not in site.target:
            continue  # without a fragment, only the target's existence is read (the listing)
        stem = _stem(site.target)
        stems.add(stem)
        if "." not in posixpath.basename(urlsplit(site.target.strip()).path):
            stems |= {"index", "readme"}  # a folder or an extension-less route: its index page
    # A partial's URLs are read from its importers' routes (their front matter's `id`/`slug`).
    importers = tree.importing(document.path)
    if (
        tree.renderers.of(document.path).kind == FERN
        or importers
        or any(
            site.target.startswith("/") and not site.target.startswith("//") for site in page.links
        )
    ):
        # A site route may name a page by its front matter (`slug`, `id`; on a Fern site any
        # link without an extension is a route): those pages too.
        stems |= {_stem(other) for other in _routed_pages(tree)}
    by_stem = corpus.memo.get(f"{ID}:stems")
    if by_stem is None:
        by_stem = corpus.memo[f"{ID}:stems"] = defaultdict(list)
        for other in sorted(tree.pages):
            by_stem[_stem(other)].append(other)
    read = [document.path, *(other for stem in sorted(stems) for other in by_stem.get(stem, ()))]
    read += importers
    # A part of an assembled document is judged against the whole document's anchors.
    parts = {
        part
        for other in read
        for found in tree.documents_of(other)
        for part in (*found.members, *found.copies)
        if part in corpus.documents  # a partial read from the disk: its digest is `shared`'s
    }
    # A MyST cross-reference (`[](label)`, `[](#label)`) reads the pages that set the label.
    labels = tree.myst_labels()
    targets = (urlsplit(site.target.strip()) for site in page.links)
    myst = {other for t in targets for other in labels.get(t.path or t.fragment, ())}
    return sorted({*read[1:], *parts, *myst} - {document.path})


@dataclass
class _Partial:
    """A partial's text as ``read_page`` reads a page."""

    text: str | None
    derived: dict[str, Any] = dataclasses.field(default_factory=dict)

    @functools.cached_property
    def prose(self) -> ProseDocument | None:
        return parse_markdown(self.text or "")


def _partial_page(text: str) -> Page:
    return read_page(_Partial(text))


def _routed_pages(tree: Tree) -> list[str]:
    """The pages whose route their front matter sets (``slug``, ``id``)."""
    return [
        path
        for path, page in sorted(tree.pages.items())
        if "slug" in page.front_matter or "id" in page.front_matter
    ]


def shared(corpus: Context) -> tuple[list[str], list[tuple[str, str]], list[Any]]:
    r"""What every page's check reads of the JSON/YAML documents: the schemas' ``$id``\s, and
    the documentation sites' configuration files (their redirects, Mintlify's ``openapi``,
    MkDocs's ``docs_dir``, Docusaurus's category slugs); and which pages make one assembled
    document (what a page's check reads of the others' structure)."""
    configs = [
        (document.path, document.digest)
        for document in corpus.documents.values()
        if posixpath.basename(document.path) in (*SITE_CONFIGS, FERN_CONFIG, *FHIR_IG_CONFIGS)
        or posixpath.basename(document.path).startswith("_category_.")
        # An implementation guide's resources: the names its output has (`_fhir_ig`).
        or any(f"{part}/" in f"/{document.path}" for part in FHIR_IG_RESOURCES)
    ]
    # Which pages make one document (read from every page, and from `package.json`: spec-md).
    tree = _tree(corpus)
    documents = [
        (a.key, a.kind, a.members, a.copies, a.known, a.roots, a.ids) for a in tree.assemblies
    ]
    # The names the OpenAPI documents give their operations, tags and schemas: what API deep
    # links are judged against.
    api = [
        (n.path, sorted(n.operations.items()), sorted(n.tags.items()), sorted(n.schemas.items()))
        for n in api_names(corpus).values()
    ]
    # Which Sphinx projects load MyST (their `conf.py`, read as text): where a link naming no
    # file is a cross-reference.
    myst = sorted(
        {folder for page in tree.pages if (folder := tree.renderers.myst_project(page)) is not None}
    )
    return (
        sorted(tree.ids),
        [*configs, *(("myst", folder) for folder in myst)],
        [
            *documents,
            ("api-texts", *sorted(tree.api_texts)),
            # The partials read from the disk (no corpus page): their text's digest.
            (
                "sources",
                *sorted(
                    (k, hashlib.sha256(v.encode()).hexdigest()) for k, v in tree.sources.items()
                ),
            ),
            ("api-names", *api),
            ("mdx-imports", *sorted(tree.importers().items())),
            # The folders a build copies files into: a link there is not judged.
            (
                "build-folders",
                *((k, [(c.sources, c.where) for c in v]) for k, v in build_folders(corpus).items()),
            ),
        ],
    )


def _stem(written: str) -> str:
    name = posixpath.basename(unquote(urlsplit(written.strip()).path).rstrip("/"))
    for suffix in (*MARKDOWN_SUFFIXES, ".html", ".htm"):
        name = name.removesuffix(suffix)
    # `02-install.md` is served as `install` by Docusaurus: both spellings share a stem.
    return NUMBER_PREFIX.sub("", name).casefold()


def combine(
    corpus: Context, results: Mapping[str, list[Problem]], options: Mapping[str, Any]
) -> Iterator[Finding]:
    problems = [problem for found in results.values() for problem in found]
    yield from _findings(corpus, problems)


def _tree(corpus: Context) -> Tree:
    """The repository tree with every page read: built once per run, for every page's check."""
    tree = corpus.memo.get(ID)
    if tree is None:
        pages = {
            document.path: read_page(document)
            for document in corpus.of_kind(DocumentKind.MARKDOWN)
            if document.text is not None
        }
        tree = corpus.memo[ID] = Tree(corpus, pages)
    assert isinstance(tree, Tree)
    return tree


# --- the repository tree ------------------------------------------------------------------------


class Tree:
    """The repository's files and folders (``Corpus.tree``, never the disk), its Markdown pages
    and the corpus schemas' ``$id``\\s."""

    def __init__(self, corpus: Context, pages: dict[str, Page]) -> None:
        self.corpus = corpus
        self.pages = pages
        self.renderers = renderers(corpus)
        # the repository's files and folders, listed once for the run (``renderers`` reads them)
        self.files = self.renderers.files
        self.folders = self.renderers.folders
        self.by_case: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self.files | self.folders):
            self.by_case[path.casefold()].append(path)
        # For "did you mean": the files beside a missing one, and those with its name.
        self.by_folder: dict[str, list[str]] = defaultdict(list)
        self.by_name: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self.files):
            folder, _, name = path.rpartition("/")
            self.by_folder[folder].append(path)
            self.by_name[name].append(path)
        self._names: dict[str, list[str]] | None = None
        self._words: dict[str, str] = {}
        self._rendered: dict[tuple[str, bool, str], tuple[set[str], set[str]]] = {}
        self._site_models: dict[str, Site] = {}
        self._twins: dict[str, set[str]] | None = None
        self._ids: set[str] | None = None
        self._myst_labels: dict[str, list[str]] | None = None
        self._importers: dict[str, list[str]] | None = None
        self._id_folders: dict[str, list[str]] | None = None
        self._assemblies: list[Assembly] | None = None
        self._stems: set[str] | None = None
        self._api_texts: set[str] | None = None
        self._members: dict[str, list[Assembly]] = defaultdict(list)
        self._copies: dict[str, Assembly] = {}
        self._assembly_anchors: dict[str, set[str]] = {}
        self._unspaced: dict[str, dict[str, tuple[int, str]]] = {}
        self.sources: dict[str, str] = {}  # files read from the disk for an assembly
        self.partials: dict[str, Page] = {}  # their pages

    @property
    def assemblies(self) -> list[Assembly]:
        """The documents a build assembles from several pages (``speclint.analyses.prose.assembly``)."""
        if self._assemblies is None:
            manifests = [
                d.data
                for d in self.corpus.documents.values()
                if posixpath.basename(d.path) == "package.json"
            ]
            self._assemblies = assembly.assemblies(
                self.pages,
                lambda path: self.site_of(path) is not None,
                assembly.uses_spec_md(manifests),
                self._html_hosts(),
                self._file_text,
            ) + assembly.middleman_documents(self.files, self.folders, self._source_text)
            self._assemblies.sort(key=lambda a: (a.key, a.kind))
            for found in self._assemblies:
                for member in found.members:
                    if member not in self.pages and member not in self.partials:
                        self.partials[member] = _partial_page(self._source_text(member) or "")
            for found in self._assemblies:
                for member in found.members:
                    self._members[member].append(found)
                for copy in found.copies:
                    self._copies.setdefault(copy, found)
        return self._assemblies

    def _html_hosts(self) -> dict[str, str]:
        """The text of the repository's HTML pages that may include Markdown pages (ReSpec's
        ``data-include``): read from the disk (no corpus document holds HTML), only those
        that name ``data-include`` and are at most ``HTML_HOST_BYTES`` long (a longer one is
        told by its size, never read). Of the first ``HTML_SCANNED`` in path order, those whose
        head loads ReSpec are read first, then the others, ``HTML_HOSTS`` at most: a folder of
        generated HTML that sorts first neither hides the ReSpec page nor is read through."""
        html = [p for p in sorted(self.files) if p.endswith((".html", ".htm"))]
        loading: list[str] = []
        others: list[str] = []
        for path in html[:HTML_SCANNED]:
            head = self.corpus.read_file(path, HTML_HEAD_BYTES, head=True)
            if isinstance(head, bytes) and assembly.RESPEC.search(head.decode("utf-8", "replace")):
                loading.append(path)
            else:
                others.append(path)
        found: dict[str, str] = {}
        read = 0
        for path in loading + others:
            if read == HTML_HOSTS:
                break
            raw = self.corpus.read_file(path, HTML_HOST_BYTES)
            if not isinstance(raw, bytes):
                continue
            read += 1
            if any(mark in raw for mark in assembly.INCLUDE_MARKS):
                found[path] = raw.decode("utf-8", "replace")
        return found

    def _source_text(self, path: str) -> str | None:
        """The text of a file a site's build reads (a Middleman page or partial): the corpus's
        copy of a page, else the file (at most ``HTML_HOST_BYTES``), whose digest ``shared``
        then reports."""
        document = self.corpus.documents.get(path)
        if document is not None and document.text is not None:
            return document.text
        if path not in self.files:
            return None
        if path not in self.sources:
            self.sources[path] = self._file_text(path) or ""
        return self.sources[path]

    @property
    def all_pages(self) -> Mapping[str, Page]:
        """The pages, and the partials assembled documents are made of that are no corpus page
        (a Middleman ``.erb`` partial)."""
        _ = self.assemblies
        return ChainMap(self.pages, self.partials)

    def _file_text(self, path: str) -> str | None:
        """The text of a repository file read from the disk, at most ``HTML_HOST_BYTES`` (an
        HTML file a ReSpec document includes, a Middleman partial); None when it is not a file
        of the repository, or longer, or unreadable."""
        if path not in self.files:
            return None
        raw = self.corpus.read_file(path, HTML_HOST_BYTES)
        return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else None

    def documents_of(self, path: str) -> list[Assembly]:
        """The assembled documents ``path`` is a part of."""
        _ = self.assemblies
        return self._members.get(path, [])

    def copy_of(self, path: str) -> Assembly | None:
        """The assembled document ``path`` is a committed copy of."""
        _ = self.assemblies
        return self._copies.get(path)

    def document_anchors(self, found: Assembly) -> set[str]:
        key = f"{found.kind}:{found.key}"
        if key not in self._assembly_anchors:
            self._assembly_anchors[key] = assembly.anchors(found, self.all_pages)
        return self._assembly_anchors[key]

    def rendered_anchors(self, renderer: Renderer, target: str) -> tuple[set[str], set[str]]:
        """The anchors of page ``target`` where ``renderer`` reads it, and those it really
        makes (for "did you mean"): made once per renderer kind and page, not once per link."""
        key = (renderer.kind, renderer.cased, target)
        if key not in self._rendered:
            page = self.pages[target]
            made = renderer.anchors(page.headings, page.anchors, page.inline_anchors)
            self._rendered[key] = made, _made_anchors(renderer, page)
        return self._rendered[key]

    def exists(self, path: str) -> bool:
        return path in self.files or path in self.folders

    def unspaced_headings(self, page: str) -> dict[str, tuple[int, str]]:
        """The anchors the lines of ``page`` that were meant as headings would have, had they a
        space after their ``#`` signs (``####7.5.7 Title``: CommonMark's ATX heading needs one),
        with each line's number and text; outside fenced code. Read when a fragment is
        missing, once per page."""
        if page not in self._unspaced:
            found: dict[str, tuple[int, str]] = {}
            document = self.corpus.documents.get(page)
            fence = ""
            for number, row in enumerate((document.text or "").split("\n") if document else ()):
                opened = FENCE_LINE.match(row)
                if opened and (not fence or opened.group(1).startswith(fence)):
                    fence = "" if fence else opened.group(1)[:3]
                    continue
                unspaced = UNSPACED_HEADING.match(row) if not fence else None
                if unspaced is not None:
                    slug = github_slug(unspaced.group(2).strip())
                    found.setdefault(slug, (number + 1, row.strip()[:LONG_CODE]))
            self._unspaced[page] = found
        return self._unspaced[page]

    def words(self, page: str) -> str:
        """The page's text, normalised: where a backticked or one-word name is sought. Made
        when a section reference asks, not kept with every page (a second copy of its text)."""
        if page not in self._words:
            document = self.corpus.documents.get(page)
            self._words[page] = normal_text(document.text or "") if document else ""
        return self._words[page]

    def page_for(self, path: str, on_site: bool = False) -> str | None:
        """The file a repository path names, as a documentation site reads it too (an
        extension-less route, ``x.html`` for ``x.md``, and on a site's page ``x.md`` for the
        ``x.mdx`` the site builds from); None when it names nothing."""
        if self.exists(path):
            return path
        stem, extension = posixpath.splitext(path)
        if not extension:
            for suffix in PAGE_SUFFIXES:
                if path + suffix in self.files:
                    return path + suffix
        elif extension in (".html", ".htm") or (on_site and extension in MARKDOWN_SUFFIXES):
            for suffix in MARKDOWN_SUFFIXES:
                if stem + suffix in self.files:
                    return stem + suffix
                if extension in (".html", ".htm") and path + suffix in self.files:
                    # Middleman (Slate) names a template by its output and its engines:
                    # `x.html.md` is served as `x.html`.
                    return path + suffix
        return None

    def myst_labels(self) -> dict[str, list[str]]:
        """Each MyST ``(label)=`` target that a page of a MyST project sets (outside its code
        fences, where such a line is an example), with the pages that set it."""
        if self._myst_labels is None:
            self._myst_labels = defaultdict(list)
            for page in sorted(self.pages):
                text = self.corpus.documents[page].text or ""
                if ")=" in text and self.renderers.myst_project(page) is not None:
                    for label in MYST_LABEL.findall(without_fences(text)):
                        self._myst_labels[label].append(page)
        return self._myst_labels

    def site_of(self, path: str) -> str | None:
        """The nearest folder above ``path`` that holds a documentation site's configuration
        (Mintlify's ``docs.json``, Docusaurus, MkDocs...): its pages are read as the site
        serves them. None for a page GitHub renders (``speclint.analyses.prose.renderers``)."""
        return self.renderers.site_of(path)

    def twin_site(self, path: str) -> str | None:
        """The site folder holding the only other page named as ``path`` (``seps/12-x.md`` and
        ``docs/seps/12-x.mdx``), when ``path`` itself is on no site: a copy a build renders."""
        if self._twins is None:
            self._twins = defaultdict(set)
            for page in sorted(self.pages):
                folder = self.site_of(page)
                if folder is not None:
                    self._twins[posixpath.splitext(posixpath.basename(page))[0]].add(folder)
        folders = self._twins.get(posixpath.splitext(posixpath.basename(path))[0], set())
        name = posixpath.basename(path).lower()
        if len(folders) != 1 or name.startswith(("readme.", "index.", "changelog.")):
            return None
        return next(iter(folders))

    def importers(self) -> dict[str, list[str]]:
        """The MDX pages each page is imported into (``import X from "@site/src/x.mdx"``,
        ``"../x.mdx"``: MDX's ``import``, read as text on a Docusaurus site's page)."""
        if self._importers is None:
            self._importers = defaultdict(list)
            for page in sorted(self.pages):
                text = self.corpus.documents[page].text or ""
                if "import" not in text or not page.endswith(".mdx"):
                    continue
                folder = self.site_of(page)
                config = self.site_config(folder) if folder is not None else None
                if folder is None or config is None or config[1] != "docusaurus":
                    continue
                # Read in fences too: Docusaurus's ```` ```mdx-code-block ```` fence is MDX,
                # where such imports often are.
                for written in MDX_IMPORT.findall(text):
                    base = folder if written.startswith(SITE_ALIAS) else posixpath.dirname(page)
                    target = site_path(base, written.removeprefix(SITE_ALIAS))
                    if target in self.pages and target != page:
                        self._importers[target].append(page)
        return self._importers

    def importing(self, path: str) -> list[str]:
        """The pages that import ``path``, directly or through other partials."""
        seen = {path}
        todo = list(self.importers().get(path, ()))
        while todo:
            page = todo.pop(0)
            if page not in seen:
                seen.add(page)
                todo.extend(self.importers().get(page, ()))
        return sorted(seen - {path})

    def importer_routes(self, path: str, model: Site) -> list[str]:
        """The routes of the docs that render ``path`` by importing it, directly or through
        other partials: where its relative URLs are read."""
        routes = set()
        for page in self.importing(path):
            place = _docusaurus_place(model.folder, page)
            route = _docusaurus_route(self, model, page, *place) if place is not None else None
            if route is not None:
                routes.add(route)
        return sorted(routes)

    def site_config(self, folder: str) -> tuple[str, str] | None:
        """The site configuration file in ``folder`` (a repository path) and the generator it
        configures, if any."""
        return site_config(self.files, self.folders, folder)

    def site(self, folder: str) -> Site:
        """How the site configured in ``folder`` serves its routes."""
        if folder not in self._site_models:
            self._site_models[folder] = Site.read(self, folder)
        return self._site_models[folder]

    def redirected(self, folder: str, route: str) -> bool:
        """Whether the site's configuration redirects ``route`` (Mintlify ``redirects``, with
        ``:param`` and ``*`` wildcards), read from the corpus's parsed copy of the file."""
        for name in (*SITE_CONFIGS, FERN_CONFIG):
            document = self.corpus.documents.get(posixpath.join(folder, name))
            data = document.data if document is not None else None
            redirects = data.get("redirects") if isinstance(data, dict) else None
            for entry in redirects if isinstance(redirects, list) else ():
                source = entry.get("source") if isinstance(entry, dict) else None
                if isinstance(source, str) and _route_matches(source, route):
                    return True
        return False

    def names_page(self, stem: str) -> bool:
        """Whether some file or folder of the repository is named ``stem`` (with any
        extension): a page a site may serve under that name."""
        if not stem:
            return True  # `../`, `./`: a folder's index
        if self._stems is None:
            self._stems = {posixpath.splitext(posixpath.basename(p))[0] for p in self.files}
            self._stems |= {posixpath.basename(f) for f in self.folders}
        return stem in self._stems

    def markdown_named(self, name: str) -> list[str]:
        """The Markdown pages with this file name (for a bare ``interrupt.md``)."""
        if self._names is None:
            self._names = defaultdict(list)
            for path in sorted(self.pages):
                self._names[path.rsplit("/", 1)[-1]].append(path)
        return self._names.get(name, [])

    @property
    def api_texts(self) -> set[str]:
        """The Markdown pages a JSON/YAML document ``$ref``\\s as text (an API description's
        tag or info description, rendered into the API reference)."""
        if self._api_texts is None:
            self._api_texts = {
                r.target_path
                for r in self.corpus.references.references
                if r.outcome == "text" and r.target_path in self.pages
            }
        return self._api_texts

    @property
    def ids(self) -> set[str]:
        if self._ids is None:
            self._ids = set()
            for uri in self.corpus.references.uri_to_path:
                if uri.startswith(("http://", "https://")):
                    self._ids.add(uri.split("#", 1)[0])
            for document in self.corpus.of_kind(DocumentKind.SCHEMA):
                declared = document.data.get("$id") if isinstance(document.data, dict) else None
                if isinstance(declared, str) and declared.startswith(("http://", "https://")):
                    self._ids.add(declared.split("#", 1)[0])
        return self._ids

    def id_folder(self, url: str) -> list[str]:
        """The corpus ``$id``\\s in the folder of ``url``, when the corpus owns that folder:
        three or more ``$id``\\s there, and ``url`` has the file suffix they share."""
        if self._id_folders is None:
            self._id_folders = defaultdict(list)
            for known in sorted(self.ids):
                self._id_folders[known.rsplit("/", 1)[0]].append(known)
        folder, _, name = url.rpartition("/")
        siblings = self._id_folders.get(folder, [])
        if len(siblings) < ID_FAMILY:
            return []
        for suffix in SCHEMA_SUFFIXES:
            if sum(s.endswith(suffix) for s in siblings) * 2 > len(siblings):
                return siblings if name.endswith(suffix) and len(name) > len(suffix) else []
        return []


@dataclass
class Site:
    """A documentation site's routing, as far as it can be known without running anything:
    ``mounts`` are (route prefix, repository folder) pairs a route is looked up under, in order;
    ``judged`` the route prefixes under which every page is known, so that a route naming none
    is a broken link. Elsewhere (a blog, a plugin's page, a generator whose routes are set in
    code or in front matter this rule does not read) a route that names no file is not judged."""

    folder: str
    kind: str
    mounts: tuple[tuple[str, str], ...]
    judged: tuple[str, ...] = ()
    unjudged: tuple[str, ...] = ()  # prefixes inside ``judged`` that the site generates
    routes: dict[str, str] = dataclasses.field(default_factory=dict)  # route -> page
    # Fern: the routes each page is served at (a page may be listed twice), and whether the
    # navigation could be read at all (not when it lives in version or product files).
    page_routes: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    read_routes: bool = True

    @classmethod
    def read(cls, tree: Tree, folder: str) -> Site:
        config, kind = tree.site_config(folder) or ("", "other")
        data = tree.corpus.documents[config].data if config in tree.corpus.documents else None
        if kind == "mintlify":
            # Mintlify serves `folder/a/b.mdx` as `/a/b`; an `openapi` entry makes a page per
            # operation, routes with no file, so then a missing route is not judged.
            known = isinstance(data, dict) and '"openapi"' not in json.dumps(data)
            return cls(folder, kind, (("/", site_path(folder)),), ("/",) if known else ())
        if kind == "docusaurus":
            return _docusaurus(tree, folder)
        if kind == FERN:
            return _fern(tree, folder, data)
        if kind == FHIR_IG:
            return _fhir_ig(tree, folder)
        if kind in ("mkdocs", "hugo"):
            # The pages at the site's root: MkDocs' `docs_dir`, Hugo's `content/` (and its
            # `static/` files).
            [pages] = served_folders(tree.corpus, kind, folder, config)
            files = (("/", site_path(folder, "static")),) if kind == "hugo" else ()
            return cls(folder, kind, (("/", pages), *files))
        if kind == "vitepress":
            return cls(folder, kind, (("/", site_path(folder)), ("/", site_path(folder, "public"))))
        if kind == "mdbook":
            return cls(folder, kind, (("/", site_path(folder, "src")),))
        return cls(folder, kind, (("/", site_path(folder)),))

    def find(self, tree: Tree, route: str) -> str | None:
        """The file the site serves at ``route`` (``/docs/intro``), or None."""
        route = "/" + route.strip("/")
        if route.rstrip("/") in self.routes:
            return self.routes[route.rstrip("/")]
        for prefix, folder in self.mounts:
            rest = _under(route, prefix)
            if rest is None:
                continue
            found = tree.page_for(posixpath.join(folder, rest).rstrip("/") or folder, True)
            if found is not None:
                return found
        return None

    def judges(self, route: str) -> bool:
        route = "/" + route.strip("/")
        return any(_under(route, p) is not None for p in self.judged) and not any(
            _under(route, p) is not None for p in self.unjudged
        )

    def known_routes(self, tree: Tree) -> list[str]:
        """The routes of the judged part of the site (for "did you mean")."""
        found = set(self.routes)
        if found:
            return sorted(found)  # every doc's route, as the site makes it (Docusaurus)
        for prefix, folder in self.mounts:
            if prefix not in self.judged:
                continue
            for page in tree.pages:
                rest = _under("/" + page, "/" + folder) if folder not in ("", ".") else page
                if rest is not None:
                    found.add(posixpath.join(prefix, posixpath.splitext(rest)[0]))
        return sorted(found)


def _under(route: str, prefix: str) -> str | None:
    """``route`` relative to ``prefix`` (``/docs/a`` under ``/docs`` is ``a``), or None."""
    prefix = prefix.rstrip("/")
    if route == prefix or (not prefix and route == "/"):
        return ""
    if route.startswith(prefix + "/"):
        return route[len(prefix) + 1 :]
    return None


def _docusaurus(tree: Tree, folder: str) -> Site:
    """Docusaurus's defaults (docs/ at ``/docs``, static/ and src/pages/ at ``/``), with each
    doc's route as Docusaurus makes it: number prefixes dropped, ``index``/``README`` and a
    file named as its folder for the folder, ``id`` and ``slug`` front matter. A customised
    ``routeBasePath`` or docs path lives in the JavaScript configuration, which is code: then
    ``/docs`` names no folder here, and routes are looked up but not judged."""
    content = dict(DOCUSAURUS_CONTENT)
    docs = site_path(folder, content["docs"])
    site = Site(
        folder,
        "docusaurus",
        (
            ("/docs", docs),
            ("/", site_path(folder, "static")),
            ("/", site_path(folder, content["pages"])),
        ),
    )
    if docs not in tree.folders:
        return site
    # Versioned docs (`/docs/1.0/x`, `/docs/next/x`) are served from other folders: looked up
    # where the current docs are, never judged.
    versioned = site_path(folder, "versions.json") in tree.files
    site.judged = () if versioned else ("/docs",)
    # Docusaurus generates tag pages, and a category's index page (`_category_.json` with a
    # `generated-index` link) at `/docs/category/<label>` unless the link names its slug.
    site.unjudged = ("/docs/tags", "/docs/category")
    for path in sorted(tree.files):
        if _under("/" + path, "/" + docs) is None or not posixpath.basename(path).startswith(
            "_category_."
        ):
            continue
        document = tree.corpus.documents.get(path)
        link = document.data.get("link") if document and isinstance(document.data, dict) else None
        slug = link.get("slug") if isinstance(link, dict) else None
        if isinstance(slug, str) and slug:
            site.routes[posixpath.normpath("/docs/" + slug.strip("/"))] = path
    for path in sorted(tree.pages):
        rest = _under("/" + path, "/" + docs) if docs not in ("", ".") else path
        if rest is None:
            continue
        front = tree.pages[path].front_matter
        parts = [NUMBER_PREFIX.sub("", p) for p in posixpath.dirname(rest).split("/") if p]
        name = NUMBER_PREFIX.sub("", posixpath.splitext(posixpath.basename(rest))[0])
        name = front.get("id", name)
        if name.lower() in ("index", "readme") or (parts and name == parts[-1]):
            own = parts
        else:
            own = [*parts, name]
        slug = front.get("slug")
        if slug:
            route = slug if slug.startswith("/") else "/".join(("", *parts, slug))
        else:
            route = "/" + "/".join(own)
        site.routes[posixpath.normpath("/docs/" + route.strip("/")).rstrip("/")] = path
    return site


# The folders the FHIR IG Publisher reads resources from (its template's defaults), the
# formats it writes each one in, and the name of a resource's output (`Bundle-example1.json`).
FHIR_IG_RESOURCES = (
    "input/resources", "input/examples", "input/vocabulary", "input/profiles",
    "input/extensions", "input/capabilities", "input/models", "input/operations",
)  # fmt: skip
FHIR_IG_FORMATS = (".html", ".json", ".xml", ".ttl")
FHIR_RESOURCE_NAME = re.compile(r"^[A-Z][A-Za-z]+-[A-Za-z0-9.-]+\.(?:html|json|xml|ttl)$")


def _fhir_ig(tree: Tree, folder: str) -> Site:
    """The FHIR IG Publisher's flat output: every page (``input/pages/a.md`` as ``/a.html``)
    and every file of ``input/images/`` at the root, and each JSON resource of the resource
    folders as ``/Type-id`` in each format, read from its ``resourceType`` and ``id``. A
    guide whose resources SUSHI makes from FHIR Shorthand (``input/fsh/``) has resources not in
    the repository: a name of a resource's shape is then not judged."""
    mounts = tuple(("/", site_path(folder, part)) for part in (*FHIR_IG_PAGES, "input/images"))
    generated = site_path(folder, "input/fsh") in tree.folders
    site = Site(folder, FHIR_IG, mounts, judged=("/",), read_routes=not generated)
    roots = tuple(site_path(folder, part) + "/" for part in FHIR_IG_RESOURCES)
    for path in sorted(tree.files):
        if not path.startswith(roots) or not path.endswith(".json"):
            continue
        document = tree.corpus.documents.get(path)
        data = document.data if document is not None else None
        kind = data.get("resourceType") if isinstance(data, dict) else None
        own = data.get("id") if isinstance(data, dict) else None
        if isinstance(kind, str) and isinstance(own, str) and kind and own:
            for extension in FHIR_IG_FORMATS:
                site.routes.setdefault(f"/{kind}-{own}{extension}", path)
    return site


def _flat_problem(
    tree: Tree,
    settings: Options,
    path: str,
    site: LinkSite,
    folder: str,
    written: str,
    fragment: str,
) -> Problem | None:
    """A relative link of an implementation guide's page names a file of the IG Publisher's
    flat output (``Site.find`` of ``_fhir_ig``), where ``..`` leads nowhere above the root. "Did
    you mean" proposes only a name that output has."""
    model = tree.site(folder)
    route = posixpath.normpath(posixpath.join("/", written))
    found = model.find(tree, route)
    if found is not None:
        if settings.anchors and fragment and found in tree.pages:
            return _anchor_problem(tree, settings, path, site, found, fragment)
        return None
    name = posixpath.basename(route)
    if not model.read_routes and FHIR_RESOURCE_NAME.match(name):
        return None  # a resource SUSHI makes from FHIR Shorthand: not in the repository
    published = _published_names(tree, model)
    close = _close_of(name, published, 0.75, 5)
    anchor = f"#{fragment}" if fragment and settings.anchors else ""

    def reaches(candidate: str) -> bool:
        target = model.find(tree, "/" + candidate)
        return (
            not anchor
            or target is None
            or target not in tree.pages
            or (_anchor_problem(tree, settings, path, site, target, fragment) is None)
        )

    guess = next((c for c in close if reaches(c)), None)
    hint = f" (did you mean `{guess}{anchor}`?)" if guess else ""
    return Problem(
        ("route", model.folder, route),
        path,
        site,
        f"`{site.target}`: the FHIR IG Publisher's output has no `{route.lstrip('/')}` beside "
        f"this page (its pages, `input/images/` and its resources, side by side){hint}. Fix "
        "the link, or add the file",
    )


def _published_names(tree: Tree, model: Site) -> tuple[str, ...]:
    """The names the IG Publisher's output has at its root: each page's ``.html``, each file
    of ``input/images/``, each resource's ``Type-id`` file."""
    key = f"{ID}:published:{model.folder}"
    names = tree.corpus.memo.get(key)
    if not isinstance(names, tuple):
        found = {route.lstrip("/") for route in model.routes}
        for _, folder in model.mounts:
            for path in tree.files:
                rest = _under("/" + path, "/" + folder)
                if rest:
                    stem, extension = posixpath.splitext(rest)
                    found.add(stem + ".html" if extension in MARKDOWN_SUFFIXES else rest)
        names = tree.corpus.memo[key] = tuple(sorted(found))
    return names


# The navigation entries of a Fern site that make pages this rule cannot list (an API reference
# from an OpenAPI or AsyncAPI document, a changelog, a folder read at build): their routes are
# looked up but never judged.
FERN_GENERATED = ("api", "changelog", "folder")


def _fern_slug(title: str) -> str:
    """Fern's default slug of a title: lower-case words joined by ``-``."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _fern(tree: Tree, folder: str, data: Any) -> Site:
    """A Fern site's routes, from its ``docs.yml`` (buildwithfern.com, "Navigation"): the base
    path of its first instance's URL, then each tab's, section's and page's slug (its title
    slugified, or ``slug``; none with ``skip-slug``), a page's front matter ``slug`` being its
    whole route. Relative links are resolved by the browser against the page's route. A site
    whose navigation lives in version or product files is not read."""
    site = Site(folder, FERN, ())
    navigation = data.get("navigation") if isinstance(data, dict) else None
    if not isinstance(navigation, list) or "versions" in data or "products" in data:
        site.read_routes = False
        return site
    instances = data.get("instances")
    first = instances[0] if isinstance(instances, list) and instances else None
    url = first.get("url") if isinstance(first, dict) else None
    base = "/" + urlsplit("//" + url).path.strip("/") if isinstance(url, str) else "/"
    tabs = data.get("tabs") if isinstance(data.get("tabs"), dict) else {}
    unjudged: list[str] = []

    def own_slug(entry: dict[str, Any], title: Any) -> str:
        if entry.get("skip-slug"):
            return ""
        slug = entry.get("slug")
        return str(slug).strip("/") if slug is not None else _fern_slug(str(title or ""))

    def add(route: str, page: Any) -> None:
        if not isinstance(page, str):
            return
        path = site_path(folder, page)
        front = tree.pages[path].front_matter if path in tree.pages else {}
        if isinstance(front.get("slug"), str):
            route = posixpath.join(base, front["slug"].strip("/"))
        route = posixpath.normpath(route)
        site.routes.setdefault(route, path)
        site.page_routes.setdefault(path, []).append(route)

    def walk(entries: Any, parent: str) -> None:
        for entry in entries if isinstance(entries, list) else ():
            if not isinstance(entry, dict):
                continue
            generated = next((k for k in FERN_GENERATED if k in entry), None)
            if generated is not None:
                unjudged.append(posixpath.join(parent, own_slug(entry, entry[generated])))
            elif "tab" in entry:
                tab = tabs.get(entry["tab"]) if isinstance(tabs, dict) else None
                tab = tab if isinstance(tab, dict) else {}
                title = tab.get("display-name", entry["tab"])
                walk(entry.get("layout"), posixpath.join(parent, own_slug(tab, title)))
            elif "section" in entry:
                route = posixpath.join(parent, own_slug(entry, entry["section"]))
                add(route, entry.get("path"))
                walk(entry.get("contents"), route)
            elif "page" in entry:
                add(posixpath.join(parent, own_slug(entry, entry["page"])), entry.get("path"))

    walk(navigation, base)
    site.judged = (base,)
    site.unjudged = tuple(posixpath.normpath(p) for p in unjudged)
    return site


def _fern_problem(
    tree: Tree,
    settings: Options,
    path: str,
    site: LinkSite,
    folder: str,
    written: str,
    fragment: str,
) -> Problem | None:
    """A relative link on a Fern site's page is a route, resolved by the browser against the
    page's route (Fern serves ``fern/pages/a.mdx`` at the slug ``docs.yml`` gives it, not at its
    file path): judged against the routes and redirects ``docs.yml`` declares. Where they cannot
    be read (the navigation in other files, a page not in it), not judged, and said so."""
    model = tree.site(folder)
    routes = model.page_routes.get(path, [])
    if not model.read_routes or not routes:
        why = (
            "its navigation is not in `docs.yml`"
            if not model.read_routes
            else ("the page is in no navigation of `docs.yml`")
        )
        return _not_checked(
            FERN_ROUTE,
            path,
            site,
            f"`{site.target}`: a route of the Fern site at `{folder}`, whose routes are not "
            f"known ({why}): not checked",
        )
    judged = [
        _route_problem(
            tree,
            settings,
            path,
            site,
            folder,
            posixpath.normpath(posixpath.join(posixpath.dirname(own), written)),
            fragment,
        )
        for own in routes
    ]
    return None if None in judged else judged[0]


FERN_ROUTE = "site-route"  # the coverage kind of a link to a route of a site not read


def _route_matches(source: str, route: str) -> bool:
    pattern = re.escape(source.rstrip("/") or "/")
    pattern = re.sub(r":\\?\w+\\\*|\\\*", ".*", pattern)
    pattern = re.sub(r":\w+", "[^/]+", pattern)
    return re.fullmatch(pattern + "/?", route) is not None


# --- reading a page -----------------------------------------------------------------------------


def _ignored(settings: Options, *targets: str) -> bool:
    return any(fnmatchcase(t, glob) for glob in settings.ignore for t in targets if t)


def _link_problem(
    corpus: Context, tree: Tree, settings: Options, path: str, site: LinkSite
) -> Problem | None:
    target = site.target.strip()
    if not target or TEMPLATE.search(target) or _ignored(settings, target):
        return None
    if SCHEME.match(target):
        if settings.schema_ids and target.lower().startswith(("http://", "https://")):
            return _id_problem(tree, path, site)
        return None  # mailto:, data:, another scheme: nothing to check offline
    if target.startswith("//"):
        return None  # protocol-relative: another host
    parts = urlsplit(target)
    written_path, fragment = unquote(parts.path), unquote(parts.fragment)
    if not written_path:
        if settings.anchors and fragment and "#" in target:
            return _anchor_problem(tree, settings, path, site, path, fragment)
        return None
    root_relative = written_path.startswith("/")
    base = "" if root_relative else posixpath.dirname(path)
    alias = _docusaurus_alias(tree, path, written_path)
    if alias is not None:
        # Docusaurus's `@site/` alias names a file from the site's folder (docusaurus.io,
        # "Markdown links": `@site/static/x.png`), wherever the page is.
        base, written_path = alias
    if root_relative and settings.root_relative != "repository":
        renderer = tree.renderers.of(path)
        if renderer.kind == SPHINX:
            # Sphinx (and MyST in it) reads `/x` from its source folder, where `conf.py` is
            # (Sphinx "Images": "absolute" paths are relative to the top source directory).
            base = renderer.folder
    resolved = posixpath.normpath(posixpath.join(base, written_path.lstrip("/")))
    if resolved == ".":
        resolved = ""
    if resolved == ".." or resolved.startswith("../"):
        return None  # out of the corpus root: not this repository's to check (never looked at)
    if _ignored(settings, resolved):
        return None
    site_folder = tree.site_of(path)
    on_site = site_folder is not None or path.endswith(".mdx")
    # The site's generator, where a site's configuration is above the page.
    generator = tree.renderers.of(path).kind if site_folder is not None else None
    found = tree.page_for(resolved, on_site)
    if found is None and root_relative and _served_by_site(tree, settings, path, site_folder):
        # A site route (`/docs/intro`, `/specification/latest`): served as the site serves it;
        # reported only where the site's routes are known, else only when it names a page that
        # lacks the anchor.
        if generator == FERN:
            # A Fern site's absolute routes: its build adds routes `docs.yml` does not spell
            # (an API reference, a script's redirects), so they are not judged.
            return None
        return _route_problem(tree, settings, path, site, site_folder, written_path, fragment)
    if (
        found is None
        and not root_relative
        and site_folder is not None
        and generator == FERN
        and not FILE_EXTENSION.search(posixpath.basename(written_path.rstrip("/")))
    ):
        # A Fern page's `href="x"` is a route of the site (a link with a file's extension,
        # `x.ipynb`, stays a path to a file).
        return _fern_problem(tree, settings, path, site, site_folder, written_path, fragment)
    if found is None and not root_relative and site_folder is not None and generator == FHIR_IG:
        # An implementation guide's page links the IG Publisher's flat output.
        return _flat_problem(tree, settings, path, site, site_folder, written_path, fragment)
    twin = tree.twin_site(path) if found is None and root_relative and site_folder is None else None
    if twin is not None and settings.root_relative == "auto":
        # A page a build script renders into a site (`seps/x.md` -> `docs/seps/x.mdx`): its
        # routes are the site's. A route the site lacks is reported on the rendered copy.
        return _route_problem(tree, settings, path, site, twin, written_path, fragment, False)
    if found is None and on_site:
        found = _url_relative(tree, path, written_path)
        route = _route(path, site_folder or "", written_path)
        if found is None and site_folder is not None and tree.redirected(site_folder, route):
            return None  # the site redirects that route (`redirects` in docs.json)
    if found is None and site_folder is not None and not root_relative:
        found, judged = _docusaurus_relative(tree, path, site_folder, written_path)
        if not judged:
            return None  # a URL from a page whose route is not known here (a blog post)
    if found is None and _built_page(tree, resolved):
        return None  # the HTML a documentation build writes (Sphinx `_build`, `api/index.html`)
    if found is None and _unknown_route(tree, path, site_folder, written_path, resolved):
        return None
    if found is None and not root_relative:
        found = _from_document_roots(tree, path, written_path)
    if found is None and _myst_label(tree, path, written_path):
        return None  # a MyST cross-reference to a `(label)=` target, not a file
    if found is None and not root_relative and _myst_reference(tree, path, written_path):
        return None  # a MyST cross-reference (a label, a Python object, a directive's target)
    if found is None and not root_relative:
        copied = _build_copy(tree, path, resolved, written_path)
        if copied is not None:
            return _not_checked(
                BUILD_COPY,
                path,
                site,
                f"`{site.target}`: a file the build copies into place from `{copied[0]}` "
                f"(`{copied[1]}`): not checked",
            )
    if found is None:
        return _missing_file(tree, settings, path, site, resolved, fragment)
    if settings.anchors and fragment and found in tree.pages:
        return _anchor_problem(tree, settings, path, site, found, fragment)
    if settings.anchors and fragment and found.endswith((".html", ".htm")):
        return _html_api_problem(tree, path, site, found, fragment)
    if settings.anchors and fragment and found in api_names(tree.corpus):
        return _document_api_problem(tree, path, site, found, fragment)
    return None


def _document_api_problem(
    tree: Tree, path: str, site: LinkSite, target: str, fragment: str
) -> Problem | None:
    """A link into an OpenAPI document of the corpus, served where Redoc shows it: a Redoc deep
    link (``openapi.yaml#operation/listPets``) names an operation, tag or schema of that
    document. A fragment starting with ``/`` is a JSON pointer into the file (as Swagger UI's
    shape would be): not judged here."""
    link = None if fragment.startswith("/") else deep_link(fragment)
    if link is None:
        return None
    missing = judge(link, [api_names(tree.corpus)[target]])
    if missing is None:
        return None
    return _api_missing(path, site, f"`{target}`", [target], missing)


def _html_api_problem(
    tree: Tree, path: str, site: LinkSite, target: str, fragment: str
) -> Problem | None:
    """A deep link into an HTML page of the repository (``redoc.html#operation/x``): speclint
    does not read HTML, so the page is taken for a Swagger UI or Redoc page only when the link
    says so, Redoc's ``operation/`` or a Swagger UI link whose tag the corpus's OpenAPI
    documents have (a single-page application's own ``#/route`` is no operation)."""
    link = deep_link(fragment)
    if link is None or not (link.operation or link.schema):
        return None
    documents = list(api_names(tree.corpus).values())
    if link.style == "swagger-ui" and judge(DeepLink(link.style, tag=link.tag), documents):
        return None
    judged = _api_problem(tree, path, site, target, None, link)
    return judged if isinstance(judged, Problem) else None


BUILD_COPY = "build-copy"  # the coverage kind of a link to a file a build copies into place


def _build_copy(tree: Tree, path: str, resolved: str, written: str) -> tuple[str, str] | None:
    """(the source the build copies there, where the command is) when a link that names no
    file of the repository lands in a folder a build command copies files into (``cp -r
    src/*.json ./site/example``: ``speclint.analyses.repository.downloads.build_folders``) and one of the
    copy's sources is that file (``src/x.json`` for ``site/example/x.json``), read from the
    page's folder or from the top of the document the page is part of (a ReSpec document's
    HTML page); else None: a file no source provides is still missing."""
    folders = build_folders(tree.corpus)
    if not folders:
        return None
    for candidate in (resolved, *_from_roots(tree, path, written)):
        folder = posixpath.dirname(candidate)
        while folder:
            for copy in folders.get(folder, ()):
                source = _copied_source(tree, copy, candidate[len(folder) + 1 :])
                if source is not None:
                    return source, copy.where
            folder = posixpath.dirname(folder)
    return None


def _copied_source(tree: Tree, copy: Copy, rest: str) -> str | None:
    """The repository file ``copy`` puts at ``rest`` of its destination: a file its glob
    matches, of that name (``a/**/example/*.json`` copies `a/b/example/x.json` as ``x.json``),
    or a file under a source folder (``cp -r a dst``: ``dst/x`` or ``dst/a/x`` is ``a/x``)."""
    for source in copy.sources:
        if any(c in source for c in "*?["):
            if "/" in rest:
                continue
            found = tree.by_name.get(rest, [])
            match = next((f for f in found if fnmatchcase(f, source)), None)
            if match is not None:
                return match
            continue
        # `cp -r a dst` makes `dst` a copy of `a`, or puts it in `dst/a` (`dst` existing).
        inside = [posixpath.join(source, rest)]
        name = posixpath.basename(source)
        if rest == name or rest.startswith(name + "/"):
            inside.append(posixpath.join(posixpath.dirname(source), rest))
        found_file = next((c for c in inside if c in tree.files), None)
        if found_file is not None:
            return found_file
    return None


def _from_document_roots(tree: Tree, path: str, written: str) -> str | None:
    """What a relative link of a part of an assembled document names when written from the top
    of the document (``speclint.analyses.prose.assembly``: a README's listed pages, combined with another
    folder by the build), or None."""
    for candidate in _from_roots(tree, path, written):
        found = tree.page_for(candidate, False)
        if found is not None:
            return found
    return None


def _from_roots(tree: Tree, path: str, written: str) -> Iterator[str]:
    """The repository paths a relative link of a part of an assembled document may name, read
    from each top of the document (``Assembly.roots``), none out of the root."""
    for document in tree.documents_of(path):
        for root in document.roots:
            candidate = posixpath.normpath(posixpath.join(root, written))
            if candidate != ".." and not candidate.startswith("../"):
                yield candidate


# The configuration of a documentation build whose output is HTML pages not in the repository.
BUILD_CONFIGS = ("conf.py", "Doxyfile", "typedoc.json", "jsdoc.json", *SITE_CONFIGS)


def _served_by_site(tree: Tree, settings: Options, path: str, site_folder: str | None) -> bool:
    """Whether a link starting with ``/`` on ``path`` is a site route, not a repository path:
    the page is under a site's configuration, is an ``.mdx`` page (no GitHub rendering of it
    is meant), or is written for a site built elsewhere (``Renderers.elsewhere``: front matter,
    a Hugo section above it). Elsewhere GitHub renders the page, and resolves ``/x`` from the
    repository root."""
    if settings.root_relative == "repository":
        return False
    if settings.root_relative == "site" or site_folder is not None or path.endswith(".mdx"):
        return True
    return tree.renderers.elsewhere(path) is not None


def _route_problem(
    tree: Tree,
    settings: Options,
    path: str,
    site: LinkSite,
    site_folder: str | None,
    written: str,
    fragment: str,
    judge: bool = True,
) -> Problem | None:
    route = posixpath.normpath(written)
    model = tree.site(site_folder) if site_folder is not None else None
    found = model.find(tree, route) if model is not None else None
    if found is None and site_folder:
        found = tree.page_for(
            posixpath.normpath(posixpath.join(site_folder, route.lstrip("/"))), True
        )
    if found is not None:
        if settings.anchors and fragment and found in tree.pages:
            return _anchor_problem(tree, settings, path, site, found, fragment)
        return None
    if model is None or not judge or settings.root_relative == "site" or not model.judges(route):
        return None  # generated, from another plugin, or routed by code: not known here
    if tree.redirected(model.folder, route):
        return None  # the site redirects that route (`redirects` in docs.json)
    # A proposed route leads to a page with the link's anchor, if it has one (issue 45, item 9).
    close = _close_of(route, tuple(model.known_routes(tree)), 0.6, 5)
    guess = next(
        (r for r in close if _route_reaches(tree, settings, path, site, model, r, fragment)), None
    )
    anchor = f"#{fragment}" if fragment and settings.anchors else ""
    hint = f" (did you mean `{guess}{anchor}`?)" if guess else ""
    where = model.folder or "the repository root"
    return Problem(
        ("route", model.folder, route),
        path,
        site,
        f"`{site.target}`: no page of the documentation site at `{where}` ({model.kind}) "
        f"serves the route `{route}`{hint}. Fix the link, or add the page",
    )


def _route_reaches(
    tree: Tree, settings: Options, path: str, site: LinkSite, model: Site, route: str, fragment: str
) -> bool:
    if not fragment or not settings.anchors:
        return True
    found = model.find(tree, route)
    return found is None or _anchor_problem(tree, settings, path, site, found, fragment) is None


def _built_page(tree: Tree, resolved: str) -> bool:
    """Whether a missing ``.html`` file lies under a folder that configures a documentation build
    (Sphinx ``conf.py``, Doxygen, TypeDoc, a site): the build writes it, git does not hold it."""
    return resolved.endswith((".html", ".htm")) and _under_build(tree, resolved, BUILD_CONFIGS)


# A page a build fills in to make the published one (`spec-template.md`, `README.template.md`):
# the sections it adds, and their anchors, are not written in it.
TEMPLATE_PAGE = re.compile(r"(?:^|[-_.])template\.(?:md|mdx|markdown)$", re.IGNORECASE)
# MDX's `import X from "./part.mdx"` of a Markdown page (a partial), at a line's start.
MDX_IMPORT = re.compile(r"""^import\s[^\n;]*?\bfrom\s+["']([^"'\n]+\.mdx?)["']""", re.MULTILINE)
# A MyST project: Sphinx's, the MyST CLI's (`myst.yml`), a Jupyter Book's (`_toc.yml`).
# A MyST target: a `(label)=` line before a heading, figure or block (MyST "Cross-referencing",
# targets); `[text](label)` and `[](#label)` then link to it from any page of the project.
MYST_LABEL = re.compile(r"^[ \t]{0,3}\(([^()\s]+)\)=[ \t]*$", re.MULTILINE)


def _myst_label(tree: Tree, path: str, written: str) -> bool:
    """Whether ``written`` (a link's path or fragment) is a label a ``(label)=`` target of the
    corpus sets, on a page of a MyST project (MyST resolves ``[](label)`` and ``[](#label)`` as
    cross-references to such targets, on any page of the project)."""
    return written in tree.myst_labels() and tree.renderers.myst_project(path) is not None


# The extensions of the files a link names (a page, an image, a notebook, a download): in a MyST
# project such a target is a path; anything else that names no file may be a cross-reference.
FILE_SUFFIXES = frozenset(
    (*MARKDOWN_SUFFIXES, ".rst", ".txt", ".ipynb", ".html", ".htm", ".pdf", ".png", ".jpg",
     ".jpeg", ".gif", ".svg", ".webp", ".ico", ".json", ".yaml", ".yml", ".toml", ".xml", ".csv",
     ".py", ".js", ".ts", ".css", ".sh", ".zip", ".gz", ".tgz", ".asc", ".proto")
)  # fmt: skip


def _myst_reference(tree: Tree, path: str, written: str) -> bool:
    """Whether ``written``, a relative link that names no file, is a MyST cross-reference: on a
    page a Sphinx build with MyST renders (``Renderers.myst_project`` holding a ``conf.py``),
    ``[text](target)`` whose target is no file is looked up among the project's targets (MyST "Cross-referencing": labels, Python
    objects such as ``JupyterHub.db_kwargs``, the targets a directive or an extension of
    ``conf.py`` makes), which are not known here. A target with a file's extension
    (``FILE_SUFFIXES``) stays a path."""
    extension = posixpath.splitext(posixpath.basename(written.rstrip("/")))[1].lower()
    if extension in FILE_SUFFIXES:
        return False
    project = tree.renderers.myst_project(path)
    # A MyST-only build (`myst.yml`) knows no Python objects nor `conf.py` extensions: its
    # targets are the `(label)=` lines, which `myst_labels` resolves (and a missing one is
    # reported). Sphinx (a `conf.py`) makes targets speclint cannot list.
    return project is not None and posixpath.join(project, SPHINX_CONFIG) in tree.files


def _under_build(tree: Tree, path: str, configs: tuple[str, ...]) -> bool:
    """Whether ``path`` lies under a folder that holds one of ``configs``."""
    return under_folder_holding(tree.files, path, configs)


# Sites whose relative routes are set by the site's own rules (Hugo's pretty URLs and
# `_index.md` sections, Jekyll's permalinks and collections), not by the files' places.
ROUTED_BY_SITE = ("hugo", "jekyll")
# A host's redirect rules beside a site (Netlify's `_redirects`): any route may be redirected.
REDIRECT_FILES = ("_redirects", "static/_redirects", "public/_redirects")
# A folder of one released version, as a site that adds older versions at build names it.
VERSION_FOLDER = re.compile(r"^(?:v?\d+(?:[._-]\d+)*|latest|current|draft|next|stable)$", re.I)


def _unknown_route(
    tree: Tree, path: str, site_folder: str | None, written: str, resolved: str
) -> bool:
    """Whether a link that names no file is written against a published site's layout that is
    not knowable here, and so not judged:

    - a route (no extension, a trailing ``/``, ``.html``) on the page of a Hugo or Jekyll site
      whose last part names some page or folder of the repository (``../index.html``,
      ``spec/latest/levels``: the site serves it somewhere), or on a page rendered by a site
      built elsewhere (front matter or template code, no site configuration here), or on a
      site whose host redirects routes by a file (Netlify's ``_redirects``, not read);
    - on a Hugo or Jekyll site's page, a path that names a file when read from the page's
      pretty URL (``a/page.md`` is served at ``a/page/``);
    - a path through a version folder that is not in the repository (``../v0.1/levels.md``,
      ``spec/latest/levels``) from a page written for a site (front matter, template code, or
      a site's page): the site adds the other versions at build."""
    page = tree.pages.get(path)
    rendered = tree.renderers.elsewhere(path) is not None or (page is not None and page.includes)
    if site_folder is None and not rendered:
        return False
    name = posixpath.basename(written.rstrip("/"))
    stem, extension = posixpath.splitext(name)
    config = tree.site_config(site_folder) if site_folder is not None else None
    routed = config is not None and config[1] in ROUTED_BY_SITE
    if written.endswith("/") or not extension or extension in (".html", ".htm"):
        if site_folder is None:
            return True  # content of a site built elsewhere: its routes are not here
        if routed and tree.names_page(stem):
            return True
        if any(posixpath.join(site_folder, name) in tree.files for name in REDIRECT_FILES):
            return True  # the host redirects routes by a file speclint does not read
    own = posixpath.splitext(path)[0]
    if routed and posixpath.basename(own).lower() not in ("index", "_index", "readme"):
        # Hugo and Jekyll serve `a/page.md` at `a/page/` (pretty URLs): a relative link is
        # read from there, one folder deeper than the file (`../img/x.png` for `a/img/x.png`).
        served = posixpath.normpath(posixpath.join(own, written))
        if not served.startswith("../") and tree.page_for(served) is not None:
            return True
    # The folders of the path that the repository lacks: one named as a version is added at build.
    folder = posixpath.dirname(resolved)
    while folder and not tree.exists(folder):
        if VERSION_FOLDER.match(posixpath.basename(folder)):
            return True
        folder = posixpath.dirname(folder)
    return False


def _route(page: str, folder: str, written: str) -> str:
    """The site route a link from ``page`` names: a documentation site serves
    ``folder/a/b.mdx`` as ``/a/b`` and resolves a relative link against that URL."""
    if written.startswith("/"):
        return posixpath.normpath(written)
    own = "/" + posixpath.relpath(posixpath.splitext(page)[0], folder or ".")
    return posixpath.normpath(posixpath.join(posixpath.dirname(own), written))


def _url_relative(tree: Tree, path: str, written: str) -> str | None:
    """A documentation site resolves a relative link against the page's URL, where
    ``folder/index.mdx`` is served as ``folder``: ``./lifecycle`` from it is ``../lifecycle``."""
    name = posixpath.basename(path)
    if posixpath.splitext(name)[0].lower() not in ("index", "readme"):
        return None
    folder = posixpath.dirname(path)
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(folder), written))
    if resolved == ".." or resolved.startswith("../"):
        return None
    return tree.page_for(resolved)


# The last part of a path with a file's extension (`x.png`, `a.json`): `1.0-release`, `v2.1` are
# names, not extensions.
FILE_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,5}$")


def _docusaurus_relative(
    tree: Tree, path: str, site_folder: str, written: str
) -> tuple[str | None, bool]:
    """What a relative link that names no file from ``path`` names on a Docusaurus site, and
    whether a link naming nothing is judged (docusaurus.io, "Markdown links"):

    - a file path to a Markdown page (``spec/x.md``, not ``./`` or ``../``) is looked up from
      the current folder, then from the plugin's content root (``docs/``, ``blog/``, a
      version's folder), then from the site folder;
    - a link without an extension (``../getting-started``) is a URL, resolved by the browser
      against the page's route: where that route is known (a doc, a page of ``src/pages/``)
      it names the page the site serves there, and reaching no doc is judged; from a page
      whose route is not known here (a blog post: dates and slugs) it is not judged.

    Elsewhere (another generator, a page the site does not serve) there is nothing to add."""
    model = tree.site(site_folder)
    place = _docusaurus_place(site_folder, path) if model.kind == "docusaurus" else None
    name = posixpath.basename(written.rstrip("/"))
    extension = posixpath.splitext(name)[1]
    if place is None and model.kind == "docusaurus" and not FILE_EXTENSION.search(name):
        # A partial outside the content plugins (`src/components/x.mdx`) is rendered inside
        # each doc that imports it, at that doc's route: its URL is read from there.
        routes = tree.importer_routes(path, model)
        if not routes:
            # Imported by no page known here: a link that climbs from the partial's folder to
            # the site's is that route from any page no deeper than the climb (`..` above the
            # root stays there), which is how such links are written.
            climbed = posixpath.normpath(posixpath.join(posixpath.dirname(path), written))
            rest = _under("/" + climbed, "/" + site_folder) if site_folder else climbed
            found = model.find(tree, "/" + rest) if rest is not None else None
            return found, True
        return _from_routes(tree, model, routes, written)
    if place is None:
        return None, True
    plugin, content_root = place
    if extension in MARKDOWN_SUFFIXES:
        if written.startswith(("./", "../")) or plugin == "pages":
            return None, True
        for root in (content_root, site_folder):
            candidate = posixpath.normpath(posixpath.join(root, written))
            found = None if candidate.startswith("../") else tree.page_for(candidate, True)
            if found is not None:
                return found, True
        return None, True
    if FILE_EXTENSION.search(name) and not written.endswith("/"):
        return None, True  # a file (an image, an asset): the page's folder is where it is
    route = _docusaurus_route(tree, model, path, plugin, content_root)
    if route is None:
        return None, False
    return _from_routes(tree, model, [route], written)


def _from_routes(
    tree: Tree, model: Site, routes: list[str], written: str
) -> tuple[str | None, bool]:
    """What the relative URL ``written`` names from a page served at ``routes`` (a partial at
    each importer's), and whether naming nothing is judged (with no route known, the link is
    read as a path from the page's file, as before)."""
    if not routes:
        return None, True
    judged = False
    for route in routes:
        # Served at `/docs/a/b`, or at `/docs/a/b/` by a host that adds the slash: either base.
        # A `..` above the root stays at the root, as in a browser (URL Standard, "path
        # state"), and as `normpath` reads an absolute path.
        targets = [
            posixpath.normpath(posixpath.join(base, written))
            for base in (posixpath.dirname(route), route)
        ]
        for target in targets:
            found = model.find(tree, target)
            if found is not None:
                return found, True
        docs = any(
            _under(target, "/docs") is not None
            and not any(_under(target, p) is not None for p in model.unjudged)
            for target in targets
        )
        judged = judged or (docs and bool(model.routes)) or any(model.judges(t) for t in targets)
    return None, judged


# Docusaurus's alias of the site's folder in a Markdown link or image path.
SITE_ALIAS = "@site/"


def _docusaurus_alias(tree: Tree, path: str, written: str) -> tuple[str, str] | None:
    """(the site's folder, the path in it) of an ``@site/`` link on a Docusaurus site's page;
    None for any other link, or off a Docusaurus site (a folder named ``@site``)."""
    if not written.startswith(SITE_ALIAS):
        return None
    folder = tree.site_of(path)
    config = tree.site_config(folder) if folder is not None else None
    if folder is None or config is None or config[1] != "docusaurus":
        return None
    return folder, written.removeprefix(SITE_ALIAS)


def _docusaurus_place(site_folder: str, path: str) -> tuple[str, str] | None:
    """The plugin of a Docusaurus site that serves ``path`` ("docs", "versioned", "blog" or
    "pages": ``DOCUSAURUS_CONTENT``), with its content root (a version's folder for a
    versioned doc); None for a page the site does not serve (a README beside the
    configuration, a custom plugin's page)."""
    for plugin, part in DOCUSAURUS_CONTENT:
        root = site_path(site_folder, part)
        rest = _under("/" + path, "/" + root)
        if plugin != "versioned" and rest is not None:
            return plugin, root
        if plugin == "versioned" and rest and "/" in rest:
            return plugin, posixpath.join(root, rest.split("/", 1)[0])
    return None


def _docusaurus_route(
    tree: Tree, model: Site, path: str, plugin: str, content_root: str
) -> str | None:
    """The route a Docusaurus site serves ``path`` at, where it is known: a current doc's (its
    ``id``, ``slug`` and number prefixes: ``Site.routes``) and a page of ``src/pages/``. A blog
    post's (dates, slugs, the blog's own options) and a version's are not known here."""
    rest = posixpath.splitext(_under("/" + path, "/" + content_root) or "")[0]
    if any(part.startswith("_") for part in rest.split("/")):
        # A partial (`_x.md`, `_parts/`: excluded by Docusaurus's default): rendered inside
        # the page that imports it, at that page's route.
        return None
    if plugin == "pages":
        if posixpath.basename(rest) == "index":
            rest = posixpath.dirname(rest)
        return "/" + rest
    if plugin != "docs":
        return None
    key = f"{ID}:doc-routes:{model.folder}"
    routes = tree.corpus.memo.get(key)
    if routes is None:
        routes = tree.corpus.memo[key] = {page: route for route, page in model.routes.items()}
    found = routes.get(path)
    return found if isinstance(found, str) else None


def _missing_file(
    tree: Tree, settings: Options, path: str, site: LinkSite, resolved: str, fragment: str = ""
) -> Problem:
    what = "image" if site.kind == "image" else "file"
    cased = [p for p in tree.by_case.get(resolved.casefold(), []) if p != resolved]
    # "Did you mean" names a target that works: with the link's fragment, a page that has that
    # anchor (issue 45, item 9). `#frag` kept in the proposal, so that it is the whole target.
    fragment = fragment if settings.anchors else ""

    def reaches(candidate: str) -> bool:
        return (
            not fragment or _anchor_problem(tree, settings, path, site, candidate, fragment) is None
        )

    anchor = f"#{fragment}" if fragment else ""
    if cased:
        right = _relative(path, cased[0])
        either = "" if reaches(cased[0]) else f" (and give it an anchor `{anchor}`: it has none)"
        return Problem(
            ("case", resolved),
            path,
            site,
            f"`{site.target}` → `{resolved}` does not exist: the repository has `{cased[0]}`, "
            f"and paths are case-sensitive (GitHub, Linux). Write `{right}`{either}",
        )
    neighbours = tuple(_neighbours(tree, resolved))
    close = _nearest_first(resolved, _close_of(resolved, neighbours, 0.75, len(neighbours) or 1))
    guess = next((c for c in close if reaches(c)), None)
    hint = f" (did you mean `{_relative(path, guess)}{anchor}`?)" if guess else ""
    if WEB_ADDRESS.match(site.target):
        hint = f" (a web address needs its scheme: `https://{site.target}`)"
    wrapped = _wrapped(site.target)
    if wrapped is not None and SCHEME.match(wrapped[1]):
        # `[x]: (https://…)`: CommonMark keeps the parentheses in the destination, so it is a
        # relative path to a file named `(https:`…, not the web page. Named as written: the
        # path's normalisation made `https://` read `https:/`.
        return Problem(
            ("missing", resolved),
            path,
            site,
            f"`{site.target}`: the {wrapped[0]} around the address are part of the link's "
            f"destination, so it names a file of the repository, not `{wrapped[1]}`: remove them",
        )
    if wrapped is not None:
        # `[x](\n  "path")`: a quoted destination keeps its quotes (CommonMark reads a title
        # only after a destination), so it names a file whose name starts with `"`. The fix
        # proposed is one that works (issue 45, item 9): without them, does it name a file?
        unwrapped = _unwrapped_target(tree, path, wrapped[1])
        if unwrapped is None or tree.page_for(unwrapped) is not None:
            hint = f" (the {wrapped[0]} are part of the destination: write `{wrapped[1]}`)"
        else:
            hint = (
                f" (the {wrapped[0]} are part of the destination, and without them "
                f"`{wrapped[1]}` names no file either)"
            )
    return Problem(
        ("missing", resolved),
        path,
        site,
        f"`{site.target}` → `{resolved}`: no such {what} in the repository{hint}. Fix the path, "
        "or add the file",
    )


def _unwrapped_target(tree: Tree, page: str, written: str) -> str | None:
    """The repository path ``written`` names from ``page`` (GitHub reads ``/x`` from the root);
    None for what is not a path of the repository."""
    target = unquote(urlsplit(written).path)
    if not target:
        return None
    base = "" if target.startswith("/") else posixpath.dirname(page)
    resolved = posixpath.normpath(posixpath.join(base, target.lstrip("/")))
    return None if resolved == ".." or resolved.startswith("../") else resolved


# A line meant as an ATX heading, without the space after its `#`s (`####7.5.7 Title`), and a
# code fence's opening or closing line.
UNSPACED_HEADING = re.compile(r"^ {0,3}(#{1,6})([^\s#].*)$")
FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


# Punctuation an author put around a destination that CommonMark keeps in it.
_WRAPPERS = {'"': ('"', "quotes"), "'": ("'", "quotes"), "(": (")", "parentheses")}


def _wrapped(target: str) -> tuple[str, str] | None:
    """(what wraps it, what it wraps) of a destination written inside quotes or parentheses,
    which Markdown keeps as part of it; None otherwise."""
    closer, name = _WRAPPERS.get(target[:1], ("", ""))
    if not closer or len(target) < 3 or not target.endswith(closer):
        return None
    return name, target[1:-1]


def _neighbours(tree: Tree, resolved: str) -> list[str]:
    folder, _, name = resolved.rpartition("/")
    return sorted({*tree.by_folder.get(folder, ()), *tree.by_name.get(name, ())})


def _nearest_first(resolved: str, close: Iterable[str]) -> list[str]:
    """``close`` (alike paths, most alike first) with those nearest ``resolved``'s folder first:
    the file beside the page (``linter/registry.go`` for ``linter/linter/registry.go``) is
    meant rather than one in another folder whose path happens to be more alike
    (``linter/fix/registry.go``)."""
    here = posixpath.dirname(resolved).split("/")

    def steps(candidate: str) -> int:
        there = posixpath.dirname(candidate).split("/")
        shared = 0
        while shared < min(len(here), len(there)) and here[shared] == there[shared]:
            shared += 1
        return len(here) + len(there) - 2 * shared

    return sorted(close, key=steps)


def _relative(page: str, target: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def _closest(word: str, candidates: Iterable[str], cutoff: float = 0.75) -> str | None:
    return _closest_of(word, tuple(sorted(set(candidates))), cutoff)


def _closest_of(word: str, options: tuple[str, ...], cutoff: float) -> str | None:
    close = _close_of(word, options, cutoff, 1)
    return close[0] if close else None


@functools.lru_cache(maxsize=1 << 12)
def _close_of(word: str, options: tuple[str, ...], cutoff: float, count: int) -> tuple[str, ...]:
    # The same missing target is usually linked from many pages: asked once.
    return tuple(difflib.get_close_matches(word, options, n=count, cutoff=cutoff))


def _anchor_problem(
    tree: Tree, settings: Options, path: str, site: LinkSite, target: str, fragment: str
) -> Problem | None:
    page = tree.pages.get(target)
    if page is None:
        return None
    # A text fragment (`#:~:text=...`, `#intro:~:text=...`) is the browser's, not an anchor.
    name = fragment.removeprefix("user-content-").split(":~:", 1)[0]
    if not name or name == "top" or LINE_ANCHOR.match(name):
        return None
    link = deep_link(name) if name not in page.anchors else None
    if link is not None:
        judged = _api_problem(tree, path, site, target, page, link)
        if judged is not NOT_API:
            return judged if isinstance(judged, Problem) else None
    anchors, headings, group, rank = page.anchors, [*page.headings, *page.labels], target, 0
    documents = tree.documents_of(target)
    if documents:
        # A part of a document a build assembles: its anchors are the whole document's.
        if not all(d.known for d in documents):
            return None  # a part its build pulls in from outside the corpus (a macro...)
        anchors = set().union(*(tree.document_anchors(d) for d in documents))
        headings = [t for d in documents for ts in assembly.texts(d, tree.all_pages) for t in ts]
        group = documents[0].key
        fragments = [d for d in documents if d.kind == "fragments"]
        if name not in anchors and fragments and not fragments[0].copies and GENERATED.search(name):
            # Ids its build makes (`#def;term`, a reference's `#RFC3986`) that no copy of
            # the assembled document shows: not known here, so not judged.
            return None
    elif page.includes:
        return None  # its build pulls in headings (a shortcode, an include) not seen here
    elif TEMPLATE_PAGE.search(posixpath.basename(target)):
        return None  # a build fills it in (`spec-template.md` plus sections from a schema)
    elif _myst_label(tree, target, name):
        return None  # `#label`: a MyST cross-reference to a `(label)=` target of the project
    elif _under_build(tree, target, (SPHINX_CONFIG,)):
        # A MyST page of a Sphinx project: `#name` is a cross-reference to any target of the
        # project (autodoc's `#pkg.module.Class`, a `(label)=`), not only a heading of this page
        # (MyST "Cross-referencing": local links starting with `#`); they are not known here.
        return None
    elif (copied := tree.copy_of(target)) is not None:
        group, rank = copied.key, 1  # the same defect in the parts is reported there, once
    renderer = tree.renderers.of(path)
    proposed = anchors
    if not documents:
        # The anchors the page has where the link is read: GitHub's, or a site's own slugs.
        anchors, proposed = tree.rendered_anchors(renderer, target)
    if name in anchors or _spec_md_section(name, headings):
        return None
    here = target == path
    where = "this page" if here else f"`{target}`"
    if documents:
        where = f"the document assembled from `{group}`"
    related = () if here else (Location(target, 1, 1, note=f"has no anchor `#{name}`"),)
    folded = {a.casefold(): a for a in sorted(anchors, reverse=True)}
    if name.casefold() in folded:
        if documents:
            # A document a build assembles (a script, spec-md, Jekyll): read in its output, by a
            # browser, which compares ids with their case.
            reader = "the build that assembles it"
        elif renderer.forgives_case or renderer.kind not in (*EXACT_SLUGS, ELSEWHERE):
            # GitHub's pages look a fragment up without regard to case: the link works where
            # the page is read. A site whose slugs are not known here is not judged on case.
            return None
        elif renderer.kind == ELSEWHERE:
            reader = f"the site it is written for ({renderer.config})"
        else:
            reader = f"{renderer.name} (`{renderer.config}`)"
        if settings.ignore_case:
            return None
        right = folded[name.casefold()]
        return Problem(
            ("anchor-case", group, name),
            path,
            site,
            f"`{site.target}`: the anchor of {where} is `#{right}`, and {reader} compares "
            f"fragments with their case, as browsers do: write `#{right}`",
            related,
            # A reader of the page on GitHub still reaches it.
            severity=Severity.INFO,
            rank=rank,
        )
    # A documentation site makes its own anchors (Mintlify keeps `_meta`'s underscore out,
    # `tasks/get` in): only letters and digits are compared there.
    on_site = target.endswith(".mdx") or tree.site_of(target) is not None
    # docs-builder's ids are all known (its slugs, its `[id]`s, its `$$$id$$$`s).
    on_site = on_site and tree.renderers.of(target).kind != DOCS_BUILDER
    if on_site and bare(name) in {bare(a) for a in [*anchors, *page.headings]}:
        return None
    if not documents and _build_anchor(tree, page, target, name):
        # `#RSC7a` for the item `(RSC7a)`: an anchor the site's build makes (a script that
        # wraps each item code in `<a id>`), which the Markdown does not hold: not checked,
        # and said so, one note a link.
        return _not_checked(
            BUILD_ANCHOR,
            path,
            site,
            f"`{site.target}`: an anchor a site's build makes of the item code `{name}` on "
            f"{where} (no heading has it): not checked",
        )
    guess = _word_of(name, headings, proposed, renderer) or _closest(name, proposed, cutoff=0.6)
    hint = f" (did you mean `#{guess}`?)" if guess else ""
    unspaced = tree.unspaced_headings(target).get(name)
    if unspaced is not None and not documents:
        # `####7.5.7 Title` would make that anchor, but with no space after its `#`s it is a
        # paragraph (CommonMark 4.2, ATX headings): the heading is what to fix.
        hint = (
            f" (line {unspaced[0]} `{unspaced[1]}` is no heading without a space after its "
            "`#`s: add it)"
        )
    return Problem(
        ("anchor", group, name),
        path,
        site,
        f"`{site.target}`: {where} has no heading or anchor `#{name}`{hint}. Fix the fragment, "
        "or restore the heading it named",
        related,
        rank=rank,
    )


BUILD_ANCHOR = "build-anchor"  # the coverage kind of a link to an anchor a site's build makes
# Item codes before a page is taken for one of numbered items (a requirement list), whose codes
# a site's build may make anchors of, rather than for a page that happens to open a paragraph
# with a code.
CODED_PAGE = 3


def _build_anchor(tree: Tree, page: Page, target: str, name: str) -> bool:
    """Whether ``#name`` is an anchor a site's build makes, by the evidence the repository
    holds: ``name`` is exactly the item code opening a paragraph of the target page (``(RSC7a)``
    as a code span, ``speclint.parsing.links.ITEM_CODE``), the page is one of numbered items
    (``CODED_PAGE`` such codes at least), and a site's build may publish it
    (``Renderers.built_into_site``). A fragment no item of the page is coded with stays a
    broken link."""
    return (
        name in page.markers
        and len(page.markers) >= CODED_PAGE
        and tree.renderers.built_into_site(target)
    )


# The site generators whose heading slugs are lower-case by rule, GitHub's or MkDocs' (Docusaurus's
# github-slugger, Hugo's Goldmark `github` ids, Jekyll's kramdown with GFM input): a fragment
# that differs from one of their anchors only in case reaches nothing on the site.
EXACT_SLUGS = frozenset({"mkdocs", "docusaurus", "hugo", "jekyll", DOCS_BUILDER})


def _made_anchors(renderer: Renderer, page: Page) -> set[str]:
    """The anchors ``renderer`` really makes of ``page``, for "did you mean": not the spellings
    a link is forgiven (another renderer's slugs, a space GitHub keeps before inline HTML), which
    may lead nowhere where the page is read (issue 45, item 9)."""
    if renderer.kind not in ("mkdocs", DOCS_BUILDER):
        return page.anchors
    github = {github_slug(h.strip()) for h in page.headings}
    explicit = {a for a in page.anchors if a not in github}
    return explicit | (renderer.anchors(page.headings, set(), page.inline_anchors))


NOT_API = "not an API reference link"


def _api_problem(
    tree: Tree, path: str, site: LinkSite, target: str, page: Page | None, link: DeepLink
) -> Problem | str | None:
    """A Swagger UI or Redoc deep link (``#/pets/listPets``, ``#tag/pets/operation/x``) judged
    against the OpenAPI document the target page renders (``speclint.analyses.api.api_links``): the
    document its embedding names, else the corpus's OpenAPI documents. ``NOT_API`` when the link
    is not one (no API reference there, and no OpenAPI document in the corpus, or a Swagger UI
    tag link on a page that renders none), None when it is not judged or names what exists."""
    names = api_names(tree.corpus)
    renders = page is not None and page.renders_api
    documents = _rendered_documents(tree, target, page, names) if renders else None
    if documents is None and renders:
        return None  # the page renders a document that is not in the corpus (a remote one)
    if documents is None:
        documents = list(names.values())
        if not documents:
            return NOT_API
        if link.style == "swagger-ui" and not link.operation:
            # `#/x` on a page that renders no API reference: a tag, only if the corpus has it.
            return None if judge(link, documents) is None else NOT_API
    missing = judge(link, documents)
    if missing is None:
        return None
    shown = ", ".join(f"`{d.path}`" for d in documents[:3])
    if len(documents) > 3:
        shown += f" and {len(documents) - 3} more"
    where = f"the API reference `{target}` renders" if renders else "the corpus's OpenAPI documents"
    return _api_missing(path, site, f"{where} ({shown})", [d.path for d in documents], missing)


def _api_missing(
    path: str, site: LinkSite, where: str, documents: list[str], missing: Missing
) -> Problem:
    """The problem of a deep link naming what ``documents`` (described as ``where``) lack; the
    first three are related locations."""
    hint = f" (did you mean `{missing.guess}`?)" if missing.guess else ""
    return Problem(
        ("api", ",".join(documents), missing.what, bare(missing.name)),
        path,
        site,
        f"`{site.target}`: {where} {'has' if len(documents) == 1 else 'have'} no "
        f"{missing.what} `{missing.name}`{hint}. Name an existing {missing.what} in the "
        "deep link, or restore the one it named",
        tuple(
            Location(d, 1, 1, note=f"has no {missing.what} `{missing.name}`") for d in documents[:3]
        ),
    )


def _rendered_documents(
    tree: Tree, target: str, page: Page | None, names: dict[str, ApiNames]
) -> list[ApiNames] | None:
    """The corpus's OpenAPI documents the page ``target`` renders as an API reference: the one
    its embedding names (from the page's folder, the site's folder or its static files), all of
    them when it names none the corpus has, and None when it names only documents elsewhere (a
    web address)."""
    specs = page.api_specs if page is not None else []
    found: list[ApiNames] = []
    remote = False
    folder = posixpath.dirname(target)
    site = tree.site_of(target) or ""
    for spec in specs:
        if SCHEME.match(spec):
            remote = True
            continue
        written = unquote(urlsplit(spec).path)
        bases = [site, posixpath.join(site, "static"), posixpath.join(site, "public"), ""]
        candidates = [posixpath.join(folder, written)] if not written.startswith("/") else []
        candidates += [posixpath.join(base, written.lstrip("/")) for base in bases]
        for candidate in candidates:
            resolved = posixpath.normpath(candidate)
            if resolved in names:
                found.append(names[resolved])
                break
    if found:
        return found
    if remote and len(specs) == sum(bool(SCHEME.match(s)) for s in specs):
        return None
    return list(names.values()) or None


def _word_of(
    name: str, headings: Iterable[str], anchors: set[str], renderer: Renderer = GITHUB_RENDERER
) -> str | None:
    """The anchor of the shortest heading that holds ``name`` as whole words, notes in
    parentheses set aside (``#cdevent-context`` for ``#context``, not "id (context)";
    ``#id-context`` for ``#id``): a better guess than the closest spelling (``#content``)."""
    if len(name) < 2:
        return None
    pattern = re.compile(rf"(?:^|-){re.escape(name.casefold())}(?:-|$)")
    slug = (
        functools.partial(mkdocs_slug, cased=renderer.cased) if renderer.kind == "mkdocs" else None
    )
    held = [
        anchor
        for heading in headings
        if (anchor := (slug or github_slug)(heading.strip())) in anchors
        and anchor != name
        and pattern.search(github_slug(_without_notes(heading).strip()))
    ]
    return min(held, key=lambda a: (len(a), a)) if held else None


# An id no GitHub slug has (upper case, `;`, `.`, `:`): one a build makes or a page writes.
GENERATED = re.compile(r"[^a-z0-9_-]")


def _spec_md_section(name: str, titles: list[str]) -> bool:
    """Whether ``name`` is spec-md's anchor of one of ``titles``: ``sec-`` and the title's words
    joined by ``-`` (numbering and punctuation dropped: ``#sec-Appendix-Conformance`` for
    "A. Appendix: Conformance", ``#sec--oneOf`` for "@oneOf"), and for a subsection headed by
    a bold line, its section's anchor, ``.`` and its own (``#sec-Scalars.Custom-Scalars``)."""
    if not name.startswith("sec-") or len(name) <= 4:
        return False
    wanted = bare(name[4:].rsplit(".", 1)[-1])
    return bool(wanted) and any(
        wanted in (bare(title), bare(_unnumbered(title))) for title in titles
    )


def _id_problem(tree: Tree, path: str, site: LinkSite) -> Problem | None:
    parts = urlsplit(site.target.strip())
    url = f"{parts.scheme.lower()}://{parts.netloc.lower()}{parts.path}"
    siblings = tree.id_folder(url)
    if not siblings or url in tree.ids:
        return None
    guess = _closest(url, siblings, cutoff=0.6)
    folder = url.rsplit("/", 1)[0] + "/"
    hint = f" (did you mean `{guess.removeprefix(folder)}`?)" if guess else ""
    return Problem(
        ("id", url),
        path,
        site,
        f"`{site.target}`: no corpus schema has this `$id`, though `{folder}` holds "
        f"{len(siblings)} of theirs{hint}. Fix the URL, or add the schema",
    )


def _section_problem(tree: Tree, path: str, site: SectionSite) -> Problem | None:
    target = _section_page(tree, path, site.page)
    if target is None:
        return None
    page = tree.pages[target]
    headings = page.headings
    if not headings:
        return None
    if site.kind == "number":
        wanted = site.section
        digits = wanted[0].isdigit()
        numbers = [
            n
            for h in headings
            if (m := NUMBERED.match(h))
            for n in m.groups()
            if n and n[0].isdigit() == digits
        ]
        if not numbers:
            return None  # the page does not number its sections so: §2 means something else
        if any(n == wanted or n.startswith(wanted + ".") for n in numbers):
            return None
        return _section_finding(path, site, target, None)
    if site.kind != "word" and (
        github_slug(site.section) in page.anchors or _names(site.section, headings + page.labels)
    ):
        return None
    if site.kind in ("word", "code"):
        # A field or a name, not a title (`§heartbeat`, `§\`agents.goals\``): present when
        # the page speaks of it at all.
        wanted = normal_text(site.section)
        if not wanted or re.search(rf"(?<!\w){re.escape(wanted)}(?!\w)", tree.words(target)):
            return None
    forms = {normal_text(_unnumbered(h)): h for h in headings + page.labels}
    guess = _closest(normal_text(site.section), forms, cutoff=0.6)
    return _section_finding(path, site, target, forms.get(guess) if guess else None)


def _names(section: str, titles: list[str]) -> bool:
    """Whether ``section`` names one of ``titles`` (headings, bold lead-ins, labels): equal to
    one, or a shortened form of one (whole words of it), once case, quotes, dashes, numbering
    and parenthesised notes ("(normative)", "(RFC 0041)") are set aside."""
    wanted = {normal_text(section), normal_text(_without_notes(section))} - {""}
    patterns = [re.compile(rf"(?<!\w){re.escape(w)}(?!\w)") for w in sorted(wanted)]
    return any(p.search(f) for title in titles for f in _title_forms(title) for p in patterns)


@functools.lru_cache(maxsize=1 << 14)
def _title_forms(title: str) -> tuple[str, ...]:
    """The forms a title is compared in: as written, unnumbered, and without its notes."""
    unnumbered = _unnumbered(title)
    return tuple(
        dict.fromkeys(
            (
                normal_text(title),
                normal_text(unnumbered),
                normal_text(_without_notes(unnumbered)),
            )
        )
    )


def _without_notes(text: str) -> str:
    return re.sub(r"\([^()]*\)", " ", text)


def _section_finding(path: str, site: SectionSite, target: str, guess: str | None) -> Problem:
    hint = f' (did you mean §"{guess}"?)' if guess else ""
    return Problem(
        ("section", target, normal_text(site.section)),
        path,
        site,
        f"`{site.page}` {site.written}: `{target}` has no section "
        f"{'numbered ' if site.kind == 'number' else ''}`{site.section}`{hint}. Name the section as "
        "its heading reads now, or point at the page that has it",
        (Location(target, 1, 1, note=f"has no section `{site.section}`"),),
    )


def _section_page(tree: Tree, path: str, written: str) -> str | None:
    """The Markdown page a section reference names: a link or path from the referring page's
    folder, else from the root, else the only page of the corpus with that file name."""
    if SCHEME.match(written) or written.startswith("//"):
        return None
    written = unquote(urlsplit(written).path)
    if not written:
        return None
    folder = "" if written.startswith("/") else posixpath.dirname(path)
    for candidate in (posixpath.join(folder, written.lstrip("/")), written.lstrip("/")):
        resolved = posixpath.normpath(candidate)
        if resolved in tree.pages:
            return resolved
    if "/" not in written:
        named = tree.markdown_named(written)
        if len(named) == 1:
            return named[0]
    return None


@functools.lru_cache(maxsize=1 << 14)
def _unnumbered(heading: str) -> str:
    """The heading without its section number or letter (``2.1 Foo``, ``§A — Foo``)."""
    return re.sub(r"^\s*(?:§\s?)?(?:\d+(?:\.\d+)*\.?\s+|[A-Z](?:\.\d+)*\s*[—–:.-]\s+)", "", heading)


# --- findings -----------------------------------------------------------------------------------


# A list item's first line (`- [Goals](#goals)`, `1. [x](x.md)`), and an indented line that
# continues one.
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+\S")
STALE_LIST = 3  # targets of one list failing alike before they are one finding
STALE_SHARE = 3  # ... and at least one in STALE_SHARE of the list's items: a stale list, not a few


def _list_starts(text: str) -> dict[int, int]:
    """Each line of a list (its items and their indented continuations; a blank line or any
    other ends it) -> the list's first line."""
    starts: dict[int, int] = {}
    start: int | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if LIST_ITEM.match(line):
            start = number if start is None else start
        elif not (start is not None and line.strip() and line[:1] in (" ", "\t")):
            start = None
            continue
        starts[number] = start
    return starts


def _stale_lists(
    corpus: Context, groups: Mapping[tuple[str, ...], list[Problem]]
) -> dict[tuple[str, ...], tuple[int, tuple[str, ...]]]:
    """The groups to report as one, because their links are entries of one list of one page
    whose anchors into one page fail alike: at least ``STALE_LIST`` of them, and at least a
    third of the list's items (a table of contents copied from a template and never filled in, or from
    another page): each group -> (the list's first line, the list's key). A group is in the
    list its first entry there is in; all its links must be on the one page. A missing file is
    not bundled so: each is its own defect (a list of modules whose every link lost its folder
    is still one finding per module)."""
    starts: dict[str, dict[int, int]] = {}
    lists: dict[tuple[str, ...], list[tuple[str, ...]]] = defaultdict(list)
    for group, members in groups.items():
        path = members[0].path
        if group[0] != "anchor" or any(
            p.path != path or p.coverage is not None or p.severity is not SEVERITY for p in members
        ):
            continue
        if path not in starts:
            document = corpus.documents.get(path)
            text = document.text if document is not None else None
            starts[path] = _list_starts(text) if text is not None else {}
        # The list its first entry is in (its other links may be elsewhere on the page).
        in_list = sorted(starts[path][p.site.line] for p in members if p.site.line in starts[path])
        if in_list:
            lists[(path, str(in_list[0]), group[1])].append(group)
    merged: dict[tuple[str, ...], tuple[int, tuple[str, ...]]] = {}
    for key, listed in lists.items():
        first_line = int(key[1])
        items = sum(1 for start in starts[key[0]].values() if start == first_line)
        if len(listed) >= STALE_LIST and STALE_SHARE * len(listed) >= items:
            merged.update((group, (first_line, key)) for group in listed)
    return merged


def _findings(corpus: Context, problems: list[Problem]) -> Iterator[Finding]:
    groups: dict[tuple[str, ...], list[Problem]] = defaultdict(list)
    for problem in problems:
        groups[problem.group].append(problem)
    # The entries of one list failing alike are one finding, the first entry's (issue 45).
    stale = _stale_lists(corpus, groups)
    bundles: dict[tuple[str, ...], list[Problem]] = defaultdict(list)
    for group, members in groups.items():
        bundles[stale[group][1] if group in stale else group].extend(members)
    lists = {key: line for line, key in stale.values()}
    ordered = []
    for bundle, members in bundles.items():
        members.sort(key=lambda p: (p.rank, p.path, p.site.line, p.site.column))
        # A list's finding has its first link's group's identity (the fingerprint that group
        # had when it was reported alone).
        ordered.append((members[0].group, bundle, members))
    for group, bundle, members in sorted(ordered, key=lambda b: b[0]):
        first, *others = members
        count = len(members)
        listed = others[:RELATED_LIMIT]
        whole = first.message
        if bundle in lists:
            # The links are listed as related locations, each with its target.
            whole = (
                f"{count} links of the list at line {lists[bundle]} fail alike (a stale list?), "
                f"the first: {first.message}"
            )
            message = _fitting(whole, 1, 0)
        else:
            message = _fitting(whole, count, len(listed))
        related = tuple(_location(p, note=f"also links `{_written(p.site)}`") for p in listed)
        if not terminal_form(message).replace("\n", " ").startswith(whole):
            # The whole message, where the terminal's first line had to be shortened (item 5 of
            # issue 26): a terminal shows related locations, not the whole message.
            related = (_location(first, note=whole), *related)
        key = ":".join(group)
        yield Finding(
            ID,
            first.severity,
            # past the limit, the message says how many links are not listed (issue 44)
            message + left_out(len(listed), len(others) - len(listed), "other links"),
            _location(first),
            related=related + first.related,
            key=key,
            # every link: a waiver above one covers that one
            members=tuple(
                Member(_location(p, note=f"also links `{_written(p.site)}`"), key) for p in members
            )
            if others
            else (),
            coverage=first.coverage,
        )


LONG_CODE = 60  # characters of a code span kept whole in a shortened first line
CODE = re.compile(r"`([^`\n]+)`")


def _fitting(message: str, count: int, listed: int) -> str:
    """The message, with the number of links when there are several (and that the others are
    related when all ``listed`` are); a terminal shows it in a first line of at most ~200
    characters: whole when it fits, else with the count shortened, without the "did you mean"
    hint, then with long names cut in their middle (the whole message then goes to a related
    location too; every other report carries it whole)."""
    every = ", all listed as related locations" if listed == count - 1 else ""
    suffix = f" ({count} links{every})" if count > 1 else ""
    short = f" ({count} links)" if count > 1 else ""
    plain = re.sub(r" \(did you mean [^()]*\)", "", message)
    cut = CODE.sub(
        lambda m: (
            m.group(0)
            if len(m.group(1)) <= LONG_CODE
            else f"`{m.group(1)[:40]}\u2026{m.group(1)[-15:]}`"
        ),
        plain,
    )
    return first_fitting(message + suffix, message + short, plain + short, cut + short)


def _written(site: LinkSite | SectionSite) -> str:
    return site.target if isinstance(site, LinkSite) else f"{site.page} {site.written}"


def _location(problem: Problem, note: str | None = None) -> Location:
    site = problem.site
    return Location(problem.path, site.line, site.column, pointer=problem.pointer, note=note)
