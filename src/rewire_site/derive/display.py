"""Display helpers that derive modules still making reader text use: rounding, labels,
missing-metadata text (issue 26: they move to `render/present/` as those modules return
facts instead; `tests/test_architecture.py` names the modules, STILL_MAKING_TEXT).
Helpers only render/ uses live in `render/present/` already; scale facts in
`derive/scales.py`. A concern flag's words (`flag_label`, `flag_text`, `flag_view`) are
here because the comparison tables and reproduction rows, which still make text, show them.

Display rounding never changes a stored value: these functions only make strings.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..link import Catalogue
from ..models import (
    Citation,
    Metric,
    Origin,
    Protocol,
    RecordBase,
    Source,
)
from ..models.common import CitationRole, MissingReason, ReviewStatus
from .agreement import Agreement
from .concerns import (
    Constant,
    Disagrees,
    Flag,
    HardwareDiffers,
    LengthUnitUnstated,
    RecordedConcern,
    TrivialResult,
    UnitUnstated,
)
from .scales import column_metrics
from .trivial import CHANCE_AUC, NEAR_ZERO

NOT_REPORTED = "Not reported"
OUT_OF_MEMORY = "Out of memory"
INCOMPLETE = "Incomplete run"
STATUS_LABELS: dict[str, str] = {"out_of_memory": OUT_OF_MEMORY, "incomplete": INCOMPLETE}
"""Result status -> what a table shows instead of a number."""

ORIGIN_LABELS: dict[Origin, str] = {
    Origin.author_reported: "Author-reported evaluation",
    Origin.independent_paper: "Independent external evaluation",
    Origin.rewire_measurement: "Rewire measurement",
    Origin.community_reproduction: "Community reproduction",
    Origin.maintainer_statement: "Maintainer statement",
}
"""Evidence origin -> label used on every page (as the seed pages read)."""

REVIEW_LABELS: dict[ReviewStatus, str] = {
    ReviewStatus.unreviewed: "not reviewed",
    ReviewStatus.source_checked: "source checked",
    ReviewStatus.disputed: "disputed",
}

ROLE_LABELS: dict[CitationRole, str] = {
    CitationRole.original: "Original source",
    CitationRole.context_only: "Context-only reference",
}

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

DIRECTION_LABELS = {"lower": "lower is better", "higher": "higher is better"}


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")

UNIT_TEXTS: dict[str, str] = {
    "gigabyte": "gigabyte, 10⁹ bytes",
    "megabyte": "megabyte, 10⁶ bytes",
    "gibibyte": "gibibyte, 2³⁰ bytes",
    "mebibyte": "mebibyte, 2²⁰ bytes",
}
"""Units whose size a reader must not guess: a gigabyte on this site is 10^9 bytes."""


def unit_text(unit: str) -> str:
    """'gigabyte, 10⁹ bytes' for byte units, else the unit as recorded."""
    return UNIT_TEXTS.get(unit.strip().lower(), unit)


def display_number(value: float, digits: int = 3) -> str:
    """Round for display to `digits` significant digits without dropping integer digits
    (33.88 -> "33.9", 1.18 -> "1.18", 20.0 -> "20", 1234.5 -> "1234"); from a million
    up, in powers of ten (1e12 -> "1 × 10¹²", 8213818245120 -> "8.21 × 10¹²")."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    magnitude = math.floor(math.log10(abs(value)))
    if magnitude >= 6:
        mantissa = display_number(value / 10**magnitude, digits)
        if mantissa.lstrip("-") == "10":  # 9.999e12 rounds up
            mantissa, magnitude = mantissa.replace("10", "1"), magnitude + 1
        return f"{mantissa} × 10{str(magnitude).translate(_SUPERSCRIPT)}"
    decimals = max(0, digits - 1 - magnitude)
    text = f"{value:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text


def display_duration(seconds: float) -> str:
    """A wall time as read: seconds under a minute ('4 seconds', '0.5 seconds'), else
    minutes ('3.92 minutes'), so a short run never reads '0.0 minutes'. Zero reads 'under 1
    second': start and end stamps recorded to the second are equal for a shorter run."""
    if seconds == 0:
        return "under 1 second"
    if seconds < 60:
        text = display_number(seconds)
        return f"{text} second" if text == "1" else f"{text} seconds"
    minutes = display_number(seconds / 60)
    return f"{minutes} minute" if minutes == "1" else f"{minutes} minutes"


def result_display(value: float | None, status: str) -> str:
    """A result as displayed: its rounded value, or its status ('Out of memory',
    'Incomplete run') when no value is claimed."""
    if value is not None:
        return display_number(value)
    return STATUS_LABELS.get(status, NOT_REPORTED)


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """'1 evaluation', '4 evaluations'."""
    word = singular if count == 1 else (plural_form or singular + "s")
    return f"{count} {word}"


_ASSUMED = re.compile(r"\bassumed\b", re.IGNORECASE)


def review_gaps(record: RecordBase) -> tuple[str, ...]:
    """What a 'source checked' review lacks before a page may call it so: a reviewer, a
    date, the hash of the artifact reviewed, and a review of its own (not one assumed from
    another record, as its note or the editors' notes say)."""
    review = record.review
    if review is None or review.status != ReviewStatus.source_checked:
        return ()
    gaps = [
        name
        for name, value in (
            ("reviewer", review.reviewer),
            ("date", review.reviewed_at),
            ("artifact hash", review.artifact_sha256),
        )
        if value is None
    ]
    notes = [review.note or "", *getattr(record, "editor_notes", [])]
    if getattr(review, "inherited_from", None) or any(_ASSUMED.search(n) for n in notes):
        gaps.append("assumed")
    return tuple(gaps)


def review_label(record: RecordBase) -> str:
    """'source checked' only for a review with reviewer, date and artifact hash of its own
    (`review_gaps`); else 'not checked: ...' saying what is missing; 'not reviewed',
    'disputed' as recorded."""
    if record.review is None:
        return REVIEW_LABELS[ReviewStatus.unreviewed]
    gaps = review_gaps(record)
    if gaps:
        missing = [g for g in gaps if g != "assumed"]
        parts = []
        if missing:
            listed = ", ".join(missing[:-1]) + (" or " if len(missing) > 1 else "") + missing[-1]
            parts.append(f"no {listed} recorded")
        if "assumed" in gaps:
            parts.append("the review was made on another record and assumed for this one")
        return "source check not verifiable: " + "; ".join(parts)
    return REVIEW_LABELS[record.review.status]


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


@dataclass(frozen=True)
class CitationView:
    """A citation resolved against its source record."""

    source_id: str
    source_title: str
    short_citation: str
    url: str
    locator: str
    quote: str | None
    role: str
    """'original' or 'context_only'."""
    role_label: str
    """'Original source' or 'Context-only reference'."""
    version: str
    """The source artifact's version string as retrieved."""


K = TypeVar("K")
V = TypeVar("V")


class IdentityCache(Generic[K, V]):
    """Values computed from immutable records, keyed by the record object itself (records
    hold lists, so they are not hashable). Holds at most `size` entries; the objects are
    kept alive while cached, so an id is never reused for another object."""

    def __init__(self, size: int = 65536) -> None:
        self.size = size
        self._items: dict[int, tuple[K, V]] = {}

    def get(self, key: K, make: Callable[[K], V]) -> V:
        found = self._items.get(id(key))
        if found is not None and found[0] is key:
            return found[1]
        value = make(key)
        self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        if len(self._items) >= self.size:
            self._items.clear()
        self._items[id(key)] = (key, value)


_CITATIONS: IdentityCache[Citation, tuple[Source, CitationView]] = IdentityCache()


def cite(citation: Citation, catalogue: Catalogue) -> CitationView:
    """Resolve a citation. The link stage guarantees the source exists. Cached per
    citation object and source object (a changed source record is a new object)."""
    source = catalogue.get(citation.source, Source)
    found = _CITATIONS.get(citation, lambda c: (source, _cite(c, source)))
    if found[0] is not source:
        found = (source, _cite(citation, source))
        _CITATIONS.put(citation, found)
    return found[1]


def _cite(citation: Citation, source: Source) -> CitationView:
    return CitationView(
        source_id=source.id,
        source_title=source.title,
        short_citation=source.short_citation,
        url=source.url,
        locator=citation.locator,
        quote=citation.quote,
        role=citation.role.value,
        role_label=ROLE_LABELS[citation.role],
        version=source.version,
    )


PER_COLUMN = "per column: "


def metric_names(metrics: Sequence[Metric]) -> str:
    """'Peak memory', or 'MCC, AUC, F1 score and Accuracy' (labels as recorded)."""
    labels = list(dict.fromkeys(m.label for m in metrics))
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def per_column(values: list[str]) -> str:
    """The one value every column shares ('score'), else each distinct value, in column
    order, as 'per column: MCC, AUC, F1 score, Accuracy'."""
    distinct = list(dict.fromkeys(values))
    return distinct[0] if len(distinct) == 1 else PER_COLUMN + ", ".join(distinct)


def metric_dependence(protocol: Protocol, depends: bool, *, lower: bool = False) -> str:
    """'Peak memory depends on the accelerator' (`lower`: 'peak memory ...'), or, for a
    protocol whose columns use several metrics, 'MCC, AUC, F1 score and Accuracy do not
    depend on the accelerator' (labels as recorded: an acronym is not lowered)."""
    metrics = column_metrics(protocol)
    subject = metric_names(metrics)
    if len({m.label for m in metrics}) == 1:
        subject = subject.lower() if lower else subject
        verb = "depends" if depends else "does not depend"
    else:
        verb = "depend" if depends else "do not depend"
    return f"{subject} {verb} on the accelerator"


def column_header(metric_label: str, column_label: str) -> str:
    """'Peak memory (Training, ..., stage + Checkpointing (...))'."""
    return f"{metric_label} ({column_label})"


def result_header(protocol: Protocol, column_id: str) -> str:
    """How a result in column `column_id` of `protocol` is named wherever it is shown: the
    column's own metric where it has one (`ResultColumn.metric`: 'MCC', not the protocol's
    'AUC (MCC)'), else the protocol's metric and the column's label ('Peak memory
    (Training, ...)'). A label that only repeats the metric is not repeated."""
    metric = protocol.column_metric(column_id)
    label = next((c.label for c in protocol.columns if c.id == column_id), column_id)
    return metric.label if label == metric.label else column_header(metric.label, label)


# ------------------------------------------------------------------ scales and digits

SIGNIFICANT = 4
"""Digits a value shows when its source printed more than `PRINTED_DIGITS` (a CSV's
float, '0.3622498911964387') or printed none (a measurement): rounded to this many
significant figures."""
PRINTED_DIGITS = 6
"""A printed value with up to this many significant figures is shown as printed."""


def significant_figures(text: str) -> int:
    """Significant figures of a printed number ('0.3620' -> 4, '1.2e5' -> 2)."""
    digits = re.sub(r"[^0-9]", "", text.split("e")[0].split("E")[0]).lstrip("0")
    return len(digits)


def digits_shown(value: float, printed: str) -> str:
    """A printed number under `ROUNDING_RULE`: as printed up to `PRINTED_DIGITS`
    significant figures, else `value` rounded to `SIGNIFICANT` (a spreadsheet's float)."""
    if significant_figures(printed) <= PRINTED_DIGITS:
        return printed
    return display_number(value, SIGNIFICANT)


def agree_count(n: int) -> str:
    """'1 agrees', '2 agree', '0 agree'."""
    return f"{n} agrees" if n == 1 else f"{n} agree"


def reading_text(reading: Sequence[tuple[str, str]]) -> str:
    """'precision fp32-autocast, update full, length 1000nt' (keys in words)."""
    return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in reading)


# ------------------------------------------------------------------ agreement in words

SHAPE_TEXTS: dict[str, str] = {
    "point": "read as a point value",
    "lower_bound": "read as a lower bound, met by any larger value",
    "upper_bound": "read as an upper bound, met by any smaller value",
}

VERDICT_LABELS: dict[str, str] = {
    "agrees": "agrees within ±{tolerance}",
    "disagrees": "does not agree: differs by {off}, beyond ±{tolerance}",
    "depends_on_unit": "depends on the unit: agrees within ±{tolerance} under one reading of "
    "GB only",
    "no_tolerance": "not judged: the protocol sets no tolerance",
    "not_comparable": "not judged",
}
"""Short verdicts. Only 'agrees' may be called reproduced; the others are measurements
under the same protocol whose agreement is refuted or not judged."""


def _percent(fraction: float) -> str:
    return f"{display_number(fraction * 100)}%"


def ratio_text(found: Agreement) -> str:
    """'1.23×', or '' when there is no ratio."""
    return "" if found.ratio is None else f"{found.ratio:.2f}×"


def agreement_verdict(found: Agreement) -> str:
    """'agrees within ±5%', 'does not agree: differs by 14%, beyond ±5%', 'not judged:
    ...' (VERDICT_LABELS)."""
    off = _percent(found.off) if found.off is not None else ""
    tolerance = _percent(found.tolerance) if found.tolerance is not None else ""
    text = VERDICT_LABELS[found.state].format(off=off, tolerance=tolerance)
    if found.state == "depends_on_unit":
        text = f"depends on the unit: agrees within ±{tolerance} only if GB means " + (
            "10^9 bytes" if found.within_as_gb else "2^30 bytes (GiB)"
        )
    if found.shape != "point" and found.state in ("agrees", "disagrees"):
        text += f" ({SHAPE_TEXTS[found.shape]})"
    return text


def agreement_text(found: Agreement) -> str:
    """The agreement in a sentence for the reader."""
    if found.state == "not_comparable":
        if found.reason == "zero":
            return "The published value is zero, so no ratio is computed."
        if found.reason == "missing":
            return "One of the two values is missing, so no ratio is computed."
        return found.note
    if found.state == "no_tolerance":
        return "The protocol sets no tolerance, so no agreement is computed."
    off = found.off or 0.0
    tolerance = found.tolerance or 0.0
    read = "" if found.shape == "point" else f"; {SHAPE_TEXTS[found.shape]}"
    if found.state == "depends_on_unit":
        return (
            f"Depends on the unit the source means by GB: read as 10^9 bytes the value "
            f"differs by {_percent(off)}, read as 2^30 bytes (GiB) by "
            f"{_percent(found.gib_off or 0.0)} (ratio {found.gib_ratio:.2f}×), and only one "
            f"of the two is within the protocol's tolerance of ±{_percent(tolerance)}{read}."
        )
    also = " under either reading of GB (10^9 or 2^30 bytes)" if found.gib_ratio is not None else ""
    if found.state == "agrees":
        return (
            f"Within the protocol's tolerance of ±{_percent(tolerance)}{also} "
            f"(differs by {_percent(off)}{read})."
        )
    return (
        f"Differs from the published value by {_percent(off)}, beyond the protocol's "
        f"tolerance of ±{_percent(tolerance)}{also}{read}."
    )


# ------------------------------------------------------------------ concern flags

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
GIB_RATIO = 2**30 / 1e9
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
        f"(ratio {ratio_text(detail.agreement)}). {agreement_text(detail.agreement)}"
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
