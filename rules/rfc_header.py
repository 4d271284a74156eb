"""An RFC header that is incomplete or contradicts itself or the RFCs it names.

What it does
    Reads the header of every RFC in the corpus (a Markdown document whose first table, or
    bullet list of ``**Field**: value`` items, has ``Status`` among its fields; templates
    aside) and reports:

    - a missing field: one nine in ten of the RFCs beside it carry (same folder, same header
      style), when there are at least three; else one of ``fields``;
    - a ``Status`` outside the lifecycle, when the configuration states one (``statuses``);
      without one, a status only one RFC uses that is a near-spelling of one the others use
      (``Acepted`` beside ``Accepted``);
    - a ``Superseded`` status without ``Superseded by``;
    - a ``Created`` or ``Updated`` value without an ISO date, and ``Updated`` earlier than
      ``Created`` (the first date of each counts);
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
    ``fields``: the required header fields when the corpus has fewer than three RFCs beside
    one (default: RFC, Title, Status, Created, Updated, Affects, Compatibility).
    ``statuses``: the lifecycle (default: none stated; the ``openwop`` profile states Draft,
    Active, Accepted, Rejected, Withdrawn, Superseded). Set them under ``[rules.rfc-header]``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.prose.rfcs import Rfc, corpus_rfcs, first_date, plain, rfc_numbers
from speclint.common.findings import Finding, Location, Severity

ID = "rfc-header"
SEVERITY = Severity.WARNING
READS_RFCS = True  # the corpus's RFCs, decoded before the workers fork (speclint.run.catalog)
DEFAULT_FIELDS = ("RFC", "Title", "Status", "Created", "Updated", "Affects", "Compatibility")


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    rfcs = corpus_rfcs(corpus)
    # Each folder's headers of one style are a convention of their own: MCP keeps SEPs as
    # bullet-list headers in `seps/` and renders them as tables in `docs/seps/`.
    groups: dict[tuple[str, str], list[Rfc]] = {}
    for rfc in rfcs:
        groups.setdefault(
            (rfc.path.rsplit("/", 1)[0] if "/" in rfc.path else "", rfc.style), []
        ).append(rfc)
    default_fields = tuple(options.get("fields", DEFAULT_FIELDS))
    required_by_group = {
        key: _required_fields(group, default_fields) for key, group in groups.items()
    }
    stated = options.get("statuses")
    conventional = _conventional_statuses(rfcs)
    by_number = {rfc.number: rfc for rfc in rfcs if rfc.number}
    for rfc in rfcs:
        folder = rfc.path.rsplit("/", 1)[0] if "/" in rfc.path else ""
        yield from _fields(rfc, required_by_group[(folder, rfc.style)])
        if stated is not None:
            yield from _status(rfc, tuple(str(s) for s in stated))
        else:
            yield from _learned_status(rfc, conventional)
        yield from _dates(rfc)
        yield from _number(rfc)
        yield from _reciprocal(rfc, by_number)


def _required_fields(rfcs: list[Rfc], default: tuple[str, ...]) -> list[str]:
    if len(rfcs) < 3:
        return list(default)
    counts = Counter(name for rfc in rfcs for name in rfc.fields)
    # Nine in ten: a field a third of the headers leave out (MCP's `PR`) is optional there.
    return sorted(name for name, count in counts.items() if count * 10 >= len(rfcs) * 9)


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
            f"the header lacks {', '.join(f'`{m}`' for m in missing)}, which the other RFC "
            "headers beside it carry: add the field(s) (use `—` for one that does not apply)",
            "missing",
        )


def _status_word(rfc: Rfc) -> str:
    status = rfc.get("Status")
    words = plain(status.value).split() if status is not None else []
    return words[0].rstrip(".,;") if words else ""


def _conventional_statuses(rfcs: list[Rfc]) -> Counter[str]:
    """The statuses the corpus's own RFCs use, each with how many use it."""
    return Counter(word for word in map(_status_word, rfcs) if word)


def _learned_status(rfc: Rfc, conventional: Counter[str]) -> Iterator[Finding]:
    """Without a stated lifecycle, the corpus's headers are the convention (issue 14): a status
    one RFC uses that is a near-spelling of one that others use is a typo; any other status is
    the corpus's business."""
    value = _status_word(rfc)
    if not value or conventional[value] > 1 or sum(conventional.values()) < 3:
        if value == "Superseded":
            yield from _status(rfc, (value,))
        return
    for other, count in conventional.most_common():
        if count > 1 and _near(value, other):
            yield _finding(
                rfc,
                "Status",
                f"`Status` is `{value}`, which no other RFC uses; {count} RFCs of the corpus use "
                f"`{other}`: if that is what it means, write `{other}`",
                "status",
            )
            return


def _near(a: str, b: str) -> bool:
    """Case apart, or at most two edits apart for words of five letters or more."""
    if a.lower() == b.lower():
        return True
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 2:
        return False
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a.lower(), 1):
        current = [i]
        for j, y in enumerate(b.lower(), 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1] <= 2


def _status(rfc: Rfc, statuses: tuple[str, ...]) -> Iterator[Finding]:
    status = rfc.get("Status")
    if status is None:
        return
    words = plain(status.value).split()
    value = words[0].rstrip(".,;") if words else ""
    if value not in statuses and len(statuses) > 1:
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
