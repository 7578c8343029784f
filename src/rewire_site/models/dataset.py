"""Dataset: the data a protocol runs on."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import RecordBase, Slug, SourceLabel, Strict, Text, reportable


class Split(Strict):
    name: Text = Field(description="Split name, e.g. train, test, fold-1.")
    size: int | None = Field(default=None, ge=0, description="Number of samples, if stated.")
    note: Text | None = Field(default=None, description="How the split is made.")


class SameTask(Strict):
    """Another dataset record that is the same task: the same data files and the same
    split under another source's name. Only such a link merges the two into one task (one
    task page, results side by side); each needs its evidence."""

    dataset: Slug = Field(description="Id of the other dataset record.")
    files: Text = Field(
        description="Evidence, as the sources state it, that both name the same data "
        "files (sequences, labels, lengths)."
    )
    split: Text = Field(
        description="Evidence, as the sources state it, that both use the same training and "
        "test split (e.g. both state the same sizes)."
    )


class RelatedDataset(Strict):
    """Another dataset record that is related (e.g. the same name in another source)
    without evidence of the same files and split: linked, never merged into one task."""

    dataset: Slug = Field(description="Id of the other dataset record.")
    note: Text = Field(description="How the two are related, and what is not shown to be the same.")


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
    same_task: list[SameTask] = Field(
        default_factory=list,
        description="Other dataset records that are the same task (same files and split), "
        "each with its evidence: the only links that merge datasets into one task.",
    )
    labels: list[SourceLabel] = Field(
        default_factory=list,
        description="Each source's own names for this task ({scope, label}): rows of a "
        "result table whose label scope is `scope` and task label is `label` belong here.",
    )
    related: list[RelatedDataset] = Field(
        default_factory=list,
        description="Other dataset records that are related but not shown to be the same "
        "files and split: linked, kept apart.",
    )
