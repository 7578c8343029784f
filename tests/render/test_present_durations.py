"""Wall times as a reader sees them: a run of seconds never reads '0.0 minutes'."""

from __future__ import annotations

import pytest

from rewire_site.render.present.durations import display_duration, display_duration_span


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (4.0, "4 seconds"),
        (1.0, "1 second"),
        (0.52, "0.52 seconds"),
        (59.4, "59.4 seconds"),
        (60.0, "1 minute"),
        (235.0, "3.92 minutes"),
        (337.8, "5.63 minutes"),
    ],
)
def test_display_duration(seconds: float, text: str) -> None:
    assert display_duration(seconds) == text


def test_display_duration_span_says_a_shared_unit_once() -> None:
    assert display_duration_span(4.0, 4.0) == "4 seconds"
    assert display_duration_span(4.0, 9.0) == "4 to 9 seconds"
    assert display_duration_span(120.0, 300.0) == "2 to 5 minutes"
    assert display_duration_span(40.0, 150.0) == "40 seconds to 2.5 minutes"


def test_a_run_within_one_recorded_second_is_not_zero_seconds() -> None:
    """Start and end are recorded to the second: equal stamps mean under a second."""
    assert display_duration(0.0) == "under 1 second"
    assert display_duration_span(0.0, 14.0) == "up to 14 seconds"
    assert display_duration_span(0.0, 0.0) == "under 1 second"
    assert display_duration_span(0.0, 150.0) == "up to 2.5 minutes"
