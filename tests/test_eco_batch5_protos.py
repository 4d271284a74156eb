"""Issue 45, batch 5's proto-invalid classes: files that share no import compiled apart (a
legacy copy of a model beside the current one), imports under the repository's own module path,
and a name an import not in the repository may define. Every corpus is written for the test;
protoc is the one grpcio-tools ships."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_integrity_rules import findings_of

from speclint.analyses.context import Context
from speclint.analyses.grpc.protos import corpus_protos
from speclint.model.corpus import Corpus
from speclint.parsing import protobuf
from speclint.parsing.protobuf import compile_protos, module_prefixes
from speclint.run.cache import RuleCache, run_key
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _model(extra: str = "", imports: str = "") -> str:
    """A model of package ``metrics``: the names two proposals of it would share (a message,
    an enum whose values are package-level names in protoc's C++ scoping)."""
    return (
        f'syntax = "proto3";\npackage metrics;\n{imports}\n'
        "enum Kind {\n  UNKNOWN = 0;\n  GAUGE = 1;\n}\n"
        "message Value {\n  double number = 1;\n}\n"
        f"message Metric {{\n  string name = 1;\n  Kind kind = 2;\n  Value value = 3;\n}}\n{extra}"
    )


def _counting_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The inputs of each protoc run of the test."""
    runs: list[list[str]] = []
    real = protobuf._Run.protoc

    def counted(self: protobuf._Run, inputs: list[str]) -> tuple[int, str, bytes]:
        runs.append(list(inputs))
        return real(self, inputs)

    monkeypatch.setattr(protobuf._Run, "protoc", counted)
    return runs


def test_files_of_one_package_that_import_nothing_of_each_other_are_compiled_apart(
    make_corpus: MakeCorpus,
) -> None:
    # Two earlier proposals beside the current model, each built alone: compiled together,
    # protoc found each shared name "already defined" and then each use of it resolved to a
    # file not imported (70 false errors in one repository).
    root = make_corpus(
        {
            "legacy/first.proto": _model("message Summary { double sum = 1; }\n"),
            "legacy/second.proto": _model("message Summary { uint64 count = 1; }\n"),
            "model/metrics.proto": _model(),
        }
    )
    assert findings_of("proto-invalid", root) == []
    read = corpus_protos(Context.load(root)).compilation.files
    assert sorted(read) == ["legacy/first.proto", "legacy/second.proto", "model/metrics.proto"]


def test_a_name_defined_twice_in_one_import_graph_is_still_reported(
    make_corpus: MakeCorpus,
) -> None:
    common = 'syntax = "proto3";\npackage metrics;\nmessage Unit { string name = 1; }\n'
    # Both import one file: one build compiles them together, and the clash is the author's.
    root = make_corpus(
        {
            "common.proto": common,
            "first.proto": _model(imports='import "common.proto";'),
            "second.proto": _model(imports='import "common.proto";'),
        }
    )
    found = findings_of("proto-invalid", root)
    assert any(
        '"metrics.Value" is already defined in file "first.proto"' in f.message for f in found
    )
    assert {f.location.path for f in found} == {"second.proto"}
    # One imports the other: the same.
    root = make_corpus(
        {"first.proto": _model(), "second.proto": _model(imports='import "first.proto";')}
    )
    found = findings_of("proto-invalid", root)
    assert found and {f.location.path for f in found} == {"second.proto"}
    assert any(
        '"metrics.Value" is already defined in file "first.proto"' in f.message for f in found
    )


def test_files_that_share_no_name_share_one_protoc_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # Compiling apart costs a run only where names clash: twelve unrelated files defining
    # names of their own are one run, and three copies of one model are three.
    runs = _counting_runs(monkeypatch)
    unrelated = {
        f"api/p{index}.proto": f'syntax = "proto3";\npackage api;\nmessage M{index} {{}}\n'
        for index in range(12)
    }
    compiled = compile_protos(unrelated)
    assert sorted(compiled.files) == sorted(unrelated) and compiled.problems == ()
    assert len(runs) == 1
    runs.clear()
    copies = {f"v{index}/metrics.proto": _model() for index in range(3)}
    compiled = compile_protos({**unrelated, **copies})
    assert sorted(compiled.files) == sorted({**unrelated, **copies})
    assert compiled.problems == ()
    assert len(runs) == 3


COMMON = 'syntax = "proto3";\npackage acme.common;\nmessage Ref { string id = 1; }\n'


def _service(imported: str) -> str:
    return (
        f'syntax = "proto3";\npackage acme.v1;\nimport "{imported}";\n'
        "message Task {\n  acme.common.Ref ref = 1;\n  map<string, acme.common.Ref> refs = 2;\n}\n"
    )


@pytest.mark.parametrize(
    "build",
    [
        {"go.mod": "module example.com/acme/api\n\ngo 1.22\n"},
        # Bazel's proto_library, the prefix before the file's path from the root
        {
            "proto/common/BUILD.bazel": 'proto_library(\n    import_prefix = "example.com/acme/api",\n)\n'
        },
    ],
)
def test_an_import_under_the_repositorys_own_module_path_is_its_file(
    make_corpus: MakeCorpus, build: dict[str, str]
) -> None:
    # protoc-gen-go users import their own protos by the module path (`go.mod`'s `module`, or
    # Bazel's `import_prefix`): the import names the repository's own file, not a dependency.
    root = make_corpus(
        {
            **build,
            "proto/common/common.proto": COMMON,
            "proto/v1/service.proto": _service("example.com/acme/api/proto/common/common.proto"),
        }
    )
    assert findings_of("proto-invalid", root) == []
    protos = corpus_protos(Context.load(root))
    read = protos.compilation.files
    assert sorted(read) == ["proto/common/common.proto", "proto/v1/service.proto"]
    task = next(m for m in read["proto/v1/service.proto"].messages if m.name == "acme.v1.Task")
    assert task.fields[0].type_name == "acme.common.Ref"


def test_an_import_under_another_module_path_is_still_not_in_the_repository(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "go.mod": "module example.com/acme/api\n",
            "proto/common/common.proto": COMMON,
            "proto/v1/service.proto": _service("example.com/other/proto/common/common.proto"),
        }
    )
    found = findings_of("proto-invalid", root)
    assert found and all(f.coverage is not None for f in found)  # not checked, never an error
    assert any("example.com/other/proto/common/common.proto" in f.message for f in found)


@pytest.mark.parametrize(
    "imported",
    [
        "github.com/other/ext/ext.proto",  # a Go import path: its folders are no package
        "vendorx/types/types.proto",  # folders unlike the name's package
    ],
)
def test_a_qualified_name_a_missing_import_may_define_is_a_dependency_gap(imported: str) -> None:
    text = (
        f'syntax = "proto3";\npackage acme.v1;\nimport "{imported}";\n'
        "message Task {\n  ext.Extension extension = 1;\n}\n"
    )
    compiled = compile_protos({"api/task.proto": text})
    assert [p.kind for p in compiled.problems] == ["import", "dependency"]


@pytest.mark.parametrize(
    "imported",
    [
        "ext.proto",  # a buf module's file at its root: of any package
        "github.com/other/ext/ext.proto",  # a Go import path: its folders are no package
        "acme/ext.proto",  # folders that are a parent of the file's package
    ],
)
def test_an_unqualified_name_a_missing_import_of_a_parent_package_may_define_is_a_dependency_gap(
    imported: str,
) -> None:
    # protoc looks an unqualified name up in the file's package and its parents (descriptor.cc,
    # LookupSymbol): an import whose package may be one of those may define it.
    text = (
        f'syntax = "proto3";\npackage acme.v1;\nimport "{imported}";\n'
        "message Task {\n  Extension extension = 1;\n}\n"
    )
    compiled = compile_protos({"api/task.proto": text})
    assert [p.kind for p in compiled.problems] == ["import", "dependency"]


def test_a_name_a_missing_import_clearly_cannot_define_is_still_an_error() -> None:
    # google.protobuf is shipped whole: a missing import defines none of its names; an
    # unqualified name is looked up in the file's package and its parents, which a buf
    # module's import (its package its folders) is none of.
    text = (
        'syntax = "proto3";\npackage acme.v1;\nimport "buf/validate/validate.proto";\n'
        "message Task {\n  google.protobuf.Tymestamp at = 1;\n  Strng name = 2;\n}\n"
    )
    compiled = compile_protos({"api/task.proto": text})
    assert [(p.line, p.kind) for p in compiled.problems] == [
        (3, "import"),
        (5, "error"),
        (6, "error"),
    ]


def test_a_module_path_edit_changes_the_cache_keys(make_corpus: MakeCorpus) -> None:
    # go.mod is no corpus document, but it decides which file an import names.
    files: dict[str, str | bytes] = {
        "go.mod": "module example.com/acme/api\n",
        "proto/common/common.proto": COMMON,
        "proto/v1/service.proto": _service("example.com/acme/api/proto/common/common.proto"),
    }
    root = make_corpus(files)

    def keys() -> tuple[str | None, str]:
        corpus = Context.of(Corpus.load(root))
        rule = all_rules()["proto-invalid"]
        return RuleCache.key(corpus, rule.id, rule), run_key(
            root, corpus.config, {}, ["x"], corpus.tree
        )

    before = keys()
    (root / "go.mod").write_text("module example.com/acme/other\n")
    after = keys()
    assert before[0] != after[0] and before[1] != after[1]


def test_an_error_of_a_map_fields_entry_is_at_the_map_field() -> None:
    # protoc makes a map field's entry message itself and locates nothing of it: its errors
    # came at line 1, far from the `map<>` (a commented-out one is no field).
    text = (
        'syntax = "proto3";\npackage acme.v1;\nmessage Task {\n  string id = 1;\n'
        "  // map<string, Missing> old = 2;\n  map<string, Missing> items = 3;\n}\n"
    )
    compiled = compile_protos({"api/task.proto": text})
    assert [(p.line, p.column, p.message) for p in compiled.problems] == [
        (6, 3, '"Missing" is not defined.')
    ]
    child = 'syntax = "proto3";\npackage acme.v1;\nmessage Child {\n  map<string, string> label_set = 1;\n}\n'
    again = child.replace("package acme.v1;\n", 'package acme.v1;\nimport "a.proto";\n')
    compiled = compile_protos({"a.proto": child, "b.proto": again})
    entry = [p for p in compiled.problems if "LabelSetEntry" in p.message and p.kind == "error"]
    assert entry and {(p.path, p.line, p.column) for p in entry} == {("b.proto", 5, 3)}


def test_a_name_an_import_re_exports_from_a_missing_import_is_a_dependency_gap() -> None:
    # `import public`: the importer sees the missing import's names as its own import's.
    hub = 'syntax = "proto3";\npackage acme.v1;\nimport public "vendorx/types/types.proto";\n'
    user = (
        'syntax = "proto3";\npackage acme.v1;\nimport "hub.proto";\n'
        "message Task {\n  other.Thing thing = 1;\n}\n"
    )
    compiled = compile_protos({"hub.proto": hub, "task.proto": user})
    assert [(p.path, p.kind) for p in compiled.problems if p.kind != "warning"] == [
        ("hub.proto", "import"),
        ("task.proto", "dependency"),
    ]


def test_module_prefixes_are_read_from_go_mod_and_plain_bazel_prefixes_only() -> None:
    build = (
        'proto_library(\n    import_prefix = "example.com/b",\n    strip_import_prefix = "%s",\n)\n'
    )
    assert module_prefixes(
        {
            "go.mod": "module example.com/acme/api // the API\n\ngo 1.22\n",
            "sub/go.mod": 'module "example.com/acme/sub"\n',
            "a/BUILD": build % "/proto",  # absolute: from the root
            "c/BUILD.bazel": build.replace("example.com/b", "example.com/c") % "defs",  # relative
            # two prefixes in one file: which file has which is not read here
            "d/BUILD": 'import_prefix = "x.com/d"\nimport_prefix = "x.com/e"\n',
            "e/BUILD": 'import_prefix = "../out"\n',  # no plain relative path
            "notes/go.mod.md": "module example.com/nothing\n",
        }
    ) == {
        "example.com/acme/api": "",
        "example.com/acme/sub": "sub",
        "example.com/b": "proto",
        "example.com/c": "c/defs",
    }
