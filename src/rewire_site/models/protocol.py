"""Protocol: what is measured and how."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from .common import Direction, FiniteFloat, RecordBase, Slug, Strict, Text, reportable


class Metric(Strict):
    id: Slug = Field(description="Metric id, e.g. peak-memory.")
    label: Text = Field(description="Label shown in table headings, e.g. 'Peak memory'.")
    unit: Text = Field(description="Unit of every value, e.g. gigabyte, minute.")
    direction: Direction = Field(description="Which way is better: lower or higher.")


class ResultColumn(Strict):
    id: Slug = Field(description="Column id that results refer to, e.g. checkpointing.")
    label: Text = Field(description="Column label, e.g. a Figure 3 stage.")
    description: Text | None = Field(default=None, description="What the column measures.")


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
    baselines: Baselines | None = reportable("Null control and conventional reference.")
    recipe: Recipe | None = reportable("A runnable recipe (`rewire measure`).")
    notes: list[Text] = Field(
        default_factory=list,
        description="Findings about the protocol, e.g. which setting explains a printed value.",
    )

    @model_validator(mode="after")
    def _unique_columns(self) -> Protocol:
        ids = [c.id for c in self.columns]
        if len(ids) != len(set(ids)):
            raise ValueError("columns: column ids must be unique")
        return self
