"""IA3 records of unconfirmed short runs: written as incomplete results, never as a run time.

Uses the committed logs of the real H200 runs (`artifacts/measurements/20261129-ia3-*`);
no torch needed. No full-length run confirms them, so a run time may not be claimed.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner, Result

from measure.ia3.catalogue import DATASET, PUBLISHED
from measure.ia3.evidence import NotConfirmed, RunLog
from measure.ia3.records import write
from measure.records import RecordExists, sha256_file
from rewire_site.cli import app
from rewire_site.models import RECORD_ADAPTER

REPO = Path(__file__).resolve().parents[2]
CALL_1 = REPO / "artifacts" / "measurements" / "20261129-ia3-1920"
CALL_2 = REPO / "artifacts" / "measurements" / "20261129-ia3-2010"
ONE_GPU = [CALL_1 / "nt-500m-1gpu-1000steps.json", CALL_1 / "nt-2-5b-1gpu-1000steps.json"]
MACHINE = "nvidia-h200-x2"
EVAL_500M = "rewire-20261129-ia3-test-eval-ia3-nt-500m-1x-h200"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A copy of the real catalogue to write into."""
    shutil.copytree(REPO / "records", tmp_path / "records")
    return tmp_path


def _load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict)
    return data


def _observations(record: dict[str, Any]) -> dict[str, float]:
    return {o["name"]: o["value"] for o in record["results"][0]["observations"]}


def test_without_the_flag_nothing_is_claimed_or_written(root: Path) -> None:
    with pytest.raises(NotConfirmed, match="full-length run"):
        write(ONE_GPU, root, "20261129-ia3-test", MACHINE)
    assert not (root / "artifacts").exists()
    assert not list((root / "records").glob("rewire-20261129-ia3-test-*"))


def test_unconfirmed_runs_become_incomplete_results_with_what_was_measured(root: Path) -> None:
    written = write(ONE_GPU, root, "20261129-ia3-test", MACHINE, unconfirmed_as_incomplete=True)
    evaluations = [p for p in written if "-eval-" in p.name]
    assert len(evaluations) == 2
    for path in written:  # every file written validates as its model
        RECORD_ADAPTER.validate_python(_load(path))
    record = _load(root / "records" / f"{EVAL_500M}.yaml")
    result = record["results"][0]
    assert (result["status"], result["value"], result["unit"]) == ("incomplete", None, "minute")
    assert "extrapolation" not in result
    assert result["note"].startswith(
        "1,000 of 10,000 steps run; a 10,000-step run time is not claimed because no "
        "full-length run on this setup confirmed the extrapolation within 5%."
    )
    assert record["reproduces"] == PUBLISHED["nt-500m"]
    assert "incomplete" in record["title"]
    log = RunLog.load(ONE_GPU[0])
    seen = _observations(record)
    assert seen["measured-steps"] == 1000
    assert seen["measured-wall-time"] == pytest.approx(log.wall_s / 60, abs=1e-3)
    assert seen["step-time-median"] == pytest.approx(log.summary.median_ms, abs=1e-3)
    assert seen["step-time-p10"] < seen["step-time-median"] < seen["step-time-p90"]
    assert seen["tokens-per-second"] == pytest.approx(seen["samples-per-second"] * 101, rel=1e-3)
    # Same achieved FLOP/s against two peaks: 989.5 (H200 datasheet) and 788 (measured) TFLOP/s.
    ratio = seen["mfu-measured-matmul-rate"] / seen["mfu-datasheet-peak"]
    assert ratio == pytest.approx(989.5 / 788, rel=1e-4)
    assert seen["peak-allocated-memory-gpu-0"] < seen["peak-reserved-memory-gpu-0"]
    assert record["settings"]["gpus"] == "1" and record["settings"]["fused_adam"] == "yes"
    assert record["environment"]["gpu"] == "NVIDIA H200"
    for artifact in record["artifacts"]:
        assert sha256_file(root / artifact["path"]) == artifact["sha256"]
    assert record["missing_metadata"]["results.0.uncertainty"]["reason"] == "inapplicable"


def test_a_second_write_never_overwrites(root: Path) -> None:
    write(ONE_GPU, root, "20261129-ia3-test", MACHINE, unconfirmed_as_incomplete=True)
    before = (root / "records" / f"{EVAL_500M}.yaml").read_bytes()
    with pytest.raises(RecordExists):
        write(ONE_GPU, root, "20261129-ia3-test", MACHINE, unconfirmed_as_incomplete=True)
    assert (root / "records" / f"{EVAL_500M}.yaml").read_bytes() == before


def test_commit_given_only_where_the_log_has_none(root: Path) -> None:
    commit = "0123456789abcdef0123456789abcdef01234567"
    paths = [*ONE_GPU, CALL_2 / "nt-2-5b-2gpu-1000steps.json"]
    write(
        paths,
        root,
        "20261129-ia3-test",
        MACHINE,
        unconfirmed_as_incomplete=True,
        git_commit=commit,
    )
    two = _load(root / "records" / "rewire-20261129-ia3-test-eval-ia3-nt-2-5b-2x-h200.yaml")
    one = _load(root / "records" / f"{EVAL_500M}.yaml")
    assert two["environment"]["git_commit"] == commit
    assert (
        one["environment"]["git_commit"]
        == RunLog.load(ONE_GPU[0]).data["environment"]["git_commit"]
    )
    assert {o["name"] for o in two["results"][0]["observations"]} >= {
        "peak-allocated-memory-gpu-1",
        "peak-reserved-memory-gpu-1",
    }


def test_cli_writes_incomplete_records_and_attaches_files(root: Path) -> None:
    """`rewire measure ia3-records`, through the real entry point."""

    def cli(args: list[str]) -> Result:
        return CliRunner().invoke(app, ["measure", "ia3-records", *args], terminal_width=200)

    attached = CALL_1 / "nt-500m-1gpu-10000steps.stdout.txt"
    args = [str(ONE_GPU[0]), "--root", str(root), "--run-id", "20261129-ia3-test"]
    args += ["--machine", MACHINE, "--note", "Shared the host."]
    refused = cli(args)
    assert refused.exit_code == 1  # refused without the flag
    assert "full-length run" in refused.output
    args += ["--unconfirmed-as-incomplete", "--attach", f"{attached}=cut-off run output"]
    written = cli(args)
    assert written.exit_code == 0, written.output
    assert f"{EVAL_500M}.yaml" in written.output
    record = _load(root / "records" / f"{EVAL_500M}.yaml")
    assert record["artifacts"][-1]["description"] == "cut-off run output"
    assert record["environment"]["note"].endswith("Shared the host.")
    bad = cli([*args[:-2], "--attach", "no-description"])
    assert bad.exit_code == 2  # a usage error, before anything is read
    assert "use PATH=DESCRIPTION" in bad.output


def test_the_dataset_record_is_written_when_absent(tmp_path: Path) -> None:
    shutil.copytree(REPO / "records", tmp_path / "records")
    for path in (tmp_path / "records").glob("rewire-20261129-*ia3*.yaml"):
        path.unlink()  # the committed records of these runs
    (tmp_path / "records" / f"{DATASET}.yaml").unlink()
    written = write(ONE_GPU, tmp_path, "20261129-ia3-1920", MACHINE, unconfirmed_as_incomplete=True)
    assert written[0].name == f"{DATASET}.yaml"
    assert _load(written[0])["synthetic"] is True
