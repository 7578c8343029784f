"""Every evaluation as an Every Eval Ever document (evaleval/every_eval_ever).

One JSON document per Rewire evaluation record, one `evaluation_results` entry per result
that holds a value, validated against `eval.schema.json` version 0.3.0 as committed in
schemas/external/every_eval_ever/ (MIT, pinned commit in SCHEMA_COMMIT). What that schema
cannot hold is listed in README ("Export: Every Eval Ever").
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

from ...derive.scales import canonical_value
from ...link import Catalogue
from ...models import (
    Configuration,
    Dataset,
    Evaluation,
    ModelFamily,
    Protocol,
    Source,
)

SCHEMA_VERSION = "0.3.0"
SCHEMA_REPOSITORY = "https://github.com/evaleval/every_eval_ever"
SCHEMA_COMMIT = "9bce4136e789ec006c62582f5f9d107d20f8b398"
SCHEMA_PATH = "every_eval_ever/schemas/eval.schema.json"

_RELATIONSHIP = {
    "author_reported": "first_party",
    "independent_paper": "third_party",
    "community_reproduction": "third_party",
    "rewire_measurement": "third_party",
    "maintainer_statement": "other",
}
_HUB_ID = re.compile(r"^([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)")


def _epoch(value: datetime | date | str | None, fallback: date | None) -> str:
    """Unix epoch seconds as a string, as the schema asks for retrieved_timestamp."""
    moment: datetime | None = None
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            moment = None
    if moment is None:
        day = fallback or date(1970, 1, 1)
        moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return str(int(moment.timestamp()))


def _strings(data: dict[str, Any]) -> dict[str, str]:
    """additional_details: the schema allows string values only; drop empty ones."""
    return {k: str(v) for k, v in data.items() if v not in (None, "")}


def _model_id(configuration: Configuration, family: ModelFamily | None) -> str:
    checkpoint = configuration.checkpoint or ""
    match = _HUB_ID.match(checkpoint)
    if match and "/" in match.group(1):
        return match.group(1)
    name = family.id if family else configuration.family
    return f"rewire/{name}/{configuration.id}"


def _bounds(minimum: float | None, maximum: float | None) -> dict[str, float | str]:
    """min_score and max_score of a continuous score, which the schema requires: the
    metric's bounds as its record states them; a bound the record does not state is
    exported as unbounded, "-Infinity" or "Infinity" (the JSON form the EEE validator
    accepts), and named in `_unstated`."""
    return {
        "min_score": "-Infinity" if minimum is None else minimum,
        "max_score": "Infinity" if maximum is None else maximum,
    }


def _unstated(minimum: float | None, maximum: float | None) -> str | None:
    names = [n for n, v in (("min_score", minimum), ("max_score", maximum)) if v is None]
    return ", ".join(names) or None


def evaluation_id(record_id: str, model_id: str, retrieved: str) -> str:
    """The document's evaluation_id in the schema's form, eval_name/model_id/
    retrieved_timestamp, with the Rewire evaluation record's id as eval_name: unique per
    document because record ids are unique (a protocol id there was shared by every
    evaluation of one model under that protocol: one id for each of a benchmark's tasks)."""
    return f"{record_id}/{model_id}/{retrieved}"


def evaluation_document(evaluation: Evaluation, catalogue: Catalogue) -> dict[str, Any] | None:
    """The EEE document of one evaluation; None when no result holds a value (an
    out-of-memory or incomplete run has no score the schema could hold)."""
    configuration = catalogue.get(evaluation.configuration, Configuration)
    protocol = catalogue.get(evaluation.protocol, Protocol)
    dataset = catalogue.get(evaluation.dataset, Dataset)
    family_record = catalogue.by_id.get(configuration.family)
    family = family_record if isinstance(family_record, ModelFamily) else None
    first_source: Source | None = None
    for result in evaluation.results:
        if result.citation is not None:
            found = catalogue.by_id.get(result.citation.source)
            if isinstance(found, Source):
                first_source = found
                break
    columns = {c.id: c for c in protocol.columns}
    model_id = _model_id(configuration, family)
    retrieved = _epoch(
        first_source.retrieved_at if first_source else None,
        evaluation.added,
    )
    results: list[dict[str, Any]] = []
    for result in evaluation.results:
        if result.status != "value" or result.value is None:
            continue
        column = columns.get(result.column)
        metric = (column.metric if column and column.metric else None) or protocol.metric
        label = column.label if column else result.column
        access = dataset.access or ""
        if access.startswith("http"):
            source_data: dict[str, Any] = {
                "dataset_name": dataset.title,
                "source_type": "url",
                "url": [access.split(" ")[0]],
            }
        else:
            source_data = {"dataset_name": dataset.title, "source_type": "other"}
        source_data["additional_details"] = _strings({"rewire_dataset": dataset.id})
        canonical = canonical_value(metric, result)
        details = _strings(
            {
                "printed_value": result.printed_value,
                "unit": result.unit,
                "scale": result.scale.value if result.scale else None,
                "source": result.citation.source if result.citation else None,
                "locator": result.citation.locator if result.citation else None,
                "quote": result.citation.quote if result.citation else None,
            }
        )
        results.append(
            {
                "evaluation_result_id": f"{evaluation.id}/{result.column}",
                "evaluation_name": f"{protocol.title}: {label}",
                "source_data": source_data,
                "metric_config": {
                    "evaluation_description": protocol.summary,
                    "metric_id": metric.id,
                    "metric_name": metric.label,
                    "metric_unit": canonical.unit,
                    "lower_is_better": metric.direction == "lower",
                    "score_type": "continuous",
                    **_bounds(canonical.minimum, canonical.maximum),
                    "additional_details": _strings(
                        {
                            "rewire_protocol": protocol.id,
                            "rewire_column": result.column,
                            "bounds_not_in_records": _unstated(
                                canonical.minimum, canonical.maximum
                            ),
                        }
                    ),
                },
                "score_details": {"score": canonical.value, "details": details},
            }
        )
    if not results:
        return None
    origin = evaluation.origin.value
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "evaluation_id": evaluation_id(evaluation.id, model_id, retrieved),
        "retrieved_timestamp": retrieved,
        "source_metadata": {
            "source_name": first_source.short_citation if first_source else evaluation.title,
            "source_type": "evaluation_run" if origin == "rewire_measurement" else "documentation",
            "source_organization_name": (
                ", ".join(first_source.authors[:3])
                if first_source and first_source.authors
                else (first_source.venue if first_source else "Rewire")
            ),
            "evaluator_relationship": _RELATIONSHIP.get(origin, "other"),
            "additional_details": _strings(
                {
                    "rewire_evaluation": evaluation.id,
                    "rewire_origin": origin,
                    "source_record": first_source.id if first_source else None,
                    "source_url": first_source.url if first_source else None,
                    "source_revision": first_source.revision if first_source else None,
                    "source_sha256": first_source.sha256 if first_source else None,
                }
            ),
        },
        "model_info": {
            "name": configuration.reported_name,
            "id": model_id,
            "developer": ", ".join(family.developers) if family else configuration.family,
            "additional_details": {
                "deployment_type": "unknown",
                "model_availability": "unknown",
                **_strings(
                    {
                        "rewire_configuration": configuration.id,
                        "rewire_family": configuration.family,
                        "checkpoint": configuration.checkpoint,
                    }
                ),
            },
        },
        "eval_library": {
            "name": "rewire measure" if origin == "rewire_measurement" else "unknown",
            "version": "unknown",
        },
        "evaluation_results": results,
    }
    return document


def eee_line(evaluation: Evaluation, catalogue: Catalogue) -> str | None:
    """The evaluation's document as one JSON line; None when it has none."""
    document = evaluation_document(evaluation, catalogue)
    if document is None:
        return None
    return json.dumps(document, sort_keys=True, ensure_ascii=False) + "\n"


def eee_lines(catalogue: Catalogue) -> dict[str, str | None]:
    """Evaluation id -> its line (`eee_line`)."""
    return {e.id: eee_line(e, catalogue) for e in catalogue.of_kind(Evaluation)}


def eee_jsonl(catalogue: Catalogue, lines: Mapping[str, str | None] | None = None) -> bytes:
    """Every evaluation's document, one per line, grouped by protocol (protocol id, then
    evaluation id). A protocol's title and summary are in each of its lines: grouped,
    they lie in one stretch of the file, where gzip finds the repeats in its window.
    `lines`: `eee_lines`, when computed already (the derive stage does)."""
    found = eee_lines(catalogue) if lines is None else lines
    order = sorted((e.protocol, e.id) for e in catalogue.of_kind(Evaluation))
    return "".join(found[i] or "" for _, i in order).encode("utf-8")
