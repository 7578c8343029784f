"""`rewire cross-source`: the figures issue 24's closing note asks for, as plain text:
every disagreement between sources larger than the stated spread, every conflict within
a source, the values per source, and per source the model and task labels that reach no
pinned checkpoint or task, with why (`derive.cross_source`, `derive.label_gaps`)."""

from __future__ import annotations

from ..derive.cross_source import READING, cross_source
from ..derive.label_gaps import LabelGap, label_gaps, source_counts
from ..link import Catalogue
from .chooser.pages import task_path
from .cross_source import rows_of
from .present.numbers import plural

_GAP_HEADINGS = {
    "model_unmapped": "models no record names (no family or checkpoint carries the label)",
    "model_family_only": "models known only at family level (checkpoint not pinned)",
    "task_unmapped": "tasks no dataset record names",
}


def _gap(gap: LabelGap) -> str:
    text = f"{gap.label} ({plural(gap.rows, 'row')})"
    if gap.kind == "model_family_only":
        text += f" -> {gap.record}" + (f": {gap.note}" if gap.note else ": no reason recorded")
    return text


def closing_note(catalogue: Catalogue) -> list[str]:
    """The note's lines."""
    overlaps = cross_source(catalogue)
    pairs, conflicts = rows_of(overlaps, catalogue, task_path)
    beyond = [r for r in pairs if r.state == "disagrees"]
    lines = [
        f"Cross-source disagreements larger than the stated spread: {len(beyond)} of "
        f"{plural(len(pairs), 'pair')} ({plural(len(overlaps), 'checkpoint-task-metric key')}"
        " reported by two or more sources under one protocol class).",
        f"Rule: {READING}",
    ]
    for r in beyond:
        lines.append(
            f"- {r.task.text} | {r.checkpoint} | {r.metric} | {r.protocol_class}: "
            f"{r.first.source} ({r.first.label}) {r.first.value} vs {r.second.source} "
            f"({r.second.label}) {r.second.value}; difference {r.difference}, stated spread "
            f"and rounding {r.allowed}"
        )
    others = {s: sum(r.state == s for r in pairs) for s in ("within_spread", "spread_not_stated")}
    lines.append(
        f"Within the stated spread: {others['within_spread']}; not judged (spread not "
        f"stated): {others['spread_not_stated']}."
    )
    lines.append(f"Conflicts within one source: {len(conflicts)}.")
    for r in conflicts:
        lines.append(
            f"- {r.task.text} | {r.checkpoint} | {r.metric}: {r.first.source} gives "
            f"{r.first.value} ({r.first.label}) and {r.second.value} ({r.second.label})"
        )
    lines.append("Values per source (result tables):")
    for counts in source_counts(catalogue):
        lines.append(
            f"- {counts.source}: {plural(len(counts.tables), 'table')}, "
            f"{plural(counts.rows, 'row')}, {plural(counts.values, 'value')}"
        )
    lines.append("Labels not mapped, per source:")
    gaps = label_gaps(catalogue)
    for counts in source_counts(catalogue):
        mine = [g for g in gaps if g.source == counts.source]
        if not mine:
            lines.append(
                f"- {counts.source}: every model label pins a checkpoint, every task a dataset"
            )
            continue
        for kind, heading in _GAP_HEADINGS.items():
            found = [g for g in mine if g.kind == kind]
            if found:
                lines.append(f"- {counts.source}, {heading}: " + "; ".join(_gap(g) for g in found))
    return lines


__all__ = ["closing_note"]
