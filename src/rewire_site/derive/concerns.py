"""Concern flags: those an editor recorded and those the builder finds.

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
from ..models.evaluation import ConcernKind, Origin
from .agreement import agreement, published_reading
from .comparability import (
    accelerators,
    evaluation_hardware,
    hardware_blocks,
    length_defined,
    length_unit_stated,
    protocol_depends_on_hardware,
)
from .display import (
    CitationView,
    agreement_text,
    cite,
    display_number,
    metric_dependence,
    missing_text,
    ratio_text,
    result_header,
)
from .result_rows import Balance, class_balance, result_row
from .trivial import (
    ACCURACY,
    AUC,
    CHANCE_AUC,
    F1,
    MCC,
    NEAR_ZERO,
    Trivial,
    metric_kind,
    trivial_results,
)

FLAG_LABELS: dict[str, str] = {
    "source_conflict": "Evidence concern",
    "other": "Evidence concern",
    "conflicting_values": "Sources state different values",
    "metric_mislabelled": "Metric mislabelled by the source",
    "moving_reference": "Source cited at a moving reference",
    "secondary_quotation": "Quoted from another source",
    "unsynchronised_timer": "Timer not synchronised with the GPU",
    "checkpoint_unclear": "Checkpoint unclear",
    "dataset_unclear": "Dataset or task unclear",
    "hardware_differs": "Hardware differs from the protocol",
    "unit_unstated": "Unit not stated",
    "reproduction_disagrees": "Reproduction differs from the published value",
}
"""Concern kind -> the label a cell and a legend show (any kind not listed: 'Evidence
concern')."""
LENGTH_UNIT_LABEL = "Length unit not stated"
GB_AMBIGUOUS = "gigabyte_ambiguous"
GB_AMBIGUOUS_LABEL = "GB or GiB not stated"
GIB_RATIO = 2**30 / 1e9
LENGTH_UNIT_KEY = "length_unit"
TOLERANCE_UNSET = "tolerance_unset"
TOLERANCE_UNSET_LABEL = "No tolerance set"
TRIVIAL_LABELS: dict[str, str] = {
    "trivial_answers_negative": "No better than always answering negative",
    "trivial_majority_class": "No better than always answering the majority class",
    "trivial_chance_ranking": "No better than a random ranking",
}
"""Computed trivial-result concern kind -> its label."""
NEAR_NEGATIVE_LABEL = "Practically no better than always answering negative"
"""The label of 'answers negative' where MCC and F1 are near 0, not exactly 0."""
TRIVIAL_LEGENDS: dict[str, str] = {
    "trivial_answers_negative": f"MCC and F1 both within {NEAR_ZERO:g} of 0 in the same row, "
    "the scores of a classifier that never answers positive: its yes or no answers are "
    "practically no better than always answering negative, so the results that depend on "
    "them leave comparisons (an AUC, which scores a ranking, stays). The evaluation page "
    "gives the values.",
    "trivial_majority_class": "Accuracy at or below the majority class's share of the "
    "data, which always answering the majority class scores; the result leaves "
    "comparisons. The evaluation page gives the values.",
    "trivial_chance_ranking": f"AUC at or below {CHANCE_AUC:g}, the AUC of a random "
    "ranking; the result leaves comparisons. The evaluation page gives the value.",
}
"""The same explanation for every result a trivial-result concern names (table legends)."""


@dataclass(frozen=True)
class Flag:
    """One concern about an evaluation's results."""

    kind: str
    """ConcernKind value, 'length_unit_unstated' or 'tolerance_unset'."""
    label: str
    """Heading, e.g. 'Evidence concern', 'Hardware differs from the protocol'."""
    text: str
    """What is wrong (Markdown for recorded concerns, plain text for computed ones)."""
    recorded: bool
    """True: an editor recorded it; False: the builder computed it."""
    excludes_from_comparisons: bool
    """True: the affected results stay visible but leave comparisons and best in column."""
    columns: tuple[str, ...]
    """Result columns affected; empty means every result of the evaluation."""
    citations: tuple[CitationView, ...]
    """Where the conflicting statements are (recorded concerns)."""
    concern_id: str | None
    """The recorded concern's id; None for computed flags."""

    def affects(self, column_id: str) -> bool:
        return not self.columns or column_id in self.columns


def _recorded(evaluation: Evaluation, catalogue: Catalogue) -> list[Flag]:
    return [
        Flag(
            kind=concern.kind.value,
            label=FLAG_LABELS.get(concern.kind.value, "Evidence concern"),
            text=concern.text,
            recorded=True,
            excludes_from_comparisons=concern.excludes_from_comparisons,
            columns=(),
            citations=tuple(cite(c, catalogue) for c in concern.citations),
            concern_id=concern.id,
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
    if protocol_depends_on_hardware(protocol):
        weight = (
            f"The protocol declares that {metric_dependence(protocol, True, lower=True)}, "
            "so these results are ranked only against results on the same "
            "accelerator class, and no agreement with a value measured on other hardware is "
            "judged."
        )
    else:
        weight = (
            f"The protocol declares that {metric_dependence(protocol, False, lower=True)}, "
            "so this is a stated difference, not a reason to leave "
            "comparisons."
        )
    return [
        Flag(
            kind=ConcernKind.hardware_differs.value,
            label=FLAG_LABELS["hardware_differs"],
            text=f"Ran on {', '.join(sorted(ran_on))} ({text}); the protocol specifies "
            f"{', '.join(sorted(specified))} ({protocol.hardware}). {weight}",
            recorded=False,
            excludes_from_comparisons=False,
            columns=(),
            citations=(),
            concern_id=None,
        )
    ]


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
    return [
        Flag(
            kind=GB_AMBIGUOUS,
            label=GB_AMBIGUOUS_LABEL,
            text="On this site a gigabyte (GB) is 10^9 bytes. The source prints 'GB' without "
            "saying whether it means 10^9 bytes or 2^30 bytes (GiB); read as GiB, each "
            f"published value is {GIB_RATIO:.3f} times as many bytes, and a ratio to it "
            f"{1 / GIB_RATIO:.3f} times the ratio shown. A reproduction agrees only if it "
            "agrees under both readings; where only one is within the tolerance, its "
            "verdict says it depends on the unit.",
            recorded=False,
            excludes_from_comparisons=False,
            columns=columns,
            citations=(),
            concern_id=None,
        )
    ]


def _units(evaluation: Evaluation, protocol: Protocol) -> list[Flag]:
    flags = []
    for i, result in enumerate(evaluation.results):
        if result.unit is not None:
            continue
        why = missing_text(evaluation, f"results.{i}.unit")
        note = f" ({why.long_label}{': ' + why.note if why.note else ''})"
        header = result_header(protocol, result.column)
        flags.append(
            Flag(
                kind=ConcernKind.unit_unstated.value,
                label=FLAG_LABELS["unit_unstated"],
                text=f"The unit of the {header} result is not stated{note}. A value of "
                "unknown unit leaves comparisons.",
                recorded=False,
                excludes_from_comparisons=True,
                columns=(result.column,),
                citations=(),
                concern_id=None,
            )
        )
    return flags


def _length_unit(
    evaluation: Evaluation, protocol: Protocol, configuration: Configuration | None
) -> list[Flag]:
    if not length_defined(protocol, evaluation):
        return []
    settings = dict(configuration.settings if configuration is not None else {})
    settings.update(evaluation.settings)
    if length_unit_stated(settings):
        return []
    note = ""
    for record in (evaluation, configuration):
        if record is not None and f"settings.{LENGTH_UNIT_KEY}" in record.missing_metadata:
            why = missing_text(record, f"settings.{LENGTH_UNIT_KEY}")
            note = f" ({why.long_label}{': ' + why.note if why.note else ''})"
            break
    return [
        Flag(
            kind="length_unit_unstated",
            label=LENGTH_UNIT_LABEL,
            text="The protocol fixes a sequence length, but whether it counts nucleotides "
            f"or tokens is not stated{note}. Models with different tokenisers then see "
            "different numbers of tokens.",
            recorded=False,
            excludes_from_comparisons=False,
            columns=(),
            citations=(),
            concern_id=None,
        )
    ]


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
        return [
            Flag(
                kind=TOLERANCE_UNSET,
                label=TOLERANCE_UNSET_LABEL,
                text="This measurement reproduces a published evaluation, but the protocol "
                "sets no tolerance, so no agreement with the published values is computed.",
                recorded=False,
                excludes_from_comparisons=False,
                columns=tuple(shared),
                citations=(),
                concern_id=None,
            )
        ]
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
        header = result_header(protocol, result.column)
        flags.append(
            Flag(
                kind=ConcernKind.reproduction_disagrees.value,
                label=FLAG_LABELS["reproduction_disagrees"],
                text=f"{header}: measured {result.value:g}, published {other.value:g} "
                f"(ratio {ratio_text(found)}). {agreement_text(found)}",
                recorded=False,
                excludes_from_comparisons=False,
                columns=(result.column,),
                citations=(),
                concern_id=None,
            )
        )
    return flags


def _trivial_text(finding: Trivial, balance: Balance | None = None) -> str:
    names = {"mcc": "MCC", "f1": "F1", "accuracy": "accuracy", "auc": "AUC"}
    if finding.kind == "answers_negative":
        shown = ", ".join(f"{names[k]} {display_number(v, 2)}" for k, v in finding.evidence)
        if finding.exact:
            return (
                f"No better than always answering negative: {shown} in the same row, exactly "
                "what a classifier that never answers positive scores. The results that "
                "depend on its yes or no answers leave comparisons."
            )
        return (
            f"Practically no better than always answering negative: {shown} in the same row, "
            f"both within {NEAR_ZERO:g} of the 0 that always answering negative scores. The "
            "results that depend on its yes or no answers leave comparisons."
        )
    (kind, value), *_ = finding.evidence
    baseline = finding.baseline if finding.baseline is not None else 0.0
    if finding.kind == "majority_class":
        shown = (
            f", as {balance.shown_by} shows: it never answers positive (MCC 0, F1 0), so "
            "its accuracy is the share of negatives"
            if balance is not None
            else ""
        )
        return (
            f"No better than always answering the majority class: accuracy "
            f"{display_number(value, 4)}, at or below the majority class's share of the test "
            f"data ({display_number(baseline, 4)}{shown}). It leaves comparisons."
        )
    return (
        f"No better than a random ranking: {names[kind]} {display_number(value, 3)}, at or "
        f"below the {baseline:g} of a random ranking. It leaves comparisons."
    )


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
        kind = f"trivial_{finding.kind}"
        out.append(
            Flag(
                kind=kind,
                label=NEAR_NEGATIVE_LABEL
                if finding.kind == "answers_negative" and not finding.exact
                else TRIVIAL_LABELS[kind],
                text=_trivial_text(finding, balance),
                recorded=False,
                excludes_from_comparisons=True,
                columns=columns,
                citations=(),
                concern_id=None,
            )
        )
    return out


def flags(evaluation: Evaluation, catalogue: Catalogue) -> tuple[Flag, ...]:
    """Recorded concerns first (in record order), then computed ones."""
    protocol = catalogue.get(evaluation.protocol, Protocol)
    found = catalogue.by_id.get(evaluation.configuration)
    configuration = found if isinstance(found, Configuration) else None
    return tuple(
        _recorded(evaluation, catalogue)
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
