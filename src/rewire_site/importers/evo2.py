"""The Evo 2 repository's gene completion benchmark (ArcInstitute/evo2,
`scripts/gene_completion/results/*.csv`).

What the files hold at the pinned commit: `summary.csv`, one row per Evo 2 checkpoint
(model, display name, parameters in billions, the prokaryote and eukaryote panel means,
the 12-gene overall mean and the value the paper reports), and
`{prokaryote,eukaryote}_per_gene.csv`, one row per checkpoint and gene (organism, number
of generations, mean and SEM of the percent amino-acid recovery). The README says how the
benchmark runs: a prompt of the gene's start, the model's completion translated and
aligned to the reference protein, percent identity over the generated part. Nothing is
trained: zero_shot. The SEM and sample counts are in the rows' files (the locator points
at them) but the table holds the means only.

Two result tables: per gene (12 tasks, one dataset record per gene) and the summary (one
task, the benchmark). The repository is Apache-2.0: the files read are copied under
artifacts/sources/evo2-gene-completion/files/.
"""

from __future__ import annotations

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
    slug,
    source_id,
)
from .records import AREAS, CONTEXTS, RepoFileSpec, repository_file_source
from .result_tables import MetricColumn, ResultTableSpec, Row, table_record
from .tables import Cell, read_csv

PREFIX = "evo2-gene-completion"
SCOPE = PREFIX
REPOSITORY = "https://github.com/ArcInstitute/evo2"
COMMIT = "53f195997257c56c00e5ef8d33a54f5baad143a6"
COMMIT_DATE = "2026-06-18"
ADDED = "2026-12-02"
RETRIEVED_AT = "2026-12-02T07:00:00Z"
BASE = "scripts/gene_completion"
README = f"{BASE}/README.md"
REPO_README = "README.md"
LICENSE = "LICENSE"
SUMMARY = f"{BASE}/results/summary.csv"
PER_GENE = (f"{BASE}/results/prokaryote_per_gene.csv", f"{BASE}/results/eukaryote_per_gene.csv")
PATHS = (SUMMARY, *PER_GENE, README, REPO_README, LICENSE)
SUMMARY_COLUMNS = ("model", "display", "params_billions", "prokaryote_mean", "eukaryote_mean",
                   "overall_mean_aa_recovery", "paper_reported")  # fmt: skip
GENE_COLUMNS = ("model", "gene", "organism", "n_samples", "mean_aa_recovery", "sem_aa_recovery")
BENCHMARK = "Gene Completion benchmark"
"""The summary rows' task label: the README's title names the benchmark."""


def _percent(column: str, label: str, key: str) -> MetricColumn:
    return MetricColumn(column, label, "higher", key, "percent", 0.0, 100.0)


RECOVERY = _percent("aa-recovery", "Mean amino-acid recovery (%)", "mean_aa_recovery")
SUMMARY_METRICS = (
    _percent("overall", "Overall mean, 12 genes (%)", "overall_mean_aa_recovery"),
    _percent("prokaryote", "Prokaryote panel mean (%)", "prokaryote_mean"),
    _percent("eukaryote", "Eukaryote panel mean (%)", "eukaryote_mean"),
    _percent("paper", "Overall, as the paper reports it (%)", "paper_reported"),
)
FAMILY = f"{PREFIX}-family-evo-2"


def _spec(file: SourceFile) -> RepoFileSpec:
    return RepoFileSpec(
        title=f"{file.path} (ArcInstitute/evo2)",
        summary=f"`{file.path}` of the Evo 2 repository, at commit {file.commit[:12]}.",
        short_citation=f"Evo 2 repository, {file.path}",
        authors=("Garyk Brixi", "Matthew G. Durrant", "Jerome Ku", "et al."),
        maintainers=("Arc Institute",),
        published=COMMIT_DATE,
        licence="Apache-2.0",
        licence_note="",
        independence="The Evo 2 authors report their own models' results.",
    )


def _source(files: SourceFiles, path: str) -> Record:
    record = repository_file_source(
        PREFIX, REPOSITORY, files[path], _spec(files[path]), files.get(LICENSE)
    )
    record["retrieved_at"] = RETRIEVED_AT
    record["added"] = ADDED
    return record


def build(files: SourceFiles) -> list[Record]:
    records = [_source(files, p) for p in PATHS if p in files]
    summary = read_csv(files[SUMMARY])
    models = [row[0].text for row in summary.rows]
    records.append(_family(files, summary.rows))
    gene_rows: list[Row] = []
    genes: dict[str, tuple[str, str]] = {}
    for path in PER_GENE:
        panel = path.rsplit("/", 1)[1].split("_", 1)[0]
        for cells in read_csv(files[path]).rows:
            model, gene, organism = cells[0].text, cells[1].text, cells[2].text
            if model not in models:
                raise ImportProblem(f"{cells[0].locator}: {model!r} is not a model of {SUMMARY}")
            genes.setdefault(gene, (organism, panel))
            gene_rows.append(
                Row(
                    model,
                    gene,
                    (),
                    {RECOVERY.column: cells[4].text},
                    f"{path}, row {cells[0].line}",
                )
            )
    summary_rows = [
        Row(
            cells[0].text,
            BENCHMARK,
            (),
            {m.column: cells[SUMMARY_COLUMNS.index(m.source_key)].text for m in SUMMARY_METRICS},
            f"{SUMMARY}, row {cells[0].line}",
        )
        for cells in summary.rows
    ]
    for gene, (organism, panel) in sorted(genes.items()):
        records.append(_dataset(files, gene, organism, panel))
    records.append(_dataset(files, BENCHMARK, None, None))
    records.append(_protocol(files))
    records.append(_table(files, "per-gene", gene_rows, (RECOVERY,), PER_GENE))
    records.append(_table(files, "summary", summary_rows, SUMMARY_METRICS, (SUMMARY,)))
    return records


def _checkpoint_line(readme: SourceFile, model: str) -> int:
    """The README's checkpoint-table row of `model` (the table under '### Checkpoints')."""
    start = find_line(readme, "### Checkpoints")
    for number in range(start + 1, len(readme.lines()) + 1):
        if readme.line(number).startswith(f"| `{model}` "):
            return number
    raise ImportProblem(f"{readme.path}: no checkpoint-table row for {model!r}")


OTHER_LABELS: dict[str, tuple[Record, ...]] = {
    "evo2_1b_base": (
        {
            "scope": "dnallm-mark",
            "label": "evo2_1b_base",
            "note": (
                "DNALLM-Mark's performance file prints this Hugging Face id with a size of "
                "1108M parameters (its info block)."
            ),
        },
    ),
}
"""Other sources' labels for these checkpoints (one family record per family: the
DNALLM-Mark importer points here instead of writing its own Evo family)."""

FAMILY_LABELS: tuple[Record, ...] = (
    {
        "scope": "lingodnabench",
        "label": "Evo2 (7B)",
        "note": (
            "LingoDNABench's model table names Evo2-7B (7B parameters) and links only the "
            "evo2 repository (benchmark/README.md, lines 40 and 143-144); evo2_7b, "
            "evo2_7b_base and evo2_7b_262k are all 7B checkpoints, so none is pinned."
        ),
    },
)
"""Other sources' labels known only at family level (shown as 'checkpoint not pinned')."""


def _family(files: SourceFiles, rows: tuple[tuple[Cell, ...], ...]) -> Record:
    readme = files[REPO_README]
    checkpoints = []
    for cells in rows:
        model, params = cells[0].text, cells[2].text
        line = _checkpoint_line(readme, model)
        checkpoints.append(
            {
                "name": f"arcinstitute/{model}",
                "parameters": f"{params} billion",
                "url": f"https://huggingface.co/arcinstitute/{model}",
                "note": (
                    f"The repository README's checkpoint table (line {line}): "
                    f"{readme.line(line)}; parameters as {SUMMARY} prints them "
                    "(params_billions)."
                ),
                "labels": [{"scope": SCOPE, "label": model}, *OTHER_LABELS.get(model, ())],
            }
        )
    return {
        "id": FAMILY,
        "kind": "model_family",
        "title": "Evo 2",
        "summary": "Evo 2, DNA language models of the StripedHyena 2 architecture (Arc Institute).",
        "limitations": [
            "Imported family: only the checkpoint names, sizes and the README's one-line "
            "description are recorded; model facts are not yet transcribed."
        ],
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            line_citation(PREFIX, readme, find_line(readme, "Evo 2 is a state of the art DNA")),
            line_citation(
                PREFIX, readme, find_line(readme, "We provide the following model checkpoints")
            ),
        ],
        "name": "Evo 2",
        "developers": ["Brixi et al. (Arc Institute)"],
        "architecture": "StripedHyena 2",
        "tokenisation": "single nucleotide",
        "checkpoints": checkpoints,
        "labels": list(FAMILY_LABELS),
        "added": ADDED,
    }


def _dataset(files: SourceFiles, gene: str, organism: str | None, panel: str | None) -> Record:
    readme = files[README]
    what = (
        f"the {panel} panel's gene {gene} ({organism})"
        if organism
        else "12 genes: 4 prokaryote / archaea and 8 eukaryote"
    )
    return {
        "id": f"{PREFIX}-dataset-{slug(gene)}",
        "kind": "dataset",
        "title": f"{gene} (Evo 2 gene completion)"
        if organism
        else "Evo 2 gene completion (12 genes)",
        "summary": f"Evo 2's gene completion benchmark: {what}.",
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            line_citation(
                PREFIX,
                readme,
                find_line(readme, "| **Prokaryote / archaea** |"),
                find_line(readme, "| **Eukaryote** |"),
            )
        ],
        "description": (
            f"Gene completion on {what}: the model is prompted with the start of the gene "
            "and its completion is scored by percent amino-acid recovery against the "
            f"reference protein (data in {BASE}/data/)."
        ),
        "version": f"{BASE}/data at commit {files.commit}",
        "generator": None,
        "seed": None,
        "access": f"{REPOSITORY}/tree/{files.commit}/{BASE}/data",
        "licence": "Apache-2.0 (repository licence)",
        "synthetic": False,
        "splits": [],
        "tasks": ["gene completion"],
        "labels": [{"scope": SCOPE, "label": gene}],
        "missing_metadata": {
            "generator": missing("inapplicable", "Collected genes, not generated."),
            "seed": missing("inapplicable", "No split: every gene is a prompt."),
        },
        "added": ADDED,
    }


def _protocol(files: SourceFiles) -> Record:
    readme = files[README]
    metric = {
        "id": "overall",
        "label": "Percent amino-acid recovery",
        "unit": "percent",
        "direction": "higher",
        "scale": "percent",
        "minimum": 0.0,
        "maximum": 100.0,
    }
    columns = [
        {"id": m.column, "label": m.label, "metric": {**metric, "id": m.column, "label": m.label}}
        for m in (*SUMMARY_METRICS, RECOVERY)
    ]
    return {
        "id": f"{PREFIX}-protocol",
        "kind": "protocol",
        "title": "Evo 2 gene completion: percent amino-acid recovery",
        "summary": (
            "A model completes a gene from its start; the completion's protein is compared "
            "to the reference protein."
        ),
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": [
            line_citation(PREFIX, readme, find_line(readme, "A model is prompted with the start")),
            line_citation(PREFIX, readme, find_line(readme, "Generation uses `temperature=0.7`")),
            line_citation(PREFIX, readme, find_line(readme, "The overall headline number is")),
        ],
        "measurement": (
            "The model is prompted with the start of a gene (prokaryote: 1000 nt upstream and "
            "the first 30% of the coding sequence; eukaryote: the first 30% of the genomic "
            "window) and generates the rest (temperature 0.7 or 1.0, top-k 4, 50 generations "
            "per gene in the paper's setting). The completion is translated (eukaryote: "
            "spliced with exonerate first) and aligned to the reference protein; the score is "
            "the percent identity over the generated part. The overall number is the mean of "
            "the 12 per-gene means."
        ),
        "metric": metric,
        "metric_definition": "Percent identity of generated and reference protein over the "
        "non-prompt region (scripts/gene_completion/scoring.py).",
        "columns": columns,
        "datasets": [],
        "hardware": None,
        "version": f"ArcInstitute/evo2 at commit {files.commit}",
        "source_locator": README,
        "replicates": None,
        "hardware_dependence": {
            "depends": False,
            "reason": "A score of generated sequences: it does not depend on the accelerator.",
        },
        "baselines": None,
        "recipe": None,
        "missing_metadata": {
            "hardware": missing("unreported", "Not stated in the README."),
            "replicates": missing(
                "unreported", "Generations per gene are sampled; the per-gene files give n."
            ),
            "baselines": missing("unreported", "No baseline is reported for the benchmark."),
            "recipe": missing("inapplicable", "Rewire has no runnable recipe for this protocol."),
        },
        "added": ADDED,
    }


def _table(
    files: SourceFiles,
    key: str,
    rows: list[Row],
    metrics: tuple[MetricColumn, ...],
    paths: tuple[str, ...],
) -> Record:
    spec = ResultTableSpec(
        id=f"{PREFIX}-table-{key}",
        title=(
            "Evo 2 gene completion per gene: percent amino-acid recovery"
            if key == "per-gene"
            else "Evo 2 gene completion: panel and overall means"
        ),
        summary=(
            "The Evo 2 authors' published gene completion results for four Evo 2 "
            "checkpoints"
            + (
                ", one row per checkpoint and gene (the mean over its generations; the "
                "SEM and number of generations are in the cited file)."
                if key == "per-gene"
                else ": panel means, the 12-gene overall mean, and the overall value the "
                "paper reports."
            )
        ),
        sources=[source_id(PREFIX, files[p]) for p in paths],
        source_paths=paths,
        labels=SCOPE,
        protocol=f"{PREFIX}-protocol",
        adaptation="zero_shot",
        origin="author_reported",
        settings=(),
        metrics=metrics,
        comparison={
            "split": "every gene of the panel (no training split)",
            "population": None,
            "inputs": "gene prompts built by scripts/gene_completion/prompts.py",
            "adaptation": "pre-trained model generating, no training",
            "aggregation": "mean over a gene's generations"
            if key == "per-gene"
            else "mean of per-gene means",
            "budget": None,
            "dataset_version": f"{BASE}/data at commit {files.commit}",
            "metric_implementation": f"{BASE}/scoring.py at commit {files.commit}",
        },
        missing_metadata={
            "comparison.population": missing("unreported", "Not stated per value."),
            "comparison.budget": missing("unreported", "Not stated in the files."),
        },
        base={"areas": AREAS, "contexts": CONTEXTS, "added": ADDED},
    )
    return table_record(spec, rows)


IMPORTER = Importer(
    prefix=PREFIX,
    title="Evo 2 repository, gene completion results",
    repository=REPOSITORY,
    commit=COMMIT,
    paths=PATHS,
    required=(SUMMARY, *PER_GENE, README, REPO_README),
    redistributable=True,
    build=build,
    tables=(
        TableSpec(SUMMARY, SUMMARY_COLUMNS, exact=True),
        *(TableSpec(p, GENE_COLUMNS, exact=True) for p in PER_GENE),
    ),
)
