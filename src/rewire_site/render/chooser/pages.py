"""Builders of the chooser pages: pure functions of the catalogue and the site facts.

- a task page per task (a dataset, or datasets that several sources name differently):
  every model's result, one table per protocol (results ranked together only within it),
  then "where sources overlap": the same model family on the same task in two tables,
  side by side, with whether the two can be compared and why not;
- a family page with a task-by-metric matrix;
- a comparison of two configurations that share at least two tasks: only pairs of
  comparable results, how many tasks each does better on under which source and metric,
  and no overall score.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from ...derive.boards import ModelFacts
from ...derive.concerns import Flag, excluded
from ...derive.leaderboard import is_task_group, task_boards
from ...derive.overlaps import (
    TaskLink,
    better,
    columns_for,
    label_of,
    links_between,
    metric_of,
    not_comparable,
    task_groups,
)
from ...link import Catalogue
from ...models import Configuration, Dataset, Evaluation, ModelFamily, Protocol, Result
from ..cross_source import task_section
from ..downloads import csv_bytes
from ..leaderboard import leaderboard
from ..page import Link, page_header
from ..pool import DataFile
from ..present.flags import flag_label
from ..present.numbers import plural
from ..present.unlike import unlike_text
from ..present.values import result_value
from ..urls import page_of
from .contexts import (
    ChooserIndexPage,
    ComparePage,
    FamilyMatrixPage,
    MatrixRow,
    OverlapRow,
    PairRow,
    TaskPage,
    ValueCell,
    WinCount,
)

INDEX = "chooser/index.html"
Flags = Mapping[str, tuple[Flag, ...]]
Entry = tuple[Evaluation, Result, Protocol]


def task_path(first_dataset: str) -> str:
    return f"tasks/{first_dataset}/index.html"


def matrix_path(family_id: str) -> str:
    return f"families/{family_id}/matrix/index.html"


def compare_path(left: str, right: str) -> str:
    return f"compare/{left}--{right}/index.html"


def _value(result: Result, protocol: Protocol) -> str:
    """The value on its metric's canonical scale, as every page shows it
    (`display.result_value`: MCC never with '%', long floats rounded and said)."""
    if result.value is None:
        return result.status.replace("_", " ")
    return result_value(protocol.column_metric(result.column), result).full


def _cell(entry: Entry | None, flags: Flags) -> ValueCell:
    if entry is None:
        return ValueCell("", "", "")
    evaluation, result, protocol = entry
    why = [
        flag_label(f)
        for f in flags.get(evaluation.id, ())
        if f.excludes_from_comparisons and f.affects(result.column)
    ]
    # as comparison tables say it (present.standing.STANDING_LABELS['excluded'])
    note = f"excluded from comparisons: {'; '.join(dict.fromkeys(why))}" if why else ""
    return ValueCell(_value(result, protocol), page_of(evaluation), note)


def _source_name(evaluation: Evaluation, catalogue: Catalogue) -> str:
    """The first cited source's short citation up to its first comma (the only field
    read: `rewire serve` remakes the chooser only when that field changes)."""
    for result in evaluation.results:
        if result.citation is not None:
            short = catalogue.field(result.citation.source, "short_citation")
            if isinstance(short, str):
                return short.split(",")[0]
    return evaluation.origin.value.replace("_", " ")


def _entries(evaluations: Iterable[Evaluation], catalogue: Catalogue) -> list[Entry]:
    found: list[Entry] = []
    for evaluation in evaluations:
        protocol = catalogue.get(evaluation.protocol, Protocol)
        found += [(evaluation, r, protocol) for r in evaluation.results]
    return found


def _by_dataset(catalogue: Catalogue) -> dict[str, list[Evaluation]]:
    out: dict[str, list[Evaluation]] = defaultdict(list)
    for evaluation in catalogue.of_kind(Evaluation):
        out[evaluation.dataset].append(evaluation)
    return out


def _title(catalogue: Catalogue, record_id: str) -> str:
    return getattr(catalogue.by_id.get(record_id), "title", record_id)


def _family_of(evaluation: Evaluation, catalogue: Catalogue) -> str:
    return catalogue.get(evaluation.configuration, Configuration).family


def _overlaps(
    groups: Sequence[tuple[str, list[Entry]]], catalogue: Catalogue, flags: Flags
) -> list[OverlapRow]:
    rows: list[OverlapRow] = []
    for (left_name, left), (right_name, right) in combinations(groups, 2):
        for a in left:
            for b in right:
                if _family_of(a[0], catalogue) != _family_of(b[0], catalogue):
                    continue
                if metric_of(a[2], a[1].column) != metric_of(b[2], b[1].column):
                    continue
                if a[1].value is None or b[1].value is None:
                    continue
                reasons = not_comparable(a, b)
                family = catalogue.by_id.get(_family_of(a[0], catalogue))
                rows.append(
                    OverlapRow(
                        family=getattr(family, "name", _family_of(a[0], catalogue)),
                        metric=label_of(a[2], a[1].column),
                        left=_cell(a, flags),
                        left_group=f"{left_name}: {_title(catalogue, a[0].configuration)}",
                        right=_cell(b, flags),
                        right_group=f"{right_name}: {_title(catalogue, b[0].configuration)}",
                        verdict="Comparable"
                        if not reasons
                        else "Not comparable: " + "; ".join(unlike_text(u) for u in reasons),
                    )
                )
    return rows


OVERLAP_LIMIT = 50
"""Pairs of 'where sources overlap' a task page lists in full; beyond it the page lists
the comparable pairs (at most this many) and counts the rest by verdict (the synthetic
random-DNA task had 3,921 pairs: a 10 MB page)."""


def _has_page(
    group_ids: Sequence[str], by_dataset: Mapping[str, Sequence[Evaluation]], catalogue: Catalogue
) -> bool:
    """True when the task has a page: an evaluation or a result table's row on it."""
    return any(by_dataset.get(d) or catalogue.result_rows.of_dataset(d) for d in group_ids)


def task_pages(catalogue: Catalogue, flags: Flags, release_id: str) -> list[TaskPage]:
    """One page per task (a group of datasets) with a recorded evaluation."""
    by_dataset = _by_dataset(catalogue)
    facts = ModelFacts(catalogue)
    return [
        _task_page(group_ids, by_dataset, catalogue, flags, release_id, facts)
        for group_ids in task_groups(catalogue)
        if _has_page(group_ids, by_dataset, catalogue)
    ]


def task_files(
    first_dataset: str, catalogue: Catalogue, flags: Flags, release_id: str
) -> list[TaskPage | DataFile]:
    """The page of the task whose first dataset is `first_dataset` and the download of
    its pairs (none without a page): one page job each. It reads only its datasets'
    evaluations (through their referrers), so `rewire serve` remakes it only when they
    change."""
    group_ids = next(g for g in task_groups(catalogue) if g[0] == first_dataset)
    by_dataset = {
        d: [e for e in catalogue.referring(d, Evaluation) if isinstance(e, Evaluation)]
        for d in group_ids
    }
    by_dataset = {d: [e for e in found if e.dataset == d] for d, found in by_dataset.items()}
    if not _has_page(group_ids, by_dataset, catalogue):
        return []
    page = _task_page(group_ids, by_dataset, catalogue, flags, release_id, ModelFacts(catalogue))
    return [page, *_overlap_files([page])]


def _overlap_files(tasks: Iterable[TaskPage]) -> list[DataFile]:
    return [
        DataFile(p.overlap_download, overlaps_csv(p.all_overlaps))
        for p in tasks
        if p.overlap_download
    ]


def _entry_groups(
    group_ids: tuple[str, ...],
    by_dataset: Mapping[str, list[Evaluation]],
    catalogue: Catalogue,
) -> list[tuple[str, list[Entry]]]:
    """The task's results with a value, one group per protocol (and dataset), named
    '<source>, <protocol>': what 'where sources overlap' pairs up."""
    found: list[tuple[str, list[Entry]]] = []
    for dataset_id in group_ids:
        by_protocol: dict[str, list[Evaluation]] = defaultdict(list)
        for evaluation in by_dataset.get(dataset_id, []):
            by_protocol[evaluation.protocol].append(evaluation)
        for protocol_id in sorted(by_protocol):
            protocol = catalogue.get(protocol_id, Protocol)
            evaluations = by_protocol[protocol_id]
            names = ", ".join(sorted({_source_name(e, catalogue) for e in evaluations}))
            entries = [e for e in _entries(evaluations, catalogue) if e[1].value is not None]
            found.append((f"{names}, {protocol.title}", entries))
    for link in columns_for(group_ids, catalogue):
        protocol = catalogue.get(link.protocol, Protocol)
        evaluations = [
            e
            for e in catalogue.evaluations_of(protocol.id)
            if any(r.column == link.column for r in e.results)
        ]
        names = ", ".join(sorted({_source_name(e, catalogue) for e in evaluations}))
        entries = [
            e
            for e in _entries(evaluations, catalogue)
            if e[1].column == link.column and e[1].value is not None
        ]
        if entries:
            found.append((f"{names}, {protocol.title}", entries))
    return found


def _overlap_counts(overlaps: Sequence[OverlapRow]) -> tuple[str, ...]:
    """'N comparable', then each not-comparable reason with its count."""
    comparable = sum(o.verdict == "Comparable" for o in overlaps)
    reasons: Counter[str] = Counter()
    for o in overlaps:
        if o.verdict != "Comparable":
            reasons.update(o.verdict.removeprefix("Not comparable: ").split("; "))
    lines = [f"{plural(comparable, 'pair')} comparable"] if comparable else []
    lines += [f"{count:,} not comparable: {reason}" for reason, count in reasons.most_common()]
    return tuple(lines)


def overlaps_path(first_dataset: str) -> str:
    """The download of a task's pairs of 'where sources overlap' (when the page lists
    only some of them)."""
    return f"tasks/{first_dataset}/overlaps.csv"


def overlaps_csv(overlaps: Sequence[OverlapRow]) -> bytes:
    """Every pair of a task's 'where sources overlap', one CSV line each."""
    return csv_bytes(
        (
            "model family",
            "metric",
            "one table",
            "value",
            "its evidence page",
            "other table",
            "value",
            "its evidence page",
            "comparable?",
        ),
        (
            (
                o.family,
                o.metric,
                o.left_group,
                o.left.text,
                o.left.href,
                o.right_group,
                o.right.text,
                o.right.href,
                o.verdict,
            )
            for o in overlaps
        ),
    )


def _task_page(
    group_ids: tuple[str, ...],
    by_dataset: Mapping[str, list[Evaluation]],
    catalogue: Catalogue,
    flags: Flags,
    release_id: str,
    facts: ModelFacts,
) -> TaskPage:
    """The task page of the datasets `group_ids` (`by_dataset`: their evaluations)."""
    datasets = [catalogue.get(d, Dataset) for d in group_ids]
    same_column = [link.evidence for link in columns_for(group_ids, catalogue)]
    path = task_path(group_ids[0])
    overlaps = _overlaps(_entry_groups(group_ids, by_dataset, catalogue), catalogue, flags)
    shown = overlaps
    if len(overlaps) > OVERLAP_LIMIT:
        shown = [o for o in overlaps if o.verdict == "Comparable"][:OVERLAP_LIMIT]
    heading = " = ".join(d.title for d in datasets)
    found = task_boards(group_ids, catalogue, flags, by_dataset, facts)
    return TaskPage(
        **page_header(
            "task.html",
            path,
            f"Task: {heading}",
            f"Which model is best on {heading}: every recorded result, one table per protocol.",
            release_id,
        ),
        heading=heading,
        datasets=tuple(Link(d.title, page_of(d)) for d in datasets),
        same_task=tuple(_link_text(s, catalogue) for s in links_between(group_ids, catalogue))
        + tuple(same_column),
        board=leaderboard(found, catalogue, heading),
        overlaps=tuple(shown),
        overlap_note=(
            f"{plural(len(overlaps), 'pair')} of results of one model family on this "
            "task in two different tables. They are shown side by side, never ranked "
            "together unless the verdict says comparable."
            + (
                f" Listed: {plural(len(shown), 'comparable pair')}; the others are "
                "counted by verdict below and every pair is in the download."
                if len(shown) < len(overlaps)
                else ""
            )
            if overlaps
            else "No model family has results on this task in two different tables."
        ),
        overlap_counts=_overlap_counts(overlaps) if len(shown) < len(overlaps) else (),
        overlap_download=overlaps_path(group_ids[0]) if len(shown) < len(overlaps) else "",
        all_overlaps=tuple(overlaps) if len(shown) < len(overlaps) else (),
        cross_source=task_section(group_ids, catalogue, task_path),
    )


def _link_text(link: TaskLink, catalogue: Catalogue) -> str:
    """One line of a task page on a dataset link: the same task with its evidence, or a
    related dataset kept apart with the note."""
    if link.same:
        return (
            f"Same task (same files and split): Same files: {link.files} Same split: {link.split}"
        )
    first, second = (catalogue.by_id.get(d) for d in (link.first, link.second))
    names = " and ".join(
        r.title if r is not None else d for r, d in ((first, link.first), (second, link.second))
    )
    return f"Related, kept apart: {names}. {link.evidence}"


def matrix_pages(catalogue: Catalogue, release_id: str) -> list[FamilyMatrixPage]:
    """One task-by-metric matrix per model family with a result value."""
    pages: list[FamilyMatrixPage] = []
    by_family: dict[str, list[Entry]] = defaultdict(list)
    for evaluation in catalogue.of_kind(Evaluation):
        for entry in _entries([evaluation], catalogue):
            by_family[_family_of(evaluation, catalogue)].append(entry)
    for family in catalogue.of_kind(ModelFamily):
        page = _matrix_page(family, by_family.get(family.id, []), catalogue, release_id)
        if page is not None:
            pages.append(page)
    return pages


def matrix_files(family_id: str, catalogue: Catalogue, release_id: str) -> list[FamilyMatrixPage]:
    """The matrix of one family (none without a result value): one page job each. It
    reads only the family's configurations and their evaluations (through their
    referrers), so `rewire serve` remakes it only when they change."""
    family = catalogue.get(family_id, ModelFamily)
    found: list[Entry] = []
    for configuration in catalogue.referring(family_id, Configuration):
        if isinstance(configuration, Configuration) and configuration.family == family_id:
            evaluations = catalogue.referring(configuration.id, Evaluation)
            found += _entries(
                (
                    e
                    for e in evaluations
                    if isinstance(e, Evaluation) and e.configuration == configuration.id
                ),
                catalogue,
            )
    page = _matrix_page(family, found, catalogue, release_id)
    return [] if page is None else [page]


def _matrix_page(
    family: ModelFamily, found: Sequence[Entry], catalogue: Catalogue, release_id: str
) -> FamilyMatrixPage | None:
    """The task-by-metric matrix of `family` (`found`: its results); None without a
    result value."""
    entries = [e for e in found if e[1].value is not None]
    if not entries:
        return None
    metrics: dict[str, str] = {}
    cells: dict[tuple[str, str], list[str]] = defaultdict(list)
    for evaluation, result, protocol in sorted(entries, key=lambda e: e[0].id):
        metric = metric_of(protocol, result.column)
        metrics.setdefault(metric, _metric_label(protocol, result.column))
        configuration = _title(catalogue, evaluation.configuration)
        cells[(evaluation.dataset, metric)].append(f"{_value(result, protocol)} ({configuration})")
    metric_ids = sorted(metrics, key=lambda m: metrics[m])
    datasets = sorted({d for d, _ in cells}, key=lambda d: (_title(catalogue, d), d))
    rows = tuple(
        MatrixRow(
            Link(_title(catalogue, d), page_of(catalogue.get(d, Dataset))),
            tuple("; ".join(cells.get((d, m), [])) for m in metric_ids),
        )
        for d in datasets
    )
    path = matrix_path(family.id)
    return FamilyMatrixPage(
        **page_header(
            "family_matrix.html",
            path,
            f"{family.name}: results by task and metric",
            f"Every recorded result of {family.name}, by task and metric.",
            release_id,
        ),
        family=Link(family.name, page_of(family)),
        metrics=tuple(metrics[m] for m in metric_ids),
        rows=rows,
        note=(
            f"{plural(len(entries), 'result')} on {plural(len(datasets), 'task')}. "
            "A cell lists each configuration's value; values from different "
            "protocols are listed, not ranked."
        ),
    )


def _metric_label(protocol: Protocol, column_id: str) -> str:
    for column in protocol.columns:
        if column.id == column_id and column.metric is not None:
            return column.metric.label
    return protocol.metric.label


def _pairs(by_config: Mapping[str, Mapping[tuple[str, str], Entry]]) -> list[tuple[str, str]]:
    """Pairs of configurations, in `combinations(sorted(...), 2)` order, that may share
    results on two or more datasets: those that share two protocols, or one protocol in
    which some configuration has results on two datasets. A superset (`compare_pages`
    checks each pair), found per protocol instead of over every pair of configurations
    (quadratic: 3.1 million pairs, 3 CPU-s, at 2,500 configurations)."""
    configs_of: dict[str, set[str]] = defaultdict(set)
    datasets_of: dict[tuple[str, str], set[str]] = defaultdict(set)
    for config, entries in by_config.items():
        for (protocol_id, _), (evaluation, _, _) in entries.items():
            configs_of[protocol_id].add(config)
            datasets_of[(config, protocol_id)].add(evaluation.dataset)
    multi = {p for (_, p), found in datasets_of.items() if len(found) > 1}
    shared: Counter[tuple[str, str]] = Counter()
    for protocol_id, configs in configs_of.items():
        weight = 2 if protocol_id in multi else 1
        for pair in combinations(sorted(configs), 2):
            shared[pair] += weight
    return sorted(pair for pair, count in shared.items() if count >= 2)


def compare_pages(catalogue: Catalogue, flags: Flags, release_id: str) -> list[ComparePage]:
    by_config: dict[str, dict[tuple[str, str], Entry]] = defaultdict(dict)
    protocols: dict[str, Protocol] = {}  # each looked up once, not once per evaluation
    for evaluation in catalogue.of_kind(Evaluation):
        protocol = protocols.get(evaluation.protocol)
        if protocol is None:
            protocol = protocols[evaluation.protocol] = catalogue.get(evaluation.protocol, Protocol)
        for result in evaluation.results:
            if result.value is not None:
                key = (evaluation.protocol, result.column)
                by_config[evaluation.configuration][key] = (evaluation, result, protocol)
    pages: list[ComparePage] = []
    for left_id, right_id in _pairs(by_config):
        shared = sorted(set(by_config[left_id]) & set(by_config[right_id]))
        datasets = {by_config[left_id][k][0].dataset for k in shared}
        if len(datasets) < 2:
            continue
        left = catalogue.get(left_id, Configuration)
        right = catalogue.get(right_id, Configuration)
        rows: list[PairRow] = []
        wins: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for key in shared:
            a, b = by_config[left_id][key], by_config[right_id][key]
            if not_comparable(a, b):
                continue
            protocol = a[2]
            label = _metric_label(protocol, key[1])
            group = f"{_source_name(a[0], catalogue)} · {label}"
            winner = ""
            if excluded(flags.get(a[0].id, ()), key[1]) or excluded(flags.get(b[0].id, ()), key[1]):
                wins[group][3] += 1
            else:
                found = better(a, b)
                if found == "tie":
                    winner, index = "tie", 2
                elif found == "first":
                    winner, index = left.title, 0
                else:
                    winner, index = right.title, 1
                wins[group][index] += 1
            dataset = catalogue.get(a[0].dataset, Dataset)
            rows.append(
                PairRow(
                    task=Link(dataset.title, page_of(dataset)),
                    metric=label_of(protocol, key[1]),
                    left=_cell(a, flags),
                    right=_cell(b, flags),
                    winner=winner,
                )
            )
        if not rows:
            continue
        path = compare_path(left_id, right_id)
        pages.append(
            ComparePage(
                **page_header(
                    "compare.html",
                    path,
                    f"{left.title} and {right.title}",
                    f"Comparable results of {left.title} and {right.title}.",
                    release_id,
                ),
                left=Link(left.title, page_of(left)),
                right=Link(right.title, page_of(right)),
                wins=tuple(
                    WinCount(group, _win_text(counts, left.title, right.title))
                    for group, counts in sorted(wins.items())
                ),
                rows=tuple(rows),
                note=(
                    "Only pairs measured under the same protocol, column, adaptation and "
                    "split are listed; there is no overall score, and a count of tasks is "
                    "not a measure of how much better."
                ),
                answer=pair_answer(left.title, right.title, rows, len(wins)),
            )
        )
    return pages


def pair_answer(left: str, right: str, rows: Sequence[PairRow], groups: int) -> str:
    """'A and B have 12 comparable pairs of results on 6 tasks, from 2 sources and
    metrics; each is counted below, with no overall score.'"""
    tasks = len({r.task.href for r in rows})
    sources = plural(groups, "source and metric", "sources and metrics")
    return (
        f"{left} and {right} have {plural(len(rows), 'comparable pair')} of results on "
        f"{plural(tasks, 'task')}, from {sources}; each is counted below, with no overall "
        "score."
    )


def _win_text(counts: list[int], left: str, right: str) -> str:
    a, b, ties, out = counts
    text = f"{left} better on {plural(a, 'task')}, {right} on {plural(b, 'task')}"
    if ties:
        text += f", {plural(ties, 'tie')}"
    if out:
        text += f", {out} not judged (excluded from comparisons)"
    return text


def chooser_index(
    catalogue: Catalogue, flags: Flags, release_id: str
) -> list[ChooserIndexPage | ComparePage]:
    """The chooser's index and the two-configuration comparisons it lists: one page job.
    The index names the tasks and families with a page without making those pages."""
    by_dataset = _by_dataset(catalogue)
    groups = [g for g in task_groups(catalogue) if _has_page(g, by_dataset, catalogue)]
    valued = {
        _family_of(e, catalogue)
        for e in catalogue.of_kind(Evaluation)
        if any(r.value is not None for r in e.results)
    }
    families = [f for f in catalogue.of_kind(ModelFamily) if f.id in valued]
    pairs = compare_pages(catalogue, flags, release_id)
    chosen = [g for g in groups if is_task_group(g, catalogue)]

    def task_link(group_ids: tuple[str, ...]) -> Link:
        heading = " = ".join(catalogue.get(d, Dataset).title for d in group_ids)
        return Link(heading, task_path(group_ids[0]))

    index = ChooserIndexPage(
        **page_header(
            "chooser.html",
            INDEX,
            "Choose a model: tasks, families and comparisons",
            "Results by task, by model family, and for two models side by side.",
            release_id,
            nav="chooser",
        ),
        tasks=tuple(task_link(g) for g in chosen),
        other_data=tuple(task_link(g) for g in groups if g not in chosen),
        families=tuple(Link(f.name, matrix_path(f.id)) for f in families),
        pairs=tuple(Link(p.title, p.path) for p in pairs),
        note=(
            f"{plural(len(chosen), 'task')}, "
            f"{plural(len(families), 'model family', 'model families')}, "
            f"{plural(len(pairs), 'pair')} of configurations that share at least two tasks."
        ),
    )
    return [index, *pairs]


def chooser_pages(
    catalogue: Catalogue, flags: Flags, release_id: str
) -> list[TaskPage | FamilyMatrixPage | ComparePage | ChooserIndexPage | DataFile]:
    """Every chooser page and download: what the page jobs `chooser_index`,
    `task_files` and `matrix_files` make together."""
    tasks = task_pages(catalogue, flags, release_id)
    index, *pairs = chooser_index(catalogue, flags, release_id)
    matrices = matrix_pages(catalogue, release_id)
    return [index, *tasks, *matrices, *pairs, *_overlap_files(tasks)]
