"""Derived facts: pure functions over a linked `Catalogue`, returning frozen dataclasses.

No I/O, no HTML: templates display these values as they are. Compute flags once per
build (`flags_by_evaluation`) and pass them to the table and row functions.

Tables (`tables.py`)
    comparison_table(protocol, catalogue, sort_by=None, *, dataset_id=None, flags=None,
        evaluations=None) -> ComparisonTable(columns: TableColumn..., rows: TableRow(cells:
        Cell...)..., sort_text, counts_text, short_counts_text, ...)
    resort(table, sort_by) -> ComparisonTable (same cells, sorted by another column: use it
        for the pre-rendered sorted pages instead of recomputing the table)
    evaluation_rows(evaluations, catalogue, *, flags=None) -> tuple[EvaluationRow, ...]
        ("Exact evaluated configurations and original reported results")
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
    display.flag_view); excluded(flags, column_id) -> bool;
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
        -> (shape, gigabyte_ambiguous); its words: display.agreement_text, agreement_verdict
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
        label)..., groups: best needs a lead beyond value_margin(metric, result), else
        tied); hardware_blocks(measured, published, protocol, catalogue) -> HardwareBlock | None;
        protocol_depends_on_hardware(protocol) -> bool (undeclared: True)
Reproduction (`reproduction.py`, one model)
    protocol_reproduction_groups(protocol, catalogue, flags=None) -> tuple[ReproductionGroup,
        ...] (one per published evaluation: columns: ReproducedColumn(published_*, rows:
        ReproductionRow(setup, differences, pair: ReproductionPair(agreement, ...))...,
        closest_text, estimates)..., summary);
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
        Cell,
        ComparisonTable,
        EvaluationRow,
        TableColumn,
        TableRow,
        comparison_table,
        evaluation_rows,
        resort,
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
    "Cell": "tables",
    "ComparisonTable": "tables",
    "EvaluationRow": "tables",
    "TableColumn": "tables",
    "TableRow": "tables",
    "comparison_table": "tables",
    "evaluation_rows": "tables",
    "resort": "tables",
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
    "Cell",
    "Check",
    "ComparisonTable",
    "Conditions",
    "Entry",
    "EvaluationRow",
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
    "TableColumn",
    "TableRow",
    "accelerators",
    "agreement",
    "comparison_table",
    "conditions",
    "evaluation_reproductions",
    "evaluation_rows",
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
    "resort",
    "standings",
]
