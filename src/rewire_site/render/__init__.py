"""The render stage: page contexts in, HTML out.

- `environment`: the one Jinja2 environment (autoescape, StrictUndefined, filters);
- `pool`: page jobs rendered by a pool of forked workers and written through the
  build's one writer (`write.OutputWriter`).
"""

from __future__ import annotations

from .environment import (
    FragmentCache,
    Renderer,
    fast_escape,
    make_environment,
    templates_dir,
)
from .pool import DataFile, Job, MakePages, RenderStats, render_jobs

__all__ = [
    "DataFile",
    "FragmentCache",
    "Job",
    "MakePages",
    "RenderStats",
    "Renderer",
    "fast_escape",
    "make_environment",
    "render_jobs",
    "templates_dir",
]
