"""Dataset: the data a protocol runs on."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import RecordBase, Strict, Text, reportable


class Split(Strict):
    name: Text = Field(description="Split name, e.g. train, test, fold-1.")
    size: int | None = Field(default=None, ge=0, description="Number of samples, if stated.")
    note: Text | None = Field(default=None, description="How the split is made.")


class Dataset(RecordBase):
    kind: Literal["dataset"] = Field(description="Record kind.")
    description: Text = Field(description="What the data are; Markdown.")
    version: Text | None = reportable("Version or release of the data.")
    generator: Text | None = reportable("For synthetic data: how the data are generated.")
    seed: int | None = reportable("For synthetic data: the random seed.")
    access: Text | None = reportable("How to obtain the data (URL, accession, request).")
    licence: Text | None = reportable("Licence of the data.")
    synthetic: bool = Field(description="True when the data are generated, not collected.")
    splits: list[Split] = Field(default_factory=list, description="Named splits of the data.")
    tasks: list[Text] = Field(default_factory=list, description="Tasks the data cover.")
