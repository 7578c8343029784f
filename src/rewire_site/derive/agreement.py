"""Agreement between a Rewire measurement and the published value it reproduces."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .display import display_number

AgreementState = Literal["agrees", "disagrees", "no_tolerance", "not_comparable"]

VERDICT_LABELS: dict[str, str] = {
    "agrees": "agrees within ±{tolerance}",
    "disagrees": "does not agree: differs by {off}, beyond ±{tolerance}",
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

    @property
    def reproduced(self) -> bool:
        """True only when the measurement agrees within the protocol's tolerance."""
        return self.state == "agrees"

    @property
    def verdict(self) -> str:
        """'agrees within ±5%', 'does not agree: differs by 14%, beyond ±5%', 'not judged:
        ...' (set by `agreement`; see VERDICT_LABELS)."""
        off = _percent(abs(self.ratio - 1.0)) if self.ratio is not None else ""
        tolerance = _percent(self.tolerance) if self.tolerance is not None else ""
        return VERDICT_LABELS[self.state].format(off=off, tolerance=tolerance)


def _percent(fraction: float) -> str:
    return f"{display_number(fraction * 100)}%"


def agreement(
    measured: float | None,
    published: float | None,
    tolerance: float | None,
    *,
    blocked: str | None = None,
) -> Agreement:
    """Compare `measured` with `published` under a relative `tolerance`. `blocked`: why
    no agreement may be judged although both values exist (for example the protocol
    declares that the metric depends on hardware and the two ran on different hardware);
    the ratio is still given."""
    if measured is None or published is None or published == 0:
        why = (
            "The published value is zero, so no ratio is computed."
            if published == 0
            else "One of the two values is missing, so no ratio is computed."
        )
        return Agreement("not_comparable", None, "", tolerance, why)
    ratio = measured / published
    ratio_display = f"{ratio:.2f}×"
    if blocked is not None:
        return Agreement("not_comparable", ratio, ratio_display, tolerance, blocked)
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
