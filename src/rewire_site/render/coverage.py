"""Coverage: the catalogue at a glance (home page), baseline coverage of a protocol, and
one coverage row per protocol (the protocol coverage CSV)."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..derive.concerns import Flag, excluded, flags_by_evaluation
from ..link import Catalogue
from ..models import RECORD_TYPES, Evaluation, Protocol, kind_of
from ..models.evaluation import Origin
from ..models.protocol import BaselineRole
from .present.durations import display_duration_span
from .present.labels import (
    ORIGIN_COUNT_LABELS,
    protocol_metric_direction,
    protocol_metric_label,
    protocol_metric_unit,
)
from .present.missing import MissingText, missing_text
from .present.numbers import plural
from .reproduction import ReproductionGroup, protocol_reproduction_groups

KIND_LABELS: dict[str, str] = {
    "protocol": "Protocols",
    "evaluation": "Evaluations",
    "configuration": "Configurations",
    "model_family": "Model families",
    "dataset": "Datasets",
    "source": "Sources",
    "question": "Questions",
    "result_table": "Result tables",
}
ROLE_NAMES = {"null_control": "Null control", "conventional_reference": "Conventional reference"}
ROLE_STATUS_LABELS = {
    "proposed": "Proposed control: requires review",
    "reviewed": "Reviewed selection rule: not yet measured",
    "measured": "Measured by Rewire",
    "inapplicable": "Not applicable to this protocol",
}
ROLE_NOTES = {
    "proposed": "This is a suggested selection rule, not a validated method or a measured score.",
    "reviewed": "The selection rule was reviewed; no measured score is implied.",
    "measured": "The linked Rewire measurements score this role.",
    "inapplicable": "No such control applies to this protocol.",
}
NO_RECIPE = "No execution recipe linked to this protocol."


@dataclass(frozen=True)
class KindCount:
    kind: str
    label: str
    count: int


@dataclass(frozen=True)
class CatalogueCounts:
    kinds: tuple[KindCount, ...]
    """One per record kind, in KIND_LABELS order."""
    result_count: int
    measurement_count: int
    """Evaluations of origin rewire_measurement."""
    text: str
    """'2 protocols, 6 evaluations, 8 results'."""


@dataclass(frozen=True)
class ProtocolSummary:
    id: str
    title: str
    metric_label: str
    evaluation_count: int
    measurement_count: int


@dataclass(frozen=True)
class AreaGroup:
    area: str
    """Area slug; '' for protocols without an area."""
    label: str
    protocols: tuple[ProtocolSummary, ...]


@dataclass(frozen=True)
class NewestRecord:
    id: str
    kind: str
    title: str
    added: str
    """ISO date."""


@dataclass(frozen=True)
class ReproductionSite:
    """A protocol where Rewire measurements reproduce published evaluations."""

    protocol_id: str
    protocol_title: str
    measurement_ids: tuple[str, ...]
    agree_count: int
    disagree_count: int
    column_count: int
    """Published and measured value pairs with a measured value (an incomplete run
    compares none)."""


@dataclass(frozen=True)
class BaselineRoleView:
    key: str
    name: str
    """'Null control' or 'Conventional reference'."""
    status: str
    status_label: str
    """'Proposed control: requires review', ..."""
    proposal: str
    selection_rule: str
    note: str
    measured_evaluation_ids: tuple[str, ...]
    """Rewire measurements the role lists (only those that exist and are measurements)."""


@dataclass(frozen=True)
class OriginCount:
    origin: str
    label: str
    """'External evaluations', 'Author-reported evaluations', 'Rewire measurements'."""
    count: int


@dataclass(frozen=True)
class BaselineCoverage:
    protocol_id: str
    roles: tuple[BaselineRoleView, ...]
    missing: MissingText | None
    """Why the protocol records no baselines, when it does not."""
    active_count: int
    measured_count: int
    summary: str
    """'0 of 2 active baseline roles have published Rewire measurements in this release.'"""
    origin_counts: tuple[OriginCount, ...]
    """Evaluations by origin, only origins present."""
    recipe_command: str | None
    recipe_text: str
    """'No execution recipe linked to this protocol.' or 'Execution recipe: `...`'."""


@dataclass(frozen=True)
class ProtocolCoverage:
    """One row of the protocol coverage CSV."""

    protocol_id: str
    title: str
    areas: str
    metric: str
    unit: str
    direction: str
    datasets: str
    columns_total: int
    columns_with_results: int
    evaluations: int
    author_reported: int
    independent_paper: int
    rewire_measurement: int
    results: int
    excluded_results: int
    configurations: int
    recipe: str
    null_control: str
    conventional_reference: str
    baseline_roles_measured: int
    measured_published_values: int
    """Pairs of a published value and a measurement that names it in `reproduces` and
    has a value (measured under the same protocol; not necessarily agreeing)."""
    agree_within_tolerance: int
    """Of those, the pairs within the protocol's tolerance (reproduced)."""


_ACRONYMS = {"dna": "DNA", "rna": "RNA", "gpu": "GPU", "atac": "ATAC", "chip": "ChIP"}


def area_label(area: str) -> str:
    """'dna-genomes' -> 'DNA genomes'; '' -> 'No area'."""
    if not area:
        return "No area"
    words = [_ACRONYMS.get(w, w) for w in area.split("-")]
    return " ".join([words[0][:1].upper() + words[0][1:], *words[1:]])


def catalogue_counts(catalogue: Catalogue) -> CatalogueCounts:
    # kind by kind (one scan each), not every record read by id: `rewire serve` tracks a
    # scan as one key
    by_kind = {kind: len(catalogue.of_kind(cls)) for kind, cls in RECORD_TYPES.items()}
    evaluations = catalogue.of_kind(Evaluation)
    # a result is one published or measured value: an evaluation's results and the values
    # of result tables' rows (as the home page's task finder counts them)
    table_values = sum(sum(v is not None for v in row.values) for row in catalogue.result_rows)
    results = sum(len(e.results) for e in evaluations) + table_values
    measured = sum(e.origin == Origin.rewire_measurement for e in evaluations)
    kinds = tuple(KindCount(k, label, by_kind.get(k, 0)) for k, label in KIND_LABELS.items())
    tables = by_kind.get("result_table", 0)
    parts = [
        plural(by_kind.get("protocol", 0), "protocol"),
        plural(by_kind.get("evaluation", 0), "evaluation"),
        *([plural(tables, "result table")] if tables else []),
        f"{results:,} {'result' if results == 1 else 'results'}",
    ]
    text = ", ".join(parts)
    return CatalogueCounts(kinds, results, measured, text)


def protocols_by_area(
    catalogue: Catalogue, coverage: Sequence[ProtocolCoverage] | None = None
) -> tuple[AreaGroup, ...]:
    """Protocols grouped by area (areas sorted; a protocol in two areas shows in both),
    each summed up from its coverage row (`coverage`: `protocol_coverage`'s rows, when
    computed already)."""
    rows = {
        r.protocol_id: r for r in (protocol_coverage(catalogue) if coverage is None else coverage)
    }
    groups: dict[str, list[ProtocolSummary]] = {}
    for protocol in catalogue.protocols():
        row = rows[protocol.id]
        summary = ProtocolSummary(
            row.protocol_id, row.title, row.metric, row.evaluations, row.rewire_measurement
        )
        for area in protocol.areas or [""]:
            groups.setdefault(area, []).append(summary)
    return tuple(
        AreaGroup(area, area_label(area), tuple(found))
        for area, found in sorted(groups.items(), key=lambda kv: (kv[0] == "", kv[0]))
    )


def newest_records(catalogue: Catalogue, limit: int = 10) -> tuple[NewestRecord, ...]:
    """Records with an `added` date, newest first (ties by id)."""
    dated = [
        (r.added, r)
        for cls in RECORD_TYPES.values()
        for r in catalogue.of_kind(cls)  # kind by kind: see `catalogue_counts`
        if r.added is not None
    ]
    if len(dated) > limit:  # only the records as new as the `limit`-th newest date
        oldest = heapq.nlargest(limit, (added for added, _ in dated))[-1]
        dated = [pair for pair in dated if pair[0] >= oldest]
    dated.sort(key=lambda pair: (-pair[0].toordinal(), pair[1].id))
    return tuple(
        NewestRecord(r.id, kind_of(r), r.title, added.isoformat()) for added, r in dated[:limit]
    )


def reproduction_sites(
    catalogue: Catalogue, flags: Mapping[str, tuple[Flag, ...]] | None = None
) -> tuple[ReproductionSite, ...]:
    """Protocols where measurements name published evaluations they reproduce, by
    protocol id."""
    sites = []
    for protocol in catalogue.protocols():
        groups = protocol_reproduction_groups(protocol, catalogue, flags=flags)
        if not groups:
            continue
        sites.append(
            ReproductionSite(
                protocol.id,
                protocol.title,
                tuple(sorted({i for g in groups for i in g.measured_evaluation_ids})),
                sum(g.agree_count for g in groups),
                sum(g.disagree_count for g in groups),
                sum(g.value_count for g in groups),
            )
        )
    return tuple(sorted(sites, key=lambda s: s.protocol_id))


def _role(key: str, role: BaselineRole, catalogue: Catalogue) -> BaselineRoleView:
    measured = tuple(
        i
        for i in role.evaluations
        if isinstance(e := catalogue.by_id.get(i), Evaluation)
        and e.origin == Origin.rewire_measurement
    )
    return BaselineRoleView(
        key=key,
        name=ROLE_NAMES[key],
        status=role.status,
        status_label=ROLE_STATUS_LABELS[role.status],
        proposal=role.proposal,
        selection_rule=role.selection_rule,
        note=ROLE_NOTES[role.status],
        measured_evaluation_ids=measured,
    )


def _origin_counts(evaluations: list[Evaluation]) -> tuple[OriginCount, ...]:
    counts = Counter(e.origin for e in evaluations)
    return tuple(
        OriginCount(o.value, ORIGIN_COUNT_LABELS[o], counts[o]) for o in Origin if counts[o]
    )


def baseline_coverage(
    protocol: Protocol, catalogue: Catalogue, evaluations: list[Evaluation] | None = None
) -> BaselineCoverage:
    """The baseline roles of `protocol` and its evaluations by origin (`evaluations`:
    `catalogue.evaluations_of(protocol.id)`, when read already)."""
    roles: tuple[BaselineRoleView, ...] = ()
    missing = None
    if protocol.baselines is None:
        missing = missing_text(protocol, "baselines")
    else:
        roles = (
            _role("null_control", protocol.baselines.null_control, catalogue),
            _role("conventional_reference", protocol.baselines.conventional_reference, catalogue),
        )
    active = [r for r in roles if r.status != "inapplicable"]
    measured = sum(bool(r.measured_evaluation_ids) for r in active)
    noun = "baseline role has" if len(active) == 1 else "baseline roles have"
    recipe = protocol.recipe
    return BaselineCoverage(
        protocol_id=protocol.id,
        roles=roles,
        missing=missing,
        active_count=len(active),
        measured_count=measured,
        summary=f"{measured} of {len(active)} active {noun} published Rewire measurements "
        "in this release.",
        origin_counts=_origin_counts(
            catalogue.evaluations_of(protocol.id) if evaluations is None else evaluations
        ),
        recipe_command=recipe.command if recipe else None,
        recipe_text=f"Execution recipe: `{recipe.command}`." if recipe else NO_RECIPE,
    )


def protocol_coverage(
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]] | None = None,
    reproductions: Mapping[str, Sequence[ReproductionGroup]] | None = None,
) -> tuple[ProtocolCoverage, ...]:
    """One coverage row per protocol, by protocol id. Pass `flags` (from
    `flags_by_evaluation`) and `reproductions` (protocol id -> its reproduction groups,
    `protocol_reproduction_groups` with those flags) when already computed."""
    found = flags_by_evaluation(catalogue) if flags is None else flags
    rows = []
    for protocol in catalogue.protocols():
        groups = (
            protocol_reproduction_groups(protocol, catalogue, flags=found)
            if reproductions is None
            else reproductions[protocol.id]
        )
        rows.append(coverage_row(protocol, catalogue, found, groups))
    return tuple(rows)


def coverage_row(
    protocol: Protocol,
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]],
    groups: Sequence[ReproductionGroup],
) -> ProtocolCoverage:
    """The coverage row of `protocol`; `groups`: its reproduction groups
    (`protocol_reproduction_groups` with `flags`). Reads only this protocol, its
    evaluations, their flags and the evaluations its baseline roles list (so `rewire
    serve` keeps one row per protocol between edits)."""
    evaluations = catalogue.evaluations_of(protocol.id)
    origins = Counter(e.origin for e in evaluations)
    # A column holding only incomplete runs holds no result value.
    used = {r.column for e in evaluations for r in e.results if r.status != "incomplete"}
    out = sum(excluded(flags.get(e.id, ()), r.column) for e in evaluations for r in e.results)
    baselines = baseline_coverage(protocol, catalogue, evaluations)
    status = {r.key: r.status for r in baselines.roles}
    missing = baselines.missing.reason if baselines.missing else ""
    return ProtocolCoverage(
        protocol_id=protocol.id,
        title=protocol.title,
        areas=";".join(protocol.areas),
        metric=protocol_metric_label(protocol),
        unit=protocol_metric_unit(protocol),
        direction=protocol_metric_direction(protocol),
        datasets=";".join(protocol.datasets),
        columns_total=len(protocol.columns),
        columns_with_results=sum(c.id in used for c in protocol.columns),
        evaluations=len(evaluations),
        author_reported=origins[Origin.author_reported],
        independent_paper=origins[Origin.independent_paper],
        rewire_measurement=origins[Origin.rewire_measurement],
        results=sum(len(e.results) for e in evaluations),
        excluded_results=out,
        configurations=len({e.configuration for e in evaluations}),
        recipe=protocol.recipe.command if protocol.recipe else "",
        null_control=status.get("null_control", missing),
        conventional_reference=status.get("conventional_reference", missing),
        baseline_roles_measured=baselines.measured_count,
        measured_published_values=sum(g.value_count for g in groups),
        agree_within_tolerance=sum(g.agree_count for g in groups),
    )


def recorded_run_minutes(protocol: Protocol, catalogue: Catalogue) -> str:
    """What the measurements under `protocol` record of their own wall time (from each
    run's start and end), for the page's run instructions; '' without measurements. This
    replaces a hand-written estimate that can go stale."""
    runs = [
        (e.environment.ended_at - e.environment.started_at).total_seconds()
        for e in catalogue.evaluations_of(protocol.id)
        if e.environment is not None
    ]
    if not runs:
        return ""
    span = display_duration_span(min(runs), max(runs))
    each = " each, by their" if len(runs) > 1 else ", by its"
    return (
        f"The {plural(len(runs), 'measurement')} recorded under this protocol ran for "
        f"{span}{each} recorded start and end times."
    )
