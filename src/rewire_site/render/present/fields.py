"""A record's field path as a reader reads it: no page shows a dotted path."""

from __future__ import annotations

import re

_INDEXED = re.compile(r"^\d+$")


def field_text(path: str) -> str:
    """A record's field path as a reader reads it: 'results.0.coverage' -> 'result 1,
    coverage'; 'checkpoints.2.facts.max_positions' -> 'checkpoint 3, facts, max
    positions'; 'comparison.dataset_version' -> 'comparison, dataset version'. A list's
    name is singular and its item counted from 1, so no page shows a dotted path."""
    parts: list[str] = []
    for segment in path.split("."):
        if _INDEXED.match(segment) and parts:
            name = parts.pop()
            singular = name[:-1] if name.endswith("s") and not name.endswith("ss") else name
            parts.append(f"{singular} {int(segment) + 1}")
        else:
            parts.append(segment.replace("_", " "))
    return ", ".join(parts)
