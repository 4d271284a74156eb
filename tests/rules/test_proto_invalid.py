"""Issue 30, items 1 and 2: Protocol Buffers files and proto fences read by protoc, and
proto-invalid. Every corpus here is written for the test; protoc is the one grpcio-tools ships."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_rpc_operation_drift import OPENAPI

from conftest import findings_of
from speclint.analyses.context import Context
from speclint.analyses.grpc.protos import corpus_protos
from speclint.common.findings import Severity
from speclint.model.corpus import Corpus
from speclint.parsing import protobuf
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.protobuf import (
    blank_option,
    character_column,
    compile_protos,
    module_prefixes,
)
from speclint.run.cache import RuleCache, run_key
from speclint.run.catalog import all_rules
from speclint.run.inventory import entries, phrase

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


TASKS = """\
syntax = "proto3";

package tasks.v1;

import "google/api/annotations.proto";

service Tasks {
  rpc GetTask(GetTaskRequest) returns (Task) {
    option (google.api.http) = {
      get: "/v1/{name=tasks/*}"
      additional_bindings { post: "/v1/{name=tasks/*}:get" body: "*" }
    };
  }
}

message GetTaskRequest {
  string name = 1;
}

message Task {
  string id = 1;
  string context_id = 2;
  string display = 3 [json_name = "shownAs"];
  State state = 4;
  enum State {
    STATE_UNSPECIFIED = 0;
    STATE_WORKING = 1;
  }
}
"""


def test_a_proto_file_is_a_kind_of_its_own_listed_and_counted(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/tasks.proto": TASKS, "README.md": "# Tasks\n"})
    corpus = Context.load(root)
    document = corpus.documents["api/tasks.proto"]
    assert document.kind is DocumentKind.PROTO and document.dialect == "proto3"
    listed = {entry.path: entry for entry in entries(corpus)}
    assert listed["api/tasks.proto"].kind == "protobuf"
    assert "proto3" in listed["api/tasks.proto"].reason
    assert "1 Protocol Buffers file (proto3)" in phrase(entries(corpus))
    assert findings_of("proto-invalid", root) == []


def test_protoc_reads_messages_enums_rpcs_and_http_rules_with_their_lines(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/tasks.proto": TASKS})
    read = corpus_protos(Context.load(root)).file("api/tasks.proto")
    assert read is not None and read.package == "tasks.v1"
    task = next(m for m in read.messages if m.name == "tasks.v1.Task")
    assert (task.line, task.column) == (20, 1)
    fields = {f.name: f for f in task.fields}
    # ProtoJSON: lowerCamelCase, or the json_name option as written
    assert fields["context_id"].json_name == "contextId"
    assert not fields["context_id"].json_name_written
    assert fields["display"].json_name == "shownAs" and fields["display"].json_name_written
    assert fields["state"].type == "enum" and fields["state"].type_name == "tasks.v1.Task.State"
    assert (fields["context_id"].line, fields["context_id"].column) == (22, 3)
    state = next(e for e in read.enums if e.name == "tasks.v1.Task.State")
    assert [(v.name, v.number, v.line) for v in state.values] == [
        ("STATE_UNSPECIFIED", 0, 26),
        ("STATE_WORKING", 1, 27),
    ]
    (service,) = read.services
    (rpc,) = service.rpcs
    assert (rpc.name, rpc.input, rpc.output, rpc.line) == (
        "GetTask",
        "tasks.v1.GetTaskRequest",
        "tasks.v1.Task",
        8,
    )
    assert [(h.verb, h.path, h.body) for h in rpc.http] == [
        ("get", "/v1/{name=tasks/*}", ""),
        ("post", "/v1/{name=tasks/*}:get", "*"),
    ]


def test_a_syntax_error_is_reported_at_protocs_line_and_column(make_corpus: MakeCorpus) -> None:
    broken = TASKS.replace("message GetTaskRequest {", "messag GetTaskRequest {")
    root = make_corpus({"api/tasks.proto": broken})
    (finding,) = findings_of("proto-invalid", root)
    assert finding.severity is Severity.ERROR
    assert (finding.location.path, finding.location.line, finding.location.column) == (
        "api/tasks.proto",
        16,
        1,
    )
    assert "Expected top-level statement" in finding.message


def test_a_field_number_used_twice_is_reported_and_the_fixed_file_is_quiet(
    make_corpus: MakeCorpus,
) -> None:
    twice = TASKS.replace("string context_id = 2;", "string context_id = 1;")
    root = make_corpus({"api/tasks.proto": twice})
    (finding,) = findings_of("proto-invalid", root)
    assert (finding.location.line, finding.location.column) == (22, 23)
    assert "Field number 1 has already been used" in finding.message
    (root / "api/tasks.proto").write_text(TASKS)
    assert findings_of("proto-invalid", root) == []


def test_an_import_found_nowhere_is_an_info_and_the_rest_of_the_file_is_still_checked(
    make_corpus: MakeCorpus,
) -> None:
    text = TASKS.replace(
        'import "google/api/annotations.proto";',
        'import "google/api/annotations.proto";\nimport "buf/validate/validate.proto";',
    ).replace("string name = 1;", "string name = 1 [(buf.validate.field).string.min_len = 1];")
    root = make_corpus({"api/tasks.proto": text})
    found = findings_of("proto-invalid", root)
    assert [(f.severity, f.location.line) for f in found] == [(Severity.INFO, 6)]
    assert '"buf/validate/validate.proto"' in found[0].message
    read = corpus_protos(Context.load(root)).file("api/tasks.proto")
    assert read is not None  # read without it: the messages are there
    assert {m.name for m in read.messages} >= {"tasks.v1.Task", "tasks.v1.GetTaskRequest"}
    # a real error in the same file is still an error
    worse = text.replace("string context_id = 2;", "string context_id = 1;")
    (root / "api/tasks.proto").write_text(worse)
    found = findings_of("proto-invalid", root)
    assert [(f.severity, f.location.line) for f in found] == [
        (Severity.INFO, 6),
        (Severity.ERROR, 23),
    ]


def test_a_broken_import_is_reported_once_where_it_is(make_corpus: MakeCorpus) -> None:
    common = 'syntax = "proto3";\npackage c.v1;\nmessag Id { string value = 1; }\n'
    user = (
        'syntax = "proto3";\npackage u.v1;\nimport "c/v1/common.proto";\n'
        "message User { c.v1.Id id = 1; }\n"
    )
    root = make_corpus({"proto/c/v1/common.proto": common, "proto/u/v1/user.proto": user})
    found = findings_of("proto-invalid", root)
    assert [(f.location.path, f.location.line) for f in found] == [("proto/c/v1/common.proto", 3)]
    # the import resolved below the folder that holds both (an include root found from it)
    (root / "proto/c/v1/common.proto").write_text(common.replace("messag ", "message "))
    assert findings_of("proto-invalid", root) == []


PAGE = """\
# Transport

The service:

```protobuf
syntax = "proto3";
package tasks.v1;
service Tasks {
  rpc GetTask(GetTaskRequest) returns (Task);
}
```

An excerpt:

```proto
message Task { string id; }
```

1. A whole file in a list item:

    ```proto
    syntax = "proto3";
    message Broken {
      string id = 1;
      int32 id = 2;
    }
    ```
"""


def test_proto_invalid_reports_a_whole_file_fence_error_as_a_warning_and_compiles_no_excerpt(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"spec/transport.md": PAGE})
    found = findings_of("proto-invalid", root)
    # The service's undefined messages are the excerpt's (defined elsewhere); the excerpt
    # without a syntax line is not compiled; the list item's fence has a real error.
    assert len(found) == 1
    (finding,) = found
    assert finding.severity is Severity.WARNING
    assert finding.location.path == "spec/transport.md"
    assert (finding.location.line, finding.location.column) == (25, 13)
    assert '"id" is already defined in "Broken"' in finding.message
    assert finding.location.heading == "transport"
    fixed = PAGE.replace("int32 id = 2;", "int32 count = 2;")
    (root / "spec/transport.md").write_text(fixed)
    assert findings_of("proto-invalid", root) == []
    protos = corpus_protos(Context.load(root))
    assert [fence.whole for fence in protos.fences] == [True, False, True]
    last = protos.fence_file(protos.fences[2])
    assert last is not None and [m.name for m in last.messages] == ["Broken"]


def test_a_fence_may_import_the_corpus_files(make_corpus: MakeCorpus) -> None:
    page = (
        "# Use\n\n```proto\n"
        'syntax = "proto3";\nimport "api/tasks.proto";\n'
        "message Wrapper { tasks.v1.Task task = 1; }\n```\n"
    )
    root = make_corpus({"api/tasks.proto": TASKS, "spec/use.md": page})
    assert findings_of("proto-invalid", root) == []
    protos = corpus_protos(Context.load(root))
    wrapper = protos.fence_file(protos.fences[0])
    assert wrapper is not None
    assert wrapper.messages[0].fields[0].type_name == "tasks.v1.Task"


def test_protoc_columns_count_tabs_as_characters() -> None:
    assert character_column("\tint32 x = 1;", 9) == 2  # protoc: a tab runs to column 9
    assert character_column("ab\tc", 9) == 4
    assert character_column("plain", 3) == 3
    text = 'syntax = "proto3";\nmessage M {\n\tstring a = 1;\n\tint32 a = 2;\n}\n'
    compiled = compile_protos({"m.proto": text})
    (problem,) = compiled.problems
    assert (problem.line, problem.column) == (4, 8)  # `a` of `int32 a`, in characters


def test_an_option_is_blanked_in_place() -> None:
    text = 'message M {\n  string a = 1 [(x.y) = true];\n  option (z) = { a: "}" };\n}\n'
    once = blank_option(text, 2, 17)  # protoc points at the `(` of the option's name
    assert once.split("\n")[1] == "  string a = 1" + " " * 15 + ";"  # the only one: [] too
    twice = blank_option(once, 3, 10)
    assert twice.split("\n")[2].strip() == ""  # the statement, braces and quoted `}` too
    assert [len(line) for line in twice.split("\n")] == [len(line) for line in text.split("\n")]


@pytest.mark.parametrize(
    "path", ["../outside.proto", "/etc/x.proto", "a/../../b.proto", "we\\ird.proto"]
)
def test_a_path_protoc_cannot_take_is_never_written_and_is_said_not_compiled(path: str) -> None:
    compiled = compile_protos({path: 'syntax = "proto3";\n', "ok.proto": 'syntax = "proto3";\n'})
    assert [(p.path, p.kind) for p in compiled.problems] == [(path, "unread")]
    assert list(compiled.files) == ["ok.proto"]


def test_protos_not_checked_are_said_to_be_not_checked(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Never a silent all-clear: without protoc, the run says the protos were not checked.
    root = make_corpus({"api/tasks.proto": TASKS})
    monkeypatch.setattr(protobuf, "_protoc_available", lambda: "protoc is not installed (test)")
    (finding,) = findings_of("proto-invalid", root)
    assert finding.severity is Severity.WARNING and finding.location.path == "api/tasks.proto"
    assert "were not checked: protoc is not installed (test)" in finding.message
    assert "install speclint with its dependencies" in finding.message  # how to mend it


def test_fence_protos_not_checked_are_said_so_at_the_first_whole_fence(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No `.proto` file: the finding is at the first whole fence of the pages, not at an excerpt.
    page = (
        "# Tasks\n\n```proto\nservice Tasks { rpc Get(A) returns (B); }\n```\n\n"
        "## Whole\n\n```proto\n" + TASKS + "```\n"
    )
    root = make_corpus({"docs/tasks.md": page})
    monkeypatch.setattr(protobuf, "_protoc_available", lambda: "protoc is not installed (test)")
    (finding,) = findings_of("proto-invalid", root)
    line = page.split("\n").index("## Whole") + 4  # the fence's first line
    assert (finding.location.path, finding.location.line) == ("docs/tasks.md", line)
    assert finding.location.heading == "whole"


def test_protoc_over_its_time_limit_is_stopped_and_said_so() -> None:
    compiled = compile_protos({"api/tasks.proto": TASKS}, time_limit=0.001)
    assert compiled.files == {} and "protoc took more than" in compiled.unavailable


def test_a_protoc_that_hangs_is_told_apart_from_one_not_installed(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # protoc ran past its time guard: "install speclint with its dependencies" would send the
    # author the wrong way.
    root = make_corpus({"api/tasks.proto": TASKS})
    hung = (protobuf._TIMED_OUT, "protoc took more than 60 s (test)", b"")
    monkeypatch.setattr(protobuf._Run, "protoc", lambda self, inputs: hung)
    (finding,) = findings_of("proto-invalid", root)
    assert "protoc took more than 60 s (test)" in finding.message
    assert "look for what makes protoc loop" in finding.message
    assert "install speclint" not in finding.message


VALIDATE = 'import "buf/validate/validate.proto";\n'


OPTION = "string id = 1 [(buf.validate.field).string.min_len = 1];"


def _compiled(files: dict[str, str]) -> tuple[list[tuple[str, int, str]], list[str]]:
    compiled = compile_protos(files)
    return [(p.path, p.line, p.kind) for p in compiled.problems], sorted(compiled.files)


def test_an_import_found_nowhere_is_said_on_each_file_naming_it_and_every_file_is_read() -> None:
    head = 'syntax = "proto3";\npackage p;\n'
    problems, read = _compiled(
        {
            "a.proto": head + VALIDATE + "message A { " + OPTION + " }\n",
            "b.proto": head + VALIDATE + "message B { " + OPTION + " }\n",
            "z.proto": head + 'import "a.proto";\nmessage Z { A a = 1; }\n',
        }
    )
    assert problems == [("a.proto", 3, "import"), ("b.proto", 3, "import")]
    assert read == ["a.proto", "b.proto", "z.proto"]


def test_a_real_error_beside_an_import_found_nowhere_is_still_an_error() -> None:
    text = 'syntax = "proto3";\npackage p;\n' + VALIDATE + "message A {\n  Strng typo = 1;\n}\n"
    problems, _ = _compiled({"a.proto": text})
    assert problems == [("a.proto", 3, "import"), ("a.proto", 5, "error")]


def test_two_imports_that_define_one_name_are_an_error() -> None:
    head = 'syntax = "proto3";\npackage p;\n'
    problems, read = _compiled(
        {
            "a.proto": head + "message X {}\n",
            "b.proto": head + "message X {}\n",
            "c.proto": head + 'import "a.proto";\nimport "b.proto";\nmessage C { X x = 1; }\n',
        }
    )
    assert [p for p in problems if p[2] == "error"] == [("b.proto", 3, "error")]
    assert "a.proto" in read


def test_a_file_is_never_shadowed_by_a_same_named_one_deeper_down() -> None:
    problems, read = _compiled(
        {
            "x.proto": 'syntax = "proto3";\npackage top;\nmessage X { int32 a = 1; int32 b = 1; }\n',
            "sub/x.proto": 'syntax = "proto3";\npackage sub;\nmessage X {}\n',
            "sub/y.proto": 'syntax = "proto3";\npackage sub;\nimport "x.proto";\nmessage Y {}\n',
        }
    )
    assert ("x.proto", 3, "error") in problems  # reported, not dropped behind the other
    assert "sub/x.proto" in read


def test_an_import_two_folders_could_hold_is_read_from_the_nearest() -> None:
    problems, read = _compiled(
        {
            "a/common.proto": 'syntax = "proto3";\npackage a;\nmessage Common {}\n',
            "b/common.proto": 'syntax = "proto3";\npackage b;\nmessage Common {}\n',
            "b/c.proto": 'syntax = "proto3";\npackage b;\nimport "common.proto";\n'
            "message C { b.Common c = 1; }\n",
        }
    )
    assert problems == [] and read == ["a/common.proto", "b/c.proto", "b/common.proto"]


def test_one_file_imported_under_two_names_is_said_once_and_read() -> None:
    a = 'syntax = "proto3";\npackage foo.v1;\nmessage A { int32 x = 1; }\n'
    problems, read = _compiled(
        {
            "proto/foo/v1/a.proto": a,
            "proto/foo/v1/b.proto": 'syntax = "proto3";\npackage foo.v1;\n'
            'import "foo/v1/a.proto";\nmessage B { A a = 1; }\n',
            "other/c.proto": 'syntax = "proto3";\npackage other;\n'
            'import "proto/foo/v1/a.proto";\nmessage C { foo.v1.A a = 1; }\n',
        }
    )
    assert problems == [("other/c.proto", 3, "alias")]
    assert len(read) == 3


def test_a_folder_named_src_keeps_its_files_apart() -> None:
    problems, read = _compiled(
        {
            "a.proto": 'syntax = "proto3";\npackage top;\nmessage Top {}\n',
            "src/a.proto": 'syntax = "proto3";\npackage inner;\nmessage Inner {}\n',
        }
    )
    compiled = compile_protos(
        {
            "a.proto": 'syntax = "proto3";\npackage top;\nmessage Top {}\n',
            "src/a.proto": 'syntax = "proto3";\npackage inner;\nmessage Inner {}\n',
        }
    )
    assert problems == [] and read == ["a.proto", "src/a.proto"]
    assert [m.name for m in compiled.files["a.proto"].messages] == ["top.Top"]
    assert [m.name for m in compiled.files["src/a.proto"].messages] == ["inner.Inner"]


def test_a_path_with_a_colon_keeps_its_errors() -> None:
    problems, _ = _compiled(
        {"a:b.proto": 'syntax = "proto3";\nmessage A { int32 x = 1; int32 y = 1; }\n'}
    )
    assert problems == [("a:b.proto", 2, "error")]


def test_only_shipped_protos_are_importable_not_the_rest_of_the_installation() -> None:
    problems, _ = _compiled({"a.proto": 'syntax = "proto3";\nimport "click/__init__.py";\n'})
    assert problems == [("a.proto", 2, "import")]


def test_protoc_failing_without_a_word_is_still_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protobuf._Run, "protoc", lambda self, inputs: (-11, "", b""))
    compiled = compile_protos({"a.proto": 'syntax = "proto3";\n'})
    assert [(p.path, p.kind) for p in compiled.problems] == [("a.proto", "error")]
    assert "protoc failed (exit -11)" in compiled.problems[0].message


def test_columns_count_characters_after_non_ascii_text_and_a_bom() -> None:
    text = '\ufeffsyntax = "proto3";\npackage p;\n/* ü */ message B { /* üü */ int32 r = 2; }\n'
    compiled = compile_protos({"a.proto": text})
    assert protobuf.syntax_of(text) == "proto3"
    (message,) = compiled.files["a.proto"].messages
    assert (message.line, message.column) == (3, 9)
    assert (message.fields[0].line, message.fields[0].column) == (3, 30)


def test_an_option_is_blanked_past_comments() -> None:
    text = (
        "message M {\n  string a = 1 [(x.y) = 1 /* see a, b */];\n"
        "  option (z) = {\n    // the user's name\n    a: 1\n  };\n}\n"
    )
    once = blank_option(text, 2, 17)
    assert once.split("\n")[1].strip() == "string a = 1" + " " * 27 + ";"
    twice = blank_option(once, 3, 10)
    assert [line.strip() for line in twice.split("\n")[2:6]] == ["", "", "", ""]


def test_a_fence_may_repeat_a_message_the_corpus_defines(make_corpus: MakeCorpus) -> None:
    page = (
        '# Tasks\n\n```proto\nsyntax = "proto3";\npackage tasks.v1;\n'
        "message Task { string id = 1; }\n```\n"
    )
    root = make_corpus({"api/tasks.proto": TASKS, "spec/tasks.md": page})
    assert findings_of("proto-invalid", root) == []
    protos = corpus_protos(Context.load(root))
    assert protos.fence_file(protos.fences[0]) is not None


def test_an_import_of_an_unreadable_corpus_file_says_so(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "latin.proto": b'syntax = "proto3";\nmessage L { string caf\xe9 = 1; }\n',
            "user.proto": 'syntax = "proto3";\nimport "latin.proto";\nmessage U {}\n',
        }
    )
    (finding,) = findings_of("proto-invalid", root)
    assert finding.severity is Severity.INFO and "the corpus file latin.proto" in finding.message


BROKEN = 'syntax = "proto3";\nmessage Broken { int32 x = 1; int32 y = 1; }\n'


STATES = (
    'syntax = "proto3";\npackage tasks.v1;\nenum TaskState {\n  TASK_STATE_UNSPECIFIED = 0;\n'
    "  TASK_STATE_SUBMITTED = 1;\n  TASK_STATE_CANCELLED = 2;\n}\n"
)


@pytest.mark.parametrize(
    "name",
    [
        "0:1:1: x.proto",  # protoc's diagnostic of it reads as one of a file "0"
        "x\nstates.proto:1:1: forged.proto",  # its second line reads as one of states.proto
        "states.proto: forged.proto",  # and as an unlocated one of states.proto
        "bell\x07.proto",
        "-x.proto",  # an option to protoc
        "@states.proto",  # protoc reads states.proto as more of its command line
    ],
)
def test_a_name_protoc_cannot_be_given_safely_is_one_finding_and_the_rest_is_read(
    name: str,
) -> None:
    compiled = compile_protos({name: BROKEN, "states.proto": STATES, "other.proto": BROKEN})
    kinds = {p.path: p.kind for p in compiled.problems}
    assert kinds == {name: "unread", "other.proto": "error"} and len(compiled.problems) == 2
    assert list(compiled.files) == ["states.proto"]
    (refused,) = (p for p in compiled.problems if p.path == name)
    assert "protoc cannot be given this name" in refused.message


def test_a_forged_name_loses_no_finding_of_the_other_protos(make_corpus: MakeCorpus) -> None:
    schema = '{"$defs": {"TaskState": {"enum": ["submitted", "canceled"]}}}\n'
    files: dict[str, str | bytes] = {"api/states.proto": STATES, "schema/task.json": schema}
    root = make_corpus(files)
    drift = findings_of("proto-enum-drift", root)
    assert drift and findings_of("proto-invalid", root) == []
    root = make_corpus({**files, "api/0:1:1: x.proto": BROKEN})
    assert findings_of("proto-enum-drift", root) == drift
    (finding,) = findings_of("proto-invalid", root)
    assert finding.location.path == "api/0:1:1: x.proto" and finding.severity is Severity.WARNING
    assert "rename the file" in finding.message


def test_a_fence_on_a_page_whose_name_protoc_cannot_be_given_is_said_not_compiled(
    make_corpus: MakeCorpus,
) -> None:
    page = "# States\n\n```proto\n" + STATES + "```\n"
    root = make_corpus({"docs/states: all.md": page})
    (finding,) = findings_of("proto-invalid", root)
    assert (finding.location.path, finding.location.line) == ("docs/states: all.md", 4)
    assert finding.severity is Severity.WARNING
    assert "fence is not compiled: protoc cannot be given this name" in finding.message


def test_a_name_protoc_would_read_as_its_command_line_writes_nothing(tmp_path: Path) -> None:
    # `@args.proto` beside `args.proto`: protoc reads args.proto's lines as options, which may
    # write generated code anywhere (or run any program as a plugin).
    outside = tmp_path / "outside"
    outside.mkdir()
    compile_protos(
        {
            "@args.proto": 'syntax = "proto3";\nmessage C {}\n',
            "args.proto": f"--python_out={outside}\n",
            "d.proto": 'syntax = "proto3";\nmessage D {}\n',
        }
    )
    assert list(outside.iterdir()) == []


def _counting_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], int]]:
    """Each protoc run of the test: its inputs, in order, and its exit code."""
    runs: list[tuple[list[str], int]] = []
    real = protobuf._Run.protoc

    def counted(self: protobuf._Run, inputs: list[str]) -> tuple[int, str, bytes]:
        code, stderr, blob = real(self, inputs)
        runs.append((list(inputs), code))
        return code, stderr, blob

    monkeypatch.setattr(protobuf._Run, "protoc", counted)
    return runs


def test_a_file_protoc_got_past_is_not_read_again_for_each_broken_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # protoc stops at the first input that fails: ten broken files were eleven runs, each
    # reading a big file that sorts first again (a 20 MB one: 2 min 38 s).
    broken = [f"b{index}.proto" for index in range(10)]
    runs = _counting_runs(monkeypatch)
    compiled = compile_protos({"a_big.proto": STATES, **dict.fromkeys(broken, BROKEN)})
    assert list(compiled.files) == ["a_big.proto"]
    assert sorted(p.path for p in compiled.problems) == broken

    def reads_big(inputs: list[str]) -> bool:  # protoc reads up to the first broken input
        stop = next((i for i, path in enumerate(inputs) if path in broken), len(inputs))
        return "a_big.proto" in inputs[: stop + 1]

    assert sum(reads_big(inputs) for inputs, _ in runs) == 2  # the first run and the last


def test_protocs_runs_of_one_compile_share_a_budget_of_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each broken file imports the big one, so each run reads it: the runs stop when the
    # budget is spent, the files not reached are said not compiled, each, and what protoc got
    # past is still read. The budget counts bytes read, not seconds: the same corpus is
    # checked the same way however loaded the machine is (the report is byte-identical).
    runs = _counting_runs(monkeypatch)
    importer = (
        BROKEN.replace("message", 'import "a_big.proto";\nmessage')
        + "message U { tasks.v1.TaskState s = 1; }\n"
    )
    broken = [f"b{index}.proto" for index in range(10)]
    per_run = len(STATES) + len(importer)  # a run stops at the first broken file
    compiled = compile_protos(
        {"a_big.proto": STATES, **dict.fromkeys(broken, importer)}, budget=3 * per_run
    )
    assert len(runs) == 4  # three within the budget, and the last, of what compiles
    assert list(compiled.files) == ["a_big.proto"]
    kinds = {p.path: p.kind for p in compiled.problems}
    assert kinds == {**dict.fromkeys(broken[:3], "error"), **dict.fromkeys(broken[3:], "budget")}
    assert all("budget of work" in p.message for p in compiled.problems if p.kind == "budget")


def test_protoc_imports_nothing_from_its_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # protoc runs in a folder of files the repository names; `python -m` would put that folder
    # first on sys.path, and a `grpc_tools.py` there would be run instead of grpcio-tools.
    marker = tmp_path / "imported"
    real = protobuf._Run.write

    def planted(self: protobuf._Run, sources: dict[str, str], base: str = "src") -> None:
        real(self, sources, base)
        if base == "src":
            real(self, {"grpc_tools.py": f"open({str(marker)!r}, 'w').close()\n"}, base)

    monkeypatch.setattr(protobuf._Run, "write", planted)
    compiled = compile_protos({"states.proto": STATES})
    assert not marker.exists()
    assert list(compiled.files) == ["states.proto"] and compiled.problems == ()


# What the missing import would declare: the tests compile each file once with it (the file is
# valid as written) and once without it (speclint sets its options aside).
RULES = """\
syntax = "proto3";
package ext;
import "google/protobuf/descriptor.proto";
message Rule { int32 min = 1; string note = 2; repeated string tags = 3; }
extend google.protobuf.FieldOptions { Rule rule = 50001; int32 level = 50002; }
extend google.protobuf.MessageOptions { Rule msg = 50003; }
extend google.protobuf.FileOptions { string file_note = 50004; }
"""


USES_RULES = 'syntax = "proto3";\npackage p;\nimport "ext/rules.proto";\n'


SET_ASIDE = {
    "a comment after the comma before the last option": (
        "message M {\n  string a = 1 [\n    deprecated = true, // why\n"
        "    (ext.level) = 2 // more\n  ];\n}\n"
    ),
    "a block comment after the comma before the last option": (
        "message M {\n  string a = 1 [\n    deprecated = true, /* keep */\n"
        "    (ext.level) = 2\n  ];\n}\n"
    ),
    "comments around each comma": (
        "message M {\n  string a = 1 [deprecated = true /* x, */, /* y */ (ext.level) = 2 /* z */];"
        "\n}\n"
    ),
    "a comment between `option` and the name": (
        "message M {\n  option /* c */ (ext.msg).min = 1;\n  string a = 1;\n}\n"
    ),
    "several in one list, the first and the last": (
        'message M {\n  string a = 1 [(ext.level) = 2, json_name = "b", (ext.rule) = {min: 1}];\n}\n'
    ),
    "an aggregate over lines with `}` in a comment and `//` in a string": (
        'message M {\n  option (ext.msg) = {\n    min: 1 // a } brace\n    note: "x // y }"\n'
        '    tags: ["a", "b"]\n  };\n  string a = 1;\n}\n'
    ),
    "a string with `//`, `,` and `]`": (
        'message M {\n  string a = 1 [json_name = "a//b", (ext.rule).note = "http://x, y]"];\n}\n'
    ),
    "a file option with `;` in its string": (
        'option (ext.file_note) = "a; b"; // note\nmessage M { string a = 1; }\n'
    ),
}


@pytest.mark.parametrize("body", SET_ASIDE.values(), ids=SET_ASIDE.keys())
def test_options_of_a_missing_import_are_set_aside_leaving_a_valid_file(body: str) -> None:
    text = USES_RULES + body
    written = compile_protos({"a.proto": text, "ext/rules.proto": RULES}, inputs=["a.proto"])
    assert [p for p in written.problems if p.kind == "error"] == []  # valid as written
    compiled = compile_protos({"a.proto": text})
    assert [p.kind for p in compiled.problems] == ["import"]  # nothing of speclint's making
    assert list(compiled.files) == ["a.proto"]


def test_an_editions_feature_of_a_missing_import_is_set_aside() -> None:
    text = (
        'edition = "2023";\npackage p;\nimport "my/features.proto";\n'
        "message M {\n  string a = 1 [features.(my.feature).x = true];\n}\n"
    )
    compiled = compile_protos({"a.proto": text})
    assert [p.kind for p in compiled.problems] == ["import"]
    assert list(compiled.files) == ["a.proto"]


def test_options_are_set_aside_with_one_reading_of_the_file() -> None:
    fields = "".join(
        f"  string f{n} = {n} [(ext.level) = {n}, deprecated = true];\n" for n in range(1, 6)
    )
    text = USES_RULES + "message M {\n" + fields + "}\n"
    positions = [(4 + n, text.split("\n")[3 + n].index("(") + 1) for n in range(1, 6)]
    blanked, near, missed = protobuf.blank_options(text, positions)
    assert missed == [] and len(near) == 5
    assert "(ext.level)" not in blanked and blanked.count("deprecated = true") == 5
    assert [len(line) for line in blanked.split("\n")] == [len(line) for line in text.split("\n")]


def test_a_rewrite_protoc_rejects_is_said_not_checked_not_reported(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Were speclint's own rewriting to leave text protoc rejects (here: a stray comma left where
    # the option was), the error is speclint's, not the author's: the file was not checked.
    def stray_comma(
        text: str, positions: list[tuple[int, int]]
    ) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]]]:
        lines = text.split("\n")
        for line, column in positions:
            row = lines[line - 1]
            lines[line - 1] = row[: column - 1] + "," + " " * (len(row) - column)
        return "\n".join(lines), [(line, line + 1) for line, _ in positions], []

    monkeypatch.setattr(protobuf, "blank_options", stray_comma, raising=False)
    body = "message M {\n  string a = 1 [deprecated = true, (ext.level) = 2];\n}\n"
    importer = 'syntax = "proto3";\nimport "p/a.proto";\nmessage U { p.M m = 1; }\n'
    root = make_corpus({"p/a.proto": USES_RULES + body, "u.proto": importer})
    every = findings_of("proto-invalid", root)
    found = sorted((f for f in every if f.coverage), key=lambda f: f.location.path)
    assert [(f.location.path, f.severity) for f in found] == [
        ("p/a.proto", Severity.INFO),  # the missing import
        ("p/a.proto", Severity.INFO),  # the file not checked
        ("u.proto", Severity.INFO),  # nor what imports it
    ]
    assert "not checked" in found[1].message and "set them aside" in found[1].message
    assert "imports p/a.proto, which was not checked" in found[2].message
    # what speclint did not check, listed in the run's summary: never a finding
    assert [f.coverage for f in found] == ["proto-import", "proto-rewrite", "proto-rewrite"]
    # but no proto of the corpus was read: that, once, is a finding (the gate fails)
    (unread,) = (f for f in every if not f.coverage)
    assert unread.severity is Severity.WARNING and "none of the corpus's 2" in unread.message


def _chain(count: int) -> dict[str, str]:
    """``count`` files, each importing the one before and using an option of a missing import:
    protoc stops at the first, so each takes a pass of its own to set its options aside."""
    return {
        f"c{n}.proto": f'syntax = "proto3";\npackage c{n};\nimport "ext/rules.proto";\n'
        + (f'import "c{n - 1}.proto";\n' if n else "")
        + "message M { string a = 1 [(ext.level) = 1]; }\n"
        for n in range(count)
    }


def test_passes_that_set_options_aside_do_not_use_up_the_passes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(protobuf, "_PASSES", 0)  # one pass a file, and none to spare
    compiled = compile_protos(_chain(4))
    assert sorted(compiled.files) == ["c0.proto", "c1.proto", "c2.proto", "c3.proto"]
    assert {p.kind for p in compiled.problems} <= {"import", "warning"}  # `c0` unused


def test_files_left_when_the_passes_run_out_are_said_not_checked(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(protobuf, "_PASSES", -2)  # no pass at all for these two files
    root = make_corpus({"a.proto": TASKS, "b.proto": STATES})
    compiled = corpus_protos(Context.load(root)).compilation
    assert compiled.files == {}
    assert [(p.path, p.kind) for p in compiled.problems] == [
        ("a.proto", "passes"),
        ("b.proto", "passes"),
    ]
    found = findings_of("proto-invalid", root)
    # what the run did not check, each file; and, since no proto was read, one warning
    assert [(f.severity, f.coverage) for f in found] == [
        (Severity.INFO, "proto-limit"),
        (Severity.INFO, "proto-limit"),
        (Severity.WARNING, None),
    ]
    assert "past speclint's limits on protoc's runs" in found[2].message


def test_an_option_that_cannot_be_set_aside_is_said_not_checked_not_reported(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Were speclint unable to find the option protoc names (the text left as it was), protoc's
    # "unknown option" is about an import that is not here, not the author's error.
    def nothing_found(
        text: str, positions: list[tuple[int, int]]
    ) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]]]:
        return text, [], list(positions)

    monkeypatch.setattr(protobuf, "blank_options", nothing_found, raising=False)
    body = "message M {\n  string a = 1 [(ext.level) = 2];\n}\n"
    root = make_corpus({"p/a.proto": USES_RULES + body, "p/b.proto": STATES})
    found = findings_of("proto-invalid", root)
    assert [(f.location.path, f.severity, f.coverage) for f in found] == [
        ("p/a.proto", Severity.INFO, "proto-import"),
        ("p/a.proto", Severity.INFO, "proto-rewrite"),
    ]
    assert "not checked" in found[1].message


def test_protocs_own_warnings_such_as_an_unused_import_are_not_reported(
    make_corpus: MakeCorpus,
) -> None:
    user = 'syntax = "proto3";\npackage u;\nimport "states.proto";\nmessage U { string a = 1; }\n'
    files = {"states.proto": STATES, "u.proto": user}
    compiled = compile_protos(files)
    assert [(p.path, p.kind) for p in compiled.problems] == [("u.proto", "warning")]
    assert findings_of("proto-invalid", make_corpus(dict(files))) == []


def test_a_fence_may_name_an_import_that_is_not_there(make_corpus: MakeCorpus) -> None:
    # An excerpt shows the import its file has; the imported file is the reader's to find.
    page = (
        '# Use\n\n```proto\nsyntax = "proto3";\npackage use.v1;\nimport "types/ids.proto";\n'
        "message Wrapper { string id = 1; }\n```\n"
    )
    root = make_corpus({"spec/use.md": page})
    assert findings_of("proto-invalid", root) == []
    protos = corpus_protos(Context.load(root))
    read = protos.fence_file(protos.fences[0])
    assert read is not None and [m.name for m in read.messages] == ["use.v1.Wrapper"]
    # a name the import would define: what the run did not check, never an error
    (root / "spec/use.md").write_text(page.replace("string id", "types.Id id"))
    found = findings_of("proto-invalid", root)
    assert [f.coverage for f in found] == ["proto-dependency"]


def test_a_fence_with_options_of_a_missing_import_is_read(make_corpus: MakeCorpus) -> None:
    page = (
        '# API\n\n```proto\nsyntax = "proto3";\nimport "buf/validate/validate.proto";\n'
        "message M {\n  string a = 1 [(buf.validate.field).string.min_len = 1];\n}\n```\n"
    )
    root = make_corpus({"spec/api.md": page})
    assert findings_of("proto-invalid", root) == []
    protos = corpus_protos(Context.load(root))
    read = protos.fence_file(protos.fences[0])
    assert read is not None and [m.name for m in read.messages] == ["M"]


def test_a_real_error_beside_an_option_set_aside_is_still_reported() -> None:
    # protoc names the option of the wrong type only once the unknown one beside it is set
    # aside: a blank of spaces makes parse errors at most, so this one is the author's.
    text = USES_RULES + "message M {\n  string a = 1 [(ext.level) = 2, deprecated = 3];\n}\n"
    compiled = compile_protos({"a.proto": text})
    assert [(p.kind, p.line) for p in compiled.problems] == [("import", 3), ("error", 5)]
    assert "Value must be identifier for boolean option" in compiled.problems[1].message


def test_a_name_resolved_into_a_file_that_fails_for_a_missing_import_is_not_reported() -> None:
    # `b.proto` cannot be read without its missing import, so what it defines is missing in
    # the file that imports it; protoc says so in its scoped form ("is resolved to ..."), which
    # is the missing import's consequence, not an error of the importer.
    b = 'syntax = "proto3";\npackage xds.type.v3;\nimport "ext/expr.proto";\n'
    b += "message Cel { ext.Expr e = 1; }\n"
    m = 'syntax = "proto3";\npackage xds.type.matcher.v3;\nimport "xds/type/v3/b.proto";\n'
    m += "message M { type.v3.Cel c = 1; }\n"
    compiled = compile_protos({"xds/type/v3/b.proto": b, "xds/type/matcher/v3/m.proto": m})
    assert [(p.path, p.kind) for p in compiled.problems] == [
        ("xds/type/matcher/v3/m.proto", "dependency"),  # not checked, never an error
        ("xds/type/v3/b.proto", "import"),
        ("xds/type/v3/b.proto", "dependency"),
    ]


MATCHER = 'syntax = "proto3";\npackage acme.type.matcher.v3;\n'


REGEX = MATCHER + "message Regex { string re = 1; }\n"


STRINGS = (
    MATCHER + 'import "acme/type/matcher/v3/regex.proto";\nimport "ext/core/v3/config.proto";\n'
    "message StringMatcher { Regex re = 1; ext.core.v3.TypedConfig custom = 2; }\n"
)


# `type.matcher.v3.StringMatcher` is relative: protoc finds `acme.type` first, a package
# declared by string.proto (imported) and by regex.proto (not imported).
FILTER = (
    'syntax = "proto3";\npackage acme.filters.checksum.v3;\n'
    'import "acme/type/matcher/v3/string.proto";\n'
    "message Checksum { type.matcher.v3.StringMatcher path = 1; }\n"
)


def _matchers(strings: str = STRINGS, checksum: str = FILTER) -> dict[str, str | bytes]:
    return {
        "acme/type/matcher/v3/regex.proto": REGEX,
        "acme/type/matcher/v3/string.proto": strings,
        "acme/filters/checksum/v3/checksum.proto": checksum,
    }


def test_a_relative_name_into_an_import_that_wants_a_dependency_is_not_checked_not_an_error(
    make_corpus: MakeCorpus,
) -> None:
    # protoc: `"acme.type" seems to be defined in "…/regex.proto", which is not imported`,
    # only because string.proto, which declares that package too, failed for want of the
    # missing import: in the project's own build, which has it, the file compiles.
    root = make_corpus(_matchers())
    found = findings_of("proto-invalid", root)
    assert [(f.location.path, f.severity, f.coverage) for f in found] == [
        ("acme/filters/checksum/v3/checksum.proto", Severity.INFO, "proto-dependency"),
        ("acme/type/matcher/v3/string.proto", Severity.INFO, "proto-import"),
        ("acme/type/matcher/v3/string.proto", Severity.INFO, "proto-dependency"),
    ]
    assert found[0].message.startswith("not checked: protoc cannot compile it without")


def test_what_imports_a_file_wanting_a_dependency_is_said_not_checked_too(
    make_corpus: MakeCorpus,
) -> None:
    user = (
        'syntax = "proto3";\npackage acme.users.v1;\n'
        'import "acme/filters/checksum/v3/checksum.proto";\n'
        "message User { acme.filters.checksum.v3.Checksum c = 1; }\n"
    )
    root = make_corpus({**_matchers(), "acme/users/v1/user.proto": user})
    found = [
        f for f in findings_of("proto-invalid", root) if f.location.path.endswith("user.proto")
    ]
    assert [(f.severity, f.coverage) for f in found] == [(Severity.INFO, "proto-dependency")]
    assert "imports acme/filters/checksum/v3/checksum.proto" in found[0].message


def test_a_relative_name_into_an_import_with_its_own_error_is_reported_there_once(
    make_corpus: MakeCorpus,
) -> None:
    own = STRINGS.replace('import "ext/core/v3/config.proto";\n', "").replace(
        "ext.core.v3.TypedConfig", "Nowhere"
    )
    root = make_corpus(_matchers(strings=own))
    found = findings_of("proto-invalid", root)
    assert [(f.location.path, f.severity) for f in found] == [
        ("acme/type/matcher/v3/string.proto", Severity.ERROR)
    ]
    assert '"Nowhere" is not defined' in found[0].message


def test_a_package_used_without_its_import_is_still_an_error(make_corpus: MakeCorpus) -> None:
    # No failing import explains it: the author must add the import.
    alone = FILTER.replace("string.proto", "regex.proto").replace("StringMatcher", "Regex")
    alone = alone.replace('import "acme/type/matcher/v3/regex.proto";\n', "")
    root = make_corpus(_matchers(checksum=alone))
    found = [f for f in findings_of("proto-invalid", root) if f.coverage is None]
    assert [(f.location.path, f.severity) for f in found] == [
        ("acme/filters/checksum/v3/checksum.proto", Severity.ERROR)
    ]
    assert '"type.matcher.v3.Regex"' in found[0].message


RESOURCE_FENCE = """\
# Resources

```proto
syntax = "proto3";

message Book {
  option (google.api.resource) = {
    type: "library.example.com/Book"
    pattern: "books/{book}"
  };
  string name = 1;
}
```
"""


def test_a_fence_that_does_not_show_its_options_import_is_noted_not_reported(
    make_corpus: MakeCorpus,
) -> None:
    # Documentation shows the message and leaves out the import that declares its option.
    root = make_corpus({"docs/resources.md": RESOURCE_FENCE})
    (found,) = findings_of("proto-invalid", root)
    assert (found.severity, found.coverage) == (Severity.INFO, "proto-excerpt")
    assert found.location.path == "docs/resources.md" and found.location.line == 7
    assert "(google.api.resource)" in found.message


@pytest.mark.parametrize(
    ("change", "said"),
    [
        # a built-in option's name that protobuf does not have: the author's typo
        (
            ("string name = 1;", 'string name = 1;\n  option ruby_namespace = "x";'),
            "ruby_namespace",
        ),
        # a syntax error: protoc stops before options, and reports it
        (("string name = 1;", "string name = ;"), "Expected"),
        # the fence declares its own extensions: an unknown one is its own misspelling
        (
            (
                'syntax = "proto3";\n',
                'syntax = "proto3";\nimport "google/protobuf/descriptor.proto";\n'
                "extend google.protobuf.MessageOptions { string shelf = 50000; }\n",
            ),
            "(google.api.resource)",
        ),
    ],
)
def test_a_fence_with_a_real_error_beside_an_unshown_import_is_still_reported(
    make_corpus: MakeCorpus, change: tuple[str, str], said: str
) -> None:
    page = RESOURCE_FENCE.replace(*change)
    root = make_corpus({"docs/resources.md": page})
    found = [f for f in findings_of("proto-invalid", root) if f.coverage is None]
    assert found and all(f.severity is Severity.WARNING for f in found)
    assert any(said in f.message for f in found)


def _model(extra: str = "", imports: str = "") -> str:
    """A model of package ``metrics``: the names two proposals of it would share (a message,
    an enum whose values are package-level names in protoc's C++ scoping)."""
    return (
        f'syntax = "proto3";\npackage metrics;\n{imports}\n'
        "enum Kind {\n  UNKNOWN = 0;\n  GAUGE = 1;\n}\n"
        "message Value {\n  double number = 1;\n}\n"
        f"message Metric {{\n  string name = 1;\n  Kind kind = 2;\n  Value value = 3;\n}}\n{extra}"
    )


def _counting_runs_compiled_apart(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The inputs of each protoc run of the test."""
    runs: list[list[str]] = []
    real = protobuf._Run.protoc

    def counted(self: protobuf._Run, inputs: list[str]) -> tuple[int, str, bytes]:
        runs.append(list(inputs))
        return real(self, inputs)

    monkeypatch.setattr(protobuf._Run, "protoc", counted)
    return runs


COMMON = 'syntax = "proto3";\npackage acme.common;\nmessage Ref { string id = 1; }\n'


def _service(imported: str) -> str:
    return (
        f'syntax = "proto3";\npackage acme.v1;\nimport "{imported}";\n'
        "message Task {\n  acme.common.Ref ref = 1;\n  map<string, acme.common.Ref> refs = 2;\n}\n"
    )


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
    runs = _counting_runs_compiled_apart(monkeypatch)
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


# Issue 30, item 3: the gRPC surface against the prose's method tables (method-table-drift) and
# the OpenAPI document (rpc-operation-drift). Every corpus here is written for the test.


def test_a_service_fence_shown_without_its_messages_is_read_and_compared(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        '# gRPC\n\n```protobuf\nsyntax = "proto3";\npackage runs.v1;\n'
        "service Runs {\n  rpc CreateRun(CreateRunRequest) returns (Run);\n"
        "  rpc GetRun(GetRunRequest) returns (Run);\n"
        "  rpc CancelRun(CancelRunRequest) returns (google.protobuf.Empty);\n"
        "  rpc ForkRun(ForkRunRequest) returns (Run);\n}\n```\n"
    )
    root = make_corpus({"api/openapi.yaml": OPENAPI, "spec/grpc.md": page})
    protos = corpus_protos(Context.load(root))
    excerpt = protos.fence_file(protos.fences[0])
    assert excerpt is not None
    assert [rpc.name for rpc in excerpt.services[0].rpcs] == [
        "CreateRun",
        "GetRun",
        "CancelRun",
        "ForkRun",
    ]
    assert findings_of("proto-invalid", root) == []  # an excerpt, not an error
    (finding,) = findings_of("rpc-operation-drift", root)
    assert (finding.location.path, finding.location.line) == ("spec/grpc.md", 10)
    assert "rpc `ForkRun` has no operation" in finding.message
