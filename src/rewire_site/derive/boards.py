"""The facts a leaderboard is made of (issue 25): protocol classes, boards, their rows,
columns and values, the answer of a class, and each configuration's checkpoint facts.
`leaderboard.py` builds the boards of evaluations, `table_board.py` those of result
tables; both build on these types (kept apart so neither imports the other back).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from ..link import Catalogue
from ..models import Configuration, ModelFamily
from ..models.common import Scale
from ..models.family import Checkpoint, Fact
from ..models.printed import parse_printed
from .concerns import Flag
from .fits import BasePairs, family_base_pairs, length_count
from .names import RowName, order_text

AdaptationClass = Literal["fine_tuned", "parameter_efficient", "frozen_probe", "zero_shot", "other"]
CLASSES: tuple[AdaptationClass, ...] = (
    "fine_tuned",
    "parameter_efficient",
    "frozen_probe",
    "zero_shot",
    "other",
)
"""Protocol classes in the order a task page shows them."""


class TableConcern(Enum):
    """A concern a result table's board finds itself (the table holds no catalogue flag
    for it); a page names it in words (`render.leaderboard`)."""

    TRIVIAL = "trivial"
    """The value is no better than a trivial answer to the task."""


Standing = Literal["best", "tied", "ranked", "alone", "unstated", "excluded"]
Flags = Mapping[str, tuple[Flag, ...]]

_CLASS_RULES: tuple[tuple[AdaptationClass, re.Pattern[str]], ...] = (
    (
        "parameter_efficient",
        re.compile(
            r"\blora\b|\bia3\b|\badapters?\b|prefix[- ]tuning|prompt[- ]tuning"
            r"|parameter[- ]efficient|\bpeft\b",
            re.IGNORECASE,
        ),
    ),
    (
        "frozen_probe",
        re.compile(r"\bfrozen\b|\bprob(?:e|es|ing)\b|prediction head|\bembeddings?\b", re.I),
    ),
    ("zero_shot", re.compile(r"zero[- ]shot|likelihood", re.IGNORECASE)),
    ("fine_tuned", re.compile(r"fine[- ]?tun|full update|full training", re.IGNORECASE)),
)
"""(class, pattern): the first rule whose pattern the recorded adaptation matches names its
class. Order matters: 'parameter-efficient fine-tuning' is parameter-efficient, 'frozen
zero-shot embeddings, random forest' is a frozen probe (a classifier on frozen
embeddings), 'zero-shot' alone (a score read from the model without training) is
zero-shot."""


def adaptation_class(text: str | None) -> AdaptationClass:
    """The protocol class of a recorded adaptation ('other' where none is recorded or no
    rule matches: trained from scratch, inference of a trained model, ...)."""
    if text:
        for name, pattern in _CLASS_RULES:
            if pattern.search(text):
                return name
    return "other"


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where a value's evidence is: an evaluation record, or one row of a result table."""

    record_id: str
    """The evaluation's id, or the result table's id."""
    line: int | None = None
    """The row's CSV line (its anchor on the table's page); None for an evaluation."""


@dataclass(frozen=True, slots=True)
class BoardValue:
    value: float
    """On the column metric's own scale: what is ranked."""
    recorded: float
    """The value as the record holds it, on `recorded_scale`."""
    recorded_scale: Scale | None
    """The scale the record states for the value (None: the metric's)."""
    printed: str | None
    """As the source printed it (None: not recorded)."""
    spread: float | None
    """Standard deviation over seeds, or a stated uncertainty's half-width, on the same
    scale; None where unknown."""
    n: int | None
    """Seeds (or runs) behind the value where known."""
    margin: float
    """How far the value may be from what it stands for: a lead within it is a tie."""
    standing: Standing
    concerns: tuple[Flag | TableConcern, ...]
    """The concerns that take the value out of comparisons: the catalogue's flags, or a
    result table's own (`TableConcern.TRIVIAL`)."""
    evidence: Evidence


@dataclass(frozen=True, slots=True)
class BoardModel:
    """A board row's model: the configuration as the source ran it."""

    key: str
    """Configuration id (or a result table's model key)."""
    name: RowName
    """The row's name as parts (`render/present/names.row_title` words it)."""
    family_id: str | None
    parameters: float | None
    """Parameter count of the pinned checkpoint, where the records state it."""
    context_bp: float | None
    """Longest input of the checkpoint in base pairs (accepted, else trained), where known."""
    record: str | None = None
    """The record its name links to: the configuration, or the model family a result
    table's label maps to; None for a label that maps to no record."""
    pinned: bool = True
    """False: a result table's label known only at family level (checkpoint not pinned)."""


@dataclass(frozen=True, slots=True)
class BoardColumn:
    key: str
    """The protocol's result column id (or a result table's metric column)."""
    metric_id: str
    label: str
    unit: str
    direction: str
    """'higher' or 'lower': which way is better."""


@dataclass(frozen=True, slots=True)
class BoardRow:
    model: BoardModel
    values: tuple[BoardValue | None, ...]
    """One per board column (None: no value in that column)."""


@dataclass(frozen=True, slots=True)
class Board:
    """One protocol's (or result table's) results on one dataset of the task."""

    adaptation: AdaptationClass
    adaptations: tuple[str, ...]
    """The adaptations as recorded ('' where not stated)."""
    protocol_id: str
    table_id: str | None
    """The result table the rows come from; None for evaluations."""
    dataset_id: str
    source_ids: tuple[str, ...]
    """Source records the values cite."""
    publications: tuple[str, ...]
    """The distinct publications among them (each source's short citation up to its first
    comma: a paper's six CSV files are one source to a reader)."""
    origins: tuple[str, ...]
    columns: tuple[BoardColumn, ...]
    rows: tuple[BoardRow, ...]
    """Sorted by the first column in its direction (rows without a value there last)."""

    def top(self, column: int) -> tuple[int, ...]:
        """Rows marked best in `column` (one), else those tied for best (several), else ()."""
        for state in ("best", "tied"):
            found = tuple(
                i
                for i, row in enumerate(self.rows)
                if (v := row.values[column]) is not None and v.standing == state
            )
            if found:
                return found
        return ()

    @property
    def ranked(self) -> int:
        """Values ranked against a comparable rival, over all columns."""
        return sum(
            v is not None and v.standing in ("best", "tied", "ranked")
            for row in self.rows
            for v in row.values
        )


AnswerState = Literal["best", "tied", "unranked"]


@dataclass(frozen=True, slots=True)
class ClassAnswer:
    """The answer of one protocol class on a task: its leading board's verdict."""

    adaptation: AdaptationClass
    board: int
    """Index in `TaskBoards.boards` of the board answered from (most ranked values)."""
    column: int
    state: AnswerState
    rows: tuple[int, ...]
    """The best row (state 'best'), the tied rows ('tied'), () for 'unranked'."""
    models: int
    """Distinct models with a value under this class on the task."""
    sources: int
    """Distinct sources of those values."""
    beyond: int = 0
    """Values in the answer's column better than the top ranked one that are not ranked
    (excluded by a concern, conditions not stated, or no comparable rival): the answer
    then names the best of the comparable values, never 'the highest'."""


@dataclass(frozen=True, slots=True)
class TaskBoards:
    dataset_ids: tuple[str, ...]
    boards: tuple[Board, ...]
    """In class order (`CLASSES`), then by the order the task's datasets and protocols
    come in."""
    answers: tuple[ClassAnswer, ...]
    """One per class with a board, in class order."""
    other_protocols: tuple[str, ...]
    """Protocols measuring memory or time on the task: not boards."""


@dataclass(frozen=True, slots=True)
class _Checkpoint:
    parameters: float | None
    context_bp: float | None


def _number(fact: Fact | None) -> float | None:
    """A checkpoint fact's number (the leaderboard reads no source record for it:
    `rewire serve` then remakes task pages only when the family changes)."""
    return fact.value if fact is not None and isinstance(fact.value, float) else None


def checkpoint_facts(checkpoint: Checkpoint, conversion: BasePairs) -> _Checkpoint:
    """Parameters and longest input in base pairs (accepted, else trained; tokens converted
    by the family's cited tokeniser, `fits.length_count`) of one checkpoint."""
    facts = checkpoint.facts
    stated = getattr(facts, "parameters", None) if facts else None
    count = _number(stated)
    if count is None:
        printed = (stated.printed_value or "") if stated is not None else checkpoint.parameters
        found = parse_printed(printed) if printed else None
        count = found.value if found is not None else None
    context = None
    for name in ("context_length_accepted", "context_length_trained"):
        fact = getattr(facts, name, None) if facts else None
        stated_bp = getattr(fact, "base_pairs", None)  # the source's own base pairs first
        if stated_bp is not None and isinstance(stated_bp.value, float):
            context = stated_bp.value
            break
        if fact is None:
            continue
        bp = length_count(_number(fact), fact.unit or "", conversion).base_pairs
        if bp is not None:
            context = bp
            break
    return _Checkpoint(count, context)


class ModelFacts:
    """Parameters and context of each configuration's pinned checkpoint, looked up once
    per family."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self._families: dict[str, dict[str, _Checkpoint]] = {}

    def _checkpoints(self, family_id: str) -> dict[str, _Checkpoint]:
        found = self._families.get(family_id)
        if found is None:
            family = self.catalogue.by_id.get(family_id)
            found = {}
            if isinstance(family, ModelFamily):
                conversion = family_base_pairs(family)
                for c in family.checkpoints:
                    found[c.name.lower()] = checkpoint_facts(c, conversion)
            self._families[family_id] = found
        return found

    def checkpoint(self, family_id: str, name: str | None) -> _Checkpoint | None:
        """The facts of checkpoint `name` of `family_id` (None: not pinned, or not listed)."""
        return None if name is None else self._checkpoints(family_id).get(name.lower())

    def model(self, configuration: Configuration) -> BoardModel:
        """The board model of `configuration`: its checkpoint's facts where its recorded
        checkpoint (the hub id before any note) names one of its family's checkpoints."""
        entry = None
        if configuration.checkpoint:
            name = configuration.checkpoint.split()[0].lower()
            entry = self._checkpoints(configuration.family).get(name)
        return BoardModel(
            configuration.id,
            RowName(configuration.title),
            configuration.family,
            entry.parameters if entry is not None else None,
            entry.context_bp if entry is not None else None,
            record=configuration.id,
        )


def publication(source_id: str, catalogue: Catalogue) -> str:
    """The publication a source record belongs to: its short citation up to the first
    comma ('Feng et al. 2024'), else its id."""
    short = catalogue.field(source_id, "short_citation")
    return short.split(",")[0].strip() if isinstance(short, str) and short.strip() else source_id


STANDINGS: frozenset[str] = frozenset({"best", "tied", "ranked", "alone", "unstated", "excluded"})


def sort_rows(rows: Sequence[BoardRow], columns: Sequence[BoardColumn]) -> list[BoardRow]:
    """Rows by the first column holding a value, best first in its direction; rows without
    a value there last (by name, `names.order_text`)."""
    index = next((i for i in range(len(columns)) if any(r.values[i] is not None for r in rows)), 0)
    sign = -1.0 if columns and columns[index].direction != "lower" else 1.0

    def key(row: BoardRow) -> tuple[bool, float, str]:
        value = row.values[index] if columns else None
        return (
            value is None,
            sign * value.value if value else 0.0,
            order_text(row.model.name).lower(),
        )

    return sorted(rows, key=key)
