"""Reproductions: published evaluations and the measurements that reproduce them, as
facts (`render/reproduction.py` puts them in words, `render/reproduction_chart.py` draws
them).

One model, grouped by the published evaluation: for each column it reports, the published
value and every evaluation that names it in `reproduces` (a row each), and the one verdict
on that published value (`verdicts.judge_column`).

Two statements are kept apart:
- measured under the same protocol: every row is (a measurement names the evaluation it
  reproduces, under that evaluation's protocol);
- agrees within tolerance: only where the protocol sets a tolerance, no hardware
  difference that the protocol declares decisive stands between the two values
  (`comparability.hardware_blocks`), and the ratio lies within it. Only such a row is
  "reproduced".

An incomplete run claims no value: neither ratio nor agreement is computed for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ..link import Catalogue
from ..models import Configuration, Evaluation, Protocol
from ..models.evaluation import Origin
from ..models.scales import on_metric_scale
from .agreement import agreement, incomplete, published_reading
from .comparability import accelerators, evaluation_hardware, hardware_blocks
from .concerns import Flag, excluded, flags_by_evaluation
from .pairs import Differences, Estimate, ReproductionPair, ReproductionRow
from .verdicts import ColumnVerdict, judge_column


@dataclass(frozen=True)
class ReproducedColumn:
    """One published value and the measurements of it."""

    column_id: str
    column_label: str
    unit: str
    published: ReproductionPair
    """A pair of the column: its published_* fields are the published value's (the same
    in every row)."""
    rows: tuple[ReproductionRow, ...]
    """One per measurement that reports the column, by measurement id."""
    verdict: ColumnVerdict
    """The one verdict on this published value (`verdicts.judge_column`)."""
    verdict_rows: tuple[ReproductionRow, ...]
    """The rows the verdict was judged over: `rows` itself, or on a measurement's own
    page every measurement of the published value (`evaluation_reproductions`)."""


@dataclass(frozen=True)
class ReproductionGroup:
    protocol_id: str
    published_evaluation_id: str
    published_title: str
    published_origin: str
    measured_evaluation_ids: tuple[str, ...]
    columns: tuple[ReproducedColumn, ...]
    unmatched: tuple[tuple[str, tuple[str, ...]], ...]
    """(measurement title, the columns it reports that the published evaluation does
    not), for each measurement with such columns."""
    tolerance: float | None
    agree_count: int
    disagree_count: int
    depends_count: int
    """Pairs that agree under one reading of GB only."""
    not_judged_count: int
    value_count: int
    """Pairs with a measured value (not out of memory or incomplete)."""
    all_incomplete: bool
    """Every pair is an incomplete run."""

    @property
    def pairs(self) -> tuple[ReproductionPair, ...]:
        """Every pair of the group, column by column."""
        return tuple(r.pair for c in self.columns for r in c.rows)


def pair(
    column_id: str,
    protocol: Protocol,
    published: Evaluation,
    measured: Evaluation,
    catalogue: Catalogue,
) -> ReproductionPair | None:
    """The two results in `column_id` and their agreement; None unless both report it."""
    mine = next((r for r in measured.results if r.column == column_id), None)
    theirs = next((r for r in published.results if r.column == column_id), None)
    if mine is None or theirs is None:
        return None
    label = next((c.label for c in protocol.columns if c.id == column_id), column_id)
    status: Literal["value", "out_of_memory", "incomplete"] = (
        mine.status if mine.status in ("value", "incomplete") else "out_of_memory"
    )
    # Both values on the column metric's own scale (61.91 percent and 0.6191 compare).
    metric = protocol.column_metric(column_id)
    mine_value = on_metric_scale(metric, mine)
    theirs_value = on_metric_scale(metric, theirs)
    shape, ambiguous = published_reading(published, theirs, protocol)
    found = agreement(
        mine_value,
        theirs_value,
        protocol.tolerance,
        blocked=hardware_blocks(measured, published, protocol, catalogue),
        shape=shape,
        gigabyte_ambiguous=ambiguous,
    )
    if status == "incomplete":
        found = incomplete(protocol.tolerance, shape)
    return ReproductionPair(
        column_id=column_id,
        column_label=label,
        unit=metric.unit,
        published_value=theirs_value,
        published_recorded=theirs.value,
        published_status=theirs.status,
        published_printed=theirs.printed_value,
        published_on_metric_scale=(theirs.scale or metric.scale) == metric.scale,
        published_locator=theirs.citation.locator if theirs.citation else None,
        measured_status=status,
        measured_value=mine_value,
        measured_result_status=mine.status,
        agreement=found,
        estimates=tuple(Estimate(e.label, e.value, e.method) for e in mine.estimates),
    )


def measured_settings(
    evaluation: Evaluation, configuration: Configuration | None
) -> dict[str, str]:
    """The settings a measurement ran under: its configuration's, with those the evaluation
    states itself on top. One configuration can serve several readings of a claim (Feng et
    al.'s time ratios: HyenaDNA's 70-token point is read under both max-length readings),
    so the reading a quotient was made under is stated on its evaluation."""
    own = configuration.settings if configuration is not None else {}
    return {**own, **evaluation.settings}


def setup_settings(
    evaluation: Evaluation, protocol: Protocol, catalogue: Catalogue
) -> tuple[tuple[str, str], ...]:
    """The recipe's setup keys and the measurement's values of them (a key it lacks reads
    as the recipe's default), in the recipe's order."""
    recipe = protocol.recipe
    if recipe is None or not recipe.setup_keys:
        return ()
    configuration = catalogue.by_id.get(evaluation.configuration)
    own = measured_settings(
        evaluation, configuration if isinstance(configuration, Configuration) else None
    )
    settings = {**recipe.setup_defaults, **own}
    return tuple((k, settings[k]) for k in recipe.setup_keys if k in settings)


def declared_reading(protocol: Protocol) -> tuple[tuple[str, str], ...]:
    """The recipe's declared reading as (key, value) in the recipe's order; () if none."""
    recipe = protocol.recipe
    if recipe is None or recipe.declared_reading is None:
        return ()
    chosen = recipe.declared_reading.settings
    return tuple((k, chosen[k]) for k in recipe.setup_keys if k in chosen)


def differences(
    measured: Evaluation, published: Evaluation, protocol: Protocol, catalogue: Catalogue
) -> Differences:
    """Stated differences of a measurement from the published run: the recipe's setup
    settings (the source leaves them open) and the accelerator, where they differ."""
    keys = protocol.recipe.setup_keys if protocol.recipe is not None else []
    configuration = catalogue.by_id.get(measured.configuration)
    settings: tuple[tuple[str, str], ...] = ()
    if isinstance(configuration, Configuration):
        settings = tuple(
            (k, configuration.settings[k]) for k in keys if k in configuration.settings
        )
    configurations = [catalogue.by_id.get(e.configuration) for e in (measured, published)]
    mine, theirs = (
        accelerators(evaluation_hardware(e, c if isinstance(c, Configuration) else None))
        for e, c in zip((measured, published), configurations, strict=True)
    )
    if mine and mine != theirs:
        count = measured.environment.gpu_count if measured.environment else None
        return Differences(settings, tuple(sorted(mine)), count, tuple(sorted(theirs)))
    return Differences(settings)


def _column(
    column_id: str,
    protocol: Protocol,
    published: Evaluation,
    measured: Sequence[Evaluation],
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]],
) -> ReproducedColumn | None:
    rows: list[ReproductionRow] = []
    for evaluation in measured:
        found_pair = pair(column_id, protocol, published, evaluation, catalogue)
        if found_pair is None:
            continue
        found = flags.get(evaluation.id, ())
        ratio = found_pair.agreement.ratio
        rows.append(
            ReproductionRow(
                measured_evaluation_id=evaluation.id,
                measured_title=evaluation.title,
                differences=differences(evaluation, published, protocol, catalogue),
                pair=found_pair,
                excluded=excluded(found, column_id),
                flags=tuple(f for f in found if f.affects(column_id)),
                distance=abs(ratio - 1.0) if ratio is not None else None,
                rewire=evaluation.origin == Origin.rewire_measurement,
                settings=setup_settings(evaluation, protocol, catalogue),
                started_at=evaluation.environment.started_at if evaluation.environment else None,
            )
        )
    if not rows:
        return None
    first, every = rows[0].pair, tuple(rows)
    return ReproducedColumn(
        column_id=column_id,
        column_label=first.column_label,
        unit=first.unit,
        published=first,
        rows=every,
        verdict=judge_column(every, declared_reading(protocol)),
        verdict_rows=every,
    )


def reproduction_group(
    published: Evaluation,
    measured: Iterable[Evaluation],
    catalogue: Catalogue,
    *,
    flags: Mapping[str, tuple[Flag, ...]] | None = None,
) -> ReproductionGroup | None:
    """`published` and the evaluations among `measured` that name it in `reproduces`;
    None when there is none."""
    chosen = sorted(
        (e for e in measured if e.reproduces == published.id and e.id != published.id),
        key=lambda e: e.id,
    )
    if not chosen:
        return None
    if flags is None:
        flags = flags_by_evaluation(catalogue, chosen)
    protocol = catalogue.get(published.protocol, Protocol)
    theirs = {r.column for r in published.results}
    columns = tuple(
        c
        for column in protocol.columns
        if column.id in theirs
        and (c := _column(column.id, protocol, published, chosen, catalogue, flags)) is not None
    )
    unmatched = tuple(
        (e.title, tuple(missing))
        for e in chosen
        if (missing := [r.column for r in e.results if r.column not in theirs])
    )
    pairs = [r.pair for c in columns for r in c.rows]
    agree = sum(p.agreement.state == "agrees" for p in pairs)
    disagree = sum(p.agreement.state == "disagrees" for p in pairs)
    values = sum(p.measured_value is not None for p in pairs)
    depends = sum(p.agreement.state == "depends_on_unit" for p in pairs)
    return ReproductionGroup(
        protocol_id=protocol.id,
        published_evaluation_id=published.id,
        published_title=published.title,
        published_origin=published.origin.value,
        measured_evaluation_ids=tuple(e.id for e in chosen),
        columns=columns,
        unmatched=unmatched,
        tolerance=protocol.tolerance,
        agree_count=agree,
        disagree_count=disagree,
        depends_count=depends,
        not_judged_count=values - agree - disagree - depends,
        value_count=values,
        all_incomplete=bool(pairs) and all(p.measured_status == "incomplete" for p in pairs),
    )


def protocol_reproduction_groups(
    protocol: Protocol,
    catalogue: Catalogue,
    *,
    flags: Mapping[str, tuple[Flag, ...]] | None = None,
) -> tuple[ReproductionGroup, ...]:
    """One group per published evaluation of `protocol` that a measurement reproduces,
    by published evaluation id."""
    evaluations = catalogue.evaluations_of(protocol.id)
    targets = sorted({e.reproduces for e in evaluations if e.reproduces is not None})
    groups = []
    for target in targets:
        published = catalogue.by_id.get(target)
        if isinstance(published, Evaluation):
            group = reproduction_group(published, evaluations, catalogue, flags=flags)
            if group is not None:
                groups.append(group)
    return tuple(groups)


def evaluation_reproductions(
    evaluation: Evaluation,
    catalogue: Catalogue,
    *,
    flags: Mapping[str, tuple[Flag, ...]] | None = None,
    groups: Sequence[ReproductionGroup] | None = None,
) -> tuple[ReproductionGroup, ...]:
    """For a measurement page: its own reproduction of the evaluation it names; for a
    published evaluation's page: every reproduction of it. Empty when neither.
    `groups`: the protocol's groups (`protocol_reproduction_groups`) where the build
    computed them already; each published value's group is then read, not judged again."""
    if evaluation.reproduces is not None:
        published = catalogue.by_id.get(evaluation.reproduces)
        if not isinstance(published, Evaluation):
            return ()
        group = reproduction_group(published, [evaluation], catalogue, flags=flags)
        if group is not None:
            # The published value's one verdict, judged over every measurement of it,
            # not over this one alone (else each measurement page had its own verdict).
            every = _every(published, catalogue, flags, groups)
            judged = {c.column_id: c for c in every.columns} if every is not None else {}
            group = replace(
                group,
                columns=tuple(
                    replace(
                        c,
                        verdict=judged[c.column_id].verdict,
                        verdict_rows=judged[c.column_id].verdict_rows,
                    )
                    if c.column_id in judged
                    else c
                    for c in group.columns
                ),
            )
    else:
        group = _every(evaluation, catalogue, flags, groups)
    return (group,) if group is not None else ()


def _every(
    published: Evaluation,
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]] | None,
    groups: Sequence[ReproductionGroup] | None,
) -> ReproductionGroup | None:
    """The group of `published` with every measurement of it: read from `groups` (its
    protocol's, a measurement names an evaluation of its own protocol) when given."""
    if groups is not None:
        return next((g for g in groups if g.published_evaluation_id == published.id), None)
    return reproduction_group(published, _referring(published, catalogue), catalogue, flags=flags)


def _referring(published: Evaluation, catalogue: Catalogue) -> list[Evaluation]:
    return [e for e in catalogue.referring(published.id, Evaluation) if isinstance(e, Evaluation)]


__all__ = [
    "Estimate",
    "ReproducedColumn",
    "ReproductionGroup",
    "ReproductionPair",
    "ReproductionRow",
    "evaluation_reproductions",
    "pair",
    "protocol_reproduction_groups",
    "reproduction_group",
]
