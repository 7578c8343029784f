"""The distributed worker, started by real torchrun with 2 processes on the CPU (gloo)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_two_process_run_shares_the_global_batch(ia3_cpu_logs: dict[str, Path]) -> None:
    log = json.loads(ia3_cpu_logs["two"].read_text())
    s = log["settings"]
    assert (s["world_size"], s["per_gpu_batch"], s["global_batch"]) == (2, 4, 8)
    assert s["backend"] == "gloo" and s["ddp"] is True
    assert s["tokens_per_sequence"] == 101
    assert len(log["step_ms"]) == 20 and all(t > 0 for t in log["step_ms"])
    assert [r["rank"] for r in log["ranks"]] == [0, 1]
    params = log["parameters"]
    assert params["trainable"] == params["adapters"] + params["head"]
    assert params["adapters"] == 2 * (2 * 32 + 64)
    assert log["environment"]["gpu_count"] == 2
    assert log["launcher"]["wall_s"] > sum(log["step_ms"]) / 1000.0
    assert "torch.distributed.run" in log["launcher"]["command"]
    assert log["loss"][0][0] == 1 and log["loss"][-1][0] == 20


def test_one_process_run_uses_no_ddp(ia3_cpu_logs: dict[str, Path]) -> None:
    log = json.loads(ia3_cpu_logs["full"].read_text())
    assert log["settings"]["ddp"] is False
    assert log["settings"]["per_gpu_batch"] == 8
    assert len(log["ranks"]) == 1


def test_three_processes_are_refused(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    command = [
        sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "3",
        "-m", "measure.ia3.worker", "--arch", "tiny-esm", "--steps", "8", "--warmup", "2",
        "--rows", "16", "--log-file", str(tmp_path / "log.json"),
    ]  # fmt: skip
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode != 0
    assert "not divisible by 3 processes" in done.stdout + done.stderr
    assert not (tmp_path / "log.json").exists()
