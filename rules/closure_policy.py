"""A shape closed or left open against its role: client-submitted open, branch-closed, or server-emitted closed.

What it does
    Applies the schema-closure policy of RFC 0094 §G to every object shape by the role its uses
    give it (see ``speclint roles``):

    - a **client-submitted** shape (request body, parameter, message a client sends) must be
      closed at its *outermost composition*: ``additionalProperties: false`` on a plain object,
      ``unevaluatedProperties: false`` next to an ``allOf`` (or on each ``oneOf``/``anyOf``
      alternative);
    - an ``allOf`` branch of a client-submitted shape must not close itself: in 2020-12
      ``additionalProperties`` sees only its sibling ``properties``, so a closed branch rejects the
      other branches' fields (RFC 0094 §A);
    - a **server-emitted** shape (response, event, snapshot) must be open at its root, so a host
      can add an optional field in a minor release without breaking clients that validate.

    Each side applies only where the corpus states it in prose (the finding quotes and links that
    statement) or ``enforce`` turns it on: a repository that states no closure policy is not judged.

Why is this bad?
    RFC 0094 §G: an open request schema silently drops a client's misspelt field; a closed
    response schema makes every validating client reject the first optional field a host adds,
    which COMPATIBILITY.md §2.1 allows in any minor release.

Example
    ::

        # schemas/error.schema.json, returned by every error response
        {"type": "object", "properties": {"code": {}, "message": {}},
         "additionalProperties": false}

    FAIL: ``warning [closure-policy] server-emitted shape `schemas/error.schema.json` is closed
    at its root by `additionalProperties: false` ...``

Use instead
    ::

        {"type": "object", "properties": {"code": {}, "message": {}}}

    PASS.

Options
    ``enforce`` (default ``[]``): the sides (``"client"``, ``"server"``) to apply though the
    prose states no policy. Roles come from the API documents; override them per file or
    pointer in ``[roles]`` (``"schemas/x.schema.json" = "client-submitted"``, or ``"unused"``).

Limitations
    A shape with both roles stays open and is closed at its client use sites. A schema-valued
    ``additionalProperties`` (a map) or a ``propertyNames`` constraint is a deliberate closure.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.roles import Role
from speclint.analyses.schemas.shapes import (
    PolicyClause,
    Site,
    UseSite,
    closing_keyword,
    closure_policy,
    follow,
    is_closed_false,
    is_object_shape,
    named_shapes,
    page_clauses,
    use_sites,
)
from speclint.common.findings import Finding, Location, Severity, headed
from speclint.parsing.structured import join_pointer

ID = "closure-policy"
SEVERITY = Severity.WARNING
FACTS = ("references", "roles")  # speclint.analyses.context
# Reads the schemas, and of the prose only its closure-policy clauses (speclint.analyses.units).
READS = "extract"
extract = page_clauses
SHOWN_USES = 3


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    policy = closure_policy(corpus)
    # A repository is judged by its own rules (issue 14): each side of the policy applies where
    # the corpus states it, or the configuration turns it on; never by default.
    enforced = {str(side) for side in options.get("enforce", ())}
    if "client" in policy or "client" in enforced:
        yield from _client_findings(corpus, policy.get("client"))
    if "server" in policy or "server" in enforced:
        yield from _server_findings(corpus, policy.get("server"))


def _cite(clause: PolicyClause | None) -> str:
    return f' ({clause.location.path}: "{clause.text}")' if clause else ""


def _related(clause: PolicyClause | None) -> tuple[Location, ...]:
    return (clause.location,) if clause else ()


# --- client-submitted -------------------------------------------------------------------------


@dataclass
class _Problem:
    site: Site  # where the finding is reported
    what: str  # the defect, in words
    fix: str
    related: list[Location]
    uses: list[UseSite]


def _client_findings(corpus: Context, clause: PolicyClause | None) -> Iterator[Finding]:
    problems: dict[tuple[str, str], _Problem] = {}
    for use in use_sites(corpus):
        if use.role is not Role.CLIENT_SUBMITTED or _overridden(corpus, use.site, "client"):
            continue
        problem = _client_problem(corpus, use.site)
        if problem is None:
            continue
        key = (problem.site.document.path, problem.site.pointer)
        problems.setdefault(key, problem).uses.append(use)
    for (_, pointer), problem in sorted(problems.items()):
        uses = problem.uses
        named = ", ".join(u.label for u in uses[:SHOWN_USES])
        if len(uses) > SHOWN_USES:
            named += f" and {len(uses) - SHOWN_USES} more"
        elsewhere = [
            u.site.location(note=f"client-submitted use: {u.label}")
            for u in uses[:SHOWN_USES]
            if (u.site.document.path, u.site.pointer)
            != (problem.site.document.path, problem.site.pointer)
        ]
        policy = "policy: client-submitted shapes are closed at the outermost composition"
        first = uses[0].label + (f" and {len(uses) - 1} more" if len(uses) > 1 else "")
        brief = problem.what.split(":", 1)[0]  # "is open", "closes `allOf` branches ..."
        yield Finding(
            ID,
            SEVERITY,
            headed(
                f"client-submitted shape ({named}) {problem.what}",
                f"; {policy}{_cite(clause)}. {problem.fix}",
                f"client-submitted shape ({first}) {problem.what}",
                f"client-submitted shape {problem.what}",
                f"client-submitted shape ({first}) {brief}",
                f"client-submitted shape {brief}",
            ),
            problem.site.location(),
            related=(*problem.related, *elsewhere, *_related(clause)),
            key=f"client:{pointer}",
        )


def _client_problem(corpus: Context, use: Site) -> _Problem | None:
    outer = follow(corpus, use)
    if not is_object_shape(outer.node):
        return None
    at_use = closing_keyword(use.node)
    node = outer.node
    composition = node.get("allOf")
    if isinstance(composition, list):
        closed_branches: list[tuple[int, Site, str]] = []
        for index, branch in enumerate(composition):
            branch_site = follow(
                corpus,
                Site(
                    outer.document,
                    join_pointer(join_pointer(outer.pointer, "allOf"), index),
                    branch,
                ),
            )
            keyword = is_closed_false(branch_site.node)
            if keyword:
                closed_branches.append((index, branch_site, keyword))
        composed = (
            at_use == "unevaluatedProperties" or closing_keyword(node) == "unevaluatedProperties"
        )
        if closed_branches:
            listed = ", ".join(
                f"`allOf/{i}` by `{k}: false`"
                + ("" if s.document.path == outer.document.path else f" (in `{s.document.path}`)")
                for i, s, k in closed_branches
            )
            state = (
                "the composition itself is closed"
                if composed
                else "and the composition itself is open"
            )
            return _Problem(
                outer,
                f"closes `allOf` branches instead of the composition: {listed}, {state}. In "
                "2020-12 a branch's closure sees only that branch's properties, so each closed "
                "branch rejects the fields the other branches declare (RFC 0094 §A)",
                "Remove the closing keyword from the branches and put `unevaluatedProperties: "
                "false` next to the `allOf`",
                [
                    s.document.location(
                        join_pointer(s.pointer, k), note=f"allOf/{i} is closed here"
                    )
                    for i, s, k in closed_branches
                ],
                [],
            )
        if composed:
            return None
        return _Problem(
            outer,
            "is open: its `allOf` composition has no `unevaluatedProperties: false`, so a "
            "misspelt field is accepted and silently ignored",
            "Add `unevaluatedProperties: false` next to the `allOf`",
            [],
            [],
        )
    if at_use or closing_keyword(node):
        return None
    for keyword in ("oneOf", "anyOf"):
        alternatives = node.get(keyword)
        if isinstance(alternatives, list) and alternatives:
            if all(
                closing_keyword(
                    follow(
                        corpus,
                        Site(
                            outer.document,
                            join_pointer(join_pointer(outer.pointer, keyword), i),
                            alternative,
                        ),
                    ).node
                )
                for i, alternative in enumerate(alternatives)
            ):
                return None
            return _Problem(
                outer,
                f"is open: not every `{keyword}` alternative is closed and the composition has no "
                "`unevaluatedProperties: false`",
                f"Add `unevaluatedProperties: false` next to the `{keyword}`, or close each "
                "alternative with `additionalProperties: false`",
                [],
                [],
            )
    return _Problem(
        outer,
        "is open: it has no `additionalProperties: false`, so a misspelt field is accepted and "
        "silently ignored",
        "Add `additionalProperties: false` to it (or `unevaluatedProperties: false` at the use "
        "site if the schema is shared with a server-emitted use)",
        [],
        [],
    )


# --- server-emitted ---------------------------------------------------------------------------


def _server_findings(corpus: Context, clause: PolicyClause | None) -> Iterator[Finding]:
    candidates: dict[tuple[str, str], Site] = {}
    for site in named_shapes(corpus):
        candidates[(site.document.path, site.pointer)] = site
    for use in use_sites(corpus):
        if use.role is Role.SERVER_EMITTED:
            candidates.setdefault((use.site.document.path, use.site.pointer), use.site)
    for (path, pointer), site in sorted(candidates.items()):
        keyword = is_closed_false(site.node)
        if keyword is None or not is_object_shape(site.node):
            continue
        roles = corpus.roles.roles_of(path, pointer)
        if "server-emitted" not in roles:
            continue
        both = "client-submitted" in roles
        origins = _origins(corpus, path, pointer)
        shape = f"`{path}`" + (f" at `{pointer}`" if pointer else "")
        fix = (
            f"Remove `{keyword}: false` here and close the client-submitted uses at their use "
            "site instead (`unevaluatedProperties: false` beside the `$ref`)"
            if both
            else f"Remove `{keyword}: false` (document the known fields; clients ignore the rest)"
        )
        also = " (also client-submitted)" if both else ""
        yield Finding(
            ID,
            SEVERITY,
            headed(
                f"server-emitted shape {shape}{also} is closed at its root by `{keyword}: false`",
                ", so a client that validates rejects any optional field a host adds in a minor "
                f"release{origins}; policy: server-emitted shapes stay open{_cite(clause)}. {fix}",
                f"server-emitted shape{also} is closed at its root by `{keyword}: false`",
            ),
            site.at(keyword),
            related=(site.location(note="the shape"), *_related(clause)),
            key=f"server:{pointer}",
        )


def _origins(corpus: Context, path: str, pointer: str) -> str:
    """The first operations or messages that make a location server-emitted."""
    chains: list[str] = []
    for (where, at), evidence in corpus.roles.evidence.items():
        if where == path and (at == pointer or pointer.startswith(at + "/") or at == ""):
            chains += [e.chain[0] for e in evidence if e.role is Role.SERVER_EMITTED]
    unique = sorted(set(chains))
    if not unique:
        return ""
    shown = "; ".join(unique[:SHOWN_USES])
    more = f" and {len(unique) - SHOWN_USES} more" if len(unique) > SHOWN_USES else ""
    return f" (emitted by {shown}{more})"


def _overridden(corpus: Context, site: Site, side: str) -> bool:
    """A ``[roles]`` override that takes this location out of the side's policy."""
    override = corpus.config.roles.get(
        f"{site.document.path}#{site.pointer}"
    ) or corpus.config.roles.get(site.document.path)
    if override is None:
        return False
    return override == "unused" or (side == "client" and override == "server-emitted")
