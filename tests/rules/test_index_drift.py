"""`index-drift`: index pages that list a file that does not exist or miss one that does."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from conftest import schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.model.config import load_config
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
RULE = "index-drift"


def run(root: Path, options: Mapping[str, Any] | None = None) -> list[Finding]:
    return list(all_rules()[RULE].check(Context.load(root, load_config(root)), options or {}))


def schemas(*names: str) -> dict[str, str | bytes]:
    return {f"schemas/{name}.schema.json": schema(type="object") for name in names}


def table(*names: str) -> str:
    rows = "".join(f"| `{name}` | the {name.split('.')[0]} shape |\n" for name in names)
    return f"# Schemas\n\n| Schema | Describes |\n| --- | --- |\n{rows}"


def test_docstring_example_fail_and_pass(make_corpus: MakeCorpus) -> None:
    readme = table(
        "run.schema.json", "event.schema.json", "error.schema.json", "cancel.schema.json"
    )
    root = make_corpus(
        {**schemas("run", "event", "error", "snapshot"), "schemas/README.md": readme}
    )
    absent, missing = sorted(run(root), key=lambda f: f.key or "")
    assert absent.key == "absent:schemas/cancel.schema.json"
    assert (absent.location.path, absent.location.line, absent.location.column) == (
        "schemas/README.md",
        8,
        3,
    )
    assert "lists `cancel.schema.json`, which does not exist" in absent.message
    assert absent.location.pointer == "#schemas"
    assert missing.key == "missing:schemas/snapshot.schema.json"
    assert missing.location.line == 3  # the table
    assert "`schemas/snapshot.schema.json` is not listed" in missing.message
    assert "`*.schema.json`" in missing.message
    [related] = missing.related
    assert (related.path, related.line) == ("schemas/snapshot.schema.json", 1)
    assert all(f.severity.label == "warning" for f in (absent, missing))
    fixed = table(
        "run.schema.json", "event.schema.json", "error.schema.json", "snapshot.schema.json"
    )
    (root / "schemas/README.md").write_text(fixed)
    assert run(root) == []


def test_a_see_also_list_is_not_an_index(make_corpus: MakeCorpus) -> None:
    see_also = (
        "# Runs\n\nText.\n\n## See also\n\n"
        "- [`event.md`](./event.md)\n- [`error.md`](./error.md)\n- [`snapshot.md`](./snapshot.md)\n"
    )
    few = "# Spec\n\n- [Runs](runs.md)\n- [Events](event.md)\n- [Errors](error.md)\n"
    files: dict[str, str | bytes] = {
        f"spec/{name}.md": f"# {name}\n" for name in ("event", "error", "snapshot", "cancel")
    }
    files["spec/runs.md"] = see_also
    # A README whose list names 3 of the folder's 10 pages claims nothing about the folder.
    files.update({f"spec/page-{n}.md": f"# {n}\n" for n in range(5)})
    files["spec/README.md"] = few
    assert run(make_corpus(files)) == []


def test_a_see_also_section_of_an_index_page_is_not_an_index(make_corpus: MakeCorpus) -> None:
    readme = (
        "# RFCs\n\nHow to write one.\n\n## See also\n\n"
        "- [RFC 1](0001-a.md)\n- [RFC 2](0002-b.md)\n- [RFC 3](0003-c.md)\n"
    )
    files: dict[str, str | bytes] = {
        f"rfcs/000{n}-{c}.md": f"# RFC {n}\n" for n, c in ((1, "a"), (2, "b"), (3, "c"), (4, "d"))
    }
    files["rfcs/README.md"] = readme
    assert run(make_corpus(files)) == []


def test_a_list_of_the_roots_community_files_needs_more_evidence(make_corpus: MakeCorpus) -> None:
    readme = "# Project\n\n- [Contributing](CONTRIBUTING.md)\n- [Governance](GOVERNANCE.md)\n- [Security](SECURITY.md)\n"
    files: dict[str, str | bytes] = {
        f"{name}.md": f"# {name}\n"
        for name in ("CONTRIBUTING", "GOVERNANCE", "SECURITY", "CHANGELOG")
    }
    files["README.md"] = readme
    assert run(make_corpus(files)) == []


def test_links_to_missing_files_are_left_to_broken_link(make_corpus: MakeCorpus) -> None:
    rows = "".join(f"| [{n:04d}](./{n:04d}-x.md) | RFC {n} |\n" for n in (1, 2, 3, 4))
    readme = f"# RFCs\n\n| RFC | Title |\n| --- | --- |\n{rows}"
    files: dict[str, str | bytes] = {f"rfcs/{n:04d}-x.md": f"# RFC {n}\n" for n in (1, 2, 3)}
    files["rfcs/README.md"] = readme
    root = make_corpus(files)
    assert run(root) == []
    [finding] = run(root, {"links": True})
    assert finding.key == "absent:rfcs/0004-x.md"
    assert finding.location.line == 8


def test_a_missing_file_is_reported_once_per_file_with_the_file_related(
    make_corpus: MakeCorpus,
) -> None:
    readme = table(*(f"s{n}.schema.json" for n in range(6)))
    root = make_corpus({**schemas(*(f"s{n}" for n in range(8))), "schemas/README.md": readme})
    found = run(root)
    assert [f.key for f in found] == [
        "missing:schemas/s6.schema.json",
        "missing:schemas/s7.schema.json",
    ]
    assert [f.related[0].path for f in found] == [
        "schemas/s6.schema.json",
        "schemas/s7.schema.json",
    ]


def test_subfolders_are_read_only_where_the_entries_go(make_corpus: MakeCorpus) -> None:
    readme = table(
        "run.schema.json",
        "event.schema.json",
        "envelopes/ask.schema.json",
        "envelopes/tell.schema.json",
    )
    files = {
        **schemas("run", "event", "envelopes/ask", "envelopes/tell", "envelopes/ack"),
        **schemas("v2/run", "v2/event"),  # another version's folder: not this index's
        "schemas/README.md": readme,
    }
    [finding] = run(make_corpus(files))
    assert finding.key == "missing:schemas/envelopes/ack.schema.json"
    assert "`schemas/envelopes/`" in finding.message


def test_a_document_map_split_by_topic_is_one_index(make_corpus: MakeCorpus) -> None:
    readme = (
        "# Spec\n\nIntro.\n\n## Document map\n\n### Wire\n\n"
        "- [`runs.md`](./runs.md) — runs.\n- [`events.md`](./events.md) and\n"
        "  [`errors.md`](./errors.md) — events and errors.\n\n### Agents\n\n"
        "- [`agents.md`](./agents.md) — agents.\n- [`memory.md`](./memory.md) — memory.\n"
    )
    names = ("runs", "events", "errors", "agents", "memory", "tools")
    files: dict[str, str | bytes] = {f"spec/{name}.md": f"# {name}\n" for name in names}
    files["spec/README.md"] = readme
    [finding] = run(make_corpus(files))
    assert finding.key == "missing:spec/tools.md"
    assert finding.location.line == 9  # the first entry of the section
    assert finding.location.pointer == "#document-map"


def test_steps_that_name_a_file_are_not_entries_of_the_index(make_corpus: MakeCorpus) -> None:
    rows = "".join(f"| [{n:04d}](./{n:04d}-x.md) | RFC {n} |\n" for n in (1, 2, 3))
    readme = (
        "# RFCs\n\n## Process\n\n1. Copy `0000-template.md` to a new file.\n"
        "2. Open a pull request.\n3. Wait a week.\n\n## Index\n\n"
        f"| RFC | Title |\n| --- | --- |\n{rows}\n## See also\n\n- `CONTRIBUTING.md`\n- `MAINTAINERS.md`\n"
    )
    files: dict[str, str | bytes] = {f"rfcs/{n:04d}-x.md": f"# RFC {n}\n" for n in (1, 2, 3)}
    files["rfcs/README.md"] = readme
    assert run(make_corpus(files)) == []


def test_a_file_the_page_mentions_elsewhere_is_not_reported(make_corpus: MakeCorpus) -> None:
    readme = table("run.schema.json", "event.schema.json", "error.schema.json") + (
        "\n## Internal\n\n`snapshot.schema.json` is generated; it is not listed above.\n"
    )
    root = make_corpus(
        {**schemas("run", "event", "error", "snapshot"), "schemas/README.md": readme}
    )
    assert run(root) == []


def test_ignore_option(make_corpus: MakeCorpus) -> None:
    readme = table("run.schema.json", "event.schema.json", "error.schema.json")
    root = make_corpus(
        {**schemas("run", "event", "error", "internal"), "schemas/README.md": readme}
    )
    assert [f.key for f in run(root)] == ["missing:schemas/internal.schema.json"]
    assert run(root, {"ignore": ["schemas/internal*"]}) == []


def test_declared_pages_and_inference_off(make_corpus: MakeCorpus) -> None:
    # Two entries only: too few to infer an index, but the configuration declares one.
    page = "# Catalog\n\n- `schemas/run.schema.json`\n- `schemas/gone.schema.json`\n"
    readme = table("run.schema.json", "event.schema.json", "error.schema.json")
    root = make_corpus(
        {
            **schemas("run", "event", "error", "extra"),
            "docs/catalog.md": page,
            "schemas/README.md": readme,
        }
    )
    assert [f.key for f in run(root)] == ["missing:schemas/extra.schema.json"]
    options = {"pages": {"docs/catalog.md": "schemas/*.schema.json"}, "infer": False}
    found = run(root, options)
    assert sorted(f.key or "" for f in found) == [
        "absent:schemas/gone.schema.json",
        "missing:schemas/error.schema.json",
        "missing:schemas/event.schema.json",
        "missing:schemas/extra.schema.json",
    ]
    assert all(f.location.path == "docs/catalog.md" for f in found)
    assert "option `pages`" in found[0].message


def test_files_discovery_does_not_read_are_not_required(make_corpus: MakeCorpus) -> None:
    readme = table("run.schema.json", "event.schema.json", "error.schema.json")
    root = make_corpus(
        {
            **schemas("run", "event", "error", "local"),
            "schemas/README.md": readme,
            "speclint.toml": 'exclude = ["schemas/local.schema.json"]\n',
        }
    )
    assert run(root) == []


def test_names_that_leave_the_root_are_not_followed(make_corpus: MakeCorpus) -> None:
    readme = table(
        "run.schema.json", "event.schema.json", "error.schema.json", "../../../etc/passwd.json"
    )
    root = make_corpus({**schemas("run", "event", "error"), "schemas/README.md": readme})
    assert run(root) == []
