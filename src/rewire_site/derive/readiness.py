"""Readiness checks: four per evaluation, each a list of requirements computed from the
record's content and from what the builder itself checked.

A requirement is met only when code checked it: "File checksums match the recorded files"
is met only when the builder hashed every artifact file and each hash matched (the caller
passes those hashes: `release.hash_artifacts`). Requirements about per-sample predictions
are not applicable to memory and run-time measurements (they have no per-sample
predictions) and otherwise unmet, because no record carries predictions the code checks.
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
from .display import display_duration, missing_text, per_column, plural, result_header
from .logs import DIRTY_MARK, LogFacts, LoggedRun, logged_run
from .scales import is_resource_metric

RequirementState = Literal["met", "unmet", "not_applicable"]
ArtifactState = Literal["match", "mismatch", "not_hashed"]

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
READINESS_NOTE = (
    "These checks assess whether the evidence supports a reproducible investigation; "
    "a source-checked score alone does not meet them."
)
NO_MANIFEST = "No verified artifact manifest is linked to this exact record."

CHECKS: tuple[tuple[str, str, str], ...] = (
    ("replay_metrics", "Replay metrics",
     "Exact outcomes, predictions, identifiers and evaluator are connected."),
    ("investigate_discrepancies", "Investigate discrepancies",
     "Replay evidence includes annotations and an assessment of dependence. Unknown "
     "independence permits descriptive analysis only."),
    ("run_locally", "Run locally",
     "A pinned recipe describes the inputs, environment and resource requirements."),
    ("validate_independently", "Validate independently",
     "Separate data and exposure records support an independent test."),
)  # fmt: skip
"""(key, name, description) of the four checks, in page order."""


@dataclass(frozen=True)
class Requirement:
    key: str
    """Stable key, e.g. 'checksums', 'predictions', 'recipe'."""
    label: str
    """'File checksums match the recorded files', ..."""
    state: RequirementState
    state_label: str
    """'met', 'not yet verified' or 'not applicable'."""
    reason: str
    """Why, from the record's content or the builder's own check."""
    code: str = ""
    """The function that set the state ('rewire_site.derive.readiness._checksums'):
    pages carry it beside the label (tests/test_pages.py resolves it)."""

    @property
    def text(self) -> str:
        """'File checksums match the recorded files: not yet verified'."""
        return f"{self.label}: {self.state_label}"


@dataclass(frozen=True)
class Check:
    key: str
    name: str
    description: str
    state: RequirementState
    """met: every requirement met or not applicable; not_applicable: every requirement
    of this check's own (beyond the shared replay ones) is not applicable; else unmet."""
    status_label: str
    """'Evidence complete', 'Evidence incomplete' or 'Not applicable'."""
    verified_label: str
    """'Verified' or 'Not verified'."""
    requirements: tuple[Requirement, ...]

    @property
    def met(self) -> bool:
        return self.state == "met"

    @property
    def unresolved(self) -> tuple[Requirement, ...]:
        return tuple(r for r in self.requirements if r.state == "unmet")


@dataclass(frozen=True)
class ArtifactStatus:
    path: str
    description: str
    recorded_sha256: str
    computed_sha256: str | None
    """What the builder computed; None when it found no file to hash."""
    state: ArtifactState


@dataclass(frozen=True)
class Readiness:
    evaluation_id: str
    checks: tuple[Check, ...]
    met_count: int
    total: int
    summary: str
    """'0 of 4 readiness checks met.'"""
    artifacts: tuple[ArtifactStatus, ...]
    artifact_note: str
    """'No verified artifact manifest is linked to this exact record.' or what the
    builder found when it hashed the files."""

    @property
    def verified(self) -> bool:
        return self.met_count == self.total


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _req(
    key: str, label: str, state: RequirementState, reason: str, state_label: str = ""
) -> Requirement:
    return Requirement(
        key, label, state, state_label or STATE_LABELS[state], reason, REQUIREMENT_CODE[key]
    )


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
    label = "File checksums match the recorded files"
    if not statuses:
        return _req("checksums", label, "unmet", "No artifact files are recorded.")
    bad = [s for s in statuses if s.state != "match"]
    if not bad:
        return _req(
            "checksums", label, "met",
            f"Checked by the builder: it hashed {plural(len(statuses), 'file')}; each "
            "matches its recorded SHA-256.",
        )  # fmt: skip
    parts = [
        f"{s.path}: not found by the builder"
        if s.state == "not_hashed"
        else f"{s.path}: file hashes to {s.computed_sha256}, recorded {s.recorded_sha256}"
        for s in bad
    ]
    return _req("checksums", label, "unmet", "; ".join(parts) + ".")


def _score_meaning(evaluation: Evaluation, protocol: Protocol) -> Requirement:
    """Code compares each result's unit and direction strings with its column's metric
    (the column's own, else the protocol's); it cannot confirm what a score means, so this
    requirement is never met by that comparison. The reason says what the comparison
    found."""
    label = "Score meaning and direction are confirmed"
    problems = []
    if protocol.metric_definition is None:
        problems.append("the protocol does not define how the metric is computed")
    metrics = [protocol.column_metric(r.column) for r in evaluation.results]
    names = [result_header(protocol, r.column) for r in evaluation.results]
    for i, (result, metric) in enumerate(zip(evaluation.results, metrics, strict=True)):
        if result.unit is None:
            problems.append(f"{names[i]}: no unit is stated")
        elif result.unit.strip().lower() != metric.unit.strip().lower():
            problems.append(f"{names[i]}: unit '{result.unit}' is not '{metric.unit}'")
        if result.direction is None:
            problems.append(f"{names[i]}: the source does not state which way is better")
        elif result.direction != metric.direction:
            problems.append(
                f"{names[i]}: direction '{result.direction}' is not '{metric.direction}'"
            )
    if problems:
        return _req("score_meaning", label, "unmet", _sentence("; ".join(problems)))
    own = any(m is not protocol.metric for m in metrics)
    unit = per_column([m.unit for m in metrics] or [protocol.metric.unit])
    direction = per_column([m.direction for m in metrics] or [protocol.metric.direction])
    return _req(
        "score_meaning", label, "unmet",
        f"Not checked: the builder only compared strings (every result states unit "
        f"{unit} and direction {direction}, as "
        f"{'its column' if own else 'the protocol'}'s metric does); "
        "nothing confirms what the score measures.",
        "not checked",
    )  # fmt: skip


@cache
def _per_sample(resource: bool, metric_label: str) -> tuple[Requirement, ...]:
    what = f"{metric_label} is measured from the run"
    if resource:
        na: RequirementState = "not_applicable"
        return (
            _req("predictions", "Predictions are matched to the right samples", na,
                 f"{what}; it has no per-sample predictions."),
            _req("recomputed", "Metrics are recomputed from the saved predictions", na,
                 f"{what}, not computed from predictions."),
        )  # fmt: skip
    return (
        _req("predictions", "Predictions are matched to the right samples", "unmet",
             "No per-sample predictions with sample identifiers are linked for the builder "
             "to check."),
        _req("recomputed", "Metrics are recomputed from the saved predictions", "unmet",
             "Rewire does not yet recompute metrics from saved predictions."),
    )  # fmt: skip


@cache
def _investigate(resource: bool) -> tuple[Requirement, ...]:
    if resource:
        why = "No samples are scored, so there is nothing to annotate or assess for dependence."
        return (
            _req("annotations", "Sample annotations are recorded", "not_applicable", why),
            _req("dependence", "Dependence between samples is assessed", "not_applicable", why),
        )
    return (
        _req("annotations", "Sample annotations are recorded", "unmet",
             "No sample annotations are recorded."),
        _req("dependence", "Dependence between samples is assessed", "unmet",
             "No assessment of dependence between samples is recorded."),
    )  # fmt: skip


def _pinned_text(env: Environment, logged: LoggedRun | None) -> tuple[bool, str]:
    """(met, text) of 'a pinned run recipe exists' for a Rewire measurement: the commit
    is read from its hashed logs where there are any, and where the record states another
    commit (or the logs mark uncommitted changes) both are said."""
    commit = env.git_commit.strip()
    recorded = f"`{env.command}`"
    tail = f", with package versions and seed {env.seed} recorded."
    if logged is None:
        if PINNED_COMMIT.match(commit):
            return True, (
                f"Produced by {recorded} at commit {commit}, as the record states (a full "
                "40-hex commit without a +dirty mark; no hashed JSON log of the run was read "
                f"to confirm it){tail}"
            )
        first = commit.split()[0] if commit.split() else ""
        if DIRTY_MARK in commit or "dirty" in commit:
            gap = "the run logged uncommitted changes (+dirty)"
        elif PINNED_COMMIT.match(first):
            gap = "the record qualifies the commit (it was reconstructed, not logged)"
        else:
            gap = "the logged commit is not a full 40-hex commit"
        return False, (
            f"Not pinned: {gap} (git commit {commit!r}), so the code that ran cannot be "
            "recovered exactly."
        )
    logs = plural(logged.logs, "hashed log")
    commits = ", ".join(logged.commits)
    if logged.commits == (commit,) and PINNED_COMMIT.match(commit):
        return True, (
            f"Produced by {recorded} at commit {commit}, as its {logs} "
            f"{'records' if logged.logs == 1 else 'record'} (no uncommitted changes logged)"
            f"{tail}"
        )
    what = (
        "uncommitted changes (+dirty)"
        if logged.dirty
        else "another commit than the record"
        if commit not in logged.commits
        else "more than one commit"
    )
    return False, (
        f"Not pinned: its {logs} {'records' if logged.logs == 1 else 'record'} commit "
        f"{commits}, that is {what}; the record states commit {commit}. The code that ran "
        "cannot be recovered exactly from the logs."
    )


def _run_locally(
    evaluation: Evaluation, protocol: Protocol, logged: LoggedRun | None = None
) -> tuple[Requirement, ...]:
    env = evaluation.environment
    recipe = protocol.recipe
    label = "A pinned run recipe exists"
    if evaluation.origin == Origin.rewire_measurement and env is not None:
        met, text = _pinned_text(env, logged)
        pinned = _req("recipe", label, "met" if met else "unmet", text)
    elif recipe is not None:
        pinned = _req(
            "recipe", label, "unmet",
            f"The protocol's recipe (`{recipe.command}`) reproduces the protocol; this "
            "published result was not produced by it.",
        )  # fmt: skip
    else:
        why = missing_text(protocol, "recipe")
        note = f" ({why.long_label}: {why.note})" if why.note else ""
        pinned = _req(
            "recipe", label, "unmet", f"No runnable recipe is linked to the protocol{note}."
        )
    label = "Compute requirements are known"
    if env is not None:
        compute = _req("compute", label, "met", _compute_text(env, logged))
    else:
        hand = (
            " The recipe's own estimate "
            f"({display_duration(recipe.estimated_minutes * 60)}) is written by "
            "hand, not measured, so it does not count."
            if recipe is not None and recipe.estimated_minutes is not None
            else ""
        )
        compute = _req(
            "compute", label, "unmet",
            "No measured run of this evaluation records its wall time and hardware." + hand,
        )  # fmt: skip
    return pinned, compute


def _compute_text(env: Environment, logged: LoggedRun | None) -> str:
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


@cache
def _validate(resource: bool, metric_label: str) -> tuple[Requirement, ...]:
    if resource:
        why = (
            f"{metric_label} does not score held-out samples; an independent run is a reproduction."
        )
        return (
            _req("validation_data", "Independent validation data exist", "not_applicable", why),
            _req("overlap", "Overlap with training data is checked", "not_applicable", why),
        )
    return (
        _req("validation_data", "Independent validation data exist", "unmet",
             "No exposure records show which data the model was trained on."),
        _req("overlap", "Overlap with training data is checked", "unmet",
             "Overlap between the dataset and the model's training data is not checked."),
    )  # fmt: skip


def _values(evaluation: Evaluation, protocol: Protocol) -> Requirement:
    """A run that claims no value has no metric to replay."""
    label = "The evaluation claims a value for every result"
    what = {"incomplete": "an incomplete run", "out_of_memory": "out of memory"}
    missing = [
        f"{result_header(protocol, r.column)} is {what.get(r.status, 'without a value')}"
        for r in evaluation.results
        if r.value is None
    ]
    if not evaluation.results:
        return _req(
            "values", label, "unmet",
            "The evaluation records claims only (N of M, relative gains, 'up to'), no "
            "result value, so there is nothing to replay.",
        )  # fmt: skip
    if missing:
        return _req(
            "values", label, "unmet",
            _sentence("; ".join(missing)) + " No metric value is claimed, so there is "
            "nothing to replay.",
        )  # fmt: skip
    return _req(
        "values", label, "met",
        f"Checked by the builder: each of {plural(len(evaluation.results), 'result')} holds "
        "a value.",
    )  # fmt: skip


PINNED_COMMIT = re.compile(r"^[0-9a-f]{40}$")


def _check(index: int, shared: tuple[Requirement, ...], own: tuple[Requirement, ...]) -> Check:
    key, name, description = CHECKS[index]
    requirements = shared + own
    state: RequirementState
    if any(r.state == "unmet" for r in requirements):
        state = "unmet"
    elif all(r.state == "not_applicable" for r in own):
        state = "not_applicable"
    else:
        state = "met"
    return Check(
        key, name, description, state, CHECK_STATUS_LABELS[state],
        "Verified" if state == "met" else "Not verified", requirements,
    )  # fmt: skip


def readiness(
    evaluation: Evaluation,
    catalogue: Catalogue,
    artifact_hashes: Mapping[str, str | None],
    artifact_logs: Mapping[str, LogFacts] | None = None,
) -> Readiness:
    """The four readiness checks of `evaluation`. `artifact_hashes` maps an artifact path
    (relative to the repository root, as recorded) to the SHA-256 the builder computed
    from the file, or None when it found no file; `artifact_logs` maps a SHA-256 to what
    that raw log records (the commit, dirty mark, times and GPU a page states are read
    from there)."""
    protocol = catalogue.get(evaluation.protocol, Protocol)
    resource = is_resource_metric(protocol)
    statuses = artifact_statuses(evaluation, artifact_hashes)
    checksums = _checksums(statuses)
    predictions, recomputed = _per_sample(resource, protocol.metric.label)
    meaning = _score_meaning(evaluation, protocol)
    replay = (checksums, _values(evaluation, protocol), predictions, meaning, recomputed)
    base = (checksums, predictions, meaning)
    checks = (
        _check(0, (), replay),
        _check(1, replay, _investigate(resource)),
        _check(
            2,
            base,
            _run_locally(
                evaluation, protocol, logged_run(evaluation, artifact_hashes, artifact_logs or {})
            ),
        ),
        _check(3, base, _validate(resource, protocol.metric.label)),
    )
    met = sum(c.met for c in checks)
    if not statuses:
        note = NO_MANIFEST
    else:
        matching = sum(s.state == "match" for s in statuses)
        note = (
            f"{matching} of {plural(len(statuses), 'artifact file')} match their recorded "
            "SHA-256, hashed by the builder."
        )
    return Readiness(
        evaluation_id=evaluation.id,
        checks=checks,
        met_count=met,
        total=len(checks),
        summary=f"{met} of {len(checks)} readiness checks met.",
        artifacts=statuses,
        artifact_note=note,
    )
