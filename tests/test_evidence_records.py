"""Real published evidence about DNA language models (issue 11), case by case.

Each test loads the specific real records entered for one case of issue 11 through the
real validator and asserts that the case is held in fields, not in free text. The records
are validated on their own (`validate_paths` over `records/evidence-20261130-*.yaml` and
the two older family records that now carry real checkpoint facts, references resolved
against the whole catalogue), so a problem in another editor's record never fails these
tests and a problem in these records always does. No test counts the live catalogue.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

from rewire_site.build import Gathered
from rewire_site.config import RECORDS_DIR
from rewire_site.models import Configuration, Dataset, Evaluation, ModelFamily, Protocol, Source
from rewire_site.models.common import ConcernKind, MissingReason, RecordBase, Scale
from rewire_site.models.evaluation import ClaimKind, Origin, Qualifier
from rewire_site.models.printed import parse_printed
from rewire_site.models.scales import on_metric_scale
from rewire_site.models.source import SourceKind
from rewire_site.problems import Problem

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "evidence-20261130-"
FULL_COMMIT = re.compile(r"^[0-9a-f]{40}$")

README = f"{PREFIX}source-dnabert-2-readme"
SCRIPT = f"{PREFIX}source-dnabert-2-run-dnabert2-sh"
CONFIG_JSON = f"{PREFIX}source-dnabert-2-config-json"
DNABERT2_PAPER = f"{PREFIX}source-dnabert-2-preprint"
ISSUE_99 = f"{PREFIX}source-dnabert-2-issue-99"
ISSUE_127 = f"{PREFIX}source-dnabert-2-issue-127"
ISSUE_52 = f"{PREFIX}source-dnabert-2-issue-52"
HYENA_PAPER = f"{PREFIX}source-hyenadna-preprint"
HYENA_NEURIPS = f"{PREFIX}source-hyenadna-neurips-2023"
HYENA_ISSUE_60 = f"{PREFIX}source-hyenadna-issue-60"
HYENA_TIMER = f"{PREFIX}source-hyenadna-timer-py"
GENERATOR_README = f"{PREFIX}source-generator-readme"
GENERATOR_PAPER = f"{PREFIX}source-generator-preprint"
SEGMENTNT_DOCS = f"{PREFIX}source-nt-docs-segment-nt"
NT_DOCS = f"{PREFIX}source-nt-docs-nucleotide-transformer"
NT_CODE_RELEASED = f"{PREFIX}source-nt-model-py-d51374e"
NT_CODE_FIXED = f"{PREFIX}source-nt-model-py-8332f7e"
NT_ISSUE_7 = f"{PREFIX}source-nt-issue-7"
NT_PREPRINT = f"{PREFIX}source-nt-preprint"
GENA_README = f"{PREFIX}source-gena-lm-readme-previous-generation"
GENA_CONFIG = f"{PREFIX}source-gena-lm-config-l12-h768"

NT_FAMILY = "gfm-guide-20261014-family-nucleotide-transformer"
GENA_FAMILY = "saadat-fellay-20261015-family-gena-lm"
FAMILIES_WITH_FACTS = (NT_FAMILY, GENA_FAMILY)
"""Families written before issue 11 (many configurations refer to them) that now hold real
checkpoint facts; validated with the evidence records."""

TABLE_6 = f"{PREFIX}eval-dnabert-2-gue-tf-mouse-table-6"
TABLE_9 = f"{PREFIX}eval-dnabert-2-gue-tf-mouse-table-9"
EPI_PUBLISHED = f"{PREFIX}eval-dnabert-2-gue-plus-epi-0-published"
EPI_USER = f"{PREFIX}eval-dnabert-2-gue-plus-epi-gm12878-leannmlindsey"
EPI_MAINTAINER = f"{PREFIX}eval-dnabert-2-gue-plus-epi-maintainer-statement"
GB_PUBLISHED = f"{PREFIX}eval-hyenadna-genomic-benchmarks-table-4-1"
GB_USER = f"{PREFIX}eval-hyenadna-genomic-benchmarks-leannmlindsey"
NT_TABLE = f"{PREFIX}eval-hyenadna-nt-benchmark-table-4-2"
RUNTIME = f"{PREFIX}eval-hyenadna-runtime-figure-4-1"

T = TypeVar("T", bound=RecordBase)


@dataclass(frozen=True)
class Evidence:
    """The evidence records (and the families with facts they cite) as the live
    catalogue validated them: their records and the problems naming their files."""

    records: dict[str, RecordBase]
    problems: list[Problem]


@pytest.fixture(scope="module")
def report(live: Gathered) -> Evidence:
    """Read from the live catalogue gathered once per process (an error in any record
    stops the gathering, so only warnings can be left)."""
    files = sorted((ROOT / RECORDS_DIR).glob(f"{PREFIX}*.yaml"))
    assert files, f"no {PREFIX}* records under {RECORDS_DIR}"
    files += [ROOT / RECORDS_DIR / f"{family}.yaml" for family in FAMILIES_WITH_FACTS]
    ids = {f.stem for f in files}
    by_id = live.catalogue.by_id
    return Evidence(
        {i: by_id[i] for i in sorted(ids) if i in by_id},
        [p for p in live.warnings if p.path.resolve() in set(files)],
    )


def record(report: Evidence, record_id: str, kind: type[T]) -> T:
    found = report.records.get(record_id)
    assert isinstance(found, kind), f"{record_id}: not a valid {kind.__name__}"
    return found


def test_the_evidence_records_validate_with_no_problem(report: Evidence) -> None:
    assert [str(p) for p in report.problems] == []


# ------------------------------------------------------------ case 1: provenance


def test_case1_a_repository_file_is_pinned_hashed_dated_and_licensed(
    report: Evidence,
) -> None:
    readme = record(report, README, Source)
    assert readme.source_kind == SourceKind.repository_file
    assert readme.repository == "https://github.com/MAGICS-LAB/DNABERT_2"
    assert readme.path == "README.md"
    assert readme.revision is not None and FULL_COMMIT.match(readme.revision)
    assert readme.revision in readme.url  # the URL names the commit, not blob/main
    assert readme.published == "2025-08-14"
    assert readme.licence == "Apache-2.0"
    assert readme.maintainers == ["Zhihan Zhou (Zhihan1996)"]


@pytest.mark.parametrize("source_id", [README, SCRIPT, HYENA_TIMER])
def test_case1_sha256_is_of_the_real_bytes_kept_as_artifacts(
    report: Evidence, source_id: str
) -> None:
    source = record(report, source_id, Source)
    copies = list((ROOT / "artifacts" / "sources" / source_id).iterdir())
    assert len(copies) == 1
    data = copies[0].read_bytes()
    assert hashlib.sha256(data).hexdigest() == source.sha256
    assert len(data) == source.size_bytes


def test_case1_what_cannot_be_hashed_says_why(report: Evidence) -> None:
    thread = record(report, ISSUE_99, Source)
    assert thread.source_kind == SourceKind.issue_thread
    assert thread.sha256 is None
    assert thread.missing_metadata["sha256"].reason == MissingReason.inapplicable
    assert thread.maintainers and thread.authors == ["leannmlindsey"]
    config = record(report, CONFIG_JSON, Source)
    assert config.source_kind == SourceKind.configuration_file
    assert config.revision == "faf3caf600dccf9530ebacd7d6fea4349921d461"
    assert config.sha256 is None
    assert config.missing_metadata["sha256"].reason == MissingReason.unknown


def test_case1_dates_keep_the_printed_precision_and_source_kinds_differ(
    report: Evidence,
) -> None:
    assert record(report, DNABERT2_PAPER, Source).published == "2024-03-18"
    neurips = record(report, HYENA_NEURIPS, Source)
    assert neurips.source_kind == SourceKind.conference_paper
    assert neurips.published == "2023"
    kinds = {
        record(report, i, Source).source_kind
        for i in (README, CONFIG_JSON, DNABERT2_PAPER, ISSUE_99, HYENA_NEURIPS, SEGMENTNT_DOCS)
    }
    assert SourceKind.documentation_page in kinds and len(kinds) == 6
    docs = record(report, SEGMENTNT_DOCS, Source)
    assert docs.revision is not None and FULL_COMMIT.match(docs.revision)
    assert docs.licence == "CC BY-NC-SA 4.0" and docs.sha256 is not None


def test_case1_a_secondary_quotation_names_both_sources(report: Evidence) -> None:
    result = record(report, TABLE_6, Evaluation).results[0]
    assert result.citation is not None
    assert result.citation.source == ISSUE_127
    assert result.citation.quoted_from is not None
    assert result.citation.quoted_from.source == DNABERT2_PAPER
    assert "Table 6" in result.citation.quoted_from.locator
    assert result.citation.quote is not None and "56.76" in result.citation.quote


# ------------------------------------------------------------ case 2: who produced it


def test_case2_a_community_reproduction_reproduces_the_published_value(
    report: Evidence,
) -> None:
    user = record(report, EPI_USER, Evaluation)
    published = record(report, EPI_PUBLISHED, Evaluation)
    assert user.origin == Origin.community_reproduction
    assert published.origin == Origin.author_reported
    assert user.reproduces == EPI_PUBLISHED
    assert user.results[0].column == published.results[0].column == "epi-dataset-0"
    gb_user = record(report, GB_USER, Evaluation)
    assert gb_user.origin == Origin.community_reproduction
    assert gb_user.reproduces == GB_PUBLISHED
    assert gb_user.configuration != record(report, GB_PUBLISHED, Evaluation).configuration


def test_case2_a_reproduction_in_another_projects_issue(report: Evidence) -> None:
    user = record(report, f"{PREFIX}eval-segmentnt-5utr-jasonlinjc", Evaluation)
    published = record(report, user.reproduces or "", Evaluation)
    assert user.origin == Origin.community_reproduction
    assert published.origin == Origin.author_reported
    assert (user.results[0].value, published.results[0].value) == (0.11, 0.48)
    quoted = published.results[0].citation
    assert quoted is not None and quoted.quoted_from is not None
    assert quoted.quoted_from.source == f"{PREFIX}source-segmentnt-paper"
    (labels,) = user.concerns
    assert labels.field == "comparison.dataset_version"
    assert labels.citations[0].locator.startswith("Maintainer reply")


def test_case2_a_maintainer_statement_is_its_own_origin(report: Evidence) -> None:
    statement = record(report, EPI_MAINTAINER, Evaluation)
    assert statement.origin == Origin.maintainer_statement
    assert statement.results == []
    (claim,) = statement.claims
    assert claim.metric == "MCC"
    assert claim.citation.source == ISSUE_99
    assert "Maintainer" in claim.citation.locator


# ------------------------------------------------------------ case 3: what a number means


def test_case3_one_mcc_on_two_scales(report: Evidence) -> None:
    protocol = record(report, f"{PREFIX}protocol-dnabert-2-gue-fine-tuning", Protocol)
    metric = protocol.column_metric("epi-dataset-0")
    assert metric.scale == Scale.percent
    assert (metric.minimum, metric.maximum) == (-100, 100)
    published = record(report, EPI_PUBLISHED, Evaluation).results[0]
    user = record(report, EPI_USER, Evaluation).results[0]
    assert (published.value, published.printed_value, published.scale) == (61.91, "61.91", None)
    assert user.scale == Scale.fraction and user.printed_value == "0.3622498911964387"
    assert on_metric_scale(metric, user) == pytest.approx(36.22498911964387)
    assert on_metric_scale(metric, published) == 61.91


def test_case3_printed_values_with_magnitudes_and_qualifiers(report: Evidence) -> None:
    family = record(report, f"{PREFIX}family-generator", ModelFamily)
    facts = family.checkpoints[0].facts
    assert facts is not None and facts.pretraining_data is not None
    assert facts.pretraining_data.printed_value == "386B bp"
    read = parse_printed(facts.pretraining_data.printed_value)
    assert read is not None and read.value == facts.pretraining_data.value == 386e9
    assert facts.parameters is not None and facts.parameters.printed_value == "1.2B"
    claim = next(
        c for c in record(report, RUNTIME, Evaluation).claims if c.id == "up-to-160x-faster"
    )
    assert (claim.qualifier, claim.value, claim.unit) == (Qualifier.up_to, 160, "times faster")
    printed = parse_printed(claim.statement)
    assert printed is not None and printed.qualifier == "up_to" and printed.value == 160


def test_case3_a_mislabelled_metric_keeps_its_label_and_correction(
    report: Evidence,
) -> None:
    evaluation = record(report, TABLE_9, Evaluation)
    result = evaluation.results[0]
    protocol = record(report, evaluation.protocol, Protocol)
    assert protocol.column_metric(result.column).id == "f1"
    assert result.printed_metric_label == "MCC"
    assert result.metric_correction is not None
    assert result.metric_correction.source == ISSUE_127
    assert "Table 9 are **F1**" in (result.metric_correction.quote or "")
    assert [c.kind for c in evaluation.concerns if c.field == "results.0"] == [
        ConcernKind.metric_mislabelled,
        ConcernKind.secondary_quotation,
    ]


def test_case3_one_protocol_holds_columns_with_different_metrics(
    report: Evidence,
) -> None:
    evaluation = record(report, NT_TABLE, Evaluation)
    protocol = record(report, evaluation.protocol, Protocol)
    metrics = {r.column: protocol.column_metric(r.column).id for r in evaluation.results}
    assert metrics == {"enhancer": "mcc", "promoter-all": "f1"}


# ------------------------------------------------------------ case 4: run conditions


def test_case4_run_conditions_are_fields_with_reasons(report: Evidence) -> None:
    evaluation = record(report, TABLE_6, Evaluation)
    run = evaluation.run_conditions
    assert run is not None
    assert (run.learning_rate, run.batch_size_per_gpu, run.global_batch_size) == (3e-5, 8, 32)
    assert (run.gpu_count, run.steps) == (4, 1000)
    assert run.precision is not None and "fp16" in run.precision
    missing = evaluation.missing_metadata
    assert run.seeds is None and missing["run_conditions.seeds"].reason == MissingReason.unreported
    assert (
        run.epochs is None and missing["run_conditions.epochs"].reason == MissingReason.inapplicable
    )
    supported = {path for c in evaluation.citations for path in c.supports}
    assert {"run_conditions.learning_rate", "run_conditions.steps"} <= supported


def test_case4_a_users_run_and_a_timing_carry_what_they_state(report: Evidence) -> None:
    user = record(report, GB_USER, Evaluation)
    assert user.run_conditions is not None
    assert (user.run_conditions.epochs, user.run_conditions.batch_size_per_gpu) == (25, 512)
    assert user.missing_metadata["run_conditions.learning_rate"].reason == MissingReason.unreported
    timing = record(report, RUNTIME, Evaluation).run_conditions
    assert timing is not None
    assert (timing.accelerator, timing.accelerator_memory_gb) == ("NVIDIA A100 80GB", 80)


def test_case4_a_checkpoints_pretraining_run_is_fields_with_reasons(
    report: Evidence,
) -> None:
    """Caduceus-Ph: "Trained for 50k steps and batch size of 8." is held as run
    conditions of the checkpoint, not as a note."""
    family = record(report, f"{PREFIX}family-caduceus", ModelFamily)
    checkpoint = family.checkpoints[0]
    run = checkpoint.pretraining
    assert run is not None
    assert (run.steps, run.global_batch_size) == (50000, 8)
    assert "50k steps" not in (checkpoint.note or "")
    missing = family.missing_metadata
    assert run.seeds is None
    assert missing["checkpoints.0.pretraining.seeds"].reason == MissingReason.unreported
    assert run.batch_size_per_gpu is None
    assert missing["checkpoints.0.pretraining.batch_size_per_gpu"].reason == (
        MissingReason.unreported
    )
    (cited,) = [c for c in family.citations if "checkpoints.0.pretraining.steps" in c.supports]
    assert cited.source == f"{PREFIX}source-caduceus-readme"
    assert cited.quote == "Trained for 50k steps and batch size of 8."
    assert "checkpoints.0.pretraining.global_batch_size" in cited.supports


# ------------------------------------------------------------ case 5: concerns anywhere


def test_case5_concerns_on_sources_datasets_families_configurations_protocols(
    report: Evidence,
) -> None:
    kinds = {
        record(report, README, Source).concerns[0].kind,
        record(report, f"{PREFIX}protocol-hyenadna-runtime", Protocol).concerns[0].kind,
        record(report, f"{PREFIX}config-hyenadna-1-6m-nt-benchmark", Configuration)
        .concerns[0]
        .kind,
    }
    assert kinds == {
        ConcernKind.moving_reference,
        ConcernKind.unsynchronised_timer,
        ConcernKind.checkpoint_unclear,
    }
    timer = record(report, f"{PREFIX}protocol-hyenadna-runtime", Protocol).concerns[0]
    assert timer.field == "metric_definition" and timer.citations[0].source == HYENA_TIMER


def test_case5_conflicting_values_hold_both_values_with_citations(
    report: Evidence,
) -> None:
    dataset = record(report, f"{PREFIX}dataset-gue", Dataset)
    concerns = {c.id: c for c in dataset.concerns}
    count = concerns["dataset-count-differs"]
    assert count.kind == ConcernKind.conflicting_values
    assert [(v.value.split(",")[0], v.citation.source) for v in count.values] == [
        ("28 datasets", README),
        ("36 datasets", f"{PREFIX}source-dnabert-2-iclr-abstract-mirror"),
    ]
    mirror = record(report, count.values[1].citation.source, Source)
    assert mirror.source_kind == SourceKind.mirror
    concern = concerns["covid-split-sizes-differ"]
    assert concern.kind == ConcernKind.conflicting_values and concern.field == "splits"
    assert [v.value.split(" (")[0] for v in concern.values] == [
        "77669 / 7000 / 7000",
        "73335 / 9168 / 9168",
    ]
    paper, files = concern.values
    assert paper.citation.source == files.citation.source == ISSUE_52
    assert paper.citation.quoted_from is not None
    assert paper.citation.quoted_from.source == DNABERT2_PAPER
    assert files.citation.quoted_from is None


def test_case5_an_uncertain_dataset_mapping_has_its_own_kind(report: Evidence) -> None:
    dataset = record(report, f"{PREFIX}dataset-gue-plus-epi", Dataset)
    reproduction = record(report, EPI_USER, Evaluation)
    (on_dataset,) = dataset.concerns
    (on_reproduction,) = reproduction.concerns
    assert on_dataset.kind == on_reproduction.kind == ConcernKind.dataset_unclear
    assert on_reproduction.field == "reproduces"
    assert on_reproduction.citations[0].source == ISSUE_99
    assert "not 100% sure" in (on_reproduction.citations[0].quote or "")


# ------------------------------------------------------------ case 6: model facts


def test_case6_checkpoint_facts_are_cited_fields(report: Evidence) -> None:
    family = record(report, f"{PREFIX}family-dnabert-2", ModelFamily)
    checkpoint = family.checkpoints[0]
    assert checkpoint.name == "zhihan1996/DNABERT-2-117M"
    assert checkpoint.revision is not None and FULL_COMMIT.match(checkpoint.revision)
    facts = checkpoint.facts
    assert facts is not None
    numbers = {
        name: getattr(facts, name).value
        for name in ("layers", "hidden_size", "attention_heads", "vocabulary_size", "max_positions")
    }
    assert numbers == {
        "layers": 12,
        "hidden_size": 768,
        "attention_heads": 12,
        "vocabulary_size": 4096,
        "max_positions": 512,
    }
    assert all(getattr(facts, n).citation.source == CONFIG_JSON for n in numbers)
    assert facts.tokeniser is not None and facts.tokeniser.value == "BPE"
    assert family.missing_metadata["checkpoints.0.facts.parameters"].reason == (
        MissingReason.unreported
    )


def test_case6_a_config_json_that_contradicts_the_authors_is_a_concern_on_the_field(
    report: Evidence,
) -> None:
    family = record(report, f"{PREFIX}family-dnabert-2", ModelFamily)
    (concern,) = family.concerns
    assert concern.kind == ConcernKind.conflicting_values
    assert concern.field == "checkpoints.0.facts.position_embedding"
    assert {(v.value, v.citation.source) for v in concern.values} == {
        ("ALiBi", README),
        ("absolute", CONFIG_JSON),
    }
    facts = family.checkpoints[0].facts
    assert facts is not None and facts.position_embedding is not None
    assert facts.position_embedding.value == "ALiBi"


def test_case6_volume_and_length_facts_carry_units(report: Evidence) -> None:
    generator = record(report, f"{PREFIX}family-generator", ModelFamily).checkpoints[0].facts
    hyena = record(report, f"{PREFIX}family-hyenadna", ModelFamily).checkpoints[0].facts
    assert generator is not None and hyena is not None
    assert generator.pretraining_data is not None and generator.pretraining_data.unit == "base-pair"
    assert generator.pretraining_data.citation.source == GENERATOR_PAPER
    assert generator.context_length_accepted is not None
    assert (generator.context_length_accepted.value, generator.context_length_accepted.unit) == (
        98000,
        "base-pair",
    )
    assert hyena.context_length_trained is not None
    assert (hyena.context_length_trained.value, hyena.context_length_trained.unit) == (
        1_000_000,
        "token",
    )
    assert hyena.pretraining_data is not None and hyena.pretraining_data.unit == "genome"


def test_case6_a_family_with_facts_stands_alone(report: Evidence) -> None:
    """No configuration of these records uses the GENERator family: its facts alone
    keep it in the catalogue, and validation reports nothing about it."""
    family_id = f"{PREFIX}family-generator"
    assert record(report, family_id, ModelFamily).has_facts
    mine = [r for r in report.records.values() if isinstance(r, Configuration)]
    assert mine and all(c.family != family_id for c in mine)
    assert not [p for p in report.problems if family_id in str(p.path)]


NT_V1 = range(0, 4)
NT_V2 = range(4, 8)


def test_case6_code_that_contradicts_the_paper_is_a_concern_on_the_field(
    report: Evidence,
) -> None:
    """Nucleotide Transformer v1: the code as released defaulted max_positions to 1024, the
    paper (as quoted in issue 7) says 1000 tokens; the maintainer fixed it to 1000."""
    family = record(report, NT_FAMILY, ModelFamily)
    released = record(report, NT_CODE_RELEASED, Source)
    fixed = record(report, NT_CODE_FIXED, Source)
    assert released.revision == "d51374e290fdff23b7a3b361b52283964fddcbbb"
    assert fixed.revision == "8332f7e4b4aaa70820af35c574074e0ada4ed20d"
    assert released.path == fixed.path == "nucleotide_transformer/model.py"
    assert released.sha256 != fixed.sha256 and None not in (released.sha256, fixed.sha256)
    concerns = {c.field: c for c in family.concerns}
    for i in NT_V1:
        path = f"checkpoints.{i}.facts.max_positions"
        facts = family.checkpoints[i].facts
        assert facts is not None and facts.max_positions is not None
        assert (facts.max_positions.value, facts.max_positions.unit) == (1000, "token")
        assert facts.max_positions.citation.source == NT_CODE_FIXED
        concern = concerns[path]
        assert concern.kind == ConcernKind.conflicting_values
        code, paper = concern.values
        assert (code.value.split(" ")[0], code.citation.source) == ("1024", NT_CODE_RELEASED)
        assert code.citation.quote == "max_positions: int = 1024"
        assert paper.value.startswith("1000 tokens") and paper.citation.source == NT_ISSUE_7
        assert paper.citation.quote == "The paper mentions maximum of 1000 tokens."
        assert paper.citation.quoted_from is not None
        assert paper.citation.quoted_from.source == NT_PREPRINT
        maintainer = [c for c in concern.citations if c.source == NT_ISSUE_7]
        assert maintainer and all("Maintainer" in c.locator for c in maintainer)
    assert record(report, NT_PREPRINT, Source).source_kind == SourceKind.preprint
    assert NT_PREPRINT in family.papers
    thread = record(report, NT_ISSUE_7, Source)
    assert thread.sha256 is None and thread.missing_metadata["sha256"].reason == (
        MissingReason.inapplicable
    )


def test_case6_nt_v2_checkpoints_carry_volume_positions_and_tokens(
    report: Evidence,
) -> None:
    family = record(report, NT_FAMILY, ModelFamily)
    volumes: dict[str, tuple[float | str, str | None]] = {}
    for i in NT_V2:
        checkpoint = family.checkpoints[i]
        facts = checkpoint.facts
        assert facts is not None
        assert facts.pretraining_data is not None and facts.pretraining_data.unit == "token"
        assert facts.pretraining_data.citation.source == NT_DOCS
        volumes[checkpoint.name] = (
            facts.pretraining_data.value,
            facts.pretraining_data.printed_value,
        )
        assert facts.position_embedding is not None
        assert facts.position_embedding.value == "rotary"
        accepted = facts.context_length_accepted
        assert accepted is not None and (accepted.value, accepted.unit) == (2048, "token")
        assert accepted.printed_value == "2,048"
        assert facts.vocabulary_size is not None and facts.vocabulary_size.value == 4104
        assert facts.tokeniser is not None and facts.tokeniser.value == "6-mer"
        assert facts.max_positions is None
        assert family.missing_metadata[f"checkpoints.{i}.facts.max_positions"].reason == (
            MissingReason.unreported
        )
    hub = "InstaDeepAI/nucleotide-transformer-v2-{}-multi-species"
    assert volumes == {
        hub.format("50m"): (300e9, "300B tokens"),
        hub.format("100m"): (300e9, "300B tokens"),
        hub.format("250m"): (1e12, "1T tokens"),
        hub.format("500m"): (1e12, "1T tokens"),
    }
    docs = record(report, NT_DOCS, Source)
    assert docs.revision == "2dc37b86e16a6970fbc731751f7719d9f676f7f9"
    assert docs.sha256 == "ab16d582de98652526b5cebb120eec969328f9db29dc741826bcd81c397e0672"
    assert docs.licence == "CC BY-NC-SA 4.0"


def test_case6_gena_lm_facts_from_a_readme_and_a_configuration_file(
    report: Evidence,
) -> None:
    family = record(report, GENA_FAMILY, ModelFamily)
    checkpoint = family.checkpoints[0]  # others follow (e.g. those DNALLM-Mark fine-tunes)
    assert checkpoint.name == "AIRI-Institute/gena-lm-bert-base-t2t"
    facts = checkpoint.facts
    assert facts is not None
    from_config = ("layers", "hidden_size", "attention_heads", "vocabulary_size", "max_positions")
    numbers = {name: getattr(facts, name).value for name in from_config}
    assert numbers == {
        "layers": 12,
        "hidden_size": 768,
        "attention_heads": 12,
        "vocabulary_size": 32000,
        "max_positions": 512,
    }
    assert all(getattr(facts, n).citation.source == GENA_CONFIG for n in from_config)
    assert facts.position_embedding is not None and facts.position_embedding.value == "absolute"
    assert facts.parameters is not None
    assert (facts.parameters.value, facts.parameters.printed_value) == (110e6, "110M")
    assert facts.parameters.citation.source == GENA_README
    assert facts.pretraining_data is not None
    assert (facts.pretraining_data.value, facts.pretraining_data.unit) == (480e9, "base-pair")
    assert "480 x 10^9 base pairs" in (facts.pretraining_data.citation.quote or "")
    assert facts.context_length_accepted is not None
    assert facts.context_length_accepted.printed_value == "512(4500)"
    assert family.missing_metadata["checkpoints.0.facts.context_length_trained"].reason == (
        MissingReason.unreported
    )
    config = record(report, GENA_CONFIG, Source)
    readme = record(report, GENA_README, Source)
    assert config.source_kind == SourceKind.configuration_file
    assert readme.source_kind == SourceKind.repository_file
    assert config.revision == readme.revision == "4a884630dd72fac47775a256f9c85452b63d28e3"
    assert config.licence == readme.licence == "MIT"
    assert (config.sha256, config.size_bytes) == (
        "3fe2b5622bbe084dd79b6643c59c632e7b2d790a5f0451be7adf1cf96b630e71",
        623,
    )


# ------------------------------------------------------------ case 7: claims


def test_case7_n_of_m_and_average_and_up_to_claims(report: Evidence) -> None:
    claims = {c.id: c for c in record(report, GB_PUBLISHED, Evaluation).claims}
    seven = claims["sota-on-7-of-8"]
    assert (seven.kind, seven.count, seven.total) == (ClaimKind.count_of, 7, 8)
    average = claims["plus-10-points-on-average"]
    assert (average.kind, average.qualifier, average.value, average.unit) == (
        ClaimKind.relative_difference,
        Qualifier.on_average,
        10,
        "accuracy points",
    )
    assert average.baseline is not None
    up_to = claims["up-to-20-points-enhancers"]
    assert (up_to.qualifier, up_to.value) == (Qualifier.up_to, 20)
    twelve = next(c for c in record(report, NT_TABLE, Evaluation).claims if c.kind == "count_of")
    assert (twelve.count, twelve.total) == (12, 18)


def test_case7_ratio_and_state_of_the_art_claims(report: Evidence) -> None:
    runtime = {c.id: c for c in record(report, RUNTIME, Evaluation).claims}
    assert runtime["up-to-160x-faster"].baseline == "Transformer"
    assert runtime["up-to-160x-faster"].citation.source == HYENA_NEURIPS
    at_1m = runtime["160x-faster-at-1m"]
    assert (at_1m.kind, at_1m.qualifier, at_1m.value) == (ClaimKind.ratio, Qualifier.exact, 160)
    assert at_1m.citation.source == HYENA_PAPER
    (sota,) = record(report, TABLE_6, Evaluation).claims
    assert sota.kind == ClaimKind.state_of_the_art
    assert (sota.count, sota.total) == (28, 28)
    assert sota.citation.source == README
    assert sota.citation.quote is not None and sota.statement in sota.citation.quote
