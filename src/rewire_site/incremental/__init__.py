"""Incremental preview builds for `rewire serve`: recorded dependencies (`track`),
incremental gather (`gather`), the writes of a rebuild (`output`) and the engine that
ties them (`engine.IncrementalSite`: an update remakes the edited records' pages at
once, `settle` the site-wide files once edits stop)."""

from .engine import IncrementalSite, Outcome

__all__ = ["IncrementalSite", "Outcome"]
