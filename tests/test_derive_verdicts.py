"""One verdict per published value (derive/verdicts.py, derive/agreement.py), issue 23
items 1 and 5: a claim's shape (point, lower or upper bound), an ambiguous GB unit, one
declared reading of the settings a source leaves unstated, and the rule that picks the run
a verdict reads (the newest, never the closest).

The scenario tests use `setup_rows`: a published 33.88 GB (checkpointing) and 11.49 GB
(ZeRO-2), measured by a bf16 setup (31 and 14 GB) and an fp32-autocast setup (34.2 and
16.7 GB, the newer runs).
"""

from __future__ import annotations

from datetime import date

import pytest
from pydantic import ValidationError
from scenarios import load_scenario

from rewire_site.derive.agreement import agreement
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol
from rewire_site.models.protocol import DeclaredReading, Recipe
from rewire_site.render.findings import evaluation_headline, protocol_headline
from rewire_site.render.present.agreement import agreement_verdict
from rewire_site.render.reproduction import protocol_reproduction_groups


def test_a_lower_bound_is_met_by_any_larger_value() -> None:
    """'~3x less memory' is met by every measured saving of 3.79-4.18x; read with a
    symmetric tolerance (the old reading) 4.18x was 'not reproduced'."""
    for saving in (3.79, 4.11, 4.18):
        found = agreement(saving, 3.0, 0.2, shape="lower_bound")
        assert found.state == "agrees", saving
        assert (
            agreement_verdict(found)
            == "agrees within ±20% (read as a lower bound, met by any larger value)"
        )
    assert agreement(4.18, 3.0, 0.2).state == "disagrees"  # as a point value
    short = agreement(2.0, 3.0, 0.2, shape="lower_bound")
    assert short.state == "disagrees"
    assert agreement_verdict(short).startswith("does not agree: differs by 33.3%, beyond ±20%")
    assert agreement(2.5, 3.0, 0.2, shape="lower_bound").state == "agrees"  # within tolerance
    assert agreement(31.2, 160.0, 0.2, shape="upper_bound").state == "agrees"
    assert agreement(200.0, 160.0, 0.2, shape="upper_bound").state == "disagrees"


def test_an_ambiguous_gigabyte_agrees_only_under_both_readings() -> None:
    """A source's 'GB' may mean 2^30 bytes: the verdict says so instead of a footnote."""
    both = agreement(34.2, 33.88, 0.1, gigabyte_ambiguous=True)  # 1.01x and 0.94x
    assert both.state == "agrees"
    assert both.gib_ratio == pytest.approx(34.2 / (33.88 * 2**30 / 1e9))
    one = agreement(31.0, 33.88, 0.1, gigabyte_ambiguous=True)  # 0.915x and 0.852x
    assert one.state == "depends_on_unit" and not one.reproduced
    assert one.within_as_gb
    assert (
        agreement_verdict(one)
        == "depends on the unit: agrees within ±10% only if GB means 10^9 bytes"
    )
    gib_only = agreement(36.0, 33.88, 0.05, gigabyte_ambiguous=True)  # 1.063x and 0.99x
    assert agreement_verdict(gib_only) == (
        "depends on the unit: agrees within ±5% only if GB means 2^30 bytes (GiB)"
    )
    assert agreement(14.0, 11.49, 0.1, gigabyte_ambiguous=True).state == "disagrees"
    # A Rewire measurement's own GB count bytes: no ambiguity without the flag.
    assert agreement(31.0, 33.88, 0.1).state == "agrees"


def _with_reading(settings: dict[str, str]) -> tuple[Protocol, Catalogue]:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    assert protocol.recipe is not None
    recipe = protocol.recipe.model_copy(
        update={
            "declared_reading": DeclaredReading(
                settings=settings, reason="Test reading.", declared_on=date(2026, 12, 2)
            )
        }
    )
    declared = protocol.model_copy(update={"recipe": recipe})
    records = [declared if r.id == protocol.id else r for r in catalogue.by_id.values()]
    return declared, Catalogue.from_records(records)


def test_a_declared_reading_judges_each_value_and_counts_the_rest_as_matches() -> None:
    """Under the reading bf16 / full, 33.88 GB is judged by the bf16 run (31 GB, which
    agrees only if GB means 10^9 bytes) although fp32-autocast (34.2 GB) comes closer:
    that one is a match found after the fact, never 'reproduced'."""
    protocol, catalogue = _with_reading({"precision": "bf16", "update": "full"})
    (group,) = protocol_reproduction_groups(protocol, catalogue)
    checkpointing, deepspeed = group.columns
    assert checkpointing.verdict.state == "depends_on_unit"
    assert checkpointing.verdict.judged_id == "eval-nt-rewire"
    assert (checkpointing.verdict.outside, checkpointing.verdict.outside_matched) == (1, 1)
    assert deepspeed.verdict.state == "not_reproduced"
    assert deepspeed.verdict.judged_id == "eval-nt-rewire"
    headline = protocol_headline(protocol, catalogue)
    assert [f.state for f in headline.findings] == ["depends_on_unit", "not_reproduced"]
    assert "reproduced within tolerance" not in headline.summary
    assert headline.findings[0].text.startswith(
        "33.88 GB: depends on the unit under the declared reading (precision bf16, update "
        "full): newest run 31 GB (0.91×) on H200 × 1 (published: H100)."
    )
    assert (
        "Outside the declared reading, 1 of 1 other measured setting agrees: a match found "
        "after the fact, not a reproduction." in headline.findings[0].text
    )
    assert "declared on 2026-12-02: precision bf16, update full." in headline.summary
    closer = evaluation_headline(catalogue.get("eval-nt-rewire-fp32-ckpt", Evaluation), catalogue)
    assert closer.findings[0].state == "matched"
    assert "not the declared reading (precision bf16, update full)" in closer.summary


def test_under_the_other_reading_the_same_runs_reproduce_one_value() -> None:
    protocol, catalogue = _with_reading({"precision": "fp32-autocast", "update": "full"})
    headline = protocol_headline(protocol, catalogue)
    assert [f.state for f in headline.findings] == ["reproduced", "not_reproduced"]
    assert headline.findings[0].text.startswith(
        "33.88 GB: reproduced under the declared reading (precision fp32-autocast, update "
        "full): newest run 34.2 GB (1.01×), within 0.94% on H200 × 1 (published: H100)"
    )
    agrees = evaluation_headline(catalogue.get("eval-nt-rewire-fp32-ckpt", Evaluation), catalogue)
    assert agrees.findings[0].state == "reproduced"


def test_without_a_reading_several_settings_reproduce_only_if_every_one_agrees() -> None:
    catalogue = load_scenario("setup_rows")
    headline = protocol_headline(catalogue.get("repro-peak-memory", Protocol), catalogue)
    assert [f.state for f in headline.findings] == ["depends_on_setting", "not_reproduced"]
    assert "No single measured setting agrees with all 2 published values (at most 1)." in (
        headline.summary
    )
    # The agreeing measurement is not called reproduced while another setting is not.
    fp32 = evaluation_headline(catalogue.get("eval-nt-rewire-fp32-ckpt", Evaluation), catalogue)
    assert fp32.findings[0].state == "depends_on_setting"
    assert "so the published value is not called reproduced" in fp32.summary


def test_the_verdict_reads_the_newest_run_not_the_closest() -> None:
    """The IA3 headline showed the closest run (the oldest, slowest code); the run a
    verdict reads is the newest, whatever its value."""
    catalogue = load_scenario("setup_rows")
    (group,) = protocol_reproduction_groups(catalogue.get("repro-peak-memory", Protocol), catalogue)
    deepspeed = group.columns[1]
    closest = min(deepspeed.rows, key=lambda r: r.distance or 0.0)
    newest = max(deepspeed.rows, key=lambda r: r.started_at or date.min)
    assert closest.measured_evaluation_id != newest.measured_evaluation_id
    assert deepspeed.verdict.judged_id == newest.measured_evaluation_id
    assert deepspeed.rows[0] is newest


def test_a_declared_reading_names_only_setup_keys() -> None:
    with pytest.raises(ValidationError, match=r"declared_reading\.settings: colour"):
        Recipe(
            id="r",
            command="rewire measure run p",
            hardware="one GPU",
            setup_keys=["precision"],
            declared_reading=DeclaredReading(
                settings={"precision": "bf16", "colour": "red"},
                reason="Test.",
                declared_on=date(2026, 12, 2),
            ),
        )
