"""Records of IA3 runs: validated, extrapolation only when confirmed, never overwritten."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from ia3_runs import TARGET_STEPS, steady_copy

from measure.ia3.catalogue import DATASET, PUBLISHED
from measure.ia3.evidence import NotConfirmed, RunLog, run_time, scaling_efficiency
from measure.ia3.records import write
from measure.records import RecordExists

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]
MACHINE = "a CPU test host"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A copy of the real catalogue to write into."""
    shutil.copytree(REPO / "records", tmp_path / "records")
    return tmp_path


@pytest.fixture
def steady(ia3_cpu_logs: dict[str, Path], tmp_path: Path) -> dict[str, Path]:
    """The real CPU logs with steady step times (20 ms; the 2-process runs 30 ms), and a
    full-length copy of the 2-process run ("two_full")."""
    logs = {
        key: steady_copy(path, tmp_path / "logs", 30.0 if key == "two" else 20.0)
        for key, path in ia3_cpu_logs.items()
    }
    logs["two_full"] = steady_copy(ia3_cpu_logs["two"], tmp_path / "full", 30.0, steps=TARGET_STEPS)
    return logs


def _load(path: Path) -> dict:  # type: ignore[type-arg]
    return yaml.safe_load(path.read_text())  # type: ignore[no-any-return]


def _eval(root: Path, run_id: str, gpus: int) -> dict:  # type: ignore[type-arg]
    return _load(root / "records" / f"rewire-{run_id}-eval-ia3-tiny-esm-{gpus}x-h200.yaml")


def test_full_runs_are_measured_and_validate(root: Path, steady: dict[str, Path]) -> None:
    paths = [steady["full"], steady["short"], steady["two_full"]]
    written = write(paths, root, "20261129-ia3-test", MACHINE, target_steps=TARGET_STEPS)
    names = sorted(p.name for p in written if p.name != f"{DATASET}.yaml")
    assert (root / "records" / f"{DATASET}.yaml").is_file()  # written when absent
    assert len(names) == 2 * 2  # (configuration, evaluation) x 2 setups
    one, two = _eval(root, "20261129-ia3-test", 1), _eval(root, "20261129-ia3-test", 2)
    assert one["origin"] == "rewire_measurement"
    for record in (one, two):
        result = record["results"][0]
        assert "extrapolation" not in result  # full-length runs are measured
        assert result["note"].startswith(f"Measured: a full {TARGET_STEPS}-step run")
        assert "The extrapolation rule, tried on this run: its first 16 steps" in result["note"]
        assert result["unit"] == "minute"
        assert "synthetic" in " ".join(record["limitations"]).lower()
        for artifact in record["artifacts"]:
            assert (root / artifact["path"]).is_file()
    assert two["results"][0]["value"] == pytest.approx((10.0 + 0.5 + 0.03 * 39) / 60, abs=1e-3)
    config = _load(root / "records" / "rewire-20261129-ia3-test-config-ia3-tiny-esm-2x-h200.yaml")
    assert config["hardware"]["count"] == 2
    assert config["settings"]["global_batch"] == "8"
    # like the peak-memory records: the day the run ended, so they are among the newest
    ended = RunLog.load(steady["two_full"]).interval[1].date().isoformat()
    assert (config["added"], two["added"]) == (ended, ended)


def test_a_short_run_is_extrapolated_only_with_a_full_run_of_its_setup(
    root: Path, steady: dict[str, Path]
) -> None:
    write([steady["two_full"], steady["full"]], root, "20261129-ia3-a", MACHINE,
          target_steps=TARGET_STEPS)  # fmt: skip
    two_full = _eval(root, "20261129-ia3-a", 2)["id"]
    one_full = _eval(root, "20261129-ia3-a", 1)["id"]
    with pytest.raises(NotConfirmed, match="same setup"):
        write([steady["two"]], root, "20261129-ia3-b", MACHINE, target_steps=TARGET_STEPS,
              confirm_with=[(one_full, steady["full"])])  # fmt: skip
    write([steady["two"]], root, "20261129-ia3-b", MACHINE, target_steps=TARGET_STEPS,
          confirm_with=[(two_full, steady["two_full"])])  # fmt: skip
    result = _eval(root, "20261129-ia3-b", 2)["results"][0]
    extrapolation = result["extrapolation"]
    assert extrapolation["measured_steps"] == 20
    assert extrapolation["target_steps"] == TARGET_STEPS
    assert extrapolation["confirmed_by"] == two_full
    assert abs(extrapolation["confirmation_error"]) <= 0.05
    assert result["note"].startswith("EXTRAPOLATED")
    with pytest.raises(ValueError, match="not an artifact of"):
        write([steady["two"]], root, "20261129-ia3-c", MACHINE, target_steps=TARGET_STEPS,
              confirm_with=[(one_full, steady["two_full"])])  # fmt: skip
    with pytest.raises(ValueError, match="no such record"):
        write([steady["two"]], root, "20261129-ia3-c", MACHINE, target_steps=TARGET_STEPS,
              confirm_with=[("rewire-nope", steady["two_full"])])  # fmt: skip
    with pytest.raises(ValueError, match="cannot confirm"):
        write([steady["short"]], root, "20261129-ia3-c", MACHINE, target_steps=TARGET_STEPS,
              confirm_with=[(two_full, steady["two"])])  # fmt: skip


def test_published_evaluations_are_linked() -> None:
    for published in PUBLISHED.values():
        assert (REPO / "records" / f"{published}.yaml").is_file()


def test_short_runs_alone_are_not_extrapolated(root: Path, steady: dict[str, Path]) -> None:
    short = [steady["short"], steady["two"]]
    with pytest.raises(NotConfirmed, match="full-length run"):
        write(short, root, "20261129-ia3-short", MACHINE, target_steps=TARGET_STEPS)
    assert not (root / "artifacts").exists()
    assert not list((root / "records").glob("rewire-20261129-ia3-short-*"))


def test_an_unsteady_full_run_does_not_confirm(root: Path, steady: dict[str, Path]) -> None:
    slow_tail = json.loads(steady["two_full"].read_text())
    half = len(slow_tail["step_ms"]) // 2
    slow_tail["step_ms"][half:] = [2000.0] * (len(slow_tail["step_ms"]) - half)
    slow_tail["launcher"]["wall_s"] = 10.0 + sum(slow_tail["step_ms"]) / 1000.0
    steady["two_full"].write_text(json.dumps(slow_tail))
    write([steady["two_full"]], root, "20261129-ia3-slow", MACHINE, target_steps=TARGET_STEPS)
    full_id = _eval(root, "20261129-ia3-slow", 2)["id"]
    assert "outside 5%" in _eval(root, "20261129-ia3-slow", 2)["results"][0]["note"]
    with pytest.raises(NotConfirmed, match="misses the full run"):
        write([steady["two"]], root, "20261129-ia3-slow2", MACHINE, target_steps=TARGET_STEPS,
              confirm_with=[(full_id, steady["two_full"])])  # fmt: skip


def test_a_rerun_with_the_same_id_never_overwrites(root: Path, steady: dict[str, Path]) -> None:
    paths = list(steady.values())
    write(paths, root, "20261129-ia3-again", MACHINE, target_steps=TARGET_STEPS)
    with pytest.raises(RecordExists):
        write(paths, root, "20261129-ia3-again", MACHINE, target_steps=TARGET_STEPS)


def test_run_time_and_scaling_from_the_logs(steady: dict[str, Path]) -> None:
    full, short, two = (RunLog.load(steady[k], TARGET_STEPS) for k in ("full", "short", "two"))
    logs = [full, short, two]
    assert run_time(full, logs).minutes == pytest.approx(full.wall_s / 60)
    extrapolated = run_time(short, logs)
    assert extrapolated.extrapolated and extrapolated.confirmed_by is full
    assert extrapolated.confirmation is not None
    assert abs(extrapolated.confirmation.relative_error) < 1e-9  # steady steps: exact
    with pytest.raises(NotConfirmed, match="same setup"):
        run_time(two, logs)  # the 1-process full run does not confirm a 2-process run
    assert scaling_efficiency(short, two) == pytest.approx(20.0 / 30.0 / 2)
    with pytest.raises(ValueError):
        scaling_efficiency(two, short)
