"""Artifact files that no record cites.

Every file under `artifacts/` should be a recorded artifact of some record (its raw log,
with a SHA-256); a file nothing cites is an orphan: a log of a run whose record was never
written, or one left behind when a record moved. Validation reports them (`orphan_artifacts`
is pure: the caller lists the files).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..link import Catalogue
from ..models import Evaluation, Source

ARTIFACTS_DIR = "artifacts"


def cited_artifacts(catalogue: Catalogue) -> frozenset[str]:
    """Paths (relative to the repository root, '/'-separated) that records cite."""
    return frozenset(
        a.path.replace("\\", "/").removeprefix("./")
        for e in catalogue.of_kind(Evaluation)
        for a in e.artifacts
    )


IMPORTER_MANIFEST = "manifest.json"
"""`rewire import` writes `artifacts/sources/<prefix>/manifest.json` beside the records it
wrote: bookkeeping of the importer, not an artifact a record must cite."""


def _belongs(path: str, cited: frozenset[str], sources: frozenset[str]) -> bool:
    if path in cited:
        return True
    parts = path.split("/")
    if len(parts) >= 4 and parts[1] == "sources":
        # artifacts/sources/<source id>/...: the source record's own files;
        # artifacts/sources/<prefix>/manifest.json: an importer's manifest.
        return parts[2] in sources or (len(parts) == 4 and parts[3] == IMPORTER_MANIFEST)
    return False


def orphan_artifacts(catalogue: Catalogue, files: Iterable[str]) -> tuple[str, ...]:
    """Files under `artifacts/` (paths relative to the repository root) that no record
    cites, sorted. Hidden files (a '.gitkeep', say) are not artifacts; files in a source
    record's own folder (`artifacts/sources/<source id>/`) belong to it."""
    cited = cited_artifacts(catalogue)
    sources = frozenset(s.id for s in catalogue.of_kind(Source))
    return tuple(
        sorted(
            f
            for f in (p.replace("\\", "/").removeprefix("./") for p in files)
            if f.startswith(f"{ARTIFACTS_DIR}/")
            and not f.rsplit("/", 1)[-1].startswith(".")
            and not _belongs(f, cited, sources)
        )
    )
