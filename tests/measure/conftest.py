"""Shared fixtures of the measure/ tests: tiny recipes and specs on the CPU torch build.

DeepSpeed compiles its CPU Adam op with g++ on first use (about two and a half minutes on
two cores). The compiled op goes to `.cache/torch_extensions/` inside the project
(git-ignored; CI keeps it between runs), never to `~/.cache`: set here, before any test
imports DeepSpeed, so every run finds the same cache and the suite's time is stable.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from ia3_runs import ia3_cpu_logs  # noqa: F401  (one definition: the CPU runs are made once)

FIXTURES = Path(__file__).parent / "fixtures"
TINY_RECIPE = FIXTURES / "tiny_recipe.yaml"
REPO = Path(__file__).resolve().parents[2]
TORCH_EXTENSIONS = REPO / ".cache" / "torch_extensions"
os.environ["TORCH_EXTENSIONS_DIR"] = str(TORCH_EXTENSIONS)


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
