"""Downloads: gzip CSVs and the static JSON API.

Every file is byte-deterministic: CSVs with '\\n' line ends and fixed column order, rows
in id order, floats written exactly (`repr`); gzip with mtime 0, no file name and the
'unknown' OS byte, whatever the zlib build (`gzip_bytes`). `pandas.read_csv` reads
each CSV as it is.

- downloads/protocol-coverage.csv.gz: one row per protocol (`derive.protocol_coverage`)
- downloads/model-evaluation-matrix.csv.gz: one row per evaluation result
- downloads/sources.csv.gz: one row per source
- downloads/release.csv.gz: the release id and every other output file's SHA-256
- api/<kind>/<id>.json per record, and api/index.json listing them
- api/derived.json: what the pages derive, from the same functions: each protocol's
  headline finding, and per result its comparison standing (`derive.comparability`) and
  reproduction verdict (`derive.reproduction`); the matrix CSV carries the same two
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
import struct
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..derive.concerns import Flag, excluded, flags_by_evaluation
from ..derive.scales import canonical_value
from ..link import Catalogue
from ..models import Configuration, Evaluation, ModelFamily, Protocol, RecordBase, Source
from ..release import ManifestEntry, Release
from .comparison_table import ProtocolTables, protocol_tables
from .coverage import ProtocolCoverage, protocol_coverage
from .findings import Headline, protocol_headline
from .present.agreement import agreement_verdict
from .present.flags import flag_label
from .reproduction import ReproductionGroup, protocol_reproduction_groups
from .urls import api_path, kind_of

Flags = Mapping[str, tuple[Flag, ...]]
PROTOCOL_COVERAGE = "downloads/protocol-coverage.csv.gz"
EVALUATION_MATRIX = "downloads/model-evaluation-matrix.csv.gz"
SOURCE_TABLE = "downloads/sources.csv.gz"
RELEASE_TABLE = "downloads/release.csv.gz"
API_INDEX = "api/index.json"
API_DERIVED = "api/derived.json"
RELEASE_PAGE = "downloads/index.html"
"""Where 'Download this release' leads: the release's page, listing every file of the
release (records as JSON, CSVs, citations) with the release table of checksums."""
RELEASE_LINK_TEXT = "Download this release (every file, with checksums)"


@dataclass(frozen=True)
class Download:
    path: str
    label: str
    """Link text, as the seed pages read."""


DOWNLOADS: tuple[Download, ...] = (
    Download(PROTOCOL_COVERAGE, "Protocol coverage CSV (gzip)"),
    Download(EVALUATION_MATRIX, "Model evaluation matrix (gzip)"),
    Download(SOURCE_TABLE, "Source table (gzip)"),
    Download(RELEASE_TABLE, "Release and checksums (gzip)"),
)

EXPORTS: tuple[Download, ...] = (
    Download("downloads/every-eval-ever.jsonl.gz", "Every Eval Ever JSON (gzip)"),
    Download("downloads/citations.bib", "Citations, BibTeX"),
    Download("downloads/citations.csl.json", "Citations, CSL-JSON"),
)
"""Files for tools outside Rewire, written by `export/` (listed beside the CSVs)."""


GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
"""Magic, deflate, no flags (no file name), mtime 0, XFL 2 (level 9), OS 255 (unknown)."""


def gzip_bytes(data: bytes) -> bytes:
    """Deterministic gzip, one member: no file name, mtime 0, OS byte 255, level 9."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS, 8, 0)
    body = packer.compress(data) + packer.flush()
    return GZIP_HEADER + body + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
"""What makes a spreadsheet read a CSV cell as a formula (OWASP, CSV injection), and the
full-width = + - @ some spreadsheets read the same way."""

_NUMBER_TEXT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def csv_cell(text: str) -> str:
    """A text cell as written to a CSV download: one that begins with = + - @, a tab or
    a carriage return gets a leading apostrophe (OWASP's advice), so a spreadsheet shows
    it as text and never runs it as a formula. Text that is a plain number ('-0.5', as
    a source printed it) cannot be a formula and stays as it is. A carriage return inside
    the text becomes a line feed: the CSV writer quotes a cell holding a line feed, not
    one holding a bare carriage return, which a reader would take for the end of a row."""
    if text.startswith(FORMULA_STARTS) and _NUMBER_TEXT.fullmatch(text) is None:
        text = "'" + text
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _cell(value: object) -> str:
    if type(value) is str:  # most cells: the one test first (0.9 million at 10,000 evaluations)
        return csv_cell(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    return csv_cell(str(value))


def csv_bytes(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """UTF-8 CSV, '\\n' line ends, minimal quoting; None is an empty field."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        if len(row) != len(header):
            raise ValueError(f"CSV row has {len(row)} fields, header {len(header)}: {row!r}")
        writer.writerow([_cell(v) for v in row])
    return buffer.getvalue().encode("utf-8")


def protocol_coverage_csv(
    catalogue: Catalogue,
    flags: Flags | None = None,
    rows: Sequence[ProtocolCoverage] | None = None,
) -> bytes:
    """`rows`: every protocol's coverage row, when computed already."""
    rows = protocol_coverage(catalogue, flags) if rows is None else rows
    header = [f.name for f in dataclasses.fields(ProtocolCoverage)]
    return csv_bytes(header, (dataclasses.astuple(r) for r in rows))


MATRIX_HEADER = (
    "evaluation_id", "evaluation_title", "configuration_id", "reported_name", "family_id",
    "family", "protocol_id", "dataset_id", "origin", "column_id", "column_label", "metric",
    "unit", "direction", "status", "value", "printed_value", "uncertainty",
    "coverage_scored", "coverage_eligible", "excluded_from_comparisons", "flags",
    "source_id", "locator", "reproduces", "comparison_standing", "reproduction_verdict",
)  # fmt: skip


@dataclass(frozen=True)
class DerivedResult:
    """What the pages show about one result beyond the record itself."""

    standing: str
    """'best of 3 comparable', 'not ranked: length unit not stated', ... or ''."""
    verdict: str
    """'agrees within ±5%', 'does not agree: ...', 'not judged: ...' or '' (no
    published value it reproduces)."""


Derived = dict[tuple[str, str], DerivedResult]
"""(evaluation id, column id) -> what the pages show about that result."""


def derived_results(
    catalogue: Catalogue,
    flags: Flags,
    tables: Mapping[str, ProtocolTables] | None = None,
    reproductions: Mapping[str, Sequence[ReproductionGroup]] | None = None,
) -> Derived:
    """(evaluation id, column id) -> standing and verdict, from the functions every page
    table and chart uses. `tables`: each protocol's comparison tables, when the build
    computed them already (the derive stage does, once for the pages and the files);
    `reproductions` likewise, each protocol's reproduction groups."""
    found: Derived = {}
    for protocol in catalogue.protocols():
        found.update(protocol_derived(protocol.id, catalogue, flags, tables, reproductions))
    return found


def protocol_derived(
    protocol_id: str,
    catalogue: Catalogue,
    flags: Flags,
    tables: Mapping[str, ProtocolTables] | None,
    reproductions: Mapping[str, Sequence[ReproductionGroup]] | None,
) -> Derived:
    """One protocol's standings and verdicts by (evaluation id, column id)."""
    protocol = catalogue.get(protocol_id, Protocol)
    standing: dict[tuple[str, str], str] = {}
    verdict: dict[tuple[str, str], str] = {}
    if tables is None:
        found = protocol_tables(protocol, catalogue, flags=flags)
    else:
        found = tables[protocol.id]
    for table in (found.published, found.measurements):
        for row in table.rows if table is not None else ():
            for cell in row.cells:
                if cell.evaluation_id is not None:
                    standing[(cell.evaluation_id, cell.column_id)] = cell.standing
    groups = (
        protocol_reproduction_groups(protocol, catalogue, flags=flags)
        if reproductions is None
        else reproductions[protocol.id]
    )
    for group in groups:
        for column in group.columns:
            for r in column.rows:
                verdict[(r.measured_evaluation_id, column.column_id)] = agreement_verdict(
                    r.pair.agreement
                )
    keys = standing.keys() | verdict.keys()
    return {k: DerivedResult(standing.get(k, ""), verdict.get(k, "")) for k in keys}


def derived_json(
    catalogue: Catalogue,
    flags: Flags,
    derived: Derived | None = None,
    headlines: Mapping[str, Headline] | None = None,
) -> bytes:
    """`api/derived.json`: headline findings per protocol and, per result, its standing
    and verdict (`derived`: `derived_results`, and `headlines`: each protocol's headline,
    when computed already)."""
    found = derived_results(catalogue, flags) if derived is None else derived
    protocols = sorted(catalogue.protocols(), key=lambda p: p.id)
    entries = [_protocol_entry(p, catalogue, flags, headlines) for p in protocols]
    results = [
        {"evaluation": e, "column": c, "standing": d.standing, "verdict": d.verdict}
        for (e, c), d in sorted(found.items())
    ]
    return _json({"protocols": entries, "results": results})


def _protocol_entry(
    protocol: Protocol,
    catalogue: Catalogue,
    flags: Flags,
    headlines: Mapping[str, Headline] | None,
) -> dict[str, object]:
    if headlines is None:
        headline = protocol_headline(protocol, catalogue, flags)
    else:
        headline = headlines[protocol.id]
    return {
        "id": protocol.id,
        "headline": headline.summary,
        "findings": [
            {"evaluation": f.evaluation_id, "column": f.column_id, "state": f.state,
             "text": f.text}
            for f in headline.findings
        ],
    }  # fmt: skip


def evaluation_matrix_csv(
    catalogue: Catalogue,
    flags: Flags | None = None,
    derived: Derived | None = None,
) -> bytes:
    """One row per evaluation result, evaluations by id, results in record order
    (`derived`: `derived_results`, when computed already)."""
    found = flags_by_evaluation(catalogue) if flags is None else flags
    if derived is None:
        derived = derived_results(catalogue, found)
    rows = []
    for evaluation in catalogue.of_kind(Evaluation):
        rows += _matrix_rows(evaluation, catalogue, found)
    with_derived = []
    for row in rows:
        extra = derived.get((str(row[0]), str(row[9])), _NO_DERIVED)
        with_derived.append((*row, extra.standing, extra.verdict))
    return csv_bytes(MATRIX_HEADER, with_derived)


_NO_DERIVED = DerivedResult("", "")


def _matrix_rows(
    evaluation: Evaluation, catalogue: Catalogue, found: Flags
) -> list[tuple[object, ...]]:
    """The matrix rows of one evaluation but the last two fields (standing, verdict)."""
    rows: list[tuple[object, ...]] = []
    configuration = catalogue.by_id.get(evaluation.configuration)
    name = family_id = family = None
    if isinstance(configuration, Configuration):
        name, family_id = configuration.reported_name, configuration.family
        record = catalogue.by_id.get(family_id)
        family = record.name if isinstance(record, ModelFamily) else None
    protocol = catalogue.get(evaluation.protocol, Protocol)
    labels = {c.id: c.label for c in protocol.columns}
    mine = found.get(evaluation.id, ())
    for result in evaluation.results:
        metric = protocol.column_metric(result.column)
        canonical = canonical_value(metric, result)
        rows.append(
            (
                evaluation.id, evaluation.title, evaluation.configuration, name,
                family_id, family, protocol.id, evaluation.dataset,
                evaluation.origin.value, result.column, labels.get(result.column),
                metric.label, canonical.unit,
                result.direction or metric.direction,
                result.status, canonical.value,
                result.printed_value, result.uncertainty,
                result.coverage.scored if result.coverage else None,
                result.coverage.eligible if result.coverage else None,
                excluded(mine, result.column),
                ";".join(flag_label(f) for f in mine if f.affects(result.column)),
                result.citation.source if result.citation else None,
                result.citation.locator if result.citation else None,
                evaluation.reproduces,
            )
        )  # fmt: skip
    return rows


SOURCE_HEADER = (
    "source_id", "title", "short_citation", "venue", "authors", "published", "version",
    "url", "retrieval_url", "retrieved_at", "sha256", "hash_scope", "cited_by_records",
)  # fmt: skip


def _iso(value: object) -> str | None:
    """A date as ISO text; a date kept at its printed precision ('2026-03') as it is."""
    if value is None:
        return None
    iso = getattr(value, "isoformat", None)
    return str(iso()) if callable(iso) else str(value)


def source_table_csv(catalogue: Catalogue) -> bytes:
    rows = []
    for source in catalogue.of_kind(Source):
        citing = {ref.source_id for ref in catalogue.referrers.get(source.id, [])}
        rows.append(
            (
                source.id, source.title, source.short_citation, source.venue,
                ";".join(source.authors),
                _iso(source.published),
                source.version, source.url, source.retrieval_url,
                source.retrieved_at.isoformat() if source.retrieved_at else None,
                source.sha256, source.hash_scope, len(citing),
            )
        )  # fmt: skip
    return csv_bytes(SOURCE_HEADER, rows)


RELEASE_HEADER = ("release_id", "release_date", "content_sha256", "path", "sha256", "size_bytes")


def release_csv(release: Release, entries: Iterable[ManifestEntry]) -> bytes:
    """The release and every output file (except this one) with its SHA-256."""
    rows = [
        (release.id, release.date, release.content_sha256, e.path, e.sha256, e.size_bytes)
        for e in sorted(entries, key=lambda e: e.path)
        if e.path != RELEASE_TABLE
    ]
    return csv_bytes(RELEASE_HEADER, rows)


def download_files(
    catalogue: Catalogue, flags: Flags | None = None, derived: Derived | None = None
) -> dict[str, bytes]:
    """The gzip CSVs that do not depend on other outputs (all but the release table)."""
    found = flags_by_evaluation(catalogue) if flags is None else flags
    return {
        PROTOCOL_COVERAGE: gzip_bytes(protocol_coverage_csv(catalogue, found)),
        EVALUATION_MATRIX: gzip_bytes(evaluation_matrix_csv(catalogue, found, derived)),
        SOURCE_TABLE: gzip_bytes(source_table_csv(catalogue)),
    }


def release_file(release: Release, entries: Iterable[ManifestEntry]) -> dict[str, bytes]:
    """The release table; write it last, from every other output's manifest entry."""
    return {RELEASE_TABLE: gzip_bytes(release_csv(release, entries))}


def _json(data: object) -> bytes:
    return (json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


EDITOR_ONLY = frozenset({"editor_notes"})
"""Fields for editors: never in a page, nor in the JSON a reader downloads."""


def record_json(record: RecordBase) -> bytes:
    """The record as JSON, keys in the model's field order (as in its schema), without the
    fields for editors (`EDITOR_ONLY`)."""
    hidden = {name for name in EDITOR_ONLY if name in type(record).model_fields}
    return record.model_dump_json(indent=2, exclude=hidden or None).encode("utf-8") + b"\n"


def api_index(catalogue: Catalogue) -> bytes:
    """`api/index.json`: every record's id, kind, title and JSON path, sorted by id."""
    index = []
    for record_id in sorted(catalogue.by_id):
        record = catalogue.by_id[record_id]
        kind = kind_of(record)
        index.append(
            {
                "id": record_id,
                "kind": kind,
                "title": record.title,
                "path": api_path(kind, record_id),
            }
        )
    return _json({"records": index})


def api_files(catalogue: Catalogue) -> dict[str, bytes]:
    """One JSON file per record, and an index of them (id, kind, title, path)."""
    files: dict[str, bytes] = {}
    for record_id in sorted(catalogue.by_id):
        record = catalogue.by_id[record_id]
        files[api_path(kind_of(record), record_id)] = record_json(record)
    files[API_INDEX] = api_index(catalogue)
    return files
