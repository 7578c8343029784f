"""`rewire measure` through the real entry point (the rewire Typer app)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rewire_site.cli import app

PROTOCOL = "saadat-fellay-20261015-protocol-training-peak-memory"
TINY_RECIPE = Path(__file__).parent / "fixtures" / "tiny_recipe.yaml"


def test_list_shows_the_runnable_protocol() -> None:
    result = CliRunner().invoke(app, ["measure", "list"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert PROTOCOL in result.output
    assert "training-peak-memory" in result.output


def test_dry_run_prints_the_plan_with_estimates(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "measure",
            "run",
            PROTOCOL,
            "--dry-run",
            "--models",
            "nt-2-5b",
            "--stages",
            "checkpointing",
            "--settings",
            "bf16-fp32-states-full-1000tok",
            "--runs-dir",
            str(tmp_path),
        ],
        terminal_width=200,
    )
    assert result.exit_code == 0, result.output
    assert "NT 2.5B, + activation checkpointing, bf16-fp32-states-full-1000tok" in result.output
    assert "1 runnable items" in result.output
    assert not any(tmp_path.iterdir())  # a dry run writes nothing


def test_unknown_protocol_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["measure", "run", "no-such-protocol", "--dry-run"])
    assert result.exit_code == 2
    assert "no recipe for 'no-such-protocol'" in result.output


def test_unknown_setting_is_a_usage_error() -> None:
    result = CliRunner().invoke(
        app, ["measure", "run", PROTOCOL, "--dry-run", "--settings", "precision=fp8"]
    )
    assert result.exit_code == 2
    assert "precision has no value 'fp8'" in result.output


@pytest.mark.slow
def test_an_interrupted_run_resumes_and_keeps_finished_stages(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    args = [
        "measure",
        "run",
        PROTOCOL,
        "--recipe",
        str(TINY_RECIPE),
        "--device",
        "cpu",
        "--runs-dir",
        str(tmp_path),
        "--run-id",
        "r1",
        "--no-records",
        "--models",
        "tiny-esm",
        "--settings",
        "bf16-full-1000nt",
    ]
    first = CliRunner().invoke(app, [*args, "--stages", "baseline"], terminal_width=200)
    assert first.exit_code == 0, first.output
    log = tmp_path / "r1" / "logs" / "tiny-esm--baseline--bf16-full-1000nt.json"
    before = log.read_bytes()
    assert json.loads(before)["status"] == "value"
    second = CliRunner().invoke(
        app, [*args, "--stages", "baseline,flashattention"], terminal_width=200
    )
    assert second.exit_code == 0, second.output
    assert "1 finished already, 1 to run" in second.output
    assert log.read_bytes() == before
    assert (tmp_path / "r1" / "logs" / "tiny-esm--flashattention--bf16-full-1000nt.json").exists()


MEASURE = Path(__file__).resolve().parents[2] / "measure"


def _flat(output: str) -> str:
    """The text of a usage error, out of rich's box (its borders and line breaks)."""
    return " ".join(output.replace("│", " ").split())


PER_RANK = {"ia3/worker.py"}
"""The one standard-library command line left in measure/: the per-rank entry point that
torchrun starts (`launch.torchrun_command` writes its options; no person types them)."""


def test_measure_has_one_command_line_for_people() -> None:
    """Every command a person runs is a `rewire measure` (Typer) command: the IA3 launcher
    and the HyenaDNA device driver were argparse command lines of their own."""
    import ast

    argparse_users = sorted(
        str(path.relative_to(MEASURE))
        for path in MEASURE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom)
        and any(
            (alias.name if isinstance(node, ast.Import) else node.module or "") == "argparse"
            for alias in node.names
        )
    )
    assert set(argparse_users) == PER_RANK, argparse_users
    for script in sorted(MEASURE.rglob("*.sh")):
        text = script.read_text(encoding="utf-8")
        assert "-m measure.ia3.launch" not in text and "-m measure.hyenadna.device" not in text


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("nt-500m:3:1000", "3 GPUs cannot share a global batch of 8 evenly"),
        ("nt-500m:two:1000", "GPUS and STEPS must be whole numbers"),
        ("nt-500m:1000", "is not ARCH:GPUS:STEPS"),
        ("nt-500m:1:10", "must exceed warm-up"),
    ],
)
def test_ia3_launch_refuses_a_bad_setup_before_starting(
    setup: str, message: str, tmp_path: Path
) -> None:
    result = CliRunner().invoke(
        app, ["measure", "ia3-launch", setup, "--out", str(tmp_path)], terminal_width=200
    )
    assert result.exit_code == 2, result.output
    assert message in _flat(result.output)
    assert not any(tmp_path.iterdir())


def test_ia3_launch_refuses_an_unknown_compile_mode(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["measure", "ia3-launch", "nt-500m:1:1000", "--out", str(tmp_path), "--compile", "max"],
        terminal_width=200,
    )
    assert result.exit_code == 2
    assert "use one of none, default, reduce-overhead" in _flat(result.output)


@pytest.mark.slow
def test_ia3_launch_runs_a_setup_through_torchrun_on_the_cpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("peft")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    result = CliRunner().invoke(
        app,
        [
            "measure", "ia3-launch", "tiny-esm:1:10", "--out", str(tmp_path),
            "--compile", "none", "--warmup", "5", "--seed", "3",
        ],
        terminal_width=200,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    log = json.loads((tmp_path / "tiny-esm-1gpu-10steps.json").read_text())
    launcher = log["launcher"]
    assert launcher["setup"]["seed"] == 3 and launcher["setup"]["compile"] == "none"
    assert launcher["wall_s"] > 0 and launcher["returncode"] == 0
    assert "DONE tiny-esm-1gpu-10steps" in result.output


HYENADNA_TINY = Path(__file__).parent / "fixtures" / "hyenadna_tiny.yaml"


def test_hyenadna_device_names_an_unknown_protocol_key(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["measure", "hyenadna-device", str(tmp_path / "run"), "nope", "--device", "cpu"],
        terminal_width=200,
    )
    assert result.exit_code == 2
    assert "no protocol 'nope' (known: colab-fit, checkpointing, train-1m, speedup)" in (
        _flat(result.output)
    )
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_hyenadna_device_runs_a_protocol_on_the_cpu(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    run = tmp_path / "20261201-hyenadna-cli"
    result = CliRunner().invoke(
        app,
        [
            "measure", "hyenadna-device", str(run), "colab-fit", "--device", "cpu",
            "--recipe", str(HYENADNA_TINY), "--budget", "300",
        ],
        terminal_width=200,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "colab-fit: exit 0" in result.output
    logs = sorted(p.name for p in (run / "logs").glob("*.json"))
    assert logs and all(n.startswith("colab-fit--") for n in logs)
    spec = json.loads((run / "specs" / "colab-fit.json").read_text())
    assert spec["command"] == (
        f"rewire measure hyenadna-device {run} colab-fit --budget 300 --device cpu "
        f"--recipe {HYENADNA_TINY}"
    )
