"""Downloads: gzip CSVs and the static JSON API.

Every file is byte-deterministic: CSVs with '\\n' line ends and fixed column order, rows
in id order, floats written exactly (`repr`); gzip with mtime 0, no file name and the
'unknown' OS byte, whatever the zlib build, its deflate stream cut into segments at
content-defined lines so that `rewire serve` recompresses only what an edit changed
(`gzip_bytes`). `pandas.read_csv` reads each CSV as it is.

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
import functools
import hashlib
import io
import json
import re
import struct
import zlib
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar
from typing import Protocol as Interface

from ..derive.concerns import Flag, excluded, flags_by_evaluation
from ..derive.coverage import ProtocolCoverage, protocol_coverage
from ..derive.findings import Headline, protocol_headline
from ..derive.reproduction import ReproductionGroup, protocol_reproduction_groups
from ..derive.tables import ProtocolTables, protocol_tables
from ..link import Catalogue
from ..models import Configuration, Evaluation, ModelFamily, Protocol, RecordBase, Source
from ..release import ManifestEntry, Release
from .urls import api_path, kind_of

if TYPE_CHECKING:
    from .contexts import SharedRows

Flags = Mapping[str, tuple[Flag, ...]]
V = TypeVar("V")


class Memo(Interface):
    """Per-item pieces of a site-wide file kept between edits (`rewire serve`:
    `incremental.memo.Memo`): `memo(key, compute)` is the kept piece `key` or
    `compute()`. `compute` must read what the piece depends on through the catalogue and
    facts it is given (their reads are its dependency keys). `rewire build` passes none."""

    def __call__(self, key: Hashable, compute: Callable[[], V]) -> V: ...

    def segments(self, path: str) -> GzipSegments:
        """The compressed segments of the gzip file at `path` kept between edits."""
        ...

    def shared_rows(self, name: str) -> SharedRows:
        """This process's cache of rendered rows `name` (never sent to the replica: it
        holds weak references)."""
        ...


def kept_segments(memo: Memo | None, path: str) -> GzipSegments | None:
    """What `gzip_bytes` keeps of the file at `path` between edits (None: `rewire build`)."""
    return None if memo is None else memo.segments(path)


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
WINDOW = 32 * 1024
"""Deflate's window: a segment refers back this far, into the segment before it."""
SEGMENT_MIN = WINDOW
"""No segment but the last is shorter: each one's window lies in the one before it, and a
small file is one segment (as one level-9 stream)."""
SEGMENT_TARGET = 128 * 1024
"""Mean bytes per segment beyond `SEGMENT_MIN` (`segment_ends`). With these sizes the
gzip files of the 10,000-evaluation catalogue and of records/ are 0 to 0.5% larger than
one level-9 stream over the whole file, and recompressing an edited segment takes a few
milliseconds."""
SEGMENT_CAP = 8 * SEGMENT_TARGET
"""A segment ends after the line that brings it to this size (a long run with no cut)."""

SegmentKey = tuple[bytes, int, bool]
"""SHA-256 of a segment's window and text, the window's length, and whether it is the
last segment (it ends the deflate stream)."""
SegmentsDelta = tuple[tuple[SegmentKey, ...], dict[SegmentKey, bytes]]
"""The keys of a file's segments and the segments compressed anew (`GzipSegments.delta`)."""


class GzipSegments:
    """One file's compressed segments kept between edits (`rewire serve`: the site's
    `Memo.segments(path)`), by what each compressed (`SegmentKey`): `gzip_bytes`
    recompresses only the segments whose text or window changed, and keeps only the
    segments its last call used, so the cache is the size of the file's gzip."""

    def __init__(self) -> None:
        self.segments: dict[SegmentKey, bytes] = {}
        self.made = 0
        """Segments the last `gzip_bytes` call compressed."""
        self.reused = 0
        """Segments the last `gzip_bytes` call took from the cache."""
        self.fresh: dict[SegmentKey, bytes] = {}
        """The segments the last `gzip_bytes` call compressed (not taken from the cache)."""

    def delta(self) -> SegmentsDelta:
        """What another copy of these segments, as they were before the last call, needs
        to become this one (`apply`): the keys of the last call and the segments it
        compressed. Serve's replica and the serving process send this, not every
        segment (the Every Eval Ever export alone is 1.8 MB of segments at 10,000
        evaluations)."""
        return tuple(self.segments), dict(self.fresh)

    def apply(self, delta: SegmentsDelta) -> None:
        """Become the copy `delta` was taken from. A segment this copy lacks (it was not
        the same before) leaves it the compressed segments alone: the others are
        compressed again when next needed, the same bytes."""
        keys, fresh = delta
        old = self.segments
        if all(k in fresh or k in old for k in keys):
            self.segments = {k: fresh[k] if k in fresh else old[k] for k in keys}
        else:
            self.segments = dict(fresh)
        self.fresh = dict(fresh)


def segment_ends(data: bytes) -> list[int]:
    """Where `gzip_bytes` ends its segments: after a line (up to and including its
    '\\n') whose CRC-32 falls under a threshold proportional to its length (about one
    cut per `SEGMENT_TARGET` bytes, whatever the line length) once the segment holds
    `SEGMENT_MIN` bytes, or after the line that brings it to `SEGMENT_CAP`; and at the
    end of `data`. Content-defined: editing, inserting or deleting a line leaves the cuts
    before it in place and those after it at the same text (shifted), so the other
    segments keep their bytes."""
    ends: list[int] = []
    view = memoryview(data)
    find, rfind, crc = data.find, data.rfind, zlib.crc32
    start = 0
    while True:
        # the first line that may end the segment: the one that brings it to SEGMENT_MIN
        line = rfind(b"\n", start, start + SEGMENT_MIN - 1) + 1 or start
        while True:
            end = find(b"\n", line) + 1
            if not end:  # no line break left: the last segment ends with the data
                ends.append(len(data))
                return ends
            size = end - line
            if end - start >= SEGMENT_CAP or crc(view[line : end - 1]) * SEGMENT_TARGET < (
                size << 32
            ):
                break
            line = end
        ends.append(end)
        if end == len(data):
            return ends
        start = end


def _segment(window: memoryview, text: memoryview, last: bool) -> bytes:
    """Raw deflate of `text` at level 9, referring back into `window` (the data just
    before it), ended by a sync flush (byte-aligned, the stream goes on) or, `last`, by
    the final block."""
    if window:
        packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS, 8, 0, window)
    else:
        packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS, 8, 0)
    return packer.compress(text) + packer.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


def gzip_bytes(data: bytes, kept: GzipSegments | None = None) -> bytes:
    """Deterministic gzip, one member: no file name, mtime 0, OS byte 255, level 9.

    The deflate stream is made of segments cut at content-defined line boundaries
    (`segment_ends`), as pigz does: each segment is compressed on its own with the 32 KiB
    before it as its dictionary (`WINDOW`) and ends in a sync flush, so the concatenation
    is one valid stream that any gunzip reads, about as small as one level-9 stream.
    `kept` (`rewire serve`): the segments of this file's last call, by what they
    compressed; an edit recompresses the segment it falls in and, when it is within 32 KiB
    of that segment's end, the next one (whose window it changes); a cut that moves may
    add one more. `rewire build` passes none and compresses every segment: same bytes."""
    view = memoryview(data)
    parts = [GZIP_HEADER]
    ends = segment_ends(data)
    used: dict[SegmentKey, bytes] = {}
    fresh: dict[SegmentKey, bytes] = {}
    made = reused = 0
    start = 0
    for end in ends:
        low = max(0, start - WINDOW)
        last = end == len(data)
        if kept is None:
            parts.append(_segment(view[low:start], view[start:end], last))
        else:
            key = (hashlib.sha256(view[low:end]).digest(), start - low, last)
            segment = used.get(key) or kept.segments.get(key)
            if segment is None:
                segment = fresh[key] = _segment(view[low:start], view[start:end], last)
                made += 1
            else:
                reused += 1
            used[key] = segment
            parts.append(segment)
        start = end
    parts.append(struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF))
    if kept is not None:
        kept.segments, kept.fresh, kept.made, kept.reused = used, fresh, made, reused
    return b"".join(parts)


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
    memo: Memo | None = None,
) -> Derived:
    """(evaluation id, column id) -> standing and verdict, from the functions every page
    table and chart uses. `tables`: each protocol's comparison tables, when the build
    computed them already (the derive stage does, once for the pages and the files);
    `reproductions` likewise, each protocol's reproduction groups; `memo`: each
    protocol's results kept between edits (a protocol's results are those of its own
    evaluations: no two protocols share a key)."""
    found: Derived = {}
    for protocol in catalogue.protocols():
        pid = protocol.id

        def compute(pid: str = pid) -> Derived:
            return _protocol_derived(pid, catalogue, flags, tables, reproductions)

        found.update(compute() if memo is None else memo(("derived", pid), compute))
    return found


def _protocol_derived(
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
                verdict[(r.measured_evaluation_id, column.column_id)] = r.pair.agreement.verdict
    keys = standing.keys() | verdict.keys()
    return {k: DerivedResult(standing.get(k, ""), verdict.get(k, "")) for k in keys}


def derived_json(
    catalogue: Catalogue,
    flags: Flags,
    derived: Derived | None = None,
    headlines: Mapping[str, Headline] | None = None,
    memo: Memo | None = None,
) -> bytes:
    """`api/derived.json`: headline findings per protocol and, per result, its standing
    and verdict (`derived`: `derived_results`, and `headlines`: each protocol's headline,
    when computed already; `memo`: each protocol's entry and each evaluation's results
    as JSON text, kept between edits: the same bytes)."""
    found = derived_results(catalogue, flags) if derived is None else derived
    protocols = sorted(catalogue.protocols(), key=lambda p: p.id)
    if memo is not None:
        return _derived_json_pieces(catalogue, flags, found, headlines, memo, protocols)
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


def _json_items(texts: Sequence[str]) -> str:
    """The list of `texts` (each an item as `_json` writes it at depth 0) as `_json`
    writes it as the value of a top-level key (items indented by 4)."""
    if not texts:
        return "[]"
    return "[\n" + ",\n".join(texts) + "\n  ]"


def _item_text(data: object) -> str:
    text = json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False)
    return "    " + text.replace("\n", "\n    ")


def _derived_json_pieces(
    catalogue: Catalogue,
    flags: Flags,
    found: Derived,
    headlines: Mapping[str, Headline] | None,
    memo: Memo,
    protocols: Sequence[Protocol],
) -> bytes:
    """`derived_json` joined from kept pieces: each protocol's entry (its reads tracked)
    and each evaluation's results (by value), written as `_json` writes them."""
    entries = []
    for protocol in protocols:
        pid = protocol.id

        def entry(pid: str = pid) -> str:
            mine = catalogue.get(pid, Protocol)
            return _item_text(_protocol_entry(mine, catalogue, flags, headlines))

        entries.append(memo(("derived.json protocol", pid), entry))
    by_evaluation: dict[str, list[tuple[str, str, str]]] = {}
    for (e, c), d in found.items():
        by_evaluation.setdefault(e, []).append((c, d.standing, d.verdict))
    results = []
    for e in sorted(by_evaluation):  # by (evaluation, column), as `derived_json` sorts
        values = tuple(sorted(by_evaluation[e]))

        def text(e: str = e, values: tuple[tuple[str, str, str], ...] = values) -> str:
            return ",\n".join(
                _item_text({"evaluation": e, "column": c, "standing": s, "verdict": v})
                for c, s, v in values
            )

        results.append(memo(("derived.json results", e, values), text))
    body = (
        '{\n  "protocols": ' + _json_items(entries) + ',\n  "results": '
        + _json_items(results) + "\n}\n"
    )  # fmt: skip
    return body.encode()


def evaluation_matrix_csv(
    catalogue: Catalogue,
    flags: Flags | None = None,
    derived: Derived | None = None,
    memo: Memo | None = None,
) -> bytes:
    """One row per evaluation result, evaluations by id, results in record order
    (`derived`: `derived_results`, when computed already; `memo`: each evaluation's rows
    as CSV text but the last two fields, kept between edits: the same bytes)."""
    found = flags_by_evaluation(catalogue) if flags is None else flags
    if derived is None:
        derived = derived_results(catalogue, found)
    if memo is None:
        rows = []
        for evaluation in catalogue.of_kind(Evaluation):
            rows += _matrix_rows(evaluation, catalogue, found)
        return csv_bytes(
            MATRIX_HEADER,
            (
                (*row, *dataclasses.astuple(derived.get((str(row[0]), str(row[9])), _NO_DERIVED)))
                for row in rows
            ),
        )
    texts = [_csv_line(MATRIX_HEADER)]
    tails: dict[tuple[str, str], str] = {}  # few distinct standings and verdicts
    for evaluation in catalogue.of_kind(Evaluation):
        eid = evaluation.id

        def compute(eid: str = eid) -> tuple[tuple[str, str], ...]:
            mine = catalogue.get(eid, Evaluation)
            return tuple(
                (_csv_line(row)[:-1], str(row[9])) for row in _matrix_rows(mine, catalogue, found)
            )

        for line, column in memo(("matrix", eid), compute):
            d = derived.get((eid, column), _NO_DERIVED)
            pair = (d.standing, d.verdict)  # hashed in C (a dataclass hashes in Python)
            tail = tails.get(pair)
            if tail is None:
                tail = tails[pair] = "," + _csv_line(pair)
            texts.append(line + tail)
    return "".join(texts).encode("utf-8")


_NO_DERIVED = DerivedResult("", "")


def _csv_line(row: Sequence[object]) -> str:
    """One CSV line as `csv_bytes` writes it."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([_cell(v) for v in row])
    return buffer.getvalue()


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
        rows.append(
            (
                evaluation.id, evaluation.title, evaluation.configuration, name,
                family_id, family, protocol.id, evaluation.dataset,
                evaluation.origin.value, result.column, labels.get(result.column),
                protocol.column_metric(result.column).label, result.unit,
                result.direction or protocol.column_metric(result.column).direction,
                result.status, result.value,
                result.printed_value, result.uncertainty,
                result.coverage.scored if result.coverage else None,
                result.coverage.eligible if result.coverage else None,
                excluded(mine, result.column),
                ";".join(f.label for f in mine if f.affects(result.column)),
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
        _release_row(release, e)
        for e in sorted(entries, key=lambda e: e.path)
        if e.path != RELEASE_TABLE
    ]
    return csv_bytes(RELEASE_HEADER, rows)


def _release_row(release: Release, entry: ManifestEntry) -> tuple[object, ...]:
    """One file's row of the release table (`RELEASE_HEADER`)."""
    return (release.id, release.date, release.content_sha256, entry.path, entry.sha256,
            entry.size_bytes)  # fmt: skip


class ReleaseLines:
    """The release table kept between edits (`rewire serve`): each file's CSV line is
    made again only when its manifest entry is a new object (an entry is replaced when its
    file is rewritten), and the lines are joined in path order, the bytes `release_file`
    gives for the same entries."""

    def __init__(self) -> None:
        self.release: Release | None = None
        self.lines: dict[str, tuple[ManifestEntry, str]] = {}
        self.order: list[str] = []
        self.segments = GzipSegments()

    def file(self, release: Release, manifest: Mapping[str, ManifestEntry]) -> dict[str, bytes]:
        """The release table of `release` and every file in `manifest` but itself."""
        if release != self.release:
            self.release, self.lines = release, {}
        kept, lines = self.lines, {}
        for path, entry in manifest.items():
            if path == RELEASE_TABLE:
                continue
            line = kept.get(path)
            if line is None or line[0] is not entry:
                line = (entry, _csv_line(_release_row(release, entry)))
            lines[path] = line
        if lines.keys() != kept.keys():
            self.order = sorted(lines)
        self.lines = lines
        data = _csv_line(RELEASE_HEADER) + "".join([lines[p][1] for p in self.order])
        return {RELEASE_TABLE: gzip_bytes(data.encode("utf-8"), self.segments)}


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
    """The release table; write it last, from every other output's manifest entry
    (`rewire serve` keeps its lines between edits: `ReleaseLines`)."""
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


def api_index(catalogue: Catalogue, memo: Memo | None = None) -> bytes:
    """`api/index.json`: every record's id, kind, title and JSON path, sorted by id
    (`memo`: each record's entry as JSON text kept between edits, by value)."""
    if memo is not None:
        texts = []
        for record_id in sorted(catalogue.by_id):
            record = catalogue.by_id[record_id]
            entry = (record_id, kind_of(record), record.title)
            texts.append(memo(("api index", entry), functools.partial(_index_entry, *entry)))
        return ('{\n  "records": ' + _json_items(texts) + "\n}\n").encode()
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


def _index_entry(record_id: str, kind: str, title: str) -> str:
    return _item_text(
        {"id": record_id, "kind": kind, "title": title, "path": api_path(kind, record_id)}
    )


def api_files(catalogue: Catalogue) -> dict[str, bytes]:
    """One JSON file per record, and an index of them (id, kind, title, path)."""
    files: dict[str, bytes] = {}
    for record_id in sorted(catalogue.by_id):
        record = catalogue.by_id[record_id]
        files[api_path(kind_of(record), record_id)] = record_json(record)
    files[API_INDEX] = api_index(catalogue)
    return files
