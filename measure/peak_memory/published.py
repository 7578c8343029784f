"""The published evaluations a measurement reproduces, read from the catalogue."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rewire_site.config import RECORDS_DIR
from rewire_site.models import Configuration, Evaluation, Origin


@dataclass(frozen=True)
class Published:
    evaluation_id: str
    model_name: str
    column: str
    value: float | None
    printed_value: str | None


def published_values(root: Path, protocol_id: str) -> dict[tuple[str, str], Published]:
    """(reported model name, column) -> the published result of that protocol, for every
    evaluation under `root/records` that is not a Rewire measurement. Records that do not
    validate on their own are skipped (the catalogue check reports them)."""
    from rewire_site.validate import validate_paths

    folder = root / RECORDS_DIR
    if not folder.is_dir():
        return {}
    report = validate_paths([folder], root)
    records = report.records
    found: dict[tuple[str, str], Published] = {}
    for record in records.values():
        if not isinstance(record, Evaluation) or record.protocol != protocol_id:
            continue
        if record.origin == Origin.rewire_measurement:
            continue
        configuration = records.get(record.configuration)
        if not isinstance(configuration, Configuration):
            continue
        for result in record.results:
            key = (configuration.reported_name, result.column)
            found.setdefault(
                key,
                Published(
                    record.id,
                    configuration.reported_name,
                    result.column,
                    result.value,
                    result.printed_value,
                ),
            )
    return found
