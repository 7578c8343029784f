"""Headline findings (render/findings.py): the published value, whether and how closely
it reproduced, and under which stated differences, computed from the records."""

from __future__ import annotations

from scenarios import load_scenario

from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol
from rewire_site.render.findings import (
    catalogue_findings,
    evaluation_headline,
    protocol_headline,
)


def test_protocol_headline_says_what_reproduced_and_what_did_not() -> None:
    """No reading is declared: 33.88 GB is matched by one setting (fp32-autocast) but the
    other (bf16, 31 GB) agrees only if GB means 10^9 bytes, so it is not 'reproduced'."""
    catalogue = load_scenario("setup_rows")
    headline = protocol_headline(catalogue.get("repro-peak-memory", Protocol), catalogue)
    assert headline.summary == (
        "2 published values: 1 not reproduced, 1 agreeing in some measured settings only; 3 "
        "Rewire measurements under this protocol. No single measured setting agrees with all "
        "2 published values (at most 1)."
    )
    depends, not_reproduced = headline.findings
    assert depends.state == "depends_on_setting"
    assert depends.text.startswith(
        "33.88 GB: depends on the setting over 2 measured settings (1 agrees; no reading "
        "declared): newest run 34.2 GB (1.01×) with precision fp32-autocast, update full, on "
        "H200 × 1 (published: H100). 1 of 2 measured settings agrees within ±10%"
    )
    assert not_reproduced.state == "not_reproduced"
    assert not_reproduced.text.startswith(
        "11.49 GB: not reproduced over 2 measured settings (0 agree; no reading declared): "
        "newest run 16.7 GB (1.45×) with precision fp32-autocast, update full"
    )
    assert "Published by Saadat and Fellay 2026." in depends.text


def test_measurement_headline_names_the_verdict() -> None:
    catalogue = load_scenario("setup_rows")
    agrees = evaluation_headline(catalogue.get("eval-nt-rewire-fp32-ckpt", Evaluation), catalogue)
    assert agrees.summary == (
        "Measured 34.2 GB (stage + Checkpointing) with precision fp32-autocast, update full, "
        "on H200 × 1 (published: H100); published 33.88 GB: ratio 1.01×, agrees within ±10%. "
        "1 of 2 measured settings agrees and no reading is declared, so the published value "
        "is not called reproduced."
    )
    assert agrees.findings[0].state == "depends_on_setting"
    differs = evaluation_headline(catalogue.get("eval-nt-rewire-fp32-ds", Evaluation), catalogue)
    assert differs.findings[0].state == "not_reproduced"
    assert "does not agree: differs by 45.3%, beyond ±10%" in differs.summary


def test_unmeasured_values_and_recorded_concerns_are_said() -> None:
    catalogue = load_scenario("ia3_conflict")
    protocol = next(iter(catalogue.protocols()))
    headline = protocol_headline(protocol, catalogue)
    assert headline.summary == (
        "2 published values: 2 not yet measured by Rewire; no Rewire measurement under this "
        "protocol yet."
    )
    assert all(
        f.text.endswith("Concern recorded: the source contradicts itself about this value.")
        for f in headline.findings
    )


def test_incomplete_runs_claim_nothing() -> None:
    catalogue = load_scenario("incomplete_run")
    short = evaluation_headline(catalogue.get("eval-nt-rewire-short", Evaluation), catalogue)
    assert short.summary == "2 values: 1 not reproduced, 1 incomplete run."
    assert short.findings[0].text.startswith("Incomplete run (stage + Checkpointing)")


def test_hardware_declared_decisive_leaves_agreement_unjudged() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    assert protocol.hardware_dependence is not None
    declared = protocol.model_copy(
        update={
            "hardware_dependence": protocol.hardware_dependence.model_copy(update={"depends": True})
        }
    )
    records = [declared if r.id == protocol.id else r for r in catalogue.by_id.values()]
    changed = Catalogue.from_records(records)
    headline = protocol_headline(declared, changed)
    assert {f.state for f in headline.findings} == {"not_judged"}
    assert (
        "agreement not judged: the protocol declares that peak memory depends on the "
        "accelerator" in headline.findings[0].text
    )


def test_home_page_findings_cover_every_protocol() -> None:
    catalogue = load_scenario("setup_rows")
    found = catalogue_findings(catalogue)
    assert [f.protocol_id for f in found] == sorted(p.id for p in catalogue.protocols())
    assert found[0].headline.findings


def test_a_reported_reproduction_is_reported_not_measured() -> None:
    from rewire_site.models.evaluation import Origin

    catalogue = load_scenario("setup_rows")
    measured = catalogue.get("eval-nt-rewire-fp32-ckpt", Evaluation)
    reported = measured.model_copy(update={"origin": Origin.community_reproduction})
    records = [reported if r.id == measured.id else r for r in catalogue.by_id.values()]
    changed = Catalogue.from_records(records)
    assert evaluation_headline(reported, changed).summary.startswith("Reported 34.2 GB")


def test_each_requirement_verdict_reads_as_its_reason() -> None:
    from rewire_site.derive.verdicts import RequirementVerdict
    from rewire_site.render.findings import requirement_text, requirement_verdict_text

    unknown = RequirementVerdict("not_judged", "full", "card_unknown", 80.0)
    assert requirement_verdict_text(unknown) == (
        "full: not judged (out of memory on a card not known to be at least 80 GB)"
    )
    oom = RequirementVerdict("consistent", "full", "out_of_memory", 80.0)
    assert requirement_verdict_text(oom) == "full: consistent (out of memory)"
    none = RequirementVerdict("not_judged", "full", "no_value", 80.0)
    assert requirement_verdict_text(none) == "full: not judged"
    fits = RequirementVerdict("contradicted", "ckpt", "peak", 80.0, 30.54, "reserved")
    assert requirement_verdict_text(fits) == (
        "ckpt: contradicted (30.5 GB, peak reserved plus 0.5 GB for the CUDA context, fits "
        "one 80 GB card)"
    )
    over = RequirementVerdict("consistent", "ckpt", "peak", 24.0, 30.54, "allocated")
    assert requirement_verdict_text(over).endswith("exceeds one 24 GB card)")
    assert requirement_text(80.0, [oom, fits]).startswith(
        "Against the requirement, read as “one training step does not fit one 80 GB card” "
        "(the only reading a single-GPU peak can test): full: consistent (out of memory); "
    )
    assert requirement_text(80.0, []) == ""
