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


@dataclass(frozen=True)
class SettingAgreement:
    """Across several published values: how many one measured setting agrees with."""

    values: int
    """Published values with a measured setting (two or more)."""
    most: int
    """The most of them one measured setting agrees with."""
    setting: tuple[tuple[str, str], ...] | None
    """The setting that agrees with all of them; None when none does."""


def setting_agreement(
    columns: Sequence[tuple[str, Sequence[ReproductionRow]]],
) -> SettingAgreement | None:
    """Whether one measured setting agrees with every published value of `columns` ((column
    key, its rows)); None for fewer than two values with a measured setting, or when no
    setting agrees with any."""
    judged = [
        (key, rows)
        for key, rows in columns
        if any(r.pair.measured_value is not None and r.settings for r in rows)
    ]
    if len(judged) < 2 or not any(r.pair.agreement.reproduced for _, rows in judged for r in rows):
        return None
    agreeing: dict[tuple[tuple[str, str], ...], set[str]] = {}
    for key, rows in judged:
        for row in rows:
            if row.pair.agreement.reproduced and row.settings:
                agreeing.setdefault(row.settings, set()).add(key)
    most = max((len(v) for v in agreeing.values()), default=0)
    setting = (
        next(s for s, v in agreeing.items() if len(v) == most) if most == len(judged) else None
    )
    return SettingAgreement(len(judged), most, setting)


__all__ = [
    "ColumnVerdict",
    "RequirementVerdict",
    "Rule",
    "SettingAgreement",
    "VerdictState",
    "judge_column",
    "matches_reading",
    "requirement_verdict",
    "setting_agreement",
]


CUDA_CONTEXT_GB = 0.5
"""Room for the CUDA context added to a measured peak before comparing it with a card's
memory (what the measurement records' notes state)."""

RequirementState = Literal["consistent", "contradicted", "not_judged"]


RequirementReason = Literal["out_of_memory", "card_unknown", "no_value", "peak"]


@dataclass(frozen=True)
class RequirementVerdict:
    """A requirement claim ('needs 8 A100s 80GB'), read as 'one step does not fit one
    card of that memory', against one measured result."""

    state: RequirementState
    column_label: str
    reason: RequirementReason
    """What the verdict rests on: out of memory on a card at least as large
    ('out_of_memory'), out of memory on a card not known to be ('card_unknown'), no value
    in gigabytes ('no_value'), or the measured peak against the card ('peak')."""
    card_gb: float
    peak_gb: float | None = None
    """The measured peak plus the CUDA context (reason 'peak')."""
    peak_kind: Literal["reserved", "allocated"] | None = None
    """Which peak the result records (reason 'peak')."""


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
    if result.status == "out_of_memory":
        if measured_card_gb is None or measured_card_gb < card_gb:
            return RequirementVerdict("not_judged", column_label, "card_unknown", card_gb)
        return RequirementVerdict("consistent", column_label, "out_of_memory", card_gb)
    if result.status != "value" or result.value is None or unit.strip().lower() != "gigabyte":
        return RequirementVerdict("not_judged", column_label, "no_value", card_gb)
    reserved = next(
        (o.value for o in result.observations if o.name == "peak-reserved-memory"), None
    )
    peak = (reserved if reserved is not None else result.value) + CUDA_CONTEXT_GB
    kind: Literal["reserved", "allocated"] = "reserved" if reserved is not None else "allocated"
    state: RequirementState = "contradicted" if peak <= card_gb else "consistent"
    return RequirementVerdict(state, column_label, "peak", card_gb, peak, kind)
