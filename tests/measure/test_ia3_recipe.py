"""The IA3 recipe's plan, setups and torchrun command line (no GPU, no torch)."""

from __future__ import annotations

import pytest

from measure.ia3.launch import Setup, check_gpus, parse_setup, torchrun_command
from measure.ia3.recipe import PROTOCOL_ID, IA3Runtime, setups
from measure.registry import RunOptions, find


def test_recipe_is_registered_for_the_protocol() -> None:
    assert isinstance(find(PROTOCOL_ID), IA3Runtime)


@pytest.mark.parametrize("gpus", [3, 5, 6, 7, 0])
def test_gpu_counts_that_do_not_divide_8_are_refused(gpus: int) -> None:
    with pytest.raises(ValueError, match="cannot share a global batch of 8"):
        check_gpus(gpus)
    with pytest.raises(ValueError):
        Setup(arch="nt-500m", gpus=gpus)


def test_plan_on_two_gpus_is_both_models_on_one_and_two_all_full_length() -> None:
    planned = setups(RunOptions(gpus=[0, 1]))
    assert [(s.arch, s.gpus, s.steps) for s in planned] == [
        ("nt-500m", 1, 10_000),
        ("nt-500m", 2, 10_000),
        ("nt-2-5b", 1, 10_000),
        ("nt-2-5b", 2, 10_000),
    ]
    assert len(IA3Runtime().plan(RunOptions(gpus=[0, 1]))) == 4


def test_short_runs_get_full_runs_of_the_confirmed_setups_first() -> None:
    options = RunOptions(gpus=[0, 1], settings=["steps=1000", "confirm=nt-500m:1+nt-2-5b:2"])
    assert [(s.arch, s.gpus, s.steps) for s in setups(options)] == [
        ("nt-500m", 1, 10_000),
        ("nt-2-5b", 2, 10_000),
        ("nt-500m", 1, 1000),
        ("nt-500m", 2, 1000),
        ("nt-2-5b", 1, 1000),
        ("nt-2-5b", 2, 1000),
    ]
    unconfirmed = setups(RunOptions(gpus=[0, 1], settings=["steps=1000", "confirm=none"]))
    assert {s.steps for s in unconfirmed} == {1000}


def test_plan_on_eight_gpus_needs_no_new_code() -> None:
    planned = setups(RunOptions(gpus=list(range(8)), settings=["confirm=none"]))
    assert sorted({s.gpus for s in planned}) == [1, 2, 4, 8]


def test_settings_choose_steps_counts_and_levers() -> None:
    options = RunOptions(
        gpus=[0, 1], models=["nt-2-5b"], settings=["steps=10000", "counts=2", "compile=none"]
    )
    (only,) = setups(options)
    assert (only.arch, only.gpus, only.steps, only.compile) == ("nt-2-5b", 2, 10_000, "none")
    with pytest.raises(ValueError, match="use steps=N"):
        setups(RunOptions(gpus=[0], settings=["lr=1"]))
    with pytest.raises(ValueError, match="2 GPUs asked for, 1 available"):
        setups(RunOptions(gpus=[0], settings=["counts=1+2"]))
    with pytest.raises(ValueError, match="ESM"):
        setups(RunOptions(gpus=[0], models=["gena-lm-110m"]))


def test_torchrun_command_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    setup = parse_setup("nt-2-5b:2:1000", compile="default")
    command = torchrun_command(setup, tmp_path / "log.json", python="python3")
    assert command[:6] == ["python3", "-m", "torch.distributed.run", "--standalone",
                           "--nproc_per_node", "2"]  # fmt: skip
    assert command[command.index("--steps") + 1] == "1000"
    assert command[command.index("--global-batch") + 1] == "8"
    assert "--fused-adam" in command
    assert setup.key == "nt-2-5b-2gpu-1000steps"
