"""DGEB (TattaBio/DGEB): the leaderboard's submission files of the DNA models.

What the repository holds at the pinned commit: `leaderboard/submissions/<model>/<task>.json`,
one file per model and task, written by DGEB's evaluation (`dgeb/dgeb.py`). Each names the
task (id, type, the Hugging Face datasets with their pinned revisions, the primary
metric), the model (hub name, number of layers, `num_params`) and one result per probed
layer, each with its metrics (`id`, `value`). Only the DNA models are imported: the five
Nucleotide Transformer multi-species checkpoints (v2 50M-500M, 2.5B) and Evo 1 (8k, 131k)
on the eight DNA tasks; the rest of the leaderboard is protein models.

A layer becomes a setting: DGEB embeds each sequence with the hidden states of two
layers, by default the middle one (`num_layers // 2`) and the last (`num_layers - 1`),
`dgeb/models.py`; each result row is one model x task x layer, `layer` its setting. A
best mark over layers picks a layer after seeing the test scores, which the table's
summary says.

Three tables, one per protocol class, as DGEB scores tasks in three ways: classification
(a classifier fitted on the train split's frozen embeddings: logistic regression for EC,
5-nearest-neighbour for MIBiG: frozen_probe), evolutionary distance similarity (Pearson
correlation between embedding distances and phylogenetic distances, no training:
zero_shot) and clustering (mini-batch k-means on the embeddings, scored by v-measure:
other). Every cell is the JSON number exactly as written in the file.

The repository is Apache-2.0 licensed: the files read are copied under
artifacts/sources/dgeb/files/ with their SHA-256.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .core import (
    Importer,
    ImportProblem,
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
from .records import AREAS, CONTEXTS, RepoFileSpec, repository_file_source
from .result_tables import MetricColumn, ResultTableSpec, Row, SettingColumn, table_record

PREFIX = "dgeb"
SCOPE = "dgeb"
REPOSITORY = "https://github.com/TattaBio/DGEB"
COMMIT = "1b187e607e278a34ba7338b8b43747c57add4134"
COMMIT_DATE = "2025-03-22"
README = "README.md"
LICENSE = "LICENSE"
MODELS_PY = "dgeb/models.py"
EVALUATORS_PY = "dgeb/evaluators.py"
CLASSIFICATION_PY = "dgeb/tasks/classification_tasks.py"
SUBMISSIONS = "leaderboard/submissions"
AUTHORS = (
    "Jacob West-Roberts",
    "Joshua Kravitz",
    "Nishant Jha",
    "Andre Cornman",
    "Yunha Hwang",
)

MODEL_FOLDERS = (
    "evo-1-131k-base",
    "evo-1-8k-base",
    "nucleotide-transformer-2.5b-multi-species",
    "nucleotide-transformer-v2-100m-multi-species",
    "nucleotide-transformer-v2-250m-multi-species",
    "nucleotide-transformer-v2-500m-multi-species",
    "nucleotide-transformer-v2-50m-multi-species",
)
"""The DNA models' submission folders (the other folders are protein models)."""

ADDED = "2026-12-02"
RETRIEVED_AT = "2026-12-02T06:00:00Z"
"""When the pinned commit was read for this importer (a constant: the same commit gives
the same records)."""


@dataclass(frozen=True)
class Group:
    """One DGEB task type: its tasks, metrics, protocol class."""

    key: str
    name: str
    tasks: tuple[str, ...]
    adaptation: str
    metrics: tuple[MetricColumn, ...]


def _fraction(column: str, label: str, key: str, low: float = 0.0) -> MetricColumn:
    return MetricColumn(column, label, "higher", key, "fraction", low, 1.0)


def _correlation(column: str, label: str, key: str) -> MetricColumn:
    return MetricColumn(column, label, "higher", key, None, -1.0, 1.0)


GROUPS = (
    Group(
        "classification",
        "classification",
        ("MIBIG_dna_classification", "ec_dna_classification"),
        "frozen_probe",
        (
            _fraction("f1", "F1 (macro)", "f1"),
            _fraction("accuracy", "Accuracy", "accuracy"),
            _fraction("precision", "Precision (macro)", "precision"),
            _fraction("recall", "Recall (macro)", "recall"),
            _fraction("lrap", "Label ranking average precision", "lrap"),
        ),
    ),
    Group(
        "phylogeny",
        "evolutionary distance similarity",
        (
            "arch_16S_phylogeny",
            "bac_16S_phylogeny",
            "euk_18S_phylogeny",
            "rpob_arch_dna_phylogeny",
            "rpob_bac_dna_phylogeny",
        ),
        "zero_shot",
        (
            _correlation("top-corr", "Top correlation (best of the three)", "top_corr"),
            _correlation("cos-sim", "Pearson r, cosine distance", "cos_sim"),
            _correlation("manhattan", "Pearson r, Manhattan distance", "manhattan"),
            _correlation("euclidean", "Pearson r, Euclidean distance", "euclidean"),
        ),
    ),
    Group(
        "clustering",
        "clustering",
        ("ecoli_rna_clustering",),
        "other",
        (_fraction("v-measure", "V-measure", "v_measure"),),
    ),
)
TASKS = tuple(t for g in GROUPS for t in g.tasks)
RESULT_PATHS = tuple(f"{SUBMISSIONS}/{m}/{t}.json" for m in MODEL_FOLDERS for t in TASKS)
DOC_PATHS = (README, LICENSE, MODELS_PY, EVALUATORS_PY, CLASSIFICATION_PY)
PATHS = (*DOC_PATHS, *RESULT_PATHS)

NT_CHECKPOINTS = {
    f"InstaDeepAI/{m}" for m in MODEL_FOLDERS if m.startswith("nucleotide-transformer")
}
"""Hub names that are checkpoints of the Nucleotide Transformer family record (its
checkpoints carry these labels, scope dgeb)."""
EVO_FAMILY = f"{PREFIX}-family-evo-1"
EVO_CHECKPOINTS = ("togethercomputer/evo-1-8k-base", "togethercomputer/evo-1-131k-base")


@dataclass(frozen=True)
class Submission:
    """One submission file, parsed with every number kept as its JSON text."""

    file: SourceFile
    data: dict[str, Any]

    @property
    def hub_name(self) -> str:
        return str(self.data["model"]["hf_name"])

    @property
    def task(self) -> dict[str, Any]:
        task: dict[str, Any] = self.data["task"]
        return task


def _text(value: str) -> str:
    return value


def parse(file: SourceFile) -> Submission:
    """The submission's JSON, numbers as printed; a file of another shape is refused."""
    try:
        data = json.loads(file.text(), parse_float=_text, parse_int=_text)
    except json.JSONDecodeError as error:
        raise ImportProblem(f"{file.path}: not valid JSON ({error}); nothing was changed") from None
    try:
        assert isinstance(data, dict)
        assert isinstance(data["task"]["id"], str)
        assert isinstance(data["model"]["hf_name"], str)
        assert isinstance(data["model"]["num_layers"], str)
        assert isinstance(data["results"], list) and data["results"]
        for result in data["results"]:
            assert isinstance(result["layer_number"], str)
            assert isinstance(result["metrics"], list) and result["metrics"]
            for metric in result["metrics"]:
                assert isinstance(metric["id"], str) and isinstance(metric["value"], str)
    except (AssertionError, KeyError, TypeError):
        raise ImportProblem(
            f"{file.path}: not a DGEB submission (task.id, model.hf_name, model.num_layers, "
            "results[].layer_number and results[].metrics[].id/value expected); nothing "
            "was changed"
        ) from None
    return Submission(file, data)


def _check_submission(file: SourceFile) -> None:
    parse(file)


def _source(files: SourceFiles, path: str, licence: SourceFile | None) -> Record:
    record = repository_file_source(PREFIX, REPOSITORY, files[path], _spec(files[path]), licence)
    record["retrieved_at"] = RETRIEVED_AT
    record["added"] = ADDED
    return record


def _spec(file: SourceFile) -> RepoFileSpec:
    return RepoFileSpec(
        title=f"{file.path} (TattaBio/DGEB)",
        summary=f"`{file.path}` of the DGEB repository, at commit {file.commit[:12]}.",
        short_citation=f"DGEB, {file.path}",
        authors=AUTHORS,
        maintainers=("TattaBio",),
        published=COMMIT_DATE,
        licence="Apache-2.0",
        licence_note="",
        independence=(
            "The DGEB authors ran every model on their benchmark with their own code; they "
            "built none of the DNA models imported here."
        ),
    )


def _rows(group: Group, submissions: list[Submission]) -> list[Row]:
    columns = {m.source_key: m.column for m in group.metrics}
    rows: list[Row] = []
    for sub in submissions:
        if sub.task["id"] not in group.tasks:
            continue
        for index, result in enumerate(sub.data["results"]):
            cells: dict[str, str] = {}
            for metric in result["metrics"]:
                key = metric["id"]
                if key not in columns:
                    raise ImportProblem(
                        f"{sub.file.path}: results[{index}] metric {key!r} is not one the "
                        f"importer reads for {group.name} ({sorted(columns)}); nothing was "
                        "changed"
                    )
                cells[columns[key]] = metric["value"]
            rows.append(
                Row(
                    model=sub.hub_name,
                    task=sub.task["id"],
                    settings=(result["layer_number"],),
                    cells=cells,
                    locator=f"{sub.file.path}: results[{index}] (layer_number "
                    f"{result['layer_number']})",
                )
            )
    return rows


def build(files: SourceFiles) -> list[Record]:
    licence = files.get(LICENSE)
    records: list[Record] = [_source(files, p, licence) for p in PATHS if p in files]
    submissions = [parse(files[p]) for p in RESULT_PATHS]
    for sub in submissions:
        folder = sub.file.path.split("/")[2]
        if sub.hub_name.split("/")[-1] != folder or sub.task["id"] not in TASKS:
            raise ImportProblem(
                f"{sub.file.path}: names model {sub.hub_name!r} and task {sub.task['id']!r}, "
                "not the ones of its path; nothing was changed"
            )
    records.append(_evo_family(files, submissions))
    for task in TASKS:
        records.append(_dataset(files, task, [s for s in submissions if s.task["id"] == task]))
    for group in GROUPS:
        records.append(_protocol(files, group))
        records.append(_table(files, group, submissions))
    return records


def _revisions(task: str, subs: list[Submission]) -> list[dict[str, str]]:
    """The task's datasets and revisions: every model's file must name the same."""
    seen = {json.dumps(s.task["datasets"], sort_keys=True) for s in subs}
    if len(seen) != 1:
        raise ImportProblem(
            f"{task}: the submission files name different dataset revisions; nothing was changed"
        )
    datasets: list[dict[str, str]] = subs[0].task["datasets"]
    return datasets


def _dataset(files: SourceFiles, task: str, subs: list[Submission]) -> Record:
    datasets = _revisions(task, subs)
    first = subs[0]
    versions = "; ".join(f"{d['path']} at revision {d['revision']}" for d in datasets)
    return {
        "id": f"{PREFIX}-dataset-{slug(task)}",
        "kind": "dataset",
        "title": f"{first.task['display_name']} (DGEB)",
        "summary": f"DGEB task `{task}`: {first.task['description']}",
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [line_citation(PREFIX, first.file, find_line(first.file, '"description"'))],
        "description": (
            f"{first.task['description']} DGEB task `{task}` of type {first.task['type']}, "
            f"on the Hugging Face dataset(s) {versions}."
        ),
        "version": versions,
        "generator": None,
        "seed": None,
        "access": " ; ".join(
            f"https://huggingface.co/datasets/{d['path']}/tree/{d['revision']}" for d in datasets
        ),
        "licence": None,
        "synthetic": False,
        "splits": [],
        "tasks": [str(first.task["type"])],
        "labels": [{"scope": SCOPE, "label": task}],
        "missing_metadata": {
            "licence": missing(
                "unreported", "The submission files do not state the datasets' licence."
            ),
            "generator": missing("inapplicable", "Collected data, not generated."),
            "seed": missing("inapplicable", "The datasets ship a fixed split."),
        },
        "added": ADDED,
    }


def _evo_family(files: SourceFiles, subs: list[Submission]) -> Record:
    checkpoints: list[Record] = []
    for name in EVO_CHECKPOINTS:
        sub = next(s for s in subs if s.hub_name == name)
        params = sub.data["model"]["num_params"]
        line = find_line(sub.file, '"num_params"')
        checkpoints.append(
            {
                "name": name,
                "parameters": params,
                "url": f"https://huggingface.co/{name}",
                "note": (
                    f"Parameter count as DGEB's submission file prints it "
                    f"({sub.file.path}, line {line}: {sub.file.line(line)}); the revision "
                    "evaluated is not given there (printed as '...')."
                ),
                "labels": [{"scope": SCOPE, "label": name}],
            }
        )
    return {
        "id": EVO_FAMILY,
        "kind": "model_family",
        "title": "Evo 1",
        "summary": (
            "Evo (the first generation, before Evo 2): the two base checkpoints DGEB "
            "evaluates, 8k and 131k context."
        ),
        "limitations": [
            "Imported family: only the hub names and parameter counts that DGEB's submission "
            "files print are recorded; architecture, tokenisation and the paper are not yet "
            "transcribed."
        ],
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            line_citation(
                PREFIX, sub.file, find_line(sub.file, '"hf_name"'), supports=["checkpoints"]
            )
            for sub in (next(s for s in subs if s.hub_name == n) for n in EVO_CHECKPOINTS)
        ],
        "name": "Evo 1",
        "developers": ["togethercomputer (the hub organisation of the checkpoints)"],
        "architecture": None,
        "tokenisation": None,
        "checkpoints": checkpoints,
        "missing_metadata": {
            "architecture": missing(
                "unknown", "Not stated in the DGEB files; not yet transcribed."
            ),
            "tokenisation": missing(
                "unknown", "Not stated in the DGEB files; not yet transcribed."
            ),
        },
        "added": ADDED,
    }


_MEASUREMENT = {
    "classification": (
        "Each sequence is embedded by the frozen model (mean-pooled hidden states of one "
        "layer); a classifier is fitted on the train split's embeddings and scored on the "
        "test split: logistic regression for EC classification, a 5-nearest-neighbour "
        "multi-label classifier (cosine distance) for MIBiG. Macro F1, accuracy, macro "
        "precision and recall, and (MIBiG) label ranking average precision."
    ),
    "phylogeny": (
        "Pairs of sequences are embedded by the frozen model; the Pearson correlation "
        "between their embedding distances (cosine, Manhattan, Euclidean) and their "
        "phylogenetic distances is reported per distance, and the top correlation is the "
        "largest of the three. No model is trained."
    ),
    "clustering": (
        "Sequences are embedded by the frozen model and clustered by mini-batch k-means "
        "with as many clusters as classes; the v-measure of the clusters against the "
        "classes is reported. No label is used to fit."
    ),
}
_NEEDLE = {
    "classification": 'f1 = f1_score(self.y_test, y_pred, average="macro")',
    "phylogeny": "top_corr = max(",
    "clustering": "v_measure = v_measure_score(self.labels, cluster_assignment)",
}


def _protocol(files: SourceFiles, group: Group) -> Record:
    evaluators = files[EVALUATORS_PY]
    models = files[MODELS_PY]
    citations = [
        sentence_citation(PREFIX, files[README], "DGEB evaluates embeddings using six"),
        line_citation(PREFIX, evaluators, find_line(evaluators, _NEEDLE[group.key])),
        line_citation(
            PREFIX,
            models,
            find_line(models, "mid_layer = self.num_layers // 2"),
            find_line(models, "last_layer = self.num_layers - 1"),
        ),
    ]
    if group.key == "classification":
        cls = files[CLASSIFICATION_PY]
        citations.append(
            line_citation(PREFIX, cls, find_line(cls, "Multiclass, multi-label KNN classification"))
        )

    def metric(m: MetricColumn) -> Record:
        return {
            "id": m.column,
            "label": m.label,
            "unit": "fraction" if m.scale == "fraction" else "correlation coefficient",
            "direction": m.direction,
            **({"scale": m.scale} if m.scale else {}),
            "minimum": m.minimum,
            "maximum": m.maximum,
        }

    return {
        "id": f"{PREFIX}-protocol-{group.key}",
        "kind": "protocol",
        "title": f"DGEB {group.name} of frozen DNA-model embeddings",
        "summary": (
            f"DGEB's {group.name} tasks: what is scored on the embeddings of a frozen model, "
            "at its middle and last layer."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": citations,
        "measurement": _MEASUREMENT[group.key],
        "metric": metric(group.metrics[0]),
        "metric_definition": None,
        "columns": [{"id": m.column, "label": m.label, "metric": metric(m)} for m in group.metrics],
        "datasets": [f"{PREFIX}-dataset-{slug(t)}" for t in group.tasks],
        "hardware": None,
        "version": f"TattaBio/DGEB at commit {files.commit}",
        "source_locator": f"{EVALUATORS_PY}; {MODELS_PY}",
        "replicates": None,
        "hardware_dependence": {
            "depends": False,
            "reason": "A score of predictions or distances: it does not depend on the accelerator.",
        },
        "baselines": None,
        "recipe": None,
        "missing_metadata": {
            "metric_definition": missing(
                "unreported", "Defined by the scikit-learn calls the evaluator code makes."
            ),
            "hardware": missing("unreported", "Not stated in the submission files."),
            "replicates": missing("unreported", "One value per model, task and layer."),
            "baselines": missing("unreported", "DGEB's DNA tasks state no baseline rule."),
            "recipe": missing("inapplicable", "Rewire has no runnable recipe for this protocol."),
        },
        "added": ADDED,
    }


def _table(files: SourceFiles, group: Group, subs: list[Submission]) -> Record:
    rows = _rows(group, subs)
    paths = tuple(sorted({s.file.path for s in subs if s.task["id"] in group.tasks}))
    models = sorted({r.model for r in rows})
    spec = ResultTableSpec(
        id=f"{PREFIX}-table-{group.key}",
        title=(
            f"DGEB {group.name}: {len(models)} DNA models on {len(group.tasks)} task"
            f"{'s' if len(group.tasks) > 1 else ''}, middle and last layer"
        ),
        summary=(
            f"DGEB's published {group.name} results of the Nucleotide Transformer and Evo 1 "
            "checkpoints, one row per model, task and layer (DGEB probes the middle and the "
            "last layer). DGEB reports both layers; the better of the two, picked on these "
            "same test scores, is an optimistic figure."
        ),
        sources=[source_id(PREFIX, files[p]) for p in paths],
        source_paths=paths,
        labels=SCOPE,
        protocol=f"{PREFIX}-protocol-{group.key}",
        adaptation=group.adaptation,
        origin="independent_paper",
        settings=(SettingColumn("layer", "layer"),),
        metrics=group.metrics,
        comparison={
            "split": "test split" if group.key == "classification" else "the task's dataset",
            "population": None,
            "inputs": "DNA sequences of the task's dataset",
            "adaptation": (
                "frozen model, a classifier fitted on the train split's embeddings"
                if group.key == "classification"
                else "frozen model, no training"
            ),
            "aggregation": "one value per model, task and layer",
            "budget": None,
            "dataset_version": "the Hugging Face dataset revisions each file names",
            "metric_implementation": f"{EVALUATORS_PY} at commit {files.commit}",
        },
        missing_metadata={
            "comparison.population": missing("unreported", "No sample counts in the files."),
            "comparison.budget": missing("unreported", "Not stated in the submission files."),
        },
        base={
            "areas": AREAS,
            "contexts": CONTEXTS,
            "citations": [
                line_citation(
                    PREFIX,
                    files[MODELS_PY],
                    find_line(files[MODELS_PY], "mid_layer = self.num_layers // 2"),
                    find_line(files[MODELS_PY], "last_layer = self.num_layers - 1"),
                )
            ],
            "added": ADDED,
        },
    )
    return table_record(spec, rows)


IMPORTER = Importer(
    prefix=PREFIX,
    title="DGEB, leaderboard/submissions (DNA models)",
    repository=REPOSITORY,
    commit=COMMIT,
    paths=PATHS,
    required=RESULT_PATHS,
    redistributable=True,
    build=build,
    tables=tuple(
        TableSpec(p, ("task", "model", "results"), check=_check_submission) for p in RESULT_PATHS
    ),
)
