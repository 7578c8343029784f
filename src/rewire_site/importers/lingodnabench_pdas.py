"""LingoDNABench's pre-training-checkpoint sheets of `manuscript-results.xlsx`:
`PDAS regulatory` and `PDAS variant` -> two result tables, one row per model, task and
checkpoint (pre-training epoch), with the task's score and the checkpoint's pre-training
loss.

What the sheets hold at the pinned commit:
- `PDAS regulatory`: Task, Checkpoint (0-8), Metric, Pretraining loss. The sheet names no
  model. The pre-training application README evaluates `model_M-0` ... `model_M-8`
  (pretrain_analysis/pretrain_application_alignment/README.md), and every checkpoint's
  loss in this sheet equals Model M's loss at that checkpoint in `PDAS variant`: the
  importer checks both and labels the rows 'Model M'; another file stops the import.
- `PDAS variant`: Task, Model ('Model H' with checkpoints 0-15, 'Model M' with 0-8),
  Checkpoint, Metric, Pretraining loss.
The `Metric` cell is the task's score, in the metric the `Benchmark performance` sheet
names for that task (AUROC or Spearman's rho). The `PDAS values` sheet (a statistic over
checkpoints, not a model's result) is not imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .core import ImportProblem, Record, SourceFile, missing, source_id
from .result_tables import MetricColumn, ResultTableSpec, Row, SettingColumn, table_record

REGULATORY = "PDAS regulatory"
VARIANT = "PDAS variant"
REGULATORY_HEADER = ("Task", "Checkpoint", "Metric", "Pretraining loss")
VARIANT_HEADER = ("Task", "Model", "Checkpoint", "Metric", "Pretraining loss")
UNNAMED_MODEL = "Model M"
LOSS = MetricColumn("pretraining-loss", "Pre-training loss", "lower", "Pretraining loss", None, 0.0)


@dataclass(frozen=True)
class PdasRow:
    sheet: str
    number: int
    task: str
    model: str
    checkpoint: str
    score: tuple[str, str]
    """(coordinate, stored text) of the Metric cell."""
    loss: tuple[str, str]


def _text(value: Any, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ImportProblem(f"{where}: {value!r} is not a number; nothing was changed")
    return repr(value) if isinstance(value, float) else str(value)


def read_pdas(grids: dict[str, list[tuple[Any, ...]]], path: str) -> list[PdasRow]:
    """Both sheets' rows (`grids`: sheet name -> rows of values); another shape is refused."""
    rows: list[PdasRow] = []
    for sheet, header in ((REGULATORY, REGULATORY_HEADER), (VARIANT, VARIANT_HEADER)):
        if sheet not in grids:
            raise ImportProblem(f"{path}: no sheet {sheet!r}; nothing was changed")
        grid = grids[sheet]
        if not grid or tuple(grid[0][: len(header)]) != header:
            raise ImportProblem(
                f"{path}: sheet {sheet!r} row 1 is not {list(header)}; nothing was changed"
            )
        letters = "ABCDE"
        for number, values in enumerate(grid[1:], start=2):
            if all(v is None for v in values):
                continue
            cells = dict(zip(header, values, strict=False))
            where = f"{path}: '{sheet}'!"
            model = UNNAMED_MODEL if sheet == REGULATORY else str(cells["Model"])
            score_col = letters[header.index("Metric")]
            loss_col = letters[header.index("Pretraining loss")]
            check_col = letters[header.index("Checkpoint")]
            rows.append(
                PdasRow(
                    sheet,
                    number,
                    str(cells["Task"]),
                    model,
                    _text(cells["Checkpoint"], f"{where}{check_col}{number}"),
                    (f"{score_col}{number}", _text(cells["Metric"], f"{where}{score_col}{number}")),
                    (
                        f"{loss_col}{number}",
                        _text(cells["Pretraining loss"], f"{where}{loss_col}{number}"),
                    ),
                )
            )
    _check_unnamed_model(rows, path)
    return rows


def _check_unnamed_model(rows: list[PdasRow], path: str) -> None:
    """The regulatory sheet's losses per checkpoint must be Model M's in the variant sheet."""
    named = {
        (r.checkpoint, r.loss[1]) for r in rows if r.sheet == VARIANT and r.model == UNNAMED_MODEL
    }
    unnamed = {(r.checkpoint, r.loss[1]) for r in rows if r.sheet == REGULATORY}
    if not named or not unnamed <= named:
        raise ImportProblem(
            f"{path}: the losses of sheet {REGULATORY!r} are not {UNNAMED_MODEL}'s of sheet "
            f"{VARIANT!r}, so its rows cannot be given to {UNNAMED_MODEL}; nothing was changed"
        )


def pdas_tables(
    workbook: SourceFile,
    rows: list[PdasRow],
    metric_of_task: dict[str, str],
    metrics: dict[str, MetricColumn],
    base: Record,
) -> list[Record]:
    """The two tables (regulatory: frozen_probe, variant: zero_shot)."""
    out: list[Record] = []
    for sheet, key, adaptation, adapted in (
        (REGULATORY, "pretraining-regulatory", "frozen_probe",
         "frozen model checkpoint; a downstream adapter trained on its last-layer embeddings"),
        (VARIANT, "pretraining-variant", "zero_shot", "frozen model checkpoint, no training"),
    ):  # fmt: skip
        table_rows: list[Row] = []
        for r in rows:
            if r.sheet != sheet:
                continue
            name = metric_of_task.get(r.task)
            if name is None:
                raise ImportProblem(
                    f"{workbook.path}: '{sheet}'!A{r.number}: task {r.task!r} is not a task "
                    "of the 'Benchmark performance' sheet; nothing was changed"
                )
            column = metrics[name].column
            table_rows.append(
                Row(
                    r.model,
                    r.task,
                    (r.checkpoint,),
                    {column: r.score[1], LOSS.column: r.loss[1]},
                    f"{workbook.path}: '{sheet}'!A{r.number}:{r.loss[0]}",
                )
            )
        used = [m for m in metrics.values() if any(m.column in t.cells for t in table_rows)]
        models = sorted({t.model for t in table_rows})
        spec = ResultTableSpec(
            id=f"lingodnabench-table-{key}",
            title=f"LingoDNABench pre-training checkpoints: {', '.join(models)} on the "
            f"{'variant-effect' if sheet == VARIANT else 'regulatory'} tasks",
            summary=(
                "Published task scores of each pre-training checkpoint (epoch) of the "
                "authors' own BERT models, beside the checkpoint's pre-training loss, from "
                f"the manuscript's '{sheet}' sheet."
                + (
                    " The sheet names no model; its losses are Model M's (checked)."
                    if sheet == REGULATORY
                    else ""
                )
            ),
            sources=[source_id("lingodnabench", workbook)],
            source_paths=(workbook.path,),
            labels="lingodnabench",
            protocol="lingodnabench-protocol-pretraining"
            if sheet == REGULATORY
            else "lingodnabench-protocol-pretraining-variant",
            adaptation=adaptation,
            origin="author_reported",
            settings=(SettingColumn("checkpoint", "pre-training epoch"),),
            metrics=(*used, LOSS),
            comparison={
                "split": "test split"
                if sheet == REGULATORY
                else "train, dev and test variants together (nothing is trained)",
                "population": None,
                "inputs": "DNA sequences of the task's dataset",
                "adaptation": adapted,
                "aggregation": "as given in the sheet (not stated)",
                "budget": None,
                "dataset_version": None,
                "metric_implementation": None,
            },
            missing_metadata={
                "comparison.population": missing("unreported", "No sample counts in the sheet."),
                "comparison.budget": missing("unreported", "Not stated for the sheet's values."),
                "comparison.dataset_version": missing("unreported", "No dataset version given."),
                "comparison.metric_implementation": missing(
                    "unreported", "The scripts compute it; the sheet does not name the run."
                ),
            },
            base=base,
        )
        out.append(table_record(spec, table_rows))
    return out
