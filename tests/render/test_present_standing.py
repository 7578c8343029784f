"""A result's standing in its column as a cell says it (render/present/standing.py)."""

from __future__ import annotations

from rewire_site.derive.comparability import ANY_HARDWARE, Conditions, Entry, standings
from rewire_site.render.present.standing import standing_text

FINE_TUNED = Conditions("fine-tuned", "test", "mcc in score", "tokens", ANY_HARDWARE)


def test_each_standing_in_words() -> None:
    unstated = Conditions("fine-tuned", "test", "mcc in score", None, None)
    ranking = standings(
        [
            Entry(0.9, FINE_TUNED, competitor="a"),
            Entry(0.8, FINE_TUNED, competitor="b"),
            Entry(0.7, FINE_TUNED, ("reproduction_disagrees",)),
            Entry(0.95, unstated),
            Entry(None, FINE_TUNED),
        ],
        "higher",
    )
    best, ranked, excluded, not_ranked, empty = ranking.standings
    assert standing_text(best) == "best of 2 comparable"
    assert standing_text(ranked) == "ranked among 2 comparable"
    assert standing_text(excluded, ["Reproduction differs"]) == (
        "excluded from comparisons: Reproduction differs"
    )
    assert standing_text(excluded) == "excluded from comparisons: reproduction_disagrees"
    assert standing_text(not_ranked) == "not ranked: length unit, hardware not stated"
    assert standing_text(empty) == ""
    (alone,) = standings([Entry(0.5, FINE_TUNED)], "higher").standings
    assert standing_text(alone) == "no comparable result"


def test_a_tie_within_the_margin_reads_tied() -> None:
    ranking = standings(
        [
            Entry(61.9, FINE_TUNED, competitor="a", margin=0.05),
            Entry(61.88, FINE_TUNED, competitor="b", margin=0.005),
            Entry(55.0, FINE_TUNED, competitor="c", margin=0.05),
        ],
        "higher",
    )
    assert standing_text(ranking.standings[0]) == "tied for best of 3 comparable"
