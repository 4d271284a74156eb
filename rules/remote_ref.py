"""A ``$ref`` to a network URL that the corpus does not hold and no ``ref-map`` entry maps.

What it does
    Reports, once per file, the ``$ref``\\s whose target is an ``http(s)`` URL outside the
    corpus' own ``$id`` namespace, as an ``info`` notice that what is behind them is not
    checked: the first at the finding, the others as related locations. speclint never fetches
    them: resolving references chosen by a pull request over the network would let that pull
    request make the CI machine open arbitrary connections, and makes the result depend on a
    server that can change or vanish. The published JSON Schema metaschemas resolve offline
    (jsonschema-specifications) and are not reported; a generated bundle's references are
    judged at its sources. When a GitHub raw URL
    (``raw.githubusercontent.com/<owner>/<repo>/<branch>/<path>``) names a path the corpus
    holds, the notice says so: the repository's own file can be referenced relatively (it is
    not resolved to that file: the branch named may differ from the one checked). A remote URL
    is often deliberate (a catalog delegating to the upstream schema, an extension naming the
    published parts it builds on), so it is a notice, not a warning; raise it with
    ``[rules] remote-ref = "warning"`` to require vendoring. A URL whose host is a bare word
    (``https://schemas/opengis.org/x.json``: a ``/`` typed for a ``.``; not ``localhost``) can
    never resolve: a ``warning`` of its own, with the URL it likely meant.

Why is this bad?
    Validation and code generation depend on a document the corpus does not pin; it may change
    without a commit, or be unreachable in an offline build.

Example
    ::

        payload:
          $ref: 'https://schemas.example.net/envelope.json'

    FAIL: ``info [remote-ref] `https://schemas.example.net/envelope.json` is a remote `$ref`: not
    checked ...``

Use instead
    Vendor the schema into the corpus and reference it relatively, or keep the URL and map it in
    ``speclint.toml``::

        [ref-map]
        "https://schemas.example.net/" = "vendor/example-net/"

    PASS.

Options
    None (``ref-map`` is corpus configuration).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from speclint.analyses.context import Context
from speclint.analyses.references import Reference, held_at_raw_url
from speclint.common.findings import Finding, Severity, headed
from speclint.model.corpus import Document

ID = "remote-ref"
# A notice: a remote URL is often deliberate (a catalog delegating to the upstream schema, an
# extension naming the published parts it builds on, a meta-schema), and nothing is wrong yet.
SEVERITY = Severity.INFO
FACTS = ("derived", "references")  # speclint.analyses.context
# Reads JSON/YAML documents only: its cached result stands while only prose changes.
READS = "structured"


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    by_file: dict[str, list[Reference]] = defaultdict(list)
    for reference in corpus.references.references:
        if reference.outcome == "remote" and reference.path not in corpus.derived:
            by_file[reference.path].append(reference)
    for path, references in sorted(by_file.items()):
        document = corpus.documents[path]
        malformed = [r for r in references if _not_a_host(r.target)]
        yield from (_malformed(document, r) for r in malformed)
        references = [r for r in references if r not in malformed]
        if not references:
            continue
        # In the order the file writes them: the finding sits at the first.
        references.sort(key=lambda r: (document.location(r.pointer).line, r.pointer))
        first, *others = references
        urls = sorted({r.target.split("#", 1)[0] for r in references})
        hosts = sorted({urlsplit(url).netloc for url in urls})
        local = {url: held_at_raw_url(corpus.documents, url) for url in urls}
        held = sorted(url for url, path in local.items() if path)
        fix = (
            "vendor the schemas and reference them relatively, or map the URLs to corpus files "
            "with [ref-map] in speclint.toml"
        )
        if held and len(held) == len(urls):
            fix = (
                "each names a file this repository holds at the same path (a GitHub raw URL): "
                "reference those files relatively"
            )
        elif held:
            fix += (
                f"; {len(held)} of the URLs name files this repository holds (GitHub raw URLs "
                "of the same path): reference those relatively"
            )
        if len(urls) == 1:
            fix = (
                f"`{local[urls[0]]}` is that file in this repository: reference it relatively"
                if held
                else "vendor the schema and reference it relatively, or map the URL to a corpus "
                "file with [ref-map] in speclint.toml"
            )
            message = headed(
                f"`{first.value}` is a remote `$ref`: not checked",
                " (speclint never fetches, so the schema behind it is not validated and nothing "
                f"is resolved through it); {fix}",
                f"a remote `$ref` to {hosts[0]} is not checked",
            )
        else:
            what = f"{len(references)} remote `$ref`s to {len(urls)} URLs"
            message = headed(
                f"{what} ({', '.join(hosts)}) are not checked",
                " (speclint never fetches, so the schemas behind them are not validated and "
                f"nothing is resolved through them); {fix}",
                f"{what} on {len(hosts)} hosts are not checked",
            )
        related = []
        for reference in others:
            holds = local[reference.target.split("#", 1)[0]]
            held_note = f" (this repository holds `{holds}`)" if holds else ""
            related.append(
                document.location(reference.pointer, note=f"`{reference.value}`{held_note}")
            )
        yield Finding(
            ID,
            SEVERITY,
            message,
            document.location(first.pointer),
            related=tuple(related),
            key="remote-refs",
        )


def _not_a_host(url: str) -> bool:
    """Whether the URL's host is a bare word that names no host on the network: no dot, not
    ``localhost``, not an address (``https://schemas/opengis.org/x.json``: a `/` for a `.`)."""
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return False
    return bool(host) and "." not in host and ":" not in host and host != "localhost"


def _malformed(document: Document, reference: Reference) -> Finding:
    parts = urlsplit(reference.target)
    segments = parts.path.lstrip("/").split("/", 1)
    meant = ""
    if "." in segments[0]:
        # `https://schemas/opengis.org/cql2.json` -> `https://schemas.opengis.org/cql2.json`
        rest = f"/{segments[1]}" if len(segments) > 1 else ""
        meant = f" (did you mean `{parts.scheme}://{parts.netloc}.{segments[0]}{rest}`?)"
    return Finding(
        ID,
        Severity.WARNING,
        headed(
            f"`{reference.value}`: the host `{parts.netloc}` is not a domain name, so this "
            f"`$ref` can never resolve{meant}",
            ". Fix the URL, or reference the schema relatively if the repository holds it",
            f"this `$ref`'s host `{parts.netloc}` is not a domain name{meant}",
        ),
        document.location(reference.pointer),
        key=f"malformed:{reference.pointer}",
    )
