"""Published efficiency claims (`measure/memory_curve/claims/`): each file is a recipe of the
memory-curve runner and worker with fixed token lengths, a weight precision and a device;
each plans with estimates, names its protocol record, and runs at a tiny size on the CPU
build of torch."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from measure.memory_curve.recipe import (
    CLAIMS_DIR,
    RecipeError,
    estimate_point,
    load_recipe,
    parse_recipe,
    points,
)
from measure.memory_curve.runner import claim_recipes
from measure.registry import RunOptions, find

REPO = Path(__file__).resolve().parents[2]
TINY = Path(__file__).parent / "fixtures" / "tiny_claim_cpu.yaml"


def _tiny() -> dict[str, Any]:
    return copy.deepcopy(yaml.safe_load(TINY.read_text(encoding="utf-8")))


def test_every_claim_file_is_a_registered_recipe_of_a_protocol_record() -> None:
    claims = claim_recipes()
    assert claims, "no claim recipe in measure/memory_curve/claims/"
    for recipe in claims:
        assert find(recipe.protocol_id).id == recipe.id
        record = yaml.safe_load((REPO / "records" / f"{recipe.protocol_id}.yaml").read_text())
        assert record["recipe"]["id"] == recipe.id
        assert record["recipe"]["command"].endswith(recipe.protocol_id)


def test_every_claim_plans_its_declared_reading_with_estimates() -> None:
    for recipe in claim_recipes():
        items = recipe.plan(RunOptions(run_id="plan-test"))
        assert items and all(i.runnable for i in items)
        assert all((i.estimated_seconds or 0) > 0 and (i.estimated_gb or 0) > 0 for i in items)
        record = yaml.safe_load((REPO / "records" / f"{recipe.protocol_id}.yaml").read_text())
        reading = record["recipe"]["declared_reading"]["settings"]
        if "tokens_per_sequence" in reading:
            assert any(i.key.endswith(f"--{reading['tokens_per_sequence']}tok") for i in items)


def test_fixed_tokens_replace_the_doubling_lengths() -> None:
    recipe = parse_recipe(_tiny())
    assert [(p.model.key, p.tokens) for p in points(recipe)] == [
        ("tiny-esm", 16),
        ("tiny-esm", 70),
        ("tiny-dnabert-2", 18),
    ]
    data = _tiny()
    del data["models"][0]["tokens"]
    doubling = [p.tokens for p in points(parse_recipe(data), models=["tiny-esm"])]
    assert doubling == [64, 128, 256, 512, 1000]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(precision="fp8"), "precision: expected one of bf16, fp32"),
        (lambda d: d.update(device="tpu"), "device: expected one of cuda, cpu"),
        (lambda d: d["models"][0].update(tokens=[0]), "models.0.tokens: expected a list"),
        (lambda d: d["models"][0].update(tokens=["70"]), "models.0.tokens: expected a list"),
        (lambda d: d["models"][1].update(tokens=[4096]), "models.1.tokens: longer than"),
    ],
)
def test_bad_claim_settings_are_named(change: Any, message: str) -> None:
    data = _tiny()
    change(data)
    with pytest.raises(RecipeError, match=message):
        parse_recipe(data)


def test_a_cpu_recipe_is_estimated_slower_and_fp32_weights_larger() -> None:
    cpu = parse_recipe(_tiny())
    data = _tiny()
    data.update(device="cuda", precision="bf16")
    gpu = parse_recipe(data)
    point = points(cpu)[1]
    (cpu_gb, cpu_s), (gpu_gb, gpu_s) = estimate_point(cpu, point), estimate_point(gpu, point)
    assert cpu_s > gpu_s and cpu_gb > gpu_gb


torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("peft")


def test_a_cpu_claim_runs_through_the_cli_in_fp32_on_the_cpu(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from measure.cli import app

    protocol = load_recipe(TINY).protocol
    args = [
        "run",
        protocol,
        "--recipe",
        str(TINY),
        "--no-records",
        "--runs-dir",
        str(tmp_path),
        "--run-id",
        "c1",
    ]
    plan = CliRunner().invoke(app, [*args, "--dry-run"])
    assert plan.exit_code == 0, plan.output
    assert "3 runnable items" in plan.output
    result = CliRunner().invoke(app, args)  # no --device: the recipe says cpu
    assert result.exit_code == 0, result.output
    logs = {p.stem: json.loads(p.read_text()) for p in (tmp_path / "c1" / "logs").glob("*.json")}
    assert sorted(logs) == [
        "tiny-dnabert-2--embed--b4--18tok",
        "tiny-esm--embed--b4--16tok",
        "tiny-esm--embed--b4--70tok",
    ]
    for log in logs.values():
        assert log["status"] == "value", log["error"]
        assert log["precision"] == "fp32 weights"
        assert len(log["step_seconds"]) == 3 and log["warmup"] == 1


def test_fp32_weights_stay_fp32_and_bf16_is_the_default() -> None:
    from measure.memory_curve.worker import _model

    device = torch.device("cpu")
    spec = {"model": "tiny-esm", "method": "embed", "lora": {}, "precision": "fp32"}
    model, trainable = _model(spec, device)
    assert {p.dtype for p in model.parameters()} == {torch.float32} and trainable == "none"
    del spec["precision"]
    model, _ = _model(spec, device)
    assert {p.dtype for p in model.parameters()} == {torch.bfloat16}


def test_the_mistral_dna_claim_step_runs_at_a_tiny_size() -> None:
    """The claim's method (full-mixed: fp32 weights and AdamW states under autocast) on the
    tiny Mixtral, at the claim's batch shape scaled down."""
    from measure.memory_curve.runner import point_spec
    from measure.memory_curve.worker import run_point

    recipe = load_recipe(CLAIMS_DIR / "mistral-dna-rtx3090.yaml")
    data = dict(recipe.raw)
    data["models"] = [{"key": "tiny-mixtral", "family": "x", "tokens": [49]}]
    data["batches"] = [4]
    tiny = parse_recipe(data)
    [point] = points(tiny)
    spec = point_spec(tiny, point, "20261202-claim-test", RunOptions(extra={"device": "cpu"}), "t")
    log = run_point(spec)
    assert log["status"] == "value", log["error"]
    assert log["precision"].startswith("fp32 master weights")
    assert log["optimizer"] == "torch.optim.adamw.AdamW"
    assert log["batch"] == 4 and log["tokens"] == 49


def _catalogue(root: Path, *ids: str) -> None:
    """The catalogue records the claim's records refer to (their closure), under `root`."""
    import sys

    sys.path.insert(0, str(REPO / "tests"))
    from scenarios import copy_closure

    families = [
        "evidence-20261130-family-dnabert-2",
        "rewire-20261202-family-mistral-dna",
        "gfm-guide-20261014-family-nucleotide-transformer",
    ]
    copy_closure([*ids, *families], REPO / "records", root / "records")


def test_claim_blocks_parse_and_bad_ones_are_named() -> None:
    from measure.memory_curve.claim_records import parse_claim

    for recipe in claim_recipes():
        parse_claim(load_recipe(recipe.recipe_file))
    data = _tiny()
    data["claim"]["readings"]["70"]["tiny-esm"] = 71
    with pytest.raises(RecipeError, match=r"claim.readings.70.tiny-esm: not a measured point"):
        parse_claim(parse_recipe(data))
    data = _tiny()
    data["claim"]["kind"] = "speed"
    with pytest.raises(RecipeError, match=r"claim\.kind: expected one of"):
        parse_claim(parse_recipe(data))


def test_time_ratio_records_divide_two_medians_of_one_cpu_run(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from measure.cli import app
    from measure.memory_curve.claim_records import median_pass_seconds, write_claim_records
    from measure.records import check_models

    _catalogue(tmp_path, "rewire-20261202-eval-feng-nt-v2-500m-to-dnabert-2-prom-core-all")
    protocol = load_recipe(TINY).protocol
    args = [
        "run",
        protocol,
        "--recipe",
        str(TINY),
        "--no-records",
        "--runs-dir",
        str(tmp_path),
        "--run-id",
        "20261202-claim-test",
    ]
    assert CliRunner().invoke(app, args).exit_code == 0
    logs = sorted((tmp_path / "20261202-claim-test" / "logs").glob("*.json"))
    written = write_claim_records(load_recipe(TINY), logs, tmp_path, git_commit="abc1234")
    records = [yaml.safe_load(p.read_text()) for p in written]
    assert check_models(records) == []
    evaluations = {r["settings"]["max_length"]: r for r in records if r["kind"] == "evaluation"}
    assert sorted(evaluations) == ["18", "70"]  # one per reading
    # configurations of the two measured points; the reference's log is an artifact only
    assert sum(r["kind"] == "configuration" for r in records) == 2
    by_item = {json.loads(p.read_text())["item"]: json.loads(p.read_text()) for p in logs}
    reference = median_pass_seconds(by_item["tiny-dnabert-2--embed--b4--18tok"])
    for label, tokens in (("18", 16), ("70", 70)):
        evaluation = evaluations[label]
        mine = median_pass_seconds(by_item[f"tiny-esm--embed--b4--{tokens}tok"])
        [result] = evaluation["results"]
        assert result["value"] == round(mine / reference, 4)
        assert result["column"] == "nt-v2-500m-to-dnabert-2" and result["unit"] == "times"
        assert evaluation["reproduces"].startswith("rewire-20261202-eval-feng-nt-v2-500m")
        assert evaluation["training_hardware"].startswith("CPU only: ")
        assert len(evaluation["artifacts"]) == 2  # the model's log and the reference's


def test_card_memory_is_the_reserved_peak_plus_the_context(tmp_path: Path) -> None:
    """A committed H200 log of a mixed-precision Mixtral step, read by the claim writer."""
    from measure.memory_curve.claim_records import write_claim_records

    data = yaml.safe_load((CLAIMS_DIR / "mistral-dna-rtx3090.yaml").read_text())
    data["models"] = [
        {"key": "mistral-dna-1m", "family": "rewire-20261202-family-mistral-dna", "tokens": [64]}
    ]
    recipe = parse_recipe(data)
    name = "mistral-dna-1m--full-mixed--b8--64tok.json"
    log_path = REPO / "artifacts" / "measurements" / "20261202-curves-new" / name
    log = json.loads(log_path.read_text())
    _catalogue(tmp_path, "rewire-20261202-eval-mistral-dna-rtx3090-readme")
    written = write_claim_records(recipe, [log_path], tmp_path)
    [evaluation] = [yaml.safe_load(p.read_text()) for p in written if "-eval-" in p.name]
    [result] = evaluation["results"]
    assert result["column"] == "pretraining-step"
    assert result["value"] == round(log["memory"]["peak_reserved_bytes"] / 1e9 + 0.5, 2)
    assert evaluation["reproduces"] == "rewire-20261202-eval-mistral-dna-rtx3090-readme"
    assert evaluation["settings"]["tokens_per_sequence"] == "64"


def test_the_feng_claim_embeds_each_family_in_fp32_on_the_cpu_at_a_tiny_size() -> None:
    """The Feng claim's recipe with its three families' tiny architectures (NT v2, HyenaDNA,
    DNABERT-2) at batch 2: every pass runs in fp32 on the CPU."""
    from measure.memory_curve.runner import point_spec
    from measure.memory_curve.worker import run_points

    recipe = load_recipe(CLAIMS_DIR / "feng-embedding-time-ratio.yaml")
    assert (recipe.precision, recipe.device, recipe.batches) == ("fp32", "cpu", (256,))
    data = dict(recipe.raw)
    tiny = {
        "nt-v2-500m": "tiny-ntv2",
        "hyenadna-medium-160k": "tiny-hyena",
        "dnabert-2": "tiny-dnabert-2",
    }
    data["models"] = [{**m, "key": tiny[m["key"]]} for m in data["models"]]
    data["batches"] = [2]
    small = parse_recipe(data)
    options = RunOptions(extra={"device": "cuda"})  # the recipe's device: cpu wins
    for model in tiny.values():
        specs = [point_spec(small, p, "t", options, "n") for p in points(small, models=[model])]
        assert {s["device"] for s in specs} == {"cpu"}
        for log in run_points(specs):
            assert log["status"] == "value", log["error"]
            assert log["precision"] == "fp32 weights"
            assert len(log["step_seconds"]) == 3
