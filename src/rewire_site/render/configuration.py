"""The page of a configuration (a tested setup of a model): its facts and the results
of every evaluation of it."""

from __future__ import annotations

from ..link import Catalogue
from ..models import Configuration
from .contexts import ConfigurationPage, Fact, SiteFacts
from .leads import results_answer
from .parts import common_fields, evaluations_referring, link_to, results_of, value_fact


def configuration_page(
    configuration: Configuration,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> ConfigurationPage:
    evaluations = evaluations_referring(catalogue, configuration.id)
    c = configuration
    hardware = c.hardware.description if c.hardware is not None else None
    page_facts = (
        Fact("reported name", c.reported_name),
        Fact("method types", "; ".join(c.method_types)),
        Fact("parameters", c.parameters or "Not stated", missing=c.parameters is None),
        value_fact(c, "checkpoint", c.checkpoint),
        value_fact(c, "version", c.version),
        value_fact(c, "hardware", hardware),
        Fact("fine tuning", c.fine_tuning, markdown=True)
        if c.fine_tuning is not None
        else value_fact(c, "fine_tuning", None),
        value_fact(c, "training_setting", c.training_setting),
        *(Fact(f"setting: {k.replace('_', ' ')}", v) for k, v in sorted(c.settings.items())),
        *((Fact("provenance note", c.provenance_note),) if c.provenance_note else ()),
    )
    results = results_of(
        "result-rows",
        "Evaluations of this configuration and their original reported results",
        evaluations,
        catalogue,
        facts,
    )
    return ConfigurationPage(
        **common_fields(c, catalogue, facts, "configuration.html"),
        answer=results_answer(c.title, results),
        results=results,
        family=link_to(catalogue, c.family),
        facts=page_facts,
    )
