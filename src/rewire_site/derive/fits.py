""" "Does it fit on my GPU?": the longest input and the largest batch that fit a GPU memory
size, read from measured memory curves only.

A memory curve is the set of Rewire measurements under a protocol whose recipe is
`memory-curves` (measure/memory_curve): one evaluation per (model, method, batch, input
length), its single result in the column `<method>-batch-<batch>`, the length in the
setting `tokens_per_sequence`. The figure compared with a GPU's memory is each point's
peak reserved memory (the observation `peak-reserved-memory`, torch's
max_memory_reserved()): what the caching allocator held, at least the allocated peak the
records give as their value. Neither includes the CUDA context. Records state memory in
GB of 10^9 bytes; a GPU size is compared as its nominal size in the same unit.

The answers never go beyond a measured point: nothing is interpolated between measured
lengths, nothing is extrapolated past the longest one. Walking a curve from its shortest
length, the answer is the last length at which this point and every shorter measured point
fit; the walk stops at the first point that does not fit (or cannot be decided), so a
longer point that happens to fit after a failure is never claimed.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..link import Catalogue
from ..models import Configuration, Evaluation, ModelFamily, Protocol

CURVE_RECIPE = "memory-curves"
"""Recipe id of the protocols whose evaluations are memory-curve points."""

GPU_SIZES_GB: tuple[int, ...] = (16, 24, 40, 48, 80, 94, 141)
"""GPU memory sizes the answers are given for (nominal sizes, GB)."""

COMPARED = "peak-reserved-memory"
"""The observation compared with a GPU's memory."""

FRESH_RESERVED = "peak-reserved-fresh-process"
"""The observation of a point re-run alone in a fresh process: its reserved peak there."""

FRESH_ALLOCATED = "peak-allocated-fresh-process"
"""The same re-run's allocated peak."""

BYTES_PER_PARAMETER: dict[str, tuple[int, int, int]] = {
    "full": (2, 2, 4),
    "full-mixed": (4, 4, 8),
    "full-mixed-ckpt": (4, 4, 8),
}
"""Bytes per parameter of (weights, gradients, AdamW's two states) of each full
fine-tuning method of measure/memory_curve/recipe.yaml: `full` keeps all three in bf16
(2 bytes each; 8 in all); `full-mixed` and `full-mixed-ckpt`, the common mixed-precision
recipe, keep fp32 master weights, gradients and states (4 bytes each; 16 in all) and run
the forward pass under bf16 autocast. What a page says a method's points measured is
the records' own statement of it (`Curves.recipes`); these counts only size the
weights, gradients and states, which every step holds before any activation."""

MIXED_PRECISION = ("full-mixed", "full-mixed-ckpt")
"""Methods of the common mixed-precision recipe (without and with activation
checkpointing)."""

_COLUMN = re.compile(r"^(?P<method>[a-z0-9-]+)-batch-(?P<batch>[1-9][0-9]*)$")
_COUNT = re.compile(r"^\s*([0-9][0-9,]*)")

State = Literal["not_measured", "fits_all", "fits_up_to", "fits_none", "undetermined"]


@dataclass(frozen=True)
class Measurement:
    """One evaluation record: one measured point of one curve."""

    evaluation_id: str
    family_id: str
    model: str
    """The configuration's reported name, e.g. 'NT 2.5B'."""
    parameters: int | None
    """Parameter count read from the configuration ('2,547,800,000 (counted; ...)')."""
    method: str
    batch: int
    tokens: int
    status: str
    """'value', 'out_of_memory' or 'incomplete' (the result's status)."""
    allocated_gb: float | None
    """The result's value: the allocator peak (None without a value)."""
    reserved_gb: float | None
    """The observation peak-reserved-memory (None when the record has none)."""
    reserved_note: str
    """How the record says the reserved peak was read ('' without one)."""
    gpu: str
    gpu_memory_gb: float | None
    """Memory of the GPU the point ran on, as its environment records it."""
    adaptation: str = ""
    """What ran, as the record states it (comparison.adaptation): the recipe ('full
    fine-tuning with the masked-LM loss: bf16 weights, gradients and AdamW states, ...')."""
    fresh_reserved_gb: float | None = None
    """The reserved peak of the same point re-run alone in a fresh process (observation
    peak-reserved-fresh-process), where the record has that check."""
    fresh_allocated_gb: float | None = None
    """That re-run's allocated peak (observation peak-allocated-fresh-process)."""

    def fits(self, size_gb: float) -> bool | None:
        """Whether this measurement fits `size_gb`; None when the record cannot say (no
        reserved peak, an incomplete run, or out of memory on a GPU no larger than the
        size, which says nothing about a larger one)."""
        if self.status == "value":
            return None if self.reserved_gb is None else self.reserved_gb <= size_gb
        if self.status == "out_of_memory" and self.gpu_memory_gb is not None:
            return False if size_gb <= self.gpu_memory_gb else None
        return None


@dataclass(frozen=True)
class Point:
    """Every measurement of one (model, method, batch, length): a re-run adds records."""

    family_id: str
    model: str
    method: str
    batch: int
    tokens: int
    measurements: tuple[Measurement, ...]

    @property
    def reserved_gb(self) -> float | None:
        """The largest reserved peak among the measurements with a value."""
        found = [
            m.reserved_gb
            for m in self.measurements
            if m.status == "value" and m.reserved_gb is not None
        ]
        return max(found) if found else None

    @property
    def allocated_gb(self) -> float | None:
        """The largest allocated peak among the measurements with a value."""
        found = [m.allocated_gb for m in self.measurements if m.allocated_gb is not None]
        return max(found) if found else None

    @property
    def has_value(self) -> bool:
        return any(m.status == "value" for m in self.measurements)

    @property
    def out_of_memory(self) -> bool:
        return any(m.status == "out_of_memory" for m in self.measurements)

    @property
    def evaluation_id(self) -> str:
        """The record the point's figure comes from: an out-of-memory one if any, else the
        one with the largest reserved (or allocated) peak."""
        oom = [m for m in self.measurements if m.status == "out_of_memory"]
        if oom:
            return oom[0].evaluation_id
        return max(
            self.measurements,
            key=lambda m: (
                m.reserved_gb if m.reserved_gb is not None else -1.0,
                m.allocated_gb if m.allocated_gb is not None else -1.0,
                m.evaluation_id,
            ),
        ).evaluation_id

    def fits(self, size_gb: float) -> bool | None:
        """Fits only when every measurement of it fits; False when any does not; None
        otherwise."""
        verdicts = [m.fits(size_gb) for m in self.measurements]
        if False in verdicts:
            return False
        if None in verdicts:
            return None
        return True


SkipReason = Literal["results", "column", "tokens", "configuration", "unit"]
"""Why an evaluation is no curve point: not one result, a column not
'<method>-batch-<batch>', no tokens_per_sequence setting, its configuration not found,
a unit other than gigabyte."""


@dataclass(frozen=True)
class Skipped:
    """An evaluation under a curve protocol that is not a readable curve point."""

    evaluation_id: str
    reason: SkipReason
    value: str | None = None
    """The recorded value that makes it no point (the number of results, the column id,
    the configuration id, the unit); None for a missing setting."""


@dataclass(frozen=True)
class Curves:
    """Every point of the memory-curve protocols in a catalogue."""

    protocols: tuple[Protocol, ...]
    points: tuple[Point, ...]
    """Sorted by family, parameter count, model, method, batch, length."""
    skipped: tuple[Skipped, ...]

    def models(self) -> tuple[tuple[str, str], ...]:
        """(family id, model) of every model with a point, in display order."""
        return tuple(dict.fromkeys((p.family_id, p.model) for p in self.points))

    def methods(self) -> tuple[str, ...]:
        """Methods with a point, in the order of the protocols' columns."""
        order = [
            m.group("method")
            for protocol in self.protocols
            for c in protocol.columns
            if (m := _COLUMN.match(c.id))
        ]
        found = {p.method for p in self.points}
        return tuple(m for m in dict.fromkeys(order) if m in found) + tuple(
            sorted(found - set(order))
        )

    def curve(self, model: str, method: str, batch: int) -> tuple[Point, ...]:
        """One curve's points, shortest first."""
        return tuple(
            p for p in self.points if (p.model, p.method, p.batch) == (model, method, batch)
        )

    def at_length(self, model: str, method: str, tokens: int) -> tuple[Point, ...]:
        """One model and method's points at one length, smallest batch first."""
        found = [p for p in self.points if (p.model, p.method, p.tokens) == (model, method, tokens)]
        return tuple(sorted(found, key=lambda p: p.batch))

    def recipes(self, method: str) -> tuple[str, ...]:
        """What one method's points measured, as their records state it (each distinct
        comparison.adaptation, in point order); empty when the records do not say."""
        return tuple(
            dict.fromkeys(
                m.adaptation
                for p in self.points
                if p.method == method
                for m in p.measurements
                if m.adaptation
            )
        )

    def checks(self) -> tuple[Measurement, ...]:
        """Measurements re-run alone in a fresh process with both reserved peaks recorded
        (the shared process's and the fresh one's), in point order."""
        return tuple(
            m
            for p in self.points
            for m in p.measurements
            if m.status == "value" and m.reserved_gb is not None and m.fresh_reserved_gb is not None
        )

    def for_family(self, family_id: str) -> Curves:
        """The same curves restricted to one family's models (the skipped records, which
        name no readable model, stay with the whole catalogue)."""
        return Curves(self.protocols, tuple(p for p in self.points if p.family_id == family_id), ())


@dataclass(frozen=True)
class Answer:
    """What a curve says for one GPU size, as facts (render/fits/answers.answer_text reads
    it as a sentence)."""

    state: State
    value: int | None
    """The length (tokens) or batch claimed to fit, if any."""
    evaluation_id: str | None
    """The record behind the claim (or behind the first point that does not fit)."""
    measure: Literal["length", "batch"] = "length"
    """What `value` and `stop` count: tokens of input, or sequences in a batch."""
    stop: int | None = None
    """The first measured length or batch past the fitting ones: it did not fit, or (with
    `stop_undetermined`) whether it fits is not determined. None when every one fits."""
    stop_undetermined: bool = False
    tokens: int | None = None
    """For a batch answer, the input length (tokens) it is asked at."""


@dataclass(frozen=True)
class Unmeasured:
    """A model a protocol's recipe could not measure, and the reason its record states."""

    family_id: str
    model: str
    reason: str
    protocol_id: str


def unmeasured(
    protocols: Iterable[Protocol], family_id: str | None = None
) -> tuple[Unmeasured, ...]:
    """The models the protocols' recipes record as not measured (`recipe.not_measured`), in
    record order, each (family, model) once (the first protocol's reason); only one
    family's with `family_id`."""
    found: dict[tuple[str, str], Unmeasured] = {}
    for protocol in protocols:
        if protocol.recipe is None:
            continue
        for item in protocol.recipe.not_measured:
            if family_id is not None and item.family != family_id:
                continue
            found.setdefault(
                (item.family, item.model),
                Unmeasured(item.family, item.model, item.reason, protocol.id),
            )
    return tuple(found.values())


def recipe_protocols(catalogue: Catalogue, recipe_id: str) -> tuple[Protocol, ...]:
    """Protocols whose runnable recipe has this id."""
    return tuple(
        p for p in catalogue.protocols() if p.recipe is not None and p.recipe.id == recipe_id
    )


def curve_protocols(catalogue: Catalogue) -> tuple[Protocol, ...]:
    """Protocols whose recipe is the memory-curve recipe."""
    return recipe_protocols(catalogue, CURVE_RECIPE)


def curves(catalogue: Catalogue) -> Curves:
    """Every memory-curve point in the catalogue, grouped per (model, method, batch,
    length); evaluations that cannot be placed on a curve are listed with the reason."""
    protocols = curve_protocols(catalogue)
    measurements: list[Measurement] = []
    skipped: list[Skipped] = []
    for protocol in protocols:
        for evaluation in catalogue.evaluations_of(protocol.id):
            if evaluation.protocol != protocol.id:
                continue
            found = measurement(evaluation, catalogue)
            if isinstance(found, Skipped):
                skipped.append(found)
            else:
                measurements.append(found)
    return Curves(protocols, group_points(measurements), tuple(skipped))


def measurement(evaluation: Evaluation, catalogue: Catalogue) -> Measurement | Skipped:
    """The curve point an evaluation records, or why it is none."""
    e = evaluation
    if len(e.results) != 1:
        return Skipped(e.id, "results", str(len(e.results)))
    result = e.results[0]
    match = _COLUMN.match(result.column)
    if match is None:
        return Skipped(e.id, "column", result.column)
    tokens = e.settings.get("tokens_per_sequence", "")
    if not tokens.isdigit() or int(tokens) < 1:
        return Skipped(e.id, "tokens")
    configuration = catalogue.by_id.get(e.configuration)
    if not isinstance(configuration, Configuration):
        return Skipped(e.id, "configuration", e.configuration)
    if result.unit not in (None, "gigabyte"):
        return Skipped(e.id, "unit", result.unit)
    observed = {o.name: o for o in result.observations if o.unit == "gigabyte"}
    reserved = [observed[COMPARED]] if COMPARED in observed else []
    fresh_reserved = observed.get(FRESH_RESERVED)
    fresh_allocated = observed.get(FRESH_ALLOCATED)
    environment = e.environment
    return Measurement(
        evaluation_id=e.id,
        family_id=configuration.family,
        model=configuration.reported_name,
        parameters=parameter_count(configuration.parameters),
        method=match.group("method"),
        batch=int(match.group("batch")),
        tokens=int(tokens),
        status=result.status,
        allocated_gb=result.value,
        reserved_gb=reserved[0].value if reserved else None,
        reserved_note=(reserved[0].note or "") if reserved else "",
        gpu=environment.gpu if environment else "",
        gpu_memory_gb=environment.gpu_memory_gb if environment else None,
        adaptation=e.comparison.adaptation or "",
        fresh_reserved_gb=fresh_reserved.value if fresh_reserved else None,
        fresh_allocated_gb=fresh_allocated.value if fresh_allocated else None,
    )


def parameter_count(text: str | None) -> int | None:
    """The leading count of a configuration's `parameters` ('317,170 (counted; ...)')."""
    found = _COUNT.match(text or "")
    return int(found.group(1).replace(",", "")) if found else None


def group_points(measurements: Iterable[Measurement]) -> tuple[Point, ...]:
    """Measurements grouped per (model, method, batch, length), in display order: family,
    parameter count (smallest first; unknown last), model, method, batch, length."""
    groups: dict[tuple[str, str, str, int, int], list[Measurement]] = defaultdict(list)
    sizes: dict[str, int | None] = {}
    for m in measurements:
        groups[(m.family_id, m.model, m.method, m.batch, m.tokens)].append(m)
        if m.parameters is not None or m.model not in sizes:
            sizes[m.model] = m.parameters
    points = [
        Point(f, model, method, batch, tokens, tuple(sorted(ms, key=lambda m: m.evaluation_id)))
        for (f, model, method, batch, tokens), ms in groups.items()
    ]

    def order(p: Point) -> tuple[str, int, int, str, str, int, int]:
        size = sizes.get(p.model)
        return (p.family_id, size is None, size or 0, p.model, p.method, p.batch, p.tokens)

    return tuple(sorted(points, key=order))


def _walk(points: Sequence[Point], size_gb: float) -> tuple[Point | None, Point | None, bool]:
    """(last point of the fitting prefix, the point that ended it, whether that point
    could not be decided)."""
    last: Point | None = None
    for point in points:
        verdict = point.fits(size_gb)
        if verdict is True:
            last = point
            continue
        return last, point, verdict is None
    return last, None, False


def longest_length(points: Sequence[Point], size_gb: float) -> Answer:
    """The longest measured length of one curve (one model, method and batch) that fits
    `size_gb`, with every shorter measured length fitting too."""
    curve = sorted(points, key=lambda p: p.tokens)
    if not curve:
        return Answer("not_measured", None, None)
    last, stop, undecided = _walk(curve, size_gb)
    if stop is None and last is not None:
        return Answer("fits_all", last.tokens, last.evaluation_id)
    assert stop is not None
    if last is None:
        state: State = "undetermined" if undecided else "fits_none"
        return Answer(
            state, None, stop.evaluation_id, stop=stop.tokens, stop_undetermined=undecided
        )
    return Answer(
        "fits_up_to",
        last.tokens,
        last.evaluation_id,
        stop=stop.tokens,
        stop_undetermined=undecided,
    )


def largest_batch(points: Sequence[Point], size_gb: float, tokens: int) -> Answer:
    """The largest measured batch at one length (one model and method) that fits
    `size_gb`, with every smaller measured batch fitting too."""
    at = sorted((p for p in points if p.tokens == tokens), key=lambda p: p.batch)
    if not at:
        return Answer("not_measured", None, None, "batch", tokens=tokens)
    last, stop, undecided = _walk(at, size_gb)
    if stop is None and last is not None:
        return Answer("fits_all", last.batch, last.evaluation_id, "batch", tokens=tokens)
    assert stop is not None
    if last is None:
        state: State = "undetermined" if undecided else "fits_none"
        return Answer(
            state, None, stop.evaluation_id, "batch", stop.batch, undecided, tokens=tokens
        )
    return Answer(
        "fits_up_to", last.batch, last.evaluation_id, "batch", stop.batch, undecided, tokens
    )


Bias = Literal["unchecked", "fresh_higher", "fresh_lower", "same", "mixed"]


def shared_process_bias(checks: Sequence[Measurement]) -> Bias:
    """Which way the shared-process reserved peaks (the figure the answers compare) lie
    from the same points re-run each in a fresh process, as the records hold both:
    'fresh_higher' when every fresh peak is higher (the answers, read from the shared
    process, err towards "fits"), 'fresh_lower' when every one is lower (they err towards
    "does not fit"), 'same' when all are equal, 'mixed' otherwise, 'unchecked' without a
    check."""
    diffs = [
        m.fresh_reserved_gb - m.reserved_gb
        for m in checks
        if m.fresh_reserved_gb is not None and m.reserved_gb is not None
    ]
    if not diffs:
        return "unchecked"
    if all(d > 0 for d in diffs):
        return "fresh_higher"
    if all(d < 0 for d in diffs):
        return "fresh_lower"
    if all(d == 0 for d in diffs):
        return "same"
    return "mixed"


def state_gb(method: str, parameters: int | None) -> float | None:
    """GB (10^9 bytes) that a full fine-tuning method's weights, gradients and AdamW states
    take for `parameters` (BYTES_PER_PARAMETER), before any activation; None for another
    method or an unknown count."""
    if parameters is None or method not in BYTES_PER_PARAMETER:
        return None
    return sum(BYTES_PER_PARAMETER[method]) * parameters / 1e9


_KMER = re.compile(r"^(?P<k>[1-9][0-9]?)-mer$")
SINGLE_NUCLEOTIDE = frozenset({"single nucleotide", "single-nucleotide", "singlebase", "character"})
"""Tokeniser facts of one token per base (HyenaDNA's 'single nucleotide', DNALLM-Mark's
'singlebase'): one base pair per token after one special token (HyenaDNA's character
tokeniser adds a separator token; counting one token without a base never overstates the
bases)."""


@dataclass(frozen=True)
class BasePairs:
    """How one family's tokens convert to base pairs, from its checkpoints' cited
    tokeniser facts."""

    tokenisers: tuple[str, ...]
    """The tokeniser as the facts state it (('6-mer',), ('BPE',)), sorted; several where
    the checkpoints' facts disagree, none where no checkpoint of the family states one."""
    per_token: int | None
    """Base pairs per token: k for a k-mer tokeniser (non-overlapping k-mers); None when
    the facts give no fixed ratio (BPE: a varying number of bases per token), or when the
    checkpoints' facts disagree."""
    special_tokens: int
    """Leading tokens that carry no bases (the CLS token of a k-mer model)."""
    source_id: str | None
    """The source cited for the tokeniser fact."""

    def base_pairs(self, tokens: int) -> int | None:
        """The base pairs `tokens` tokens hold, or None without a fixed ratio."""
        if self.per_token is None or tokens <= self.special_tokens:
            return None
        return (tokens - self.special_tokens) * self.per_token


TOKEN_UNITS = frozenset({"token"})
BASE_PAIR_UNITS = frozenset({"base-pair", "nucleotide"})


@dataclass(frozen=True, slots=True)
class LengthCount:
    """A stated context length counted in tokens and in base pairs where the records give
    them."""

    tokens: float | None
    """Tokens, where the length is stated in tokens."""
    base_pairs: float | None
    """Base pairs: stated in base pairs (or nucleotides), or tokens converted by the
    family's cited k-mer tokeniser."""
    converted: bool
    """True when the base pairs come from the tokeniser fact, not the source."""
    per_token: int | None = None
    """Base pairs per token of the conversion used (None: no conversion)."""


def length_count(number: float | None, unit: str, conversion: BasePairs) -> LengthCount:
    """Tokens and base pairs of a length stated as `number` `unit`: the stated unit's
    count, and base pairs from tokens by the family's cited tokeniser (`conversion`, the
    one the fits page uses too); tokens from base pairs are never guessed."""
    if number is None:
        return LengthCount(None, None, False)
    if unit in TOKEN_UNITS and number == int(number):
        bp = conversion.base_pairs(int(number))
        if bp is None:
            return LengthCount(number, None, False)
        return LengthCount(number, float(bp), True, conversion.per_token)
    if unit in BASE_PAIR_UNITS:
        return LengthCount(None, number, False)
    return LengthCount(None, None, False)


def family_base_pairs(family: ModelFamily) -> BasePairs:
    """The base-pair conversion of one family: from the tokeniser fact its checkpoints
    cite. A k-mer tokeniser ('6-mer', Nucleotide Transformer's non-overlapping 6-mers)
    holds k base pairs per token after one CLS token, a single-nucleotide one one base pair
    per token after one special token; any other tokeniser (BPE), no fact,
    or checkpoints whose facts disagree give no ratio."""
    stated: dict[str, str | None] = {}
    for checkpoint in family.checkpoints:
        fact = checkpoint.facts.tokeniser if checkpoint.facts is not None else None
        if fact is not None and isinstance(fact.value, str):
            stated.setdefault(fact.value.strip(), fact.citation.source)
    if len(stated) != 1:
        return BasePairs(tuple(sorted(stated)), None, 0, None)
    ((tokeniser, source),) = stated.items()
    if tokeniser.lower() in SINGLE_NUCLEOTIDE:
        return BasePairs((tokeniser,), 1, 1, source)
    kmer = _KMER.match(tokeniser)
    if kmer is None:
        return BasePairs((tokeniser,), None, 0, source)
    return BasePairs((tokeniser,), int(kmer.group("k")), 1, source)
