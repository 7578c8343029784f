""" "How long to embed N sequences?": the answer table of the fits page and of each family
page, presented from derive.embed_time's facts (measured throughput points)."""

from __future__ import annotations

from collections.abc import Sequence

from ...derive.embed_time import EmbedTime, SpeedPoint, embed_time, models
from ...link import Catalogue
from ..present.numbers import display_number
from ..urls import page_of
from .answers import evaluation_href
from .contexts import EmbedAnswers, EmbedCell, EmbedRow

SEQUENCES = 1_000_000
LENGTHS_BP = (300, 1_000, 5_000)
"""A promoter-sized input, 1 kb and 5 kb: the answers' columns."""


def duration_text(seconds: float) -> str:
    """Seconds as read, to two significant figures: '45 seconds', '8.3 minutes', '2.1 hours'."""
    if seconds < 90:
        value, unit = seconds, "second"
    elif seconds < 90 * 60:
        value, unit = seconds / 60, "minute"
    else:
        value, unit = seconds / 3600, "hour"
    text = display_number(float(f"{value:.2g}"))
    return f"{text} {unit}" if text == "1" else f"{text} {unit}s"


def _cell(answer: EmbedTime) -> EmbedCell:
    if answer.outcome == "time" and answer.point is not None and answer.seconds is not None:
        p = answer.point
        detail = (
            f"read at {p.tokens:,} tokens (this length needs about {answer.tokens_needed:,}), "
            f"batch {p.batch}: {display_number(p.sequences_per_second)} sequences per second"
        )
        href = evaluation_href(p.evaluation_id)
        return EmbedCell(f"about {duration_text(answer.seconds)}", href, detail, "time")
    if answer.outcome == "too-long":
        return EmbedCell(
            "not measured this long",
            "",
            f"needs about {answer.tokens_needed:,} tokens; the longest measured input is "
            f"{answer.longest_tokens:,} tokens",
            "too-long",
        )
    return EmbedCell(
        "tokens only", "", "the cited tokeniser gives no fixed base pairs per token", "no-ratio"
    )


def _ratio_text(points: Sequence[SpeedPoint], model: str) -> str:
    own = (p.nucleotides_per_token for p in points if p.model == model)
    ratio = next((r for r in own if r), None)
    if ratio is None:
        return "base pairs per token not stated"
    return f"{display_number(ratio)} base pairs per token"


def embed_answers(
    points: Sequence[SpeedPoint], catalogue: Catalogue, family_id: str | None = None
) -> EmbedAnswers | None:
    """The answer table for every measured model (or one family's), None with no point."""
    chosen = [p for p in points if family_id is None or p.family_id == family_id]
    if not chosen:
        return None
    rows = []
    for family, model in models(chosen):
        record = catalogue.by_id.get(family)
        fastest = max((p for p in chosen if p.model == model), key=lambda p: p.sequences_per_second)
        rows.append(
            EmbedRow(
                model=model,
                family_href=page_of(record) if record is not None else "",
                ratio=_ratio_text(chosen, model),
                cells=tuple(_cell(embed_time(chosen, model, SEQUENCES, bp)) for bp in LENGTHS_BP),
                fastest=f"{display_number(fastest.sequences_per_second)} sequences per second "
                f"(batch {fastest.batch}, {fastest.tokens:,} tokens)",
            )
        )
    gpus = sorted({p.gpu for p in chosen if p.gpu})
    return EmbedAnswers(
        sequences="1 million",
        lengths=tuple(f"{bp:,} bp" for bp in LENGTHS_BP),
        rows=tuple(rows),
        gpu=", ".join(gpus) or "the GPU its records name",
        protocol_href=page_of(catalogue.by_id[p_id])
        if (p_id := _protocol_id(chosen, catalogue))
        else "",
    )


def _protocol_id(points: Sequence[SpeedPoint], catalogue: Catalogue) -> str | None:
    evaluation = catalogue.by_id.get(points[0].evaluation_id)
    return getattr(evaluation, "protocol", None)
