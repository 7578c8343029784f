"""An agreement between a measurement and the published value it reproduces, in words
(`derive.agreement` holds the facts)."""

from __future__ import annotations

from ...derive.agreement import Agreement
from ...derive.comparability import HardwareBlock, HardwareClass
from ...models import Protocol
from .metrics import metric_dependence
from .numbers import display_number

INCOMPLETE_TEXT = (
    "The measurement is an incomplete run: it covered fewer steps or samples than the "
    "protocol asks and claims no value, so no ratio or agreement is computed (its note "
    "says why; its observations hold what was measured)."
)
"""Why an incomplete run has no ratio or agreement."""

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


def hardware_text(hardware: HardwareClass) -> str:
    """'H200 × 2', 'A100 + H100' (the count not recorded): an accelerator class."""
    names = " + ".join(hardware.accelerators)
    return f"{names} × {hardware.count}" if hardware.count else names


def blocked_text(block: HardwareBlock, protocol: Protocol) -> str:
    """Why agreement is not judged on hardware grounds, as a reader reads it."""
    measured, published = (
        hardware_text(h) if h is not None else None for h in (block.measured, block.published)
    )
    return (
        f"The protocol declares that {metric_dependence(protocol, True, lower=True)}, "
        f"and this ran on {measured or 'unstated hardware'}, the published value "
        f"on {published or 'hardware the source does not state'}."
    )


def agreement_text(found: Agreement, protocol: Protocol) -> str:
    """The agreement in a sentence for the reader (`protocol`: the one both values are
    measured under, which says why hardware blocks a judgement)."""
    if found.state == "not_comparable":
        if found.reason == "zero":
            return "The published value is zero, so no ratio is computed."
        if found.reason == "missing":
            return "One of the two values is missing, so no ratio is computed."
        if found.reason == "incomplete":
            return INCOMPLETE_TEXT
        assert found.block is not None, "a blocked agreement names its hardware"
        return blocked_text(found.block, protocol)
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
