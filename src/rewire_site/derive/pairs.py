"""The pairs a reproduction verdict judges: a published value and one measurement of the
same column (`ReproductionPair`), as a row of its reproduction group (`ReproductionRow`).
`verdicts.judge_column` reads them; `reproduction` builds them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from .agreement import Agreement


@dataclass(frozen=True)
class EstimateView:
    label: str
    value: float
    display: str
    method: str


@dataclass(frozen=True)
class ReproductionPair:
    """One column reported by both the published evaluation and the measurement."""

    column_id: str
    column_label: str
    header: str
    unit: str
    published_value: float | None
    published_display: str
    published_printed: str | None
    published_locator: str | None
    """Where the source prints the published value (its citation's locator)."""
    measured_status: Literal["value", "out_of_memory", "incomplete"]
    measured_value: float | None
    measured_display: str
    agreement: Agreement
    estimates: tuple[EstimateView, ...]
    ratio_display: str = ""
    """The ratio as the table shows it ('1.23×'; '' without one)."""
    verdict: str = ""
    """The agreement's short verdict ('agrees within ±10%', 'not judged')."""


@dataclass(frozen=True)
class ReproductionRow:
    """One measurement's reproduction of one published column."""

    measured_evaluation_id: str
    measured_title: str
    setup: str
    """'bf16 · full · 1000nt' (the recipe's setup settings) or the measurement's title;
    unique within its column (a repeated one gains the run's start time)."""
    differences: tuple[str, ...]
    """Stated differences from the published run: 'precision bf16', 'on H200 (published:
    H100)'."""
    pair: ReproductionPair
    excluded: bool
    flag_labels: tuple[str, ...]
    excluded_by: tuple[str, ...]
    distance: float | None
    """|ratio - 1|; None without a ratio."""
    rewire: bool = True
    """True for a Rewire measurement; False for a reported reproduction (a community
    reproduction, a maintainer statement)."""
    settings: tuple[tuple[str, str], ...] = ()
    """The recipe's setup keys and the values this measurement ran with (defaults
    applied), in the recipe's order; empty without setup keys."""
    started_at: datetime | None = None
    """When the run started (its environment), for the rule that picks the newest run."""
