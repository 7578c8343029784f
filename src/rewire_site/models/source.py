"""Source: a publication or artifact that records cite."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Literal

from pydantic import Field

from .common import PartialDate, RecordBase, Sha256, Text, Timestamp, WebUrl, reportable


class SourceKind(StrEnum):
    journal_paper = "journal_paper"
    conference_paper = "conference_paper"
    preprint = "preprint"
    repository_file = "repository_file"
    issue_thread = "issue_thread"
    discussion_thread = "discussion_thread"
    model_card = "model_card"
    configuration_file = "configuration_file"
    documentation_page = "documentation_page"
    dataset_card = "dataset_card"
    leaderboard = "leaderboard"
    mirror = "mirror"


PINNED_KINDS = frozenset(
    {
        SourceKind.repository_file,
        SourceKind.model_card,
        SourceKind.configuration_file,
        SourceKind.dataset_card,
    }
)
"""Kinds whose artifact is a file in a git repository (GitHub or a model hub): their
`revision` must be the full 40-hex commit."""

FULL_COMMIT = re.compile(r"^[0-9a-f]{40}$")
SHORT_COMMIT = re.compile(r"^[0-9a-f]{7,39}$")
MOVING_REFERENCE = re.compile(r"/(?:blob|tree|raw|resolve)/(?:main|master|HEAD|dev|develop)(?:/|$)")


class Source(RecordBase):
    kind: Literal["source"] = Field(description="Record kind.")
    source_kind: SourceKind = Field(
        description="What the artifact is: journal_paper, conference_paper, preprint, "
        "repository_file (a file of a code repository at a commit), issue_thread, "
        "discussion_thread, model_card, configuration_file (e.g. a checkpoint's "
        "config.json), documentation_page, dataset_card, leaderboard, mirror (a third "
        "party's copy of another artifact)."
    )
    short_citation: Text = Field(description="Short form, e.g. 'Saadat and Fellay 2026'.")
    venue: Text = Field(description="Where it appeared, e.g. 'ICLR 2026 workshop'.")
    authors: list[Text] = Field(default_factory=list, description="Authors as printed.")
    maintainers: list[Text] = Field(
        default_factory=list,
        description="Maintainers of a repository, model card or thread's project, where the "
        "independence of an evaluation depends on who they are.",
    )
    affiliations: list[Text] = Field(default_factory=list, description="Author affiliations.")
    published: PartialDate | None = reportable(
        "Publication date at the precision printed: YYYY, YYYY-MM or YYYY-MM-DD (a commit's "
        "date for a repository file; the opening post's date for a thread)."
    )
    version: Text = Field(description="Version string of the artifact as retrieved.")
    url: WebUrl = Field(
        description="Canonical URL of the work: https:// (or http://); a DOI (10.xxxx/...) "
        "or an arXiv id (arXiv:NNNN.NNNNN) becomes its https:// address."
    )
    repository: WebUrl | None = Field(
        default=None,
        description="For a file of a repository (GitHub, a model hub): the repository URL.",
    )
    path: Text | None = Field(
        default=None, description="For a file of a repository: its path inside the repository."
    )
    revision: Text | None = reportable(
        "What pins the artifact: the full 40-hex commit for a repository file, model card, "
        "configuration file or dataset card; a version such as 'bioRxiv v2' or a DOI for a "
        "paper. An abbreviated commit or a branch name is a warning (an error under --strict)."
    )
    licence: Text | None = reportable(
        "Licence of the artifact as stated (e.g. 'MIT', 'CC BY 4.0'); when none is stated, "
        "null with reason unreported."
    )
    retrieval_url: WebUrl | None = reportable(
        "URL the hashed artifact was retrieved from (https:// or http://)."
    )
    retrieved_at: Timestamp | None = reportable(
        "When the artifact was retrieved, with its time zone (e.g. 2026-11-30T20:00:00Z)."
    )
    sha256: Sha256 | None = reportable(
        "SHA-256 of the retrieved artifact's bytes; when it cannot be hashed (a web thread), "
        "null with a reason that says why."
    )
    size_bytes: int | None = Field(
        default=None, ge=0, description="Size of the hashed artifact in bytes."
    )
    hash_scope: Text | None = reportable("What the SHA-256 covers, e.g. 'PDF bytes as served'.")
    independence: Text | None = reportable(
        "Whether the authors developed the models they report on, and how that was checked."
    )
