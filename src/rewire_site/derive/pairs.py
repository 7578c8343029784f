"""The pairs a reproduction verdict judges: a published value and one measurement of the
same column (`ReproductionPair`), as a row of its reproduction group (`ReproductionRow`).
`verdicts.judge_column` reads them; `reproduction` builds them; `render.reproduction`
puts them in words."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from .agreement import Agreement
from .concerns import Flag


@dataclass(frozen=True)
class Estimate:
    """An analytical estimate recorded beside a measured value."""

    label: str
    value: float
    method: str


@dataclass(frozen=True)
class ReproductionPair:
    """One column reported by both the published evaluation and the measurement."""

    column_id: str
    column_label: str
    unit: str
    published_value: float | None
    """On the column metric's own scale (what the ratio compares)."""
    published_recorded: float | None
    """The published value as recorded (on the scale its source printed)."""
    published_status: str
    """The published result's recorded status ('value', 'out_of_memory', ...)."""
    published_printed: str | None
    published_on_metric_scale: bool
    """True: the source printed the value on the metric's own scale (no conversion)."""
    published_locator: str | None
    """Where the source prints the published value (its citation's locator)."""
    measured_status: Literal["value", "out_of_memory", "incomplete"]
    measured_value: float | None
    measured_result_status: str
    """The measured result's recorded status."""
    agreement: Agreement
    estimates: tuple[Estimate, ...]


@dataclass(frozen=True)
class Differences:
    """Stated differences of a measurement from the published run it reproduces."""

    settings: tuple[tuple[str, str], ...]
    """The recipe's setup settings the measurement's configuration states (the source
    leaves them open), in the recipe's order."""
    ran_on: tuple[str, ...] = ()
    """The measurement's accelerator classes, sorted, where they differ from the
    published run's; empty otherwise."""
    gpu_count: int | None = None
    """How many accelerators the measurement used (with `ran_on`)."""
    published_on: tuple[str, ...] = ()
    """The published run's accelerator classes, sorted (with `ran_on`; empty: not
    stated)."""


@dataclass(frozen=True)
class ReproductionRow:
    """One measurement's reproduction of one published column."""

    measured_evaluation_id: str
    measured_title: str
    differences: Differences
    pair: ReproductionPair
    excluded: bool
    flags: tuple[Flag, ...]
    """The measurement's flags that concern this column."""
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
