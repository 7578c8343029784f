"""Builders of "Does it fit on my GPU?" (`fits/index.html`) and of the memory-curve section
of each family page: pure functions of the catalogue (derive.fits reads the records)."""

from __future__ import annotations

from collections.abc import Sequence

from ...derive.embed_time import speed_points
from ...derive.fits import (
    BYTES_PER_PARAMETER,
    GPU_SIZES_GB,
    MIXED_PRECISION,
    Curves,
    Point,
    curves,
    family_base_pairs,
    largest_batch,
    longest_length,
    shared_process_bias,
    state_gb,
    unmeasured,
)
from ...link import Catalogue
from ...models import ModelFamily
from ..page import Link, page_header
from ..present.numbers import plural
from ..urls import page_of
from .answers import (
    answer_methods,
    cell,
    conversion_text,
    evaluation_href,
    method_label,
    recipe_note,
    size_answers,
    skipped_text,
)
from .chart import curve_chart
from .contexts import (
    CurveNotes,
    FamilyCurves,
    FitPair,
    FitRow,
    FitsPage,
    MethodCurves,
    NotMeasuredItem,
    PointCell,
    PointRow,
)
from .embed import embed_answers

FITS_PATH = "fits/index.html"
TITLE = "Does it fit on my GPU?"

TYPICAL_TOKENS = 512
"""The length of the largest-batch answers: 512 tokens, a length every model of the
memory-curve recipe accepts (NT's maximum is 1,000 tokens, GENA-LM's 512)."""


def _models(found: Curves, catalogue: Catalogue) -> tuple[tuple[str, str], ...]:
    """(family id, model) of every measured model: by family title, then as derive.fits
    orders them within a family (smallest first)."""
    order = found.models()
    return tuple(
        sorted(order, key=lambda m: (catalogue.by_id[m[0]].title.casefold(), order.index(m)))
    )


def _gb(value: float) -> str:
    return f"{value:.2f}"


def method_curves(
    found: Curves,
    method: str,
    models: Sequence[tuple[str, str]],
    catalogue: Catalogue,
    typical_tokens: int = TYPICAL_TOKENS,
) -> MethodCurves:
    """Fit table, chart and table of points of one method, for `models` ((family id,
    model) pairs, in row order)."""
    points = [p for p in found.points if p.method == method]
    label, description = method_label(found.protocols, method)
    batches = sorted({p.batch for p in points}) or [1]
    small = batches[0]
    large = batches[-1] if len(batches) > 1 else None
    rows = []
    for family_id, model in models:
        family = catalogue.by_id[family_id]
        curve = found.curve(model, method, small)
        long_curve = found.curve(model, method, large) if large is not None else ()
        at_length = found.at_length(model, method, typical_tokens)
        cells = []
        for size in GPU_SIZES_GB:
            longest = cell(longest_length(curve, size))
            wide = cell(longest_length(long_curve, size)) if large is not None else None
            largest = cell(largest_batch(at_length, size, typical_tokens))
            cells.append(FitPair(longest, wide, largest, label=f"{size} GB"))
        rows.append(FitRow(model, Link(family.title, page_of(family)), merge_sizes(cells)))
    lengths = sorted({p.tokens for p in points})
    point_rows = []
    for _family_id, model in models:
        for batch in batches:
            by_length = {p.tokens: p for p in found.curve(model, method, batch)}
            if by_length:
                point_rows.append(
                    PointRow(
                        f"{model}, batch {batch}",
                        tuple(_point_cell(by_length.get(t)) for t in lengths),
                    )
                )
    chart_points = [p for p in points if (p.family_id, p.model) in set(models)]
    return MethodCurves(
        method=method,
        label=label,
        description=description,
        recipe=recipe_text(found, method),
        untested=untested_text(found, method, models),
        anchor=f"fits-{method}",
        sizes=tuple(f"{s} GB" for s in GPU_SIZES_GB),
        small_batch=small,
        large_batch=large,
        typical=f"{typical_tokens:,} tokens",
        rows=tuple(rows),
        chart=curve_chart(chart_points, f"{label}: peak reserved memory against input length"),
        lengths=tuple(f"{t:,} tokens" for t in lengths),
        points=tuple(point_rows),
    )


def recipe_text(found: Curves, method: str) -> str:
    """The recipe every answer of one method's table reads: its points' records' own
    statement of what ran (comparison.adaptation)."""
    recipes = found.recipes(method)
    if not recipes:
        return "The records of these points do not state what recipe ran."
    if len(recipes) == 1:
        return f"Every answer in this table reads points measured under one recipe: {recipes[0]}."
    return (
        "The points of this table were measured under different recipes: "
        + "; ".join(recipes)
        + "."
    )


def _gb1(value: float) -> str:
    return f"{value:.1f} GB"


def untested_text(
    found: Curves,
    method: str,
    models: Sequence[tuple[str, str]],
    answers: str = "the recipe of this table",
) -> str:
    """For a full fine-tuning method other than the common mixed-precision recipe, while
    no point of that recipe is recorded: that it is not measured, and what its weights,
    gradients and AdamW states alone take for each model (derive.fits.state_gb); '' for
    another method or once the recipe has points."""
    if method not in BYTES_PER_PARAMETER or method in MIXED_PRECISION:
        return ""
    if any(m in found.methods() for m in MIXED_PRECISION):
        return ""
    mixed, own = sum(BYTES_PER_PARAMETER[MIXED_PRECISION[0]]), sum(BYTES_PER_PARAMETER[method])
    sizes: dict[str, int | None] = {}
    for point in found.points:
        for m in point.measurements:
            if m.parameters is not None or m.model not in sizes:
                sizes[m.model] = m.parameters
    parts = []
    for _family, model in models:
        gb = state_gb(MIXED_PRECISION[0], sizes.get(model))
        if gb is None:
            continue
        over = [s for s in GPU_SIZES_GB if s < gb]
        beyond = f", more than a {over[-1]} GB card holds" if over else ""
        parts.append(f"{model} {_gb1(gb)}{beyond}")
    each = (
        f" For the models here that is, before any activation: {'; '.join(parts)}." if parts else ""
    )
    return (
        "Not measured yet: the common mixed-precision recipe (fp32 master weights, "
        "gradients and AdamW states, forward pass under bf16 autocast). Its weights, "
        f"gradients and AdamW states take {mixed} bytes per parameter, against {own} under "
        f"{answers}, so these answers do not hold for it.{each}"
    )


def shared_process_text(found: Curves) -> str:
    """What the fresh-process checks say about the shared-process reserved peaks the
    answers compare, in the direction the records' values show (derive.fits.
    shared_process_bias)."""
    checks = found.checks()
    bias = shared_process_bias(checks)
    lead = (
        "Where the points of one model and method share a process (the measurement below "
        "says whether they do), a point's reserved peak can differ from the peak of the same "
        "point in a process of its own."
    )
    if bias == "unchecked":
        return (
            lead + " No point was re-run in a fresh process: which way it differs is not checked."
        )
    listed = "; ".join(
        f"{m.model}, {method_label(found.protocols, m.method)[0].lower()}, batch {m.batch}, "
        f"{m.tokens:,} tokens: {_gb(m.fresh_reserved_gb or 0.0)} GB fresh against "
        f"{_gb(m.reserved_gb or 0.0)} GB shared"
        for m in checks
    )
    gap = max(abs((m.fresh_reserved_gb or 0.0) - (m.reserved_gb or 0.0)) for m in checks)
    checked = f"Re-run alone in a fresh process, {plural(len(checks), 'point')} reserved"
    if bias == "fresh_higher":
        return (
            f"{lead} {checked} more there ({listed}): near a size the answers err towards "
            f"'fits', and a point within {_gb(gap)} GB of a size may not fit it in a process "
            "of its own."
        )
    if bias == "fresh_lower":
        return (
            f"{lead} {checked} less there ({listed}): near a size the answers err towards "
            "'does not fit'."
        )
    if bias == "same":
        return f"{lead} {checked} the same there ({listed})."
    return (
        f"{lead} {checked} more in some cases and less in others ({listed}): near a size an "
        f"answer may be wrong either way by up to {_gb(gap)} GB."
    )


def merge_sizes(cells: Sequence[FitPair]) -> tuple[FitPair, ...]:
    """Neighbouring answers that are the same (texts, states and records) as one cell
    spanning their sizes."""
    merged: list[FitPair] = []
    for pair in cells:
        last = merged[-1] if merged else None
        same = (last.length, last.long_batch, last.batch) if last else None
        if last is not None and same == (pair.length, pair.long_batch, pair.batch):
            first = last.label.split(" to ")[0]
            merged[-1] = FitPair(
                last.length,
                last.long_batch,
                last.batch,
                last.span + pair.span,
                f"{first} to {pair.label}" if first and pair.label else "",
            )
        else:
            merged.append(pair)
    return tuple(merged)


def _point_cell(point: Point | None) -> PointCell:
    if point is None:
        return PointCell("", "", "")
    href = evaluation_href(point.evaluation_id)
    count = len(point.measurements)
    note = f"measured {count} times, largest shown" if count > 1 else ""
    if point.out_of_memory:
        return PointCell("out of memory", href, note)
    if point.reserved_gb is None:
        allocated = f" (allocated {_gb(point.allocated_gb)})" if point.allocated_gb else ""
        return PointCell(f"no reserved peak recorded{allocated}", href, note)
    allocated = f" ({_gb(point.allocated_gb)})" if point.allocated_gb is not None else ""
    return PointCell(f"{_gb(point.reserved_gb)}{allocated}", href, note)


def curve_notes(found: Curves, typical_tokens: int = TYPICAL_TOKENS) -> CurveNotes:
    """What every answer rests on, from the records."""
    measurements = [m for p in found.points for m in p.measurements]
    how = sorted({m.reserved_note for m in measurements if m.reserved_note})
    read = f" (as the records say: {'; '.join(how)})" if how else ""
    figure = (
        "Each answer compares a point's peak reserved memory with the GPU's size: the "
        f"observation peak-reserved-memory of its record{read}, the memory PyTorch's caching "
        "allocator held. It is at least the allocated peak that the records give as their "
        "value (in brackets in the tables of points). Neither includes the CUDA context or "
        "other processes, which the GPU must also hold (the records say so in their "
        "limitations), so a point close to a size may still not run on a GPU of that size. "
        + shared_process_text(found)
    )
    gpus = sorted(
        {
            f"{m.gpu} ({m.gpu_memory_gb:.1f} GB as its environment records it)"
            if m.gpu_memory_gb is not None
            else m.gpu or "an unrecorded GPU"
            for m in measurements
        }
    )
    independence = []
    for protocol in found.protocols:
        dependence = protocol.hardware_dependence
        if dependence is not None and dependence.depends is False:
            independence.append(
                f"The protocol records that the metric does not depend on the GPU model: "
                f"{dependence.reason}"
            )
        else:
            independence.append(
                "The protocol does not record that the peak is the same on other GPUs."
            )
    measured_on = f" All points ran on {', '.join(gpus)}." if gpus else ""
    sizes = (
        "A GPU size is compared as its nominal size in GB of 10^9 bytes, the records' unit: "
        "a GPU sold as 80 GB counts as 80 × 10^9 bytes. No point was measured on a GPU of "
        f"these sizes.{measured_on} " + " ".join(dict.fromkeys(independence))
    ).strip()
    rules = (
        "Every answer is a measured point. The longest length is the longest measured "
        "length at which the point and every shorter measured point of the curve fit; the "
        f"largest batch is read the same way at {typical_tokens:,} tokens. Nothing is "
        "interpolated: a length between two measured ones may fit, but is not claimed. "
        "Nothing is extrapolated beyond the longest measured length. A point measured more "
        "than once fits only if every measurement fits; a point that ran out of memory "
        "fits no size up to the memory of the GPU it ran on."
    )
    lengths = (
        "Lengths are tokens of each model's own tokeniser, not nucleotides: the same number "
        "of tokens is a different length of DNA for models of different families."
    )
    models = found.models()
    oom = sum(1 for p in found.points if p.out_of_memory)
    methods = found.methods()
    counts = (
        f"{plural(len(found.points), 'measured point')} ({plural(len(measurements), 'record')}) "
        f"of {plural(len(models), 'model')} under {plural(len(methods), 'method')}"
        + (f"; {oom} out of memory" if oom else "")
        + "."
    )
    return CurveNotes(
        figure=figure,
        sizes=sizes,
        measurement=tuple(dict.fromkeys(p.measurement for p in found.protocols)),
        rules=rules,
        lengths=lengths,
        counts=counts,
        limitations=tuple(
            dict.fromkeys(text for protocol in found.protocols for text in protocol.limitations)
        ),
        skipped=tuple(f"{s.evaluation_id}: {skipped_text(s)}" for s in found.skipped),
    )


def fits_page(catalogue: Catalogue, release_id: str, found: Curves | None = None) -> FitsPage:
    """The "Does it fit on my GPU?" page."""
    found = found if found is not None else curves(catalogue)
    models = _models(found, catalogue)
    order = answer_methods(found.methods())
    methods = tuple(method_curves(found, m, models, catalogue) for m in order)
    protocols = tuple(Link(p.title, page_of(p)) for p in found.protocols)
    families = [catalogue.by_id[f] for f in dict.fromkeys(f for f, _m in models)]
    bases_note = " ".join(
        conversion_text(f, family_base_pairs(f)) for f in families if isinstance(f, ModelFamily)
    )
    if not found.protocols:
        empty = "No memory-curve protocol is recorded in this release."
    elif not found.points:
        empty = "No memory-curve point is recorded yet: nothing can be said about any GPU."
    else:
        empty = ""
    return FitsPage(
        **page_header(
            "fits.html",
            FITS_PATH,
            TITLE,
            "For a GPU memory size and a method (inference, parameter-efficient or "
            "full fine-tuning): the longest input in base pairs and the largest batch that "
            "fit, read from measured memory curves.",
            release_id,
        ),
        protocols=protocols,
        notes=curve_notes(found),
        methods=methods,
        empty=empty,
        answers=size_answers(found, order, models, catalogue, TYPICAL_TOKENS),
        recipe_note=recipe_note(
            found,
            order,
            untested_text(found, "full", models, "the recipe of the full fine-tuning answers"),
        ),
        bases_note=bases_note,
        embed=embed_answers(speed_points(catalogue), catalogue),
        not_measured=not_measured_items(found, catalogue),
    )


def not_measured_items(found: Curves, catalogue: Catalogue) -> tuple[NotMeasuredItem, ...]:
    """The models the curve protocols record as not measured, each linked to its family's
    page (a family id the catalogue lacks is left out: validation reports it)."""
    out = []
    for item in unmeasured(found.protocols):
        family = catalogue.by_id.get(item.family_id)
        if isinstance(family, ModelFamily):
            out.append(NotMeasuredItem(Link(family.name, page_of(family)), item.model, item.reason))
    return tuple(out)


def family_curves(family: ModelFamily, found: Curves, catalogue: Catalogue) -> FamilyCurves:
    """The memory-curve section of one family's page."""
    own = found.for_family(family.id)
    models = _models(own, catalogue)
    methods = tuple(method_curves(own, m, models, catalogue) for m in own.methods())
    reasons = " ".join(f"{u.model}: {u.reason}" for u in unmeasured(found.protocols, family.id))
    if models:
        empty = ""
    elif reasons:
        empty = f"Not measured. {reasons}"
    else:
        empty = "Not measured: no memory-curve point of a model of this family is recorded."
    return FamilyCurves(
        fits_href=FITS_PATH,
        notes=curve_notes(own),
        methods=methods,
        empty=empty,
        embed=embed_answers(speed_points(catalogue), catalogue, family.id),
    )
