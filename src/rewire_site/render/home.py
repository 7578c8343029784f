"""The home page: what the catalogue answers, in one screen. A task finder (task families
with their counts, `derive.task_families`), links to "Does it fit on my GPU?", the model
directory and the findings, and one chart: results per task family, as an inline SVG
whose geometry is computed here (no JavaScript).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..derive.task_families import TaskFamily, task_families
from ..link import Catalogue
from .chooser.pages import task_path
from .contexts import Link, Page, SiteFacts, page_header
from .coverage import catalogue_counts
from .present.numbers import plural
from .present.task_families import TASK_FAMILY_LABELS, by_results
from .urls import CHOOSER, FINDINGS, FITS, HOME

CHART_WIDTH = 480
BAR_HEIGHT = 18
BAR_GAP = 6
LABEL_WIDTH = 190
"""Room for the family labels left of the bars, in SVG units."""
TOP = 8
AXIS_ROOM = 44
"""Below the bars: the tick labels and the axis title."""
TICKS = 5


@dataclass(frozen=True)
class FamilyView:
    """One task family in the finder: its label, counts and the pages of its tasks."""

    label: str
    counts_text: str
    """'10 tasks · 300 results'."""
    tasks: tuple[Link, ...]


@dataclass(frozen=True)
class Bar:
    label: str
    value_text: str
    y: float
    width: float
    text_y: float
    value_x: float


@dataclass(frozen=True)
class Tick:
    x: float
    text: str


@dataclass(frozen=True)
class BarChart:
    """A horizontal bar chart, every coordinate in SVG units of a CHART_WIDTH-wide box."""

    title: str
    width: int
    height: int
    label_width: int
    bar_height: int
    plot_right: int
    axis_y: float
    axis_label: str
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    source_note: str
    description: str


@dataclass(frozen=True)
class HomePage(Page):
    lede: str
    """What the catalogue answers, in one sentence."""
    families: tuple[FamilyView, ...]
    """The task finder: one entry per task family with a result."""
    chart: BarChart | None
    """Results per task family; None when no task holds a result."""
    counts_text: str
    """'2,400 records: ...' in release <id>."""
    fits_href: str
    """The "Does it fit on my GPU?" page."""
    models_href: str | None
    """The model directory, when the site has one."""
    findings_href: str
    """The findings page (each protocol's headline and the coverage table)."""
    chooser_href: str
    """The model chooser's index (tasks, family matrices, comparisons)."""


def nice_step(top: int, ticks: int = TICKS) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) so that about `ticks` steps
    cover `top`."""
    raw = max(top / ticks, 1.0)
    power: int = 10 ** (len(str(int(raw))) - 1)
    return next(f * power for f in (1, 2, 5, 10) if f * power >= raw)


def results_chart(families: tuple[TaskFamily, ...]) -> BarChart | None:
    """Bars of results per task family, longest first as `families` orders them."""
    if not families:
        return None
    top = max(f.results for f in families)
    step = nice_step(top)
    axis_max = step * -(-top // step)
    plot_right = CHART_WIDTH - 40
    span = plot_right - LABEL_WIDTH
    bars = []
    for i, family in enumerate(families):
        y = TOP + i * (BAR_HEIGHT + BAR_GAP)
        width = span * family.results / axis_max
        bars.append(
            Bar(
                label=TASK_FAMILY_LABELS[family.key],
                value_text=f"{family.results:,}",
                y=y,
                width=round(width, 1),
                text_y=y + BAR_HEIGHT - 5,
                value_x=round(LABEL_WIDTH + width + 4, 1),
            )
        )
    axis_y = TOP + len(families) * (BAR_HEIGHT + BAR_GAP)
    ticks = tuple(
        Tick(round(LABEL_WIDTH + span * v / axis_max, 1), f"{v:,}")
        for v in range(0, axis_max + 1, step)
    )
    total = sum(f.results for f in families)
    return BarChart(
        title="Recorded results per task family",
        width=CHART_WIDTH,
        height=int(axis_y + AXIS_ROOM),
        label_width=LABEL_WIDTH,
        bar_height=BAR_HEIGHT,
        plot_right=plot_right,
        axis_y=axis_y,
        axis_label="Results (count of recorded values)",
        bars=tuple(bars),
        ticks=ticks,
        source_note=f"Source: the evaluation records of this release ({_results(total)}"
        " on real, non-synthetic task data; memory and run-time results are not counted). "
        "A result is one published or measured value.",
        description="; ".join(f"{TASK_FAMILY_LABELS[f.key]}: {f.results:,}" for f in families),
    )


def _results(count: int) -> str:
    """'1 result', '18,800 results': grouped as the chart's bars and axis are."""
    return f"{count:,} {'result' if count == 1 else 'results'}"


def family_view(family: TaskFamily) -> FamilyView:
    return FamilyView(
        label=TASK_FAMILY_LABELS[family.key],
        counts_text=f"{plural(len(family.tasks), 'task')} · {_results(family.results)}",
        tasks=tuple(Link(t.title, task_path(t.dataset_ids[0])) for t in family.tasks),
    )


def home_page(catalogue: Catalogue, facts: SiteFacts, models_href: str | None) -> HomePage:
    """The home page of `catalogue`; `models_href`: the model directory's path when the
    site has one."""
    families = by_results(task_families(catalogue))
    counts = catalogue_counts(catalogue)
    return HomePage(
        **page_header(
            "home.html",
            HOME,
            "Rewire: evidence for choosing a DNA language model",
            "Which genomic foundation model for your task, whether it fits on your GPU, "
            "and the source behind every number.",
            facts.release_id,
            nav="home",
        ),
        lede="Find the results recorded for your task, check whether a model fits on your "
        "GPU, and follow every number to its source.",
        families=tuple(family_view(f) for f in families),
        chart=results_chart(families),
        counts_text=counts.text,
        fits_href=FITS,
        models_href=models_href,
        findings_href=FINDINGS,
        chooser_href=CHOOSER,
    )
