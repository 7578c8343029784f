"""Related records in both directions, each with its relation as a key ('uses_data',
'assessment', 'configuration_of', 'system', 'assessed_by'; render/present/relations.py
names them as the seed pages read), or the referring field's name for a field no
relation names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..link import Catalogue, Reference, references
from ..models import RecordBase, kind_of

# (kind of the referring record, field) -> (relation seen from it, seen from the target):
# keys; render/present/relations.py names them
RELATIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("protocol", "datasets"): ("uses_data", "used_by"),
    ("protocol", "baselines"): ("baseline_measurement", "baseline_of"),
    ("protocol", "related"): ("related_protocol", "related_protocol"),
    ("evaluation", "protocol"): ("protocol", "assessment"),
    ("evaluation", "configuration"): ("tested_configuration", "system"),
    ("evaluation", "dataset"): ("uses_data", "assessment"),
    ("evaluation", "reproduces"): ("reproduces", "reproduced_by"),
    ("configuration", "family"): ("configuration_of", "configuration"),
    ("model_family", "papers"): ("introduced_in", "introduces"),
    ("question", "protocols"): ("bears_on", "assessed_by"),
    ("question", "evaluations"): ("bears_on", "assessed_by"),
}
CITED_BY = "cited_by"
_CITATION_FIELDS = {"citations", "results", "concerns"}


@dataclass(frozen=True)
class Related:
    relation: str
    """A `RELATIONS` key, CITED_BY, or the referring field's name."""
    record_id: str
    kind: str
    title: str
    direction: Literal["out", "in"]
    """out: this record refers to it; in: it refers to this record."""


def _field(reference: Reference) -> str:
    return reference.field.partition(".")[0]


_ORDER = {label: i for i, label in enumerate(dict.fromkeys(r[1] for r in RELATIONS.values()))}


def related(record: RecordBase, catalogue: Catalogue) -> tuple[Related, ...]:
    """Records `record` refers to (except the sources it cites, listed under 'Sources and
    history'), then records that refer to it, each relation and record once."""
    kind = kind_of(record)
    seen: set[tuple[str, str]] = set()
    out: list[Related] = []
    for ref in references(record):
        name = _field(ref)
        if name in _CITATION_FIELDS:
            continue
        label = RELATIONS.get((kind, name), (name, ""))[0]
        target = catalogue.by_id.get(ref.target_id)
        if target is None or (label, target.id) in seen:
            continue
        seen.add((label, target.id))
        out.append(Related(label, target.id, kind_of(target), target.title, "out"))
    incoming: list[Related] = []
    for ref in catalogue.referrers.get(record.id, []):
        source = catalogue.by_id.get(ref.source_id)
        if source is None:
            continue
        name = _field(ref)
        if name in _CITATION_FIELDS:
            label = CITED_BY
        else:
            label = RELATIONS.get((kind_of(source), name), ("", name))[1]
        if (label, source.id) in seen:
            continue
        seen.add((label, source.id))
        incoming.append(Related(label, source.id, kind_of(source), source.title, "in"))
    incoming.sort(key=lambda r: (_ORDER.get(r.relation, len(_ORDER)), r.title, r.record_id))
    return tuple(out + incoming)
