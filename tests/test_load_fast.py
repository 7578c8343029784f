"""Lines later (`parse_bytes(lines=False)`, as validate and build read many files): the
same values and problems as the line-keeping builder, the line map read again from the
file only when asked for, and at once for a file with a problem."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from rewire_site.load import LazyLines, parse_bytes

REPO = Path(__file__).resolve().parents[1]

TEXTS = [
    "# modeline\nid: x\nresults:\n  - column: a\n    value: 1.5\n  - {column: b, value: 2}\n",
    "a: yes\nb: ~\nc: 0x10\nd: 1_000\ne: '12'\nf: 2026-02-30\ng: 2026-01-01T10:00:00Z\n"
    "h: !!str 5\ni: 1e3\nj: ''\nk:\nl: 0o17\nm: 017\nn: 1:20\no: -.5\np: +12\n",
    "1: a\ntrue: b\n1.5: c\n'<<': d\n",
    'a: >\n  folded\n  text\nb: |\n  literal\n  text\nc: "q\\tx"\n',
    "- a\n- b\n",
    "just text\n",
    "a: [[1, 2], {b: [c, {d: e}]}]\n",
    "a: {}\nb: []\nc: [{}]\n",
    # what the native path leaves to the builder
    "a: .nan\nb: [1.0, -.inf]\n",
    "a: 1\nb: 2\na: 3\n",
    "a: 1\ntrue: 2\n1: 3\n",
    "~: 1\nb: 2\n",
    "null: 1\n",
    "a: &v {x: 1}\nb: *v\n",
    "a: !!str 5\n",
    "a: ! x\n",
    "a: !!int abc\n",
    "a:\n  <<: {b: 1}\n",
    "? [a, b]\n: 1\nc: 2\n",
    "? {a: 1}\n: 1\n",
    "a: 1\n---\nb: 2\n",
    "",
    "# only a comment\n",
    "a: [1, 2\n",
    "a: " + "[" * 70 + "]" * 70 + "\n",
    "a: " + "[" * 62 + "]" * 62 + "\n",
    "a: 1\nb: caf\xe9\n",
]


def same(one: Any, other: Any) -> bool:
    """Equal values of the same types, in the same key order (NaN equals NaN)."""
    if type(one) is not type(other):
        return False
    if isinstance(one, dict):
        return list(one) == list(other) and all(same(one[k], other[k]) for k in one)
    if isinstance(one, list):
        return len(one) == len(other) and all(same(a, b) for a, b in zip(one, other, strict=True))
    if isinstance(one, float) and math.isnan(one):
        return math.isnan(other)
    return bool(one == other)


@pytest.mark.parametrize("text", TEXTS)
def test_lines_later_gives_the_same_values_and_problems(text: str, tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    raw = text.encode("utf-8")
    path.write_bytes(raw)
    now, later = parse_bytes(raw, path), parse_bytes(raw, path, lines=False)
    assert same(now.data, later.data)
    assert (now.problems, now.nonfinite, now.schema, now.sha256) == (
        later.problems,
        later.nonfinite,
        later.schema,
        later.sha256,
    )
    assert dict(now.lines) == dict(later.lines)  # read from the file when asked for


def test_a_file_with_a_problem_gets_its_lines_at_once(tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    loaded = parse_bytes(b"a: 1\nb:\n  c: 2\n  c: 3\n", path, lines=False)
    assert not isinstance(loaded.lines, LazyLines)
    assert loaded.lines["b.c"] == 3 and loaded.problems[0].line == 4
    clean = parse_bytes(b"a: 1\nb:\n  c: 2\n", path, lines=False)
    assert isinstance(clean.lines, LazyLines)
