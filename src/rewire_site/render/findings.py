"""Headline findings: what was published, whether and how closely it reproduced, and
under which stated differences, in a sentence or two, computed from the records.

A finding leads each protocol and evaluation page and the home page. Every sentence is
built here from the reproduction model (`reproduction.py`, which applies the protocol's
tolerance and the comparability guard's hardware rule) and the concern flags; nothing is
copied from a record's free text, so it cannot go stale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from ..derive.concerns import Flag, flags_by_evaluation
from ..derive.scales import is_correlation
from ..derive.verdicts import (
    CUDA_CONTEXT_GB,
    RequirementVerdict,
    matches_reading,
    requirement_verdict,
    setting_agreement,
)
from ..link import Catalogue
from ..models import Evaluation, Metric, Protocol, Result
from ..models.evaluation import Origin
from ..models.scales import on_metric_scale
from .present.agreement import SHAPE_TEXTS, agreement_verdict, ratio_text
from .present.flags import flag_label
from .present.metrics import reading_text, result_header
from .present.numbers import agree_count, display_number, plural, result_display
from .present.values import result_value, scaled_value
from .reproduction import (
    VERDICT_WORDS,
    ReproducedColumn,
    ReproductionGroup,
    ReproductionRow,
    agree_count_of,
    evaluation_reproductions,
    matched_text,
    printed_display,
    protocol_reproduction_groups,
)

FindingState = Literal[
    "reproduced",
    "not_reproduced",
    "depends_on_unit",
    "depends_on_setting",
    "matched",
    "not_judged",
    "incomplete",
    "unmeasured",
    "measured",
]
UNIT_SYMBOLS: dict[str, str] = {
    "gigabyte": "GB",
    "megabyte": "MB",
    "gibibyte": "GiB",
    "minute": "min",
    "second": "s",
    "millisecond": "ms",
    "hour": "h",
}


@dataclass(frozen=True)
class Finding:
    """One published (or measured) value and what became of it."""

    state: FindingState
    text: str
    evaluation_id: str
    column_id: str


SHOWN_FINDINGS = 12
"""At most this many findings under a headline; the rest are on the evaluation pages."""


@dataclass(frozen=True)
class Headline:
    """The finding that leads a page: a summary sentence and one finding per value
    (`headline` makes it)."""

    summary: str
    findings: tuple[Finding, ...]
    shown: tuple[Finding, ...]
    """The findings a page lists under its summary: values that were measured first
    (reproduced, not reproduced, not judged, incomplete), then the others, at most
    SHOWN_FINDINGS; none when the summary already is the only finding."""
    more_text: str
    """'300 more values: each evaluation page gives its finding.' or ''."""

    @property
    def measured(self) -> tuple[Finding, ...]:
        """Findings about values a measurement bears on (for the home page)."""
        return tuple(f for f in self.findings if f.state not in ("unmeasured",))


def headline(summary: str, findings: tuple[Finding, ...]) -> Headline:
    """The headline of `summary` and `findings`, with the findings a page shows."""
    shown: tuple[Finding, ...] = ()
    if len(findings) > 1:
        order = {s: i for i, s in enumerate(_STATE_ORDER)}
        shown = tuple(sorted(findings, key=lambda f: order[f.state])[:SHOWN_FINDINGS])
    more = len(findings) - len(shown) if len(findings) > 1 else 0
    more_text = (
        f"{plural(more, 'more value')}: each evaluation page gives its finding." if more else ""
    )
    return Headline(summary, findings, shown, more_text)


def _lowered(sentence: str) -> str:
    """A sentence as a clause: its first letter lowered, its full stop dropped."""
    return sentence[:1].lower() + sentence[1:].rstrip(".")


def with_unit(display: str, unit: str) -> str:
    """'1.18 GB', '20 min', '61.91%', '0.48' (a fraction or a score has no unit)."""
    key = unit.strip().lower()
    if key in ("percent", "%"):
        return f"{display}%"
    if key in ("fraction", "score", ""):
        return display
    return f"{display} {UNIT_SYMBOLS.get(key, unit)}"


def _correlation_or(metric: Metric, result: Result, shown: str) -> str:
    """A correlation (MCC) on its own scale, never with '%' (`display.result_value`: a
    paper's x100 converted, the printed value beside it); any other value as `shown`."""
    return result_value(metric, result).full if is_correlation(metric) else shown


def _published_by(evaluation: Evaluation, catalogue: Catalogue) -> str:
    """The short citation of the first result's source (the only field read: a source's
    other fields do not change a headline)."""
    for result in evaluation.results:
        if result.citation is not None:
            short = catalogue.field(result.citation.source, "short_citation")
            if isinstance(short, str):
                return short
    return "the source"


_CONCERN_PHRASES = {
    "source_conflict": "the source contradicts itself about this value",
}


def _concerns(found: Sequence[Flag], column_id: str) -> str:
    phrases = [
        _CONCERN_PHRASES.get(f.kind, flag_label(f).lower())
        for f in found
        if f.affects(column_id) and f.recorded
    ]
    return f" Concern recorded: {'; '.join(phrases)}." if phrases else ""


def stated(differences: Sequence[str]) -> str:
    """' with precision bf16, update full, on H200 × 1 (published: H100)' or ''."""
    settings = [d for d in differences if not d.startswith("on ")]
    hardware = [d for d in differences if d.startswith("on ")]
    text = f" with {', '.join(settings)}" if settings else ""
    if hardware:
        text += ("," if settings else "") + " " + ", ".join(hardware)
    return text


def column_finding(
    column: ReproducedColumn, group: ReproductionGroup, evaluation_id: str, unit: str
) -> Finding:
    """The finding of one published column that measurements reproduce: its one verdict
    (`column.verdict`, judged under the declared reading or, without one, over every
    measured setting), the run that verdict reads, and the count of after-the-fact
    matches."""
    published = with_unit(column.published_display, unit)
    verdict = column.verdict
    with_value = [r for r in column.rows if r.pair.measured_value is not None]
    if not with_value:
        return Finding(
            "incomplete",
            f"{published}: measured only by {plural(len(column.rows), 'incomplete run')}, "
            "which claim no value.",
            evaluation_id,
            column.column_id,
        )
    verb = "measured" if any(r.rewire for r in column.rows) else "reported"
    tolerance = f"±{display_number((group.tolerance or 0) * 100)}%"
    matched = matched_text(verdict)
    if verdict.judged_id is None:
        return Finding(
            "not_judged",
            f"{published}: not judged: no measurement under the declared reading "
            f"({reading_text(verdict.reading)}). {matched}",
            evaluation_id,
            column.column_id,
        )
    row = next(r for r in column.rows if r.measured_evaluation_id == verdict.judged_id)
    state = row.pair.agreement
    value = f"{with_unit(row.pair.measured_display, unit)} ({ratio_text(state)})"
    where = stated(row.differences)
    if verdict.rule == "declared_reading":
        where = stated([d for d in row.differences if d.startswith("on ")])
        how = f"under the declared reading ({reading_text(verdict.reading)})"
    elif verdict.rule == "one_setting":
        how = f"in its one {verb} setting"
    else:
        how = (
            f"over {plural(verdict.with_value, verb + ' setting')} "
            f"({agree_count(verdict.matched)}; no reading declared)"
        )
    tail = f" {matched}" if matched else ""
    if verdict.state == "reproduced":
        off = abs((state.ratio or 1.0) - 1) * 100
        close = (
            f", within {display_number(off, 2)}%{where}"
            if state.shape == "point"
            else f"{where}, {SHAPE_TEXTS[state.shape]}"
        )
        return Finding(
            "reproduced",
            f"{published}: reproduced {how}: newest run {value}{close}; the protocol's "
            f"tolerance is {tolerance}.{tail}",
            evaluation_id,
            column.column_id,
        )
    if verdict.state == "not_reproduced":
        return Finding(
            "not_reproduced",
            f"{published}: not reproduced {how}: newest run {value}{where}, beyond the "
            f"protocol's {tolerance}.{tail}",
            evaluation_id,
            column.column_id,
        )
    if verdict.state in ("depends_on_unit", "depends_on_setting"):
        why = (
            row.pair.agreement_text
            if verdict.state == "depends_on_unit"
            else (
                f"{agree_count_of(verdict.matched, plural(verdict.with_value, verb + ' setting'))} "
                f"within {tolerance}, the others do not, and no reading of the unstated "
                "settings is declared."
            )
        )
        return Finding(
            verdict.state,
            f"{published}: {VERDICT_WORDS[verdict.state].lower()} {how}: newest run "
            f"{value}{where}. {why}{tail}",
            evaluation_id,
            column.column_id,
        )
    why = row.pair.agreement_text.rstrip(".")
    return Finding(
        "not_judged",
        f"{published}: {verb} in {plural(verdict.with_value, 'setting')} under the same "
        f"protocol, newest run {value}{where}; agreement not judged: "
        f"{why[:1].lower() + why[1:]}.",
        evaluation_id,
        column.column_id,
    )


def published_findings(
    evaluation: Evaluation,
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]],
    groups: Sequence[ReproductionGroup] | None = None,
) -> tuple[Finding, ...]:
    """One finding per value a published evaluation reports. `groups`: its reproductions
    (`evaluation_reproductions`) where already computed."""
    protocol = catalogue.get(evaluation.protocol, Protocol)
    if groups is None:
        groups = evaluation_reproductions(evaluation, catalogue, flags=flags)
    columns = {c.column_id: c for g in groups for c in g.columns}
    found = flags.get(evaluation.id, ())
    by = _published_by(evaluation, catalogue)
    many_columns = len(protocol.columns) > 1
    out = []
    for result in evaluation.results:
        column = columns.get(result.column)
        concerns = _concerns(found, result.column)
        if column is not None and groups:
            finding = column_finding(
                column, groups[0], evaluation.id, protocol.column_metric(result.column).unit
            )
            out.append(
                Finding(
                    finding.state,
                    f"{finding.text} Published by {by}.{concerns}",
                    evaluation.id,
                    result.column,
                )
            )
            continue
        metric = protocol.column_metric(result.column)
        value = on_metric_scale(metric, result)
        shown = (
            printed_display(result.value, result.printed_value)
            if result.value is not None and (result.scale or metric.scale) == metric.scale
            else result_display(value, result.status)
        )
        # Several columns: say which one (Feng et al.: 'MCC: 0.664 as published ...').
        column_name = f"{result_header(protocol, result.column)}: " if many_columns else ""
        out.append(
            Finding(
                "unmeasured",
                f"{column_name}{_correlation_or(metric, result, with_unit(shown, metric.unit))}"
                f" as published by {by}; no "
                f"measurement reproduces it yet.{concerns}",
                evaluation.id,
                result.column,
            )
        )
    return tuple(out)


def measurement_findings(
    evaluation: Evaluation,
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]],
    groups: Sequence[ReproductionGroup] | None = None,
) -> tuple[Finding, ...]:
    """One finding per value of an evaluation that reproduces another (or that no
    published evaluation stands behind). `groups`: its reproductions
    (`evaluation_reproductions`) where already computed."""
    protocol = catalogue.get(evaluation.protocol, Protocol)
    labels = {c.id: c.label for c in protocol.columns}
    if groups is None:
        groups = evaluation_reproductions(evaluation, catalogue, flags=flags)
    verb = "Measured" if evaluation.origin == Origin.rewire_measurement else "Reported"
    rows = {c.column_id: (c, r) for g in groups for c in g.columns for r in c.rows}
    out = []
    for result in evaluation.results:
        metric = protocol.column_metric(result.column)
        unit = metric.unit
        value = on_metric_scale(metric, result)
        shown = _correlation_or(
            metric, result, with_unit(result_display(value, result.status), unit)
        )
        where = labels.get(result.column, result.column)
        if result.status == "incomplete":
            out.append(
                Finding(
                    "incomplete",
                    f"Incomplete run ({where}): it covered less than the protocol asks and "
                    "claims no value.",
                    evaluation.id,
                    result.column,
                )
            )
            continue
        found = rows.get(result.column)
        if found is None:
            out.append(
                Finding(
                    "measured",
                    f"{verb} {shown} ({where}); no published value for this column to "
                    "compare with.",
                    evaluation.id,
                    result.column,
                )
            )
            continue
        column, row = found
        state = row.pair.agreement
        stated_text = stated(row.differences)
        published = (
            scaled_value(
                metric, column.published_value, "value", metric.scale, column.published_printed
            ).full
            if is_correlation(metric) and column.published_value is not None
            else with_unit(column.published_display, unit)
        )  # a correlation on its own scale, never '61.91%'
        verdict = _measurement_state(column, row)
        tail = f"{agreement_verdict(state)}" + (
            f": {_lowered(row.pair.agreement_text)}" if state.state == "not_comparable" else ""
        )
        after = ""
        if verdict == "matched":
            after = (
                f" This setting is not the declared reading "
                f"({reading_text(column.verdict.reading)}), so the agreement is a match "
                "found after the fact, not a reproduction."
            )
        elif (
            column.verdict.rule == "every_setting"
            and state.reproduced
            and not (column.verdict.reproduced)
        ):
            settings = plural(column.verdict.with_value, "measured setting")
            after = (
                f" {agree_count_of(column.verdict.matched, settings)} and no reading is "
                "declared, so the published value is not called reproduced."
            )
        out.append(
            Finding(
                verdict,
                f"{verb} {shown} ({where}){stated_text}; published {published}: ratio "
                f"{ratio_text(state)}, {tail}.{after}",
                evaluation.id,
                result.column,
            )
        )
    return tuple(out)


_PAIR_FINDINGS: dict[str, FindingState] = {
    "disagrees": "not_reproduced",
    "depends_on_unit": "depends_on_unit",
}


def _measurement_state(column: ReproducedColumn, row: ReproductionRow) -> FindingState:
    """A measurement's state for one column: its own pair agreement, except that an
    agreement outside the declared reading is a match, and an agreement counts as
    'reproduced' only where the column's one verdict is reproduced."""
    state = row.pair.agreement.state
    verdict = column.verdict
    under = verdict.rule != "declared_reading" or matches_reading(
        dict(row.settings), verdict.reading
    )
    if state == "agrees":
        if not under:
            return "matched"
        return "reproduced" if verdict.reproduced else "depends_on_setting"
    return _PAIR_FINDINGS.get(state, "not_judged")


def requirement_summary(published: Evaluation, catalogue: Catalogue) -> str:
    """For a published evaluation whose claims state a hardware requirement (claims, no
    result value, and a per-card memory in its run conditions): the one verdict of each
    measured result that reproduces it (`verdicts.requirement_verdict`); '' otherwise.
    Every page that shows the claim reads this text."""
    conditions = getattr(published, "run_conditions", None)
    card = getattr(conditions, "accelerator_memory_gb", None)
    if published.results or not getattr(published, "claims", None) or card is None:
        return ""
    protocol = catalogue.get(published.protocol, Protocol)
    labels = {c.id: c.label for c in protocol.columns}
    found = [
        requirement_verdict(
            float(card),
            labels.get(r.column, r.column),
            r,
            protocol.column_metric(r.column).unit,
            e.environment.gpu_memory_gb if e.environment is not None else None,
        )
        for e in sorted(
            (e for e in catalogue.referring(published.id, Evaluation) if isinstance(e, Evaluation)),
            key=lambda e: e.id,
        )
        if e.reproduces == published.id
        for r in e.results
    ]
    return requirement_text(float(card), found)


def requirement_verdict_text(verdict: RequirementVerdict) -> str:
    """'checkpointing: contradicted (30.5 GB, peak reserved plus 0.5 GB for the CUDA
    context, fits one 80 GB card)', 'no-checkpointing: consistent (out of memory)'."""
    label, card = verdict.column_label, f"{verdict.card_gb:g} GB"
    if verdict.reason == "card_unknown":
        return f"{label}: not judged (out of memory on a card not known to be at least {card})"
    if verdict.reason == "out_of_memory":
        return f"{label}: consistent (out of memory)"
    if verdict.reason == "no_value" or verdict.peak_gb is None:
        return f"{label}: not judged"
    room = f"peak {verdict.peak_kind} plus {CUDA_CONTEXT_GB:g} GB for the CUDA context"
    if verdict.state == "contradicted":
        return f"{label}: contradicted ({verdict.peak_gb:.1f} GB, {room}, fits one {card} card)"
    return f"{label}: consistent ({verdict.peak_gb:.1f} GB, {room}, exceeds one {card} card)"


def requirement_text(card_gb: float, verdicts: Sequence[RequirementVerdict]) -> str:
    """'Against the requirement, read as "one training step does not fit one 80 GB card":
    no-checkpointing: consistent (out of memory); checkpointing: contradicted (...).'"""
    if not verdicts:
        return ""
    return (
        f"Against the requirement, read as “one training step does not fit one "
        f"{card_gb:g} GB card” (the only reading a single-GPU peak can test): "
        + "; ".join(requirement_verdict_text(v) for v in verdicts)
        + "."
    )


def single_setting_text(columns: Sequence[tuple[str, Sequence[ReproductionRow]]]) -> str:
    """Across several published values: whether one measured setting agrees with all of
    them ('No single measured setting agrees with all 4 published values (at most 1).')
    or '' for fewer than two values (`verdicts.setting_agreement`)."""
    found = setting_agreement([(key, [r.facts for r in rows]) for key, rows in columns])
    if found is None:
        return ""
    if found.setting is not None:
        return (
            f"One measured setting ({reading_text(found.setting)}) agrees with all "
            f"{found.values} published values."
        )
    return (
        f"No single measured setting agrees with all {found.values} published values "
        f"(at most {found.most})."
    )


def evaluation_headline(
    evaluation: Evaluation,
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]] | None = None,
    groups: Sequence[ReproductionGroup] | None = None,
) -> Headline:
    """The headline of an evaluation page. `groups`: the evaluation's reproductions
    (`evaluation_reproductions`, which the page shows too) where already computed."""
    if flags is None:
        flags = flags_by_evaluation(catalogue)
    if evaluation.reproduces is not None or evaluation.origin == Origin.rewire_measurement:
        found = measurement_findings(evaluation, catalogue, flags, groups)
    else:
        found = published_findings(evaluation, catalogue, flags, groups)
    claims = claim_views(evaluation, catalogue)
    if not found and claims:
        required = requirement_summary(evaluation, catalogue)
        return headline(
            f"{plural(len(claims), 'claim')} as printed, not one value each: "
            + "; ".join(f"“{c.statement}” ({c.qualifier})" for c in claims[:3])
            + ("; ..." if len(claims) > 3 else "")
            + ". Claims are never ranked."
            + (f" {required}" if required else ""),
            (),
        )
    target = catalogue.by_id.get(evaluation.reproduces or "")
    required = requirement_summary(target, catalogue) if isinstance(target, Evaluation) else ""
    if required:
        return headline(f"{_summary(found)} {required}", found)
    return headline(_summary(found), found)


def _summary(found: Sequence[Finding]) -> str:
    if not found:
        return "No value is recorded."
    if len(found) == 1:
        return found[0].text
    counts = {s: sum(f.state == s for f in found) for s in _STATE_ORDER}
    parts = [plural(n, _STATE_NOUNS[s][0], _STATE_NOUNS[s][1]) for s, n in counts.items() if n]
    return f"{plural(len(found), 'value')}: {', '.join(parts)}."


_STATE_ORDER: tuple[FindingState, ...] = get_args(FindingState)
_STATE_NOUNS: dict[str, tuple[str, str]] = {
    "reproduced": ("reproduced within tolerance", "reproduced within tolerance"),
    "not_reproduced": ("not reproduced", "not reproduced"),
    "depends_on_unit": ("agreeing under one reading of GB only", "agreeing under one "
                        "reading of GB only"),
    "depends_on_setting": ("agreeing in some measured settings only", "agreeing in some "
                           "measured settings only"),
    "matched": ("matched outside the declared reading", "matched outside the declared "
                "reading"),
    "not_judged": ("compared, agreement not judged", "compared, agreement not judged"),
    "incomplete": ("incomplete run", "incomplete runs"),
    "unmeasured": ("not yet measured by Rewire", "not yet measured by Rewire"),
    "measured": ("measured without a published counterpart", "measured without a published "
                 "counterpart"),
}  # fmt: skip


def protocol_headline(
    protocol: Protocol,
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]] | None = None,
) -> Headline:
    """The headline of a protocol page: one finding per published value, and a summary
    of how many reproduced."""
    if flags is None:
        flags = flags_by_evaluation(catalogue)
    evaluations = catalogue.evaluations_of(protocol.id)
    published = sorted(
        (e for e in evaluations if e.reproduces is None and e.origin != Origin.rewire_measurement),
        key=lambda e: e.id,
    )
    groups = protocol_reproduction_groups(protocol, catalogue, flags=flags)
    found = tuple(
        f
        for e in published
        for f in published_findings(
            e, catalogue, flags, tuple(g for g in groups if g.published_evaluation_id == e.id)
        )
    )
    measured = sum(e.origin == Origin.rewire_measurement for e in evaluations)
    if not found:
        claims = sum(len(claim_views(e, catalogue)) for e in published)
        summary = "No published value is recorded under this protocol" + (
            f"; {plural(claims, 'claim')} as printed (never ranked; see the evaluation pages)"
            if claims
            else ""
        )
        summary += f"; {plural(measured, 'Rewire measurement')}." if measured else "."
        required = " ".join(t for e in published if (t := requirement_summary(e, catalogue)))
        return headline(f"{summary} {required}" if required else summary, ())
    agree = sum(f.state == "reproduced" for f in found)
    summary = f"{plural(len(found), 'published value')}: " + ", ".join(
        plural(n, *_STATE_NOUNS[s]) for s in _STATE_ORDER if (n := sum(f.state == s for f in found))
    )
    summary += (
        f"; {plural(measured, 'Rewire measurement')} under this protocol."
        if measured
        else "; no Rewire measurement under this protocol yet."
    )
    columns = [(f"{g.published_evaluation_id}/{c.column_id}", c) for g in groups for c in g.columns]
    reading = protocol.recipe.declared_reading if protocol.recipe is not None else None
    if reading is not None and columns:
        summary += (
            f" Each value is judged under one reading of the settings the source leaves "
            f"unstated, declared on {reading.declared_on.isoformat()}: "
            f"{reading_text(columns[0][1].verdict.reading)}."
        )
    single = single_setting_text([(key, c.rows) for key, c in columns])
    if single:
        summary += f" {single}"
    judged = any(f.state in ("reproduced", "not_reproduced") for f in found)
    matched = any(c.verdict.matched for _, c in columns)
    if groups and protocol.tolerance is not None and judged and not agree and not matched:
        summary += (
            f" None agrees within the protocol's ±{display_number(protocol.tolerance * 100)}%."
        )
    return headline(summary, found)


QUALIFIER_TEXTS: dict[str, str] = {
    "exact": "as stated",
    "about": "approximate",
    "up_to": "a maximum over cases (up to)",
    "at_least": "a minimum (at least)",
    "on_average": "an average",
}


@dataclass(frozen=True)
class ClaimView:
    """A claim that is not one value (N of M, a relative gain, 'up to'): shown as printed,
    with what bounds it, and never ranked."""

    statement: str
    kind: str
    """'count of', 'relative difference', 'ratio', 'state of the art', 'other'."""
    qualifier: str
    """'a maximum over cases (up to)', ..."""
    baseline: str
    """What it is compared with, or ''."""
    source_title: str
    locator: str
    quote: str | None
    source_id: str


def claim_views(evaluation: Evaluation, catalogue: Catalogue) -> tuple[ClaimView, ...]:
    """The evaluation's claims as printed (v2 `claims`), in record order."""
    out = []
    for claim in getattr(evaluation, "claims", []):
        source = catalogue.by_id.get(claim.citation.source)
        out.append(
            ClaimView(
                statement=claim.statement,
                kind=claim.kind.value.replace("_", " "),
                qualifier=QUALIFIER_TEXTS.get(claim.qualifier.value, claim.qualifier.value),
                baseline=claim.baseline or "",
                source_title=source.title if source is not None else claim.citation.source,
                locator=claim.citation.locator,
                quote=claim.citation.quote,
                source_id=claim.citation.source,
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class CatalogueFinding:
    protocol_id: str
    protocol_title: str
    headline: Headline


def catalogue_findings(
    catalogue: Catalogue, flags: Mapping[str, tuple[Flag, ...]] | None = None
) -> tuple[CatalogueFinding, ...]:
    """The home page's findings: each protocol's headline, by protocol id."""
    if flags is None:
        flags = flags_by_evaluation(catalogue)
    return tuple(
        CatalogueFinding(p.id, p.title, protocol_headline(p, catalogue, flags))
        for p in sorted(catalogue.protocols(), key=lambda p: p.id)
    )
