"""Concern flags: those an editor recorded and those the builder finds.

Recorded concerns come from `Evaluation.concerns` (for example a source that contradicts
itself: its results stay visible and leave comparisons). Computed concerns:

- hardware differs: the accelerator the evaluation ran on (the measurement environment's
  GPU, else the configuration's normalised accelerator, else the evaluation's or the
  configuration's hardware text) is not among the accelerators the protocol names;
- unit unstated: a result has no unit;
- length unit unstated: the protocol is defined by a sequence length and neither the
  evaluation nor the configuration states whether it counts nucleotides or tokens
  (setting `length_unit`, or `length` with a unit such as '1000nt' or '512 tokens');
- reproduction disagrees: a Rewire measurement differs from the published value it
  reproduces by more than the protocol's `tolerance`; without a tolerance no agreement is
  computed, and a 'No tolerance set' flag says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..link import Catalogue
from ..models import Configuration, Evaluation, Protocol
from ..models.evaluation import ConcernKind, Origin
from .agreement import agreement
from .display import CitationView, cite, column_header, missing_text

FLAG_LABELS: dict[str, str] = {
    ConcernKind.source_conflict.value: "Evidence concern",
    ConcernKind.other.value: "Evidence concern",
    ConcernKind.hardware_differs.value: "Hardware differs from the protocol",
    ConcernKind.unit_unstated.value: "Unit not stated",
    ConcernKind.reproduction_disagrees.value: "Reproduction differs from the published value",
}
LENGTH_UNIT_LABEL = "Length unit not stated"
LENGTH_UNIT_KEY = "length_unit"
TOLERANCE_UNSET = "tolerance_unset"
TOLERANCE_UNSET_LABEL = "No tolerance set"
_UNSTATED = {"", "unstated", "unknown", "unreported", "not stated"}

_ACCELERATOR = re.compile(
    r"\b(?:GH|GB|MI|[ABHLPTKV])\d{1,4}[A-Z]{0,2}\b|\bRTX\s*[A]?\d{4}\b|\bTPU\s*V\d+[A-Z]?\b"
)
_LENGTH = re.compile(r"\bsequence length\b|\blength \d", re.IGNORECASE)
_LENGTH_WITH_UNIT = re.compile(
    r"^\s*\d+(?:\.\d+)?\s*(?:nt|bp|kb|nucleotides?|bases?|base pairs?|tokens?|tok)\s*$",
    re.IGNORECASE,
)


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


def accelerators(text: str | None) -> frozenset[str]:
    """Normalised accelerator names in a hardware text: 'NVIDIA H100 94GB' -> {'H100'}."""
    if not text:
        return frozenset()
    return frozenset(m.replace(" ", "") for m in _ACCELERATOR.findall(text.upper()))


def evaluation_hardware(evaluation: Evaluation, configuration: Configuration | None) -> str | None:
    """The hardware text an evaluation ran on, most specific first."""
    if evaluation.environment is not None:
        return evaluation.environment.gpu
    hardware = configuration.hardware if configuration is not None else None
    if hardware is not None and hardware.accelerator:
        return hardware.accelerator
    if evaluation.training_hardware:
        return evaluation.training_hardware
    return hardware.description if hardware is not None else None


def length_unit_stated(settings: dict[str, str]) -> bool:
    """True when settings say what a sequence length counts: `length_unit` (not
    'unstated'), or `length` with a unit ('1000nt', '512 tokens')."""
    unit = settings.get(LENGTH_UNIT_KEY)
    if unit is not None and unit.strip().lower() not in _UNSTATED:
        return True
    return bool(_LENGTH_WITH_UNIT.match(settings.get("length", "")))


def _recorded(evaluation: Evaluation, catalogue: Catalogue) -> list[Flag]:
    return [
        Flag(
            kind=concern.kind.value,
            label=FLAG_LABELS[concern.kind.value],
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
    text = evaluation_hardware(evaluation, configuration)
    ran_on = accelerators(text)
    specified = accelerators(protocol.hardware)
    if not ran_on or not specified or ran_on <= specified:
        return []
    return [
        Flag(
            kind=ConcernKind.hardware_differs.value,
            label=FLAG_LABELS[ConcernKind.hardware_differs.value],
            text=f"Ran on {', '.join(sorted(ran_on))} ({text}); the protocol specifies "
            f"{', '.join(sorted(specified))} ({protocol.hardware}). Memory and time depend "
            "on the hardware, so these results leave comparisons.",
            recorded=False,
            excludes_from_comparisons=True,
            columns=(),
            citations=(),
            concern_id=None,
        )
    ]


def _units(evaluation: Evaluation, protocol: Protocol) -> list[Flag]:
    labels = {c.id: c.label for c in protocol.columns}
    flags = []
    for i, result in enumerate(evaluation.results):
        if result.unit is not None:
            continue
        why = missing_text(evaluation, f"results.{i}.unit")
        note = f" ({why.long_label}{': ' + why.note if why.note else ''})"
        header = column_header(protocol.metric.label, labels.get(result.column, result.column))
        flags.append(
            Flag(
                kind=ConcernKind.unit_unstated.value,
                label=FLAG_LABELS[ConcernKind.unit_unstated.value],
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
    texts = [protocol.title, protocol.measurement, evaluation.comparison.budget or ""]
    texts += [c.label for c in protocol.columns]
    if not any(_LENGTH.search(t) for t in texts):
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
    by_column = {r.column: r for r in published.results}
    labels = {c.id: c.label for c in protocol.columns}
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
        found = agreement(result.value, other.value, protocol.tolerance)
        if found.state != "disagrees":
            continue
        header = column_header(protocol.metric.label, labels.get(result.column, result.column))
        flags.append(
            Flag(
                kind=ConcernKind.reproduction_disagrees.value,
                label=FLAG_LABELS[ConcernKind.reproduction_disagrees.value],
                text=f"{header}: measured {result.value:g}, published {other.value:g} "
                f"(ratio {found.ratio_display}). {found.text}",
                recorded=False,
                excludes_from_comparisons=False,
                columns=(result.column,),
                citations=(),
                concern_id=None,
            )
        )
    return flags


def flags(evaluation: Evaluation, catalogue: Catalogue) -> tuple[Flag, ...]:
    """Recorded concerns first (in record order), then computed ones."""
    protocol = catalogue.get(evaluation.protocol, Protocol)
    found = catalogue.by_id.get(evaluation.configuration)
    configuration = found if isinstance(found, Configuration) else None
    return tuple(
        _recorded(evaluation, catalogue)
        + _hardware(evaluation, protocol, configuration)
        + _units(evaluation, protocol)
        + _length_unit(evaluation, protocol, configuration)
        + _reproduction(evaluation, protocol, catalogue)
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
