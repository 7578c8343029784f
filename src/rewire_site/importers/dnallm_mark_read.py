"""Reading DNALLM-Mark's files (zhangtaolab/dnallmmark at the pinned commit): the rows of
the per-model performance files and the task blocks of `pipeline/datasets_info.json`,
strictly. A file of another shape (another key, a value that is not a number, a
parameter the protocol does not state) stops the import, naming the file and key, before
anything is built or written. Every number is kept exactly as the file prints it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from . import dnallm_mark_ids as ids
from .core import ImportProblem, SourceFile, SourceFiles, find_line

PREFIX = ids.SCOPE
REPOSITORY = "https://github.com/zhangtaolab/dnallmmark"
COMMIT = "8d99daf400511339094bd0291ee458c72c9b74ca"
COMMIT_DATE = "2026-07-22"
ADDED = "2026-12-02"
"""When these records were added to the catalogue (a constant: the same commit gives the
same records)."""
README = "README.md"
CONFIG = "pipeline/finetune_config.yaml"
CONFIG_HEAD = "pipeline/finetune_config_with_head.yaml"
PIPELINE = "pipeline/dnallmmark_pipeline.py"
DATASETS = "pipeline/datasets_info.json"
PAGE = "dnallm-mark/js/finetuning.js"
FOLDER = "dnallm-mark/data/model_performance"
MODELS = (
    "DNABERT-2-117M",
    "GENERanno-eukaryote-0.5b-base",
    "GENERanno-prokaryote-0.5b-base",
    "GROVER",
    "GenomeOcean-500M",
    "Jamba-DNA-v1-114M-hg38",
    "Mistral-DNA-v1-138M-virus",
    "Mistral-DNA-v1-417M-Athaliana",
    "Mistral-DNA-v1-422M-hg38",
    "ModernBERT-DNA-v1-37M-hg38",
    "MutBERT-Multi",
    "Omni-DNA-700M",
    "OmniNA-220m",
    "PlantBiMoE",
    "PlantCAD2-Medium-l48-d1024",
    "PlantCAD2-Small-l24-d0768",
    "PlantCaduceus_l32",
    "agro-nucleotide-transformer-1b",
    "borzoi-replicate-0",
    "caduceus-ph_seqlen-131k_d_model-256_n_layer-16",
    "caduceus-ps_seqlen-131k_d_model-256_n_layer-16",
    "enformer-official-rough",
    "evo2_1b_base",
    "flashzoi-replicate-0",
    "gena-lm-bert-large-t2t",
    "gena-lm-bigbird-base-t2t",
    "gpn-brassicales",
    "hyenadna-large-1m-seqlen-hf",
    "megaDNA_updated",
    "nucleotide-transformer-v2-500m-multi-species",
    "plant-dnabert-6mer",
    "plant-dnagemma-BPE",
    "plant-dnagpt-BPE",
    "plant-dnamamba-6mer",
    "plant-dnamamba-BPE",
    "plant-dnamamba2-BPE",
    "plant-dnamodernbert-singlebase",
    "plant-genomic-jamba",
    "plant-nucleotide-transformer-6mer",
    "prokbert-mini",
    "space",
)
"""Every performance file at the pinned commit, by model label (the file name's stem)."""


def model_path(label: str) -> str:
    return f"{FOLDER}/{label}_performance.json"


RESULTS = tuple(model_path(m) for m in MODELS)
DOCS = (README, CONFIG, CONFIG_HEAD, PIPELINE, DATASETS, PAGE)
PATHS = (*DOCS, *RESULTS)
TABLE = f"{PREFIX}-table-fine-tuning"
PROTOCOL = f"{PREFIX}-protocol-full-fine-tuning"


@dataclass(frozen=True)
class MetricSpec:
    column: str
    key: str
    """The JSON key of the value in a task's `performance` object."""
    label: str
    unit: str
    direction: str
    scale: str | None
    minimum: float | None
    maximum: float | None


def _score(column: str, key: str, label: str, minimum: float = 0.0) -> MetricSpec:
    return MetricSpec(column, key, label, "fraction", "higher", "fraction", minimum, 1.0)


METRICS: tuple[MetricSpec, ...] = (
    _score("accuracy", "accuracy", "Accuracy"),
    _score("precision", "precision", "Precision"),
    _score("recall", "recall", "Recall"),
    _score("f1", "f1", "F1 score"),
    _score("mcc", "mcc", "MCC", -1.0),
    _score("auroc", "auroc", "AUROC"),
    _score("auprc", "auprc", "AUPRC"),
    _score("spearman", "spearman_r", "Spearman correlation", -1.0),
    MetricSpec("r2", "r2", "R²", "score", "higher", None, None, 1.0),
    MetricSpec("mse", "mse", "Mean squared error", "score", "lower", None, 0.0, None),
    MetricSpec("loss", "loss", "Evaluation loss", "score", "lower", None, 0.0, None),
    MetricSpec("runtime", "runtime", "Fine-tuning run time", "hour", "lower", None, 0.0, None),
    MetricSpec(
        "flops", "FLOPs", "Fine-tuning FLOPs", "floating-point operation", "lower", None, 0.0, None
    ),
)
PERFORMANCE_KEYS = frozenset({m.key for m in METRICS} | {"pearson_r"})
"""Every key a task's `performance` object holds; `pearson_r` is empty in every file at
the pinned commit and is not a column (a value there stops the import)."""
ALWAYS_EMPTY = "pearson_r"
CONSTANT_PARAMETERS: dict[str, str] = {
    "epochs": "3",
    "gradient_accumulation_steps": "1",
    "learning_rate": "2e-05",
    "warmup": "0.1",
    "lr_scheduler_type": "linear",
    "bf16": "True",
    "fp16": "False",
}
"""Fine-tuning parameters every row prints alike (stated once, by the protocol); a file
that prints another value stops the import (the table would need a setting column)."""
PARAMETER_KEYS = frozenset({*CONSTANT_PARAMETERS, "steps", "batch_size"})
DATASET_KEYS = ("type", "labels", "train", "test", "dev", "length", "metric")


class Printed(str):
    """A JSON number exactly as the file prints it."""


def _load(file: SourceFile) -> Any:
    try:
        return json.loads(file.text(), parse_float=Printed, parse_int=Printed)
    except json.JSONDecodeError as error:
        raise ImportProblem(f"{file.path}: not valid JSON ({error}); nothing was changed") from None


def _problem(where: str, what: str) -> ImportProblem:
    return ImportProblem(f"{where}: {what}; nothing was changed")


def _object(value: Any, where: str, keys: frozenset[str] | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _problem(where, f"expected an object, found {type(value).__name__}")
    if keys is not None and set(value) != keys:
        extra = sorted(set(value) - keys)
        absent = sorted(keys - set(value))
        raise _problem(where, f"keys differ from the importer's (extra {extra}, absent {absent})")
    return value


@dataclass(frozen=True)
class Row:
    model: str
    task: str
    batch_size: str
    cells: tuple[str, ...]
    """One per METRICS entry: the number as printed, or '' where the file has none."""
    locator: str
    dataset: tuple[tuple[str, str], ...]


def _text(value: Any) -> str:
    """A parameter as text: a number as printed, true/false as Python writes them."""
    return str(value)


def read_file(file: SourceFile) -> list[Row]:
    """Every (task) row of one performance file; ImportProblem, naming the file and key,
    when it is not the shape the importer reads."""
    label = file.path.removeprefix(f"{FOLDER}/").removesuffix("_performance.json")
    data = _object(_load(file), file.path, frozenset({"info", "performance"}))
    performance = _object(data["performance"], f"{file.path}: performance")
    if not performance:
        raise _problem(f"{file.path}: performance", "no task")
    return [_row(file.path, label, task, entry) for task, entry in performance.items()]


def check_file(file: SourceFile) -> None:
    """The shape check of one performance file (`TableSpec.check`)."""
    read_file(file)


def check_datasets(file: SourceFile) -> None:
    """The shape check of pipeline/datasets_info.json: an object of task blocks."""
    data = _object(_load(file), file.path)
    for label, block in data.items():
        _object(block, f"{file.path}: {json.dumps(label)}")


def read_rows(files: SourceFiles) -> list[Row]:
    """Every (model, task) row of every performance file; every file must hold the same
    tasks."""
    rows: list[Row] = []
    tasks: set[str] | None = None
    for label in MODELS:
        file = files[model_path(label)]
        read = read_file(file)
        found = {r.task for r in read}
        if tasks is None:
            tasks = found
        elif found != tasks:
            raise _problem(file.path, "its tasks differ from the other performance files'")
        rows += read
    return sorted(rows, key=lambda r: (r.model, r.task))


def _row(path: str, label: str, task: str, entry: Any) -> Row:
    where = f"{path}: performance['{task}']"
    if "'" in task or "\n" in task:
        raise _problem(where, "a task name with a quote mark (the locator quotes it)")
    entry = _object(entry, where, frozenset({"dataset", "parameters", "performance"}))
    params = _object(entry["parameters"], f"{where}['parameters']", PARAMETER_KEYS)
    for key, expected in CONSTANT_PARAMETERS.items():
        if _text(params[key]) != expected:
            raise _problem(
                f"{where}['parameters']['{key}']",
                f"{params[key]!r}, the protocol states {expected} for every row",
            )
    scores = _object(entry["performance"], f"{where}['performance']", PERFORMANCE_KEYS)
    cells: list[str] = []
    for spec in (*METRICS, None):
        key = spec.key if spec else ALWAYS_EMPTY
        value = scores[key]
        cell_where = f"{where}['performance']['{key}']"
        if value == "" and not isinstance(value, Printed):
            if spec is not None:
                cells.append("")
            continue
        if not isinstance(value, Printed):
            raise _problem(cell_where, f"{value!r} is not a number")
        if spec is None:
            raise _problem(cell_where, "holds a value; the importer does not read this key")
        number = float(value)
        low = spec.minimum if spec.minimum is not None else -float("inf")
        high = spec.maximum if spec.maximum is not None else float("inf")
        if not low <= number <= high:
            raise _problem(cell_where, f"{value} is outside {spec.label}'s range")
        cells.append(str(value))
    batch = params["batch_size"]
    if batch != "" and not isinstance(batch, Printed):
        raise _problem(f"{where}['parameters']['batch_size']", f"{batch!r} is not a number")
    dataset = _object(entry["dataset"], f"{where}['dataset']")
    if len(cells) != len(METRICS):
        raise AssertionError("one cell per metric")
    return Row(
        model=label,
        task=task,
        batch_size=str(batch),
        cells=tuple(cells),
        locator=f"{path}: performance['{task}']['performance']",
        dataset=tuple((k, _text(dataset.get(k, ""))) for k in DATASET_KEYS),
    )


# --- tasks -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TaskInfo:
    label: str
    path: str
    train: int
    dev: int
    test: int
    length: int
    kind: str
    classes: int
    metric: str
    first: int
    last: int
    """Lines of the task's block in pipeline/datasets_info.json."""


def read_tasks(file: SourceFile, labels: set[str]) -> dict[str, TaskInfo]:
    """The datasets_info.json block of every task the performance files hold."""
    data = _object(_load(file), file.path)
    out: dict[str, TaskInfo] = {}
    for label in sorted(labels):
        block = _object(data.get(label), f"{file.path}: {json.dumps(label)}")
        try:
            first = find_line(file, f'"{label}":')
            last = next(n for n in range(first + 1, first + 20) if file.line(n).startswith("}"))
            out[label] = TaskInfo(
                label,
                str(block["Dataset_path"]),
                int(block["Train"]),
                int(block["Dev"]),
                int(block["Test"]),
                int(block["length"]),
                str(block["type"]),
                int(block["labels"]),
                str(block["metric"]),
                first,
                last,
            )
        except (KeyError, ValueError, StopIteration) as error:
            where = f"{file.path}: {json.dumps(label)}"
            raise _problem(where, f"unreadable block ({error})") from None
    return out


def _check_row_tasks(rows: list[Row], tasks: dict[str, TaskInfo]) -> None:
    """Each row's `dataset` block must state the sizes datasets_info.json states."""
    for row in rows:
        info = tasks[row.task]
        stated = dict(row.dataset)
        expected = {
            "train": str(info.train),
            "test": str(info.test),
            "dev": str(info.dev),
            "length": str(info.length),
        }
        differs = [k for k, v in expected.items() if stated.get(k) != v]
        if differs:
            where = row.locator.removesuffix("['performance']") + "['dataset']"
            raise _problem(
                where,
                f"{differs[0]} is {stated.get(differs[0])!r}, {DATASETS} states "
                f"{expected[differs[0]]}",
            )


def check(files: SourceFiles) -> tuple[list[Row], dict[str, TaskInfo]]:
    """The rows and tasks of the files; ImportProblem when a file is not the shape read."""
    rows = read_rows(files)
    tasks = read_tasks(files[DATASETS], {r.task for r in rows})
    _check_row_tasks(rows, tasks)
    return rows, tasks
