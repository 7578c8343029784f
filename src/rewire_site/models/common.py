"""Types shared by every record kind: ids, hashes, citations, reviews, missing metadata.

Every field carries a description: they become the JSON Schemas that editors' YAML
extensions use for completion and hover text.
"""

from __future__ import annotations

import math
from datetime import date, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
SHA256_PATTERN = r"^[0-9a-f]{64}$"

Slug = Annotated[
    str,
    StringConstraints(pattern=SLUG_PATTERN, max_length=200),
    Field(description="A lowercase slug: letters a-z, digits and single hyphens."),
]
Sha256 = Annotated[
    str,
    StringConstraints(pattern=SHA256_PATTERN),
    Field(description="SHA-256 digest as 64 lowercase hexadecimal digits."),
]
Text = Annotated[str, StringConstraints(min_length=1, strip_whitespace=True)]


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("number must be finite (not NaN or infinity)")
    return value


FiniteFloat = Annotated[float, AfterValidator(_finite)]

REPORTABLE = "reportable"
"""Marker in a field's json_schema_extra: when the value is null, `missing_metadata`
must give a reason for it (see `rewire_site.completeness`)."""


def reportable(description: str, **kwargs: Any) -> Any:
    """A field that may be null only when `missing_metadata` says why."""
    return Field(
        default=None, description=description, json_schema_extra={REPORTABLE: True}, **kwargs
    )


class Strict(BaseModel):
    """Base for every schema object: unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class MissingReason(StrEnum):
    unreported = "unreported"
    inapplicable = "inapplicable"
    withheld = "withheld"
    unknown = "unknown"


class Missing(Strict):
    reason: MissingReason = Field(
        description="Why the field has no value: unreported (the source does not say), "
        "inapplicable (the field does not apply), withheld (known but not published), "
        "unknown (not yet established by Rewire)."
    )
    note: Text | None = Field(default=None, description="What the source says instead, or why.")


class CitationRole(StrEnum):
    original = "original"
    context_only = "context_only"


class Citation(Strict):
    source: Slug = Field(description="Id of the source record cited.")
    locator: Text = Field(description="Where in the source: section, table, figure, page.")
    quote: Text | None = Field(
        default=None, description="Verbatim text of the source where it printed a value."
    )
    role: CitationRole = Field(
        default=CitationRole.original,
        description="original: the source states this; context_only: it supports the record "
        "generally without verifying an individual field.",
    )
    supports: list[Text] = Field(
        default_factory=list,
        description="Field paths of this record that the citation supports, e.g. "
        "'comparison.adaptation' or 'results.0'. Empty: the record as a whole.",
    )


class ReviewStatus(StrEnum):
    unreviewed = "unreviewed"
    source_checked = "source_checked"
    disputed = "disputed"


class Review(Strict):
    status: ReviewStatus = Field(description="Outcome of the review for the record as a whole.")
    reviewer: Text | None = reportable(
        "Who reviewed (a person or a named agent). Null only where a source shows a review "
        "status without its reviewer; `missing_metadata` then says why."
    )
    reviewer_note: Text | None = Field(
        default=None, description="Who the reviewer is and what kind of review it was."
    )
    reviewed_at: datetime | None = reportable(
        "When the review was made (ISO 8601, UTC); null only with a `missing_metadata` reason."
    )
    artifact_sha256: Sha256 | None = Field(
        default=None, description="SHA-256 of the source artifact the reviewer inspected."
    )
    retrieval_url: Text | None = Field(
        default=None, description="Where the reviewed artifact was retrieved from."
    )
    methods: list[Text] = Field(
        default_factory=list,
        description="Review methods, e.g. source-hash-verification, pdf-text-parse.",
    )
    method_note: Text | None = Field(default=None, description="What the methods checked.")
    note: Text | None = Field(default=None, description="Findings of the review.")


Area = Annotated[str, StringConstraints(pattern=SLUG_PATTERN), Field(description="Area slug.")]
Context = Annotated[
    str, StringConstraints(pattern=SLUG_PATTERN), Field(description="Context slug.")
]


class RecordBase(Strict):
    """Fields common to every record kind."""

    id: Slug = Field(description="Stable id; equals the file name without '.yaml'.")
    title: Text = Field(description="Human-readable title shown as the page heading.")
    summary: Text = Field(description="One or two sentences; Markdown without raw HTML.")
    areas: list[Area] = Field(default_factory=list, description="Subject areas, e.g. dna-genomes.")
    contexts: list[Context] = Field(
        default_factory=list, description="Use contexts, e.g. research, clinical."
    )
    citations: list[Citation] = Field(
        default_factory=list, description="Sources that support this record's statements."
    )
    missing_metadata: dict[str, Missing] = Field(
        default_factory=dict,
        description="Field path (dotted, list items by index) -> why the field has no value.",
    )
    review: Review | None = Field(default=None, description="Latest review of the record.")
    limitations: list[Text] = Field(
        default_factory=list, description="Caveats a reader must know; Markdown."
    )
    added: date | None = Field(
        default=None, description="Date the record was added to the catalogue."
    )


Direction = Literal["lower", "higher"]
