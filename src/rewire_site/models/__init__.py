"""Pydantic models of every record kind."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from pydantic import Field, TypeAdapter

from .common import (
    Citation,
    Concern,
    ConcernKind,
    Missing,
    MissingReason,
    RecordBase,
    Review,
    SourceLabel,
)
from .configuration import Configuration
from .dataset import Dataset
from .evaluation import PUBLISHED_ORIGINS, Claim, Evaluation, Origin, Result, RunConditions
from .family import Checkpoint, Fact, ModelFacts, ModelFamily
from .protocol import Metric, Protocol
from .question import Question
from .result_table import Adaptation, ResultTable
from .source import Source, SourceKind

Record: TypeAlias = Annotated[
    Source | Protocol | Dataset | ModelFamily | Configuration | Evaluation | Question | ResultTable,
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
    "result_table": ResultTable,
}

RECORD_ADAPTER: TypeAdapter[Record] = TypeAdapter(Record)

_KINDS: dict[type[RecordBase], str] = {cls: kind for kind, cls in RECORD_TYPES.items()}


def kind_of(record: RecordBase) -> str:
    """The record's kind ('evaluation', 'model_family', ...): the one record type -> kind
    map."""
    return _KINDS[type(record)]


__all__ = [
    "PUBLISHED_ORIGINS",
    "RECORD_ADAPTER",
    "RECORD_TYPES",
    "Adaptation",
    "Checkpoint",
    "Citation",
    "Claim",
    "Concern",
    "ConcernKind",
    "Configuration",
    "Dataset",
    "Evaluation",
    "Fact",
    "Metric",
    "Missing",
    "MissingReason",
    "ModelFacts",
    "ModelFamily",
    "Origin",
    "Protocol",
    "Question",
    "Record",
    "RecordBase",
    "Result",
    "ResultTable",
    "Review",
    "RunConditions",
    "Source",
    "SourceKind",
    "SourceLabel",
    "kind_of",
]
