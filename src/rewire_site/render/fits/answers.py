"""The answer tables of "Does it fit on my GPU?": for each GPU memory size and method, each
measured model's longest input (in base pairs where its cited tokeniser gives a fixed
ratio, and in tokens) and largest batch. Pure functions of the memory curves
(derive.fits); the page shows them before the method."""

from __future__ import annotations

from collections.abc import Sequence

from ...derive.fits import (
    GPU_SIZES_GB,
    MIXED_PRECISION,
    Answer,
    BasePairs,
    Curves,
    Skipped,
    family_base_pairs,
    largest_batch,
    longest_length,
)
from ...link import Catalogue
from ...models import ModelFamily, Protocol
from ..page import Link
from ..urls import page_of, record_path
from .contexts import AnswerRow, AnswerTable, FitCell, SizeAnswers

NOT_STATED = "tokens only; base pairs not stated"
"""What a length reads in place of base pairs when the model's cited tokeniser gives no
fixed number of base pairs per token (BPE)."""


def evaluation_href(evaluation_id: str | None) -> str:
    return record_path("evaluation", evaluation_id) if evaluation_id else ""


def answer_text(answer: Answer) -> str:
    """An answer as the fits page reads it: '128 tokens (256 tokens did not fit)',
    'batch 8, the largest measured', 'not determined at the shortest measured length (64
    tokens)'."""
    stop = answer.stop
    if answer.measure == "length":
        if answer.state == "not_measured":
            return "not measured"
        if answer.state == "fits_all":
            return f"fits at every measured length (up to {answer.value:,} tokens)"
        if answer.state == "undetermined":
            return f"not determined at the shortest measured length ({stop:,} tokens)"
        if answer.state == "fits_none":
            return f"does not fit at the shortest measured length ({stop:,} tokens)"
        after = (
            f"at {stop:,} tokens: not determined"
            if answer.stop_undetermined
            else f"{stop:,} tokens did not fit"
        )
        return f"{answer.value:,} tokens ({after})"
    if answer.state == "not_measured":
        return f"not measured at {answer.tokens:,} tokens"
    if answer.state == "fits_all":
        return f"batch {answer.value}, the largest measured"
    if answer.state == "undetermined":
        return f"not determined at batch {stop}"
    if answer.state == "fits_none":
        return f"batch {stop} does not fit"
    after = (
        f"at batch {stop}: not determined"
        if answer.stop_undetermined
        else f"batch {stop} did not fit"
    )
    return f"batch {answer.value} ({after})"


def cell(answer: Answer) -> FitCell:
    return FitCell(answer_text(answer), evaluation_href(answer.evaluation_id), answer.state)


def method_label(protocols: Sequence[Protocol], method: str) -> tuple[str, str]:
    """(label, description) of a method from the protocols' columns '<method>-batch-<b>'
    labelled '<Method>, batch <b>'."""
    for protocol in protocols:
        for column in protocol.columns:
            if column.id.startswith(f"{method}-batch-"):
                label = column.label.split(", batch ")[0]
                return label, column.description or ""
    return method, ""


def answer_methods(methods: Sequence[str]) -> tuple[str, ...]:
    """Methods in the order the answers read them: once the common mixed-precision recipe
    of full fine-tuning has points, its methods come before the bf16-only `full`."""
    present = [m for m in MIXED_PRECISION if m in methods]
    if not present or "full" not in methods:
        return tuple(methods)
    ordered = [m for m in methods if m != "full"]
    ordered.insert(max(ordered.index(m) for m in present) + 1, "full")
    return tuple(ordered)


def bases_text(answer: Answer, conversion: BasePairs) -> str:
    """The longest input of a length answer in base pairs ('5,994 bp'), NOT_STATED
    without a fixed ratio, '' when the answer claims no length."""
    if answer.value is None or answer.state not in ("fits_all", "fits_up_to"):
        return ""
    bases = conversion.base_pairs(answer.value)
    return NOT_STATED if bases is None else f"{bases:,} bp"


def skipped_text(skipped: Skipped) -> str:
    """Why an evaluation under a curve protocol is no curve point, as the page lists it."""
    value = skipped.value
    if skipped.reason == "results":
        return f"{value} results (a curve point has one)"
    if skipped.reason == "column":
        return f"column {value!r} is not '<method>-batch-<batch>'"
    if skipped.reason == "tokens":
        return "no setting tokens_per_sequence"
    if skipped.reason == "configuration":
        return f"configuration {value!r} not found"
    return f"unit {value!r} (the curves are in gigabyte)"


def tokeniser_text(conversion: BasePairs) -> str:
    """'6-mer'; '3-mer / 6-mer' where the checkpoints' facts disagree."""
    return " / ".join(conversion.tokenisers)


def conversion_text(family: ModelFamily, conversion: BasePairs) -> str:
    """How one family's tokens read as base pairs, from its cited tokeniser fact."""
    if conversion.per_token is not None:
        return (
            f"{family.title}: {tokeniser_text(conversion)} tokeniser as its sources state it, "
            f"{conversion.per_token} bp per token after the first (CLS) token."
        )
    if conversion.tokenisers:
        return (
            f"{family.title}: {tokeniser_text(conversion)} tokeniser as its sources state it, "
            "a varying number of bases per token; no cited ratio, so lengths are in tokens "
            "only."
        )
    return f"{family.title}: no tokeniser is stated in the records; lengths are in tokens only."


def size_answers(
    found: Curves,
    methods: Sequence[str],
    models: Sequence[tuple[str, str]],
    catalogue: Catalogue,
    typical_tokens: int,
) -> tuple[SizeAnswers, ...]:
    """One group of answer tables per GPU size, one table per method (in `methods`
    order), one row per model."""
    conversions: dict[str, BasePairs] = {}
    for family_id, _model in models:
        family = catalogue.by_id[family_id]
        assert isinstance(family, ModelFamily)
        conversions.setdefault(family_id, family_base_pairs(family))
    groups = []
    for size in GPU_SIZES_GB:
        tables = []
        for method in methods:
            batches = sorted({p.batch for p in found.points if p.method == method}) or [1]
            rows = []
            for family_id, model in models:
                family = catalogue.by_id[family_id]
                longest = longest_length(found.curve(model, method, batches[0]), size)
                at_length = found.at_length(model, method, typical_tokens)
                rows.append(
                    AnswerRow(
                        model=model,
                        family=Link(family.title, page_of(family)),
                        bases=bases_text(longest, conversions[family_id]),
                        length=cell(longest),
                        batch=cell(largest_batch(at_length, size, typical_tokens)),
                    )
                )
            tables.append(
                AnswerTable(
                    method=method,
                    label=method_label(found.protocols, method)[0],
                    batch=batches[0],
                    typical=f"{typical_tokens:,} tokens",
                    rows=tuple(rows),
                )
            )
        groups.append(SizeAnswers(size, f"{size} GB", f"gpu-{size}", tuple(tables)))
    return tuple(groups)


def recipe_note(found: Curves, methods: Sequence[str], untested: str) -> str:
    """Which full fine-tuning recipe the answers read first: the common mixed-precision
    recipe once it has points (and that the bf16-only answers follow), else `untested`
    (that it is not measured)."""
    present = [m for m in MIXED_PRECISION if m in methods]
    if not present:
        return untested
    labels = " and ".join(method_label(found.protocols, m)[0] for m in present)
    after = (
        " The answers of the bf16-only recipe (bf16 weights, gradients and AdamW states) "
        "follow them for each size."
        if "full" in methods
        else ""
    )
    return (
        f"Full fine-tuning reads the common mixed-precision recipe first ({labels}: fp32 "
        "master weights, gradients and AdamW states, forward pass under bf16 autocast)." + after
    )
