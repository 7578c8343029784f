"""Peak GPU memory against input length ("does it fit on my GPU?") for inference,
parameter-efficient and full fine-tuning: recipe, point worker, runner and records.
Importing registers the recipe."""

from __future__ import annotations

from measure.memory_curve.runner import EmbeddingThroughput, MemoryCurves
from measure.registry import register

register(MemoryCurves())
register(EmbeddingThroughput())
