"""The changes one comparison of two revisions records (``speclint.analyses.changes.compat``): each
located at the keyword as the file spells it (in the part of a joined ``$ref`` schema that
holds it), with the role of its location (``speclint roles``), and whether the corpus's
ignore-unknown statements (``speclint.analyses.prose.policies``) tolerate a new value."""

from __future__ import annotations

from speclint.analyses.changes.contract_change import Change
from speclint.analyses.changes.effective_schemas import SchemaReader
from speclint.analyses.context import Context
from speclint.analyses.prose.policies import ANY_FIELD, Statement, binds, policy_statements
from speclint.analyses.schemas.shapes import Site
from speclint.analyses.schemas.union_members import MemberReading


class ChangeLog:
    """The changes found so far, in the order found (the witnesses judge those past a mark)."""

    def __init__(self, base: Context, head: Context, reader: SchemaReader) -> None:
        self.base = base
        self.head = head
        self.reader = reader
        self.changes: list[Change] = []
        self._statements: list[Statement] | None = None

    @property
    def statements(self) -> list[Statement]:
        if self._statements is None:
            self._statements = list(policy_statements(self.head))
        return self._statements

    def role(self, head: Site, base: Site) -> str:
        name = self.head.roles.role_name(head.document.path, head.pointer)
        if name == "unused":
            name = self.base.roles.role_name(base.document.path, base.pointer)
        return name

    def add(
        self,
        kind: str,
        breaking: bool,
        role: str,
        description: str,
        head: Site,
        base: Site,
        *tokens: str,
        summary: str = "",
    ) -> None:
        head, base = self.reader.holder(head, tokens), self.reader.holder(base, tokens)
        self.changes.append(
            Change(
                kind,
                breaking,
                role,
                description,
                head.at(*self.reader.spelled(head, tokens)),
                base.at(*self.reader.spelled(base, tokens)),
                summary,
            )
        )

    def tolerated_member(self, head: Site, reading: MemberReading, field: str | None) -> bool:
        """Is a new member covered by an ignore-unknown statement? Only through its
        discriminator: a new member is a new value of the property that tells members apart."""
        return any(self.tolerated(head, prop or field) for prop, _ in reading.tags)

    def tolerated(self, head: Site, field: str | None) -> bool:
        """Do the corpus's ignore-unknown statements cover new values of this discriminator?"""
        if any(s.discriminator == ANY_FIELD for s in self.statements):
            return True
        if field is None:
            return False
        return any(binds(s, field, head, head, head) for s in self.statements)
