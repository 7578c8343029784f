"""Records of IA3 runs: validated, extrapolation only when confirmed, never overwritten."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from ia3_runs import TARGET_STEPS, ia3_cpu_logs, steady_copy  # noqa: F401  (session fixture)

from measure.ia3.evidence import NotConfirmed, RunLog, run_time, scaling_efficiency
from measure.ia3.records import DATASET, PUBLISHED, write
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
def steady(ia3_cpu_logs: dict[str, Path], tmp_path: Path) -> dict[str, Path]:  # noqa: F811
    """The real CPU logs with steady step times (20 ms; the 2-process run 30 ms)."""
    return {
        key: steady_copy(path, tmp_path / "logs", 30.0 if key == "two" else 20.0)
        for key, path in ia3_cpu_logs.items()
    }


def _load(path: Path) -> dict:  # type: ignore[type-arg]
    return yaml.safe_load(path.read_text())  # type: ignore[no-any-return]


def test_records_validate_and_mark_the_extrapolation(root: Path, steady: dict[str, Path]) -> None:
    paths = list(steady.values())
    written = write(paths, root, "20261129-ia3-test", MACHINE, target_steps=TARGET_STEPS)
    names = sorted(p.name for p in written if p.name != f"{DATASET}.yaml")
    assert (root / "records" / f"{DATASET}.yaml").is_file()  # written when absent
    assert len(names) == 2 * 2  # (configuration, evaluation) x 2 setups
    one = _load(root / "records" / "rewire-20261129-ia3-test-eval-ia3-tiny-esm-1x-h200.yaml")
    two = _load(root / "records" / "rewire-20261129-ia3-test-eval-ia3-tiny-esm-2x-h200.yaml")
    assert one["origin"] == "rewire_measurement"
    assert "extrapolation" not in one["results"][0]  # the full-length run is measured
    extrapolation = two["results"][0]["extrapolation"]
    assert extrapolation["measured_steps"] == 20
    assert extrapolation["target_steps"] == TARGET_STEPS
    assert extrapolation["confirmed_by"] == one["id"]
    assert abs(extrapolation["confirmation_error"]) <= 0.05
    assert two["results"][0]["note"].startswith("EXTRAPOLATED")
    assert two["results"][0]["unit"] == "minute"
    assert "synthetic" in " ".join(two["limitations"]).lower()
    for artifact in two["artifacts"]:
        assert (root / artifact["path"]).is_file()
    config = _load(root / "records" / "rewire-20261129-ia3-test-config-ia3-tiny-esm-2x-h200.yaml")
    assert config["hardware"]["count"] == 2
    assert config["settings"]["global_batch"] == "8"


def test_published_evaluations_are_linked() -> None:
    for published in PUBLISHED.values():
        assert (REPO / "records" / f"{published}.yaml").is_file()


def test_short_runs_alone_are_not_extrapolated(root: Path, steady: dict[str, Path]) -> None:
    short = [steady["short"], steady["two"]]
    with pytest.raises(NotConfirmed, match="full-length run"):
        write(short, root, "20261129-ia3-short", MACHINE, target_steps=TARGET_STEPS)
    assert not (root / "artifacts").exists()
    assert not list((root / "records").glob("rewire-20261129-ia3-short-*"))


def test_an_unsteady_full_run_does_not_confirm(
    root: Path, steady: dict[str, Path], tmp_path: Path
) -> None:
    slow_tail = json.loads(steady["full"].read_text())
    half = len(slow_tail["step_ms"]) // 2
    slow_tail["step_ms"][half:] = [2000.0] * (len(slow_tail["step_ms"]) - half)
    slow_tail["launcher"]["wall_s"] = 10.0 + sum(slow_tail["step_ms"]) / 1000.0
    steady["full"].write_text(json.dumps(slow_tail))
    with pytest.raises(NotConfirmed, match="misses the full run"):
        write(list(steady.values()), root, "20261129-ia3-slow", MACHINE, target_steps=TARGET_STEPS)


def test_a_rerun_with_the_same_id_never_overwrites(root: Path, steady: dict[str, Path]) -> None:
    paths = list(steady.values())
    write(paths, root, "20261129-ia3-again", MACHINE, target_steps=TARGET_STEPS)
    with pytest.raises(RecordExists):
        write(paths, root, "20261129-ia3-again", MACHINE, target_steps=TARGET_STEPS)


def test_run_time_and_scaling_from_the_logs(steady: dict[str, Path]) -> None:
    logs = [RunLog.load(p, TARGET_STEPS) for p in steady.values()]
    full, short, two = logs
    assert run_time(full, logs).minutes == pytest.approx(full.wall_s / 60)
    extrapolated = run_time(short, logs)
    assert extrapolated.extrapolated and extrapolated.confirmed_by is full
    assert extrapolated.confirmation is not None
    assert abs(extrapolated.confirmation.relative_error) < 1e-9  # steady steps: exact
    assert scaling_efficiency(short, two) == pytest.approx(20.0 / 30.0 / 2)
    with pytest.raises(ValueError):
        scaling_efficiency(two, short)
