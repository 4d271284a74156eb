"""An RFC header that is incomplete or contradicts itself or the RFCs it names.

What it does
    Reads the header table of every RFC in the corpus (a Markdown document whose first table has
    ``RFC`` / ``Status`` rows; see ``speclint.rfcs``) and reports:

    - a missing field. The required fields are those most RFCs of the corpus carry (every field
      present in more than half of them, when there are at least three RFCs), else ``fields``
      (default: RFC, Title, Status, Created, Updated, Affects, Compatibility);
    - a ``Status`` outside the lifecycle (``statuses``, default Draft, Active, Accepted,
      Rejected, Withdrawn, Superseded), a ``Superseded`` status without ``Superseded by``;
    - a ``Created`` or ``Updated`` value without an ISO date, and ``Updated`` earlier than
      ``Created`` (the first date of each counts: OpenWOP appends the transition after it);
    - an ``RFC`` number that is not the one in the file name;
    - ``Supersedes`` / ``Superseded by`` that are not reciprocal: RFC A superseding B needs B to
      say it is superseded by A, when B is in the corpus.

Why is this bad?
    The header is what the RFC index, the changelog and the gate read. A status outside the
    lifecycle, or dates in the wrong order, make the history unreliable; a one-sided
    Supersedes leaves readers on the old RFC without a pointer to the new one.

Example
    ::

        | Status | Approved |
        | Created | 2026-03-02 |
        | Updated | 2026-02-20 |

    FAIL: ``warning [rfc-header] `Status` is `Approved`, not a lifecycle status ...`` and
    ``warning [rfc-header] `Updated` (2026-02-20) is earlier than `Created` (2026-03-02) ...``

Use instead
    ``| Status | Accepted |`` and an ``Updated`` on or after ``Created``. PASS.

Options
    ``fields``: the required header fields when the corpus has fewer than three RFCs.
    ``statuses``: the lifecycle.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.corpus import Corpus
from speclint.findings import Finding, Location, Severity
from speclint.rfcs import Rfc, corpus_rfcs, first_date, plain, rfc_numbers

ID = "rfc-header"
SEVERITY = Severity.WARNING
DEFAULT_FIELDS = ("RFC", "Title", "Status", "Created", "Updated", "Affects", "Compatibility")
DEFAULT_STATUSES = ("Draft", "Active", "Accepted", "Rejected", "Withdrawn", "Superseded")


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    rfcs = corpus_rfcs(corpus)
    required = _required_fields(rfcs, tuple(options.get("fields", DEFAULT_FIELDS)))
    statuses = tuple(str(s) for s in options.get("statuses", DEFAULT_STATUSES))
    by_number = {rfc.number: rfc for rfc in rfcs if rfc.number}
    for rfc in rfcs:
        yield from _fields(rfc, required)
        yield from _status(rfc, statuses)
        yield from _dates(rfc)
        yield from _number(rfc)
        yield from _reciprocal(rfc, by_number)


def _required_fields(rfcs: list[Rfc], default: tuple[str, ...]) -> list[str]:
    if len(rfcs) < 3:
        return list(default)
    counts = Counter(name for rfc in rfcs for name in rfc.fields)
    return sorted(name for name, count in counts.items() if count * 2 > len(rfcs))


def _at(rfc: Rfc, name: str) -> Location:
    found = rfc.get(name)
    line = found.line if found else rfc.table_line
    return Location(rfc.path, line, 1, pointer=f"#{name.lower()}")


def _finding(
    rfc: Rfc, name: str, message: str, key: str, related: tuple[Location, ...] = ()
) -> Finding:
    return Finding(ID, SEVERITY, message, _at(rfc, name), related=related, key=key)


def _fields(rfc: Rfc, required: list[str]) -> Iterator[Finding]:
    missing = [name for name in required if not plain(getattr(rfc.get(name), "value", ""))]
    if missing:
        yield _finding(
            rfc,
            "RFC",
            f"the header lacks {', '.join(f'`{m}`' for m in missing)}, which the corpus's RFC "
            "headers carry: add the row(s) (use `—` for an empty Supersedes)",
            "missing",
        )


def _status(rfc: Rfc, statuses: tuple[str, ...]) -> Iterator[Finding]:
    status = rfc.get("Status")
    if status is None:
        return
    words = plain(status.value).split()
    value = words[0].rstrip(".,;") if words else ""
    if value not in statuses:
        yield _finding(
            rfc,
            "Status",
            f"`Status` is `{value or status.value}`, not a lifecycle status "
            f"({' → '.join(statuses[:3])}, or {', '.join(statuses[3:])}): use one of them",
            "status",
        )
    elif value == "Superseded":
        successor = rfc.get("Superseded by")
        if successor is None or not rfc_numbers(successor.value):
            yield _finding(
                rfc,
                "Status",
                "`Status` is `Superseded` but `Superseded by` names no RFC: name the successor",
                "superseded",
            )


def _dates(rfc: Rfc) -> Iterator[Finding]:
    dates: dict[str, str] = {}
    for name in ("Created", "Updated"):
        found = rfc.get(name)
        if found is None:
            continue
        date = first_date(found.value)
        if date is None:
            yield _finding(
                rfc,
                name,
                f"`{name}` ({plain(found.value)[:40]}) has no YYYY-MM-DD date: write one",
                f"date:{name}",
            )
        else:
            dates[name] = date
    if len(dates) == 2 and dates["Updated"] < dates["Created"]:
        yield _finding(
            rfc,
            "Updated",
            f"`Updated` ({dates['Updated']}) is earlier than `Created` ({dates['Created']}): correct "
            "whichever date is wrong (an RFC is updated on or after the day it is created)",
            "order",
            related=(_at(rfc, "Created"),),
        )


def _number(rfc: Rfc) -> Iterator[Finding]:
    declared = rfc.get("RFC")
    from_name = re.match(r"(\d{3,5})", rfc.path.rsplit("/", 1)[-1])
    if declared is None or from_name is None:
        return
    numbers = rfc_numbers(declared.value)
    if numbers and from_name.group(1) not in numbers:
        yield _finding(
            rfc,
            "RFC",
            f"the header says RFC {numbers[0]} but the file is named {from_name.group(1)}: rename "
            "one so links and the index agree",
            "number",
        )


def _reciprocal(rfc: Rfc, by_number: dict[str, Rfc]) -> Iterator[Finding]:
    for field, other_field in (("Supersedes", "Superseded by"), ("Superseded by", "Supersedes")):
        found = rfc.get(field)
        if found is None:
            continue
        for number in rfc_numbers(found.value):
            other = by_number.get(number)
            if other is None or other is rfc:
                continue
            back = other.get(other_field)
            if back is None or rfc.number not in rfc_numbers(back.value):
                yield _finding(
                    rfc,
                    field,
                    f"`{field}` names RFC {number}, but {other.path}'s `{other_field}` does not "
                    f"name RFC {rfc.number}: make the two headers say the same",
                    f"reciprocal:{field}:{number}",
                    related=(_at(other, other_field),),
                )
