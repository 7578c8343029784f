"""Provenance read from a measurement's hashed raw logs (issue 23 item 6).

What a page says about the commit that ran, uncommitted changes, the run's time span and
its hardware comes from the JSON logs a measurement records as artifacts, read only where
the builder's own SHA-256 of the file equals the recorded one (so the facts are those of
the file the record names). Where the record states something else (a commit it says was
the real one, its own start and end), both are kept, and the page shows both.

`parse_log` is pure (text in, facts out); the builder reads the files
(`release.read_logs`) and keys the facts by SHA-256, so a page that reads them depends
only on the artifact hashes it already reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from ..models import Evaluation

DIRTY_MARK = "+dirty"


@dataclass(frozen=True)
class LogFacts:
    """What one raw log records about its run."""

    commit: str
    """The git commit as logged, with its '+dirty' mark if any."""
    started_at: datetime | None
    ended_at: datetime | None
    gpu: str
    gpu_count: int | None


def _time(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def parse_log(text: str) -> LogFacts | None:
    """The facts of a measurement's JSON log (`environment.git_commit`, the run's
    `started_at` and `ended_at`, `environment.gpu` and `gpu_count`); None for a file
    that is not such a log."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("environment"), dict):
        return None
    env = data["environment"]
    commit = env.get("git_commit")
    if not isinstance(commit, str):
        return None
    count = env.get("gpu_count")
    return LogFacts(
        commit=commit.strip(),
        started_at=_time(data.get("started_at", env.get("started_at"))),
        ended_at=_time(data.get("ended_at", env.get("ended_at"))),
        gpu=str(env.get("gpu") or ""),
        gpu_count=count if isinstance(count, int) else None,
    )


@dataclass(frozen=True)
class LoggedRun:
    """What a measurement's hashed logs together record."""

    logs: int
    """Logs read (artifacts whose file hashes to the recorded SHA-256 and parses)."""
    commits: tuple[str, ...]
    """Distinct commits as logged, sorted."""
    started_at: datetime | None
    """The earliest start any log records."""
    ended_at: datetime | None
    """The latest end any log records."""
    gpus: tuple[str, ...]
    """Distinct GPU names as logged, sorted."""

    @property
    def dirty(self) -> bool:
        """True when any log marks its commit '+dirty' (uncommitted changes)."""
        return any(DIRTY_MARK in c for c in self.commits)

    @property
    def seconds(self) -> float | None:
        """The span from the earliest start to the latest end, if both are logged."""
        if self.started_at is None or self.ended_at is None:
            return None
        return (self.ended_at - self.started_at).total_seconds()


def logged_run(
    evaluation: Evaluation,
    artifact_hashes: Mapping[str, str | None],
    artifact_logs: Mapping[str, LogFacts],
) -> LoggedRun | None:
    """The logs of `evaluation` whose file hashes to the SHA-256 its record gives, taken
    together; None when no such log was read."""
    found = [
        artifact_logs[computed]
        for artifact in evaluation.artifacts
        if (computed := artifact_hashes.get(artifact.path)) is not None
        and computed == artifact.sha256
        and computed in artifact_logs
    ]
    if not found:
        return None
    starts = [f.started_at for f in found if f.started_at is not None]
    ends = [f.ended_at for f in found if f.ended_at is not None]
    return LoggedRun(
        logs=len(found),
        commits=tuple(sorted({f.commit for f in found})),
        started_at=min(starts) if starts else None,
        ended_at=max(ends) if ends else None,
        gpus=tuple(sorted({f.gpu for f in found if f.gpu})),
    )


__all__ = ["DIRTY_MARK", "LogFacts", "LoggedRun", "logged_run", "parse_log"]
