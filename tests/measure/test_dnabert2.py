"""DNABERT-2 built from its published configuration (measure/dnabert2.py), on the CPU."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from measure.architectures.build import build_model, parameter_count  # noqa: E402
from measure.architectures.registry import get_architecture  # noqa: E402
from measure.dnabert2 import alibi_bias, alibi_slopes  # noqa: E402
from measure.peak_memory import train  # noqa: E402
from measure.peak_memory.plan import parameter_counts  # noqa: E402


def test_the_published_configuration_has_117m_parameters() -> None:
    arch = get_architecture("dnabert-2")
    counted = parameter_count(arch)
    assert counted == parameter_counts(arch.config) == 117_074_176
    assert round(counted / 1e6) == 117  # the checkpoint's name: DNABERT-2-117M


def test_alibi_slopes_follow_the_paper_for_12_heads() -> None:
    assert alibi_slopes(8) == pytest.approx([2.0**-k for k in range(1, 9)])
    twelve = alibi_slopes(12)
    assert twelve[:8] == pytest.approx([2.0**-k for k in range(1, 9)])
    assert twelve[8:] == pytest.approx([2.0 ** -(k / 2) for k in (1, 3, 5, 7)])
    bias = alibi_bias(12, 5)
    assert bias.shape == (1, 12, 5, 5)
    assert bias[0, 0, 0, 3].item() == pytest.approx(-3 * 0.5)
    assert torch.equal(bias, bias.transpose(-1, -2))  # bidirectional: |i - j|


def test_padding_is_ignored_and_inputs_may_outgrow_the_alibi_table() -> None:
    arch = get_architecture("tiny-dnabert-2")
    torch.manual_seed(0)
    model = build_model(arch).eval()
    ids = torch.randint(5, 1000, (1, 20))
    short = model(input_ids=ids).logits[0]
    padded_ids = torch.cat([ids, torch.full((1, 6), 3)], dim=1)
    mask = torch.cat([torch.ones(1, 20), torch.zeros(1, 6)], dim=1).long()
    padded = model(input_ids=padded_ids, attention_mask=mask).logits[0, :20]
    assert torch.allclose(short, padded, atol=1e-4)
    longer = torch.randint(5, 1000, (2, 100))  # the table starts at 64 positions
    assert model(input_ids=longer).logits.shape == (2, 100, 1000)
    assert model.alibi.shape[-1] == 100


def test_the_masked_lm_loss_scores_only_masked_positions() -> None:
    arch = get_architecture("tiny-dnabert-2")
    model = build_model(arch)
    [batch] = train.synthetic_batches(arch, batch=2, tokens=40, nucleotides=None, steps=1, seed=1)
    out = model(**batch)
    masked = int((batch["labels"] > 0).sum())
    assert out.logits.shape == (masked, 1000)
    assert math.isfinite(out.loss.item())
    out.loss.backward()
    assert model.embeddings.word_embeddings.weight.grad is not None  # tied to the decoder
