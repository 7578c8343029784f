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
