"""Seeded synthetic sequences with the shape of one NT benchmark task.

Bases are drawn uniformly from A, T, C, G and labels uniformly from the task's classes:
the data carry no signal and serve run time alone. A fold's training portion (90% of the
task's training set, as in NT's 10-fold cross-validation with a 90/10 split) is generated;
batches are drawn epoch by epoch from seeded permutations, the same on every process, and
each process takes its contiguous share of every global batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .tasks import TaskShape
from .tokens import token_count, tokenize_codes

TRAIN_FRACTION = 0.9

GENERATOR_DESCRIPTION = (
    "Uniform random bases (A, T, C, G) and uniform random labels from numpy's default_rng "
    "(PCG64) with the run's seed, tokenised by NT's 6-mer rule (non-overlapping 6-mers, "
    "leftover bases as single tokens, CLS first); 90% of the task's training-set size, "
    "drawn in seeded epoch permutations. The data carry no signal: they serve run time only."
)


@dataclass(frozen=True)
class SyntheticTask:
    """Token ids (rows, tokens) and labels (rows,) of one synthetic task."""

    shape: TaskShape
    token_ids: npt.NDArray[np.int64]
    labels: npt.NDArray[np.int64]

    @property
    def tokens_per_sequence(self) -> int:
        return int(self.token_ids.shape[1])


def fold_rows(shape: TaskShape) -> int:
    """Rows in one fold's training portion."""
    return int(shape.train_size * TRAIN_FRACTION)


def generate(shape: TaskShape, seed: int, rows: int | None = None) -> SyntheticTask:
    """Synthetic token ids and labels with `shape`'s length and class count."""
    n = fold_rows(shape) if rows is None else rows
    if n < 1:
        raise ValueError(f"rows must be >= 1, got {n}")
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 4, size=(n, shape.length_bp), dtype=np.int8)
    labels = rng.integers(0, shape.classes, size=n, dtype=np.int64)
    ids = tokenize_codes(codes)
    assert ids.shape == (n, token_count(shape.length_bp))
    return SyntheticTask(shape=shape, token_ids=ids, labels=labels)


def batch_indices(rows: int, steps: int, global_batch: int, seed: int) -> npt.NDArray[np.int64]:
    """Row indices of every global batch, shape (steps, global_batch).

    Epochs are seeded permutations of all rows laid end to end, so every row is seen once
    per epoch; the same seed gives the same batches on every process.
    """
    if rows < 1 or steps < 1 or global_batch < 1:
        raise ValueError("rows, steps and global_batch must all be >= 1")
    needed = steps * global_batch
    rng = np.random.default_rng(seed + 1)
    epochs = -(-needed // rows)
    order = np.concatenate([rng.permutation(rows) for _ in range(epochs)])
    return order[:needed].reshape(steps, global_batch).astype(np.int64)


def local_share(batch: npt.NDArray[np.int64], rank: int, world_size: int) -> npt.NDArray[np.int64]:
    """The columns of a global batch (…, global_batch) that process `rank` trains on."""
    global_batch = batch.shape[-1]
    if world_size < 1 or global_batch % world_size:
        raise ValueError(f"global batch {global_batch} is not divisible by {world_size} processes")
    if not 0 <= rank < world_size:
        raise ValueError(f"rank {rank} outside 0..{world_size - 1}")
    per_rank = global_batch // world_size
    return batch[..., rank * per_rank : (rank + 1) * per_rank]
