"""Model family: a named line of models and their known checkpoints."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import RecordBase, Slug, Strict, Text, reportable


class Checkpoint(Strict):
    name: Text = Field(description="Checkpoint name as published, e.g. a hub repository id.")
    parameters: Text | None = Field(default=None, description="Parameter count as printed.")
    url: Text | None = Field(default=None, description="Where the checkpoint is published.")
    note: Text | None = Field(default=None, description="Anything a reader must know.")


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
