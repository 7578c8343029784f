"""load: safe YAML, one document, UTF-8, duplicate keys, aliases, the line map."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from rewire_site.load import (
    MAX_EXPANDED_CHARS,
    MAX_NODES,
    LoadedFile,
    line_of,
    load_file,
    parse_bytes,
)

HERE = Path("case.yaml")


def parse(text: str | bytes) -> LoadedFile:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return parse_bytes(raw, HERE)


def only_problem(text: str | bytes) -> tuple[int, str, str]:
    loaded = parse(text)
    assert len(loaded.problems) == 1, loaded.problems
    problem = loaded.problems[0]
    return problem.line, problem.field, problem.message


def test_values_and_lines_of_every_field() -> None:
    loaded = parse(
        "# modeline\n"
        "id: x\n"
        "results:\n"
        "  - column: a\n"
        "    value: 1.5\n"
        "  - column: b\n"
        "    value: 2\n"
        "comparison:\n"
        "  split: null\n"
    )
    assert loaded.problems == []
    assert loaded.data == {
        "id": "x",
        "results": [{"column": "a", "value": 1.5}, {"column": "b", "value": 2}],
        "comparison": {"split": None},
    }
    assert loaded.lines == {
        "": 2,
        "id": 2,
        "results": 3,
        "results.0": 4,
        "results.0.column": 4,
        "results.0.value": 5,
        "results.1": 6,
        "results.1.column": 6,
        "results.1.value": 7,
        "comparison": 8,
        "comparison.split": 9,
    }


def test_line_of_falls_back_to_the_nearest_parent() -> None:
    lines = {"": 2, "results": 3, "results.0": 4}
    assert line_of(lines, "results.0.unit") == 4
    assert line_of(lines, "results.7.unit") == 3
    assert line_of(lines, "missing") == 2
    assert line_of({}, "anything") == 1


def test_scalars_resolve_like_the_safe_loader_but_timestamps_stay_text() -> None:
    loaded = parse(
        "a: yes\nb: ~\nc: 0x10\nd: 1_000\ne: '12'\nf: 2026-02-30\ng: 2026-01-01T10:00:00Z\n"
        "h: !!str 5\ni: 1e3\n"
    )
    assert loaded.problems == []
    assert loaded.data == {
        "a": True,
        "b": None,
        "c": 16,
        "d": 1000,
        "e": "12",
        "f": "2026-02-30",
        "g": "2026-01-01T10:00:00Z",
        "h": "5",
        "i": "1e3",  # YAML 1.1 floats need a dot, as in PyYAML's safe loader
    }


def test_non_finite_numbers_are_noted_with_their_path() -> None:
    loaded = parse("a: .nan\nb: [1.0, -.inf]\n")
    assert loaded.nonfinite == ["a", "b.1"]


@pytest.mark.parametrize(
    ("text", "line", "field", "fragment"),
    [
        ("a: 1\nb: !!python/object/apply:os.system [ls]\n", 2, "b", "not allowed"),
        ("a: !foo 1\n", 1, "a", "not allowed"),
        ("a: !!binary aGVsbG8=\n", 1, "a", "not allowed"),
        ("a: !!set {x}\n", 1, "a", "not allowed"),
        ("a: 1\nb: 2\na: 3\n", 3, "a", "duplicate key 'a' (first at line 1)"),
        ("a:\n  b: 1\n  b: 2\n", 3, "a.b", "duplicate key"),
        ("a: 1\n---\nb: 2\n", 2, "", "more than one YAML document"),
        ("", 1, "", "empty"),
        ("# only a comment\n", 1, "", "empty"),
        ("a: 1\nb:\n\t- c\n", 3, "", "tab"),
        ("a: [1, 2\n", 1, "", "never closed with ']'"),
        ("a: *nowhere\n", 1, "a", "alias *nowhere"),
        ("a: &x [*x]\n", 1, "a.0", "recursive"),
        ("a:\n  <<: {b: 1}\n", 2, "a", "merge keys"),
        ("a: !!int abc\n", 1, "a", "not a valid int"),
    ],
)
def test_problems_name_line_and_field(text: str, line: int, field: str, fragment: str) -> None:
    found_line, found_field, message = only_problem(text)
    assert (found_line, found_field) == (line, field)
    assert fragment in message


@pytest.mark.parametrize(
    ("text", "line", "advice"),
    [
        (
            "id: a\ntitle: Results: good\n",
            2,
            'quote a value that holds a colon, e.g. title: "Results: good"',
        ),
        ("id: a\n\ttitle: x\n", 2, "indent with spaces, not tabs"),
        ("id: a\nlist:\n\t- x\n", 3, "indent with spaces, not tabs"),
        ("id: a\ntitle: x\n  summary: y\n", 3, "fields of one mapping start in the same column"),
        (
            "id: a\nmetric:\n  id: x\n label: y\n",
            4,
            "start the fields of one mapping in the same column",
        ),
        ("id: a\ntitle\nsummary: y\n", 2, "put ': ' after the field name"),
        ('id: a\ntitle: "abc\nsummary: y\n', 2, 'a value opened with " is never closed'),
        (
            "id: a\ntitle: @x\n",
            2,
            "a value cannot start with '@' in YAML: quote it, e.g. title: \"@x\"",
        ),
        ("id: a\nlist: [a, b\nx: 1\n", 2, "never closed with ']': close it, or quote the value"),
        ("id: a\ntitle: &\n", 2, "quote it"),
    ],
)
def test_a_syntax_error_says_what_to_do_on_its_line(text: str, line: int, advice: str) -> None:
    found_line, found_field, message = only_problem(text)
    assert (found_line, found_field) == (line, "")
    assert message.startswith("YAML syntax error: ")
    assert advice in message


def test_non_utf8_bytes_are_a_problem_on_their_line() -> None:
    line, field, message = only_problem(b"a: 1\nb: caf\xe9\n")
    assert (line, field) == (2, "")
    assert "not UTF-8" in message and "0xe9" in message


def test_a_utf8_byte_order_mark_is_accepted() -> None:
    assert parse(b"\xef\xbb\xbfa: 1\n").data == {"a": 1}


def test_alias_expansion_is_bounded() -> None:
    levels = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        levels.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]")
    loaded = parse("\n".join(levels) + "\n")
    assert loaded.data is None
    assert "aliases expand" in loaded.problems[0].message
    assert str(MAX_NODES) in loaded.problems[0].message


@pytest.mark.parametrize("lines", [True, False], ids=["with lines", "lines later"])
@pytest.mark.parametrize("megabytes", [1, 2])
def test_alias_byte_amplification_is_one_error_at_its_line(megabytes: int, lines: bool) -> None:
    """A long string referenced 90,000 times (issue 28): few nodes, 2.3 MB on disk, but
    90 to 180 GB of text once expanded. One error at the alias that passes the bound."""
    text = (
        "id: x\nkind: source\nbig: &s " + "a" * (megabytes * 1024 * 1024) + "\n"
        "refs: [" + ", ".join(["*s"] * 90_000) + "]\n"
    )
    loaded = parse_bytes(text.encode(), HERE, lines=lines)
    assert loaded.data is None
    assert [(p.line, p.field) for p in loaded.problems] == [
        (4, "refs.0" if megabytes == 2 else "refs.2")
    ]
    message = loaded.problems[0].message
    assert f"more than {MAX_EXPANDED_CHARS:,} characters" in message


def test_a_long_string_referenced_a_few_times_is_read() -> None:
    text = "big: &s " + "a" * 100_000 + "\nrefs: [" + ", ".join(["*s"] * 20) + "]\n"
    loaded = parse(text)
    assert loaded.problems == []
    assert loaded.data["refs"][19] == "a" * 100_000


@pytest.mark.parametrize("text", ["~\n", "null\n", "---\n", "--- ~\n", "# c\nNULL # x\n"])
@pytest.mark.parametrize("lines", [True, False], ids=["with lines", "lines later"])
def test_a_file_holding_only_null_is_an_error(text: str, lines: bool) -> None:
    loaded = parse_bytes(text.encode(), HERE, lines=lines)
    assert loaded.data is None
    assert len(loaded.problems) == 1, loaded.problems
    problem = loaded.problems[0]
    assert (problem.field, problem.severity) == ("", "error")
    assert problem.line == text.count("\n", 0, text.rfind("\n")) + 1
    assert "holds no record" in problem.message


def test_small_aliases_are_expanded() -> None:
    loaded = parse("a: &v {x: 1}\nb: *v\n")
    assert loaded.problems == []
    assert loaded.data == {"a": {"x": 1}, "b": {"x": 1}}


def test_nesting_is_bounded() -> None:
    loaded = parse("a: " + "[" * 100 + "]" * 100 + "\n")
    assert loaded.data is None
    assert "nesting deeper" in loaded.problems[0].message


def test_a_non_scalar_key_is_a_problem() -> None:
    line, field, message = only_problem("? [a, b]\n: 1\nc: 2\n")
    assert (line, field) == (1, "")
    assert "key must be a plain scalar" in message


def test_modeline_schema_is_read_from_the_first_line() -> None:
    loaded = parse("# yaml-language-server: $schema=../schemas/source.schema.json\nid: x\n")
    assert loaded.schema == "../schemas/source.schema.json"
    assert parse("id: x\n").schema is None


def test_sha256_of_the_bytes_is_kept() -> None:
    assert parse("a: 1\n").sha256 == hashlib.sha256(b"a: 1\n").hexdigest()


def test_load_file_reports_an_unreadable_path(tmp_path: Path) -> None:
    loaded = load_file(tmp_path / "missing.yaml")
    assert loaded.data is None
    assert "cannot read" in loaded.problems[0].message
