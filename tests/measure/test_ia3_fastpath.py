"""The IA3 fast path and what its records say: CUDA graphs by default, the per-step loss
trace that compares compile modes and GPU counts, the compile cache folder, start-up time,
and the commit a device run names. Real CPU runs through torchrun (gloo)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml
from ia3_runs import TARGET_STEPS, steady_copy

from measure.ia3.evidence import RunLog
from measure.ia3.launch import Setup, cache_environment, parse_setup, torchrun_command
from measure.ia3.observations import loss_check, start_up_seconds
from measure.ia3.recipe import (
    STARTUP_S,
    STARTUP_WARM_S,
    STEP_MS_CUDA_GRAPHS,
    estimated_seconds,
    setups,
)
from measure.ia3.records import write
from measure.records import resolve_commit
from measure.registry import RunOptions

REPO = Path(__file__).resolve().parents[2]
MACHINE = "a CPU test host"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def test_reduce_overhead_is_the_default_everywhere(tmp_path: Path) -> None:
    setup = Setup(arch="nt-2-5b", gpus=1)
    assert setup.compile == "reduce-overhead"
    assert parse_setup("nt-500m:2:1000").compile == "reduce-overhead"
    command = torchrun_command(setup, tmp_path / "log.json")
    assert command[command.index("--compile") + 1] == "reduce-overhead"
    planned = setups(RunOptions(gpus=[0, 1]))
    assert {s.compile for s in planned} == {"reduce-overhead"}
    full = next(s for s in planned if (s.arch, s.gpus) == ("nt-2-5b", 1))
    assert estimated_seconds(full) == pytest.approx(
        STARTUP_S + 10_000 * STEP_MS_CUDA_GRAPHS[("nt-2-5b", 1)] / 1000
    )
    chosen = setups(RunOptions(gpus=[0], settings=["compile=default", "cache=/tmp/cc"]))
    assert {(s.compile, s.cache_dir) for s in chosen} == {("default", "/tmp/cc")}
    with pytest.raises(ValueError, match="compile is reduce-overhead, default or none"):
        setups(RunOptions(gpus=[0], settings=["compile=fast"]))


def test_a_warm_cache_folder_shortens_the_planned_start_up(tmp_path: Path) -> None:
    cache = tmp_path / "cc"
    cold = Setup(arch="nt-2-5b", gpus=1, cache_dir=str(cache))
    steps = 10_000 * STEP_MS_CUDA_GRAPHS[("nt-2-5b", 1)] / 1000
    assert estimated_seconds(cold) == pytest.approx(STARTUP_S + steps)  # no folder yet
    (cache / "fxgraph").mkdir(parents=True)
    assert estimated_seconds(cold) == pytest.approx(STARTUP_S + steps)  # empty folders
    (cache / "fxgraph" / "entry").write_bytes(b"x")
    assert estimated_seconds(cold) == pytest.approx(STARTUP_WARM_S + steps)
    assert estimated_seconds(cold) < 5 * 60  # the goal, as planned


def test_the_cache_folder_holds_every_compile_cache(tmp_path: Path) -> None:
    assert cache_environment(None) == {}
    env = cache_environment(str(tmp_path / "cc"))
    assert env["TORCHINDUCTOR_CACHE_DIR"] == str((tmp_path / "cc").resolve())
    assert env["TRITON_CACHE_DIR"] == str((tmp_path / "cc" / "triton").resolve())
    assert env["TORCHINDUCTOR_FX_GRAPH_CACHE"] == env["TORCHINDUCTOR_AUTOGRAD_CACHE"] == "1"


def test_a_commit_is_replaced_only_where_the_log_could_not_name_the_code() -> None:
    assert resolve_commit("abc123", COMMIT) == ("abc123", None)
    assert resolve_commit("abc123+dirty", None) == ("abc123+dirty", None)
    assert resolve_commit("unknown (no .git)", COMMIT) == (COMMIT, None)
    commit, note = resolve_commit("abc123+dirty", COMMIT)
    assert commit == COMMIT
    assert note is not None and "abc123+dirty" in note and COMMIT in note


@pytest.mark.slow
def test_the_loss_trace_compares_runs_step_by_step(
    ia3_cpu_logs: dict[str, Path],
) -> None:
    full, short, two = (
        RunLog.load(ia3_cpu_logs[k], TARGET_STEPS) for k in ("full", "short", "two")
    )
    assert len(full.data["loss_trace"]) == TARGET_STEPS  # every step traced (fewer than 200)
    assert len(two.data["loss_trace"]) == 20
    assert "mean over the 2 rank(s)" in two.data["loss_trace_note"]
    # the same program, seed and batches on the CPU: the same losses
    same = loss_check(short, full, "rerun")
    assert same is not None and same.steps == 20
    assert same.max_difference == pytest.approx(0.0, abs=1e-6)
    # two processes each average half the batch; their mean is the one process's loss
    split = loss_check(two, full, "one-process")
    assert split is not None
    assert split.first_step < 0.05 * abs(full.data["loss_trace"][0])
    assert loss_check(full, full, "self") is None
    # the worker reports the cache folder it ran with (none set by the launcher here)
    assert full.data["compile_cache"]["dir"] == os.environ.get("TORCHINDUCTOR_CACHE_DIR")


@pytest.mark.slow
def test_records_carry_loss_checks_start_up_and_the_commit(
    ia3_cpu_logs: dict[str, Path],
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    shutil.copytree(REPO / "records", root / "records")
    full = steady_copy(ia3_cpu_logs["full"], tmp_path / "logs", 20.0, startup_s=12.0)
    data = json.loads(full.read_text())
    data["environment"]["git_commit"] = "feedface+dirty"
    data["settings"]["compile"] = "reduce-overhead"
    data["compile_cache"] = {
        "dir": "/tmp/cc",
        "files_at_start": 725,
        "state": "warm",
        "fx_graph_cache": "1",
        "autograd_cache": "1",
    }
    full.write_text(json.dumps(data))
    reference = ia3_cpu_logs["short"]
    written = write(
        [full],
        root,
        "20261130-ia3-test",
        MACHINE,
        target_steps=TARGET_STEPS,
        git_commit=COMMIT,
        loss_checks=[("compile-default", reference)],
    )
    evaluation = yaml.safe_load(
        next(p for p in written if "-eval-" in p.name).read_text(encoding="utf-8")
    )
    observations = {o["name"]: o for o in evaluation["results"][0]["observations"]}
    log = RunLog.load(full, TARGET_STEPS)
    assert observations["start-up-and-teardown-time"]["value"] == pytest.approx(
        round(start_up_seconds(log), 2)
    )
    assert start_up_seconds(log) == pytest.approx(12.0 + 0.5)  # wall minus steps 2..N
    assert observations["loss-max-difference-vs-compile-default"]["unit"] == "nat"
    check = loss_check(log, RunLog.load(reference, TARGET_STEPS), "compile-default")
    assert check is not None
    assert observations["loss-mean-difference-vs-compile-default"]["value"] == pytest.approx(
        round(check.mean_difference, 6)
    )
    assert any(a["path"].endswith(reference.name) for a in evaluation["artifacts"])
    assert evaluation["settings"]["compile_cache"].startswith("warm: 725 files")
    assert evaluation["settings"]["cuda_graphs"] == "yes"
    assert evaluation["environment"]["git_commit"] == COMMIT
    assert "feedface+dirty" in evaluation["environment"]["note"]
