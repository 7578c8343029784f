"""Agreement between a Rewire measurement and the published value it reproduces."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..models import Evaluation, Protocol
from ..models.evaluation import Origin, Result
from .display import display_number

AgreementState = Literal["agrees", "disagrees", "depends_on_unit", "no_tolerance", "not_comparable"]
Shape = Literal["point", "lower_bound", "upper_bound"]
"""How a published value bounds what it claims: a point value (within the tolerance either
way), a lower bound ('at least', '~3x less memory': any measured value above it meets it)
or an upper bound ('up to': any measured value below it meets it)."""

SHAPE_TEXTS: dict[str, str] = {
    "point": "read as a point value",
    "lower_bound": "read as a lower bound, met by any larger value",
    "upper_bound": "read as an upper bound, met by any smaller value",
}

GIB_RATIO = 2**30 / 1e9
"""Bytes of a GiB over bytes of a GB: a published 'GB' read as GiB is this much more."""

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


@dataclass(frozen=True)
class Agreement:
    """How a measured value compares with the published one."""

    state: AgreementState
    """agrees: within the protocol's tolerance; disagrees: beyond it; no_tolerance: the
    protocol sets none, so no agreement is computed; not_comparable: a value is missing
    (for example the run did not fit in memory) or the published value is zero."""
    ratio: float | None
    """measured / published, unrounded; None when not computable."""
    ratio_display: str
    """'1.23×', or an empty string when there is no ratio."""
    tolerance: float | None
    """The protocol's relative tolerance (0.1 = 10%), if set."""
    text: str
    """A sentence for the reader."""
    shape: Shape = "point"
    """How the published value was read (see `Shape`)."""
    gib_ratio: float | None = None
    """measured / published with the published 'GB' read as GiB, where the unit is
    ambiguous; None otherwise."""

    @property
    def reproduced(self) -> bool:
        """True only when the measurement agrees within the protocol's tolerance."""
        return self.state == "agrees"

    @property
    def verdict(self) -> str:
        """'agrees within ±5%', 'does not agree: differs by 14%, beyond ±5%', 'not judged:
        ...' (set by `agreement`; see VERDICT_LABELS)."""
        off = _percent(_off(self.ratio, self.shape)) if self.ratio is not None else ""
        tolerance = _percent(self.tolerance) if self.tolerance is not None else ""
        text = VERDICT_LABELS[self.state].format(off=off, tolerance=tolerance)
        if self.state == "depends_on_unit":
            gb = _within(self.ratio, self.tolerance, self.shape)
            text = f"depends on the unit: agrees within ±{tolerance} only if GB means " + (
                "10^9 bytes" if gb else "2^30 bytes (GiB)"
            )
        if self.shape != "point" and self.state in ("agrees", "disagrees"):
            text += f" ({SHAPE_TEXTS[self.shape]})"
        return text


def _off(ratio: float, shape: Shape) -> float:
    """How far `ratio` falls short of the claim: |ratio - 1| for a point value; for a
    bound only the side that breaks it counts (0 on the side that meets it)."""
    if shape == "lower_bound":
        return max(0.0, 1.0 - ratio)
    if shape == "upper_bound":
        return max(0.0, ratio - 1.0)
    return abs(ratio - 1.0)


def _within(ratio: float | None, tolerance: float | None, shape: Shape) -> bool:
    return ratio is not None and tolerance is not None and _off(ratio, shape) <= tolerance + 1e-12


def _percent(fraction: float) -> str:
    return f"{display_number(fraction * 100)}%"


def agreement(
    measured: float | None,
    published: float | None,
    tolerance: float | None,
    *,
    blocked: str | None = None,
    shape: Shape = "point",
    gigabyte_ambiguous: bool = False,
) -> Agreement:
    """Compare `measured` with `published` under a relative `tolerance`. `blocked`: why
    no agreement may be judged although both values exist (for example the protocol
    declares that the metric depends on hardware and the two ran on different hardware);
    the ratio is still given. `shape`: how the published value bounds its claim (a bound
    is broken only on one side). `gigabyte_ambiguous`: the published value is in 'GB'
    that may mean GiB; it agrees only if it agrees under both readings, disagrees if
    under neither, else the verdict depends on the unit."""
    if measured is None or published is None or published == 0:
        why = (
            "The published value is zero, so no ratio is computed."
            if published == 0
            else "One of the two values is missing, so no ratio is computed."
        )
        return Agreement("not_comparable", None, "", tolerance, why, shape)
    ratio = measured / published
    ratio_display = f"{ratio:.2f}×"
    gib = measured / (published * GIB_RATIO) if gigabyte_ambiguous else None
    if blocked is not None:
        return Agreement("not_comparable", ratio, ratio_display, tolerance, blocked, shape, gib)
    if tolerance is None:
        return Agreement(
            "no_tolerance",
            ratio,
            ratio_display,
            None,
            "The protocol sets no tolerance, so no agreement is computed.",
            shape,
            gib,
        )
    off = _off(ratio, shape)
    read = "" if shape == "point" else f"; {SHAPE_TEXTS[shape]}"
    within = off <= tolerance + 1e-12
    if gib is not None and _within(gib, tolerance, shape) != within:
        gib_off = _off(gib, shape)
        return Agreement(
            "depends_on_unit",
            ratio,
            ratio_display,
            tolerance,
            f"Depends on the unit the source means by GB: read as 10^9 bytes the value "
            f"differs by {_percent(off)}, read as 2^30 bytes (GiB) by {_percent(gib_off)} "
            f"(ratio {gib:.2f}×), and only one of the two is within the protocol's "
            f"tolerance of ±{_percent(tolerance)}{read}.",
            shape,
            gib,
        )
    also = " under either reading of GB (10^9 or 2^30 bytes)" if gib is not None else ""
    if within:
        return Agreement(
            "agrees",
            ratio,
            ratio_display,
            tolerance,
            f"Within the protocol's tolerance of ±{_percent(tolerance)}{also} "
            f"(differs by {_percent(off)}{read}).",
            shape,
            gib,
        )
    return Agreement(
        "disagrees",
        ratio,
        ratio_display,
        tolerance,
        f"Differs from the published value by {_percent(off)}, beyond the protocol's "
        f"tolerance of ±{_percent(tolerance)}{also}{read}.",
        shape,
        gib,
    )


def published_reading(
    published: Evaluation, result: Result, protocol: Protocol
) -> tuple[Shape, bool]:
    """(shape, gigabyte_ambiguous) of a published result: its recorded bound, and whether
    it is a source's 'GB' (any origin but a Rewire measurement, whose logs count bytes)."""
    shape = _SHAPES.get(result.bound, "point")
    unit = (result.unit or protocol.column_metric(result.column).unit).strip().lower()
    ambiguous = published.origin != Origin.rewire_measurement and unit in GIGABYTE_UNITS
    return shape, ambiguous


GIGABYTE_UNITS = ("gigabyte", "gigabytes", "gb")
_SHAPES: dict[str, Shape] = {"at_least": "lower_bound", "up_to": "upper_bound"}
