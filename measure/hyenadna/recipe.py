"""The HyenaDNA claims recipe as data (`recipe.yaml`): models, protocols, their items and
estimates. Nothing here imports torch."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from measure.recipe_file import RecipeError as RecipeError  # one error type, named here too
from measure.recipe_file import read_recipe
from measure.recipe_file import require as _require

RECIPE_FILE = Path(__file__).with_name("recipe.yaml")
KINDS = ("memory", "time")
METHODS = ("inference", "finetune", "train-pass")
MIXERS = ("hyena", "attention")
PRECISIONS = ("fp32", "bf16-autocast")
PROCESS_OVERHEAD_S = 15.0
"""Start of a protocol's process: imports and CUDA context."""
ITEM_OVERHEAD_S = 2.0
"""Model construction and allocator reset per item."""
ATTENTION_FLOPS = 250e12
"""Causal FlashAttention (SDPA) throughput assumed for the baseline's time estimate."""


@dataclass(frozen=True)
class ModelDims:
    key: str
    d_model: int
    n_layer: int
    max_length: int
    dims_source: str


@dataclass(frozen=True)
class Item:
    """One measurement: a model (and mixer) at one length, one method, one setting."""

    protocol_key: str
    model: ModelDims
    method: str
    length: int
    batch: int
    checkpointing: bool
    precision: str
    mixer: str = "hyena"

    @property
    def key(self) -> str:
        mixer = "" if self.mixer == "hyena" else f"--{self.mixer}"
        ckpt = "--ckpt" if self.checkpointing else ""
        return f"{self.protocol_key}--{self.model.key}{mixer}--{self.method}--{self.length}{ckpt}"

    @property
    def description(self) -> str:
        mixer = "Transformer baseline" if self.mixer == "attention" else "HyenaDNA"
        ckpt = ", checkpointing" if self.checkpointing else ""
        return (
            f"{mixer} {self.model.key}, {self.method}, {self.length:,} tokens, "
            f"batch {self.batch}, {self.precision}{ckpt}"
        )


@dataclass(frozen=True)
class Expectation:
    """A published claim read as "the item fits (or does not fit) this card"."""

    claim: str
    """Id of the claim in the published evaluation."""
    model: str
    method: str
    card: str
    fits: bool
    checkpointing: bool | None = None
    """Only items with this checkpointing setting (any when None)."""

    def matches(self, settings: Mapping[str, Any]) -> bool:
        return (
            settings["model"] == self.model
            and settings["method"] == self.method
            and (self.checkpointing is None or settings["checkpointing"] == self.checkpointing)
        )


CARDS: tuple[tuple[str, float], ...] = (
    ("T4 16 GB", 16.0),
    ("A100 40 GB", 40.0),
    ("A100 80 GB", 80.0),
    ("H200 141 GB", 141.0),
)
"""GPUs the sources name (T4, Colab's A100, A100 80GB) and the one measured on, with their
memory in GB as their datasheets state it."""


def _expectations(data: Any, where: str, models: Mapping[str, ModelDims]) -> list[Expectation]:
    if not isinstance(data, list):
        raise RecipeError(f"{where}: expected a list")
    cards = [name for name, _ in CARDS]
    out = []
    for i, item in enumerate(data):
        at = f"{where}.{i}."
        model = _require(item, "model", str, at)
        if model not in models:
            raise RecipeError(f"{at}model: no model {model!r}")
        card = _require(item, "card", str, at)
        if card not in cards:
            raise RecipeError(f"{at}card: expected one of {', '.join(cards)}")
        method = _require(item, "method", str, at)
        if method not in METHODS:
            raise RecipeError(f"{at}method: expected one of {', '.join(METHODS)}")
        ckpt = item.get("checkpointing")
        if ckpt is not None and not isinstance(ckpt, bool):
            raise RecipeError(f"{at}checkpointing: expected true or false")
        out.append(
            Expectation(
                claim=_require(item, "claim", str, at),
                model=model,
                method=method,
                card=card,
                fits=_require(item, "fits", bool, at),
                checkpointing=ckpt,
            )
        )
    return out


@dataclass(frozen=True)
class ProtocolPlan:
    key: str
    protocol: str
    title: str
    kind: str
    items: tuple[Item, ...]
    reproduces: str
    """The published evaluation the protocol's measurements reproduce."""
    expectations: tuple[Expectation, ...] = ()
    warmup: int = 0
    repeats: int = 0


@dataclass(frozen=True)
class HyenaRecipe:
    seed: int
    steps: int
    source: str
    dataset: str
    family: str
    optimizer: Mapping[str, Any]
    models: Mapping[str, ModelDims]
    protocols: Mapping[str, ProtocolPlan]
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def by_protocol_id(self, protocol_id: str) -> ProtocolPlan:
        for plan in self.protocols.values():
            if protocol_id in (plan.protocol, plan.key):
                return plan
        raise RecipeError(f"protocols: no protocol {protocol_id!r}")


def _positive_ints(values: Any, where: str) -> list[int]:
    if not isinstance(values, list) or not values:
        raise RecipeError(f"{where}: expected a non-empty list of positive integers")
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise RecipeError(f"{where}: expected a non-empty list of positive integers")
    return list(values)


def _choices(values: Any, allowed: tuple[str, ...], where: str) -> list[str]:
    if not isinstance(values, list) or not values or any(v not in allowed for v in values):
        raise RecipeError(f"{where}: expected a non-empty list of {', '.join(allowed)}")
    return list(values)


def _protocol(key: str, data: Any, models: Mapping[str, ModelDims]) -> ProtocolPlan:
    where = f"protocols.{key}."
    kind = _require(data, "kind", str, where)
    if kind not in KINDS:
        raise RecipeError(f"{where}kind: expected one of {', '.join(KINDS)}")
    model_keys = _require(data, "models", list, where)
    for name in model_keys:
        if name not in models:
            raise RecipeError(f"{where}models: no model {name!r} (known: {', '.join(models)})")
    methods = _choices(_require(data, "methods", list, where), METHODS, f"{where}methods")
    mixers = _choices(data.get("mixers", ["hyena"]), MIXERS, f"{where}mixers")
    checkpointing = _require(data, "checkpointing", list, where)
    if not checkpointing or any(not isinstance(c, bool) for c in checkpointing):
        raise RecipeError(f"{where}checkpointing: expected a list of true/false")
    precision = _require(data, "precision", str, where)
    if precision not in PRECISIONS:
        raise RecipeError(f"{where}precision: expected one of {', '.join(PRECISIONS)}")
    batch = _require(data, "batch", int, where)
    if batch < 1:
        raise RecipeError(f"{where}batch: must be positive")
    lengths = _positive_ints(data["lengths"], f"{where}lengths") if "lengths" in data else None
    items = []
    for name in model_keys:
        dims = models[name]
        for mixer in mixers:
            for method in methods:
                for length in lengths or [dims.max_length]:
                    if length > dims.max_length:
                        raise RecipeError(
                            f"{where}lengths: {length} exceeds {name}'s {dims.max_length}"
                        )
                    for ckpt in checkpointing:
                        items.append(Item(key, dims, method, length, batch, ckpt, precision, mixer))
    warmup = data.get("warmup", 0)
    repeats = data.get("repeats", 0)
    if kind == "time" and (not isinstance(repeats, int) or repeats < 1):
        raise RecipeError(f"{where}repeats: a time protocol needs at least one repeat")
    return ProtocolPlan(
        key=key,
        protocol=_require(data, "protocol", str, where),
        title=_require(data, "title", str, where),
        kind=kind,
        items=tuple(items),
        reproduces=_require(data, "reproduces", str, where),
        expectations=tuple(
            _expectations(data.get("expectations", []), f"{where}expectations", models)
        ),
        warmup=int(warmup),
        repeats=int(repeats),
    )


def parse_recipe(data: Any) -> HyenaRecipe:
    """Check and convert the recipe data; RecipeError names the first wrong field."""
    if not isinstance(data, Mapping):
        raise RecipeError("recipe: expected a mapping")
    models: dict[str, ModelDims] = {}
    for key, dims in _require(data, "models", dict).items():
        where = f"models.{key}."
        values = [_require(dims, f, int, where) for f in ("d_model", "n_layer", "max_length")]
        if min(values) < 1:
            raise RecipeError(f"{where}: dimensions must be positive")
        models[key] = ModelDims(
            key=key,
            d_model=values[0],
            n_layer=values[1],
            max_length=values[2],
            dims_source=_require(dims, "dims_source", str, where),
        )
    protocols = {
        key: _protocol(key, value, models)
        for key, value in _require(data, "protocols", dict).items()
    }
    steps = _require(data, "steps", int)
    if steps < 1:
        raise RecipeError("steps: must be positive")
    return HyenaRecipe(
        seed=_require(data, "seed", int),
        steps=steps,
        source=_require(data, "source", str),
        dataset=_require(data, "dataset", str),
        family=_require(data, "family", str),
        optimizer=_require(data, "optimizer", dict),
        models=models,
        protocols=protocols,
        raw=dict(data),
    )


def load_recipe(path: Path = RECIPE_FILE) -> HyenaRecipe:
    return read_recipe(path, parse_recipe)


def parameters(dims: ModelDims, mixer: str = "hyena") -> int:
    """Approximate parameters (projections and MLP dominate)."""
    d = dims.d_model
    mixer_params = 4 * d * d if mixer == "attention" else 3 * d * d + d * d + 64 * d
    return dims.n_layer * (mixer_params + 8 * d * d) + 16 * d


def estimate(item: Item, warmup: int = 0, repeats: int = 0) -> tuple[float, float]:
    """(GB, seconds) for the plan. Memory: activations of a Hyena layer (projections, short
    filter and the float32 FFT buffers of length 2L: about 24 floats per channel and token
    for inference, 33 kept for backward) times the layers kept, or, with checkpointing, the
    block inputs of every layer plus one layer's recompute; then weights and AdamW states.
    Fitted to the H200 run 20261130-hyenadna-e1 within 20%. Time: the baseline's quadratic
    attention; the rest is launch-bound at these sizes. For planning only."""
    d, n, length = item.model.d_model, item.model.n_layer, item.length * item.batch
    width = 4 if item.precision == "fp32" else 2
    if item.mixer == "hyena":  # the FFT runs in float32 whatever the precision
        per_layer = (24 if item.method == "inference" else 33) * d * length * 4
    else:
        per_layer = 16 * d * length * width
    if item.method == "inference":
        activations = per_layer
    elif item.checkpointing:
        activations = n * d * length * 4 * 4 + per_layer
    else:
        activations = n * per_layer
    states = parameters(item.model, item.mixer) * (4 if item.method == "inference" else 16)
    gb = (activations + states) / 1e9
    seconds = ITEM_OVERHEAD_S + 1e-8 * n * d * length / 32
    if item.mixer == "attention":
        passes = 4.5 if item.checkpointing else 3.5  # forward, backward (2x), recompute
        flops = passes * 2 * item.length**2 * d * n * item.batch
        seconds += flops / ATTENTION_FLOPS * (warmup + repeats)
    return gb, seconds


def item_spec(item: Item) -> dict[str, Any]:
    return {
        "key": item.key,
        "model": item.model.key,
        "dims_source": item.model.dims_source,
        "d_model": item.model.d_model,
        "n_layer": item.model.n_layer,
        "max_length": item.model.max_length,
        "method": item.method,
        "mixer": item.mixer,
        "length": item.length,
        "batch": item.batch,
        "checkpointing": item.checkpointing,
        "precision": item.precision,
    }


def run_spec(
    recipe: HyenaRecipe,
    plan: ProtocolPlan,
    items: list[Item],
    run_id: str,
    *,
    device: str = "cuda",
    command: str = "",
) -> dict[str, Any]:
    """What the worker process is told to run."""
    from measure import env

    return {
        "recipe": f"hyenadna-{plan.key}",
        "protocol": plan.protocol,
        "protocol_key": plan.key,
        "run_id": run_id,
        "kind": plan.kind,
        "steps": recipe.steps,
        "warmup": plan.warmup,
        "repeats": plan.repeats,
        "seed": recipe.seed,
        "source": recipe.source,
        "optimizer": dict(recipe.optimizer),
        "device": device,
        "command": command or env.command_line(),
        "environment_note": "One process runs the protocol's items one after another on one "
        "GPU (allocator reset between items); random weights from the checkpoint's dimensions.",
        "items": [item_spec(i) for i in items],
    }
