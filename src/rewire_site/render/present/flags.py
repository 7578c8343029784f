"""Concern flags as a page shows them: each kind's label, what it says is wrong, and the
explanation a table legend gives once (`derive.concerns` computes the flags)."""

from __future__ import annotations

from dataclasses import dataclass

from ...derive.agreement import GIB_RATIO
from ...derive.concerns import (
    Constant,
    Disagrees,
    Flag,
    HardwareDiffers,
    LengthUnitUnstated,
    RecordedConcern,
    TrivialResult,
    UnitUnstated,
)
from ...derive.trivial import CHANCE_AUC, NEAR_ZERO
from ...link import Catalogue
from ...models import Protocol, RecordBase
from .agreement import agreement_text, ratio_text
from .citations import CitationView, cite
from .metrics import metric_dependence, result_header
from .missing import missing_text
from .numbers import display_number

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
    "length_unit_unstated": "Length unit not stated",
    "gigabyte_ambiguous": "GB or GiB not stated",
    "tolerance_unset": "No tolerance set",
    "trivial_answers_negative": "No better than always answering negative",
    "trivial_majority_class": "No better than always answering the majority class",
    "trivial_chance_ranking": "No better than a random ranking",
}
"""Concern kind -> the label a cell and a legend show (any kind not listed: 'Evidence
concern')."""
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
CONSTANT_FLAG_TEXTS: dict[str, str] = {
    "gigabyte_ambiguous": "On this site a gigabyte (GB) is 10^9 bytes. The source prints "
    "'GB' without saying whether it means 10^9 bytes or 2^30 bytes (GiB); read as GiB, each "
    f"published value is {GIB_RATIO:.3f} times as many bytes, and a ratio to it "
    f"{1 / GIB_RATIO:.3f} times the ratio shown. A reproduction agrees only if it "
    "agrees under both readings; where only one is within the tolerance, its "
    "verdict says it depends on the unit.",
    "tolerance_unset": "This measurement reproduces a published evaluation, but the "
    "protocol sets no tolerance, so no agreement with the published values is computed.",
}


@dataclass(frozen=True)
class FlagView:
    """One concern as a page shows it."""

    kind: str
    """The concern's kind ('hardware_differs', 'trivial_majority_class', ...)."""
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


def flag_label(flag: Flag) -> str:
    detail = flag.detail
    if isinstance(detail, TrivialResult) and detail.finding.kind == "answers_negative":
        return FLAG_LABELS[flag.kind] if detail.finding.exact else NEAR_NEGATIVE_LABEL
    return FLAG_LABELS.get(flag.kind, "Evidence concern")


def _missing_note(record: RecordBase, path: str) -> str:
    why = missing_text(record, path)
    return f" ({why.long_label}{': ' + why.note if why.note else ''})"


def _hardware_text(found: HardwareDiffers, protocol: Protocol) -> str:
    return (
        f"Ran on {', '.join(found.ran_on)} ({found.hardware_text}); the protocol specifies "
        f"{', '.join(found.specified)} ({protocol.hardware}). The protocol declares that "
        f"{metric_dependence(protocol, True, lower=True)}, so these results are ranked only "
        "against results on the same accelerator class, and no agreement with a value "
        "measured on other hardware is judged."
    )


def _trivial_text(finding: TrivialResult) -> str:
    trivial, balance = finding.finding, finding.balance
    names = {"mcc": "MCC", "f1": "F1", "accuracy": "accuracy", "auc": "AUC"}
    if trivial.kind == "answers_negative":
        shown = ", ".join(f"{names[k]} {display_number(v, 2)}" for k, v in trivial.evidence)
        if trivial.exact:
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
    (kind, value), *_ = trivial.evidence
    baseline = trivial.baseline if trivial.baseline is not None else 0.0
    if trivial.kind == "majority_class":
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


def flag_text(flag: Flag, catalogue: Catalogue) -> str:
    """What the flag says is wrong (Markdown for recorded concerns)."""
    detail = flag.detail
    if isinstance(detail, RecordedConcern):
        return detail.text
    if isinstance(detail, TrivialResult):
        return _trivial_text(detail)
    if isinstance(detail, Constant):
        return CONSTANT_FLAG_TEXTS[flag.kind]
    if isinstance(detail, LengthUnitUnstated):
        note = (
            ""
            if detail.record_id is None
            else _missing_note(catalogue.by_id[detail.record_id], "settings.length_unit")
        )
        return (
            "The protocol fixes a sequence length, but whether it counts nucleotides "
            f"or tokens is not stated{note}. Models with different tokenisers then see "
            "different numbers of tokens."
        )
    protocol = catalogue.get(detail.protocol_id, Protocol)
    if isinstance(detail, HardwareDiffers):
        return _hardware_text(detail, protocol)
    header = result_header(protocol, detail.column)
    if isinstance(detail, UnitUnstated):
        note = _missing_note(catalogue.by_id[detail.evaluation_id], f"results.{detail.index}.unit")
        return (
            f"The unit of the {header} result is not stated{note}. A value of "
            "unknown unit leaves comparisons."
        )
    assert isinstance(detail, Disagrees)
    return (
        f"{header}: measured {detail.measured:g}, published {detail.published:g} "
        f"(ratio {ratio_text(detail.agreement)}). {agreement_text(detail.agreement, protocol)}"
    )


def flag_view(flag: Flag, catalogue: Catalogue) -> FlagView:
    detail = flag.detail
    citations = (
        tuple(cite(c, catalogue) for c in detail.citations)
        if isinstance(detail, RecordedConcern)
        else ()
    )
    return FlagView(
        flag.kind,
        flag_label(flag),
        flag_text(flag, catalogue),
        flag.recorded,
        flag.excludes_from_comparisons,
        flag.columns,
        citations,
        flag.concern_id,
    )


def fixed_legend(kind: str, recorded: bool) -> str:
    """A flag's explanation for a table legend where it is not the flag's own text: a
    trivial result's shared explanation, or a pointer to the evaluation page, which shows
    the full text ('' for the computed flags whose text is the same for every result:
    hardware, units, length unit, tolerance)."""
    if kind in TRIVIAL_LEGENDS:
        return TRIVIAL_LEGENDS[kind]
    if recorded:
        return "Recorded for the evaluation; its page gives the full text and citations."
    if kind == "reproduction_disagrees":
        return (
            "The measurement differs from the published value it reproduces by more "
            "than the protocol's tolerance; its evaluation page gives the values."
        )
    return ""


def legend_text(flag: FlagView) -> str:
    """A shown flag's explanation for a table legend (`fixed_legend`, else its text)."""
    return fixed_legend(flag.kind, flag.recorded) or flag.text
