"""Which program renders each Markdown page of the repository, and the anchors it makes.

A link's fragment means what the renderer that serves the page makes of it (issue 45, item 4):
GitHub's own rendering of a repository, or a documentation site built from a folder of it.
The renderer is read from the repository's files, once per run, never by running anything (a
JavaScript configuration is code, ``conf.py`` is read as a name only):

- a site generator's configuration (``mkdocs.yml``, ``docusaurus.config.*``, Jekyll's
  ``_config.yml``, ``hugo.toml`` or a ``config.toml`` beside ``content/``, Mintlify's
  ``docs.json``/``mint.json``, VitePress, mdBook, Astro, Nextra, Gatsby, Fern's ``docs.yml``
  in a ``fern/`` folder or beside ``fern.config.json``, the FHIR IG Publisher's ``ig.ini`` or
  ``sushi-config.yaml`` beside ``input/pages/``, Elastic's docs-builder ``docset.yml``)
  renders the pages of its folder that it
  serves: MkDocs those of ``docs_dir``, Docusaurus those of ``docs/``,
  ``blog/``, ``src/pages/`` and ``versioned_docs/``, Hugo those of ``content/``, the IG
  Publisher those of ``input/pages/`` (and ``pagecontent/``, ``intro-notes/``), the others
  every page of the folder;
- Sphinx (a folder with ``conf.py``) renders its folder's pages through MyST; a MyST project is
  one whose ``conf.py`` names ``myst_parser`` or ``myst_nb`` (its ``extensions``, read as text,
  never run), or a MyST CLI (``myst.yml``) or Jupyter Book (``_toc.yml``) folder;
- a page outside them with YAML front matter (not an improvement proposal's preamble,
  ``eip:``/``fip:`` with ``status`` and ``author``, which a proposal process reads and
  GitHub shows), or under a Hugo section page (``_index.md``), is
  written for a site built elsewhere;
- every other page is rendered by GitHub alone.

Anchors differ by renderer. GitHub's heading slugs (``speclint.parsing.links.github_slug``)
are what Docusaurus (github-slugger), Hugo (Goldmark's ``github`` ids) and Jekyll (kramdown's
GFM input, the default) make too. MkDocs' ``toc`` extension slugifies otherwise: accents and
other non-ASCII letters dropped, runs of spaces and hyphens one ``-``, repeats ``_1``, ``_2``.
docs-builder slugifies headings its own way (Slugify: ``-`` and ``_`` kept, other
punctuation dropped, runs of ``-`` one), takes ``## Title [custom-id]`` as the heading's id
and ``$$$anchor-id$$$`` anywhere in the text as an anchor (elastic.github.io/docs-builder,
"Links"). GitHub matches a fragment to an anchor without regard to case (its pages' script does); a
browser, and so every site, compares them exactly.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from speclint.analyses.context import Context
from speclint.parsing.kinds import DocumentKind, folder_holding
from speclint.parsing.links import (
    FRONT_MATTER,
    docs_builder_slug,
    github_slugs,
    proposal_preamble,
    site_front_matter,
)

DOCS_BUILDER = "docs-builder"
# The configuration files that make a folder a documentation site's source, by generator.
SITE_KINDS = {
    "docs.json": "mintlify",
    "mint.json": "mintlify",
    "docusaurus.config.js": "docusaurus",
    "docusaurus.config.ts": "docusaurus",
    "docusaurus.config.mjs": "docusaurus",
    "docusaurus.config.cjs": "docusaurus",
    "mkdocs.yml": "mkdocs",
    "mkdocs.yaml": "mkdocs",
    "hugo.toml": "hugo",
    "hugo.yaml": "hugo",
    "hugo.yml": "hugo",
    "hugo.json": "hugo",
    ".vitepress/config.js": "vitepress",
    ".vitepress/config.ts": "vitepress",
    ".vitepress/config.mjs": "vitepress",
    ".vitepress/config.mts": "vitepress",
    "book.toml": "mdbook",
    "_config.yml": "jekyll",
    "astro.config.mjs": "astro",
    "astro.config.ts": "astro",
    "theme.config.tsx": "nextra",
    "theme.config.jsx": "nextra",
    "gatsby-config.js": "gatsby",
    "gatsby-config.ts": "gatsby",
    # Elastic's docs-builder (elastic.github.io/docs-builder, "Content set configuration").
    "docset.yml": DOCS_BUILDER,
    "_docset.yml": DOCS_BUILDER,
}
SITE_CONFIGS = tuple(SITE_KINDS)
# Hugo's older configuration names are too common to mean a site alone: with a `content/`
# folder beside them they do.
HUGO_LEGACY = ("config.toml", "config.yaml", "config.yml")
HUGO_CONFIGS = ("hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", *HUGO_LEGACY)
# Fern's `docs.yml` (buildwithfern.com, "Docs configuration"): a common name, so a Fern site only
# in Fern's own folder (`fern/`) or beside Fern's project file (`fern.config.json`).
FERN = "fern"
FERN_CONFIG = "docs.yml"
FERN_PROJECT = "fern.config.json"
# The FHIR IG Publisher (an HL7 implementation guide): its `ig.ini`, or SUSHI's
# `sushi-config.yaml`, beside an `input/` folder whose `input/pages/` it renders
# (build.fhir.org/ig/FHIR/ig-guidance, "Template and IG layout"). Its output is flat: pages,
# `input/images/` and every resource (as `Type-id.json`, `Type-id.html`) side by side.
FHIR_IG = "fhir-ig"
FHIR_IG_CONFIGS = ("ig.ini", "sushi-config.yaml")
FHIR_IG_PAGES = ("input/pages", "input/pagecontent", "input/intro-notes")
SPHINX_CONFIG = "conf.py"
# MyST's Sphinx extensions (myst-parser, MyST-NB), named in `conf.py`'s `extensions`, and the
# configurations of MyST's own builds (the MyST CLI, Jupyter Book).
MYST_EXTENSION = re.compile(r"""["'](?:myst_parser|myst_nb)["']""")
MYST_PROJECTS = ("myst.yml", "_toc.yml")
GITHUB = "github"
SPHINX = "sphinx"
# A page written for a site whose build is not in the repository: YAML front matter (GitHub
# routes nothing by it), or Hugo content (a section's `_index.md`) without Hugo's configuration.
ELSEWHERE = "elsewhere"
HUGO_SECTION = "_index.md"
# How each renderer is named to a reader.
NAMES = {
    GITHUB: "GitHub",
    "mkdocs": "MkDocs",
    "docusaurus": "Docusaurus",
    "jekyll": "Jekyll",
    "hugo": "Hugo",
    SPHINX: "Sphinx/MyST",
    ELSEWHERE: "a site built elsewhere",
    "mintlify": "Mintlify",
    "vitepress": "VitePress",
    "mdbook": "mdBook",
    "astro": "Astro",
    "nextra": "Nextra",
    "gatsby": "Gatsby",
    FERN: "Fern",
    FHIR_IG: "the FHIR IG Publisher",
    DOCS_BUILDER: "Elastic docs-builder",
}


# Docusaurus's content plugins and the folders they read by default (docusaurus.io, "Docs",
# "Blog", "Pages", "Versioning"): the pages of a Docusaurus site.
DOCUSAURUS_CONTENT = (
    ("docs", "docs"),
    ("blog", "blog"),
    ("pages", "src/pages"),
    ("versioned", "versioned_docs"),
)


def site_path(folder: str, *parts: str) -> str:
    """The repository path of ``parts`` from ``folder`` ("" for the root)."""
    joined = posixpath.normpath(posixpath.join(folder, *parts))
    return "" if joined == "." else joined


def served_folders(corpus: Context, kind: str, folder: str, config: str) -> tuple[str, ...]:
    """The folders whose pages the site of ``kind`` configured in ``folder`` (by ``config``)
    renders: MkDocs its ``docs_dir`` (``docs`` by default), Docusaurus its content plugins'
    (``DOCUSAURUS_CONTENT``), Hugo ``content/``; the other generators their whole folder."""
    if kind == "mkdocs":
        return (site_path(folder, str(_mkdocs_setting(corpus, config, "docs_dir") or "docs")),)
    if kind == "docusaurus":
        return tuple(site_path(folder, part) for _, part in DOCUSAURUS_CONTENT)
    if kind == "hugo":
        return (site_path(folder, "content"),)
    if kind == FHIR_IG:
        return tuple(site_path(folder, part) for part in FHIR_IG_PAGES)
    return (site_path(folder),)


def site_config(
    files: Collection[str], folders: Collection[str], folder: str
) -> tuple[str, str] | None:
    """The site configuration file in ``folder`` (a repository path) and the generator it
    configures, if any."""
    for name in SITE_CONFIGS:
        if posixpath.join(folder, name) in files:
            return posixpath.join(folder, name), SITE_KINDS[name]
    if posixpath.join(folder, FERN_CONFIG) in files and (
        posixpath.basename(folder) == FERN or posixpath.join(folder, FERN_PROJECT) in files
    ):
        return posixpath.join(folder, FERN_CONFIG), FERN
    if posixpath.join(folder, "input/pages") in folders:
        for name in FHIR_IG_CONFIGS:
            if posixpath.join(folder, name) in files:
                return posixpath.join(folder, name), FHIR_IG
    if posixpath.join(folder, "content") in folders:
        # Hugo: `config.toml`, or a configuration folder (`config/_default/hugo.toml`).
        for name in (*HUGO_LEGACY, *(f"config/_default/{n}" for n in HUGO_CONFIGS)):
            if posixpath.join(folder, name) in files:
                return posixpath.join(folder, name), "hugo"
    return None


@dataclass(frozen=True)
class Renderer:
    """The program that renders a page: its kind, and the folder and file that configure it
    (empty for GitHub)."""

    kind: str
    folder: str = ""
    config: str = ""
    # MkDocs only: whether its `toc` slugify keeps the headings' case (pymdownx's `*_cased`).
    cased: bool = False

    @property
    def name(self) -> str:
        return NAMES.get(self.kind, self.kind)

    @property
    def forgives_case(self) -> bool:
        """Whether a fragment that differs from an anchor only in case still reaches it: on
        GitHub's pages, whose script looks the fragment up without regard to case; a site is
        read by a browser, which compares ids exactly (HTML, "the indicated part of the
        document")."""
        return self.kind == GITHUB

    def anchors(
        self, headings: Iterable[str], anchors: set[str], inline: Iterable[str] = ()
    ) -> set[str]:
        """The anchors a page has under this renderer: ``anchors`` (GitHub's slugs and the
        page's explicit ids, read with the page), for MkDocs its own slugs, and for Elastic's
        docs-builder its slugs, its heading ids (``## Title [custom-id]``) and the page's
        ``inline`` anchors (``$$$anchor-id$$$``)."""
        if self.kind == DOCS_BUILDER:
            # GitHub's slugs of the headings are no ids there (`## Title [id]` is `#id`, not
            # `#title-id`); the page's explicit ids and HTML anchors are.
            listed = list(headings)
            github = github_slugs(listed, len(listed))
            own = {docs_builder_heading_id(h) for h in listed}
            return (anchors - github) | own | set(inline)
        if self.kind != "mkdocs":
            return anchors
        made = set(anchors)
        seen: Counter[str] = Counter()
        for heading in headings:
            slug = mkdocs_slug(heading, self.cased)
            made.add(slug if not seen[slug] else f"{slug}_{seen[slug]}")
            seen[slug] += 1
        return made


GITHUB_RENDERER = Renderer(GITHUB)
# A heading's explicit id (`{#x}`), which MkDocs' attr_list takes as the anchor.
_EXPLICIT_ID = re.compile(r"\s*\{[^}]*\}\s*$")


def mkdocs_slug(text: str, cased: bool = False) -> str:
    """Python-Markdown's ``toc`` slugify, MkDocs' default: NFKD, non-ASCII dropped, every
    character that is not a word character, a space or ``-`` dropped, lower-case, runs of
    spaces and hyphens one ``-``."""
    text = _EXPLICIT_ID.sub("", text)
    value = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip()
    if not cased:
        value = value.lower()
    return re.sub(r"[-\s]+", "-", value)


# docs-builder's heading id: a bracketed text ending the heading (its `MatchAnchor`), and an
# inline anchor (`$$$x$$$`), which is not part of the heading's slug.
DOCS_BUILDER_HEADING_ID = re.compile(r"\[[^\[]+\]\s*$")
DOCS_BUILDER_INLINE = re.compile(r"\$\$\$[^$]+\$\$\$")


def docs_builder_heading_id(heading: str) -> str:
    """The id docs-builder gives a heading: its ``[custom-id]`` when it ends with one (``##
    License management [manage-license]`` is ``#manage-license``), else its text's slug,
    inline anchors left out (docs-builder, "Links": heading anchors)."""
    custom = DOCS_BUILDER_HEADING_ID.search(heading)
    if custom is not None:
        return docs_builder_slug(custom.group(0).strip()[1:-1])
    return docs_builder_slug(DOCS_BUILDER_INLINE.sub("", heading))


class Renderers:
    """The renderer of every page of a corpus, from its file listing (``Corpus.tree``)."""

    def __init__(self, corpus: Context) -> None:
        self.corpus = corpus
        self.files = set(corpus.tree) | set(corpus.documents)
        self.folders: set[str] = {""}
        for path in self.files:
            parts = path.split("/")[:-1]
            for end in range(1, len(parts) + 1):
                self.folders.add("/".join(parts[:end]))
        self._sites: dict[str, str | None] = {}
        self._renderers: dict[str, Renderer] = {}
        self._configured: bool | None = None
        self._myst: dict[str, bool] = {}

    def site_of(self, path: str) -> str | None:
        """The nearest folder above ``path`` that holds a documentation site's configuration;
        None when no site is configured above it."""
        folder = posixpath.dirname(path)
        walked: list[str] = []
        found: str | None = None
        while True:
            if folder in self._sites:
                found = self._sites[folder]
                break
            walked.append(folder)
            if site_config(self.files, self.folders, folder) is not None:
                found = folder
                break
            if not folder:
                break
            folder = posixpath.dirname(folder)
        for seen in walked:
            self._sites[seen] = found
        return found

    def of(self, path: str) -> Renderer:
        """The renderer of the page at ``path``: the site that serves it, Sphinx, or GitHub."""
        if path in self._renderers:
            return self._renderers[path]
        found = GITHUB_RENDERER
        folder = self.site_of(path)
        sphinx = folder_holding(self.files, path, (SPHINX_CONFIG,))
        if sphinx is not None and (folder is None or len(sphinx) >= len(folder)):
            found = Renderer(SPHINX, sphinx, posixpath.join(sphinx, SPHINX_CONFIG))
        elif folder is not None:
            config, kind = site_config(self.files, self.folders, folder) or ("", "other")
            if self._serves(kind, folder, config, path):
                found = Renderer(kind, folder, config, cased=self._cased(kind, config))
        if found is GITHUB_RENDERER:
            found = self.elsewhere(path) or found
        self._renderers[path] = found
        return found

    def myst_project(self, path: str) -> str | None:
        """The folder of the MyST project whose build renders ``path``: the nearest Sphinx
        ``conf.py`` above it that loads MyST (``MYST_EXTENSION``, read as text, never run), or
        the nearest ``myst.yml``/``_toc.yml``; None when no MyST build renders it."""
        folder = folder_holding(self.files, path, (SPHINX_CONFIG, *MYST_PROJECTS))
        if folder is None:
            return None
        if any(posixpath.join(folder, name) in self.files for name in MYST_PROJECTS):
            return folder
        if folder not in self._myst:
            raw = self.corpus.read_file(posixpath.join(folder, SPHINX_CONFIG))
            text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else ""
            self._myst[folder] = MYST_EXTENSION.search(text) is not None
        return folder if self._myst[folder] else None

    def built_into_site(self, path: str) -> bool:
        """Whether the page at ``path`` may be published by a site's build: a site renders it
        (its own configuration, or its front matter), or the repository configures a
        documentation site somewhere, whose build may take its pages from anywhere in the
        repository (a script that copies them into the site's content folder)."""
        if self.of(path).kind != GITHUB:
            return True
        if self._configured is None:
            self._configured = any(
                site_config(self.files, self.folders, folder) is not None
                for folder in sorted(self.folders)
            )
        return self._configured

    def elsewhere(self, path: str) -> Renderer | None:
        """The site a page is written for whose build is not in the repository: its own YAML
        front matter says so (GitHub routes nothing by it; every generator reads it), or a Hugo
        section page (``_index.md``) in its folder or above. Asked of a page outside every
        site configured here."""
        document = self.corpus.documents.get(path)
        text = document.text if document is not None else None
        if text is not None and FRONT_MATTER.match(text):
            if not proposal_preamble(site_front_matter(text)):
                return Renderer(ELSEWHERE, "", "front matter")
            return None  # a proposal's preamble (`eip:`, `status:`): read on GitHub
        if posixpath.basename(path).lower().startswith("readme."):
            return None  # a folder's README: what GitHub shows of the folder
        section = folder_holding(self.files, path, (HUGO_SECTION,))
        if section is None:
            return None
        return Renderer(ELSEWHERE, section, posixpath.join(section, HUGO_SECTION))

    def _serves(self, kind: str, folder: str, config: str, path: str) -> bool:
        """Whether the site of ``kind`` configured in ``folder`` renders ``path``: a page of
        one of its ``served_folders``."""
        return any(
            not root or path.startswith(root + "/")
            for root in served_folders(self.corpus, kind, folder, config)
        )

    def _cased(self, kind: str, config: str) -> bool:
        if kind != "mkdocs":
            return False
        extensions = _mkdocs_setting(self.corpus, config, "markdown_extensions")
        return "cased" in repr(extensions)

    def tally(self, paths: Iterable[str]) -> list[tuple[Renderer, int]]:
        """How many of ``paths`` each renderer renders, GitHub first, then by folder."""
        counted = Counter(self.of(path) for path in paths)
        return sorted(
            counted.items(), key=lambda kv: (kv[0].kind != GITHUB, kv[0].folder, kv[0].kind)
        )


def _mkdocs_setting(corpus: Context, config: str, key: str) -> Any:
    document = corpus.documents.get(config)
    data = document.data if document is not None else None
    return data.get(key) if isinstance(data, dict) else None


def renderers(corpus: Context) -> Renderers:
    """The corpus's renderers, made once per run."""
    found = corpus.memo.get("renderers")
    if not isinstance(found, Renderers):
        found = corpus.memo["renderers"] = Renderers(corpus)
    return found


def summary(corpus: Context) -> str:
    """One line: which renderer renders how many Markdown pages (``speclint files``); "" when
    the corpus has none."""
    pages = [d.path for d in corpus.of_kind(DocumentKind.MARKDOWN)]
    if not pages:
        return ""
    parts = [
        f"{renderer.name}" + (f" ({renderer.config})" if renderer.config else "") + f": {count}"
        for renderer, count in renderers(corpus).tally(pages)
    ]
    return "Markdown pages rendered by " + ", ".join(parts)
