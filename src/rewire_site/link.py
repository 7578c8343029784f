"""Link: resolve record ids into one graph, with references in both directions."""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from .models import (
    Citation,
    Configuration,
    Dataset,
    Evaluation,
    ModelFamily,
    Protocol,
    Question,
    RecordBase,
    Source,
)
from .models.common import StatedValue
from .table_rows import ResultRows

R = TypeVar("R", bound=RecordBase)

# (attribute path, expected kind). A path ending in [] is a list of ids.
REFERENCES: dict[str, list[tuple[str, str]]] = {
    "source": [],
    "dataset": [],
    "model_family": [("papers[]", "source")],
    "protocol": [("datasets[]", "dataset"), ("related[]", "protocol")],
    "configuration": [("family", "model_family")],
    "evaluation": [
        ("configuration", "configuration"),
        ("protocol", "protocol"),
        ("dataset", "dataset"),
        ("reproduces", "evaluation"),
    ],
    "question": [("protocols[]", "protocol"), ("evaluations[]", "evaluation")],
    "result_table": [("sources[]", "source"), ("protocol", "protocol")],
}


@dataclass(frozen=True)
class Reference:
    """`source_id` refers to `target_id` through `field` (a field path)."""

    source_id: str
    field: str
    target_id: str
    expected_kind: str


Ref = tuple[str, str, str]
"""(field path, target id, expected kind) of one reference, without the referring id."""


def _cite(found: list[Ref], path: str, citation: Citation | None) -> None:
    if citation is None:
        return
    found.append((f"{path}.source", citation.source, "source"))
    if citation.quoted_from is not None:
        found.append((f"{path}.quoted_from.source", citation.quoted_from.source, "source"))


def _stated(found: list[Ref], path: str, values: Iterable[StatedValue]) -> None:
    for i, stated in enumerate(values):
        if stated.citation is not None:
            _cite(found, f"{path}.values.{i}.citation", stated.citation)


def reference_fields(record: RecordBase) -> list[Ref]:
    """(field, target id, expected kind) of every id a record refers to, in the order of
    `references` (which wraps this list; validation reads it for every record)."""
    kind: str = getattr(record, "kind")  # noqa: B009 - RecordBase declares no kind; each kind does
    found: list[Ref] = []
    for attr, expected in REFERENCES[kind]:
        name = attr.removesuffix("[]")
        value = getattr(record, name)
        if value is None:
            continue
        if attr.endswith("[]"):
            found.extend((f"{name}.{i}", target, expected) for i, target in enumerate(value))
        else:
            found.append((name, value, expected))
    for i, citation in enumerate(record.citations):
        _cite(found, f"citations.{i}", citation)
    for i, concern in enumerate(record.concerns):
        for j, citation in enumerate(concern.citations):
            _cite(found, f"concerns.{i}.citations.{j}", citation)
        _stated(found, f"concerns.{i}", concern.values)
    for key, missing in record.missing_metadata.items():
        _stated(found, f"missing_metadata.{key}", missing.values)
    if record.review is not None and record.review.inherited_from is not None:
        found.append(("review.inherited_from", record.review.inherited_from, kind))
    if isinstance(record, Evaluation):
        for i, result in enumerate(record.results):
            if result.citation is not None:
                _cite(found, f"results.{i}.citation", result.citation)
            if result.metric_correction is not None:
                _cite(found, f"results.{i}.metric_correction", result.metric_correction)
        for i, claim in enumerate(record.claims):
            _cite(found, f"claims.{i}.citation", claim.citation)
            if claim.baseline_configuration is not None:
                found.append(
                    (
                        f"claims.{i}.baseline_configuration",
                        claim.baseline_configuration,
                        "configuration",
                    )
                )
    if isinstance(record, ModelFamily):
        for i, checkpoint in enumerate(record.checkpoints):
            if checkpoint.facts is None:
                continue
            for name in type(checkpoint.facts).model_fields:
                fact = getattr(checkpoint.facts, name)
                where = f"checkpoints.{i}.facts.{name}"
                if isinstance(fact, list):  # hardware requirements
                    for j, item in enumerate(fact):
                        _cite(found, f"{where}.{j}.citation", item.citation)
                elif fact is not None:
                    _cite(found, f"{where}.citation", fact.citation)
                    extra = getattr(fact, "base_pairs", None)
                    if extra is not None and extra.citation is not None:
                        _cite(found, f"{where}.base_pairs.citation", extra.citation)
    if isinstance(record, Dataset):
        for i, same in enumerate(record.same_task):
            found.append((f"same_task.{i}.dataset", same.dataset, "dataset"))
        for i, related in enumerate(record.related):
            found.append((f"related.{i}.dataset", related.dataset, "dataset"))
    if isinstance(record, Protocol) and record.recipe is not None:
        for i, item in enumerate(record.recipe.not_measured):
            found.append((f"recipe.not_measured.{i}.family", item.family, "model_family"))
    if isinstance(record, Protocol) and record.baselines is not None:
        for role in ("null_control", "conventional_reference"):
            for i, target in enumerate(getattr(record.baselines, role).evaluations):
                found.append((f"baselines.{role}.evaluations.{i}", target, "evaluation"))
    return found


def references(record: RecordBase) -> Iterator[Reference]:
    """Every id a record refers to: its kind's id fields, and the sources of every
    citation it holds (results, claims, concerns, conflicting values, model facts, and the
    originals that secondary quotations name)."""
    rid = record.id
    for field_path, target, expected in reference_fields(record):
        yield Reference(rid, field_path, target, expected)


@dataclass
class Catalogue:
    """All records by id, with reverse links. Built from records that passed validation."""

    by_id: dict[str, RecordBase] = field(default_factory=dict)
    referrers: dict[str, list[Reference]] = field(default_factory=lambda: defaultdict(list))
    _by_kind: dict[type[RecordBase], list[RecordBase]] = field(default_factory=dict)
    result_rows: ResultRows = field(default_factory=ResultRows)
    """The rows of the result tables (`table_rows`): by table, dataset, family, checkpoint."""

    @classmethod
    def from_records(
        cls, records: Iterable[RecordBase], result_rows: ResultRows | None = None
    ) -> Catalogue:
        catalogue = cls(result_rows=result_rows if result_rows is not None else ResultRows())
        for record in records:
            catalogue.by_id[record.id] = record
        by_kind: dict[type[RecordBase], list[RecordBase]] = defaultdict(list)
        for record in sorted(catalogue.by_id.values(), key=lambda r: r.id):
            by_kind[type(record)].append(record)
            for ref in references(record):
                catalogue.referrers[ref.target_id].append(ref)
        catalogue._by_kind = dict(by_kind)
        return catalogue

    def replaced(self, by_id: dict[str, RecordBase], changed: Iterable[str]) -> Catalogue:
        """The catalogue of `by_id`, whose records other than the `changed` ids are this
        one's: what `from_records` makes of it, without walking the references of the
        records that did not change (`rewire serve`'s edits)."""
        referrers: defaultdict[str, list[Reference]] = defaultdict(list, self.referrers)
        by_kind = dict(self._by_kind)
        added: defaultdict[str, list[Reference]] = defaultdict(list)
        targets: set[str] = set()
        by_id_changed = set(changed)
        for record_id in sorted(by_id_changed):
            before, after = self.by_id.get(record_id), by_id.get(record_id)
            for record in (before, after):
                if record is None:
                    continue
                members = [r for r in by_kind.get(type(record), []) if r.id != record_id]
                if record is after:
                    bisect.insort(members, record, key=lambda r: r.id)
                by_kind[type(record)] = members
                for ref in references(record):
                    targets.add(ref.target_id)
                    if record is after:
                        added[ref.target_id].append(ref)
        for target in targets:
            refs = [r for r in self.referrers.get(target, []) if r.source_id not in by_id_changed]
            refs = sorted(refs + added.get(target, []), key=lambda r: r.source_id)
            if refs:
                referrers[target] = refs
            else:
                referrers.pop(target, None)
        by_kind = {k: v for k, v in by_kind.items() if v}
        return Catalogue(by_id, referrers, by_kind, self.result_rows)

    def get(self, record_id: str, kind: type[R]) -> R:
        record = self.by_id[record_id]
        if not isinstance(record, kind):
            raise TypeError(f"{record_id} is a {type(record).__name__}, not a {kind.__name__}")
        return record

    def field(self, record_id: str, name: str) -> object:
        """One field of a record (None when there is no such record or it has no such
        field). `rewire serve` tracks it as the read of that field alone (`('field', id,
        name)`): an edit of the record's other fields leaves what read it as it was."""
        return getattr(self.by_id.get(record_id), name, None)

    def of_kind(self, kind: type[R]) -> list[R]:
        """Records of one kind, sorted by id (deterministic order)."""
        return [r for r in self._by_kind.get(kind, []) if isinstance(r, kind)]

    def referring(self, record_id: str, kind: type[R] | None = None) -> list[RecordBase]:
        """Records that refer to `record_id`, sorted by id, each once."""
        ids = sorted({ref.source_id for ref in self.referrers.get(record_id, [])})
        found = [self.by_id[i] for i in ids]
        return [r for r in found if kind is None or isinstance(r, kind)]

    # Convenience accessors used by derive and render.
    def evaluations_of(self, protocol_id: str) -> list[Evaluation]:
        """Evaluations under a protocol, sorted by id."""
        return self.referring(protocol_id, Evaluation)  # type: ignore[return-value]

    def sources(self) -> list[Source]:
        return self.of_kind(Source)

    def protocols(self) -> list[Protocol]:
        return self.of_kind(Protocol)

    def configurations(self) -> list[Configuration]:
        return self.of_kind(Configuration)

    def datasets(self) -> list[Dataset]:
        return self.of_kind(Dataset)

    def families(self) -> list[ModelFamily]:
        return self.of_kind(ModelFamily)

    def questions(self) -> list[Question]:
        return self.of_kind(Question)
