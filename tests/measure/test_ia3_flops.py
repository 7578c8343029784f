"""FLOP count of an IA3 step and MFU."""

from __future__ import annotations

import re

import pytest

from measure.ia3.flops import flops_per_step, flops_per_token, mfu
from measure.peak_flops import PEAKS, UnknownDevice, peak_for


def test_flops_per_token_is_four_p_plus_attention() -> None:
    # 2P forward + 2P activation gradients; attention 4Lsh forward + 8Lsh backward
    assert flops_per_token(1000, layers=2, seq_len=10, hidden=8) == 4000 + 12 * 2 * 10 * 8


def test_flops_per_step_nt_500m_at_600_bp() -> None:
    p = 24 * (4 * 1280**2 + 2 * 1280 * 5120)
    step = flops_per_step(p, layers=24, seq_len=101, hidden=1280, global_batch=8)
    assert step == 808 * (4 * p + 12 * 24 * 101 * 1280)
    assert 1.5e12 < step < 1.6e12


def test_mfu_against_the_summed_peak() -> None:
    one = mfu(989e12 * 0.01, 0.01, gpus=1, peak_tflops=989.0)
    assert one == pytest.approx(1.0)
    assert mfu(989e12 * 0.01, 0.01, gpus=2, peak_tflops=989.0) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        mfu(1.0, 0.0, 1, 989.0)


@pytest.mark.parametrize(
    ("name", "model", "tflops"),
    [
        ("NVIDIA H200", "H200 SXM", 989.5),
        ("NVIDIA H200 NVL", "H200 NVL", 835.5),
        ("NVIDIA H100 80GB HBM3", "H100 SXM", 989.5),
        ("NVIDIA H100 PCIe", "H100 PCIe", 756.5),
        ("NVIDIA H100 NVL", "H100 NVL", 835.5),
        ("NVIDIA A100-SXM4-80GB", "A100", 312.0),
        ("NVIDIA A100-PCIE-40GB", "A100", 312.0),
        ("NVIDIA A100 80GB PCIe", "A100", 312.0),
    ],
)
def test_peak_is_looked_up_from_the_gpu_name(name: str, model: str, tflops: float) -> None:
    peak = peak_for(name)
    assert (peak.model, peak.bf16_dense_tflops) == (model, tflops)
    assert peak.url.startswith("https://www.nvidia.com/") or peak.url.startswith(
        "https://resources.nvidia.com/"
    )
    assert peak.url in peak.source and f"{tflops:g}" in peak.source


def test_dense_peak_is_half_the_printed_sparse_figure() -> None:
    for peak in PEAKS:
        sparse = re.search(r"([\d,]+) TFLOPS with sparsity", peak.printed)
        dense = re.search(r"([\d,]+) TFLOPS, ([\d,]+) with sparsity", peak.printed)
        if dense:
            assert peak.bf16_dense_tflops == float(dense.group(1)) == float(dense.group(2)) / 2
        else:
            assert sparse, peak
            assert peak.bf16_dense_tflops == float(sparse.group(1).replace(",", "")) / 2


def test_an_unknown_gpu_is_an_error_naming_it() -> None:
    with pytest.raises(UnknownDevice, match=r"'NVIDIA GeForce RTX 4090'.*peak_flops\.py"):
        peak_for("NVIDIA GeForce RTX 4090")
