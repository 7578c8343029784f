"""NT's tokenisation rule: non-overlapping 6-mers, leftover bases as single tokens, CLS first.

The vocabulary has 4105 entries like NT's: 4 special tokens (<unk> 0, <pad> 1, <mask> 2,
<cls> 3), the 4096 6-mers over A, T, C, G in lexicographic order (4..4099) and the five
single bases A, T, C, G, N (4100..4104). The exact id order is Rewire's own: with random
weights only the count and the lengths matter. A stretch containing N is split into single
bases at the N, as NT's tokenizer does; the synthetic data contain no N.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

UNK, PAD, MASK, CLS = 0, 1, 2, 3
K = 6
BASES = "ATCG"
FIRST_KMER = 4
FIRST_SINGLE = FIRST_KMER + 4**K  # 4100
SINGLES = "ATCGN"
VOCAB_SIZE = FIRST_SINGLE + len(SINGLES)  # 4105


def token_count(length_bp: int) -> int:
    """Tokens of an N-free sequence of `length_bp` bases: CLS + 6-mers + leftover bases."""
    if length_bp < 0:
        raise ValueError(f"length must be >= 0, got {length_bp}")
    return 1 + length_bp // K + length_bp % K


def _kmer_id(chunk: str) -> int:
    value = 0
    for base in chunk:
        value = value * 4 + BASES.index(base)
    return FIRST_KMER + value


def tokenize(sequence: str) -> list[int]:
    """Token ids of one DNA sequence (A, C, G, T, N; case-insensitive), CLS first."""
    seq = sequence.upper()
    bad = set(seq) - set(SINGLES)
    if bad:
        raise ValueError(f"unexpected characters in DNA sequence: {sorted(bad)}")
    ids = [CLS]
    for stretch_index, stretch in enumerate(seq.split("N")):
        if stretch_index > 0:
            ids.append(FIRST_SINGLE + SINGLES.index("N"))
        full = len(stretch) - len(stretch) % K
        ids.extend(_kmer_id(stretch[i : i + K]) for i in range(0, full, K))
        ids.extend(FIRST_SINGLE + SINGLES.index(b) for b in stretch[full:])
    return ids


def tokenize_codes(codes: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Vectorised `tokenize` for N-free sequences of one length, given as base codes.

    `codes` has shape (n, length) with values 0..3 meaning A, T, C, G; the result has shape
    (n, token_count(length)) and equals `tokenize` row by row.
    """
    if codes.ndim != 2:
        raise ValueError(f"codes must be 2-D (n, length), got shape {codes.shape}")
    if codes.size and (codes.min() < 0 or codes.max() > 3):
        raise ValueError("codes must be 0..3 (A, T, C, G)")
    n, length = codes.shape
    full = length - length % K
    kmers = codes[:, :full].reshape(n, full // K, K).astype(np.int64)
    weights = 4 ** np.arange(K - 1, -1, -1, dtype=np.int64)
    kmer_ids = FIRST_KMER + kmers @ weights
    singles = FIRST_SINGLE + codes[:, full:].astype(np.int64)
    cls = np.full((n, 1), CLS, dtype=np.int64)
    return np.concatenate([cls, kmer_ids, singles], axis=1)


def decode_codes(codes: Sequence[int]) -> str:
    """Bases of a code row (0..3 -> A, T, C, G), for tests and logs."""
    return "".join(BASES[c] for c in codes)
