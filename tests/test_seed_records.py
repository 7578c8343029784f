"""The first records hold the facts of the four seed pages (`shared/seeds/*.txt`).

Read through the build's own gather stage (`build.gather`), so a record that stops
validating, or loses a printed value, quote, locator or concern, fails here.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from rewire_site.build import Gathered
from rewire_site.config import RECORDS_DIR
from rewire_site.link import Catalogue
from rewire_site.models import RECORD_TYPES, Evaluation, Protocol, Question, Source
from rewire_site.models.common import CitationRole, MissingReason, ReviewStatus
from rewire_site.models.evaluation import ConcernKind, Origin

ROOT = Path(__file__).resolve().parents[1]
KIND_OF = {model: kind for kind, model in RECORD_TYPES.items()}

SAADAT = "saadat-fellay-20261015-source-optimizing-genomic-language-models"
NATURE = "gfm-guide-20261014-source-nucleotide-transformer-nature-methods"
PEAK = "saadat-fellay-20261015-protocol-training-peak-memory"
IA3 = "gfm-guide-20261014-protocol-nt-ia3-finetune-runtime"
SAADAT_SHA256 = "4bc2452110f280a7ba8baa4c7c28beac89769511019666bc77fc33af9b3bcd60"
ZERO_LOCATOR = "Section 3.3 'ZeRO offload' paragraph (page 6)"
HARDWARE_LOCATOR = "Methods, 'Data preparation > Hardware', paragraph 1"
GENA_QUOTE = "(e.g., GENA-LM 110M increases from 1.18 to 2.49 GB)"
NT_QUOTE = "the NT 2.5B checkpoint (33.88 → 11.49 GB)"
IA3_QUOTE = (
    "On average, a fine-tuning run lasted 20 min for the 500M-parameter models and 50 min "
    "for the 2.5B-parameter models."
)
CONCERN_TEXT = (
    "Fine-tuning time conflicts within the article. Methods 'Hardware' say all fine-tuning "
    "runs used one node of eight A100 GPUs and averaged 20 min (500M-parameter models) and "
    "50 min (2.5B-parameter models); the Discussion says the IA3 technique allows even the "
    "largest models to be fine-tuned in under 15 min on a single GPU. Both are recorded; "
    "neither is preferred."
)


class Printed(NamedTuple):
    evaluation: str
    protocol: str
    column: str
    value: float
    printed: str
    unit: str
    source: str
    locator: str
    quote: str


def _peak(evaluation: str, column: str, printed: str, quote: str) -> Printed:
    return Printed(
        f"saadat-fellay-20261015-eval-{evaluation}", PEAK, column, float(printed), printed,
        "gigabyte", SAADAT, ZERO_LOCATOR, quote,
    )  # fmt: skip


def _ia3(size: str, printed: str) -> Printed:
    return Printed(
        f"gfm-guide-20261014-eval-nt-{size}-ia3-finetune-runtime", IA3, "mean-wall-time-per-run",
        float(printed), printed, "minute", NATURE, HARDWARE_LOCATOR, IA3_QUOTE,
    )  # fmt: skip


STAGE = "training-peak-memory-flashattention-checkpointing"
PRINTED = [
    _peak(f"gena-lm-110m-{STAGE}", "checkpointing", "1.18", GENA_QUOTE),
    _peak(f"gena-lm-110m-{STAGE}-zero2", "deepspeed", "2.49", GENA_QUOTE),
    _peak(f"nt-2-5b-{STAGE}", "checkpointing", "33.88", NT_QUOTE),
    _peak(f"nt-2-5b-{STAGE}-zero2", "deepspeed", "11.49", NT_QUOTE),
    _ia3("500m", "20"),
    _ia3("2-5b", "50"),
]
IA3_EVALUATIONS = [p.evaluation for p in PRINTED if p.protocol == IA3]
PEAK_EVALUATIONS = [p.evaluation for p in PRINTED if p.protocol == PEAK]


@pytest.fixture(scope="module")
def loaded(live: Gathered) -> Gathered:
    """The live catalogue, gathered once per test process (tests/conftest.py)."""
    return live


@pytest.fixture(scope="module")
def catalogue(loaded: Gathered) -> Catalogue:
    return loaded.catalogue


def test_records_validate_without_errors_or_warnings(loaded: Gathered) -> None:
    """Errors would have raised `RecordsInvalid` in `gather`; warnings are kept."""
    assert [str(p) for p in loaded.warnings] == []


def test_every_record_file_opens_with_the_schema_modeline_of_its_kind(
    catalogue: Catalogue,
) -> None:
    for record_id, record in catalogue.by_id.items():
        kind = KIND_OF[type(record)]
        # a result table's specification lies one folder down, in records/tables/
        folder, up = ("tables/", "../../") if kind == "result_table" else ("", "../")
        path = ROOT / RECORDS_DIR / f"{folder}{record_id}.yaml"
        first = path.read_text("utf-8").splitlines()[0]
        assert first == f"# yaml-language-server: $schema={up}schemas/{kind}.schema.json"


def _transcribed(record_id: str) -> bool:
    """Records transcribed from the seed pages (by their ids' prefixes); other records
    (Rewire measurements, real evidence, imports) are added by pull requests, so no test
    counts them."""
    return record_id.startswith(("gfm-guide-20261014-", "saadat-fellay-20261015-"))


def test_seed_record_counts_by_kind(catalogue: Catalogue) -> None:
    counts: dict[str, int] = {}
    for record in catalogue.by_id.values():
        if not _transcribed(record.id):
            continue
        kind = KIND_OF[type(record)]
        counts[kind] = counts.get(kind, 0) + 1
    assert counts == {
        "source": 2,
        "protocol": 2,
        "dataset": 2,
        "model_family": 2,
        "configuration": 6,
        "evaluation": 6,
        "question": 1,
    }


def test_protocols_hold_four_and_two_evaluations(catalogue: Catalogue) -> None:
    published = {
        protocol: [e.id for e in catalogue.evaluations_of(protocol) if _transcribed(e.id)]
        for protocol in (PEAK, IA3)
    }
    assert published[PEAK] == sorted(PEAK_EVALUATIONS)
    assert published[IA3] == sorted(IA3_EVALUATIONS)
    for protocol in (PEAK, IA3):
        for evaluation in catalogue.evaluations_of(protocol):
            if not _transcribed(evaluation.id):
                assert evaluation.origin == Origin.rewire_measurement


@pytest.mark.parametrize("expected", PRINTED, ids=[p.printed for p in PRINTED])
def test_printed_value_with_quote_and_locator(catalogue: Catalogue, expected: Printed) -> None:
    evaluation = catalogue.get(expected.evaluation, Evaluation)
    assert evaluation.protocol == expected.protocol
    (result,) = evaluation.results
    assert result.column == expected.column
    assert result.value == pytest.approx(expected.value)
    assert result.printed_value == expected.printed
    assert result.unit == expected.unit
    assert result.direction == "lower"
    assert result.citation is not None
    assert result.citation.source == expected.source
    assert result.citation.locator == expected.locator
    assert result.citation.quote == expected.quote
    assert expected.printed in expected.quote
    # Uncertainty and coverage are not reported by either source: null with a reason.
    assert result.uncertainty is None and result.coverage is None
    for field in ("uncertainty", "coverage"):
        missing = evaluation.missing_metadata[f"results.0.{field}"]
        assert missing.reason is MissingReason.unreported


def test_peak_memory_protocol_metric_and_figure_3_columns(catalogue: Catalogue) -> None:
    protocol = catalogue.get(PEAK, Protocol)
    metric = protocol.metric
    assert (metric.id, metric.label, metric.unit, metric.direction) == (
        "peak-memory",
        "Peak memory",
        "gigabyte",
        "lower",
    )
    assert [c.id for c in protocol.columns] == [
        "baseline",
        "flashattention",
        "checkpointing",
        "deepspeed",
    ]
    labels = {c.id: c.label for c in protocol.columns}
    assert labels["checkpointing"] == (
        "Training, sequence length 1000, batch size 16, stage + Checkpointing "
        "(FlashAttention and activation checkpointing)"
    )
    assert labels["deepspeed"] == (
        "Training, sequence length 1000, batch size 16, stage + DeepSpeed "
        "(FlashAttention, checkpointing and ZeRO Stage-2 CPU offload)"
    )
    assert len(protocol.limitations) == 5
    assert protocol.missing_metadata["replicates"].reason is MissingReason.unreported
    assert protocol.tolerance == 0.05 and protocol.tolerance_reason
    assert protocol.hardware_dependence is not None
    assert protocol.hardware_dependence.depends is False
    # The recipe is Rewire's (rewire measure), not the source's; it replaced the reason.
    assert protocol.recipe is not None and "recipe" not in protocol.missing_metadata
    assert protocol.recipe.command.startswith(f"rewire measure run {PEAK}")


def test_ia3_protocol_metric_and_single_column(catalogue: Catalogue) -> None:
    protocol = catalogue.get(IA3, Protocol)
    metric = protocol.metric
    assert (metric.id, metric.label, metric.unit, metric.direction) == (
        "runtime",
        "Runtime",
        "minute",
        "lower",
    )
    assert [c.label for c in protocol.columns] == ["Mean wall time per IA3 fine-tuning run"]


def test_baseline_roles_are_proposed(catalogue: Catalogue) -> None:
    baselines = catalogue.get(IA3, Protocol).baselines
    assert baselines is not None
    assert baselines.null_control.status == "proposed"
    assert baselines.conventional_reference.status == "proposed"


def test_peak_memory_has_no_baseline_roles(catalogue: Catalogue) -> None:
    """A memory measurement scores no predictions: the seed record's null control was
    boilerplate from a benchmark protocol ('Unintegrated representation using protocol
    preprocessing'), not a control of GPU memory (issue 23, item 7)."""
    protocol = catalogue.get(PEAK, Protocol)
    assert protocol.baselines is None
    assert protocol.missing_metadata["baselines"].reason == MissingReason.inapplicable


@pytest.mark.parametrize("evaluation_id", IA3_EVALUATIONS)
def test_source_conflict_concern_on_both_ia3_evaluations(
    catalogue: Catalogue, evaluation_id: str
) -> None:
    evaluation = catalogue.get(evaluation_id, Evaluation)
    assert evaluation.origin is Origin.author_reported
    (concern,) = evaluation.concerns
    assert concern.kind is ConcernKind.source_conflict
    assert concern.excludes_from_comparisons is True
    assert concern.text == CONCERN_TEXT
    assert [(c.source, c.locator) for c in concern.citations] == [
        (NATURE, HARDWARE_LOCATOR),
        (NATURE, "Discussion, paragraph 3"),
    ]


def test_saadat_source_records_the_retrieved_artifact(catalogue: Catalogue) -> None:
    source = catalogue.get(SAADAT, Source)
    assert source.sha256 == SAADAT_SHA256
    assert source.retrieval_url == "https://openreview.net/pdf?id=NUleWh1GFx"
    assert source.retrieved_at is not None
    assert source.retrieved_at.isoformat() == "2026-10-15T10:56:26+00:00"
    assert "PDF CreationDate 2026-03-09" in source.version
    assert source.affiliations == ["EPFL"]


def test_nature_methods_source_gives_reasons_for_what_the_page_lacks(
    catalogue: Catalogue,
) -> None:
    source = catalogue.get(NATURE, Source)
    assert source.title == (
        "Nucleotide Transformer: building and evaluating robust foundation models for human "
        "genomics"
    )
    assert source.sha256 is None and source.retrieved_at is None
    for field in ("sha256", "retrieved_at"):
        assert source.missing_metadata[field].reason is MissingReason.unknown


@pytest.mark.parametrize("evaluation_id", PEAK_EVALUATIONS)
def test_peak_memory_evaluations_carry_comparison_fields_and_review(
    catalogue: Catalogue, evaluation_id: str
) -> None:
    evaluation = catalogue.get(evaluation_id, Evaluation)
    assert evaluation.origin is Origin.independent_paper
    assert evaluation.comparison.budget == "Sequence length 1000, batch size 16"
    assert evaluation.comparison.dataset_version is None
    missing = evaluation.missing_metadata
    assert missing["comparison.dataset_version"].reason is MissingReason.inapplicable
    assert missing["comparison.metric_implementation"].reason is MissingReason.unreported
    assert evaluation.training_hardware is not None
    assert "H100 94GB" in evaluation.training_hardware
    (context,) = evaluation.citations
    assert context.role is CitationRole.context_only
    assert context.locator == f"{ZERO_LOCATOR}; Figure 3"
    assert "comparison.adaptation" in context.supports
    review = evaluation.review
    assert review is not None
    assert review.status is ReviewStatus.source_checked
    assert review.reviewer == "claude"
    assert review.artifact_sha256 == SAADAT_SHA256


def test_question_is_assessed_by_the_ia3_protocol(catalogue: Catalogue) -> None:
    (question,) = catalogue.questions()
    assert question.title == "Select an execution workflow for large-scale diagnostic genomics"
    assert question.protocols == [IA3]
    assert catalogue.referring(IA3, Question) == [question]
