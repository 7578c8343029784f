"""derive/evaluation_facts.py: the derived facts of one evaluation's page, computed once
by the derive stage (the page's context builder derives nothing itself)."""

from __future__ import annotations

from scenarios import load_scenario

from rewire_site.derive.concerns import flags_by_evaluation
from rewire_site.derive.evaluation_facts import evaluation_facts, shows_reproductions
from rewire_site.derive.logs import logged_run
from rewire_site.derive.readiness import readiness
from rewire_site.derive.related import related
from rewire_site.derive.reproduction import (
    ReproductionGroup,
    evaluation_reproductions,
    protocol_reproduction_groups,
)
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation


def _groups(catalogue: Catalogue) -> dict[str, tuple[ReproductionGroup, ...]]:
    return {p.id: tuple(protocol_reproduction_groups(p, catalogue)) for p in catalogue.protocols()}


def test_the_facts_are_what_each_derive_function_gives() -> None:
    catalogue = load_scenario("reproduction")
    flags = flags_by_evaluation(catalogue)
    groups = _groups(catalogue)
    for evaluation in catalogue.of_kind(Evaluation):
        found = evaluation_facts(evaluation, catalogue, flags, {}, {}, groups)
        assert found.readiness == readiness(evaluation, catalogue, {}, {})
        assert found.logged == logged_run(evaluation, {}, {})
        assert found.related == related(evaluation, catalogue)
        assert found.reproductions == evaluation_reproductions(evaluation, catalogue, flags=flags)
        assert found.reproductions  # both the published value and its measurement show one


def test_a_page_without_reproductions_reads_no_group() -> None:
    catalogue = load_scenario("seed_memory")
    evaluation = catalogue.of_kind(Evaluation)[0]
    assert not shows_reproductions(evaluation, catalogue)
    flags = flags_by_evaluation(catalogue)
    found = evaluation_facts(evaluation, catalogue, flags, {}, {}, {})  # no protocol's groups
    assert found.reproductions == ()


def test_both_sides_of_a_reproduction_show_it() -> None:
    catalogue = load_scenario("reproduction")
    measured = next(e for e in catalogue.of_kind(Evaluation) if e.reproduces is not None)
    published = catalogue.get(measured.reproduces or "", Evaluation)
    assert shows_reproductions(measured, catalogue)
    assert shows_reproductions(published, catalogue)
