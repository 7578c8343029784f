"""Model family: a named line of models, its published checkpoints and their facts."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from .common import Citation, FiniteFloat, RecordBase, Slug, Strict, Text, WebUrl, reportable
from .evaluation import RunConditions


class Fact(Strict):
    """One fact about a checkpoint, as a source states it."""

    value: FiniteFloat | Text = Field(
        description="The value: a number (in `unit`) or a text (e.g. 'rotary', 'BPE')."
    )
    unit: Text | None = Field(
        default=None,
        description="Unit of a number: parameter, token, nucleotide, base-pair, ... "
        "(pre-training volume: token or nucleotide, as the source counts).",
    )
    printed_value: Text | None = Field(
        default=None, description="The value exactly as printed ('2.5B', '1T tokens')."
    )
    citation: Citation = Field(description="Where the source states it, with the quote.")

    @model_validator(mode="after")
    def _printed_agrees(self) -> Fact:
        from .printed import check_printed

        if isinstance(self.value, float) and self.printed_value is not None:
            problem = check_printed(self.value, self.printed_value)
            if problem:
                raise ValueError(f"value: {problem}")
        return self


class ModelFacts(Strict):
    """Architecture and training facts of one checkpoint. Every field is reportable: a
    null needs a `missing_metadata` reason at `checkpoints.N.facts.<field>`. A source
    that contradicts another (a config.json against the paper) is a concern on the field
    (kind conflicting_values) holding both values."""

    parameters: Fact | None = reportable("Parameter count (unit: parameter).")
    layers: Fact | None = reportable("Number of layers (blocks).")
    hidden_size: Fact | None = reportable("Width of the hidden states.")
    attention_heads: Fact | None = reportable("Attention heads per layer (inapplicable for SSMs).")
    vocabulary_size: Fact | None = reportable("Tokeniser vocabulary size.")
    max_positions: Fact | None = reportable("Maximum positions the model's embeddings accept.")
    position_embedding: Fact | None = reportable("Position encoding: learned, rotary, ALiBi...")
    tokeniser: Fact | None = reportable("Tokeniser: 6-mer, BPE, single nucleotide...")
    pretraining_data: Fact | None = reportable(
        "Pre-training data volume with its unit (token, nucleotide, genome)."
    )
    context_length_trained: Fact | None = reportable("Input length used in pre-training.")
    context_length_accepted: Fact | None = reportable("Longest input the checkpoint accepts.")


class Checkpoint(Strict):
    name: Text = Field(description="Checkpoint name as published, e.g. a hub repository id.")
    parameters: Text | None = Field(default=None, description="Parameter count as printed.")
    url: WebUrl | None = Field(
        default=None, description="Where the checkpoint is published (https:// or http://)."
    )
    revision: Text | None = Field(
        default=None, description="Full commit of the checkpoint's hub repository, if pinned."
    )
    note: Text | None = Field(default=None, description="Anything a reader must know.")
    facts: ModelFacts | None = Field(
        default=None, description="Architecture and training facts, each cited."
    )
    pretraining: RunConditions | None = Field(
        default=None,
        description="How the checkpoint was pre-trained (steps, batch, precision, "
        "accelerator, run time), each field given or given a reason at "
        "`checkpoints.N.pretraining.<field>`.",
    )


class ModelFamily(RecordBase):
    kind: Literal["model_family"] = Field(description="Record kind.")
    name: Text = Field(description="Family name, e.g. 'Nucleotide Transformer'.")
    developers: list[Text] = Field(description="Who built the models.")
    papers: list[Slug] = Field(
        default_factory=list, description="Ids of source records that introduce the family."
    )
    architecture: Text | None = reportable("Architecture in a phrase, e.g. 'BERT encoder'.")
    tokenisation: Text | None = reportable("How DNA is tokenised, e.g. 'non-overlapping 6-mers'.")
    checkpoints: list[Checkpoint] = Field(
        default_factory=list, description="Known published checkpoints."
    )

    @property
    def has_facts(self) -> bool:
        """True when a checkpoint carries cited facts: such a record stands on its own."""
        return any(c.facts is not None for c in self.checkpoints)
