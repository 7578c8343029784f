"""Configuration: a tested setup of a model."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import RecordBase, Slug, Strict, Text, reportable


class Hardware(Strict):
    description: Text = Field(description="Hardware as the source states it.")
    accelerator: Text | None = Field(
        default=None, description="Normalised accelerator model, e.g. 'NVIDIA H100'."
    )
    count: int | None = Field(default=None, ge=1, description="Number of accelerators.")


class Configuration(RecordBase):
    kind: Literal["configuration"] = Field(description="Record kind.")
    reported_name: Text = Field(description="Model name as the source prints it.")
    family: Slug = Field(description="Id of the model family record.")
    method_types: list[Text] = Field(
        min_length=1, description="Kinds of method, e.g. foundation_model."
    )
    parameters: Text | None = Field(default=None, description="Parameter count as printed.")
    hardware: Hardware | None = reportable("Hardware the configuration ran on.")
    fine_tuning: Text | None = reportable("How the model was adapted or trained; Markdown.")
    training_setting: Text | None = reportable("Training or inference setting, e.g. a stage.")
    checkpoint: Text | None = reportable("Exact checkpoint (hub id and revision).")
    version: Text | None = reportable("Software or model version.")
    settings: dict[str, str] = Field(
        default_factory=dict,
        description="Explicit settings of a Rewire measurement, e.g. precision, update, "
        "length_unit, stage.",
    )
    source_locator: Text | None = Field(
        default=None, description="Where the source describes the configuration."
    )
    provenance_note: Text | None = Field(
        default=None, description="Who implemented and measured it, and what is not stated."
    )
