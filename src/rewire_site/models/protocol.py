"""Protocol: what is measured and how."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field, model_validator

from .common import (
    Direction,
    FiniteFloat,
    RecordBase,
    Scale,
    Slug,
    Strict,
    Text,
    reportable,
)


class Metric(Strict):
    id: Slug = Field(description="Metric id, e.g. peak-memory, mcc, accuracy.")
    label: Text = Field(description="Label shown in table headings, e.g. 'Peak memory'.")
    unit: Text = Field(
        description="Unit of every value, e.g. gigabyte, minute; for a score without a "
        "physical unit, the scale's name (fraction or percent) or 'score'."
    )
    direction: Direction = Field(description="Which way is better: lower or higher.")
    scale: Scale | None = Field(
        default=None,
        description="For a score with a fixed range: fraction (e.g. MCC -1..1, accuracy "
        "0..1) or percent (the same x 100). Results on the other scale are converted.",
    )
    minimum: FiniteFloat | None = Field(
        default=None,
        description="Lowest possible value on the metric's own scale (e.g. -1 for MCC as a "
        "fraction, 0 for accuracy); a value below it is an error.",
    )
    maximum: FiniteFloat | None = Field(
        default=None,
        description="Highest possible value on the metric's own scale (1 for a fraction, "
        "100 for a percent); a value above it is an error.",
    )

    @model_validator(mode="after")
    def _bounds_in_order(self) -> Metric:
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError(f"minimum: {self.minimum:g} is above maximum {self.maximum:g}")
        return self


class ResultColumn(Strict):
    id: Slug = Field(description="Column id that results refer to, e.g. checkpointing.")
    label: Text = Field(description="Column label, e.g. a Figure 3 stage.")
    description: Text | None = Field(default=None, description="What the column measures.")
    metric: Metric | None = Field(
        default=None,
        description="This column's metric where it differs from the protocol's (benchmarks "
        "whose metric depends on the task: MCC for one, F1 for another).",
    )


class HardwareDependence(Strict):
    """Whether the metric's value depends on the accelerator model."""

    depends: bool = Field(
        description="True: results on different accelerators are not compared (run time, "
        "throughput); false: a different accelerator is a stated difference only (the "
        "allocator peak of the same program)."
    )
    reason: Text = Field(description="Why, with the evidence; Markdown.")


class BaselineRole(Strict):
    status: Literal["proposed", "reviewed", "measured", "inapplicable"] = Field(
        description="proposed: a suggested selection rule awaiting review; reviewed: the rule "
        "was checked; measured: a Rewire measurement exists; inapplicable: no such role."
    )
    proposal: Text = Field(description="The control or reference method proposed.")
    selection_rule: Text = Field(description="How the control is to be chosen and checked.")
    evaluations: list[Slug] = Field(
        default_factory=list, description="Evaluations that measure this role, if any."
    )


class Baselines(Strict):
    null_control: BaselineRole = Field(description="A control that uses no learned model.")
    conventional_reference: BaselineRole = Field(
        description="The conventional method a model should beat."
    )


class DeclaredReading(Strict):
    """The one reading of the settings a source leaves unstated under which a reproduction
    is judged, named before the judgement: every published value of the protocol is judged
    by the measurement under these settings, never by whichever setting comes closest."""

    settings: dict[str, str] = Field(
        min_length=1,
        description="Setup key -> the value read for it, e.g. precision: fp32-autocast, "
        "length: 1000nt; every key is one of the recipe's setup keys.",
    )
    reason: Text = Field(description="Why this reading, from the source and common practice.")
    declared_on: date = Field(description="Date the reading was declared (YYYY-MM-DD).")


class NotMeasured(Strict):
    """A model the recipe would measure but could not, and why."""

    family: Slug = Field(description="Id of the model family.")
    model: Text = Field(description="The model as the literature names it, e.g. 'Evo 2 1B'.")
    reason: Text = Field(
        description="Why it was not measured, as a reader should read it (what is missing "
        "and where it was looked for); Markdown."
    )


class Recipe(Strict):
    id: Slug = Field(description="Recipe id known to `rewire measure list`.")
    command: Text = Field(description="Command that runs it, e.g. 'rewire measure run ...'.")
    hardware: Text = Field(description="Hardware the recipe needs.")
    estimated_minutes: FiniteFloat | None = Field(
        default=None, ge=0, description="Estimated wall time of the full recipe."
    )
    note: Text | None = Field(default=None, description="What the recipe leaves open.")
    setup_keys: list[str] = Field(
        default_factory=list,
        description="Configuration settings that identify one setup across the result "
        "columns, e.g. precision, update, length: measurements that share them (and the "
        "model) form one row of the protocol's measurement table.",
    )
    setup_defaults: dict[str, str] = Field(
        default_factory=dict,
        description="Value a setup key takes for a configuration whose settings lack it "
        "(records made before the key existed ran with this value), e.g. "
        "deepspeed_communication: ds-default.",
    )
    declared_reading: DeclaredReading | None = Field(
        default=None,
        description="The reading of the unstated settings under which reproductions of this "
        "protocol are judged; without it a value reproduces only where every measured "
        "setting agrees.",
    )
    not_measured: list[NotMeasured] = Field(
        default_factory=list,
        description="Models of families the recipe is meant to cover that it could not "
        "measure, each with the reason; the pages of the recipe's answers and of each "
        "family say so.",
    )

    @model_validator(mode="after")
    def _reading_uses_setup_keys(self) -> Recipe:
        if self.declared_reading is not None:
            unknown = sorted(set(self.declared_reading.settings) - set(self.setup_keys))
            if unknown:
                raise ValueError(
                    f"declared_reading.settings: {', '.join(unknown)} is not one of the "
                    f"setup keys ({', '.join(self.setup_keys) or 'none'})"
                )
        return self


class Protocol(RecordBase):
    kind: Literal["protocol"] = Field(description="Record kind.")
    measurement: Text = Field(description="What is measured and how; Markdown.")
    metric: Metric = Field(description="The metric every result reports.")
    metric_definition: Text | None = reportable(
        "How the metric is computed, e.g. allocator statistic over the measured region."
    )
    columns: list[ResultColumn] = Field(
        min_length=1, description="Result columns, e.g. one per Figure 3 stage."
    )
    datasets: list[Slug] = Field(default_factory=list, description="Ids of datasets used.")
    hardware: Text | None = reportable("Hardware the protocol was run on.")
    version: Text = Field(description="Version of the protocol as described by its source.")
    source_locator: Text = Field(description="Where the protocol is described in its source.")
    replicates: int | None = reportable("Number of replicate runs per value.", ge=1)
    tolerance: FiniteFloat | None = Field(
        default=None,
        gt=0,
        description="Relative tolerance within which a reproduction agrees with the "
        "published value (0.1 = 10%). Without it no agreement is computed.",
    )
    tolerance_reason: Text | None = Field(
        default=None,
        description="Why this tolerance: what spread the metric has between runs or "
        "setups. Required with `tolerance`.",
    )
    hardware_dependence: HardwareDependence | None = reportable(
        "Whether results on different accelerators can be compared."
    )
    baselines: Baselines | None = reportable("Null control and conventional reference.")
    recipe: Recipe | None = reportable("A runnable recipe (`rewire measure`).")
    notes: list[Text] = Field(
        default_factory=list,
        description="Findings about the protocol, e.g. which setting explains a printed value.",
    )
    related: list[Slug] = Field(
        default_factory=list,
        description="Ids of other protocols that hold the same published figure or claim in "
        "another form (run times held as claims, and their ratio as a value a measurement can "
        "be set beside); each protocol's page links to the other.",
    )

    @model_validator(mode="after")
    def _unique_columns(self) -> Protocol:
        ids = [c.id for c in self.columns]
        if len(ids) != len(set(ids)):
            raise ValueError("columns: column ids must be unique")
        if self.tolerance is not None and self.tolerance_reason is None:
            raise ValueError(
                "tolerance: a tolerance needs `tolerance_reason`, the reason it was chosen"
            )
        return self

    def column_metric(self, column_id: str) -> Metric:
        """The metric of one column: its own, or the protocol's."""
        for column in self.columns:
            if column.id == column_id and column.metric is not None:
                return column.metric
        return self.metric
