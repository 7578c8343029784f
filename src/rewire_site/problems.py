"""One problem found in the records: file, line, field path, message, severity."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Problem:
    path: Path
    line: int
    field: str
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        field = self.field or "(record)"
        prefix = "" if self.severity == "error" else "warning: "
        return f"{self.path}:{self.line}: {field}: {prefix}{self.message}"

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
