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

The catalog (``catalog.json``) maps each ``$id`` to its file, title, role and draft.
``speclint build --check`` builds in memory and compares with the output folder: a stale,
missing or extra file fails the check, the pattern that keeps generated artifacts honest.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

from .corpus import Corpus, Document, DocumentKind, glob_to_regex
from .references import REMOTE_SCHEMES, file_uri, ref_sites

CATALOG = "catalog.json"


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


@dataclass(frozen=True)
class Staleness:
    missing: list[str]
    stale: list[str]
    extra: list[str]

    @property
    def clean(self) -> bool:
        return not (self.missing or self.stale or self.extra)


def render(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def base_uri(document: Document) -> str:
    """The URI a schema document is known by: its ``$id`` (absolute), else its corpus file URI."""
    declared = document.data.get("$id") if isinstance(document.data, dict) else None
    uri = file_uri(document.path)
    return urldefrag(urljoin(uri, declared)).url if isinstance(declared, str) else uri


def selected(corpus: Corpus) -> list[Document]:
    patterns = [glob_to_regex(p) for p in corpus.config.build_schemas]
    return [
        document
        for document in corpus.of_kind(DocumentKind.SCHEMA)
        if isinstance(document.data, dict)
        and (not patterns or any(p.match(document.path) for p in patterns))
    ]


def bundle(corpus: Corpus, document: Document) -> tuple[dict[str, Any] | None, list[BuildProblem]]:
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
            written = urldefrag(urljoin(base, value)).url
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
    from jsonschema.validators import validator_for

    from .validation import metaschema_registry

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
    from referencing import Registry
    from referencing.exceptions import Unresolvable
    from referencing.jsonschema import DRAFT202012, specification_with

    dialect = schema.get("$schema")
    specification = (
        specification_with(dialect.rstrip("#"), default=DRAFT202012)
        if isinstance(dialect, str)
        else DRAFT202012
    )
    registry: Registry[Any] = Registry().with_resource(
        schema["$id"], specification.create_resource(schema)
    )
    registry = registry.crawl()
    probe = Document(path, DocumentKind.SCHEMA, data=schema)
    for pointer, value, base in ref_sites(probe):
        target = urljoin(base, value)
        if urlsplit(target).scheme in REMOTE_SCHEMES and urldefrag(target).url not in schema.get(
            "$defs", {}
        ):
            continue  # kept remote on purpose (warned above)
        try:
            registry.resolver(base_uri=base).lookup(value)
        except Unresolvable:
            return f"`{value}` at #{pointer}"
    return None


def build(corpus: Corpus) -> BuildResult:
    """Every selected schema bundled, and the catalog, as output-relative path -> text."""
    result = BuildResult()
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
    return result


def staleness(result: BuildResult, output: Path) -> Staleness:
    """How the output folder differs from a fresh build."""
    missing, stale = [], []
    for relative, text in sorted(result.files.items()):
        target = output / relative
        if not target.is_file():
            missing.append(relative)
        elif target.read_text(encoding="utf-8") != text:
            stale.append(relative)
    present = (
        sorted(p.relative_to(output).as_posix() for p in output.rglob("*.json") if p.is_file())
        if output.is_dir()
        else []
    )
    extra = [p for p in present if p not in result.files]
    return Staleness(missing, stale, extra)


def write(result: BuildResult, output: Path) -> None:
    for relative, text in result.files.items():
        target = output / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
    for extra in staleness(result, output).extra:
        (output / extra).unlink()  # a schema that is gone (or no longer selected)
