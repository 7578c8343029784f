"""Page contexts of "Does it fit on my GPU?" (what `fits.html` receives as `page`) and of
the memory-curve section of a family page (`FamilyCurves`, shown by the partial
`_partials/_memory_curves.html`). Every field is derived from memory-curve records
(derive.fits); templates display them."""

from __future__ import annotations

from dataclasses import dataclass

from ..page import Link, Page
from .chart import LineChart


@dataclass(frozen=True)
class FitCell:
    """One answer for one GPU size: its text and the record behind it."""

    text: str
    """'512 tokens (1,000 tokens did not fit)', 'not measured', ... (answers.answer_text)."""
    href: str
    """The evaluation page of the point behind the answer, from the site root ('' when no
    record is behind it: not measured)."""
    state: str
    """'fits_all', 'fits_up_to', 'fits_none', 'undetermined' or 'not_measured' (a CSS
    class: fit-<state>)."""


@dataclass(frozen=True)
class FitPair:
    """What fits one GPU size, for one model and method."""

    length: FitCell
    """The longest measured length at the smallest batch."""
    long_batch: FitCell | None
    """The longest measured length at the largest batch (None when the method has points
    at one batch only)."""
    batch: FitCell
    """The largest measured batch at the typical length."""
    span: int = 1
    """GPU sizes (table columns) this answer covers: neighbouring sizes with the same two
    answers, resting on the same records, share one cell."""
    label: str = ""
    """The GPU sizes this answer covers, '24 GB' or '24 GB to 80 GB': the column name a
    phone shows above the cell when the table stacks into one card per model."""


@dataclass(frozen=True)
class FitRow:
    model: str
    """The model as its configurations name it, e.g. 'NT 2.5B'."""
    family: Link
    """The model's family page."""
    cells: tuple[FitPair, ...]
    """In the order of `MethodCurves.sizes`, one per run of neighbouring sizes with the
    same answers (their spans add up to the number of sizes)."""


@dataclass(frozen=True)
class PointCell:
    """One measured point in the table of points (the chart's text alternative)."""

    text: str
    """'23.41 (22.87)': reserved peak (allocated peak) in GB, 'out of memory', 'not
    determined' or '' (length not measured for this model)."""
    href: str
    """The point's evaluation page from the site root ('' for an empty cell)."""
    note: str
    """'measured 2 times, largest shown' or ''."""


@dataclass(frozen=True)
class PointRow:
    label: str
    """'NT 2.5B, batch 8'."""
    cells: tuple[PointCell, ...]
    """One per length in `MethodCurves.lengths`."""


@dataclass(frozen=True)
class MethodCurves:
    """One method: what fits each GPU size, the chart, and every point."""

    method: str
    """Method id as the records' columns name it: 'inference', 'peft' or 'full'."""
    label: str
    """'Full fine-tuning' (from the protocol's column labels)."""
    description: str
    """What the method runs, from the protocol's column description ('' if none)."""
    recipe: str
    """The recipe every answer of the table reads: its points' records' statement of what
    ran (comparison.adaptation)."""
    untested: str
    """For full fine-tuning while the common mixed-precision recipe has no point: that it
    is not measured and what its weights, gradients and AdamW states alone take per model;
    '' otherwise."""
    anchor: str
    """Element id of the method's heading (unique on the page)."""
    sizes: tuple[str, ...]
    """Column headers of the fit table: '16 GB', ..."""
    small_batch: int
    """The batch of the length answers (the smallest measured, 1)."""
    large_batch: int | None
    """The batch of the second length answers (the largest measured, 8), or None."""
    typical: str
    """The length of the batch answers: '512 tokens'."""
    rows: tuple[FitRow, ...]
    """One per model measured under any method (a model without a point under this
    method reads 'not measured')."""
    chart: LineChart | None
    """Memory against length (None without a drawable point)."""
    lengths: tuple[str, ...]
    """Column headers of the table of points: '64 tokens', ..."""
    points: tuple[PointRow, ...]
    """One per model and batch with a point under this method."""


@dataclass(frozen=True)
class CurveNotes:
    """What every answer rests on, derived from the records."""

    figure: str
    """Which memory figure is compared, how the records read it, and what it leaves out."""
    sizes: str
    """How a GPU size is compared (nominal size, GB of 10^9 bytes) and where the points
    were measured."""
    measurement: tuple[str, ...]
    """How the points were measured: each curve protocol's measurement text (Markdown)."""
    rules: str
    """How an answer is read from a curve (no interpolation, no extrapolation)."""
    lengths: str
    """That lengths are tokens of each model's tokeniser."""
    counts: str
    """'108 points of 4 models (3 out of memory), 3 methods, runs ...'."""
    limitations: tuple[str, ...]
    """The protocol's limitations, as recorded (Markdown)."""
    skipped: tuple[str, ...]
    """Evaluations under the protocol that are not readable curve points, with why."""


@dataclass(frozen=True)
class AnswerRow:
    """One model's answer for one GPU size and method."""

    model: str
    """The model as its configurations name it, e.g. 'NT 500M'."""
    family: Link
    """The model's family page."""
    bases: str
    """The longest input in base pairs ('5,994 bp'), 'tokens only; base pairs not
    stated' where the model's cited tokeniser gives no fixed ratio, or '' when nothing
    fits or nothing is measured."""
    length: FitCell
    """The longest measured input (tokens) at the method's smallest batch."""
    batch: FitCell
    """The largest measured batch at the typical length."""


@dataclass(frozen=True)
class AnswerTable:
    """The answers of one method for one GPU size: a narrow table (three columns)."""

    method: str
    """Method id as the records' columns name it ('full', 'full-mixed', ...)."""
    label: str
    """'Full fine-tuning' (from the protocol's column labels)."""
    batch: int
    """The batch of the length answers."""
    typical: str
    """The length of the batch answers ('512 tokens')."""
    rows: tuple[AnswerRow, ...]
    """One per model measured under any method (a model without a point under this
    method reads 'not measured')."""


@dataclass(frozen=True)
class SizeAnswers:
    """Every method's answers for one GPU memory size."""

    size_gb: int
    """The nominal size in GB (10^9 bytes)."""
    label: str
    """'24 GB'."""
    anchor: str
    """Element id of the size's heading ('gpu-24')."""
    tables: tuple[AnswerTable, ...]
    """In the order of `FitsPage.methods`, the common recipe of full fine-tuning first."""


@dataclass(frozen=True)
class EmbedCell:
    text: str
    """'about 8.3 minutes', 'not measured this long' or 'tokens only'."""
    href: str
    """The measured point's evaluation page ('' when there is no time)."""
    detail: str
    """Which point the time is read from, or why there is none."""
    state: str
    """time, too-long or no-ratio."""


@dataclass(frozen=True)
class EmbedRow:
    model: str
    """The measured model's name."""
    family_href: str
    """Its family's page ('' when the family record is absent)."""
    ratio: str
    """'6 base pairs per token' or 'base pairs per token not stated'."""
    cells: tuple[EmbedCell, ...]
    """One per length of EmbedAnswers.lengths."""
    fastest: str
    """The model's fastest measured point, in words."""


@dataclass(frozen=True)
class EmbedAnswers:
    """The answers to "How long to embed 1 million sequences?" (fits.embed)."""

    sequences: str
    """How many sequences, in words ('1 million')."""
    lengths: tuple[str, ...]
    """The columns: sequence lengths in base pairs."""
    rows: tuple[EmbedRow, ...]
    """One per measured model."""
    gpu: str
    """The GPU(s) the points name."""
    protocol_href: str
    """The throughput protocol's page."""


@dataclass(frozen=True)
class NotMeasuredItem:
    """A model the recipe could not measure: its family's page, its name, the reason."""

    family: Link
    """The model's family page."""
    model: str
    """The model as the protocol names it, e.g. 'Evo 2 1B'."""
    reason: str
    """Why it was not measured, as the protocol records it (Markdown)."""


@dataclass(frozen=True)
class FitsPage(Page):
    protocols: tuple[Link, ...]
    """The memory-curve protocols the points are measured under."""
    notes: CurveNotes
    """What the answers rest on."""
    methods: tuple[MethodCurves, ...]
    """Methods with at least one point, in the protocol's column order."""
    empty: str
    """'No memory-curve point is recorded yet ...' when there is none, else ''."""
    answers: tuple[SizeAnswers, ...] = ()
    """The answer tables, one group per GPU size (shown first)."""
    recipe_note: str = ""
    """Which full fine-tuning recipe the answers read first, and what is not measured."""
    bases_note: str = ""
    """How tokens convert to base pairs, per family, from cited tokeniser facts."""
    embed: EmbedAnswers | None = None
    """How long embedding 1 million sequences takes, per measured model (None: no point)."""
    not_measured: tuple[NotMeasuredItem, ...] = ()
    """Models the recipes could not measure, with the reason their protocols record."""


@dataclass(frozen=True)
class FamilyCurves:
    """The memory-curve section of a family page: the same answers and charts, for the
    family's models only."""

    fits_href: str
    """The "Does it fit on my GPU?" page, from the site root."""
    notes: CurveNotes
    """What the answers rest on (counts for this family's points)."""
    methods: tuple[MethodCurves, ...]
    """Empty when no model of the family has a point."""
    empty: str
    """'Not measured: ...' when the family has no point (with the reason a protocol records
    for a model of the family, where one does), else ''."""
    embed: EmbedAnswers | None = None
    """The family's embedding-time answers (None: no throughput point)."""
