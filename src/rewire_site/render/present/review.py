"""A record's review as a reader reads it: 'source checked' only where the review says
who checked what, and when."""

from __future__ import annotations

import re

from ...models import RecordBase
from ...models.common import ReviewStatus

REVIEW_LABELS: dict[ReviewStatus, str] = {
    ReviewStatus.unreviewed: "not reviewed",
    ReviewStatus.source_checked: "source checked",
    ReviewStatus.disputed: "disputed",
}


_ASSUMED = re.compile(r"\bassumed\b", re.IGNORECASE)


def review_gaps(record: RecordBase) -> tuple[str, ...]:
    """What a 'source checked' review lacks before a page may call it so: a reviewer, a
    date, the hash of the artifact reviewed, and a review of its own (not one assumed from
    another record, as its note or the editors' notes say)."""
    review = record.review
    if review is None or review.status != ReviewStatus.source_checked:
        return ()
    gaps = [
        name
        for name, value in (
            ("reviewer", review.reviewer),
            ("date", review.reviewed_at),
            ("artifact hash", review.artifact_sha256),
        )
        if value is None
    ]
    notes = [review.note or "", *getattr(record, "editor_notes", [])]
    if getattr(review, "inherited_from", None) or any(_ASSUMED.search(n) for n in notes):
        gaps.append("assumed")
    return tuple(gaps)


def review_label(record: RecordBase) -> str:
    """'source checked' only for a review with reviewer, date and artifact hash of its own
    (`review_gaps`); else 'not checked: ...' saying what is missing; 'not reviewed',
    'disputed' as recorded."""
    if record.review is None:
        return REVIEW_LABELS[ReviewStatus.unreviewed]
    gaps = review_gaps(record)
    if gaps:
        missing = [g for g in gaps if g != "assumed"]
        parts = []
        if missing:
            listed = ", ".join(missing[:-1]) + (" or " if len(missing) > 1 else "") + missing[-1]
            parts.append(f"no {listed} recorded")
        if "assumed" in gaps:
            parts.append("the review was made on another record and assumed for this one")
        return "source check not verifiable: " + "; ".join(parts)
    return REVIEW_LABELS[record.review.status]
