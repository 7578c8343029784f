"""Question: a decision a reader faces, and the records that bear on it."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import RecordBase, Slug, Text


class Question(RecordBase):
    kind: Literal["question"] = Field(description="Record kind.")
    decision: Text = Field(description="The decision in the reader's words; Markdown.")
    protocols: list[Slug] = Field(
        default_factory=list, description="Ids of protocols that bear on the decision."
    )
    evaluations: list[Slug] = Field(
        default_factory=list, description="Ids of evaluations that bear on the decision."
    )
    considerations: list[Text] = Field(
        default_factory=list, description="What a reader should weigh; Markdown."
    )
