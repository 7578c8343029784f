"""The render stage: page contexts in, HTML out.

- `environment`: the one Jinja2 environment (autoescape, StrictUndefined, filters);
- `pool`: page jobs rendered and written by a pool of forked workers.
"""

from __future__ import annotations

from .environment import (
    FragmentCache,
    Renderer,
    fast_escape,
    make_environment,
    templates_dir,
)
from .pool import DataFile, Job, MakePages, RenderStats, WrittenFile, render_jobs

__all__ = [
    "DataFile",
    "FragmentCache",
    "Job",
    "MakePages",
    "RenderStats",
    "Renderer",
    "WrittenFile",
    "fast_escape",
    "make_environment",
    "render_jobs",
    "templates_dir",
]
