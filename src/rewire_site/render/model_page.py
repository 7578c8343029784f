"""What a model family's page leads with (issue 25): the answer in a sentence, each
checkpoint's key facts (parameters, context in tokens and base pairs, tokeniser, licence,
release, compute and hardware, each cited or "not reported by the cited sources"), links
to compare it with the families it shares tasks with, then every result across tasks by
task family, protocol class and protocol (derive.model_results; no best marks)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..derive.model_compare import ModelPair
from ..derive.model_results import RESOURCES, ModelResult, TableResult, TaskFamilyResults
from .model_directory import (
    NOT_IN_SOURCES,
    CheckpointEntry,
    Cited,
    FamilyEntry,
    HardwareEntry,
)
from .model_facts import FactRow
from .models import (
    CheckpointRow,
    CiteLink,
    FactCell,
    checkpoint_row,
    qualifier_suffix,
    value_cell,
)
from .page import Link
from .present.labels import ORIGIN_LABELS
from .present.numbers import plural
from .present.task_families import TASK_FAMILY_LABELS as TASK_LABELS
from .present.values import result_value, scale_unit
from .urls import record_path

CLASS_LABELS: dict[str, str] = {
    "fine_tuned": "Fine-tuned",
    "parameter_efficient": "Parameter-efficient fine-tuning",
    "frozen_probe": "Frozen model with a trained probe",
    "zero_shot": "Zero-shot",
    "other": "Other or unstated adaptation",
}
"""Protocol classes (derive.model_results.ProtocolClass) in reader words."""

RELEASE_LABELS: dict[str, str] = {
    "released": "Released",
    "described_not_released": "Described, not released",
    "withdrawn": "Withdrawn",
}
"""Release states (models.family.ReleaseState) in reader words."""

UNKNOWN_LABELS: dict[str, str] = {
    "parameters": "parameters",
    "context_length_trained": "context in pre-training",
    "context_length_accepted": "longest input accepted",
    "tokeniser": "tokeniser",
    "training_compute": "pre-training compute",
    "batch_size_tokens": "batch size in tokens",
    "weights_licence": "licence",
    "release": "release state",
    "hardware_requirements": "hardware requirements",
}
"""Key facts by name, as the 'not reported' line lists them."""


@dataclass(frozen=True)
class CheckpointFacts:
    """One checkpoint's key facts on its family page."""

    row: CheckpointRow
    """Parameters, context, tokeniser and licence, as the model directory shows them."""
    release: FactCell
    """The cited release state, or where the checkpoint is published."""
    compute: FactCell
    """Pre-training compute and batch in tokens, as stated."""
    hardware: tuple[FactCell, ...]
    """Each hardware requirement a source states ('NVIDIA A100 for processing 1M
    tokens ...'), with its citation."""
    unknown: str
    """'Not reported by the cited sources: training compute, hardware requirements.'
    ('' when every key fact is stated)."""


@dataclass(frozen=True)
class FactLine:
    """One model fact of one checkpoint in "how we know"."""

    row: FactRow
    """The fact as render.model_facts gives it (value as printed, source, concerns)."""
    qualifiers: str
    """'upper bound', 'stated for all four NT-v1 models', or ''."""


def fact_lines(rows: tuple[FactRow, ...]) -> tuple[FactLine, ...]:
    return tuple(
        FactLine(r, qualifier_suffix(r.qualifiers, r.applies_to).strip(" ()")) for r in rows
    )


@dataclass(frozen=True)
class ResultLine:
    """One result of the family."""

    task: Link
    """The task (dataset) page."""
    configuration: str
    """The tested configuration's title (its page is one click from the value's)."""
    metric: str
    """'MCC (correlation, -1 to 1)'."""
    value: Link
    """The value as every page shows it, linking to its evaluation (its evidence)."""
    origin: str
    """'Independent paper', 'Rewire measurement', ..."""


@dataclass(frozen=True)
class TableLine:
    """One result of an imported result table (seeds aggregated)."""

    task: Link
    """The task's page ('' href: the source's task label maps to no task record)."""
    model: str
    """The source's model label, and 'checkpoint not pinned' when it is known only at
    family level."""
    settings: str
    """'learning rate 3e-5; layer 12' ('' when none)."""
    values: str
    """Each metric with its value as printed (one row), or its mean, sd and n over
    seeds: 'MCC 0.61; F1 0.70', 'MCC mean 0.61, sd 0.02, n 3'."""


@dataclass(frozen=True)
class ProtocolBlock:
    """The family's results under one protocol or table: listed, not ranked."""

    class_label: str
    """The protocol class ('Frozen model with a trained probe')."""
    protocol: Link
    """The protocol's page (its leaderboard and method)."""
    rows: tuple[ResultLine, ...]
    """By task, configuration, metric; empty for memory, time and throughput results,
    which the protocol's page shows."""
    caption: str
    """'72 results on 9 tasks, not ranked'."""
    table_lines: tuple[TableLine, ...] = ()
    """For an imported result table (then `protocol` links to the table's page and
    `rows` is empty): its rows of this family."""
    more: str = ""
    """'120 further results of this model under it are not listed here; every one is on
    the protocol's page.' when a block holds more than it shows (`BLOCK_LINES`, and
    `PAGE_LINES` over the page; '' otherwise)."""


@dataclass(frozen=True)
class TaskGroup:
    """The results of one task family (or of memory and speed)."""

    anchor: str
    """The section's id: 'results-promoters'."""
    label: str
    """'Promoters', 'Memory, time and throughput'."""
    summary: str
    """'72 results on 9 tasks under 1 protocol.'"""
    blocks: tuple[ProtocolBlock, ...]
    """By protocol class, then protocol title."""


def _cite_cell(c: Cited, text: str) -> FactCell:
    link = (
        CiteLink(", ".join(x for x in (c.short_citation, c.locator) if x), "")
        if c.source_id is None
        else CiteLink(
            ", ".join(x for x in (c.short_citation, c.locator) if x),
            record_path("source", c.source_id),
        )
    )
    return FactCell(text, "", False, link if c.source_id else None)


def hardware_cell(found: HardwareEntry) -> FactCell:
    """'8 × NVIDIA A100, 80 GB: pre-training or fine-tuning the 1M-token model'."""
    named = [
        x
        for x in (
            found.accelerator,
            f"{found.memory_gb:g} GB" if found.memory_gb is not None else "",
            found.precision,
            f"compute capability {found.compute_capability}" if found.compute_capability else "",
        )
        if x
    ]
    text = f"{', '.join(named)} for {found.use}" + qualifier_suffix(
        found.cited.qualifiers, found.cited.applies_to
    )
    cell = _cite_cell(found.cited, text)
    return FactCell(cell.text, f'As printed: "{found.cited.value}"', False, cell.cite)


def release_cell(entry: CheckpointEntry) -> FactCell:
    if entry.release is not None:
        cell = _cite_cell(entry.release.cited, RELEASE_LABELS[entry.release.state])
        return FactCell(cell.text, entry.release.note, False, cell.cite)
    if entry.url:
        return FactCell(
            "Published location recorded",
            "Release state not reported by the cited sources",
            False,
            None,
        )
    return FactCell(NOT_IN_SOURCES, "", True, None)


def compute_cell(entry: CheckpointEntry) -> FactCell:
    found = [
        (label, c)
        for label, c in (
            ("Compute", entry.training_compute),
            ("Batch", entry.batch_size_tokens),
        )
        if c is not None
    ]
    if not found:
        return FactCell(NOT_IN_SOURCES, "", True, None)
    cell = value_cell(found[0][1])
    text = "; ".join(f"{name}: {value_cell(c).text}" for name, c in found)
    return FactCell(text, cell.detail, False, cell.cite)


def checkpoint_facts(entry: CheckpointEntry, number: int) -> CheckpointFacts:
    unknown = [UNKNOWN_LABELS[k] for k in entry.missing if k in UNKNOWN_LABELS]
    return CheckpointFacts(
        row=checkpoint_row(entry, number),
        release=release_cell(entry),
        compute=compute_cell(entry),
        hardware=tuple(hardware_cell(h) for h in entry.hardware),
        unknown=f"{NOT_IN_SOURCES}: {', '.join(unknown)}." if unknown and entry.has_facts else "",
    )


def key_facts(entry: FamilyEntry | None) -> tuple[CheckpointFacts, ...]:
    if entry is None:
        return ()
    return tuple(checkpoint_facts(c, i + 1) for i, c in enumerate(entry.checkpoints))


def _line(r: ModelResult) -> ResultLine:
    shown = result_value(r.metric, r.result)
    return ResultLine(
        Link(r.dataset_title, record_path("dataset", r.dataset_id)),
        r.configuration_title,
        f"{r.column_label} ({scale_unit(r.metric)})",
        Link(shown.full, record_path("evaluation", r.evaluation_id)),
        ORIGIN_LABELS[r.origin],
    )


BLOCK_LINES = 60
"""Lines a block shows on the family page (the page stays under 1 MB as imports grow);
the rest are counted and are on the protocol's or the table's page, one click away."""


PAGE_LINES = 800
"""Lines all blocks of a family page show together: once they are shown, a further block
gives its count and the link only (every result stays one click away)."""


def _more(count: int, where: str, unit: str = "result", shown: int = BLOCK_LINES) -> str:
    if count <= shown:
        return ""
    rest = count - shown
    return (
        f"{plural(rest, f'further {unit}')} of this model under it {'is' if rest == 1 else 'are'} "
        f"not listed here; every one is on {where}."
    )


def table_value(r: TableResult) -> str:
    """'MCC 0.61' (one row, as printed) or 'MCC mean 0.61, sd 0.02, n 3' (over seeds)."""
    aggregate = r.aggregate
    if aggregate.n == 1:
        return f"{r.metric_label} {r.printed}"
    sd = "" if aggregate.sd is None else f", sd {aggregate.sd:.3g}"
    return f"{r.metric_label} mean {aggregate.mean:.4g}{sd}, n {aggregate.n}"


def _table_lines(results: tuple[TableResult, ...]) -> tuple[TableLine, ...]:
    """One line per task, model and settings, its metrics side by side."""
    grouped: dict[tuple[str, str, tuple[tuple[str, str], ...]], list[TableResult]] = {}
    for r in results:
        grouped.setdefault((r.dataset_title, r.model_label, r.settings), []).append(r)
    lines = []
    for members in grouped.values():
        r = members[0]
        lines.append(
            TableLine(
                Link(
                    r.dataset_title,
                    "" if r.dataset_id is None else record_path("dataset", r.dataset_id),
                ),
                r.model_label + ("" if r.checkpoint else " (checkpoint not pinned)"),
                "; ".join(f"{name} {value}" for name, value in r.settings),
                "; ".join(table_value(m) for m in members),
            )
        )
    return tuple(lines)


class _Budget:
    """Lines a page may still show (`PAGE_LINES`), at most `BLOCK_LINES` a block."""

    def __init__(self, total: int) -> None:
        self.left = total
        self.last = 0

    def take(self, wanted: int) -> int:
        self.last = max(0, min(wanted, BLOCK_LINES, self.left))
        self.left -= self.last
        return self.last


def task_groups(
    found: tuple[TaskFamilyResults, ...], page_lines: int = PAGE_LINES
) -> tuple[TaskGroup, ...]:
    """Every group's blocks; each shows up to `BLOCK_LINES` lines while the page's
    `page_lines` last, and counts the rest with a link to where they all are."""
    budget = _Budget(page_lines)
    groups = []
    for group in found:
        label = "Memory, time and throughput" if group.key == RESOURCES else TASK_LABELS[group.key]
        blocks = []
        protocols = 0
        for klass in group.classes:
            for table in klass.protocols:
                protocols += 1
                tasks = len({r.dataset_id for r in table.results})
                blocks.append(
                    ProtocolBlock(
                        CLASS_LABELS[klass.protocol_class],
                        Link(table.protocol_title, record_path("protocol", table.protocol_id)),
                        ()
                        if group.key == RESOURCES
                        else tuple(
                            _line(r) for r in table.results[: budget.take(len(table.results))]
                        ),
                        f"{plural(len(table.results), 'result')} on "
                        f"{plural(tasks, 'setup' if group.key == RESOURCES else 'task')}"
                        + (
                            ", shown on the protocol's page"
                            if group.key == RESOURCES
                            else ", not ranked"
                        ),
                        more=_more(len(table.results), "the protocol's page", shown=budget.last)
                        if group.key != RESOURCES
                        else "",
                    )
                )
            for found_table in klass.tables:
                protocols += 1
                tasks = len({r.dataset_id or r.task_label for r in found_table.results})
                lines = _table_lines(found_table.results)
                blocks.append(
                    ProtocolBlock(
                        CLASS_LABELS[klass.protocol_class],
                        Link(
                            found_table.table_title,
                            record_path("result_table", found_table.table_id),
                        ),
                        (),
                        f"{plural(len(found_table.results), 'result')} on "
                        f"{plural(tasks, 'task')} from an imported result table, not ranked; every "
                        "row with its place in the source on the table's page",
                        lines[: budget.take(len(lines))],
                        more=_more(len(lines), "the table's page", "line", shown=budget.last),
                    )
                )
        what = "setup" if group.key == RESOURCES else "task"
        groups.append(
            TaskGroup(
                f"results-{group.key.replace('_', '-')}",
                label,
                f"{plural(group.count, 'result')} on {plural(group.task_count, what)} under "
                f"{plural(protocols, 'protocol')}.",
                tuple(blocks),
            )
        )
    return tuple(groups)


def answer(name: str, entry: FamilyEntry | None, found: tuple[TaskFamilyResults, ...]) -> str:
    """The page's answer in a sentence or two, from the records."""
    checkpoints = entry.checkpoints if entry is not None else ()
    sized = [c for c in checkpoints if c.parameter_count is not None]
    text = f"{name}: {plural(len(checkpoints), 'checkpoint')} in the records"
    if len(sized) > 1 and sized[0].parameter_count != sized[-1].parameter_count:
        text += f", from {sized[0].parameters.value} to {sized[-1].parameters.value} parameters"
    elif sized:
        text += f", {sized[0].parameters.value} parameters"
    tasks = [g for g in found if g.key != RESOURCES]
    count = sum(g.count for g in tasks)
    text += (
        f". {plural(count, 'result')} on {plural(sum(g.task_count for g in tasks), 'task')} "
        f"in {plural(len(tasks), 'task family', 'task families')}"
        if tasks
        else ". No task result is recorded"
    )
    resources = sum(g.count for g in found if g.key == RESOURCES)
    if resources:
        text += f", and {plural(resources, 'memory, time or throughput result')}"
    return (
        text
        + ". Each protocol is its own table: results are listed, never ranked across protocols."
    )


def compare_links(
    family_id: str, pairs: tuple[ModelPair, ...], path_of: Callable[[ModelPair], str]
) -> tuple[Link, ...]:
    """Links to the compare pages of the family's pairs: 'DNABERT-2 (57 shared tasks)'."""
    out = []
    for pair in pairs:
        if family_id not in (pair.left_id, pair.right_id):
            continue
        other = pair.right_name if pair.left_id == family_id else pair.left_name
        out.append(
            Link(
                f"Compare with {other} ({plural(pair.task_count, 'shared task')})",
                path_of(pair),
            )
        )
    return tuple(out)
