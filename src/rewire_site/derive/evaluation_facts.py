"""Every derived fact the page of one evaluation shows, computed once per evaluation by
the site's derive stage (`render.derive_stage.plan_site` for a build, `incremental.derive` for
`rewire serve`), so that the page's context builder (`render/evaluation.py`) reads
them and derives nothing itself."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..link import Catalogue
from ..models import Evaluation
from .concerns import Flag
from .logs import LogFacts, LoggedRun, logged_run
from .readiness import Readiness, readiness
from .related import Related, related
from .reproduction import ReproductionGroup, evaluation_reproductions


@dataclass(frozen=True)
class EvaluationFacts:
    """What the page of one evaluation shows that is derived, not recorded."""

    readiness: Readiness
    """Its four readiness checks and the artifact files' states."""
    logged: LoggedRun | None
    """What its hashed logs record together (None: no log read)."""
    reproductions: tuple[ReproductionGroup, ...]
    """Its own reproduction of the value it names, or every reproduction of it (their
    words: `render.reproduction`)."""
    related: tuple[Related, ...]
    """The records it refers to and those that refer to it."""


def shows_reproductions(evaluation: Evaluation, catalogue: Catalogue) -> bool:
    """Whether the page of `evaluation` shows reproductions: it reproduces a value, or
    another evaluation reproduces it."""
    return evaluation.reproduces is not None or any(
        isinstance(e, Evaluation) and e.reproduces == evaluation.id
        for e in catalogue.referring(evaluation.id, Evaluation)
    )


def evaluation_facts(
    evaluation: Evaluation,
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]],
    artifact_hashes: Mapping[str, str | None],
    artifact_logs: Mapping[str, LogFacts],
    groups: Mapping[str, tuple[ReproductionGroup, ...]],
) -> EvaluationFacts:
    """The derived facts of the page of `evaluation`. `groups`: protocol id -> its
    reproduction groups (`reproduction.protocol_reproduction_groups`); only a page that
    shows reproductions reads its protocol's (so `rewire serve` re-derives no other
    evaluation's facts when they change)."""
    reproductions: tuple[ReproductionGroup, ...] = ()
    if shows_reproductions(evaluation, catalogue):
        reproductions = evaluation_reproductions(
            evaluation, catalogue, flags=flags, groups=groups[evaluation.protocol]
        )
    return EvaluationFacts(
        readiness=readiness(evaluation, catalogue, artifact_hashes, artifact_logs),
        logged=logged_run(evaluation, artifact_hashes, artifact_logs),
        reproductions=reproductions,
        related=related(evaluation, catalogue),
    )
