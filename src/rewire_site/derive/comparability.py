"""The comparability guard: which results may be ranked against each other.

Two results are ranked together only when their recorded conditions match:

- adaptation (fine-tuned, probed, zero-shot, LoRA ..., as `comparison.adaptation` says);
- split (`comparison.split`, or 'not applicable' when the record says so);
- metric and scale (the column's metric and unit; values compared on the metric's own
  scale, so a percent and a fraction of one score match: `ranking_value`);
- length unit (nucleotides or tokens), where the protocol fixes a sequence length;
- input length, where the records state one (`length`, else `tokens_per_sequence`, in the
  configuration's or the evaluation's settings): a peak at 512 tokens is never ranked
  against one at 1,000 tokens, nor a 1k-token checkpoint against a 1M-token one;
- hardware class (accelerator and count), only where the protocol declares that its
  metric depends on the hardware (`protocol_depends_on_hardware`).

A condition that is not stated never matches anything: such a result is shown, not
ranked, and the reason names the condition. A result that a flag takes out of comparisons
is not ranked either (a degenerate or trivial result among them: `trivial`). Within a
group of matching results, "best" needs at least two values of two different
competitors (a configuration, or a measured setup: the same one measured again is not
its own rival), and a lead over every other competitor's value larger than the margin
of the two values (`value_margin`: the stated uncertainty, else half a unit of the last
printed digit, `ROUNDING_MARGIN`); within it, the leaders are tied and none is best.
Claims that are not one value (N of M, relative gains, "up to") are never ranked: they
are not results of a comparison table.

Every table, chart, CSV and JSON view calls `standings` here, so they cannot disagree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from ..link import Catalogue
from ..models import Configuration, Evaluation, Protocol, Result
from ..models.protocol import Metric
from ..models.scales import on_metric_scale, to_scale

Condition = Literal["adaptation", "split", "length_unit", "hardware"]
"""A condition a result may leave unstated (`Conditions.unstated`)."""

StandingState = Literal["best", "tied", "ranked", "alone", "unstated", "excluded", "no_value"]


_ACCELERATOR = re.compile(
    r"\b(?:GH|GB|MI|[ABHLPTKV])\d{1,4}[A-Z]{0,2}\b|\bRTX\s*[A]?\d{4}\b|\bTPU\s*V\d+[A-Z]?\b"
)
_LENGTH_WITH_UNIT = re.compile(
    r"^\s*\d+(?:\.\d+)?\s*(?:nt|bp|kb|nucleotides?|bases?|base pairs?|tokens?|tok)\s*$",
    re.IGNORECASE,
)
_UNSTATED = {"", "unstated", "unknown", "unreported", "not stated"}
LENGTH_UNIT_KEY = "length_unit"
_LENGTH = re.compile(r"\bsequence length\b|\blength \d", re.IGNORECASE)
_NT = re.compile(r"(nt|bp|kb|nucleotides?|bases?|base pairs?)\s*$", re.IGNORECASE)
_TOKENS = re.compile(r"(tokens?|tok)\s*$", re.IGNORECASE)
_UNSTATED_TEXT = re.compile(r"\bnot stated\b|\bunstated\b|\bunknown\b", re.IGNORECASE)

NOT_APPLICABLE = "not applicable"


class AnyAccelerator(Enum):
    """The protocol declares that its metric does not depend on the accelerator: results
    match on hardware whatever they ran on."""

    ANY = "any"


ANY_HARDWARE = AnyAccelerator.ANY


@dataclass(frozen=True, slots=True)
class HardwareClass:
    """The accelerators a result ran on (their names, sorted) and how many, where
    recorded (None: the count is not recorded). A page writes it 'H200 × 2'."""

    accelerators: tuple[str, ...]
    count: int | None = None

    @property
    def key(self) -> tuple[str, ...]:
        """A grouping key (names, then the count: '0' where not recorded)."""
        return (*self.accelerators, str(self.count or 0))


Hardware = HardwareClass | AnyAccelerator | None
"""A result's hardware condition: its class, any accelerator, or None (not stated)."""


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


def protocol_depends_on_hardware(protocol: Protocol) -> bool:
    """Whether the protocol declares that its metric depends on the accelerator (run time
    does; allocator peaks of one program do not). Undeclared: True, the cautious reading."""
    declared = getattr(protocol, "hardware_dependence", None)
    return True if declared is None else bool(declared.depends)


def hardware_dependence_reason(protocol: Protocol) -> str | None:
    """The protocol's reason for its hardware declaration (Markdown), if it declares one."""
    declared = getattr(protocol, "hardware_dependence", None)
    return None if declared is None else str(declared.reason)


def length_defined(protocol: Protocol, evaluation: Evaluation | None = None) -> bool:
    """True when the protocol (or the evaluation's budget) fixes a sequence length."""
    texts = [protocol.title, protocol.measurement, *(c.label for c in protocol.columns)]
    if evaluation is not None:
        texts.append(evaluation.comparison.budget or "")
    return any(_LENGTH.search(t) for t in texts)


def input_length(settings: dict[str, str]) -> str:
    """The input length the settings state, normalised for grouping: `length` ('1000nt'),
    else `tokens_per_sequence` ('512 tokens'); '' when neither is stated."""
    length = settings.get("length", "").strip()
    if length and length.lower() not in _UNSTATED:
        return re.sub(r"\s+", "", length)
    tokens = settings.get("tokens_per_sequence", "").strip()
    if tokens and tokens.lower() not in _UNSTATED:
        return f"{tokens} tokens"
    return ""


def length_unit(settings: dict[str, str]) -> str | None:
    """'nucleotides', 'tokens', or None when the settings do not say."""
    if not length_unit_stated(settings):
        return None
    text = settings.get("length_unit") or settings.get("length", "")
    if _TOKENS.search(text.strip()):
        return "tokens"
    if _NT.search(text.strip()) or text.strip().lower() in ("nucleotide", "nucleotides"):
        return "nucleotides"
    return text.strip().lower() or None


@dataclass(frozen=True)
class Conditions:
    """The recorded conditions that decide whether two results may be ranked together.
    None: not stated (such a result is never ranked)."""

    adaptation: str | None
    split: str | None
    metric: str
    """'<metric id> in <unit>'."""
    length_unit: str | None
    """'nucleotides', 'tokens', 'not applicable' (no length fixed) or None."""
    hardware: Hardware
    """The accelerator class, `ANY_HARDWARE` (the protocol declares no dependence) or
    None."""
    input_length: str = ""
    """The stated input length ('1000nt', '512 tokens'), '' where the records state none
    (the protocol's own length then applies to every result alike)."""

    @property
    def unstated(self) -> tuple[Condition, ...]:
        """The conditions not stated, in a fixed order."""
        names: tuple[tuple[Condition, object], ...] = (
            ("adaptation", self.adaptation),
            ("split", self.split),
            ("length_unit", self.length_unit),
            ("hardware", self.hardware),
        )
        return tuple(name for name, value in names if value is None)

    @property
    def key(self) -> ConditionsKey:
        hardware = self.hardware
        return (
            self.adaptation or "",
            self.split or "",
            self.metric,
            self.length_unit or "",
            hardware.key
            if isinstance(hardware, HardwareClass)
            else (hardware.value,)
            if hardware is not None
            else (),
            self.input_length,
        )


ConditionsKey = tuple[str, str, str, str, tuple[str, ...], str]
"""Equal for results whose conditions match (`Conditions.key`)."""


def _stated(text: str | None) -> str | None:
    if text is None or _UNSTATED_TEXT.search(text):
        return None
    return text.strip()


def conditions(
    evaluation: Evaluation, result: Result, protocol: Protocol, catalogue: Catalogue
) -> Conditions:
    """The recorded conditions of one result."""
    found = catalogue.by_id.get(evaluation.configuration)
    configuration = found if isinstance(found, Configuration) else None
    split = evaluation.comparison.split
    if split is None:
        missing = evaluation.missing_metadata.get("comparison.split")
        if missing is not None and missing.reason.value == "inapplicable":
            split = NOT_APPLICABLE
    column_metric = protocol.column_metric(result.column)
    unit = result.unit or column_metric.unit
    # Values are compared on the metric's own scale (`ranking_value`), so a result
    # printed as a percent and one printed as a fraction match.
    metric = f"{column_metric.id} in {unit}"
    settings = dict(configuration.settings if configuration is not None else {})
    settings.update(evaluation.settings)
    defined = length_defined(protocol, evaluation)
    return Conditions(
        adaptation=_stated(evaluation.comparison.adaptation),
        split=_stated(split),
        metric=metric,
        length_unit=length_unit(settings) if defined else NOT_APPLICABLE,
        hardware=hardware_class(evaluation, protocol, configuration),
        input_length=input_length(settings),
    )


def hardware_class(
    evaluation: Evaluation, protocol: Protocol, configuration: Configuration | None
) -> Hardware:
    """The accelerators and their count (where recorded), `ANY_HARDWARE` when the
    protocol declares no dependence on hardware, None when not stated."""
    if not protocol_depends_on_hardware(protocol):
        return ANY_HARDWARE
    return accelerator_class(evaluation, configuration)


def accelerator_class(
    evaluation: Evaluation, configuration: Configuration | None
) -> HardwareClass | None:
    """The accelerators an evaluation ran on and their count (where recorded); None when
    the records name no accelerator."""
    names = accelerators(evaluation_hardware(evaluation, configuration))
    if not names:
        return None
    count = None
    if evaluation.environment is not None:
        count = evaluation.environment.gpu_count
    elif configuration is not None and configuration.hardware is not None:
        count = configuration.hardware.count
    return HardwareClass(tuple(sorted(names)), count or None)


def ranking_value(protocol: Protocol, result: Result) -> float | None:
    """The value the guard ranks: the result on its column metric's own scale."""
    return on_metric_scale(protocol.column_metric(result.column), result)


ROUNDING_MARGIN = 0.5
"""Where no uncertainty is stated, a value's margin is half a unit of its last printed
digit: 61.9 stands for anything from 61.85 to 61.95, so a lead of 0.05 or less over a
value printed so could be the rounding alone. (The value as the record holds it where the
source's print is not recorded.)"""

_RELATIVE = 1e-9
"""Leads equal to the margin up to float error (0.5 - 0.45 vs 0.05) are within it."""

_DIGITS = re.compile(r"(?<![\w.])[-+\u2212]?(?:\d[\d,]*(?:\.(\d*))?|\.(\d+))(?:[eE]([-+]?\d+))?")
_PLUS_MINUS = re.compile(r"(?:±|\+/-|\+-)\s*(\d*\.?\d+(?:[eE][-+]?\d+)?)\s*(%)?")
_INTERVAL = re.compile(r"(-?\d*\.?\d+)\s*(?:-|–|—|to|,)\s*(-?\d*\.?\d+)(?!\s*%)")


def last_digit(text: str) -> float | None:
    """The unit of the last printed digit of the first number in `text` ('61.9' -> 0.1,
    '1,234' -> 1, '2.5e-3' -> 0.0001); None without a number."""
    match = _DIGITS.search(text)
    if match is None:
        return None
    decimals = len(match.group(1) or match.group(2) or "")
    return float(10.0 ** (int(match.group(3) or 0) - decimals))


def stated_uncertainty(text: str | None, value: float) -> float | None:
    """The half-width a stated uncertainty gives, in the value's own unit: '± 0.3' ->
    0.3, '± 2%' of a value not in percent -> 2% of it, an interval '0.80-0.84' -> 0.02;
    None when nothing is stated or the text gives no reading."""
    if not text:
        return None
    found = _PLUS_MINUS.search(text)
    if found is not None:
        width = float(found.group(1))
        return abs(value) * width / 100 if found.group(2) else width
    interval = _INTERVAL.search(text)
    if interval is not None:
        low, high = float(interval.group(1)), float(interval.group(2))
        if low <= value <= high:
            return max(value - low, high - value)
    return None


def value_margin(metric: Metric, result: Result) -> float:
    """How far a result's value may be from what it stands for, on its metric's own scale
    (what the guard ranks, `ranking_value`): its stated uncertainty where one is stated
    and readable, never less than its rounding margin (`ROUNDING_MARGIN`, of the printed
    value, else of the value as recorded). 0 without a value."""
    if result.value is None:
        return 0.0
    unit = last_digit(result.printed_value or repr(result.value))
    margin = ROUNDING_MARGIN * unit if unit is not None else 0.0
    stated = stated_uncertainty(result.uncertainty, result.value)
    if stated is not None:
        margin = max(margin, stated)
    return to_scale(margin, result.scale, metric.scale)


def within_margin(first: float, first_margin: float, second: float, second_margin: float) -> bool:
    """True when two values are too close to order: their difference is no more than the
    larger of their margins (`value_margin`)."""
    margin = max(first_margin, second_margin)
    return abs(first - second) <= margin * (1 + _RELATIVE)


def compare(
    first: float, first_margin: float, second: float, second_margin: float, direction: str
) -> Literal["first", "second", "tie"]:
    """Which of two comparable values is better in the metric's `direction` ('lower' or
    'higher'), or 'tie' where the difference is within their margin (`within_margin`)."""
    if within_margin(first, first_margin, second, second_margin):
        return "tie"
    return "first" if (first < second) == (direction == "lower") else "second"


@dataclass(frozen=True)
class Entry:
    """One result offered to the guard."""

    value: float | None
    """None: no value to rank (out of memory, incomplete run, not reported)."""
    conditions: Conditions
    excluded_by: tuple[str, ...] = ()
    """What takes the result out of comparisons (the kinds of its flags, say); empty: it
    stays in."""
    competitor: str | None = None
    """What the result is a value of (a configuration, or a measured setup): results of
    one competitor are that competitor measured more than once, never ranked against each
    other. None: a competitor of its own."""
    margin: float = 0.0
    """The value's margin on the same scale (`value_margin`): a lead within it is a tie."""


@dataclass(frozen=True)
class Standing:
    """Where one result stands in the comparison of its column."""

    state: StandingState
    group: int | None
    """Index of its comparable group (in `Ranking.groups`), for ranked results."""
    group_size: int
    unstated: tuple[Condition, ...] = ()
    """State 'unstated': the conditions not stated ('length_unit')."""
    excluded_by: tuple[str, ...] = ()
    """State 'excluded': what takes it out of comparisons (`Entry.excluded_by`)."""

    @property
    def best(self) -> bool:
        return self.state == "best"


@dataclass(frozen=True)
class Ranking:
    standings: tuple[Standing, ...]
    """One per entry, in entry order."""
    groups: tuple[Conditions, ...]
    """Conditions of each comparable group of two or more values."""


def standings(entries: Sequence[Entry], direction: str) -> Ranking:
    """Rank `entries` (one column's results) in the metric's `direction` ('lower' or
    'higher'): a best value per group of results with matching conditions from at least
    two different competitors (`Entry.competitor`: a configuration measured twice is one
    point measured twice, not two rivals). A group's size counts competitors. The top
    value is best only when it leads every other competitor's value by more than their
    margin (`within_margin`); otherwise every value within the margin of the top one is
    'tied' and none is best."""
    groups: dict[ConditionsKey, list[int]] = {}
    for i, entry in enumerate(entries):
        if entry.value is None or entry.excluded_by or entry.conditions.unstated:
            continue
        groups.setdefault(entry.conditions.key, []).append(i)
    rivals = {
        key: len({entries[i].competitor or f"\x00{i}" for i in members})
        for key, members in groups.items()
    }
    ranked = {key: members for key, members in groups.items() if rivals[key] >= 2}
    order = sorted(ranked)
    best: dict[ConditionsKey, float] = {}
    tied: set[int] = set()
    for key in order:
        members = [(i, v) for i in ranked[key] if (v := entries[i].value) is not None]
        top = min(v for _, v in members) if direction == "lower" else max(v for _, v in members)
        best[key] = top
        top_margin = max(entries[i].margin for i, v in members if v == top)
        close = [i for i, v in members if within_margin(top, top_margin, v, entries[i].margin)]
        if len({entries[i].competitor or f"\x00{i}" for i in close}) > 1:
            tied.update(close)
    out: list[Standing] = []
    for index, entry in enumerate(entries):
        key = entry.conditions.key
        if entry.value is None:
            out.append(Standing("no_value", None, 0))
        elif entry.excluded_by:
            out.append(Standing("excluded", None, 0, excluded_by=entry.excluded_by))
        elif entry.conditions.unstated:
            out.append(Standing("unstated", None, 0, unstated=entry.conditions.unstated))
        elif key not in ranked:
            out.append(Standing("alone", None, 1))
        else:
            state: StandingState = (
                "tied" if index in tied else "best" if entry.value == best[key] else "ranked"
            )
            out.append(Standing(state, order.index(key), rivals[key]))
    return Ranking(tuple(out), tuple(entries[ranked[k][0]].conditions for k in order))


@dataclass(frozen=True, slots=True)
class HardwareBlock:
    """Why no agreement can be judged on hardware grounds: the protocol declares that its
    metric depends on the accelerator, and the two values ran on different (or unstated)
    accelerator classes."""

    measured: HardwareClass | None
    """The measurement's accelerator class (None: unstated)."""
    published: HardwareClass | None
    """The published value's accelerator class (None: the source does not state it)."""


def hardware_blocks(
    measured: Evaluation, published: Evaluation, protocol: Protocol, catalogue: Catalogue
) -> HardwareBlock | None:
    """What keeps an agreement between `measured` and the `published` value it reproduces
    from being judged on hardware grounds, or None. Only where the protocol declares that
    its metric depends on the hardware, and the two ran on different (or unstated)
    accelerator classes."""
    if not protocol_depends_on_hardware(protocol):
        return None
    mine, theirs = (
        accelerator_class(e, _configuration(e, catalogue)) for e in (measured, published)
    )
    if mine is not None and mine == theirs:
        return None
    return HardwareBlock(mine, theirs)


def _configuration(evaluation: Evaluation, catalogue: Catalogue) -> Configuration | None:
    found = catalogue.by_id.get(evaluation.configuration)
    return found if isinstance(found, Configuration) else None
