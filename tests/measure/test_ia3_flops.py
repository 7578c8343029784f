"""FLOP count of an IA3 step and MFU."""

from __future__ import annotations

import pytest

from measure.ia3.flops import H200_BF16_DENSE_TFLOPS, flops_per_step, flops_per_token, mfu


def test_flops_per_token_is_four_p_plus_attention() -> None:
    # 2P forward + 2P activation gradients; attention 4Lsh forward + 8Lsh backward
    assert flops_per_token(1000, layers=2, seq_len=10, hidden=8) == 4000 + 12 * 2 * 10 * 8


def test_flops_per_step_nt_500m_at_600_bp() -> None:
    p = 24 * (4 * 1280**2 + 2 * 1280 * 5120)
    step = flops_per_step(p, layers=24, seq_len=101, hidden=1280, global_batch=8)
    assert step == 808 * (4 * p + 12 * 24 * 101 * 1280)
    assert 1.5e12 < step < 1.6e12


def test_mfu_against_the_summed_peak() -> None:
    one = mfu(989e12 * 0.01, 0.01, gpus=1, peak_tflops=H200_BF16_DENSE_TFLOPS)
    assert one == pytest.approx(1.0)
    assert mfu(989e12 * 0.01, 0.01, gpus=2, peak_tflops=989.0) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        mfu(1.0, 0.0, 1, 989.0)
