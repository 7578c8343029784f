"""Page contexts of a protocol: its page (comparison table, results, baselines,
reproductions) and the comparison table pre-sorted by each column (no-JS sorting)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..derive.comparability import protocol_depends_on_hardware
from ..derive.fits import CURVE_RECIPE
from ..derive.scales import column_metrics
from ..link import Catalogue
from ..models import (
    Origin,
    Protocol,
    Question,
)
from .comparison_table import (
    ComparisonTable,
    ProtocolTables,
    protocol_tables,
    resort,
)
from .contexts import (
    Fact,
    Link,
    ProtocolPage,
    RecipeView,
    SharedRows,
    SiteFacts,
    SortedPage,
    page_header,
)
from .coverage import baseline_coverage, recorded_run_minutes
from .findings import Headline, protocol_headline
from .fits.pages import FITS_PATH
from .fits.pages import TITLE as FITS_TITLE
from .parts import (
    common_fields,
    link_to,
    reader_notes,
    results_of,
    value_fact,
)
from .present.durations import display_duration
from .present.metrics import metric_dependence, per_column
from .present.missing import missing_text
from .present.numbers import display_number, plural
from .reproduction import ReproductionGroup, protocol_reproduction_groups
from .reproduction_chart import group_charts
from .sections import (
    comparison_view,
    resorted_view,
)
from .urls import record_path, sorted_path


def protocol_table(protocol: Protocol, catalogue: Catalogue, facts: SiteFacts) -> ProtocolTables:
    """The protocol's comparison tables (published, Rewire measurements) in default order."""
    evaluations = catalogue.evaluations_of(protocol.id)
    flags = {e.id: facts.flags.get(e.id, ()) for e in evaluations}
    return protocol_tables(protocol, catalogue, flags=flags, evaluations=evaluations)


def protocol_page(
    protocol: Protocol,
    catalogue: Catalogue,
    facts: SiteFacts,
    table: ProtocolTables | None = None,
    *,
    headline: Headline | None = None,
    reproductions: Sequence[ReproductionGroup] | None = None,
) -> ProtocolPage:
    """The page of `protocol`. `table`, `headline`, `reproductions`: what the derive
    stage computed already (`render.plan`); computed here when not given."""
    evaluations = catalogue.evaluations_of(protocol.id)
    if table is None:
        table = protocol_table(protocol, catalogue, facts)
    groups = tuple(
        protocol_reproduction_groups(protocol, catalogue, flags=facts.flags)
        if reproductions is None
        else reproductions
    )
    recipe_missing = ""
    if protocol.recipe is None:
        why = missing_text(protocol, "recipe")
        recipe_missing = f"{why.long_label}{': ' + why.note if why.note else ''}"
    metrics = column_metrics(protocol)
    page_facts = (
        Fact("measurement", protocol.measurement, markdown=True),
        # The metrics its columns are measured in (Feng et al.: per column MCC, AUC, ...).
        Fact("metric", per_column([f"{m.label} ({m.id})" for m in metrics])),
        Fact("unit", per_column([m.unit for m in metrics])),
        Fact("direction", per_column([f"{m.direction} is better" for m in metrics])),
        value_fact(protocol, "metric_definition", protocol.metric_definition),
        value_fact(protocol, "hardware", protocol.hardware),
        Fact("version", protocol.version),
        value_fact(protocol, "replicates", protocol.replicates),
        Fact(
            "tolerance",
            (
                f"±{display_number(protocol.tolerance * 100)}% of the published value"
                + (
                    f" ({reason})"
                    if (reason := getattr(protocol, "tolerance_reason", None))
                    else ""
                )
            )
            if protocol.tolerance is not None
            else "Not set: no agreement with a published value is judged",
            missing=protocol.tolerance is None,
        ),
        Fact(
            "hardware dependence",
            f"{metric_dependence(protocol, True)}: results on different accelerators are "
            "not ranked together"
            if protocol_depends_on_hardware(protocol)
            else f"{metric_dependence(protocol, False)} (declared by the protocol): a "
            "hardware difference is a stated difference",
        ),
        Fact("source locator", protocol.source_locator),
    )
    # With Rewire measurements, their rows live on their own pages (each measurements
    # table cell links there); this table keeps the published values with their quotes.
    published = [e for e in evaluations if e.origin != Origin.rewire_measurement]
    measured = len(evaluations) - len(published)
    many = len(published) > MAX_RESULT_ROWS
    results = results_of(
        "result-rows",
        "Exact evaluated configurations and original reported results",
        evaluations,
        catalogue,
        facts,
        show_protocol=len({e.dataset for e in evaluations}) > 1,
        compact=True,
        rows_of=[] if many else published if measured and table.measurements is not None else None,
    )
    own_text = (
        "the measurement has its own page, linked from the measurements table"
        if measured == 1
        else f"each of the {measured} measurements has its own page, linked from the "
        "measurements table"
    )
    own_pages = f" ({own_text})"
    if many:
        rows_text = (
            f"The {plural(len(published), 'published result')} each have a row with "
            "coverage, uncertainty, quote and source on their evaluation page (every value in "
            "the table above links there) and in the model evaluation matrix CSV"
        )
    elif not published:
        rows_text = "No published result is recorded under this protocol" + (
            own_pages if measured else ""
        )
    elif not results.rows:  # published claims, not values (HyenaDNA's Colab GPU fit)
        rows_text = (
            "No published result value is recorded under this protocol (its claims as "
            "printed are on the evaluation pages" + (f"; {own_text})" if measured else ")")
        )
    elif measured and table.measurements is not None:
        rows_text = (
            f"The {plural(len(results.rows), 'published result row')} with coverage, "
            "uncertainty and sources" + own_pages
        )
    else:
        rows_text = f"All {len(results.rows)} result rows with coverage, uncertainty and sources"
    if not results.rows:
        # No result rows listed: the filter hides and counts the comparison tables' rows
        # (rewire.js does the same at load), never "0 matching evaluations".
        listed = sum(
            len(shown.rows)
            for shown in (table.published, table.measurements)
            if shown is not None and shown.columns  # a table without columns is not shown
        )
        results = replace(results, matching_text=plural(listed, "matching table row"))
    shown = {f.key for f in results.facets}
    index = {k: v for k, v in facts.filters.index.items() if k in shown}
    return ProtocolPage(
        **common_fields(protocol, catalogue, facts, "protocol.html"),
        recipe=(
            RecipeView(r.id, r.command, r.hardware, r.note) if (r := protocol.recipe) else None
        ),
        comparison=comparison_view(table.published, index),
        measurements=(
            comparison_view(table.measurements, index, MEASUREMENTS_ID)
            if table.measurements is not None
            else None
        ),
        measurements_by_setup=table.measurements is not None
        and bool(table.measurements.setup_keys),
        setup_keys_text=", ".join(protocol.recipe.setup_keys) if protocol.recipe else "",
        counts_text=table.counts_text,
        results=results,
        facts=page_facts,
        datasets=tuple(link_to(catalogue, d) for d in protocol.datasets),
        recipe_missing=recipe_missing,
        baselines=baseline_coverage(protocol, catalogue),
        questions=tuple(
            link_to(catalogue, q.id) for q in catalogue.referring(protocol.id, Question)
        ),
        evaluations=tuple(link_to(catalogue, e.id) for e in evaluations),
        reproductions=groups,
        reproduction_charts=group_charts(groups, catalogue),
        headline=(
            protocol_headline(protocol, catalogue, facts.flags) if headline is None else headline
        ),
        results_link_text=rows_text,
        run_minutes=recorded_run_minutes(protocol, catalogue),
        notes=reader_notes(protocol.notes),
        fits=Link(FITS_TITLE, FITS_PATH)
        if protocol.recipe is not None and protocol.recipe.id == CURVE_RECIPE
        else None,
        recipe_minutes=(
            display_duration(protocol.recipe.estimated_minutes * 60)
            if protocol.recipe is not None and protocol.recipe.estimated_minutes is not None
            else ""
        ),
    )


def sorted_pages(
    protocol: Protocol, catalogue: Catalogue, facts: SiteFacts, first: ProtocolTables
) -> list[SortedPage]:
    """The comparison tables of `protocol` sorted by each column either shows, in turn;
    `first` holds them in the default order (see `derive.tables.default_sort_column`).
    A table without that column keeps its default order."""
    pages = []
    # one view of each table (no filter form on these pages), shown in each order with
    # its rows rendered once (every sorted view is at the same depth: the same HTML)
    published = replace(comparison_view(first.published, {}), shared_rows=SharedRows())
    measurements = (
        replace(comparison_view(first.measurements, {}, MEASUREMENTS_ID), shared_rows=SharedRows())
        if first.measurements
        else None
    )
    for column_id in first.column_ids:
        table = _sorted(first.published, column_id)
        measured = _sorted(first.measurements, column_id) if first.measurements else None
        column = next(
            c for t in (table, measured) if t is not None for c in t.columns if c.id == column_id
        )
        path = sorted_path(protocol.id, column.id)
        pages.append(
            SortedPage(
                **page_header(
                    "protocol_sorted.html",
                    path,
                    f"{protocol.title}: sorted by {column.header}",
                    f"Sorted by {column.header} ({column.direction_label}).",
                    facts.release_id,
                ),
                protocol_title=protocol.title,
                protocol_href=record_path("protocol", protocol.id),
                comparison=resorted_view(published, table),
                measurements=(
                    resorted_view(measurements, measured) if measurements and measured else None
                ),
            )
        )
    return pages


MEASUREMENTS_ID = "comparison-measurements"

MAX_RESULT_ROWS = 60
"""Above this many published results, a protocol page lists no result rows of its own:
each value of its comparison table links to the evaluation page that has the row."""
"""Element id of the Rewire measurements table (the published one is 'comparison')."""


def _sorted(table: ComparisonTable, column_id: str) -> ComparisonTable:
    if table.sort_column == column_id or column_id not in {c.id for c in table.columns}:
        return table
    return resort(table, column_id)
