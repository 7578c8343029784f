"""The peak-memory recipe as data (`recipe.yaml`), parsed and checked, and its work items.

A work item is one stage of one model under one setting (precision policy, update, length,
and for the ZeRO-2 stage the DeepSpeed communication settings); each runs in its own process.
Nothing here imports torch.
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from measure.architectures.registry import get_architecture
from measure.recipe_file import RecipeError as RecipeError  # one error type, named here too
from measure.recipe_file import RecipeModel, read_recipe
from measure.recipe_file import require as _require

RECIPE_FILE = Path(__file__).with_name("recipe.yaml")
KNOBS = ("precision", "update", "length", "comm", "attention")
COMM = "comm"
ATTENTION = "attention"
"""The FlashAttention implementation knob: it changes only stages with FlashAttention."""
DEFAULT_ATTENTION = "auto"
"""The attention value of settings that name none: the `flash_attn` package's FlashAttention
2 API when importable, else PyTorch SDPA's FlashAttention backend (older runs)."""
DEFAULT_ATTENTION_TEXT = (
    "the flash_attn package's FlashAttention 2 API (transformers flash_attention_2) when "
    "importable, else PyTorch SDPA restricted to its FlashAttention backend"
)
"""The DeepSpeed communication knob: it changes only the ZeRO-2 stage's DeepSpeed config."""
DEFAULT_COMM = "ds-default"
"""The comm value of settings that name none (DeepSpeed's own defaults; older runs)."""
AUTO = "auto"
"""A bucket size the Hugging Face Trainer fills in: hidden_size x hidden_size for
`reduce_bucket_size` (transformers.integrations.deepspeed, `trainer_config_finalize`)."""


@dataclass(frozen=True)
class Stage:
    id: str
    label: str
    flash_attention: bool
    checkpointing: bool
    zero2_offload: bool


@dataclass(frozen=True)
class ModelEntry(RecipeModel):
    kmer: int | None = None
    nucleotides_per_token: float | None = None
    special_tokens: int = 0


@dataclass(frozen=True)
class Setting:
    precision: str
    update: str
    length: str
    comm: str = DEFAULT_COMM
    attention: str = DEFAULT_ATTENTION

    @property
    def id(self) -> str:
        """`bf16-full-1000nt`, with `-<comm>` appended unless comm is DeepSpeed's default
        and `-<attention>` unless attention is `auto` (so the ids of settings measured
        before these were knobs stay as they were)."""
        base = f"{self.precision}-{self.update}-{self.length}"
        base = base if self.comm == DEFAULT_COMM else f"{base}-{self.comm}"
        return base if self.attention == DEFAULT_ATTENTION else f"{base}-{self.attention}"

    def as_dict(self) -> dict[str, str]:
        return {
            "precision": self.precision,
            "update": self.update,
            "length": self.length,
            "comm": self.comm,
            "attention": self.attention,
        }


@dataclass(frozen=True)
class SweepEntry:
    name: str
    about: str
    values: Mapping[str, tuple[str, ...]]
    stages: tuple[str, ...]
    models: tuple[str, ...] = ()
    """Models the entry applies to; empty: every model."""

    def settings(self) -> list[Setting]:
        combos = itertools.product(*(self.values[k] for k in KNOBS))
        return [Setting(*combo) for combo in combos]


@dataclass(frozen=True)
class CommSetting:
    """One value of the comm knob: what it changes in `zero_optimization`, and why."""

    id: str
    description: str
    zero_optimization: Mapping[str, Any]
    """Overrides of the recipe's `deepspeed.zero_optimization` (`auto`: filled in as the
    Hugging Face Trainer does)."""
    source: str = ""


@dataclass(frozen=True)
class WorkItem:
    model: ModelEntry
    stage: Stage
    setting: Setting
    tokens: int | None
    """Tokens per sequence; None when the model cannot take the requested length."""
    reason: str | None = None
    group: int = 0
    """Index of the sweep entry that asked for the item: earlier entries run first."""

    @property
    def key(self) -> str:
        return f"{self.model.key}--{self.stage.id}--{self.setting.id}"


@dataclass(frozen=True)
class PeakMemoryRecipe:
    id: str
    protocol: str
    dataset: str
    title: str
    batch_size: int
    length: int
    seed: int
    steps: int
    data: str
    optimizer: Mapping[str, Any]
    lora: Mapping[str, Any]
    deepspeed: Mapping[str, Any]
    models: tuple[ModelEntry, ...]
    stages: tuple[Stage, ...]
    knobs: Mapping[str, Mapping[str, str]]
    sweep: tuple[SweepEntry, ...]
    comm: Mapping[str, CommSetting] = field(default_factory=dict)
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def model(self, key: str) -> ModelEntry:
        for entry in self.models:
            if entry.key == key:
                return entry
        raise RecipeError(f"models: no model {key!r} (known: {_names(self.models)})")

    def stage(self, stage_id: str) -> Stage:
        for stage in self.stages:
            if stage.id == stage_id:
                return stage
        raise RecipeError(f"stages: no stage {stage_id!r} (known: {_names(self.stages)})")

    def describe(self, setting: Setting, *, zero2: bool = False) -> str:
        return self.describe_values(setting.as_dict(), zero2=zero2)

    def describe_values(self, setting: Mapping[str, str], *, zero2: bool = False) -> str:
        """The knobs' descriptions of a setting, joined: what a record says was run. The
        comm knob is described only for a ZeRO-2 stage (`zero2`), the one it changes; a
        setting without comm (older logs) ran DeepSpeed's defaults. The attention knob is
        described only when it is not `auto` (the stage's attention text says what ran)."""
        defaults = {COMM: DEFAULT_COMM, ATTENTION: DEFAULT_ATTENTION}
        knobs = [
            k
            for k in KNOBS
            if (k != COMM or zero2)
            and (k != ATTENTION or setting.get(ATTENTION, DEFAULT_ATTENTION) != DEFAULT_ATTENTION)
        ]
        return "; ".join(self.knobs[k][setting.get(k, defaults.get(k, ""))] for k in knobs)

    def deepspeed_for(self, comm: str, hidden_size: int) -> dict[str, Any]:
        """The recipe's DeepSpeed block with the comm value's overrides applied; `auto`
        bucket sizes become hidden_size x hidden_size, as the Hugging Face Trainer fills
        `reduce_bucket_size` (it fills no other ZeRO-2 bucket)."""
        if comm not in self.comm:
            raise RecipeError(f"comm: no value {comm!r} (known: {', '.join(self.comm)})")
        config = copy.deepcopy(dict(self.deepspeed))
        zero = dict(config.get("zero_optimization", {}))
        for key, value in self.comm[comm].zero_optimization.items():
            if value == AUTO:  # only reduce_bucket_size may be 'auto' (checked on parsing)
                value = hidden_size * hidden_size
            zero[key] = value
        config["zero_optimization"] = zero
        return config

    def tokens(self, model: ModelEntry, length_value: str) -> tuple[int | None, str | None]:
        """Tokens per sequence for a length setting, or None and the reason it cannot run."""
        arch = model.architecture
        if length_value.endswith("tok"):
            wanted = int(length_value.removesuffix("tok"))
            if wanted > arch.max_tokens:
                return None, (
                    f"{arch.name} has {arch.max_tokens} positions; {wanted} tokens do not fit"
                )
            return wanted, None
        nucleotides = int(length_value.removesuffix("nt"))
        return nucleotide_tokens(model, nucleotides), None


def nucleotide_tokens(model: ModelEntry, nucleotides: int) -> int:
    """Tokens for `nucleotides` bases under the model's own rule: non-overlapping k-mers with
    leftover bases as single tokens, or a fixed number of bases per BPE token; plus specials."""
    if model.kmer:
        body = nucleotides // model.kmer + nucleotides % model.kmer
    elif model.nucleotides_per_token:
        body = math.floor(nucleotides / model.nucleotides_per_token + 0.5)
    else:
        raise RecipeError(f"models.{model.key}: needs kmer or nucleotides_per_token")
    return body + model.special_tokens


def _names(entries: Iterable[Any]) -> str:
    return ", ".join(getattr(e, "id", None) or e.key for e in entries)


def parse_recipe(data: Mapping[str, Any]) -> PeakMemoryRecipe:
    """Check and convert the recipe data; RecipeError names the first wrong field."""
    if not isinstance(data, Mapping):
        raise RecipeError("recipe: expected a mapping")
    models = []
    for i, item in enumerate(_require(data, "models", list, "")):
        where = f"models.{i}."
        key = _require(item, "key", str, where)
        try:
            get_architecture(key)
        except KeyError as error:
            raise RecipeError(f"{where}key: {error.args[0]}") from None
        entry = ModelEntry(
            key=key,
            family=_require(item, "family", str, where),
            kmer=item.get("kmer"),
            nucleotides_per_token=item.get("nucleotides_per_token"),
            special_tokens=int(item.get("special_tokens", 0)),
        )
        if entry.kmer is None and entry.nucleotides_per_token is None:
            raise RecipeError(f"{where}: needs kmer or nucleotides_per_token")
        models.append(entry)
    stages = []
    for i, item in enumerate(_require(data, "stages", list, "")):
        where = f"stages.{i}."
        stages.append(
            Stage(
                id=_require(item, "id", str, where),
                label=_require(item, "label", str, where),
                flash_attention=_require(item, "flash_attention", bool, where),
                checkpointing=_require(item, "checkpointing", bool, where),
                zero2_offload=_require(item, "zero2_offload", bool, where),
            )
        )
    knobs = dict(_require(data, "knobs", dict, ""))
    knobs.setdefault(COMM, {DEFAULT_COMM: DEFAULT_COMM_TEXT})
    knobs.setdefault(ATTENTION, {DEFAULT_ATTENTION: DEFAULT_ATTENTION_TEXT})
    comm = _parse_comm(data.get("comm_settings", {}), knobs[COMM])
    for knob in KNOBS:
        if not isinstance(knobs.get(knob), dict) or not knobs[knob]:
            raise RecipeError(f"knobs.{knob}: required, a mapping of value -> description")
    for value in knobs["length"]:
        if not (value.endswith("nt") or value.endswith("tok")):
            raise RecipeError(f"knobs.length.{value}: must end in 'nt' or 'tok'")
    stage_ids = {s.id for s in stages}
    sweep = []
    for i, item in enumerate(_require(data, "sweep", list, "")):
        where = f"sweep.{i}."
        values: dict[str, tuple[str, ...]] = {}
        for knob in KNOBS:
            if knob == COMM and COMM not in item:
                values[knob] = (DEFAULT_COMM,)
                continue
            if knob == ATTENTION and ATTENTION not in item:
                values[knob] = (DEFAULT_ATTENTION,)
                continue
            chosen = tuple(_require(item, knob, list, where))
            unknown = [v for v in chosen if v not in knobs[knob]]
            if unknown:
                raise RecipeError(f"{where}{knob}: unknown value(s) {', '.join(unknown)}")
            values[knob] = chosen
        chosen_stages = tuple(_require(item, "stages", list, where))
        unknown = [s for s in chosen_stages if s not in stage_ids]
        if unknown:
            raise RecipeError(f"{where}stages: unknown stage(s) {', '.join(unknown)}")
        chosen_models = tuple(item.get("models", ()))
        unknown = [m for m in chosen_models if m not in {e.key for e in models}]
        if unknown:
            raise RecipeError(f"{where}models: unknown model(s) {', '.join(unknown)}")
        sweep.append(
            SweepEntry(
                name=_require(item, "name", str, where),
                about=str(item.get("about", "")),
                values=values,
                stages=chosen_stages,
                models=chosen_models,
            )
        )
    return PeakMemoryRecipe(
        id=_require(data, "id", str, ""),
        protocol=_require(data, "protocol", str, ""),
        dataset=_require(data, "dataset", str, ""),
        title=_require(data, "title", str, ""),
        batch_size=_require(data, "batch_size", int, ""),
        length=_require(data, "length", int, ""),
        seed=_require(data, "seed", int, ""),
        steps=_require(data, "steps", int, ""),
        data=_require(data, "data", str, ""),
        optimizer=_require(data, "optimizer", dict, ""),
        lora=_require(data, "lora", dict, ""),
        deepspeed=_require(data, "deepspeed", dict, ""),
        models=tuple(models),
        stages=tuple(stages),
        knobs=knobs,
        sweep=tuple(sweep),
        comm=comm,
        raw=dict(data),
    )


DEFAULT_COMM_TEXT = (
    "DeepSpeed's communication defaults (overlap_comm false, reduce and allgather buckets "
    "of 5e8 elements)"
)


def _parse_comm(data: Any, knob: Mapping[str, str]) -> dict[str, CommSetting]:
    """`comm_settings`: for each comm knob value, its `zero_optimization` overrides."""
    if not isinstance(data, Mapping):
        raise RecipeError("comm_settings: expected a mapping of comm value -> overrides")
    out: dict[str, CommSetting] = {}
    for value, description in knob.items():
        entry = data.get(value, {} if value == DEFAULT_COMM else None)
        if entry is None:
            raise RecipeError(f"comm_settings.{value}: required for knobs.comm.{value}")
        if not isinstance(entry, Mapping):
            raise RecipeError(f"comm_settings.{value}: expected a mapping")
        overrides = entry.get("zero_optimization", {})
        if not isinstance(overrides, Mapping):
            raise RecipeError(f"comm_settings.{value}.zero_optimization: expected a mapping")
        for key, setting in overrides.items():
            if key not in COMM_KEYS:
                raise RecipeError(
                    f"comm_settings.{value}.zero_optimization.{key}: not a communication "
                    f"setting (known: {', '.join(COMM_KEYS)})"
                )
            if setting == AUTO and key != "reduce_bucket_size":
                raise RecipeError(
                    f"comm_settings.{value}.zero_optimization.{key}: 'auto' is filled by the "
                    "Hugging Face Trainer only for reduce_bucket_size in ZeRO-2"
                )
            if key == "overlap_comm" and not isinstance(setting, bool):
                raise RecipeError(f"comm_settings.{value}.zero_optimization.{key}: expected bool")
            if key != "overlap_comm" and not (
                setting == AUTO or (isinstance(setting, int | float) and setting > 0)
            ):
                raise RecipeError(
                    f"comm_settings.{value}.zero_optimization.{key}: expected a positive "
                    "number of elements or 'auto'"
                )
        out[value] = CommSetting(
            id=value,
            description=str(description),
            zero_optimization={
                k: (v if isinstance(v, bool) or v == AUTO else int(v)) for k, v in overrides.items()
            },
            source=str(entry.get("source", "")),
        )
    unknown = [v for v in data if v not in knob]
    if unknown:
        raise RecipeError(f"comm_settings: value(s) {', '.join(unknown)} not in knobs.comm")
    return out


COMM_KEYS = ("overlap_comm", "reduce_bucket_size", "allgather_bucket_size")


def load_recipe(path: Path = RECIPE_FILE) -> PeakMemoryRecipe:
    """The recipe in `path` (the shipped recipe.yaml by default)."""
    return read_recipe(path, parse_recipe)


def parse_setting_filters(specs: Sequence[str], recipe: PeakMemoryRecipe) -> list[dict[str, str]]:
    """`--settings` values: a setting id (`bf16-full-1000nt`) or `knob=value[,knob=value]`."""
    known = {
        Setting(*combo).id: Setting(*combo)
        for combo in itertools.product(*(recipe.knobs[k] for k in KNOBS))
    }
    filters: list[dict[str, str]] = []
    for spec in specs:
        if spec in known:
            filters.append(known[spec].as_dict())
            continue
        current: dict[str, str] = {}
        for part in spec.split(","):
            knob, sep, value = part.partition("=")
            knob, value = knob.strip(), value.strip()
            if not sep or knob not in KNOBS:
                raise RecipeError(
                    f"--settings {spec!r}: expected a setting id or knob=value "
                    f"(knobs: {', '.join(KNOBS)})"
                )
            if value not in recipe.knobs[knob]:
                raise RecipeError(
                    f"--settings {spec!r}: {knob} has no value {value!r} "
                    f"(values: {', '.join(recipe.knobs[knob])})"
                )
            current[knob] = value
        current.setdefault(COMM, DEFAULT_COMM)  # a filter naming no comm: DeepSpeed's defaults
        current.setdefault(ATTENTION, DEFAULT_ATTENTION)
        filters.append(current)
    return filters


def work_items(
    recipe: PeakMemoryRecipe,
    *,
    models: Sequence[str] = (),
    stages: Sequence[str] = (),
    settings: Sequence[str] = (),
) -> list[WorkItem]:
    """Items of the default sweep (or, with `--settings`, of every knob combination that a
    filter selects, at every requested stage), filtered by model and stage, in order."""
    model_entries = [recipe.model(k) for k in models] if models else list(recipe.models)
    for stage_id in stages:
        recipe.stage(stage_id)
    pairs: list[tuple[Setting, tuple[str, ...], tuple[str, ...], int]] = []
    if settings:
        filters = parse_setting_filters(settings, recipe)
        all_stages = tuple(s.id for s in recipe.stages)
        for combo in itertools.product(*(recipe.knobs[k] for k in KNOBS)):
            setting = Setting(*combo)
            chosen = setting.as_dict()
            if any(all(chosen[k] == v for k, v in f.items()) for f in filters):
                pairs.append((setting, all_stages, (), 0))
    else:
        pairs = [
            (s, entry.stages, entry.models, group)
            for group, entry in enumerate(recipe.sweep)
            for s in entry.settings()
        ]
    items: list[WorkItem] = []
    seen: set[str] = set()
    for model in model_entries:
        for setting, stage_ids, only, group in pairs:
            if only and model.key not in only:
                continue
            for stage in recipe.stages:
                if stage.id not in stage_ids or (stages and stage.id not in stages):
                    continue
                if setting.comm != DEFAULT_COMM and not stage.zero2_offload:
                    continue  # the comm knob changes only the ZeRO-2 stage
                if setting.attention != DEFAULT_ATTENTION and not stage.flash_attention:
                    continue  # the attention knob changes only FlashAttention stages
                tokens, reason = recipe.tokens(model, setting.length)
                item = WorkItem(model, stage, setting, tokens, reason, group)
                if item.key not in seen:
                    seen.add(item.key)
                    items.append(item)
    return items
