"""Types shared by every record kind: ids, hashes, citations, reviews, missing metadata.

Every field carries a description: they become the JSON Schemas that editors' YAML
extensions use for completion and hover text.
"""

from __future__ import annotations

import math
import re
import unicodedata
from datetime import date, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)
from pydantic import (
    Strict as StrictMode,
)

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
SHA256_PATTERN = r"^[0-9a-f]{64}$"
ID_MAX_LENGTH = 200
"""The longest id (a record's file name is the id and `.yaml`, well under the 255 bytes
a file name may take)."""

_SLUG = re.compile(SLUG_PATTERN)


def id_problem(value: str) -> str | None:
    """What is wrong with `value` as an id (a record's, or a measurement run's), or None.

    The one id rule: `Slug` (what validation checks), `rewire new` and `rewire measure`
    all apply it."""
    if len(value) > ID_MAX_LENGTH:
        return f"longer than {ID_MAX_LENGTH} characters (it has {len(value)})"
    if not _SLUG.fullmatch(value):
        return "not a slug (lowercase letters a-z, digits and single hyphens)"
    return None


Slug = Annotated[
    str,
    StringConstraints(pattern=SLUG_PATTERN, max_length=ID_MAX_LENGTH),
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


FiniteFloat = Annotated[float, StrictMode(), AfterValidator(_finite)]
"""A finite number. Strict: a number written as text ("61.91" in quotes) is an error, so
an editor's quoting mistake never passes silently (an integer is accepted)."""

Count = Annotated[int, StrictMode(), Field(ge=0)]
"""A whole number >= 0, strict: text or a fraction is an error."""


def _zoned(value: datetime) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(
            f"{value.isoformat()} has no time zone: add it, e.g. "
            f"{value.isoformat()}Z for UTC or {value.isoformat()}+02:00"
        )
    return value


Timestamp = Annotated[datetime, AfterValidator(_zoned)]
"""A date and time with its time zone (e.g. 2026-11-30T20:00:00Z): a time without a
zone is an error, since the same clock reading means different instants."""

_PARTIAL_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")


def _partial_date(value: Any) -> Any:
    """A date at the precision printed: 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'."""
    if isinstance(value, datetime):
        raise ValueError("a date, not a date and time: write YYYY, YYYY-MM or YYYY-MM-DD")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # YAML reads a bare year as a number
    if not isinstance(value, str):
        return value
    match = _PARTIAL_DATE.match(value.strip())
    if not match:
        raise ValueError(
            f"{value!r} is not a date at a printed precision: write YYYY, YYYY-MM or YYYY-MM-DD"
        )
    year, month, day = match.groups()
    try:
        date(int(year), int(month or 1), int(day or 1))
    except ValueError as error:
        raise ValueError(f"{value!r} is not a real date ({error})") from None
    return value.strip()


PartialDate = Annotated[
    str,
    BeforeValidator(_partial_date),
    Field(
        description="A date at the precision the source prints: YYYY, YYYY-MM or YYYY-MM-DD.",
        json_schema_extra={"pattern": r"^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$"},
    ),
]

WEB_SCHEMES = frozenset({"https", "http"})
"""The only schemes a URL field of a record may hold: each becomes a live link on the site."""

_WEB_URL = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://(?P<host>[^/?#\s]+)")
_DOI = re.compile(r"^(?:doi:)?(10\.\d{4,9}/[^\s]+)$", re.IGNORECASE)
_ARXIV = re.compile(r"^arxiv:(\d{4}\.\d{4,5}(?:v\d+)?)$", re.IGNORECASE)


def _hidden_character(value: str) -> str | None:
    """The first character of `value` a reader cannot see or that a browser drops from a
    URL (controls, spaces, zero-width and direction marks, a backslash), else None."""
    for char in value:
        if char == "\\" or unicodedata.category(char)[0] in "CZ":
            return char
    return None


def is_web_url(value: str) -> bool:
    """True when `value` is a link the site may make live: https:// or http:// with a host,
    nothing hidden in it. The models check every URL field with it (`web_url`), and the
    templates check again before writing an href (the Jinja test `web_url`)."""
    match = _WEB_URL.match(value)
    return (
        match is not None
        and match.group("scheme").lower() in WEB_SCHEMES
        and _hidden_character(value) is None
    )


def web_url(value: str) -> str:
    """A URL field's value checked against the allow-list of schemes (https, http) and
    given with a host; a DOI (10.xxxx/...) or an arXiv id (arXiv:NNNN.NNNNN) becomes its
    https:// address. Anything else (javascript:, data:, vbscript:, file:, a
    scheme-relative //host, a relative path, a scheme split by a control character or
    space) is an error."""
    shown = repr(value if len(value) <= 80 else value[:77] + "...")
    hidden = _hidden_character(value)
    if hidden is not None:
        raise ValueError(
            f"{shown} is not a web address: it holds {hidden!r}, which a URL may not hold "
            "(a control character, space, invisible mark or backslash)"
        )
    doi = _DOI.match(value)
    if doi is not None:
        return f"https://doi.org/{doi.group(1)}"
    arxiv = _ARXIV.match(value)
    if arxiv is not None:
        return f"https://arxiv.org/abs/{arxiv.group(1)}"
    if not is_web_url(value):
        raise ValueError(
            f"{shown} is not a web address: write it with https:// (or http://) and a "
            "host, e.g. https://example.org/paper.pdf; a DOI may be written 10.xxxx/... "
            "and an arXiv id arXiv:NNNN.NNNNN"
        )
    return value


WebUrl = Annotated[
    str,
    StringConstraints(min_length=1, strip_whitespace=True),
    AfterValidator(web_url),
    Field(
        json_schema_extra={
            "pattern": r"^([Hh][Tt][Tt][Pp][Ss]?://[^/?#\s\\]+|(doi:)?10\.\d{4,9}/\S+"
            r"|[Aa][Rr][Xx][Ii][Vv]:\d{4}\.\d{4,5}(v\d+)?)"
        }
    ),
]
"""A web address: https:// or http:// with a host (a DOI or arXiv id becomes https://);
every other scheme is an error, so no record value becomes a javascript: or data: link."""

REPORTABLE = "reportable"
"""Marker in a field's json_schema_extra: when the value is null, `missing_metadata`
must give a reason for it (see `rewire_site.completeness`)."""


REASON_DEFAULTED = "reason_defaulted"
"""Marker on a field that holds a part (e.g. a checkpoint's `facts`): a reportable field
of that part may be null without a `missing_metadata` entry; its reason then defaults to
'not reported by the cited sources' (`rewire_site.completeness.defaulted`), and the page
says so. An editor may still give a reason and note of their own."""


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
    conflicting = "conflicting"


class CitationRole(StrEnum):
    original = "original"
    context_only = "context_only"


class QuotedFrom(Strict):
    """The original a secondary source says it quotes."""

    source: Slug = Field(description="Id of the source record the citing source quotes.")
    locator: Text = Field(description="Where in that original, e.g. 'Table 6'.")


class Citation(Strict):
    source: Slug = Field(description="Id of the source record cited: where the value was read.")
    locator: Text = Field(description="Where in the source: section, table, figure, page.")
    quote: Text | None = Field(
        default=None, description="Verbatim text of the source where it printed a value."
    )
    quoted_from: QuotedFrom | None = Field(
        default=None,
        description="Set when the cited source quotes the value from another one ('the "
        "paper's Table 6, as quoted in issue #12'): `source` is where it was read, this "
        "names the original. The value is then a secondary quotation.",
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


class StatedValue(Strict):
    """One value as one source states it (for conflicting values)."""

    value: Text = Field(description="The value as the source states it, e.g. '28 datasets'.")
    citation: Citation = Field(description="Where the source states it, with the quote.")


class Missing(Strict):
    reason: MissingReason = Field(
        description="Why the field has no value: unreported (the source does not say), "
        "inapplicable (the field does not apply), withheld (known but not published), "
        "unknown (not yet established by Rewire), conflicting (sources state different "
        "values: `values` holds each with its citation)."
    )
    note: Text | None = Field(default=None, description="What the source says instead, or why.")
    values: list[StatedValue] = Field(
        default_factory=list,
        description="For reason conflicting: every stated value with its citation (two or more).",
    )

    @model_validator(mode="after")
    def _values_match_reason(self) -> Missing:
        if self.reason == MissingReason.conflicting and len(self.values) < 2:
            raise ValueError(
                "values: reason 'conflicting' needs the conflicting values, two or more, "
                "each with its citation"
            )
        if self.reason != MissingReason.conflicting and self.values:
            raise ValueError("values: only reason 'conflicting' holds values")
        return self


class ConcernKind(StrEnum):
    source_conflict = "source_conflict"
    conflicting_values = "conflicting_values"
    metric_mislabelled = "metric_mislabelled"
    moving_reference = "moving_reference"
    secondary_quotation = "secondary_quotation"
    unsynchronised_timer = "unsynchronised_timer"
    checkpoint_unclear = "checkpoint_unclear"
    dataset_unclear = "dataset_unclear"
    hardware_differs = "hardware_differs"
    unit_unstated = "unit_unstated"
    reproduction_disagrees = "reproduction_disagrees"
    other = "other"


class Concern(Strict):
    id: Slug = Field(description="Concern id, unique within the record.")
    kind: ConcernKind = Field(
        description="Kind of concern: source_conflict (a source contradicts itself), "
        "conflicting_values (sources state different values: `values`), metric_mislabelled "
        "(a table's metric label is not the metric computed), moving_reference (the source "
        "is a branch or page that can change), secondary_quotation (a value read in one "
        "source that quotes another), unsynchronised_timer (a GPU timing taken without "
        "synchronising), checkpoint_unclear (which weights were used is not clear), "
        "dataset_unclear (which dataset or task a value belongs to is not clear), "
        "hardware_differs, unit_unstated, reproduction_disagrees, other."
    )
    text: Text = Field(description="What is wrong; Markdown.")
    field: Text | None = Field(
        default=None,
        description="Field path of this record the concern is about, e.g. "
        "'checkpoints.0.facts.layers' or 'results.0'. Empty: the record as a whole.",
    )
    values: list[StatedValue] = Field(
        default_factory=list,
        description="For conflicting_values: each value with the citation that states it.",
    )
    excludes_from_comparisons: bool = Field(
        description="True: results stay visible but leave comparisons and best in column."
    )
    citations: list[Citation] = Field(
        default_factory=list, description="Where the conflicting statements are."
    )

    @model_validator(mode="after")
    def _conflict_has_values(self) -> Concern:
        if self.kind == ConcernKind.conflicting_values and len(self.values) < 2:
            raise ValueError(
                "values: a conflicting_values concern holds each value with its citation "
                "(two or more)"
            )
        return self


class Scale(StrEnum):
    fraction = "fraction"
    percent = "percent"


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
    reviewed_at: Timestamp | None = reportable(
        "When the review was made (ISO 8601, UTC); null only with a `missing_metadata` reason."
    )
    artifact_sha256: Sha256 | None = Field(
        default=None, description="SHA-256 of the source artifact the reviewer inspected."
    )
    retrieval_url: WebUrl | None = Field(
        default=None, description="Where the reviewed artifact was retrieved from."
    )
    methods: list[Text] = Field(
        default_factory=list,
        description="Review methods, e.g. source-hash-verification, pdf-text-parse.",
    )
    method_note: Text | None = Field(default=None, description="What the methods checked.")
    note: Text | None = Field(default=None, description="Findings of the review.")
    inherited_from: Slug | None = Field(
        default=None,
        description="Set when this review was made on another record (its id) and assumed "
        "for this one: the site then says the record itself was not checked.",
    )


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
    concerns: list[Concern] = Field(
        default_factory=list,
        description="Doubts and conflicts an editor recorded about this record or one of "
        "its fields; shown wherever the concerned value is shown.",
    )
    added: date | None = Field(
        default=None, description="Date the record was added to the catalogue."
    )
    editor_notes: list[Text] = Field(
        default_factory=list,
        description="Notes for editors (how the record was transcribed, what to re-check). "
        "Never shown to readers.",
    )

    @model_validator(mode="after")
    def _unique_concern_ids(self) -> RecordBase:
        ids = [c.id for c in self.concerns]
        if len(ids) != len(set(ids)):
            raise ValueError("concerns: concern ids must be unique")
        return self


class SourceLabel(Strict):
    """A source's own name for a task or a model, in the label scope of that source
    (a result table's `labels`)."""

    scope: Slug = Field(
        description="The label scope: the source whose name this is, e.g. dnallm-mark."
    )
    label: Text = Field(description="The name exactly as the source writes it, e.g. 'H3'.")
    note: Text | None = Field(default=None, description="Why this name means this record.")


Direction = Literal["lower", "higher"]
