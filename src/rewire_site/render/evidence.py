"""The evidence table (one row per statement and cited source) and the list of sources
behind a record ("Sources and history").

A statement is a field of a record. A citation whose `supports` names the field (or a
parent of it) verifies that field; a citation without `supports` supports the record
generally and is shown as a context-only reference for each statement. A missing field
is a statement too: its text says why it is missing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel

from ..link import Catalogue
from ..models import Citation, Evaluation, Protocol, RecordBase, Source, kind_of
from ..models.common import CitationRole
from ..models.protocol import Metric
from .cache import IdentityCache
from .present.citations import ROLE_LABELS
from .present.metrics import DIRECTION_LABELS, result_header
from .present.missing import missing_text
from .present.numbers import digits_shown, display_number, plural
from .present.review import review_label

Scope = Literal["field", "record"]

NO_HASH_SCOPE = "Hash scope not separately documented; inspect source record"
RECORD_SCOPE_LABEL = "Context-only references"

# kind -> (field path, property label), in page order.
STATEMENTS: dict[str, tuple[tuple[str, str], ...]] = {
    "evaluation": (
        ("origin", "Origin"),
        ("version", "Version"),
        ("comparison.split", "Comparison: split"),
        ("comparison.population", "Comparison: population"),
        ("comparison.inputs", "Comparison: inputs"),
        ("comparison.adaptation", "Comparison: adaptation"),
        ("comparison.aggregation", "Comparison: aggregation"),
        ("comparison.budget", "Comparison: budget"),
        ("comparison.dataset_version", "Comparison: dataset version"),
        ("comparison.metric_implementation", "Comparison: metric implementation"),
        ("training_hardware", "Training hardware"),
    ),
    "protocol": (
        ("measurement", "Measurement"),
        ("metric", "Metric"),
        ("metric_definition", "Metric definition"),
        ("hardware", "Hardware"),
        ("version", "Version"),
        ("replicates", "Replicates"),
    ),
    "configuration": (
        ("reported_name", "Reported name"),
        ("parameters", "Parameters"),
        ("hardware", "Hardware"),
        ("fine_tuning", "Fine-tuning"),
        ("training_setting", "Training setting"),
        ("checkpoint", "Checkpoint"),
        ("version", "Version"),
    ),
    "dataset": (
        ("description", "Description"),
        ("version", "Version"),
        ("generator", "Generator"),
        ("seed", "Seed"),
        ("access", "Access"),
        ("licence", "Licence"),
    ),
    "model_family": (
        ("name", "Name"),
        ("developers", "Developers"),
        ("architecture", "Architecture"),
        ("tokenisation", "Tokenisation"),
    ),
    "source": (),
    "question": (),
    "result_table": (),
}


@dataclass(frozen=True, slots=True)
class CitedSource:
    """A citation resolved for the evidence table; shared by every row that cites it."""

    source_id: str
    source_title: str
    source_url: str
    role: str
    """The citation's role: 'original' or 'context_only'."""
    role_label: str
    scope: Scope
    """field: the citation names this field; record: it supports the record generally."""
    scope_label: str
    """'Original source', 'Context-only reference' or 'Context-only references'."""
    locator: str
    quote: str | None
    version: str
    """The source artifact's version as retrieved."""
    retrieved_at: str | None
    """ISO 8601 UTC ('2026-10-15T10:56:26Z'), None when not recorded."""
    sha256: str | None
    hash_scope: str


@dataclass(frozen=True, slots=True)
class EvidenceRow:
    """One statement of a record and one source cited for it. The source's facts are on
    `cited` and readable directly (`row.source_title`, `row.locator`, ...)."""

    record_id: str
    property_label: str
    """'Comparison: adaptation', 'Origin', 'Result: Peak memory (...)'."""
    statement: str
    """The field's value as text, or why it is missing ('Not reported')."""
    field_path: str
    missing: bool
    cited: CitedSource
    review_status: str
    """'missing or unspecified' or 'not individually reviewed' (no per-claim reviews)."""
    record_review: str
    """The record's review: 'source checked', ..."""
    origin: str | None
    """For evaluations: 'independent paper', ..."""
    shared_locator: bool
    """True: another row cites the same source at the same locator."""

    @property
    def source_id(self) -> str:
        return self.cited.source_id

    @property
    def source_title(self) -> str:
        return self.cited.source_title

    @property
    def source_url(self) -> str:
        return self.cited.source_url

    @property
    def role(self) -> str:
        return self.cited.role

    @property
    def role_label(self) -> str:
        return self.cited.role_label

    @property
    def scope(self) -> Scope:
        return self.cited.scope

    @property
    def scope_label(self) -> str:
        return self.cited.scope_label

    @property
    def locator(self) -> str:
        return self.cited.locator

    @property
    def quote(self) -> str | None:
        return self.cited.quote

    @property
    def version(self) -> str:
        return self.cited.version

    @property
    def retrieved_at(self) -> str | None:
        return self.cited.retrieved_at

    @property
    def sha256(self) -> str | None:
        return self.cited.sha256

    @property
    def hash_scope(self) -> str:
        return self.cited.hash_scope


@dataclass(frozen=True)
class EvidenceTable:
    record_id: str
    rows: tuple[EvidenceRow, ...]
    count_text: str
    """'19 evidence rows'."""


@dataclass(frozen=True)
class SourceEntry:
    """A source a record cites."""

    id: str
    title: str
    short_citation: str
    role_label: str
    """'Original source' when any citation is original, else 'Context-only reference'."""
    version: str
    url: str
    retrieved_at: str | None
    sha256: str | None
    hash_scope: str


@dataclass(frozen=True)
class SourceList:
    record_id: str
    sources: tuple[SourceEntry, ...]
    count_text: str
    """'1 source record'."""


def iso_utc(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value.isoformat(timespec="seconds") + "Z"


def _lookup(record: BaseModel, path: str) -> Any:
    value: Any = record
    for part in path.split("."):
        value = value[int(part)] if part.isdigit() else getattr(value, part, None)
        if value is None:
            return None
    return value


def statement_text(value: Any) -> str:
    """A field's value as plain text."""
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return display_number(value)
    if isinstance(value, list):
        return "; ".join(statement_text(v) for v in value)
    if isinstance(value, BaseModel):
        if hasattr(value, "description") and isinstance(value.description, str):
            return value.description
        if isinstance(value, Metric):
            return f"{value.label} ({value.unit}, {DIRECTION_LABELS[value.direction]})"
        return "; ".join(
            f"{k}: {statement_text(v)}" for k, v in value if v is not None and v != [] and v != {}
        )
    return str(value)


def _supports(citation: Citation, path: str) -> bool:
    return any(path == s or path.startswith(s + ".") for s in citation.supports)


def _statements(
    record: RecordBase, catalogue: Catalogue
) -> list[tuple[str, str, str, bool, list[Citation]]]:
    """(path, label, text, missing, field citations) for each statement of `record`."""
    out = []
    fielded = [c for c in record.citations if c.supports]
    for path, label in STATEMENTS.get(kind_of(record), ()):
        value = _lookup(record, path)
        cited = [c for c in fielded if _supports(c, path)]
        if value is None:
            out.append((path, label, missing_text(record, path).label, True, cited))
        else:
            out.append((path, label, statement_text(value), False, cited))
    if isinstance(record, Evaluation):
        protocol = catalogue.by_id.get(record.protocol)
        for i, result in enumerate(record.results):
            path = f"results.{i}"
            label = "Result: " + (
                result_header(protocol, result.column)
                if isinstance(protocol, Protocol)
                else result.column
            )
            if result.value is None:
                text = result.status.replace("_", " ")
            else:
                printed = result.printed_value
                text = printed or f"{display_number(result.value)} {result.unit or ''}"
                if printed and digits_shown(result.value, printed) != printed:
                    text = f"{digits_shown(result.value, printed)} (rounded from {printed})"
            cited = [c for c in fielded if _supports(c, path)]
            if result.citation is not None:
                cited.insert(0, result.citation)
            out.append((path, label, text.strip(), False, cited))
    return out


_CITED: IdentityCache[Citation, tuple[Source, dict[str, CitedSource]]] = IdentityCache()


def _cited(citation: Citation, scope: Scope, catalogue: Catalogue) -> CitedSource:
    """The resolved citation, cached per citation object and source object."""
    source = catalogue.get(citation.source, Source)
    cached = _CITED.get(citation, lambda _: (source, {}))
    if cached[0] is not source:
        cached = (source, {})
        _CITED.put(citation, cached)
    found = cached[1].get(scope)
    if found is None:
        found = CitedSource(
            source_id=source.id,
            source_title=source.title,
            source_url=source.url,
            role=citation.role.value,
            role_label=ROLE_LABELS[citation.role],
            scope=scope,
            scope_label=ROLE_LABELS[citation.role] if scope == "field" else RECORD_SCOPE_LABEL,
            locator=citation.locator,
            quote=citation.quote,
            version=source.version,
            retrieved_at=iso_utc(source.retrieved_at),
            sha256=source.sha256,
            hash_scope=source.hash_scope or NO_HASH_SCOPE,
        )
        cached[1][scope] = found
    return found


def evidence_table(record: RecordBase, catalogue: Catalogue) -> EvidenceTable:
    """One row per statement of `record` and source cited for it."""
    general = [c for c in record.citations if not c.supports]
    record_review = review_label(record)
    origin = record.origin.value.replace("_", " ") if isinstance(record, Evaluation) else None
    pending: list[tuple[str, str, str, bool, Citation, Scope]] = []
    for path, label, text, missing, cited in _statements(record, catalogue):
        if cited:
            pending += [(path, label, text, missing, c, "field") for c in cited]
        else:
            pending += [(path, label, text, missing, c, "record") for c in general]
    locators = Counter((c.source, c.locator) for *_, c, _ in pending)
    rows = []
    for path, label, text, missing, citation, scope in pending:
        rows.append(
            EvidenceRow(
                record.id,
                label,
                text,
                path,
                missing,
                _cited(citation, scope, catalogue),
                "missing or unspecified" if missing else "not individually reviewed",
                record_review,
                origin,
                locators[(citation.source, citation.locator)] > 1,
            )
        )
    return EvidenceTable(record.id, tuple(rows), plural(len(rows), "evidence row"))


def _all_citations(record: RecordBase) -> list[Citation]:
    found = list(record.citations)
    if isinstance(record, Evaluation):
        found += [r.citation for r in record.results if r.citation is not None]
        found += [c for concern in record.concerns for c in concern.citations]
    return found


_ENTRIES: IdentityCache[Source, dict[str, SourceEntry]] = IdentityCache()


def _entry(source: Source, role: CitationRole) -> SourceEntry:
    by_role = _ENTRIES.get(source, lambda _: {})
    found = by_role.get(role.value)
    if found is None:
        found = SourceEntry(
            id=source.id,
            title=source.title,
            short_citation=source.short_citation,
            role_label=ROLE_LABELS[role],
            version=source.version,
            url=source.url,
            retrieved_at=iso_utc(source.retrieved_at),
            sha256=source.sha256,
            hash_scope=source.hash_scope or NO_HASH_SCOPE,
        )
        by_role[role.value] = found
    return found


def sources_of(record: RecordBase, catalogue: Catalogue) -> SourceList:
    """Distinct sources `record` cites, in order of first citation."""
    roles: dict[str, set[CitationRole]] = {}
    for citation in _all_citations(record):
        roles.setdefault(citation.source, set()).add(citation.role)
    entries = tuple(
        _entry(
            catalogue.get(source_id, Source),
            CitationRole.original if CitationRole.original in found else CitationRole.context_only,
        )
        for source_id, found in roles.items()
    )
    return SourceList(record.id, entries, plural(len(entries), "source record"))
