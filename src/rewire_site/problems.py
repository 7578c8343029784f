"""One problem found in the records: file, line, field path, message, severity."""

from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

Severity = Literal["error", "warning"]

MAX_MESSAGE = 1000
"""Longest message kept: one that quotes a huge value is cut (a 1 MB line stays off the
terminal)."""


_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
"""Characters a terminal acts on instead of showing: C0 and C1 controls (ESC starts the
sequences that set a window title or clear the screen), DEL, line and paragraph
separators, and the marks and overrides that reorder text (bidirectional)."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with every control character written as an escape (`\\x1b`): anything that
    quotes input (a file name, a field name, a value) goes through this before it
    reaches a terminal or a log."""
    return _CONTROL.sub(_escape, text) if _CONTROL.search(text) else text


def shown(value: object, limit: int = 60) -> str:
    """`repr(value)`, cut to `limit` characters with '...' (for values in messages)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True, order=True)
class Problem:
    path: Path
    line: int
    field: str
    message: str
    severity: Severity = "error"

    def __post_init__(self) -> None:
        if len(self.message) > MAX_MESSAGE:
            cut = self.message[: MAX_MESSAGE - 20] + " ... (message cut)"
            object.__setattr__(self, "message", cut)

    def __str__(self) -> str:
        """`path:line: field: message`, control characters escaped (`printable`)."""
        field = self.field or "(record)"
        prefix = "" if self.severity == "error" else "warning: "
        return printable(f"{self.path}:{self.line}: {field}: {prefix}{self.message}")

    def as_json(self) -> dict[str, object]:
        data = asdict(self)
        data["path"] = str(self.path)
        return data


class RecordsInvalid(Exception):
    """Raised by a stage that cannot go on because the records have errors."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        errors = [p for p in problems if p.severity == "error"]
        super().__init__(f"{len(errors)} error(s) in the records")


def display_path(path: Path, cwd: Path | None = None) -> str:
    """`path` relative to the working directory when it lies under it. The last part
    of `path` is never followed: a link is shown where it is, not where it leads (and
    a loop of links is shown, not raised)."""
    here = cwd or Path.cwd()
    written = Path(os.path.abspath(path))  # noqa: PTH100
    try:
        real = (written.parent.resolve() / written.name, here.resolve())
    except (OSError, RuntimeError):  # a loop of links above the file
        real = (written, here)
    for candidate, base in ((written, Path(os.path.abspath(here))), real):  # noqa: PTH100
        try:
            return str(candidate.relative_to(base))
        except ValueError:
            continue
    return str(path)
