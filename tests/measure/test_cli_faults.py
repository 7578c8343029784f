"""`rewire measure run` on bad options, through the installed script: a clear error and a
non-zero exit, no traceback, nothing written outside the runs folder (issue 28)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from entry_point import rewire_script

PROTOCOL = "saadat-fellay-20261015-protocol-training-peak-memory"
BLOCKED = ("torch", "transformers", "peft", "deepspeed", "flash_attn")


def _measure(*args: str, cwd: Path) -> tuple[int, str]:
    done = subprocess.run(
        [rewire_script(), "measure", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.returncode, " ".join((done.stdout + done.stderr).replace("│", " ").split())


def _everything(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("gpus", ["abc", "0,x", "-1"])
def test_gpus_that_are_not_indices_are_a_usage_error(tmp_path: Path, gpus: str) -> None:
    """`--gpus abc` gave a ValueError traceback."""
    code, output = _measure("run", PROTOCOL, "--dry-run", "--gpus", gpus, cwd=tmp_path)
    assert code == 2, output
    assert "Traceback" not in output
    assert "is not a GPU index" in output
    assert _everything(tmp_path) == []


@pytest.mark.parametrize("run_id", ["../../x", "../escape", "Run_1", "a" * 201])
def test_a_run_id_that_breaks_the_id_rule_is_refused(tmp_path: Path, run_id: str) -> None:
    """`--run-id ../../x` wrote run.json two folders above runs/."""
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    code, output = _measure("run", PROTOCOL, "--run-id", run_id, "--dry-run", cwd=work)
    assert code == 2, output
    assert "Traceback" not in output
    assert "run id" in output
    assert _everything(tmp_path) == ["a", "a/b"]


def test_ia3_records_refuse_a_run_id_that_breaks_the_id_rule(tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    log.write_text("{}", encoding="utf-8")
    code, output = _measure(
        "ia3-records", str(log), "--run-id", "../../x", "--machine", "m", cwd=tmp_path
    )
    assert code == 2, output
    assert "Traceback" not in output and "not a slug" in output
    assert _everything(tmp_path) == ["log.json"]


@pytest.mark.parametrize(
    "protocol",
    [
        PROTOCOL,
        "rewire-20261130-protocol-gpu-memory-curves",
        "evidence-20261130-protocol-hyenadna-colab-gpu-fit",
        "gfm-guide-20261014-protocol-nt-ia3-finetune-runtime",
    ],
)
def test_records_only_of_an_unknown_run_is_an_error(tmp_path: Path, protocol: str) -> None:
    """It exited 0 with '0 record file(s) written'."""
    options = ["--run-id", "no-such-run", "--records-only", "--device", "cpu"]
    # a budget of 0 s: without the check, the IA3 recipe would launch its runs
    code, output = _measure("run", protocol, *options, "--time-budget", "0", cwd=tmp_path)
    assert code == 1, output
    assert "Traceback" not in output
    assert "no run 'no-such-run'" in output
    assert _everything(tmp_path) == []


def test_every_measure_test_collects_without_the_measure_extras() -> None:
    """Without torch (and the other measure extras) each module is skipped with a reason;
    none fails at collection (test_hyenadna.py did)."""
    tests = Path(__file__).parent
    blocker = (
        "import sys\n"
        f"for name in {BLOCKED!r}: sys.modules[name] = None\n"
        "import pytest\n"
        "sys.exit(pytest.main(sys.argv[1:]))\n"
    )
    options = ["--collect-only", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", "-n", "0"]
    done = subprocess.run(
        [sys.executable, "-c", blocker, *options, str(tests)],
        cwd=tests.parents[1],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "error" not in done.stdout.splitlines()[-1], done.stdout[-3000:]
