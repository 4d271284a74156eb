"""What a Markdown page links to, and the anchors and sections it offers.

A pure function of a page's text, read from the same markdown-it token stream as the prose model
(``speclint.parsing.prose``) when a page is parsed, and kept with it in the parse cache: the
``broken-link`` rule reads it, and a page is parsed once per change, not once per reader.

- links: inline and reference-style links (checked at their ``[ref]: x`` definition), images,
  raw HTML ``<a href>`` / ``<img src>``, each with its line and column as written (not the
  HTML inside a JavaScript string of a JSX expression, ``{{__html: "..."}}``: the page injects
  it as written when it runs; only its ids are read, as anchors);
- anchors: GitHub's heading slugs (both numbering schemes of repeated headings), explicit
  ``{#id}`` / ``{id="id"}`` ids, HTML ``id`` / ``<a name>`` anchors and MDX component titles;
- ``file.md §Section`` references outside code, and the labels (bold lead-ins, ``Label:``
  lines) a section reference may name;
- whether the page has YAML front matter (written for a site generator), the pages it
  includes by name (Jekyll's ``include_relative``, spec-md's imports), whether it pulls in
  content at build time it does not name (its anchors are then not all in the corpus), and the
  level of its first heading (a page that starts at ``##`` is a section of a larger document).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import unquote

from speclint.common.parallel import sent_by_fields
from speclint.parsing.mdx import is_mdx
from speclint.parsing.prose import Heading, ProseDocument, markdown_tokens


class PageSource(Protocol):
    """What ``read_page`` reads of a Markdown document (``speclint.model.corpus.Document``)."""

    text: str | None
    derived: dict[str, Any]

    @property
    def prose(self) -> ProseDocument | None: ...


# Raw HTML: links and images, and the anchors a page defines (`<a name>`, any `id`).
HTML_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)\b([^<>]*)>", re.DOTALL)
HTML_ATTRIBUTE = re.compile(
    r"""\b([A-Za-z:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`{}]+))""", re.DOTALL
)
HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
# A heading's explicit id: `{#x}` (Pandoc, kramdown, MkDocs attr_list), with classes or
# attributes beside it (`{#x .wide}`), or as an attribute (`{id="x"}`: Hugo's Goldmark).
HEADING_ID = re.compile(
    r"\s*\{\s*(?:[^}]*?\s)?(?:#([^}\s]+)|id=\"([^\"]+)\"|id='([^']+)')(?:\s[^}]*)?\}\s*$"
)
IMPORT_HEADING = re.compile(r"\[[^\]\n]+\]\(([^()\n]+\.(?:md|markdown))\)")
EMOJI_CODE = re.compile(r":[a-z0-9_+-]+:")
LABEL_LENGTH = 100  # characters: a paragraph's first line ending with `:` and this short is a label
# A link with its label: a `§` inside the label belongs to the link, which is checked as one.
LINK_LABEL = re.compile(r"\[[^\]\n]*\]\([^)\s]*\)")

# `file.md §Section`: the page (a link, a code span or a bare file name), then `§` and the
# section (quoted text, backticked text, a number or letter, or one word), then more sections
# chained with `,` / `+` / `and`.
_PAGE = (
    r"(?:\[[^\]\n]*\]\((?P<link>[^)\s]+)\)"
    r"|`(?P<code>[^`\s]+\.(?:mdx?|markdown))`"
    r"|(?<![\w/.`-])(?P<bare>[\w./-]*\w\.(?:mdx?|markdown))(?![\w`-]))"
)
_SECTION = (
    r"§\s?(?:\"(?P<dq>[^\"\n]+)\"|“(?P<cq>[^”\n]+)”|`(?P<bt>[^`\n]+)`"
    r"|(?P<num>(?:\d+|[A-Z])(?:\.\d+)*)(?![\w.]\w|\w)|(?P<word>[A-Za-z][\w.-]*\w|[A-Za-z]))"
)
SECTION_REFERENCE = re.compile(_PAGE + r"\s*" + _SECTION)
CHAINED_SECTION = re.compile(r"\s*(?:,|\+|;|/|&|\band\b|\bor\b)?\s*" + _SECTION)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# A heading's section number (`2.1 Scope`, `§3 — Errors`) or letter (`§A — Content`,
# `Appendix B`, `C. Examples`): a bare capital starting a heading ("A note on ...") is no letter.
NUMBERED = re.compile(
    r"^\s*(?:§\s?|(?i:section|appendix|annex|part)\s+)?(\d+(?:\.\d+)*)(?=$|[\s.):—–-])"
    r"|^\s*(?:§\s?|(?i:appendix|annex|part)\s+)([A-Z](?:\.\d+)*)(?=$|[\s.):—–-])"
    r"|^\s*([A-Z](?:\.\d+)*)(?=\s*[.):—–]|\.\d)"
)


@sent_by_fields
@dataclass(frozen=True, slots=True)
class LinkSite:
    """One link of a page: ``target`` as written, where it is, and what wrote it."""

    target: str
    line: int
    column: int
    kind: str  # "link", "image", "html", "definition"


@sent_by_fields
@dataclass(frozen=True, slots=True)
class SectionSite:
    """One ``file.md §Section`` reference: the page as written and the section named."""

    page: str
    section: str
    kind: str  # "title" (quoted), "code" (backticked), "number" (2.1, C) or "word"
    line: int
    column: int
    written: str


@dataclass
class Page:
    """What this rule reads of one Markdown page."""

    links: list[LinkSite] = field(default_factory=list)
    anchors: set[str] = field(default_factory=set)
    sections: list[SectionSite] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)
    # What a section reference may name besides a heading: a bold lead-in (``**Convergence
    # rule.**``) or a label line (``Common error codes:``).
    labels: list[str] = field(default_factory=list)
    # The top-level keys of the page's YAML front matter, with the values of those a site
    # routes by (``slug``, ``id``): a page that has front matter is written for a site
    # generator (GitHub shows it as a table and routes nothing by it).
    front_matter: dict[str, str] = field(default_factory=dict)
    # Whether the page pulls in content at build time that is not named here (a Hugo
    # shortcode, an MkDocs macro, a pymdownx snippet, an include whose target is computed):
    # then its headings, and so its anchors, are not all in the corpus.
    includes: bool = False
    # The pages it pulls in by name, as (how, target as written): Jekyll's
    # ``{% include_relative x.md %}`` ("relative") and ``{% include x.md %}`` ("site", from the
    # site's ``_includes/``), and a heading that is only a link to a page ("import": spec-md
    # imports the page there; read as an import only where the repository uses spec-md), and
    # ReSpec's ``data-include`` of an HTML element ("respec": read only in a ReSpec document).
    included: list[tuple[str, str]] = field(default_factory=list)
    # The level of the page's first heading (0 when it has none): a page that starts below
    # level 1 is a section of something larger.
    first_level: int = 0
    # Whether the page renders an API reference from an OpenAPI document (Swagger UI, Redoc,
    # RapiDoc, Stoplight Elements, an MkDocs or Hugo plugin's tag), and the document's address
    # where the page writes it (``openapi.yaml``, ``/api/spec.json``, ``https://...``).
    renders_api: bool = False
    api_specs: list[str] = field(default_factory=list)
    # The list items that are a bare page path and nothing else (``- front/cover``): a README
    # listing a document's pages in order (``speclint.analyses.prose.assembly``).
    items: list[str] = field(default_factory=list)
    # The item codes that open a paragraph or list item as a code span (`` `(RSC7a)` The
    # client ...``): a numbered requirement's marker, which a site's build may make an anchor
    # of (``ITEM_CODE``).
    markers: set[str] = field(default_factory=set)
    # Elastic docs-builder's inline anchors (``$$$anchor-id$$$``, outside code), slugified as
    # docs-builder makes them: anchors only where docs-builder renders the page
    # (``speclint.analyses.prose.renderers``); GitHub shows the text as written.
    inline_anchors: set[str] = field(default_factory=set)
    # The titles of its ReSpec examples (``<pre class="example" title="...">``, ``<aside
    # class="example">``; "" for one without a title, in order), to which ReSpec gives ids
    # (``speclint.analyses.prose.assembly``): ids only in a ReSpec document.
    examples: list[str] = field(default_factory=list)


def read_page(document: PageSource) -> Page:
    """The links, anchors and section references of a Markdown page: made when the page was
    parsed (``prose.parse_markdown_with_links``) and cached with it; read here once otherwise."""
    memo = document.derived.get(DERIVED_KEY)
    if isinstance(memo, Page):
        return memo
    text = document.text or ""
    try:
        tokens, env = markdown_tokens(text, mdx=is_mdx(getattr(document, "path", "")))
    except Exception:  # a page the parser cannot read: parse-error's business, not ours
        return Page()
    headings = document.prose.headings if document.prose is not None else ()
    page = document.derived[DERIVED_KEY] = page_of(text, tokens, env, headings)
    return page


DERIVED_KEY = "links"
# A list item that is only a page's path, without extension: `front/cover`, `scope`.
PAGE_PATH_ITEM = re.compile(r"[A-Za-z0-9][\w.-]*(?:/[A-Za-z0-9][\w.-]*)*")


def page_of(
    text: str, tokens: list[Any], env: Mapping[str, Any], headings: Sequence[Heading]
) -> Page:
    """The page read from its markdown-it tokens and environment (the link reference
    definitions), with the headings the prose model found."""
    lines = text.split("\n")
    page = Page()
    skipped: set[int] = set()  # lines of code blocks and HTML blocks: no § references there
    definitions = {str(d.get("href", "")) for d in dict(env.get("references", {})).values()}
    used: set[str] = set()  # the targets of the reference-style links the page writes
    slugs = _Slugs()
    for index, token in enumerate(tokens):
        if token.type in ("fence", "code_block") and token.map:
            skipped.update(range(token.map[0] + 1, token.map[1] + 1))
        elif token.type == "html_block" and token.map:
            skipped.update(range(token.map[0] + 1, token.map[1] + 1))
            _html(page, token.content, token.map[0] + 1, lines)
        elif token.type == "inline":
            line = token.map[0] + 1 if token.map else 1
            if index > 0 and tokens[index - 1].type == "heading_open":
                _heading(page, slugs, token)
            elif index > 0 and tokens[index - 1].type == "paragraph_open":
                item = token.content.strip()
                in_item = index > 1 and tokens[index - 2].type == "list_item_open"
                if in_item and PAGE_PATH_ITEM.fullmatch(item):
                    page.items.append(item)
                marker = _item_marker(token)
                if marker is not None:
                    page.markers.add(marker)
                first = token.content.split("\n", 1)[0].strip()
                if first.endswith(":") and len(first) <= LABEL_LENGTH:
                    page.labels.append(first.rstrip(":"))
            _inline(page, token, line, lines, definitions, used)
    for label, definition in dict(env.get("references", {})).items():
        if str(label).startswith("^"):
            continue  # a footnote (`[^1]: text`), read by CommonMark as a link definition
        mapped = definition.get("map")
        href = str(definition.get("href", ""))
        if not mapped or not href or href not in used:
            # No link uses it: CommonMark renders nothing for it, so it leads nowhere to
            # nobody (an unused definition left behind by an edit).
            continue
        line = int(mapped[0]) + 1
        page.links.append(
            LinkSite(_as_written(href, lines, line), line, _column(lines, line, href), "definition")
        )
    page.anchors.update(h.anchor for h in headings)
    page.headings = [h.text for h in headings]
    page.sections = _section_references(lines, skipped)
    page.links.sort(key=lambda s: (s.line, s.column))
    if "/*" in text:
        page.links = _outside_jsx_comments(text, page.links)
    page.front_matter = site_front_matter(text)
    page.first_level = headings[0].level if headings else 0
    source = without_fences(text)
    for directive in NAMED_INCLUDE.finditer(source):
        how = "relative" if directive.group(1) == "include_relative" else "site"
        page.included.append((how, directive.group(2)))
    page.includes = INCLUDE.search(NAMED_INCLUDE.sub("", source)) is not None
    # ReSpec's `data-include` in raw HTML: a file the ReSpec document this page is part of
    # puts there (``speclint.analyses.prose.assembly``), read from that document's HTML page.
    # Only a page can bring ids: a JSON example (`<pre data-include="x.json">`), or a file
    # included as text, brings none.
    page.included.extend(
        ("respec", m.group(1) or m.group(2))
        for m in RESPEC_INCLUDE.finditer(source)
        if not TEXT_INCLUDE.search(m.group(0))
        and (m.group(1) or m.group(2)).split("#")[0].lower().endswith(INCLUDED_PAGES)
    )
    page.renders_api, page.api_specs = api_renderings(source)
    if "$$$" in source:
        page.inline_anchors = {
            docs_builder_slug(m.group(1)) for m in INLINE_ANCHOR.finditer(CODE_SPAN.sub("", source))
        }
    return page


# docs-builder's inline anchor (its `InlineAnchorParser`): `$$$`, the id, `$$$`.
INLINE_ANCHOR = re.compile(r"\$\$\$([^$\n]+)\$\$\$")


def docs_builder_slug(text: str) -> str:
    """Elastic docs-builder's slug (its ``Slugify``: the Slugify.Core library, ``.`` not
    allowed): lower-case, accents dropped, trimmed, each run of white space one ``-``, every
    character that is not an ASCII letter, digit, ``-`` or ``_`` dropped, runs of ``-`` one."""
    value = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"\s+", "-", value.strip().lower())
    value = re.sub(r"[^a-z0-9_-]", "", value)
    return re.sub(r"-{2,}", "-", value)


# Where a page embeds an API reference rendered from an OpenAPI document: a web component or a
# JSX component (`<redoc spec-url>`, `<rapi-doc>`, `<elements-api>`, `<swagger-ui src>` of
# mkdocs-swagger-ui-tag, `<SwaggerUI url>`, `<RedocStandalone specUrl>`), a script that starts
# one (`SwaggerUIBundle({url: ...})`, `Redoc.init(...)`, a `swagger-ui` / `redoc` container),
# mkdocs-render-swagger's `!!swagger x.yaml!!`, neoteroi's `[OAD(x.yaml)]`, Docsy's shortcodes.
API_RENDERING = re.compile(
    r"<(?:redoc|rapi-doc|elements-api|openapi-explorer|swagger-ui|SwaggerUI|Redoc"
    r"|RedocStandalone|ApiDocMdx|Redocusaurus)\b"
    r"|!!swagger(?:-http)?\s|SwaggerUIBundle\s*\(|SwaggerUI\s*\(|Redoc\.init\s*\("
    r"|\bid\s*=\s*[\"'](?:swagger-ui|redoc|redoc-container)[\"']|\[OAD\("
    r"|\{\{<\s*(?:swaggerui|redoc|openapi)\b"
)
# The document's address after such a marker: a quoted or bracketed value naming a JSON or YAML
# file, or a web address.
API_SPEC = re.compile(
    r"""(?:["'(]|!!swagger(?:-http)?\s+|\s)((?:https?://)?[^\s"'()<>{}]+\.(?:json|ya?ml))(?=["')!\s>])"""
)
API_SPEC_REACH = 400  # characters after a marker where its document's address is looked for
# What every marker holds (the pattern is case-sensitive): a page holding none renders no API
# reference, and the pattern, which no literal starts, is not tried at each of its characters
# (0.05 s of CPU over OpenWOP's 73 pages, 0.01 s to find that none but 3 holds one).
RENDERING_WORDS = (
    "redoc",
    "Redoc",
    "rapi-doc",
    "elements-api",
    "openapi-explorer",
    "swagger-ui",
    "SwaggerUI",
    "ApiDocMdx",
    "!!swagger",
    "[OAD(",
    "{{<",
)


def api_renderings(text: str) -> tuple[bool, list[str]]:
    """Whether ``text`` renders an API reference, and the addresses of the documents it
    renders (``API_RENDERING``)."""
    specs: list[str] = []
    found = False
    if not any(word in text for word in RENDERING_WORDS):
        return found, specs
    for marker in API_RENDERING.finditer(text):
        found = True
        spec = API_SPEC.search(text, marker.start(), marker.end() + API_SPEC_REACH)
        if spec is not None and spec.group(1) not in specs:
            specs.append(spec.group(1))
    return found, specs


def jsx_comments(text: str) -> list[tuple[int, int]]:
    """The offsets of MDX's comments (``{/* ... */}``) in ``text``, in order. Found by a
    forward scan, each ``*/`` looked for once: a page of many unclosed ``{/*`` stays linear."""
    spans: list[tuple[int, int]] = []
    at = text.find("/*")
    while at >= 0:
        close = text.find("*/", at + 2)
        if close < 0:
            break
        # step back over the blanks before `/*` (a slice of the text before it, at each one,
        # made a page of many comments quadratic)
        brace = at - 1
        while brace >= 0 and text[brace] in " \t\r\n":
            brace -= 1
        after = close + 2
        while after < len(text) and text[after] in " \t\r\n":
            after += 1
        if brace >= 0 and text[brace] == "{" and text[after : after + 1] == "}":
            spans.append((brace, after + 1))
        at = text.find("/*", close + 2)
    return spans


def _outside_jsx_comments(text: str, links: list[LinkSite]) -> list[LinkSite]:
    """``links`` without those written inside an MDX comment: ``{/* see [x](old.md) */}``
    renders to nothing, so its link leads no reader anywhere (as one in ``<!-- -->`` does not,
    issue 44 item 12)."""
    spans = jsx_comments(text)
    if not spans:
        return links
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    opens = [start for start, _ in spans]

    def commented(site: LinkSite) -> bool:
        offset = starts[site.line - 1] + site.column - 1 if site.line <= len(starts) else -1
        index = bisect_right(opens, offset) - 1
        return index >= 0 and spans[index][0] <= offset < spans[index][1]

    return [site for site in links if not commented(site)]


# Build-time inclusion: Hugo shortcodes (`{{% http-api %}}`, `{{< include >}}`), Liquid and
# Jinja includes (`{% include x.md %}`), MkDocs macros and Jinja calls
# (`{{ MACROS___make_glossary() }}`), pymdownx snippets (`--8<-- "x.md"`). A snippet's indent is
# read within its line: `^\s*` ran on over every blank line below each line start, quadratic in
# a run of them (what is left of a page of 50,000 fences once they are taken out: 42 s).
INCLUDE = re.compile(
    r"\{\{[%<]|\{%-?\s*include|\{\{-?\s*[A-Za-z_][\w.]*\s*\(|^[^\S\n]*--8<--", re.MULTILINE
)
# A Jekyll include of a file named as written (not computed: no `{{ }}` in it).
NAMED_INCLUDE = re.compile(r"\{%-?\s*(include_relative|include)\s+([^\s{}%]+)[^%{}]*?-?%\}")
# ReSpec's `data-include` of an HTML element, the files it may bring ids from (a page), and the
# format that includes a file as text (no ids).
RESPEC_INCLUDE = re.compile(
    r"""<[A-Za-z][^>]*?\sdata-include\s*=\s*(?:"([^"]+)"|'([^']+)')[^>]*>"""
)
INCLUDED_PAGES = (".html", ".htm", ".xhtml", ".md", ".markdown")
TEXT_INCLUDE = re.compile(r"""\sdata-include-format\s*=\s*["']?text\b""", re.IGNORECASE)
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1", re.MULTILINE | re.DOTALL)


def without_fences(text: str) -> str:
    """The text without its fenced code (where a page that teaches a template quotes one)."""
    return FENCE.sub("", text) if "``" in text or "~~" in text else text


# The front-matter keys whose values route a page (Docusaurus's `slug` and `id`).
ROUTE_KEYS = frozenset({"slug", "id"})
FRONT_MATTER = re.compile(r"\A---\r?\n(.*?)\r?\n(?:---|\.\.\.)\r?\n", re.DOTALL)
FRONT_MATTER_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$")


def site_front_matter(text: str) -> dict[str, str]:
    """The top-level keys of a page's YAML front matter, with the routing ones' values unquoted
    (read line by line: a route is one scalar, and a page's YAML is not parsed twice)."""
    match = FRONT_MATTER.match(text)
    if match is None:
        return {}
    found: dict[str, str] = {}
    for line in match.group(1).splitlines():
        key = FRONT_MATTER_KEY.match(line)
        if key is not None:
            value = key.group(2).strip("'\"") if key.group(1) in ROUTE_KEYS else ""
            found[key.group(1)] = value
    return found


# An improvement proposal's preamble (EIP-1's "Preamble", and the FIPs, CIPs... that copy it):
# the proposal's number under its series' name (`eip`, `fip`, `cip`), its `status` and author.
# Metadata a proposal process reads, not a site generator: such a page is read on GitHub.
_PROPOSAL_NUMBER = re.compile(r"^[a-z]{1,5}ip$")
_SITE_KEYS = frozenset({"layout", "permalink", "slug", "id", "weight", "sidebar_position"})


def proposal_preamble(keys: Iterable[str]) -> bool:
    """Whether front matter with these top-level keys is a proposal's preamble (``eip:``,
    ``status:``, ``author:``...), not a site generator's front matter: no key a site routes or
    lays a page out by."""
    folded = {key.casefold() for key in keys}
    return (
        any(_PROPOSAL_NUMBER.match(key) for key in folded)
        and "status" in folded
        and bool(folded & {"author", "authors"})
        and not folded & _SITE_KEYS
    )


def _without_front_matter(text: str) -> str:
    """YAML front matter blanked (line numbers kept): it is metadata, not a setext heading."""
    match = re.match(r"\A---\r?\n.*?\r?\n(?:---|\.\.\.)\r?\n", text, re.DOTALL)
    return "\n" * match.group(0).count("\n") + text[match.end() :] if match else text


class _Slugs:
    """GitHub's heading anchors, repeats numbered. Two numbering schemes are in use (the
    html-pipeline filter counts repeats of a slug; github-slugger also skips a number another
    heading already took), and a page's anchors are read under both."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.taken: set[str] = set()

    def add(self, base: str) -> list[str]:
        seen = self.counts.get(base, 0)
        self.counts[base] = seen + 1
        counted = base if seen == 0 else f"{base}-{seen}"
        unique = base
        number = 0
        while unique in self.taken:
            number += 1
            unique = f"{base}-{number}"
        self.taken.add(unique)
        return [counted, unique]


def github_slug(text: str) -> str:
    """GitHub's slug of a heading's text: lower-case, then every character that is not a letter,
    a mark, a decimal or letter number, a connector (``_``), ``-`` or a space dropped, and spaces
    made hyphens (html-pipeline's ``[^\\p{Word}\\- ]``; github-slugger)."""
    kept = "".join(
        ch for ch in text.lower() if ch in " -" or unicodedata.category(ch) in _WORD_CATEGORIES
    )
    return kept.replace(" ", "-")


_WORD_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "Pc"})


def github_slugs(headings: Iterable[str], repeats: int) -> set[str]:
    """GitHub's slugs of ``headings`` and of their repeats (``-1`` to ``-repeats``): the anchors
    GitHub gives headings, which a renderer with slugs of its own (ReSpec, docs-builder) does not
    make, though ``Page.anchors`` holds them."""
    slugs = {github_slug(h.strip()) for h in headings}
    return slugs | {f"{slug}-{n}" for slug in slugs for n in range(1, repeats + 1)}


def _heading(page: Page, slugs: _Slugs, inline: Any) -> None:
    raw = "".join(c.content for c in (inline.children or ()) if c.type in ("text", "code_inline"))
    # spec-md's import: the heading is only a link to a page, whose name may hold spaces
    # (`# [Overview](Section 1 -- Overview.md)`: no CommonMark link, so read from the text).
    imported = IMPORT_HEADING.fullmatch(str(inline.content).strip())
    if imported and not re.match(r"[A-Za-z][\w+.-]*:|/", imported.group(1)):
        page.included.append(("import", unquote(imported.group(1))))
    explicit = HEADING_ID.search(raw)
    if explicit:
        page.anchors.add(next(g for g in explicit.groups() if g))
        raw = raw[: explicit.start()]
    page.anchors.update(slugs.add(github_slug(raw.strip())))
    # What GitHub's renderer sees may differ from the source: a space kept before inline HTML
    # (`## Title <a id="x"></a>` is `#title-`), an emoji shortcode rendered as an emoji.
    page.anchors.add(github_slug(raw.lstrip()))
    page.anchors.add(github_slug(EMOJI_CODE.sub("", raw).strip()))


# An item code: a numbered requirement's identifier (`RSC7a`, `CHA-V1`, `REQ-1.2`), written as
# a code span at the start of its paragraph, bare or in parentheses or brackets (`(RSC7a)`).
ITEM_CODE = re.compile(r"[A-Za-z][\w.-]*\d[\w.-]*")
_WRAPPED_CODE = re.compile(r"\((.*)\)|\[(.*)\]|(.*)", re.DOTALL)


def _item_marker(inline: Any) -> str | None:
    """The item code a paragraph opens with, as a code span, or None."""
    children = inline.children or ()
    if not children or children[0].type != "code_inline":
        return None
    match = _WRAPPED_CODE.fullmatch(children[0].content.strip())
    code = next((group for group in match.groups() if group is not None), "") if match else ""
    return code if ITEM_CODE.fullmatch(code) else None


def _inline(
    page: Page, inline: Any, line: int, lines: list[str], definitions: set[str], used: set[str]
) -> None:
    cursor: dict[int, int] = {}
    strong: list[str] | None = None
    for child in inline.children or ():
        if child.type == "strong_open":
            strong = []
        elif child.type == "strong_close" and strong is not None:
            page.labels.append("".join(strong))
            strong = None
        elif strong is not None and child.type in ("text", "code_inline"):
            strong.append(child.content)
        if child.type in ("softbreak", "hardbreak"):
            line += 1
        elif child.type == "text" and "\n" in child.content:
            line += child.content.count("\n")
        elif child.type in ("link_open", "image"):
            href = str(child.attrs.get("href" if child.type == "link_open" else "src", ""))
            if not href or (child.markup == "autolink" and not href.startswith("http")):
                continue
            at = _find(lines, line, href, cursor, opener="(")
            if at is None and child.markup != "autolink" and href in definitions:
                used.add(href)
                continue  # a reference-style link: its definition is checked, once
            if at is None and child.markup == "autolink":
                at = _find(lines, line, href, cursor, opener="<")
            column = at + 1 if at is not None else 1
            kind = "image" if child.type == "image" else "link"
            page.links.append(LinkSite(_as_written(href, lines, line), line, column, kind))
        elif child.type == "html_inline":
            _html(page, child.content, line, lines)


def _html(page: Page, html: str, line: int, lines: list[str], links: bool = True) -> None:
    """Links, images and anchors of raw HTML starting at ``line`` (only its anchors when not
    ``links``)."""
    html = HTML_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), html)
    if "{" in html and JSX_EXPRESSION.search(html):
        html, strings = _javascript_strings(html)
        for string in strings:
            # HTML a JSX expression injects at run time (`dangerouslySetInnerHTML={{__html:
            # "<a href=\"#x\">"}}`: a generated API page): rendered as written, never
            # resolved by the site, so its links are not judged; its ids are the page's anchors.
            _html(page, string, line, lines, links=False)
    for tag in HTML_TAG.finditer(html):
        name = tag.group(1).lower()
        if name in ("pre", "aside") and "example" in tag.group(2):
            _example(page, tag.group(2))
        for attribute in HTML_ATTRIBUTE.finditer(tag.group(2)):
            key = attribute.group(1).lower()
            value = next((v for v in attribute.groups()[1:] if v is not None), "")
            if key == "id" or (key == "name" and name == "a"):
                page.anchors.add(value)
            elif key == "title" and tag.group(1)[:1].isupper():
                # An MDX component's title (`<Accordion title="Logs">`): sites anchor it.
                page.anchors.add(github_slug(value.strip()))
            elif links and (key, name) in (("href", "a"), ("src", "img")) and value:
                at_line = line + html.count("\n", 0, tag.start(2) + attribute.start())
                column = _column(lines, at_line, value)
                page.links.append(LinkSite(value, at_line, column, "html"))
        if re.fullmatch(r"h[1-6]", name):
            closing = html.find(f"</{tag.group(1)}", tag.end())
            if closing > 0:
                inner = re.sub(r"<[^>]*>", "", html[tag.end() : closing])
                page.anchors.add(github_slug(inner.strip()))


# ReSpec's examples (its `core/examples`): `pre.example`, `pre.illegal-example`, `aside.example`.
RESPEC_EXAMPLE_CLASSES = frozenset({"example", "illegal-example"})


def _example(page: Page, attributes: str) -> None:
    """Record a ReSpec example's title ("" for none); one with its own ``id`` keeps it."""
    found = {
        a.group(1).lower(): next((v for v in a.groups()[1:] if v is not None), "")
        for a in HTML_ATTRIBUTE.finditer(attributes)
    }
    if RESPEC_EXAMPLE_CLASSES & set(found.get("class", "").split()) and "id" not in found:
        page.examples.append(found.get("title", "").strip())


# A JSX attribute whose value is a JavaScript expression (`values={[...]}`, `style={{...}}`).
JSX_EXPRESSION = re.compile(r"(?<=\s)[A-Za-z_$][\w$:.-]*\s*=\s*\{")
# Where a string literal starts inside an expression: after an operator or an opener. After
# `=` it is a JSX attribute of an element written in the expression (`icon={<I href="x" />}`),
# raw HTML of the page, and after a letter a quote is text (`<p>Don't</p>`).
JS_VALUE_BEFORE = frozenset("{([,:?+!&|")
JS_ESCAPE = re.compile(r"\\(u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|\n|.)", re.DOTALL)
JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "\n": ""}


def _javascript_strings(html: str) -> tuple[str, list[str]]:
    """``html`` with the string literals of its JSX attribute expressions blanked (spaces, the
    newlines kept: positions do not move), and those strings decoded (``\\"`` is ``"``)."""
    blanked = list(html)
    strings: list[str] = []
    end = 0
    for expression in JSX_EXPRESSION.finditer(html):
        if expression.start() < end:
            continue  # inside the expression just read
        at, depth, end = expression.end() - 1, 0, len(html)
        while at < len(html):
            char = html[at]
            if char in "\"'`":
                before = _before(html, at)
                closing = _string_end(html, at) if before in JS_VALUE_BEFORE | {"="} else at
                if before in JS_VALUE_BEFORE:
                    strings.append(_decoded(html[at + 1 : closing]))
                    for blank in range(at, min(closing + 1, len(html))):
                        blanked[blank] = "\n" if html[blank] == "\n" else " "
                at = closing
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    end = at + 1
                    break
            at += 1
    return "".join(blanked), strings


def _before(text: str, at: int) -> str:
    """The last character before ``at`` that is not white space ("" at the start)."""
    at -= 1
    while at >= 0 and text[at].isspace():
        at -= 1
    return text[at] if at >= 0 else ""


def _string_end(text: str, start: int) -> int:
    """The index of the quote closing the JavaScript string opened at ``start`` (escapes
    skipped), or the end of ``text`` when it does not close there."""
    quote, at = text[start], start + 1
    while at < len(text) and text[at] != quote:
        if quote != "`" and text[at] == "\n":
            return at  # a quoted string ends at its line
        at += 2 if text[at] == "\\" else 1
    return min(at, len(text))


def _decoded(literal: str) -> str:
    def escape(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[:1] in ("u", "x") and len(code) > 1:
            point = int(code[1:].strip("{}"), 16)
            return chr(point) if point <= 0x10FFFF else match.group(0)
        return JS_ESCAPES.get(code, code)

    return JS_ESCAPE.sub(escape, literal)


def _find(
    lines: list[str], line: int, href: str, cursor: dict[int, int], opener: str
) -> int | None:
    """The 0-based column of ``href`` as written after ``opener`` on ``line`` (the search moves on
    from the last link found on that line)."""
    if not 0 < line <= len(lines):
        return None
    row = lines[line - 1]
    for written in dict.fromkeys((href, unquote(href), href.replace("%20", " "))):
        for prefix in (opener, opener + "<", opener + " "):
            at = row.find(prefix + written, cursor.get(line, 0))
            if at >= 0:
                cursor[line] = at + len(prefix)
                return at + len(prefix)
    return None


def _column(lines: list[str], line: int, value: str) -> int:
    if 0 < line <= len(lines):
        for written in (value, unquote(value)):
            at = lines[line - 1].find(written)
            if at >= 0:
                return at + 1
    return 1


def _as_written(href: str, lines: list[str], line: int) -> str:
    """The link as the author wrote it, when the parser's percent-encoding changed it. The
    destination may be on the line after the link's text (CommonMark allows a line ending after
    ``(``): that line is read too, or the message showed ``%22…%22`` for a written ``"…"``."""
    row = "\n".join(lines[max(line - 1, 0) : line + 1]) if 0 < line <= len(lines) else ""
    if href in row:
        return href
    decoded = unquote(href)
    return decoded if decoded in row else href


def _section_references(lines: list[str], skipped: set[int]) -> list[SectionSite]:
    found: list[SectionSite] = []
    for number, row in enumerate(lines, start=1):
        if number in skipped or "§" not in row:
            continue
        code = [(m.start(), m.end()) for m in CODE_SPAN.finditer(row)]
        labels = [(m.start(), m.end()) for m in LINK_LABEL.finditer(row)]
        for match in SECTION_REFERENCE.finditer(row):
            mark = row.index("§", match.start())
            if any(start <= mark < end for start, end in code):
                continue  # `§` inside a code span is an example, not a reference
            if any(start < mark < end for start, end in labels):
                continue  # `[x.md §Foo](x.md#foo)`: the link says where, and is checked
            page = match.group("link") or match.group("code") or match.group("bare") or ""
            end = match.end()
            found.append(_section_site(page, match, number, row))
            while True:
                more = CHAINED_SECTION.match(row, end)
                if more is None or more.end() == end:
                    break
                found.append(_section_site(page, more, number, row))
                end = more.end()
    return found


def _section_site(page: str, match: re.Match[str], line: int, row: str) -> SectionSite:
    title = match.group("dq") or match.group("cq")
    if title and re.fullmatch(r"`[^`]+`", title):
        section, kind = title.strip("`"), "code"  # §"`a.b`": a quoted name, not a title
    elif title:
        section, kind = title, "title"
    elif match.group("bt"):
        section, kind = match.group("bt"), "code"
    elif match.group("num"):
        section, kind = match.group("num"), "number"
    else:
        section, kind = match.group("word") or "", "word"
    column = row.index("§", match.start()) + 1
    return SectionSite(
        page,
        section,
        kind,
        line=line,
        column=column,
        written=row[column - 1 : match.end()],
    )


# --- judging ------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1 << 16)  # a pure function, asked again for every reference
def normal_text(text: str) -> str:
    """Heading or section text for comparison: case, code and emphasis marks, quotes, dashes and
    spacing set aside (``SR-1 — Secret-Redaction`` is ``sr 1 secret redaction``)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"[`*\"“”‘’']", "", text)
    text = re.sub(r"[—–‐_-]+", " ", text)
    return " ".join(text.split()).strip(" .:")
