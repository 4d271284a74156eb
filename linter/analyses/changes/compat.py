"""What a change does to the corpus's contract, by role: the schema diff behind ``compat-claim``.

``schema_changes(base, head)`` pairs every schema location of the head corpus (schema files, their
``$defs``, API ``components/schemas``, every request, response, parameter and message schema) with
the same file and JSON pointer at the base revision (a ``$defs`` entry with the ``definitions``
entry of its name, for a schema moved between dialects), walks both trees together (following
``$ref``s on each side, so a copy replaced by a reference compares by content), and classifies
each difference by the role of the location (``speclint roles``), as oasdiff does for one OpenAPI
document, but for the whole corpus:

=====================  ===================================================  =====================
change                 breaking when the location is                        why
=====================  ===================================================  =====================
enum value removed     client-submitted                                     old requests rejected
enum value added       server-emitted, unless an ignore-unknown statement   validating clients
                       binds the property (``speclint.analyses.prose.policies``)  reject the new value
``required`` added     client-submitted                                     old requests lack it
``required`` removed   server-emitted                                       clients relied on it
shape closed           client-submitted                                     extra members rejected
property removed       server-emitted; client-submitted when closed         readers / old requests
shape opened           server-emitted (``additionalProperties: false`` or   clients get new members
                       ``unevaluatedProperties: false`` gone)
type narrowed          client-submitted                                     old values rejected
type widened           server-emitted (a ``type`` dropped too)              clients get new types
bound tightened        client-submitted (``minimum``, ``maxLength`` ...)    old values rejected
bound loosened         server-emitted                                       clients get new values
pattern added          client-submitted                                     old values rejected
union member removed   ``anyOf``/``oneOf``: client-submitted;               old requests rejected;
                       ``allOf``: server-emitted                            clients get new values
union member added     ``anyOf``/``oneOf``: server-emitted, unless an       validating clients
                       ignore-unknown statement binds the member's          reject it; old
                       discriminator; ``allOf``: client-submitted           requests rejected
constraint narrowed    client-submitted (``multipleOf``, ``format``,        old values rejected
                       ``pattern`` changed, ``uniqueItems``, ``contains``
                       and its counts, ``not``, ``dependentRequired``,
                       ``items``/``propertyNames`` ``false``)
constraint widened     server-emitted (the same, removed or relaxed)        clients get new values
schema file removed    any role                                             ``$ref``s to it break
definition removed     any role (a ``$defs``/``definitions`` entry at any    ``$ref``s to it, from
                       depth of a schema, an API document's                 outside, break
                       ``components/schemas`` entry)
operation removed      (OpenAPI operation, AsyncAPI operation or channel)   clients call it
=====================  ===================================================  =====================

The members of an ``anyOf``, ``oneOf`` or ``allOf`` are paired by what they are, not by their
place (``speclint.analyses.schemas.union_members``: the same ``$ref`` target, the same content, the same
discriminator ``const``, the same ``title``, else similar content), so a member inserted or
reordered changes nothing else; a member left unpaired is added or removed, named by its target,
discriminator value or title. A schema that becomes a union, or stops being one, is compared as a
union of itself (``A`` is ``anyOf: [A]``). ``prefixItems`` are paired by position.

An absent or ``true`` subschema (``items``, ``additionalProperties``, ``unevaluatedProperties``,
``unevaluatedItems``, ``propertyNames``, ``then``/``else``, a ``patternProperties`` or
``dependentSchemas`` entry) is compared as ``{}`` against the other side's schema, so
``additionalProperties: {type: string}`` added says "type narrowed" at it. A ``$ref`` with
assertions beside it reads as its target and them together (2020-12 Core §8.2.3.1); draft-04 to
-07, OpenAPI 3.0 and AsyncAPI 2 ignore them, so it reads as its target. Not compared: ``if``
(a changed condition moves values between ``then`` and ``else``: structure cannot say which way),
what is inside a ``not`` (it reads the other way round), annotations (``title``, ``default``,
``examples``, ``deprecated``, ``readOnly``/``writeOnly``, the content vocabulary), and a keyword
both parts of a ``$ref`` with siblings hold as subschemas (each part is paired alone).

A schema is compared with what applies beside it: its ``allOf`` branches (followed, a few levels
deep) and, for a property, the entry of that name in its parent's ``allOf`` branches, joined for
the values, ``required``, types, bounds and constraints compared (types intersected, ``required``
joined, values intersected, the tighter bound): a ``type`` a branch already imposes, written again
beside the ``allOf``, narrows nothing (``{nullable: true}`` -> ``{type: string, nullable: true}``
where the branch types it ``string``).

Where keywords cannot say (a node that differs in ``not``, ``if``/``then``/``else``, a ``pattern``
changed or removed, ``format``, ``dependentRequired``, ``propertyNames``, ``multipleOf``, a union
or ``allOf`` whose members changed, and for which the comparisons reported nothing below it, and
at it only what they can say "may" about: ``constraint narrowed``/``widened``), the schemas are
asked (``speclint.analyses.changes.acceptance``): instances generated from the base's schema
are validated against the head's and the other way round, each revision through its own
registry. An instance the base accepts and the head rejects is **accepted values narrowed**,
breaking where a type narrowed is; one the head accepts and the base rejects is **accepted values
widened**, breaking where a type widened is; the description quotes the instance and the keyword
that rejects it. Where such a node's union or condition changed, a narrowing (widening) the
comparisons reported that no instance shows is withdrawn: an ``enum`` rewritten as an ``anyOf``
of ``const``\\s is no change. A side that cannot be generated from (a recursive schema, an
unsupported keyword) is **change not decided**, listed for review, never read as "no change".
Generation is derandomized and bounded: ``witnessed_changes.WITNESSED_NODES`` nodes a run (past it, one **not
witnessed** change says how many were left), at most ``acceptance.INSTANCES`` instances a side.

A location no use reaches (role ``unused``) is judged from both sides: whoever validates against
it is a client of some kind. Give it a role in ``[roles]`` to narrow that. A definition removed
from a file both revisions have is breaking whatever its role, as a schema file removed is: a
published file's definitions are addressable (``x.json#/$defs/Batch``), and the references of
other repositories are not in the corpus to be counted; only the outermost one removed is said.
Everything else (a new definition, a new optional property, a new endpoint, a new value of an
input enum, a bound tightened on a response or loosened on a request) is additive and listed with
``breaking`` false, for reviewers.

The modules, from the top: ``revision_walk`` pairs the locations and walks both trees;
``keyword_comparisons`` compares a pair keyword by keyword; ``witnessed_changes`` asks the
schemas where keywords cannot say; ``named_changes`` lists the files, definitions and
operations removed or added; ``change_log`` records a change located as the file spells it;
``effective_schemas`` reads what applies at a location; ``schema_assertions`` reads one node's
values, types and bounds; ``contract_change`` is the ``Change`` record.

Limitations: a ``oneOf`` member added that overlaps another one rejects the values both match,
and a member removed that another member still covers (an open object) rejects nothing; neither
is proven from structure, so the first is additive and the second breaking by the table.
"""

from __future__ import annotations

from speclint.analyses.changes.contract_change import Change
from speclint.analyses.changes.revision_walk import RevisionWalk
from speclint.analyses.context import Context

__all__ = ["Change", "schema_changes"]


def schema_changes(base: Context, head: Context) -> list[Change]:
    """Every contract change from ``base`` to ``head``, breaking or not, in a stable order."""
    walk = RevisionWalk(base, head)
    walk.run()
    unique = {change.identity: change for change in walk.log.changes}
    return sorted(
        unique.values(),
        key=lambda c: (c.location.path, c.location.line, c.location.column, c.kind, c.description),
    )
