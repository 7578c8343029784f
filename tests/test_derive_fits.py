"""derive.fits: the longest length and the largest batch that fit a GPU size, read from
measured points only (no interpolation, no extrapolation), and the points read from
memory-curve records written by the real records writer (tests/fits_scenario.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rewire_site.build import gather
from rewire_site.derive.fits import (
    BYTES_PER_PARAMETER,
    GPU_SIZES_GB,
    MIXED_PRECISION,
    BasePairs,
    Curves,
    LengthCount,
    Measurement,
    Point,
    curves,
    family_base_pairs,
    largest_batch,
    length_count,
    longest_length,
    parameter_count,
    shared_process_bias,
    state_gb,
)
from rewire_site.models import ModelFamily

pytest.importorskip("measure.memory_curve.records")

from fits_scenario import H200_BYTES, write_scenario

REPO = Path(__file__).resolve().parents[1]


def _m(
    tokens: int,
    reserved: float | None,
    *,
    batch: int = 1,
    status: str = "value",
    gpu_gb: float | None = 150.1,
    eid: str | None = None,
) -> Measurement:
    return Measurement(
        evaluation_id=eid or f"e-b{batch}-{tokens}-{reserved}",
        family_id="fam",
        model="M",
        parameters=None,
        method="full",
        batch=batch,
        tokens=tokens,
        status=status,
        allocated_gb=None if reserved is None or status != "value" else reserved * 0.9,
        reserved_gb=reserved,
        reserved_note="torch.cuda.max_memory_reserved()",
        gpu="NVIDIA H200",
        gpu_memory_gb=gpu_gb,
    )


def _p(*measurements: Measurement) -> Point:
    first = measurements[0]
    return Point("fam", "M", "full", first.batch, first.tokens, measurements)


CURVE = [_p(_m(64, 5.0)), _p(_m(128, 9.0)), _p(_m(256, 17.0)), _p(_m(512, 33.0))]


def test_longest_length_is_the_last_measured_point_that_fits() -> None:
    answer = longest_length(CURVE, 16)
    assert (answer.state, answer.value) == ("fits_up_to", 128)
    assert (answer.stop, answer.stop_undetermined) == (256, False)
    assert answer.evaluation_id == CURVE[1].evaluation_id
    # 24 GB lies between the 256- and 512-token points' needs: the answer is the measured
    # 256, never a length interpolated between the two
    assert (longest_length(CURVE, 24).value, longest_length(CURVE, 24).stop) == (256, 512)


def test_every_point_fits_says_so_and_claims_nothing_beyond() -> None:
    answer = longest_length(CURVE, 80)
    assert answer.state == "fits_all"
    assert answer.value == 512
    assert answer.stop is None


def test_no_point_fits_names_the_shortest_measured_length() -> None:
    answer = longest_length(CURVE, 4)
    assert answer.state == "fits_none"
    assert answer.value is None
    assert (answer.stop, answer.stop_undetermined) == (64, False)
    assert answer.evaluation_id == CURVE[0].evaluation_id


def test_a_size_equal_to_the_peak_fits() -> None:
    assert longest_length(CURVE, 17).value == 256


def test_not_measured() -> None:
    answer = longest_length([], 80)
    assert (answer.state, answer.value, answer.stop, answer.evaluation_id) == (
        "not_measured",
        None,
        None,
        None,
    )
    batch = largest_batch([], 80, 512)
    assert (batch.state, batch.measure, batch.tokens) == ("not_measured", "batch", 512)


def test_a_point_after_a_failure_is_never_claimed() -> None:
    odd = [_p(_m(64, 5.0)), _p(_m(128, 30.0)), _p(_m(256, 20.0))]
    answer = longest_length(odd, 24)
    assert answer.value == 64
    assert answer.stop == 128


def test_out_of_memory_fits_no_size_up_to_the_gpu_it_ran_on() -> None:
    curve = [_p(_m(64, 40.0)), _p(_m(128, None, status="out_of_memory"))]
    oom = longest_length(curve, 141)
    assert (oom.value, oom.stop, oom.stop_undetermined) == (64, 128, False)
    # on a GPU larger than the one it ran out of memory on, nothing is known
    small = [_p(_m(64, 20.0)), _p(_m(128, None, status="out_of_memory", gpu_gb=80.0))]
    answer = longest_length(small, 94)
    assert answer.state == "fits_up_to"
    assert (answer.value, answer.stop, answer.stop_undetermined) == (64, 128, True)


def test_a_point_without_reserved_peak_is_not_determined() -> None:
    curve = [_p(_m(64, None)), _p(_m(128, 3.0))]
    answer = longest_length(curve, 80)
    assert answer.state == "undetermined"
    assert (answer.stop, answer.stop_undetermined) == (64, True)
    incomplete = [_p(_m(64, 2.0, status="incomplete"))]
    assert longest_length(incomplete, 80).state == "undetermined"


def test_a_point_measured_twice_fits_only_if_both_fit() -> None:
    twice = _p(_m(64, 15.0, eid="a"), _m(64, 16.5, eid="b"))
    assert twice.fits(16) is False
    assert twice.fits(24) is True
    assert twice.reserved_gb == 16.5
    assert twice.evaluation_id == "b"
    assert longest_length([twice], 16).evaluation_id == "b"


def test_largest_batch_at_a_length() -> None:
    at = [_p(_m(512, 3.0, batch=1)), _p(_m(512, 20.0, batch=8)), _p(_m(256, 1.0, batch=16))]

    def facts(size: float) -> tuple[str, int | None, int | None]:
        answer = largest_batch(at, size, 512)
        return answer.state, answer.value, answer.stop

    assert facts(24) == ("fits_all", 8, None)
    assert facts(16) == ("fits_up_to", 1, 8)
    assert facts(2) == ("fits_none", None, 1)
    assert largest_batch(at, 24, 1000).state == "not_measured"
    assert largest_batch(at, 24, 256).value == 16


def test_parameter_count() -> None:
    assert parameter_count("317,170 (counted; 317,170 trainable)") == 317170
    assert parameter_count("about 2.5B") is None
    assert parameter_count(None) is None


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("curves")
    write_scenario(root)
    return root


@pytest.fixture(scope="module")
def found(scenario: Path) -> Curves:
    catalogue = gather(scenario / "records", scenario).catalogue
    return curves(catalogue)


def test_points_are_read_from_the_writers_records(found: Curves) -> None:
    assert [p.id for p in found.protocols] == ["rewire-20261130-protocol-gpu-memory-curves"]
    assert found.skipped == ()
    assert found.models() == (
        ("gfm-guide-20261014-family-nucleotide-transformer", "tiny ESM (tests)"),
        ("saadat-fellay-20261015-family-gena-lm", "tiny BERT pre-LN (tests)"),
    )
    assert found.methods() == ("inference", "peft", "full")
    curve = found.curve("tiny ESM (tests)", "full", 8)
    assert [p.tokens for p in curve] == [128, 256, 512, 1000]
    assert [p.reserved_gb for p in curve[:3]] == [30.0, 60.0, 120.0]
    assert [p.allocated_gb for p in curve[:3]] == [28.0, 57.0, 113.5]
    assert curve[3].out_of_memory and curve[3].reserved_gb is None
    assert curve[3].measurements[0].gpu_memory_gb == pytest.approx(H200_BYTES / 1e9)
    twice = found.curve("tiny BERT pre-LN (tests)", "inference", 1)[-1]
    assert [m.reserved_gb for m in twice.measurements] == [1.1, 1.15]


def test_answers_from_the_writers_records(found: Curves) -> None:
    full_b8 = found.curve("tiny ESM (tests)", "full", 8)
    answers = [longest_length(full_b8, s) for s in GPU_SIZES_GB]
    assert [(a.state, a.value, a.stop) for a in answers] == [
        ("fits_none", None, 128),
        ("fits_none", None, 128),
        ("fits_up_to", 128, 256),
        ("fits_up_to", 128, 256),
        ("fits_up_to", 256, 512),
        ("fits_up_to", 256, 512),
        ("fits_up_to", 512, 1000),  # out of memory on the H200
    ]
    gena_full = found.at_length("tiny BERT pre-LN (tests)", "full", 512)
    at_48, at_80 = (largest_batch(gena_full, s, 512) for s in (48, 80))
    assert (at_48.state, at_48.value, at_48.stop) == ("fits_up_to", 1, 8)
    assert (at_80.state, at_80.value, at_80.stop) == ("fits_all", 8, None)


def test_chart_labels_fit_the_view_for_long_contexts() -> None:
    from rewire_site.render.fits.chart import curve_chart
    from rewire_site.render.reproduction_chart import CHAR_WIDTH

    points = [_p(_m(t, 1.0 + t / 1e5)) for t in (1024, 32768, 1_048_576)]
    chart = curve_chart(points, "t")
    assert chart is not None
    for tick in chart.x_ticks:
        half = len(tick.display) * CHAR_WIDTH / 2
        assert tick.label_x - half >= 0 and tick.label_x + half <= chart.width, tick
    assert [t.display for t in chart.x_ticks] == ["1,024", "32,768", "1,048,576"]
    assert chart.series[0].path.count(",") == 3  # three points joined


def _checked(shared: float, fresh: float) -> Measurement:
    return dataclasses.replace(_m(512, shared), fresh_reserved_gb=fresh)


def test_the_shared_process_bias_follows_the_fresh_process_checks() -> None:
    """Which way the answers err near a size is read from the records' fresh and shared
    reserved peaks, not assumed: the page once said "towards does not fit" while every
    fresh-process check on the H200 reserved more than the shared process."""
    assert shared_process_bias([]) == "unchecked"
    assert shared_process_bias([_m(512, 20.0)]) == "unchecked"  # no fresh figure
    assert shared_process_bias([_checked(20.8, 21.02), _checked(2.09, 2.32)]) == "fresh_higher"
    assert shared_process_bias([_checked(20.8, 20.5)]) == "fresh_lower"
    assert shared_process_bias([_checked(20.8, 20.8)]) == "same"
    assert shared_process_bias([_checked(20.8, 21.0), _checked(2.3, 2.1)]) == "mixed"


def test_checks_and_recipes_are_read_from_the_writers_records(found: Curves) -> None:
    checks = {(m.model, m.method, m.batch, m.tokens): m for m in found.checks()}
    assert set(checks) == {
        ("tiny ESM (tests)", "full", 1, 512),
        ("tiny BERT pre-LN (tests)", "inference", 8, 512),
    }
    esm = checks["tiny ESM (tests)", "full", 1, 512]
    assert (esm.reserved_gb, esm.fresh_reserved_gb, esm.fresh_allocated_gb) == (22.5, 22.9, 21.0)
    assert shared_process_bias(found.checks()) == "fresh_higher"
    # the recipe is each record's comparison.adaptation, as the writer took it from the log
    assert found.recipes("full") == ("full fine-tuning, bf16 AdamW",)
    assert found.recipes("nothing") == ()


def test_state_bytes_of_the_full_fine_tuning_recipes() -> None:
    assert sum(BYTES_PER_PARAMETER["full"]) == 8
    assert sum(BYTES_PER_PARAMETER["full-mixed"]) == 16
    assert state_gb("full-mixed", 2_500_000_000) == pytest.approx(40.0)
    assert state_gb("full", 2_500_000_000) == pytest.approx(20.0)
    assert state_gb("inference", 2_500_000_000) is None
    assert state_gb("full", None) is None


def test_the_state_bytes_match_the_recipe_file() -> None:
    """BYTES_PER_PARAMETER says what measure/memory_curve/recipe.yaml's methods keep:
    bf16 weights, gradients and AdamW states for `full` (and fp32 for the mixed-precision
    methods, where the recipe file has them)."""
    import yaml

    recipe = yaml.safe_load((REPO / "measure" / "memory_curve" / "recipe.yaml").read_text())
    methods = {k: " ".join(v.split()) for k, v in recipe["methods"].items()}
    assert "bf16 weights, gradients and AdamW states" in methods["full"]
    for method in MIXED_PRECISION:
        if method in methods:
            assert "fp32 master weights" in methods[method] or method.endswith("-ckpt")


def _family(name: str) -> ModelFamily:
    """A family record of the live catalogue, loaded by the real loader."""
    from rewire_site.load import load_file

    loaded = load_file(REPO / "records" / f"{name}.yaml")
    assert not loaded.problems, loaded.problems
    return ModelFamily.model_validate(loaded.data)


def test_base_pairs_of_a_kmer_tokeniser_from_the_cited_fact() -> None:
    """Nucleotide Transformer's checkpoints cite a 6-mer tokeniser: 6 bp per token after
    the CLS token, so 1,000 tokens hold 5,994 bp."""
    nt = family_base_pairs(_family("gfm-guide-20261014-family-nucleotide-transformer"))
    assert (nt.tokenisers, nt.per_token, nt.special_tokens) == (("6-mer",), 6, 1)
    assert nt.source_id == "evidence-20261130-source-nt-docs-nucleotide-transformer"
    assert nt.base_pairs(1000) == 5994
    assert nt.base_pairs(64) == 378
    assert nt.base_pairs(1) is None


def test_base_pairs_of_a_single_nucleotide_tokeniser() -> None:
    """HyenaDNA cites a single-nucleotide tokeniser: one base pair per token after one
    special token, so 262,144 tokens hold 262,143 bp (never more than the tokens)."""
    hyena = family_base_pairs(_family("evidence-20261130-family-hyenadna"))
    assert (hyena.tokenisers, hyena.per_token, hyena.special_tokens) == (
        ("single nucleotide",),
        1,
        1,
    )
    assert hyena.base_pairs(262_144) == 262_143
    assert hyena.base_pairs(1) is None
    assert BasePairs(("singlebase",), 1, 1, "s").base_pairs(1024) == 1023


@pytest.mark.parametrize(
    "name", ["evidence-20261130-family-dnabert-2", "saadat-fellay-20261015-family-gena-lm"]
)
def test_bpe_gives_no_base_pairs(name: str) -> None:
    """DNABERT-2 and GENA-LM cite a BPE tokeniser and no fixed ratio: no base pairs."""
    bpe = family_base_pairs(_family(name))
    assert (bpe.tokenisers, bpe.per_token) == (("BPE",), None)
    assert bpe.base_pairs(512) is None


def test_disagreeing_or_missing_tokeniser_facts_give_no_base_pairs() -> None:
    nt = _family("gfm-guide-20261014-family-nucleotide-transformer")
    first = nt.checkpoints[0]
    assert first.facts is not None and first.facts.tokeniser is not None
    other = first.facts.tokeniser.model_copy(update={"value": "3-mer"})
    changed = first.model_copy(
        update={"facts": first.facts.model_copy(update={"tokeniser": other})}
    )
    mixed = nt.model_copy(update={"checkpoints": [changed, *nt.checkpoints[1:]]})
    assert family_base_pairs(mixed).per_token is None
    assert family_base_pairs(mixed).tokenisers == ("3-mer", "6-mer")
    none = nt.model_copy(update={"checkpoints": []})
    assert family_base_pairs(none) == BasePairs((), None, 0, None)


def test_length_count_converts_tokens_by_the_cited_tokeniser_only() -> None:
    six_mer = BasePairs(("6-mer",), 6, 1, "source")
    assert length_count(1000.0, "token", six_mer) == LengthCount(1000.0, 5994.0, True, 6)
    bpe = BasePairs(("BPE",), None, 0, "source")
    found = length_count(512.0, "token", bpe)
    assert (found.tokens, found.base_pairs, found.converted) == (512.0, None, False)
    stated = length_count(12000.0, "base-pair", six_mer)
    assert (stated.tokens, stated.base_pairs, stated.converted) == (None, 12000.0, False)
    assert length_count(None, "token", six_mer).base_pairs is None
    assert length_count(3.0, "kilobyte", six_mer).base_pairs is None
