"""Model facts of a family's checkpoints (v2 `checkpoints[].facts`) as table rows: one per
checkpoint and fact, with the value as printed, its unit, its source and any concern an
editor recorded about that field (for example a config.json that contradicts the paper),
or why the fact is missing."""

from __future__ import annotations

from dataclasses import dataclass

from ..link import Catalogue
from ..models import ModelFamily
from .model_directory import NOT_IN_SOURCES
from .present.citations import cite
from .present.missing import missing_text
from .present.numbers import display_number

FACT_LABELS: dict[str, str] = {
    "parameters": "Parameters",
    "layers": "Layers",
    "hidden_size": "Hidden size",
    "attention_heads": "Attention heads",
    "vocabulary_size": "Vocabulary size",
    "max_positions": "Maximum positions",
    "position_embedding": "Position embedding",
    "tokeniser": "Tokeniser",
    "pretraining_data": "Pre-training data",
    "context_length_trained": "Context length in pre-training",
    "context_length_accepted": "Longest input accepted",
    "training_compute": "Pre-training compute",
    "batch_size_tokens": "Pre-training batch in tokens",
    "weights_licence": "Licence of the weights",
}


@dataclass(frozen=True)
class FactRow:
    checkpoint: str
    label: str
    value: str
    """As printed where the source printed it, else the stored value; or why it is
    missing ('Not reported by the source: ...')."""
    unit: str
    missing: bool
    source_id: str | None
    source_title: str
    locator: str
    quote: str | None
    concerns: tuple[str, ...]
    """Texts of the concerns recorded on this field (Markdown)."""
    qualifiers: tuple[str, ...] = ()
    """How the source qualifies the value (`models.family.Qualifier`)."""
    applies_to: str = ""
    """What the value is stated for when not this checkpoint."""
    base_pairs: str = ""
    """The base pairs a source states beside a length in tokens, as printed ('12kbp')."""


def fact_rows(family: ModelFamily, catalogue: Catalogue) -> tuple[FactRow, ...]:
    """Every fact of every checkpoint that has facts, in field order."""
    rows = []
    concerns = getattr(family, "concerns", [])
    for i, checkpoint in enumerate(family.checkpoints):
        facts = getattr(checkpoint, "facts", None)
        if facts is None:
            continue
        for name, label in FACT_LABELS.items():
            path = f"checkpoints.{i}.facts.{name}"
            about = tuple(c.text for c in concerns if getattr(c, "field", None) == path)
            fact = getattr(facts, name, None)
            if fact is None:
                why = missing_text(family, path)
                text = (
                    NOT_IN_SOURCES
                    if path not in family.missing_metadata
                    else why.long_label + (f": {why.note}" if why.note else "")
                )
                rows.append(
                    FactRow(
                        checkpoint.name,
                        label,
                        text,
                        "",
                        True,
                        None,
                        "",
                        "",
                        None,
                        about,
                    )
                )
                continue
            view = cite(fact.citation, catalogue)
            value = fact.printed_value or (
                display_number(fact.value) if isinstance(fact.value, float) else str(fact.value)
            )
            rows.append(
                FactRow(
                    checkpoint.name,
                    label,
                    value,
                    fact.unit or "",
                    False,
                    view.source_id,
                    view.source_title,
                    view.locator,
                    view.quote,
                    about,
                    tuple(fact.qualifiers),
                    fact.applies_to or "",
                    ""
                    if fact.base_pairs is None
                    else fact.base_pairs.printed_value or display_number(fact.base_pairs.value),
                )
            )
    return tuple(rows)
