"""Pydantic models of every record kind."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from pydantic import Field, TypeAdapter

from .common import Citation, Missing, MissingReason, RecordBase, Review
from .configuration import Configuration
from .dataset import Dataset
from .evaluation import Evaluation, Origin, Result
from .family import ModelFamily
from .protocol import Protocol
from .question import Question
from .source import Source

Record: TypeAlias = Annotated[
    Source | Protocol | Dataset | ModelFamily | Configuration | Evaluation | Question,
    Field(discriminator="kind"),
]

RECORD_TYPES: dict[str, type[RecordBase]] = {
    "source": Source,
    "protocol": Protocol,
    "dataset": Dataset,
    "model_family": ModelFamily,
    "configuration": Configuration,
    "evaluation": Evaluation,
    "question": Question,
}

RECORD_ADAPTER: TypeAdapter[Record] = TypeAdapter(Record)

__all__ = [
    "RECORD_ADAPTER",
    "RECORD_TYPES",
    "Citation",
    "Configuration",
    "Dataset",
    "Evaluation",
    "Missing",
    "MissingReason",
    "ModelFamily",
    "Origin",
    "Protocol",
    "Question",
    "Record",
    "RecordBase",
    "Result",
    "Review",
    "Source",
]
