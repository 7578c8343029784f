"""Peak GPU memory against input length ("does it fit on my GPU?") for inference,
parameter-efficient and full fine-tuning: recipe, point worker, runner and records; the
same runner and worker measure embedding throughput and the published efficiency claims in
`claims/`. Importing registers the recipes."""

from __future__ import annotations

from measure.memory_curve.runner import EmbeddingThroughput, MemoryCurves, claim_recipes
from measure.registry import register

register(MemoryCurves())
register(EmbeddingThroughput())
for _claim in claim_recipes():
    register(_claim)
