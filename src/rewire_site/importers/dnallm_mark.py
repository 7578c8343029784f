"""DNALLM-Mark (zhangtaolab/dnallmmark): the per-model performance files of its
leaderboard, as one result table.

What the files hold at the pinned commit: `dnallm-mark/data/model_performance/
<model>_performance.json`, one file per model (41), each with an `info` block (name, size,
tokeniser, series, Hugging Face id, ...) and, per task (47), the task's sizes, the
fine-tuning parameters the run used and its `performance`: run time, FLOPs, loss and the
classification or regression metrics, a number or "" where the run has none. The
pipeline that wrote them (`pipeline/dnallmmark_pipeline.py`) fine-tunes each model on each
task with the parameters of `pipeline/finetune_config.yaml` and scores it after training.

Why one table for all 41 files: the files are one benchmark run under one protocol, and
results of different tables are never ranked together; one table keeps the 41 models of a
task in one ranking. Each row's locator names its own file, and every file is a source.

The repository is MIT licensed (README badge; no LICENSE file at the commit): the files
read are copied under artifacts/sources/dnallm-mark/ with their SHA-256.
"""

from __future__ import annotations

from . import dnallm_mark_ids as ids
from . import result_tables as rt
from .core import (
    Importer,
    Record,
    SourceFile,
    SourceFiles,
    TableSpec,
    find_line,
    line_citation,
    missing,
    sentence_citation,
    slug,
    source_id,
)
from .dnallm_mark_families import family_records
from .dnallm_mark_read import (
    ADDED,
    COMMIT,
    COMMIT_DATE,
    CONFIG,
    CONFIG_HEAD,
    DATASETS,
    METRICS,
    PAGE,
    PATHS,
    PIPELINE,
    PREFIX,
    PROTOCOL,
    README,
    REPOSITORY,
    RESULTS,
    TABLE,
    MetricSpec,
    Row,
    TaskInfo,
    check,
    check_datasets,
    check_file,
)
from .records import AREAS, CONTEXTS, RepoFileSpec, repository_file_source


def dataset_id(label: str) -> str:
    return f"{PREFIX}-dataset-{slug(label)}"


_KIND = {
    "binary": "binary classification",
    "multiclass": "multi-class classification",
    "multilabel": "multi-label classification",
    "regression": "regression",
}


def _dataset(files: SourceFiles, info: TaskInfo) -> Record:
    kind = _KIND.get(info.kind, info.kind)
    zenodo = find_line(files[README], "preseted datasets from [Zenodo]")
    splits: list[Record] = [{"name": "train", "size": info.train}]
    if info.dev:
        splits.append({"name": "dev", "size": info.dev})
    splits.append({"name": "test", "size": info.test})
    record: Record = {
        "id": dataset_id(info.label),
        "kind": "dataset",
        "title": f"{info.label} (DNALLM-Mark)",
        "summary": (
            f"DNALLM-Mark task `{info.label}`: {kind}, {info.train} training and "
            f"{info.test} test sequences of length {info.length}."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            line_citation(
                PREFIX, files[DATASETS], info.first, info.last, supports=["splits", "tasks"]
            ),
            sentence_citation(PREFIX, files[README], "Detailed datasets information are listed"),
        ],
        "description": (
            f"`{info.label}`: a {kind} task of DNALLM-Mark"
            + (f" with {info.classes} classes" if info.kind != "regression" else "")
            + f", sequences of length {info.length}, read from `{info.path}` of the "
            "DNALLM-Mark datasets archive on Zenodo; its pipeline selects the checkpoint by "
            f"{info.metric} on the validation data."
        ),
        "version": None,
        "generator": None,
        "seed": None,
        "access": f"The Zenodo archive the DNALLM-Mark README links to (README.md, line {zenodo}).",
        "licence": None,
        "synthetic": False,
        "splits": splits,
        "tasks": [kind],
        "labels": [{"scope": ids.SCOPE, "label": info.label}],
        "missing_metadata": {
            "version": missing("unreported", "The README names no version of the archive."),
            "generator": missing("inapplicable", "Collected data, not generated."),
            "seed": missing("unreported", "How the splits were drawn is not stated."),
            "licence": missing("unreported", "The README states no licence for the data."),
        },
        "added": ADDED,
    }
    related = ids.RELATED.get(info.label, ())
    facts = (info.label, info.path, info.train, info.test)
    if related:
        record["related"] = [
            {"dataset": r.dataset, "note": ids.related_note(r, *facts)} for r in related
        ]
    return record


# --- sources, protocol, table ------------------------------------------------------------


def _spec(file: SourceFile) -> RepoFileSpec:
    return RepoFileSpec(
        title=f"{file.path} (zhangtaolab/dnallmmark)",
        summary=f"`{file.path}` of the DNALLM-Mark repository, at commit {file.commit[:12]}.",
        short_citation=f"DNALLM-Mark, {file.path}",
        authors=("Zhang Tao Lab",),
        maintainers=("zhangtaolab",),
        published=COMMIT_DATE,
        licence="MIT",
        licence_note="",
        independence=(
            "The maintainers fine-tuned and scored every model themselves with one "
            "pipeline; eight of the 41 models (the PDLLMs) are their own."
        ),
    )


def _source(files: SourceFiles, path: str) -> Record:
    record = repository_file_source(PREFIX, REPOSITORY, files[path], _spec(files[path]))
    readme = files[README]
    record["citations"] = [
        line_citation(PREFIX, readme, find_line(readme, "License: MIT"), supports=["licence"])
    ]
    return record


def _metric(spec: MetricSpec) -> Record:
    metric: Record = {
        "id": spec.column,
        "label": spec.label,
        "unit": spec.unit,
        "direction": spec.direction,
    }
    if spec.scale is not None:
        metric["scale"] = spec.scale
    if spec.minimum is not None:
        metric["minimum"] = spec.minimum
    if spec.maximum is not None:
        metric["maximum"] = spec.maximum
    return metric


def _cite(files: SourceFiles, path: str, needle: str, lines: int = 1) -> Record:
    file = files[path]
    first = find_line(file, needle)
    return line_citation(PREFIX, file, first, first + lines - 1)


def _protocol(files: SourceFiles, task_ids: list[str]) -> Record:
    f1 = next(m for m in METRICS if m.column == "f1")
    return {
        "id": PROTOCOL,
        "kind": "protocol",
        "title": "DNALLM-Mark: full fine-tuning on each task, one run, test-set scores",
        "summary": (
            "Each model is fine-tuned on each DNALLM-Mark task for 3 epochs (learning rate "
            "2e-5, linear schedule, 10% warm-up, bf16) and scored after training; one run "
            "per model and task, with its run time and FLOPs."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            sentence_citation(PREFIX, files[README], "Finetuning parameters can be adjusted"),
            _cite(files, CONFIG, "num_train_epochs:"),
            _cite(files, CONFIG, "learning_rate:", 8),
            _cite(files, CONFIG, "seed:", 3),
            _cite(files, CONFIG, "metric_for_best_model:"),
            _cite(files, PIPELINE, 'configs = load_config("./finetune_config.yaml")'),
            _cite(files, PIPELINE, 'configs["finetune"].metric_for_best_model = row["metric"]'),
            _cite(files, PIPELINE, 'parser.add_argument("--seed"'),
            _cite(files, PIPELINE, "set_seed(seed)"),
            _cite(files, PIPELINE, 'special_models = ["evo2_1b_base", "megaDNA_updated"]'),
            _cite(files, CONFIG_HEAD, 'head: "mlp"'),
            _cite(files, PIPELINE, "test_results = trainer.evaluate()", 3),
            _cite(files, PIPELINE, '"runtime": train_runtime,', 2),
            _cite(files, PIPELINE, "manual_train_flops = (", 6),
            _cite(files, PAGE, "Runtime (h)"),
        ],
        "measurement": (
            "The DNALLM-Mark pipeline loads each model with a sequence-classification (or "
            "regression) head, fine-tunes it on the task's training set with the "
            "parameters of `finetune_config.yaml` (3 epochs, learning rate 2e-5, weight "
            "decay 0.01, 10% linear warm-up, bf16; the batch size is set per task from the "
            "sequence length), keeps the checkpoint best by the task's metric on the "
            "validation data, and scores it with `trainer.evaluate()` after training. Evo 2 "
            "and megaDNA get an MLP head (`finetune_config_with_head.yaml`). The config "
            "names no adapter and no frozen layers. Run time is the training run time, in "
            "hours as the leaderboard page labels it; FLOPs are the training FLOPs the "
            "pipeline reports (the trainer's count or its own per-layer estimate times 3 "
            "times the epochs, whichever is larger)."
        ),
        "metric": _metric(f1),
        "metric_definition": None,
        "columns": [{"id": m.column, "label": m.label, "metric": _metric(m)} for m in METRICS],
        "datasets": task_ids,
        "hardware": None,
        "version": f"zhangtaolab/dnallmmark at commit {files.commit}",
        "source_locator": f"{CONFIG}; {PIPELINE}",
        "replicates": 1,
        "hardware_dependence": {
            "depends": True,
            "reason": (
                "The run time depends on the accelerator, which is not stated; the scores "
                "and FLOPs do not."
            ),
        },
        "baselines": None,
        "recipe": None,
        "notes": [
            "Seed: the pipeline's `--seed` defaults to 9527 (set with torch.manual_seed "
            "before fine-tuning), while `finetune_config.yaml` passes `seed: 42` to the "
            "trainer; the performance files record neither, so which seed each run used is "
            "not shown. One run per model and task: no spread.",
        ],
        "missing_metadata": {
            "metric_definition": missing(
                "unreported",
                "The metrics are computed by the DNALLM package's trainer, which the "
                "repository does not include.",
            ),
            "hardware": missing("unreported", "The repository does not state the accelerator."),
            "baselines": missing("unreported", "The leaderboard has no baseline model."),
            "recipe": missing("inapplicable", "Rewire has no runnable recipe for this protocol."),
        },
        "added": ADDED,
    }


def _table(files: SourceFiles, rows: list[Row]) -> Record:
    table_rows = [
        rt.Row(
            model=r.model,
            task=r.task,
            settings=(r.batch_size,),
            cells={m.column: c for m, c in zip(METRICS, r.cells, strict=True) if c},
            locator=r.locator,
        )
        for r in rows
    ]
    models = len({r.model for r in rows})
    tasks = len({r.task for r in rows})
    spec = rt.ResultTableSpec(
        id=TABLE,
        title=f"DNALLM-Mark: {models} models fine-tuned on {tasks} tasks (one run each)",
        summary=(
            f"{rt.value_count(table_rows)} values from DNALLM-Mark's per-model performance "
            "files: each model fully fine-tuned on each task and scored after training, with "
            "run time and FLOPs. Rows where the run printed no score hold only what the file "
            "prints."
        ),
        sources=[source_id(PREFIX, files[p]) for p in RESULTS],
        source_paths=RESULTS,
        labels=ids.SCOPE,
        protocol=PROTOCOL,
        adaptation="fine_tuned",
        origin="maintainer_statement",
        settings=(rt.SettingColumn("batch_size", "batch size"),),
        metrics=tuple(
            rt.MetricColumn(m.column, m.label, m.direction, m.key, m.scale, m.minimum, m.maximum)
            for m in METRICS
        ),
        comparison={
            "split": "the task's test split (the pipeline saves the scores as test metrics)",
            "population": None,
            "inputs": "the task's sequences, tokenised by each model's own tokeniser",
            "adaptation": "full fine-tuning with a task head, 3 epochs",
            "aggregation": "one run per model and task",
            "budget": "3 epochs",
            "dataset_version": None,
            "metric_implementation": None,
        },
        missing_metadata={
            "comparison.population": missing(
                "unreported", "The test sizes are stated per task on the task's dataset page."
            ),
            "comparison.dataset_version": missing(
                "unreported", "The README names no version of the datasets archive."
            ),
            "comparison.metric_implementation": missing(
                "unreported", "Computed by the DNALLM package, not included in the repository."
            ),
        },
        base={"areas": AREAS, "contexts": CONTEXTS, "added": ADDED},
    )
    return rt.table_record(spec, table_rows)


def build(files: SourceFiles) -> list[Record]:
    rows, tasks = check(files)
    records: list[Record] = [_source(files, p) for p in PATHS if p in files]
    task_ids = [dataset_id(label) for label in sorted(tasks)]
    records += [_dataset(files, tasks[label]) for label in sorted(tasks)]
    records.append(_protocol(files, task_ids))
    records += family_records(files)
    records.append(_table(files, rows))
    return records


IMPORTER = Importer(
    prefix=PREFIX,
    title="DNALLM-Mark, per-model performance files",
    repository=REPOSITORY,
    commit=COMMIT,
    paths=PATHS,
    required=PATHS,
    redistributable=True,
    build=build,
    tables=(
        *(TableSpec(p, ("info", "performance"), check=check_file) for p in RESULTS),
        TableSpec(DATASETS, ("Dataset_path", "Train", "Dev", "Test"), check=check_datasets),
    ),
)
