"""Page contexts of the model chooser's pages (what their templates receive as `page`):
a task page, a family's task-by-metric matrix, a two-model comparison, and their index.
Every field is shown by its template (tests/test_chooser.py checks it)."""

from __future__ import annotations

from dataclasses import dataclass

from ..contexts import CrossSourceSection
from ..leaderboard import Leaderboard
from ..page import Link, Page


@dataclass(frozen=True)
class ValueCell:
    text: str
    """The value as displayed (rounded; the stored value is unchanged), or ''."""
    href: str
    """The evaluation's page ('' without a value)."""
    note: str
    """'excluded from comparisons' or ''."""


@dataclass(frozen=True)
class OverlapRow:
    """One model family with results on the same task in two groups."""

    family: str
    metric: str
    left: ValueCell
    left_group: str
    right: ValueCell
    right_group: str
    verdict: str
    """'Comparable' or 'Not comparable: <reasons>'."""


@dataclass(frozen=True)
class TaskPage(Page):
    heading: str
    datasets: tuple[Link, ...]
    """The task's dataset records (several when sources name one task differently)."""
    same_task: tuple[str, ...]
    """Why the datasets are the same task (one sentence per link), empty for one dataset."""
    board: Leaderboard
    """The leaderboard: the answer, one table and chart per protocol, the filters."""
    overlaps: tuple[OverlapRow, ...]
    """Pairs shown: all of them up to `pages.OVERLAP_LIMIT`, else the comparable ones (at
    most that many)."""
    overlap_note: str
    overlap_counts: tuple[str, ...]
    """The pairs counted by verdict ('3,921 not comparable: different protocols ...')."""
    overlap_download: str = ""
    """The CSV of every pair, when the page lists only some ('' otherwise)."""
    all_overlaps: tuple[OverlapRow, ...] = ()
    """Every pair, when the page lists only some: what the download holds (not shown)."""
    cross_source: CrossSourceSection | None = None
    """'Where sources overlap': the same checkpoint, metric and protocol class on this task
    in two or more sources, side by side with the verdict (`render.cross_source`)."""


@dataclass(frozen=True)
class MatrixRow:
    task: Link
    cells: tuple[str, ...]
    """Per metric: each configuration's value as 'value (configuration)', joined."""


@dataclass(frozen=True)
class FamilyMatrixPage(Page):
    family: Link
    metrics: tuple[str, ...]
    rows: tuple[MatrixRow, ...]
    note: str


@dataclass(frozen=True)
class PairRow:
    task: Link
    metric: str
    left: ValueCell
    right: ValueCell
    winner: str
    """The better configuration's name, 'tie', or ''."""


@dataclass(frozen=True)
class WinCount:
    protocol: str
    """Source and metric, e.g. 'Feng et al. 2024 · AUC'."""
    text: str
    """'A better on 30 tasks, B on 25, 2 ties'."""


@dataclass(frozen=True)
class ComparePage(Page):
    left: Link
    right: Link
    wins: tuple[WinCount, ...]
    rows: tuple[PairRow, ...]
    note: str
    answer: str
    """The page's answer in plain words: how many comparable pairs, on how many tasks,
    from how many sources and metrics (counted from `rows` and `wins`)."""


@dataclass(frozen=True)
class ChooserIndexPage(Page):
    tasks: tuple[Link, ...]
    other_data: tuple[Link, ...]
    """Task pages of synthetic or pre-training data: no task a model is chosen for."""
    families: tuple[Link, ...]
    pairs: tuple[Link, ...]
    note: str
