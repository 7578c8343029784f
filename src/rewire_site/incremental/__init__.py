"""Incremental preview builds for `rewire serve`: recorded dependencies (`track`),
incremental gather (`gather`) and derive (`derive`), per-item pieces of the site-wide
files (`memo`), the writes of a rebuild (`output`), the forked child that makes part of
an update's jobs (`parallel`) and the engine that ties them (`engine.IncrementalSite`)."""

from .engine import IncrementalSite, Outcome

__all__ = ["IncrementalSite", "Outcome"]
