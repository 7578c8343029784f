"""Readiness checks: four per evaluation, each a list of requirements computed from the
record's content and from what the builder itself checked. Facts only: the sentences a
page shows are made by `render/readiness_text.py`.

A requirement is met only when code checked it: the checksums requirement is met only
when the builder hashed every artifact file and each hash matched (the caller passes those
hashes: `release.hash_artifacts`). Requirements about per-sample predictions are not
applicable to memory and run-time measurements (they have no per-sample predictions) and
otherwise unmet, because no record carries predictions the code checks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal

from ..link import Catalogue
from ..models import Evaluation, Protocol
from ..models.evaluation import Environment, Origin
from .logs import DIRTY_MARK, LogFacts, LoggedRun, logged_run
from .scales import is_resource_metric

RequirementState = Literal["met", "unmet", "not_applicable"]
ArtifactState = Literal["match", "mismatch", "not_hashed"]

CHECK_KEYS: tuple[str, ...] = (
    "replay_metrics",
    "investigate_discrepancies",
    "run_locally",
    "validate_independently",
)
"""The four checks, in page order."""

PINNED_COMMIT = re.compile(r"^[0-9a-f]{40}$")


@dataclass(frozen=True)
class ArtifactStatus:
    path: str
    description: str
    recorded_sha256: str
    computed_sha256: str | None
    """What the builder computed; None when it found no file to hash."""
    state: ArtifactState


@dataclass(frozen=True)
class Checksums:
    """What the builder found hashing the recorded artifact files."""

    statuses: tuple[ArtifactStatus, ...]


@dataclass(frozen=True)
class MissingValue:
    column: str
    status: str | None
    """The result's status ('incomplete', 'out_of_memory') or None."""


@dataclass(frozen=True)
class Values:
    """Whether each result holds a value: `results` counted, `missing` those without."""

    results: int
    missing: tuple[MissingValue, ...]


@dataclass(frozen=True)
class ScoreProblem:
    column: str
    kind: Literal["no_unit", "unit", "no_direction", "direction"]
    found: str
    """The result's unit or direction ('' when not stated)."""
    expected: str
    """Its metric's unit or direction."""


@dataclass(frozen=True)
class ScoreMeaning:
    """The comparison of each result's unit and direction with its column's metric: it
    never confirms what a score means (the requirement is unmet either way)."""

    undefined_metric: bool
    """The protocol does not define how the metric is computed."""
    problems: tuple[ScoreProblem, ...]
    units: tuple[str, ...]
    """Each result's metric unit, in result order (the protocol's when no results)."""
    directions: tuple[str, ...]
    own_metric: bool
    """Some result's column has its own metric (not the protocol's)."""
    compared: bool
    """The strings all agree (a defined metric, no problem): 'not checked' rather than
    'not yet verified'."""


@dataclass(frozen=True)
class Scope:
    """A per-sample requirement: not applicable to a resource metric."""

    resource: bool
    metric_label: str


PinGap = Literal["", "dirty", "qualified", "not_full", "other_commit", "several_commits"]


@dataclass(frozen=True)
class Pinning:
    """Whether a run recipe pins the code that produced this result."""

    kind: Literal["measured", "protocol_recipe", "no_recipe"]
    environment: Environment | None
    logged: LoggedRun | None
    gap: PinGap
    """Why a measurement is not pinned ('' when it is, or when not measured here)."""
    recipe_command: str | None


@dataclass(frozen=True)
class Compute:
    """The run's measured hardware and wall time, or the recipe's hand estimate."""

    environment: Environment | None
    logged: LoggedRun | None
    estimated_minutes: float | None


Detail = Checksums | Values | ScoreMeaning | Scope | Pinning | Compute


@dataclass(frozen=True)
class Requirement:
    key: str
    """Stable key, e.g. 'checksums', 'predictions', 'recipe'."""
    state: RequirementState
    detail: Detail
    """What decided the state."""
    code: str = ""
    """The function that set the state ('rewire_site.derive.readiness._checksums'):
    pages carry it beside the label (tests/test_pages.py resolves it)."""


@dataclass(frozen=True)
class Check:
    key: str
    state: RequirementState
    """met: every requirement met or not applicable; not_applicable: every requirement
    of this check's own (beyond the shared replay ones) is not applicable; else unmet."""
    requirements: tuple[Requirement, ...]
    met: bool
    """The state is met."""


@dataclass(frozen=True)
class Readiness:
    evaluation_id: str
    checks: tuple[Check, ...]
    met_count: int
    total: int
    artifacts: tuple[ArtifactStatus, ...]
    verified: bool
    """Every check is met."""
    matching: int
    """Artifact files whose hash matched their recorded SHA-256."""


REQUIREMENT_CODE: dict[str, str] = {
    "checksums": "rewire_site.derive.readiness._checksums",
    "values": "rewire_site.derive.readiness._values",
    "score_meaning": "rewire_site.derive.readiness._score_meaning",
    "predictions": "rewire_site.derive.readiness._per_sample",
    "recomputed": "rewire_site.derive.readiness._per_sample",
    "annotations": "rewire_site.derive.readiness._investigate",
    "dependence": "rewire_site.derive.readiness._investigate",
    "recipe": "rewire_site.derive.readiness._run_locally",
    "compute": "rewire_site.derive.readiness._run_locally",
    "validation_data": "rewire_site.derive.readiness._validate",
    "overlap": "rewire_site.derive.readiness._validate",
}
"""Requirement key -> the function that decides its state."""


def _req(key: str, state: RequirementState, detail: Detail) -> Requirement:
    return Requirement(key, state, detail, REQUIREMENT_CODE[key])


def artifact_statuses(
    evaluation: Evaluation, artifact_hashes: Mapping[str, str | None]
) -> tuple[ArtifactStatus, ...]:
    out = []
    for artifact in evaluation.artifacts:
        computed = artifact_hashes.get(artifact.path)
        if computed is None:
            state: ArtifactState = "not_hashed"
        else:
            state = "match" if computed == artifact.sha256 else "mismatch"
        out.append(
            ArtifactStatus(artifact.path, artifact.description, artifact.sha256, computed, state)
        )
    return tuple(out)


def _checksums(statuses: tuple[ArtifactStatus, ...]) -> Requirement:
    met = bool(statuses) and all(s.state == "match" for s in statuses)
    return _req("checksums", "met" if met else "unmet", Checksums(statuses))


def _score_meaning(evaluation: Evaluation, protocol: Protocol) -> Requirement:
    """Code compares each result's unit and direction strings with its column's metric
    (the column's own, else the protocol's); it cannot confirm what a score means, so this
    requirement is never met by that comparison."""
    problems: list[ScoreProblem] = []
    metrics = [protocol.column_metric(r.column) for r in evaluation.results]
    for result, metric in zip(evaluation.results, metrics, strict=True):
        if result.unit is None:
            problems.append(ScoreProblem(result.column, "no_unit", "", metric.unit))
        elif result.unit.strip().lower() != metric.unit.strip().lower():
            problems.append(ScoreProblem(result.column, "unit", result.unit, metric.unit))
        if result.direction is None:
            problems.append(ScoreProblem(result.column, "no_direction", "", metric.direction))
        elif result.direction != metric.direction:
            problems.append(
                ScoreProblem(result.column, "direction", result.direction, metric.direction)
            )
    undefined = protocol.metric_definition is None
    meaning = ScoreMeaning(
        undefined_metric=undefined,
        problems=tuple(problems),
        units=tuple(m.unit for m in metrics) or (protocol.metric.unit,),
        directions=tuple(m.direction for m in metrics) or (protocol.metric.direction,),
        own_metric=any(m is not protocol.metric for m in metrics),
        compared=not undefined and not problems,
    )
    return _req("score_meaning", "unmet", meaning)


@cache
def _per_sample(resource: bool, metric_label: str) -> tuple[Requirement, ...]:
    state: RequirementState = "not_applicable" if resource else "unmet"
    scope = Scope(resource, metric_label)
    return _req("predictions", state, scope), _req("recomputed", state, scope)


@cache
def _investigate(resource: bool, metric_label: str) -> tuple[Requirement, ...]:
    state: RequirementState = "not_applicable" if resource else "unmet"
    scope = Scope(resource, metric_label)
    return _req("annotations", state, scope), _req("dependence", state, scope)


@cache
def _validate(resource: bool, metric_label: str) -> tuple[Requirement, ...]:
    state: RequirementState = "not_applicable" if resource else "unmet"
    scope = Scope(resource, metric_label)
    return _req("validation_data", state, scope), _req("overlap", state, scope)


def pin_gap(env: Environment, logged: LoggedRun | None) -> PinGap:
    """Why a Rewire measurement's code cannot be recovered exactly ('' when it can): the
    commit is read from its hashed logs where there are any."""
    commit = env.git_commit.strip()
    if logged is None:
        if PINNED_COMMIT.match(commit):
            return ""
        first = commit.split()[0] if commit.split() else ""
        if DIRTY_MARK in commit or "dirty" in commit:
            return "dirty"
        if PINNED_COMMIT.match(first):
            return "qualified"
        return "not_full"
    if logged.commits == (commit,) and PINNED_COMMIT.match(commit):
        return ""
    if logged.dirty:
        return "dirty"
    return "other_commit" if commit not in logged.commits else "several_commits"


def _run_locally(
    evaluation: Evaluation, protocol: Protocol, logged: LoggedRun | None = None
) -> tuple[Requirement, ...]:
    env = evaluation.environment
    recipe = protocol.recipe
    command = recipe.command if recipe is not None else None
    if evaluation.origin == Origin.rewire_measurement and env is not None:
        gap = pin_gap(env, logged)
        pinned = _req(
            "recipe", "unmet" if gap else "met", Pinning("measured", env, logged, gap, command)
        )
    else:
        kind: Literal["protocol_recipe", "no_recipe"] = (
            "protocol_recipe" if recipe is not None else "no_recipe"
        )
        pinned = _req("recipe", "unmet", Pinning(kind, env, logged, "", command))
    estimate = recipe.estimated_minutes if recipe is not None else None
    compute = _req("compute", "met" if env is not None else "unmet", Compute(env, logged, estimate))
    return pinned, compute


def _values(evaluation: Evaluation, protocol: Protocol) -> Requirement:
    """A run that claims no value has no metric to replay."""
    missing = tuple(MissingValue(r.column, r.status) for r in evaluation.results if r.value is None)
    met = bool(evaluation.results) and not missing
    return _req("values", "met" if met else "unmet", Values(len(evaluation.results), missing))


def _check(index: int, shared: tuple[Requirement, ...], own: tuple[Requirement, ...]) -> Check:
    requirements = shared + own
    state: RequirementState
    if any(r.state == "unmet" for r in requirements):
        state = "unmet"
    elif all(r.state == "not_applicable" for r in own):
        state = "not_applicable"
    else:
        state = "met"
    return Check(CHECK_KEYS[index], state, requirements, met=state == "met")


def readiness(
    evaluation: Evaluation,
    catalogue: Catalogue,
    artifact_hashes: Mapping[str, str | None],
    artifact_logs: Mapping[str, LogFacts] | None = None,
) -> Readiness:
    """The four readiness checks of `evaluation`. `artifact_hashes` maps an artifact path
    (relative to the repository root, as recorded) to the SHA-256 the builder computed
    from the file, or None when it found no file; `artifact_logs` maps a SHA-256 to what
    that raw log records (the commit, dirty mark, times and GPU are read from there)."""
    protocol = catalogue.get(evaluation.protocol, Protocol)
    resource = is_resource_metric(protocol)
    label = protocol.metric.label
    statuses = artifact_statuses(evaluation, artifact_hashes)
    checksums = _checksums(statuses)
    predictions, recomputed = _per_sample(resource, label)
    meaning = _score_meaning(evaluation, protocol)
    replay = (checksums, _values(evaluation, protocol), predictions, meaning, recomputed)
    base = (checksums, predictions, meaning)
    logged = logged_run(evaluation, artifact_hashes, artifact_logs or {})
    checks = (
        _check(0, (), replay),
        _check(1, replay, _investigate(resource, label)),
        _check(2, base, _run_locally(evaluation, protocol, logged)),
        _check(3, base, _validate(resource, label)),
    )
    met_count = sum(c.met for c in checks)
    return Readiness(
        evaluation_id=evaluation.id,
        checks=checks,
        met_count=met_count,
        total=len(checks),
        artifacts=statuses,
        verified=met_count == len(checks),
        matching=sum(s.state == "match" for s in statuses),
    )
