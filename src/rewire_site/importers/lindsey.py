"""Lindsey et al.'s tokenization study (leannmlindsey/DNATokenization_results_analysis).

What the repository holds at the pinned commit (2025-07-21), read line by line:
- `final_combined_attn_results/combined_attn_results_cleaned.csv`: every fine-tuning run of
  the attention models (DNABERT, DNABERT2, GPT, NTv2) over a sweep of learning rates and
  epochs, one row per run with its seed and five metrics (accuracy, MCC, F1, precision,
  recall); `best_replicates.csv` beside it: the runs at each model's and task's best
  combination, as `attn_scripts/find_best_hyperparameters.py` selects it (highest mean
  MCC among combinations with at least 3 replicates; NTv1 rows left out).
- `final_combined_ss_results/combined_ss_results_cleaned.csv` and `best_replicates_ss.csv`:
  the same for the state-space models and the CNN (Caduceus, HyenaDNA, Mamba-bpe,
  Mamba-char, CNN) over learning rate, batch size and reverse-complement augmentation,
  with six metrics (specificity added); the selection prefers combinations with at least
  10 replicates (`ss_scripts/find_best_hyperparameters_ss.py`).

The repository states no licence: its files are cited and hashed, never copied. Each CSV
becomes one result table (records/tables/, see TABLES-SPEC): every run is a row, its seed
a setting, its metric cells verbatim. The run-time column of the attention tables is not
imported (its unit is not stated).
"""

from __future__ import annotations

from . import result_tables
from .core import (
    Importer,
    Record,
    SourceFile,
    SourceFiles,
    TableSpec,
    cite,
    find_line,
    line_citation,
    missing,
    source_id,
)
from .lindsey_rows import (
    METRICS,
    RUN_DIRECTORY,
    TABLES,
    Row,
    TableDef,
    read_rows,
)
from .lindsey_tasks import BENCHMARKS, PREFIX, TASKS, Task, dataset_id
from .records import ADDED, AREAS, CONTEXTS, RepoFileSpec, repository_file_source

LABELS = PREFIX
"""The label scope of the study's model and task names."""
REPOSITORY = "https://github.com/leannmlindsey/DNATokenization_results_analysis"
COMMIT = "3e4c42a0d48b70d64bb1d412501eb9872924b958"
COMMIT_DATE = "2025-07-21"

PREPRINT = f"{PREFIX}-source-biorxiv-2024-09-09-612081"
AUTHORS = (
    "LeAnn M. Lindsey",
    "Nicole L. Pershing",
    "Anisa Habib",
    "Keith Dufault-Thompson",
    "W. Zac Stephens",
    "Anne J. Blaschke",
    "Xiaofang Jiang",
    "Hari Sundar",
)

README = "README.md"
ATTN_SCRIPT = "attn_scripts/find_best_hyperparameters.py"
SS_SCRIPT = "ss_scripts/find_best_hyperparameters_ss.py"
LATEX_SCRIPT = "results_scripts/create_results_latex_tables.py"
GUE_TABLE = "results_tables/latex_table_gue_mcc.tex"
MAMBA_LOG = "results_scripts/calculate_mamba_significance_paired.log"


RESULT_FILES = tuple(t.path for t in TABLES)
DOC_FILES = (README, ATTN_SCRIPT, SS_SCRIPT, LATEX_SCRIPT, GUE_TABLE, MAMBA_LOG)
PATHS = RESULT_FILES + DOC_FILES


def table_id(table: TableDef) -> str:
    return f"{PREFIX}-table-{table.key}"


def protocol_id(table: TableDef) -> str:
    return f"{PREFIX}-protocol-{table.family}-fine-tuning"


MAMBA_FAMILY = f"{PREFIX}-family-mamba"
CNN_FAMILY = f"{PREFIX}-family-cnn-baseline"


def _file_spec(file: SourceFile) -> RepoFileSpec:
    what = "Result table" if file.path.endswith(".csv") else "File"
    return RepoFileSpec(
        title=f"{file.path} (leannmlindsey/DNATokenization_results_analysis)",
        summary=(
            f"{what} `{file.path}` of Lindsey et al.'s tokenization study, at commit "
            f"{file.commit[:12]}."
        ),
        short_citation=f"Lindsey et al. 2025, {file.path}",
        authors=("LeAnn M. Lindsey",),
        maintainers=("leannmlindsey",),
        published=COMMIT_DATE,
        licence=None,
        licence_note=(
            "The repository has no LICENSE file at this commit and its README states no "
            "licence; the file is therefore not copied into Rewire (hash, size, commit and "
            "URL are kept)."
        ),
        independence=(
            "An independent study of models others built (DNABERT, DNABERT-2, the Nucleotide "
            "Transformer, HyenaDNA, Caduceus) beside the authors' own Mamba and CNN models."
        ),
    )


def _preprint(readme: SourceFile) -> Record:
    line = find_line(readme, "2024.09.09.612081")
    not_hashed = missing(
        "unknown", "The importer did not download the paper; Rewire holds no copy to hash."
    )
    return {
        "id": PREPRINT,
        "kind": "source",
        "title": "The impact of tokenizer selection in genomic language models",
        "summary": (
            "Lindsey et al.'s study of tokenisation in DNA language models (bioRxiv "
            "2024.09.09.612081; published in Bioinformatics 41(9), btaf456, 2025), the paper "
            "whose figures and tables the repository's pipeline reproduces."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "authors": list(AUTHORS),
        "added": ADDED,
        "citations": [line_citation(PREFIX, readme, line)],
        "source_kind": "preprint",
        "short_citation": "Lindsey et al. 2024",
        "venue": "bioRxiv",
        "published": "2024-09",
        "version": (
            "bioRxiv 2024.09.09.612081 (journal version: doi:10.1093/bioinformatics/btaf456)"
        ),
        "url": "https://doi.org/10.1101/2024.09.09.612081",
        "revision": None,
        "licence": None,
        "retrieval_url": None,
        "retrieved_at": None,
        "sha256": None,
        "hash_scope": None,
        "independence": (
            "Evaluates published models of other developers beside the authors' own Mamba "
            "and CNN models."
        ),
        "missing_metadata": {
            "revision": missing("unknown", "The README's badge names no preprint version."),
            "licence": missing("unknown", "The preprint's licence was not checked."),
            "retrieval_url": not_hashed,
            "retrieved_at": not_hashed,
            "sha256": not_hashed,
            "hash_scope": not_hashed,
        },
    }


def _family(files: SourceFiles, key: str) -> Record:
    latex = files[LATEX_SCRIPT]
    if key == "mamba":
        log = files[MAMBA_LOG]
        return {
            "id": MAMBA_FAMILY,
            "kind": "model_family",
            "title": "Mamba DNA models of Lindsey et al. (BPE and character tokens)",
            "summary": (
                "The two Mamba models of Lindsey et al.'s tokenization study, one on byte-pair "
                "(BPE) tokens and one on single characters, compared with each other task by "
                "task; no published checkpoint is named in the study's results repository."
            ),
            "areas": AREAS,
            "contexts": CONTEXTS,
            "citations": [
                line_citation(PREFIX, log, find_line(log, "in a 4 layer Mamba-DNA Model")),
                line_citation(PREFIX, latex, find_line(latex, "'Mamba-bpe': 'Mamba")),
                line_citation(PREFIX, latex, find_line(latex, "'Mamba-char': 'Mamba")),
            ],
            "name": "Mamba DNA models (Lindsey et al.)",
            "developers": [AUTHORS[0], "et al."],
            "papers": [PREPRINT],
            "architecture": "Mamba (state-space model), 4 layers",
            "tokenisation": "byte-pair encoding (Mamba-bpe) or single characters (Mamba-char)",
            "labels": [
                {"scope": LABELS, "label": "Mamba-bpe"},
                {"scope": LABELS, "label": "Mamba-char"},
            ],
            "limitations": [
                "Known only by the study's labels: the results repository names no checkpoint, "
                "so no checkpoint is pinned."
            ],
            "added": ADDED,
        }
    table = files[GUE_TABLE]
    return {
        "id": CNN_FAMILY,
        "kind": "model_family",
        "title": "CNN baseline of Lindsey et al. (character input)",
        "summary": (
            "The convolutional network Lindsey et al. fine-tune on every task as a baseline "
            "beside the DNA language models; the results repository does not describe it "
            "further."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            line_citation(PREFIX, latex, find_line(latex, "'CNN': 'CNN")),
            line_citation(PREFIX, table, find_line(table, "{\\textit{baseline}}")),
        ],
        "name": "CNN baseline (Lindsey et al.)",
        "developers": [AUTHORS[0], "et al."],
        "papers": [PREPRINT],
        "architecture": "convolutional network",
        "tokenisation": "single characters ('CNN (char)' in the study's tables)",
        "labels": [{"scope": LABELS, "label": "CNN"}],
        "limitations": [
            "Known only by the study's label: its layers and whether it is trained from "
            "scratch are not stated in the results repository; no checkpoint is pinned."
        ],
        "added": ADDED,
    }


def _dataset(files: SourceFiles, task: Task, first_rows: dict[str, tuple[str, int]]) -> Record:
    """One canonical task of the study with every label the study's files give it."""
    latex = files[LATEX_SCRIPT]
    citations: list[Record] = []
    if task.benchmark in ("GB", "GUE", "NTv2"):
        line = _find_any(latex, [f"'{task.name}': '{task.benchmark}'"])
        if line is not None:
            citations.append(line_citation(PREFIX, latex, line, supports=["tasks"]))
    if task.sweep_name is not None:
        script = files[SS_SCRIPT]
        line = find_line(script, f"'{task.sweep_name}': '{task.name}'")
        citations.append(line_citation(PREFIX, script, line, supports=["labels"]))
    labels = []
    if task.benchmark is not None:
        labels.append(task.attention_label)
    if task.benchmark != "NTv1":
        labels.append(task.name)
        if task.sweep_name is not None:
            labels.append(task.sweep_name)
    for label in labels:
        if label in first_rows and not citations:
            # no script names the task: the first row that holds it is the evidence
            path, number = first_rows[label]
            file = files[path]
            locator = f"{path}, row {number}"
            citations.append(cite(source_id(PREFIX, file), locator, file.line(number)))
    benchmark = BENCHMARKS.get(task.benchmark or "", "no benchmark stated")
    record: Record = {
        "id": dataset_id(task),
        "kind": "dataset",
        "title": f"{task.name} ({benchmark}; Lindsey et al.)",
        "summary": (
            f"Task `{task.name}` of Lindsey et al.'s tokenization study"
            + (
                f", from the {benchmark}."
                if task.benchmark
                else "; the files read assign it to no benchmark."
            )
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": citations,
        "description": (
            f"`{task.name}`: a DNA sequence classification task on which Lindsey et al. "
            "fine-tune each model"
            + (f" ({benchmark})" if task.benchmark else "")
            + ". The study's result files name the task but state neither its data files "
            "nor its split sizes."
        ),
        "version": None,
        "generator": None,
        "seed": None,
        "access": None,
        "licence": None,
        "synthetic": False,
        "splits": [],
        "tasks": ["sequence classification"],
        "labels": [{"scope": LABELS, "label": label} for label in labels],
        "missing_metadata": {
            "version": missing("unreported", "The result files name no version of the data."),
            "generator": missing("inapplicable", "Collected data, not generated."),
            "seed": missing("unreported", "The result files do not say how the split was made."),
            "access": missing(
                "unreported", "The result repository does not say where the data are."
            ),
            "licence": missing(
                "unreported", "The result repository states no licence for the data."
            ),
        },
        "added": ADDED,
    }
    if task.related:
        record["related"] = [{"dataset": d, "note": note} for d, note in task.related]
    return record


def _find_any(file: SourceFile, needles: list[str]) -> int | None:
    for needle in needles:
        for number, text in enumerate(file.lines(), start=1):
            if needle in text:
                return number
    return None


_SELECTION = {
    "attention": (
        ("Groups by task, model, learning_rate, and epoch", "Requires minimum 3 replicates"),
        ("Selects best combination based on highest MCC", "Handles mixed-source data"),
    ),
    "state-space": (
        ("Groups by task, model, learning_rate, batch_size, and rc_aug", "Prefers combinations"),
        ("Logs warnings when using fewer than 10", "Selects best based on highest MCC"),
    ),
}


def _metric(column: str) -> Record:
    metric = METRICS[column]
    return {
        "id": column,
        "label": metric.label,
        "unit": "score",
        "direction": "higher",
        "scale": "fraction",
        "minimum": metric.minimum,
        "maximum": 1.0,
    }


def _protocol(files: SourceFiles, family: str, datasets: list[str]) -> Record:
    readme = files[README]
    table = next(t for t in TABLES if t.family == family)
    needles = [n for pair in _SELECTION[family] for n in pair]
    citations = [line_citation(PREFIX, readme, find_line(readme, n)) for n in needles]
    citations.append(line_citation(PREFIX, readme, find_line(readme, "Matches samples by seed")))
    if family == "attention":
        script = files[ATTN_SCRIPT]
        citations += [
            line_citation(PREFIX, script, find_line(script, "hyperparam_cols = ['lr', 'epoch']")),
            line_citation(PREFIX, script, find_line(script, "['benchmark'] != 'NTv1'")),
        ]
        models = "DNABERT, DNABERT2, GPT and NTv2"
        swept = "learning rate and number of epochs"
        rule = (
            "at least 3 seeded runs per combination; where the best combination's runs come "
            "from several of the authors' result files and one of them is the file of a "
            "second contributor, only the file with the highest mean MCC is kept; the "
            "original Nucleotide Transformer tasks (NTv1) are left out of the selection"
        )
    else:
        script = files[SS_SCRIPT]
        citations += [
            line_citation(PREFIX, script, find_line(script, "hyperparam_cols = ['learning_rate'")),
            line_citation(PREFIX, script, find_line(script, "if mcc_diff <= 0.015:")),
        ]
        models = "Caduceus, HyenaDNA, Mamba-bpe, Mamba-char and a CNN baseline"
        swept = "learning rate, batch size and reverse-complement augmentation"
        rule = (
            "combinations with at least 10 seeded runs are preferred (required for the "
            "Mamba models), else at least 3; a best combination with fewer than 10 runs "
            "gives way to one with 10 or more whose mean MCC is within 0.015"
        )
    citations.append({"source": PREPRINT, "locator": "whole work", "role": "context_only"})
    return {
        "id": f"{PREFIX}-protocol-{family}-fine-tuning",
        "kind": "protocol",
        "title": f"Fine-tuning {models} on each task, several seeds (Lindsey et al.)",
        "summary": (
            f"Lindsey et al. fine-tune {models} on each classification task over a sweep of "
            f"{swept}, with several seeds per setting, and score each run; the best setting "
            "per model and task is the one with the highest mean MCC."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": citations,
        "measurement": (
            f"Each model is fine-tuned on each task's training data for every combination of "
            f"{swept}, once per seed; each run is scored (accuracy, MCC, F1, precision, "
            + ("recall)" if family == "attention" else "recall, specificity)")
            + f". The best combination per model and task has the highest mean MCC ({rule}). "
            "Rewire keeps every run: the best-combination table and the whole sweep are "
            "separate result tables."
        ),
        "metric": _metric("mcc"),
        "metric_definition": None,
        "columns": [
            {"id": c, "label": METRICS[c].label, "metric": _metric(c)} for c in table.metrics
        ],
        "datasets": datasets,
        "hardware": None,
        "version": f"leannmlindsey/DNATokenization_results_analysis at commit {files.commit}",
        "source_locator": (
            "README.md (Steps 1 and 2); " + (ATTN_SCRIPT if family == "attention" else SS_SCRIPT)
        ),
        "replicates": None,
        "hardware_dependence": {
            "depends": False,
            "reason": "Scores of a classifier's predictions do not depend on the hardware.",
        },
        "baselines": None,
        "recipe": None,
        "missing_metadata": {
            "metric_definition": missing(
                "unreported",
                "The results repository holds the scores, not the code that computes them.",
            ),
            "hardware": missing("unreported", "The result files do not name the hardware."),
            "replicates": missing(
                "unreported",
                "The number of seeded runs differs between settings and tasks; each table "
                "row is one run, and the rows of one setting give the count.",
            ),
            "baselines": missing(
                "unreported",
                "No model-free control is reported"
                + (
                    "; the study's CNN baseline is in the state-space tables."
                    if family == "attention"
                    else "; the CNN baseline ('CNN (char)') is among this protocol's models."
                ),
            ),
            "recipe": missing("inapplicable", "Rewire has no runnable recipe for this protocol."),
        },
        "added": ADDED,
    }


def _table_record(files: SourceFiles, table: TableDef, rows: list[Row]) -> Record:
    file = files[table.path]
    kept = [
        result_tables.Row(
            r.model,
            r.task,
            r.settings,
            {c: t for c, t in zip(table.metrics, r.metrics, strict=True) if t},
            r.locator,
        )
        for r in rows
        if any(r.metrics)
    ]
    models = sorted({r.model for r in kept})
    tasks = len({r.dataset for r in rows if any(r.metrics)})
    if table.best:
        scope = (
            "the runs at each model's best setting per task (highest mean MCC, as the "
            "authors select it); best marks and leaderboards use this table"
        )
    else:
        scope = (
            "every run of the hyperparameter sweep, shown so that a reader can see it; best "
            "marks and leaderboards use the best-setting table only, never this one"
        )
    settings = ", ".join(s.name for s in table.settings if s is not RUN_DIRECTORY)
    readme = files[README]
    needle = f"`{table.path}` - Individual replicate data" if table.best else f"- `{table.path}`"
    spec = result_tables.ResultTableSpec(
        id=table_id(table),
        title=(
            f"Lindsey et al., {table.family} models, "
            + ("best setting per task" if table.best else "whole hyperparameter sweep")
            + f" ({len(kept)} runs)"
        ),
        summary=(
            f"{result_tables.value_count(kept)} values of {len(kept)} fine-tuning runs of "
            f"{', '.join(models)} on {tasks} tasks: {scope}. Each row is one run ({settings})."
        ),
        sources=[source_id(PREFIX, file)],
        source_paths=(table.path,),
        labels=LABELS,
        protocol=protocol_id(table),
        adaptation="fine_tuned",
        origin="independent_paper",
        settings=tuple(result_tables.SettingColumn(s.column, s.name) for s in table.settings),
        metrics=tuple(
            result_tables.MetricColumn(
                c, METRICS[c].label, "higher", c, "fraction", METRICS[c].minimum, 1.0
            )
            for c in table.metrics
        ),
        comparison={
            "split": None,
            "population": None,
            "inputs": None,
            "adaptation": "full fine-tuning on each task's training data, one run per seed",
            "aggregation": "one value per run over the scored split",
            "budget": None,
            "dataset_version": None,
            "metric_implementation": None,
        },
        missing_metadata={
            "comparison.split": missing(
                "unreported", "The result files do not name the split each run is scored on."
            ),
            "comparison.population": missing(
                "unreported", "The result files give no count of scored sequences."
            ),
            "comparison.inputs": missing(
                "unreported", "The result files do not state sequence lengths per task."
            ),
            "comparison.budget": missing(
                "unreported",
                "Training steps are not given; epochs are a setting where the files give them.",
            ),
            "comparison.dataset_version": missing(
                "unreported", "The result files name no version of the task data."
            ),
            "comparison.metric_implementation": missing(
                "unreported", "The results repository does not hold the scoring code."
            ),
        },
        base={
            "areas": AREAS,
            "contexts": CONTEXTS,
            "citations": [line_citation(PREFIX, readme, find_line(readme, needle))],
            "limitations": _limitations(table, rows),
            "added": ADDED,
            **({} if table.best else {"ranked": False}),
        },
    )
    return result_tables.table_record(spec, kept)


def _limitations(table: TableDef, rows: list[Row]) -> list[str]:
    out: list[str] = []
    if table.family == "attention":
        twice = sum(1 for r in rows if r.settings[table.settings.index(RUN_DIRECTORY)])
        if twice:
            out.append(
                f"{twice} runs share model, task, learning rate, epochs and seed with another "
                "run of the file (a run repeated in a nested directory, or a run whose "
                "directory names another model, e.g. GPT runs labelled NTv2); their run "
                "directory is kept as a setting, so they are shown apart, not averaged."
            )
    else:
        empty = sum(1 for r in rows if not any(r.metrics))
        if empty:
            out.append(
                f"{empty} runs of the file have no value in any metric column (failed runs, "
                "which the authors' selection leaves out); a row holds values, so they are "
                "not rows here."
            )
        out.append(
            "The run name is a setting: where runs of two run-name series share learning "
            "rate, batch size and augmentation, the authors pool them when they select; here "
            "each series is summarised on its own."
        )
    if not table.best and table.family == "attention":
        out.append(
            "Rows of the benchmark code NTv1 (the original Nucleotide Transformer tasks) are "
            "in the sweep only: the authors' selection leaves them out."
        )
    return out


def build(files: SourceFiles) -> list[Record]:
    records: list[Record] = []
    for path in PATHS:
        if path in files:
            records.append(
                repository_file_source(PREFIX, REPOSITORY, files[path], _file_spec(files[path]))
            )
    records.append(_preprint(files[README]))
    records += [_family(files, "mamba"), _family(files, "cnn")]
    read = {t.key: read_rows(files[t.path], t) for t in TABLES}
    first_rows: dict[str, tuple[str, int]] = {}
    used: dict[str, set[str]] = {"attention": set(), "state-space": set()}
    for table in TABLES:
        for row in sorted(read[table.key], key=lambda r: r.line):
            first_rows.setdefault(row.task, (table.path, row.line))
            used[table.family].add(row.dataset)
    for task in TASKS:
        if dataset_id(task) in used["attention"] | used["state-space"]:
            records.append(_dataset(files, task, first_rows))
    for family in ("attention", "state-space"):
        records.append(_protocol(files, family, sorted(used[family])))
    for table in TABLES:
        records.append(_table_record(files, table, read[table.key]))
    return records


IMPORTER = Importer(
    prefix=PREFIX,
    title="Lindsey et al. 2025, tokenization study (final_combined_*_results/)",
    repository=REPOSITORY,
    commit=COMMIT,
    paths=PATHS,
    required=PATHS,
    redistributable=False,
    tables=tuple(TableSpec(t.path, t.header, exact=True) for t in TABLES),
    build=build,
)
