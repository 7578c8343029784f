from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from measure.architectures.build import build_model, parameter_count
from measure.architectures.registry import ARCHITECTURES, get_architecture
from measure.memory_curve.recipe import LONG_CONV_FAMILIES
from measure.peak_memory.plan import parameter_counts


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("nt-2-5b", 2.55e9),  # NT 2.5B with its untied MLM head
        ("nt-500m", 486e6),
        ("gena-lm-110m", 110.7e6),
        ("gena-lm-336m", 336.7e6),  # gpu-facts.md: GENA-LM large ≈ 336.7 M
        ("dnabert-s", 117_074_176),  # DNABERT-2's dimensions, as its config.json gives them
    ],
)
def test_parameter_counts_on_meta_match_published_sizes(key: str, expected: float) -> None:
    count = parameter_count(get_architecture(key))
    assert abs(count - expected) / expected < 0.005, count


def test_meta_build_allocates_nothing() -> None:
    model = build_model(get_architecture("nt-2-5b"), device="meta")
    assert all(p.device.type == "meta" for p in model.parameters())
    assert type(model).__name__ == "EsmForMaskedLM"


def test_gena_lm_is_pre_layer_norm_bert() -> None:
    model = build_model(get_architecture("gena-lm-110m"), device="meta")
    assert type(model).__name__ == "RobertaPreLayerNormForMaskedLM"


@pytest.mark.parametrize("key", sorted(ARCHITECTURES))
def test_plan_formula_agrees_with_the_built_model(key: str) -> None:
    arch = get_architecture(key)
    if arch.family in LONG_CONV_FAMILIES:  # the plan counts their published size
        assert abs(arch.published_parameters / parameter_count(arch) - 1) < 0.05
        return
    formula = parameter_counts(arch.config)
    assert abs(formula - parameter_count(arch)) / parameter_count(arch) < 0.001


def test_unknown_architecture_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="gena-lm-110m"):
        get_architecture("bert-xxl")
