"""Concern flags (derive/concerns.py): recorded and computed."""

from __future__ import annotations

import pytest
from scenarios import load_scenario

from rewire_site.derive.concerns import (
    Constant,
    Disagrees,
    Flag,
    HardwareDiffers,
    RecordedConcern,
    UnitUnstated,
    accelerators,
    excluded,
    flags,
    flags_by_evaluation,
)
from rewire_site.link import Catalogue
from rewire_site.models import Configuration, Evaluation, Protocol, RecordBase
from rewire_site.models.common import Missing, MissingReason
from rewire_site.render.present.flags import FlagView, flag_view


def _shown(found: list[Flag], catalogue: Catalogue) -> list[FlagView]:
    """The flags as a page shows them (their words: render.present.flags.flag_view)."""
    return [flag_view(f, catalogue) for f in found]


def _replace(catalogue: Catalogue, *records: RecordBase) -> Catalogue:
    by_id = dict(catalogue.by_id)
    for record in records:
        by_id[record.id] = record
    return Catalogue.from_records(by_id.values())


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("NVIDIA H100 (section 2.4); 'H100 94GB GPUs' (section 4)", {"H100"}),
        ("one node of eight A100 GPUs", {"A100"}),
        ("NVIDIA H200", {"H200"}),
        ("one H100 or H200", {"H100", "H200"}),
        ("NVIDIA L40S and a T4", {"L40S", "T4"}),
        ("AMD MI300X", {"MI300X"}),
        ("bf16 on a GPU, FP16 weights", set()),
        (None, set()),
    ],
)
def test_accelerator_names_are_normalised(text: str | None, names: set[str]) -> None:
    assert accelerators(text) == names


def test_recorded_conflict_is_shown_with_its_text_and_citations() -> None:
    catalogue = load_scenario("ia3_conflict")
    found = flags(catalogue.get("eval-nt-500m-ia3-runtime", Evaluation), catalogue)
    assert len(found) == 1
    assert isinstance(found[0].detail, RecordedConcern)
    assert found[0].detail.citations[0].locator.endswith("Discussion, paragraph 3")
    flag = flag_view(found[0], catalogue)
    assert flag.recorded and flag.excludes_from_comparisons
    assert flag.label == "Evidence concern"
    assert flag.text.startswith("Fine-tuning time conflicts within the article.")
    assert flag.concern_id == "runtime-conflict"
    assert flag.citations[0].locator.endswith("Discussion, paragraph 3")
    assert excluded(found, "mean-run")


def test_hardware_declared_irrelevant_raises_no_flag() -> None:
    """The reproduction protocol declares peak memory independent of the accelerator: an
    H200 against the protocol's H100 is a stated difference (headline, reproduction rows,
    one table sentence), not a concern on every result."""
    catalogue = load_scenario("reproduction")
    measured = flags(catalogue.get("eval-nt-rewire", Evaluation), catalogue)
    assert "hardware_differs" not in [f.kind for f in measured]
    assert not excluded(measured, "checkpointing")


def test_hardware_declared_decisive_is_said_and_still_not_an_exclusion() -> None:
    catalogue = load_scenario("reproduction")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    assert protocol.hardware_dependence is not None
    declared = protocol.model_copy(
        update={
            "hardware_dependence": protocol.hardware_dependence.model_copy(update={"depends": True})
        }
    )
    changed = _replace(catalogue, declared)
    found = flags(changed.get("eval-nt-rewire", Evaluation), changed)
    hardware = _shown([f for f in found if f.kind == "hardware_differs"], changed)
    assert "depends on the accelerator" in hardware[0].text
    assert not hardware[0].excludes_from_comparisons
    # Agreement is not judged across accelerator classes: no disagreement flag.
    assert "reproduction_disagrees" not in [f.kind for f in found]


def test_published_gigabytes_carry_the_gb_or_gib_concern() -> None:
    """Defect 5: GB is 1e9 bytes on this site; a source printing 'GB' may mean GiB."""
    catalogue = load_scenario("seed_memory")
    found = flags(catalogue.get("eval-nt-checkpointing", Evaluation), catalogue)
    assert [f.detail for f in found if f.kind == "gigabyte_ambiguous"] == [Constant()]
    gb = _shown([f for f in found if f.kind == "gigabyte_ambiguous"], catalogue)
    assert len(gb) == 1 and not gb[0].excludes_from_comparisons
    assert "10^9 bytes" in gb[0].text and "2^30" in gb[0].text and "0.931" in gb[0].text
    measured = load_scenario("reproduction")
    own = flags(measured.get("eval-nt-rewire", Evaluation), measured)
    assert "gigabyte_ambiguous" not in [f.kind for f in own]  # Rewire writes 1e9 bytes


def test_configuration_accelerator_is_compared_when_no_environment() -> None:
    catalogue = load_scenario("ia3_conflict")  # run time: declared hardware-dependent
    evaluation = catalogue.of_kind(Evaluation)[0]
    configuration = catalogue.get(evaluation.configuration, Configuration)
    assert configuration.hardware is not None
    hardware = configuration.hardware.model_copy(update={"accelerator": "NVIDIA H100"})
    changed = _replace(catalogue, configuration.model_copy(update={"hardware": hardware}))
    found = flags(changed.get(evaluation.id, Evaluation), changed)
    facts = [f.detail for f in found if f.kind == "hardware_differs"]
    assert [d.ran_on for d in facts if isinstance(d, HardwareDiffers)] == [("H100",)]
    hardware_flags = _shown([f for f in found if f.kind == "hardware_differs"], changed)
    assert len(hardware_flags) == 1 and "H100" in hardware_flags[0].text
    assert "depends on the accelerator" in hardware_flags[0].text


def test_unstated_result_unit_is_flagged_and_leaves_comparisons() -> None:
    catalogue = load_scenario("seed_memory")
    evaluation = catalogue.get("eval-nt-checkpointing", Evaluation)
    result = evaluation.results[0].model_copy(update={"unit": None})
    missing = dict(evaluation.missing_metadata)
    missing["results.0.unit"] = Missing(reason=MissingReason.unreported, note="Axis unlabelled")
    changed = evaluation.model_copy(update={"results": [result], "missing_metadata": missing})
    found = flags(changed, catalogue)
    assert [f.detail for f in found if f.kind == "unit_unstated"] == [
        UnitUnstated("training-peak-memory", changed.id, "checkpointing", 0)
    ]
    unit = _shown([f for f in found if f.kind == "unit_unstated"], _replace(catalogue, changed))
    assert len(unit) == 1
    assert unit[0].columns == ("checkpointing",)
    assert "Not reported by the source: Axis unlabelled" in unit[0].text
    assert excluded(found, "checkpointing") and not excluded(found, "deepspeed")


def test_length_unit_flag_until_a_setting_states_it() -> None:
    catalogue = load_scenario("seed_memory")
    evaluation = catalogue.get("eval-gena-checkpointing", Evaluation)

    def kinds(e: Evaluation) -> list[str]:
        return [f.kind for f in flags(e, catalogue) if f.kind != "gigabyte_ambiguous"]

    assert kinds(evaluation) == ["length_unit_unstated"]
    stated = evaluation.model_copy(update={"settings": {"length_unit": "nucleotides"}})
    assert kinds(stated) == []
    unknown = evaluation.model_copy(update={"settings": {"length_unit": "unstated"}})
    assert kinds(unknown) == ["length_unit_unstated"]
    # The measurement records' convention: the length with its unit.
    for length in ("1000nt", "512 tokens", "1000 bp", "512tok"):
        with_unit = evaluation.model_copy(update={"settings": {"length": length}})
        assert kinds(with_unit) == [], length
    bare = evaluation.model_copy(update={"settings": {"length": "1000"}})
    assert kinds(bare) == ["length_unit_unstated"]
    # A protocol without a sequence length raises no such flag.
    ia3 = load_scenario("ia3_conflict")
    assert all(
        f.kind != "length_unit_unstated" for e in ia3.of_kind(Evaluation) for f in flags(e, ia3)
    )


def test_reproduction_beyond_tolerance_is_flagged_per_column() -> None:
    catalogue = load_scenario("reproduction")
    found = flags(catalogue.get("eval-nt-rewire", Evaluation), catalogue)
    facts = [f.detail for f in found if f.kind == "reproduction_disagrees"]
    assert [(d.measured, d.published) for d in facts if isinstance(d, Disagrees)] == [(14, 11.49)]
    off = _shown([f for f in found if f.kind == "reproduction_disagrees"], catalogue)
    # checkpointing 31 vs 33.88 is within 10%; deepspeed 14 vs 11.49 is 21.8% off.
    assert [f.columns for f in off] == [("deepspeed",)]
    assert "measured 14, published 11.49" in off[0].text
    assert "beyond the protocol's tolerance of ±10%" in off[0].text
    assert not off[0].excludes_from_comparisons


def test_no_tolerance_means_no_reproduction_flag() -> None:
    catalogue = load_scenario("reproduction")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    changed = _replace(catalogue, protocol.model_copy(update={"tolerance": None}))
    found = flags(changed.get("eval-nt-rewire", Evaluation), changed)
    assert "reproduction_disagrees" not in [f.kind for f in found]
    unset = _shown([f for f in found if f.kind == "tolerance_unset"], changed)
    assert [(f.label, f.columns) for f in unset] == [
        ("No tolerance set", ("checkpointing", "deepspeed"))
    ]
    assert "no agreement with the published values is computed" in unset[0].text


def test_flags_by_evaluation_covers_every_evaluation() -> None:
    catalogue = load_scenario("seed_memory")
    found = flags_by_evaluation(catalogue)
    assert sorted(found) == [e.id for e in catalogue.of_kind(Evaluation)]


def test_incomplete_run_raises_no_tolerance_or_disagreement_flag() -> None:
    catalogue = load_scenario("incomplete_run")
    short = catalogue.get("eval-nt-rewire-short", Evaluation)
    found = flags(short, catalogue)
    assert [f.columns for f in found if f.kind == "reproduction_disagrees"] == [("deepspeed",)]
    protocol = catalogue.get("repro-peak-memory", Protocol)
    changed = _replace(catalogue, protocol.model_copy(update={"tolerance": None}))
    unset = [f for f in flags(short, changed) if f.kind == "tolerance_unset"]
    assert [f.columns for f in unset] == [("deepspeed",)]  # not the incomplete column
