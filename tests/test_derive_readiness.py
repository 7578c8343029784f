"""Readiness checks (derive/readiness.py)."""

from __future__ import annotations

import hashlib

from scenarios import load_scenario, scenario_root

from rewire_site.derive.readiness import Readiness, is_resource_metric, readiness
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol

LOG = "artifacts/run-1.log"


def _states(found: Readiness) -> dict[str, dict[str, str]]:
    return {c.key: {r.key: r.state for r in c.requirements} for c in found.checks}


def _measured(hashes: dict[str, str | None]) -> Readiness:
    catalogue = load_scenario("reproduction")
    return readiness(catalogue.get("eval-nt-rewire", Evaluation), catalogue, hashes)


def _log_hash() -> str:
    return hashlib.sha256((scenario_root("reproduction") / LOG).read_bytes()).hexdigest()


def test_published_memory_result_meets_no_check_with_seed_wording() -> None:
    catalogue = load_scenario("seed_memory")
    found = readiness(catalogue.get("eval-gena-deepspeed", Evaluation), catalogue, {})
    assert found.summary == "0 of 4 readiness checks met."
    assert found.artifact_note == "No verified artifact manifest is linked to this exact record."
    assert [c.name for c in found.checks] == [
        "Replay metrics",
        "Investigate discrepancies",
        "Run locally",
        "Validate independently",
    ]
    replay = found.checks[0]
    assert replay.description == (
        "Exact outcomes, predictions, identifiers and evaluator are connected."
    )
    assert replay.status_label == "Evidence incomplete"
    assert replay.verified_label == "Not verified"
    assert replay.requirements[0].text == (
        "File checksums match the recorded files: not yet verified"
    )
    assert [r.label for r in found.checks[2].requirements] == [
        "File checksums match the recorded files",
        "Predictions are matched to the right samples",
        "Score meaning and direction are confirmed",
        "A pinned run recipe exists",
        "Compute requirements are estimated",
    ]
    states = _states(found)
    # A memory metric has no per-sample predictions: not applicable, with a reason.
    assert states["replay_metrics"]["predictions"] == "not_applicable"
    assert states["replay_metrics"]["recomputed"] == "not_applicable"
    # The source does not state the direction: not confirmed.
    assert states["replay_metrics"]["score_meaning"] == "unmet"
    assert "which way is better" in replay.requirements[2].reason
    assert states["run_locally"] == {
        "checksums": "unmet",
        "predictions": "not_applicable",
        "score_meaning": "unmet",
        "recipe": "unmet",
        "compute": "unmet",
    }
    assert found.checks[3].state == "unmet"


def test_checksums_met_only_when_the_builder_hashed_matching_files() -> None:
    found = _measured({LOG: _log_hash()})
    assert _states(found)["replay_metrics"]["checksums"] == "met"
    assert found.artifacts[0].state == "match"
    assert found.artifact_note == (
        "1 of 1 artifact file match their recorded SHA-256, hashed by the builder."
    )


def test_checksums_unmet_when_the_file_was_not_hashed_or_differs() -> None:
    missing = _measured({})
    requirement = missing.checks[0].requirements[0]
    assert requirement.state == "unmet"
    assert requirement.reason == f"{LOG}: not found by the builder."
    assert missing.artifacts[0].state == "not_hashed"
    different = _measured({LOG: "0" * 64})
    requirement = different.checks[0].requirements[0]
    assert requirement.state == "unmet"
    assert "file hashes to " + "0" * 64 in requirement.reason
    assert different.artifacts[0].state == "mismatch"


def test_hashed_measurement_meets_replay_and_run_locally() -> None:
    found = _measured({LOG: _log_hash()})
    assert [(c.key, c.state) for c in found.checks] == [
        ("replay_metrics", "met"),
        ("investigate_discrepancies", "not_applicable"),
        ("run_locally", "met"),
        ("validate_independently", "not_applicable"),
    ]
    assert found.met_count == 2
    assert found.summary == "2 of 4 readiness checks met."
    assert not found.verified
    recipe = found.checks[2].requirements[3]
    assert recipe.state == "met"
    assert "rewire measure run training-peak-memory" in recipe.reason
    assert found.checks[0].status_label == "Evidence complete"
    assert found.checks[1].status_label == "Not applicable"


def test_score_metric_requirements_stay_unmet_until_code_checks_predictions() -> None:
    catalogue = load_scenario("seed_memory")
    protocol = catalogue.get("training-peak-memory", Protocol)
    metric = protocol.metric.model_copy(update={"id": "mcc", "label": "MCC", "unit": "mcc"})
    scored = protocol.model_copy(update={"metric": metric})
    assert is_resource_metric(protocol) and not is_resource_metric(scored)
    changed = Catalogue.from_records(
        [*[r for r in catalogue.by_id.values() if r.id != protocol.id], scored]
    )
    found = readiness(changed.get("eval-nt-checkpointing", Evaluation), changed, {})
    states = _states(found)
    assert states["replay_metrics"]["predictions"] == "unmet"
    assert states["replay_metrics"]["recomputed"] == "unmet"
    assert states["investigate_discrepancies"]["annotations"] == "unmet"
    assert states["validate_independently"]["overlap"] == "unmet"
    assert found.checks[3].state == "unmet"


def test_recipe_of_protocol_does_not_pin_a_published_result() -> None:
    catalogue = load_scenario("ia3_conflict")
    found = readiness(catalogue.get("eval-nt-500m-ia3-runtime", Evaluation), catalogue, {})
    run = {r.key: r for r in found.checks[2].requirements}
    assert run["recipe"].state == "unmet"
    assert "rewire measure run nt-ia3" in run["recipe"].reason
    assert run["compute"].state == "met"
    assert run["compute"].reason == "The recipe needs one H100 or H200, about 90 minutes."
    # The IA3 results state unit and direction, and the protocol defines the metric.
    assert {r.key: r.state for r in found.checks[0].requirements}["score_meaning"] == "met"
