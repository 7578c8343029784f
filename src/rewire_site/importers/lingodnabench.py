"""LingoDNABench (gao-lab/LingoDNABench): the `Benchmark performance` sheet of
`manuscript-results.xlsx`.

What the sheet holds at the pinned commit: one row per task (columns Category, Task, Task
type, Metric), then one column per model, headed with the model's name and size as the
manuscript prints them ('DNABERT-2 (117M)'); a cell is the model's score, '\\' where the
model was not run (GPN-MSA on the regulatory tasks). The repository README says each
adapter model is trained with five random seeds; the cells are the mean the spreadsheet
gives, with no spread.

Three result tables, because three protocols are in one sheet: the regulatory tasks
(rows 2-24), where a downstream adapter is trained on each model's frozen embeddings
(frozen_probe); the variant-effect tasks (rows 25-28), scored zero-shot from the distance
between the reference and the variant sequence's embeddings (zero_shot); and the
'Non-gLM baselines' column, whose method per task the file does not state (other), so it
is never ranked with the language models.

A cell's printed value is the number the workbook stores for it (its XML text, which for
every numeric cell of this file equals Python's shortest round-trip text of the value
openpyxl reads: checked by the tests); its locator is `manuscript-results.xlsx:
'Benchmark performance'!E2`. The pre-training-checkpoint sheets (`PDAS ...`) are not
imported yet.

The repository has no licence file: the workbook is cited with its SHA-256 and not copied;
`rewire import lingodnabench --git-dir` reads it from a clone. openpyxl (the `import`
extra) is imported only here, never by the site builder.
"""

from __future__ import annotations

import io
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
from .lingodnabench_pdas import LOSS, pdas_tables, read_pdas
from .records import AREAS, CONTEXTS, RepoFileSpec, repository_file_source
from .result_tables import MetricColumn, ResultTableSpec, Row, table_record

PREFIX = "lingodnabench"
SCOPE = "lingodnabench"
REPOSITORY = "https://github.com/gao-lab/LingoDNABench"
COMMIT = "e9f96dcf37a6aa7a8cbc2d92aa4b809ab50e9e2f"
COMMIT_DATE = "2026-08-13"
WORKBOOK = "manuscript-results.xlsx"
README = "README.md"
BENCH_README = "benchmark/README.md"
DATA_README = "benchmark/datasets/README.md"
ZERO_SHOT = "benchmark/script/variant_effect_prediction-zero-shot.py"
ALIGN_README = "pretrain_analysis/pretrain_application_alignment/README.md"
PRETRAIN_README = "pretrain_gLM/README.md"
EMBEDDINGS = "benchmark/get-embeddings.py"
PATHS = (
    WORKBOOK, README, BENCH_README, DATA_README, ZERO_SHOT, ALIGN_README, PRETRAIN_README,
    EMBEDDINGS,
)  # fmt: skip
SHEET = "Benchmark performance"
HEADER = ("Category", "Task", "Task type", "Metric")
BASELINE = "Non-gLM baselines"
NOT_RUN = "\\"
VARIANT = "Variant effect prediction"
METRICS = {"AUROC": "auroc", "Spearman's rho": "spearman"}

AUROC = MetricColumn("auroc", "AUROC", "higher", "AUROC", "fraction", 0.0, 1.0)
SPEARMAN = MetricColumn("spearman", "Spearman's rho", "higher", "Spearman's rho", None, -1.0, 1.0)

RELATED = {
    # LingoDNABench task -> GUE task of the Feng et al. records: the datasets README
    # cites the GUE paper (arXiv 2306.15006) and gives GUE's sizes, but does not state
    # that the files and split are GUE's: related, not the same task.
    "Promoter (proximal, all)": "feng-2024-dataset-prom-300-all",
    "Promoter (proximal, non-TATA)": "feng-2024-dataset-prom-300-notata",
    "Promoter (proximal, TATA)": "feng-2024-dataset-prom-300-tata",
    "Promoter (core, all)": "feng-2024-dataset-prom-core-all",
    "Promoter (core, non-TATA)": "feng-2024-dataset-prom-core-notata",
    "Promoter (core, TATA)": "feng-2024-dataset-prom-core-tata",
}

ADDED = "2026-12-02"
RETRIEVED_AT = "2026-12-02T06:00:00Z"
"""When the pinned commit was read for this importer (a constant: the same commit gives
the same records)."""


@dataclass(frozen=True)
class Cell:
    """One cell of the sheet: coordinate and the text the workbook stores."""

    coordinate: str
    text: str

    @property
    def locator(self) -> str:
        return f"{WORKBOOK}: '{SHEET}'!{self.coordinate}"


@dataclass(frozen=True)
class TaskRow:
    number: int
    category: str
    task: str
    task_type: str
    metric: str
    scores: dict[str, Cell]
    """Model heading -> cell (cells holding '\\' left out)."""


def _printed(value: Any) -> str | None:
    """The stored text of a numeric cell; None for '\\' (not run)."""
    if isinstance(value, bool):
        raise ValueError(repr(value))
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value.strip() == NOT_RUN:
        return None
    raise ValueError(repr(value))


def load_grids(file: SourceFile) -> dict[str, list[tuple[Any, ...]]]:
    """Every sheet of the workbook as rows of cell values; not a workbook is refused."""
    try:
        import openpyxl
    except ImportError:  # pragma: no cover - the `import` extra
        raise ImportProblem(
            "reading a spreadsheet needs openpyxl: pip install -e '.[import]'"
        ) from None
    try:
        book = openpyxl.load_workbook(io.BytesIO(file.data), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a broken file
        raise ImportProblem(
            f"{file.path}: not a readable .xlsx workbook ({error}); nothing was changed"
        ) from None
    try:
        return {
            name: [tuple(row) for row in book[name].iter_rows(values_only=True)]
            for name in book.sheetnames
        }
    finally:
        book.close()


def read_sheet(file: SourceFile) -> list[TaskRow]:
    """The benchmark sheet's task rows; a workbook of another shape is refused."""
    return benchmark_rows(load_grids(file), file.path)


def benchmark_rows(grids: dict[str, list[tuple[Any, ...]]], path: str) -> list[TaskRow]:
    from openpyxl.utils import get_column_letter

    if SHEET not in grids:
        raise ImportProblem(f"{path}: no sheet {SHEET!r}; nothing was changed")
    grid = grids[SHEET]
    if not grid or tuple(grid[0][: len(HEADER)]) != HEADER:
        raise ImportProblem(
            f"{path}: sheet {SHEET!r} row 1 is not {list(HEADER)} followed by the "
            "models; nothing was changed"
        )
    models = [str(h) for h in grid[0][len(HEADER) :] if h is not None]
    if not models or len(set(models)) != len(models):
        raise ImportProblem(f"{path}: sheet {SHEET!r} row 1 names no models, or one twice")
    letters = [get_column_letter(i + 1) for i in range(len(HEADER) + len(models))]
    rows: list[TaskRow] = []
    for number, values in enumerate(grid[1:], start=2):
        if all(v is None for v in values):
            continue
        category, task, task_type, metric = (str(v) if v is not None else "" for v in values[:4])
        if metric not in METRICS or not task:
            raise ImportProblem(
                f"{path}: '{SHEET}'!D{number}: metric {metric!r} is not one of "
                f"{sorted(METRICS)} (or no task in B{number}); nothing was changed"
            )
        scores: dict[str, Cell] = {}
        for offset, model in enumerate(models):
            index = len(HEADER) + offset
            value = values[index] if index < len(values) else None
            coordinate = f"{letters[index]}{number}"
            try:
                text = _printed(value)
            except ValueError:
                raise ImportProblem(
                    f"{path}: '{SHEET}'!{coordinate}: {value!r} is not a number "
                    f"(nor '{NOT_RUN}' for not run); nothing was changed"
                ) from None
            if text is not None:
                scores[model] = Cell(coordinate, text)
        rows.append(TaskRow(number, category, task, task_type, metric, scores))
    if not rows:
        raise ImportProblem(f"{path}: sheet {SHEET!r} has no task rows")
    return rows


def _check_workbook(file: SourceFile) -> None:
    grids = load_grids(file)
    benchmark_rows(grids, file.path)
    read_pdas(grids, file.path)


def _source(files: SourceFiles, path: str, licence: SourceFile | None) -> Record:
    record = repository_file_source(PREFIX, REPOSITORY, files[path], _spec(files[path]), licence)
    record["retrieved_at"] = RETRIEVED_AT
    record["added"] = ADDED
    return record


def _spec(file: SourceFile) -> RepoFileSpec:
    return RepoFileSpec(
        title=f"{file.path} (gao-lab/LingoDNABench)",
        summary=f"`{file.path}` of the LingoDNABench repository, at commit {file.commit[:12]}.",
        short_citation=f"LingoDNABench, {file.path}",
        authors=("gao-lab",),
        maintainers=("gao-lab",),
        published=COMMIT_DATE,
        licence=None,
        licence_note=(
            "The repository has no licence file at the pinned commit; the file is cited and "
            "hashed, not copied."
        ),
        independence=(
            "The LingoDNABench authors ran every model with their own pipeline; they built "
            "the random-weight control and none of the published language models."
        ),
    )


@dataclass(frozen=True)
class NewFamily:
    """A family Rewire had no record of, written by this importer from the benchmark
    README: its model-table row (name, parameters as printed) and its hub link."""

    key: str
    name: str
    label: str
    """The model heading of the sheet."""
    table_row: str
    """Text that finds the family's row of the README's model table."""
    hub: str | None
    """Text that finds the README line linking the checkpoint; None: no checkpoint named."""
    summary: str


NEW_FAMILIES = (
    NewFamily(
        "lucaone",
        "LucaOne",
        "LucaOne (1.8B)",
        "| LucaOne |",
        "https://huggingface.co/LucaGroup/LucaOne-default-step36M",
        "LucaOne, a model of DNA, RNA and protein sequences; LingoDNABench runs it on DNA.",
    ),
    NewFamily(
        "random-weight-bert",
        "Random-weight BERT (LingoDNABench control)",
        "RandomWeight",
        "**RandomWeight:**",
        None,
        "LingoDNABench's control: its own BERT architecture with random, untrained weights.",
    ),
)
UNMAPPED = {
    "DeepGene (85M)": "no family record, and the README names no published checkpoint",
    "GPN-MSA (86M)": (
        "the README names no checkpoint; GPN-MSA is not the GPN checkpoint line of the "
        "catalogue's GPN record"
    ),
    BASELINE: "not a model: a different method per task, not stated in the file",
}
"""Model headings not mapped to a family, with the reason (listed in the import report and
on the table's page, never guessed). OmniNA and Evo2 are labels in the family records the
dnallm-mark and evo2-gene-completion importers write."""


def _family(files: SourceFiles, family: NewFamily) -> Record:
    bench, readme = files[BENCH_README], files[README]
    home = readme if family.hub is None else bench
    row_line = find_line(home, family.table_row)
    record: Record = {
        "id": f"{PREFIX}-family-{family.key}",
        "kind": "model_family",
        "title": family.name,
        "summary": family.summary,
        "limitations": [
            "Imported family: only what LingoDNABench's README states is recorded (its "
            "model-table row and hub link); model facts are not yet transcribed."
        ],
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [line_citation(PREFIX, home, row_line, supports=["name"])],
        "name": family.name,
        "developers": [
            "LingoDNABench authors (gao-lab)"
            if family.hub is None
            else f"{family.hub.split('/')[3]} (the hub account of the checkpoint)"
        ],
        "architecture": None,
        "tokenisation": None,
        "missing_metadata": {
            "architecture": missing("unknown", "Not yet transcribed from the model's paper."),
            "tokenisation": missing("unknown", "Not yet transcribed from the model's paper."),
        },
        "added": ADDED,
    }
    if family.hub is None:
        record["labels"] = [
            {
                "scope": SCOPE,
                "label": family.label,
                "note": "The authors' own control; no checkpoint is published.",
            }
        ]
        return record
    hub_line = find_line(bench, family.hub)
    name = family.hub.removeprefix("https://huggingface.co/")
    printed = bench.line(row_line).strip("|").split("|")[-1].strip()
    record["citations"].append(line_citation(PREFIX, bench, hub_line, supports=["checkpoints"]))
    record["checkpoints"] = [
        {
            "name": name,
            "parameters": printed,
            "url": family.hub,
            "note": (
                f"The checkpoint LingoDNABench links ({BENCH_README}, line {hub_line}); "
                f"parameters as its model table prints them (line {row_line})."
            ),
            "labels": [{"scope": SCOPE, "label": family.label}],
        }
    ]
    return record


def _bert_series(files: SourceFiles) -> Record:
    """The authors' own pre-trained BERT models ('Model H', 'Model M'): checkpoints on
    their FTP server, not on a hub, so the labels are family-level."""
    pretrain, align, emb = files[PRETRAIN_README], files[ALIGN_README], files[EMBEDDINGS]
    note = (
        "The authors' own pre-training, one of the BERT-155M-Series checkpoints on their FTP "
        "server (benchmark/get-embeddings.py loads model_H and model_M from it); the sheet's "
        "checkpoint column is the pre-training epoch. Not published on a model hub."
    )
    return {
        "id": f"{PREFIX}-family-bert-155m-series",
        "kind": "model_family",
        "title": "BERT-155M series (LingoDNABench's own pre-training)",
        "summary": (
            "BERT-style DNA language models the LingoDNABench authors pre-trained on human "
            "and on multi-species genomes to study pre-training checkpoints."
        ),
        "limitations": [
            "Imported family: only what the LingoDNABench repository states is recorded; "
            "its checkpoints are on the authors' FTP server, not pinned on a model hub."
        ],
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            line_citation(
                PREFIX, pretrain, find_line(pretrain, "Train gLM with human and multi-species")
            ),
            line_citation(PREFIX, align, find_line(align, "**Model family:**")),
            line_citation(
                PREFIX,
                emb,
                find_line(emb, 'elif model_name == "model_M":'),
                find_line(emb, "BERT-155M-Series/model_H/"),
            ),
        ],
        "name": "BERT-155M series (LingoDNABench)",
        "developers": ["LingoDNABench authors (gao-lab)"],
        "architecture": None,
        "tokenisation": None,
        "labels": [
            {"scope": SCOPE, "label": "Model H", "note": note},
            {
                "scope": SCOPE,
                "label": "Model M",
                "note": note + " The pre-training application README calls model_M the "
                "multi-species BERT-style gLM.",
            },
        ],
        "missing_metadata": {
            "architecture": missing(
                "unreported", "pretrain_gLM/BERT holds the code; not transcribed."
            ),
            "tokenisation": missing("unreported", "Not stated in the READMEs read."),
        },
        "added": ADDED,
    }


def build(files: SourceFiles) -> list[Record]:
    records: list[Record] = [_source(files, p, None) for p in PATHS]
    grids = load_grids(files[WORKBOOK])
    rows = benchmark_rows(grids, WORKBOOK)
    pdas = read_pdas(grids, WORKBOOK)
    records += [_family(files, f) for f in NEW_FAMILIES]
    records.append(_bert_series(files))
    for row in rows:
        records.append(_dataset(files, row))
    keys = ("adapter", "variant", "baseline", "pretraining", "pretraining-variant")
    records += [_protocol(files, key) for key in keys]
    records += _tables(files, rows)
    records += pdas_tables(
        files[WORKBOOK],
        pdas,
        {row.task: row.metric for row in rows},
        {"AUROC": AUROC, "Spearman's rho": SPEARMAN},
        {
            "areas": AREAS,
            "contexts": CONTEXTS,
            "citations": [
                line_citation(PREFIX, files[ALIGN_README], find_line(files[ALIGN_README], n))
                for n in ("**Model family:**", "`model_M-0`, `model_M-1`")
            ],
            "added": ADDED,
        },
    )
    return records


def _dataset(files: SourceFiles, row: TaskRow) -> Record:
    data = files[DATA_README]
    record: Record = {
        "id": f"{PREFIX}-dataset-{slug(row.task)}",
        "kind": "dataset",
        "title": f"{row.task} (LingoDNABench)",
        "summary": (
            f"LingoDNABench task '{row.task}' ({row.category}, {row.task_type.lower()}), "
            f"scored by {row.metric}."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            {
                "source": source_id(PREFIX, files[WORKBOOK]),
                "locator": f"{WORKBOOK}: '{SHEET}'!A{row.number}:D{row.number}",
                "quote": f"{row.category} {row.task} {row.task_type} {row.metric}",
            }
        ],
        "description": (
            f"'{row.task}', a {row.task_type.lower()} task of LingoDNABench's "
            f"{row.category.lower()} category. The datasets README describes the data, "
            "their sizes and references; the files are on the authors' FTP server."
        ),
        "version": None,
        "generator": None,
        "seed": None,
        "access": f"{REPOSITORY}/blob/{files.commit}/{DATA_README}",
        "licence": None,
        "synthetic": False,
        "splits": [],
        "tasks": [row.task_type.lower()],
        "labels": [{"scope": SCOPE, "label": row.task}],
        "missing_metadata": {
            "version": missing("unreported", "The spreadsheet names no dataset version."),
            "licence": missing("unreported", "No licence is stated for the datasets."),
            "generator": missing("inapplicable", "Collected data, not generated."),
            "seed": missing("unreported", "The README does not state how splits are drawn."),
        },
        "added": ADDED,
    }
    related = RELATED.get(row.task)
    if related is not None:
        line = find_line(data, "https://arxiv.org/abs/2306.15006")
        record["related"] = [
            {
                "dataset": related,
                "note": (
                    "The same GUE promoter task by name and size: LingoDNABench's datasets "
                    f"README ({DATA_README}, line {line}) cites the GUE paper (arXiv "
                    "2306.15006) and gives its sizes (TATA 6,130; non-TATA 53,066; all "
                    "59,196), but does not state that the files and split are GUE's."
                ),
            }
        ]
    if row.category == VARIANT:
        record["citations"].append(
            line_citation(PREFIX, data, find_line(data, "Pathogenic vs Benign"))
        )
    return record


_PROTOCOLS = {
    "adapter": (
        "LingoDNABench regulatory tasks: an adapter trained on frozen embeddings",
        "Each sequence is embedded by the frozen model (last layer); a downstream adapter "
        "(convolutional and linear layers) is trained on the train split's embeddings and "
        "scored on the test split: AUROC for classification, Spearman's rho for regression. "
        "Each adapter is trained with five random seeds; the spreadsheet gives the mean.",
    ),
    "variant": (
        "LingoDNABench variant-effect tasks: zero-shot embedding distance",
        "The reference and the variant sequence are embedded by the frozen model (last "
        "layer); the Euclidean distance between the two embeddings is the variant's score, "
        "and the AUROC of that score against the pathogenic (or functional) labels is "
        "reported. Nothing is trained.",
    ),
    "pretraining": (
        "LingoDNABench pre-training checkpoints: an adapter on each checkpoint's embeddings",
        "Each pre-training checkpoint (epoch) of the authors' own BERT model embeds the "
        "sequences (last layer); a downstream adapter is trained on the train split's "
        "embeddings and scored on the test split, as for the benchmark. How many seeds "
        "the checkpoint values average is not stated.",
    ),
    "pretraining-variant": (
        "LingoDNABench pre-training checkpoints: zero-shot variant scores of each checkpoint",
        "Each pre-training checkpoint (epoch) of the authors' own BERT models embeds the "
        "reference and the variant sequence; the variant's score is the distance between "
        "the two embeddings and the AUROC of that score is reported. Nothing is trained.",
    ),
    "baseline": (
        "LingoDNABench non-gLM baselines",
        "The spreadsheet's 'Non-gLM baselines' column: one value per task from a method "
        "that is not a genomic language model. The file does not state which method, or "
        "how it was trained, per task.",
    ),
}


def _protocol(files: SourceFiles, key: str) -> Record:
    title, measurement = _PROTOCOLS[key]
    readme, bench = files[README], files[BENCH_README]
    citations = [sentence_citation(PREFIX, readme, "AUROC for classification")]
    if key.startswith("pretraining"):
        align = files[ALIGN_README]
        citations += [line_citation(PREFIX, align, find_line(align, "**Checkpoint naming:**"))]
    if key == "adapter":
        citations += [
            sentence_citation(PREFIX, readme, "five random seeds"),
            line_citation(
                PREFIX,
                files[DATA_README],
                find_line(files[DATA_README], "Train a downstream adapter"),
            ),
            line_citation(PREFIX, bench, find_line(bench, "layer=-1  # last layer")),
        ]
    if key in ("variant", "pretraining-variant"):
        script = files[ZERO_SHOT]
        citations += [
            line_citation(PREFIX, script, find_line(script, "d_auc=roc_auc_score(label,d_score)")),
            line_citation(PREFIX, bench, find_line(bench, "### 5.7 Variant Effect Prediction")),
        ]
    metrics = [AUROC] if key == "variant" else [AUROC, SPEARMAN]
    if key.startswith("pretraining"):
        metrics = [AUROC, SPEARMAN, LOSS]

    def metric(m: MetricColumn) -> Record:
        unit = "fraction" if m.scale == "fraction" else "correlation coefficient"
        return {
            "id": m.column,
            "label": m.label,
            "unit": "loss" if m is LOSS else unit,
            "direction": m.direction,
            **({"scale": m.scale} if m.scale else {}),
            "minimum": m.minimum,
            "maximum": m.maximum,
        }

    return {
        "id": f"{PREFIX}-protocol-{key}",
        "kind": "protocol",
        "title": title,
        "summary": measurement.split(". ")[0] + ".",
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": citations,
        "measurement": measurement,
        "metric": metric(AUROC),
        "metric_definition": None,
        "columns": [{"id": m.column, "label": m.label, "metric": metric(m)} for m in metrics],
        "datasets": [],
        "hardware": None,
        "version": f"gao-lab/LingoDNABench at commit {files.commit}",
        "source_locator": f"{README}; {BENCH_README}",
        "replicates": 5 if key == "adapter" else None,
        "hardware_dependence": {
            "depends": False,
            "reason": "A score of predictions: it does not depend on the accelerator.",
        },
        "baselines": None,
        "recipe": None,
        "missing_metadata": {
            "metric_definition": missing("unreported", "AUROC and Spearman's rho, as named."),
            "hardware": missing("unreported", "Not stated for the spreadsheet's values."),
            **(
                {}
                if key == "adapter"
                else {"replicates": missing("unreported", "One value per model and task.")}
            ),
            "baselines": missing(
                "unreported", "The baseline column's method is not stated in the file."
            ),
            "recipe": missing("inapplicable", "Rewire has no runnable recipe for this protocol."),
        },
        "added": ADDED,
    }


def _tables(files: SourceFiles, rows: list[TaskRow]) -> list[Record]:
    groups: dict[str, list[Row]] = {"adapter": [], "variant": [], "baseline": []}
    for task in rows:
        column = METRICS[task.metric]
        for model, cell in task.scores.items():
            key = (
                "baseline"
                if model == BASELINE
                else "variant"
                if task.category == VARIANT
                else "adapter"
            )
            groups[key].append(Row(model, task.task, (), {column: cell.text}, cell.locator))
    workbook = files[WORKBOOK]
    common = {
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [sentence_citation(PREFIX, files[README], "AUROC for classification")],
        "added": ADDED,
    }
    out: list[Record] = []
    texts = {
        "adapter": (
            "LingoDNABench regulatory tasks: language models with a trained adapter",
            "Published AUROC and Spearman's rho of genomic language models and a "
            "random-weight control on 23 regulatory tasks, each the mean over five "
            "adapter seeds as the manuscript's spreadsheet gives it.",
            "frozen_probe",
            "mean over five adapter training seeds (no spread given)",
            "frozen model; a downstream adapter trained on its last-layer embeddings",
        ),
        "variant": (
            "LingoDNABench variant-effect tasks: zero-shot scores of language models",
            "Published AUROC of genomic language models on four variant-effect tasks, "
            "the variant scored by the distance between reference and variant embeddings.",
            "zero_shot",
            "one value per model and task",
            "frozen model, no training",
        ),
        "baseline": (
            "LingoDNABench non-gLM baselines",
            "The spreadsheet's non-language-model baseline per task; which method, and "
            "how it was trained, is not stated in the file, so these values are not "
            "ranked with the language models.",
            "other",
            "as given in the spreadsheet (not stated)",
            None,
        ),
    }
    for key, group in groups.items():
        title, summary, adaptation, aggregation, adapted = texts[key]
        metrics = (AUROC,) if key == "variant" else (AUROC, SPEARMAN)
        missing_metadata: Record = {
            "comparison.population": missing("unreported", "No sample counts in the sheet."),
            "comparison.budget": missing("unreported", "Not stated for the sheet's values."),
            "comparison.dataset_version": missing("unreported", "No dataset version given."),
            "comparison.metric_implementation": missing(
                "unreported", "The scripts compute it; the sheet does not name the run."
            ),
        }
        if adapted is None:
            missing_metadata["comparison.adaptation"] = missing(
                "unreported", "The baseline method per task is not stated in the file."
            )
        spec = ResultTableSpec(
            id=f"{PREFIX}-table-{key}",
            title=title,
            summary=summary,
            sources=[source_id(PREFIX, workbook)],
            source_paths=(WORKBOOK,),
            labels=SCOPE,
            protocol=f"{PREFIX}-protocol-{key}",
            adaptation=adaptation,
            origin="independent_paper",
            settings=(),
            metrics=metrics,
            comparison={
                "split": (
                    "train, dev and test variants together (nothing is trained)"
                    if key == "variant"
                    else "test split"
                ),
                "population": None,
                "inputs": "DNA sequences of the task's dataset",
                "adaptation": adapted,
                "aggregation": aggregation,
                "budget": None,
                "dataset_version": None,
                "metric_implementation": None,
            },
            missing_metadata=missing_metadata,
            base=common,
        )
        out.append(table_record(spec, group))
    return out


IMPORTER = Importer(
    prefix=PREFIX,
    title="LingoDNABench, manuscript-results.xlsx (benchmark sheet)",
    repository=REPOSITORY,
    commit=COMMIT,
    paths=PATHS,
    required=(WORKBOOK,),
    redistributable=False,
    build=build,
    tables=(TableSpec(WORKBOOK, HEADER, check=_check_workbook),),
)
