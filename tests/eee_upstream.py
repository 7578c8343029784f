"""The Every Eval Ever project's own validator for an aggregate document, at the pinned
commit (`rewire_site.render.export.eee.SCHEMA_COMMIT`), for the export tests.

What `every_eval_ever/validator/validation_core.py::validate_aggregate` runs on one file
(`run_semantic_checks=True`), less the datastore path and companion-file checks (they
check where a file sits in the EEE repository, `data/<benchmark>/<developer>/<model>/
<uuid4>.json`; an export line has no such path):

1. strict JSON (`validator/json_utils.py::strict_json_loads`): no NaN or Infinity
   literals, no duplicate keys;
2. the Pydantic model `every_eval_ever/eval_types.py::EvaluationLog`, used unchanged: a
   byte-for-byte copy of that file at the pinned commit is committed beside the schema
   (`schemas/external/every_eval_ever/`, MIT, hash in SHA256); among its rules, a score
   of type continuous needs min_score and max_score, which may be the strings
   "Infinity"/"-Infinity";
3. the registered semantic checks of severity "error": `check_score_metadata` (bounds
   present for a continuous score, a finite score within them, min <= max, finite
   uncertainty) and `check_model_deployment` (deployment_type and model_availability
   present and known), ported below line for line from the same commit (MIT,
   Copyright (c) 2026 EvalEval).
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from typing import Any

from pydantic import ValidationError

UPSTREAM = Path(__file__).resolve().parents[1] / "schemas" / "external" / "every_eval_ever"
_DEPLOYMENT_TYPES = ("self_deployed", "externally_managed", "unknown")
_MODEL_AVAILABILITY_TYPES = ("open_weights", "closed_weights", "unknown")


def _eval_types() -> Any:
    name = "every_eval_ever_eval_types_pinned"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, UPSTREAM / "eval_types.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class StrictJSONError(ValueError):
    pass


def _reject_constant(value: str) -> None:
    raise StrictJSONError(f"non-finite JSON number {value!r} is not allowed")


def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise StrictJSONError(f"duplicate JSON object key {key!r}")
        result[key] = value
    return result


def _parse_finite_float(value: str) -> float:
    number = float(value)
    if not math.isfinite(number):
        raise StrictJSONError(f"non-finite JSON number {value!r} is not allowed")
    return number


def strict_json_loads(content: str | bytes) -> Any:
    return json.loads(
        content,
        parse_constant=_reject_constant,
        parse_float=_parse_finite_float,
        object_pairs_hook=_reject_duplicate_keys,
    )


def _is_finite_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _metric_bound(value: Any) -> float | None:
    if value == "Infinity":
        return math.inf
    if value == "-Infinity":
        return -math.inf
    if isinstance(value, int | float) and not isinstance(value, bool) and not math.isnan(value):
        return float(value)
    return None


def check_score_metadata(data: dict[str, Any]) -> list[str]:
    warnings: list[str] = []
    results = data.get("evaluation_results")
    if not isinstance(results, list):
        return warnings
    for index, result in enumerate(results):
        if not isinstance(result, dict):
            continue
        metric = result.get("metric_config")
        if not isinstance(metric, dict):
            continue
        score_type = metric.get("score_type")
        if score_type is not None and (not isinstance(score_type, str) or not score_type.strip()):
            warnings.append(f"evaluation_results[{index}].metric_config: invalid 'score_type'")
        raw_lo = metric.get("min_score")
        raw_hi = metric.get("max_score")
        lo = _metric_bound(raw_lo)
        hi = _metric_bound(raw_hi)
        requires_bounds = score_type == "continuous"
        for key, raw_value, value in (("min_score", raw_lo, lo), ("max_score", raw_hi, hi)):
            if value is None and (requires_bounds or raw_value is not None):
                warnings.append(
                    f"evaluation_results[{index}].metric_config: missing or invalid '{key}'"
                )
        score_details = result.get("score_details")
        if not isinstance(score_details, dict):
            continue
        score = score_details.get("score")
        if not _is_finite_number(score):
            warnings.append(
                f"evaluation_results[{index}].score_details.score: expected a finite "
                f"number, got {score!r}"
            )
            continue
        uncertainty = score_details.get("uncertainty")
        if isinstance(uncertainty, dict):
            fields = {"standard_deviation": uncertainty.get("standard_deviation")}
            standard_error = uncertainty.get("standard_error")
            if isinstance(standard_error, dict):
                fields["standard_error.value"] = standard_error.get("value")
            interval = uncertainty.get("confidence_interval")
            if isinstance(interval, dict):
                for name in ("lower", "upper", "confidence_level"):
                    if name in interval:
                        fields[f"confidence_interval.{name}"] = interval.get(name)
            for field_name, value in fields.items():
                if value is not None and not _is_finite_number(value):
                    warnings.append(
                        f"evaluation_results[{index}].score_details.uncertainty."
                        f"{field_name}: expected a finite number, got {value!r}"
                    )
        if lo is not None and hi is not None and lo > hi:
            warnings.append(
                f"evaluation_results[{index}].metric_config: min_score {raw_lo} is greater "
                f"than max_score {raw_hi}"
            )
            continue
        if lo is not None and hi is not None and (score < lo or score > hi):
            warnings.append(
                f"evaluation_results[{index}]: score {score} is outside "
                f"[min_score={raw_lo}, max_score={raw_hi}]"
            )
    return warnings


def check_model_deployment(data: dict[str, Any]) -> list[str]:
    warnings: list[str] = []

    def check_one(model_info: Any, location: str) -> None:
        if not isinstance(model_info, dict):
            return
        details = model_info.get("additional_details")
        if not isinstance(details, dict):
            details = {}
        deployment_type = details.get("deployment_type")
        if deployment_type is None:
            warnings.append(f"{location}.additional_details: missing 'deployment_type'")
        elif deployment_type not in _DEPLOYMENT_TYPES:
            warnings.append(f"{location}.additional_details.deployment_type: {deployment_type!r}")
        availability = details.get("model_availability")
        if availability is None:
            warnings.append(f"{location}.additional_details: missing 'model_availability'")
        elif availability not in _MODEL_AVAILABILITY_TYPES:
            warnings.append(f"{location}.additional_details.model_availability: {availability!r}")

    check_one(data.get("model_info"), "model_info")
    results = data.get("evaluation_results")
    if isinstance(results, list):
        for r_index, result in enumerate(results):
            if not isinstance(result, dict):
                continue
            metric = result.get("metric_config")
            scoring = metric.get("llm_scoring") if isinstance(metric, dict) else None
            judges = scoring.get("judges") if isinstance(scoring, dict) else None
            if not isinstance(judges, list):
                continue
            for j_index, judge in enumerate(judges):
                if isinstance(judge, dict):
                    check_one(
                        judge.get("model_info"),
                        f"evaluation_results[{r_index}].metric_config.llm_scoring.judges"
                        f"[{j_index}].model_info",
                    )
    return warnings


def upstream_errors(line: str | bytes) -> list[str]:
    """Every error the pinned EEE validator reports for one aggregate document (one line
    of the export); empty when it passes."""
    try:
        data = strict_json_loads(line)
    except (json.JSONDecodeError, StrictJSONError) as exc:
        return [f"json: {exc}"]
    errors: list[str] = []
    try:
        _eval_types().EvaluationLog.model_validate(data)
    except ValidationError as exc:
        errors += [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
    if isinstance(data, dict):
        errors += check_score_metadata(data) + check_model_deployment(data)
    return errors
