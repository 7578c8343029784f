"""Builders for the records every importer writes: a repository file as a source, the
shared model families, and one evaluation per cell of a result table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .core import Record, SourceFile, cite, github_urls, missing, source_id
from .tables import Cell

RETRIEVED_AT = "2026-11-30T20:00:00Z"
"""When Rewire's editor retrieved the pinned commits (git fetch of each repository). A
constant, not the time of the import: the same commit gives the same records."""

ADDED = "2026-11-30"
AREAS = ["dna-genomes"]
CONTEXTS = ["research"]


@dataclass(frozen=True)
class RepoFileSpec:
    """What an importer knows about one file beyond its bytes."""

    title: str
    summary: str
    short_citation: str
    authors: tuple[str, ...]
    maintainers: tuple[str, ...]
    published: str
    """Date of the pinned commit (YYYY-MM-DD)."""
    licence: str | None
    licence_note: str
    independence: str


def repository_file_source(
    prefix: str,
    repository: str,
    file: SourceFile,
    spec: RepoFileSpec,
    licence_file: SourceFile | None = None,
) -> Record:
    """A source record of kind repository_file: commit, real SHA-256 and size."""
    url, raw = github_urls(repository, file)
    record: Record = {
        "id": source_id(prefix, file),
        "kind": "source",
        "title": spec.title,
        "summary": spec.summary,
        "areas": AREAS,
        "contexts": CONTEXTS,
        "source_kind": "repository_file",
        "short_citation": spec.short_citation,
        "venue": f"GitHub repository {repository.removeprefix('https://github.com/')}",
        "authors": list(spec.authors),
        "maintainers": list(spec.maintainers),
        "published": spec.published,
        "version": f"{file.path} at commit {file.commit}",
        "url": url,
        "repository": repository,
        "path": file.path,
        "revision": file.commit,
        "licence": spec.licence,
        "retrieval_url": raw,
        "retrieved_at": RETRIEVED_AT,
        "sha256": file.sha256,
        "size_bytes": file.size,
        "hash_scope": "The file's bytes at the commit (git show COMMIT:PATH).",
        "independence": spec.independence,
        "added": ADDED,
    }
    if licence_file is not None and licence_file.path != file.path:
        record["citations"] = [
            cite(
                source_id(prefix, licence_file),
                f"{licence_file.path}, line 1",
                licence_file.line(1),
                supports=["licence"],
            )
        ]
    if spec.licence is None:
        record["missing_metadata"] = {"licence": missing("unreported", spec.licence_note)}
    return record


def value_result(
    column: str,
    cell: Cell,
    source: str,
    *,
    unit: str,
    scale: str | None,
) -> Record:
    """One result from one cell: the parsed number, the verbatim cell as printed value and
    quote, and the cell's locator."""
    result: Record = {
        "column": column,
        "value": cell.number(),
        "unit": unit,
        "printed_value": cell.text,
    }
    if scale is not None:
        result["scale"] = scale
    result["citation"] = cite(source, cell.locator, cell.text)
    return result


def result_missing(index: int, what: str) -> dict[str, Any]:
    return {
        f"results.{index}.uncertainty": missing(
            "unreported", f"The table gives one value per cell, no spread ({what})."
        ),
        f"results.{index}.coverage": missing(
            "unreported", "The table does not give scored and eligible counts."
        ),
    }
