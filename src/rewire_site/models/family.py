"""Model family: a named line of models, its published checkpoints and their facts."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from .common import (
    REASON_DEFAULTED,
    Citation,
    FiniteFloat,
    RecordBase,
    Slug,
    SourceLabel,
    Strict,
    Text,
    WebUrl,
    reportable,
)
from .evaluation import RunConditions

Qualifier = Literal["approximate", "estimated", "upper_bound", "lower_bound", "per_size"]
"""How a source qualifies a value: 'approximate' (the source says about, ~), 'estimated'
(the source says it estimated it), 'upper_bound' ('up to'), 'lower_bound' ('at least',
'over'), 'per_size' (stated for a model size or a group of models, not for this named
checkpoint: `applies_to` says which)."""


def _qualifiers() -> Any:
    return Field(
        default_factory=list,
        description="How the source qualifies the value: approximate, estimated, "
        "upper_bound, lower_bound, per_size (stated for a model size, not the checkpoint; "
        "say which in `applies_to`).",
    )


class Equivalent(Strict):
    """A length restated in base pairs, as the cited source states it ('1,000 tokens, about
    6 kb')."""

    value: FiniteFloat = Field(description="The equivalent in base pairs.", gt=0)
    printed_value: Text | None = Field(
        default=None, description="As printed ('6kb', 'about 5 times')."
    )
    qualifiers: list[Qualifier] = _qualifiers()
    citation: Citation | None = Field(
        default=None,
        description="Where it is stated, when not in the fact's own citation.",
    )


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
    qualifiers: list[Qualifier] = _qualifiers()
    applies_to: Text | None = Field(
        default=None,
        description="What the source states it for when that is not this checkpoint "
        "('the 2.5B size', 'all four NT-v1 models'); required with the per_size qualifier.",
    )
    base_pairs: Equivalent | None = Field(
        default=None,
        description="A length in tokens restated in base pairs by a source (never derived "
        "here: the directory derives base pairs only from a k-mer tokeniser).",
    )

    @model_validator(mode="after")
    def _printed_agrees(self) -> Fact:
        from .printed import check_printed

        if isinstance(self.value, float) and self.printed_value is not None:
            problem = check_printed(self.value, self.printed_value)
            if problem:
                raise ValueError(f"value: {problem}")
        if "per_size" in self.qualifiers and not self.applies_to:
            raise ValueError("applies_to: a per_size value says which size it is stated for")
        return self


ReleaseState = Literal["released", "described_not_released", "withdrawn"]


class Release(Strict):
    """Whether the checkpoint's weights are published, as a source states it."""

    state: ReleaseState = Field(
        description="released: weights published; described_not_released: a paper or page "
        "describes the checkpoint but its weights are not published; withdrawn: published, "
        "then taken down."
    )
    citation: Citation = Field(description="Where the source states it, with the quote.")
    note: Text | None = Field(default=None, description="Anything a reader must know.")


class HardwareRequirement(Strict):
    """What a source says a checkpoint needs to run (a precision format, a compute
    capability, an accelerator or its memory), for which use."""

    use: Text = Field(
        description="What the requirement is for, as the source says: 'inference at 1M "
        "tokens in the Colab notebook', 'fine-tuning', 'FlashAttention kernels'."
    )
    accelerator: Text | None = Field(
        default=None, description="Accelerator named, e.g. 'NVIDIA A100'."
    )
    memory_gb: FiniteFloat | None = Field(
        default=None, gt=0, description="Accelerator memory named, GB as printed."
    )
    precision: Text | None = Field(default=None, description="Numeric format, e.g. bf16.")
    compute_capability: Text | None = Field(
        default=None, description="CUDA compute capability, e.g. '8.0'."
    )
    printed_value: Text = Field(description="The requirement as printed.")
    qualifiers: list[Qualifier] = _qualifiers()
    applies_to: Text | None = Field(
        default=None, description="The size or checkpoint the source states it for."
    )
    citation: Citation = Field(description="Where the source states it, with the quote.")

    @model_validator(mode="after")
    def _names_something(self) -> HardwareRequirement:
        named = (self.accelerator, self.memory_gb, self.precision, self.compute_capability)
        if all(x is None for x in named):
            raise ValueError(
                "a hardware requirement names an accelerator, memory_gb, precision or "
                "compute_capability"
            )
        return self


class ModelFacts(Strict):
    """Architecture and training facts of one checkpoint. Every field is reportable and
    may be left out: its reason then defaults to "not reported by the cited sources", and
    the page says so; an editor may give a reason and note of their own at
    `checkpoints.N.facts.<field>` in `missing_metadata`. A source that contradicts another
    (a config.json against the paper) is a concern on the field (kind conflicting_values)
    holding both values."""

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
    training_compute: Fact | None = reportable(
        "Pre-training compute with its unit (FLOP, GPU-hour, accelerator-day), qualified "
        "as the source does (approximate, estimated, per_size)."
    )
    batch_size_tokens: Fact | None = reportable(
        "Pre-training batch size in tokens (unit: token), as the source states it."
    )
    weights_licence: Fact | None = reportable(
        "Licence of the published weights, as the model card or repository states it."
    )
    release: Release | None = reportable(
        "Whether the weights are published (released, described but not released, withdrawn)."
    )
    hardware_requirements: list[HardwareRequirement] = Field(
        default_factory=list,
        description="What a source says the checkpoint needs to run (precision format, "
        "compute capability, accelerator, memory), each for a named use and cited.",
    )


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
        default=None,
        description="Architecture and training facts, each cited; a fact left out reads "
        "'not reported by the cited sources'.",
        json_schema_extra={REASON_DEFAULTED: True},
    )
    pretraining: RunConditions | None = Field(
        default=None,
        description="How the checkpoint was pre-trained (steps, batch, precision, "
        "accelerator, run time); a field left out reads 'not reported by the cited "
        "sources', or give a reason at `checkpoints.N.pretraining.<field>`.",
        json_schema_extra={REASON_DEFAULTED: True},
    )
    labels: list[SourceLabel] = Field(
        default_factory=list,
        description="Each source's own names for this checkpoint ({scope, label}): rows of "
        "a result table whose label scope is `scope` and model label is `label` are "
        "results of this checkpoint.",
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
    labels: list[SourceLabel] = Field(
        default_factory=list,
        description="Source names known only at family level ({scope, label}): their rows "
        "are shown with the concern that the checkpoint is not pinned. Where the checkpoint "
        "is known, put the label on the checkpoint instead.",
    )

    @property
    def has_facts(self) -> bool:
        """True when a checkpoint carries cited facts: such a record stands on its own."""
        return any(c.facts is not None for c in self.checkpoints)
