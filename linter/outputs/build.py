"""``speclint build``: self-contained bundles of the corpus's schemas and a catalog of them.

A bundle is a Compound Schema Document (JSON Schema 2020-12 §9.3, "Bundling"): the schema as
written, with every schema resource it reaches through ``$ref`` (transitively) embedded whole
under ``$defs``, keyed by the resource's absolute URI and carrying that URI as its ``$id``. The
original ``$ref`` values are kept: they resolve, from the bundle's own ``$id``, to the embedded
resources, so a validator needs nothing but the bundle. A schema without ``$id`` is given the
URI speclint resolves it by (``file:///corpus/<path>``), which keeps its relative references
meaning what they meant in the corpus. A remote reference that ``[ref-map]`` maps to a corpus
file is embedded under its remote URI (vendoring it); an unmapped remote reference is kept as it
is, with a warning, since speclint never fetches.

(jsonschema-rs 0.60 has ``bundle()``, but it embeds the target *subschema* under the whole
document's URI, so ``common.schema.json#/$defs/Id`` no longer resolves in its output; it is not
used here. Each bundle built here is checked to resolve every local ``$ref`` on its own.)

Each OpenAPI 3.x / AsyncAPI document is bundled into one file as well
(``speclint.outputs.api_bundle``); one that cannot be (an unresolved ``$ref``) is "not built", and
``--check`` fails on it.

The catalog (``catalog.json``) maps each ``$id`` to its file, title, role and draft.
``speclint build --check`` builds in memory and compares with the output folder: a stale,
missing or extra file fails the check, the pattern that keeps generated artifacts honest.

The output folder is the build's, and only what the build wrote in it is touched (issues 13, 25).
The manifest ``.speclint-build.json`` lists every file the build wrote, with its sha256. A later
build deletes only files that the manifest lists, that it no longer produces, and that still hold
the bytes it wrote; any other file in the folder (a ``package.json``, a hand-written note) is never
touched. A file at a path the build writes is replaced only when the manifest lists it or it holds
those very bytes already: a ``catalog.json`` of someone else's stops the build. Files are written
whole (``writing``), and never through a symlink: the output path is resolved as the system
resolves it before it is compared with the (resolved) root, and at or below the root every folder
on the way must be a real folder. An output folder that is the corpus root, contains it, lies in
``.git``, or holds the corpus's source files (``[build] output = "schemas"``) is refused, and so
is any target in the way (a link, a file where a folder goes, a file the build did not write):
all are checked before anything is written. A missing output folder is created. Nothing the
manifest names is read, looked at or deleted through a symlink in the folder (a committed
``build/etc -> /etc`` with a manifest naming ``etc/passwd``), nor out of it: such an entry is said
"not read", in the same words whether a file is there or not (issue 44).
"""

from __future__ import annotations

import copy
import errno
import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit

from jsonschema.validators import validator_for
from referencing import Registry
from referencing.exceptions import Unresolvable

from speclint.analyses.context import Context
from speclint.analyses.references import REMOTE_SCHEMES, file_uri, join_uri, ref_sites, tolerant
from speclint.analyses.validation import metaschema_registry
from speclint.common.writing import write_output
from speclint.model.corpus import Document, glob_to_regex, parse_document
from speclint.outputs.api_bundle import (
    BundleError,
    api_documents,
    bundle_api,
    dereference,
    render_bundle,
    unparsed_api_documents,
)
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.reading import read_raw

CATALOG = "catalog.json"
MANIFEST = ".speclint-build.json"
MANIFEST_VERSION = 1


class BuildError(Exception):
    """The build cannot write where it was asked to; the message says why."""


@dataclass(frozen=True)
class BuildProblem:
    path: str
    message: str
    fatal: bool  # True: the schema was not built


@dataclass
class BuildResult:
    files: dict[str, str] = field(default_factory=dict)  # output-relative path -> text
    problems: list[BuildProblem] = field(default_factory=list)
    bundles: dict[str, Any] = field(default_factory=dict)  # corpus path -> bundled schema
    # corpus path of an API document -> its single-file bundle (plain data), and its output path
    api_bundles: dict[str, Any] = field(default_factory=dict)
    api_outputs: dict[str, str] = field(default_factory=dict)
    api_not_built: list[str] = field(default_factory=list)  # API documents that could not be


@dataclass(frozen=True)
class Staleness:
    missing: list[str]
    stale: list[str]
    extra: list[str]
    # entries of the manifest that are not read, with why: through a symlink, out of the folder
    refused: list[tuple[str, str]] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.missing or self.stale or self.extra or self.refused)


def render(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def base_uri(document: Document) -> str:
    """The URI a schema document is known by: its ``$id`` (absolute), else its corpus file URI."""
    declared = document.data.get("$id") if isinstance(document.data, dict) else None
    uri = file_uri(document.path)
    joined = join_uri(uri, declared) if isinstance(declared, str) else None
    return urldefrag(joined).url if joined is not None else uri


def selected(corpus: Context) -> list[Document]:
    patterns = [glob_to_regex(p) for p in corpus.config.build_schemas]
    return [
        document
        for document in corpus.of_kind(DocumentKind.SCHEMA)
        if isinstance(document.data, dict)
        and (not patterns or any(p.match(document.path) for p in patterns))
    ]


def bundle(corpus: Context, document: Document) -> tuple[dict[str, Any] | None, list[BuildProblem]]:
    """The bundle of one schema document, or None with the reasons it cannot be built."""
    index = corpus.references
    invalid = _metaschema_error(document.data)
    if invalid is not None:
        return None, [
            BuildProblem(
                document.path,
                f"cannot be bundled: it is not a valid schema ({invalid}); see `schema-invalid`",
                fatal=True,
            )
        ]
    problems: list[BuildProblem] = []
    root_uri = base_uri(document)
    embedded: dict[str, Any] = {}
    queue = [document]
    visited = {document.path}
    while queue:
        holder = queue.pop(0)
        for pointer, value, base in ref_sites(holder):
            reference = index.at(holder.path, pointer)
            joined = join_uri(base, value)
            if joined is None:
                continue  # not a URI reference: unresolved-ref reports it, the build drops it
            written = urldefrag(joined).url
            where = f"`{value}` at {holder.path}#{pointer}"
            if reference is None:
                continue
            if reference.outcome == "remote" or (
                urlsplit(written).scheme in REMOTE_SCHEMES and reference.target_path is None
            ):
                problems.append(
                    BuildProblem(
                        document.path,
                        f"keeps the remote reference {where}: speclint does not fetch it; map it "
                        "to a corpus file with [ref-map] to embed it",
                        fatal=False,
                    )
                )
                continue
            if reference.outcome != "ok" or reference.target_path is None:
                problems.append(
                    BuildProblem(
                        document.path,
                        f"cannot be bundled: {where} does not resolve ({reference.outcome}); "
                        "see `unresolved-ref`",
                        fatal=True,
                    )
                )
                continue
            target = corpus.documents.get(reference.target_path)
            if target is None or target.path == document.path or written == root_uri:
                continue
            if target.kind is not DocumentKind.SCHEMA:
                problems.append(
                    BuildProblem(
                        document.path,
                        f"cannot be bundled: {where} points into {target.path}, which is not a "
                        "schema file",
                        fatal=True,
                    )
                )
                continue
            if written in embedded:
                continue
            resource = copy.deepcopy(target.data)
            if isinstance(resource, dict):
                resource["$id"] = written
            embedded[written] = resource
            if target.path not in visited:
                visited.add(target.path)
                queue.append(target)
    if any(p.fatal for p in problems):
        return None, problems
    result = copy.deepcopy(document.data)
    result.setdefault("$id", root_uri)
    if embedded:
        definitions = result.setdefault("$defs", {})
        for uri in sorted(embedded):
            definitions[uri] = embedded[uri]
    unresolved = _unresolved(result, document.path)
    if unresolved:
        return None, [
            *problems,
            BuildProblem(
                document.path,
                f"cannot be bundled: {unresolved} does not resolve inside the bundle (it reaches "
                "its target only through a file path, not the target's `$id`: write the `$ref` "
                "relative to the `$id`)",
                fatal=True,
            ),
        ]
    return result, problems


def _metaschema_error(schema: dict[str, Any]) -> str | None:

    cls = validator_for(schema, default=None)
    if cls is None:
        return None  # an unknown dialect: schema-invalid says so; bundle it as written
    meta = cls(cls.META_SCHEMA, registry=metaschema_registry())
    error = next(iter(sorted(meta.iter_errors(schema), key=lambda e: list(e.path))), None)
    if error is None:
        return None
    where = "/" + "/".join(str(p) for p in error.absolute_path)
    return f"{where}: {error.message}"


def _unresolved(schema: dict[str, Any], path: str) -> str | None:
    """The first local ``$ref`` of a bundle that does not resolve in the bundle alone."""

    dialect = schema.get("$schema")
    # Tolerant: an embedded `$id` that is no URI (`http://[bad`) names nothing, not a crash.
    specification = tolerant(dialect if isinstance(dialect, str) else "")
    registry: Registry[Any] = Registry().with_resource(
        schema["$id"], specification.create_resource(schema)
    )
    registry = registry.crawl()
    probe = Document(path, DocumentKind.SCHEMA, data=schema)
    for pointer, value, base in ref_sites(probe):
        target = join_uri(base, value)
        if target is None:
            continue  # not a URI reference: unresolved-ref reports it
        if urlsplit(target).scheme in REMOTE_SCHEMES and urldefrag(target).url not in schema.get(
            "$defs", {}
        ):
            continue  # kept remote on purpose (warned above)
        try:
            registry.resolver(base_uri=base).lookup(value)
        except Unresolvable:
            return f"`{value}` at #{pointer}"
    return None


def build(corpus: Context, dereferenced: bool = False) -> BuildResult:
    """Every selected schema bundled, every OpenAPI/AsyncAPI document bundled into one file
    (``speclint.outputs.api_bundle``; ``dereferenced``: with no ``$ref`` left), and the catalog, as
    output-relative path -> text."""
    result = BuildResult()
    _build_api(corpus, result, dereferenced)
    catalog: dict[str, Any] = {}
    for document in selected(corpus):
        built, problems = bundle(corpus, document)
        result.problems += problems
        if built is None:
            continue
        result.bundles[document.path] = built
        result.files[document.path] = render(built)
        title = document.data.get("title")
        catalog[base_uri(document)] = {
            "file": document.path,
            "title": title if isinstance(title, str) else None,
            "role": corpus.roles.role_name(document.path, ""),
            "draft": document.data.get("$schema"),
        }
    result.files[CATALOG] = render(dict(sorted(catalog.items())))
    result.files[MANIFEST] = render(
        {
            "speclint-build": MANIFEST_VERSION,
            "files": {
                relative: hashlib.sha256(text.encode("utf-8")).hexdigest()
                for relative, text in sorted(result.files.items())
            },
        }
    )
    return result


def _build_api(corpus: Context, result: BuildResult, dereferenced: bool) -> None:
    for path, why in unparsed_api_documents(corpus):
        result.problems.append(BuildProblem(path, why, True))
        result.api_not_built.append(path)
    for document in api_documents(corpus):
        try:
            built = bundle_api(corpus, document)
            if dereferenced:
                built.tree = dereference(built.tree)
        except BundleError as error:
            result.problems.append(BuildProblem(document.path, str(error), True))
            result.api_not_built.append(document.path)
            continue
        for note in built.renamed:
            result.problems.append(BuildProblem(document.path, f"renamed: {note}", False))
        for remote in built.kept_remote:
            result.problems.append(
                BuildProblem(
                    document.path,
                    f"remote `$ref` kept (speclint never fetches; map it with [ref-map] to "
                    f"bundle it): {remote}",
                    False,
                )
            )
        extension, text = render_bundle(built, corpus.config.build_api_format)
        stem = document.path.rsplit(".", 1)[0]
        output = f"{stem}{extension}"
        result.files[output] = text
        result.api_bundles[document.path] = built.plain()
        result.api_outputs[document.path] = output


# --- the output folder ----------------------------------------------------------------------------


# What Linux allows on one path lookup before ELOOP: a loop of links is an error, not a hang.
_MAX_LINKS = 40


def output_folder(corpus: Context, explicit: Path | None = None) -> tuple[Path, Path]:
    """(the output folder, every link on the way resolved; the real folder below which nothing
    is followed and missing folders are created), or :class:`BuildError` when the folder is not
    one the build may own."""
    root = corpus.root  # resolved by Corpus.load
    named = root / corpus.config.build_output if explicit is None else explicit.absolute()
    folder, confined = _locate(named, root)
    if root.is_relative_to(folder):
        raise BuildError(
            f"{folder} is the corpus root or contains it: the build would write among the "
            "sources; choose a folder of its own (default `build`)"
        )
    if folder.is_relative_to(root):
        confined = root
        relative = folder.relative_to(root).as_posix()
        if ".git" in relative.split("/"):
            raise BuildError(f"{folder} is inside .git; choose another output folder")
        owned = {*_manifest(folder), MANIFEST}  # the manifest is the build's own, too
        includes = [glob_to_regex(p) for p in corpus.config.include]
        sources = sorted(
            path
            for path in corpus.tree
            if path.startswith(relative + "/")
            and path[len(relative) + 1 :] not in owned
            and any(r.match(path) for r in includes)
            and _is_source(root, path)
        )
        if sources:
            shown = ", ".join(sources[:3]) + (
                f" and {len(sources) - 3} more" if len(sources) > 3 else ""
            )
            raise BuildError(
                f"{folder} holds source files of the corpus ({shown}); the build would "
                "overwrite or delete them: choose an output folder of its own (default `build`)"
            )
    return folder, confined


def _locate(path: Path, root: Path) -> tuple[Path, Path]:
    """``path`` resolved the way the system resolves it, and the deepest folder of it that exists.

    The root is resolved, so the output must be too before the two are compared: a corpus named
    through a symlinked folder (``/tmp`` is one on macOS) was taken for outside its own root, and
    a committed ``build -> ../outside`` was then followed (issue 25). A link outside the root is
    the user's, and is followed; a link at or below the root is the repository's, and is refused.
    Each step is ``lstat``-ed, so a link is never followed by accident on the way."""
    pending = list(reversed(path.parts[1:]))
    current = deepest = Path(path.anchor)
    links = 0
    while pending:
        part = pending.pop()
        if part in ("", "."):
            continue
        if part == "..":
            if current == deepest:
                deepest = deepest.parent  # the parent of a real folder is real
            current = current.parent
            continue
        candidate = current / part
        if current != deepest:
            current = candidate  # below a folder that does not exist: nothing to follow
            continue
        try:
            status = os.lstat(candidate)
        except FileNotFoundError:
            current = candidate
            continue
        except OSError as error:
            raise BuildError(f"cannot use {candidate}: {error.strerror or error}") from None
        if stat.S_ISLNK(status.st_mode):
            if candidate.is_relative_to(root):
                raise BuildError(
                    f"{candidate} is a symlink; the build never writes through a symlink (it "
                    "could point out of the repository): remove it, or choose another folder"
                )
            links += 1
            if links > _MAX_LINKS:
                raise BuildError(f"cannot use {path}: {os.strerror(errno.ELOOP)}")
            try:
                target = Path(os.readlink(candidate))
            except OSError as error:
                raise BuildError(f"cannot use {candidate}: {error.strerror or error}") from None
            if target.is_absolute():
                current = deepest = Path(target.anchor)
                pending.extend(reversed(target.parts[1:]))
            else:
                pending.extend(reversed(target.parts))
            continue
        if not stat.S_ISDIR(status.st_mode):
            raise BuildError(f"{candidate} is not a folder")
        current = deepest = candidate
    return current, deepest


def _manifest_document(folder: Path) -> dict[str, Any] | None:
    """The manifest in ``folder`` as a JSON object, when there is one that says it is one."""
    raw = read_raw(folder, MANIFEST) if folder.is_dir() else None
    if not isinstance(raw, bytes):
        return None
    try:
        document = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return document if isinstance(document, dict) and "speclint-build" in document else None


def _manifest(folder: Path) -> dict[str, str]:
    """What the last build wrote in ``folder`` (path -> sha256); empty when there is no valid
    manifest. The manifest is in the repository, so it is checked like any input: only plain
    relative paths below the folder are believed."""
    document = _manifest_document(folder)
    if document is None or document.get("speclint-build") != MANIFEST_VERSION:
        return {}
    files = document.get("files")
    if not isinstance(files, dict):
        return {}
    return {
        relative: digest
        for relative, digest in files.items()
        if isinstance(relative, str)
        and isinstance(digest, str)
        and _plain_relative(relative)
        and relative != MANIFEST
    }


def manifest_refusals(folder: Path) -> list[tuple[str, str]]:
    """The manifest's entries that are never read, each with why: a path out of the folder
    (``../x``, ``/etc/x``), or one through a symlink in it (``etc/passwd`` with ``etc -> /etc``
    committed). Nothing past the symlink is looked at, so what is said is the same whether a
    file is there or not (issue 44: ``--check`` said "build/etc/passwd: extra")."""
    document = _manifest_document(folder) or {}
    files = document.get("files")
    if not isinstance(files, dict) or document.get("speclint-build") != MANIFEST_VERSION:
        return []
    found = []
    for relative in sorted(name for name in files if isinstance(name, str) and name != MANIFEST):
        if not _plain_relative(relative):
            found.append((relative, "it is not a path below the output folder"))
            continue
        link = _symlink_on_the_way(folder, relative)
        if link is not None:
            way = "it is a symlink" if link == relative else f"it is through the symlink {link}"
            found.append((relative, f"{way}; nothing the manifest lists is read through one"))
    return found


def _plain_relative(path: str) -> bool:
    parts = path.split("/")
    return (
        bool(path)
        and not path.startswith("/")
        and "\\" not in path
        and all(part not in ("", ".", "..") for part in parts)
    )


def _read(folder: Path, relative: str) -> bytes | None:
    """An output file's bytes, or None: never through a symlink, at the file or a folder on the
    way (``read_raw`` looks at the file's own name only: a committed ``build/etc -> /etc`` made
    ``etc/passwd`` readable)."""
    if _symlink_on_the_way(folder, relative) is not None:
        return None
    raw = read_raw(folder, relative)
    return raw if isinstance(raw, bytes) else None


def _symlink_on_the_way(folder: Path, relative: str) -> str | None:
    """The first part of ``relative`` below ``folder`` (a folder on the way, or the file) that
    is a symlink, as a path below ``folder``; None when there is none, or when a part is missing
    (nothing below it to follow). Each part is ``lstat``-ed and nothing past a symlink is, so
    nothing out of the folder is ever looked at."""
    current = folder
    parts = relative.split("/")
    for index, part in enumerate(parts):
        current = current / part
        try:
            status = os.lstat(current)
        except OSError:
            return None
        if stat.S_ISLNK(status.st_mode):
            return "/".join(parts[: index + 1])
    return None


def staleness(result: BuildResult, output: Path) -> Staleness:
    """How the output folder differs from a fresh build. ``extra`` are the files the last build
    wrote (its manifest says so) that this build would not write; other files are not the
    build's business."""
    missing, stale = [], []
    for relative, text in sorted(result.files.items()):
        # Through a link below the folder is not in it: the build would refuse to write there.
        found = _read(output, relative)
        if found is None:
            missing.append(relative)
        elif found != text.encode("utf-8"):
            stale.append(relative)  # a torn or edited file too: bytes, not text, are compared
    refused = manifest_refusals(output)
    unread = {relative for relative, _ in refused}
    extra = [
        relative
        for relative in sorted(_manifest(output))
        if relative not in result.files
        and relative not in unread
        and _read(output, relative) is not None
    ]
    return Staleness(missing, stale, extra, [r for r in refused if r[0] not in result.files])


@dataclass(frozen=True)
class Written:
    written: list[str]  # files (re)written
    deleted: list[str]  # files of an earlier build that this one does not produce
    kept: list[str]  # such files that changed since the build wrote them: left in place
    # entries of the earlier manifest not looked at, with why (manifest_refusals)
    refused: list[tuple[str, str]] = field(default_factory=list)


_FOREIGN = (
    f"exists and speclint did not write it (no {MANIFEST} in its folder lists it); the build "
    "never overwrites a file it did not write"
)


def _in_the_way(result: BuildResult, output: Path, confined: Path) -> list[tuple[Path, str]]:
    """Every target of the build that it must not write, with the reason: a symlink or a file
    on the way to it (every folder from ``confined`` down is looked at), or a file there that the
    build did not write. All are found before anything is written (issue 25: a link found half
    way left orphaned outputs that blocked every later build)."""
    previous = _manifest(output)
    found: dict[Path, str] = {}
    for relative, text in sorted(result.files.items()):
        target = output / relative
        on_the_way = _folder_in_the_way(confined, target.parent)
        if on_the_way is not None:
            found.setdefault(*on_the_way)
            continue
        reason = _occupied(output, relative, text, previous)
        if reason is not None:
            found[target] = reason
    return sorted(found.items())


def _folder_in_the_way(confined: Path, folder: Path) -> tuple[Path, str] | None:
    current = confined
    for part in folder.relative_to(confined).parts:
        current = current / part
        try:
            status = os.lstat(current)
        except FileNotFoundError:
            return None  # it and all below it are created as real folders
        except OSError as error:
            return current, f"cannot be used ({error.strerror or error})"
        if stat.S_ISLNK(status.st_mode):
            return current, (
                "is a symlink; the build never writes through a symlink (it could point out of "
                "the repository)"
            )
        if not stat.S_ISDIR(status.st_mode):
            return current, "is not a folder"
    return None


def _occupied(output: Path, relative: str, text: str, previous: dict[str, str]) -> str | None:
    """Why the file at ``relative`` must not be replaced, or None. A file is the build's when
    the folder's manifest lists it (an edited or torn bundle is rebuilt: that is what `--check`
    calls stale) or when it already holds the very bytes the build writes; anything else there
    is someone else's file (issue 25: a `catalog.json` of the user's was overwritten, then
    deleted as no longer built)."""
    try:
        status = os.lstat(output / relative)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot be used ({error.strerror or error})"
    if stat.S_ISLNK(status.st_mode):
        return "is a symlink, which the build did not make"
    if stat.S_ISDIR(status.st_mode):
        return "is a folder"
    if not stat.S_ISREG(status.st_mode):
        return "is not a regular file"
    if relative == MANIFEST:
        return None if _manifest_document(output) is not None else _FOREIGN
    if relative in previous or _read(output, relative) == text.encode("utf-8"):
        return None
    return _FOREIGN


def _refusal(blocked: list[tuple[Path, str]]) -> str:
    """One line for what :func:`_in_the_way` found."""
    (first, reason), rest = blocked[0], blocked[1:]
    also = ""
    if rest:
        named = ", ".join(str(path) for path, _ in rest[:3])
        more = f" and {len(rest) - 3} more" if len(rest) > 3 else ""
        also = f" (in the way too: {named}{more})"
    return (
        f"{first} {reason}{also}: move it away, or choose another output folder; nothing was "
        "written"
    )


def write(result: BuildResult, output: Path, confined: Path | None = None) -> Written:
    """Write the build into ``output``; raises :class:`BuildError`, with nothing written, when a
    target is in the way (:func:`_in_the_way`), and ``writing.OutputError`` when a file cannot be
    written (nothing is deleted then)."""
    blocked = _in_the_way(result, output, confined or output)
    if blocked:
        raise BuildError(_refusal(blocked))
    previous = _manifest(output)
    refused = [entry for entry in manifest_refusals(output) if entry[0] not in result.files]
    written: list[str] = []
    # The manifest last: until it is written, the old one still names what is on disk.
    for relative in sorted(result.files, key=lambda r: (r == MANIFEST, r)):
        text = result.files[relative]
        target = output / relative
        if _read(output, relative) == text.encode("utf-8"):
            continue
        write_output(target, text, confined=confined or output)
        written.append(relative)
    deleted, kept = [], []
    for relative, digest in sorted(previous.items()):
        if relative in result.files or _symlink_on_the_way(output, relative) is not None:
            continue  # through a symlink: not looked at (manifest_refusals says so)
        target = output / relative
        try:
            status = os.lstat(target)
        except OSError:
            continue  # gone already
        content = _read(output, relative)
        if (
            not stat.S_ISREG(status.st_mode)
            or content is None
            or hashlib.sha256(content).hexdigest() != digest
        ):
            kept.append(relative)
            continue
        try:
            target.unlink()
            deleted.append(relative)
        except OSError:
            kept.append(relative)
    return Written(written, deleted, kept, refused)


def _is_source(root: Path, path: str) -> bool:
    """Whether a file the build did not write is corpus content by what it is (a schema, an API
    document, an instance, a page): a stray ``notes.json`` in the output folder is not, and is
    left alone; a schema there means the folder holds sources."""
    raw = read_raw(root, path)
    if not isinstance(raw, bytes):
        return False
    document = parse_document(path, raw)
    return document.usable and document.kind is not DocumentKind.DATA
