"""The plan of a peak-memory run: which items, their estimated memory and time, and which
are finished already (their log in the run folder says value or out_of_memory)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from measure.peak_memory import estimate
from measure.peak_memory.recipe import PeakMemoryRecipe, WorkItem
from measure.registry import PlanItem
from measure.run_logs import FINISHED, read_status

PROCESS_OVERHEAD_S = 15.0
"""Start of a stage process: imports, CUDA context, model construction."""
EFFECTIVE_FLOPS = 250e12
"""bf16 throughput assumed for the time estimate (about a third of an H100/H200's dense peak)."""
CPU_ADAM_PARAMS_PER_S = 1.5e9
"""DeepSpeedCPUAdam parameters per second, plus gradient and weight copies (an assumption)."""


@dataclass(frozen=True)
class Planned:
    item: WorkItem
    plan: PlanItem
    log_path: Path
    finished: bool


def parameter_counts(arch_config: dict[str, Any]) -> int:
    """Parameters of an architecture from its dimensions (embeddings, layers, MLM head)."""
    h, n, f, v = (
        int(arch_config["hidden_size"]),
        int(arch_config["num_hidden_layers"]),
        int(arch_config["intermediate_size"]),
        int(arch_config["vocab_size"]),
    )
    if "num_key_value_heads" in arch_config:  # Mixtral, Llama: rotary, RMSNorm, no biases
        heads, kv = int(arch_config["num_attention_heads"]), int(arch_config["num_key_value_heads"])
        d = int(arch_config.get("head_dim") or h // heads)
        experts = int(arch_config.get("num_local_experts", 1))
        router = h * experts if "num_local_experts" in arch_config else 0
        attention = h * heads * d * 2 + h * kv * d * 2
        layer = attention + experts * 3 * h * f + router + 2 * h
        head = 0 if arch_config.get("tie_word_embeddings") else v * h
        return v * h + n * layer + h + head
    if "add_bias_fnn" in arch_config:  # NT v2: rotary (no position table), gated FFN
        bias = h + f if arch_config["add_bias_fnn"] else 0
        layer = 4 * (h * h + h) + 2 * h * f + f * h + bias + 4 * h
        heads = int(arch_config["num_attention_heads"])
        head = h * h + h + 2 * h + v + (0 if arch_config.get("tie_word_embeddings") else v * h)
        return v * h + n * layer + head + 2 * h + n * heads + 1  # + contact head
    if arch_config.get("position_embedding_type") == "alibi":  # DNABERT-2: GLU, no positions
        positions = 0
        layer = 4 * (h * h + h) + 2 * h * f + f * h + h + 4 * h
    else:
        positions = int(arch_config["max_position_embeddings"])
        layer = 4 * (h * h + h) + 2 * h * f + f + h + 4 * h
    head = h * h + h + 2 * h + v + (0 if arch_config.get("tie_word_embeddings") else v * h)
    extra = 2 * h + int(arch_config.get("type_vocab_size", 0)) * h
    return v * h + positions * h + n * layer + head + extra


def lora_parameters(arch_config: dict[str, Any], r: int, targets: int) -> int:
    h, n = int(arch_config["hidden_size"]), int(arch_config["num_hidden_layers"])
    return n * targets * 2 * r * h


def estimate_item(recipe: PeakMemoryRecipe, item: WorkItem) -> tuple[float, float]:
    """(GB, seconds) for one item: model-state floor plus a rough activation term, and
    process start plus steps (plus DeepSpeed's CPU Adam work under offload)."""
    arch = item.model.architecture
    config = arch.config
    total = parameter_counts(config)
    lora = item.setting.update.startswith("lora")
    trainable = (
        lora_parameters(config, int(recipe.lora["r"]), len(recipe.lora["target_modules"]))
        if lora
        else total
    )
    zero = recipe.deepspeed_for(item.setting.comm, int(config["hidden_size"]))["zero_optimization"]
    floor = estimate.model_state_floor(
        total_params=total + (trainable if lora else 0),
        trainable_params=trainable,
        precision=item.setting.precision,
        zero2_offload=item.stage.zero2_offload,
        reduce_bucket_size=int(zero.get("reduce_bucket_size", 500_000_000)),
        overlap_comm=bool(zero.get("overlap_comm", False)),
    )
    tokens = item.tokens or 0
    activations = estimate.activation_gb(
        batch=recipe.batch_size,
        tokens=tokens,
        hidden=config["hidden_size"],
        layers=config["num_hidden_layers"],
        heads=config["num_attention_heads"],
        vocab=config["vocab_size"],
        flash=item.stage.flash_attention,
        checkpointing=item.stage.checkpointing,
    )
    flops = 6.0 * total * recipe.batch_size * tokens * (4 / 3 if item.stage.checkpointing else 1)
    seconds = PROCESS_OVERHEAD_S + recipe.steps * flops / EFFECTIVE_FLOPS
    if item.stage.zero2_offload:
        seconds += 10.0 + trainable * 16 / 4e9 + recipe.steps * trainable / CPU_ADAM_PARAMS_PER_S
    return floor.value_gb + activations, seconds


def make_plan(
    recipe: PeakMemoryRecipe, items: list[WorkItem], run_dir: Path | None
) -> list[Planned]:
    planned = []
    for item in items:
        log_path = (run_dir or Path()) / "logs" / f"{item.key}.json"
        finished = run_dir is not None and read_status(log_path) in FINISHED
        if item.tokens is None:
            plan = PlanItem(item.key, _describe(recipe, item), runnable=False, reason=item.reason)
        else:
            gb, seconds = estimate_item(recipe, item)
            plan = PlanItem(item.key, _describe(recipe, item), gb, seconds)
        planned.append(Planned(item, plan, log_path, finished))
    return planned


def _describe(recipe: PeakMemoryRecipe, item: WorkItem) -> str:
    tokens = f"{item.tokens} tokens" if item.tokens else "does not fit"
    return (
        f"{item.model.architecture.name}, {item.stage.label}, {item.setting.id} ({tokens}, "
        f"batch {recipe.batch_size})"
    )
