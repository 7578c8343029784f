"""Filter facets over evaluations: tested model or method, protocol, dataset, evaluation
setup, metric and evidence origin.

`filter_index` computes, once per build, each evaluation's value token per facet and a
label per token. Pages use it to count options and to mark rows (`data-facet-<key>`);
`matching` gives the evaluations a selection keeps (pre-rendered filter pages, no JS).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..link import Catalogue
from ..models import Configuration, Dataset, Evaluation, ModelFamily, Protocol
from .present.labels import ORIGIN_LABELS
from .present.missing import missing_text

FACETS: tuple[tuple[str, str], ...] = (
    ("model", "Tested model or method"),
    ("protocol", "Protocol"),
    ("dataset", "Dataset"),
    ("setup", "Evaluation setup"),
    ("metric", "Metric"),
    ("origin", "Evidence origin"),
)
"""(key, label) of every facet, in form order."""

_NON_SLUG = re.compile(r"[^a-z0-9]+")


def token(text: str) -> str:
    """A value token safe in a space-separated attribute: 'LoRA rank 16' -> 'lora-rank-16'."""
    return _NON_SLUG.sub("-", text.lower()).strip("-")[:60].strip("-") or "none"


@dataclass(frozen=True)
class FacetOption:
    token: str
    label: str
    count: int


@dataclass(frozen=True)
class FilterIndex:
    index: Mapping[str, Mapping[str, tuple[str, ...]]]
    """Facet key -> evaluation id -> value tokens."""
    labels: Mapping[str, Mapping[str, str]]
    """Facet key -> value token -> label shown to readers."""

    def options(self, key: str, evaluation_ids: Iterable[str]) -> tuple[FacetOption, ...]:
        """Values of facet `key` among `evaluation_ids`, with counts, sorted by label."""
        counts: dict[str, int] = {}
        found = self.index.get(key, {})
        for evaluation_id in evaluation_ids:
            for value in found.get(evaluation_id, ()):
                counts[value] = counts.get(value, 0) + 1
        labels = self.labels.get(key, {})
        return tuple(
            FacetOption(t, labels.get(t, t), n)
            for t, n in sorted(counts.items(), key=lambda p: (labels.get(p[0], p[0]), p[0]))
        )

    def matching(
        self, selection: Mapping[str, str], evaluation_ids: Iterable[str]
    ) -> tuple[str, ...]:
        """Evaluations (of `evaluation_ids`, order kept) that have every selected value."""
        return tuple(
            e
            for e in evaluation_ids
            if all(value in self.index.get(key, {}).get(e, ()) for key, value in selection.items())
        )


def evaluation_facets(
    evaluation: Evaluation, catalogue: Catalogue
) -> dict[str, tuple[tuple[str, str], ...]]:
    """Facet key -> (token, label) pairs of one evaluation."""
    configuration = catalogue.by_id.get(evaluation.configuration)
    model: list[tuple[str, str]] = []
    if isinstance(configuration, Configuration):
        family = catalogue.by_id.get(configuration.family)
        name = family.name if isinstance(family, ModelFamily) else configuration.family
        model.append((configuration.family, name))
    protocol = catalogue.by_id.get(evaluation.protocol)
    dataset = catalogue.by_id.get(evaluation.dataset)
    setup = evaluation.comparison.adaptation
    setup_label = setup or missing_text(evaluation, "comparison.adaptation").label
    out: dict[str, tuple[tuple[str, str], ...]] = {
        "model": tuple(model),
        "protocol": ((evaluation.protocol, protocol.title if protocol else evaluation.protocol),),
        "dataset": (
            (
                evaluation.dataset,
                dataset.title if isinstance(dataset, Dataset) else evaluation.dataset,
            ),
        ),
        "setup": ((token(setup) if setup else "unstated", setup_label),),
        "origin": ((evaluation.origin.value, ORIGIN_LABELS[evaluation.origin]),),
    }
    if isinstance(protocol, Protocol):
        metrics = [protocol.column_metric(r.column) for r in evaluation.results]
        out["metric"] = tuple(dict.fromkeys((m.id, m.label) for m in metrics)) or (
            (protocol.metric.id, protocol.metric.label),
        )
    return out


def filter_index(
    catalogue: Catalogue, evaluations: Iterable[Evaluation] | None = None
) -> FilterIndex:
    """Facet values of every evaluation (or of `evaluations`), computed once."""
    chosen = catalogue.of_kind(Evaluation) if evaluations is None else evaluations
    return index_of((e.id, evaluation_facets(e, catalogue)) for e in chosen)


def index_of(
    facets: Iterable[tuple[str, Mapping[str, tuple[tuple[str, str], ...]]]],
) -> FilterIndex:
    """The filter index of (evaluation id, its `evaluation_facets`) pairs, in order (the
    first label of a value is kept): `filter_index`, and serve's incremental derive from
    the facets it keeps per evaluation."""
    pairs_of = list(facets)
    index: dict[str, dict[str, tuple[str, ...]]] = {key: {} for key, _ in FACETS}
    for evaluation_id, by_key in pairs_of:
        for key, pairs in by_key.items():
            index[key][evaluation_id] = tuple(t for t, _ in pairs)
    return FilterIndex(index, labels_of(pairs_of))


def labels_of(
    facets: Iterable[tuple[str, Mapping[str, tuple[tuple[str, str], ...]]]],
) -> dict[str, dict[str, str]]:
    """The label of each facet value: the first one given, in order (`index_of`'s
    labels)."""
    labels: dict[str, dict[str, str]] = {key: {} for key, _ in FACETS}
    for _, by_key in facets:
        for key, pairs in by_key.items():
            found = labels[key]
            for value, label in pairs:
                found.setdefault(value, label)
    return labels
