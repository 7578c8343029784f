"""The memory-curve recipe ("does it fit on my GPU?"): lengths, points, estimates, the
point worker on the CPU build of torch, the runner through the CLI, and the records."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from measure.memory_curve.recipe import (
    METHODS,
    THROUGHPUT_FILE,
    RecipeError,
    estimate_point,
    lengths,
    load_recipe,
    parse_recipe,
    points,
)

REPO = Path(__file__).resolve().parents[2]
TINY = Path(__file__).parent / "fixtures" / "tiny_curves.yaml"
PROTOCOL = "rewire-20261130-protocol-gpu-memory-curves"
MEMORY_METHODS = ("inference", "peft", "full", "full-mixed", "full-mixed-ckpt")


def test_lengths_double_up_to_the_maximum_included() -> None:
    assert lengths(64, 1000) == [64, 128, 256, 512, 1000]
    assert lengths(64, 512) == [64, 128, 256, 512]
    assert lengths(512, 512) == [512]
    with pytest.raises(RecipeError, match="start_tokens 600"):
        lengths(600, 512)


def test_the_shipped_recipe_covers_every_model_method_batch_and_length() -> None:
    recipe = load_recipe()
    assert recipe.protocol == PROTOCOL
    keys = [m.key for m in recipe.models]
    assert keys == [
        "nt-500m", "nt-2-5b", "gena-lm-110m", "gena-lm-336m", "dnabert-2", "dnabert-s",
        "mistral-dna-1m", "nt-v2-100m", "dnabert-6", "grover", "generator-eukaryote-1-2b",
        "hyenadna-large-1m", "caduceus-ps-131k",
    ]  # fmt: skip
    methods = tuple(recipe.methods)
    assert methods == MEMORY_METHODS
    chosen = points(recipe)
    # NT: 64..1000 (5 lengths); GENA-LM: 64..512 (4); DNABERT-2 and -S: 64..2048 (6);
    # Mistral-DNA: 64..256 (3); NT v2 100M: 64..2048 (6); DNABERT and GROVER: 64..512 (4);
    # GENERator: 64..16,384 (9); HyenaDNA to the recipe's cap 262,144 (13); Caduceus to its
    # cap 16,384 (9); x 5 methods x 2 batches
    assert len(chosen) == (5 + 5 + 4 + 4 + 6 + 6 + 3 + 6 + 4 + 4 + 9 + 13 + 9) * len(methods) * 2
    capped = points(recipe, models=["caduceus-ps-131k"], methods=["inference"], batches=[1])
    assert capped[-1].tokens == 16384 < capped[0].model.architecture.max_tokens
    assert len({p.key for p in chosen}) == len(chosen)
    assert {p.column for p in chosen} == {f"{m}-batch-{b}" for m in methods for b in (1, 8)}
    assert max(p.tokens for p in chosen if p.model.key == "gena-lm-336m") == 512
    only = points(recipe, models=["nt-2-5b"], methods=["full"], batches=[8])
    assert [p.tokens for p in only] == [64, 128, 256, 512, 1000]
    with pytest.raises(RecipeError, match="no method 'lora'"):
        points(recipe, methods=["lora"])


def test_estimates_grow_with_length_batch_and_method() -> None:
    recipe = load_recipe()
    by_key = {p.key: estimate_point(recipe, p)[0] for p in points(recipe, models=["nt-2-5b"])}
    assert by_key["nt-2-5b--full--b8--1000tok"] > by_key["nt-2-5b--full--b8--64tok"]
    assert by_key["nt-2-5b--full--b8--512tok"] > by_key["nt-2-5b--full--b1--512tok"]
    point = "b8--512tok"
    full, peft, inference = (
        by_key[f"nt-2-5b--{m}--{point}"] for m in ("full", "peft", "inference")
    )
    assert full > peft > inference > 2 * 2.5  # bf16 weights of 2.5B parameters at least
    mixed, mixed_ckpt = (
        by_key[f"nt-2-5b--{m}--{point}"] for m in ("full-mixed", "full-mixed-ckpt")
    )
    assert mixed > mixed_ckpt > 16 * 2.5 > full  # 16 bytes a parameter against 8


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["methods"].update(lora="x"), "methods: expected some of"),
        (lambda d: d.update(methods={}), "methods: expected some of"),
        (lambda d: d.update(warmup=2), "warmup: expected an integer"),
        (lambda d: d.update(batches=[0]), "batches: expected a list of positive integers"),
        (lambda d: d["models"].append({"key": "dnabert-3", "family": "x"}), "models.9.key"),
        (lambda d: d["models"][6].update(max_tokens=0), "models.6.max_tokens"),
        (lambda d: d.update(steps=0), "steps: must be positive"),
        (lambda d: d.pop("protocol"), "protocol: required"),
    ],
)
def test_bad_recipes_are_named(change: Any, message: str) -> None:
    data = copy.deepcopy(yaml.safe_load(TINY.read_text(encoding="utf-8")))
    change(data)
    with pytest.raises(RecipeError, match=message):
        parse_recipe(data)


torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("peft")

from measure.memory_curve.records import make_point, point_records  # noqa: E402
from measure.memory_curve.runner import point_spec  # noqa: E402
from measure.memory_curve.worker import run_point  # noqa: E402
from measure.records import store_artifact, write_records  # noqa: E402
from measure.registry import RunOptions  # noqa: E402


def _log(model: str, method: str, batch: int = 8, tokens: int = 128) -> dict[str, Any]:
    recipe = load_recipe(TINY)
    [point] = [
        p
        for p in points(recipe, models=[model], methods=[method], batches=[batch])
        if p.tokens == tokens
    ]
    spec = point_spec(recipe, point, "20261130-curves-test", RunOptions(), "test")
    spec["device"] = "cpu"
    return run_point(spec)


NEW_FAMILIES = ["tiny-bert", "tiny-ntv2", "tiny-hyena", "tiny-caduceus", "tiny-llama"]
"""DNABERT's and GROVER's BERT, NT v2 (measure/ntv2.py), HyenaDNA's language model, Caduceus
(measure/caduceus.py) and GENERator's Llama."""


@pytest.mark.parametrize(
    "model", ["tiny-esm", "tiny-gena", "tiny-dnabert-2", "tiny-mixtral", *NEW_FAMILIES]
)
def test_every_method_runs_on_the_cpu(model: str) -> None:
    # batch 1 (the recipe's first column): that every method runs, not how much it holds
    logs = {method: _log(model, method, batch=1) for method in MEMORY_METHODS}
    for method, log in logs.items():
        assert log["status"] == "value", log["error"]
        assert len(log["step_seconds"]) == 2
        assert log["method"] == method
    total = logs["full"]["model"]["parameters_trainable"]
    assert logs["inference"]["model"]["parameters_trainable"] == 0
    assert 0 < logs["peft"]["model"]["parameters_trainable"] < total
    expected = "IA3" if model == "tiny-esm" else "LoRA"
    assert logs["peft"]["trainable"].startswith(expected)
    if model in ("tiny-mixtral", "tiny-llama"):  # LoRA on the decoders' attention projections
        assert "q_proj, k_proj, v_proj" in logs["peft"]["trainable"]
    if model in ("tiny-hyena", "tiny-caduceus"):  # no attention: LoRA on the mixers
        assert "in_proj, out_proj" in logs["peft"]["trainable"]
    assert logs["full"]["optimizer"] == "torch.optim.adamw.AdamW"
    for method in ("full-mixed", "full-mixed-ckpt"):
        assert logs[method]["model"]["parameters_trainable"] == total
        assert logs[method]["precision"].startswith("fp32 master weights")
    assert "checkpointing" in logs["full-mixed-ckpt"]["precision"]
    assert "checkpointing" not in logs["full-mixed"]["precision"]


def test_mixed_precision_keeps_fp32_weights_and_states_and_checkpointing_saves_less() -> None:
    """The mixed recipe's model states are fp32 (weights and AdamW moments), and with
    checkpointing the forward pass keeps fewer activations for the backward pass (bytes
    autograd saves, counted by a saved-tensors hook)."""
    from measure.architectures.registry import get_architecture
    from measure.memory_curve.worker import _measure, _Memory, _prepare
    from measure.peak_memory import train

    recipe = load_recipe(TINY)
    device = torch.device("cpu")
    for model in ("tiny-gena", "tiny-dnabert-2"):
        saved: dict[str, int] = {}
        for method in ("full-mixed", "full-mixed-ckpt"):
            [point] = [
                p
                for p in points(recipe, models=[model], methods=[method], batches=[8])
                if p.tokens == 128
            ]
            spec = point_spec(recipe, point, "20261130-curves-test", RunOptions(), "test")
            spec["device"] = "cpu"
            prepared = _prepare(spec, device)
            assert {p.dtype for p in prepared.model.parameters()} == {torch.float32}
            [batch] = train.synthetic_batches(
                get_architecture(model), batch=8, tokens=128, nucleotides=None, steps=1, seed=1
            )
            sizes: list[int] = []

            def pack(t: Any, sizes: list[int] = sizes) -> Any:
                sizes.append(t.numel() * t.element_size())
                return t

            with (
                torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t),
                torch.autocast("cpu", dtype=torch.bfloat16),
            ):
                prepared.model(**batch)
            saved[method] = sum(sizes)
            log: dict[str, Any] = {"model": {}, "memory": {}, "step_seconds": []}
            _measure(spec, prepared, _Memory(device), device, log)
            assert log["status"] == "value", log.get("error")
            states = prepared.optimizer.state
            assert states
            assert all(s["exp_avg"].dtype == torch.float32 for s in states.values())
        assert saved["full-mixed-ckpt"] < 0.95 * saved["full-mixed"], (model, saved)


NEEDED = (
    PROTOCOL,
    "saadat-fellay-20261015-dataset-synthetic-uniform-random-dna-seed-42",
    "saadat-fellay-20261015-family-gena-lm",
    "saadat-fellay-20261015-source-optimizing-genomic-language-models",
)


def test_records_of_a_point_validate(tmp_path: Path) -> None:
    (tmp_path / "records").mkdir()
    for record_id in NEEDED:
        source = REPO / "records" / f"{record_id}.yaml"
        if not source.exists():
            pytest.skip(f"catalogue record {record_id} not present")
        shutil.copy(source, tmp_path / "records")
    log = _log("tiny-gena", "peft")
    log["memory"].update(peak_allocated_bytes=3_210_000_000, peak_reserved_bytes=3_500_000_000)
    log["environment"].update(gpu="NVIDIA H200", gpu_memory_gb=150.0)
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    stored = store_artifact(path, tmp_path, log["run_id"], "point.json")
    artifact = {"path": stored.path, "sha256": stored.sha256, "description": "raw log"}
    records = point_records(
        make_point(load_recipe(TINY), log, artifact, "saadat-fellay-20261015-family-gena-lm")
    )
    written = write_records(records, tmp_path)
    evaluation = yaml.safe_load(written[1].read_text(encoding="utf-8"))
    result = evaluation["results"][0]
    assert result["column"] == "peft-batch-8"
    assert result["value"] == pytest.approx(3.21)
    assert evaluation["settings"]["tokens_per_sequence"] == "128"
    assert evaluation["protocol"] == PROTOCOL
    assert "reproduces" not in evaluation  # Rewire's own protocol: no published value


@pytest.mark.slow
def test_the_runner_plans_runs_and_resumes_through_the_cli(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from measure.cli import app

    args = [
        "run", PROTOCOL, "--recipe", str(TINY), "--device", "cpu", "--no-records",
        "--models", "tiny-gena", "--stages", "inference,full", "--settings", "batch=1",
        "--runs-dir", str(tmp_path), "--run-id", "r1",
    ]  # fmt: skip
    plan = CliRunner().invoke(app, [*args, "--dry-run"])
    assert plan.exit_code == 0, plan.output
    assert "6 runnable items" in plan.output  # 128, 256 and 512 tokens x 2 methods
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    logs = sorted((tmp_path / "r1" / "logs").glob("*.json"))
    assert [json.loads(p.read_text())["status"] for p in logs] == ["value"] * len(logs)
    again = CliRunner().invoke(app, args)
    assert "0 to run" in again.output


def _specs(model: str, method: str, batch: int = 1) -> list[dict[str, Any]]:
    recipe = load_recipe(TINY)
    chosen = points(recipe, models=[model], methods=[method], batches=[batch])
    specs = []
    for point in chosen:
        spec = point_spec(recipe, point, "20261130-curves-test", RunOptions(), "test")
        spec["device"] = "cpu"
        specs.append(spec)
    return specs


@pytest.mark.parametrize("method", ["full", "peft"])
def test_a_process_runs_a_curve_and_each_point_matches_its_own_process(method: str) -> None:
    from measure.memory_curve.worker import run_points

    specs = _specs("tiny-dnabert-2", method)
    assert [s["tokens"] for s in specs] == [128, 256]
    seen: list[str] = []
    logs = run_points(specs, lambda log: seen.append(log["item"]))
    assert seen == [s["item"] for s in specs]  # each log handed over as its point ends
    assert [log["process"]["index"] for log in logs] == [0, 1]
    assert all(log["process"]["points"] == 2 for log in logs)
    alone = run_point(specs[1])
    assert alone["process"]["points"] == 1
    for key in ("status", "trainable", "optimizer", "batch", "tokens", "steps"):
        assert logs[1][key] == alone[key], key
    assert logs[1]["model"]["parameters_trainable"] == alone["model"]["parameters_trainable"]
    assert len(logs[1]["step_seconds"]) == 2


def test_between_points_no_gradient_survives_and_optimizer_states_stay() -> None:
    from measure.memory_curve.worker import _measure, _Memory, _new_log, _prepare, release

    spec = _specs("tiny-gena", "full")[0]
    device = torch.device("cpu")
    prepared = _prepare(spec, device)
    memory = _Memory(device)
    log = _new_log(spec, memory, 0, 1, "2026-11-30T00:00:00Z")
    _measure(spec, prepared, memory, device, log)
    assert log["status"] == "value", log["error"]
    release(prepared)
    params = [p for p in prepared.model.parameters() if p.requires_grad]
    assert params and all(p.grad is None for p in params)
    assert len(prepared.optimizer.state) == len(params)  # AdamW states, as between steps


def test_a_process_takes_one_model_and_method() -> None:
    from measure.memory_curve.worker import run_points

    with pytest.raises(ValueError, match="one model and method"):
        run_points([*_specs("tiny-gena", "full"), *_specs("tiny-esm", "full")])


def test_the_runner_groups_points_by_model_and_method(tmp_path: Path) -> None:
    from measure.memory_curve.runner import MemoryCurves, groups

    options = RunOptions(
        runs_dir=tmp_path, run_id="r", stages=("inference", "full"), extra={"recipe": str(TINY)}
    )
    _, planned, _ = MemoryCurves().planned(options)
    grouped = groups(planned)
    assert len(grouped) == len(load_recipe(TINY).models) * 2  # each tiny model x two methods
    for group in grouped:
        assert len({(p.point.model.key, p.point.method) for p in group}) == 1
        first, *rest = (p.plan.estimated_seconds or 0.0 for p in group)
        assert all(first > later for later in rest)  # the process start is paid once


def test_a_fresh_process_check_is_stored_and_cited_beside_its_point(tmp_path: Path) -> None:
    from measure.memory_curve.records import write_run_records

    (tmp_path / "records").mkdir()
    for record_id in NEEDED:
        source = REPO / "records" / f"{record_id}.yaml"
        if not source.exists():
            pytest.skip(f"catalogue record {record_id} not present")
        shutil.copy(source, tmp_path / "records")
    run = tmp_path / "runs" / "20261130-curves-test"
    log = _log("tiny-gena", "full")
    log["memory"].update(peak_allocated_bytes=2_000_000_000, peak_reserved_bytes=2_100_000_000)
    log["environment"].update(gpu="NVIDIA H200", gpu_memory_gb=150.0)
    log["process"].update(points=3, index=2)
    check = json.loads(json.dumps(log))
    check["memory"]["peak_allocated_bytes"] = 1_990_000_000
    check["memory"]["peak_reserved_bytes"] = 2_150_000_000
    check["process"].update(points=1, index=0)
    for folder, data in (("logs", log), ("check", check)):
        (run / folder).mkdir(parents=True)
        (run / folder / f"{log['item']}.json").write_text(json.dumps(data))
    written = write_run_records(load_recipe(TINY), [run / "logs" / f"{log['item']}.json"], tmp_path)
    evaluation = yaml.safe_load(written[1].read_text(encoding="utf-8"))
    assert [a["path"].rsplit("/", 1)[1] for a in evaluation["artifacts"]] == [
        f"{log['item']}.json",
        f"check-{log['item']}.json",
    ]
    observed = {o["name"]: o["value"] for o in evaluation["results"][0]["observations"]}
    assert observed["peak-allocated-fresh-process"] == pytest.approx(1.99)
    # the figure the fits page compares, from the same re-run: fits/ reads which way the
    # shared process's reserved peaks lie from the fresh ones
    assert observed["peak-reserved-fresh-process"] == pytest.approx(2.15)
    assert "point 3 of 3 run in one process" in evaluation["comparison"]["aggregation"]


TINY_THROUGHPUT = Path(__file__).parent / "fixtures" / "tiny_throughput.yaml"
THROUGHPUT = "rewire-20261202-protocol-embedding-throughput"


def test_every_method_is_known_and_the_throughput_recipe_embeds_every_model() -> None:
    assert set(METHODS) == {*MEMORY_METHODS, "embed"}
    recipe = load_recipe(THROUGHPUT_FILE)
    assert recipe.protocol == THROUGHPUT and tuple(recipe.methods) == ("embed",)
    assert recipe.warmup < recipe.steps
    assert {m.key for m in recipe.models} == {m.key for m in load_recipe().models}
    chosen = points(recipe)
    assert {p.column for p in chosen} == {f"embed-batch-{b}" for b in recipe.batches}
    with pytest.raises(RecipeError, match="no method 'full'"):
        points(recipe, methods=["full"])
    gb = {p.key: estimate_point(recipe, p)[0] for p in points(recipe, models=["nt-2-5b"])}
    assert gb["nt-2-5b--embed--b32--1000tok"] > gb["nt-2-5b--embed--b1--1000tok"] > 2 * 2.5


def _embed_log(model: str, batch: int = 8) -> dict[str, Any]:
    recipe = load_recipe(TINY_THROUGHPUT)
    point = points(recipe, models=[model], batches=[batch])[0]
    spec = point_spec(recipe, point, "20261202-embed-test", RunOptions(), "test")
    spec["device"] = "cpu"
    return run_point(spec)


@pytest.mark.parametrize(
    "model", ["tiny-esm", "tiny-gena", "tiny-dnabert-2", "tiny-mixtral", *NEW_FAMILIES]
)
def test_embedding_passes_run_on_the_cpu_for_every_architecture(model: str) -> None:
    log = _embed_log(model, batch=1)  # batch 1: the passes, not their speed, are tested
    assert log["status"] == "value", log["error"]
    assert len(log["step_seconds"]) == 4 and log["warmup"] == 1
    assert log["model"]["parameters_trainable"] == 0 and log["trainable"] == "none"
    assert "optimizer" not in log


def test_an_embedding_is_the_mean_of_the_last_hidden_states() -> None:
    from measure.architectures.build import build_model
    from measure.architectures.registry import get_architecture
    from measure.memory_curve.worker import embed

    for key in ("tiny-esm", "tiny-dnabert-2", "tiny-mixtral", "tiny-llama"):
        arch = get_architecture(key)
        model = build_model(arch).eval()
        ids = torch.randint(5, 64, (3, 16))
        with torch.inference_mode():
            pooled = embed(model, {"input_ids": ids, "labels": ids})
            assert pooled.shape == (3, int(arch.config["hidden_size"]))
            assert pooled.dtype == torch.float32
            if key != "tiny-dnabert-2":
                hidden = model.base_model(input_ids=ids).last_hidden_state
                assert torch.allclose(pooled, hidden.float().mean(dim=1))
        # one sequence's embedding does not depend on the others in its batch
        with torch.inference_mode():
            alone = embed(model, {"input_ids": ids[:1]})
        assert torch.allclose(alone, pooled[:1], atol=1e-5)


def test_throughput_records_give_sequences_per_second_and_validate(tmp_path: Path) -> None:
    from measure.memory_curve.records import throughput

    (tmp_path / "records").mkdir()
    needed = (*NEEDED, THROUGHPUT, "rewire-20261202-family-mistral-dna",
              "rewire-20261202-source-mistral-dna-config-json")  # fmt: skip
    for record_id in needed:
        source = REPO / "records" / f"{record_id}.yaml"
        if not source.exists():
            pytest.skip(f"catalogue record {record_id} not present")
        shutil.copy(source, tmp_path / "records")
    recipe = load_recipe(TINY_THROUGHPUT)
    ours: set[str] = set()
    for model, family in (("tiny-esm", "saadat-fellay-20261015-family-gena-lm"),
                          ("tiny-mixtral", "rewire-20261202-family-mistral-dna")):  # fmt: skip
        log = _embed_log(model)
        log["step_seconds"] = [9.0, 0.5, 0.25, 0.3]  # the warm-up pass is left out
        log["memory"].update(peak_allocated_bytes=1_000_000_000, peak_reserved_bytes=2 * 10**9)
        log["environment"].update(gpu="NVIDIA H200", gpu_memory_gb=150.0)
        figures = throughput(log)
        assert figures["median_seconds"] == pytest.approx(0.3)
        assert figures["sequences_per_second"] == pytest.approx(8 / 0.3)
        path = tmp_path / f"{model}.json"
        path.write_text(json.dumps(log))
        stored = store_artifact(path, tmp_path, log["run_id"], f"{model}.json")
        artifact = {"path": stored.path, "sha256": stored.sha256, "description": "raw log"}
        written = write_records(point_records(make_point(recipe, log, artifact, family)), tmp_path)
        ours.update(path.name for path in written)
        evaluation = yaml.safe_load(written[1].read_text(encoding="utf-8"))
        [result] = evaluation["results"]
        assert result["column"] == "embed-batch-8"
        assert result["value"] == pytest.approx(26.67, abs=0.01)
        names = {o["name"] for o in result["observations"]}
        assert {"tokens-per-second", "model-flops-utilisation"} <= names
        # nucleotides per second only where the tokeniser's ratio is stated (NT's 6-mers)
        assert ("nucleotides-per-second" in names) == (model == "tiny-esm")
    from rewire_site.validate import validate_paths

    report = validate_paths([tmp_path / "records"], tmp_path, cache=False)
    # the records written here validate (the copied family records cite sources not copied)
    assert not [str(p) for p in report.problems if p.severity == "error" and p.path.name in ours]
    assert len(ours) == 4
