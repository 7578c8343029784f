"""Load one record file: safe YAML, UTF-8, one document, and the line of every field.

The loader reads libyaml's event stream (PyYAML's C parser) and builds plain values
(dict, list, str, int, float, bool, None) and the map field path -> line in one pass.
It accepts only the YAML types a record needs and reports, rather than raises, every
problem it finds, with its line:

- bytes that are not UTF-8; syntax errors; an empty file; more than one document;
- any tag outside str/int/float/bool/null/timestamp/seq/map (so no Python object tags);
- duplicate keys (at the second key), keys that are not scalars, merge keys (`<<`);
- aliases whose expansion would exceed `MAX_NODES` nodes ("billion laughs") or
  `MAX_EXPANDED_CHARS` characters of scalars (a long string referenced many times),
  aliases used before their anchor is complete (recursive), nesting deeper than
  `MAX_DEPTH`;
- a document that holds no record: only `~`, `null`, `---` or nothing.

Timestamps stay the strings they were written as; Pydantic parses dates and datetimes
from them (so `2026-02-30` is reported by validation at its field, and a date-like
value in a text field stays text, as an editor's YAML extension sees it). Other plain
scalars resolve as PyYAML's safe loader resolves them (YAML 1.1: `yes` is true).

Field paths are dotted with list indices (`results.0.unit`); a mapping entry's line is
the line of its key, a list item's the line where the item starts, and `""` (the whole
record) the line where the top-level mapping starts.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
import yaml_rs
from yaml import events
from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from .problems import Problem, shown

MAX_NODES = 100_000
"""Most nodes one file may expand to, aliases included."""
MAX_DEPTH = 64
"""Deepest nesting of mappings and lists."""
MAX_FILE_BYTES = 4 * 1024 * 1024
"""Largest record file read (the largest record is about 11 kB): a bigger file is an
error that says where bulk data goes, and is not parsed."""
MAX_EXPANDED_CHARS = MAX_FILE_BYTES
"""Most characters of keys and scalar values one file may expand to, aliases included.
A file without aliases never exceeds it (a scalar has no more characters than the bytes
that write it, and the file has at most `MAX_FILE_BYTES`); a 2 MB string referenced
90,000 times (2.3 MB on disk, 180 GB expanded) is stopped at its second alias."""

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_TAG = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, TIMESTAMP, MAP, SEQ, MERGE = (
    _TAG + name
    for name in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq", "merge")
)
_SCALAR_TAGS = frozenset({STR, INT, FLOAT, BOOL, NULL, TIMESTAMP})
_IMPLICIT: dict[Any, list[tuple[str, Any]]] = Resolver.yaml_implicit_resolvers
assert None not in _IMPLICIT, "PyYAML resolvers keyed by None are not handled"
_CONSTRUCTOR = SafeConstructor()
_SCALAR = events.ScalarEvent
_MAPPING_START, _MAPPING_END = events.MappingStartEvent, events.MappingEndEvent
_SEQUENCE_START, _SEQUENCE_END = events.SequenceStartEvent, events.SequenceEndEvent


class LazyLines(Mapping[str, int]):
    """The line map of a file, parsed again on first use (the parse cache keeps no lines:
    they are needed only where there is a problem to report). Empty if the file changed."""

    def __init__(self, path: Path, sha256: str) -> None:
        self.path, self.sha256 = path, sha256
        self._lines: Mapping[str, int] | None = None

    def _load(self) -> Mapping[str, int]:
        if self._lines is None:
            loaded = load_file(self.path)
            self._lines = loaded.lines if loaded.sha256 == self.sha256 else {}
        return self._lines

    def __getitem__(self, key: str) -> int:
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


@dataclass
class LoadedFile:
    """One parsed file. `data` is None when the file could not be parsed at all."""

    path: Path
    data: Any
    lines: Mapping[str, int]
    problems: list[Problem] = field(default_factory=list)
    nonfinite: list[str] = field(default_factory=list)
    """Field paths whose value is a NaN or infinite number."""
    sha256: str = ""
    """SHA-256 of the file's bytes."""
    schema: str | None = None
    """The `$schema=` of a first-line `# yaml-language-server:` modeline, if any."""

    def line(self, field_path: str) -> int:
        return line_of(self.lines, field_path)


def line_of(lines: Mapping[str, int], field_path: str) -> int:
    """Line of `field_path`, else of its nearest parent that has one, else 1."""
    path = field_path
    while True:
        line = lines.get(path)
        if line is not None:
            return line
        if not path:
            return 1
        cut = path.rfind(".")
        path = path[:cut] if cut > 0 else ""


def join(prefix: str, key: object) -> str:
    """Child path of `prefix`: `join("results", 0) == "results.0"`."""
    return f"{prefix}.{key}" if prefix else str(key)


class _Stop(Exception):
    """A problem after which the rest of the file cannot be read."""

    def __init__(self, line: int, field: str, message: str) -> None:
        super().__init__(message)
        self.line, self.field, self.message = line, field, message


def _line(event: Any) -> int:
    return int(event.start_mark.line) + 1


class _Builder:
    """Recursive descent over libyaml events: values and line map in one pass."""

    def __init__(self, text: str, path: Path) -> None:
        self.path = path
        self.parser = _Loader(text)
        self.next_event = self.parser.get_event
        self.lines: dict[str, int] = {}
        self.problems: list[Problem] = []
        self.nonfinite: list[str] = []
        self.anchors: dict[str, tuple[Any, int, int]] = {}
        """Anchor -> (value, size in nodes, characters of its scalars)."""
        self.nodes = 0
        self.chars = 0
        """Characters of every key and scalar read so far, aliases expanded."""

    def problem(self, line: int, field_path: str, message: str) -> None:
        self.problems.append(Problem(self.path, line, field_path, message))

    def document(self) -> Any:
        try:
            event = self.next_event()  # StreamStart
            start = event = self.next_event()
            if isinstance(event, events.StreamEndEvent):
                self.problem(1, "", "the file is empty: a record is one YAML mapping")
                return None
            root = self.next_event()
            self.lines[""] = _line(root)
            data, _ = self.node(root, "", 0)
            if data is None:
                self.problem(
                    _line(start),
                    "",
                    "the file holds no record (only a null value): a record is one YAML "
                    "mapping of fields",
                )
            self.next_event()  # DocumentEnd
            event = self.next_event()
            if not isinstance(event, events.StreamEndEvent):
                raise _Stop(
                    _line(event),
                    "",
                    "more than one YAML document in the file; a record file holds exactly one",
                )
            return data
        finally:
            self.parser.dispose()

    def node(self, event: Any, path: str, depth: int) -> tuple[Any, int]:
        """Value and expanded size (in nodes) of the node that starts with `event`."""
        cls = event.__class__
        chars = self.chars
        if cls is _SCALAR:
            value = self.scalar(event, path)
            size = 1
        elif cls is _MAPPING_START:
            value, size = self.mapping(event, path, depth + 1)
        elif cls is _SEQUENCE_START:
            value, size = self.sequence(event, path, depth + 1)
        elif cls is events.AliasEvent:
            anchored = self.anchors.get(str(event.anchor))
            if anchored is None:
                raise _Stop(
                    _line(event),
                    path,
                    f"alias *{event.anchor} has no complete anchor before it "
                    "(undefined or recursive); quote a text value that starts with '*'",
                )
            value, size, anchored_chars = anchored
            self.nodes += size
            self.chars += anchored_chars
            if self.nodes > MAX_NODES:
                raise _Stop(
                    _line(event),
                    path,
                    f"aliases expand the file to more than {MAX_NODES} nodes; "
                    "write the values out instead",
                )
            if self.chars > MAX_EXPANDED_CHARS:
                raise _Stop(
                    _line(event),
                    path,
                    f"aliases expand the file to more than {MAX_EXPANDED_CHARS:,} characters "
                    "of text; write the values out instead",
                )
            return value, size
        else:  # pragma: no cover - libyaml yields no other event here
            raise _Stop(_line(event), path, f"unexpected YAML event {type(event).__name__}")
        anchor = event.anchor
        if anchor is not None:
            self.anchors[anchor] = (value, size, self.chars - chars)
        return value, size

    def count(self, event: Any, path: str, depth: int) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Stop(_line(event), path, f"the file has more than {MAX_NODES} nodes")
        if depth > MAX_DEPTH:
            raise _Stop(_line(event), path, f"nesting deeper than {MAX_DEPTH} levels")

    def check_tag(self, event: Any, path: str, allowed: str) -> None:
        tag = event.tag
        if tag is not None and tag != "!" and tag != allowed:
            raise _Stop(_line(event), path, f"YAML tag {tag!r} is not allowed in records")

    def mapping(self, start: Any, path: str, depth: int) -> tuple[dict[Any, Any], int]:
        self.count(start, path, depth)
        self.check_tag(start, path, MAP)
        result: dict[Any, Any] = {}
        size = 1
        lines = self.lines
        next_event = self.next_event
        scalar = self.scalar
        while True:
            key_event = next_event()
            cls = key_event.__class__
            if cls is _MAPPING_END:
                return result, size
            key_line = key_event.start_mark.line + 1
            if cls is _SCALAR:
                if key_event.value == "<<" and key_event.implicit[0] and key_event.tag is None:
                    raise _Stop(key_line, path, "merge keys (<<) are not supported in records")
                key = scalar(key_event, path)
            else:
                self.node(key_event, join(path, "?"), depth)
                self.problem(key_line, path, "a key must be a plain scalar, not a list or mapping")
                key = None
            child = f"{path}.{key}" if path else str(key)
            if key is None or key in result:
                if key is not None:
                    first = lines.get(child)
                    where = f" (first at line {first})" if first else ""
                    self.problem(key_line, child, f"duplicate key {shown(key)}{where}")
                self.node(next_event(), child, depth)
                continue
            lines[child] = key_line
            event = next_event()
            if event.__class__ is _SCALAR and event.anchor is None:
                result[key] = scalar(event, child)
                size += 2
            else:
                value, value_size = self.node(event, child, depth)
                result[key] = value
                size += value_size + 1

    def sequence(self, start: Any, path: str, depth: int) -> tuple[list[Any], int]:
        self.count(start, path, depth)
        self.check_tag(start, path, SEQ)
        result: list[Any] = []
        size = 1
        lines = self.lines
        next_event = self.next_event
        while True:
            event = next_event()
            cls = event.__class__
            if cls is _SEQUENCE_END:
                return result, size
            child = f"{path}.{len(result)}"
            lines[child] = event.start_mark.line + 1
            if cls is _SCALAR and event.anchor is None:
                result.append(self.scalar(event, child))
                size += 1
            else:
                value, value_size = self.node(event, child, depth)
                result.append(value)
                size += value_size

    def scalar(self, event: Any, path: str) -> Any:
        value: str = event.value
        self.chars += len(value)
        tag = event.tag
        if tag is None or tag == "!":
            if not event.implicit[0]:
                return value  # quoted or block scalar: text
            resolvers = _IMPLICIT.get(value[:1])
            if resolvers is None:
                return value
            tag = STR
            for candidate, regexp in resolvers:
                if regexp.match(value):
                    tag = candidate
                    break
            if tag == STR:
                return value
        if tag in (STR, TIMESTAMP):
            return value
        if tag not in _SCALAR_TAGS:
            raise _Stop(_line(event), path, f"YAML tag {tag!r} is not allowed in records")
        if tag == NULL:
            return None
        try:
            if tag == BOOL:
                return _CONSTRUCTOR.construct_yaml_bool(ScalarNode(tag, value))
            if tag == INT:
                return _CONSTRUCTOR.construct_yaml_int(ScalarNode(tag, value))
            number = _CONSTRUCTOR.construct_yaml_float(ScalarNode(tag, value))
        except (ValueError, KeyError) as error:
            raise _Stop(
                _line(event), path, f"{shown(value)} is not a valid {tag[len(_TAG) :]}"
            ) from error
        if not math.isfinite(number):
            self.nonfinite.append(path)
        return number


def _decode(raw: bytes, path: Path) -> tuple[str | None, Problem | None]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        return None, Problem(
            path, line, "", f"not UTF-8: byte 0x{raw[error.start]:02x} cannot be decoded"
        )
    return text.removeprefix("\ufeff"), None


_KEY = re.compile(r"^\s*(?:- +)?([^\s:#][^:#]*?)\s*:(?:\s|$)")
"""The key a line starts with (`  - name: x` -> `name`)."""


def _example(value: str) -> str:
    """`value` as a double-quoted YAML scalar, shortened for a message."""
    shown = value if len(value) <= 60 else value[:57] + "..."
    return json.dumps(shown, ensure_ascii=False)


def _mark_line(mark: Any) -> int | None:
    return None if mark is None else int(mark.line) + 1


def _key_on(line_text: str) -> str | None:
    match = _KEY.match(line_text)
    return match[1].strip() if match else None


def _syntax_hint(error: yaml.YAMLError, lines: list[str]) -> tuple[int | None, str | None]:
    """(line, what went wrong and what to do) for the syntax errors editors make, or
    (None, None) to keep libyaml's own words."""
    problem = str(getattr(error, "problem", "") or "")
    context = str(getattr(error, "context", "") or "")
    problem_line = _mark_line(getattr(error, "problem_mark", None))
    context_line = _mark_line(getattr(error, "context_mark", None))
    mark = getattr(error, "problem_mark", None)

    def text_of(line: int | None) -> str:
        return lines[line - 1] if line is not None and 0 < line <= len(lines) else ""

    here = text_of(problem_line)
    if "\t" in here[: len(here) - len(here.lstrip())] or "tab" in problem:
        return problem_line, "a tab in the indentation: indent with spaces, not tabs"
    if problem.startswith("mapping values are not allowed"):
        column = int(mark.column) if mark is not None else len(here)
        key, first_colon = _key_on(here), here.find(":")
        if key is not None and first_colon < column:
            value = here[first_colon + 1 :].strip()
            return problem_line, (
                f"the value of '{key}' holds ': ', which YAML reads as a new field: quote a "
                f"value that holds a colon, e.g. {key}: {_example(value)}"
            )
        return problem_line, (
            "this line is indented deeper than the field above it, which already has a "
            "value: fields of one mapping start in the same column (spaces only)"
        )
    if "maximum nesting depth" in problem:
        return problem_line, f"nesting deeper than {MAX_DEPTH} levels"
    if problem.startswith("could not find expected ':'"):
        where = context_line or problem_line
        if len(text_of(where)) > 1024 and ":" in text_of(where):
            return where, (
                "a field name longer than 1024 characters, which YAML does not read as a "
                "key: field names are short words such as 'title'"
            )
        return where, (
            "a line that is not 'field: value': put ': ' after the field name, or indent a "
            "continued value deeper than its field (or quote it)"
        )
    if "did not find expected key" in problem or "did not find expected '-'" in problem:
        return problem_line, (
            "this line does not line up with the lines above: start the fields of one "
            "mapping in the same column (spaces only), and quote a value whole when it "
            "starts with a quote mark"
        )
    if "scanning a quoted scalar" in context:
        start = getattr(error, "context_mark", None)
        opened = text_of(context_line)[int(start.column) :] if start is not None else ""
        quote = opened[:1] if opened[:1] in ("'", '"') else '"'
        return context_line or problem_line, (
            f"a value opened with {quote} is never closed: end it with {quote} on the same "
            "line, or write a long value as a block scalar ('>' then indented lines)"
        )
    if "flow sequence" in context or "flow mapping" in context:
        opener, closer = ("[", "]") if "sequence" in context else ("{", "}")
        return context_line or problem_line, (
            f"a value that starts with '{opener}' is read as an inline "
            f"{'list' if opener == '[' else 'mapping'} that is never closed with '{closer}': "
            "close it, or quote the value if it is text"
        )
    if "cannot start any token" in problem and mark is not None:
        char = here[int(mark.column) : int(mark.column) + 1]
        key, first_colon = _key_on(here), here.find(":")
        example = f", e.g. {key}: {_example(here[first_colon + 1 :].strip())}" if key else ""
        return problem_line, f"a value cannot start with '{char}' in YAML: quote it{example}"
    if "scanning an anchor" in context or "scanning an alias" in context:
        return problem_line, "a value cannot start with '&' or '*' in YAML: quote it"
    return None, None


def _yaml_problem(error: yaml.YAMLError, text: str, path: Path) -> Problem:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    if mark is not None:
        line = int(mark.line) + 1
    elif isinstance(position := getattr(error, "position", None), int):
        line = text[:position].count("\n") + 1
    else:
        line = 1
    lines = text.splitlines()
    hint_line, hint = _syntax_hint(error, lines)
    if hint is not None:
        return Problem(path, hint_line or line, "", f"YAML syntax error: {hint}")
    parts = [
        str(part)
        for part in (getattr(error, "context", None), getattr(error, "problem", None))
        if part
    ]
    message = ", ".join(parts) if parts else str(error).splitlines()[0]
    if 0 < line <= len(lines) and "\t" in lines[line - 1]:
        message += " (a tab on this line: YAML is indented with spaces only)"
    return Problem(path, line, "", f"YAML syntax error: {message}")


class _Slow(Exception):
    """The file needs the full builder: a problem to report with its line, or YAML
    (anchors, aliases, tags, complex or merge keys) that the native path does not read."""


# ---------------------------------------------------------------- native fast path
#
# The one optimisation beside `_Builder` (issue 26 kept it because it pays): yaml_rs
# (Rust) builds the values of a file without a line map, the lines read again only where
# a check reports a problem (`LazyLines`). benchmarks/bench_validate.py, 10,000
# evaluations (12,960 files), cold, two processes, 2 cores shared with other work (CPU
# seconds of the run, each beside the loader of the time in the same run): 8.15 s with
# it (9.07 s), 16.70 s with `_Builder` alone (8.08 s). A flat libyaml event loop without
# lines that stood between the two paths made no measurable difference beside yaml_rs
# and only 10% without it (15.09 s against 16.70 s; 9.36 s), so it was removed.
#
# yaml_rs reads YAML 1.2 with some 1.1 forms, keeps no lines, reads tags, anchors and
# aliases its own way, and does not say which scalars were plain. It is used only for
# files where its values provably equal `_Builder`'s: the screens below (regular
# expressions over the text, before yaml_rs sees it) send every other file to
# `_Builder`. A plain scalar can start only at the start of a
# line (after its indentation and any `- `) or after `: ` in block context; flow
# collections, which have other places, are screened out. At those places the screens
# look for:
#
# - a plain scalar that may resolve differently: the YAML 1.1 words (`yes`, `No`, `off`,
#   ...), `=`, `<<`, sexagesimal numbers, and any number yaml_rs reads except plain
#   decimal integers and decimal fractions (`-12`, `0.25`): leading zeros, `+`, `_`,
#   exponents, `0x`/`0o`/`0b`, `.inf`, `.nan` (so no non-finite value either);
# - tags, anchors, aliases, directives (`!`, `&`, `*`, `%`), complex keys (`?`), flow
#   collections other than `[]` and `{}`, a key that is empty or null, document markers
#   (`---`, `...`: so one document), a line indented 40 or more columns (so nesting far
#   below `MAX_DEPTH`);
# - characters that YAML 1.1 and 1.2 read differently (NEL, LS, PS as line breaks, a
#   BOM inside the text), tabs, carriage returns and control characters;
# - a last line without its line break (yaml_rs adds one to a block scalar there).
#
# Every screen errs on the side of the slow path (a quoted `"yes"` at a value's start
# sends its file there too). Duplicate keys and syntax errors make yaml_rs raise; a
# file bigger than `_NATIVE_MAX_CHARS` (so possibly over `MAX_NODES`) is not tried.
# tests/test_load_native.py compares both paths over every record, the synthetic
# catalogue, the bad-records corpus and mutated records.

_NATIVE_MAX_CHARS = 100_000
"""Largest text the native path reads (a node takes at least two characters)."""
_NUMBER = (
    r"[-+]?(?:[0-9_]*+\.?[0-9_]*+(?:[eE][-+]?[0-9_]+)?"
    r"|0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|\.(?:[iI][nN][fF]|[nN][aA][nN]))"
)
"""Every plain scalar yaml_rs reads as a number (and more)."""
_SAFE_NUMBER = r"-?(?:0|[1-9][0-9]*|[0-9]{1,300}\.[0-9]+)"
"""Numbers both read alike: decimal integers and finite decimal fractions."""
_YAML11 = (
    r"(?:[yY]es|YES|[nN]o|NO|[oO]n|ON|[oO]ff|OFF|=|<<"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?)"
)
"""Plain scalars that PyYAML resolves (or refuses) and yaml_rs reads as text."""
_END = r"[ \t]*(?:$|#|:(?:[ \t]|$))"
"""The end of a plain scalar on its line: end of line, a comment, or a key's colon."""
_RISKY = rf"(?=[-+0-9._yYnNoO=<])(?:(?!{_SAFE_NUMBER}{_END}){_NUMBER}|{_YAML11}){_END}"
_SCREEN_VALUE = re.compile(
    rf"(?m):[ \t]++(?=[-+0-9._yYnNoO=<!&*?%\[{{])(?:[!&*?%]|[\[{{](?![\]}}])|{_RISKY})"
)
"""After `: `: a node the native path does not read."""
_SCREEN_LINE = re.compile(
    rf"(?m)\n(?:[ -]{{40}}|[ \t]*+(?:-[ \t]++)*+(?=[-+0-9._yYnNoO=<!&*?%:\[{{~])"
    rf"(?:[!&*?%:]|[\[{{](?![\]}}])|---|\.\.\.|(?:~|null|Null|NULL)[ \t]*:(?:[ \t]|$)|{_RISKY}))"
)
"""At a line's start (after indentation and `- `): the same, and more."""
_SCREEN_CHARS = re.compile(
    r"[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
"""Characters outside the printable set both versions read alike."""
_PLAIN_ASCII = bytes([0x0A, *range(0x20, 0x7F)])
"""Line feed and printable ASCII: deleted from the bytes before `_SCREEN_CHARS` looks at
what is left (a regular expression over every character costs 20 times more)."""


def _printable(text: str) -> bool:
    """True when `text` holds no character that `_SCREEN_CHARS` finds."""
    rest = text.encode("utf-8", "surrogatepass").translate(None, _PLAIN_ASCII)
    return not rest or not _SCREEN_CHARS.search(rest.decode("utf-8", "surrogatepass"))


def _native_values(text: str) -> Any:
    """The values of `text` as `_Builder` reads them, built by yaml_rs; `_Slow` where
    the screens above cannot vouch for that, or yaml_rs refuses the text."""
    if (
        len(text) > _NATIVE_MAX_CHARS
        or not text.endswith("\n")  # yaml_rs ends a last block scalar with a line break
        or not _printable(text)
        or _SCREEN_VALUE.search(text)
        or _SCREEN_LINE.search("\n" + text)
    ):
        raise _Slow
    try:
        values = yaml_rs.loads(text, parse_datetime=False)
    except (ValueError, TypeError, OverflowError):
        raise _Slow from None
    if values is None:
        raise _Slow  # an empty file: `_Builder` says so
    return values


def parse_text(
    text: str, path: Path, *, lines_later: Mapping[str, int] | None = None
) -> LoadedFile:
    """Parse YAML text that was read from `path` (used in messages only).

    With `lines_later` (a `LazyLines`) a file that the native path reads gets it as its
    line map, built only if a problem is reported later; any other file is parsed with
    the line-keeping builder at once, so its problems and lines are the same."""
    if lines_later is not None:
        try:
            values = _native_values(text)
        except _Slow:
            pass  # the builder reads it, with its lines
        else:
            return LoadedFile(path, values, lines_later, schema=modeline_schema(text))
    builder = _Builder(text, path)
    data: Any = None
    try:
        data = builder.document()
    except _Stop as stop:
        builder.problems.append(Problem(path, stop.line, stop.field, stop.message))
        data = None
    except yaml.YAMLError as error:
        builder.problems.append(_yaml_problem(error, text, path))
        data = None
    except RecursionError:
        builder.problems.append(Problem(path, 1, "", "the YAML is nested too deeply"))
        data = None
    loaded = LoadedFile(path, data, builder.lines, builder.problems, builder.nonfinite)
    loaded.schema = modeline_schema(text)
    return loaded


def modeline_schema(text: str) -> str | None:
    """`X` of a first line `# yaml-language-server: $schema=X` (editors' schema link)."""
    first = text[: text.find("\n")] if "\n" in text else text
    if not first.startswith("# yaml-language-server:"):
        return None
    match = re.search(r"\$schema=(\S+)", first)
    return match[1] if match else None


def parse_bytes(raw: bytes, path: Path, *, lines: bool = True) -> LoadedFile:
    """Decode (strict UTF-8) and parse the bytes of a file.

    `lines=False` (many files, few problems): a file that parses without a problem gets
    `LazyLines`, its line map read again from `path` only if a later check reports a
    problem in it; a file with a problem is parsed with its lines at once. Values,
    problems and lines are the same either way."""
    digest = hashlib.sha256(raw).hexdigest()
    if len(raw) > MAX_FILE_BYTES:
        return LoadedFile(path, None, {}, [_too_big(path, len(raw))], sha256=digest)
    text, problem = _decode(raw, path)
    if text is None:
        assert problem is not None
        loaded = LoadedFile(path, None, {}, [problem])
    else:
        loaded = parse_text(text, path, lines_later=None if lines else LazyLines(path, digest))
    loaded.sha256 = digest
    return loaded


def _too_big(path: Path, size: int, limit: int = MAX_FILE_BYTES, what: str = "record") -> Problem:
    if what != "record":
        return Problem(
            path,
            1,
            "",
            f"the file has {size / 1024 / 1024:.1f} MiB; a {what} holds at most "
            f"{limit // 1024 // 1024} MiB: split the table",
        )
    return Problem(
        path,
        1,
        "",
        f"the file has {size / 1024 / 1024:.1f} MiB; a record file holds at most "
        f"{MAX_FILE_BYTES // 1024 // 1024} MiB: put bulk data in a file under artifacts/ "
        "and name it with its SHA-256 in `artifacts`",
    )


def kind_of_file(mode: int) -> str:
    """What a file that is not a regular file is, for messages ("a named pipe")."""
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
"""O_NONBLOCK: opening a named pipe returns at once (and is then refused by its type)."""


def read_bounded(
    path: Path, *, limit: int = MAX_FILE_BYTES, what: str = "record"
) -> bytes | Problem:
    """The bytes of the regular file at `path`, or the problem that stops it being read:
    it cannot be opened, it is not a regular file (a pipe, a device: nothing is read), or
    `fstat` says it is bigger than `limit` (nothing is read). At most `limit + 1` bytes
    are read whatever `fstat` said. `what` names the file in messages ('rows file')."""
    try:
        descriptor = os.open(path, _OPEN_FLAGS)
    except OSError as error:
        return Problem(path, 1, "", f"cannot read: {error.strerror}")
    try:
        mode, size = (info := os.fstat(descriptor)).st_mode, info.st_size
        if not stat.S_ISREG(mode):
            return Problem(path, 1, "", f"{kind_of_file(mode)}: a {what} is a regular file")
        if size > limit:
            return _too_big(path, size, limit, what)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, max(size, 1 << 16)))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        raw = b"".join(chunks)
    except OSError as error:
        return Problem(path, 1, "", f"cannot read: {error.strerror}")
    finally:
        os.close(descriptor)
    if len(raw) > limit:  # it grew after fstat
        return _too_big(path, len(raw), limit, what)
    return raw


def load_file(path: Path) -> LoadedFile:
    """Read and parse one file; a file that cannot be read is a problem, not an exception."""
    raw = read_bounded(path)
    if isinstance(raw, Problem):
        return LoadedFile(path, None, {}, [raw])
    return parse_bytes(raw, path)


__all__ = [
    "MAX_DEPTH",
    "MAX_EXPANDED_CHARS",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "LazyLines",
    "LoadedFile",
    "join",
    "kind_of_file",
    "line_of",
    "load_file",
    "parse_bytes",
    "read_bounded",
]
