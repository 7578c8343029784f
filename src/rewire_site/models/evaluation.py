"""Evaluation: a configuration run under a protocol on a dataset, and its results."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator

from .common import (
    Citation,
    Concern,
    ConcernKind,
    Count,
    Direction,
    FiniteFloat,
    RecordBase,
    Scale,
    Sha256,
    Slug,
    Strict,
    Text,
    Timestamp,
    reportable,
)
from .printed import check_printed


class Origin(StrEnum):
    author_reported = "author_reported"
    independent_paper = "independent_paper"
    community_reproduction = "community_reproduction"
    maintainer_statement = "maintainer_statement"
    rewire_measurement = "rewire_measurement"


PUBLISHED_ORIGINS = frozenset(
    {
        Origin.author_reported,
        Origin.independent_paper,
        Origin.community_reproduction,
        Origin.maintainer_statement,
    }
)
"""Origins whose values were printed somewhere (a paper, an issue thread, a README):
each value needs its printed form and a citation."""


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
    bound: Literal["point", "at_least", "up_to"] = Field(
        default="point",
        description="How the printed value bounds its claim: point (a value, judged within "
        "the tolerance either way); at_least (a lower bound, e.g. 'allows ~3x less memory': "
        "a larger measured value meets it); up_to (an upper bound: a smaller one meets it).",
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
    scale: Scale | None = Field(
        default=None,
        description="Scale the value is given on when the metric has one: fraction (0-1) "
        "or percent (0-100). Empty: the metric's own scale. The site converts, so 61.91 "
        "(percent) and 0.6191 (fraction) are the same MCC.",
    )
    printed_metric_label: Text | None = Field(
        default=None,
        description="The metric as the source labels it, when that label is not the metric "
        "the value really is (a table headed MCC that reports F1); needs "
        "`metric_correction`.",
    )
    metric_correction: Citation | None = Field(
        default=None,
        description="The source that establishes what the metric really is, where "
        "`printed_metric_label` differs from the column's metric.",
    )
    note: Text | None = Field(default=None, description="Anything a reader must know.")

    @model_validator(mode="after")
    def _value_matches_status(self) -> Result:
        if self.status == "value" and self.value is None:
            raise ValueError("value: required when status is 'value'")
        if self.status != "value" and self.value is not None:
            raise ValueError(f"value: must be empty when status is '{self.status}'")
        if self.printed_metric_label is not None and self.metric_correction is None:
            raise ValueError(
                "metric_correction: a printed_metric_label needs the citation that says "
                "what the metric really is"
            )
        if self.value is not None and self.printed_value is not None:
            problem = check_printed(self.value, self.printed_value, self.scale)
            if problem:
                raise ValueError(f"value: {problem}")
        return self


class ClaimKind(StrEnum):
    count_of = "count_of"
    relative_difference = "relative_difference"
    ratio = "ratio"
    state_of_the_art = "state_of_the_art"
    other = "other"


class Qualifier(StrEnum):
    exact = "exact"
    about = "about"
    up_to = "up_to"
    at_least = "at_least"
    on_average = "on_average"


class Claim(Strict):
    """A statement that is not one value ("23 of 28 datasets", "+10 points over X on
    average", "up to 160x faster than Y", "state of the art"). Never ranked, never shown
    as a bare number."""

    id: Slug = Field(description="Claim id, unique within the record.")
    kind: ClaimKind = Field(
        description="count_of: N of M (tasks, datasets); relative_difference: a gain or "
        "loss against a baseline (points, percent); ratio: a factor against a baseline "
        "(faster, fewer parameters); state_of_the_art: a claim to lead a benchmark; other."
    )
    statement: Text = Field(description="The claim verbatim as printed.")
    qualifier: Qualifier = Field(
        description="How the number is bounded: exact, about, up_to (a maximum over cases), "
        "at_least, on_average (a mean over cases)."
    )
    value: FiniteFloat | None = Field(
        default=None, description="The number the claim states, if any (10 for '+10 points')."
    )
    unit: Text | None = Field(
        default=None, description="Unit of `value`: points, percent, times, ..."
    )
    count: Count | None = Field(default=None, description="N of 'N of M'.")
    total: Count | None = Field(default=None, description="M of 'N of M'.")
    metric: Text | None = Field(default=None, description="Metric the claim is about.")
    baseline: Text | None = Field(
        default=None, description="What the claim compares against, as printed."
    )
    baseline_configuration: Slug | None = Field(
        default=None, description="Id of the baseline's configuration record, where one exists."
    )
    citation: Citation = Field(description="Where the claim is printed, with the verbatim quote.")

    @model_validator(mode="after")
    def _shape(self) -> Claim:
        if self.kind == ClaimKind.count_of:
            if self.count is None or self.total is None:
                raise ValueError("count: a count_of claim needs count and total (N of M)")
            if self.count > self.total:
                raise ValueError(f"count: {self.count} is more than the total {self.total}")
        if self.kind in (ClaimKind.relative_difference, ClaimKind.ratio):
            if self.value is None:
                raise ValueError(f"value: a {self.kind.value} claim needs the number it states")
            if self.baseline is None:
                raise ValueError(f"baseline: a {self.kind.value} claim needs its baseline")
        if self.citation.quote is None:
            raise ValueError("citation.quote: a claim needs the verbatim quote")
        return self


class Quantity(Strict):
    value: FiniteFloat = Field(description="The number.")
    unit: Text = Field(description="Its unit, e.g. minute, hour, GPU-hour.")


class RunConditions(Strict):
    """How a published value was produced. Every field is reportable: null needs a
    `missing_metadata` reason at `run_conditions.<field>` ("seed: unreported" is a fact)."""

    seeds: list[int] | None = reportable("Random seeds used, as stated.")
    runs: int | None = reportable("Independent runs behind the value.", ge=1)
    learning_rate: FiniteFloat | None = reportable("Peak learning rate.")
    batch_size_per_gpu: int | None = reportable("Samples per GPU per step.", ge=1)
    global_batch_size: int | None = reportable("Samples per optimiser step.", ge=1)
    gpu_count: int | None = reportable("GPUs (or accelerators) used.", ge=1)
    steps: int | None = reportable("Optimiser steps.", ge=1)
    epochs: FiniteFloat | None = reportable("Epochs over the training data.")
    precision: Text | None = reportable("Numeric precision, e.g. bf16, fp32, mixed fp16.")
    early_stopping: Text | None = reportable("Early-stopping rule, or 'none'.")
    split: Text | None = reportable("Data split the value is scored on.")
    accelerator: Text | None = reportable("Accelerator model, e.g. NVIDIA A100 80GB.")
    accelerator_memory_gb: FiniteFloat | None = reportable("Memory of one accelerator, GB.")
    run_time: Quantity | None = reportable("Wall time of the run.")


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
    started_at: Timestamp = Field(description="Start of the run, with its time zone.")
    ended_at: Timestamp = Field(description="End of the run, with its time zone.")
    note: Text | None = Field(default=None, description="Conditions a reader must know.")


class Evaluation(RecordBase):
    kind: Literal["evaluation"] = Field(description="Record kind.")
    configuration: Slug = Field(description="Id of the configuration tested.")
    protocol: Slug = Field(description="Id of the protocol followed.")
    dataset: Slug = Field(description="Id of the dataset used.")
    origin: Origin = Field(
        description="author_reported: by the model's developers; independent_paper: by "
        "others, in print; community_reproduction: a user's run reported in an issue or "
        "discussion; maintainer_statement: a value a maintainer stated outside a paper "
        "(issue, README); rewire_measurement: run by Rewire."
    )
    version: Text = Field(description="Which version of the evidence this is.")
    comparison: Comparison = Field(description="Conditions that decide comparability.")
    results: list[Result] = Field(
        default_factory=list,
        description="One per protocol column reported; may be empty only when `claims` holds "
        "what the source states.",
    )
    claims: list[Claim] = Field(
        default_factory=list,
        description="Statements that are not one value (N of M, relative gains, 'up to'); "
        "never ranked.",
    )
    run_conditions: RunConditions | None = Field(
        default=None,
        description="How the value was produced (seeds, runs, learning rate, batch, steps, "
        "precision, accelerator, run time); each field given or given a reason.",
    )
    artifacts: list[Artifact] = Field(default_factory=list, description="Files with SHA-256.")
    source_locator: Text | None = Field(
        default=None, description="Where the source reports the evaluation."
    )
    training_hardware: Text | None = reportable("Hardware the evaluation ran on.")
    reproduces: Slug | None = Field(
        default=None,
        description="The published evaluation this one reproduces (any origin: a Rewire "
        "measurement, a community reproduction, an independent paper).",
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
        if not self.results and not self.claims:
            raise ValueError("results: at least one result, or a claim in `claims`")
        columns = [r.column for r in self.results]
        if len(columns) != len(set(columns)):
            raise ValueError("results: one result per column")
        claim_ids = [c.id for c in self.claims]
        if len(claim_ids) != len(set(claim_ids)):
            raise ValueError("claims: claim ids must be unique")
        return self


__all__ = [
    "PUBLISHED_ORIGINS",
    "Artifact",
    "Claim",
    "ClaimKind",
    "Concern",
    "ConcernKind",
    "Environment",
    "Evaluation",
    "Origin",
    "Qualifier",
    "Result",
    "RunConditions",
]
