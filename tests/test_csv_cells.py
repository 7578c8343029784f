"""CSV downloads and formula injection: a text cell that begins with = + - @, a tab or a
carriage return is written with a leading apostrophe (OWASP), numbers stay numbers."""

from __future__ import annotations

import csv
import gzip
import io

import pytest
from scenarios import load_scenario

from rewire_site.link import Catalogue
from rewire_site.models import Configuration, Evaluation, RecordBase, Source
from rewire_site.render.downloads import FORMULA_STARTS, csv_bytes, csv_cell, download_files

FORMULAS = [
    "=cmd|' /C calc'!A0",
    '=HYPERLINK("https://evil.example","Click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "\uff1d1+1",
]


@pytest.mark.parametrize("text", FORMULAS)
def test_a_formula_text_cell_gets_a_leading_apostrophe(text: str) -> None:
    assert csv_cell(text) == "'" + text.replace("\r", "\n")


def test_a_carriage_return_never_ends_a_row() -> None:
    data = csv_bytes(("a", "b"), [("x\r=1+1", "y\r\nz")])
    assert data == b'a,b\n"x\n=1+1","y\nz"\n'
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    assert rows == [["a", "b"], ["x\n=1+1", "y\nz"]]


@pytest.mark.parametrize("text", ["-0.5", "+3", "-1e-3", "12", "ok", "a=b", "'=quoted"])
def test_a_number_or_plain_text_is_kept(text: str) -> None:
    assert csv_cell(text) == text


def test_numbers_stay_numbers_and_text_is_neutralised() -> None:
    data = csv_bytes(("a", "b", "c", "d"), [("=1+1", -0.5, -3, "-0.5")])
    assert data == b"a,b,c,d\n'=1+1,-0.5,-3,-0.5\n"


def _cells(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(gzip.decompress(data).decode("utf-8"), newline="")))


def hostile_catalogue() -> Catalogue:
    """The minimal fixture with a formula in every kind of record text the CSV
    downloads hold, and a negative result value (-0.5) printed as '-0.5'."""
    changed: list[RecordBase] = []
    for record in load_scenario("minimal").by_id.values():
        if isinstance(record, Evaluation) and record.id == "fx-eval":
            result = record.results[0].model_copy(
                update={"value": -0.5, "printed_value": "-0.5", "unit": "@unit"}
            )
            record = record.model_copy(update={"title": FORMULAS[0], "results": [result]})
        elif isinstance(record, Source):
            record = record.model_copy(
                update={
                    "title": FORMULAS[1],
                    "short_citation": FORMULAS[2],
                    "venue": FORMULAS[5],
                    "authors": [FORMULAS[3], "Plain Author"],
                    "version": FORMULAS[6],
                    "hash_scope": FORMULAS[7],
                }
            )
        elif isinstance(record, Configuration):
            record = record.model_copy(update={"reported_name": FORMULAS[4]})
        changed.append(record)
    return Catalogue.from_records(changed)


def test_no_cell_of_a_csv_download_starts_a_formula() -> None:
    files = download_files(hostile_catalogue())
    csvs = {name: _cells(data) for name, data in files.items() if name.endswith(".csv.gz")}
    assert len(csvs) == 3
    for name, rows in csvs.items():
        for row in rows:
            for column, cell in row.items():
                if cell.startswith(FORMULA_STARTS):
                    float(cell)  # only a number may start with + or -: else ValueError
                    assert not cell.startswith(("=", "@", "\t", "\r")), (name, column)
    matrix = {r["evaluation_id"]: r for r in csvs["downloads/model-evaluation-matrix.csv.gz"]}
    row = matrix["fx-eval"]
    assert row["evaluation_title"] == "'" + FORMULAS[0]
    assert row["value"] == "-0.5" and row["printed_value"] == "-0.5"
    assert row["unit"] == "'@unit"
    assert row["reported_name"] == "'" + FORMULAS[4]
    (source,) = csvs["downloads/sources.csv.gz"]
    assert source["title"] == "'" + FORMULAS[1]
    assert source["short_citation"] == "'" + FORMULAS[2]
    assert source["venue"] == "'" + FORMULAS[5]
    assert source["version"] == "'\n=1+1"  # its carriage return a line feed
    assert source["authors"] == "'" + FORMULAS[3] + ";Plain Author"
    assert source["hash_scope"] == "'" + FORMULAS[7]
