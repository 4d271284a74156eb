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
from speclint.analyses.protos import corpus_protos
from speclint.parsing import protobuf
from speclint.parsing.protobuf import compile_protos

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
