"""A data file that fails the schema it names.

What it does
    Validates every *instance* of the corpus against its schema. An instance is a JSON or YAML
    file that names the schema it follows (see ``speclint files``):

    - a ``$schema`` member naming a document that is not a metaschema (``"./x.schema.json"``);
    - a ``# yaml-language-server: $schema=<uri>`` modeline at the top of a YAML file (the Red Hat
      YAML language server's convention, which editors already honour);
    - the configuration's ``[instances]`` table, glob to schema, as check-jsonschema's
      ``--schemafile`` (``"examples/**/*.yaml" = "schema/workflow.yaml"``).

    The schema is found in the corpus, never fetched: a relative reference from the instance's
    folder (else from the root), an absolute URI by the ``$id`` of a corpus schema or through
    ``[ref-map]``, or a GitHub raw URL of a file the repository holds; a ``#/...`` fragment
    selects a definition. The instance is validated in the schema's own dialect (2020-12 when
    it names none), each error at the failing node; values that break one rule of the schema
    (130 entries failing one ``pattern``) are one finding, the others related. The instance's
    own top-level ``$schema`` member is an annotation, left out of validation unless the schema
    declares or requires it.

    A named schema not in the corpus is a ``warning`` when the name is a relative path (a broken
    reference); a URL the corpus does not hold, a file speclint does not load or one in
    ``node_modules/`` is listed as not checked.

Why is this bad?
    Data files that name their schema are the examples, registries and configuration an
    implementer copies; one that fails its own schema is either a wrong example or a wrong
    schema, and editors already show the error to everyone who opens it.

Example
    ::

        # yaml-language-server: $schema=../schema/workflow.json
        document: {dsl: '1.0.0', name: order}
        do: [{charge: {call: http2}}]

    FAIL: ``examples/order.yaml:3:15: error [instance-invalid] /do/0/charge/call: 'http2' is not
    one of ['http', 'grpc'] ...``

Use instead
    ``call: http``. PASS.

Options
    None; map files to schemas with ``[instances]`` in the configuration.

Limitations
    At most 50 findings per file, and 100 related locations per finding (the message counts the
    rest).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.validators import validator_for
from referencing.exceptions import Unresolvable

from speclint.analyses.context import Context
from speclint.analyses.schemas.instance_schemas import NotChecked, Unchecked, instances
from speclint.analyses.schemas.references import file_uri
from speclint.analyses.schemas.validation import (
    MALFORMED_SCHEMA,
    error_pointer,
    explain,
    message_key,
    not_compiled,
    patterns_judged_once,
    short_message,
)
from speclint.analyses.units import check_by_unit, reach, schema_reach
from speclint.common.findings import Finding, Location, Member, Severity, headed, left_out, within
from speclint.model.corpus import Document

ID = "instance-invalid"
SEVERITY = Severity.ERROR
FACTS = ("references", "instances")  # speclint.analyses.context
# One instance at a time, with the schema it names and what that schema reaches
# (speclint.analyses.units, speclint.analyses.schemas.instance_schemas).
READS = "document"
LIMIT = 50  # findings per instance (each a schema rule broken, with every value breaking it)
RELATED = 100  # values listed as related locations of one finding
NOT_IN_CORPUS = "not-in-corpus:"  # key of a "not checked" notice, then the schema as named


# A schema that cannot judge the value: its defect is another rule's finding.
_NOT_JUDGED: tuple[type[BaseException], ...] = (*MALFORMED_SCHEMA, Unresolvable)

units = instances  # each instance that names its schema
unit_inputs = schema_reach  # the schema it names, and what that reaches: the unit cache's key


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, units=units)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    target = corpus.instances.of(document)
    if isinstance(target, NotChecked):
        return [_not_checked(document, target)]
    # A document's own scope: a pattern that runs out of time is reported once, and what the
    # compile budget (the document's own) leaves unjudged is said as not checked.
    with patterns_judged_once() as scope:
        found = list(_validate(corpus, document, target.document, target.fragment))
    return found + not_compiled(ID, document, scope)


def _named_at(document: Document) -> Location:
    """Where the instance names its schema: its `$schema` member, or line 1."""
    if isinstance(document.data, dict) and "$schema" in document.data:
        return document.location("/$schema")
    return document.location("")


def _not_checked(document: Document, target: NotChecked) -> Finding:
    """The finding, or the "not checked" note, for an instance no corpus schema checks."""
    named, path = target.named, target.path
    if target.why is Unchecked.UNREADABLE:
        why = f"`{path}` could not be read, so `{document.path}` is not checked"
        return Finding(
            ID, Severity.WARNING, f"{why}: fix that file", _named_at(document), key="unreadable"
        )
    if target.why is Unchecked.NOT_LOADED:
        return Finding(
            ID,
            Severity.INFO,
            headed(
                f"not checked: the schema it names is `{path}` in this repository, which is not "
                "loaded (a test fixture, or left out by `include`/`exclude`)",
                "; to check this instance, take that file out of `fixtures` (or into `include`) "
                "in speclint.toml, or move the schema beside the files that use it",
                f"not checked: its schema `{path}` is a file speclint does not load",
            ),
            _named_at(document),
            key=NOT_IN_CORPUS + named,
            coverage="schema-not-loaded",
        )
    if target.why is Unchecked.REMOTE:
        return Finding(
            ID,
            Severity.INFO,
            headed(
                f"not checked: it names its schema `{named}`, which is not in the corpus",
                " (speclint never fetches); add the schema, or map its URI to a corpus file "
                "with [ref-map]",
                "not checked: the remote schema it names is not in the corpus",
            ),
            _named_at(document),
            key=NOT_IN_CORPUS + named,
            coverage="remote-schema",
        )
    if target.why is Unchecked.INSTALLED:
        # `./node_modules/@angular/cli/lib/config/schema.json`: a package's schema, there once
        # the package manager installs it; installed folders are never committed (nor read).
        installed = target.folder
        return Finding(
            ID,
            Severity.INFO,
            headed(
                f"not checked: the schema it names, `{path}`, is in `{installed}/`, which a "
                "package manager fills and speclint does not read",
                "; add the schema to the corpus, or map its URI to a corpus file with [ref-map], "
                "to check this instance",
                f"not checked: its schema is in `{installed}/`, installed software speclint does not read",
            ),
            _named_at(document),
            key=NOT_IN_CORPUS + named,
            coverage="schema-not-loaded",
        )
    return Finding(
        ID,
        Severity.WARNING,
        f"names its schema `{named}`, which is not in the corpus"
        + (f" (`{path}`)" if path else " (outside the corpus root)")
        + ", so it is not checked: fix the reference, or add the schema",
        _named_at(document),
        key="missing-schema",
    )


def _validate(
    corpus: Context, document: Document, schema_document: Document, fragment: str
) -> Iterator[Finding]:
    root = schema_document.data
    dialect = validator_for(root if isinstance(root, dict) else {}, default=Draft202012Validator)
    uri = f"{file_uri(schema_document.path)}#{fragment}"
    validator = corpus.references.validator(dialect, uri)
    instance = document.data
    if (
        isinstance(instance, dict)
        and "$schema" in instance
        and not _declares_schema(corpus, schema_document)
    ):
        instance = {key: value for key, value in instance.items() if key != "$schema"}
    try:
        errors = sorted(
            validator.iter_errors(instance),
            key=lambda e: (list(map(str, e.absolute_path)), e.message),
        )
    except _NOT_JUDGED:
        return  # unresolved-ref and schema-invalid report the schema's own defect
    named = (schema_document.location(fragment, note="the schema it names"),)
    # One finding per schema rule broken: 130 entries failing one `pattern` are one defect
    # (the first is reported, the others are related locations), not 130 lines.
    groups: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    keys: dict[tuple[str, str], str] = {}  # each error's identity (`message_key`)
    for error in errors:
        specific: ValidationError = explain(error)
        key = tuple(map(str, specific.absolute_schema_path))
        found = (error_pointer(specific), short_message(specific))
        if found not in groups.setdefault(key, []):
            groups[key].append(found)
            keys.setdefault(found, message_key(specific))
    ordered = sorted(groups.values(), key=lambda group: _order(group[0][0]))
    for index, group in enumerate(ordered):
        if index == LIMIT:
            yield Finding(
                ID,
                SEVERITY,
                f"and {len(ordered) - LIMIT} more kinds of error against "
                f"`{schema_document.path}`; fix the ones above first",
                document.location(""),
                related=named,
                key="more",
            )
            return
        (pointer, message), others = group[0], group[1:]
        listed = others[:RELATED]
        more = f"{len(others)} more value{'s' if len(others) > 1 else ''}"
        # past the limit, the message says how many are not listed (issue 44)
        where = ", listed as related locations" if len(listed) == len(others) else ""
        also = f" ({more} fail the same way{where})" if others else ""
        brief = f" ({more} fail too)" if others else ""
        schema_named = f"{schema_document.path}{'#' + fragment if fragment else ''}"
        # Counted in the bound: a message never says its places are listed of a list cut short.
        untold = left_out(len(listed), len(others) - len(listed), "other values")
        yield Finding(
            ID,
            SEVERITY,
            within(
                *(
                    wording + untold
                    for wording in (
                        f"{pointer or '/'}: {message}{also}; fix the data, or the schema it "
                        f"names ({schema_named})",
                        f"{pointer or '/'}: {message}{also}; fix the data, or the schema it names",
                        f"{pointer or '/'}: {message}{brief}; fix the data, or the schema",
                        f"{pointer or '/'}: {message}{brief}",
                        f"{message}{brief}",
                    )
                )
            ),
            document.location(pointer),
            related=(
                *named,
                *(document.location(p, note="fails the same way") for p, _ in listed),
            ),
            key=f"{pointer}:{keys[pointer, message]}",
            # every value: a waiver at one covers that one
            members=tuple(
                Member(document.location(p, note="fails the same way"), f"{p}:{keys[p, m]}")
                for p, m in group
            )
            if others
            else (),
        )


def _order(pointer: str) -> list[Any]:
    return [int(t) if t.isdigit() else t for t in pointer.split("/")]


def _declares_schema(corpus: Context, schema_document: Document) -> bool:
    """Whether the schema, or one it reaches, names ``$schema`` as a property or requires it: a
    custom meta-schema (a dialect of its own, as device-tree bindings have) judges the
    ``$schema`` of the documents written in it, so there the member is data to check."""
    documents = [schema_document.data]
    documents += [
        corpus.documents[path].data
        for path in reach(corpus, schema_document.path)
        if path in corpus.documents
    ]
    stack: list[Any] = documents
    while stack:  # iterative: generated schemas nest deeper than Python's recursion limit
        node = stack.pop()
        if isinstance(node, dict):
            properties = node.get("properties")
            required = node.get("required")
            if (isinstance(properties, dict) and "$schema" in properties) or (
                isinstance(required, list) and "$schema" in required
            ):
                return True
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))
    return False
