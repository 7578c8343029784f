"""HyenaDNA efficiency claims checked with random weights: GPU fit of each checkpoint
(huggingface.py), the checkpointing memory saving (README), one training step at 1M tokens
(huggingface.py) and the run time against a Transformer (paper, Figure 4.1). One recipe per
protocol, registered on import; a shared model (`model.py`), worker and record writer."""

from __future__ import annotations

from measure.hyenadna.recipe import load_recipe
from measure.hyenadna.runner import HyenaProtocolRecipe
from measure.registry import register

for _key in load_recipe().protocols:
    register(HyenaProtocolRecipe(_key))
