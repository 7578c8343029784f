"""Derived facts: pure functions over a linked `Catalogue`, returning frozen dataclasses.

No I/O, no HTML: templates display these values as they are. Compute flags once per
build (`flags_by_evaluation`) and pass them to the table and row functions.

Tables (`tables.py`; in words: render/comparison_table.py)
    comparison(protocol, catalogue, sort_by=None, *, dataset_id=None, flags=None,
        evaluations=None, setup_keys=(), setup_defaults=None) -> Comparison(columns:
        ComparedColumn..., rows: ComparedRow(cells: ComparedCell(value, status, flags,
        standing, ...)...)..., sort_column, counts, ...)
    row_order(rows, columns, sort_by) -> positions of the rows sorted by another column
    protocol_comparisons(protocol, catalogue, *, flags=None) -> ProtocolComparisons
Readiness (`readiness.py`)
    readiness(evaluation, catalogue, artifact_hashes) -> Readiness(checks: Check(state,
        requirements: Requirement(state, detail)...)..., met_count, artifacts); its words:
        render/readiness_text.readiness_view
    `artifact_hashes`: artifact path -> SHA-256 the builder computed (None: no file);
    `release.hash_artifacts(catalogue, root)` makes it. scales.is_resource_metric(protocol)
    -> bool (memory, time, throughput: no per-sample predictions).
Concerns (`concerns.py`)
    flags(evaluation, catalogue) -> tuple[Flag, ...]; flags_by_evaluation(catalogue)
    -> dict[evaluation id, tuple[Flag, ...]] (Flag: kind, columns, detail; its words:
    render/present/flags.flag_view); excluded(flags, column_id) -> bool;
    accelerators(text) -> frozenset[str] ('NVIDIA H100 94GB' -> {'H100'})
Result rows (`result_rows.py`)
    result_row(evaluation, catalogue) -> ResultRow (the row of one classifier's results);
    class_balance(evaluation, catalogue) -> Balance | None (where a row shows it)
Trivial results (`trivial.py`)
    trivial_results(row, *, majority_share=None, higher_is_better=...) -> tuple[Trivial,
        ...] (answers_negative | majority_class | chance_ranking: no better than a
        trivial answer; computed concerns that take the results out of comparisons)
Agreement (`agreement.py`)
    agreement(measured, published, tolerance, *, blocked=None, shape='point',
        gigabyte_ambiguous=False) -> Agreement(state: agrees | disagrees | depends_on_unit
        | no_tolerance | not_comparable, ratio, tolerance, shape, gib_ratio, reason, note;
        .reproduced (agrees only), .off); published_reading(published, result, protocol)
        -> (shape, gigabyte_ambiguous); its words: render/present/agreement.py
Verdicts (`verdicts.py`, one per published value)
    judge_column(rows, reading) -> ColumnVerdict(state: reproduced | not_reproduced |
        depends_on_unit | depends_on_setting | not_judged | incomplete, rule:
        declared_reading | one_setting | every_setting, reading, judged_id (the newest
        run under the rule), agreement, matched, with_value, outside*); read as
        ReproducedColumn.verdict by every page and export
Comparability guard (`comparability.py`)
    conditions(evaluation, result, protocol, catalogue) -> Conditions (adaptation, split,
        metric and scale, length unit, hardware class where the protocol declares that the
        metric depends on it); standings(entries, direction) -> Ranking(standings:
        Standing(state: best | tied | ranked | alone | unstated | excluded | no_value,
        group_size, unstated, excluded_by)..., groups: best needs a lead beyond
        value_margin(metric, result), else tied; their words: render/present/standing.py);
        hardware_blocks(measured, published, protocol, catalogue) -> HardwareBlock | None;
        protocol_depends_on_hardware(protocol) -> bool (undeclared: True)
Reproduction (`reproduction.py`, one model; in words: render/reproduction.py)
    protocol_reproduction_groups(protocol, catalogue, flags=None) -> tuple[ReproductionGroup,
        ...] (one per published evaluation: columns: ReproducedColumn(published, rows:
        ReproductionRow(differences, flags, pair: ReproductionPair(agreement, ...))...,
        verdict)..., counts);
    evaluation_reproductions(evaluation, catalogue, flags=None); reproduction_group(
        published, measured, catalogue, flags=None) -> ReproductionGroup | None
Related (`related.py`)
    related(record, catalogue) -> tuple[Related(relation, record_id, kind, title,
        direction), ...]
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .agreement import Agreement, agreement
    from .comparability import (
        Conditions,
        Entry,
        Ranking,
        Standing,
        accelerators,
        conditions,
        hardware_blocks,
        protocol_depends_on_hardware,
        standings,
    )
    from .concerns import (
        Flag,
        excluded,
        flags,
        flags_by_evaluation,
    )
    from .readiness import (
        ArtifactStatus,
        Check,
        Readiness,
        Requirement,
        readiness,
    )
    from .related import Related, related
    from .reproduction import (
        ReproducedColumn,
        ReproductionGroup,
        ReproductionPair,
        ReproductionRow,
        evaluation_reproductions,
        protocol_reproduction_groups,
        reproduction_group,
    )
    from .scales import is_resource_metric
    from .tables import (
        ComparedCell,
        ComparedColumn,
        ComparedRow,
        Comparison,
        comparison,
        row_order,
    )

_LAZY: dict[str, str] = {
    "Agreement": "agreement",
    "agreement": "agreement",
    "ArtifactStatus": "readiness",
    "Check": "readiness",
    "Readiness": "readiness",
    "Requirement": "readiness",
    "is_resource_metric": "scales",
    "readiness": "readiness",
    "Related": "related",
    "related": "related",
    "Conditions": "comparability",
    "Entry": "comparability",
    "Ranking": "comparability",
    "Standing": "comparability",
    "accelerators": "comparability",
    "conditions": "comparability",
    "hardware_blocks": "comparability",
    "protocol_depends_on_hardware": "comparability",
    "standings": "comparability",
    "Flag": "concerns",
    "excluded": "concerns",
    "flags": "concerns",
    "flags_by_evaluation": "concerns",
    "ReproducedColumn": "reproduction",
    "ReproductionGroup": "reproduction",
    "ReproductionPair": "reproduction",
    "ReproductionRow": "reproduction",
    "evaluation_reproductions": "reproduction",
    "protocol_reproduction_groups": "reproduction",
    "reproduction_group": "reproduction",
    "ComparedCell": "tables",
    "ComparedColumn": "tables",
    "ComparedRow": "tables",
    "Comparison": "tables",
    "comparison": "tables",
    "row_order": "tables",
}
"""Exported name -> the submodule that defines it, imported on first use (see
`__getattr__`): validation imports `derive.artifacts` alone, without the rest. It pays
at `rewire validate`'s start (bench_validate.py times the command with its imports):
importing every export after `rewire_site.cli` and `rewire_site.validate` adds 14
modules and 0.28-0.70 s wall (three runs, load 7-10, 2026-12-02). The module class swap
below is the price of loading lazily (eager imports would need no swap)."""

_NAMED_LIKE_THEIR_MODULE = frozenset({"agreement", "readiness", "related"})
"""Exported functions that share their submodule's name."""


class _Package(types.ModuleType):
    """This package's module class. Importing a submodule sets the package attribute of
    its name to the module: for `agreement`, `readiness` and `related` the attribute
    stays the function of that name instead (as when this file imported them itself)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _NAMED_LIKE_THEIR_MODULE and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

if not TYPE_CHECKING:  # for type checkers the names are the imports above

    def __getattr__(name: str) -> object:
        """An exported name, imported from its submodule on first use (PEP 562)."""
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *_LAZY})


__all__ = [
    "Agreement",
    "ArtifactStatus",
    "Check",
    "ComparedCell",
    "ComparedColumn",
    "ComparedRow",
    "Comparison",
    "Conditions",
    "Entry",
    "Flag",
    "Ranking",
    "Readiness",
    "Related",
    "ReproducedColumn",
    "ReproductionGroup",
    "ReproductionPair",
    "ReproductionRow",
    "Requirement",
    "Standing",
    "accelerators",
    "agreement",
    "comparison",
    "conditions",
    "evaluation_reproductions",
    "excluded",
    "flags",
    "flags_by_evaluation",
    "hardware_blocks",
    "is_resource_metric",
    "protocol_depends_on_hardware",
    "protocol_reproduction_groups",
    "readiness",
    "related",
    "reproduction_group",
    "row_order",
    "standings",
]
