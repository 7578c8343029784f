"""`rewire measure` killed mid-stage and resumed, on the CPU torch build with the tiny
recipe (issue 12, item 10): the killed runner takes its stage process with it, the resume
keeps the finished stage's log byte for byte and runs the cut-off stage again, a second
runner never shares a run folder, and a folder `rewire measure` did not make is refused."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROTOCOL = "saadat-fellay-20261015-protocol-training-peak-memory"
TINY_RECIPE = Path(__file__).parent / "fixtures" / "tiny_recipe.yaml"
TIMEOUT = 300.0
FIRST = "tiny-esm--baseline--bf16-full-1000nt"
SECOND = "tiny-esm--flashattention--bf16-full-1000nt"


def _command(runs: Path, run_id: str = "r1") -> list[str]:
    return [
        sys.executable, "-c", "from rewire_site.cli import main; main()",
        "measure", "run", PROTOCOL, "--recipe", str(TINY_RECIPE), "--device", "cpu",
        "--runs-dir", str(runs), "--run-id", run_id, "--no-records", "--models", "tiny-esm",
        "--settings", "bf16-full-1000nt", "--stages", "baseline,flashattention",
    ]  # fmt: skip


def _wait_for(condition: object, process: subprocess.Popen[str], what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():  # type: ignore[operator]
        assert process.poll() is None, f"the run ended before {what}"
        assert time.monotonic() < deadline, f"no {what} in {TIMEOUT:.0f} s"
        time.sleep(0.05)


@pytest.mark.slow
def test_a_run_killed_mid_stage_leaves_no_stage_running_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    psutil = pytest.importorskip("psutil")
    run = tmp_path / "r1"
    first_log, second_log = run / "logs" / f"{FIRST}.json", run / "logs" / f"{SECOND}.json"
    runner = subprocess.Popen(_command(tmp_path), cwd=REPO, text=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        _wait_for(first_log.exists, runner, "log of the first stage")
        _wait_for((run / "specs" / f"{SECOND}.json").exists, runner, "start of the second stage")
        # The runner writes the stage's spec, then starts its process: wait for the process
        # (the second stage runs in its own process, a child of the runner).
        _wait_for(lambda: psutil.Process(runner.pid).children(recursive=True), runner,
                  "process of the second stage")  # fmt: skip
        stages = psutil.Process(runner.pid).children(recursive=True)
        assert not second_log.exists(), "the second stage ended before it could be killed"
        # A second runner on the same run folder is refused while the first holds it.
        second = subprocess.run(_command(tmp_path), cwd=REPO, capture_output=True, text=True,
                                timeout=TIMEOUT, check=False)  # fmt: skip
        assert second.returncode == 2, second.stdout + second.stderr
        assert "run r1 is in progress in another process" in second.stdout.replace("\n", " ")
        runner.send_signal(signal.SIGKILL)  # the runner only, as the OOM killer would
        runner.wait(timeout=TIMEOUT)
        _, alive = psutil.wait_procs(stages, timeout=20)
        assert not alive, f"stage processes outlived the killed runner: {alive}"
    finally:
        if runner.poll() is None:
            runner.kill()
    before = first_log.read_bytes()
    assert json.loads(before)["status"] == "value"
    assert not second_log.exists(), "the cut-off stage left a log"
    resumed = subprocess.run(_command(tmp_path), cwd=REPO, capture_output=True, text=True,
                             timeout=TIMEOUT, check=False)  # fmt: skip
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "1 finished already, 1 to run" in resumed.stdout.replace("\n", " ")
    assert first_log.read_bytes() == before
    assert json.loads(second_log.read_text())["status"] == "value"
    assert [p.name for p in (run / "logs").iterdir() if p.suffix != ".json"] == []


def test_a_folder_measure_did_not_make_is_never_written_into(tmp_path: Path) -> None:
    folder = tmp_path / "r1"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    done = subprocess.run(_command(tmp_path), cwd=REPO, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert "not a run folder of rewire measure" in done.stdout.replace("\n", " ")
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]


def test_an_artifact_that_appears_during_the_copy_is_never_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another run stores a different log under the same name while this copy runs: its
    file stays, and this store says so (old: the copy was renamed over it)."""
    import shutil

    from measure import records
    from measure.records import RecordExists, artifact_path, store_artifact

    source = tmp_path / "log.txt"
    source.write_text("this run")
    target = tmp_path / artifact_path("r1", "log.txt")
    real_copy = shutil.copyfile

    def copy_then_race(src: Path, dst: Path) -> object:
        done = real_copy(src, dst)
        target.write_text("another run")  # lands between the copy and its move into place
        return done

    monkeypatch.setattr(records.shutil, "copyfile", copy_then_race)
    with pytest.raises(RecordExists, match="exists with other content"):
        store_artifact(source, tmp_path, "r1", "log.txt")
    assert target.read_text() == "another run"
    assert [p.name for p in target.parent.iterdir()] == ["log.txt"]
