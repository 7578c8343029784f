"""Readiness checks as facts (derive/readiness.py): states and what decided them. The
words a page shows are tested in tests/test_readiness_text.py."""

from __future__ import annotations

import hashlib

from scenarios import load_scenario, scenario_root

from rewire_site.derive.logs import LoggedRun
from rewire_site.derive.readiness import (
    CHECK_KEYS,
    Checksums,
    Compute,
    MissingValue,
    Pinning,
    Readiness,
    Requirement,
    Scope,
    ScoreMeaning,
    Values,
    pin_gap,
    readiness,
)
from rewire_site.models import Evaluation

LOG = "artifacts/run-1.log"


def _measured(hashes: dict[str, str | None]) -> tuple[Evaluation, Readiness]:
    catalogue = load_scenario("reproduction")
    evaluation = catalogue.get("eval-nt-rewire", Evaluation)
    return evaluation, readiness(evaluation, catalogue, hashes)


def _log_hash() -> str:
    return hashlib.sha256((scenario_root("reproduction") / LOG).read_bytes()).hexdigest()


def _requirements(found: Readiness) -> dict[str, Requirement]:
    return {r.key: r for c in found.checks for r in c.requirements}


def test_published_memory_result_facts() -> None:
    catalogue = load_scenario("seed_memory")
    found = readiness(catalogue.get("eval-gena-deepspeed", Evaluation), catalogue, {})
    assert [c.key for c in found.checks] == list(CHECK_KEYS)
    assert (found.met_count, found.total, found.verified, found.artifacts) == (0, 4, False, ())
    run = {r.key: r for r in found.checks[2].requirements}
    assert list(run) == ["checksums", "predictions", "score_meaning", "recipe", "compute"]
    assert run["checksums"].detail == Checksums(())
    assert run["predictions"].state == "not_applicable"
    assert isinstance(run["predictions"].detail, Scope) and run["predictions"].detail.resource
    meaning = run["score_meaning"].detail
    assert isinstance(meaning, ScoreMeaning) and not meaning.compared
    assert "no_direction" in [p.kind for p in meaning.problems]
    compute = run["compute"]
    assert compute.state == "unmet" and isinstance(compute.detail, Compute)
    assert compute.detail.environment is None
    values = next(r for r in found.checks[0].requirements if r.key == "values")
    assert values.state == "met" and isinstance(values.detail, Values)
    assert values.detail.missing == ()


def test_checksum_states_follow_the_builders_hashes() -> None:
    _, matching = _measured({LOG: _log_hash()})
    assert matching.checks[0].requirements[0].state == "met"
    assert [s.state for s in matching.artifacts] == ["match"] and matching.matching == 1
    _, missing = _measured({})
    assert missing.checks[0].requirements[0].state == "unmet"
    assert [s.state for s in missing.artifacts] == ["not_hashed"] and missing.matching == 0
    _, different = _measured({LOG: "0" * 64})
    detail = different.checks[0].requirements[0].detail
    assert isinstance(detail, Checksums)
    assert [(s.state, s.computed_sha256) for s in detail.statuses] == [("mismatch", "0" * 64)]


def test_score_meaning_is_never_met_even_when_the_strings_agree() -> None:
    _, found = _measured({LOG: _log_hash()})
    meaning = next(r for r in found.checks[0].requirements if r.key == "score_meaning")
    assert meaning.state == "unmet"
    assert isinstance(meaning.detail, ScoreMeaning) and meaning.detail.compared
    assert [c.state for c in found.checks] == ["unmet"] * 4


def test_pin_gap_reads_the_commit_and_the_logs() -> None:
    evaluation, _ = _measured({})
    env = evaluation.environment
    assert env is not None
    for commit, gap in (
        ("ab" * 20, ""),
        ("ab" * 20 + "+dirty", "dirty"),
        ("ab" * 20 + " (commit of the checkout, read afterwards)", "qualified"),
        ("unknown (no git repository)", "not_full"),
    ):
        assert pin_gap(env.model_copy(update={"git_commit": commit}), None) == gap, commit
    pinned = env.model_copy(update={"git_commit": "ab" * 20})

    def logged(*commits: str) -> LoggedRun:
        return LoggedRun(len(commits), tuple(sorted(set(commits))), None, None, ())

    assert pin_gap(pinned, logged("ab" * 20)) == ""
    assert pin_gap(pinned, logged("ab" * 20 + "+dirty")) == "dirty"
    assert pin_gap(pinned, logged("cd" * 20)) == "other_commit"
    assert pin_gap(pinned, logged("ab" * 20, "cd" * 20)) == "several_commits"


def test_a_measurement_is_pinned_only_by_a_full_clean_commit() -> None:
    catalogue = load_scenario("reproduction")
    measured = catalogue.get("eval-nt-rewire", Evaluation)
    assert measured.environment is not None
    for commit, state in (("ab" * 20, "met"), ("ab" * 20 + "+dirty", "unmet")):
        env = measured.environment.model_copy(update={"git_commit": commit})
        found = readiness(measured.model_copy(update={"environment": env}), catalogue, {})
        recipe = _requirements(found)["recipe"]
        assert recipe.state == state
        assert isinstance(recipe.detail, Pinning) and recipe.detail.kind == "measured"


def test_an_incomplete_run_has_no_value_to_replay() -> None:
    catalogue = load_scenario("incomplete_run")
    found = readiness(catalogue.get("eval-nt-rewire-short", Evaluation), catalogue, {})
    values = next(r for r in found.checks[0].requirements if r.key == "values")
    assert values.state == "unmet" and isinstance(values.detail, Values)
    assert MissingValue(values.detail.missing[0].column, "incomplete") in values.detail.missing
    claims_only = load_scenario("seed_memory").get("eval-nt-checkpointing", Evaluation)
    found = readiness(
        claims_only.model_copy(update={"results": []}), load_scenario("seed_memory"), {}
    )
    values = next(r for r in found.checks[0].requirements if r.key == "values")
    assert values.state == "unmet" and values.detail == Values(0, ())


def test_a_protocol_recipe_does_not_pin_a_published_result() -> None:
    catalogue = load_scenario("ia3_conflict")
    found = readiness(catalogue.get("eval-nt-500m-ia3-runtime", Evaluation), catalogue, {})
    run = {r.key: r for r in found.checks[2].requirements}
    assert run["recipe"].state == "unmet"
    assert isinstance(run["recipe"].detail, Pinning)
    assert run["recipe"].detail.kind == "protocol_recipe"
    # A hand-written recipe estimate does not make compute requirements known.
    assert run["compute"].state == "unmet"
    assert isinstance(run["compute"].detail, Compute)
    assert run["compute"].detail.estimated_minutes is not None


def test_a_requirement_key_names_one_requirement_of_a_readiness() -> None:
    """Checks share requirements (the replay ones); a key names one requirement, so its
    words are made once (`render.readiness_text.readiness_view`)."""
    for scenario in ("reproduction", "incomplete_run", "seed_memory"):
        catalogue = load_scenario(scenario)
        for evaluation in catalogue.of_kind(Evaluation):
            found = readiness(evaluation, catalogue, {})
            by_key: dict[str, object] = {}
            for check in found.checks:
                for requirement in check.requirements:
                    assert by_key.setdefault(requirement.key, requirement) == requirement
            assert len(by_key) < sum(len(c.requirements) for c in found.checks)
