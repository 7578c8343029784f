"""Why a field has no value, as a reader reads it."""

from __future__ import annotations

from dataclasses import dataclass

from ...models import RecordBase
from ...models.common import MissingReason
from .numbers import NOT_REPORTED

MISSING_LABELS: dict[MissingReason, str] = {
    MissingReason.unreported: "Not reported",
    MissingReason.inapplicable: "Not applicable",
    MissingReason.withheld: "Withheld",
    MissingReason.unknown: "Unknown",
    MissingReason.conflicting: "Sources conflict",
}
"""Short text shown in place of a missing value, by reason."""

MISSING_LONG_LABELS: dict[MissingReason, str] = {
    MissingReason.unreported: "Not reported by the source",
    MissingReason.inapplicable: "Not applicable",
    MissingReason.withheld: "Withheld by the source",
    MissingReason.unknown: "Not yet established by Rewire",
    MissingReason.conflicting: "Sources state different values",
}


@dataclass(frozen=True)
class MissingText:
    """Why a field has no value, as shown to a reader."""

    reason: str
    """MissingReason value ('unreported', ...), or 'unstated' when no reason is recorded."""
    label: str
    """Short text: 'Not reported', 'Not applicable', ..., 'Sources conflict: 28 or 30'."""
    long_label: str
    """Longer text: 'Not reported by the source', ..., 'Sources state different values:
    28 (Table 1) or 30 (Table 2)'."""
    note: str | None
    """The editor's note from `missing_metadata`, if any."""
    values: tuple[str, ...] = ()
    """For reason conflicting: each stated value as its source states it."""


def missing_text(record: RecordBase, path: str) -> MissingText:
    """The text for a null field at `path` (dotted field path) of `record`: every reason
    has a label (conflicting: the values the sources state, each with where it is
    stated)."""
    missing = record.missing_metadata.get(path)
    if missing is None:
        return MissingText("unstated", NOT_REPORTED, NOT_REPORTED, None)
    label, long_label = MISSING_LABELS[missing.reason], MISSING_LONG_LABELS[missing.reason]
    values = tuple(v.value for v in missing.values)
    if values:
        label = f"{label}: {' or '.join(values)}"
        long_label = f"{long_label}: " + " or ".join(
            f"{v.value} ({v.citation.locator})" for v in missing.values
        )
    return MissingText(missing.reason.value, label, long_label, missing.note, values)
