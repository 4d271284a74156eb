"""Version lines: which files are the same document at different versions (issue 14, item 6).

Spec repositories keep history beside the current text: ``definitions/2.0.0/`` and
``definitions/3.0.0/``, ``schema/2025-03-26/`` and ``schema/draft/``, ``1.0.0.json`` and
``2.0.0.json``. Copies of one definition in two versions are history, not drift, and a table in
the 3.2 pages does not describe the 3.0 schema. A file's version is the version-like segment of
its path (``2.0.0``, ``v1``, ``2025-06-18``; ``draft``, ``next`` or ``latest`` beside versions);
two files are compared only when they have the same version or either has none.

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
DEFAULT_PATTERN = (
    r"(?<![0-9A-Za-z.])(?:v?\d+\.\d+(?:\.\d+)?"
    rf"(?:-(?:{_PRERELEASE_WORD})(?:[.-](?:{_PRERELEASE_WORD}))*)?|v\d+|"
    r"\d+\.x|\d{4}-\d{2}-\d{2})(?![0-9A-Za-z]|\.\d)"
    # A file named by its version number: `manifest-5.json`, `cryproj.52.schema.json`.
    r"|(?<=[-.])\d+(?=(?:\.schema)?\.(?:json|ya?ml)$)"
)
# Folder names that are versions when their siblings are (MCP's `schema/draft/`).
UNRELEASED = frozenset({"draft", "next", "latest", "unreleased", "current", "dev", "main"})


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


def _family(path: str, version: str) -> str:
    """The folders above a path's version: its version line's name."""
    parts = path.split("/")
    for index, part in enumerate(parts):
        if version in part.lower() or version in part:
            return "/".join(parts[:index])
    return ""
