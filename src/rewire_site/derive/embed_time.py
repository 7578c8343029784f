"""How long embedding N sequences of L base pairs takes, read from measured throughput curves.

The embedding-throughput protocol (recipe `embedding-throughput`) records, per model, batch
and input length in tokens, the sequences embedded per second. An answer converts base
pairs to tokens with the nucleotides per token the records state (tokens per second beside
nucleotides per second), adds two special tokens, and reads the measured point at the
shortest measured length at or above that: an upper estimate, never extrapolated beyond the
longest measured input. Pure facts; the fits page presents them."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..link import Catalogue
from ..models import Configuration
from .fits import recipe_protocols

THROUGHPUT_RECIPE = "embedding-throughput"
SPECIAL_TOKENS = 2
"""Tokens added to a converted length for the model's special tokens (CLS, SEP): an answer
reads a measured length at or above the sum, so it errs towards the slower point."""


@dataclass(frozen=True)
class SpeedPoint:
    """One measured throughput point."""

    evaluation_id: str
    family_id: str
    model: str
    batch: int
    tokens: int
    sequences_per_second: float
    nucleotides_per_token: float | None
    """Nucleotides per second over tokens per second, where the record states both."""
    gpu: str


@dataclass(frozen=True)
class EmbedTime:
    """The answer for one model, number of sequences and length."""

    model: str
    family_id: str
    sequences: int
    bases: int
    outcome: Literal["time", "no-ratio", "too-long", "not-measured"]
    tokens_needed: int | None = None
    point: SpeedPoint | None = None
    """The measured point the time is read from (outcome time)."""
    seconds: float | None = None
    longest_tokens: int | None = None
    """The longest measured input of the model (outcome too-long)."""


def speed_points(catalogue: Catalogue) -> tuple[SpeedPoint, ...]:
    """Every measured throughput point with a value, in catalogue order."""
    out = []
    for protocol in recipe_protocols(catalogue, THROUGHPUT_RECIPE):
        for evaluation in catalogue.evaluations_of(protocol.id):
            if evaluation.protocol != protocol.id or len(evaluation.results) != 1:
                continue
            result = evaluation.results[0]
            tokens = evaluation.settings.get("tokens_per_sequence", "")
            batch = evaluation.settings.get("batch_size", "")
            configuration = catalogue.by_id.get(evaluation.configuration)
            if (
                result.status != "value"
                or result.value is None
                or not tokens.isdigit()
                or not batch.isdigit()
                or not isinstance(configuration, Configuration)
            ):
                continue
            observed = {o.name: o.value for o in result.observations}
            per_token = None
            nps, tps = observed.get("nucleotides-per-second"), observed.get("tokens-per-second")
            if nps is not None and tps:
                per_token = round(nps / tps, 3)
            environment = evaluation.environment
            out.append(
                SpeedPoint(
                    evaluation_id=evaluation.id,
                    family_id=configuration.family,
                    model=configuration.reported_name,
                    batch=int(batch),
                    tokens=int(tokens),
                    sequences_per_second=result.value,
                    nucleotides_per_token=per_token,
                    gpu=environment.gpu if environment else "",
                )
            )
    return tuple(out)


def models(points: Iterable[SpeedPoint]) -> tuple[tuple[str, str], ...]:
    """(family id, model) pairs with points, in first-seen order."""
    return tuple(dict.fromkeys((p.family_id, p.model) for p in points))


def tokens_for(bases: int, nucleotides_per_token: float) -> int:
    """Tokens of a sequence of `bases` base pairs, special tokens included (rounded up)."""
    return math.ceil(bases / nucleotides_per_token) + SPECIAL_TOKENS


def embed_time(points: Sequence[SpeedPoint], model: str, sequences: int, bases: int) -> EmbedTime:
    """How long `model` takes to embed `sequences` sequences of `bases` base pairs: the
    fastest batch at the shortest measured length that holds them."""
    own = [p for p in points if p.model == model]
    family = own[0].family_id if own else ""
    if not own:
        return EmbedTime(model, family, sequences, bases, "not-measured")
    ratio = next((p.nucleotides_per_token for p in own if p.nucleotides_per_token), None)
    if ratio is None:
        return EmbedTime(model, family, sequences, bases, "no-ratio")
    needed = tokens_for(bases, ratio)
    longest = max(p.tokens for p in own)
    fitting = [p for p in own if p.tokens >= needed]
    if not fitting:
        return EmbedTime(
            model,
            family,
            sequences,
            bases,
            "too-long",
            tokens_needed=needed,
            longest_tokens=longest,
        )
    length = min(p.tokens for p in fitting)
    best = max(
        (p for p in fitting if p.tokens == length), key=lambda p: (p.sequences_per_second, p.batch)
    )
    return EmbedTime(
        model,
        family,
        sequences,
        bases,
        "time",
        tokens_needed=needed,
        point=best,
        seconds=sequences / best.sequences_per_second,
        longest_tokens=longest,
    )
