"""Why two results of a task page's overlap cannot be ranked together, as the page says it
(`derive.overlaps.not_comparable` finds the reasons)."""

from __future__ import annotations

from ...derive.overlaps import Unlike

_FIXED = {
    "protocol": "different protocols",
    "hardware": "a hardware-dependent metric on hardware not stated alike",
    "no_value": "a result without a value",
}


def unlike_text(reason: Unlike) -> str:
    """'different protocols', 'split differs (test / not stated)', ..."""
    if reason.kind in _FIXED:
        return _FIXED[reason.kind]
    first, second = (v if v is not None else "not stated" for v in (reason.first, reason.second))
    return f"{reason.kind} differs ({first} / {second})"
