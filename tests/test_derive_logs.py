"""Provenance read from the hashed raw logs (derive/logs.py, issue 23 item 6).

189 measurement pages said 'no uncommitted changes logged' while the hashed raw log they
link records another commit marked '+dirty'; a run time was given from the record alone
where its item logs span longer. These tests read the real logs under `artifacts/`.
"""

from __future__ import annotations

import json
from pathlib import Path

from rewire_site import release
from rewire_site.derive.logs import LogFacts, logged_run, parse_log
from rewire_site.derive.readiness import readiness
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol
from rewire_site.models.evaluation import Origin
from rewire_site.render.readiness_text import ReadinessView, readiness_view

ROOT = Path(__file__).resolve().parents[1]
E1 = "rewire-20261130-hyenadna-e1-eval-train-1m"
E1_LOG = (
    "artifacts/measurements/20261130-hyenadna-e1/train-1m--large-1m--finetune--1000000--ckpt.json"
)


def view(
    evaluation: Evaluation,
    catalogue: Catalogue,
    hashes: dict[str, str | None],
    logs: dict[str, LogFacts],
) -> ReadinessView:
    """The readiness section's words, which state what the logs record."""
    protocol = catalogue.get(evaluation.protocol, Protocol)
    return readiness_view(readiness(evaluation, catalogue, hashes, logs), protocol)


def _requirement(
    catalogue: Catalogue, evaluation: Evaluation, key: str, logs: bool = True
) -> tuple[str, str]:
    hashes = release.hash_artifacts(catalogue, ROOT)
    found = release.read_logs(catalogue, ROOT, hashes) if logs else {}
    ready = view(evaluation, catalogue, hashes, found)
    requirement = next(r for c in ready.checks for r in c.requirements if r.key == key)
    return requirement.state, requirement.reason


def test_parse_log_reads_commit_times_and_gpu() -> None:
    text = (ROOT / E1_LOG).read_text(encoding="utf-8")
    facts = parse_log(text)
    assert facts is not None
    assert facts.commit == json.loads(text)["environment"]["git_commit"]
    assert facts.commit.endswith("+dirty")
    assert facts.gpu == "NVIDIA H200" and facts.gpu_count == 1
    assert facts.started_at is not None and facts.ended_at is not None
    assert parse_log("not json") is None
    assert parse_log('{"environment": {}}') is None


def test_a_dirty_log_is_said_and_the_record_commit_beside_it(live_catalogue: Catalogue) -> None:
    evaluation = live_catalogue.get(E1, Evaluation)
    assert evaluation.environment is not None
    state, text = _requirement(live_catalogue, evaluation, "recipe")
    assert state == "unmet"
    assert "71b1cc44578be47754051f595e6519ab7a31e91e+dirty" in text
    assert f"the record states commit {evaluation.environment.git_commit}" in text
    assert "no uncommitted changes logged" not in text
    # Without the logs the page claims nothing about them.
    _, unread = _requirement(live_catalogue, evaluation, "recipe", logs=False)
    assert "no hashed JSON log of the run was read" in unread


def test_the_run_time_gives_the_logged_span_where_it_differs(live_catalogue: Catalogue) -> None:
    evaluation = live_catalogue.get(E1, Evaluation)
    _, text = _requirement(live_catalogue, evaluation, "compute")
    assert "for 4 seconds" in text  # the record's own start and end
    assert "Its 2 hashed logs span 10 seconds" in text


def test_no_page_says_no_uncommitted_changes_where_a_log_records_them(
    live_catalogue: Catalogue,
) -> None:
    """Over the live catalogue: 'no uncommitted changes logged' only where every hashed
    log of the run was read and none is marked +dirty."""
    catalogue = live_catalogue
    hashes = release.hash_artifacts(catalogue, ROOT)
    logs = release.read_logs(catalogue, ROOT, hashes)
    said = 0
    for evaluation in catalogue.of_kind(Evaluation):
        if evaluation.origin != Origin.rewire_measurement or evaluation.environment is None:
            continue
        ready = view(evaluation, catalogue, hashes, logs)
        text = next(r.reason for c in ready.checks for r in c.requirements if r.key == "recipe")
        logged = logged_run(evaluation, hashes, logs)
        if "no uncommitted changes logged" in text:
            said += 1
            assert logged is not None and not logged.dirty, evaluation.id
            assert logged.commits == (evaluation.environment.git_commit.strip(),)
        elif logged is not None and logged.dirty:
            assert "+dirty" in text, evaluation.id
    assert said > 0
