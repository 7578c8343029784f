"""The fits page's answers as a reader reads them (render/fits/answers.answer_text): each
state of a length or batch answer (derive.fits.Answer, facts) in its sentence."""

from __future__ import annotations

import pytest

from rewire_site.derive.fits import Answer, BasePairs, Skipped, largest_batch, longest_length
from rewire_site.render.fits.answers import answer_text, cell, skipped_text, tokeniser_text


@pytest.mark.parametrize(
    ("answer", "text"),
    [
        (Answer("not_measured", None, None), "not measured"),
        (Answer("fits_all", 512, "e"), "fits at every measured length (up to 512 tokens)"),
        (Answer("fits_up_to", 128, "e", stop=256), "128 tokens (256 tokens did not fit)"),
        (
            Answer("fits_up_to", 64, "e", stop=128, stop_undetermined=True),
            "64 tokens (at 128 tokens: not determined)",
        ),
        (
            Answer("fits_up_to", 512, "e", stop=1000),
            "512 tokens (1,000 tokens did not fit)",
        ),
        (
            Answer("fits_none", None, "e", stop=64),
            "does not fit at the shortest measured length (64 tokens)",
        ),
        (
            Answer("undetermined", None, "e", stop=64, stop_undetermined=True),
            "not determined at the shortest measured length (64 tokens)",
        ),
        (Answer("not_measured", None, None, "batch", tokens=1024), "not measured at 1,024 tokens"),
        (Answer("fits_all", 8, "e", "batch", tokens=512), "batch 8, the largest measured"),
        (Answer("fits_up_to", 1, "e", "batch", 8, tokens=512), "batch 1 (batch 8 did not fit)"),
        (
            Answer("fits_up_to", 1, "e", "batch", 8, True, 512),
            "batch 1 (at batch 8: not determined)",
        ),
        (Answer("fits_none", None, "e", "batch", 1, tokens=512), "batch 1 does not fit"),
        (
            Answer("undetermined", None, "e", "batch", 1, True, 512),
            "not determined at batch 1",
        ),
    ],
)
def test_each_answer_reads_as_a_sentence(answer: Answer, text: str) -> None:
    assert answer_text(answer) == text


def test_a_cell_links_the_record_behind_the_answer() -> None:
    found = cell(Answer("fits_up_to", 128, "eval-x", stop=256))
    assert (found.text, found.state) == ("128 tokens (256 tokens did not fit)", "fits_up_to")
    assert found.href == "evaluations/eval-x/index.html"
    assert cell(Answer("not_measured", None, None)).href == ""


def test_answers_of_no_points_read_as_not_measured() -> None:
    assert answer_text(longest_length([], 80)) == "not measured"
    assert answer_text(largest_batch([], 80, 512)) == "not measured at 512 tokens"


def test_a_skipped_record_says_why_it_is_no_curve_point() -> None:
    assert skipped_text(Skipped("e", "results", "2")) == "2 results (a curve point has one)"
    assert skipped_text(Skipped("e", "unit", "percent")) == (
        "unit 'percent' (the curves are in gigabyte)"
    )
    assert skipped_text(Skipped("e", "tokens")) == "no setting tokens_per_sequence"


def test_disagreeing_tokenisers_read_side_by_side() -> None:
    assert tokeniser_text(BasePairs(("3-mer", "6-mer"), None, 0, None)) == "3-mer / 6-mer"
