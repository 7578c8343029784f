"""The rich console every `rewire measure` command prints to."""

from __future__ import annotations

from rich.console import Console

PIPE_WIDTH = 200


def wide_console() -> Console:
    """A console that keeps table rows on one line when output goes to a file or pipe."""
    probe = Console()
    return probe if probe.is_terminal else Console(width=PIPE_WIDTH)
