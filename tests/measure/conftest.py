"""Shared fixtures of the measure/ tests: tiny recipes and specs on the CPU torch build."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
TINY_RECIPE = FIXTURES / "tiny_recipe.yaml"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def tiny_spec() -> Any:
    """A worker spec for a tiny model on the CPU (stage and setting given by the test)."""
    from measure.peak_memory.recipe import load_recipe

    recipe = load_recipe(TINY_RECIPE)

    def make(model: str, stage: str, **setting: str) -> dict[str, Any]:
        chosen = {"precision": "bf16", "update": "full", "length": "1000nt", **setting}
        entry = recipe.model(model)
        tokens, _ = recipe.tokens(entry, chosen["length"])
        return {
            "recipe": recipe.id,
            "protocol": recipe.protocol,
            "run_id": "20261129-000000",
            "item": f"{model}--{stage}--" + "-".join(chosen.values()),
            "model": model,
            "stage": recipe.stage(stage).__dict__,
            "setting": chosen,
            "tokens": tokens,
            "nucleotides": 1000 if chosen["length"].endswith("nt") else None,
            "batch": 2,
            "steps": 2,
            "seed": 42,
            "optimizer": dict(recipe.optimizer),
            "lora": dict(recipe.lora),
            "deepspeed": dict(recipe.deepspeed),
            "device": "cpu",
            "command": "pytest",
        }

    return make
