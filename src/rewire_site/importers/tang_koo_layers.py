"""Tang and Koo's per-layer probe of the Nucleotide Transformer (lentiMPRA, Task 1):
`lentiMPRA/results/NT_layer_prob_{HepG2,K562}.csv` -> one result table.

What the files hold at the pinned commit: one row per layer (the `Layer` column, the
data frame's 0-based row index), one column per probe trained on that layer's frozen
embeddings (`CNN`, `CLS-MLP`, `Mean-embed-MLP`, `CLS-Ridge`, `Mean-embed-Ridge`,
`CLS-Linear`, `Mean-embed-Linear`), each cell the Pearson correlation of the probe's
predictions with the test set's measured activity. `lentiMPRA/NT_layer_probe.py` writes
them: it sets `model_name = '2B5_1000G'`, loops `for layer_i in range(1,max_layer+1)` and
saves the scores with `df.to_csv`, so row 0 is the first transformer layer. The cells are
copied verbatim; the layer setting is the `Layer` value as printed, and its name says how
it counts.
"""

from __future__ import annotations

from .core import Record, SourceFiles, find_line, line_citation, missing, source_id
from .result_tables import MetricColumn, ResultTableSpec, Row, SettingColumn, table_record
from .tables import read_csv

PREFIX = "tang-koo-2024"
SCOPE = PREFIX
SCRIPT = "lentiMPRA/NT_layer_probe.py"
LAYER_TABLES = (
    "lentiMPRA/results/NT_layer_prob_HepG2.csv",
    "lentiMPRA/results/NT_layer_prob_K562.csv",
)
COLUMNS = ("Layer", "CNN", "CLS-MLP", "Mean-embed-MLP", "CLS-Ridge", "Mean-embed-Ridge",
           "CLS-Linear", "Mean-embed-Linear")  # fmt: skip
"""Each file's header, read by position."""
MODEL_LABEL = "2B5_1000G"
"""The model name the script sets (`model_name = '2B5_1000G'`): the rows' model label."""
PROTOCOL = f"{PREFIX}-protocol-nt-layer-probe"
TABLE = f"{PREFIX}-table-nt-layer-probe"

_LABELS = {
    "CNN": "CNN on all token embeddings",
    "CLS-MLP": "MLP on the CLS embedding",
    "Mean-embed-MLP": "MLP on the mean embedding",
    "CLS-Ridge": "Ridge regression on the CLS embedding",
    "Mean-embed-Ridge": "Ridge regression on the mean embedding",
    "CLS-Linear": "Linear regression on the CLS embedding",
    "Mean-embed-Linear": "Linear regression on the mean embedding",
}
METRICS = tuple(
    MetricColumn(heading.lower(), f"Pearson r, {label}", "higher", heading, None, -1.0, 1.0)
    for heading, label in _LABELS.items()
)


def cell_name(path: str) -> str:
    return path.rsplit("_", 1)[1].removesuffix(".csv")


def layer_records(files: SourceFiles) -> list[Record]:
    """The protocol and the table; nothing when the import has none of the files."""
    present = [p for p in LAYER_TABLES if p in files]
    if not present:
        return []
    script = files[SCRIPT]
    rows: list[Row] = []
    for path in present:
        table = read_csv(files[path])
        for cells in table.rows:
            layer, *scores = cells
            rows.append(
                Row(
                    MODEL_LABEL,
                    cell_name(path),
                    (layer.text,),
                    {m.column: c.text for m, c in zip(METRICS, scores, strict=True)},
                    f"{path}, row {layer.line}",
                )
            )
    citations = [
        line_citation(PREFIX, script, find_line(script, "model_name = '2B5_1000G'")),
        line_citation(PREFIX, script, find_line(script, "for layer_i in range(1,max_layer+1)")),
        line_citation(PREFIX, script, find_line(script, "df.to_csv('./results/NT_layer_prob_")),
    ]
    spec = ResultTableSpec(
        id=TABLE,
        title="Tang et al., Nucleotide Transformer 2.5B layer by layer on lentiMPRA",
        summary=(
            "Published Pearson correlations of seven probes trained on the frozen embeddings "
            "of each layer of the Nucleotide Transformer 2.5B (1000 Genomes) for lentiMPRA "
            "activity in HepG2 and K562, one row per cell type and layer."
        ),
        sources=[source_id(PREFIX, files[p]) for p in present],
        source_paths=tuple(present),
        labels=SCOPE,
        protocol=PROTOCOL,
        adaptation="frozen_probe",
        origin="independent_paper",
        settings=(SettingColumn("layer", "layer (0 is the first transformer layer)"),),
        metrics=METRICS,
        comparison={
            "split": "test split",
            "population": None,
            "inputs": "230 bp lentiMPRA sequences",
            "adaptation": "frozen model; a probe trained on one layer's embeddings",
            "aggregation": "one value per layer and probe",
            "budget": None,
            "dataset_version": None,
            "metric_implementation": "scipy.stats.pearsonr",
        },
        missing_metadata={
            "comparison.population": missing("unreported", "No sample count in the files."),
            "comparison.budget": missing("unreported", "Not stated in the files."),
            "comparison.dataset_version": missing("unreported", "No data version named."),
        },
        base={
            "areas": ["dna-genomes"],
            "contexts": ["research"],
            "citations": citations,
            "added": "2026-12-02",
        },
    )
    protocol: Record = {
        "id": PROTOCOL,
        "kind": "protocol",
        "title": "Tang et al. Task 1: probes on each Nucleotide Transformer layer",
        "summary": (
            "Probes trained on one layer's frozen embeddings at a time, scored by the Pearson "
            "correlation with measured lentiMPRA activity."
        ),
        "areas": ["dna-genomes"],
        "contexts": ["research"],
        "citations": [
            *citations,
            line_citation(
                PREFIX,
                script,
                find_line(script, "cnn_score = scipy.stats.pearsonr(np.squeeze(y_pred),y_test)[0]"),
            ),
        ],
        "measurement": (
            "For each layer, the model's embeddings of every sequence are kept frozen; a CNN "
            "on all token embeddings, MLPs, ridge and linear regressions on the CLS or the "
            "mean embedding are trained on the train split and scored on the test split by "
            "the Pearson correlation of predicted and measured activity."
        ),
        "metric": {
            "id": METRICS[0].column,
            "label": METRICS[0].label,
            "unit": "correlation coefficient",
            "direction": "higher",
            "minimum": -1.0,
            "maximum": 1.0,
        },
        "metric_definition": "Pearson correlation (scipy.stats.pearsonr) on the test split.",
        "columns": [
            {
                "id": m.column,
                "label": m.label,
                "metric": {
                    "id": m.column,
                    "label": m.label,
                    "unit": "correlation coefficient",
                    "direction": "higher",
                    "minimum": -1.0,
                    "maximum": 1.0,
                },
            }
            for m in METRICS
        ],
        "datasets": [f"{PREFIX}-dataset-lentimpra-{cell_name(p).lower()}" for p in present],
        "hardware": None,
        "version": f"amberT15/LLM_eval at commit {files.commit}",
        "source_locator": SCRIPT,
        "replicates": None,
        "hardware_dependence": {
            "depends": False,
            "reason": "A score of predictions: it does not depend on the accelerator.",
        },
        "baselines": None,
        "recipe": None,
        "missing_metadata": {
            "hardware": missing("unreported", "Not stated in the files."),
            "replicates": missing("unreported", "One value per layer and probe."),
            "baselines": missing("unreported", "No baseline rule stated for the layer probe."),
            "recipe": missing("inapplicable", "Rewire has no runnable recipe for this protocol."),
        },
        "added": "2026-12-02",
    }
    return [protocol, table_record(spec, rows)]
