"""Incremental preview builds for `rewire serve`: recorded dependencies (`track`),
incremental gather (`gather`) and derive (`derive`), the writes of a rebuild
(`output`) and the engine that ties them (`engine.IncrementalSite`)."""

from .engine import IncrementalSite, Outcome

__all__ = ["IncrementalSite", "Outcome"]
