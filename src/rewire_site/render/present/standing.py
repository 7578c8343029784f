"""Where a result stands in its column, as a cell says it (`derive.comparability` ranks)."""

from __future__ import annotations

from collections.abc import Sequence

from ...derive.comparability import Condition, Standing

CONDITION_NAMES: dict[Condition, str] = {
    "adaptation": "adaptation",
    "split": "split",
    "length_unit": "length unit",
    "hardware": "hardware",
}
"""How a cell names a condition its result leaves unstated."""

STANDING_LABELS: dict[str, str] = {
    "best": "best of {n} comparable",
    "tied": "tied for best of {n} comparable",
    "ranked": "ranked among {n} comparable",
    "alone": "no comparable result",
    "unstated": "not ranked: {why}",
    "excluded": "excluded from comparisons: {why}",
    "no_value": "",
}
"""What a cell says about its place in the comparison ({n}: group size; {why}: reason)."""


def standing_text(standing: Standing, excluded_by: Sequence[str] | None = None) -> str:
    """'best of 3 comparable', 'not ranked: length unit not stated', 'excluded from
    comparisons: Evidence concern', ... `excluded_by`: the labels of what takes an excluded
    result out of comparisons (default: the standing's own `excluded_by`)."""
    why = ""
    if standing.state == "unstated":
        why = ", ".join(CONDITION_NAMES[c] for c in standing.unstated) + " not stated"
    elif standing.state == "excluded":
        why = "; ".join(standing.excluded_by if excluded_by is None else excluded_by)
    return STANDING_LABELS[standing.state].format(n=standing.group_size, why=why)
