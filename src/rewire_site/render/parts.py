"""Builders that several record pages share: a field as a fact (or why it is missing),
filter facets, the results table and the evaluation list with their filters, links to
records, and the fields every record page has (`common_fields`: heading, evidence,
sources, technical metadata, related records, correction link).
"""

from __future__ import annotations

from ..derive.related import Related, related
from ..link import Catalogue
from ..models import (
    Evaluation,
    Protocol,
    RecordBase,
)
from .contexts import (
    ConcernView,
    EvaluationList,
    EvaluationListRow,
    EvidenceView,
    Facet,
    FacetOption,
    Fact,
    Link,
    MetaItem,
    PageHeader,
    RelatedLink,
    ResultsTable,
    SiteFacts,
    page_header,
)
from .evaluation_rows import EvaluationRow, evaluation_rows
from .evidence import SourceList, evidence_table, sources_of
from .filters import FACETS
from .metadata import technical_metadata
from .present.citations import cite
from .present.fields import field_text
from .present.flags import FLAG_LABELS, flag_label
from .present.labels import ORIGIN_LABELS
from .present.metrics import result_header
from .present.missing import missing_text
from .present.numbers import plural
from .present.relations import relation_label
from .present.review import review_label
from .present.values import result_value, scale_unit
from .sections import correction_url, evidence_view, facet_values_of, results_table
from .urls import KIND_LABELS, api_path, kind_of, record_path


def value_fact(record: RecordBase, path: str, value: object | None) -> Fact:
    """The field at `path` as a fact: its value, or why `missing_metadata` says it is
    missing."""
    label = path.rsplit(".", 1)[-1].replace("_", " ")
    if value is None:
        return Fact(label, missing_text(record, path).label, missing=True)
    return Fact(label, str(value))


def facets_of(facts: SiteFacts, evaluation_ids: list[str]) -> tuple[Facet, ...]:
    """Filter facets of a page: the values its evaluations have, with counts; only
    facets with two or more values (one value filters nothing), and none for a single
    evaluation."""
    if len(evaluation_ids) < 2:
        return ()
    found = tuple(
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
    return tuple(f for f in found if len(f.options) >= 2)


def results_of(
    table_id: str,
    caption: str,
    evaluations: list[Evaluation],
    catalogue: Catalogue,
    facts: SiteFacts,
    show_protocol: bool = True,
    compact: bool = False,
    rows_of: list[Evaluation] | None = None,
) -> ResultsTable:
    """The evaluation rows of a page. `compact` (pages listing many evaluations): a
    computed concern shows as its label, explained once in the table's legend; the
    evaluation page keeps the full text. `rows_of`: the evaluations that get rows, when
    fewer than those the filter facets count (the rest have rows elsewhere on the page)."""
    rows = evaluation_rows(
        evaluations if rows_of is None else rows_of, catalogue, flags=facts.flags
    )
    ids = sorted({e.id for e in evaluations})
    return results_from_rows(table_id, caption, rows, ids, facts, show_protocol, compact)


def results_from_rows(
    table_id: str,
    caption: str,
    rows: tuple[EvaluationRow, ...],
    evaluation_ids: list[str],
    facts: SiteFacts,
    show_protocol: bool = True,
    compact: bool = False,
) -> ResultsTable:
    """The results table of `rows` (derived already), its filter facets counting
    `evaluation_ids` (sorted)."""
    return results_table(
        table_id,
        caption,
        rows,
        facets_of(facts, evaluation_ids),
        facts.filters.index,
        show_protocol,
        compact=compact,
    )


def evaluation_list(
    caption: str,
    evaluations: list[Evaluation],
    catalogue: Catalogue,
    facts: SiteFacts,
) -> EvaluationList:
    """Evaluations one row each (pages that list many: dataset, family, question)."""
    ordered = sorted(evaluations, key=lambda e: e.id)
    rows = tuple(_list_row(e, catalogue, facts) for e in ordered)
    ids = [e.id for e in evaluations]
    count = len(rows)
    results = sum(len(e.results) for e in evaluations)
    return EvaluationList(
        id="result-rows",
        form_id="result-rows-filters",
        caption=caption,
        rows=rows,
        evaluation_count=count,
        matching_text=plural(count, "matching evaluation"),
        counts_text=f"{plural(count, 'evaluation')} · {plural(results, 'result')}",
        facets=facets_of(facts, ids),
    )


def _list_row(evaluation: Evaluation, catalogue: Catalogue, facts: SiteFacts) -> EvaluationListRow:
    protocol = catalogue.get(evaluation.protocol, Protocol)
    labels = {c.id: c.label for c in protocol.columns}
    metrics = {m.id: m for m in map(protocol.column_metric, (r.column for r in evaluation.results))}
    # each value on its metric's canonical scale (`display.result_value`: MCC never '%')
    if len(metrics) == 1:  # one metric (the protocol's or its columns'): say it once
        metric = next(iter(metrics.values()))
        findings = f"{metric.label} ({scale_unit(metric)}): " + "; ".join(
            f"{result_value(metric, r).full} ({labels.get(r.column, r.column)})"
            for r in evaluation.results
        )
    else:  # columns with metrics of their own: each result names its metric
        findings = "; ".join(
            f"{result_value(protocol.column_metric(r.column), r).full} "
            f"({result_header(protocol, r.column)}, "
            f"{scale_unit(protocol.column_metric(r.column))})"
            for r in evaluation.results
        )
    flags = facts.flags.get(evaluation.id, ())
    return EvaluationListRow(
        evaluation=Link(evaluation.title, record_path("evaluation", evaluation.id)),
        configuration=link_to(catalogue, evaluation.configuration),
        protocol=Link(protocol.title, record_path("protocol", protocol.id)),
        dataset=link_to(catalogue, evaluation.dataset),
        origin_label=ORIGIN_LABELS[evaluation.origin],
        findings=findings,
        flag_labels=tuple(dict.fromkeys(flag_label(f) for f in flags)),
        facet_values=facet_values_of(facts.filters.index, [evaluation.id]),
    )


def title_of(catalogue: Catalogue, record_id: str) -> str | None:
    """The title of the record `record_id` (None when there is none)."""
    found = catalogue.by_id.get(record_id)
    return found.title if found is not None else None


def link_to(catalogue: Catalogue, record_id: str) -> Link:
    """A link to the page of the record `record_id`, with its title as the text."""
    record = catalogue.by_id[record_id]
    return Link(record.title, record_path(kind_of(record), record_id))


class CommonFields(PageHeader):
    """The fields every record page context has (`common_fields` fills them): the page
    header and the record's heading, evidence, sources, metadata and links."""

    kind: str
    kind_label: str
    record_id: str
    summary: str
    review_label: str
    limitations: tuple[str, ...]
    evidence: EvidenceView
    sources: SourceList
    metadata: tuple[MetaItem, ...]
    concerns: tuple[ConcernView, ...]
    related: tuple[RelatedLink, ...]
    correction_url: str
    api_href: str
    downloads: tuple[Link, ...]
    release_download: Link


def record_concerns(record: RecordBase, catalogue: Catalogue) -> tuple[ConcernView, ...]:
    """Every concern recorded on `record` in reader words: its kind's label, the field it
    is about, its text and each value a source states with where it states it."""
    views = []
    for concern in record.concerns:
        values = []
        for stated in concern.values:
            view = cite(stated.citation, catalogue)
            values.append(f"{stated.value} ({view.short_citation}, {view.locator})")
        views.append(
            ConcernView(
                concern.id,
                FLAG_LABELS.get(concern.kind.value, "Evidence concern"),
                field_text(concern.field) if concern.field else "",
                concern.text,
                tuple(values),
                concern.excludes_from_comparisons,
            )
        )
    return tuple(views)


def evaluations_referring(catalogue: Catalogue, record_id: str) -> list[Evaluation]:
    """Evaluations that refer to `record_id`, sorted by id."""
    return [e for e in catalogue.referring(record_id, Evaluation) if isinstance(e, Evaluation)]


def common_fields(
    record: RecordBase, catalogue: Catalogue, facts: SiteFacts, template: str
) -> CommonFields:
    """Heading, evidence, sources, technical metadata, related records and links of the
    page of `record`, rendered with `template`."""
    return record_fields(record, catalogue, facts, template, related(record, catalogue))


def record_fields(
    record: RecordBase,
    catalogue: Catalogue,
    facts: SiteFacts,
    template: str,
    related_records: tuple[Related, ...],
) -> CommonFields:
    """`common_fields` with the record's related records derived already."""
    kind = kind_of(record)
    head_title = f"{record.title} ({record.id})" if record.title in facts.shared_titles else ""
    review = review_label(record)
    return CommonFields(
        {
            **page_header(
                template,
                record_path(kind, record.id),
                record.title,
                record.summary,
                facts.release_id,
                head_title=head_title,
            ),
            "kind": kind,
            "kind_label": KIND_LABELS[kind],
            "record_id": record.id,
            "summary": record.summary,
            "review_label": review,
            "limitations": tuple(record.limitations),
            "evidence": evidence_view(evidence_table(record, catalogue), review),
            "sources": sources_of(record, catalogue),
            "metadata": technical_metadata(record, lambda i: title_of(catalogue, i)),
            "concerns": record_concerns(record, catalogue),
            "related": tuple(
                RelatedLink(relation_label(r.relation), r.title, record_path(r.kind, r.record_id))
                for r in related_records
            ),
            "correction_url": correction_url(record),
            "api_href": api_path(kind, record.id),
            "downloads": facts.downloads,
            "release_download": facts.release_download,
        }
    )


EDITOR_NOTE_PREFIXES = ("The seed page shows", "The seed pages show", "Batch review")
"""Openings of notes written for editors (how a record was transcribed), not readers.
Records move them to `editor_notes`, which no page shows; until every record has, a note
that opens so is left out here too (tests/test_pages.py checks no page shows one)."""


def reader_notes(notes: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The notes a reader sees: every note except those written for editors."""
    return tuple(n for n in notes if not n.lstrip().startswith(EDITOR_NOTE_PREFIXES))
