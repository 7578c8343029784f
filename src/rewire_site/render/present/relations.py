"""How a record page names its relation to a related record (`derive.related` keys)."""

from __future__ import annotations

RELATION_LABELS: dict[str, str] = {
    "uses_data": "uses data",
    "used_by": "used by",
    "baseline_measurement": "baseline measurement",
    "baseline_of": "baseline of",
    "related_protocol": "related protocol",
    "protocol": "protocol",
    "assessment": "assessment",
    "tested_configuration": "tested configuration",
    "system": "system",
    "reproduces": "reproduces",
    "reproduced_by": "reproduced by",
    "configuration_of": "configuration of",
    "configuration": "configuration",
    "introduced_in": "introduced in",
    "introduces": "introduces",
    "bears_on": "bears on",
    "assessed_by": "assessed by",
    "cited_by": "cited by",
}
"""The words of each relation key, as the seed pages read them."""


def relation_label(relation: str) -> str:
    """'uses data' for 'uses_data'; a field no relation names reads as its words
    ('training_data' -> 'training data')."""
    return RELATION_LABELS.get(relation, relation.replace("_", " "))
