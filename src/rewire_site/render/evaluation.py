"""Page contexts of the record pages (types in `contexts`), built from the records and
the derived facts. Builders several pages share are in `page_parts`; the protocol pages
are built in `protocol_pages` and re-exported here.

Templates receive one of these as `page` and only display it. Every link in a context is
relative to the site root; templates prefix `page.root`. Builders take the catalogue and
`SiteFacts` (what the derive stage computed once for the whole build) and do no scan of
the whole catalogue per page.
"""

from __future__ import annotations

from .contexts import (
    ConfigurationPage,
    DatasetPage,
    EvaluationPage,
    Fact,
    FamilyPage,
    ObservationRow,
    Page,
    ProtocolPage,
    QuestionPage,
    RecordPage,
    RelatedLink,
    SiteFacts,
    SortedPage,
    SourcePage,
)
from .derive.display import (
    ORIGIN_LABELS,
    display_number,
    missing_text,
)
from .derive.evidence import iso_utc
from .derive.findings import claim_views, evaluation_headline
from .derive.model_facts import fact_rows
from .derive.readiness import readiness
from .derive.reproduction import evaluation_reproductions
from .link import Catalogue
from .models import (
    Configuration,
    Dataset,
    Evaluation,
    ModelFamily,
    Origin,
    Protocol,
    Question,
    Source,
)
from .page_parts import (
    common_fields,
    evaluation_list,
    evaluations_referring,
    link_to,
    results_of,
    value_fact,
)
from .protocol_pages import protocol_page, protocol_table, sorted_pages

STATUS_LINES = {
    Origin.author_reported: "Published result; transcribed, not reproduced.",
    Origin.independent_paper: "Published result; transcribed, not reproduced.",
    Origin.rewire_measurement: "Rewire measurement; run by Rewire, not transcribed.",
    Origin.community_reproduction: "Community reproduction; a user's run as reported, "
    "transcribed, not reproduced by Rewire.",
    Origin.maintainer_statement: "Maintainer statement; transcribed, not reproduced.",
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
        fact = value_fact(evaluation, f"comparison.{name}", value)
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
        **common_fields(evaluation, catalogue, facts, "evaluation.html"),
        status_line=STATUS_LINES[evaluation.origin],
        results=results_of(
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
        configuration=link_to(catalogue, evaluation.configuration),
        protocol=link_to(catalogue, evaluation.protocol),
        dataset=link_to(catalogue, evaluation.dataset),
        reproduction_facts=(
            value_fact(evaluation, "comparison.split", evaluation.comparison.split),
            value_fact(evaluation, "comparison.adaptation", evaluation.comparison.adaptation),
            Fact(
                "scoring implementation",
                value_fact(
                    evaluation,
                    "comparison.metric_implementation",
                    evaluation.comparison.metric_implementation,
                ).value,
            ),
        ),
        recipe_command=protocol.recipe.command if protocol.recipe else None,
        recipe_missing=recipe_missing,
        environment=environment,
        reproductions=evaluation_reproductions(evaluation, catalogue, flags=facts.flags),
        observations=observation_rows(evaluation, protocol),
        headline=evaluation_headline(evaluation, catalogue, facts.flags),
        claims=claim_views(evaluation, catalogue),
    )


def observation_rows(evaluation: Evaluation, protocol: Protocol) -> tuple[ObservationRow, ...]:
    """Every observation of every result, labelled by the result's protocol column."""
    labels = {c.id: c.label for c in protocol.columns}
    return tuple(
        ObservationRow(
            column=labels.get(result.column, result.column),
            name=observation.name,
            value=display_number(observation.value),
            exact=repr(observation.value),
            unit=observation.unit,
            note=observation.note or "",
        )
        for result in evaluation.results
        for observation in result.observations
    )


def configuration_page(
    configuration: Configuration,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> ConfigurationPage:
    evaluations = evaluations_referring(catalogue, configuration.id)
    c = configuration
    hardware = c.hardware.description if c.hardware is not None else None
    page_facts = (
        Fact("reported name", c.reported_name),
        Fact("method types", "; ".join(c.method_types)),
        Fact("parameters", c.parameters or "Not stated", missing=c.parameters is None),
        value_fact(c, "checkpoint", c.checkpoint),
        value_fact(c, "version", c.version),
        value_fact(c, "hardware", hardware),
        Fact("fine tuning", c.fine_tuning, markdown=True)
        if c.fine_tuning is not None
        else value_fact(c, "fine_tuning", None),
        value_fact(c, "training_setting", c.training_setting),
        *(Fact(f"setting: {k.replace('_', ' ')}", v) for k, v in sorted(c.settings.items())),
        *((Fact("provenance note", c.provenance_note),) if c.provenance_note else ()),
    )
    return ConfigurationPage(
        **common_fields(c, catalogue, facts, "configuration.html"),
        results=results_of(
            "result-rows",
            "Evaluations of this configuration and their original reported results",
            evaluations,
            catalogue,
            facts,
        ),
        family=link_to(catalogue, c.family),
        facts=page_facts,
    )


def dataset_page(
    dataset: Dataset,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> DatasetPage:
    d = dataset
    evaluations = evaluations_referring(catalogue, d.id)
    splits = "; ".join(
        s.name
        + (f" ({s.size} samples)" if s.size is not None else "")
        + (f": {s.note}" if s.note else "")
        for s in d.splits
    )
    page_facts = (
        Fact("description", d.description, markdown=True),
        Fact("synthetic", "yes: generated, not collected" if d.synthetic else "no: collected"),
        value_fact(d, "version", d.version),
        value_fact(d, "generator", d.generator),
        value_fact(d, "seed", d.seed),
        value_fact(d, "access", d.access),
        value_fact(d, "licence", d.licence),
        *((Fact("splits", splits),) if d.splits else ()),
        *((Fact("tasks", "; ".join(d.tasks)),) if d.tasks else ()),
    )
    return DatasetPage(
        **common_fields(d, catalogue, facts, "dataset.html"),
        results=evaluation_list("Evaluations on this dataset", evaluations, catalogue, facts),
        facts=page_facts,
        protocols=tuple(link_to(catalogue, p.id) for p in catalogue.referring(d.id, Protocol)),
    )


def family_page(
    family: ModelFamily,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> FamilyPage:
    f = family
    configurations = catalogue.referring(f.id, Configuration)
    evaluations = [e for c in configurations for e in evaluations_referring(catalogue, c.id)]
    checkpoints = tuple(
        Fact("checkpoint", "; ".join(x for x in (cp.name, cp.parameters, cp.url, cp.note) if x))
        for cp in f.checkpoints
    )
    page_facts = (
        Fact("name", f.name),
        Fact("developers", "; ".join(f.developers)),
        value_fact(f, "architecture", f.architecture),
        value_fact(f, "tokenisation", f.tokenisation),
        *checkpoints,
    )
    return FamilyPage(
        **common_fields(f, catalogue, facts, "family.html"),
        results=evaluation_list(
            "Evaluations of configurations in this family", evaluations, catalogue, facts
        ),
        facts=page_facts,
        fact_rows=fact_rows(f, catalogue),
        configurations=tuple(link_to(catalogue, c.id) for c in configurations),
        papers=tuple(link_to(catalogue, p) for p in f.papers),
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
        value_fact(s, "published", s.published),
        Fact("version", s.version),
        Fact("URL", s.url),
        value_fact(s, "retrieval_url", s.retrieval_url),
        Fact("retrieved at", retrieved, missing=s.retrieved_at is None),
        value_fact(s, "sha256", s.sha256),
        value_fact(s, "hash_scope", s.hash_scope),
        value_fact(s, "independence", s.independence),
    )
    return SourcePage(
        **common_fields(s, catalogue, facts, "source.html"),
        source=s,
        facts=page_facts,
        citing=tuple(link_to(catalogue, r.id) for r in catalogue.referring(s.id)),
    )


def question_page(
    question: Question,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> QuestionPage:
    q = question
    evaluations = [catalogue.get(e, Evaluation) for e in q.evaluations]
    return QuestionPage(
        **common_fields(q, catalogue, facts, "question.html"),
        question=q,
        results=evaluation_list(
            "Evaluations that bear on this decision", evaluations, catalogue, facts
        ),
        protocols=tuple(link_to(catalogue, p) for p in q.protocols),
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
