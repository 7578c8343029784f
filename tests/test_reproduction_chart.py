"""The bar chart of a reproduction group (render/reproduction_chart.py): which bars it
draws in which series (the agreement verdict's), its geometry, and the text it carries.
"""

from __future__ import annotations

import itertools

import pytest
from scenarios import load_scenario

from rewire_site.derive import reproduction as derived
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol
from rewire_site.render.reproduction import (
    evaluation_reproductions,
    protocol_reproduction_groups,
    reproduction_group,
)
from rewire_site.render.reproduction_chart import group_chart, group_charts, nice_axis, wrap


def test_chart_draws_agreeing_values_as_reproduced_and_the_rest_as_measured() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    (group,) = protocol_reproduction_groups(protocol, catalogue)
    chart = group_chart(group, protocol)
    assert chart is not None
    labels = [[(b.series, b.label) for b in g.bars] for g in chart.groups]
    assert labels[0][:3] == [
        ("published", "Published"),
        ("reproduced", "fp32-autocast · full"),
        ("measured", "bf16 · full"),  # agrees only if 'GB' means 10^9 bytes
    ]
    assert {s for s, _ in labels[1][1:3]} == {"measured"}
    assert [e.series for e in chart.legend] == ["published", "reproduced", "measured", "estimate"]
    bars = [b for g in chart.groups for b in g.bars]
    scale = (chart.plot_right - chart.plot_left) / chart.axis_max
    for bar in bars:
        assert bar.x == chart.plot_left
        assert bar.value is not None and bar.width == pytest.approx(bar.value * scale, abs=0.01)
        assert chart.plot_top <= bar.y < chart.plot_bottom
        assert len(bar.label) * 7.2 <= bar.label_x  # the label fits left of the bars
        assert not bar.label.endswith("…")
    ys = [b.y for b in bars]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)
    assert all(b2.y - b1.y >= b1.height for b1, b2 in itertools.pairwise(bars))
    assert chart.groups[0].bars[1].display == "34.2 (1.01×)"
    # Group labels wrap inside the chart; the axis title sits below the tick labels.
    for g in chart.groups:
        assert all(4 + len(line.text) * 7.2 <= chart.width for line in g.lines)
    assert chart.plot_bottom + 14 < chart.axis_label_y <= chart.height - 4
    assert "Peak memory" in chart.caption and "estimates" in chart.caption


@pytest.mark.parametrize(
    ("maximum", "axis"),
    [(33.88, (40.0, 10.0)), (1.18, (1.25, 0.25)), (50, (50.0, 10.0)), (0.0, (1.0, 0.2))],
)
def test_nice_axis(maximum: float, axis: tuple[float, float]) -> None:
    assert nice_axis(maximum) == axis


def test_wrap_keeps_every_word_within_the_width() -> None:
    text = "Training, sequence length 1000, batch size 16, stage + Checkpointing (FlashAttention)"
    lines = wrap(text, 200)
    assert " ".join(lines) == text
    assert all(len(line) * 7.2 <= 200 for line in lines)


def test_group_chart_names_the_metric_of_the_columns_it_draws() -> None:
    """The chart's axis and caption name the metric of the reproduced columns (a column's
    own metric where it has one), not the protocol's declared metric. Real records: the
    DNABERT-2 GUE protocol (declared MCC), its EPI column given an F1 metric of its own."""
    from pathlib import Path

    from scenarios import record_closure

    from rewire_site.validate import validate_paths

    root = Path(__file__).resolve().parents[1]
    published = "evidence-20261130-eval-dnabert-2-gue-plus-epi-0-published"
    files = record_closure([published], root / "records")
    measured = [
        p
        for p in (root / "records").glob("evidence-20261130-eval-dnabert-2-gue-plus-epi*.yaml")
        if p.stem != published
    ]
    for path in measured:
        files.update(record_closure([path.stem], root / "records"))
    report = validate_paths(list(files.values()), root, cache=False)
    assert report.ok, [str(p) for p in report.problems[:3]]
    catalogue = Catalogue.from_records(report.records.values())
    protocol = catalogue.get("evidence-20261130-protocol-dnabert-2-gue-fine-tuning", Protocol)
    (group,) = protocol_reproduction_groups(protocol, catalogue)
    chart = group_chart(group, protocol)
    assert chart is not None and chart.axis_label == "MCC (percent)"
    f1 = protocol.metric.model_copy(update={"id": "f1", "label": "F1 score"})
    columns = [
        c.model_copy(update={"metric": f1}) if c.id == "epi-dataset-0" else c
        for c in protocol.columns
    ]
    changed = protocol.model_copy(update={"columns": columns})
    records = [changed if r.id == protocol.id else r for r in report.records.values()]
    (group,) = protocol_reproduction_groups(changed, Catalogue.from_records(records))
    chart = group_chart(group, changed)
    assert chart is not None
    assert chart.axis_label == "F1 score (percent)"
    assert chart.caption.startswith("F1 score (percent): ")


def test_without_tolerance_the_chart_draws_no_agreeing_series() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol).model_copy(
        update={"tolerance": None, "tolerance_reason": None}
    )
    records = [protocol if r.id == protocol.id else r for r in catalogue.by_id.values()]
    changed = Catalogue.from_records(records)
    published = changed.get("eval-nt-published", Evaluation)
    found = derived.reproduction_group(published, changed.evaluations_of(protocol.id), changed)
    assert found is not None
    chart = group_chart(reproduction_group(found, changed), protocol)
    assert chart is not None
    assert [e.series for e in chart.legend] == ["published", "measured", "estimate"]


def test_an_incomplete_run_gets_a_labelled_bar_without_a_value() -> None:
    catalogue = load_scenario("incomplete_run")
    (group,) = protocol_reproduction_groups(catalogue.get("repro-peak-memory", Protocol), catalogue)
    (chart,) = group_charts([group], catalogue)
    assert chart is not None
    bar = chart.groups[0].bars[2]
    assert (bar.value, bar.width, bar.display) == (None, 0.0, "Incomplete run")


def test_a_measurement_page_charts_its_own_group() -> None:
    catalogue = load_scenario("setup_rows")
    measured = catalogue.get("eval-nt-rewire-fp32-ds", Evaluation)
    (chart,) = group_charts(evaluation_reproductions(measured, catalogue), catalogue)
    assert chart is not None and [g.column_id for g in chart.groups] == ["deepspeed"]
