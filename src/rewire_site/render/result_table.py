"""The pages of a result table: the table's own page (what it is, where its rows come
from, the facts every row shares, counts, labels) and its rows, a page per
`table_facts.ROWS_PER_PAGE` rows, with the CSV download."""

from __future__ import annotations

from dataclasses import dataclass

from ..derive.table_facts import ROWS_PER_PAGE, MappedLabel, TableFacts, row_pages, table_facts
from ..link import Catalogue
from ..models import ModelFamily, ResultTable, Source
from ..table_rows import ResultTableRow
from .contexts import Fact, Link, Page, RecordPage, SiteFacts, page_header
from .leads import table_answer
from .parts import common_fields, link_to
from .present.labels import ORIGIN_LABELS
from .present.missing import missing_text
from .present.numbers import plural
from .urls import record_path

ADAPTATION_LABELS = {
    "fine_tuned": "Fine-tuned (every weight trained on the task)",
    "parameter_efficient": "Parameter-efficient fine-tuning (adapters, LoRA and the like)",
    "frozen_probe": "Frozen model, a probe trained on its embeddings",
    "zero_shot": "Zero-shot (no training on the task)",
    "other": "Another adaptation (see the protocol)",
}
"""Protocol class -> how the pages say it."""

SCALE_LABELS = {"fraction": "as a fraction (0 to 1)", "percent": "as a percentage (0 to 100)"}
COMPARISON_LABELS = {
    "split": "split scored",
    "population": "samples scored",
    "inputs": "inputs",
    "adaptation": "adaptation",
    "aggregation": "aggregation",
    "budget": "budget",
    "dataset_version": "dataset version",
    "metric_implementation": "metric implementation",
}


def table_dir(table_id: str) -> str:
    return record_path("result_table", table_id).removesuffix("index.html")


def rows_path(table_id: str, number: int) -> str:
    """Path of page `number` (1-based) of a table's rows."""
    return f"{table_dir(table_id)}rows/{number}/index.html"


def download_path(table_id: str) -> str:
    """Path of a table's rows as a CSV download."""
    return f"downloads/tables/{table_id}.csv"


@dataclass(frozen=True)
class TableSource:
    """A source the rows are read from, pinned."""

    link: Link
    """The source's page."""
    path: str
    """The file's path in its repository ('' when not stated)."""
    revision: str
    """The commit (or version) the file is read at, or why it is missing."""
    sha256: str
    """SHA-256 of the file's bytes, or why it is missing."""


@dataclass(frozen=True)
class MetricView:
    """One metric column of a table."""

    label: str
    """The metric's heading, e.g. 'MCC'."""
    text: str
    """How its values read: scale, direction, bounds, and how many rows hold one."""


@dataclass(frozen=True)
class LabelView:
    """A source's label and what it maps to."""

    label: str
    """The label as the source writes it."""
    target: Link
    """The dataset or model family page it maps to."""
    note: str
    """The checkpoint, or that the checkpoint is not pinned; '' for a task."""


@dataclass(frozen=True)
class ResultTablePage(RecordPage):
    answer: str
    """The page's answer in plain words, built from its context (render/leads.py)."""
    facts: tuple[Fact, ...]
    """What the table is: protocol class, origin, counts."""
    protocol: Link
    """The protocol every row follows."""
    table_sources: tuple[TableSource, ...]
    """The pinned files the rows are read from."""
    comparison: tuple[Fact, ...]
    """The comparison conditions every row shares (stated once)."""
    metrics: tuple[MetricView, ...]
    """The metric columns."""
    settings: tuple[str, ...]
    """Names of the per-row settings (part of a row's identity)."""
    counts_text: str
    """'120 rows, 230 values; 3 models, 47 tasks'."""
    models: tuple[LabelView, ...]
    """Model labels that map to a checkpoint or a family."""
    tasks: tuple[LabelView, ...]
    """Task labels that map to a dataset."""
    unmapped_models: tuple[str, ...]
    """Model labels no model family or checkpoint carries."""
    unmapped_tasks: tuple[str, ...]
    """Task labels no dataset carries."""
    row_pages: tuple[Link, ...]
    """The pages of the rows."""
    download: Link
    """The rows as CSV."""


@dataclass(frozen=True)
class ResultRowsPage(Page):
    table: Link
    """The table's own page."""
    headings: tuple[str, ...]
    """Column headings: model, task, each setting, each metric, where in the source."""
    rows: tuple[tuple[str, ...], ...]
    """One tuple of cell texts per row, as the headings order them."""
    range_text: str
    """'Rows 501 to 1,000 of 12,000'."""
    previous: Link | None
    """The page before, if any."""
    next: Link | None
    """The page after, if any."""
    download: Link
    """The whole table as CSV."""
    lines: tuple[int, ...] = ()
    """Each row's CSV line: its anchor ('line-812'), where a leaderboard value links."""


def row_anchor(table_id: str, line: int, catalogue: Catalogue) -> str:
    """Where one row of a table is shown: its rows page and anchor (leaderboards link
    each value there)."""
    rows = catalogue.result_rows.of_table(table_id)
    index = next((i for i, r in enumerate(rows) if r.line == line), 0)
    return f"{rows_path(table_id, index // ROWS_PER_PAGE + 1)}#line-{line}"


def _missing_or(record: ResultTable | Source, path: str, value: str | None) -> str:
    return value if value is not None else missing_text(record, path).label


def _source(source_id: str, catalogue: Catalogue) -> TableSource:
    source = catalogue.get(source_id, Source)
    return TableSource(
        link_to(catalogue, source_id),
        source.path or "",
        _missing_or(source, "revision", source.revision),
        _missing_or(source, "sha256", source.sha256),
    )


def _bounds(low: float | None, high: float | None) -> str:
    if low is None and high is None:
        return ""
    if low is None:
        return f"; at most {high:g}"
    if high is None:
        return f"; at least {low:g}"
    return f"; from {low:g} to {high:g}"


def _metrics(table: ResultTable, facts: TableFacts) -> tuple[MetricView, ...]:
    views = []
    for metric, count in zip(table.columns.metrics, facts.values_by_metric, strict=True):
        scale = f" {SCALE_LABELS[metric.scale.value]}" if metric.scale is not None else ""
        better = "higher is better" if metric.direction == "higher" else "lower is better"
        text = (
            f"printed{scale}; {better}{_bounds(metric.minimum, metric.maximum)}; "
            f"{plural(count, 'value')}"
        )
        views.append(MetricView(metric.label, text))
    return tuple(views)


def _model_view(mapped: MappedLabel, catalogue: Catalogue) -> LabelView:
    family = catalogue.get(mapped.record_id, ModelFamily)
    note = (
        f"checkpoint {mapped.checkpoint}"
        if mapped.checkpoint is not None
        else "checkpoint not pinned: the source's name is known only for the family"
    )
    return LabelView(mapped.label, Link(family.title, record_path("model_family", family.id)), note)


def _comparison(table: ResultTable) -> tuple[Fact, ...]:
    found = []
    for name, label in COMPARISON_LABELS.items():
        value = getattr(table.comparison, name)
        if value is None:
            found.append(Fact(label, missing_text(table, f"comparison.{name}").label, missing=True))
        else:
            found.append(Fact(label, value))
    return tuple(found)


def table_page(table: ResultTable, catalogue: Catalogue, facts: SiteFacts) -> ResultTablePage:
    tf = table_facts(table, catalogue)
    counts = (
        f"{plural(tf.rows, 'row')}, {plural(tf.values, 'value')}; "
        f"{plural(len(tf.models) + len(tf.unmapped_models), 'model label')}, "
        f"{plural(len(tf.tasks) + len(tf.unmapped_tasks), 'task label')}"
    )
    page_facts = (
        Fact("adaptation", ADAPTATION_LABELS[table.adaptation.value]),
        Fact("reported by", ORIGIN_LABELS[table.origin]),
        Fact("size", counts),
    )
    return ResultTablePage(
        **common_fields(table, catalogue, facts, "result_table.html"),
        answer=table_answer(
            tf.rows,
            len(tf.models) + len(tf.unmapped_models),
            len(tf.tasks) + len(tf.unmapped_tasks),
            ", ".join(link_to(catalogue, s).text for s in table.sources),
        ),
        facts=page_facts,
        protocol=link_to(catalogue, table.protocol),
        table_sources=tuple(_source(s, catalogue) for s in table.sources),
        comparison=_comparison(table),
        metrics=_metrics(table, tf),
        settings=tuple(s.name for s in table.columns.settings),
        counts_text=counts,
        models=tuple(_model_view(m, catalogue) for m in tf.models),
        tasks=tuple(LabelView(t.label, link_to(catalogue, t.record_id), "") for t in tf.tasks),
        unmapped_models=tf.unmapped_models,
        unmapped_tasks=tf.unmapped_tasks,
        row_pages=tuple(
            Link(f"Rows {p.start + 1:,} to {p.stop:,}", rows_path(table.id, p.number))
            for p in tf.pages
        ),
        download=Link("The rows as CSV", download_path(table.id)),
    )


def _cells(row: ResultTableRow) -> tuple[str, ...]:
    return (
        row.model,
        row.task,
        *row.settings,
        *("" if v is None else v.printed for v in row.values),
        row.locator,
    )


def rows_pages(table: ResultTable, catalogue: Catalogue, facts: SiteFacts) -> list[ResultRowsPage]:
    """Every page of a table's rows."""
    rows = catalogue.result_rows.of_table(table.id)
    pages = row_pages(len(rows))
    headings = (
        "Model (as the source names it)",
        "Task (as the source names it)",
        *(s.name for s in table.columns.settings),
        *(m.label for m in table.columns.metrics),
        "Where in the source",
    )
    made = []
    for page in pages:
        previous = (
            Link("Previous rows", rows_path(table.id, page.number - 1)) if page.number > 1 else None
        )
        following = (
            Link("Next rows", rows_path(table.id, page.number + 1))
            if page.number < len(pages)
            else None
        )
        made.append(
            ResultRowsPage(
                **page_header(
                    "result_rows.html",
                    rows_path(table.id, page.number),
                    f"{table.title}: rows {page.start + 1:,} to {page.stop:,}",
                    table.summary,
                    facts.release_id,
                ),
                table=Link(table.title, record_path("result_table", table.id)),
                headings=headings,
                rows=tuple(_cells(r) for r in rows[page.start : page.stop]),
                range_text=f"Rows {page.start + 1:,} to {page.stop:,} of {len(rows):,}",
                previous=previous,
                next=following,
                download=Link("The whole table as CSV", download_path(table.id)),
                lines=tuple(r.line for r in rows[page.start : page.stop]),
            )
        )
    return made


__all__ = [
    "ResultRowsPage",
    "ResultTablePage",
    "download_path",
    "row_anchor",
    "rows_pages",
    "rows_path",
    "table_page",
]
