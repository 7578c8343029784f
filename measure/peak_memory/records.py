"""Records of a peak-memory run: one configuration and one evaluation (origin
rewire_measurement) per finished stage log, linked to the published evaluation it
reproduces, with the raw log as an artifact; validated, then written as new files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console

from measure.builder import (
    Measured,
    ResultGaps,
    configuration_record,
    counted_parameters,
    evaluation_record,
    peak_result,
    synthetic_comparison,
    transformers_version,
)
from measure.peak_memory.plan import Planned
from measure.peak_memory.published import Published, published_values
from measure.peak_memory.recipe import (
    ATTENTION,
    COMM,
    DEFAULT_ATTENTION,
    DEFAULT_COMM,
    PeakMemoryRecipe,
)
from measure.records import (
    added_on,
    cite_artifact,
    measurement_environment,
    memory_observations,
    recorded,
    write_finished,
)
from measure.records import item_record_ids as record_ids


def _setting_text(recipe: PeakMemoryRecipe, log: dict[str, Any]) -> dict[str, str]:
    setting = log["setting"]
    settings = {
        "stage": log["stage"]["id"],
        "precision": setting["precision"],
        "update": setting["update"],
        "length": setting["length"],
        "tokens_per_sequence": str(log["tokens"]),
        "batch_size": str(log["batch"]),
        "steps": str(log["steps"]),
        "attention": log["features"]["attention_backend"],
        "activation_checkpointing": str(log["features"]["checkpointing"]).lower(),
        "zero2_cpu_offload": str(log["features"]["zero2_offload"]).lower(),
        "optimizer": str(log.get("optimizer", "unknown")),
        "learning_rate": str(recipe.optimizer["lr"]),
    }
    if log.get("nucleotides"):
        settings["nucleotides_per_sequence"] = str(log["nucleotides"])
    if setting["update"].startswith("lora"):
        lora = recipe.lora
        settings["lora"] = (
            f"r={lora['r']}, alpha={lora['alpha']}, dropout={lora['dropout']}, "
            f"targets={','.join(lora['target_modules'])}"
        )
    if log.get("deepspeed_config"):
        settings["deepspeed_config"] = json.dumps(log["deepspeed_config"], sort_keys=True)
    attention = setting.get(ATTENTION, DEFAULT_ATTENTION)
    if attention != DEFAULT_ATTENTION:
        settings["attention_package"] = attention
    if log["features"]["zero2_offload"]:
        comm = setting.get(COMM, DEFAULT_COMM)
        zero = (log.get("deepspeed_config") or {}).get("zero_optimization", {})
        settings["deepspeed_communication"] = comm
        settings["overlap_comm"] = str(bool(zero.get("overlap_comm", False))).lower()
        for key in ("reduce_bucket_size", "allgather_bucket_size"):
            if key in zero:
                settings[key] = f"{int(zero[key]):,}"
    return settings


def _observations(log: dict[str, Any]) -> list[dict[str, Any]]:
    out = memory_observations(
        log["memory"],
        "torch.cuda.max_memory_reserved() over the measured region",
        "model_states_allocated_bytes",
        "torch.cuda.memory_allocated() once the model sat on the GPU",
    )
    if log.get("step_time_median_s"):
        out.append(
            {
                "name": "step-time-median",
                "value": round(log["step_time_median_s"] * 1000, 2),
                "unit": "millisecond",
                "note": f"median of steps 2-{len(log['step_seconds'])} "
                "(synchronised wall clock; step 1 allocates optimizer states)",
            }
        )
    return out


def build_records(
    recipe: PeakMemoryRecipe,
    log: dict[str, Any],
    artifact: dict[str, Any],
    published: Published | None,
    family: str,
    *,
    git_commit: str | None = None,
    note: str | None = None,
) -> list[dict[str, Any]]:
    """The configuration and evaluation records of one finished stage log. `git_commit`
    names the code that ran where the log could not (see `resolve_commit`); `note` is
    added to the environment's note."""
    run_id, item = log["run_id"], log["item"]
    config_id, eval_id = record_ids(run_id, item)
    environment = measurement_environment(
        log["environment"], git_commit, log["environment"].get("note"), note
    )
    environment["note"] = environment["note"] or None
    measured = Measured(run_id, environment, _setting_text(recipe, log), added_on(log["ended_at"]))
    model, stage, setting = log["model"], log["stage"], log["setting"]
    describe = recipe.describe_values(setting, zero2=bool(log["features"]["zero2_offload"]))
    tokens = f"{log['tokens']} tokens"
    if log.get("nucleotides"):
        tokens = f"{log['nucleotides']} nucleotides ({log['tokens']} tokens)"
    configuration = configuration_record(
        measured,
        config_id=config_id,
        title=f"{model['name']}, training {stage['label']}, {setting_label(setting)} "
        f"(Rewire measurement {run_id})",
        summary=f"{model['name']} built from its architecture config with random weights, "
        f"trained at {tokens} and batch {log['batch']} with {stage['label']}: {describe}.",
        reported_name=model["name"],
        family=family,
        parameters=counted_parameters(model),
        fine_tuning=describe,
        training_setting=f"Figure 3 stage: {stage['label']}",
        version=transformers_version(environment, model),
        provenance_note="Implemented and measured by Rewire (`rewire measure`); "
        f"dimensions from the config.json of {model['checkpoint']}.",
        checkpoint_note="Random weights from the architecture config: memory and time do "
        "not depend on trained weights.",
    )
    result = peak_result(
        stage["id"],
        log,
        "torch.cuda.max_memory_allocated() over the measured region",
        estimates=[
            {"label": e["label"], "value": round(e["value_gb"], 4), "method": e["method"]}
            for e in log["estimates"]
        ],
        observations=_observations(log),
    )
    evaluation = evaluation_record(
        measured,
        eval_id=eval_id,
        config_id=config_id,
        title=f"{model['name']} training peak memory, {stage['label']}, "
        f"{setting_label(setting)} (Rewire measurement)",
        summary=f"Peak allocated GPU memory of {model['name']} over {log['steps']} training "
        f"steps at {tokens}, batch {log['batch']}, {stage['label']}; {describe}. "
        f"Measured by Rewire on {environment['gpu']}.",
        protocol=recipe.protocol,
        dataset=recipe.dataset,
        comparison=synthetic_comparison(
            steps="training steps",
            population=f"Training batches of {log['batch']} synthetic sequences of {tokens}",
            inputs=recipe.data,
            adaptation=describe,
            aggregation=f"Peak over the measured region: {log['steps']} training steps "
            "after reset_peak_memory_stats() once the model sat on the GPU",
            budget=f"{tokens}, batch size {log['batch']}, {log['steps']} steps",
            seed=log["seed"],
            seed_note="not the authors' sequences; memory and time do not depend on the "
            "bases drawn",
            metric_implementation="torch.cuda.max_memory_allocated() and "
            "max_memory_reserved() in measure/peak_memory/worker.py",
        ),
        results=[result],
        artifacts=[artifact],
        gaps=ResultGaps(
            "One run per setting; replicates were not made.",
            "No samples are scored: the metric is memory of a training step.",
        ),
        limitations=[
            "Random weights and synthetic inputs: valid for memory and time, not for accuracy.",
            card_limitation(environment, out_of_memory=log["status"] == "out_of_memory"),
        ],
        reproduces=None if published is None else published.evaluation_id,
        reproduces_last=True,
    )
    return [configuration, evaluation]


PAPER_CARD = "an H100 (94 GB)"  # Saadat and Fellay 2026, sections 2.4 and 4


def card_limitation(environment: dict[str, Any], *, out_of_memory: bool) -> str:
    """What the card a point ran on means for its comparison with the paper's H100 (94 GB),
    from the card the log names: on another GPU model, that a match on an H100 was not
    checked; on an H100, the memory it has against the paper's 94 GB (the driver's total,
    in GB), and for a point that ran out of memory, that 94 GB might have held it."""
    gpu = str(environment["gpu"])
    if "H100" not in gpu:
        return (
            f"Measured on {gpu}; the paper used {PAPER_CARD}. Allocator peaks follow from the "
            "program, not the card, while it fits; that they match on an H100 was not checked."
        )
    card = f"{gpu} ({float(environment['gpu_memory_gb']):.0f} GB)"
    text = (
        f"Measured on {card}, an H100 as in the paper, whose card had 94 GB. Allocator peaks "
        "follow from the program, not the card's memory, while it fits."
    )
    if out_of_memory:
        text += " This point ran out of this card's memory; the paper's 94 GB might have held it."
    return text


def setting_label(setting: dict[str, str]) -> str:
    label = f"{setting['precision']}, {setting['update']}, {setting['length']}"
    comm = setting.get(COMM, DEFAULT_COMM)
    label = label if comm == DEFAULT_COMM else f"{label}, DeepSpeed comm {comm}"
    attention = setting.get(ATTENTION, DEFAULT_ATTENTION)
    return label if attention == DEFAULT_ATTENTION else f"{label}, attention {attention}"


def write_run_records(
    recipe: PeakMemoryRecipe,
    planned: list[Planned],
    run_dir: Path,
    root: Path,
    console: Console,
    *,
    git_commit: str | None = None,
    note: str | None = None,
) -> list[Path]:
    """Records for every finished GPU stage log of the run that has none yet."""
    published = published_values(root, recipe.protocol)
    families = {m.key: m.family for m in recipe.models}
    items = {p.log_path: p.item for p in planned}

    def build(path: Path, log: dict[str, Any]) -> list[dict[str, Any]]:
        item = items[path]
        if log["memory"].get("peak_allocated_bytes") is None and log["status"] == "value":
            console.print(f"{item.key}: no GPU allocator statistics (CPU run); no record")
            return []
        if recorded(root, record_ids(log["run_id"], log["item"])[1]):
            return []
        artifact = cite_artifact(
            path,
            root,
            log["run_id"],
            f"{item.key}.json",
            "Raw JSON log of the stage process: settings, allocator statistics, step times, "
            "losses, estimates and environment",
        )
        match = published.get((item.model.architecture.name, item.stage.id))
        family = families[item.model.key]
        return build_records(recipe, log, artifact, match, family, git_commit=git_commit, note=note)

    return write_finished(items, root, build)
