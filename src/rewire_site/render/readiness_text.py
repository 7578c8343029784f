"""The readiness section's words: each check's name and description, each requirement's
label, state and reason, the summary and the artifact note, made from the facts
`derive.readiness` returns (it decides every state; this module only says them)."""

from __future__ import annotations

from dataclasses import dataclass

from ..derive.logs import LoggedRun
from ..derive.readiness import (
    ArtifactStatus,
    Checksums,
    Compute,
    Pinning,
    Readiness,
    Requirement,
    RequirementState,
    Scope,
    ScoreMeaning,
    ScoreProblem,
    Values,
)
from ..models import Protocol
from ..models.evaluation import Environment
from .present.durations import display_duration
from .present.metrics import per_column, result_header
from .present.missing import missing_text
from .present.numbers import plural

STATE_LABELS: dict[str, str] = {
    "met": "met",
    "unmet": "not yet verified",
    "not_applicable": "not applicable",
}
CHECK_STATUS_LABELS: dict[str, str] = {
    "met": "Evidence complete",
    "unmet": "Evidence incomplete",
    "not_applicable": "Not applicable",
}
NO_MANIFEST = "No verified artifact manifest is linked to this exact record."

CHECKS: dict[str, tuple[str, str]] = {
    "replay_metrics": ("Replay metrics",
        "Exact outcomes, predictions, identifiers and evaluator are connected."),
    "investigate_discrepancies": ("Investigate discrepancies",
        "Replay evidence includes annotations and an assessment of dependence. Unknown "
        "independence permits descriptive analysis only."),
    "run_locally": ("Run locally",
        "A pinned recipe describes the inputs, environment and resource requirements."),
    "validate_independently": ("Validate independently",
        "Separate data and exposure records support an independent test."),
}  # fmt: skip
"""Check key -> (name, description)."""

LABELS: dict[str, str] = {
    "checksums": "File checksums match the recorded files",
    "values": "The evaluation claims a value for every result",
    "score_meaning": "Score meaning and direction are confirmed",
    "predictions": "Predictions are matched to the right samples",
    "recomputed": "Metrics are recomputed from the saved predictions",
    "annotations": "Sample annotations are recorded",
    "dependence": "Dependence between samples is assessed",
    "recipe": "A pinned run recipe exists",
    "compute": "Compute requirements are known",
    "validation_data": "Independent validation data exist",
    "overlap": "Overlap with training data is checked",
}
"""Requirement key -> its label."""

SCOPE_REASONS: dict[str, tuple[str, str]] = {
    "predictions": ("{what}; it has no per-sample predictions.",
        "No per-sample predictions with sample identifiers are linked for the builder "
        "to check."),
    "recomputed": ("{what}, not computed from predictions.",
        "Rewire does not yet recompute metrics from saved predictions."),
    "annotations": (
        "No samples are scored, so there is nothing to annotate or assess for dependence.",
        "No sample annotations are recorded."),
    "dependence": (
        "No samples are scored, so there is nothing to annotate or assess for dependence.",
        "No assessment of dependence between samples is recorded."),
    "validation_data": (
        "{metric} does not score held-out samples; an independent run is a reproduction.",
        "No exposure records show which data the model was trained on."),
    "overlap": (
        "{metric} does not score held-out samples; an independent run is a reproduction.",
        "Overlap between the dataset and the model's training data is not checked."),
}  # fmt: skip
"""Requirement key -> (reason for a resource metric, reason otherwise)."""

GAPS: dict[str, str] = {
    "dirty": "the run logged uncommitted changes (+dirty)",
    "qualified": "the record qualifies the commit (it was reconstructed, not logged)",
    "not_full": "the logged commit is not a full 40-hex commit",
}
LOGGED_GAPS: dict[str, str] = {
    "dirty": "uncommitted changes (+dirty)",
    "other_commit": "another commit than the record",
    "several_commits": "more than one commit",
}


@dataclass(frozen=True)
class RequirementView:
    key: str
    """Stable key, e.g. 'checksums', 'predictions', 'recipe'."""
    label: str
    """'File checksums match the recorded files', ..."""
    state: RequirementState
    """'met', 'unmet' or 'not_applicable', as derive decided it."""
    state_label: str
    """'met', 'not yet verified', 'not applicable' or 'not checked'."""
    reason: str
    """Why, from the record's content or the builder's own check (inline markdown)."""
    code: str
    """The function that decided the state ('rewire_site.derive.readiness._checksums'),
    carried beside the label."""

    @property
    def text(self) -> str:
        """'File checksums match the recorded files: not yet verified'."""
        return f"{self.label}: {self.state_label}"


@dataclass(frozen=True)
class CheckView:
    key: str
    """'replay_metrics', 'investigate_discrepancies', 'run_locally' or
    'validate_independently'."""
    name: str
    """'Replay metrics', ..."""
    description: str
    """What the check asks of the evidence."""
    state: RequirementState
    """'met', 'unmet' or 'not_applicable', as derive decided it."""
    status_label: str
    """'Evidence complete', 'Evidence incomplete' or 'Not applicable'."""
    verified_label: str
    """'Verified' or 'Not verified'."""
    requirements: tuple[RequirementView, ...]
    """The check's requirements, the shared ones first."""
    unresolved: tuple[RequirementView, ...]
    """The requirements not met (not applicable ones aside)."""


@dataclass(frozen=True)
class ReadinessView:
    checks: tuple[CheckView, ...]
    """The four checks, in page order."""
    artifacts: tuple[ArtifactStatus, ...]
    """Each recorded artifact file with the SHA-256 the builder computed."""
    verified: bool
    """Every check met."""
    summary: str
    """'0 of 4 readiness checks met.'"""
    artifact_note: str
    """NO_MANIFEST, or what the builder found when it hashed the files."""


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _checksums_reason(found: Checksums) -> str:
    if not found.statuses:
        return "No artifact files are recorded."
    bad = [s for s in found.statuses if s.state != "match"]
    if not bad:
        return (
            f"Checked by the builder: it hashed {plural(len(found.statuses), 'file')}; each "
            "matches its recorded SHA-256."
        )
    return (
        "; ".join(
            f"{s.path}: not found by the builder"
            if s.state == "not_hashed"
            else f"{s.path}: file hashes to {s.computed_sha256}, recorded {s.recorded_sha256}"
            for s in bad
        )
        + "."
    )


def _problem_text(problem: ScoreProblem, name: str) -> str:
    if problem.kind == "no_unit":
        return f"{name}: no unit is stated"
    if problem.kind == "unit":
        return f"{name}: unit '{problem.found}' is not '{problem.expected}'"
    if problem.kind == "no_direction":
        return f"{name}: the source does not state which way is better"
    return f"{name}: direction '{problem.found}' is not '{problem.expected}'"


def _meaning_reason(found: ScoreMeaning, protocol: Protocol) -> str:
    if not found.compared:
        problems = ["the protocol does not define how the metric is computed"] * (
            found.undefined_metric
        )
        problems += [_problem_text(p, result_header(protocol, p.column)) for p in found.problems]
        return _sentence("; ".join(problems))
    return (
        f"Not checked: the builder only compared strings (every result states unit "
        f"{per_column(list(found.units))} and direction {per_column(list(found.directions))}, "
        f"as {'its column' if found.own_metric else 'the protocol'}'s metric does); "
        "nothing confirms what the score measures."
    )


def _scope_reason(key: str, found: Scope) -> str:
    resource, other = SCOPE_REASONS[key]
    what = f"{found.metric_label} is measured from the run"
    return resource.format(what=what, metric=found.metric_label) if found.resource else other


def _records(logged: LoggedRun) -> str:
    return "records" if logged.logs == 1 else "record"


def _pinning_reason(found: Pinning, protocol: Protocol) -> str:
    env, logged = found.environment, found.logged
    if found.kind == "protocol_recipe":
        return (
            f"The protocol's recipe (`{found.recipe_command}`) reproduces the protocol; this "
            "published result was not produced by it."
        )
    if found.kind == "no_recipe" or env is None:
        why = missing_text(protocol, "recipe")
        note = f" ({why.long_label}: {why.note})" if why.note else ""
        return f"No runnable recipe is linked to the protocol{note}."
    commit = env.git_commit.strip()
    recorded = f"`{env.command}`"
    tail = f", with package versions and seed {env.seed} recorded."
    if logged is None:
        if not found.gap:
            return (
                f"Produced by {recorded} at commit {commit}, as the record states (a full "
                "40-hex commit without a +dirty mark; no hashed JSON log of the run was read "
                f"to confirm it){tail}"
            )
        return (
            f"Not pinned: {GAPS[found.gap]} (git commit {commit!r}), so the code that ran "
            "cannot be recovered exactly."
        )
    logs = plural(logged.logs, "hashed log")
    if not found.gap:
        return (
            f"Produced by {recorded} at commit {commit}, as its {logs} {_records(logged)} "
            f"(no uncommitted changes logged){tail}"
        )
    return (
        f"Not pinned: its {logs} {_records(logged)} commit {', '.join(logged.commits)}, "
        f"that is {LOGGED_GAPS[found.gap]}; the record states commit {commit}. The code that "
        "ran cannot be recovered exactly from the logs."
    )


def _measured_compute(env: Environment, logged: LoggedRun | None) -> str:
    """The run's hardware and wall time as the record states them and, where its hashed
    logs say otherwise, as the logs do."""
    seconds = (env.ended_at - env.started_at).total_seconds()
    text = (
        f"Computed from the run's start and end as the record states them: {env.gpu_count} "
        f"× {env.gpu} for {display_duration(seconds)}."
    )
    if logged is None:
        return text
    span = logged.seconds
    if span is not None and abs(span - seconds) >= 1 and logged.started_at and logged.ended_at:
        text += (
            f" Its {plural(logged.logs, 'hashed log')} span {display_duration(span)} (from "
            f"{logged.started_at:%Y-%m-%d %H:%M:%S} to {logged.ended_at:%H:%M:%S} UTC)."
        )
    if logged.gpus and env.gpu not in logged.gpus:
        text += f" Its logs record the GPU as {', '.join(logged.gpus)}."
    return text


def _compute_reason(found: Compute) -> str:
    if found.environment is not None:
        return _measured_compute(found.environment, found.logged)
    hand = (
        " The recipe's own estimate "
        f"({display_duration(found.estimated_minutes * 60)}) is written by "
        "hand, not measured, so it does not count."
        if found.estimated_minutes is not None
        else ""
    )
    return "No measured run of this evaluation records its wall time and hardware." + hand


VALUE_STATUS = {"incomplete": "an incomplete run", "out_of_memory": "out of memory"}


def _values_reason(found: Values, protocol: Protocol) -> str:
    if not found.results:
        return (
            "The evaluation records claims only (N of M, relative gains, 'up to'), no "
            "result value, so there is nothing to replay."
        )
    if found.missing:
        missing = [
            f"{result_header(protocol, m.column)} is "
            f"{VALUE_STATUS.get(m.status or '', 'without a value')}"
            for m in found.missing
        ]
        return (
            _sentence("; ".join(missing)) + " No metric value is claimed, so there is "
            "nothing to replay."
        )
    return f"Checked by the builder: each of {plural(found.results, 'result')} holds a value."


def requirement_reason(requirement: Requirement, protocol: Protocol) -> str:
    """Why `requirement` is in its state, as the page says it."""
    detail = requirement.detail
    if isinstance(detail, Checksums):
        return _checksums_reason(detail)
    if isinstance(detail, Values):
        return _values_reason(detail, protocol)
    if isinstance(detail, ScoreMeaning):
        return _meaning_reason(detail, protocol)
    if isinstance(detail, Scope):
        return _scope_reason(requirement.key, detail)
    if isinstance(detail, Pinning):
        return _pinning_reason(detail, protocol)
    return _compute_reason(detail)


def requirement_view(requirement: Requirement, protocol: Protocol) -> RequirementView:
    detail = requirement.detail
    unchecked = isinstance(detail, ScoreMeaning) and detail.compared
    return RequirementView(
        requirement.key,
        LABELS[requirement.key],
        requirement.state,
        "not checked" if unchecked else STATE_LABELS[requirement.state],
        requirement_reason(requirement, protocol),
        requirement.code,
    )


def readiness_view(ready: Readiness, protocol: Protocol) -> ReadinessView:
    """The readiness section of an evaluation page, from its facts; `protocol` is the
    evaluation's (its result headers and missing-recipe reason)."""
    # A requirement several checks share (the replay ones: checksums, score meaning...)
    # is one fact with one key: its words are made once.
    shared = {r.key: r for check in ready.checks for r in check.requirements}
    words = {key: requirement_view(r, protocol) for key, r in shared.items()}
    checks = tuple(
        CheckView(
            check.key,
            *CHECKS[check.key],
            check.state,
            CHECK_STATUS_LABELS[check.state],
            "Verified" if check.met else "Not verified",
            tuple(words[r.key] for r in check.requirements),
            tuple(words[r.key] for r in check.requirements if words[r.key].state == "unmet"),
        )
        for check in ready.checks
    )
    if not ready.artifacts:
        note = NO_MANIFEST
    else:
        note = (
            f"{ready.matching} of {plural(len(ready.artifacts), 'artifact file')} match their "
            "recorded SHA-256, hashed by the builder."
        )
    return ReadinessView(
        checks=checks,
        artifacts=ready.artifacts,
        verified=ready.verified,
        summary=f"{ready.met_count} of {ready.total} readiness checks met.",
        artifact_note=note,
    )
