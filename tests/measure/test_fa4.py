"""The attention knob of the peak-memory recipe (flash-attn-4 beside the default), and the
transformers attention function that calls flash-attn-4, on the CPU build of torch.

flash-attn-4 runs only on NVIDIA GPUs; here its entry point is stood in for by a reference
implementation (PyTorch SDPA) with the same signature and layout, so what is checked is the
adapter: layouts, scale, refusals, and that NT's attention through it matches SDPA."""

from __future__ import annotations

import importlib.machinery
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from measure.peak_memory.recipe import Setting, load_recipe, work_items
from measure.peak_memory.stages import FA4, FA4_IMPLEMENTATION, stage_features

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")


def test_the_knob_adds_settings_only_on_flashattention_stages() -> None:
    recipe = load_recipe()
    assert set(recipe.knobs["attention"]) == {"auto", FA4}
    items = work_items(
        recipe,
        models=["nt-2-5b"],
        settings=["bf16-full-1000nt", "precision=bf16,update=full,length=1000nt,attention=" + FA4],
    )
    keys = {(i.stage.id, i.setting.attention) for i in items}
    assert ("baseline", FA4) not in keys  # no FlashAttention there to replace
    assert {("flashattention", FA4), ("checkpointing", FA4), ("deepspeed", FA4)} <= keys
    assert Setting("bf16", "full", "1000nt").id == "bf16-full-1000nt"  # old ids unchanged
    assert Setting("bf16", "full", "1000nt", attention=FA4).id == "bf16-full-1000nt-" + FA4


def test_flash_attn_4_is_never_replaced_silently(monkeypatch: pytest.MonkeyPatch) -> None:
    from measure.peak_memory import stages

    stage = load_recipe().stage("flashattention")
    monkeypatch.setattr(stages, "flash_attn_4_version", lambda: None)  # not installed
    with pytest.raises(RuntimeError, match=r"flash_attn\.cute is not importable"):
        stage_features(stage, None, FA4)
    with pytest.raises(ValueError, match="expected auto or"):
        stage_features(stage, None, "xformers")
    assert stage_features(stage, None).attn_implementation == "sdpa"
    monkeypatch.setattr(stages, "flash_attn_4_version", lambda: "4.0.0b36")
    features = stage_features(stage, None, FA4)
    assert features.attn_implementation == FA4_IMPLEMENTATION
    assert features.attention_backend.startswith("flash-attn-4 4.0.0b36")
    assert not features.sdpa_flash_only


@pytest.fixture
def reference_fa4(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """`flash_attn.cute.flash_attn_func` as SDPA in the package's (batch, length, heads,
    dim) layout, returning (out, lse) as the package does; calls are recorded."""
    calls: list[dict[str, Any]] = []

    def flash_attn_func(q: Any, k: Any, v: Any, softmax_scale: Any = None, causal: bool = False):
        calls.append({"shape": tuple(q.shape), "scale": softmax_scale, "causal": causal})
        out = torch.nn.functional.scaled_dot_product_attention(
            q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
            scale=softmax_scale, is_causal=causal,
        )  # fmt: skip
        return out.transpose(1, 2), None

    package = types.ModuleType("flash_attn")
    cute = types.ModuleType("flash_attn.cute")
    package.__spec__ = importlib.machinery.ModuleSpec("flash_attn", None, is_package=True)
    cute.__spec__ = importlib.machinery.ModuleSpec("flash_attn.cute", None)
    cute.flash_attn_func = flash_attn_func  # type: ignore[attr-defined]
    package.cute = cute  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "flash_attn", package)
    monkeypatch.setitem(sys.modules, "flash_attn.cute", cute)
    yield calls


def test_nt_attention_through_the_adapter_matches_sdpa(reference_fa4: list[Any]) -> None:
    from measure.architectures.build import build_model
    from measure.architectures.registry import get_architecture
    from measure.peak_memory.stages import register_flash_attn_4

    register_flash_attn_4()
    arch = get_architecture("tiny-esm")
    torch.manual_seed(0)
    sdpa = build_model(arch, attn_implementation="sdpa").eval()
    fa4 = build_model(arch, attn_implementation=FA4_IMPLEMENTATION).eval()
    fa4.load_state_dict(sdpa.state_dict())
    ids = torch.randint(5, 4000, (2, 30))
    expected = sdpa(input_ids=ids).logits
    got = fa4(input_ids=ids).logits
    assert torch.allclose(expected, got, atol=1e-5)
    assert reference_fa4, "the adapter did not call flash_attn_func"
    assert reference_fa4[0]["shape"] == (2, 30, 4, 8)  # batch, length, heads, head dim
    assert reference_fa4[0]["scale"] == 1.0  # ESM scales the query itself
    assert reference_fa4[0]["causal"] is False


def test_the_adapter_refuses_dropout_and_hiding_masks(reference_fa4: list[Any]) -> None:
    from measure.peak_memory.stages import fa4_attention_forward

    q = torch.randn(1, 2, 4, 8)
    module = types.SimpleNamespace(is_causal=False)
    with pytest.raises(ValueError, match="no attention dropout"):
        fa4_attention_forward(module, q, q, q, None, dropout=0.1)
    hiding = torch.ones(1, 1, 4, 4, dtype=torch.bool)
    hiding[..., -1] = False
    with pytest.raises(ValueError, match="hides positions"):
        fa4_attention_forward(module, q, q, q, hiding)
    out, weights = fa4_attention_forward(module, q, q, q, torch.zeros(1, 1, 4, 4))
    assert out.shape == (1, 4, 2, 8) and weights is None
