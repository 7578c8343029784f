"""One verdict per published value: whether the measurements reproduce it, judged once.

A published value is judged by one measurement, chosen by a rule stated before looking at
the values, never by whichever measured setting comes closest:

- declared reading: the protocol's recipe declares one reading of the settings the source
  leaves unstated (`Recipe.declared_reading`); the value is judged by the newest run under
  exactly those settings. A measured setting outside the reading that happens to agree is a
  match found after the fact, counted as such ('matched by 1 of 13 settings'), never
  'reproduced';
- one setting: a single measured setting is the reading;
- every setting: without a declared reading, several measured settings reproduce the
  value only if every one agrees and refute it only if none does; otherwise the verdict
  depends on the setting.

The pair verdicts come from `agreement.agreement` (tolerance, the published value's shape
and an ambiguous GB unit). `ColumnVerdict` is computed once per published column in
`reproduction._column`, and every page and export reads it from there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from ..models.evaluation import Result
from .agreement import Agreement
from .pairs import ReproductionRow

VerdictState = Literal[
    "reproduced",
    "not_reproduced",
    "depends_on_unit",
    "depends_on_setting",
    "not_judged",
    "incomplete",
]
Rule = Literal["declared_reading", "one_setting", "every_setting"]

_PAIR_STATES: dict[str, VerdictState] = {
    "agrees": "reproduced",
    "disagrees": "not_reproduced",
    "depends_on_unit": "depends_on_unit",
    "no_tolerance": "not_judged",
    "not_comparable": "not_judged",
}


@dataclass(frozen=True)
class ColumnVerdict:
    """The verdict on one published value and what it rests on."""

    state: VerdictState
    rule: Rule
    reading: tuple[tuple[str, str], ...]
    """The declared reading (setup key, value), in the recipe's order; empty without one."""
    judged_id: str | None
    """The measurement the verdict reads (the newest run under the rule), or None."""
    agreement: Agreement | None
    """That measurement's agreement with the published value."""
    matched: int
    """Measured settings with a value that agree with the published value, whatever the
    reading (a count of matches, not a verdict)."""
    with_value: int
    """Measured settings with a value."""
    outside: int = 0
    """Measured settings with a value outside the declared reading (0 without one)."""
    outside_matched: int = 0
    """Of those, the ones that agree: matches found after the fact, never a reproduction."""
    outside_one_unit: int = 0
    """Of those, the ones that agree under one reading of an ambiguous GB only."""

    @property
    def reproduced(self) -> bool:
        return self.state == "reproduced"


def matches_reading(settings: Mapping[str, str], reading: Sequence[tuple[str, str]]) -> bool:
    """True when `settings` hold every value of the declared `reading`."""
    return all(settings.get(key) == value for key, value in reading)


def _newest(rows: Sequence[ReproductionRow]) -> ReproductionRow:
    """The newest run (by its recorded start; runs without one count as oldest), then the
    last id: the rule that picks the run a verdict reads, stated before any value."""
    oldest = datetime.min.replace(tzinfo=None)

    def key(row: ReproductionRow) -> tuple[datetime, str]:
        started = row.started_at.replace(tzinfo=None) if row.started_at else oldest
        return started, row.measured_evaluation_id

    return max(rows, key=key)


def judge_column(
    rows: Sequence[ReproductionRow], reading: Sequence[tuple[str, str]]
) -> ColumnVerdict:
    """The verdict on one published value from the rows of its measurements."""
    found = _judge(rows, reading)
    if found.rule != "declared_reading":
        return found
    outside = [
        r.pair.agreement.state
        for r in rows
        if r.pair.measured_value is not None and not matches_reading(dict(r.settings), reading)
    ]
    return replace(
        found,
        outside=len(outside),
        outside_matched=outside.count("agrees"),
        outside_one_unit=outside.count("depends_on_unit"),
    )


def _judge(rows: Sequence[ReproductionRow], reading: Sequence[tuple[str, str]]) -> ColumnVerdict:
    with_value = [r for r in rows if r.pair.measured_value is not None]
    matched = sum(r.pair.agreement.reproduced for r in with_value)
    declared = tuple(reading)
    if not with_value:
        return ColumnVerdict("incomplete", "every_setting", declared, None, None, 0, 0)
    if declared:
        under = [r for r in with_value if matches_reading(dict(r.settings), declared)]
        if not under:
            return ColumnVerdict(
                "not_judged", "declared_reading", declared, None, None, matched, len(with_value)
            )
        judged = _newest(under)
        state = _PAIR_STATES[judged.pair.agreement.state]
        return ColumnVerdict(
            state,
            "declared_reading",
            declared,
            judged.measured_evaluation_id,
            judged.pair.agreement,
            matched,
            len(with_value),
        )
    judged = _newest(with_value)
    if len(with_value) == 1:
        state = _PAIR_STATES[judged.pair.agreement.state]
        return ColumnVerdict(
            state,
            "one_setting",
            declared,
            judged.measured_evaluation_id,
            judged.pair.agreement,
            matched,
            1,
        )
    states = {_PAIR_STATES[r.pair.agreement.state] for r in with_value}
    if len(states) == 1:
        state = next(iter(states))
    elif "not_judged" in states:
        state = "not_judged"
    else:
        state = "depends_on_setting"
    return ColumnVerdict(
        state,
        "every_setting",
        declared,
        judged.measured_evaluation_id,
        judged.pair.agreement,
        matched,
        len(with_value),
    )


def agree_count(n: int) -> str:
    """'1 agrees', '2 agree', '0 agree'."""
    return f"{n} agrees" if n == 1 else f"{n} agree"


def reading_text(reading: Sequence[tuple[str, str]]) -> str:
    """'precision fp32-autocast, update full, length 1000nt' (keys in words)."""
    return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in reading)


def single_setting_text(
    columns: Sequence[tuple[str, Sequence[ReproductionRow]]],
) -> str:
    """Across several published values: whether one measured setting agrees with all of
    them ('No single measured setting agrees with all 4 published values (at most 1).')
    or '' for fewer than two values. `columns`: (column key, its rows)."""
    judged = [
        (key, rows)
        for key, rows in columns
        if any(r.pair.measured_value is not None and r.settings for r in rows)
    ]
    if len(judged) < 2 or not any(r.pair.agreement.reproduced for _, rows in judged for r in rows):
        return ""
    agreeing: dict[tuple[tuple[str, str], ...], set[str]] = {}
    for key, rows in judged:
        for row in rows:
            if row.pair.agreement.reproduced and row.settings:
                agreeing.setdefault(row.settings, set()).add(key)
    most = max((len(v) for v in agreeing.values()), default=0)
    if most == len(judged):
        setting = next(s for s, v in agreeing.items() if len(v) == most)
        return (
            f"One measured setting ({reading_text(setting)}) agrees with all "
            f"{len(judged)} published values."
        )
    return (
        f"No single measured setting agrees with all {len(judged)} published values "
        f"(at most {most})."
    )


__all__ = [
    "ColumnVerdict",
    "RequirementVerdict",
    "Rule",
    "VerdictState",
    "agree_count",
    "judge_column",
    "matches_reading",
    "reading_text",
    "requirement_text",
    "requirement_verdict",
    "single_setting_text",
]


CUDA_CONTEXT_GB = 0.5
"""Room for the CUDA context added to a measured peak before comparing it with a card's
memory (what the measurement records' notes state)."""

RequirementState = Literal["consistent", "contradicted", "not_judged"]


@dataclass(frozen=True)
class RequirementVerdict:
    """A requirement claim ('needs 8 A100s 80GB'), read as 'one step does not fit one
    card of that memory', against one measured result."""

    state: RequirementState
    column_label: str
    text: str


def requirement_verdict(
    card_gb: float,
    column_label: str,
    result: Result,
    unit: str,
    measured_card_gb: float | None = None,
) -> RequirementVerdict:
    """Out of memory on a card at least as large: consistent with the reading; a peak
    (reserved where recorded, else allocated, plus the CUDA context) within the card:
    contradicted; anything else: not judged."""
    card = f"{card_gb:g} GB"
    if result.status == "out_of_memory":
        if measured_card_gb is None or measured_card_gb < card_gb:
            return RequirementVerdict(
                "not_judged",
                column_label,
                f"{column_label}: not judged (out of memory on a card not known to be at "
                f"least {card})",
            )
        return RequirementVerdict(
            "consistent", column_label, f"{column_label}: consistent (out of memory)"
        )
    if result.status != "value" or result.value is None or unit.strip().lower() != "gigabyte":
        return RequirementVerdict("not_judged", column_label, f"{column_label}: not judged")
    reserved = next(
        (o.value for o in result.observations if o.name == "peak-reserved-memory"), None
    )
    peak = (reserved if reserved is not None else result.value) + CUDA_CONTEXT_GB
    what = "reserved" if reserved is not None else "allocated"
    if peak <= card_gb:
        return RequirementVerdict(
            "contradicted",
            column_label,
            f"{column_label}: contradicted ({peak:.1f} GB, peak {what} plus {CUDA_CONTEXT_GB:g} "
            f"GB for the CUDA context, fits one {card} card)",
        )
    return RequirementVerdict(
        "consistent",
        column_label,
        f"{column_label}: consistent ({peak:.1f} GB, peak {what} plus {CUDA_CONTEXT_GB:g} GB "
        f"for the CUDA context, exceeds one {card} card)",
    )


def requirement_text(card_gb: float, verdicts: Sequence[RequirementVerdict]) -> str:
    """'Against the requirement, read as "one training step does not fit one 80 GB card":
    no-checkpointing: consistent (out of memory); checkpointing: contradicted (...).'"""
    if not verdicts:
        return ""
    return (
        f"Against the requirement, read as “one training step does not fit one "
        f"{card_gb:g} GB card” (the only reading a single-GPU peak can test): "
        + "; ".join(v.text for v in verdicts)
        + "."
    )
