"""A counted claim ("the four kind discriminators") that no longer matches what it counts.

What it does
    Finds numbers (a word or digits) before what they count: "four `kind` discriminators", "the
    three interrupt kinds", "five modes". A claim is checked against the value sets the same page
    states for the same field (a union, a table column, a list, a code-fence union; see
    ``enum-drift``):

    - a claim that carries its own list ("the eight `kind` discriminators (`a`, `b`, ...)") must
      count that list;
    - otherwise the claim names a field (a code span, `` `kind` ``) or a noun ("kinds") and any
      words before it ("interrupt kinds"); the page's complete value sets for that field, whose
      text also uses those words, are what it counts. A count "of" something ("6 variants of
      URI") counts only a list whose text speaks of it.

    The claim is reported when its number matches none of them.

Why is this bad?
    RFC 0094 §E: interrupt.md's status line said "four kind discriminators" after the page had
    grown to define eight, so readers trusted the wrong number, and the schema union copied it.

Example
    ::

        Status: Stable. Covers the three interrupt kinds.
        ...
        | `kind` | meaning |
        | `approval` | ... |  (four rows)

    FAIL: ``warning [count-drift] claims 3 interrupt kinds, but this page lists 4 values of
    `kind` (line 9: `approval`, ...)``

Use instead
    ``Status: Stable. Covers the four interrupt kinds.`` PASS.

Options
    None.

Limitations
    A claim with no such set on its page is not checked: there is nothing to count. A bare
    claim ("two types of fields") counts only a list within 40 lines of it. A number of
    instances ("at most three modes") or a pair taken to compare ("between two states") is no
    claim.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.prose.enumerations import (
    SHAPE_FORMS,
    CountedClaim,
    ProseSet,
    counted_claims,
    prose_sets,
)
from speclint.analyses.units import check_by_unit
from speclint.common.findings import Finding, Severity, first_fitting
from speclint.model.corpus import Document

ID = "count-drift"
SEVERITY = Severity.WARNING
FACTS = ("references",)  # speclint.analyses.context


# Lines between a bare claim ("the three modes", no field named) and the list it counts.
NEARBY = 40


READS = "page"  # each page's claims against its own lists (speclint.analyses.units)
READS_PROSE_SETS = True  # the pages' value sets, made before it runs (speclint.run.catalog)


def shared(corpus: Context) -> None:
    """No JSON/YAML document is read: a schema edit keeps every page's result."""
    return None


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    return list(_page_findings(document))


def _page_findings(document: Document) -> Iterator[Finding]:
    # (enum-drift's preview shapes, issue 46 item 10, are not counted: unmeasured here)
    sets = [p for p in prose_sets(document) if p.form not in SHAPE_FORMS]
    for prose in sets:
        if prose.claimed is not None and prose.claimed != len(prose.values):
            yield Finding(
                ID,
                SEVERITY,
                first_fitting(
                    f"claims {prose.claimed} values of `{prose.field or 'this field'}` but lists "
                    f"{len(prose.values)}: {_shown(prose)}. Correct the number, or the list",
                    f"claims {prose.claimed} values of `{prose.field or 'this field'}` but lists "
                    f"{len(prose.values)}. Correct the number, or the list",
                    f"claims {prose.claimed} values but lists {len(prose.values)}. Correct the "
                    "number, or the list",
                ),
                prose.location(),
                key=f"list:{prose.line}",
            )
    listed_lines = {p.line for p in sets if p.claimed is not None}
    for claim in counted_claims(document):
        if claim.line in listed_lines:
            continue  # checked against its own list above
        counted = _counted(claim, sets)
        if not counted or any(len(p.values) == claim.number for p in counted):
            continue
        target = max(counted, key=lambda p: (len(p.values), -p.line))
        claimed = f"{claim.number} {' '.join([*_qualifiers(claim), claim.subject])}s"
        yield Finding(
            ID,
            SEVERITY,
            first_fitting(
                *(
                    f'"{_cut(claim.text, cut)}" claims {claimed}, but this page lists '
                    f"{len(target.values)} values of `{target.field}` (line {target.line}: "
                    f"{_shown(target)}). {fix}"
                    for fix in (
                        "Correct the number, or the list if it is the one out of date",
                        "Correct the number, or the list",
                    )
                    for cut in (len(claim.text), 80, 40)
                ),
                f"this sentence claims {claimed}, but this page lists {len(target.values)} values "
                f"of `{target.field}` (line {target.line}: {_shown(target)}). Correct the number, "
                "or the list if it is the one out of date",
                f"this sentence claims {claimed}, but this page lists {len(target.values)} values "
                f"of `{target.field}` (line {target.line}). Correct the number, or the list",
                f"this sentence claims {claimed}, but the list it counts has "
                f"{len(target.values)} (see the related location)",
            ),
            claim.location(),
            related=(
                target.location(
                    note=f"the {len(target.values)} values it counts: "
                    + ", ".join(f"`{v}`" for v in target.values)
                ),
            ),
            key=f"claim:{claim.line}:{claim.number}",
        )


def _mentions(context: str, thing: str) -> bool:
    """Whether a list's text speaks of ``thing`` (in the singular or the plural)."""
    stem = thing[:-1] if thing.endswith("s") and len(thing) > 3 else thing
    return stem in context


def _counted(claim: CountedClaim, sets: list[ProseSet]) -> list[ProseSet]:
    field = claim.field or claim.subject
    words = _qualifiers(claim)
    found = []
    for prose in sets:
        if prose.field != field or not prose.complete or prose.claimed is not None:
            continue
        context = (
            prose.context.lower()
            + " "
            + (" ".join(prose.heading.path).lower() if prose.heading else "")
        )
        if not all(word in context for word in words):
            continue
        if claim.of and not _mentions(context, claim.of):
            # "6 variants of URI" counts what URI comes in, not a list whose text never
            # speaks of URIs (issue 45, item 7).
            continue
        if not words and not claim.field and abs(prose.line - claim.line) > NEARBY:
            # "two types of fields" names no field and nothing more of what it counts: only a
            # list close by is what it counts, not a `type` table three thousand lines down.
            continue
        found.append(prose)
    return found


def _qualifiers(claim: CountedClaim) -> list[str]:
    """The words between the number and the noun ("interrupt" in "three interrupt kinds")."""
    return [w for w in claim.qualifiers if w not in {"the", "a", "an"}]


def _shown(prose: ProseSet) -> str:
    values = ", ".join(f"`{v}`" for v in prose.values[:6])
    return values + (", ..." if len(prose.values) > 6 else "")


def _cut(text: str, limit: int) -> str:
    """The start of a quoted sentence, cut at a word: the whole sentence is at the location."""
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " ..."
