"""The memory-curve recipe as data (`recipe.yaml`), its points and their estimates.

A point is one model, method, batch and input length; each runs in its own process.
Lengths double from `start_tokens` up to the model's maximum, the maximum included, so a
curve is read only within the measured range. Nothing here imports torch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from measure.architectures.registry import get_architecture
from measure.architectures.spec import Architecture
from measure.peak_memory import estimate
from measure.peak_memory.plan import lora_parameters, parameter_counts
from measure.recipe_file import RecipeError as RecipeError  # one error type, named here too
from measure.recipe_file import RecipeModel, read_recipe
from measure.recipe_file import require as _require

RECIPE_FILE = Path(__file__).with_name("recipe.yaml")
METHODS = ("inference", "peft", "full", "full-mixed", "full-mixed-ckpt", "embed")
"""Every method a recipe file may name; a recipe runs the methods it describes (the memory
curves the first five, the embedding-throughput recipe `throughput.yaml` only `embed`)."""
THROUGHPUT_FILE = Path(__file__).with_name("throughput.yaml")
CLAIMS_DIR = Path(__file__).with_name("claims")
"""Published efficiency claims, one recipe file each (fixed lengths, a precision, a device)."""
PROCESS_OVERHEAD_S = 20.0
"""Start of a process (one per model and method): imports, CUDA context, model build.
Measured on one H200 (run 20261130-curves-2310): 14-21 s from the worker's start to its
last point for each of the 15 processes, plus the interpreter's imports."""
POINT_OVERHEAD_S = 0.4
"""Per point: batch, reset, allocator statistics, log (same run: 144 points and 15
processes in 124 s of wall time with three processes at a time)."""
LONG_CONV_FAMILIES = ("hyena-lm", "caduceus")
"""Models without attention (HyenaDNA, Caduceus): their own plan estimates."""
EFFECTIVE_FLOPS = 250e12
"""bf16 throughput assumed for the time estimate (about a third of an H100/H200's peak)."""
CPU_EFFECTIVE_FLOPS = 0.5e12
"""fp32 throughput assumed for a recipe that runs on the CPU (a 16-core server CPU at a few
tens of percent of its vector peak); for the plan only."""
PRECISIONS = ("bf16", "fp32")
"""Weight precision of the frozen methods (inference, embed): bf16 by default; fp32 where a
source ran the model as loaded (transformers' default dtype)."""
DEVICES = ("cuda", "cpu")


@dataclass(frozen=True)
class CurveModel(RecipeModel):
    tokens: tuple[int, ...] = ()
    """Fixed input lengths in tokens (a published claim's inputs); empty: lengths double from
    the recipe's start_tokens to the model's maximum."""
    max_tokens: int | None = None
    """The longest input this recipe measures, where below the model's maximum (the time
    budget); None: the model's maximum."""


@dataclass(frozen=True)
class Point:
    model: CurveModel
    method: str
    batch: int
    tokens: int

    @property
    def key(self) -> str:
        return f"{self.model.key}--{self.method}--b{self.batch}--{self.tokens}tok"

    @property
    def column(self) -> str:
        """The protocol's result column: method and batch."""
        return f"{self.method}-batch-{self.batch}"


@dataclass(frozen=True)
class CurveRecipe:
    id: str
    protocol: str
    dataset: str
    title: str
    seed: int
    steps: int
    warmup: int
    """Leading steps left out of the timing (throughput); 0 for the memory curves."""
    start_tokens: int
    batches: tuple[int, ...]
    optimizer: Mapping[str, Any]
    lora: Mapping[str, Any]
    methods: Mapping[str, str]
    models: tuple[CurveModel, ...]
    precision: str = "bf16"
    """Weights of the frozen methods (inference, embed): bf16 or fp32."""
    device: str = "cuda"
    """Where the points run: cuda (the GPU slots) or cpu (a source that timed on a CPU)."""
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def model(self, key: str) -> CurveModel:
        for entry in self.models:
            if entry.key == key:
                return entry
        known = ", ".join(m.key for m in self.models)
        raise RecipeError(f"models: no model {key!r} (known: {known})")


def lengths(start: int, maximum: int) -> list[int]:
    """start, 2 x start, ... below `maximum`, then `maximum` itself."""
    if start < 1 or start > maximum:
        raise RecipeError(f"start_tokens {start} must be between 1 and the maximum {maximum}")
    out = []
    length = start
    while length < maximum:
        out.append(length)
        length *= 2
    return [*out, maximum]


def parse_recipe(data: Any) -> CurveRecipe:
    """Check and convert the recipe data; RecipeError names the first wrong field."""
    if not isinstance(data, Mapping):
        raise RecipeError("recipe: expected a mapping")
    methods = _require(data, "methods", dict)
    if not methods or not set(methods) <= set(METHODS):
        raise RecipeError(f"methods: expected some of {', '.join(METHODS)}")
    batches = _require(data, "batches", list)
    if not batches or any(not isinstance(b, int) or isinstance(b, bool) or b < 1 for b in batches):
        raise RecipeError("batches: expected a list of positive integers")
    models = []
    for i, item in enumerate(_require(data, "models", list)):
        where = f"models.{i}."
        key = _require(item, "key", str, where)
        try:
            get_architecture(key)
        except KeyError as error:
            raise RecipeError(f"{where}key: {error.args[0]}") from None
        tokens = item.get("tokens", [])
        if not isinstance(tokens, list) or any(
            not isinstance(t, int) or isinstance(t, bool) or t < 1 for t in tokens
        ):
            raise RecipeError(f"{where}tokens: expected a list of positive integers")
        maximum = get_architecture(key).max_tokens
        if any(t > maximum for t in tokens):
            raise RecipeError(f"{where}tokens: longer than the model's maximum ({maximum})")
        cap = item.get("max_tokens")
        if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 1):
            raise RecipeError(f"{where}max_tokens: expected a positive integer")
        family = _require(item, "family", str, where)
        models.append(CurveModel(key=key, family=family, tokens=tuple(tokens), max_tokens=cap))
    start = _require(data, "start_tokens", int)
    if start < 1:
        raise RecipeError("start_tokens: must be positive")
    steps = _require(data, "steps", int)
    if steps < 1:
        raise RecipeError("steps: must be positive")
    warmup = data.get("warmup", 0)
    if not isinstance(warmup, int) or isinstance(warmup, bool) or not 0 <= warmup < steps:
        raise RecipeError("warmup: expected an integer from 0 to steps - 1")
    precision = data.get("precision", "bf16")
    if precision not in PRECISIONS:
        raise RecipeError(f"precision: expected one of {', '.join(PRECISIONS)}")
    device = data.get("device", "cuda")
    if device not in DEVICES:
        raise RecipeError(f"device: expected one of {', '.join(DEVICES)}")
    return CurveRecipe(
        id=_require(data, "id", str),
        protocol=_require(data, "protocol", str),
        dataset=_require(data, "dataset", str),
        title=_require(data, "title", str),
        seed=_require(data, "seed", int),
        steps=steps,
        warmup=warmup,
        start_tokens=start,
        batches=tuple(batches),
        optimizer=_require(data, "optimizer", dict),
        lora=_require(data, "lora", dict),
        methods=methods,
        models=tuple(models),
        precision=precision,
        device=device,
        raw=dict(data),
    )


def load_recipe(path: Path = RECIPE_FILE) -> CurveRecipe:
    return read_recipe(path, parse_recipe)


def points(
    recipe: CurveRecipe,
    *,
    models: Sequence[str] = (),
    methods: Sequence[str] = (),
    batches: Sequence[int] = (),
) -> list[Point]:
    """Every point, shortest inputs first within a model, method and batch."""
    for method in methods:
        if method not in recipe.methods:
            known = ", ".join(recipe.methods)
            raise RecipeError(f"--stages: no method {method!r} (methods: {known})")
    chosen = [recipe.model(k) for k in models] if models else list(recipe.models)
    out = []
    for model in chosen:
        maximum = model.architecture.max_tokens
        if model.max_tokens is not None:
            maximum = min(maximum, model.max_tokens)
        chosen_lengths = list(model.tokens) or lengths(recipe.start_tokens, maximum)
        for method in methods or tuple(recipe.methods):
            for batch in batches or recipe.batches:
                for tokens in chosen_lengths:
                    out.append(Point(model, method, batch, tokens))
    return out


def peft_parameters(arch: Architecture, lora: Mapping[str, Any]) -> int:
    """Trainable parameters of the peft method: IA3 vectors and a 2-class head (ESM), or
    LoRA on the attention projections (BERT)."""
    c = arch.config
    if arch.family in LONG_CONV_FAMILIES:  # LoRA on the mixers' in_proj and out_proj
        d, r = int(c["d_model"]), int(lora["r"])
        per_layer = r * (d + 3 * d) + r * (d + d)  # Hyena: in_proj d -> 3d; out_proj d -> d
        if (
            arch.family == "caduceus"
        ):  # two mixers (tied projections wrapped apart): d -> 4d, 2d -> d
            per_layer = 2 * (r * (d + 4 * d) + r * (2 * d + d))
        return int(c["n_layer"]) * per_layer
    h, n, f = int(c["hidden_size"]), int(c["num_hidden_layers"]), int(c["intermediate_size"])
    if arch.family == "esm":
        return n * (2 * h + f) + h * h + h + 2 * h + 2
    if arch.family == "mosaic-bert-alibi":  # one fused Wqkv: r x (h + 3h) per layer
        return n * int(lora["r"]) * 4 * h
    return lora_parameters(c, int(lora["r"]), len(lora["target_modules"]))


def estimate_point(
    recipe: CurveRecipe, point: Point, *, process_start: bool = True
) -> tuple[float, float]:
    """(GB, seconds): weights, the method's gradients and AdamW states, activations; and
    the point's steps plus its overhead (with the process's start for the first point of a
    model and method). For the plan only."""
    arch = point.model.architecture
    if arch.family in LONG_CONV_FAMILIES:
        return _long_conv_estimate(recipe, point, process_start)
    c = arch.config
    total = parameter_counts(c)
    frozen_bytes = 4 if recipe.precision == "fp32" else 2
    if point.method in ("inference", "embed"):
        states = total * frozen_bytes
    elif point.method == "peft":
        states = total * 2 + peft_parameters(arch, recipe.lora) * (4 + 4 + 8)
    elif point.method.startswith("full-mixed"):
        states = total * 16  # fp32 weights, gradients and two AdamW moments
    else:
        states = int(
            estimate.model_state_floor(
                total_params=total,
                trainable_params=total,
                precision="bf16",
                zero2_offload=False,
            ).value_gb
            * 1e9
        )
    activations = estimate.activation_gb(
        batch=point.batch,
        tokens=point.tokens,
        hidden=int(c["hidden_size"]),
        layers=int(c["num_hidden_layers"]),
        heads=int(c["num_attention_heads"]),
        vocab=int(c["vocab_size"]),
        flash=True,
        checkpointing=point.method == "full-mixed-ckpt",
    )
    if point.method in ("inference", "embed"):
        activations /= int(c["num_hidden_layers"])  # no activations kept between layers
    passes = 2.0 if point.method in ("inference", "embed") else 6.0
    flops = passes * total * point.batch * point.tokens * recipe.steps
    start = PROCESS_OVERHEAD_S if process_start else 0.0
    rate = CPU_EFFECTIVE_FLOPS if recipe.device == "cpu" else EFFECTIVE_FLOPS
    return states / 1e9 + activations, start + POINT_OVERHEAD_S + flops / rate


def _long_conv_estimate(
    recipe: CurveRecipe, point: Point, process_start: bool
) -> tuple[float, float]:
    """(GB, seconds) for HyenaDNA and Caduceus, for the plan only. Memory: parameters at the
    method's bytes per parameter, plus activations per token and layer: HyenaDNA about 33
    float32 values per channel kept for the backward pass (the FFT buffers; as
    measure/hyenadna/recipe.py's estimate), Caduceus about 10 values per inner channel for
    each of its 4 streams (2 strands x 2 directions). Time: elementwise work of the FFTs or
    of the reference scan: HyenaDNA as measure/hyenadna/recipe.py's estimate (fitted to an
    H200 run), Caduceus its d_state-wide float32 states, about 12 passes over them per mixer,
    at an assumed 5e11 values per second; three passes for a training step."""
    arch = point.model.architecture
    c = arch.config
    d, layers = int(c["d_model"]), int(c["n_layer"])
    tokens = point.batch * point.tokens
    total = arch.published_parameters
    per_parameter = {"inference": 2, "embed": 2, "peft": 2, "full": 8}.get(point.method, 16)
    if arch.family == "hyena-lm":
        per_token_layer = 33 * d * 4
        pass_seconds = 1e-8 * layers * d * tokens / 32
    else:
        per_token_layer = 4 * 10 * 2 * d * 2
        pass_seconds = 4 * 2 * d * int(c["d_state"]) * 12 * tokens * layers / 5e11
    inference = point.method in ("inference", "embed")
    if inference:
        activations = per_token_layer * tokens
    elif point.method == "full-mixed-ckpt":
        activations = per_token_layer * tokens + layers * tokens * 2 * d * 4
    else:
        activations = per_token_layer * tokens * layers
    passes = 1 if inference else 3
    seconds = passes * pass_seconds * recipe.steps
    start = PROCESS_OVERHEAD_S if process_start else 0.0
    return (total * per_parameter + activations) / 1e9, start + POINT_OVERHEAD_S + seconds
