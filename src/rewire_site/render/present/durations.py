"""Wall times as a reader reads them, two at once."""

from __future__ import annotations

from ...derive.display import display_duration


def display_duration_span(low: float, high: float) -> str:
    """'4 seconds', '4 to 9 seconds', '40 seconds to 2.5 minutes': two wall times in
    seconds, each read as `display_duration` reads it, the unit said once where shared;
    'up to 14 seconds' from zero (a run within one recorded second)."""
    first, last = display_duration(low), display_duration(high)
    if first == last:
        return first
    if low == 0:
        return f"up to {last}"
    a, unit_a = first.rsplit(" ", 1)
    b, unit_b = last.rsplit(" ", 1)
    if unit_a.rstrip("s") == unit_b.rstrip("s"):
        return f"{a} to {b} {unit_b}"
    return f"{first} to {last}"
