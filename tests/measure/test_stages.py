from __future__ import annotations

from measure.peak_memory.recipe import load_recipe
from measure.peak_memory.stages import stage_features


def _features(flash_attn: str | None = None) -> dict[str, object]:
    recipe = load_recipe()
    return {s.id: stage_features(s, flash_attn) for s in recipe.stages}


def test_stages_are_cumulative() -> None:
    f = _features()
    assert f["baseline"].attn_implementation == "eager"
    assert not f["baseline"].checkpointing and not f["baseline"].zero2_offload
    assert f["flashattention"].sdpa_flash_only and not f["flashattention"].checkpointing
    assert f["checkpointing"].sdpa_flash_only and f["checkpointing"].checkpointing
    assert f["checkpointing"].zero2_offload is False
    d = f["deepspeed"]
    assert d.sdpa_flash_only and d.checkpointing and d.zero2_offload


def test_flash_attn_package_is_used_when_importable() -> None:
    f = _features("2.8.3")
    assert f["flashattention"].attn_implementation == "flash_attention_2"
    assert not f["flashattention"].sdpa_flash_only
    assert "flash_attn 2.8.3" in f["flashattention"].attention_backend
    assert f["baseline"].attn_implementation == "eager"


def test_without_flash_attn_the_record_names_the_sdpa_backend() -> None:
    f = _features(None)
    assert f["deepspeed"].attn_implementation == "sdpa"
    assert "SDPBackend.FLASH_ATTENTION" in f["deepspeed"].attention_backend
