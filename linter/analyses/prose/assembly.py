"""The documents readers see, when a build assembles them from several Markdown pages.

A specification is often written as pages that are never read alone:

- **fragments a build script concatenates** (``src/file-format-07-array-properties.md`` and
  its siblings, joined by a script into one document): a folder holding at least
  ``FRAGMENTS`` numbered pages (``part-07-x.md``, ``07-x.md``) of which most start below
  level 1 (``## Array properties``, no front matter): each is a section of a larger
  document, not a page of its own. The whole folder is one document. The build's script and
  its list of fragments are not read (speclint reads Markdown, JSON and YAML, and runs
  nothing): the folder's pages are the evidence. A committed copy of the assembled document
  (the build's output kept in the repository) is a page elsewhere holding most of the
  fragments' headings; it belongs to the document too, so a defect in a fragment and in the
  copy is one defect. So does an excerpt of it: a page elsewhere that starts below level 1,
  without front matter, whose every heading is one of the document's (an example page cut
  from the standard, its links written for the document);
- **a folder whose README lists its pages in order by path** (``- front/cover``,
  ``- annexes/history``: the structure of a document a build makes, a PDF): at least
  ``MANIFEST_ITEMS`` list items that are bare page paths without extension, two or more of them
  pages of the folder. Items the folder lacks may name pages of one other folder the build
  combines it with (``licenses/CC-BY-3.0`` is ``docs/licenses/CC-BY-3.0.md``). The listed pages
  of the folder are one document, and a relative link in them may be written from the top of
  the folder or of that other folder (``images/x.png`` in ``annexes/history.md`` for the
  folder's ``images/``): the document's ``roots``;
- **pages included by name**: Jekyll's ``{% include_relative x.md %}`` and
  ``{% include x.md %}`` (from the ``_includes/`` folder of the site), and spec-md's imports
  (a heading that is only a link to a page, ``# [Overview](Section 1 -- Overview.md)``)
  where the repository uses spec-md (a ``package.json`` naming it);
- **a ReSpec document**: an HTML page that loads ReSpec and includes Markdown pages into its
  sections (``<section data-include="catalog/protocol.md" data-include-format="markdown">``,
  resolved from the HTML page's folder; ReSpec "data-include"). Its anchors are ReSpec's, not
  GitHub's: each section's id is its heading's text lower-cased, accents dropped, every run of
  characters that are not ASCII letters, digits or ``_`` one ``-``, with ``-`` trimmed, an ``x``
  before an id that does not start with a letter, and ``-0``, ``-1`` after a repeat (ReSpec's
  ``addId``, called by ``core/structure`` for each section), so "ACK - Catalog" is
  ``#ack-catalog`` (GitHub's ``#ack---catalog`` is no id there); each example's
  (``<pre class="example" title="Sample D">`` is ``#example-sample-d``, an untitled one
  ``#example-N``); and the HTML page's own ``id`` attributes. A Markdown page is included by
  ``data-include`` with ``data-include-format="markdown"``, or with the element's
  ``data-format="markdown"`` and no include format, or by a transclusion script a build
  replaces with the page (``<script class="transclude" src="part.md">``).

- **a Middleman (Slate) page**: a site folder with ``config.rb`` and ``source/``, whose page
  (``source/index.html.md``) is rendered with its partials: ERB's ``<%= partial
  "includes/x.md" %>``, and the names its front matter lists under ``includes:`` where a
  layout renders them (``partial("includes/#{include}")``). Its parts' relative links are read
  from the page's folder; a ``.erb`` partial, no corpus page, is read from the disk.

An anchor of any page of such a document is an anchor of all of them. A document whose parts
are not all in the corpus (an include that names no page, a page that pulls in content it does
not name: a shortcode, a macro) is not ``known``: its anchors are not all written anywhere.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

from speclint.parsing.links import HEADING_ID, Page, github_slug, github_slugs

FRAGMENTS = 3  # numbered, headless pages in a folder before it is read as one document
MANIFEST_ITEMS = 5  # page paths a README lists before it is read as a document's structure
COPY_SHARE = 0.6  # of a document's headings a page must hold to be its committed copy
COPY_HEADINGS = 5  # headings a document needs before a copy of it can be recognised
# A numbered page name: `file-format-07-x.md`, `tests-01-mndtr-04-x.md`, `07-x.md`.
NUMBERED_NAME = re.compile(r"^(?:.*?[-_.])?\d{2,}(?:[-_.].*)?\.(?:md|markdown)$")


@dataclass(frozen=True)
class Assembly:
    """One document assembled from pages: ``key`` names it (the fragments' folder, or the page
    that includes the others), ``members`` are the pages whose text is in it, ``copies`` the
    committed copies of the whole, and ``known`` whether every part is in the corpus."""

    key: str
    kind: str  # "fragments", "include", "spec-md", "manifest", "respec" or "middleman"
    members: tuple[str, ...]
    copies: tuple[str, ...] = ()
    known: bool = True
    # The folders a relative link of a part may be written from, besides the part's own
    # (a manifest's folder, and the folder its build combines it with).
    roots: tuple[str, ...] = ()
    # The ids the page that includes the others sets itself (a ReSpec document's HTML).
    ids: tuple[str, ...] = ()


def assemblies(
    pages: Mapping[str, Page],
    on_site: Callable[[str], bool],
    spec_md: bool,
    hosts: Mapping[str, str] | None = None,
    html: Callable[[str], str | None] = lambda path: None,
) -> list[Assembly]:
    """Every assembled document of the corpus, sorted by key. ``on_site`` says whether a page is
    served by a documentation site (whose pages are pages of their own, whatever their
    headings); ``spec_md`` whether the repository builds with spec-md; ``hosts`` the text of
    the repository's HTML pages that may include Markdown pages (ReSpec), by path; ``html``
    the text of an HTML file of the repository a ReSpec document includes (None when it is
    not read)."""
    found = [
        *_fragment_folders(pages, on_site),
        *_inclusions(pages, spec_md),
        *_manifests(pages),
        *_respec_documents(pages, hosts or {}, html),
    ]
    return sorted(found, key=lambda a: (a.key, a.kind))


def _fragment_folders(pages: Mapping[str, Page], on_site: Callable[[str], bool]) -> list[Assembly]:
    by_folder: dict[str, list[str]] = defaultdict(list)
    for path in sorted(pages):
        by_folder[posixpath.dirname(path)].append(path)
    found: list[Assembly] = []
    in_fragments: set[str] = set()
    for folder, members in sorted(by_folder.items()):
        numbered = [p for p in members if NUMBERED_NAME.match(posixpath.basename(p))]
        if len(numbered) < FRAGMENTS or any(on_site(p) for p in members):
            continue
        headless = [p for p in numbered if pages[p].first_level != 1 and not pages[p].front_matter]
        if len(headless) * 2 <= len(numbered) or len(headless) < FRAGMENTS:
            continue
        found.append(Assembly(folder, "fragments", tuple(members)))
        in_fragments.update(members)
    found = [_with_excerpts(a, pages, in_fragments) for a in found]
    in_fragments.update(p for a in found for p in a.members)
    return [_with_copies(a, pages, in_fragments) for a in found]


def _with_excerpts(assembly: Assembly, pages: Mapping[str, Page], excluded: set[str]) -> Assembly:
    """The assembly with the pages elsewhere that copy a section of it: a page that starts
    below level 1, without front matter, whose every heading is one of the document's (an
    example page cut from the standard). Its links were written for the document."""
    wanted = {s for p in assembly.members for s in _heading_slugs(pages[p])}
    excerpts = tuple(
        path
        for path, page in sorted(pages.items())
        if path not in excluded
        and page.first_level > 1
        and not page.front_matter
        and set(_heading_slugs(page)) <= wanted
    )
    members = (*assembly.members, *excerpts)
    return Assembly(assembly.key, assembly.kind, members, assembly.copies, assembly.known)


def _with_copies(assembly: Assembly, pages: Mapping[str, Page], excluded: set[str]) -> Assembly:
    """The assembly with the pages that hold most of its headings: its committed copies."""
    wanted = {s for p in assembly.members for s in _heading_slugs(pages[p])}
    if len(wanted) < COPY_HEADINGS:
        return assembly
    copies = tuple(
        path
        for path, page in sorted(pages.items())
        if path not in excluded and len(wanted & page.anchors) >= COPY_SHARE * len(wanted)
    )
    return Assembly(assembly.key, assembly.kind, assembly.members, copies, assembly.known)


def _heading_slugs(page: Page) -> list[str]:
    """The GitHub slugs of a page's headings, explicit ids set aside (a repeat not numbered)."""
    slugs = []
    for heading in page.headings:
        explicit = HEADING_ID.search(heading)
        slugs.append(github_slug((heading[: explicit.start()] if explicit else heading).strip()))
    return slugs


def _manifests(pages: Mapping[str, Page]) -> list[Assembly]:
    """The folders whose README lists the document's pages by path (see the module's doc)."""
    by_suffix: dict[str, list[str]] = defaultdict(list)  # `licenses/x.md` -> its full paths
    for path in pages:
        parts = path.split("/")
        for start in range(1, len(parts)):
            by_suffix["/".join(parts[start:])].append(path)
    found: list[Assembly] = []
    for path, page in sorted(pages.items()):
        if posixpath.basename(path).lower() != "readme.md" or len(page.items) < MANIFEST_ITEMS:
            continue
        folder = posixpath.dirname(path)
        own: list[str] = []
        elsewhere: Counter[str] = Counter()
        for item in page.items:
            name = f"{item}.md"
            if posixpath.join(folder, name) in pages:
                own.append(posixpath.join(folder, name))
                continue
            others = {p[: -len(name)].rstrip("/") for p in by_suffix.get(name, ())}
            if len(others) == 1:
                elsewhere.update(others)
        combined = sorted(f for f, n in elsewhere.items() if n >= 2 and f != folder)
        named = len(own) + sum(elsewhere[f] for f in combined)
        if len(own) < 2 or named * 2 < len(page.items):
            continue
        found.append(Assembly(folder, "manifest", tuple(own), roots=(folder, *combined)))
    return found


def _inclusions(pages: Mapping[str, Page], spec_md: bool) -> list[Assembly]:
    found: list[Assembly] = []
    for entry in sorted(pages):
        named = _named(pages[entry], spec_md)
        if not named:
            continue
        members = [entry]
        known = not pages[entry].includes
        imports = False
        queue = [(entry, how, target) for how, target in named]
        while queue:
            page, how, target = queue.pop(0)
            imports = imports or how == "import"
            resolved = _resolve(pages, page, how, target)
            if resolved is None:
                known = False  # an include that names no page of the corpus
                continue
            if resolved in members:
                continue
            members.append(resolved)
            known = known and not pages[resolved].includes
            queue.extend((resolved, h, t) for h, t in _named(pages[resolved], spec_md))
        kind = "spec-md" if imports else "include"
        found.append(Assembly(entry, kind, tuple(members), (), known))
    return found


def _named(page: Page, spec_md: bool) -> list[tuple[str, str]]:
    return [
        (how, t) for how, t in page.included if how != "respec" and (how != "import" or spec_md)
    ]


def _resolve(pages: Mapping[str, Page], page: str, how: str, target: str) -> str | None:
    folder = posixpath.dirname(page)
    if how in ("relative", "import"):
        path = posixpath.normpath(posixpath.join(folder, target))
        return path if path in pages else None
    # Jekyll's `{% include x %}` reads `_includes/x` of the site: the nearest such folder up.
    while True:
        path = posixpath.normpath(posixpath.join(folder, "_includes", target))
        if path in pages:
            return path
        if not folder:
            return None
        folder = posixpath.dirname(folder)


# ReSpec: an HTML page that loads it (`respec-w3c.js`, a `respecConfig`), and the elements
# that include a file (`data-include`, with `data-include-format="markdown"` for a Markdown one,
# or with the element's own `data-format="markdown"`: ReSpec includes the text, then reads the
# element as Markdown), and a transclusion script a build replaces with the file it names
# (`<script class="transclude" src="x.md">`, in a section ReSpec reads as Markdown).
RESPEC = re.compile(r"<script\b[^>]*\brespec|\brespecConfig\b", re.IGNORECASE)
HTML_TAG = re.compile(r"<[A-Za-z][\w-]*\b[^>]*>")
_ATTRIBUTE = r"(?<![\w-]){}\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+))"
DATA_INCLUDE = re.compile(_ATTRIBUTE.format("data-include"), re.IGNORECASE)
INCLUDE_FORMAT = re.compile(_ATTRIBUTE.format("data-include-format"), re.IGNORECASE)
DATA_FORMAT = re.compile(_ATTRIBUTE.format("data-format"), re.IGNORECASE)
CLASS = re.compile(_ATTRIBUTE.format("class"), re.IGNORECASE)
SOURCE = re.compile(_ATTRIBUTE.format("src"), re.IGNORECASE)
MARKDOWN_PART = (".md", ".markdown")
# What a ReSpec page holds when it includes a file: what is looked for before it is read.
INCLUDE_MARKS = (b"data-include", b"transclude")
HTML_ID = re.compile(r"\sid\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.IGNORECASE)
HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def respec_includes(text: str) -> list[str] | None:
    """The Markdown pages an HTML page has ReSpec include (as written, in order), and None for a
    page that does not load ReSpec."""
    text = HTML_COMMENT.sub("", text)
    if not RESPEC.search(text):
        return None
    found: list[str] = []
    for tag in HTML_TAG.finditer(text):
        written = tag.group(0)
        transcluded = _value(SOURCE, written) if "transclude" in _value(CLASS, written) else ""
        if tag.group(0)[1:7].lower() == "script" and transcluded:
            if transcluded.split("#")[0].lower().endswith(MARKDOWN_PART):
                found.append(transcluded)
            continue
        include = _value(DATA_INCLUDE, written)
        form = _value(INCLUDE_FORMAT, written).lower() or (
            "markdown" if _value(DATA_FORMAT, written).lower() == "markdown" else ""
        )
        if include and form == "markdown":
            found.append(include)  # not HTML (the default) or text: no Markdown heading there
    return found


def _value(attribute: re.Pattern[str], tag: str) -> str:
    """The value of ``attribute`` in the HTML ``tag`` ("" without it)."""
    match = attribute.search(tag)
    return next((g for g in match.groups() if g is not None), "").strip() if match else ""


def respec_html_parts(text: str) -> list[str]:
    """The HTML files a ReSpec page includes (``data-include`` read as HTML, the default, or a
    transclusion script naming one), as written."""
    text = HTML_COMMENT.sub("", text)
    found: list[str] = []
    for tag in HTML_TAG.finditer(text):
        written = tag.group(0)
        named = _value(DATA_INCLUDE, written) or (
            _value(SOURCE, written) if "transclude" in _value(CLASS, written) else ""
        )
        form = _value(INCLUDE_FORMAT, written).lower() or _value(DATA_FORMAT, written).lower()
        if named.split("#")[0].lower().endswith((".html", ".htm")) and form in ("", "html"):
            found.append(named)
    return found


# A section a ReSpec extension fills at render time: one that carries a `data-` attribute
# ReSpec itself does not define (ReSpec's documentation, "data-*" attributes), such as a data
# model plugin's `data-model`. The ids of what it generates are not written anywhere.
RESPEC_DATA = frozenset(
    {
        "data-include", "data-include-format", "data-include-replace", "data-include-sync",
        "data-oninclude", "data-format", "data-cite", "data-dfn-for", "data-dfn-type",
        "data-export", "data-noexport", "data-link-for", "data-link-type", "data-lt",
        "data-local-lt", "data-lint-ignore", "data-max-toc", "data-number", "data-abbr",
        "data-sort", "data-tests", "data-type", "data-xref-type", "data-id", "data-transform",
        "data-lt-noplural", "data-lt-nodefault",
    }
)  # fmt: skip
SECTION_DATA = re.compile(r"<section\b([^>]*)>", re.IGNORECASE)
DATA_NAME = re.compile(r"(?<![\w-])(data-[\w-]+)\s*=", re.IGNORECASE)


def _generated_sections(text: str) -> bool:
    """Whether an HTML part has a section a ReSpec extension fills (``RESPEC_DATA``)."""
    return any(
        name.lower() not in RESPEC_DATA
        for section in SECTION_DATA.finditer(text)
        for name in DATA_NAME.findall(section.group(1))
    )


def _respec_documents(
    pages: Mapping[str, Page], hosts: Mapping[str, str], html: Callable[[str], str | None]
) -> list[Assembly]:
    found: list[Assembly] = []
    for host, text in sorted(hosts.items()):
        included = respec_includes(text)
        if not included:
            continue
        folder = posixpath.dirname(host)
        # The HTML parts' ids are the document's; a part a ReSpec extension fills has ids
        # written nowhere, and then the document's anchors are not known.
        part_ids: set[str] = set()
        generated = False
        for written in respec_html_parts(text):
            part = posixpath.normpath(posixpath.join(folder, written.split("#")[0]))
            part_text = None if part.startswith("..") else html(part)
            if part_text is not None:
                part_ids.update(_ids(part_text))
                generated = generated or _generated_sections(part_text)
        members: list[str] = []
        known = True
        queue = list(included)
        while queue:
            written = queue.pop(0)
            path = posixpath.normpath(posixpath.join(folder, written.split("#")[0]))
            if path.startswith("..") or path not in pages:
                # A file not in the corpus (a remote one, an HTML table the build writes): its
                # ids are not known here.
                known = False
                continue
            if path not in members:
                members.append(path)
                known = known and not pages[path].includes
                # What a part includes is read from the HTML page too (ReSpec resolves it
                # against the document).
                queue.extend(t for how, t in pages[path].included if how == "respec")
        if members:
            ids = tuple(sorted(_ids(text) | part_ids))
            known = known and not generated
            # Its parts' relative links are read from the HTML page, where ReSpec puts them.
            roots = (folder,)
            found.append(
                Assembly(host, "respec", tuple(members), known=known, roots=roots, ids=ids)
            )
    return found


def _ids(text: str) -> set[str]:
    return {next(g for g in m.groups() if g is not None) for m in HTML_ID.finditer(text)}


# Middleman (the Slate API documentation template): a site folder holds `config.rb` and its
# `source/`. A page (`source/index.html.md`) is assembled from partials: ERB's `<%= partial
# "includes/x.md" %>` in its text or in a partial's, and, where a layout calls
# `partial("includes/#{include}")`, the names its front matter lists under `includes:`.
# Middleman finds a partial from the file's folder or from `source/`, by its name with or
# without a leading `_` and with any template extension (middlemanapp.com, "Partials").
MIDDLEMAN_CONFIG = "config.rb"
MIDDLEMAN_SOURCE = "source"
MIDDLEMAN_PAGES = (".html.md", ".html.md.erb", ".html.markdown")
MIDDLEMAN_SUFFIXES = ("", ".md", ".md.erb", ".erb", ".html.md", ".html.md.erb", ".markdown")
ERB_PARTIAL = re.compile(r"""<%=?\s*partial\s*\(?\s*["']([^"'\n]+)["']""")
LAYOUT_INCLUDES = re.compile(r"""partial\s*\(?\s*["']([\w./-]*)#\{include\}["']""")
FRONT_MATTER_LIST = re.compile(r"^includes:[ \t]*\n((?:[ \t]*-[ \t]*[^\n]*\n)+)", re.MULTILINE)
MIDDLEMAN_PARTS = 2000  # partials read for one site at most


def middleman_documents(
    files: Collection[str], folders: Collection[str], text: Callable[[str], str | None]
) -> list[Assembly]:
    """The pages of the Middleman sites of the repository assembled from their partials, with
    every partial they reach (read through ``text``: a ``.erb`` one is no corpus page). A
    partial named by code (``#{...}``), or one that names no file, makes the document not
    ``known``. Its relative links are read from its page's folder (``roots``)."""
    found: list[Assembly] = []
    for config in sorted(f for f in files if posixpath.basename(f) == MIDDLEMAN_CONFIG):
        source = posixpath.join(posixpath.dirname(config), MIDDLEMAN_SOURCE)
        if source not in folders:
            continue
        layouts = [
            m.group(1)
            for f in sorted(files)
            if f.startswith(source + "/layouts/") and f.endswith(".erb")
            for m in LAYOUT_INCLUDES.finditer(text(f) or "")
        ]
        read = 0
        for page in sorted(files):
            name = posixpath.basename(page)
            if not page.startswith(source + "/") or not name.endswith(MIDDLEMAN_PAGES):
                continue
            if name.startswith("_") or "/layouts/" in page:
                continue
            own = text(page) or ""
            listed = FRONT_MATTER_LIST.search(own.split("\n---", 1)[0] + "\n")
            queue = [
                (page, prefix + item.strip().lstrip("-").strip().strip("'\""))
                for prefix in layouts[:1]
                for item in (listed.group(1).splitlines() if listed else ())
            ]
            members, known = [page], True
            queue += [(page, n) for n in ERB_PARTIAL.findall(own)]
            while queue and read < MIDDLEMAN_PARTS:
                at, written = queue.pop(0)
                if "#{" in written:
                    known = False  # a partial named by code: not known here
                    continue
                part = _middleman_partial(files, source, at, written)
                if part is None:
                    known = False
                    continue
                if part in members:
                    continue
                members.append(part)
                read += 1
                queue += [(part, n) for n in ERB_PARTIAL.findall(text(part) or "")]
            if len(members) > 1:
                root = posixpath.dirname(page)
                found.append(
                    Assembly(page, "middleman", tuple(members), known=known, roots=(root,))
                )
    return found


def _middleman_partial(files: Collection[str], source: str, at: str, written: str) -> str | None:
    """The file Middleman's ``partial "written"`` renders from the file ``at``."""
    for base in (posixpath.dirname(at), source):
        named = posixpath.normpath(posixpath.join(base, written))
        if named.startswith("../") or named == "..":
            continue
        folder, name = posixpath.split(named)
        for variant in (named, posixpath.join(folder, "_" + name)):
            for suffix in MIDDLEMAN_SUFFIXES:
                if variant + suffix in files:
                    return variant + suffix
    return None


def respec_slug(text: str) -> str:
    """ReSpec's id of a section whose heading reads ``text`` (``addId`` of ``core/utils``):
    lower-case, accents dropped, every run of characters JavaScript's ``\\W`` matches (not an
    ASCII letter, digit or ``_``) one ``-``, hyphens trimmed; ``x`` before an id that does not
    start with a letter; ``generatedID`` for nothing left."""
    value = _respec_words(text)
    if not value:
        return "generatedID"
    return value if re.match(r"[A-Za-z]", value) else f"x{value}"


def _respec_words(text: str) -> str:
    value = unicodedata.normalize("NFD", text.strip().lower())
    value = "".join(ch for ch in value if not "\u0300" <= ch <= "\u036f")
    return re.sub(r"[^A-Za-z0-9_]+", "-", value).strip("-")


def respec_example_ids(titles: Iterable[str]) -> list[str]:
    """The ids ReSpec gives examples (``core/examples``: ``addId(example, "example", title or
    number)``), in document order: ``example-`` and the title's words (``Sample credential
    D`` is ``#example-sample-credential-d``), or the example's number for one without a
    title (``#example-3``)."""
    found = []
    for number, title in enumerate(titles, start=1):
        found.append(f"example-{_respec_words(title) or number}")
    return found


def _respec_anchors(assembly: Assembly, pages: Mapping[str, Page]) -> set[str]:
    """The ids of a ReSpec document: its HTML page's, the explicit ids of its parts' headings and
    raw HTML, and each heading's section id, a repeat numbered from ``-0`` (``addId``)."""
    written: set[str] = set()  # every anchor the parts hold, GitHub's slugs among them
    github: set[str] = set()
    explicit_ids: set[str] = set()
    texts: list[str] = []
    for path in assembly.members:
        page = pages[path]
        written |= page.anchors
        plain: list[str] = []
        for heading in page.headings:
            explicit = HEADING_ID.search(heading)
            if explicit is not None:
                explicit_ids.add(next(g for g in explicit.groups() if g))
                continue
            texts.append(heading.strip())
            plain.append(heading)
        # GitHub's slugs of the headings, and their numbered repeats, are no ids in ReSpec's
        # output.
        github |= github_slugs(plain, len(page.headings))
    found = set(assembly.ids) | explicit_ids | (written - github)
    found.update(respec_example_ids(t for path in assembly.members for t in pages[path].examples))
    for text in texts:
        slug = respec_slug(text)
        unique, number = slug, 0
        while unique in found:
            unique, number = f"{slug}-{number}", number + 1
        found.add(unique)
    return found


def anchors(assembly: Assembly, pages: Mapping[str, Page]) -> set[str]:
    """The anchors of the assembled document: every part's, with the numbered repeats a heading
    repeated across parts gets in the whole (``#language-1``), and its copies'; a ReSpec
    document's, its own (``respec_slug``)."""
    if assembly.kind == "respec":
        return _respec_anchors(assembly, pages)
    found: set[str] = set()
    counts: Counter[str] = Counter()
    for path in (*assembly.members, *assembly.copies):
        page = pages.get(path)
        if page is None:
            continue
        found |= page.anchors
        if path in assembly.members:
            counts.update(_heading_slugs(page))
    for slug, count in counts.items():
        found.update(f"{slug}-{n}" for n in range(1, count))
    return found


def texts(assembly: Assembly, pages: Mapping[str, Page]) -> tuple[list[str], list[str]]:
    """The headings and labels (bold lead-ins) of the assembled document's parts."""
    headings: list[str] = []
    labels: list[str] = []
    for path in assembly.members:
        page = pages.get(path)
        if page is not None:
            headings.extend(page.headings)
            labels.extend(page.labels)
    return headings, labels


def uses_spec_md(manifests: Iterable[object]) -> bool:
    """Whether a ``package.json`` (its parsed data) builds with spec-md: a dependency on it, or a
    script that calls it. Read as data; nothing in it is run."""
    for data in manifests:
        if not isinstance(data, dict):
            continue
        for key in ("dependencies", "devDependencies"):
            listed = data.get(key)
            if isinstance(listed, dict) and "spec-md" in listed:
                return True
        scripts = data.get("scripts")
        if isinstance(scripts, dict) and any(
            isinstance(v, str) and re.search(r"(?<![\w-])spec-md(?![\w-])", v)
            for v in scripts.values()
        ):
            return True
    return False
