"""Reproductions: published evaluations and the measurements that reproduce them.

One model, grouped by the published evaluation: for each column it reports, the published
value and every evaluation that names it in `reproduces` (its own row and its own bar,
labelled by its setup), rows sorted by how close the ratio measured / published is to 1.

Two statements are kept apart:
- measured under the same protocol: every row is (a measurement names the evaluation it
  reproduces, under that evaluation's protocol);
- agrees within tolerance: only where the protocol sets a tolerance, no hardware
  difference that the protocol declares decisive stands between the two values
  (`comparability.hardware_blocks`), and the ratio lies within it. Only such a row is
  "reproduced" (the chart, `render/reproduction_chart.py`, draws it as its own series).

An incomplete run claims no value: neither ratio nor agreement is computed for it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ..link import Catalogue
from ..models import Configuration, Evaluation, Protocol
from ..models.evaluation import Origin
from ..models.scales import on_metric_scale
from .agreement import agreement, incomplete, published_reading
from .comparability import HardwareBlock, accelerators, evaluation_hardware, hardware_blocks
from .concerns import Flag, excluded, flags_by_evaluation
from .display import (
    OUT_OF_MEMORY,
    agree_count,
    agreement_text,
    agreement_verdict,
    digits_shown,
    display_number,
    flag_label,
    metric_dependence,
    plural,
    ratio_text,
    reading_text,
    result_display,
    result_header,
)
from .pairs import EstimateView, ReproductionPair, ReproductionRow
from .verdicts import ColumnVerdict, judge_column

INCOMPLETE_TEXT = (
    "The measurement is an incomplete run: it covered fewer steps or samples than the "
    "protocol asks and claims no value, so no ratio or agreement is computed (its note "
    "says why; its observations hold what was measured)."
)


@dataclass(frozen=True)
class ReproducedColumn:
    column_id: str
    column_label: str
    header: str
    unit: str
    published_value: float | None
    published_display: str
    published_printed: str | None
    published_locator: str | None
    """Where the source prints the published value (its citation's locator)."""
    rows: tuple[ReproductionRow, ...]
    """The row the verdict reads first, then agreeing rows, then by distance of the ratio
    from 1 (rows without a ratio last), then setup."""
    closest_text: str
    estimates: tuple[EstimateView, ...]
    verdict: ColumnVerdict
    """The one verdict on this published value (`verdicts.judge_column`)."""


@dataclass(frozen=True)
class ReproductionGroup:
    protocol_id: str
    published_evaluation_id: str
    published_title: str
    published_origin: str
    measured_evaluation_ids: tuple[str, ...]
    measured_count_text: str
    """'5 measurements'."""
    columns: tuple[ReproducedColumn, ...]
    unmatched: tuple[str, ...]
    tolerance: float | None
    tolerance_text: str
    tolerance_reason: str
    agree_count: int
    disagree_count: int
    not_judged_count: int
    value_count: int
    """Pairs with a measured value (not out of memory or incomplete)."""
    summary: str


def blocked_text(block: HardwareBlock | None, protocol: Protocol) -> str | None:
    """Why agreement is not judged on hardware grounds, as a reader reads it (None: it is
    not blocked)."""
    if block is None:
        return None
    return (
        f"The protocol declares that {metric_dependence(protocol, True, lower=True)}, "
        f"and this ran on {block.measured or 'unstated hardware'}, the published value "
        f"on {block.published or 'hardware the source does not state'}."
    )


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
    blocked = blocked_text(hardware_blocks(measured, published, protocol, catalogue), protocol)
    shape, ambiguous = published_reading(published, theirs, protocol)
    found = agreement(
        mine_value,
        theirs_value,
        protocol.tolerance,
        blocked=blocked,
        shape=shape,
        gigabyte_ambiguous=ambiguous,
    )
    if status == "incomplete":
        found = incomplete(protocol.tolerance, shape, INCOMPLETE_TEXT)
    return ReproductionPair(
        column_id=column_id,
        column_label=label,
        header=result_header(protocol, column_id),
        unit=metric.unit,
        published_value=theirs_value,
        published_display=printed_display(theirs.value, theirs.printed_value)
        if (theirs.scale or metric.scale) == metric.scale
        else result_display(theirs_value, theirs.status),
        published_printed=theirs.printed_value,
        published_locator=theirs.citation.locator if theirs.citation else None,
        measured_status=status,
        measured_value=mine_value,
        measured_display=result_display(mine_value, mine.status),
        agreement=found,
        estimates=tuple(
            EstimateView(e.label, e.value, display_number(e.value), e.method)
            for e in mine.estimates
        ),
        ratio_display=ratio_text(found),
        verdict=agreement_verdict(found),
    )


def printed_display(value: float | None, printed: str | None) -> str:
    """A published value as the source printed its digits (56.76, not 56.8), when the
    printed text starts with that number (a spreadsheet's 16-digit float rounded to 4
    significant figures, `display.digits_shown`); else the value rounded for display."""
    if value is None:
        return OUT_OF_MEMORY
    if printed:
        head = printed.strip().split()[0].replace(",", "")
        try:
            if math.isclose(float(head), value, rel_tol=1e-9):
                return digits_shown(value, head)
        except ValueError:
            pass
    return display_number(value)


def _measured_settings(
    evaluation: Evaluation, configuration: Configuration | None
) -> dict[str, str]:
    """The settings a measurement ran under: its configuration's, with those the evaluation
    states itself on top. One configuration can serve several readings of a claim (Feng et
    al.'s time ratios: HyenaDNA's 70-token point is read under both max-length readings),
    so the reading a quotient was made under is stated on its evaluation."""
    own = configuration.settings if configuration is not None else {}
    return {**own, **evaluation.settings}


def setup_label(evaluation: Evaluation, protocol: Protocol, catalogue: Catalogue) -> str:
    """The measurement's setup: its values of the recipe's setup keys (`_measured_settings`)
    joined by ' · ' (a key it lacks reads as the recipe's `setup_defaults`, where it sets
    one); else the configuration's reported name and the GPUs the run used ('NT 500M · 1 ×
    NVIDIA H200'); else the evaluation title."""
    recipe = protocol.recipe
    keys = recipe.setup_keys if recipe is not None else []
    defaults: dict[str, str] = dict(getattr(recipe, "setup_defaults", None) or {})
    configuration = catalogue.by_id.get(evaluation.configuration)
    if not isinstance(configuration, Configuration):
        return evaluation.title
    settings = {**defaults, **_measured_settings(evaluation, configuration)}
    if keys and all(k in settings for k in keys):
        return " · ".join(
            settings[k] for k in keys if k not in defaults or settings[k] != defaults[k]
        )
    env = evaluation.environment
    if env is not None:
        name = re.sub(r"\s*\([^)]*\)", "", configuration.reported_name).strip()
        gpu = " + ".join(sorted(accelerators(env.gpu))) or env.gpu
        return f"{name} · {env.gpu_count} × {gpu}"
    return evaluation.title


def setup_settings(
    evaluation: Evaluation, protocol: Protocol, catalogue: Catalogue
) -> tuple[tuple[str, str], ...]:
    """The recipe's setup keys and the measurement's values of them (a key it lacks reads
    as the recipe's default), in the recipe's order."""
    recipe = protocol.recipe
    if recipe is None or not recipe.setup_keys:
        return ()
    configuration = catalogue.by_id.get(evaluation.configuration)
    own = _measured_settings(
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
) -> tuple[str, ...]:
    """Stated differences of a measurement from the published run: the recipe's setup
    settings (the source leaves them open) and the accelerator, where they differ."""
    out = []
    keys = protocol.recipe.setup_keys if protocol.recipe is not None else []
    configuration = catalogue.by_id.get(measured.configuration)
    if isinstance(configuration, Configuration):
        out += [f"{k} {configuration.settings[k]}" for k in keys if k in configuration.settings]
    configurations = [catalogue.by_id.get(e.configuration) for e in (measured, published)]
    mine, theirs = (
        accelerators(evaluation_hardware(e, c if isinstance(c, Configuration) else None))
        for e, c in zip((measured, published), configurations, strict=True)
    )
    if mine and mine != theirs:
        count = measured.environment.gpu_count if measured.environment else None
        ran = " + ".join(sorted(mine)) + (f" × {count}" if count else "")
        out.append(f"on {ran} (published: {' + '.join(sorted(theirs)) or 'not stated'})")
    return tuple(out)


VERDICT_WORDS: dict[str, str] = {
    "reproduced": "Reproduced",
    "not_reproduced": "Not reproduced",
    "depends_on_unit": "Depends on the unit",
    "depends_on_setting": "Depends on the setting",
    "not_judged": "Not judged",
    "incomplete": "Not judged",
}


def matched_text(verdict: ColumnVerdict) -> str:
    """'Outside the declared reading, 1 of 12 other measured settings agrees: a match
    found after the fact, not a reproduction.' where a declared reading judges the value
    and other settings are measured too; else ''."""
    if verdict.rule != "declared_reading" or not verdict.outside:
        return ""
    n = verdict.outside_one_unit
    one_unit = (
        f"; {n}{' more' if verdict.outside_matched else ''} "
        f"{'agrees' if n == 1 else 'agree'} under one reading of GB only (10^9 "
        "or 2^30 bytes)"
        if n
        else ""
    )
    others = plural(verdict.outside, "other measured setting")
    if not verdict.outside_matched:
        return f"Outside the declared reading, none of {others} agrees{one_unit}."
    return (
        f"Outside the declared reading, {agree_count_of(verdict.outside_matched, others)}: "
        f"{'a match' if verdict.outside_matched == 1 else 'matches'} found after the fact, "
        f"not a reproduction{one_unit}."
    )


def agree_count_of(n: int, of: str) -> str:
    """'1 of 12 other measured settings agrees', '2 of 12 ... agree'."""
    return f"{n} of {of} {'agrees' if n == 1 else 'agree'}"


def verdict_text(verdict: ColumnVerdict, rows: Sequence[ReproductionRow]) -> str:
    """The column's verdict in a sentence: the rule, the run it reads and the match count."""
    if verdict.state == "incomplete" or verdict.with_value == 0:
        return "No measurement has a value to compare (incomplete or out of memory)."
    read = f"the declared reading ({reading_text(verdict.reading)})"
    if verdict.judged_id is None:
        return f"Not judged: no measurement under {read}. " + matched_text(verdict)
    row = next(r for r in rows if r.measured_evaluation_id == verdict.judged_id)
    state = row.pair.agreement
    rule = {
        "declared_reading": f"under {read}, newest run: {row.setup}",
        "one_setting": f"in its one measured setting: {row.setup}",
        "every_setting": f"over {verdict.with_value} measured settings "
        f"({agree_count(verdict.matched)}; no reading declared); newest run: {row.setup}",
    }[verdict.rule]
    return " ".join(
        t
        for t in (
            f"{VERDICT_WORDS[verdict.state]} {rule}, ratio {ratio_text(state)} "
            f"({agreement_verdict(state)}).",
            matched_text(verdict),
        )
        if t
    )


def _distinct(rows: list[ReproductionRow], by_id: Mapping[str, Evaluation]) -> None:
    """Give rows that share a setup label their run's start time, so no two bars read the
    same."""
    counts = Counter(r.setup for r in rows)
    for i, row in enumerate(rows):
        if counts[row.setup] > 1:
            env = by_id[row.measured_evaluation_id].environment
            when = (
                f"run {env.started_at:%m-%d %H:%M}"
                if env is not None
                else row.measured_evaluation_id
            )
            rows[i] = replace(row, setup=f"{row.setup} · {when}")


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
                setup=setup_label(evaluation, protocol, catalogue),
                differences=differences(evaluation, published, protocol, catalogue),
                pair=found_pair,
                excluded=excluded(found, column_id),
                flag_labels=tuple(flag_label(f) for f in found if f.affects(column_id)),
                excluded_by=tuple(
                    flag_label(f)
                    for f in found
                    if f.excludes_from_comparisons and f.affects(column_id)
                ),
                distance=abs(ratio - 1.0) if ratio is not None else None,
                rewire=evaluation.origin == Origin.rewire_measurement,
                settings=setup_settings(evaluation, protocol, catalogue),
                started_at=evaluation.environment.started_at if evaluation.environment else None,
            )
        )
    if not rows:
        return None
    _distinct(rows, {e.id: e for e in measured})
    verdict = judge_column(rows, declared_reading(protocol))
    rows.sort(
        key=lambda r: (
            r.measured_evaluation_id != verdict.judged_id,
            not r.pair.agreement.reproduced,
            r.distance is None,
            r.distance or 0.0,
            r.setup,
            r.measured_evaluation_id,
        )
    )
    first = rows[0].pair
    seen: dict[tuple[str, float], tuple[EstimateView, str]] = {}
    for row in rows:
        for estimate in row.pair.estimates:
            seen.setdefault((estimate.label, estimate.value), (estimate, row.setup))
    repeated = Counter(label for label, _ in seen)
    estimates = {
        key: replace(e, label=f"{e.label} ({setup})") if repeated[e.label] > 1 else e
        for key, (e, setup) in seen.items()
    }
    return ReproducedColumn(
        column_id=column_id,
        column_label=first.column_label,
        header=first.header,
        unit=first.unit,
        published_value=first.published_value,
        published_display=first.published_display,
        published_printed=first.published_printed,
        published_locator=first.published_locator,
        rows=tuple(rows),
        closest_text=verdict_text(verdict, rows),
        estimates=tuple(estimates.values()),
        verdict=verdict,
    )


def tolerance_texts(protocol: Protocol) -> tuple[str, str]:
    """('Tolerance: ±5% of the published value.', the editor's reason) or the texts for a
    protocol that sets none."""
    reason = getattr(protocol, "tolerance_reason", None) or ""
    if protocol.tolerance is None:
        return "The protocol sets no tolerance, so no agreement is judged.", reason
    percent = display_number(protocol.tolerance * 100)
    return f"Tolerance: ±{percent}% of the published value.", reason


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
        f"{e.title}: {', '.join(missing)}"
        for e in chosen
        if (missing := [r.column for r in e.results if r.column not in theirs])
    )
    pairs = [r.pair for c in columns for r in c.rows]
    agree = sum(p.agreement.state == "agrees" for p in pairs)
    disagree = sum(p.agreement.state == "disagrees" for p in pairs)
    values = sum(p.measured_value is not None for p in pairs)
    depends = sum(p.agreement.state == "depends_on_unit" for p in pairs)
    tolerance_text, reason = tolerance_texts(protocol)
    if pairs and all(p.measured_status == "incomplete" for p in pairs):
        summary = INCOMPLETE_TEXT
    elif agree or disagree or depends:
        percent = display_number((protocol.tolerance or 0) * 100)
        summary = (
            f"{agree} of {plural(agree + disagree + depends, 'measured value')} agree within the "
            f"protocol's tolerance of ±{percent}%."
        )
        if depends:
            summary += (
                f" {depends} {'agrees' if depends == 1 else 'agree'} under one reading of GB "
                "only (10^9 or 2^30 bytes)."
            )
        if values > agree + disagree + depends:
            summary += f" {values - agree - disagree - depends} not judged."
    elif values:
        summary = f"{plural(values, 'measured value')}; agreement not judged: " + (
            agreement_text(pairs[0].agreement) if protocol.tolerance is not None else tolerance_text
        )
    else:
        summary = "No measured value to compare."
    return ReproductionGroup(
        protocol_id=protocol.id,
        published_evaluation_id=published.id,
        published_title=published.title,
        published_origin=published.origin.value,
        measured_evaluation_ids=tuple(e.id for e in chosen),
        measured_count_text=plural(len(chosen), "measurement"),
        columns=columns,
        unmatched=unmatched,
        tolerance=protocol.tolerance,
        tolerance_text=tolerance_text,
        tolerance_reason=reason,
        agree_count=agree,
        disagree_count=disagree,
        not_judged_count=values - agree - disagree - depends,
        value_count=values,
        summary=summary,
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
                        closest_text=judged[c.column_id].closest_text,
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


def pairs_of(groups: Iterable[ReproductionGroup]) -> list[tuple[ReproducedColumn, ReproductionRow]]:
    """Every (column, row) of `groups`, in order."""
    return [(c, r) for g in groups for c in g.columns for r in c.rows]


__all__ = [
    "EstimateView",
    "ReproducedColumn",
    "ReproductionGroup",
    "ReproductionPair",
    "ReproductionRow",
    "evaluation_reproductions",
    "pair",
    "printed_display",
    "protocol_reproduction_groups",
    "reproduction_group",
    "setup_label",
]
