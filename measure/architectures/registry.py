"""The measured architectures by key, and the lookup the recipes use."""

from __future__ import annotations

from measure.architectures import decoders, encoders, esm, long_conv
from measure.architectures.spec import Architecture

ARCHITECTURES: dict[str, Architecture] = {
    a.key: a for a in (*esm.MODELS, *encoders.MODELS, *decoders.MODELS, *long_conv.MODELS)
}
"""Every model a recipe may name, by key."""

TINY: dict[str, Architecture] = {
    a.key: a for a in (*esm.TINY, *encoders.TINY, *decoders.TINY, *long_conv.TINY)
}
"""Small configurations of each kind for the GPU-free tests, by key."""


def get_architecture(key: str) -> Architecture:
    """The architecture with this key (tiny test architectures included)."""
    found = ARCHITECTURES.get(key) or TINY.get(key)
    if found is None:
        known = ", ".join(sorted(ARCHITECTURES))
        raise KeyError(f"unknown model {key!r}; known: {known}")
    return found
