"""Offline search: an index of every record's title, id and model names.

The search page lists every entry (it works without JavaScript: the browser's find does the
rest); `static/rewire.js` hides the entries that do not match as the reader types. The same
entries are written as `search/index.json`, sorted, so the same records give the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from ..link import Catalogue
from ..models import Configuration, Evaluation, ModelFamily, RecordBase
from .urls import KIND_DIRS, KIND_LABELS, kind_of, record_path

KIND_ORDER = tuple(KIND_DIRS)


@dataclass(frozen=True)
class SearchEntry:
    """One record in the search index."""

    kind: str
    kind_label: str
    id: str
    title: str
    path: str
    """Page path from the site root."""
    models: tuple[str, ...]
    """Model names the record concerns: reported names, family names, checkpoints."""

    @property
    def terms(self) -> str:
        """Lowercase text the search matches against."""
        return " ".join((self.title, self.id, self.kind_label, *self.models)).lower()


def model_names(record: RecordBase, catalogue: Catalogue) -> tuple[str, ...]:
    """Model names a record concerns, each once, in a stable order."""
    names: list[str] = []
    config: Configuration | None = None
    if isinstance(record, Evaluation):
        found = catalogue.by_id.get(record.configuration)
        config = found if isinstance(found, Configuration) else None
    elif isinstance(record, Configuration):
        config = record
    if config is not None:
        names.append(config.reported_name)
        family = catalogue.by_id.get(config.family)
        if isinstance(family, ModelFamily):
            names.append(family.name)
    if isinstance(record, ModelFamily):
        names.append(record.name)
        names.extend(c.name for c in record.checkpoints)
    return tuple(dict.fromkeys(names))


def search_entries(catalogue: Catalogue) -> tuple[SearchEntry, ...]:
    """Every record, ordered by kind (as in KIND_DIRS), then title, then id."""
    return ordered_entries(search_entry(r, catalogue) for r in catalogue.by_id.values())


def search_entry(record: RecordBase, catalogue: Catalogue) -> SearchEntry:
    """The search index entry of one record."""
    kind = kind_of(record)
    return SearchEntry(
        kind=kind,
        kind_label=KIND_LABELS[kind],
        id=record.id,
        title=record.title,
        path=record_path(kind, record.id),
        models=model_names(record, catalogue),
    )


def ordered_entries(entries: Iterable[SearchEntry]) -> tuple[SearchEntry, ...]:
    """`entries` ordered by kind (as in KIND_DIRS), then title, then id."""
    order = {kind: i for i, kind in enumerate(KIND_ORDER)}
    return tuple(sorted(entries, key=lambda e: (order[e.kind], e.title.lower(), e.id)))


def search_index_json(entries: tuple[SearchEntry, ...]) -> bytes:
    """The index as compact, sorted JSON: [{id, kind, title, path, models}, ...]."""
    return _index_json(_entry_json(e) for e in entries)


def _index_json(texts: Iterable[str]) -> bytes:
    return ("[" + ",".join(texts) + "]\n").encode("utf-8")


def _entry_json(entry: SearchEntry) -> str:
    data = {
        "id": entry.id,
        "kind": entry.kind,
        "title": entry.title,
        "path": entry.path,
        "models": list(entry.models),
    }
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
