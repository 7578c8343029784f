"""Evaluation: a configuration run under a protocol on a dataset, and its results."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator

from .common import (
    Citation,
    Direction,
    FiniteFloat,
    RecordBase,
    Sha256,
    Slug,
    Strict,
    Text,
    reportable,
)


class Origin(StrEnum):
    author_reported = "author_reported"
    independent_paper = "independent_paper"
    rewire_measurement = "rewire_measurement"


class Comparison(Strict):
    """The conditions two evaluations must share before their numbers are compared."""

    split: Text | None = reportable("Data split scored.")
    population: Text | None = reportable("What the scored samples are.")
    inputs: Text | None = reportable("What the model sees.")
    adaptation: Text | None = reportable("How the model was adapted (frozen, LoRA, full...).")
    aggregation: Text | None = reportable("How per-sample or per-step values are combined.")
    budget: Text | None = reportable("Compute, data or length budget.")
    dataset_version: Text | None = reportable("Version of the dataset used.")
    metric_implementation: Text | None = reportable("Code that computes the metric.")


class Coverage(Strict):
    scored: int = Field(ge=0, description="Samples or tasks scored.")
    eligible: int = Field(ge=0, description="Samples or tasks that could have been scored.")


class Estimate(Strict):
    label: Text = Field(description="What is estimated, e.g. 'model-state floor'.")
    value: FiniteFloat = Field(description="Estimated value, in the result's unit.")
    method: Text = Field(description="How it was estimated, e.g. '16 bytes per parameter'.")


class Observation(Strict):
    name: Slug = Field(description="What was observed, e.g. step-time-median.")
    value: FiniteFloat = Field(description="Observed value.")
    unit: Text = Field(description="Unit, e.g. millisecond, token-per-second.")
    note: Text | None = Field(default=None, description="How it was obtained.")


class Extrapolation(Strict):
    measured_steps: int = Field(ge=1, description="Steps actually run.")
    target_steps: int = Field(ge=1, description="Steps the value is extrapolated to.")
    confirmed_by: Slug | None = Field(
        default=None, description="Evaluation whose full-length run confirms the method."
    )
    confirmation_error: FiniteFloat | None = Field(
        default=None, description="Relative error of the extrapolation on that run."
    )


class Result(Strict):
    column: Slug = Field(description="Id of the protocol's result column.")
    status: Literal["value", "out_of_memory", "incomplete"] = Field(
        default="value",
        description="value: a number was obtained; out_of_memory: the run did not fit; "
        "incomplete: the run covered fewer steps or samples than the protocol asks, so no "
        "value is claimed for the column (`observations` hold what was measured, `note` "
        "says why).",
    )
    value: FiniteFloat | None = Field(
        default=None, description="The value in `unit`; null only when status is not value."
    )
    unit: Text | None = reportable("Unit of the value; must match the protocol's metric.")
    direction: Direction | None = Field(
        default=None, description="Which way is better, where the source states it."
    )
    printed_value: Text | None = Field(
        default=None, description="The value exactly as printed in the source."
    )
    citation: Citation | None = Field(
        default=None, description="Source, locator and verbatim quote of the printed value."
    )
    uncertainty: Text | None = reportable("Spread or interval as reported.")
    coverage: Coverage | None = reportable("Samples or tasks scored out of those eligible.")
    estimates: list[Estimate] = Field(
        default_factory=list, description="Analytical estimates beside the value."
    )
    observations: list[Observation] = Field(
        default_factory=list, description="Further measured quantities (step time, ...)."
    )
    extrapolation: Extrapolation | None = Field(
        default=None, description="Set when the value is extrapolated from a shorter run."
    )
    note: Text | None = Field(default=None, description="Anything a reader must know.")

    @model_validator(mode="after")
    def _value_matches_status(self) -> Result:
        if self.status == "value" and self.value is None:
            raise ValueError("value: required when status is 'value'")
        if self.status != "value" and self.value is not None:
            raise ValueError(f"value: must be empty when status is '{self.status}'")
        return self


class ConcernKind(StrEnum):
    source_conflict = "source_conflict"
    hardware_differs = "hardware_differs"
    unit_unstated = "unit_unstated"
    reproduction_disagrees = "reproduction_disagrees"
    other = "other"


class Concern(Strict):
    id: Slug = Field(description="Concern id, unique within the record.")
    kind: ConcernKind = Field(description="Kind of concern.")
    text: Text = Field(description="What is wrong; Markdown.")
    excludes_from_comparisons: bool = Field(
        description="True: results stay visible but leave comparisons and best in column."
    )
    citations: list[Citation] = Field(
        default_factory=list, description="Where the conflicting statements are."
    )


class Artifact(Strict):
    path: Text = Field(description="Path relative to the repository root.")
    sha256: Sha256 = Field(description="SHA-256 of the file's bytes.")
    description: Text = Field(description="What the file holds.")
    media_type: Text = Field(default="application/json", description="IANA media type.")
    size_bytes: int | None = Field(default=None, ge=0, description="Size of the file.")


class Environment(Strict):
    gpu: Text = Field(description="GPU model as the driver names it.")
    gpu_memory_gb: FiniteFloat = Field(description="Memory of one GPU, GB (1e9 bytes).")
    gpu_count: int = Field(ge=1, description="GPUs used by the run.")
    driver: Text = Field(description="NVIDIA driver version.")
    cuda: Text = Field(description="CUDA version torch was built with.")
    python: Text = Field(description="Python version.")
    packages: dict[str, str] = Field(
        description="Versions of torch, transformers, deepspeed, peft and others."
    )
    attention_backend: Text | None = Field(
        default=None, description="Attention implementation that ran."
    )
    host_cpu: Text = Field(description="Host CPU model and core count.")
    git_commit: Text = Field(description="Commit of the Rewire repository that ran.")
    command: Text = Field(description="Exact command line.")
    seed: int = Field(description="Random seed.")
    started_at: datetime = Field(description="Start of the run (UTC).")
    ended_at: datetime = Field(description="End of the run (UTC).")
    note: Text | None = Field(default=None, description="Conditions a reader must know.")


class Evaluation(RecordBase):
    kind: Literal["evaluation"] = Field(description="Record kind.")
    configuration: Slug = Field(description="Id of the configuration tested.")
    protocol: Slug = Field(description="Id of the protocol followed.")
    dataset: Slug = Field(description="Id of the dataset used.")
    origin: Origin = Field(
        description="author_reported: by the model's developers; independent_paper: by "
        "others, in print; rewire_measurement: run by Rewire."
    )
    version: Text = Field(description="Which version of the evidence this is.")
    comparison: Comparison = Field(description="Conditions that decide comparability.")
    results: list[Result] = Field(min_length=1, description="One per protocol column reported.")
    concerns: list[Concern] = Field(default_factory=list, description="Recorded concerns.")
    artifacts: list[Artifact] = Field(default_factory=list, description="Files with SHA-256.")
    source_locator: Text | None = Field(
        default=None, description="Where the source reports the evaluation."
    )
    training_hardware: Text | None = reportable("Hardware the evaluation ran on.")
    reproduces: Slug | None = Field(
        default=None, description="For a measurement: the published evaluation it reproduces."
    )
    settings: dict[str, str] = Field(
        default_factory=dict, description="Measurement settings (precision, update, ...)."
    )
    environment: Environment | None = Field(
        default=None, description="For a measurement: where and how it ran."
    )

    @model_validator(mode="after")
    def _origin_requirements(self) -> Evaluation:
        if self.origin == Origin.rewire_measurement:
            if self.environment is None:
                raise ValueError("environment: a rewire_measurement needs an environment")
            if not self.artifacts:
                raise ValueError("artifacts: a rewire_measurement needs its raw log as an artifact")
        else:
            for i, result in enumerate(self.results):
                if result.status == "value" and result.printed_value is None:
                    raise ValueError(f"results.{i}: a published result needs printed_value")
        columns = [r.column for r in self.results]
        if len(columns) != len(set(columns)):
            raise ValueError("results: one result per column")
        ids = [c.id for c in self.concerns]
        if len(ids) != len(set(ids)):
            raise ValueError("concerns: concern ids must be unique")
        return self
