"""Excerpts centred on the evidence (issue 48): the shape of an excerpt as a function of the
source text and the location, on small texts we write."""

from __future__ import annotations

from speclint.common.findings import Location
from speclint.outputs.reporters.markdown_report import excerpt, excerpt_lines

STATUS_VALUES = ["queued", "running", "paused", "succeeded", "failed", "cancelled", "expired"]


def json_enum(values: list[str]) -> str:
    items = ",\n".join(f'        "{value}"' for value in values)
    return (
        '{\n  "type": "object",\n  "properties": {\n    "status": {\n'
        f'      "enum": [\n{items}\n      ]\n    }}\n  }},\n  "required": ["status"]\n}}\n'
    )


def shown(path: str, text: str, location: Location) -> list[tuple[int, bool]]:
    lines = excerpt_lines({path: text}, location)
    assert not isinstance(lines, str)
    return [(line.number, line.marked) for line in lines]


def test_a_multi_line_json_enum_is_shown_whole_from_its_key() -> None:
    text = json_enum(STATUS_VALUES)  # "enum": [ at line 5, values 6-12, ] at 13
    got = shown("s.json", text, Location("s.json", 5, 7, pointer="/properties/status/enum"))
    # From the property's line through the line after the closing bracket; the key marked.
    assert [n for n, _ in got] == list(range(2, 15))
    assert [n for n, marked in got if marked] == [5]


def test_a_value_deep_in_a_multi_line_enum_shows_the_whole_enum_and_marks_the_value() -> None:
    text = json_enum(STATUS_VALUES)
    got = shown("s.json", text, Location("s.json", 12, 9, pointer="/properties/status/enum/6"))
    # From the property's line (4), above the window of 3 (9-15), to the line after `]` (14).
    assert [n for n, _ in got] == list(range(4, 16))
    assert [n for n, marked in got if marked] == [12]


def test_an_enum_longer_than_fits_shows_the_lines_around_the_location() -> None:
    values = [f"v{n}" for n in range(30)]
    text = json_enum(values)
    got = shown("s.json", text, Location("s.json", 20, 9))
    assert [n for n, _ in got] == list(range(17, 24))


def test_brackets_inside_enum_strings_do_not_close_the_array() -> None:
    text = json_enum(["a]", "b[", "c"])
    got = shown("s.json", text, Location("s.json", 5, 7))
    assert [n for n, _ in got] == list(range(2, 11))  # through `]` at 9 and the line after


def test_a_one_line_enum_keeps_the_plain_window() -> None:
    text = '{\n  "a": 1,\n  "b": 2,\n  "status": {\n    "enum": ["x", "y"]\n  },\n  "c": 3\n}\n'
    got = shown("s.json", text, Location("s.json", 5, 5))
    assert [n for n, _ in got] == list(range(2, 9))


def test_a_yaml_block_sequence_enum_is_shown_whole() -> None:
    text = "status:\n  type: string\n  enum:\n" + "".join(
        f"    - {value}\n" for value in STATUS_VALUES
    )
    text += "  description: the run's state\nother: 1\n"
    got = shown("a.yaml", text, Location("a.yaml", 3, 3, pointer="/status/enum"))
    assert [n for n, _ in got] == list(range(1, 12))  # the property's line .. description


def test_a_yaml_enum_with_items_at_the_keys_indentation_is_shown_whole() -> None:
    text = "status:\n  enum:\n" + "".join(f"  - {value}\n" for value in STATUS_VALUES) + "x: 1\n"
    got = shown("a.yaml", text, Location("a.yaml", 2, 3))
    assert [n for n, _ in got] == list(range(1, 11))


TABLE_PAGE = """# Runs

Intro.

| status | terminal | meaning |
| --- | --- | --- |
| `queued` | no | accepted |
| `running` | no | executing |
| `paused` | no | waiting |
| `succeeded` | yes | done |
| `failed` | yes | broken |
| `cancelled` | yes | stopped |

After.
"""


def test_a_table_row_is_marked_with_the_header_and_delimiter_shown_above_it() -> None:
    got = shown("p.md", TABLE_PAGE, Location("p.md", 11, 1))
    assert got[:2] == [(5, False), (6, False)]
    assert [n for n, _ in got[2:]] == list(range(8, 15))
    assert [n for n, marked in got if marked] == [11]


def test_the_rows_left_out_between_header_and_row_are_an_ellipsis_in_the_markdown_excerpt() -> None:
    block = excerpt({"p.md": TABLE_PAGE}, Location("p.md", 11, 1))
    assert block[1:4] == [
        "   5 | | status | terminal | meaning |",
        "   6 | | --- | --- | --- |",
        "   … |",
    ]
    assert "> 11 | | `failed` | yes | broken |" in block


def test_the_first_body_row_shows_header_and_delimiter_with_no_gap() -> None:
    got = shown("p.md", TABLE_PAGE, Location("p.md", 7, 1))
    assert [n for n, _ in got] == list(range(5, 11))  # nothing above the table


def test_a_location_at_a_tables_header_keeps_the_plain_window() -> None:
    got = shown("p.md", TABLE_PAGE, Location("p.md", 5, 1))
    assert [n for n, _ in got] == list(range(2, 9))


def test_pipes_in_running_text_are_no_table() -> None:
    text = "a\nb\n`x` | `y` | `z`\nc | d\ne\n"
    got = shown("p.md", text, Location("p.md", 4, 1))
    assert [n for n, _ in got] == list(range(1, 6))
