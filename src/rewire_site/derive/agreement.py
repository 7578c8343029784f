"""Agreement between a Rewire measurement and the published value it reproduces."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .display import display_number

AgreementState = Literal["agrees", "disagrees", "no_tolerance", "not_comparable"]


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


def _percent(fraction: float) -> str:
    return f"{display_number(fraction * 100)}%"


def agreement(
    measured: float | None, published: float | None, tolerance: float | None
) -> Agreement:
    """Compare `measured` with `published` under a relative `tolerance`."""
    if measured is None or published is None or published == 0:
        why = (
            "The published value is zero, so no ratio is computed."
            if published == 0
            else "One of the two values is missing, so no ratio is computed."
        )
        return Agreement("not_comparable", None, "", tolerance, why)
    ratio = measured / published
    ratio_display = f"{display_number(ratio)}×"
    if tolerance is None:
        return Agreement(
            "no_tolerance",
            ratio,
            ratio_display,
            None,
            "The protocol sets no tolerance, so no agreement is computed.",
        )
    off = abs(ratio - 1.0)
    if off <= tolerance + 1e-12:
        return Agreement(
            "agrees",
            ratio,
            ratio_display,
            tolerance,
            f"Within the protocol's tolerance of ±{_percent(tolerance)} "
            f"(differs by {_percent(off)}).",
        )
    return Agreement(
        "disagrees",
        ratio,
        ratio_display,
        tolerance,
        f"Differs from the published value by {_percent(off)}, beyond the protocol's "
        f"tolerance of ±{_percent(tolerance)}.",
    )
