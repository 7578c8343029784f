"""The readiness section's words (render/readiness_text.py), made from the facts
derive/readiness.py returns (its facts are tested in tests/test_derive_readiness.py)."""

from __future__ import annotations

import hashlib

from scenarios import load_scenario, scenario_root

from rewire_site.derive.logs import LogFacts
from rewire_site.derive.readiness import readiness
from rewire_site.derive.scales import is_resource_metric
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol
from rewire_site.render.readiness_text import ReadinessView, readiness_view

LOG = "artifacts/run-1.log"


def view(
    evaluation: Evaluation,
    catalogue: Catalogue,
    hashes: dict[str, str | None],
    logs: dict[str, LogFacts] | None = None,
) -> ReadinessView:
    """The section as the evaluation page shows it."""
    protocol = catalogue.get(evaluation.protocol, Protocol)
    return readiness_view(readiness(evaluation, catalogue, hashes, logs), protocol)


def _states(found: ReadinessView) -> dict[str, dict[str, str]]:
    return {c.key: {r.key: r.state for r in c.requirements} for c in found.checks}


def _measured(hashes: dict[str, str | None]) -> ReadinessView:
    catalogue = load_scenario("reproduction")
    return view(catalogue.get("eval-nt-rewire", Evaluation), catalogue, hashes)


def _log_hash() -> str:
    return hashlib.sha256((scenario_root("reproduction") / LOG).read_bytes()).hexdigest()


def test_published_memory_result_meets_no_check_with_seed_wording() -> None:
    catalogue = load_scenario("seed_memory")
    found = view(catalogue.get("eval-gena-deepspeed", Evaluation), catalogue, {})
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
        "Compute requirements are known",
    ]
    states = _states(found)
    # A memory metric has no per-sample predictions: not applicable, with a reason.
    assert states["replay_metrics"]["predictions"] == "not_applicable"
    assert states["replay_metrics"]["recomputed"] == "not_applicable"
    # The source does not state the direction: not confirmed.
    assert states["replay_metrics"]["score_meaning"] == "unmet"
    assert "which way is better" in replay.requirements[3].reason
    # A published value is a value: there is something to replay.
    assert states["replay_metrics"]["values"] == "met"
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


def test_hashed_measurement_meets_no_check_while_score_meaning_is_unchecked() -> None:
    """Defect 2: unit and direction strings matching is not a confirmed score meaning, so
    the requirement says 'not checked' and the checks that need it are not met."""
    found = _measured({LOG: _log_hash()})
    states = _states(found)
    assert states["replay_metrics"]["checksums"] == "met"
    meaning = next(r for r in found.checks[0].requirements if r.key == "score_meaning")
    assert (meaning.state, meaning.state_label) == ("unmet", "not checked")
    assert meaning.reason.startswith("Not checked: the builder only compared strings")
    assert [(c.key, c.state) for c in found.checks] == [
        ("replay_metrics", "unmet"),
        ("investigate_discrepancies", "unmet"),
        ("run_locally", "unmet"),
        ("validate_independently", "unmet"),
    ]
    assert found.summary == "0 of 4 readiness checks met."
    # The fixture logs a short commit: not pinned. A full clean commit is.
    recipe = next(r for r in found.checks[2].requirements if r.key == "recipe")
    assert recipe.state == "unmet" and "not a full 40-hex commit" in recipe.reason
    catalogue = load_scenario("reproduction")
    measured = catalogue.get("eval-nt-rewire", Evaluation)
    assert measured.environment is not None
    env = measured.environment.model_copy(update={"git_commit": "ab" * 20})
    pinned = view(measured.model_copy(update={"environment": env}), catalogue, {})
    recipe = next(r for r in pinned.checks[2].requirements if r.key == "recipe")
    assert recipe.state == "met"
    assert "rewire measure run training-peak-memory" in recipe.reason
    assert recipe.code == "rewire_site.derive.readiness._run_locally"


def test_a_dirty_or_reconstructed_commit_is_not_pinned() -> None:
    catalogue = load_scenario("reproduction")
    measured = catalogue.get("eval-nt-rewire", Evaluation)
    assert measured.environment is not None
    for commit, why in (
        ("f69fe6030f9d08c90b7f1f22adebf868abef4aa2+dirty", "uncommitted changes"),
        ("329db747fa71d0b0c79463c347d80d2873076451 (commit of the checkout, read "
         "afterwards)", "reconstructed"),
        ("unknown (no git repository)", "not a full 40-hex commit"),
    ):  # fmt: skip
        env = measured.environment.model_copy(update={"git_commit": commit})
        changed = measured.model_copy(update={"environment": env})
        found = view(changed, catalogue, {LOG: _log_hash()})
        recipe = next(r for r in found.checks[2].requirements if r.key == "recipe")
        assert recipe.state == "unmet", commit
        assert why in recipe.reason, recipe.reason


def test_an_incomplete_run_has_no_metric_to_replay() -> None:
    catalogue = load_scenario("incomplete_run")
    found = view(catalogue.get("eval-nt-rewire-short", Evaluation), catalogue, {})
    values = next(r for r in found.checks[0].requirements if r.key == "values")
    assert values.state == "unmet"
    assert "incomplete run" in values.reason and "nothing to replay" in values.reason
    assert found.checks[0].state == "unmet"


def test_every_requirement_names_the_function_that_set_it() -> None:
    import importlib

    found = _measured({LOG: _log_hash()})
    for check in found.checks:
        for requirement in check.requirements:
            module, _, name = requirement.code.rpartition(".")
            assert callable(getattr(importlib.import_module(module), name)), requirement.code


def test_score_metric_requirements_stay_unmet_until_code_checks_predictions() -> None:
    catalogue = load_scenario("seed_memory")
    protocol = catalogue.get("training-peak-memory", Protocol)
    metric = protocol.metric.model_copy(update={"id": "mcc", "label": "MCC", "unit": "mcc"})
    scored = protocol.model_copy(update={"metric": metric})
    assert is_resource_metric(protocol) and not is_resource_metric(scored)
    changed = Catalogue.from_records(
        [*[r for r in catalogue.by_id.values() if r.id != protocol.id], scored]
    )
    found = view(changed.get("eval-nt-checkpointing", Evaluation), changed, {})
    states = _states(found)
    assert states["replay_metrics"]["predictions"] == "unmet"
    assert states["replay_metrics"]["recomputed"] == "unmet"
    assert states["investigate_discrepancies"]["annotations"] == "unmet"
    assert states["validate_independently"]["overlap"] == "unmet"
    assert found.checks[3].state == "unmet"


def test_recipe_of_protocol_does_not_pin_a_published_result() -> None:
    catalogue = load_scenario("ia3_conflict")
    found = view(catalogue.get("eval-nt-500m-ia3-runtime", Evaluation), catalogue, {})
    run = {r.key: r for r in found.checks[2].requirements}
    assert run["recipe"].state == "unmet"
    assert "rewire measure run nt-ia3" in run["recipe"].reason
    # Defect 1: a hand-written recipe estimate does not make compute requirements known.
    assert run["compute"].state == "unmet"
    assert "written by hand, not measured" in run["compute"].reason
    # The IA3 results state unit and direction: strings compared, meaning not checked.
    meaning = next(r for r in found.checks[0].requirements if r.key == "score_meaning")
    assert (meaning.state, meaning.state_label) == ("unmet", "not checked")


def test_claims_only_have_no_value_to_replay() -> None:
    catalogue = load_scenario("seed_memory")
    evaluation = catalogue.get("eval-nt-checkpointing", Evaluation)
    claims_only = evaluation.model_copy(update={"results": []})
    found = view(claims_only, catalogue, {})
    values = next(r for r in found.checks[0].requirements if r.key == "values")
    assert values.state == "unmet" and "claims only" in values.reason


def test_a_hand_estimate_reads_as_a_duration() -> None:
    """The recipe's hand estimate is a wall time like any other: '1 minute', '30 seconds',
    never '1 minutes' or '0.5 minutes' (render.present.durations.display_duration)."""
    catalogue = load_scenario("ia3_conflict")
    evaluation = catalogue.get("eval-nt-500m-ia3-runtime", Evaluation)
    protocol = catalogue.get(evaluation.protocol, Protocol)
    assert protocol.recipe is not None
    for minutes, text in ((1.0, "(1 minute)"), (0.5, "(30 seconds)"), (90.0, "(90 minutes)")):
        recipe = protocol.recipe.model_copy(update={"estimated_minutes": minutes})
        changed = protocol.model_copy(update={"recipe": recipe})
        records = [changed if r.id == protocol.id else r for r in catalogue.by_id.values()]
        found = view(evaluation, Catalogue.from_records(records), {})
        compute = next(r for r in found.checks[2].requirements if r.key == "compute")
        assert f"The recipe's own estimate {text} is written by hand" in compute.reason
