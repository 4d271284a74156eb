"""An index page that lists a file that does not exist, or misses one that does.

What it does
    Finds the *index pages* of the repository (tables and lists of one folder's files, such as
    ``schemas/README.md``'s table of schemas) and compares each with the folder; an *entry* (row,
    item) lists the file it names first (link, code span or bare cell). A table, list or section is
    taken for the index of folder ``F`` and suffix ``S`` only on evidence: 3 entries or more, 80 %
    naming files of ``F`` ending with ``S``, naming 60 % of those files (``coverage``); more off a
    folder's index page (``README.md``...) or for a list not said complete ("All schemas"). "See
    also", "Related", "Further reading" sections index nothing. Reported, as warnings:

    - an entry whose file does not exist, at the entry (a *link* to a missing file is
      ``broken-link``'s, unless ``links`` is set);
    - each file of ``F`` ending with ``S`` the page names nowhere, at the table, the file related;
    - a raw space in an entry's link (``[A b](A b.md)``), no link in CommonMark: write ``<A b.md>``.

Why is this bad?
    Readers and publishing scripts find a folder's files through its index: a schema missing from it
    is invisible to everyone browsing the spec; an entry for a renamed file leads nowhere.

Example
    ``schemas/README.md``; ``schemas/`` holds ``run``, ``event``, ``snapshot.schema.json``::

        | Schema | Describes |
        | --- | --- |
        | `run.schema.json` | a run |
        | `event.schema.json` | a run event |
        | `cancel.schema.json` | a cancel request |

    FAIL: ``warning [index-drift] ... lists `cancel.schema.json`, which does not exist ...``, and
    one for ``snapshot.schema.json``, not listed.

Use instead
    A row for ``snapshot.schema.json``, and none for ``cancel.schema.json``. PASS.

Options
    ``ignore`` (globs, default none): files never required in an index. ``pages`` (default none):
    declared index pages, page to glob (``"schemas/README.md" = "schemas/**/*.schema.json"``): each
    file the glob matches must be named there, each entry it would match must exist. ``infer``
    (default ``true``): ``false`` checks ``pages`` only. ``links`` (default ``false``): also report
    entries linking a missing file. ``coverage`` (default ``0.6``): the share of its folder's files
    an inferred index must name.

Limitations
    Never required: index-like pages (``README.md``...), catch-all pages (``misc.md``), a subpage
    its listed page links, files discovery skips. A raw space on a MkDocs page is a link: not
    reported.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import unquote, urlsplit

from speclint.analyses.context import Context
from speclint.analyses.units import check_by_unit
from speclint.common.findings import Finding, Location, Member, Severity
from speclint.model.corpus import Document, glob_to_regex
from speclint.parsing.kinds import MARKDOWN_SUFFIXES, kind_for_path, under_folder_holding
from speclint.parsing.prose import Heading, ListItem, ProseDocument, Table, TableCell

ID = "index-drift"
SEVERITY = Severity.WARNING

MIN_ENTRIES = 3
SHARE = 0.8  # of the entries that name a file of the folder and suffix
COVERAGE = 0.6  # of the folder's files that the entries name
SELECTION_COVERAGE = 0.8  # for a list in one section of a page that does not say it is complete
OTHER_PAGE_ENTRIES = 5  # a page that is not a folder's index page needs more evidence
OTHER_PAGE_COVERAGE = 0.9
INDEX_PAGES = frozenset({"readme", "index", "_index", "summary", "contents", "toc"})
# A page named for what is left over ("Other servers": the ones no longer maintained) holds
# what the entries do not; a list of the named ones is whole without it.
LEFTOVER_PAGES = frozenset({"other", "others", "misc", "miscellaneous"})
_NOT_AN_INDEX = re.compile(r"\b(see also|related|references|further reading)\b", re.IGNORECASE)
# A heading or a sentence that says the list is the folder's whole content, or a comment that
# says a tool wrote it.
_COMPLETE = re.compile(
    r"\b(?:all|every|complete|full list|index|contents|catalog(?:ue)?|"
    r"the following (?:files|pages|documents|schemas))\b",
    re.IGNORECASE,
)
_GENERATED = re.compile(r"\b(?:auto-?generated|generated|do not edit)\b", re.IGNORECASE)
# A file name as a code span or a plain cell writes it: folders, a name, an extension of letters.
_FILE = re.compile(
    r"^(?:\./|\.\./|/)*(?:[\w@+-][\w@.+-]*/)*[\w@+-][\w@.+-]*\.[A-Za-z][A-Za-z0-9]{0,9}$"
)
# An inline link (not an image): the destination (`<a b.md>` may hold spaces), without a title.
_LINK = re.compile(
    r"(?<!!)\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(?:<([^<>\n]+)>|([^()\s<>]+))(?:\s+[\"'(][^)]*)?\s*\)"
)
# A link whose target holds a raw space: CommonMark makes no link of it (the target must be
# written `<a b.md>` or `a%20b.md`), so the page shows the brackets as text.
_SPACED_LINK = re.compile(
    r"(?<!!)\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*([^()<>\"'\s][^()<>\"']*?\s[^()<>\"']*?[^()<>\"'\s])\s*\)"
)
_CODE = re.compile(r"(`+)(.+?)\1")
_TOKEN = re.compile(r"[\w@.+%-]+")


@dataclass(frozen=True)
class Named:
    """A file an entry names: ``path`` from the root, as ``written``, and where."""

    path: str
    written: str
    line: int
    column: int
    linked: bool
    unrendered: bool = False  # written as a link whose raw space CommonMark rejects


@dataclass(frozen=True)
class Unit:
    """A table, a list, or a section: its entries (each the files one row or item names)."""

    line: int
    heading: Heading | None
    entries: tuple[tuple[Named, ...], ...]
    what: str  # "table", "list" or "section"


@dataclass(frozen=True)
class Index:
    unit: Unit
    folder: str  # the folder it lists ("" for the root)
    suffix: str  # the shared file suffix; for a declared page, its glob
    folders: frozenset[str]  # the folder and the subfolders its entries name (declared: none)
    entries: tuple[Named, ...]  # the file each entry names first, when in the folder(s)
    named: tuple[Named, ...]  # every file the entries name in the folder(s) with the suffix
    expected: frozenset[str]  # the files it must list


# MkDocs' configuration: the pages under it are rendered by Python-Markdown.
MKDOCS_CONFIGS = ("mkdocs.yml", "mkdocs.yaml")


class Files:
    """The repository's files, as the rule may know them."""

    def __init__(self, corpus: Context, ignore: Iterable[str]) -> None:
        self.present = frozenset(corpus.tree) | frozenset(corpus.documents)
        self.read = frozenset(corpus.documents)
        self.folders = _ancestors(self.present)
        self.ignored = [glob_to_regex(glob) for glob in ignore]
        self.by_folder: dict[str, list[str]] = {}
        for path in sorted(self.present):
            self.by_folder.setdefault(posixpath.dirname(path), []).append(path)

    def exists(self, path: str) -> bool:
        return path in self.present

    def python_markdown(self, page: str) -> bool:
        """Whether ``page`` is built by MkDocs (an ``mkdocs.yml`` in a folder above it), whose
        Python-Markdown takes a link target with a space as a link, where CommonMark does not."""
        return under_folder_holding(self.present, page, MKDOCS_CONFIGS)

    def required(self, folders: Iterable[str], suffix: str, page: str) -> frozenset[str]:
        found: set[str] = set()
        for folder in folders:
            for path in self.by_folder.get(folder, ()):
                name = posixpath.basename(path)
                if not name.endswith(suffix) or len(name) <= len(suffix) or path == page:
                    continue
                if _is_index_page(name) or any(r.match(path) for r in self.ignored):
                    continue
                if _is_leftover_page(name):
                    continue
                # A JSON/YAML/Markdown file discovery did not read is git-ignored, excluded or a
                # test fixture: not the folder's content.
                if kind_for_path(path) is not None and path not in self.read:
                    continue
                found.add(path)
        return frozenset(found)


READS = "page"  # each page against the file listing (speclint.analyses.units)


def shared(corpus: Context) -> None:
    """No JSON/YAML document is read: a schema edit keeps every page's result."""
    return None


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, combine)


_NAMES_FILES = re.compile(r", which names \d+ files:")


def unit_inputs(corpus: Context, document: Document) -> list[str]:
    """The other pages one page's check reads: those of the folders it links into that may have
    a subpage (another file named after them, ``_subpage``), whose links it reads."""
    folder = posixpath.dirname(document.path)
    folders = {folder}
    for written in _link_paths(document.text or ""):
        if not written.startswith("/"):
            folders.add(posixpath.dirname(posixpath.normpath(posixpath.join(folder, written))))
    names = corpus.memo.get(f"{ID}:names")
    if names is None:  # the file names of each folder, listed once per run
        names = corpus.memo[f"{ID}:names"] = {}
        for path in sorted(set(corpus.tree) | set(corpus.documents)):
            names.setdefault(posixpath.dirname(path), []).append(posixpath.basename(path))
    return sorted(
        path
        for path in corpus.documents
        if path != document.path
        and posixpath.dirname(path) in folders
        and path.endswith(MARKDOWN_SUFFIXES)
        and any(_names_subpage(name, path) for name in names.get(posixpath.dirname(path), ()))
    )


def _names_subpage(name: str, page: str) -> bool:
    """Whether file name ``name`` is a subpage's of ``page``: its name extended
    (``purchase-flow.md`` of ``purchase.md``)."""
    own = posixpath.splitext(posixpath.basename(page))[0]
    stem = posixpath.splitext(posixpath.basename(name))[0]
    return any(stem.startswith(own + join) for join in SUBPAGE_JOINS)


def _link_paths(text: str) -> Iterator[str]:
    """The paths (unquoted, without query or fragment) of the inline links of ``text``."""
    for link in _LINK.finditer(text):
        written = unquote(urlsplit(link.group(1) or link.group(2)).path)
        if written:
            yield written


def combine(
    corpus: Context, results: Mapping[str, list[Finding]], options: Mapping[str, Any]
) -> Iterator[Finding]:
    """Each page's findings, in document order, where a file missing from one menu that several
    pages repeat (the same list at the top of every page of a folder) is one finding: the
    first page's, the others its members and related locations."""
    groups: dict[tuple[str | None, str], list[Finding]] = {}
    for found in results.values():
        for finding in found:
            groups.setdefault((finding.key, finding.message), []).append(finding)
    for found in results.values():
        for finding in found:
            group = groups[(finding.key, finding.message)]  # every finding is in its group
            if group[0] is not finding:
                continue
            if len(group) == 1 or not (finding.key or "").startswith("missing:"):
                yield from group
                continue
            pages = [
                Location(
                    other.location.path,
                    other.location.line,
                    other.location.column,
                    pointer=other.location.pointer,
                    note="the same list, repeated on this page",
                )
                for other in group
            ]
            yield replace(
                finding,
                message=_NAMES_FILES.sub(f" that {len(group)} pages repeat:", finding.message, 1),
                related=(*finding.related, *pages[1:]),
                members=tuple(Member(place, finding.key) for place in pages),
            )


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    files = corpus.memo.get(ID)
    if files is None:  # the listing, read once per run for every page
        ignore = options.get("ignore", ())
        files = corpus.memo[ID] = Files(
            corpus, [ignore] if isinstance(ignore, str) else [str(g) for g in ignore]
        )
    report_links = bool(options.get("links", False))
    coverage = _fraction(options.get("coverage", COVERAGE))
    declared = options.get("pages", {})
    pages = (
        {str(page): str(glob) for page, glob in declared.items()}
        if isinstance(declared, Mapping)
        else {}
    )
    if document.prose is None:
        return []
    units = _units(document, document.prose, files)
    if document.path in pages:
        indexes = _declared(document, units, files, pages[document.path])
    elif bool(options.get("infer", True)):
        indexes = _inferred(document, units, files, coverage)
    else:
        return []
    return list(_findings(document, indexes, files, report_links, corpus.documents))


# --- what a page lists ------------------------------------------------------------------------


def _units(document: Document, prose: ProseDocument, files: Files) -> list[Unit]:
    """Every table, every run of list items under one heading, and every section: a heading
    with its subsections (a document map split by topic), the page included, made of the tables
    and lists in it that name a file in nearly every entry (a list of steps is no part of it)."""
    folder = posixpath.dirname(document.path)
    headings = {h.line: h for h in prose.headings}
    units: list[Unit] = []
    for table in prose.tables:
        entries = _table_entries(document, table, folder, files)
        units.append(Unit(table.line, table.heading, entries, "table"))
    lists: dict[int, list[tuple[int, tuple[Named, ...]]]] = {}
    for item in prose.list_items:
        key = item.heading.line if item.heading else 0
        lists.setdefault(key, []).append((item.line, _item_entry(document, item, folder, files)))
    for key, items in sorted(lists.items()):
        units.append(Unit(items[0][0], headings.get(key), tuple(e for _, e in items), "list"))
    parents = _parents(prose.headings)
    members: dict[int, list[Unit]] = {}
    for unit in units:
        if not _lists_files(unit) or _see_also(unit):
            continue
        probe: int | None = unit.heading.line if unit.heading else 0
        while probe is not None:
            members.setdefault(probe, []).append(unit)
            probe = parents.get(probe)
    for key, parts in sorted(members.items()):
        if len(parts) < 2:
            continue  # the table or list itself
        if all(len(part.entries) == 1 for part in parts):
            continue  # one file per heading: a tour of some files (examples), not a list
        parts.sort(key=lambda u: u.line)
        entries = tuple(e for part in parts for e in part.entries)
        units.append(Unit(parts[0].line, headings.get(key), entries, "section"))
    return units


def _lists_files(unit: Unit) -> bool:
    return bool(unit.entries) and sum(1 for e in unit.entries if e) >= SHARE * len(unit.entries)


def _see_also(unit: Unit) -> bool:
    """Under a "See also" heading: a few files, chosen, not a folder's list."""
    return unit.heading is not None and any(_NOT_AN_INDEX.search(t) for t in unit.heading.path)


def _parents(headings: tuple[Heading, ...]) -> dict[int, int | None]:
    """Heading line -> the line of the heading it sits under (0: the page)."""
    parents: dict[int, int | None] = {0: None}
    stack: list[Heading] = []
    for heading in headings:
        while stack and stack[-1].level >= heading.level:
            stack.pop()
        parents[heading.line] = stack[-1].line if stack else 0
        stack.append(heading)
    return parents


def _table_entries(
    document: Document, table: Table, folder: str, files: Files
) -> tuple[tuple[Named, ...], ...]:
    """Each row's files, from the column that names files in the most rows."""
    if not table.rows:
        return ()
    width = max(len(row) for row in table.rows)
    named = [
        [_cell_files(document, row[c], folder, files) if c < len(row) else () for row in table.rows]
        for c in range(width)
    ]
    best = max(range(width), key=lambda c: (sum(1 for cell in named[c] if cell), -c))
    return tuple(named[best])


def _cell_files(
    document: Document, cell: TableCell, folder: str, files: Files
) -> tuple[Named, ...]:
    source = document.lines[cell.line - 1] if 0 < cell.line <= len(document.lines) else ""
    found = _links(cell.text, cell.line, source, folder, files)
    for code in cell.inline_code:
        _add(found, _resolve(code.text, folder, files, code.line, code.column, linked=False))
    if not found:
        plain = cell.text.strip().strip("*_").strip()
        at = source.find(plain) + 1 if plain else 0
        _add(found, _resolve(plain, folder, files, cell.line, max(at, 1), linked=False))
    return tuple(found)


def _item_entry(document: Document, item: ListItem, folder: str, files: Files) -> tuple[Named, ...]:
    found: list[Named] = []
    for offset, text in enumerate(item.text.split("\n")):
        line = item.line + offset
        # Columns count on the page's line, which has the item's marker and indent too.
        source = document.lines[line - 1] if 0 < line <= len(document.lines) else text
        found.extend(_links(text, line, source, folder, files))
    for code in item.inline_code:
        _add(found, _resolve(code.text, folder, files, code.line, code.column, linked=False))
    return tuple(sorted(found, key=lambda n: (n.line, n.column)))


def _links(text: str, line: int, source: str, folder: str, files: Files) -> list[Named]:
    # Code spans are blanked first: a `[x](y)` inside one is an example, not a link.
    blanked = _CODE.sub(lambda m: " " * len(m.group(0)), text)
    found: list[Named] = []
    for match in _LINK.finditer(blanked):
        target = match.group(1) or match.group(2)
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or not parts.path:
            continue  # a URL, a mail address or a `#anchor` of the page
        at = source.find(target)
        column = at + 1 if at >= 0 else 1
        # A link's target may hold a space, written `<a b.md>` or `a%20b.md`.
        path = _routed(unquote(parts.path), folder, files)
        _add(found, _resolve(path, folder, files, line, column, linked=True, spaced=True))
    for match in _SPACED_LINK.finditer(blanked):
        target = match.group(1)
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or not parts.path:
            continue
        at = source.find(target)
        column = at + 1 if at >= 0 else 1
        named = _resolve(
            unquote(parts.path), folder, files, line, column, linked=False, spaced=True
        )
        # Only a file that is there: brackets around words with a space are not always a link.
        if named is not None and files.exists(named.path):
            _add(found, replace(named, written=target, unrendered=True))
    return found


# What a documentation site serves at a route without an extension (Docusaurus, MkDocs...).
ROUTE_SUFFIXES = (".md", ".mdx")


def _routed(written: str, folder: str, files: Files) -> str:
    """A link's target, with the page's extension when it is a site's route to a page beside
    it (``../specification/Credentials`` for ``Credentials.md``): the page it names."""
    if not written or posixpath.splitext(posixpath.basename(written.rstrip("/")))[1]:
        return written
    base = "" if written.startswith("/") else folder
    for suffix in ROUTE_SUFFIXES:
        page = posixpath.normpath(posixpath.join(base, written.lstrip("/").rstrip("/") + suffix))
        if files.exists(page):
            return written.rstrip("/") + suffix
    return written


def _add(found: list[Named], named: Named | None) -> None:
    """Add a file once per entry; a code span that is a link's text keeps the link's flag."""
    if named is None:
        return
    for index, other in enumerate(found):
        if other.path == named.path:
            if (named.linked and not other.linked) or (other.unrendered and not named.unrendered):
                found[index] = named
            return
    found.append(named)


def _resolve(
    written: str,
    folder: str,
    files: Files,
    line: int,
    column: int,
    *,
    linked: bool,
    spaced: bool = False,
) -> Named | None:
    """The root-relative file a name means: from the page's folder, then from the root (code
    spans often write ``schemas/x.json`` on any page); None when it is no file name or leaves
    the root."""
    written = written.strip()
    # A name with spaces is a file name only as a link's target (`spaced`): in a code span or
    # a plain cell it is words.
    shape = written.replace(" ", "_") if spaced else written
    if not written or "://" in written or not _FILE.match(shape):
        return None
    candidates: list[str] = []
    if written.startswith("/"):
        candidates.append(posixpath.normpath(written.lstrip("/")))
    else:
        candidates.append(posixpath.normpath(posixpath.join(folder, written)))
        if not written.startswith(("./", "../")) and folder:
            candidates.append(posixpath.normpath(written))
    candidates = [c for c in candidates if c != ".." and not c.startswith(("../", "/"))]
    if not candidates:
        return None
    chosen = next((c for c in candidates if files.exists(c)), None)
    if chosen is None:
        chosen = next(
            (c for c in candidates if posixpath.dirname(c) in files.folders), candidates[0]
        )
    return Named(chosen, written, line, column, linked)


def _ancestors(paths: Iterable[str]) -> frozenset[str]:
    found: set[str] = {""}
    for path in paths:
        folder = posixpath.dirname(path)
        while folder and folder not in found:
            found.add(folder)
            folder = posixpath.dirname(folder)
    return frozenset(found)


# --- which lists are indexes ------------------------------------------------------------------


def _inferred(document: Document, units: list[Unit], files: Files, coverage: float) -> list[Index]:
    index_page = _is_index_page(posixpath.basename(document.path))
    prose = document.prose
    parents = _parents(prose.headings) if prose else {}
    best: dict[tuple[str, str], Index] = {}
    for unit in units:
        if _see_also(unit):
            continue
        found = _index_of(document, unit, files)
        if found is None:
            continue
        # The root holds a project's community files (LICENSE.md, CHANGELOG.md...): a README's
        # list of some of them needs the stronger evidence too.
        strict = not index_page or not found.folder
        least_entries = OTHER_PAGE_ENTRIES if strict else MIN_ENTRIES
        if strict:
            least_coverage = max(coverage, OTHER_PAGE_COVERAGE)
        elif prose is None or _meant_complete(unit, prose, parents):
            least_coverage = coverage
        else:  # a list in one section of the page may be a selection: it must name nearly all
            least_coverage = max(coverage, SELECTION_COVERAGE)
        listed = {n.path for n in found.named} & found.expected
        if len({n.path for n in found.entries}) < least_entries:
            continue
        if len(listed) < least_coverage * len(found.expected):
            continue
        key = (found.folder, found.suffix)
        held = best.get(key)
        if held is None or _rank(found) > _rank(held):
            best[key] = found
    return [best[key] for key in sorted(best)]


def _meant_complete(unit: Unit, prose: ProseDocument, parents: Mapping[int, int | None]) -> bool:
    """Whether a list shows that it means to name every file: it is the page's own (under the
    page's title, not in one of its sections), its heading or the sentence before it says so
    ("Contents", "All schemas", "the following files"), or a comment before it says a tool
    wrote it. A "Specifications" list in one section of a README may pick some pages."""
    heading = unit.heading
    if heading is None or not parents.get(heading.line):
        return True
    if _COMPLETE.search(heading.text):
        return True
    before = [
        p
        for p in prose.paragraphs
        if p.heading == heading and not p.in_list_item and p.end_line < unit.line
    ]
    if before and _COMPLETE.search(max(before, key=lambda p: p.line).plain):
        return True
    return any(
        c.heading == heading and c.end_line < unit.line and _GENERATED.search(c.text)
        for c in prose.comments
    )


def _rank(index: Index) -> tuple[int, int, int, int]:
    """Prefer the unit that names the most of the folder's files, then the smallest (a table
    rather than the section around it), then the one under the deepest heading (the section
    rather than the page around it), then the first."""
    listed = {n.path for n in index.named} & index.expected
    level = index.unit.heading.level if index.unit.heading else 0
    return (len(listed), -len(index.unit.entries), level, -index.unit.line)


def _index_of(document: Document, unit: Unit, files: Files) -> Index | None:
    """The folder and suffix that 80 % of the unit's entries name first, with the files it must
    list; None when there are none."""
    firsts = [entry[0] for entry in unit.entries if entry]
    if len(firsts) < MIN_ENTRIES or len(firsts) < SHARE * len(unit.entries):
        return None
    extensions = Counter(posixpath.splitext(n.path)[1] for n in firsts)
    extension = max(extensions.items(), key=lambda kv: (kv[1], kv[0]))[0]
    same = [n for n in firsts if n.path.endswith(extension)]
    folders = Counter(posixpath.dirname(n.path) for n in same)
    folder = max(folders.items(), key=lambda kv: (kv[1], -kv[0].count("/"), kv[0]))[0]
    suffix = _shared_suffix(
        [posixpath.basename(n.path) for n in same if _within(n.path, folder)], extension
    )
    members = tuple(n for n in firsts if _within(n.path, folder) and n.path.endswith(suffix))
    if len(members) < SHARE * len(unit.entries):
        return None
    every = (n for entry in unit.entries for n in entry)
    named = tuple(n for n in every if _within(n.path, folder) and n.path.endswith(suffix))
    folders_named = frozenset({folder} | {posixpath.dirname(n.path) for n in members})
    expected = files.required(folders_named, suffix, document.path)
    if not expected:
        return None
    return Index(unit, folder, suffix, folders_named, members, named, expected)


def _within(path: str, folder: str) -> bool:
    return not folder or path.startswith(folder + "/")


def _shared_suffix(names: list[str], extension: str) -> str:
    """The longest dotted suffix (``.schema.json``) shared by 80 % of the names, shorter than
    each name that has it."""
    counts: Counter[str] = Counter()
    for name in names:
        parts = name.split(".")
        for size in range(2, len(parts)):  # never the whole name
            counts["." + ".".join(parts[-size:])] += 1
    shared = [s for s, n in counts.items() if n >= SHARE * len(names)]
    return max(shared, key=lambda s: (len(s), s)) if shared else extension


def _declared(document: Document, units: list[Unit], files: Files, glob: str) -> list[Index]:
    """The index a ``pages`` entry declares: every required file the glob matches."""
    pattern = glob_to_regex(glob)
    expected = frozenset(
        path
        for path in files.required(sorted(files.by_folder), "", document.path)
        if pattern.match(path)
    )
    entries: dict[tuple[int, int], Named] = {}
    named: dict[tuple[int, int], Named] = {}
    location = Unit(1, None, (), "page")
    most = 0
    for unit in units:
        if unit.what == "section":
            continue
        firsts = [e[0] for e in unit.entries if e and pattern.match(e[0].path)]
        entries.update(((n.line, n.column), n) for n in firsts)
        named.update(
            ((n.line, n.column), n) for e in unit.entries for n in e if pattern.match(n.path)
        )
        if len(firsts) > most:
            location, most = unit, len(firsts)
    return [
        Index(
            location,
            "",
            glob,
            frozenset(),
            tuple(entries[k] for k in sorted(entries)),
            tuple(named[k] for k in sorted(named)),
            expected,
        )
    ]


# --- findings ---------------------------------------------------------------------------------


def _findings(
    document: Document,
    indexes: list[Index],
    files: Files,
    report_links: bool,
    corpus_pages: Mapping[str, Document],
) -> Iterator[Finding]:
    if not indexes:
        return
    mentioned = _mentions(document)
    reported: set[str] = set()
    for index in indexes:
        what = _describe(index)
        anchor = f"#{index.unit.heading.anchor}" if index.unit.heading else ""
        for named in index.entries:
            if files.exists(named.path) or f"entry:{named.path}" in reported:
                continue
            if named.linked and not report_links:
                continue  # a broken link: the `broken-link` rule's
            reported.add(f"entry:{named.path}")
            yield Finding(
                ID,
                SEVERITY,
                f"{what} lists `{named.written}`, which does not exist (`{named.path}`): remove "
                "the entry, correct the name, or add the file",
                Location(document.path, named.line, named.column, pointer=anchor),
                key=f"absent:{named.path}",
            )
        rendered = {n.path for n in index.named if not n.unrendered}
        for named in index.named:
            if not named.unrendered or named.path in rendered or f"file:{named.path}" in reported:
                continue
            if files.python_markdown(document.path):
                continue  # MkDocs renders the target with its space as a link
            # The list does name the file; what is wrong is its link, which no renderer makes.
            # `broken-link` reads links as CommonMark does and never sees this one.
            reported.add(f"file:{named.path}")
            yield Finding(
                ID,
                SEVERITY,
                f"{what} names `{named.path}` in a link whose target `{named.written}` has a "
                "space, so the entry renders as text, not a link: write the target "
                f"`<{named.written}>` or `{named.written.replace(' ', '%20')}`",
                Location(document.path, named.line, named.column, pointer=anchor),
                related=(Location(named.path, 1, 1, note="the file the entry means to link"),),
                key=f"unlinked:{named.path}",
            )
        listed = {n.path for n in index.named}
        separator = _listed_separator(listed & index.expected, index.suffix)
        for path in sorted(index.expected - listed):
            if posixpath.basename(path) in mentioned or f"file:{path}" in reported:
                continue
            if separator and _separator(path, index.suffix) not in (None, separator):
                continue  # named in another shape than every listed one: another kind of page
            if _subpage(corpus_pages, path, listed):
                continue  # reached through the listed page it belongs to
            reported.add(f"file:{path}")
            yield Finding(
                ID,
                SEVERITY,
                f"`{path}` is not listed in {what}, which names {len(listed)} files: add an "
                "entry for it, or leave it out with the rule's `ignore` option",
                Location(document.path, index.unit.line, 1, pointer=anchor),
                related=(Location(path, 1, 1, note="the file the index does not list"),),
                key=f"missing:{path}",
            )


# How a subpage's name extends its page's (`purchase-flow.md` of `purchase.md`).
SUBPAGE_JOINS = ("-", "_", ".")


def _subpage(pages: Mapping[str, Document], path: str, listed: Iterable[str]) -> bool:
    """Whether ``path`` is a subpage of a listed page beside it: its name is that page's name
    extended (``purchase-flow.md`` of ``purchase.md``) and that page links it. A reader reaches
    it through its page, so the list of the folder's pages need not name it."""
    folder = posixpath.dirname(path)
    for page in sorted(listed):
        if posixpath.dirname(page) != folder or page == path or page not in pages:
            continue
        if not _names_subpage(path, page):
            continue
        for written in _link_paths(pages[page].text or ""):
            if posixpath.normpath(posixpath.join(folder, written)) == path:
                return True
    return False


# How a file's name joins its words: the shape of one kind of page (`car-share.md`) that
# another kind beside it may not share (`vehicle_states.md`).
WORD_SEPARATORS = ("-", "_")


def _separator(path: str, suffix: str) -> str | None:
    """The one word separator ``path``'s name uses, without ``suffix``; None for a one-word
    name or one that mixes them."""
    name = posixpath.basename(path).removesuffix(suffix)
    used = [sep for sep in WORD_SEPARATORS if sep in name]
    return used[0] if len(used) == 1 else None


def _listed_separator(listed: set[str], suffix: str) -> str | None:
    """The separator every listed name of several words uses, where at least two do and none
    uses another: the list's entries share a shape. None when they do not."""
    used = [_separator(path, suffix) for path in sorted(listed)]
    words = {sep for sep in used if sep is not None}
    mixed = any(all(sep in posixpath.basename(path) for sep in WORD_SEPARATORS) for path in listed)
    if len(words) != 1 or mixed or sum(sep is not None for sep in used) < 2:
        return None
    return words.pop()


def _describe(index: Index) -> str:
    if not index.folders:  # declared by the `pages` option
        return f"the index of `{index.suffix}` (option `pages`)"
    where = f"`{index.folder}/`" if index.folder else "the repository root"
    deeper = sorted(f for f in index.folders if f != index.folder)
    also = f" and {', '.join(f'`{f}/`' for f in deeper)}" if deeper else ""
    return f"the {index.unit.what} indexing {where}{also} (`*{index.suffix}`)"


def _mentions(document: Document) -> set[str]:
    """Every file name the page writes anywhere (links, code spans, plain text): a file the page
    mentions at all is not reported as unlisted."""
    return {token.rstrip(".") for token in _TOKEN.findall(unquote(document.text or ""))}


def _fraction(value: Any) -> float:
    """The ``coverage`` option: a share from 0 to 1 (a malformed value keeps the default)."""
    try:
        share = float(value)
    except (TypeError, ValueError):
        return COVERAGE
    return share if 0.0 <= share <= 1.0 else COVERAGE


def _is_leftover_page(name: str) -> bool:
    stem, extension = posixpath.splitext(name.lower())
    return stem in LEFTOVER_PAGES and extension in MARKDOWN_SUFFIXES


def _is_index_page(name: str) -> bool:
    stem, extension = posixpath.splitext(name.lower())
    return stem in INDEX_PAGES and extension in MARKDOWN_SUFFIXES
