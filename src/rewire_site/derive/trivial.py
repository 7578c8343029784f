"""Degenerate and trivial results: a classifier's scores that are no better than a
trivial answer, found by rule from the values the records hold.

Three rules, each on a row of one classifier's results (one configuration under one
protocol, dataset, split and origin: the metrics a source prints side by side, whether
the records hold them as one evaluation or one evaluation per metric):

- answers negative: MCC and F1 both within `NEAR_ZERO` of 0 in the same row. A
  classifier that never answers positive scores exactly MCC 0 (scikit-learn's value for
  the undefined case) and F1 0, and its accuracy is then the share of negatives; the
  results that depend on its yes/no answers (every metric but those scoring a ranking,
  `THRESHOLD_FREE`) are no better than that trivial answer;
- majority class: accuracy at or below the majority class's share of the data, where the
  class balance is known (always answering the majority class scores exactly that). No
  dataset record states its class counts; the records show the balance where a row of
  the same test data never answers positive (`negative_share`);
- chance ranking: an AUC at or below 0.5 where higher is better (a random ranking
  scores 0.5).

`trivial_results` is pure: values come in on each metric's fraction scale, findings go
out as typed facts; `concerns` turns them into computed concerns, which take the results
they concern out of comparisons (no best mark, no win).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal

TrivialKind = Literal["answers_negative", "majority_class", "chance_ranking"]

NEAR_ZERO = 0.05
"""How close to 0 MCC and F1 must both be for 'answers negative'. An MCC under 0.05 is a
correlation of under 5% between answers and labels, and an F1 under 0.05 means the
answers find almost none of the positives (always answering positive scores an F1 of
2p/(1+p) for a positive share p: 0.29 at one positive in six), so together the answers
carry practically nothing beyond always answering negative. Exactly 0 for both is the
classifier that never answers positive."""

CHANCE_AUC = 0.5
"""The AUC of a random ranking."""

MCC, F1, ACCURACY, AUC = "mcc", "f1", "accuracy", "auc"

_ALIASES: dict[str, str] = {
    "mcc": MCC,
    "matthewscorrcoef": MCC,
    "matthewscorrelationcoefficient": MCC,
    "f1": F1,
    "f1score": F1,
    "accuracy": ACCURACY,
    "acc": ACCURACY,
    "auc": AUC,
    "auroc": AUC,
    "rocauc": AUC,
    "aucroc": AUC,
}

THRESHOLD_FREE = frozenset({AUC, "auprc", "prauc", "aucpr", "averageprecision"})
"""Metrics that score a ranking of predicted scores, not the yes/no answers: a
classifier that always answers negative may still rank well."""


@cache
def metric_kind(metric_id: str) -> str:
    """The metric id normalised ('F1-score' -> 'f1', 'AUROC' -> 'auc'); an id the rules do
    not know comes back lower-cased without punctuation."""
    key = re.sub(r"[^a-z0-9]", "", metric_id.lower())
    return _ALIASES.get(key, key)


@dataclass(frozen=True)
class Trivial:
    """One finding: results of a row no better than a trivial answer."""

    kind: TrivialKind
    metrics: frozenset[str]
    """Metric kinds (`metric_kind`) of the row's results it concerns."""
    evidence: tuple[tuple[str, float], ...]
    """(metric kind, value on its fraction scale) that show it, in a fixed order."""
    baseline: float | None
    """What the trivial answer scores: the majority share, 0.5 for an AUC; None for
    'answers negative' (its baseline is 0 for both)."""
    exact: bool
    """True: the evidence equals the trivial answer's scores exactly (answers negative:
    MCC 0 and F1 0)."""


def trivial_results(
    row: Mapping[str, float],
    *,
    majority_share: float | None = None,
    higher_is_better: frozenset[str] = frozenset({MCC, F1, ACCURACY, AUC}),
) -> tuple[Trivial, ...]:
    """Findings of the three rules on one row: `row` maps metric kinds (`metric_kind`) to
    values on the fraction scale (MCC on [-1, 1], the others on [0, 1]);
    `majority_share`: the majority class's share of the scored data where the class
    balance is known; `higher_is_better`: the metric kinds whose direction is higher (a
    rule reads a metric only in that direction). Empty when none applies."""
    found: list[Trivial] = []
    mcc, f1 = row.get(MCC), row.get(F1)
    if (
        mcc is not None
        and f1 is not None
        and {MCC, F1} <= higher_is_better
        and abs(mcc) < NEAR_ZERO
        and abs(f1) < NEAR_ZERO
    ):
        concerned = frozenset(k for k in row if k not in THRESHOLD_FREE)
        found.append(
            Trivial("answers_negative", concerned, ((MCC, mcc), (F1, f1)), None, mcc == f1 == 0)
        )
    accuracy = row.get(ACCURACY)
    if (
        accuracy is not None
        and not any(ACCURACY in f.metrics for f in found)  # one reason is enough
        and majority_share is not None
        and ACCURACY in higher_is_better
        and accuracy <= majority_share
    ):
        found.append(
            Trivial(
                "majority_class",
                frozenset({ACCURACY}),
                ((ACCURACY, accuracy),),
                majority_share,
                accuracy == majority_share,
            )
        )
    auc = row.get(AUC)
    if auc is not None and AUC in higher_is_better and auc <= CHANCE_AUC:
        found.append(
            Trivial(
                "chance_ranking",
                frozenset({AUC}),
                ((AUC, auc),),
                CHANCE_AUC,
                auc == CHANCE_AUC,
            )
        )
    return tuple(found)


def negative_share(row: Mapping[str, float]) -> float | None:
    """The share of negatives in the scored data, where the row shows it: F1 exactly 0
    means no true positive, and MCC exactly 0 then means no false positive either (its
    numerator is minus false positives times missed positives, and a binary benchmark's
    test data hold positives), so the classifier never answered positive and its
    accuracy is the share of negatives. None otherwise."""
    if row.get(MCC) == 0 and row.get(F1) == 0:
        return row.get(ACCURACY)
    return None


def majority_share(negative: float) -> float:
    """The majority class's share, given the share of negatives."""
    return max(negative, 1 - negative)
