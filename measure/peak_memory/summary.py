"""The summary table of a run: measured peaks and step times beside the printed values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.table import Table

from measure.peak_memory.plan import Planned
from measure.peak_memory.published import Published, published_values


def read_log(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def gb(value: int | None) -> str:
    return "–" if value is None else f"{value / 1e9:.2f}"


def ratio(measured: int | None, published: Published | None) -> str:
    if measured is None or published is None or not published.value:
        return ""
    return f"{measured / 1e9 / published.value:.2f}"


def summary_rows(planned: list[Planned], root: Path, protocol: str) -> list[dict[str, str]]:
    """One row per planned item: model, stage, setting, tokens, status, peak allocated and
    reserved (GB), step time (ms), printed value and measured/printed ratio."""
    published = published_values(root, protocol) if planned else {}
    rows = []
    for p in planned:
        log = read_log(p.log_path) if p.plan.runnable else None
        status = (log or {}).get("status", "not run" if p.plan.runnable else "does not fit")
        memory = (log or {}).get("memory", {})
        step = (log or {}).get("step_time_median_s")
        match = published.get((p.item.model.architecture.name, p.item.stage.id))
        rows.append(
            {
                "model": p.item.model.architecture.name,
                "stage": p.item.stage.id,
                "setting": p.item.setting.id,
                "tokens": str(p.item.tokens or "–"),
                "status": str(status),
                "allocated": gb(memory.get("peak_allocated_bytes")) if status == "value" else "–",
                "reserved": gb(memory.get("peak_reserved_bytes")) if status == "value" else "–",
                "step_ms": f"{step * 1000:.0f}" if status == "value" and step else "–",
                "printed": match.printed_value or "" if match else "",
                "ratio": ratio(memory.get("peak_allocated_bytes"), match)
                if status == "value"
                else "",
            }
        )
    return rows


def summary_table(planned: list[Planned], root: Path, protocol: str) -> Table:
    table = Table(title="Peak GPU memory of a training step (GB = 1e9 bytes)")
    columns = (
        "model",
        "stage",
        "setting",
        "tokens",
        "status",
        "allocated",
        "reserved",
        "step_ms",
        "printed",
        "ratio",
    )
    for column in columns:
        table.add_column(column, justify="right" if column in columns[3:] else "left")
    for row in summary_rows(planned, root, protocol):
        table.add_row(*(row[c] for c in columns))
    return table
