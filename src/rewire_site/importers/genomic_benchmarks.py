"""Genomic Benchmarks (ML-Bioinfo-CEITEC/genomic_benchmarks): the results tables of
`experiments/README.md`.

What the file holds at the pinned commit, read line by line: "See the accuracy and F1
score on test sets in the table below", then three Markdown tables, one per model:
"HyenaDNA" (Accuracy), "PyTorch CNN" (Accuracy, F1 score) and "TensorFlow CNN" (Loss,
Accuracy, F1), one row per benchmark dataset, values in percent. The CNNs are the
package's own baseline models (`genomic_benchmarks.models`) run by the maintainers; the
HyenaDNA row names no run, only the HyenaDNA repository. The Loss column names no loss
function and is not imported.

The repository is Apache-2.0 licensed: `experiments/README.md` is copied under
artifacts/sources/genomic-benchmarks/ with its SHA-256.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    sentence_citation,
    slug,
    source_id,
)
from .families import HYENADNA, family_records
from .records import ADDED, AREAS, CONTEXTS, RepoFileSpec, repository_file_source, value_result
from .tables import Cell, read_markdown_table

PREFIX = "genomic-benchmarks"
REPOSITORY = "https://github.com/ML-Bioinfo-CEITEC/genomic_benchmarks"
COMMIT = "605d8539830e16c85abe7826990958303ffc5e1c"
COMMIT_DATE = "2025-07-30"
RESULTS = "experiments/README.md"
MAIN_README = "README.md"
LICENSE = "LICENSE"
DATASETS = (
    "demo_coding_vs_intergenomic_seqs",
    "demo_human_or_worm",
    "drosophila_enhancers_stark",
    "dummy_mouse_enhancers_ensembl",
    "human_enhancers_cohn",
    "human_enhancers_ensembl",
    "human_ensembl_regulatory",
    "human_nontata_promoters",
    "human_ocr_ensembl",
)
DOCS = tuple(f"docs/{d}/README.md" for d in DATASETS)
PATHS = (RESULTS, MAIN_README, LICENSE, *DOCS)
AUTHORS = (
    "Katarína Grešová",
    "Vlastimil Martinek",
    "David Čechák",
    "Petr Šimeček",
    "Panagiotis Alexiou",
)


@dataclass(frozen=True)
class Model:
    heading: str
    key: str
    name: str
    family: str
    language_model: bool


MODELS = (
    Model("### HyenaDNA", "hyenadna", "HyenaDNA", HYENADNA, True),
    Model("### PyTorch CNN", "pytorch-cnn", "PyTorch CNN", "catalogue-family-one-hot-cnn", False),
    Model(
        "### TensorFlow CNN",
        "tensorflow-cnn",
        "TensorFlow CNN",
        "catalogue-family-one-hot-cnn",
        False,
    ),
)
COLUMNS = {"Accuracy": "accuracy", "F1 score": "f1", "F1": "f1"}

HYENADNA_PAPER = "evidence-20261130-source-hyenadna-preprint"
"""The HyenaDNA preprint's record (an editor's, issue 11)."""
PAPER_ROWS = {
    # dataset -> (Table 4.1 row as transcribed in evidence-20261130-eval-hyenadna-
    # genomic-benchmarks-table-4-1, HyenaDNA's value in it)
    "dummy_mouse_enhancers_ensembl": ("Mouse Enhancers 69.0 66.9 80.1 85.1", "85.1"),
    "human_enhancers_cohn": ("Human Enhancers Cohn 69.5 74.0 70.5 74.2", "74.2"),
}
"""Rows of the HyenaDNA paper's Table 4.1 that Rewire holds: where the README's HyenaDNA
cell equals the paper's value, the README most likely quotes the paper (it names no run)."""


def _spec(file: SourceFile) -> RepoFileSpec:
    return RepoFileSpec(
        title=f"{file.path} (ML-Bioinfo-CEITEC/genomic_benchmarks)",
        summary=(
            f"`{file.path}` of the Genomic Benchmarks repository, at commit {file.commit[:12]}."
        ),
        short_citation=f"Genomic Benchmarks, {file.path}",
        authors=AUTHORS,
        maintainers=("ML-Bioinfo-CEITEC",),
        published=COMMIT_DATE,
        licence="Apache-2.0",
        licence_note="",
        independence=(
            "The maintainers built the CNN baselines they report; they did not build "
            "HyenaDNA, whose row they report without naming the run."
        ),
    )


def build(files: SourceFiles) -> list[Record]:
    licence_file = files.get(LICENSE)
    records: list[Record] = [
        repository_file_source(PREFIX, REPOSITORY, files[p], _spec(files[p]), licence_file)
        for p in PATHS
        if p in files
    ]
    results = files[RESULTS]
    records += family_records({m.family for m in MODELS})
    tables = {m.key: read_markdown_table(results, m.heading) for m in MODELS}
    names = sorted({row[0].text for t in tables.values() for row in t.rows})
    for model in MODELS:
        records.append(_configuration(results, model))
    for name in names:
        records.append(_dataset(files, name))
        records.append(_protocol(results, files[MAIN_README], name, files.commit))
    for model in MODELS:
        table = tables[model.key]
        for heading in table.header[1:]:
            if heading not in COLUMNS:
                continue
            for cell in table.column(heading):
                records.append(_evaluation(files, model, cell, COLUMNS[heading]))
    return records


def _configuration(results: SourceFile, model: Model) -> Record:
    line = find_line(results, model.heading)
    record: Record = {
        "id": f"{PREFIX}-config-{model.key}",
        "kind": "configuration",
        "title": f"{model.name} (Genomic Benchmarks experiments)",
        "summary": f"{model.name} as the Genomic Benchmarks experiments README reports it.",
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [line_citation(PREFIX, results, line)],
        "reported_name": model.name,
        "family": model.family,
        "method_types": ["foundation_model"] if model.language_model else ["baseline"],
        "hardware": None,
        "fine_tuning": None,
        "training_setting": None,
        "checkpoint": None,
        "version": None,
        "missing_metadata": {
            "hardware": missing("unreported", "The README does not state hardware."),
            "training_setting": missing("unreported", "Not stated in the README table."),
            "version": missing("unreported", "Not stated in the README table."),
        },
        "added": ADDED,
    }
    if model.language_model:
        record["missing_metadata"]["fine_tuning"] = missing(
            "unreported",
            "The README gives HyenaDNA's accuracy without saying how it was adapted; it "
            "points to the HyenaDNA repository.",
        )
        record["missing_metadata"]["checkpoint"] = missing(
            "unreported", "The README names no HyenaDNA checkpoint."
        )
        record["citations"].append(sentence_citation(PREFIX, results, "Current SOTA is [HyenaDNA]"))
    else:
        record["fine_tuning"] = "Trained from scratch on each benchmark dataset."
        record["missing_metadata"]["checkpoint"] = missing(
            "inapplicable", "A model trained per dataset; no published checkpoint."
        )
        record["citations"].append(
            sentence_citation(PREFIX, results, "we collect experimental runs of models included")
        )
    return record


def _dataset(files: SourceFiles, name: str) -> Record:
    doc = f"docs/{name}/README.md"
    citations = []
    title = name
    if doc in files:
        title_line = files[doc].line(1).lstrip("# ").strip()
        title = f"{name}: {title_line}"
        citations.append(line_citation(PREFIX, files[doc], 1))
    return {
        "id": f"{PREFIX}-dataset-{slug(name)}",
        "kind": "dataset",
        "title": f"{name} (Genomic Benchmarks)",
        "summary": f"Genomic Benchmarks dataset `{title}`.",
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": citations,
        "description": (
            f"`{name}`, a sequence classification dataset of the Genomic Benchmarks "
            "collection, with the package's train and test split."
        ),
        "version": None,
        "generator": None,
        "seed": None,
        "access": f"{REPOSITORY}/tree/{files.commit}/docs/{name}",
        "licence": "Apache-2.0 (repository licence)",
        "synthetic": False,
        "splits": [],
        "tasks": ["sequence classification"],
        "missing_metadata": {
            "version": missing("unreported", "The results README names no dataset version."),
            "generator": missing("inapplicable", "Collected data, not generated."),
            "seed": missing("inapplicable", "The package ships a fixed split."),
        },
        "added": ADDED,
    }


def _protocol(results: SourceFile, readme: SourceFile, name: str, commit: str) -> Record:
    def metric(column: str, label: str) -> Record:
        return {
            "id": column,
            "label": label,
            "unit": "percent",
            "direction": "higher",
            "scale": "percent",
            "minimum": 0.0,
            "maximum": 100.0,
        }

    return {
        "id": f"{PREFIX}-protocol-{slug(name)}",
        "kind": "protocol",
        "title": f"{name}: test-set accuracy and F1 (Genomic Benchmarks experiments)",
        "summary": (
            f"Accuracy and F1 score on the `{name}` test set as the Genomic Benchmarks "
            "experiments README reports them, per model."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            sentence_citation(PREFIX, results, "See the accuracy and F1 score on test sets"),
            line_citation(PREFIX, readme, find_line(readme, "Genomic benchmarks: a collection")),
        ],
        "measurement": (
            "Each model is trained (the CNNs from scratch) and scored on the dataset's test "
            "set; the README tables give accuracy and F1 score in percent. How HyenaDNA "
            "was run is not stated there."
        ),
        "metric": metric("accuracy", "Accuracy"),
        "metric_definition": None,
        "columns": [
            {"id": "accuracy", "label": "Accuracy", "metric": metric("accuracy", "Accuracy")},
            {"id": "f1", "label": "F1 score", "metric": metric("f1", "F1 score")},
        ],
        "datasets": [f"{PREFIX}-dataset-{slug(name)}"],
        "hardware": None,
        "version": f"ML-Bioinfo-CEITEC/genomic_benchmarks at commit {commit}",
        "source_locator": RESULTS,
        "replicates": None,
        "hardware_dependence": {
            "depends": False,
            "reason": "A score of predictions: it does not depend on the accelerator.",
        },
        "baselines": None,
        "recipe": None,
        "missing_metadata": {
            "metric_definition": missing(
                "unreported", "The README does not say how accuracy and F1 are computed."
            ),
            "hardware": missing("unreported", "Not stated in the README."),
            "replicates": missing("unreported", "One value per model and dataset."),
            "baselines": missing(
                "unreported", "The CNNs are the package's baselines; no rule is stated."
            ),
            "recipe": missing("inapplicable", "Rewire has no runnable recipe for this protocol."),
        },
        "added": ADDED,
    }


def _evaluation(files: SourceFiles, model: Model, cell: Cell, column: str) -> Record:
    name = cell.row_key
    source = source_id(PREFIX, files[RESULTS])
    label = "accuracy" if column == "accuracy" else "F1 score"
    record: Record = {
        "id": f"{PREFIX}-eval-{model.key}-{slug(name)}-{column}",
        "kind": "evaluation",
        "title": f"{model.name} on {name}: {label} (Genomic Benchmarks)",
        "summary": (
            f"Test-set {label} {cell.text}% for {model.name} on `{name}`, as the Genomic "
            "Benchmarks experiments README reports it."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "configuration": f"{PREFIX}-config-{model.key}",
        "protocol": f"{PREFIX}-protocol-{slug(name)}",
        "dataset": f"{PREFIX}-dataset-{slug(name)}",
        "origin": "maintainer_statement",
        "version": f"{RESULTS} at commit {files.commit}",
        "results": [value_result(column, cell, source, unit="percent", scale="percent")],
        "comparison": {
            "split": "test split",
            "population": None,
            "inputs": None,
            "adaptation": None if model.language_model else "trained from scratch on the dataset",
            "aggregation": "one value per model and dataset",
            "budget": None,
            "dataset_version": None,
            "metric_implementation": None,
        },
        "source_locator": cell.locator,
        "training_hardware": None,
        "missing_metadata": {
            "comparison.population": missing("unreported", "No sample count in the table."),
            **(
                {
                    "comparison.adaptation": missing(
                        "unreported",
                        "The README does not say how HyenaDNA was adapted; it points to "
                        "the HyenaDNA repository.",
                    )
                }
                if model.language_model
                else {}
            ),
            "comparison.inputs": missing("unreported", "Not stated in the README."),
            "comparison.budget": missing("unreported", "Not stated in the README."),
            "comparison.dataset_version": missing("unreported", "Not stated in the README."),
            "comparison.metric_implementation": missing("unreported", "Not stated in the README."),
            "training_hardware": missing("unreported", "Not stated in the README."),
            "results.0.uncertainty": missing("unreported", "One value per cell, no spread."),
            "results.0.coverage": missing("unreported", "No scored and eligible counts."),
        },
        "added": ADDED,
    }
    paper = PAPER_ROWS.get(name)
    if model.language_model and paper is not None and paper[1] == cell.text:
        record["concerns"] = [
            {
                "id": "likely-quoted-from-the-hyenadna-paper",
                "kind": "secondary_quotation",
                "text": (
                    f"The README gives HyenaDNA's {label} on `{name}` as {cell.text} without "
                    "naming a run; the HyenaDNA paper's Table 4.1 prints the same value for "
                    "this dataset. It is most likely the paper's fine-tuned result quoted, "
                    "not a run by the Genomic Benchmarks maintainers."
                ),
                "field": "results.0",
                "excludes_from_comparisons": False,
                "citations": [
                    cite(source, cell.locator, cell.text),
                    cite(HYENADNA_PAPER, "Table 4.1", paper[0]),
                ],
            }
        ]
    return record


IMPORTER = Importer(
    prefix=PREFIX,
    title="Genomic Benchmarks, experiments/README.md result tables",
    repository=REPOSITORY,
    commit=COMMIT,
    paths=PATHS,
    required=(RESULTS,),
    redistributable=True,
    build=build,
    tables=tuple(TableSpec(RESULTS, ("Dataset", "Accuracy"), heading=m.heading) for m in MODELS),
)
