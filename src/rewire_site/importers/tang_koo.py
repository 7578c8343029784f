"""Tang, Somia, Yu and Koo's evaluation of DNA language model representations
(amberT15/LLM_eval), Task 1: lentiMPRA regulatory activity in HepG2 and K562.

What the repository holds at the pinned commit (2024-06-26), read line by line:
- `lentiMPRA/results/LLM_CNN.csv`, `LLM_regression.csv`, `NT_search.csv`: long tables,
  one row per (language model or baseline, prediction head, cell type), the value in a
  column headed `Performance`. `figure/Perf_figure.ipynb` plots that column with the
  axis label "Pearson correlation".
- README: `lentiMPRA` is the study's Task 1; data and trained models are on Zenodo; the
  preprint is bioRxiv 2024.02.29.582810 (v1). The study was published in Genome Biology
  26 (2025), doi:10.1186/s13059-025-03674-8.
- The tables name each model only by a short label (dnabert, gpn, hyena, NT, ...): the
  checkpoint, and what the suffixes 0.5, 1.0 and 2.0 of the heads mean, are not stated
  there; the records say so.

The repository is MIT-licensed: the three result tables are copied under
artifacts/sources/tang-koo-2024/ with their SHA-256.
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
from .families import DNABERT_2, HYENADNA, NUCLEOTIDE_TRANSFORMER, family_records
from .records import ADDED, AREAS, CONTEXTS, RepoFileSpec, repository_file_source, value_result
from .tables import Cell, read_csv
from .tang_koo_layers import COLUMNS as LAYER_COLUMNS
from .tang_koo_layers import LAYER_TABLES, layer_records

PREFIX = "tang-koo-2024"
REPOSITORY = "https://github.com/amberT15/LLM_eval"
COMMIT = "6c53510d1c99539b7a57b5ebdb57da480a0b2d2a"
COMMIT_DATE = "2024-06-26"
AUTHORS = ("Ziqi Tang", "Nirali Somia", "Yiyang Yu", "Peter K. Koo")

README = "README.md"
LICENSE = "LICENSE"
FIGURE = "figure/Perf_figure.ipynb"
TABLES = (
    "lentiMPRA/results/LLM_CNN.csv",
    "lentiMPRA/results/LLM_regression.csv",
    "lentiMPRA/results/NT_search.csv",
)
DNABERT_NOTEBOOK = "data_generation/embedding_generation/DNABERT_embed.ipynb"
GPN_NOTEBOOK = "data_generation/embedding_generation/GPN_embed.ipynb"
HYENA_NOTEBOOK = "data_generation/embedding_generation/Hyena_embed.ipynb"
SEI_NOTEBOOK = "data_generation/embedding_generation/SEI_embed.ipynb"
NT_PROBE = "lentiMPRA/NT_layer_probe.py"
NOTEBOOKS = (DNABERT_NOTEBOOK, GPN_NOTEBOOK, HYENA_NOTEBOOK, SEI_NOTEBOOK, NT_PROBE)
PATHS = (*TABLES, README, LICENSE, FIGURE, *NOTEBOOKS, *LAYER_TABLES)
COLUMNS = ("LLM", "Model", "Performance", "Cell Type")
"""Each table's header: its rows are read by position in this order."""

PREPRINT = f"{PREFIX}-source-biorxiv-2024-02-29-582810v1"
ARTICLE = f"{PREFIX}-source-genome-biology-2025"


@dataclass(frozen=True)
class Model:
    label: str
    """As the table prints it in the LLM column."""
    name: str
    family: str
    language_model: bool
    script: str | None = None
    """The file that loads the model's weights for the lentiMPRA embeddings."""
    needle: str | None = None
    """Text of the line in `script` that names the weights."""
    checkpoint: str | None = None
    """The weights as that line names them."""
    note: str | None = None


MODELS = {
    m.label: m
    for m in (
        Model(
            "dnabert",
            "DNABERT-2",
            DNABERT_2,
            True,
            DNABERT_NOTEBOOK,
            'model = AutoModel.from_pretrained(\\"zhihan1996/DNABERT-2-117M\\"',
            "zhihan1996/DNABERT-2-117M (no revision given)",
            "The tables label it 'dnabert', which reads like the first DNABERT; the "
            "embedding notebook loads DNABERT-2 (zhihan1996/DNABERT-2-117M).",
        ),
        Model(
            "gpn",
            "GPN (human, trained by Tang et al.)",
            "catalogue-family-gpn",
            True,
            GPN_NOTEBOOK,
            'model = AutoModel.from_pretrained(\\"../../model/GPN_human/checkpoint-2000000\\")',
            "../../model/GPN_human/checkpoint-2000000 (a local checkpoint; Zenodo archive)",
        ),
        Model(
            "hyena",
            "HyenaDNA (tiny, 1k, d256)",
            HYENADNA,
            True,
            HYENA_NOTEBOOK,
            "pretrained_model_name = 'hyenadna-tiny-1k-d256'",
            "LongSafari/hyenadna-tiny-1k-d256 (no revision given)",
        ),
        Model("NT", "Nucleotide Transformer", NUCLEOTIDE_TRANSFORMER, True),
        Model("randbert", "Randomly initialised BERT", "catalogue-family-random-bert", True),
        Model(
            "sei",
            "Sei",
            "catalogue-family-sei",
            False,
            SEI_NOTEBOOK,
            "file_dict = torch.load('../../model/sei_model/sei.pth')",
            "../../model/sei_model/sei.pth (a local copy of the Sei weights)",
        ),
        Model("ResNet", "ResNet", "catalogue-family-one-hot-cnn", False),
        Model("rep_cnn", "rep_cnn", "catalogue-family-one-hot-cnn", False),
        Model("MPRAnn", "MPRAnn", "catalogue-family-one-hot-cnn", False),
    )
}


def _spec(file: SourceFile) -> RepoFileSpec:
    return RepoFileSpec(
        title=f"{file.path} (amberT15/LLM_eval)",
        summary=(
            f"`{file.path}` of Tang et al.'s evaluation of DNA language model "
            f"representations for regulatory genomics, at commit {file.commit[:12]}."
        ),
        short_citation=f"Tang et al. 2024, {file.path}",
        authors=AUTHORS,
        maintainers=("amberT15",),
        published=COMMIT_DATE,
        licence="MIT",
        licence_note="",
        independence=(
            "Independent of the language models' developers: Tang et al. probe DNABERT, "
            "GPN, HyenaDNA and Nucleotide Transformer, which others built."
        ),
    )


def _papers(readme: SourceFile) -> list[Record]:
    line = find_line(readme, "Pre-print link")
    quote = cite(source_id(PREFIX, readme), f"{readme.path}, line {line}", readme.line(line))
    not_hashed = missing("unknown", "The importer did not download the paper; no copy to hash.")
    common = {
        "areas": AREAS,
        "contexts": CONTEXTS,
        "authors": list(AUTHORS),
        "added": ADDED,
        "citations": [quote],
        "licence": None,
        "retrieval_url": None,
        "retrieved_at": None,
        "sha256": None,
        "hash_scope": None,
        "independence": "Independent of the language models' developers.",
    }
    reasons = {
        "licence": missing("unknown", "The paper's licence was not checked."),
        "retrieval_url": not_hashed,
        "retrieved_at": not_hashed,
        "sha256": not_hashed,
        "hash_scope": not_hashed,
    }
    title = (
        "Evaluating the representational power of pre-trained DNA language models for "
        "regulatory genomics"
    )
    return [
        {
            "id": PREPRINT,
            "kind": "source",
            "title": title,
            "summary": (
                "Tang et al.'s bioRxiv preprint (version 1), the one the repository's README links."
            ),
            **common,
            "source_kind": "preprint",
            "short_citation": "Tang et al. 2024",
            "venue": "bioRxiv",
            "published": "2024-03",
            "version": "bioRxiv 2024.02.29.582810, version 1",
            "url": "https://www.biorxiv.org/content/10.1101/2024.02.29.582810v1",
            "revision": "v1",
            "missing_metadata": reasons,
        },
        {
            "id": ARTICLE,
            "kind": "source",
            "title": title,
            "summary": (
                "The published version (Genome Biology 26, 2025). The repository's tables "
                "at commit 6c53510d (June 2024) predate it; the imported values are not "
                "checked against the article."
            ),
            **common,
            "source_kind": "journal_paper",
            "short_citation": "Tang et al. 2025",
            "venue": "Genome Biology",
            "published": "2025-07-14",
            "version": "Genome Biology 26 (2025); doi:10.1186/s13059-025-03674-8",
            "url": "https://doi.org/10.1186/s13059-025-03674-8",
            "revision": "doi:10.1186/s13059-025-03674-8",
            "missing_metadata": reasons,
        },
    ]


def build(files: SourceFiles) -> list[Record]:
    licence_file = files.get(LICENSE)
    records: list[Record] = [
        repository_file_source(PREFIX, REPOSITORY, files[p], _spec(files[p]), licence_file)
        for p in PATHS
        if p in files
    ]
    readme = files[README]
    figure = files[FIGURE]
    records += _papers(readme)
    cells: list[tuple[Cell, Cell, Cell, Cell]] = []
    for path in TABLES:
        if path not in files:
            continue
        table = read_csv(files[path])
        for row in table.rows:
            llm, head, performance, cell_type = row
            cells.append((llm, head, performance, cell_type))
    used = {MODELS[llm.text] for llm, _, _, _ in cells}
    records += family_records({m.family for m in used})
    for model in sorted(used, key=lambda m: m.label):
        records.append(_configuration(files, model))
    for cell_name in sorted({c.text for _, _, _, c in cells}):
        heads = sorted({h.text for _, h, _, c in cells if c.text == cell_name})
        records.append(_dataset(readme, cell_name))
        records.append(_protocol(readme, figure, cell_name, heads, files.commit))
    for llm, head, performance, cell_type in cells:
        records.append(_evaluation(files, MODELS[llm.text], head, performance, cell_type))
    records += layer_records(files)
    return records


def _configuration(files: SourceFiles, model: Model) -> Record:
    kind = "language model representations" if model.language_model else "baseline"
    record: Record = {
        "id": f"{PREFIX}-config-{slug(model.label)}",
        "kind": "configuration",
        "title": f"{model.name} (Tang et al., lentiMPRA)",
        "summary": (
            f"{model.name} as Tang et al.'s lentiMPRA tables name it (`{model.label}`): "
            f"{kind}, with the prediction heads in the tables' Model column."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "reported_name": model.label,
        "family": model.family,
        "method_types": ["foundation_model"] if model.language_model else ["baseline"],
        "hardware": None,
        "fine_tuning": None,
        "training_setting": None,
        "checkpoint": None,
        "version": None,
        "missing_metadata": {
            "hardware": missing("unreported", "The result tables do not state hardware."),
            "fine_tuning": missing(
                "unreported",
                "The tables name the prediction head (Model column) but not how the "
                "model's own weights were treated.",
            ),
            "training_setting": missing("unreported", "Not stated in the result tables."),
            "version": missing("unreported", "No revision of the weights is given."),
        },
        "added": ADDED,
    }
    if model.script is not None and model.needle is not None and model.script in files:
        script = files[model.script]
        line = find_line(script, model.needle)
        record["checkpoint"] = model.checkpoint
        record["citations"] = [line_citation(PREFIX, script, line, supports=["checkpoint"])]
        record["source_locator"] = f"{model.script}, line {line}"
        if model.note:
            record["concerns"] = [
                {
                    "id": "label-names-another-model",
                    "kind": "checkpoint_unclear",
                    "text": model.note,
                    "field": "reported_name",
                    "excludes_from_comparisons": False,
                    "citations": [line_citation(PREFIX, script, line)],
                }
            ]
    elif model.label == "NT":
        probe = files.get(NT_PROBE)
        note = "The tables name the model only as 'NT'."
        if probe is not None:
            line = find_line(probe, "model_name = '2B5_1000G'")
            citation = line_citation(PREFIX, probe, line)
            citation["role"] = "context_only"
            record["citations"] = [citation]
            note += (
                f" {NT_PROBE} (line {line}) probes '2B5_1000G', but the script that wrote "
                "NT_search.csv is not identified, so the checkpoint is not established."
            )
        record["missing_metadata"]["checkpoint"] = missing("unknown", note)
    else:
        record["missing_metadata"]["checkpoint"] = missing(
            "unreported" if model.language_model else "inapplicable",
            f"The tables name the model only as '{model.label}'."
            if model.language_model
            else "A model trained from scratch for the task; no published checkpoint is named.",
        )
    return record


def _dataset(readme: SourceFile, cell_type: str) -> Record:
    return {
        "id": f"{PREFIX}-dataset-lentimpra-{slug(cell_type)}",
        "kind": "dataset",
        "title": f"lentiMPRA, {cell_type} (Tang et al. Task 1)",
        "summary": (
            f"Regulatory activity measured by lentiviral MPRA in {cell_type} cells: Task 1 "
            "of Tang et al.'s evaluation."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            line_citation(PREFIX, readme, find_line(readme, "`lentiMPRA` for Task 1")),
            sentence_citation(PREFIX, readme, "Original dataset and models trained"),
        ],
        "description": (
            f"Sequences with their regulatory activity measured by lentiMPRA in {cell_type} "
            "cells, as preprocessed by Tang et al. (data_generation/preprocess_data/"
            "lenti_MPRA_preprocess.py)."
        ),
        "version": None,
        "generator": None,
        "seed": None,
        "access": "https://doi.org/10.5281/zenodo.11583224 (README.md)",
        "licence": None,
        "synthetic": False,
        "splits": [],
        "tasks": ["regression of regulatory activity"],
        "labels": [{"scope": PREFIX, "label": cell_type}],
        "missing_metadata": {
            "version": missing("unreported", "The README names no version of the data."),
            "generator": missing("inapplicable", "Measured data, not generated."),
            "seed": missing("unreported", "The split's seed is not in the result tables."),
            "licence": missing("unreported", "The README states no licence for the data."),
        },
        "added": ADDED,
    }


def _protocol(
    readme: SourceFile, figure: SourceFile, cell_type: str, heads: list[str], commit: str
) -> Record:
    metric = {
        "id": "pearson-r",
        "label": "Pearson correlation",
        "unit": "score",
        "direction": "higher",
        "scale": None,
        "minimum": -1.0,
        "maximum": 1.0,
    }
    ylabel = find_line(figure, 'plt.ylabel(\\"Pearson correlation\\"')
    read = find_line(figure, "LLM_CNN.csv")
    return {
        "id": f"{PREFIX}-protocol-lentimpra-{slug(cell_type)}",
        "kind": "protocol",
        "title": f"lentiMPRA {cell_type}: probing language model representations (Tang et al.)",
        "summary": (
            f"Prediction of {cell_type} lentiMPRA activity from each model's representations "
            "with several prediction heads; the value is the Pearson correlation the paper's "
            "figure plots."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            line_citation(PREFIX, readme, find_line(readme, "`lentiMPRA` for Task 1")),
            line_citation(PREFIX, figure, read),
            line_citation(PREFIX, figure, ylabel),
            {"source": PREPRINT, "locator": "whole work", "role": "context_only"},
            {"source": ARTICLE, "locator": "whole work", "role": "context_only"},
        ],
        "measurement": (
            "Each row of the result tables pairs a model (LLM column) with a prediction head "
            "(Model column: CNN, Ridge, MLP on the CLS token or the mean embedding); the "
            "Performance column is plotted as the Pearson correlation on held-out data. "
            "The suffixes 0.5, 1.0 and 2.0 of some heads are not explained in the tables."
        ),
        "metric": metric,
        "metric_definition": None,
        "columns": [
            {"id": slug(h), "label": h, "description": f"Prediction head '{h}' as printed."}
            for h in heads
        ],
        "datasets": [f"{PREFIX}-dataset-lentimpra-{slug(cell_type)}"],
        "hardware": None,
        "version": f"amberT15/LLM_eval at commit {commit}",
        "source_locator": "lentiMPRA/results/*.csv; figure/Perf_figure.ipynb",
        "replicates": None,
        "hardware_dependence": {
            "depends": False,
            "reason": "A score of predictions: it does not depend on the accelerator.",
        },
        "baselines": None,
        "recipe": None,
        "missing_metadata": {
            "metric_definition": missing(
                "unreported",
                "The tables head the value 'Performance'; the figure notebook labels it "
                "Pearson correlation; the split it is computed on is not stated there.",
            ),
            "hardware": missing("unreported", "Not stated in the result tables or README."),
            "replicates": missing("unreported", "The tables give one value per row."),
            "baselines": missing(
                "unreported",
                "The one-hot baselines (ResNet, rep_cnn, MPRAnn) and the random BERT are "
                "rows of the same tables; no selection rule is stated.",
            ),
            "recipe": missing("inapplicable", "Rewire has no runnable recipe for this protocol."),
        },
        "added": ADDED,
    }


def _evaluation(
    files: SourceFiles, model: Model, head: Cell, performance: Cell, cell_type: Cell
) -> Record:
    source = source_id(PREFIX, files[performance.path])
    table = performance.path.rsplit("/", 1)[-1]
    return {
        "id": (f"{PREFIX}-eval-{slug(model.label)}-{slug(cell_type.text)}-{slug(head.text)}"),
        "kind": "evaluation",
        "title": f"{model.name}, head {head.text}, lentiMPRA {cell_type.text}: Pearson r",
        "summary": (
            f"Pearson correlation {performance.text} for {model.name} with the "
            f"'{head.text}' head on {cell_type.text} lentiMPRA (Tang et al., {table})."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "configuration": f"{PREFIX}-config-{slug(model.label)}",
        "protocol": f"{PREFIX}-protocol-lentimpra-{slug(cell_type.text)}",
        "dataset": f"{PREFIX}-dataset-lentimpra-{slug(cell_type.text)}",
        "origin": "independent_paper",
        "version": f"{performance.path} at commit {files.commit}",
        "results": [value_result(slug(head.text), performance, source, unit="score", scale=None)],
        "comparison": {
            "split": None,
            "population": None,
            "inputs": f"{cell_type.text} lentiMPRA sequences",
            "adaptation": f"prediction head '{head.text}' on {model.name}",
            "aggregation": "one value per model, head and cell type",
            "budget": None,
            "dataset_version": None,
            "metric_implementation": None,
        },
        "source_locator": performance.locator,
        "training_hardware": None,
        "missing_metadata": {
            "comparison.split": missing(
                "unreported", "The table does not name the split the value is computed on."
            ),
            "comparison.population": missing(
                "unreported", "The table gives no number of sequences scored."
            ),
            "comparison.budget": missing("unreported", "Not stated in the table."),
            "comparison.dataset_version": missing("unreported", "Not stated in the table."),
            "comparison.metric_implementation": missing(
                "unreported", "The code that computed the Performance column is not cited."
            ),
            "training_hardware": missing("unreported", "Not stated in the table."),
            "results.0.uncertainty": missing("unreported", "One value per row, no spread."),
            "results.0.coverage": missing("unreported", "No scored and eligible counts."),
        },
        "added": ADDED,
    }


IMPORTER = Importer(
    prefix=PREFIX,
    title="Tang et al. 2024, lentiMPRA probing results (lentiMPRA/results/)",
    repository=REPOSITORY,
    commit=COMMIT,
    paths=PATHS,
    required=(TABLES[0], README, FIGURE),
    redistributable=True,
    build=build,
    tables=(
        *(TableSpec(path, COLUMNS, exact=True, required=path == TABLES[0]) for path in TABLES),
        *(TableSpec(p, LAYER_COLUMNS, exact=True, required=False) for p in LAYER_TABLES),
    ),
)
