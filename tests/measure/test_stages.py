from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

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


def test_flash_attn_is_detected_by_its_flash_attention_2_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """flash-attn-4 installs only flash_attn/cute (no FlashAttention 2 API): the stage
    falls back to SDPA; a package with flash_attn_interface is used."""
    from measure.peak_memory.stages import flash_attn_version

    cute_only = tmp_path / "fa4"
    (cute_only / "flash_attn" / "cute").mkdir(parents=True)
    (cute_only / "flash_attn" / "cute" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(cute_only))
    for name in [m for m in sys.modules if m == "flash_attn" or m.startswith("flash_attn.")]:
        monkeypatch.delitem(sys.modules, name)
    assert importlib.util.find_spec("flash_attn") is not None  # the name alone is found
    assert flash_attn_version() is None
    monkeypatch.delitem(sys.modules, "flash_attn", raising=False)
    fa2 = tmp_path / "fa2"
    (fa2 / "flash_attn").mkdir(parents=True)
    (fa2 / "flash_attn" / "__init__.py").write_text("")
    (fa2 / "flash_attn" / "flash_attn_interface.py").write_text("")
    monkeypatch.syspath_prepend(str(fa2))
    importlib.invalidate_caches()
    assert flash_attn_version() is not None
