"""Concern flags: those an editor recorded and those the builder finds. Facts only: each
flag's label and text are made by `display.flag_label` and `display.flag_text`.

Recorded concerns come from `Evaluation.concerns` (for example a source that contradicts
itself: its results stay visible and leave comparisons). Computed concerns:

- hardware differs: the accelerator the evaluation ran on (the measurement environment's
  GPU, else the configuration's normalised accelerator, else the evaluation's or the
  configuration's hardware text) is not among the accelerators the protocol names. It is a
  stated difference, not an exclusion: whether it matters is the protocol's declaration
  (`comparability.protocol_depends_on_hardware`), which the comparability guard applies;
- gigabyte ambiguous: a published value in gigabytes; this site's gigabyte is 1e9 bytes,
  and a source that prints 'GB' rarely says whether it means 1e9 or 2**30 bytes;
- unit unstated: a result has no unit;
- length unit unstated: the protocol is defined by a sequence length and neither the
  evaluation nor the configuration states whether it counts nucleotides or tokens
  (setting `length_unit`, or `length` with a unit such as '1000nt' or '512 tokens');
- reproduction disagrees: a Rewire measurement differs from the published value it
  reproduces by more than the protocol's `tolerance`; without a tolerance no agreement is
  computed, and a 'No tolerance set' flag says so;
- trivial result: a classifier's results no better than a trivial answer (always
  answering negative, always answering the majority class, a random ranking), by the
  rules of `trivial.trivial_results` on the row of results the evaluation belongs to; the
  results it concerns leave comparisons (no best mark, no win).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..link import Catalogue
from ..models import Configuration, Evaluation, Protocol
from ..models.common import Citation
from ..models.evaluation import ConcernKind, Origin
from .agreement import Agreement, agreement, published_reading
from .comparability import (
    accelerators,
    evaluation_hardware,
    hardware_blocks,
    length_defined,
    length_unit_stated,
    protocol_depends_on_hardware,
)
from .result_rows import Balance, class_balance, result_row
from .trivial import ACCURACY, AUC, F1, MCC, Trivial, metric_kind, trivial_results

GB_AMBIGUOUS = "gigabyte_ambiguous"
LENGTH_UNIT_KEY = "length_unit"
TOLERANCE_UNSET = "tolerance_unset"


@dataclass(frozen=True)
class RecordedConcern:
    """An editor's concern: its text is the record's own Markdown."""

    text: str
    citations: tuple[Citation, ...]


@dataclass(frozen=True)
class HardwareDiffers:
    protocol_id: str
    ran_on: tuple[str, ...]
    """Accelerator classes the evaluation ran on, sorted."""
    hardware_text: str | None
    """The hardware as the evaluation or configuration states it."""
    specified: tuple[str, ...]
    """Accelerator classes the protocol names, sorted."""


@dataclass(frozen=True)
class UnitUnstated:
    protocol_id: str
    evaluation_id: str
    column: str
    index: int
    """The result's position in the evaluation (its missing-metadata path)."""


@dataclass(frozen=True)
class LengthUnitUnstated:
    record_id: str | None
    """The evaluation or configuration that says why the length unit is missing."""


@dataclass(frozen=True)
class Disagrees:
    protocol_id: str
    column: str
    measured: float | None
    published: float | None
    agreement: Agreement


@dataclass(frozen=True)
class TrivialResult:
    finding: Trivial
    balance: Balance | None


@dataclass(frozen=True)
class Constant:
    """A computed concern whose text is the same everywhere (gigabyte ambiguous,
    tolerance unset)."""


FlagDetail = (
    RecordedConcern
    | HardwareDiffers
    | UnitUnstated
    | LengthUnitUnstated
    | Disagrees
    | TrivialResult
    | Constant
)


@dataclass(frozen=True)
class Flag:
    """One concern about an evaluation's results."""

    kind: str
    """ConcernKind value, 'length_unit_unstated', 'tolerance_unset',
    'gigabyte_ambiguous' or 'trivial_<kind>'."""
    recorded: bool
    """True: an editor recorded it; False: the builder computed it."""
    excludes_from_comparisons: bool
    """True: the affected results stay visible but leave comparisons and best in column."""
    columns: tuple[str, ...]
    """Result columns affected; empty means every result of the evaluation."""
    concern_id: str | None
    """The recorded concern's id; None for computed flags."""
    detail: FlagDetail
    """What was found (what its text says)."""

    def affects(self, column_id: str) -> bool:
        return not self.columns or column_id in self.columns


def _computed(
    kind: str, detail: FlagDetail, columns: tuple[str, ...] = (), excludes: bool = False
) -> Flag:
    return Flag(kind, False, excludes, columns, None, detail)


def _recorded(evaluation: Evaluation) -> list[Flag]:
    return [
        Flag(
            kind=concern.kind.value,
            recorded=True,
            excludes_from_comparisons=concern.excludes_from_comparisons,
            columns=(),
            concern_id=concern.id,
            detail=RecordedConcern(concern.text, tuple(concern.citations)),
        )
        for concern in evaluation.concerns
    ]


def _hardware(
    evaluation: Evaluation, protocol: Protocol, configuration: Configuration | None
) -> list[Flag]:
    if not protocol_depends_on_hardware(protocol):
        # Declared irrelevant: a stated difference (headlines and reproduction rows name
        # the accelerator; tables say the protocol's declaration once), not a concern.
        return []
    text = evaluation_hardware(evaluation, configuration)
    ran_on = accelerators(text)
    specified = accelerators(protocol.hardware)
    if not ran_on or not specified or ran_on <= specified:
        return []
    detail = HardwareDiffers(protocol.id, tuple(sorted(ran_on)), text, tuple(sorted(specified)))
    return [_computed(ConcernKind.hardware_differs.value, detail)]


def _gigabytes(evaluation: Evaluation, protocol: Protocol) -> list[Flag]:
    if evaluation.origin == Origin.rewire_measurement:
        return []
    columns = tuple(
        r.column
        for r in evaluation.results
        if r.value is not None
        and (r.unit or protocol.metric.unit).strip().lower() in ("gigabyte", "gigabytes", "gb")
    )
    if not columns:
        return []
    return [_computed(GB_AMBIGUOUS, Constant(), columns)]


def _units(evaluation: Evaluation, protocol: Protocol) -> list[Flag]:
    return [
        _computed(
            ConcernKind.unit_unstated.value,
            UnitUnstated(protocol.id, evaluation.id, result.column, i),
            (result.column,),
            excludes=True,
        )
        for i, result in enumerate(evaluation.results)
        if result.unit is None
    ]


def _length_unit(
    evaluation: Evaluation, protocol: Protocol, configuration: Configuration | None
) -> list[Flag]:
    if not length_defined(protocol, evaluation):
        return []
    settings = dict(configuration.settings if configuration is not None else {})
    settings.update(evaluation.settings)
    if length_unit_stated(settings):
        return []
    why = next(
        (
            record.id
            for record in (evaluation, configuration)
            if record is not None and f"settings.{LENGTH_UNIT_KEY}" in record.missing_metadata
        ),
        None,
    )
    return [_computed("length_unit_unstated", LengthUnitUnstated(why))]


def _reproduction(evaluation: Evaluation, protocol: Protocol, catalogue: Catalogue) -> list[Flag]:
    if evaluation.origin != Origin.rewire_measurement or evaluation.reproduces is None:
        return []
    published = catalogue.by_id.get(evaluation.reproduces)
    if not isinstance(published, Evaluation):
        return []
    if hardware_blocks(evaluation, published, protocol, catalogue) is not None:
        return []  # the hardware flag says why no agreement is judged
    by_column = {r.column: r for r in published.results}
    # An incomplete run claims no value: no tolerance would make it comparable.
    shared = [
        r.column for r in evaluation.results if r.column in by_column and r.status != "incomplete"
    ]
    if protocol.tolerance is None and shared:
        return [_computed(TOLERANCE_UNSET, Constant(), tuple(shared))]
    flags = []
    for result in evaluation.results:
        other = by_column.get(result.column)
        if other is None:
            continue
        shape, ambiguous = published_reading(published, other, protocol)
        found = agreement(
            result.value,
            other.value,
            protocol.tolerance,
            shape=shape,
            gigabyte_ambiguous=ambiguous,
        )
        if found.state != "disagrees":
            continue
        detail = Disagrees(protocol.id, result.column, result.value, other.value, found)
        flags.append(_computed(ConcernKind.reproduction_disagrees.value, detail, (result.column,)))
    return flags


def _trivial(evaluation: Evaluation, protocol: Protocol, catalogue: Catalogue) -> list[Flag]:
    metrics = [protocol.metric, *(c.metric for c in protocol.columns if c.metric is not None)]
    kinds = {metric_kind(m.id) for m in metrics}
    if not ({MCC, F1} <= kinds or kinds & {ACCURACY, AUC}):
        return []  # no rule reads the protocol's metrics
    if not any(r.value is not None for r in evaluation.results):
        return []
    row = result_row(evaluation, catalogue)
    balance = class_balance(evaluation, catalogue) if ACCURACY in row.columns.values() else None
    share = balance.majority if balance is not None else None
    out = []
    for finding in trivial_results(row.values, majority_share=share, higher_is_better=row.higher):
        columns = tuple(c for c, kind in row.columns.items() if kind in finding.metrics)
        if not columns:
            continue
        detail = TrivialResult(finding, balance)
        out.append(_computed(f"trivial_{finding.kind}", detail, columns, excludes=True))
    return out


def flags(evaluation: Evaluation, catalogue: Catalogue) -> tuple[Flag, ...]:
    """Recorded concerns first (in record order), then computed ones."""
    protocol = catalogue.get(evaluation.protocol, Protocol)
    found = catalogue.by_id.get(evaluation.configuration)
    configuration = found if isinstance(found, Configuration) else None
    return tuple(
        _recorded(evaluation)
        + _hardware(evaluation, protocol, configuration)
        + _units(evaluation, protocol)
        + _gigabytes(evaluation, protocol)
        + _length_unit(evaluation, protocol, configuration)
        + _reproduction(evaluation, protocol, catalogue)
        + _trivial(evaluation, protocol, catalogue)
    )


def flags_by_evaluation(
    catalogue: Catalogue, evaluations: Iterable[Evaluation] | None = None
) -> dict[str, tuple[Flag, ...]]:
    """Flags of every evaluation (or of `evaluations`), by evaluation id; compute once per
    build and pass to the table and row functions."""
    chosen = catalogue.of_kind(Evaluation) if evaluations is None else evaluations
    return {e.id: flags(e, catalogue) for e in chosen}


def excluded(found: Iterable[Flag], column_id: str) -> bool:
    """True when a flag takes the result in `column_id` out of comparisons."""
    return any(f.excludes_from_comparisons and f.affects(column_id) for f in found)
