"""Peak GPU memory of a training step under progressive optimizations (Saadat and Fellay
2026, Figure 3): recipe, stage worker, runner and records. Importing registers the recipe."""

from __future__ import annotations

from measure.peak_memory.runner import PeakMemory
from measure.registry import register

register(PeakMemory())
