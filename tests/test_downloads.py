"""Gzip CSVs and the JSON API (downloads.py): pandas reads each CSV as it is, and two
runs give identical bytes."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import random
import shutil
import subprocess
import zlib

import pandas as pd
import pytest
from scenarios import load_scenario

from rewire_site.derive.concerns import flags_by_evaluation
from rewire_site.link import Catalogue
from rewire_site.models import RECORD_ADAPTER, Protocol
from rewire_site.release import ManifestEntry, make_release, sha256_bytes
from rewire_site.render.downloads import (
    API_INDEX,
    DOWNLOADS,
    EVALUATION_MATRIX,
    PROTOCOL_COVERAGE,
    RELEASE_TABLE,
    SOURCE_TABLE,
    api_files,
    csv_bytes,
    derived_json,
    download_files,
    gzip_bytes,
    record_json,
    release_file,
)

SCENARIOS = ["seed_memory", "ia3_conflict", "reproduction", "incomplete_run"]


def _frame(data: bytes) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(data), compression="gzip")


def _all(catalogue: Catalogue) -> dict[str, bytes]:
    files = download_files(catalogue)
    release = make_release(catalogue.by_id.values(), "2026-10-22")
    entries = [ManifestEntry(p, sha256_bytes(b), len(b)) for p, b in sorted(files.items())]
    files.update(release_file(release, entries))
    return files


def test_gzip_is_deterministic_without_name_or_time() -> None:
    packed = gzip_bytes(b"a,b\n1,2\n")
    assert packed == gzip_bytes(b"a,b\n1,2\n")
    assert packed[:3] == b"\x1f\x8b\x08"
    assert packed[3] == 0  # FLG: no FNAME, no FCOMMENT, no FEXTRA
    assert packed[4:8] == b"\x00\x00\x00\x00"  # MTIME 0
    assert packed[9] == 255  # OS unknown, whatever zlib says
    assert gzip.decompress(packed) == b"a,b\n1,2\n"


def _level9(data: bytes) -> bytes:
    """One level-9 gzip stream over the whole of `data`, as the standard library writes it."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as out:
        out.write(data)
    return buffer.getvalue()


def _documents(count: int, seed: int = 13) -> bytes:
    """JSON lines like the Every Eval Ever export's (about 300 bytes each), the same for
    a seed."""
    rng = random.Random(seed)
    lines = []
    for i in range(count):
        document = {
            "schema_version": "0.3.0",
            "evaluation_id": f"eval-{i:06d}",
            "source_metadata": {"source_type": "documentation", "relationship": "third_party"},
            "model_info": {"id": f"model-{rng.randrange(40)}", "name": "a genomic model"},
            "evaluation_results": [{"metric": "MCC", "score": rng.random()}],
        }
        lines.append(json.dumps(document).encode() + b"\n")
    return b"".join(lines)


def _gunzip_one_member(packed: bytes) -> bytes:
    """`packed` read as exactly one gzip member (nothing after it), as zlib reads it."""
    reader = zlib.decompressobj(wbits=31)
    data = reader.decompress(packed)
    assert reader.eof and reader.unused_data == b"", "not exactly one gzip member"
    return data


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"no line break",
        b"a,b\n1,2\n",
        b"\n\n\n",
        b"x" * 100_000 + b"\n" + b"y" * 10,  # a long line
        b"one\r\ntwo\r\n" * 40_000,
        random.Random(5).randbytes(400_000),  # no structure, line breaks by chance
    ],
    ids=["empty", "no-break", "csv", "breaks", "long-line", "crlf", "random"],
)
def test_gzip_gives_back_the_input_exactly(data: bytes) -> None:
    packed = gzip_bytes(data)
    assert gzip.decompress(packed) == data
    assert _gunzip_one_member(packed) == data


@pytest.mark.skipif(shutil.which("gzip") is None, reason="no gzip command")
def test_the_gzip_command_reads_it() -> None:
    data = _documents(3000)
    found = subprocess.run(["gzip", "-dc"], input=gzip_bytes(data), capture_output=True)
    assert found.returncode == 0, found.stderr
    assert found.stdout == data


def test_gzip_is_one_level_9_stream() -> None:
    for data in (_documents(80), _documents(6000)):
        assert gzip_bytes(data) == _level9(data)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_two_runs_give_identical_bytes(scenario: str) -> None:
    catalogue = load_scenario(scenario)
    assert _all(catalogue) == _all(catalogue)
    assert api_files(catalogue) == api_files(catalogue)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_pandas_reads_every_csv_as_it_is(scenario: str) -> None:
    files = _all(load_scenario(scenario))
    assert sorted(files) == sorted(d.path for d in DOWNLOADS)
    for path, data in files.items():
        frame = _frame(data)
        assert len(frame.columns) > 3, path


def test_evaluation_matrix_keeps_exact_values_and_flags() -> None:
    frame = _frame(download_files(load_scenario("reproduction"))[EVALUATION_MATRIX])
    assert len(frame) == 5
    published = frame[frame.evaluation_id == "eval-nt-published"]
    assert published.value.tolist() == [33.88, 11.49]
    assert published.printed_value.astype(str).tolist() == ["33.88", "11.49"]
    measured = frame[frame.evaluation_id == "eval-nt-rewire"].set_index("column_id")
    assert measured.loc["baseline", "status"] == "out_of_memory"
    assert pd.isna(measured.loc["baseline", "value"])
    # A hardware difference the protocol declares irrelevant is no exclusion.
    assert bool(measured.loc["deepspeed", "excluded_from_comparisons"]) is False
    assert "Reproduction differs from the published value" in measured.loc["deepspeed", "flags"]
    assert measured.loc["deepspeed", "reproduces"] == "eval-nt-published"
    # The same guard and verdicts as the pages (derive.comparability, derive.reproduction).
    # 31 / 33.88 agrees within 10% only if the source's 'GB' means 10^9 bytes.
    assert measured.loc["checkpointing", "reproduction_verdict"] == (
        "depends on the unit: agrees within ±10% only if GB means 10^9 bytes"
    )
    assert measured.loc["deepspeed", "reproduction_verdict"] == (
        "does not agree: differs by 21.8%, beyond ±10%"
    )
    assert measured.loc["checkpointing", "comparison_standing"] == (
        "not ranked: adaptation not stated"
    )
    assert (
        published.comparison_standing.tolist()
        == ["not ranked: adaptation, length unit not stated"] * 2
    )


def test_derived_json_carries_headlines_standings_and_verdicts() -> None:
    catalogue = load_scenario("setup_rows")
    data = json.loads(derived_json(catalogue, flags_by_evaluation(catalogue)))
    (protocol,) = data["protocols"]
    assert protocol["headline"].startswith(
        "2 published values: 1 not reproduced, 1 agreeing in some measured settings only"
    )
    verdicts = {(r["evaluation"], r["column"]): r["verdict"] for r in data["results"]}
    assert verdicts[("eval-nt-rewire-fp32-ckpt", "checkpointing")] == "agrees within ±10%"


def test_protocol_coverage_and_source_table() -> None:
    files = download_files(load_scenario("ia3_conflict"))
    coverage = _frame(files[PROTOCOL_COVERAGE])
    row = coverage.iloc[0]
    assert (row.protocol_id, row.evaluations, row.author_reported, row.excluded_results) == (
        "nt-ia3-runtime",
        2,
        2,
        2,
    )
    sources = _frame(files[SOURCE_TABLE])
    assert sources.source_id.tolist() == ["dalla-torre-2025"]
    assert sources.sha256.tolist() == [hashlib.sha256(b"dalla-torre-2025").hexdigest()]
    assert sources.cited_by_records.tolist() == [3]


def test_release_table_lists_every_other_file_with_its_hash() -> None:
    catalogue = load_scenario("seed_memory")
    files = _all(catalogue)
    frame = _frame(files[RELEASE_TABLE])
    release = make_release(catalogue.by_id.values(), "2026-10-22")
    assert set(frame.release_id) == {release.id}
    assert frame.path.tolist() == sorted(p for p in files if p != RELEASE_TABLE)
    for path, digest in zip(frame.path, frame.sha256, strict=True):
        assert digest == sha256_bytes(files[path])


def test_csv_quotes_commas_quotes_and_newlines() -> None:
    data = csv_bytes(["a", "b"], [['x, "y"\nz', None], [1.1, True]])
    frame = pd.read_csv(io.BytesIO(data), keep_default_na=False)
    assert frame.a.tolist() == ['x, "y"\nz', "1.1"]
    assert frame.b.tolist() == ["", "true"]
    with pytest.raises(ValueError, match="1 fields, header 2"):
        csv_bytes(["a", "b"], [["only"]])


def test_api_has_one_json_per_record_that_validates_again() -> None:
    catalogue = load_scenario("ia3_conflict")
    files = api_files(catalogue)
    index = json.loads(files[API_INDEX])["records"]
    assert [r["id"] for r in index] == sorted(catalogue.by_id)
    assert len(files) == len(catalogue.by_id) + 1
    path = "api/evaluation/eval-nt-500m-ia3-runtime.json"
    assert path in files
    record = RECORD_ADAPTER.validate_python(json.loads(files[path]))
    assert record == catalogue.by_id["eval-nt-500m-ia3-runtime"]
    assert "api/model_family/nucleotide-transformer.json" in files


def test_evaluation_matrix_names_an_incomplete_run_and_claims_no_value() -> None:
    frame = _frame(download_files(load_scenario("incomplete_run"))[EVALUATION_MATRIX])
    short = frame[frame.evaluation_id == "eval-nt-rewire-short"].set_index("column_id")
    assert short.loc["checkpointing", "status"] == "incomplete"
    assert pd.isna(short.loc["checkpointing", "value"])
    assert short.loc["deepspeed", "status"] == "value"
    assert short.loc["deepspeed", "value"] == 14.0


def test_record_json_leaves_out_editor_notes() -> None:
    catalogue = load_scenario("reproduction")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    noted = protocol.model_copy(update={"editor_notes": ["Seed page transcription note."]})
    data = json.loads(record_json(noted))
    assert "editor_notes" not in data
    assert data["id"] == "repro-peak-memory"
