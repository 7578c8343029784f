"""Wall times as a reader reads them, one or two at once."""

from __future__ import annotations

from .numbers import display_number


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
