"""Configuration: ``speclint.toml`` or ``[tool.speclint]`` in ``pyproject.toml`` at the corpus root.

Keys (all optional)::

    include = ["schemas/**/*.json", ...]   # globs relative to the corpus root (default: every
                                           # JSON, YAML, Markdown and .proto file, classified by content)
    exclude = ["schemas/v2/**"]            # added to .git, node_modules, git-ignored files
    fail-on = "error"                      # error | warning | info: the exit-1 threshold
    profile = "openwop"                    # a profile shipped with speclint, merged underneath
    select = ["ALL"]                       # the rules to run: ids, or prefixes of whole words
                                           # ("proto" is proto-enum-drift, proto-invalid, ...);
                                           # default: every rule (speclint.run.selection)
    ignore = ["rfc-header"]                # the rules not to run, ids or prefixes (the more
                                           # specific of a select and an ignore wins)
    preview = true                         # run the preview rules too (default false; as
                                           # --preview: speclint.run.preview)
    explicit-preview-rules = true          # preview mode runs only the preview rules `select`
                                           # names by exact id (default false)

    [rules]                                # per rule: a severity, or "off"
    undeclared-tag = "off"
    duplicate-key = "warning"

    [roles]                                # role overrides: file or file#pointer -> role
    "schemas/capabilities.schema.json" = "server-emitted"

    asyncapi-perspective = "client"         # whose view AsyncAPI actions take (default: inferred)

    [ref-map]                              # remote $ref prefix -> corpus-relative file or folder
    "https://json.example.org/schemas/" = "vendor/schemas/"

    [bindings]                             # prose enumeration -> the schema enum it describes
    "spec/interrupt.md#interruptpayload@kind" = "schemas/events.schema.json#/$defs/Interrupt/properties/kind"

    [instances]                            # data files that do not name their schema -> schema
    "examples/**/*.yaml" = "schema/workflow.yaml"

    versions = "(?<![0-9])\\d+\\.\\d+\\.\\d+"      # the version in a path (default: 2.0.0, v1,
                                           # 2025-06-18, draft); false: no version lines
    released-versions = "newest"           # a defect in frozen released copies: reported once,
                                           # at the newest copy (default) | "report" every copy
                                           # | "ignore" (frozen copies not reported)
    fixtures = ["**/tests/**"]             # test fixtures: listed, not checked (default: test,
                                           # tests, __tests__, fixtures, testdata, pass, fail)

    [build]                                # speclint build
    output = "build"                       # folder for bundles and catalog.json (never linted)
    schemas = ["schemas/**/*.json"]        # which schemas to bundle (default: every schema)
    api-format = "json"                    # the API documents' bundles: yaml | json (default:
                                           # the source's)

In ``speclint.toml`` the keys are top-level; in ``pyproject.toml`` they sit under
``[tool.speclint]`` (sub-tables ``[tool.speclint.rules]`` and so on).

A key not listed here (at the top, in ``[build]`` or in a ``[[waivers]]`` table), a rule id in
``[rules]`` that is no rule, or an option a rule's documentation does not list is an error that
names it and the nearest valid one: a typo must not turn a check off without a word.
"""

from __future__ import annotations

import difflib
import os
import posixpath
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from speclint.common.findings import Severity
from speclint.parsing.kinds import CONFIGURATION_FILES, READ_SUFFIXES, TEST_FOLDERS
from speclint.parsing.reading import LoadProblem, read_named
from speclint.parsing.regex_cost import oversized
from speclint.parsing.versions import DEFAULT_PATTERN as DEFAULT_VERSION_PATTERN

# Every file of a kind speclint reads (``READ_SUFFIXES``: JSON, YAML, Markdown, MDX, .proto):
# discovery then reads each one's content to tell what it is (speclint.parsing.kinds). `include`
# narrows it for a repository that wants less; `exclude` adds to the folders never read (version
# control, installed packages, git-ignored files, the build output).
DEFAULT_INCLUDE: tuple[str, ...] = tuple(f"**/*{suffix}" for suffix in READ_SUFFIXES)
# The names (globs without the suffix) of a data file made broken on purpose.
BROKEN_ON_PURPOSE_NAMES = (
    "*-with-errors", "*_with_errors", "*-with-errors.*", "invalid-*", "invalid_*", "*.invalid",
    "broken-*", "broken_*",
)  # fmt: skip
DEFAULT_FIXTURES: tuple[str, ...] = (
    *(f"**/{name}/**" for name in TEST_FOLDERS),  # test/, tests/, fixtures/, testdata/, mocks/...
    "**/test-data/**",
    "**/pass/**",  # a schema's passing and failing examples (OpenAPI-Specification, JSON-Schema-Test-Suite)
    "**/fail/**",
    # negative_test/, e2e-tests/, test_data/ (SchemaStore keeps its invalid samples in negative_test)
    "**/*_test/**",
    "**/*_tests/**",
    "**/*-test/**",
    "**/*-tests/**",
    "**/test_*/**",
    "**/test-*/**",
    # Pages made to exercise a tool (a link checker's broken-on-purpose `fake-docs/`).
    "**/fake/**",
    "**/fakes/**",
    "**/fake-*/**",
    "**/fake_*/**",
    # Data files whose name declares them broken on purpose: a validator's negative inputs
    # (`petstore-with-errors.yaml`, `invalid-schema.json`, `user.invalid.json`, `broken-ref.yaml`);
    # a page named so (`invalid-tokens.md`) is about the subject, and is read.
    *(
        f"**/{name}.{suffix}"
        for name in BROKEN_ON_PURPOSE_NAMES
        for suffix in ("json", "yaml", "yml")
    ),
)
DEFAULT_EXCLUDE: tuple[str, ...] = ("**/node_modules/**", "**/.git/**")
ROLE_NAMES = ("client-submitted", "server-emitted", "both", "unused")
KNOWN_KEYS = {
    "include",
    "select",
    "ignore",
    "preview",
    "explicit-preview-rules",
    "exclude",
    "fail-on",
    "profile",
    "rules",
    "roles",
    "ref-map",
    "asyncapi-perspective",
    "bindings",
    "waivers",
    "build",
    "instances",
    "versions",
    "released-versions",
    "fixtures",
}
# What a run reports of the frozen copies of released versions (speclint.run.history).
RELEASED_VERSIONS = ("newest", "report", "ignore")
WAIVER_KEYS = {"rule", "rules", "path", "where", "reason", "who", "expires"}
BUILD_KEYS = {"output", "schemas", "api-format"}


class ConfigError(Exception):
    """The configuration cannot be used; the message says which file and key."""


@dataclass(frozen=True)
class Config:
    include: tuple[str, ...] = DEFAULT_INCLUDE
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    fail_on: Severity = Severity.ERROR
    rule_severity: Mapping[str, Severity | None] = field(default_factory=dict)  # None = off
    roles: Mapping[str, str] = field(default_factory=dict)
    ref_map: Mapping[str, str] = field(default_factory=dict)
    source: str | None = None  # the file it came from, for messages
    rule_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    asyncapi_perspective: str | None = None  # "host" | "client"; None: inferred per document
    # prose place ("page.md#anchor", optionally "@field") -> schema locations it describes
    bindings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    waivers: tuple[Mapping[str, Any], ...] = ()  # [[waivers]] tables, see speclint.run.waivers
    build_output: str = "build"  # relative to the corpus root; excluded from discovery
    build_schemas: tuple[str, ...] = ()  # globs of the schemas to bundle; empty: all
    build_api_format: str = "source"  # the API bundles' format: source | yaml | json
    # [instances]: glob of data files -> the schema they follow (a corpus path), as
    # check-jsonschema's --schemafile says it for files that do not name their schema.
    instances: Mapping[str, str] = field(default_factory=dict)
    # The version of a file from its path (speclint.parsing.versions): a regular expression, or None
    # for no version grouping (`versions = false`).
    versions: str | None = DEFAULT_VERSION_PATTERN
    # A defect in the frozen copies of released versions (speclint.run.history): "newest" reports it
    # once at the newest copy, "report" at every copy, "ignore" not in frozen copies at all.
    released_versions: str = "newest"
    # Test fixtures: example documents of a test suite, not the contract (read, listed, and not
    # checked); `fixtures = []` checks them.
    fixtures: tuple[str, ...] = DEFAULT_FIXTURES
    # For each [[waivers]] table: the line of its header and of its `expires` key (the header's
    # when it has none), so a bad value is reported where it is written.
    waiver_lines: tuple[tuple[int, int], ...] = ()
    # The configuration file's lines, so a finding about a configured entry can point at it.
    text_lines: tuple[str, ...] = ()
    # `select` and `ignore`: rule ids and prefixes (speclint.run.selection, which turns the rules
    # they leave out "off" in rule_severity once the rule ids are known). None: every rule.
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    # Preview mode (speclint.run.preview): the rules not yet proven precise run too;
    # `explicit-preview-rules`: only those `select` names by their exact id.
    preview: bool = False
    explicit_preview_rules: bool = False

    def line_of(self, needle: str) -> int:
        """The first line of the configuration file that holds ``needle`` (1 when none)."""
        return next((n for n, line in enumerate(self.text_lines, 1) if needle in line), 1)


def load_config(root: Path, explicit: Path | None = None) -> Config:
    """Read the corpus configuration; a missing file means defaults.

    Both the corpus's own files and ``--config`` are read by
    :func:`speclint.parsing.reading.read_named`: in the corpus root, a committed link out of it is
    refused; any path must be a regular file (a FIFO named ``speclint.toml`` is an error, not skipped, and never blocks)."""
    table: dict[str, Any] = {}
    source: str | None = None
    candidates = [explicit] if explicit else [root / name for name in CONFIGURATION_FILES]
    for candidate in candidates:
        # lexists: a FIFO, a folder or a dangling link by this name is there, and is refused
        # below rather than passed over as "no configuration".
        if candidate is None or not os.path.lexists(candidate):
            if explicit is not None:
                raise ConfigError(f"{explicit}: no such configuration file")
            continue
        raw = read_named(root, candidate)
        if isinstance(raw, LoadProblem):
            raise ConfigError(f"{candidate}: {raw.message}")
        try:
            text = raw.decode("utf-8")
            parsed = tomllib.loads(text)
        except UnicodeDecodeError as error:
            raise ConfigError(
                f"{candidate}: not valid TOML (not UTF-8 at byte {error.start})"
            ) from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{candidate}: not valid TOML: {error}") from None
        except RecursionError:
            raise ConfigError(
                f"{candidate}: not valid TOML (arrays or tables nested too deep to read)"
            ) from None
        if candidate.name == "pyproject.toml" and explicit is None:
            tools = parsed.get("tool")
            tool = tools.get("speclint") if isinstance(tools, dict) else None
            if tool is None:
                continue
            if not isinstance(tool, dict):
                raise ConfigError(f"{candidate}: `tool.speclint` must be a table ([tool.speclint])")
            parsed = tool
        table, source = parsed, str(candidate)
        lines = _waiver_lines(text, candidate.name)
        return replace(
            config_from_table(table, source),
            waiver_lines=lines,
            text_lines=tuple(text.split("\n")),
        )
    return config_from_table(table, source)


_TABLE_HEADER = re.compile(r"\s*\[")
_EXPIRES_KEY = re.compile(r"\s*[\"']?expires[\"']?\s*=")


def _waiver_lines(text: str, file_name: str) -> tuple[tuple[int, int], ...]:
    header = (
        "[[tool.speclint.run.waivers]]" if file_name == "pyproject.toml" else "[[waivers]]"
    ).replace(" ", "")
    found: list[list[int]] = []
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _TABLE_HEADER.match(line):
            inside = line.split("#", 1)[0].replace(" ", "").strip() == header
            if inside:
                found.append([number, number])
        elif inside and _EXPIRES_KEY.match(line):
            found[-1][1] = number
    return tuple((first, second) for first, second in found)


_PROFILE_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


def profile_names() -> list[str]:
    folder = resources.files("speclint").joinpath("profiles")
    return sorted(
        entry.name[: -len(".toml")] for entry in folder.iterdir() if entry.name.endswith(".toml")
    )


def load_profile(name: str) -> dict[str, Any]:
    """A profile shipped with speclint, by name. A profile is a name, never a path: the
    configuration may come from a fork, and ``profile = "../../../tmp/evil"`` must not open a
    file outside the installation (nor show what is in one)."""
    known = profile_names()
    if not _PROFILE_NAME.fullmatch(name) or name not in known:
        # The name is not repeated: the message names the key, never a value from the file.
        raise ConfigError(
            f"unknown profile in `profile`: a profile is one of the names speclint ships "
            f"({', '.join(known)}), not a path"
        )
    text = resources.files("speclint").joinpath("profiles", f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)


def config_from_table(table: Mapping[str, Any], source: str | None = None) -> Config:
    """The configuration a table says (a parsed ``speclint.toml``, or ``[tool.speclint]``).

    A message names a key, never a value from the file: the file may not be the user's to show,
    and a CI log is public."""
    where = source or "configuration"
    _known_keys(where, "", table, KNOWN_KEYS)
    merged: dict[str, Any] = {}
    if "profile" in table:
        if not isinstance(table["profile"], str):
            raise ConfigError(f"{where}: `profile` must be a profile name (a string)")
        try:
            merged.update(load_profile(table["profile"]))
        except ConfigError as error:
            raise ConfigError(f"{where}: {error}") from None
    for key, value in table.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value

    def globs(key: str, default: tuple[str, ...]) -> tuple[str, ...]:
        value = merged.get(key, default)
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: `{key}` must be a list of glob strings")
        return tuple(value)

    try:
        fail_on = Severity.parse(str(merged.get("fail-on", "error")))
    except ValueError:
        raise ConfigError(f"{where}: `fail-on` must be one of: {_LEVELS}") from None

    severities: dict[str, Severity | None] = {}
    options: dict[str, Mapping[str, Any]] = {}
    rules = merged.get("rules", {})
    if not isinstance(rules, Mapping):
        raise ConfigError(f"{where}: `rules` must be a table ([rules])")
    for rule, setting in rules.items():
        level = setting.get("severity") if isinstance(setting, Mapping) else setting
        if isinstance(setting, Mapping):
            options[rule] = {k: v for k, v in setting.items() if k != "severity"}
        if level is None:
            continue
        if str(level).lower() == "off":
            severities[rule] = None
            continue
        try:
            severities[rule] = Severity.parse(str(level))
        except ValueError:
            raise ConfigError(
                f"{where}: rules.{rule}: not a severity (expected one of: {_LEVELS}, off)"
            ) from None

    selection: dict[str, tuple[str, ...]] = {}
    for key in ("select", "ignore"):
        value = merged.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: `{key}` must be a list of rule ids or prefixes")
        selection[key] = tuple(value)

    switches: dict[str, bool] = {}
    for key in ("preview", "explicit-preview-rules"):
        value = merged.get(key, False)
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: `{key}` must be true or false")
        switches[key] = value

    roles = {str(k): str(v) for k, v in dict(merged.get("roles", {})).items()}
    for target, role in roles.items():
        if role not in ROLE_NAMES:
            raise ConfigError(
                f"{where}: roles.{target}: unknown role (expected one of: {', '.join(ROLE_NAMES)})"
            )
    perspective = merged.get("asyncapi-perspective")
    if perspective is not None and perspective not in {"host", "client"}:
        raise ConfigError(f'{where}: asyncapi-perspective must be "host" or "client"')
    bindings: dict[str, tuple[str, ...]] = {}
    for place, target in dict(merged.get("bindings", {})).items():
        targets = [target] if isinstance(target, str) else target
        if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
            raise ConfigError(
                f"{where}: bindings.{place}: expected a schema location or a list of them"
            )
        bindings[str(place)] = tuple(targets)
    waivers = merged.get("waivers", [])
    if not isinstance(waivers, list) or not all(isinstance(w, Mapping) for w in waivers):
        raise ConfigError(f"{where}: `waivers` must be an array of tables ([[waivers]])")
    for number, waiver in enumerate(waivers, start=1):
        _known_keys(where, f"[[waivers]] number {number}: ", waiver, WAIVER_KEYS)
    build = merged.get("build", {})
    if not isinstance(build, Mapping):
        raise ConfigError(f"{where}: `build` must be a table ([build])")
    _known_keys(where, "[build]: ", build, BUILD_KEYS)
    ref_map = merged.get("ref-map", {})
    if not isinstance(ref_map, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in ref_map.items()
    ):
        raise ConfigError(f'{where}: `ref-map` must be a table of "URL prefix" = "corpus path"')
    for prefix, local in ref_map.items():
        # A target is looked up among the corpus's own files, never opened; one out of the root
        # could only ever be a missing file, so it is a mistake to say so now.
        normal = posixpath.normpath(local) if local else "."
        if local.startswith("/") or normal == ".." or normal.startswith("../"):
            raise ConfigError(
                f'{where}: ref-map."{prefix}": the target must be a file or folder inside the '
                "corpus root (a path relative to it), not a path out of it"
            )
    output = build.get("output", "build")
    normal = posixpath.normpath(output) if isinstance(output, str) and output else "."
    if normal in (".", "/") or normal.startswith(("/", "../")) or normal == "..":
        raise ConfigError(
            f"{where}: build.output must be a folder of its own inside the corpus root "
            "(default `build`), not the root or a path out of it"
        )
    output = normal
    instances = merged.get("instances", {})
    if not isinstance(instances, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in instances.items()
    ):
        raise ConfigError(
            f'{where}: `instances` must be a table of "glob" = "schema path" ([instances])'
        )
    versions = merged.get("versions", DEFAULT_VERSION_PATTERN)
    if versions is False:
        versions = None
    elif not isinstance(versions, str):
        raise ConfigError(
            f"{where}: `versions` must be a regular expression for the version in a path, or false"
        )
    else:
        # The configuration is the repository's too: a count past what `re` takes raised an
        # OverflowError out of the run (issue 44, item 2). Said without the value (see above).
        if oversized(versions) is not None:
            raise ConfigError(
                f"{where}: `versions` is too large to compile (a repeat count past what `re` "
                "takes, or counted repeats past 100,000 elements): write smaller counts"
            )
        try:
            re.compile(versions)
        except (re.error, RecursionError) as error:
            raise ConfigError(f"{where}: `versions` is not a regular expression: {error}") from None
    released = merged.get("released-versions", "newest")
    if released not in RELEASED_VERSIONS:
        names = " | ".join(f'"{name}"' for name in RELEASED_VERSIONS)
        raise ConfigError(f"{where}: `released-versions` must be one of {names}, not {released!r}")
    schemas = build.get("schemas", [])
    if not isinstance(schemas, list) or not all(isinstance(v, str) for v in schemas):
        raise ConfigError(f"{where}: build.schemas must be a list of glob strings")
    api_format = build.get("api-format", "source")
    if api_format not in ("source", "yaml", "json"):
        raise ConfigError(
            f'{where}: build.api-format must be "yaml" or "json" (default: the source\'s format)'
        )
    return Config(
        build_output=output.strip("/"),
        build_schemas=tuple(schemas),
        build_api_format=str(api_format),
        instances=dict(instances),
        versions=versions,
        released_versions=str(released),
        fixtures=globs("fixtures", DEFAULT_FIXTURES),
        waivers=tuple(waivers),
        bindings=bindings,
        asyncapi_perspective=perspective,
        include=globs("include", DEFAULT_INCLUDE),
        exclude=globs("exclude", ()) + DEFAULT_EXCLUDE,
        fail_on=fail_on,
        rule_severity=severities,
        roles=roles,
        ref_map=dict(ref_map),
        source=source,
        rule_options=options,
        select=selection.get("select"),
        ignore=selection.get("ignore", ()),
        preview=switches["preview"],
        explicit_preview_rules=switches["explicit-preview-rules"],
    )


_LEVELS = ", ".join(s.label for s in Severity)


def _known_keys(where: str, place: str, table: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse a key the table cannot have, naming it and the nearest one it can (a typo must
    not switch a setting off without a word)."""
    unknown = sorted(str(key) for key in table if key not in known)
    if unknown:
        raise ConfigError(f"{where}: {place}{_unknown('key', unknown, known)}")


def _unknown(what: str, names: list[str], known: Iterable[str], fallback: str = "") -> str:
    """``unknown key `exlude` (did you mean `exclude`?)`` for each name, on one line."""
    choices = sorted(known)
    parts = []
    for name in names:
        near = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
        hint = f" (did you mean `{near[0]}`?)" if near else fallback
        parts.append(f"unknown {what} `{name}`{hint}")
    return "; ".join(parts)


_OPTIONS_SECTION = re.compile(r"^Options[^\n]*\n(.*?)(?=^\S|\Z)", re.M | re.S)
_OPTION_NAME = re.compile(r"``([a-z][a-z0-9-]*)``\s*[(:]")


def documented_options(doc: str) -> frozenset[str]:
    """The options a rule's documentation lists in its *Options* section: each written as
    ``name`` followed by its default in parentheses or by a colon (the house style). They are
    the options the rule accepts; a test holds them to the options its code reads."""
    section = _OPTIONS_SECTION.search(doc)
    return frozenset(_OPTION_NAME.findall(section.group(1))) if section else frozenset()


# Rule ids speclint had and removed, and what became of each: a configuration, a selector or a
# waiver that names one is told so, not that no such rule exists (ruff keeps its removed rules'
# codes the same way). Ignoring or turning off a removed rule is accepted and does nothing.
REMOVED_RULES = {
    "remote-ref": (
        "`remote-ref` was removed (issue 45): a remote `$ref` is not a defect but something "
        'speclint does not check, so every report lists it under "not checked" instead of as a '
        "finding; a URL whose host is no domain name is now `unresolved-ref`'s"
    ),
}


def check_rule_settings(config: Config, documentation: Mapping[str, str]) -> None:
    """Refuse a ``[rules]`` entry that names no rule, or an option the rule does not have, with
    the nearest valid name. ``documentation``: each rule's id and its docstring (the catalog's;
    the configuration does not load the rules itself, they sit above it)."""
    where = config.source or "configuration"
    configured = {*config.rule_severity, *config.rule_options}
    for rule in sorted(configured & set(REMOVED_RULES)):
        # Off is what removal made it: accepted. Anything else asks for what no longer runs.
        if rule in config.rule_options or config.rule_severity.get(rule) is not None:
            raise ConfigError(f"{where}: [rules]: {REMOVED_RULES[rule]}; delete the entry")
    configured -= set(REMOVED_RULES)
    unknown = sorted(rule for rule in configured if rule not in documentation)
    if unknown:
        raise ConfigError(
            f"{where}: [rules]: {_unknown('rule', unknown, documentation)}; "
            "`speclint rules` lists them"
        )
    for rule, options in sorted(config.rule_options.items()):
        accepted = documented_options(documentation[rule])
        wrong = sorted(str(key) for key in options if key not in accepted)
        if wrong:
            none = f" ({rule} has no options besides `severity`)" if not accepted else ""
            raise ConfigError(
                f"{where}: [rules.{rule}]: {_unknown('option', wrong, accepted, none)}; "
                f"`speclint rule {rule}` lists its options"
            )
