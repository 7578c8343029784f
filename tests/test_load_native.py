"""load's native path (yaml_rs behind text screens): where it reads a file, its values
equal the line-keeping builder's and the builder finds no problem; everything else goes
to the other paths."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_load_fast import same

from rewire_site import load
from rewire_site.load import LazyLines, parse_bytes, parse_text
from rewire_site.parse_cache import yaml_files
from rewire_site.synth import generate_catalogue
from rewire_site.validate import render, validate_paths

REPO = Path(__file__).resolve().parents[1]

PLACES = (
    "k: {}\n",
    "- {}\n",
    "{}: v\n",
    "a:\n  - {}  # note\n  - x\n",
    "a:\n  b:\n    {}\n",
    "{}\n",
)
"""Where a plain scalar can stand in a block-style file: `{}` is the scalar."""


def builder_agrees(text: str) -> bool:
    """Whether the native path either refuses `text` or reads it as the builder does
    (same values and types, in the same key order, and no problem)."""
    try:
        values = load._native_values(text)
    except load._Slow:
        return True
    full = parse_text(text, Path("case.yaml"))
    return not full.problems and not full.nonfinite and same(values, full.data)


def test_every_short_number_like_scalar_reads_as_pyyaml_reads_it() -> None:
    """All scalars of up to three characters from the characters YAML 1.1 and 1.2 read
    numbers from, in every place: 1.2's octal, exponent and sign forms, 1.1's
    underscores, sexagesimal and leading zeros, and everything between."""
    tokens = [
        "".join(chars) for n in (1, 2, 3) for chars in itertools.product("01.eE+-_x:", repeat=n)
    ]
    disagree = [
        place.format(token)
        for token in tokens
        for place in PLACES
        if not builder_agrees(place.format(token))
    ]
    assert disagree == []


SPELLINGS = """
yes Yes YES no No NO on On ON off Off OFF y Y n N true True TRUE false False FALSE
null Null NULL ~ = << .inf -.inf +.inf .Inf .INF .nan .NaN .NAN inf nan NaN
0 -0 +0 7 -7 +7 012 0777 08 09 0o17 0O17 0x1F 0X1F 0x_ 0b101 0B101 0b_ 1_000 _5 5_
0_10 1.5 -1.5 +1.5 .5 -.5 +.5 1. 1.e+3 1.0e3 1.0e+3 1.0E-3 12e-3 1e3 1E3 1e400
1:30 -1:30 1:30.5 190:20:30 2026-01-02 2026-01-02T10:00:00Z 3.11.9 1.5.5 007.5 -00.5
'yes' "012" '1e3' "" '' 'a''b' "\\x41\\u00e9\\/" x:y a#b
"""
WORDS = [
    *SPELLINGS.split(),
    *("9" * 400 + ".0", "0." + "0" * 400 + "1", "1" * 40, "-" + "1" * 40),
]


@pytest.mark.parametrize("word", WORDS)
def test_words_and_numbers_read_as_pyyaml_reads_them(word: str) -> None:
    for place in PLACES:
        assert builder_agrees(place.format(word)), place.format(word)


REFUSED = [
    "a: yes\n",
    "a: 012\n",
    "a: 1e3\n",
    "a: 1.0e+3\n",
    "a: .inf\n",
    "- on\n",
    "off: 1\n",
    "a: 1:30\n",
    "a: !!str 5\n",
    "a: !custom x\n",
    "a: &x 1\nb: *x\n",
    "&x a: 1\n",
    "a: [1, 2]\n",
    "a: {b: 1}\n",
    "? a\n: 1\n",
    "~: 1\n",
    "null: 1\n",
    ": 1\n",
    "---\na: 1\n",
    "a: 1\n...\n",
    "%YAML 1.1\n---\na: 1\n",
    "a:\n\tb: 1\n",
    "a: 1\r\nb: 2\r\n",
    "a: x\x85y\n",
    "a: x\u2028y\n",
    "a: x\ufeffy\n",
    "a: \x07\n",
    "a:\n" + " " * 40 + "b: 1\n",
    "a: 1\nb: 2\na: 3\n",
    "a: 1\n1.0: 2\n1: 3\n",
    "",
    "# only a comment\n",
    "a: 'open\n",
    "a: b: c\n",
    "".join(f"k{n}: v\n" for n in range(20_000)),
]


@pytest.mark.parametrize("text", REFUSED)
def test_what_the_native_path_leaves_to_the_others(text: str) -> None:
    with pytest.raises(load._Slow):
        load._native_values(text)
    assert builder_agrees(text)


@pytest.mark.parametrize("header", ["|", "|-", "|+", ">", ">-", ">+", "|2", ">1-", "|+2"])
def test_block_scalars_end_as_pyyaml_ends_them(header: str) -> None:
    """Chomping at the end of a file and before the next field, with and without the
    last line break (yaml_rs adds one where the file has none: such files are refused)."""
    bodies = ["  a", "  a\n  b", "  a\n\n  b", "  a\n   b\n  c", "  a\n    b\n", "  a\n  \n"]
    tails = ["", "\n", "\n\n", "\n  \n", " ", "\n \n  \n", "\n# c\n", "\nz: 1\n", "\n\nz: 1\n"]
    for body, tail in itertools.product(bodies, tails):
        assert builder_agrees(f"k: {header}\n{body}{tail}"), (body, tail)


def corpus(tmp_path: Path) -> list[Path]:
    generate_catalogue(tmp_path, 40, seed=5)
    bad = sorted((REPO / "tests" / "bad_records").rglob("*.yaml"))
    return [*yaml_files(REPO / "records"), *bad, *yaml_files(tmp_path / "records")]


def texts(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        try:
            found.append(path.read_bytes().decode("utf-8").removeprefix("\ufeff"))
        except UnicodeDecodeError:
            continue
    return found


def test_every_record_and_bad_record_reads_the_same_natively(tmp_path: Path) -> None:
    """The records, the bad-records corpus and a synthetic catalogue (where the native
    path must read nearly every file: that is its point)."""
    native = 0
    for text in texts(corpus(tmp_path)):
        try:
            load._native_values(text)
        except load._Slow:
            continue
        native += 1
        assert builder_agrees(text)
    synthetic = texts(yaml_files(tmp_path / "records"))
    read = 0
    for text in synthetic:
        try:
            load._native_values(text)
            read += 1
        except load._Slow:
            pass
    assert read >= 0.95 * len(synthetic)
    assert native > 1000


CHARS = list(":-?#'\"[]{},&*!|>%@` \n\t.0123456789eE+_~=<yn\\")
PIECES = [
    *("- ", ": ", "  ", "? ", "--- ", "...", "#", "{a: 1}", "[1, 2]", "\n- x", "\n  ", " # "),
    *(": |\n  ", ": >-\n  ", "\\n", "\\x41", "\\/", "&a ", "*a", "!!str ", "<<: ", "yes"),
    *("012", "1e3", "\n---\n", "key: value\n", "  key: value\n", "\n\n", "'", '"'),
]


def mutated(text: str, rng: random.Random) -> str:
    """`text` with one to three edits an editor's slip could make: a character or a
    YAML piece inserted, a character deleted, the text cut short, a line indented,
    outdented, repeated or swapped."""
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(text) + 1)
        edit = rng.random()
        if edit < 0.05:
            text = text[:at]  # cut short: the last line may lose its line break
        elif edit < 0.3:
            text = text[:at] + rng.choice(CHARS) + text[at:]
        elif edit < 0.5:
            text = text[:at] + text[at + 1 :]
        elif edit < 0.75:
            text = text[:at] + rng.choice(PIECES) + text[at:]
        else:
            lines = text.split("\n")
            one, other = rng.randrange(len(lines)), rng.randrange(len(lines))
            kind = rng.random()
            if kind < 0.3:
                lines[one] = " " + lines[one]
            elif kind < 0.6:
                lines[one] = lines[one][1:]
            elif kind < 0.8:
                lines.insert(one, lines[other])
            else:
                lines[one], lines[other] = lines[other], lines[one]
            text = "\n".join(lines)
    return text


def test_mutated_records_read_the_same_natively(tmp_path: Path) -> None:
    """Edited records (a fixed seed; 720,000 more were compared when the path was
    written): wherever the native path reads one, the builder agrees."""
    rng = random.Random(13)
    originals = texts(corpus(tmp_path))
    read = 0
    for _ in range(4000):
        text = mutated(rng.choice(originals), rng)
        try:
            load._native_values(text)
        except load._Slow:
            continue
        read += 1
        assert builder_agrees(text), text
    assert read > 1000


def test_a_file_read_natively_gets_its_lines_later(tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    raw = b"a: 1\nb:\n  c: 2.5\n  d:\n    - x\n"  # block style: flow lists are screened out
    path.write_bytes(raw)
    loaded = parse_bytes(raw, path, lines=False)
    assert isinstance(loaded.lines, LazyLines)
    assert loaded.data == {"a": 1, "b": {"c": 2.5, "d": ["x"]}}
    assert loaded.lines["b.c"] == 3


def test_validation_reads_the_same_without_the_native_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A synthetic catalogue with edited records (slips, YAML 1.1 words and numbers,
    tabs, anchors, dangling references): `rewire validate`'s report, as text and JSON,
    is the same with the native path and without it."""
    generate_catalogue(tmp_path, 60, seed=11)
    rng = random.Random(7)
    files = yaml_files(tmp_path / "records")
    edits: list[Callable[[str], str]] = [
        lambda text: text.replace("\ntitle: ", "\ntitle: yes #", 1),
        lambda text: text.replace("\n  ", "\n\t", 1),
        lambda text: text.replace("\nprotocol: ", "\nprotocol: gone-", 1),
        lambda text: text + "id: again\n",
        lambda text: text.rstrip("\n"),
        lambda text: mutated(text, rng),
        lambda text: mutated(text, rng),
    ]
    for n, path in enumerate(rng.sample(files, 60)):
        path.write_text(edits[n % len(edits)](path.read_text(encoding="utf-8")), encoding="utf-8")
    native = validate_paths([tmp_path / "records"], tmp_path, cache=False, jobs=1)
    monkeypatch.setattr(load, "_native_values", _refuse)
    libyaml = validate_paths([tmp_path / "records"], tmp_path, cache=False, jobs=1)
    assert native.errors
    for output in ("text", "json"):
        assert render(native, output, tmp_path) == render(libyaml, output, tmp_path)


def _refuse(text: str) -> Any:
    raise load._Slow
