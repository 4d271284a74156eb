"""Version numbers that disagree: API documents, the corpus release, and the documents' self-descriptions.

What it does
    Collects the versions a corpus states about itself:

    - the corpus version: ``version`` in this rule's options, else the latest release heading
      of the root changelog (``CHANGELOG.md``, ``CHANGES.md``, ``HISTORY.md``, ``NEWS.md``,
      ``RELEASES.md``; ``## [1.2.0] - 2026-05-01``; ``Unreleased`` skipped), else
      ``package.json``'s ``version`` when that package is the specification's;
    - ``info.version`` of every OpenAPI and AsyncAPI document;
    - the spec version each API document declares (``openapi: 3.1.0``) and the one its own
      ``info.description`` names ("This document follows AsyncAPI 3.0.0").

    It reports an API document whose ``info.version`` is not the corpus version, a
    ``package.json`` that disagrees with the changelog, and a self-description that names
    another spec version than the document declares. Versions are compared on major.minor by
    default (``1.0`` and ``1.0.0`` are the same version).

Why is this bad?
    RFC 0094 §I: both API documents said ``info.version: "1.0"`` while the corpus was at 1.1.0,
    and the AsyncAPI description named the wrong AsyncAPI version. Generated SDKs and
    documentation portals print ``info.version``: readers were told they had an older protocol
    than they did.

Example
    ::

        # CHANGELOG.md: ## [1.2.0] - 2026-05-01
        info:
          version: "1.0"

    FAIL: ``warning [version-drift] `info.version` is 1.0, but the corpus is at 1.2.0 ...``

Use instead
    ``version: "1.2.0"``. PASS.

Options
    ``version``: the corpus version, when neither the changelog nor package.json states it.
    ``precision``: ``"minor"`` (default) or ``"patch"`` (compare all three parts).

Limitations
    Not compared: a development placeholder (``0.1.0-dev``, ``${VERSION}``, ``latest``), a
    released copy in a folder or file named for its version (``v1.1/openapi.yaml``), a sample
    under ``examples/`` or ``test/``, a tool's, site's or monorepo root's ``package.json``, and
    a document ahead of the corpus unless the two are evidently one numbering.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import SAMPLE_FOLDERS, TEST_FOLDERS, DocumentKind
from speclint.parsing.versions import development_version, names_version

ID = "version-drift"
SEVERITY = Severity.WARNING
# Reads the API documents and package.json, and of the prose only the changelog's latest
# release (speclint.analyses.units).
READS = "extract"
# The changelog at the root, by the names projects give it (keepachangelog's, Python's
# `CHANGES`, `HISTORY`, GNU's `NEWS`, `RELEASES`), the first that holds a release.
CHANGELOGS = (
    "CHANGELOG.md", "changelog.md", "CHANGES.md", "changes.md", "HISTORY.md", "history.md",
    "NEWS.md", "news.md", "RELEASES.md", "releases.md",
)  # fmt: skip


def extract(document: Document) -> tuple[str, int] | None:
    """The latest release a changelog page names, and its line (a development version's
    heading, ``## 2.0.0-dev``, is no release)."""
    if document.path not in CHANGELOGS or document.text is None:
        return None
    for match in _RELEASE.finditer(document.text):
        if not development_version(match.group(1)):
            return match.group(1), document.text[: match.start()].count("\n") + 1
    return None


# A release heading, its version bracketed or not, the bracket linked to the release's compare
# view or not (release-please and auto-changelog: `## [2.55.0](https://…/compare/…) (date)`).
_RELEASE = re.compile(
    r"^#{1,3}\s*\[?v?(\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?)\]?(?:(?<=\])\([^()\s]*\))?(?:\s|$)",
    re.MULTILINE,
)
_SELF = re.compile(r"\b(OpenAPI|AsyncAPI)\s+v?(\d+\.\d+(?:\.\d+)?)\b")


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    precision = str(options.get("precision", "minor"))
    corpus_version = _corpus_version(corpus, options)
    changelog = _changelog(corpus)
    package = _package(corpus)
    if corpus_version is not None:
        version, where, source = corpus_version
        evidence = source == "configured" or _speaks_for_the_api(corpus, version)
        for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
            if demonstration(document.path):
                continue  # a demo's or a test fixture's API versions itself, not the corpus
            info = document.data.get("info") if isinstance(document.data, dict) else None
            declared = info.get("version") if isinstance(info, dict) else None
            if declared is None or _same(str(declared), version, precision):
                continue
            if development_version(str(declared)) or not _parts(str(declared)):
                continue  # `0.0.0`, `${VERSION}`, `next`: a build fills it in; no release
            if _own_place(document.path, str(declared)):
                continue  # a released copy named for its version agrees with itself
            if not evidence and _parts(str(declared))[:2] > _parts(version)[:2]:
                # Ahead of every release, and no release was ever its version: a contract
                # versioned on its own (a bundle's or a service's release number lags it),
                # not a stale copy; lowering it to the release would be wrong.
                continue
            yield Finding(
                ID,
                SEVERITY,
                f"`info.version` is {declared}, but the corpus is at {version} ({source}): readers "
                f"and generated SDKs are told the wrong protocol version. Set `info.version` to "
                f'"{version}" (compared on {precision} precision)',
                document.location("/info/version"),
                related=(where,),
                key=document.path,
            )
        if (
            changelog
            and package
            and not _placeholder(package[0])
            and not _same(changelog[0], package[0], precision)
        ):
            yield Finding(
                ID,
                SEVERITY,
                f"package.json says {package[0]}, but {changelog[1].path}'s latest release is "
                f"{changelog[0]}: bump package.json with the release, or add the missing "
                "changelog entry",
                package[1],
                related=(changelog[1],),
                key="package.json",
            )
    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        yield from _self_description(document)


def _self_description(document: Document) -> Iterator[Finding]:
    data = document.data if isinstance(document.data, dict) else {}
    family = "openapi" if document.kind is DocumentKind.OPENAPI else "asyncapi"
    declared = str(data.get(family, ""))
    info = data.get("info") if isinstance(data.get("info"), dict) else {}
    description = info.get("description") if isinstance(info, dict) else None
    if not declared or not isinstance(description, str):
        return
    for match in _SELF.finditer(description):
        if match.group(1).lower() != family:
            continue
        named = match.group(2)
        if _same(named, declared, "patch" if named.count(".") == 2 else "minor"):
            continue
        line = _line_of(document, document.position("/info/description")[0], match.group(0))
        yield Finding(
            ID,
            SEVERITY,
            f"the description calls this document {match.group(0)}, but it declares "
            f"`{family}: {declared}`: correct the description (or the declared version)",
            Location(document.path, line, 1, pointer="/info/description"),
            related=(document.location(f"/{family}", note=f"declares {family} {declared}"),),
            key=f"self:{match.group(0)}",
        )


def _line_of(document: Document, start: int, text: str) -> int:
    """The first line from ``start`` on that holds ``text`` (a folded description spans lines)."""
    lines = (document.text or "").split("\n")
    for number in range(start, len(lines) + 1):
        if text in lines[number - 1]:
            return number
    return start


def _parts(version: str) -> tuple[int, ...]:
    numbers = re.match(r"v?(\d+)(?:\.(\d+))?(?:\.(\d+))?", version.strip())
    if not numbers:
        return ()
    return tuple(int(n) if n else 0 for n in numbers.groups())


def _same(a: str, b: str, precision: str) -> bool:
    left, right = _parts(a), _parts(b)
    if not left or not right:
        return a.strip() == b.strip()
    size = 3 if precision == "patch" else 2
    return left[:size] == right[:size]


def _changelog(corpus: Context) -> tuple[str, Location] | None:
    for path in CHANGELOGS:
        document = corpus.documents.get(path)
        release = extract(document) if document is not None else None
        if release is not None:
            return release[0], Location(path, release[1], 1, note="the latest release")
    return None


def _package(corpus: Context) -> tuple[str, Location] | None:
    document = corpus.documents.get("package.json")
    if document is None or not isinstance(document.data, dict):
        return None
    version = document.data.get("version")
    if not isinstance(version, str):
        return None
    if version == NPM_DEFAULT_VERSION and (
        document.data.get("private") is True or _ahead_of_the_latest_release(corpus, version)
    ):
        # Never published, or never bumped: `npm init`'s version says nothing of a release,
        # even where a split file's placeholder `info.version: '1.0'` happens to equal it. A
        # package at it ahead of the changelog's latest release was never released at
        # it (a tooling package beside a 0.x specification, issue 45, batch 5).
        return None
    if _tooling(corpus, document.data) and not _shared_by_an_api_document(corpus, version):
        return None
    line, column = document.position("/version")
    return version, Location(
        "package.json", line, column, pointer="/version", note="package.json version"
    )


def _corpus_version(
    corpus: Context, options: Mapping[str, Any]
) -> tuple[str, Location, str] | None:
    configured = options.get("version")
    if configured is not None:
        where = Location(corpus.config_path(), 1, 1, note="the configured version")
        return str(configured), where, "configured"
    changelog = _changelog(corpus)
    if changelog is not None:
        return changelog[0], changelog[1], f"{changelog[1].path}:{changelog[1].line}"
    package = _package(corpus)
    if package is not None and (
        not _placeholder(package[0]) or _shared_by_an_api_document(corpus, package[0])
    ):
        return package[0], package[1], "package.json"
    return None


_VERSION_FOLDER = re.compile(r"^v?(\d+\.\d+(?:\.\d+)?)$", re.IGNORECASE)
# The version `npm init` writes: a private package still at it was never released.
NPM_DEFAULT_VERSION = "1.0.0"
# Files beside a package.json that make it a monorepo's root: its version is its tooling's.
WORKSPACE_FILES = ("pnpm-workspace.yaml", "lerna.json", "nx.json", "rush.json")


# Folders of demonstrations and test data: the API documents there (a plugin's petstore demo,
# a parser's fixture) are samples with versions of their own, not the corpus's specification.
# The samples' and test suites' folders (``speclint.parsing.kinds``: a configuration may check
# what discovery leaves out as fixtures), and demos, with the singular and `__`-wrapped names
# JavaScript tools give fixtures and mocks (Jest's `__mocks__`), which discovery does not leave
# out: an API document there is still checked, only not taken for the specification's version.
DEMONSTRATION_FOLDERS = (
    SAMPLE_FOLDERS
    | set(TEST_FOLDERS)
    | {"demo", "demos", "fixture", "__fixtures__", "mock", "__mocks__"}
)
# A file named for its version: `petstore-1.0.0.yaml`, `api_v1.2.json`.
_VERSION_STEM = re.compile(r"(?:^|[-_.])v?(\d+\.\d+(?:\.\d+)?)$", re.IGNORECASE)


def demonstration(path: str) -> bool:
    """Whether ``path`` lies in a folder of demos, examples or test fixtures
    (``DEMONSTRATION_FOLDERS``): a sample API, not the specification (issue 45, batch 3)."""
    return any(part.lower() in DEMONSTRATION_FOLDERS for part in path.split("/")[:-1])


def _own_place(path: str, declared: str) -> bool:
    """Whether the file's name names the version the document declares (``petstore-1.0.0.yaml``
    at 1.0.0), or else the nearest folder of ``path`` named for a version (``v1.2/``,
    ``1.2.0/``; not a major alone: ``v1/`` holds every 1.x) does. A file name naming another
    version (``petstore-3.1.yaml``: the OpenAPI version it shows) does not decide."""
    stem = posixpath.splitext(posixpath.basename(path))[0]
    named = _VERSION_STEM.search(stem)
    if named and names_version(named.group(1), declared):
        return True
    for folder in reversed(path.split("/")[:-1]):
        named = _VERSION_FOLDER.match(folder)
        if named:
            return names_version(named.group(1), declared)
    return False


# Dependencies that make a package a documentation site: its version is the site's.
SITE_GENERATORS = (
    "@docusaurus/core", "docusaurus", "vitepress", "vuepress", "gatsby", "next", "nuxt",
    "astro", "@11ty/eleventy", "hexo", "@redocly/realm", "mintlify",
)  # fmt: skip
# What a package publishes as its own: a package naming none of these and depending on nothing
# at run time (only devDependencies) ships no specification.
_SHIPPED = ("main", "module", "exports", "files", "bin", "types")


def _tooling(corpus: Context, data: dict[str, Any]) -> bool:
    """A package.json that is not the specification's package, by what it says of itself: the
    version of its tooling (issue 45, item 7). The root of a monorepo (``workspaces``, or a
    workspace tool's file beside it); a package whose name names tools (batch 5); a documentation
    site (a site generator among its dependencies); a package with only devDependencies that
    publishes nothing of its own; one whose entry point (``main``) is a file the repository
    lacks (``npm init``'s skeleton beside an API description); a service's or a library's
    package (``_implementation``). Not ``private`` alone: a spec
    corpus's own unpublished package may carry the specification's version (OpenWOP's does)."""
    if "workspaces" in data or any(name in corpus.documents for name in WORKSPACE_FILES):
        return True
    name = data.get("name")
    if isinstance(name, str) and _TOOLS_NAME.search(name.rpartition("/")[2]):
        return True  # `api-tools`, `spec_scripts`: the repository's tools, by their own name
    dependencies = data.get("dependencies")
    runtime = dependencies if isinstance(dependencies, dict) else {}
    development = data.get("devDependencies")
    every = {**(development if isinstance(development, dict) else {}), **runtime}
    if any(name in every for name in SITE_GENERATORS):
        return True
    if not runtime and every and not any(key in data for key in _SHIPPED):
        return True
    if _implementation(corpus, data):
        return True
    main = data.get("main")
    return (
        isinstance(main, str)
        and not any(key in data for key in ("exports", "files"))
        and posixpath.normpath(main) not in corpus.tree
    )


# A package named for tools (a word of its name, not its description: a specification's own
# package may call itself "the specification and its release tooling").
_TOOLS_NAME = re.compile(r"(?:^|[-_.])(?:tools|tooling|scripts|utils|utilities)(?:$|[-_.])")
# An entry point in code: the package is a program or a library, versioned as code.
_CODE = re.compile(r"\.(?:[cm]?js|[cm]?ts|jsx|tsx)$")


def _implementation(corpus: Context, data: dict[str, Any]) -> bool:
    """A service's or a library's package (issue 45, batch 3): runtime ``dependencies`` and
    code to run (a ``start`` script, a ``main`` or ``bin`` in code), publishing no API
    document of the repository's (``main``, ``files``, ``exports`` name none). Its version is
    the code's, bumped with every change; the API document versions the contract."""
    dependencies = data.get("dependencies")
    if not isinstance(dependencies, dict) or not dependencies:
        return False
    scripts = data.get("scripts")
    starts = isinstance(scripts, dict) and any(
        name == "start" or name.startswith("start:") for name in scripts
    )
    entries = [data.get("main"), data.get("bin")]
    bins = data.get("bin")
    if isinstance(bins, dict):
        entries += list(bins.values())
    code = any(isinstance(e, str) and _CODE.search(e) for e in entries)
    if not (starts or code):
        return False
    return not any(_publishes(corpus, data.get(key)) for key in ("main", "files", "exports"))


def _publishes(corpus: Context, named: Any) -> bool:
    """Whether ``named`` (a ``main``, ``files`` or ``exports`` value) names one of the
    repository's API documents or schemas, or a folder holding one."""
    if isinstance(named, dict):
        return any(_publishes(corpus, value) for value in named.values())
    if isinstance(named, list):
        return any(_publishes(corpus, value) for value in named)
    if not isinstance(named, str):
        return False
    target = posixpath.normpath(named.strip("/")).rstrip("/*")
    return any(
        document.path == target or document.path.startswith(target + "/")
        for document in corpus.of_kind(
            DocumentKind.OPENAPI, DocumentKind.ASYNCAPI, DocumentKind.SCHEMA
        )
    )


def _placeholder(version: str) -> bool:
    """A version no release ever had: ``0.0.0``, ``0.0.1`` (npm's and site generators'
    defaults), ``0.0.0-development`` (semantic-release's), ``0.1.0-dev``. A site's or a tool's
    package keeps one; the protocol's version is not there."""
    parts = _parts(version)
    return not parts or parts[:2] == (0, 0) or development_version(version)


def _api_versions(corpus: Context) -> list[str]:
    """The released versions the repository's own API documents declare (not a demo's)."""
    found = []
    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        info = document.data.get("info") if isinstance(document.data, dict) else None
        declared = info.get("version") if isinstance(info, dict) else None
        if (
            declared is not None
            and not demonstration(document.path)
            and not development_version(str(declared))
        ):
            found.append(str(declared))
    return found


def _speaks_for_the_api(corpus: Context, version: str) -> bool:
    """Whether the corpus version is evidently the API documents' (issue 45, batch 3): an API
    document declares it, or declared a release the changelog lists (the versions once
    agreed). Else it may be another number (a bundle's release, a service's build), and only an
    API document behind it is reported: ahead of it, the document is no stale copy."""
    declared = _api_versions(corpus)
    if any(_same(d, version, "patch") for d in declared):
        return True
    for path in CHANGELOGS:
        document = corpus.documents.get(path)
        if document is not None and document.text is not None:
            releases = [m.group(1) for m in _RELEASE.finditer(document.text)]
            if releases:
                return any(_same(d, r, "patch") for d in declared for r in releases)
    return False


def _ahead_of_the_latest_release(corpus: Context, version: str) -> bool:
    """Whether ``version`` is ahead of the changelog's latest release: no release was ever made
    at it. (The latest release only: what this rule reads of the changelog, and what its cache
    key holds, ``READS = "extract"``.)"""
    latest = _changelog(corpus)
    return latest is not None and _parts(latest[0]) < _parts(version)


def _shared_by_an_api_document(corpus: Context, version: str) -> bool:
    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        info = document.data.get("info") if isinstance(document.data, dict) else None
        declared = info.get("version") if isinstance(info, dict) else None
        if (
            not demonstration(document.path)
            and declared is not None
            and not development_version(str(declared))
            and _same(str(declared), version, "patch")
        ):
            return True
    return False
