"""The peak-memory records' card limitation, read from the GPU the log names: an H100 is
the paper's card class, so its records say so and give its memory against the paper's
94 GB; any other card keeps the 'not checked on an H100' wording."""

from __future__ import annotations

from measure.peak_memory.records import card_limitation

H100 = {"gpu": "NVIDIA H100 80GB HBM3", "gpu_memory_gb": 85.017}
H200 = {"gpu": "NVIDIA H200", "gpu_memory_gb": 150.11}


def test_an_h100_point_names_its_card_and_memory_against_the_papers_94_gb() -> None:
    text = card_limitation(H100, out_of_memory=False)
    assert text.startswith("Measured on NVIDIA H100 80GB HBM3 (85 GB), an H100 as in the paper")
    assert "94 GB" in text
    assert "not checked" not in text
    assert "ran out" not in text


def test_an_h100_point_that_ran_out_of_memory_says_the_papers_card_might_have_held_it() -> None:
    text = card_limitation(H100, out_of_memory=True)
    assert text.endswith(
        "This point ran out of this card's memory; the paper's 94 GB might have held it."
    )


def test_another_card_says_the_h100_match_was_not_checked() -> None:
    for out_of_memory in (False, True):
        text = card_limitation(H200, out_of_memory=out_of_memory)
        assert text == (
            "Measured on NVIDIA H200; the paper used an H100 (94 GB). Allocator peaks follow "
            "from the program, not the card, while it fits; that they match on an H100 was "
            "not checked."
        )


def test_the_card_is_read_from_the_log_not_assumed() -> None:
    nvl = {"gpu": "NVIDIA H100 NVL", "gpu_memory_gb": 99.9}
    assert card_limitation(nvl, out_of_memory=False).startswith(
        "Measured on NVIDIA H100 NVL (100 GB), an H100"
    )
