"""Feng et al.'s benchmark of DNA foundation models (ChongWuLab/dna_foundation_benchmark).

What the repository holds at the pinned commit (2024-08-28), read line by line:
- `results_final/final_<model>[_meanpool].csv`: one row per dataset (57), columns MCC,
  AUC, F1-Score, Accuracy, on the test split, for DNABERT-2, NT-v2 and HyenaDNA with the
  summary token (DNABERT-2 and NT-v2: the first, [CLS] position; HyenaDNA: the last,
  'eos' position) or the mean of the token embeddings. `*_ordered.csv` are the same rows
  reordered by `process.py`, not imported twice.
- `results_final/runtime_table.csv`: per dataset and model, the mean wall time of the
  inference script's timed block per training batch (seconds, `plot_runtime.py` labels
  its axis "Average Runtime in Seconds").
- `results_final/summary_table.csv`: train and test sizes and sequence lengths.
- The protocol from `job_scripts/`: frozen (zero-shot) embeddings on CPU, a random forest
  tuned by 4-fold grid search on the training split, scored once on the test split,
  without a fixed random seed.

The README cites the bioRxiv preprint 2024.08.16.608288v1 (August 2024); the article
published in Nature Communications (2025, 16:10780, "Benchmarking DNA foundation models
for genomic and genetic tasks") extends the study to five models. The tables at this
commit hold three models and two poolings: they belong to the preprint version.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from .core import (
    Importer,
    ImportProblem,
    Record,
    SourceFile,
    SourceFiles,
    TableSpec,
    cite,
    find_line,
    line_citation,
    missing,
    sentence_citation,
    slug,
    source_id,
)
from .families import DNABERT_2, HYENADNA, NUCLEOTIDE_TRANSFORMER, family_records
from .feng_tasks import task_fields
from .records import ADDED, AREAS, CONTEXTS, RepoFileSpec, repository_file_source, value_result
from .tables import Cell, read_csv

PREFIX = "feng-2024"
REPOSITORY = "https://github.com/ChongWuLab/dna_foundation_benchmark"
COMMIT = "9f8985bbc3c70634254d8f800e4b8f81435fd78a"
COMMIT_DATE = "2024-08-28"

PREPRINT = f"{PREFIX}-source-biorxiv-2024-08-16-608288v1"
ARTICLE = f"{PREFIX}-source-nature-communications-2025"

AUTHORS = (
    "Haonan Feng",
    "Lang Wu",
    "Bingxin Zhao",
    "Chad Huff",
    "Jianjun Zhang",
    "Jia Wu",
    "Lifeng Lin",
    "Peng Wei",
    "Chong Wu",
)

README = "README.md"
PROCESS = "results_final/process.py"
PLOT_RUNTIME = "results_final/plot_runtime.py"
COMBINE = "results_final/combine.py"
SUMMARY = "results_final/summary_table.csv"
RUNTIME = "results_final/runtime_table.csv"


@dataclass(frozen=True)
class Model:
    key: str
    reported_name: str
    family: str
    inference: str
    classify: str
    summary_pooling: str
    """The script's name for the summary-token pooling: cls or eos."""
    summary_label: str
    table: str
    mean_table: str
    runtime_column: str
    mean_runtime_column: str


MODELS = (
    Model(
        "dnabert-2",
        "DNABERT-2",
        DNABERT_2,
        "job_scripts/inference_dnabert2.py",
        "job_scripts/classify_dnabert2.py",
        "cls",
        "summary token (first position, [CLS])",
        "results_final/final_dnabert2.csv",
        "results_final/final_dnabert2_meanpool.csv",
        "DNABERT2",
        "DNABERT2 Mean Pool",
    ),
    Model(
        "nt-v2-500m",
        "NT-v2 (500M, multi-species)",
        NUCLEOTIDE_TRANSFORMER,
        "job_scripts/inference_ntv2.py",
        "job_scripts/classify_ntv2.py",
        "cls",
        "summary token (first position, [CLS])",
        "results_final/final_ntv2.csv",
        "results_final/final_ntv2_meanpool.csv",
        "NT",
        "NT Mean Pool",
    ),
    Model(
        "hyenadna-medium-160k",
        "HyenaDNA (medium, 160k)",
        HYENADNA,
        "job_scripts/inference_hyena.py",
        "job_scripts/classify_hyena.py",
        "eos",
        "summary token (last position, 'eos')",
        "results_final/final_hyena.csv",
        "results_final/final_hyena_meanpool.csv",
        "HyenaDNA",
        "HyenaDNA Mean Pool",
    ),
)

POOLINGS = ("summary", "mean")

METRICS = {
    # column heading -> (column id, label, minimum, sklearn call for binary / multiclass)
    "MCC": ("mcc", "MCC", -1.0, "matthews_corrcoef(y_test, y_pred)"),
    "AUC": ("auc", "AUC", 0.0, "roc_auc_score"),
    "F1-Score": ("f1", "F1 score", 0.0, "f1_score"),
    "Accuracy": ("accuracy", "Accuracy", 0.0, "accuracy_score(y_test, y_pred)"),
}
RUNTIME_PROTOCOL = f"{PREFIX}-protocol-embedding-time"

RESULT_FILES = (*(p for m in MODELS for p in (m.table, m.mean_table)), RUNTIME, SUMMARY)
DOC_FILES = (
    README,
    PROCESS,
    PLOT_RUNTIME,
    COMBINE,
    *(m.inference for m in MODELS),
    *(m.classify for m in MODELS),
)
PATHS = RESULT_FILES + DOC_FILES

_CHECKPOINT = re.compile(r'^checkpoint = ".*/models--([^/]+?)--([^/]+)/snapshots/([0-9a-f]{40})"')


def _file_spec(file: SourceFile) -> RepoFileSpec:
    if file.path.endswith(".csv"):
        what = f"Result table `{file.path}` of Feng et al.'s DNA foundation model benchmark"
    else:
        what = f"`{file.path}` of Feng et al.'s DNA foundation model benchmark"
    return RepoFileSpec(
        title=f"{file.path} (ChongWuLab/dna_foundation_benchmark)",
        summary=f"{what}, at commit {file.commit[:12]}.",
        short_citation=f"Feng et al. 2024, {file.path}",
        authors=AUTHORS,
        maintainers=("ChongWuLab",),
        published=COMMIT_DATE,
        licence=None,
        licence_note=(
            "The repository has no LICENSE file at this commit and its README states no "
            "licence; the file is therefore not copied into Rewire (hash, size, commit "
            "and URL are kept)."
        ),
        independence=(
            "Independent of the model developers: Feng et al. evaluate DNABERT-2, NT-v2 "
            "and HyenaDNA, which others built (README.md, References 1-3)."
        ),
    )


def _paper_sources(readme: SourceFile) -> list[Record]:
    cite_line = find_line(readme, "Benchmarking DNA Foundation Models for Genomic Sequence")
    readme_quote = cite(
        source_id(PREFIX, readme),
        f"{readme.path}, line {cite_line}",
        "Benchmarking DNA Foundation Models for Genomic Sequence Classification",
    )
    common = {"areas": AREAS, "contexts": CONTEXTS, "authors": list(AUTHORS), "added": ADDED}
    not_hashed = missing(
        "unknown",
        "The importer did not download the paper; Rewire holds no copy to hash.",
    )
    preprint: Record = {
        "id": PREPRINT,
        "kind": "source",
        "title": "Benchmarking DNA Foundation Models for Genomic Sequence Classification",
        "summary": (
            "Feng et al.'s bioRxiv preprint (version 1, August 2024), the manuscript the "
            "repository's README cites; its tables are the repository's `results_final/` "
            "tables at commit 9f8985bb (three models, two poolings, 57 datasets)."
        ),
        **common,
        "citations": [readme_quote],
        "source_kind": "preprint",
        "short_citation": "Feng et al. 2024",
        "venue": "bioRxiv",
        "published": "2024-08",
        "version": "bioRxiv 2024.08.16.608288, version 1",
        "url": "https://www.biorxiv.org/content/10.1101/2024.08.16.608288v1",
        "revision": "v1",
        "licence": None,
        "retrieval_url": None,
        "retrieved_at": None,
        "sha256": None,
        "hash_scope": None,
        "independence": (
            "Independent of the model developers (README.md, References 1-3 cite the "
            "developers' own papers)."
        ),
        "missing_metadata": {
            "licence": missing("unknown", "The preprint's licence was not checked."),
            "retrieval_url": not_hashed,
            "retrieved_at": not_hashed,
            "sha256": not_hashed,
            "hash_scope": not_hashed,
        },
    }
    article: Record = {
        "id": ARTICLE,
        "kind": "source",
        "title": "Benchmarking DNA foundation models for genomic and genetic tasks",
        "summary": (
            "The published version of Feng et al.'s benchmark (Nature Communications 16, "
            "10780, 2025). It extends the preprint to five models (adding Caduceus-Ph and "
            "GROVER) and further tasks; the repository's tables at commit 9f8985bb hold "
            "only the preprint's three models, so the imported values are the preprint's, "
            "not checked against the article's tables."
        ),
        **common,
        "citations": [readme_quote],
        "source_kind": "journal_paper",
        "short_citation": "Feng et al. 2025",
        "venue": "Nature Communications",
        "published": "2025-11-28",
        "version": "Nature Communications 16, 10780 (2025); doi:10.1038/s41467-025-65823-8",
        "url": "https://doi.org/10.1038/s41467-025-65823-8",
        "revision": "doi:10.1038/s41467-025-65823-8",
        "licence": None,
        "retrieval_url": None,
        "retrieved_at": None,
        "sha256": None,
        "hash_scope": None,
        "independence": (
            "Independent of the model developers: the authors evaluate models others built."
        ),
        "missing_metadata": {
            "licence": missing(
                "unknown",
                "Open access (PMC12663285); the licence was not read from the article itself.",
            ),
            "retrieval_url": not_hashed,
            "retrieved_at": not_hashed,
            "sha256": not_hashed,
            "hash_scope": not_hashed,
        },
    }
    return [preprint, article]


def _categories(process: SourceFile) -> tuple[dict[str, str], set[str]]:
    """dataset -> category label (the comment above each list in process.py), and the
    multiclass datasets (the `multi` list)."""
    lines = process.lines()
    out: dict[str, str] = {}
    multi: set[str] = set()
    for index, text in enumerate(lines):
        match = re.match(r"^(category_\d|multi) = \[", text)
        if not match:
            continue
        source = text
        end = index
        while source.count("[") > source.count("]"):
            end += 1
            source += lines[end]
        names = ast.literal_eval(source.split("=", 1)[1].strip())
        label = lines[index - 1].lstrip("# ").strip()
        for name in names:
            if match.group(1) == "multi":
                multi.add(name)
            out[name] = label
    return out, multi


def _checkpoint(script: SourceFile) -> tuple[str, str, int]:
    """(hub id, snapshot revision, line) of the checkpoint the script loads."""
    for number, text in enumerate(script.lines(), start=1):
        match = _CHECKPOINT.match(text)
        if match:
            return f"{match.group(1)}/{match.group(2)}", match.group(3), number
    raise ImportProblem(f"{script.path}: no uncommented checkpoint line at {script.commit}")


def build(files: SourceFiles) -> list[Record]:
    records: list[Record] = []
    for path in PATHS:
        if path in files:
            records.append(
                repository_file_source(PREFIX, REPOSITORY, files[path], _file_spec(files[path]))
            )
    readme = files[README]
    records += _paper_sources(readme)
    records += family_records({m.family for m in MODELS})

    categories, multiclass = _categories(files[PROCESS])
    summary = read_csv(files[SUMMARY])
    datasets = {row[0].text: row for row in summary.rows}

    configurations = {}
    for model in MODELS:
        for pooling in POOLINGS:
            record = _configuration(files, model, pooling)
            configurations[(model.key, pooling)] = record["id"]
            records.append(record)

    for name, row in datasets.items():
        records.append(_dataset(files, name, row, categories))
        records.append(_protocol(files, name, row, categories, multiclass))
    if RUNTIME in files:
        records.append(_runtime_protocol(files, list(datasets)))

    for model in MODELS:
        for pooling in POOLINGS:
            path = model.table if pooling == "summary" else model.mean_table
            if path not in files:
                continue
            table = read_csv(files[path])
            for heading, (column, label, _, _) in METRICS.items():
                for cell in table.column(heading):
                    _check_dataset(cell, datasets)
                    records.append(
                        _evaluation(
                            files,
                            model,
                            pooling,
                            configurations[(model.key, pooling)],
                            cell,
                            column,
                            label,
                            datasets[cell.row_key],
                            cell.row_key in multiclass,
                        )
                    )
    if RUNTIME in files:
        runtime = read_csv(files[RUNTIME])
        for model in MODELS:
            summary_cells = runtime.column(model.runtime_column)
            mean_cells = runtime.column(model.mean_runtime_column)
            for pooling, cells in (("summary", summary_cells), ("mean", mean_cells)):
                for index, cell in enumerate(cells):
                    _check_dataset(cell, datasets)
                    twin = (mean_cells if pooling == "summary" else summary_cells)[index]
                    records.append(
                        _runtime_evaluation(
                            files,
                            model,
                            pooling,
                            configurations[(model.key, pooling)],
                            cell,
                            twin,
                            datasets[cell.row_key],
                        )
                    )
    return records


def _check_dataset(cell: Cell, datasets: dict[str, tuple[Cell, ...]]) -> None:
    if cell.row_key not in datasets:
        raise ImportProblem(f"{cell.locator}: dataset {cell.row_key!r} is not in {SUMMARY}")


def _pool_label(model: Model, pooling: str) -> str:
    return model.summary_label if pooling == "summary" else "mean of token embeddings"


def _configuration(files: SourceFiles, model: Model, pooling: str) -> Record:
    script = files[model.inference]
    classify = files[model.classify]
    hub, revision, line = _checkpoint(script)
    cpu = find_line(script, "model = model.to('cpu')")
    pool_flag = model.summary_pooling if pooling == "summary" else "mean"
    pool_line = find_line(script, f'if args.pooling == "{model.summary_pooling}":')
    rf_line = find_line(classify, "rf = RandomForestClassifier()")
    return {
        "id": f"{PREFIX}-config-{model.key}-{pooling}-pooling",
        "kind": "configuration",
        "title": f"{model.reported_name}, {_pool_label(model, pooling)}, random forest",
        "summary": (
            f"{model.reported_name} as Feng et al. run it: frozen embeddings from the "
            f"checkpoint {hub}, pooled by {_pool_label(model, pooling)} "
            f"(`--pooling {pool_flag}`), fed to a random forest."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            line_citation(PREFIX, script, line, supports=["checkpoint", "version"]),
            line_citation(PREFIX, script, cpu, supports=["hardware"]),
            line_citation(PREFIX, script, pool_line, pool_line + 1, supports=["settings"]),
            line_citation(PREFIX, classify, rf_line, supports=["fine_tuning"]),
        ],
        "reported_name": model.reported_name,
        "family": model.family,
        "method_types": ["foundation_model", "frozen_embeddings", "random_forest"],
        "hardware": {"description": "CPU (the inference script moves the model to 'cpu')"},
        "fine_tuning": (
            "None: the language model stays frozen (zero-shot embeddings); a random forest "
            "is fitted on the training split's embeddings."
        ),
        "training_setting": "Inference only for the language model.",
        "checkpoint": f"{hub} (Hugging Face snapshot {revision})",
        "version": revision,
        "settings": {
            "adaptation": "frozen",
            "pooling": pool_flag,
            "classifier": "random-forest",
        },
        "source_locator": f"{model.inference}, line {line}",
        "added": ADDED,
    }


def _dataset(
    files: SourceFiles, name: str, row: tuple[Cell, ...], categories: dict[str, str]
) -> Record:
    readme = files[README]
    summary_file = files[SUMMARY]
    _, train, test, max_length, median_length = (c.text for c in row)
    category = categories.get(name)
    row_quote = summary_file.line(row[0].line)
    citations = [
        cite(
            source_id(PREFIX, summary_file),
            f"{SUMMARY}, row {row[0].line}",
            row_quote,
            supports=["splits"],
        ),
        sentence_citation(PREFIX, readme, "We maintained the training and testing split"),
        sentence_citation(PREFIX, readme, "the processed datasets can be downloaded"),
    ]
    if category:
        process = files[PROCESS]
        citations.append(line_citation(PREFIX, process, find_line(process, f"# {category}")))
    return {
        "id": f"{PREFIX}-dataset-{slug(name)}",
        "kind": "dataset",
        "title": f"{name} (Feng et al. benchmark)",
        "summary": (
            f"Dataset `{name}` of Feng et al.'s benchmark"
            + (f" ({category.lower()})" if category else "")
            + f": {train} training and {test} test sequences."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": citations,
        "description": (
            f"`{name}`: a labelled DNA sequence classification dataset that Feng et al. "
            "collected preprocessed from a published work and split into training and "
            f"test sets. Sequences are up to {max_length} long (median {median_length}), "
            "in the units of the summary table's Max Length and Median Length columns."
        ),
        "version": None,
        "generator": None,
        "seed": None,
        "access": "https://osf.io/fusgr/files/osfstorage (processed datasets, README.md)",
        "licence": None,
        "synthetic": False,
        "splits": [
            {"name": "train", "size": int(train)},
            {"name": "test", "size": int(test)},
        ],
        "tasks": [category] if category else [],
        **task_fields(name),
        "missing_metadata": {
            "version": missing("unreported", "The README names no version of the OSF files."),
            "generator": missing("inapplicable", "Collected data, not generated."),
            "seed": missing(
                "unreported",
                "Where Feng et al. split at random (7:3), the seed is not stated.",
            ),
            "licence": missing("unreported", "The README states no licence for the data."),
        },
        "added": ADDED,
    }


def _protocol(
    files: SourceFiles,
    name: str,
    row: tuple[Cell, ...],
    categories: dict[str, str],
    multiclass: set[str],
) -> Record:
    readme = files[README]
    classify = files[MODELS[0].classify]
    multi = name in multiclass
    grid = find_line(classify, "param_grid = {")
    search = find_line(classify, "scoring='accuracy'" if multi else "scoring='roc_auc'")
    f1 = find_line(
        classify,
        'f1_score(y_test, y_pred, average="macro")' if multi else "f1 = f1_score(y_test, y_pred)",
    )
    auc = find_line(classify, "multi_class='ovr'" if multi else "auc = roc_auc_score(")
    rf = find_line(classify, "rf = RandomForestClassifier()")

    def metric(column: str, label: str, minimum: float) -> Record:
        return {
            "id": column,
            "label": label,
            "unit": "score",
            "direction": "higher",
            "scale": "fraction",
            "minimum": minimum,
            "maximum": 1.0,
        }

    columns: list[Record] = []
    for column, label, minimum, _ in METRICS.values():
        text = label
        if column == "f1" and multi:
            text = "F1 score (macro average over classes)"
        if column == "auc" and multi:
            text = "AUC (one-vs-rest)"
        columns.append({"id": column, "label": text, "metric": metric(column, text, minimum)})
    kind = "multiclass" if multi else "binary"
    return {
        "id": f"{PREFIX}-protocol-{slug(name)}",
        "kind": "protocol",
        "title": f"{name}: frozen embeddings and a random forest (Feng et al.)",
        "summary": (
            f"Feng et al.'s {kind} classification of `{name}` from zero-shot embeddings of "
            "DNABERT-2, NT-v2 or HyenaDNA with a grid-searched random forest, scored on "
            "the test split."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            sentence_citation(PREFIX, readme, "will take the zero-shot embedding csv files"),
            sentence_citation(PREFIX, readme, "We maintained the training and testing split"),
            line_citation(PREFIX, classify, grid, grid + 6),
            line_citation(PREFIX, classify, rf),
            line_citation(PREFIX, classify, search),
            line_citation(PREFIX, classify, f1),
            line_citation(PREFIX, classify, auc),
            line_citation(
                PREFIX, files[COMBINE], find_line(files[COMBINE], "'final_dnabert2.csv'")
            ),
            {"source": PREPRINT, "locator": "whole work", "role": "context_only"},
            {"source": ARTICLE, "locator": "whole work", "role": "context_only"},
        ],
        "measurement": (
            "Each language model embeds every sequence without any training (zero-shot); "
            "the embeddings are pooled to one vector per sequence (summary token or mean "
            "of the token embeddings). A random forest is tuned by a 4-fold "
            f"cross-validated grid search on the training split (scoring "
            f"{'accuracy' if multi else 'ROC AUC'}) and scored once on the test split."
        ),
        "metric": metric("auc", "AUC", 0.0),
        "metric_definition": (
            "scikit-learn on the test split: matthews_corrcoef, roc_auc_score "
            f"({'one-vs-rest' if multi else 'positive-class probability'}), "
            f"f1_score ({'macro average' if multi else 'binary'}), accuracy_score."
        ),
        "columns": columns,
        "datasets": [f"{PREFIX}-dataset-{slug(name)}"],
        "hardware": "CPU for the embeddings (the inference scripts move each model to 'cpu').",
        "version": f"ChongWuLab/dna_foundation_benchmark at commit {files.commit}",
        "source_locator": (
            "README.md (workflow); job_scripts/classify_*.py; job_scripts/inference_*.py"
        ),
        "replicates": None,
        "hardware_dependence": {
            "depends": False,
            "reason": "Scores of a classifier's predictions do not depend on the hardware.",
        },
        "baselines": None,
        "recipe": None,
        "missing_metadata": {
            "replicates": missing(
                "unreported",
                "One grid-searched random forest per dataset and model; the forest is "
                "created without random_state, so no seed is fixed and no repeat is "
                "reported.",
            ),
            "baselines": missing(
                "unreported",
                "The benchmark compares the language models with each other; it reports no "
                "model-free control or conventional reference.",
            ),
            "recipe": missing("inapplicable", "Rewire has no runnable recipe for this protocol."),
        },
        "added": ADDED,
    }


def _runtime_protocol(files: SourceFiles, names: list[str]) -> Record:
    inference = files[MODELS[0].inference]
    plot = files[PLOT_RUNTIME]
    return {
        "id": RUNTIME_PROTOCOL,
        "kind": "protocol",
        "title": "Embedding time per batch on CPU (Feng et al.)",
        "summary": (
            "Mean wall time to tokenise and embed one training batch of 256 sequences on "
            "CPU, per dataset, for DNABERT-2, NT-v2 and HyenaDNA (Feng et al.'s runtime "
            "table)."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            line_citation(PREFIX, inference, find_line(inference, "model = model.to('cpu')")),
            line_citation(PREFIX, inference, find_line(inference, "train_loader = DataLoader(")),
            line_citation(PREFIX, inference, find_line(inference, "start_time = time.time()")),
            line_citation(
                PREFIX, inference, find_line(inference, "mean_time = sum(times)/len(times)")
            ),
            line_citation(PREFIX, plot, find_line(plot, "Average Runtime in Seconds")),
            {"source": PREPRINT, "locator": "whole work", "role": "context_only"},
        ],
        "measurement": (
            "The inference script takes time.time() before tokenising a training batch of "
            "256 sequences and after pooling its embeddings, on CPU, and writes the mean "
            "over the training batches; the runtime table holds that mean per dataset and "
            "model. Sequences are padded to the script's --max_length, so the time grows "
            "with the dataset's sequence length (one column per dataset)."
        ),
        "metric": {
            "id": "embedding-time-per-batch",
            "label": "Embedding time per batch",
            "unit": "second",
            "direction": "lower",
            "scale": None,
            "minimum": 0.0,
            "maximum": None,
        },
        "metric_definition": (
            "Mean over training batches of the wall time (time.time()) around tokenisation, "
            "the forward pass and pooling of one batch of 256 sequences."
        ),
        "columns": [{"id": slug(n), "label": n} for n in names],
        "datasets": [f"{PREFIX}-dataset-{slug(n)}" for n in names],
        "hardware": "CPU (model not stated)",
        "version": f"ChongWuLab/dna_foundation_benchmark at commit {files.commit}",
        "source_locator": f"{RUNTIME}; {MODELS[0].inference}",
        "replicates": None,
        "hardware_dependence": {
            "depends": True,
            "reason": "A wall time: it depends on the CPU, which the repository does not name.",
        },
        "baselines": None,
        "recipe": None,
        "missing_metadata": {
            "replicates": missing("unreported", "One timed pass over the training batches."),
            "baselines": missing("unreported", "No control or reference timing is reported."),
            "recipe": missing("inapplicable", "Rewire has no runnable recipe for this protocol."),
        },
        "added": ADDED,
    }


def _comparison(
    model: Model, pooling: str, row: tuple[Cell, ...], *, runtime: bool
) -> tuple[Record, Record]:
    _, train, test, max_length, _ = (c.text for c in row)
    comparison = {
        "split": "training split" if runtime else "test split",
        "population": f"{train} training sequences" if runtime else f"{test} test sequences",
        "inputs": (
            f"DNA sequences (longest {max_length} in the summary table), padded or truncated "
            "to the script's --max_length"
        ),
        "adaptation": "frozen zero-shot embeddings, random forest (pooling: see configuration)",
        "aggregation": "mean over training batches" if runtime else "one value over the test split",
        "budget": None,
        "dataset_version": None,
        "metric_implementation": (
            "time.time() around tokenising and embedding each batch of 256"
            if runtime
            else "scikit-learn (job_scripts/classify_*.py)"
        ),
    }
    reasons = {
        "comparison.budget": missing(
            "unreported", "The --max_length passed for each dataset is not recorded."
        ),
        "comparison.dataset_version": missing(
            "unreported", "The README names no version of the processed datasets."
        ),
    }
    return comparison, reasons


def _evaluation(
    files: SourceFiles,
    model: Model,
    pooling: str,
    configuration: str,
    cell: Cell,
    column: str,
    label: str,
    row: tuple[Cell, ...],
    multi: bool,
) -> Record:
    name = cell.row_key
    source = source_id(PREFIX, files[cell.path])
    comparison, reasons = _comparison(model, pooling, row, runtime=False)
    return {
        "id": f"{PREFIX}-eval-{model.key}-{pooling}-{slug(name)}-{column}",
        "kind": "evaluation",
        "title": f"{model.reported_name} ({pooling} pooling) on {name}: {label}",
        "summary": (
            f"{label} {cell.text} for {model.reported_name} with "
            f"{_pool_label(model, pooling)} and a random forest on the `{name}` test split "
            f"(Feng et al., {cell.path})."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "configuration": configuration,
        "protocol": f"{PREFIX}-protocol-{slug(name)}",
        "dataset": f"{PREFIX}-dataset-{slug(name)}",
        "origin": "independent_paper",
        "version": f"{cell.path} at commit {files.commit}",
        "results": [value_result(column, cell, source, unit="score", scale="fraction")],
        "comparison": comparison,
        "source_locator": cell.locator,
        "training_hardware": "CPU for the embeddings; the random forest's hardware is not stated",
        "missing_metadata": {
            **reasons,
            "results.0.uncertainty": missing(
                "unreported", "One run per dataset; the table gives no spread."
            ),
            "results.0.coverage": missing(
                "unreported", "The table gives no scored and eligible counts."
            ),
        },
        "added": ADDED,
    }


def _runtime_evaluation(
    files: SourceFiles,
    model: Model,
    pooling: str,
    configuration: str,
    cell: Cell,
    twin: Cell,
    row: tuple[Cell, ...],
) -> Record:
    name = cell.row_key
    source = source_id(PREFIX, files[cell.path])
    comparison, reasons = _comparison(model, pooling, row, runtime=True)
    result = value_result(slug(name), cell, source, unit="second", scale=None)
    record: Record = {
        "id": f"{PREFIX}-eval-{model.key}-{pooling}-{slug(name)}-embedding-time",
        "kind": "evaluation",
        "title": f"{model.reported_name} ({pooling} pooling) on {name}: embedding time",
        "summary": (
            f"Mean embedding time of {cell.text} s per training batch of 256 sequences for "
            f"{model.reported_name} with {_pool_label(model, pooling)} on `{name}`, on CPU "
            f"(Feng et al., {cell.path})."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "configuration": configuration,
        "protocol": RUNTIME_PROTOCOL,
        "dataset": f"{PREFIX}-dataset-{slug(name)}",
        "origin": "independent_paper",
        "version": f"{cell.path} at commit {files.commit}",
        "results": [result],
        "comparison": comparison,
        "source_locator": cell.locator,
        "training_hardware": "CPU (the inference script moves the model to 'cpu')",
        "missing_metadata": {
            **reasons,
            "results.0.uncertainty": missing(
                "unreported", "The table gives the mean over batches, no spread."
            ),
            "results.0.coverage": missing(
                "unreported", "The table does not say how many batches were timed."
            ),
        },
        "added": ADDED,
    }
    if cell.text == twin.text and model.key.startswith("hyenadna"):
        record["concerns"] = [
            {
                "id": "identical-pooling-timings",
                "kind": "other",
                "text": (
                    "The runtime table gives HyenaDNA the same time, to every printed "
                    "digit, with the summary token and with mean pooling, on every dataset; "
                    "two timed runs rarely agree to 17 digits, so one run's timing may "
                    "have been reported for both poolings."
                ),
                "field": "results.0",
                "excludes_from_comparisons": False,
                "citations": [
                    cite(source, cell.locator, cell.text),
                    cite(source, twin.locator, twin.text),
                ],
            }
        ]
    return record


IMPORTER = Importer(
    prefix=PREFIX,
    title="Feng et al. 2024, DNA foundation model benchmark (results_final/)",
    repository=REPOSITORY,
    commit=COMMIT,
    paths=PATHS,
    required=(
        RESULT_FILES[0],
        SUMMARY,
        README,
        PROCESS,
        PLOT_RUNTIME,
        COMBINE,
        *(m.inference for m in MODELS),
        *(m.classify for m in MODELS),
    ),
    redistributable=False,
    tables=(
        TableSpec(SUMMARY, ("Data", "Train", "Test", "Max Length", "Median Length"), exact=True),
        *(
            TableSpec(path, ("Data", *METRICS), required=path == RESULT_FILES[0])
            for m in MODELS
            for path in (m.table, m.mean_table)
        ),
        TableSpec(
            RUNTIME,
            ("Data", *(c for m in MODELS for c in (m.runtime_column, m.mean_runtime_column))),
            required=False,
        ),
    ),
    build=build,
)
