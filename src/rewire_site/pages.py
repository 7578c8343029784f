"""Page contexts of the record pages (types in `contexts`), built from the records and
the derived facts.

Templates receive one of these as `page` and only display it. Every link in a context is
relative to the site root; templates prefix `page.root`. Builders take the catalogue and
`SiteFacts` (what the derive stage computed once for the whole build) and do no scan of
the whole catalogue per page.
"""

from __future__ import annotations

from typing import TypedDict

from .contexts import (
    ConfigurationPage,
    DatasetPage,
    EvaluationPage,
    Fact,
    FamilyPage,
    Page,
    ProtocolPage,
    QuestionPage,
    RecordPage,
    RelatedLink,
    SiteFacts,
    SortedPage,
    SourcePage,
)
from .derive.coverage import baseline_coverage
from .derive.display import (
    ORIGIN_LABELS,
    display_number,
    missing_text,
    plural,
    result_display,
    review_label,
)
from .derive.evidence import SourceList, evidence_table, iso_utc, sources_of
from .derive.filters import FACETS
from .derive.readiness import readiness
from .derive.related import related
from .derive.reproduction import (
    protocol_reproductions,
    reproduction,
    reproductions_of,
)
from .derive.tables import ComparisonTable, comparison_table, evaluation_rows, resort
from .link import Catalogue
from .metadata import MetaItem, technical_metadata
from .models import (
    Configuration,
    Dataset,
    Evaluation,
    ModelFamily,
    Origin,
    Protocol,
    Question,
    RecordBase,
    Source,
)
from .sections import (
    EvaluationList,
    EvaluationListRow,
    EvidenceView,
    Facet,
    FacetOption,
    Link,
    ResultsTable,
    comparison_view,
    correction_url,
    evidence_view,
    facet_values_of,
    results_table,
)
from .urls import KIND_LABELS, api_path, kind_of, record_path, root_of, sorted_path

# ----------------------------------------------------------------- helpers


def _value(record: RecordBase, path: str, value: object | None) -> Fact:
    label = path.rsplit(".", 1)[-1].replace("_", " ")
    if value is None:
        return Fact(label, missing_text(record, path).label, missing=True)
    return Fact(label, str(value))


def _facets(facts: SiteFacts, evaluation_ids: list[str]) -> tuple[Facet, ...]:
    """Filter facets of a page: the values its evaluations have, with counts."""
    return tuple(
        Facet(
            key,
            label,
            tuple(
                FacetOption(o.token, o.label, o.count, facts.filter_hrefs.get((key, o.token)))
                for o in facts.filters.options(key, evaluation_ids)
            ),
        )
        for key, label in FACETS
    )


def _results(
    table_id: str,
    caption: str,
    evaluations: list[Evaluation],
    catalogue: Catalogue,
    facts: SiteFacts,
    show_protocol: bool = True,
) -> ResultsTable:
    rows = evaluation_rows(evaluations, catalogue, flags=facts.flags)
    ids = sorted({e.id for e in evaluations})
    return results_table(
        table_id, caption, rows, _facets(facts, ids), facts.filters.index, show_protocol
    )


def _evaluation_list(
    caption: str, evaluations: list[Evaluation], catalogue: Catalogue, facts: SiteFacts
) -> EvaluationList:
    """Evaluations one row each (pages that list many: dataset, family, question)."""
    rows = []
    for evaluation in sorted(evaluations, key=lambda e: e.id):
        protocol = catalogue.get(evaluation.protocol, Protocol)
        labels = {c.id: c.label for c in protocol.columns}
        findings = "; ".join(
            f"{result_display(r.value, r.status)} ({labels.get(r.column, r.column)})"
            for r in evaluation.results
        )
        flags = facts.flags.get(evaluation.id, ())
        rows.append(
            EvaluationListRow(
                evaluation=Link(evaluation.title, record_path("evaluation", evaluation.id)),
                configuration=_link(catalogue, evaluation.configuration),
                protocol=Link(protocol.title, record_path("protocol", protocol.id)),
                dataset=_link(catalogue, evaluation.dataset),
                origin_label=ORIGIN_LABELS[evaluation.origin],
                findings=f"{protocol.metric.label} ({protocol.metric.unit}): {findings}",
                flag_labels=tuple(dict.fromkeys(f.label for f in flags)),
                facet_values=facet_values_of(facts.filters.index, [evaluation.id]),
            )
        )
    ids = [e.id for e in evaluations]
    count = len(rows)
    results = sum(len(e.results) for e in evaluations)
    return EvaluationList(
        id="result-rows",
        form_id="result-rows-filters",
        caption=caption,
        rows=tuple(rows),
        evaluation_count=count,
        counts_text=f"{plural(count, 'evaluation')} · {plural(results, 'result')}",
        facets=_facets(facts, ids),
    )


def _title(catalogue: Catalogue, record_id: str) -> str | None:
    found = catalogue.by_id.get(record_id)
    return found.title if found is not None else None


def _link(catalogue: Catalogue, record_id: str) -> Link:
    record = catalogue.by_id[record_id]
    return Link(record.title, record_path(kind_of(record), record_id))


class _Common(TypedDict):
    template: str
    path: str
    root: str
    title: str
    description: str
    release_id: str
    nav: str
    kind: str
    kind_label: str
    record_id: str
    summary: str
    review_label: str
    limitations: tuple[str, ...]
    evidence: EvidenceView
    sources: SourceList
    metadata: tuple[MetaItem, ...]
    related: tuple[RelatedLink, ...]
    correction_url: str
    api_href: str
    downloads: tuple[Link, ...]
    release_download: Link


def _evaluations(catalogue: Catalogue, record_id: str) -> list[Evaluation]:
    """Evaluations that refer to `record_id`, sorted by id."""
    return [e for e in catalogue.referring(record_id, Evaluation) if isinstance(e, Evaluation)]


def _common(record: RecordBase, catalogue: Catalogue, facts: SiteFacts, template: str) -> _Common:
    kind = kind_of(record)
    path = record_path(kind, record.id)
    return _Common(
        {
            "template": template,
            "path": path,
            "root": root_of(path),
            "title": record.title,
            "description": record.summary,
            "release_id": facts.release_id,
            "nav": "",
            "kind": kind,
            "kind_label": KIND_LABELS[kind],
            "record_id": record.id,
            "summary": record.summary,
            "review_label": review_label(record),
            "limitations": tuple(record.limitations),
            "evidence": evidence_view(evidence_table(record, catalogue), review_label(record)),
            "sources": sources_of(record, catalogue),
            "metadata": technical_metadata(record, lambda i: _title(catalogue, i)),
            "related": tuple(
                RelatedLink(r.relation, r.title, record_path(r.kind, r.record_id))
                for r in related(record, catalogue)
            ),
            "correction_url": correction_url(record),
            "api_href": api_path(kind, record.id),
            "downloads": facts.downloads,
            "release_download": facts.release_download,
        }
    )


# ----------------------------------------------------------------- builders


def protocol_table(protocol: Protocol, catalogue: Catalogue, facts: SiteFacts) -> ComparisonTable:
    """The protocol's comparison table in its default order."""
    evaluations = catalogue.evaluations_of(protocol.id)
    flags = {e.id: facts.flags.get(e.id, ()) for e in evaluations}
    return comparison_table(protocol, catalogue, flags=flags, evaluations=evaluations)


def protocol_page(
    protocol: Protocol,
    catalogue: Catalogue,
    facts: SiteFacts,
    table: ComparisonTable | None = None,
) -> ProtocolPage:
    evaluations = catalogue.evaluations_of(protocol.id)
    if table is None:
        table = protocol_table(protocol, catalogue, facts)
    recipe_missing = ""
    if protocol.recipe is None:
        why = missing_text(protocol, "recipe")
        recipe_missing = f"{why.long_label}{': ' + why.note if why.note else ''}"
    page_facts = (
        Fact("measurement", protocol.measurement, markdown=True),
        Fact("metric", f"{protocol.metric.label} ({protocol.metric.id})"),
        Fact("unit", protocol.metric.unit),
        Fact("direction", f"{protocol.metric.direction} is better"),
        _value(protocol, "metric_definition", protocol.metric_definition),
        _value(protocol, "hardware", protocol.hardware),
        Fact("version", protocol.version),
        _value(protocol, "replicates", protocol.replicates),
        Fact(
            "tolerance",
            f"±{protocol.tolerance:.0%}" if protocol.tolerance is not None else "Not set",
            missing=protocol.tolerance is None,
        ),
        Fact("source locator", protocol.source_locator),
    )
    return ProtocolPage(
        **_common(protocol, catalogue, facts, "protocol.html"),
        protocol=protocol,
        comparison=comparison_view(table, facts.filters.index),
        results=_results(
            "result-rows",
            "Exact evaluated configurations and original reported results",
            evaluations,
            catalogue,
            facts,
            show_protocol=len({e.dataset for e in evaluations}) > 1,
        ),
        facts=page_facts,
        datasets=tuple(_link(catalogue, d) for d in protocol.datasets),
        recipe_missing=recipe_missing,
        baselines=baseline_coverage(protocol, catalogue),
        questions=tuple(_link(catalogue, q.id) for q in catalogue.referring(protocol.id, Question)),
        evaluations=tuple(_link(catalogue, e.id) for e in evaluations),
        reproductions=protocol_reproductions(protocol, catalogue),
        recipe_minutes=(
            display_number(protocol.recipe.estimated_minutes)
            if protocol.recipe is not None and protocol.recipe.estimated_minutes is not None
            else ""
        ),
    )


def sorted_pages(
    protocol: Protocol, catalogue: Catalogue, facts: SiteFacts, first: ComparisonTable
) -> list[SortedPage]:
    """The comparison table of `protocol` sorted by each shown column in turn; `first`
    is its table in the default order (sorted by the first column)."""
    pages = []
    for column in first.columns:
        table = first if column.id == first.sort_column else resort(first, column.id)
        path = sorted_path(protocol.id, column.id)
        pages.append(
            SortedPage(
                template="protocol_sorted.html",
                path=path,
                root=root_of(path),
                title=f"{protocol.title}: sorted by {column.header}",
                description=table.sort_text,
                release_id=facts.release_id,
                nav="",
                protocol_title=protocol.title,
                protocol_href=record_path("protocol", protocol.id),
                comparison=comparison_view(table, {}),  # no filter form on these pages
            )
        )
    return pages


STATUS_LINES = {
    Origin.author_reported: "Published result; transcribed, not reproduced.",
    Origin.independent_paper: "Published result; transcribed, not reproduced.",
    Origin.rewire_measurement: "Rewire measurement; run by Rewire, not transcribed.",
}

COMPARISON_FIELDS = (
    "split",
    "population",
    "inputs",
    "adaptation",
    "aggregation",
    "budget",
    "dataset_version",
    "metric_implementation",
)


def evaluation_page(
    evaluation: Evaluation,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> EvaluationPage:
    protocol = catalogue.get(evaluation.protocol, Protocol)
    ready = readiness(evaluation, catalogue, facts.artifact_hashes)
    procedure = [
        Fact("origin", ORIGIN_LABELS[evaluation.origin]),
        Fact("version", evaluation.version),
    ]
    unreported = False
    for name in COMPARISON_FIELDS:
        value = getattr(evaluation.comparison, name)
        fact = _value(evaluation, f"comparison.{name}", value)
        unreported = unreported or fact.missing
        procedure.append(fact)
    procedure.insert(8, Fact("protocol id", evaluation.protocol))
    recipe_missing = ""
    if protocol.recipe is None:
        why = missing_text(protocol, "recipe")
        recipe_missing = f"{why.long_label}{': ' + why.note if why.note else ''}"
    environment: tuple[Fact, ...] = ()
    env = evaluation.environment
    if env is not None:
        packages = "; ".join(f"{k} {v}" for k, v in sorted(env.packages.items()))
        environment = (
            Fact("GPU", f"{env.gpu_count} × {env.gpu} ({env.gpu_memory_gb:g} GB)"),
            Fact("driver", env.driver),
            Fact("CUDA", env.cuda),
            Fact("Python", env.python),
            Fact("packages", packages),
            Fact(
                "attention backend",
                env.attention_backend or "Not recorded",
                missing=env.attention_backend is None,
            ),
            Fact("host CPU", env.host_cpu),
            Fact("git commit", env.git_commit),
            Fact("command", env.command),
            Fact("seed", str(env.seed)),
            Fact("started at", env.started_at.isoformat()),
            Fact("ended at", env.ended_at.isoformat()),
        )
    return EvaluationPage(
        **_common(evaluation, catalogue, facts, "evaluation.html"),
        status_line=STATUS_LINES[evaluation.origin],
        results=_results(
            "result-rows",
            "Exact evaluated configurations and original reported results",
            [evaluation],
            catalogue,
            facts,
        ),
        flags=facts.flags.get(evaluation.id, ()),
        readiness=ready,
        readiness_key=(
            ready.checks,
            ready.artifacts,
            ready.summary,
            ready.artifact_note,
            facts.release_id,
        ),
        procedure=tuple(procedure),
        conditions_unreported=unreported,
        configuration=_link(catalogue, evaluation.configuration),
        protocol=_link(catalogue, evaluation.protocol),
        dataset=_link(catalogue, evaluation.dataset),
        reproduction_facts=(
            _value(evaluation, "comparison.split", evaluation.comparison.split),
            _value(evaluation, "comparison.adaptation", evaluation.comparison.adaptation),
            Fact(
                "scoring implementation",
                _value(
                    evaluation,
                    "comparison.metric_implementation",
                    evaluation.comparison.metric_implementation,
                ).value,
            ),
        ),
        recipe_command=protocol.recipe.command if protocol.recipe else None,
        recipe_missing=recipe_missing,
        environment=environment,
        reproductions=(
            (made,)
            if (made := reproduction(evaluation, catalogue)) is not None
            else reproductions_of(evaluation, catalogue)
        ),
    )


def configuration_page(
    configuration: Configuration,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> ConfigurationPage:
    evaluations = _evaluations(catalogue, configuration.id)
    c = configuration
    hardware = c.hardware.description if c.hardware is not None else None
    page_facts = (
        Fact("reported name", c.reported_name),
        Fact("method types", "; ".join(c.method_types)),
        Fact("parameters", c.parameters or "Not stated", missing=c.parameters is None),
        _value(c, "checkpoint", c.checkpoint),
        _value(c, "version", c.version),
        _value(c, "hardware", hardware),
        Fact("fine tuning", c.fine_tuning, markdown=True)
        if c.fine_tuning is not None
        else _value(c, "fine_tuning", None),
        _value(c, "training_setting", c.training_setting),
        *(Fact(f"setting: {k.replace('_', ' ')}", v) for k, v in sorted(c.settings.items())),
        *((Fact("provenance note", c.provenance_note),) if c.provenance_note else ()),
    )
    return ConfigurationPage(
        **_common(c, catalogue, facts, "configuration.html"),
        results=_results(
            "result-rows",
            "Evaluations of this configuration and their original reported results",
            evaluations,
            catalogue,
            facts,
        ),
        family=_link(catalogue, c.family),
        facts=page_facts,
    )


def dataset_page(
    dataset: Dataset,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> DatasetPage:
    d = dataset
    evaluations = _evaluations(catalogue, d.id)
    splits = "; ".join(
        s.name
        + (f" ({s.size} samples)" if s.size is not None else "")
        + (f": {s.note}" if s.note else "")
        for s in d.splits
    )
    page_facts = (
        Fact("description", d.description, markdown=True),
        Fact("synthetic", "yes: generated, not collected" if d.synthetic else "no: collected"),
        _value(d, "version", d.version),
        _value(d, "generator", d.generator),
        _value(d, "seed", d.seed),
        _value(d, "access", d.access),
        _value(d, "licence", d.licence),
        *((Fact("splits", splits),) if d.splits else ()),
        *((Fact("tasks", "; ".join(d.tasks)),) if d.tasks else ()),
    )
    return DatasetPage(
        **_common(d, catalogue, facts, "dataset.html"),
        results=_evaluation_list("Evaluations on this dataset", evaluations, catalogue, facts),
        facts=page_facts,
        protocols=tuple(_link(catalogue, p.id) for p in catalogue.referring(d.id, Protocol)),
    )


def family_page(
    family: ModelFamily,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> FamilyPage:
    f = family
    configurations = catalogue.referring(f.id, Configuration)
    evaluations = [e for c in configurations for e in _evaluations(catalogue, c.id)]
    checkpoints = tuple(
        Fact("checkpoint", "; ".join(x for x in (cp.name, cp.parameters, cp.url, cp.note) if x))
        for cp in f.checkpoints
    )
    page_facts = (
        Fact("name", f.name),
        Fact("developers", "; ".join(f.developers)),
        _value(f, "architecture", f.architecture),
        _value(f, "tokenisation", f.tokenisation),
        *checkpoints,
    )
    return FamilyPage(
        **_common(f, catalogue, facts, "family.html"),
        results=_evaluation_list(
            "Evaluations of configurations in this family", evaluations, catalogue, facts
        ),
        facts=page_facts,
        configurations=tuple(_link(catalogue, c.id) for c in configurations),
        papers=tuple(_link(catalogue, p) for p in f.papers),
    )


def source_page(
    source: Source,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> SourcePage:
    s = source
    retrieved = iso_utc(s.retrieved_at) or missing_text(s, "retrieved_at").label
    page_facts = (
        Fact("short citation", s.short_citation),
        Fact("venue", s.venue),
        *((Fact("authors", "; ".join(s.authors)),) if s.authors else ()),
        *((Fact("affiliations", "; ".join(s.affiliations)),) if s.affiliations else ()),
        _value(s, "published", s.published),
        Fact("version", s.version),
        Fact("URL", s.url),
        _value(s, "retrieval_url", s.retrieval_url),
        Fact("retrieved at", retrieved, missing=s.retrieved_at is None),
        _value(s, "sha256", s.sha256),
        _value(s, "hash_scope", s.hash_scope),
        _value(s, "independence", s.independence),
    )
    return SourcePage(
        **_common(s, catalogue, facts, "source.html"),
        source=s,
        facts=page_facts,
        citing=tuple(_link(catalogue, r.id) for r in catalogue.referring(s.id)),
    )


def question_page(
    question: Question,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> QuestionPage:
    q = question
    evaluations = [catalogue.get(e, Evaluation) for e in q.evaluations]
    return QuestionPage(
        **_common(q, catalogue, facts, "question.html"),
        question=q,
        results=_evaluation_list(
            "Evaluations that bear on this decision", evaluations, catalogue, facts
        ),
        protocols=tuple(_link(catalogue, p) for p in q.protocols),
    )


__all__ = [
    "ConfigurationPage",
    "DatasetPage",
    "EvaluationPage",
    "Fact",
    "FamilyPage",
    "Page",
    "ProtocolPage",
    "QuestionPage",
    "RecordPage",
    "RelatedLink",
    "SiteFacts",
    "SortedPage",
    "SourcePage",
    "configuration_page",
    "dataset_page",
    "evaluation_page",
    "family_page",
    "protocol_page",
    "protocol_table",
    "question_page",
    "sorted_pages",
    "source_page",
]
