"""IA3 placement: keys, values and the FFN output layer, head trainable, backbone frozen."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("peft")

from measure.architectures.build import hf_config  # noqa: E402
from measure.architectures.registry import get_architecture  # noqa: E402
from measure.ia3.adapters import (  # noqa: E402
    backbone_matmul_parameters,
    build_ia3_classifier,
    count_parameters,
    expected_adapter_size,
    expected_head_size,
    trainable_names,
)


def test_trainable_parameters_are_the_adapters_and_the_head() -> None:
    config = hf_config(get_architecture("tiny-esm"))
    model = build_ia3_classifier(config, num_labels=3)
    counts = count_parameters(model, config)
    layers, hidden, ffn = 2, 32, 64
    assert counts.adapters == expected_adapter_size(config) == layers * (2 * hidden + ffn)
    assert counts.head == expected_head_size(config, 3) == hidden * hidden + hidden + 3 * hidden + 3
    assert counts.trainable == sum(p.numel() for p in model.parameters() if p.requires_grad)


def test_adapters_sit_on_key_value_and_ffn_output_only() -> None:
    config = hf_config(get_architecture("tiny-esm"))
    names = [n for n in trainable_names(build_ia3_classifier(config, 2)) if "ia3_l" in n]
    assert len(names) == 3 * config.num_hidden_layers
    assert sum(".attention.self.key." in n for n in names) == config.num_hidden_layers
    assert sum(".attention.self.value." in n for n in names) == config.num_hidden_layers
    assert sum(".output.dense." in n and ".attention." not in n for n in names) == 2
    assert not any("query" in n or "attention.output" in n for n in names)


def test_bf16_backbone_fp32_trainables_and_gradients_reach_only_them() -> None:
    config = hf_config(get_architecture("tiny-esm"))
    model = build_ia3_classifier(config, 2, backbone_dtype=torch.bfloat16)
    frozen = {p.dtype for p in model.parameters() if not p.requires_grad}
    trainable = {p.dtype for p in model.parameters() if p.requires_grad}
    assert frozen == {torch.bfloat16}
    assert trainable == {torch.float32}
    ids = torch.randint(4, 4105, (2, 11))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(input_ids=ids).logits
    torch.nn.functional.cross_entropy(logits.float(), torch.tensor([0, 1])).backward()
    assert all(p.grad is not None for p in model.parameters() if p.requires_grad)
    assert all(p.grad is None for p in model.parameters() if not p.requires_grad)


@pytest.mark.parametrize(("key", "adapters"), [("nt-500m", 184_320), ("nt-2-5b", 491_520)])
def test_nt_adapter_sizes_on_the_meta_device(key: str, adapters: int) -> None:
    config = hf_config(get_architecture(key))
    model = build_ia3_classifier(config, 2, device="meta", backbone_dtype=torch.bfloat16)
    counts = count_parameters(model, config)
    assert counts.adapters == adapters
    assert counts.head == expected_head_size(config, 2)
    assert counts.backbone_matmul == backbone_matmul_parameters(config)
