"""Recorded dependencies: tracking views of the catalogue and of the derived facts.

While a page job is made (`SitePlan.make`) or a derived fact is computed, every read
through these views adds a key to the current `Recorder`:

- `("id", rid)`: the record `rid` was read (or looked for: a missing id is a key too);
- `("field", rid, name)`: only that field of `rid` was read (`Catalogue.field`);
- `("id", ANY)`: every record was iterated;
- `("kind", K)`: the records of kind `K` were scanned (`Catalogue.of_kind`);
- `("ref", X)`: the references to `X` were read (`referrers`, `referring`,
  `evaluations_of`), plus `("id", i)` for each record returned;
- `(tag, key)` / `(tag, ANY)` for the derived facts: `flags`, `artifact`, `facet:<key>`,
  `label:<key>`, `href`, `shared`, `table`, `headline`, `reproduction`, `results`, `eee`,
  `members`, `compare`, `evaluation`;
  `("entries", ANY)`, `("coverage", ANY)` and `("api", slice)` for the search entries,
  the coverage rows and a JSON API job's slice of record ids.

Only `rewire serve` builds these views (`engine.py`, `derive.py`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import Any, TypeVar

from ..link import Catalogue
from ..models import RecordBase
from ..render.contexts import SiteFacts
from ..render.filters import FilterIndex
from ..render.plan import SitePlan

Key = tuple[Hashable, ...]
"""A dependency key: ('id', 'eval-1'), ('kind', 'Evaluation'), ('flags', ANY)..."""
ANY = "*"
"""The key part that stands for every key of its tag (an iteration)."""

K = TypeVar("K")
V = TypeVar("V")
R = TypeVar("R", bound=RecordBase)


class Recorder:
    """The keys read since `start`; no keys are kept while it is stopped."""

    def __init__(self) -> None:
        self.keys: set[Key] | None = None

    def start(self) -> None:
        self.keys = set()

    def stop(self) -> frozenset[Key]:
        found = frozenset(self.keys or ())
        self.keys = None
        return found

    def add(self, key: Key) -> None:
        if self.keys is not None:
            self.keys.add(key)

    def run(self, compute: Callable[[], V]) -> tuple[V, frozenset[Key]]:
        """`compute()` and the keys it read."""
        self.start()
        try:
            return compute(), self.stop()
        except BaseException:
            self.stop()
            raise


class TrackedMap(Mapping[K, V]):
    """A read-only view of `data` that records `(tag, key)` for each key read and
    `(tag, ANY)` for an iteration or a length."""

    __slots__ = ("_data", "_recorder", "_tag")

    def __init__(self, data: Mapping[K, V], tag: str, recorder: Recorder) -> None:
        self._data = data
        self._tag = tag
        self._recorder = recorder

    def __getitem__(self, key: K) -> V:
        keys = self._recorder.keys  # inline, not `Recorder.add`: the hot path of a job
        if keys is not None:
            keys.add((self._tag, key))
        return self._data[key]

    def get(self, key: K, default: Any = None) -> Any:
        self._recorder.add((self._tag, key))
        return self._data.get(key, default)

    def __contains__(self, key: object) -> bool:
        self._recorder.add((self._tag, key))
        return key in self._data

    def __iter__(self) -> Iterator[K]:
        self._recorder.add((self._tag, ANY))
        return iter(self._data)

    def __len__(self) -> int:
        self._recorder.add((self._tag, ANY))
        return len(self._data)

    def __eq__(self, other: object) -> bool:
        self._recorder.add((self._tag, ANY))
        return dict(self._data) == other

    __hash__ = None  # type: ignore[assignment]


class TrackingCatalogue(Catalogue):
    """The catalogue `base`, seen through tracked maps."""

    def __init__(self, base: Catalogue, recorder: Recorder) -> None:
        super().__init__(
            by_id=TrackedMap(base.by_id, "id", recorder),  # type: ignore[arg-type]
            referrers=TrackedMap(base.referrers, "ref", recorder),  # type: ignore[arg-type]
            _by_kind=base._by_kind,
            result_rows=base.result_rows,
        )
        self.base = base
        self.recorder = recorder

    def field(self, record_id: str, name: str) -> object:
        self.recorder.add(("field", record_id, name))
        return self.base.field(record_id, name)

    def of_kind(self, kind: type[R]) -> list[R]:
        self.recorder.add(("kind", kind.__name__))
        return self.base.of_kind(kind)

    def referring(self, record_id: str, kind: type[R] | None = None) -> list[RecordBase]:
        self.recorder.add(("ref", record_id))
        found = self.base.referring(record_id, kind)
        for record in found:
            self.recorder.add(("id", record.id))
        return found


def fact_maps(facts: SiteFacts) -> dict[str, Mapping[Any, Any]]:
    """Every mapping of `facts` that changes with the records, by the tag of its keys
    (one map per facet key: the facet keys themselves are fixed)."""
    index, labels = facts.filters.index, facts.filters.labels
    return {
        "flags": facts.flags,
        "artifact": facts.artifact_hashes,
        "href": facts.filter_hrefs,
        "shared": dict.fromkeys(facts.shared_titles),
        **{f"facet:{key}": inner for key, inner in index.items()},
        **{f"label:{key}": inner for key, inner in labels.items()},
    }


def tracked_facts(facts: SiteFacts, recorder: Recorder) -> SiteFacts:
    """`facts` with every mapping of `fact_maps` tracked."""
    maps = {tag: TrackedMap(inner, tag, recorder) for tag, inner in fact_maps(facts).items()}
    index, labels = facts.filters.index, facts.filters.labels
    return dataclasses.replace(
        facts,
        flags=maps["flags"],
        artifact_hashes=maps["artifact"],
        filters=FilterIndex(
            {key: maps[f"facet:{key}"] for key in index},
            {key: maps[f"label:{key}"] for key in labels},
        ),
        filter_hrefs=maps["href"],
        shared_titles=maps["shared"],  # type: ignore[arg-type]
    )


class TrackedPlan(SitePlan):
    """A `SitePlan` whose `make` reads through tracking views; the keys of the jobs
    whose inputs are not behind a view (the search index, the JSON API slices, the
    coverage rows) are added by `make` itself."""

    recorder: Recorder

    def make(self, job: tuple[str, ...]) -> Any:
        if job[0] == "search":
            self.recorder.add(("entries", ANY))
        elif job[0] == "api":
            self.recorder.add(("api", (job[1], job[2])))
        return super().make(job)

    def protocol_coverage(self) -> Any:
        self.recorder.add(("coverage", ANY))
        return super().protocol_coverage()


PLAN_MAPS = {
    "members": "members",
    "tables": "table",
    "headlines": "headline",
    "reproductions": "reproduction",
    "results": "results",
    "eee_lines": "eee",
    "family_links": "compare",
    "evaluations": "evaluation",
}
"""The `SitePlan` mappings a job may read -> the tag of their keys (`derive` diffs them)."""


def tracked_plan(plan: SitePlan, recorder: Recorder) -> TrackedPlan:
    """`plan` seen through tracking views that report to `recorder`."""
    values = {f.name: getattr(plan, f.name) for f in dataclasses.fields(plan)}
    values.update(
        {name: TrackedMap(values[name], tag, recorder) for name, tag in PLAN_MAPS.items()}
    )
    values.update(
        catalogue=TrackingCatalogue(plan.catalogue, recorder),
        facts=tracked_facts(plan.facts, recorder),
    )
    made = TrackedPlan(**values)
    object.__setattr__(made, "recorder", recorder)
    return made
