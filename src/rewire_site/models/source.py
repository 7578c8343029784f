"""Source: a publication or artifact that records cite."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from .common import RecordBase, Sha256, Text, reportable


class Source(RecordBase):
    kind: Literal["source"] = Field(description="Record kind.")
    short_citation: Text = Field(description="Short form, e.g. 'Saadat and Fellay 2026'.")
    venue: Text = Field(description="Where it appeared, e.g. 'ICLR 2026 workshop'.")
    authors: list[Text] = Field(default_factory=list, description="Authors as printed.")
    affiliations: list[Text] = Field(default_factory=list, description="Author affiliations.")
    published: date | None = reportable("Publication date, where the source states one.")
    version: Text = Field(description="Version string of the artifact as retrieved.")
    url: Text = Field(description="Canonical URL of the work.")
    retrieval_url: Text | None = reportable("URL the hashed artifact was retrieved from.")
    retrieved_at: datetime | None = reportable("When the artifact was retrieved (UTC).")
    sha256: Sha256 | None = reportable("SHA-256 of the retrieved artifact.")
    hash_scope: Text | None = reportable("What the SHA-256 covers, e.g. 'PDF bytes as served'.")
    independence: Text | None = reportable(
        "Whether the authors developed the models they report on, and how that was checked."
    )
