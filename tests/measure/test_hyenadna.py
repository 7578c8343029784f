"""The HyenaDNA claims recipe on the CPU build of torch: the transcribed model (causal FFT
convolution, parameter counts of the released sizes, checkpointing that changes memory but
not gradients), the recipe file and its errors, the plan through the CLI, the worker, and the
records the writer derives from GPU logs."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

torch = pytest.importorskip(
    "torch", reason="the HyenaDNA model and worker need torch (pip install -e .[measure])"
)

# after the skip: the model and the worker import torch
from measure.hyenadna import records as hyena_records  # noqa: E402
from measure.hyenadna.model import HyenaConfig, build, count_parameters, fftconv  # noqa: E402
from measure.hyenadna.recipe import (  # noqa: E402
    RecipeError,
    estimate,
    load_recipe,
    parse_recipe,
    run_spec,
)
from measure.hyenadna.worker import run_spec as run_worker  # noqa: E402
from measure.records import write_new  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TINY = Path(__file__).parent / "fixtures" / "hyenadna_tiny.yaml"
PROTOCOLS = {
    "colab-fit": "evidence-20261130-protocol-hyenadna-colab-gpu-fit",
    "checkpointing": "evidence-20261130-protocol-hyenadna-checkpointing-memory-saving",
    "train-1m": "evidence-20261130-protocol-hyenadna-1m-training-memory",
    "speedup": "evidence-20261130-protocol-hyenadna-speedup-vs-transformer",
}


# --- the model ------------------------------------------------------------------------


def test_fftconv_is_the_causal_convolution_plus_the_skip() -> None:
    torch.manual_seed(0)
    u, k, d = torch.randn(2, 3, 16), torch.randn(3, 16), torch.randn(3)
    direct = torch.zeros_like(u)
    for t in range(16):
        for s in range(t + 1):
            direct[..., t] += k[:, t - s] * u[..., s]
    assert torch.allclose(fftconv(u, k, d), direct + u * d[:, None], atol=1e-4)


@pytest.mark.parametrize("mixer", ["hyena", "attention"])
def test_the_models_are_causal(mixer: str) -> None:
    """A later token never changes an earlier position's output (HyenaDNA and the GPT
    baseline are both causal language models)."""
    torch.manual_seed(0)
    model = build(HyenaConfig(d_model=64, n_layer=2, l_max=34, mixer=mixer), "cpu").eval()
    ids = torch.randint(7, 11, (1, 32))
    changed = ids.clone()
    changed[0, 20:] = 7 + (changed[0, 20:] - 6) % 4
    with torch.no_grad():
        a, b = model(ids), model(changed)
    assert torch.allclose(a[:, :20], b[:, :20], atol=1e-5)
    assert not torch.allclose(a[:, 20:], b[:, 20:], atol=1e-5)


def test_parameter_counts_match_the_released_sizes() -> None:
    """tiny-1k (2 layers, width 128) and the 8-layer, width-256 models: 0.44M and 6.6M
    parameters, the sizes the HyenaDNA model cards print."""
    tiny = build(HyenaConfig(d_model=128, n_layer=2, l_max=1026), "meta")
    large = build(HyenaConfig(d_model=256, n_layer=8, l_max=1026), "meta")
    assert count_parameters(tiny) == pytest.approx(0.44e6, rel=0.01)
    assert count_parameters(large) == pytest.approx(6.6e6, rel=0.01)


def _unwrapped(name: str) -> str:
    """A checkpointed model's parameter name as the plain model spells it."""
    return name.replace("mixer.module.", "mixer.").replace("mlp.module.", "mlp.")


def test_checkpointing_keeps_the_gradients() -> None:
    torch.manual_seed(0)
    plain = build(HyenaConfig(d_model=32, n_layer=2, l_max=66), "cpu", n_classes=2)
    checked = build(
        HyenaConfig(d_model=32, n_layer=2, l_max=66, checkpoint_mixer=True, checkpoint_mlp=True),
        "cpu",
        n_classes=2,
    )
    plain_state = plain.state_dict()
    checked.load_state_dict({key: plain_state[_unwrapped(key)] for key in checked.state_dict()})
    ids = torch.randint(7, 11, (2, 64))
    for model in (plain, checked):
        model(ids).sum().backward()
    grads = dict(plain.named_parameters())
    for name, p in checked.named_parameters():
        twin = grads[_unwrapped(name)]
        assert p.grad is not None and twin.grad is not None
        assert torch.allclose(p.grad, twin.grad, atol=1e-5), name


# --- the recipe -----------------------------------------------------------------------


def test_the_shipped_recipe_has_four_protocols_with_their_items() -> None:
    recipe = load_recipe()
    assert {k: p.protocol for k, p in recipe.protocols.items()} == PROTOCOLS
    items = {k: p.items for k, p in recipe.protocols.items()}
    assert len(items["colab-fit"]) == 10  # 5 checkpoints x inference, fine-tuning
    assert [i.length for i in items["colab-fit"][::2]] == [1024, 32768, 160000, 450000, 1000000]
    assert len(items["checkpointing"]) == 6 and len(items["train-1m"]) == 2
    assert len(items["speedup"]) == 12
    assert {i.mixer for i in items["speedup"]} == {"hyena", "attention"}
    keys = [i.key for p in recipe.protocols.values() for i in p.items]
    assert len(keys) == len(set(keys))
    large = recipe.models["large-1m"]
    assert (large.d_model, large.n_layer) == (256, 8)  # huggingface.py: 8 layers, d_model=256
    claims = {e.claim for e in recipe.protocols["colab-fit"].expectations}
    assert "t4-up-to-450k" in claims and "1m-only-a100" in claims


def _raw() -> dict[str, Any]:
    data = yaml.safe_load((REPO / "measure" / "hyenadna" / "recipe.yaml").read_text())
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("protocols", "checkpointing", "lengths"), [2_000_000], "exceeds large-1m"),
        (("protocols", "colab-fit", "models"), ["huge-2m"], "no model 'huge-2m'"),
        (("protocols", "speedup", "kind"), "energy", "kind: expected one of"),
        (("protocols", "speedup", "repeats"), 0, "needs at least one repeat"),
        (("protocols", "train-1m", "precision"), "fp8", "precision: expected one of"),
        (("models", "tiny-1k", "d_model"), "128", "d_model: expected int"),
        (("protocols", "colab-fit", "reproduces"), None, "reproduces: expected str"),
    ],
)
def test_bad_recipes_are_named(path: tuple[str, ...], value: Any, message: str) -> None:
    data = _raw()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RecipeError, match=message):
        parse_recipe(data)


def test_a_bad_expectation_card_is_named() -> None:
    data = _raw()
    data["protocols"]["colab-fit"]["expectations"][0]["card"] = "V100 32 GB"
    with pytest.raises(RecipeError, match=r"expectations\.0\.card"):
        parse_recipe(data)


def test_estimates_grow_with_length_and_shrink_with_checkpointing() -> None:
    plan = load_recipe().protocols["checkpointing"]
    gb = {(i.length, i.checkpointing): estimate(i)[0] for i in plan.items}
    assert gb[(450000, False)] > gb[(131072, False)] > gb[(32768, False)]
    assert all(gb[(n, True)] < gb[(n, False)] for n in (32768, 131072, 450000))
    speed = load_recipe().protocols["speedup"]
    seconds = {
        (i.mixer, i.length): estimate(i, speed.warmup, speed.repeats)[1] for i in speed.items
    }
    assert seconds[("attention", 1000000)] > 10 * seconds[("hyena", 1000000)]


def test_every_protocol_plans_through_the_cli() -> None:
    from typer.testing import CliRunner

    from rewire_site.cli import app

    for protocol in PROTOCOLS.values():
        result = CliRunner().invoke(app, ["measure", "run", protocol, "--dry-run"])
        assert result.exit_code == 0, result.output
        assert "runnable items; estimated" in result.output
    result = CliRunner().invoke(
        app, ["measure", "run", PROTOCOLS["colab-fit"], "--dry-run", "--models", "huge-2m"]
    )
    assert result.exit_code != 0 and "no model 'huge-2m'" in result.output


# --- the worker and the records -------------------------------------------------------


@pytest.fixture(scope="module")
def cpu_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every protocol of the tiny recipe run in this process on the CPU."""
    recipe = load_recipe(TINY)
    out = tmp_path_factory.mktemp("run") / "20261130-hyenadna-test"
    logs: dict[str, dict[str, Any]] = {}
    for plan in recipe.protocols.values():
        spec = run_spec(recipe, plan, list(plan.items), out.name, device="cpu", command="test")
        assert run_worker(spec, out / "logs") == 0
    for path in (out / "logs").glob("*.json"):
        log = json.loads(path.read_text())
        logs[log["item"]] = log
    return logs


@pytest.mark.slow
def test_the_worker_logs_every_item(cpu_logs: dict[str, dict[str, Any]]) -> None:
    recipe = load_recipe(TINY)
    assert set(cpu_logs) == {i.key for p in recipe.protocols.values() for i in p.items}
    assert all(log["status"] == "value" for log in cpu_logs.values())
    timed = [log for log in cpu_logs.values() if log["kind"] == "time"]
    assert timed and all(len(log["synchronised_seconds"]) == 2 for log in timed)
    assert all(len(log["unsynchronised_seconds"]) == 2 for log in timed)
    memory = [log for log in cpu_logs.values() if log["kind"] == "memory"]
    assert all(len(log["step_seconds"]) == 2 for log in memory)
    assert {log["settings"]["mixer"] for log in timed} == {"hyena", "attention"}


def _as_gpu(log: dict[str, Any], peak_gb: float | None) -> dict[str, Any]:
    """A CPU log dressed as an H200's: the allocator figures a GPU run would have logged."""
    log = copy.deepcopy(log)
    total = 150_110_000_000
    if peak_gb is None:
        log["status"] = "out_of_memory"
        log["error"] = "did not fit in 150.1 GB (out of memory): CUDA out of memory"
        peak = total
    else:
        peak = int(peak_gb * 1e9)
    log["memory"].update(
        device_total_bytes=total, peak_allocated_bytes=peak, peak_reserved_bytes=int(peak * 1.1)
    )
    log["environment"].update(gpu="NVIDIA H200", gpu_memory_gb=150.11)
    return log


def _catalogue(root: Path) -> None:
    shutil.copytree(REPO / "records", root / "records")
    shutil.copytree(REPO / "artifacts" / "sources", root / "artifacts" / "sources")


@pytest.mark.slow
def test_records_derive_each_verdict_from_the_values(
    cpu_logs: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    for protocol in PROTOCOLS.values():
        if not (REPO / "records" / f"{protocol}.yaml").exists():
            pytest.skip(f"catalogue record {protocol} not present")
    _catalogue(tmp_path)
    recipe = load_recipe(TINY)
    # colab-fit: the 1M model's inference at 20 GB fits Colab's A100 but no T4; its
    # fine-tuning does not fit at all; tiny-1k fine-tunes in 0.1 GB
    peaks = {"large-1m": {"inference": 20.0, "finetune": None}}
    logs_dir = tmp_path / "logs"
    logs_dir.mkdir()
    paths: dict[str, list[Path]] = {}
    for key, log in cpu_logs.items():
        s = log["settings"]
        if log["protocol_key"] == "colab-fit":
            peak = peaks.get(s["model"], {}).get(s["method"], 0.1)
        elif log["protocol_key"] == "checkpointing":
            peak = s["length"] / 10 if not s["checkpointing"] else s["length"] / 40
        elif log["protocol_key"] == "train-1m":
            peak = 64.0 if s["checkpointing"] else None
        else:
            peak = 1.0
        path = logs_dir / f"{key}.json"
        path.write_text(json.dumps(_as_gpu(log, peak)))
        paths.setdefault(log["protocol_key"], []).append(path)
    built: dict[str, list[dict[str, Any]]] = {}
    for key, plan in recipe.protocols.items():
        records = hyena_records.build_run_records(recipe, plan, paths[key], tmp_path)
        write_new(records, tmp_path)  # validated against the catalogue
        built[key] = [r for r in records if r["kind"] == "evaluation"]
    large = next(r for r in built["colab-fit"] if r["id"].endswith("colab-fit-large-1m"))
    assert (
        "claim 1m-only-a100 (read: inference does not fit the T4 16 GB): consistent"
        in (large["summary"])
    )
    assert "fine-tuning: out of memory" in large["summary"]
    assert large["reproduces"] == "evidence-20261130-eval-hyenadna-colab-gpu-fit-huggingface-py"
    statuses = {r["column"]: r["status"] for r in large["results"]}
    assert statuses == {"inference": "value", "fine-tuning": "out_of_memory"}
    # checkpointing: the ratio of the two peaks, one evaluation per length
    saving = [r["results"][0]["value"] for r in built["checkpointing"]]
    assert saving == [pytest.approx(4.0), pytest.approx(4.0)]
    # train-1m: with checkpointing the step fits one A100 80 GB: the reading contradicted
    [train] = built["train-1m"]
    assert "with checkpointing does not fit the A100 80 GB): contradicted" in train["summary"]
    # speedup: the ratio of the synchronised medians per length column
    [speed] = built["speedup"]
    by_column = {r["column"]: r for r in speed["results"]}
    assert set(by_column) == {"length-1k"}
    for result in by_column.values():
        observed = {o["name"]: o["value"] for o in result["observations"]}
        ratio = observed["transformer-median-time"] / observed["hyenadna-median-time"]
        assert result["value"] == pytest.approx(ratio, rel=1e-2)
