"""Version lines: which files are the same document at different versions (issue 14, item 6).

Spec repositories keep history beside the current text: ``definitions/2.0.0/`` and
``definitions/3.0.0/``, ``schema/2025-03-26/`` and ``schema/draft/``, ``1.0.0.json`` and
``2.0.0.json``. Copies of one definition in two versions are history, not drift, and a table in
the 3.2 pages does not describe the 3.0 schema. A file's version is the version-like segment of
its path, in every spelling repositories use: ``2.0.0``, ``1-0-2``, ``v1_0``, ``v1.0``, ``v2``,
``1.x``, ``2023-01``, ``2025-06-18``, Kubernetes' ``v1beta1``, W3C's ``ver11``, a file's ``schema-1.0.2.json`` or
``foo.v1.json``, and ``draft``, ``next`` or ``latest`` beside versions; a number glued to a word
(``http2``, ``ipv6``, ``oauth2``, ``2fa``) or a lone ``utf-8`` is not one. Two files are
compared only when they have the same version or either has none. ``newest_first`` orders the
versions of a line (``speclint.run.history`` folds defects of frozen copies onto the newest);
``maintained_copies`` finds the release folders that are snapshots of the text beside them
(``examples/2026-04-17/`` of ``examples/``, Docusaurus's ``versioned_docs/version-X/`` of ``docs/``).

``speclint files`` shows each file's version. ``versions`` in the configuration replaces the
pattern (a regular expression whose match in a path segment is the version), or turns the
grouping off (``versions = false``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

# A version in a path segment: semantic-ish versions (`2.0.0`, `2.0.0-rc1`, `v1.2`), `v1`, `18.x`,
# dates (`2025-06-18`), not glued to other digits or letters; and a file name ending in a number.
# A pre-release is a run of numbers and of words that are release words or carry a number
# (`-rc1`, `-beta`, `-rtm.5`, `-csd.2.beta.2019-01-09`, OASIS's committee-draft naming), so
# `3.1.0-without-$id` is `3.1.0`.
_PRERELEASE_WORD = (
    r"(?:rc|alpha|beta|pre|preview|dev|snapshot)\d*|[A-Za-z]+\d+|[A-Za-z]+(?=[.-]\d)|\d+"
)
_STAGE = r"(?:alpha|beta)\d+"  # Kubernetes API versions: `v1beta1`, `v2alpha2`
_MONTH = r"(?:0[1-9]|1[0-2])"
DEFAULT_PATTERN = (
    r"(?<![0-9A-Za-z.])(?:v?\d+\.\d+(?:\.\d+)?"
    rf"(?:-(?:{_PRERELEASE_WORD})(?:[.-](?:{_PRERELEASE_WORD}))*)?|"
    # `v1_0`, `v1_0_2` (a bare `1_0` is too often something else), `v1beta1`, `v1`.
    rf"v\d+(?:_\d+){{1,2}}|v\d+(?:{_STAGE})?|"
    # `ver10`, `ver11`: W3C publication snapshots (`publication/ver11/`).
    r"ver\d+|"
    # Dates before year-months, so `2023-01-15` is not read as `2023-01`; `1-0-2` (three small
    # numbers: two, as in `page-1-2`, are not a version).
    rf"v?\d+\.x|\d{{4}}-{_MONTH}-\d{{2}}|\d{{4}}-{_MONTH}(?!-\d)|"
    r"v?\d{1,3}-\d{1,3}-\d{1,3}(?!-\d))(?![0-9A-Za-z]|\.\d)"
    # A version between dots in a file name: `foo.v1.json`, `pod.v1beta1.schema.json`.
    rf"|(?<=[0-9A-Za-z]\.)v\d+(?:{_STAGE})?(?=\.(?:schema\.)?(?:json|ya?ml)$)"
    # A file named by its version number: `manifest-5.json`, `cryproj.52.schema.json`.
    r"|(?<=[-.])\d+(?=(?:\.schema)?\.(?:json|ya?ml)$)"
)
# Folder names that are versions when their siblings are (MCP's `schema/draft/`).
UNRELEASED = frozenset({"draft", "next", "latest", "unreleased", "current", "dev", "main"})


# What an API document's version says while it is developed, a build filling in the release:
# a word (`latest`, `dev`, `unreleased`, `next`, Maven's `SNAPSHOT`), a variable (`${VERSION}`,
# `{{ version }}`, `@VERSION@`, `%VERSION%`, `<version>`), letters for numbers (`x.y.z`).
_DEVELOPMENT_WORDS = UNRELEASED | {"development", "snapshot", "master", "head", "tbd", "local"}
_TEMPLATED = re.compile(r"\$\{|\{\{|@[A-Za-z_]+@|%[A-Za-z_]+%|<[A-Za-z_ ]+>")
_LETTERS = re.compile(r"v?[a-z](?:\.[a-z]){1,3}", re.IGNORECASE)
# A development pre-release or build: `0.1.0-dev`, `1.2.0-dev.3`, `2.0.0.dev0` (PEP 440),
# `1.0.0-SNAPSHOT`, `0.0.0-development` (semantic-release's).
_DEVELOPMENT_BUILD = re.compile(r"[-.+](?:dev|development|snapshot)(?:[.-]?\d+)?$", re.IGNORECASE)


def development_version(version: str) -> bool:
    """Whether a version an API document (or a package) states is a development placeholder no
    release had, not a release: ``0.0.0`` (npm's and generators' default), ``0.1.0-dev``,
    ``x.y.z``, ``${VERSION}``, ``latest``, ``dev``, ``unreleased``, ``next``. (``0.0.3`` is a
    release of a young project.)"""
    text = version.strip()
    if not text or text.lower() in _DEVELOPMENT_WORDS:
        return True
    # A phrase that says so first: "Dev - ... Specification v1.7.0-alpha.8", "unreleased (main)".
    first = re.match(r"[A-Za-z]+(?=[\s\-:(]|$)", text)
    if first and first.group(0).lower() in _DEVELOPMENT_WORDS and not _LETTERS.fullmatch(text):
        return True
    if _TEMPLATED.search(text) or _LETTERS.fullmatch(text) or _DEVELOPMENT_BUILD.search(text):
        return True
    return re.fullmatch(r"v?0(?:\.0){1,2}", text) is not None


def names_version(named: str, declared: str) -> bool:
    """Whether the version a file's name or folder gives (``named``: ``1.0.0`` of
    ``petstore-1.0.0.yaml``, ``v2``, ``2025-06-18``) is the version the document declares, to
    the parts it gives: ``v2`` names every 2.x, ``1.2`` every 1.2.x, ``1.0`` is ``1.0.0``. The one
    test of "named for its version" (version-drift's own place of a copy, and the release lines
    ``speclint.run.history`` folds, which leave out a file named for another version)."""
    given = [int(n) for n in re.findall(r"\d+", named)]
    stated = [int(n) for n in re.findall(r"\d+", declared)]
    stated += [0] * (len(given) - len(stated))
    return bool(given) and stated[: len(given)] == given


@dataclass(frozen=True)
class VersionLines:
    version: dict[str, str] = field(default_factory=dict)  # path -> version ("" none)

    def of(self, path: str) -> str:
        return self.version.get(path, "")

    def comparable(self, first: str, second: str) -> bool:
        """Whether two files may be compared: the same version, or either has none."""
        a, b = self.of(first), self.of(second)
        return not a or not b or a == b

    def same_line(self, first: str, second: str) -> bool:
        """Whether two files belong to one version line at one version: both unversioned, or
        the same version under the same parent folders (``bindings/sns/0.2.0/`` and
        ``bindings/sqs/0.2.0/`` are two lines; each binding is its own specification)."""
        a, b = self.of(first), self.of(second)
        if not a and not b:
            return True
        return a == b and _family(first, a) == _family(second, b)


def version_lines(paths: Iterable[str], pattern: str | None = DEFAULT_PATTERN) -> VersionLines:
    """Each path's version (the last version-like segment), under ``pattern``; None: none."""
    if pattern is None:
        return VersionLines()
    token = re.compile(pattern)
    listed = sorted(set(paths))
    # Folders whose children include a version: their `draft`/`next` children are versions too.
    versioned_parents: set[str] = set()
    for path in listed:
        parts = path.split("/")
        for index, part in enumerate(parts[:-1]):
            if token.search(part):
                versioned_parents.add("/".join(parts[:index]))
    found: dict[str, str] = {}
    for path in listed:
        parts = path.split("/")
        version = ""
        for index, part in enumerate(parts):
            match = token.search(part)
            if match is not None:
                version = match.group(0)
            elif (
                index < len(parts) - 1
                and part.lower() in UNRELEASED
                and "/".join(parts[:index]) in versioned_parents
            ):
                version = part.lower()
        if version:
            found[path] = version
    return VersionLines(found)


# How far a pre-release is from its release: `2.0.0-beta` < `2.0.0-rc1` < `2.0.0`; a stage this
# does not name (`-rtm.5`, OASIS's `-csd.2`) sits with the release candidates.
_STAGES = {"dev": -4, "snapshot": -4, "alpha": -3, "beta": -2, "rc": -1, "pre": -1, "preview": -1}
_UNBOUNDED = 1 << 30  # the `x` of `1.x`: every release of the 1 line


# `order_key`'s tier of the version being written (an unreleased folder, a development
# placeholder): above every release.
UNRELEASED_KEY: tuple[int, tuple[int, ...], int, tuple[int, ...]] = (1, (), 0, ())


def order_key(version: str) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
    """A version's place in its line: unreleased folders (``draft``, ``next``, ...) above every
    release; releases by their numbers (semantic versions, dates, ``1-0-2``, ``v1_0``), a
    pre-release (``2.0.0-rc1``, Kubernetes' ``v1beta1``) below its release."""
    if version.lower() in UNRELEASED:
        return UNRELEASED_KEY
    text = version.lower()
    text = text.removeprefix("ver") if re.fullmatch(r"ver\d+", text) else text.removeprefix("v")
    release = re.match(r"\d+(?:[._-](?:\d+|x)(?![a-z]))*", text)
    if release is None:
        return (0, (), 0, ())
    numbers = tuple(
        _UNBOUNDED if part == "x" else int(part) for part in re.split(r"[._-]", release.group(0))
    )
    rest = text[release.end() :].lstrip("-.")
    if not rest:
        return (0, numbers, 0, ())
    word = re.match(r"[a-z]+", rest)
    stage = _STAGES.get(word.group(0), -1) if word else -1
    return (0, numbers, stage, tuple(int(n) for n in re.findall(r"\d+", rest)))


def newest_first(versions: Iterable[str]) -> list[str]:
    """The versions of one line, the live one (the newest) first (``order_key``)."""
    return sorted(set(versions), key=lambda v: (order_key(v), v), reverse=True)


def version_place(path: str, version: str) -> tuple[str, str]:
    """A versioned path's line and its place in each version: the path with the version's
    segment marked (``schemas/\0`` for ``schemas/2.0.0/run.json``, ``schemas/run-\0.json`` for
    ``schemas/run-2.0.0.json``) and what follows it (``run.json``; "" for a file version)."""
    parts = path.split("/")
    for index in range(len(parts) - 1, -1, -1):
        part = parts[index]
        if version in part:
            marked = part.replace(version, "\0", 1)
        elif part.lower() == version:
            marked = "\0"
        else:
            continue
        # A release's folder and its files may both name it (`v1.1-document-set/Spec v1.1.md`):
        # the version is marked wherever it stands whole, so the sets line up.
        above = [whole_version(version).sub("\0", folder) for folder in parts[:index]]
        return "/".join([*above, marked]), "/".join(parts[index + 1 :])
    return path, ""


def whole_version(version: str) -> re.Pattern[str]:
    """``version`` where it stands whole (``1.0`` in ``v1.0-set``, not in ``11.0``); also how
    ``speclint.run.history`` takes a version out of a message."""
    return re.compile(rf"(?<![0-9A-Za-z.]){re.escape(version)}(?![0-9A-Za-z]|\.\d)")


# Spellings of one name: `Encryption v1.1.md`, `Encryption_v1.1.md`, `encryption-v1.1.md`.
_SEPARATORS = re.compile(r"[\s_-]+")


@dataclass(frozen=True)
class Snapshot:
    """A released snapshot's maintained copy (``live``), and the snapshot's folder with the
    folder it copies (``examples/2026-04-17/`` of ``examples/``), each "" or ending in ``/``."""

    live: str
    folder: str
    home: str


def maintained_copies(
    paths: Iterable[str], lines: VersionLines, pattern: str | None = DEFAULT_PATTERN
) -> dict[str, Snapshot]:
    """Released snapshots kept beside the text that is still edited: snapshot -> its copy.

    A folder named for a release holds a copy of its parent's files as they were then:
    ``examples/2026-04-17/orders/a.json`` of ``examples/orders/a.json``,
    ``documents/v1.1-document-set/Encryption v1.1.md`` of ``documents/Encryption_v1.1.md`` (the
    same name in another spelling of its separators), and Docusaurus's versioned docs
    (``website/versioned_docs/version-0.6.0/intro.md`` of ``website/docs/intro.md``;
    ``ID_versioned_docs/`` of the docs plugin ``ID``). A file the parent does not hold has no
    maintained copy here (its version line may still have a newer one). The folder's version
    may differ from the file's (``v1.1-document-set/Spec_v1.1.1.md``: a patch in the set)."""
    if pattern is None:
        return {}
    token = re.compile(pattern)
    listed = set(paths)
    spelled: dict[str, str | None] = {}
    for path in sorted(listed):
        key = _SEPARATORS.sub("-", path.lower())
        spelled[key] = None if key in spelled else path  # two spellings of one name: neither
    found: dict[str, Snapshot] = {}
    for path, version in sorted(lines.version.items()):
        if version.lower() in UNRELEASED:
            continue
        parts = path.split("/")
        folders = [
            (i, match.group(0))
            for i in range(len(parts) - 1)
            if (match := token.search(parts[i])) is not None
        ]
        if not folders or folders[-1][1].lower() in UNRELEASED:
            continue
        index, released = folders[-1]
        home = parts[:index]
        if (
            index
            and parts[index] == f"version-{released}"
            and parts[index - 1].endswith("versioned_docs")
        ):
            # Docusaurus: `versioned_docs/version-X/` freezes `docs/`, and a second docs
            # plugin's `ID_versioned_docs/version-X/` freezes `ID/` (docusaurus.io, Versioning).
            plugin = parts[index - 1].removesuffix("versioned_docs").removesuffix("_")
            home = [*parts[: index - 1], plugin or "docs"]
        candidate = "/".join([*home, *parts[index + 1 :]])
        live = (
            candidate
            if candidate in listed
            else spelled.get(_SEPARATORS.sub("-", candidate.lower()))
        )
        if live is not None and live != path:
            folder = "/".join(parts[: index + 1]) + "/"
            found[path] = Snapshot(live, folder, "".join(f"{part}/" for part in home))
    return found


def _family(path: str, version: str) -> str:
    """The folders above a path's version: its version line's name."""
    parts = path.split("/")
    for index, part in enumerate(parts):
        if version in part.lower() or version in part:
            return "/".join(parts[:index])
    return ""
