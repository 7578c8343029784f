"""Cells of a result table, each with the locator a citation needs (path, row, column).

Two formats: CSV files (the header is row 1, as a spreadsheet numbers it; the first data
row is row 2) and Markdown pipe tables inside a README (rows are the file's line numbers).
The verbatim text of every cell is kept: it becomes the citation's quote and the printed
value, and the parsed number must reproduce it.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from .core import ImportProblem, SourceFile


@dataclass(frozen=True)
class Cell:
    """One cell: where it is and its verbatim text."""

    path: str
    line: int
    """CSV: the row number counting the header as 1. Markdown: the file's line number."""
    column: str
    """The column heading as printed."""
    row_key: str
    """The row's first cell (the dataset or model it is about)."""
    text: str

    @property
    def locator(self) -> str:
        return f"{self.path}, row {self.line} ({self.row_key}), column {self.column}"

    def number(self) -> float:
        try:
            value = float(self.text)
        except ValueError:
            raise ImportProblem(f"{self.locator}: {self.text!r} is not a number") from None
        return value


@dataclass(frozen=True)
class Table:
    path: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    """Every data row; cells in header order, the first cell the row key."""

    def column(self, heading: str) -> list[Cell]:
        if heading not in self.header:
            raise ImportProblem(f"{self.path}: no column {heading!r} (has {list(self.header)})")
        index = self.header.index(heading)
        return [row[index] for row in self.rows]


def read_csv(file: SourceFile) -> Table:
    """A CSV table: header row 1, one Cell per data cell."""
    reader = csv.reader(io.StringIO(file.text(), newline=""))
    rows = list(reader)
    if not rows:
        raise ImportProblem(f"{file.path}: empty table")
    header = tuple(rows[0])
    out: list[tuple[Cell, ...]] = []
    for number, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != len(header):
            raise ImportProblem(
                f"{file.path}, row {number}: {len(row)} cells, the header has {len(header)}"
            )
        key = row[0]
        out.append(
            tuple(
                Cell(file.path, number, name, key, text)
                for name, text in zip(header, row, strict=True)
            )
        )
    return Table(file.path, header, tuple(out))


def read_markdown_table(file: SourceFile, heading: str) -> Table:
    """The first pipe table after the Markdown heading line `heading` (e.g.
    '### PyTorch CNN'); rows are numbered by their line in the file."""
    lines = file.lines()
    try:
        start = next(i for i, text in enumerate(lines) if text.strip() == heading)
    except StopIteration:
        raise ImportProblem(f"{file.path}: no heading {heading!r} at {file.commit}") from None
    table: list[tuple[int, list[str]]] = []
    for number in range(start + 1, len(lines)):
        text = lines[number].strip()
        if text.startswith("|"):
            table.append((number + 1, [c.strip() for c in text.strip("|").split("|")]))
        elif table:
            break
    if len(table) < 3:
        raise ImportProblem(f"{file.path}: no table under {heading!r}")
    header = tuple(table[0][1])
    out: list[tuple[Cell, ...]] = []
    for number, cells in table[2:]:  # skip the |:---|---:| rule
        if len(cells) != len(header):
            raise ImportProblem(f"{file.path}, line {number}: cells do not match the header")
        key = cells[0]
        out.append(
            tuple(
                Cell(file.path, number, name, key, text)
                for name, text in zip(header, cells, strict=True)
            )
        )
    return Table(file.path, header, tuple(out))
