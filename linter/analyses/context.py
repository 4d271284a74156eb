"""The corpus with the facts the analyses derive from it: the one object a rule receives.

The corpus model (``speclint.model.corpus.Corpus``) is plain data: documents, the configuration,
the file listing. What is computed across its files belongs to the analysis layer, and a
``Context`` holds it: a ``Corpus`` (a rule still reads ``corpus.documents``) plus each derived
fact, built on first use and kept for the run (issue 27):

``references``
    every ``$ref`` of the corpus resolved against a registry of the corpus itself
    (``speclint.analyses.schemas.references.ReferenceIndex``);
``roles``
    whether a schema location is submitted by clients, emitted by servers, or both
    (``speclint.analyses.schemas.roles.RoleMap``, carried through the references);
``derived``
    the documents made from other corpus documents, path -> how many: the generated bundles
    that embed other files' schemas (``speclint.analyses.repository.lineage``), and the bundles and
    byte-identical copies ``provenance`` finds;
``provenance``
    each document the repository does not author (generated, vendored, a bundle or copy of
    another corpus document, an upstream project's copy) and the evidence
    (``speclint.analyses.repository.provenance``);
``schemas``
    every schema object of the corpus, with its in-place parent, the schemas that ``$ref`` it and
    the scope a ``required`` is looked up in (``speclint.analyses.schemas.declarations.SchemaIndex``):
    ``required-undeclared`` reports from it what ``example-invalid`` and ``unsatisfiable-schema``
    leave to it;
``merges``
    the documents a bundler merges with sibling fragments (``asyncapi bundle``, ``redocly
    join``...), by a build command's or the files' own evidence (``speclint.analyses.api.merging``);
``instances``
    each instance that names its schema, with the corpus schema that checks it or why none can
    (``speclint.analyses.schemas.instance_schemas.InstanceSchemas``): ``instance-invalid`` and
    ``duplicate-item`` read it;

and ``base``, the same corpus at the pull request's base revision (``check --diff-base``) for the
rules that judge a change (``compat-claim``).

A rule module declares the facts it reads, ``FACTS = ("references", "derived")``, directly or
through the analyses it calls; a rule that reads none leaves ``FACTS`` out. The runner gives each
rule a view of the context (``reading``) on which any other fact raises ``UndeclaredFact``, so a
declaration cannot drift from the code: what a rule depends on across files is written at its
top, beside ``READS`` (which of its units an edit re-checks, ``speclint.analyses.units``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from speclint.analyses.api.merging import Merges, merges
from speclint.analyses.repository.lineage import derived_documents
from speclint.analyses.repository.provenance import Provenance, derived, provenance
from speclint.analyses.schemas.declarations import SchemaIndex
from speclint.analyses.schemas.instance_schemas import InstanceSchemas
from speclint.analyses.schemas.references import ReferenceIndex
from speclint.analyses.schemas.roles import RoleMap
from speclint.model.corpus import Corpus

FACTS = frozenset(
    {"references", "roles", "derived", "provenance", "merges", "schemas", "instances"}
)

T = TypeVar("T")


class UndeclaredFact(RuntimeError):
    """A rule read a derived fact its module does not declare in ``FACTS``."""


@dataclass
class Context(Corpus):
    base: Context | None = field(default=None, repr=False, compare=False)
    # The facts made so far, by name: shared by every view of this context (``reading``), so a
    # fact is built once per run whichever rule asks first.
    facts: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # The facts this view may read; None: all (the run itself, the command line, tests).
    declared: frozenset[str] | None = field(default=None, repr=False, compare=False)
    # The rules the run runs, set by the runner (``speclint.run.runner.run_rules``: the command
    # line's and the configuration's choice, less the preview rules held back); None: those the
    # configuration enables (a rule's check called alone, as the tests do).
    running: frozenset[str] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, corpus: Corpus) -> Context:
        """``corpus`` (sharing its documents) with the derived facts."""
        if isinstance(corpus, Context):
            return corpus
        return cls(
            corpus.root,
            corpus.config,
            corpus.documents,
            tree=corpus.tree,
            memo=corpus.memo,
            git_ignored=corpus.git_ignored,
            reader=corpus.reader,
            skipped=corpus.skipped,
        )

    def reading(self, names: Iterable[str]) -> Context:
        """A view of this context on which only the facts ``names`` can be read."""
        view = copy.copy(self)
        view.declared = frozenset(names)
        return view

    def runs(self, rule_id: str) -> bool:
        """Whether the rule ``rule_id`` reports in this run. A rule that leaves a defect to
        another (one defect, one finding: ``example-invalid`` leaves an example that lacks a
        misspelt ``required`` member to ``required-undeclared``) reports it itself when that
        one does not run, so that the defect is still reported once."""
        if self.running is not None:
            return rule_id in self.running
        return rule_id not in self.config.rule_severity or (
            self.config.rule_severity[rule_id] is not None
        )

    def adopt_references(self, index: ReferenceIndex) -> None:
        """Use ``index`` (restored from the rule cache, made from these same JSON/YAML documents)
        as this corpus's reference index instead of building it."""
        self.facts["references"] = index

    @property
    def references(self) -> ReferenceIndex:
        return self._read("references", self._references)

    @property
    def roles(self) -> RoleMap:
        return self._read("roles", self._roles)

    @property
    def derived(self) -> dict[str, int]:
        return self._read("derived", self._derived)

    @property
    def provenance(self) -> dict[str, Provenance]:
        return self._read("provenance", self._provenance)

    @property
    def merges(self) -> Merges:
        return self._read("merges", self._merges)

    @property
    def schemas(self) -> SchemaIndex:
        return self._read("schemas", self._schemas)

    @property
    def instances(self) -> InstanceSchemas:
        return self._read("instances", self._instances)

    def _read(self, name: str, build: Callable[[], T]) -> T:
        if self.declared is not None and name not in self.declared:
            raise UndeclaredFact(
                f"the rule reads `{name}` without declaring it: add it to the FACTS of its module"
            )
        return build()

    # The builders: each fact from the corpus and the facts below it, made once.
    def _made(self, name: str, build: Callable[[], T]) -> T:
        # Kept only once built whole: a build that raises leaves nothing behind, and the next
        # reader builds it again (``speclint.run.runner.prime``).
        found = self.facts.get(name)
        if found is None:
            found = self.facts[name] = build()
        return found  # type: ignore[no-any-return]

    def _references(self) -> ReferenceIndex:
        return self._made("references", lambda: ReferenceIndex.build(self))

    def _roles(self) -> RoleMap:
        return self._made("roles", lambda: RoleMap.build(self, self._references()))

    def _embedding(self) -> dict[str, int]:
        return self._made("embedding", lambda: derived_documents(self))

    def _provenance(self) -> dict[str, Provenance]:
        return self._made(
            "provenance", lambda: provenance(self, self._references(), self._embedding())
        )

    def _schemas(self) -> SchemaIndex:
        return self._made(
            "schemas", lambda: SchemaIndex.build(self, self._references(), self._derived())
        )

    def _instances(self) -> InstanceSchemas:
        return self._made("instances", lambda: InstanceSchemas.build(self, self._references()))

    def _merges(self) -> Merges:
        return self._made("merges", lambda: merges(self))

    def _derived(self) -> dict[str, int]:
        return self._made("derived", lambda: derived(self._provenance(), self._embedding()))
