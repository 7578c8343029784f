"""The DeepSpeed communication knob of the peak-memory recipe (overlap_comm, bucket sizes,
the Hugging Face Trainer's 'auto'): parsing, work items, the config a ZeRO-2 stage gets,
the estimate, and the records of a ZeRO-2 stage log."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from measure.peak_memory import estimate
from measure.peak_memory.plan import estimate_item
from measure.peak_memory.recipe import (
    DEFAULT_COMM,
    RecipeError,
    Setting,
    load_recipe,
    parse_recipe,
    parse_setting_filters,
    work_items,
)

REPO = Path(__file__).resolve().parents[2]
RECIPE = REPO / "measure" / "peak_memory" / "recipe.yaml"


def _raw() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(RECIPE.read_text(encoding="utf-8"))
    return data


def test_default_comm_keeps_the_ids_of_earlier_runs() -> None:
    assert Setting("bf16", "full", "1000nt").id == "bf16-full-1000nt"
    assert Setting("bf16", "full", "1000nt", "overlap").id == "bf16-full-1000nt-overlap"
    recipe = load_recipe()
    keys = {i.key for i in work_items(recipe)}
    assert "nt-2-5b--deepspeed--bf16-full-1000tok" in keys
    assert "gena-lm-110m--deepspeed--bf16-full-512tok-overlap" in keys


def test_comm_values_reach_only_the_zero2_stage() -> None:
    recipe = load_recipe()
    items = work_items(recipe)
    off_default = [i for i in items if i.setting.comm != DEFAULT_COMM]
    assert off_default, "the shipped sweep measures the comm settings"
    assert {i.stage.id for i in off_default} == {"deepspeed"}
    assert {i.setting.comm for i in off_default} == {
        "overlap",
        "hf-zero2-example",
        "hf-auto",
        "small-buckets",
    }
    # every combination through --settings: still only ZeRO-2 items carry a comm value
    chosen = work_items(recipe, settings=["precision=bf16,update=full,comm=overlap"])
    assert chosen and {i.stage.id for i in chosen} == {"deepspeed"}
    assert {i.setting.length for i in chosen} == {"1000nt", "1000tok", "512tok"}


def test_a_filter_without_comm_means_deepspeed_defaults() -> None:
    recipe = load_recipe()
    [chosen] = parse_setting_filters(["precision=bf16,update=full"], recipe)
    assert chosen["comm"] == DEFAULT_COMM
    items = work_items(recipe, stages=["deepspeed"], settings=["precision=bf16,update=full"])
    assert {i.setting.comm for i in items} == {DEFAULT_COMM}
    with pytest.raises(RecipeError, match="comm has no value 'fast'"):
        parse_setting_filters(["comm=fast"], recipe)


def test_deepspeed_config_of_each_comm_value() -> None:
    recipe = load_recipe()
    default = recipe.deepspeed_for("ds-default", 768)["zero_optimization"]
    assert default["overlap_comm"] is False
    assert default["reduce_bucket_size"] == 500_000_000
    overlap = recipe.deepspeed_for("overlap", 768)["zero_optimization"]
    assert overlap["overlap_comm"] is True
    assert overlap["reduce_bucket_size"] == 500_000_000
    example = recipe.deepspeed_for("hf-zero2-example", 768)["zero_optimization"]
    assert (example["reduce_bucket_size"], example["allgather_bucket_size"]) == (2e8, 2e8)
    auto_gena = recipe.deepspeed_for("hf-auto", 768)["zero_optimization"]
    auto_nt = recipe.deepspeed_for("hf-auto", 2560)["zero_optimization"]
    assert auto_gena["reduce_bucket_size"] == 768 * 768
    assert auto_nt["reduce_bucket_size"] == 2560 * 2560
    assert auto_nt["offload_optimizer"] == {"device": "cpu", "pin_memory": True}
    # the recipe's own block is not changed by a lookup
    assert recipe.deepspeed["zero_optimization"]["overlap_comm"] is False
    with pytest.raises(RecipeError, match="no value 'fast'"):
        recipe.deepspeed_for("fast", 768)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["comm_settings"].pop("hf-auto"),
            "comm_settings.hf-auto: required for knobs.comm.hf-auto",
        ),
        (
            lambda d: d["comm_settings"]["overlap"]["zero_optimization"].update(stage=3),
            "comm_settings.overlap.zero_optimization.stage: not a communication setting",
        ),
        (
            lambda d: d["comm_settings"]["overlap"]["zero_optimization"].update(
                allgather_bucket_size="auto"
            ),
            "comm_settings.overlap.zero_optimization.allgather_bucket_size: 'auto' is filled",
        ),
        (
            lambda d: d["comm_settings"]["overlap"]["zero_optimization"].update(overlap_comm="yes"),
            "comm_settings.overlap.zero_optimization.overlap_comm: expected bool",
        ),
        (
            lambda d: d["comm_settings"]["overlap"]["zero_optimization"].update(
                reduce_bucket_size=-1
            ),
            "reduce_bucket_size: expected a positive number of elements or 'auto'",
        ),
        (
            lambda d: d["comm_settings"].update(fast={"zero_optimization": {}}),
            "comm_settings: value\\(s\\) fast not in knobs.comm",
        ),
        (
            lambda d: d["sweep"][-1].update(comm=["fast"]),
            "sweep.7.comm: unknown value\\(s\\) fast",
        ),
    ],
)
def test_bad_comm_settings_are_named(change: Any, message: str) -> None:
    data = copy.deepcopy(_raw())
    change(data)
    with pytest.raises(RecipeError, match=message):
        recipe = parse_recipe(data)
        recipe.deepspeed_for("overlap", 768)


def test_recipes_without_comm_still_parse() -> None:
    data = _raw()
    del data["comm_settings"]
    del data["knobs"]["comm"]
    data["sweep"] = [s for s in data["sweep"] if "comm" not in s]
    recipe = parse_recipe(data)
    assert list(recipe.knobs["comm"]) == [DEFAULT_COMM]
    assert recipe.deepspeed_for(DEFAULT_COMM, 768) == recipe.deepspeed


def test_overlap_doubles_the_bucket_in_the_estimate() -> None:
    one = estimate.model_state_floor(
        total_params=110_000_000,
        trainable_params=110_000_000,
        precision="bf16",
        zero2_offload=True,
        reduce_bucket_size=500_000_000,
    )
    two = estimate.model_state_floor(
        total_params=110_000_000,
        trainable_params=110_000_000,
        precision="bf16",
        zero2_offload=True,
        reduce_bucket_size=500_000_000,
        overlap_comm=True,
    )
    # the second bucket is allocated whole (5e8 elements at 2 bytes), as measured on
    # GENA-LM 110M: 1.54 GB with one bucket, 2.54 with two
    assert two.value_gb - one.value_gb == pytest.approx(1.0)
    assert "two gradient reduce buckets" in two.method
    recipe = load_recipe()
    items = {
        i.setting.comm: i
        for i in work_items(recipe, models=["nt-2-5b"], stages=["deepspeed"])
        if (i.setting.length, i.setting.precision, i.setting.update) == ("1000nt", "bf16", "full")
    }
    gb = {comm: estimate_item(recipe, item)[0] for comm, item in items.items()}
    assert gb["overlap"] == pytest.approx(gb["ds-default"] + 1.0, abs=1e-6)
    assert gb["hf-auto"] < gb["hf-zero2-example"] < gb["overlap"]


def test_describe_names_comm_only_for_zero2() -> None:
    recipe = load_recipe()
    setting = Setting("bf16", "full", "1000nt", "hf-auto").as_dict()
    assert "Hugging Face" in recipe.describe_values(setting, zero2=True)
    assert "Hugging Face" not in recipe.describe_values(setting)
    older = {"precision": "bf16", "update": "full", "length": "1000nt"}
    assert "overlap_comm false" in recipe.describe_values(older, zero2=True)


torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from measure.peak_memory.published import published_values  # noqa: E402
from measure.peak_memory.records import build_records  # noqa: E402
from measure.peak_memory.worker import run_stage  # noqa: E402
from measure.records import store_artifact, write_records  # noqa: E402

NEEDED = (
    "saadat-fellay-20261015-protocol-training-peak-memory",
    "saadat-fellay-20261015-dataset-synthetic-uniform-random-dna-seed-42",
    "saadat-fellay-20261015-source-optimizing-genomic-language-models",
    "saadat-fellay-20261015-family-gena-lm",
    "saadat-fellay-20261015-config-gena-lm-110m-training-flashattention-checkpointing-zero2",
    "saadat-fellay-20261015-eval-gena-lm-110m-training-peak-memory-flashattention-checkpointing-zero2",
)


def test_zero2_records_carry_the_comm_setting(tiny_spec: Any, tmp_path: Path) -> None:
    """A CPU stage log given what the ZeRO-2 worker adds (its stage, the DeepSpeed config
    of the comm value, GPU allocator readings): the records name the comm setting, its
    overlap and bucket sizes, validate and reproduce the printed ZeRO-2 value."""
    (tmp_path / "records").mkdir()
    for record_id in NEEDED:
        source = REPO / "records" / f"{record_id}.yaml"
        if not source.exists():
            pytest.skip(f"catalogue record {record_id} not present")
        shutil.copy(source, tmp_path / "records")
    recipe = load_recipe()
    spec = tiny_spec("tiny-gena", "checkpointing")
    log = run_stage(spec)
    assert log["status"] == "value", log["error"]
    log["stage"] = recipe.stage("deepspeed").__dict__
    log["features"]["zero2_offload"] = True
    log["setting"] = Setting("bf16", "full", "1000nt", "hf-auto").as_dict()
    log["item"] = "gena-lm-110m--deepspeed--bf16-full-1000nt-hf-auto"
    log["deepspeed_config"] = recipe.deepspeed_for("hf-auto", 768)
    log["model"].update(key="gena-lm-110m", name="GENA-LM 110M")
    log["memory"].update(
        peak_allocated_bytes=2_540_000_000,
        peak_reserved_bytes=3_000_000_000,
        model_states_allocated_bytes=250_000_000,
    )
    log["environment"].update(gpu="NVIDIA H200", gpu_memory_gb=150.0)
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    stored = store_artifact(path, tmp_path, log["run_id"], "gena--deepspeed.json")
    artifact = {"path": stored.path, "sha256": stored.sha256, "description": "raw log"}
    published = published_values(tmp_path, recipe.protocol).get(("GENA-LM 110M", "deepspeed"))
    assert published is not None and published.printed_value == "2.49"
    family = "saadat-fellay-20261015-family-gena-lm"
    log["environment"]["git_commit"] = "feedface+dirty"
    commit = "0123456789abcdef0123456789abcdef01234567"
    records = build_records(
        recipe, log, artifact, published, family, git_commit=commit, note="Two per GPU."
    )
    written = write_records(records, tmp_path)
    evaluation = yaml.safe_load(written[1].read_text())
    settings = evaluation["settings"]
    assert settings["deepspeed_communication"] == "hf-auto"
    assert settings["overlap_comm"] == "true"
    assert settings["reduce_bucket_size"] == f"{768 * 768:,}"
    assert settings["allgather_bucket_size"] == "200,000,000"
    assert "DeepSpeed comm hf-auto" in evaluation["title"]
    assert 'Hugging Face Trainer\'s "auto" reduce bucket' in evaluation["comparison"]["adaptation"]
    assert evaluation["reproduces"] == published.evaluation_id
    assert evaluation["environment"]["git_commit"] == commit
    assert "feedface+dirty" in evaluation["environment"]["note"]
    assert evaluation["environment"]["note"].endswith("Two per GPU.")
