"""One scale per metric on every page: a value is shown on its metric's canonical scale by
one function (`display.scaled_value`), MCC never as a percentage, and a spreadsheet's
16-digit float rounded by the one stated rule, never shown as if printed so (issue 23,
item 4).

Real case: an MCC of 0.3622498911964387 (a GitHub issue's log, on the 0-1 scale) inside
a protocol on the 0-100 scale showed as "0.362%" beside "61.9%" on the GUE+ EPI task page
and the DNABERT-2 family matrix. The records are copied from `records/`.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from htmltext import flat, page_text
from scenarios import copy_closure

from rewire_site.build import build_site
from rewire_site.models import Metric
from rewire_site.models.common import Scale
from rewire_site.render.present.values import ROUNDING_RULE, scale_unit, scaled_value

ROOT = Path(__file__).resolve().parents[1]
USER_RUN = "evidence-20261130-eval-dnabert-2-gue-plus-epi-gm12878-leannmlindsey"

MCC = Metric(
    id="mcc", label="MCC", unit="percent", direction="higher", scale=Scale.percent,
    minimum=-100, maximum=100,
)  # fmt: skip
ACCURACY = Metric(
    id="accuracy", label="Accuracy", unit="percent", direction="higher",
    scale=Scale.percent, minimum=0, maximum=100,
)  # fmt: skip
MEMORY = Metric(id="peak-memory", label="Peak memory", unit="gigabyte", direction="lower")


def test_mcc_is_never_a_percentage() -> None:
    user = scaled_value(MCC, 0.3622498911964387, "value", Scale.fraction, "0.3622498911964387")
    assert (user.value, user.text) == (0.3622498911964387, "0.3622")
    assert user.note == "rounded from 0.3622498911964387"
    paper = scaled_value(MCC, 61.9, "value", None, "61.9")
    assert paper.value == pytest.approx(0.619)
    assert paper.full == "0.619 (printed 61.9, x100)"
    assert "%" not in user.full + paper.full
    assert scale_unit(MCC) == "correlation, -1 to 1"


def test_a_percent_metric_converts_a_fraction_and_keeps_the_printed_value() -> None:
    assert scaled_value(ACCURACY, 61.9, "value", None, "61.9").full == "61.9%"
    fraction = scaled_value(ACCURACY, 0.6845, "value", Scale.fraction, "0.6845")
    assert fraction.value == pytest.approx(68.45)
    assert fraction.full == "68.45% (printed 0.6845 as a fraction)"


def test_long_floats_are_rounded_and_say_so() -> None:
    csv = scaled_value(ACCURACY, 66.96891191709845, "value", None, "66.96891191709845")
    assert csv.full == "66.97% (rounded from 66.96891191709845)"
    assert scaled_value(MEMORY, 33.88, "value", None, "33.88").full == "33.88"
    assert scaled_value(MEMORY, 12.345678, "value", None, None).full == "12.35"
    assert scaled_value(MEMORY, None, "out_of_memory", None, None).text == "Out of memory"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scales")
    (root / "records").mkdir()
    assert copy_closure([USER_RUN], ROOT / "records", root / "records") < 200
    build_site(root, root / "site", release_date=date(2026, 2, 10), workers=1)
    return root / "site"


def test_task_and_family_pages_show_mcc_on_its_own_scale(site: Path) -> None:
    pages = [*site.glob("tasks/*/index.html"), *site.glob("families/*/matrix/index.html")]
    shown = [flat(page_text(p)) for p in pages]
    assert any("0.3622 (rounded from 0.3622498911964387)" in text for text in shown)
    assert all(ROUNDING_RULE in text for text in shown)  # the rule, said on each page
    for text in shown:
        assert "0.362%" not in text and "0.3622%" not in text
    evaluation = flat(page_text(site / "evaluations" / USER_RUN / "index.html"))
    assert "0.362%" not in evaluation
    # the headline said 'Reported 36.2%': an MCC x100 shown as a percentage
    assert "36.2%" not in evaluation
    assert "Reported 0.3622 (rounded from 0.3622498911964387)" in evaluation


def test_a_reproduction_finding_shows_a_published_correlation_on_its_own_scale() -> None:
    """The GM12878 reproduction's finding read 'Reported 0.3622 ...; published 61.91%':
    the published MCC (printed 61.91, x100) is now shown on -1..1, its printed value beside."""
    from pathlib import Path

    from rewire_site.build import gather
    from rewire_site.derive.concerns import flags_by_evaluation
    from rewire_site.models import Evaluation
    from rewire_site.render.findings import measurement_findings

    root = Path(__file__).resolve().parents[1]
    catalogue = gather(root / "records", root).catalogue
    evaluation = catalogue.get(
        "evidence-20261130-eval-dnabert-2-gue-plus-epi-gm12878-leannmlindsey", Evaluation
    )
    findings = measurement_findings(evaluation, catalogue, flags_by_evaluation(catalogue))
    texts = [f.text for f in findings if "published" in f.text]
    assert texts
    for text in texts:
        assert "61.91%" not in text
        assert "published 0.6191 (printed 61.91, x100)" in text


def test_a_spreadsheet_float_is_rounded_by_the_rule_in_tables_and_evidence() -> None:
    """Feng et al.'s CSV cells (e.g. 0.47815751454916344) were shown to 17 digits in
    comparison-table cells and evidence tables as if a paper had printed them; the one
    rule rounds them to 4 significant figures (the cell's title and the evidence text keep
    the printed digits)."""
    from rewire_site.render.present.numbers import digits_shown
    from rewire_site.render.reproduction import printed_display

    assert digits_shown(0.47815751454916344, "0.47815751454916344") == "0.4782"
    assert digits_shown(33.88, "33.88") == "33.88"
    assert digits_shown(0.123456, "0.123456") == "0.123456"
    assert printed_display(0.47815751454916344, "0.47815751454916344") == "0.4782"
    assert printed_display(56.76, "56.76") == "56.76"
