"""Real CPU runs of the IA3 worker through torchrun (gloo), shared by the ia3 tests."""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import pytest

from measure.ia3.launch import Setup, launch

TARGET_STEPS = 40
"""Full length in these tests (10,000 in the protocol)."""
ROWS = ["--rows", "64"]


@pytest.fixture(scope="session")
def ia3_cpu_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Merged logs of a full-length run, a short run of the same setup and a 2-process run."""
    pytest.importorskip("torch")
    pytest.importorskip("peft")
    out = tmp_path_factory.mktemp("ia3-runs")
    previous = os.environ.get("CUDA_VISIBLE_DEVICES")
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
    before = signal.getsignal(signal.SIGTERM)
    try:
        logs = {
            key: launch(
                Setup(arch="tiny-esm", gpus=gpus, steps=steps, warmup=5, compile="none"),
                out,
                extra_args=ROWS,
                echo=False,
            )
            for key, gpus, steps in (
                ("full", 1, TARGET_STEPS),
                ("short", 1, 20),
                ("two", 2, 20),
            )
        }
    finally:
        if previous is None:
            os.environ.pop("CUDA_VISIBLE_DEVICES", None)
        else:
            os.environ["CUDA_VISIBLE_DEVICES"] = previous
    # the launcher's SIGTERM handler (it ends torchrun) is not left behind: inherited by
    # the render pool's workers later in this process, it hung a build
    assert signal.getsignal(signal.SIGTERM) is before
    return logs


def steady_copy(
    log: Path, out: Path, step_ms: float, startup_s: float = 10.0, steps: int | None = None
) -> Path:
    """A copy of a real run's log with steady step times and a matching wall time.

    CPU step times on a shared test host are noise; record-writing tests need logs whose
    extrapolation check has a known outcome, so the timings are set here and the rest of
    the log (settings, parameters, environment, memory) stays as the real run wrote it.
    `steps` lengthens the copy (a full-length run of the same setup, without running it).
    """
    data = json.loads(log.read_text())
    stdout = log.with_name(data["launcher"]["stdout_file"])
    name = log.name
    if steps is not None:
        name = log.name.replace(f"-{data['settings']['steps']}steps", f"-{steps}steps")
        data["settings"]["steps"] = steps
        data["launcher"]["stdout_file"] = name.replace(".json", ".stdout.txt")
    count = steps or len(data["step_ms"])
    data["step_ms"] = [500.0] + [step_ms] * (count - 1)
    data["launcher"]["wall_s"] = startup_s + sum(data["step_ms"]) / 1000.0
    out.mkdir(parents=True, exist_ok=True)
    target = out / name
    target.write_text(json.dumps(data))
    shutil.copyfile(stdout, out / data["launcher"]["stdout_file"])
    return target
