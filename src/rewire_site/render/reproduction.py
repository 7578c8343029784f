"""Reproductions in words: the views pages, the chart and the downloads read, made from
`derive.reproduction`'s facts (the pairs, their agreement and the one verdict on each
published value). Rows are named by their setup and listed as a reader reads them: the
row the verdict reads first, then agreeing rows, then by distance of the ratio from 1.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from ..derive import reproduction as derived
from ..derive.agreement import Agreement
from ..derive.comparability import accelerators
from ..derive.concerns import Flag
from ..derive.pairs import Differences
from ..derive.pairs import ReproductionPair as PairFacts
from ..derive.pairs import ReproductionRow as RowFacts
from ..derive.reproduction import measured_settings
from ..derive.verdicts import ColumnVerdict
from ..link import Catalogue
from ..models import Configuration, Evaluation, Protocol
from .present.agreement import (
    INCOMPLETE_TEXT,
    agreement_text,
    agreement_verdict,
    ratio_text,
)
from .present.flags import flag_label
from .present.metrics import reading_text, result_header
from .present.numbers import (
    OUT_OF_MEMORY,
    agree_count,
    digits_shown,
    display_number,
    plural,
    result_display,
)


@dataclass(frozen=True)
class EstimateView:
    label: str
    value: float
    display: str
    method: str


@dataclass(frozen=True)
class ReproductionPair:
    """One column reported by both the published evaluation and the measurement, in
    words; `facts` holds what they are made from."""

    facts: PairFacts
    header: str
    published_display: str
    measured_display: str
    estimates: tuple[EstimateView, ...]
    ratio_display: str
    """The ratio as the table shows it ('1.23×'; '' without one)."""
    verdict: str
    """The agreement's short verdict ('agrees within ±10%', 'not judged')."""
    agreement_text: str
    """The agreement in a sentence."""
    agreement: Agreement
    measured_value: float | None
    measured_status: str
    published_value: float | None
    published_printed: str | None
    published_locator: str | None
    column_id: str
    column_label: str
    unit: str


@dataclass(frozen=True)
class ReproductionRow:
    """One measurement's reproduction of one published column, in words."""

    facts: RowFacts
    setup: str
    """'bf16 · full · 1000nt' (the recipe's setup settings) or the measurement's title;
    unique within its column (a repeated one gains the run's start time)."""
    differences: tuple[str, ...]
    """Stated differences from the published run: 'precision bf16', 'on H200 (published:
    H100)'."""
    pair: ReproductionPair
    flag_labels: tuple[str, ...]
    excluded_by: tuple[str, ...]
    measured_evaluation_id: str
    measured_title: str
    excluded: bool
    distance: float | None
    rewire: bool
    settings: tuple[tuple[str, str], ...]
    started_at: datetime | None


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
    """A published evaluation and the measurements of it, in words."""

    facts: derived.ReproductionGroup
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


def printed_display(value: float | None, printed: str | None) -> str:
    """A published value as the source printed its digits (56.76, not 56.8), when the
    printed text starts with that number (a spreadsheet's 16-digit float rounded to 4
    significant figures, `numbers.digits_shown`); else the value rounded for display."""
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


def pair_view(found: PairFacts, protocol: Protocol) -> ReproductionPair:
    agreement = found.agreement
    return ReproductionPair(
        facts=found,
        header=result_header(protocol, found.column_id),
        published_display=printed_display(found.published_recorded, found.published_printed)
        if found.published_on_metric_scale
        else result_display(found.published_value, found.published_status),
        measured_display=result_display(found.measured_value, found.measured_result_status),
        estimates=tuple(
            EstimateView(e.label, e.value, display_number(e.value), e.method)
            for e in found.estimates
        ),
        ratio_display=ratio_text(agreement),
        verdict=agreement_verdict(agreement),
        agreement_text=agreement_text(agreement, protocol),
        agreement=agreement,
        measured_value=found.measured_value,
        measured_status=found.measured_status,
        published_value=found.published_value,
        published_printed=found.published_printed,
        published_locator=found.published_locator,
        column_id=found.column_id,
        column_label=found.column_label,
        unit=found.unit,
    )


def setup_label(evaluation: Evaluation, protocol: Protocol, catalogue: Catalogue) -> str:
    """The measurement's setup: its values of the recipe's setup keys
    (`derive.reproduction.measured_settings`) joined by ' · ' (a key it lacks reads as the
    recipe's `setup_defaults`, where it sets one); else the configuration's reported name
    and the GPUs the run used ('NT 500M · 1 × NVIDIA H200'); else the evaluation title."""
    recipe = protocol.recipe
    keys = recipe.setup_keys if recipe is not None else []
    defaults: dict[str, str] = dict(getattr(recipe, "setup_defaults", None) or {})
    configuration = catalogue.by_id.get(evaluation.configuration)
    if not isinstance(configuration, Configuration):
        return evaluation.title
    settings = {**defaults, **measured_settings(evaluation, configuration)}
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


def differences_text(found: Differences) -> tuple[str, ...]:
    """'precision bf16', 'on H200 × 1 (published: H100)'."""
    out = [f"{k} {v}" for k, v in found.settings]
    if found.ran_on:
        count = f" × {found.gpu_count}" if found.gpu_count else ""
        published = " + ".join(found.published_on) or "not stated"
        out.append(f"on {' + '.join(found.ran_on)}{count} (published: {published})")
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


def _row_views(
    rows: Sequence[RowFacts],
    verdict: ColumnVerdict,
    protocol: Protocol,
    catalogue: Catalogue,
) -> list[ReproductionRow]:
    """The rows in words, each setup unique, in the order a reader reads them."""
    by_id = {
        r.measured_evaluation_id: catalogue.get(r.measured_evaluation_id, Evaluation) for r in rows
    }
    views = [
        ReproductionRow(
            facts=row,
            setup=setup_label(by_id[row.measured_evaluation_id], protocol, catalogue),
            differences=differences_text(row.differences),
            pair=pair_view(row.pair, protocol),
            flag_labels=tuple(flag_label(f) for f in row.flags),
            excluded_by=tuple(flag_label(f) for f in row.flags if f.excludes_from_comparisons),
            measured_evaluation_id=row.measured_evaluation_id,
            measured_title=row.measured_title,
            excluded=row.excluded,
            distance=row.distance,
            rewire=row.rewire,
            settings=row.settings,
            started_at=row.started_at,
        )
        for row in rows
    ]
    _distinct(views, by_id)
    views.sort(
        key=lambda r: (
            r.measured_evaluation_id != verdict.judged_id,
            not r.pair.agreement.reproduced,
            r.distance is None,
            r.distance or 0.0,
            r.setup,
            r.measured_evaluation_id,
        )
    )
    return views


def _column(
    column: derived.ReproducedColumn, protocol: Protocol, catalogue: Catalogue
) -> ReproducedColumn:
    rows = _row_views(column.rows, column.verdict, protocol, catalogue)
    judged_over = (
        rows
        if column.verdict_rows is column.rows
        else _row_views(column.verdict_rows, column.verdict, protocol, catalogue)
    )
    seen: dict[tuple[str, float], tuple[EstimateView, str]] = {}
    for row in rows:
        for estimate in row.pair.estimates:
            seen.setdefault((estimate.label, estimate.value), (estimate, row.setup))
    repeated = Counter(label for label, _ in seen)
    estimates = {
        key: replace(e, label=f"{e.label} ({setup})") if repeated[e.label] > 1 else e
        for key, (e, setup) in seen.items()
    }
    first = rows[0].pair
    return ReproducedColumn(
        column_id=column.column_id,
        column_label=column.column_label,
        header=first.header,
        unit=column.unit,
        published_value=first.published_value,
        published_display=first.published_display,
        published_printed=first.published_printed,
        published_locator=first.published_locator,
        rows=tuple(rows),
        closest_text=verdict_text(column.verdict, judged_over),
        estimates=tuple(estimates.values()),
        verdict=column.verdict,
    )


def tolerance_texts(protocol: Protocol) -> tuple[str, str]:
    """('Tolerance: ±5% of the published value.', the editor's reason) or the texts for a
    protocol that sets none."""
    reason = getattr(protocol, "tolerance_reason", None) or ""
    if protocol.tolerance is None:
        return "The protocol sets no tolerance, so no agreement is judged.", reason
    percent = display_number(protocol.tolerance * 100)
    return f"Tolerance: ±{percent}% of the published value.", reason


def _summary(group: derived.ReproductionGroup, protocol: Protocol, tolerance_text: str) -> str:
    agree, disagree = group.agree_count, group.disagree_count
    depends, values = group.depends_count, group.value_count
    if group.all_incomplete:
        return INCOMPLETE_TEXT
    if agree or disagree or depends:
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
        if group.not_judged_count:
            summary += f" {group.not_judged_count} not judged."
        return summary
    if values:
        first = group.pairs[0].agreement
        return f"{plural(values, 'measured value')}; agreement not judged: " + (
            agreement_text(first, protocol) if protocol.tolerance is not None else tolerance_text
        )
    return "No measured value to compare."


def reproduction_group(group: derived.ReproductionGroup, catalogue: Catalogue) -> ReproductionGroup:
    """A reproduction group in words: its summary, each column's verdict sentence, its
    rows named by setup."""
    protocol = catalogue.get(group.protocol_id, Protocol)
    tolerance_text, reason = tolerance_texts(protocol)
    return ReproductionGroup(
        facts=group,
        protocol_id=group.protocol_id,
        published_evaluation_id=group.published_evaluation_id,
        published_title=group.published_title,
        published_origin=group.published_origin,
        measured_evaluation_ids=group.measured_evaluation_ids,
        measured_count_text=plural(len(group.measured_evaluation_ids), "measurement"),
        columns=tuple(_column(c, protocol, catalogue) for c in group.columns),
        unmatched=tuple(f"{title}: {', '.join(columns)}" for title, columns in group.unmatched),
        tolerance=group.tolerance,
        tolerance_text=tolerance_text,
        tolerance_reason=reason,
        agree_count=group.agree_count,
        disagree_count=group.disagree_count,
        not_judged_count=group.not_judged_count,
        value_count=group.value_count,
        summary=_summary(group, protocol, tolerance_text),
    )


def reproduction_groups(
    groups: Iterable[derived.ReproductionGroup], catalogue: Catalogue
) -> tuple[ReproductionGroup, ...]:
    """`reproduction_group` of each group, in order."""
    return tuple(reproduction_group(g, catalogue) for g in groups)


def protocol_reproduction_groups(
    protocol: Protocol,
    catalogue: Catalogue,
    *,
    flags: Mapping[str, tuple[Flag, ...]] | None = None,
) -> tuple[ReproductionGroup, ...]:
    """`derive.reproduction.protocol_reproduction_groups` in words."""
    return reproduction_groups(
        derived.protocol_reproduction_groups(protocol, catalogue, flags=flags), catalogue
    )


def evaluation_reproductions(
    evaluation: Evaluation,
    catalogue: Catalogue,
    *,
    flags: Mapping[str, tuple[Flag, ...]] | None = None,
    groups: Sequence[ReproductionGroup] | None = None,
) -> tuple[ReproductionGroup, ...]:
    """`derive.reproduction.evaluation_reproductions` in words. `groups`: the protocol's
    groups in words where the build made them already (a published evaluation's group is
    then read, not made again)."""
    if evaluation.reproduces is None and groups is not None:
        found = next((g for g in groups if g.published_evaluation_id == evaluation.id), None)
        return (found,) if found is not None else ()
    given = None if groups is None else [g.facts for g in groups]
    return reproduction_groups(
        derived.evaluation_reproductions(evaluation, catalogue, flags=flags, groups=given),
        catalogue,
    )
