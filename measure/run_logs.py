"""The worker logs of a run as runners and record writers read them: a log's status, and
the logs whose item finished. Light (JSON only) so that a runner can plan without the
record writer's imports."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

FINISHED = ("value", "out_of_memory")
"""The statuses of a worker log whose item finished: a value, or out of memory."""


def read_log(path: Path) -> dict[str, Any] | None:
    """The worker log in `path`, or None where there is no readable one (not run yet, or
    cut off while written)."""
    try:
        log = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return log if isinstance(log, dict) else None


def read_status(path: Path) -> str | None:
    """The status in a worker log, or None when there is no readable log."""
    log = read_log(path)
    status = None if log is None else log.get("status")
    return None if status is None else str(status)


def finished_logs(paths: Iterable[Path]) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each readable worker log of `paths` whose item finished (`FINISHED`), with its path;
    a missing or unreadable file is passed over (its item has not run)."""
    for path in paths:
        log = read_log(path)
        if log is not None and log.get("status") in FINISHED:
            yield path, log


__all__ = ["FINISHED", "finished_logs", "read_log", "read_status"]
