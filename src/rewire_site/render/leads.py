"""The answer a record page leads with (issue 25, progressive disclosure): one sentence in
plain words, built from the page's own context at build time, never an editor's text. It
comes before the page's table; the evidence behind it follows in "How we know"."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .contexts import EvaluationList, Link, ResultsTable
from .present.numbers import plural


def _origins(labels: Sequence[str]) -> str:
    """'; 3 independent external evaluations, 2 Rewire measurements' from the rows' origin
    labels ('Independent external evaluation'), the most frequent first."""
    counts = Counter(labels)
    parts = [plural(n, _lower_first(label)) for label, n in sorted(counts.items(), key=_most)]
    return "; " + ", ".join(parts) if parts else ""


def _lower_first(label: str) -> str:
    """A label inside a sentence: 'Independent external evaluation' -> 'independent
    external evaluation'; a name stays ('Rewire measurement')."""
    return label if label.startswith("Rewire") else label[:1].lower() + label[1:]


def _most(item: tuple[str, int]) -> tuple[int, str]:
    return (-item[1], item[0])


def results_answer(subject: str, results: ResultsTable) -> str:
    """A configuration's answer: how many evaluations and results, under how many
    protocols, on how many datasets, and of which origins."""
    rows = [r.row for r in results.rows]
    if not rows:
        return f"No evaluation of {subject} is recorded in this release."
    protocols = {r.protocol_title for r in rows}
    datasets = {r.dataset_title for r in rows}
    return (
        f"{subject}: {plural(results.evaluation_count, 'evaluation')} under "
        f"{plural(len(protocols), 'protocol')} on {plural(len(datasets), 'dataset')}"
        f"{_origins([r.origin_label for r in rows])}."
    )


def list_answer(subject: str, results: EvaluationList) -> str:
    """A dataset's or a question's answer: how many evaluations, of how many tested
    configurations, under how many protocols, and of which origins."""
    if not results.rows:
        return f"No evaluation {subject} is recorded in this release."
    configurations = {r.configuration.href for r in results.rows}
    protocols = {r.protocol.href for r in results.rows}
    return (
        f"{plural(results.evaluation_count, 'evaluation')} {subject}, of "
        f"{plural(len(configurations), 'tested configuration')} under "
        f"{plural(len(protocols), 'protocol')}"
        f"{_origins([r.origin_label for r in results.rows])}."
    )


def source_answer(citing: Sequence[Link], kinds: Sequence[str]) -> str:
    """A source's answer: how many records of the release cite it, by kind."""
    if not citing:
        return "No record of this release cites this source."
    counts = Counter(kinds)
    by_kind = ", ".join(
        plural(n, kind, kind[:-1] + "ies" if kind.endswith("y") else None)
        for kind, n in sorted(counts.items(), key=_most)
    )
    return f"{plural(len(citing), 'record')} of this release cite this source: {by_kind}."


def table_answer(rows: int, models: int, tasks: int, source: str) -> str:
    """A result table's answer: what it holds and where it comes from."""
    return (
        f"{rows:,} {'row' if rows == 1 else 'rows'} of results for {plural(models, 'model')} on "
        f"{plural(tasks, 'task')}, read from {source}."
    )
