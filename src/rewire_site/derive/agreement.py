"""Agreement between a Rewire measurement and the published value it reproduces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..models import Evaluation, Protocol
from ..models.evaluation import Origin, Result
from .comparability import HardwareBlock

AgreementState = Literal["agrees", "disagrees", "depends_on_unit", "no_tolerance", "not_comparable"]
Shape = Literal["point", "lower_bound", "upper_bound"]
"""How a published value bounds what it claims: a point value (within the tolerance either
way), a lower bound ('at least', '~3x less memory': any measured value above it meets it)
or an upper bound ('up to': any measured value below it meets it)."""

GIB_RATIO = 2**30 / 1e9
"""Bytes of a GiB over bytes of a GB: a published 'GB' read as GiB is this much more."""

Reason = Literal["missing", "zero", "blocked", "incomplete"]
"""Why a value is not comparable: a value is missing, the published value is zero, the
caller blocks the judgement (different hardware where the protocol declares it decisive),
or the measurement is an incomplete run."""


@dataclass(frozen=True)
class Agreement:
    """How a measured value compares with the published one, as facts
    (`render.present.agreement` puts them in words)."""

    state: AgreementState
    """agrees: within the protocol's tolerance; disagrees: beyond it; no_tolerance: the
    protocol sets none, so no agreement is computed; not_comparable: see `reason`."""
    ratio: float | None
    """measured / published, unrounded; None when not computable."""
    tolerance: float | None
    """The protocol's relative tolerance (0.1 = 10%), if set."""
    shape: Shape = "point"
    """How the published value was read (see `Shape`)."""
    gib_ratio: float | None = None
    """measured / published with the published 'GB' read as GiB, where the unit is
    ambiguous; None otherwise."""
    reason: Reason | None = None
    """Why not comparable (state 'not_comparable'); None otherwise."""
    block: HardwareBlock | None = None
    """What blocks the judgement (reason 'blocked'): the two accelerator classes."""

    reproduced: bool = field(init=False)
    """True only when the measurement agrees within the protocol's tolerance."""
    off: float | None = field(init=False)
    """How far the ratio falls short of the claim (`_off`); None without a ratio."""
    gib_off: float | None = field(init=False)
    """`off` with the published 'GB' read as GiB; None where the unit is not ambiguous."""
    within_as_gb: bool = field(init=False)
    """Within the tolerance with the published 'GB' read as 10^9 bytes."""

    def __post_init__(self) -> None:
        """The facts read from the others, set once here: pages read them as fields."""
        ratio, gib, shape = self.ratio, self.gib_ratio, self.shape
        object.__setattr__(self, "reproduced", self.state == "agrees")
        object.__setattr__(self, "off", None if ratio is None else _off(ratio, shape))
        object.__setattr__(self, "gib_off", None if gib is None else _off(gib, shape))
        object.__setattr__(self, "within_as_gb", _within(ratio, self.tolerance, shape))


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


def agreement(
    measured: float | None,
    published: float | None,
    tolerance: float | None,
    *,
    blocked: HardwareBlock | None = None,
    shape: Shape = "point",
    gigabyte_ambiguous: bool = False,
) -> Agreement:
    """Compare `measured` with `published` under a relative `tolerance`. `blocked`: what
    keeps an agreement from being judged although both values exist (the protocol declares
    that the metric depends on hardware and the two ran on different hardware,
    `comparability.hardware_blocks`); the ratio is still given. `shape`: how the
    published value bounds its claim (a bound is broken only on one side).
    `gigabyte_ambiguous`: the published value is in 'GB' that may mean GiB; it agrees
    only if it agrees under both readings, disagrees if under neither, else the verdict
    depends on the unit."""
    if measured is None or published is None or published == 0:
        why: Reason = "zero" if published == 0 else "missing"
        return Agreement("not_comparable", None, tolerance, shape, reason=why)
    ratio = measured / published
    gib = measured / (published * GIB_RATIO) if gigabyte_ambiguous else None
    if blocked is not None:
        return Agreement("not_comparable", ratio, tolerance, shape, gib, "blocked", blocked)
    if tolerance is None:
        return Agreement("no_tolerance", ratio, None, shape, gib)
    within = _off(ratio, shape) <= tolerance + 1e-12
    if gib is not None and _within(gib, tolerance, shape) != within:
        return Agreement("depends_on_unit", ratio, tolerance, shape, gib)
    return Agreement("agrees" if within else "disagrees", ratio, tolerance, shape, gib)


def incomplete(tolerance: float | None, shape: Shape) -> Agreement:
    """The agreement of an incomplete run: none (it claims no value)."""
    return Agreement("not_comparable", None, tolerance, shape, reason="incomplete")


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
