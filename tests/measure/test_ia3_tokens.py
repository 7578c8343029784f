"""NT's 6-mer tokenisation rule and the NT benchmark task shapes."""

from __future__ import annotations

import numpy as np
import pytest

from measure.ia3.tasks import DEFAULT_TASK, TASKS, task
from measure.ia3.tokens import (
    CLS,
    FIRST_KMER,
    FIRST_SINGLE,
    VOCAB_SIZE,
    decode_codes,
    token_count,
    tokenize,
    tokenize_codes,
)


@pytest.mark.parametrize(("length", "tokens"), [(300, 51), (500, 86), (600, 101), (1000, 171)])
def test_token_counts_follow_the_6mer_rule(length: int, tokens: int) -> None:
    assert token_count(length) == tokens
    assert len(tokenize("ACGT" * (length // 4) + "ACGT"[: length % 4])) == tokens


def test_vocabulary_matches_nt_size() -> None:
    assert VOCAB_SIZE == 4105


def test_tokenize_splits_kmers_leftovers_and_n() -> None:
    assert tokenize("AAAAAA") == [CLS, FIRST_KMER]
    assert tokenize("TAAAAA")[1] == FIRST_KMER + 4**5  # T is code 1 in the leading place
    # 7 bases: one 6-mer and one single; N splits the stretch and is a single token itself
    assert tokenize("AAAAAAC") == [CLS, FIRST_KMER, FIRST_SINGLE + 2]
    ids = tokenize("AAAAAANGG")
    assert ids == [CLS, FIRST_KMER, FIRST_SINGLE + 4, FIRST_SINGLE + 3, FIRST_SINGLE + 3]


def test_tokenize_rejects_other_letters() -> None:
    with pytest.raises(ValueError, match="unexpected characters"):
        tokenize("ACGU")


def test_vectorised_tokenizer_equals_the_reference() -> None:
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 4, size=(5, 500))
    ids = tokenize_codes(codes)
    assert ids.shape == (5, 86)
    for row, seq in zip(ids, codes, strict=True):
        assert row.tolist() == tokenize(decode_codes(seq.tolist()))
    assert ids.max() < VOCAB_SIZE


def test_task_shapes() -> None:
    assert task(DEFAULT_TASK).length_bp == 600
    assert {t.length_bp for t in TASKS.values()} == {200, 300, 400, 500, 600}
    with pytest.raises(ValueError, match="known"):
        task("no_such_task")
