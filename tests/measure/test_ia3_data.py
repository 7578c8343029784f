"""Synthetic NT-benchmark-shaped data: shapes, token counts, labels, batches and shares."""

from __future__ import annotations

import numpy as np
import pytest

from measure.ia3.data import batch_indices, fold_rows, generate, local_share
from measure.ia3.tasks import TaskShape, task


@pytest.mark.parametrize(("name", "tokens"), [("promoter_all", 51), ("H3", 86)])
def test_generate_gives_the_tasks_shape(name: str, tokens: int) -> None:
    shape = task(name)
    data = generate(shape, seed=1, rows=64)
    assert data.token_ids.shape == (64, tokens)
    assert data.labels.shape == (64,)
    assert set(np.unique(data.labels)) <= set(range(shape.classes))
    assert data.tokens_per_sequence == tokens


def test_default_rows_are_one_fold() -> None:
    shape = TaskShape("x", 600, 3, 1000, "revised")
    assert fold_rows(shape) == 900
    data = generate(shape, seed=0)
    assert data.token_ids.shape == (900, 101)
    assert set(np.unique(data.labels)) == {0, 1, 2}


def test_same_seed_same_data_other_seed_other_data() -> None:
    shape = task("H3")
    a, b, c = generate(shape, 5, rows=8), generate(shape, 5, rows=8), generate(shape, 6, rows=8)
    assert np.array_equal(a.token_ids, b.token_ids)
    assert not np.array_equal(a.token_ids, c.token_ids)


def test_batches_cover_every_row_once_per_epoch() -> None:
    order = batch_indices(rows=10, steps=5, global_batch=4, seed=0)
    assert order.shape == (5, 4)
    first_epoch = order.reshape(-1)[:10]
    assert sorted(first_epoch.tolist()) == list(range(10))


def test_local_shares_partition_the_global_batch() -> None:
    order = batch_indices(rows=100, steps=3, global_batch=8, seed=0)
    shares = [local_share(order, r, 2) for r in range(2)]
    assert all(s.shape == (3, 4) for s in shares)
    assert np.array_equal(np.concatenate(shares, axis=-1), order)
    with pytest.raises(ValueError, match="not divisible by 3"):
        local_share(order, 0, 3)
    with pytest.raises(ValueError, match="outside"):
        local_share(order, 2, 2)
