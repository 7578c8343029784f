"""The page of an evaluation: its headline finding, results, procedure, readiness,
reproductions, environment and evidence.

Like every page family module of `render/`: one builder takes the record, the catalogue
and `SiteFacts` (what the derive stage computed once for the whole build) and returns
the page's typed context (`render.contexts`); its template only displays it. Every link
in a context is relative to the site root; templates prefix `page.root`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from ..derive.concerns import Flag
from ..derive.evaluation_facts import EvaluationFacts
from ..derive.logs import LoggedRun
from ..link import Catalogue
from ..models import Evaluation, Origin, Protocol
from .contexts import EvaluationPage, Fact, ObservationRow, SiteFacts
from .evaluation_rows import EvaluationRow, evaluation_rows
from .findings import claim_views, evaluation_headline
from .parts import link_to, record_fields, results_from_rows, value_fact
from .present.flags import flag_view
from .present.labels import ORIGIN_LABELS
from .present.missing import missing_text
from .present.numbers import display_number, plural
from .readiness_text import readiness_view
from .reproduction import ReproductionGroup, reproduction_groups
from .reproduction_chart import group_charts

STATUS_LINES = {
    Origin.author_reported: "Published result, transcribed from its source, not run by Rewire.",
    Origin.independent_paper: "Published result, transcribed from its source, not run by Rewire.",
    Origin.rewire_measurement: "Rewire measurement; run by Rewire, not transcribed.",
    Origin.community_reproduction: "Community reproduction; a user's run as reported, "
    "transcribed, not run by Rewire.",
    Origin.maintainer_statement: "Maintainer statement, transcribed from its source, not run "
    "by Rewire.",
}
"""What an evaluation is, by origin. It never carries a verdict ('not reproduced' stood
above 'reproduced within 2%'): the headline finding is the one verdict."""

SETUP_FIELDS = ("split", "population", "inputs", "adaptation", "aggregation", "budget")
"""Comparison fields shown before the protocol id in the procedure list."""
VERSION_FIELDS = ("dataset_version", "metric_implementation")
"""Comparison fields shown after it."""


def _logged_facts(
    commit: str, span: tuple[datetime, datetime], logged: LoggedRun | None
) -> tuple[Fact, ...]:
    """What the run's hashed logs record where it differs from the record's own
    environment (the record may override its logs; the page shows both)."""
    if logged is None:
        return ()
    out = []
    if logged.commits != (commit,):
        out.append(Fact("git commit in its hashed logs", ", ".join(logged.commits)))
    start, end = logged.started_at, logged.ended_at
    if start is not None and end is not None and (start, end) != span:
        out.append(
            Fact("start and end in its hashed logs", f"{start.isoformat()} to {end.isoformat()}")
        )
    return tuple(out)


@dataclass(frozen=True)
class EvaluationWords:
    """The derived facts of one evaluation's page (`derive.evaluation_facts`) with the
    parts the page shows in words, made once by the derive stage with the facts
    (`evaluation_words`), so the page job only reads them."""

    facts: EvaluationFacts
    reproductions: tuple[ReproductionGroup, ...]
    """`facts.reproductions` in words (`render.reproduction`)."""
    rows: tuple[EvaluationRow, ...]
    """Its rows of the 'exact evaluated configurations' table (`render.evaluation_rows`)."""


def evaluation_words(
    evaluation: Evaluation,
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]],
    derived: EvaluationFacts,
) -> EvaluationWords:
    """`derived` (the facts of `evaluation`'s page) with its reproductions and result
    rows in words."""
    return EvaluationWords(
        derived,
        reproduction_groups(derived.reproductions, catalogue),
        evaluation_rows([evaluation], catalogue, flags=flags),
    )


def evaluation_page(
    evaluation: Evaluation, catalogue: Catalogue, facts: SiteFacts, derived: EvaluationWords
) -> EvaluationPage:
    """The page of `evaluation`. `derived`: its derived facts and their words, made once
    by the derive stage (`evaluation_words`); this builder only presents them and the
    records."""
    protocol = catalogue.get(evaluation.protocol, Protocol)
    ready = readiness_view(derived.facts.readiness, protocol)
    flags = tuple(flag_view(f, catalogue) for f in facts.flags.get(evaluation.id, ()))
    comparison = evaluation.comparison
    compared = {
        n: value_fact(evaluation, f"comparison.{n}", getattr(comparison, n))
        for n in (*SETUP_FIELDS, *VERSION_FIELDS)
    }
    setup = [compared[n] for n in SETUP_FIELDS]
    versions = [compared[n] for n in VERSION_FIELDS]
    procedure = (
        Fact("origin", ORIGIN_LABELS[evaluation.origin]),
        Fact("version", evaluation.version),
        *setup,
        Fact("protocol id", evaluation.protocol),
        *versions,
    )
    recipe_missing = ""
    if protocol.recipe is None:
        why = missing_text(protocol, "recipe")
        recipe_missing = f"{why.long_label}{': ' + why.note if why.note else ''}"
    environment: tuple[Fact, ...] = ()
    reproductions = derived.reproductions
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
        environment += _logged_facts(
            env.git_commit.strip(),
            (env.started_at, env.ended_at),
            derived.facts.logged,
        )
    return EvaluationPage(
        **record_fields(evaluation, catalogue, facts, "evaluation.html", derived.facts.related),
        status_line=STATUS_LINES[evaluation.origin],
        results=results_from_rows(
            "result-rows",
            "Exact evaluated configurations and original reported results",
            derived.rows,
            [evaluation.id],
            facts,
        ),
        flags=flags,
        flags_text=plural(len(flags), "concern"),
        readiness=ready,
        procedure=procedure,
        conditions_unreported=any(f.missing for f in (*setup, *versions)),
        configuration=link_to(catalogue, evaluation.configuration),
        protocol=link_to(catalogue, evaluation.protocol),
        dataset=link_to(catalogue, evaluation.dataset),
        reproduction_facts=(
            compared["split"],
            compared["adaptation"],
            Fact("scoring implementation", compared["metric_implementation"].value),
        ),
        recipe_command=protocol.recipe.command if protocol.recipe else None,
        recipe_missing=recipe_missing,
        environment=environment,
        reproductions=reproductions,
        reproduction_charts=group_charts(reproductions, catalogue),
        observations=observation_rows(evaluation, protocol),
        headline=evaluation_headline(evaluation, catalogue, facts.flags, reproductions),
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
