"""The model directory: every model family and each of its checkpoints with the facts a
researcher picks a model by (parameters, context in tokens and in base pairs, tokeniser,
licence, where it is published), each cited or with the record's reason why it is
missing. Pure: the values come from the family and source records, nothing is guessed.

Base pairs from tokens only where the family's cited tokeniser fact fixes the ratio, by
the conversion the fits page uses (derive.fits.family_base_pairs: a k-mer tokeniser holds k
base pairs per token after the CLS token; BPE or no fact, no ratio). Tokens are never
derived from base pairs."""

from __future__ import annotations

from dataclasses import dataclass

from ..derive.fits import BasePairs, family_base_pairs, length_count
from ..link import Catalogue
from ..models import ModelFamily
from ..models.common import Citation
from ..models.family import Checkpoint, Fact, HardwareRequirement, Release
from ..models.printed import parse_printed
from .present.citations import cite
from .present.missing import missing_text

NOT_IN_SOURCES = "Not reported by the cited sources"
"""Why a checkpoint fact is missing when the record gives no reason of its own (the
derived default, `completeness.defaulted`)."""


@dataclass(frozen=True)
class Cited:
    """One value with where it is stated, or why the records hold none."""

    value: str
    """As printed where the source printed it, else the stored value ('' when missing)."""
    number: float | None
    """The stored number (None for a text value or a missing one)."""
    unit: str
    """The stored unit ('' when none)."""
    missing: str
    """Why there is no value ('Not reported by the source: ...'); '' when there is one."""
    source_id: str | None
    """Source record of the citation (None: no citation recorded)."""
    source_title: str
    short_citation: str
    locator: str
    quote: str | None
    qualifiers: tuple[str, ...] = ()
    """How the source qualifies the value (`models.family.Qualifier`): 'approximate',
    'estimated', 'upper_bound', 'lower_bound', 'per_size'."""
    applies_to: str = ""
    """What the value is stated for when not this checkpoint ('all four NT-v1 models')."""


@dataclass(frozen=True)
class Length:
    """A context length as stated, with its count in tokens and in base pairs where the
    records give them."""

    stated: Cited
    tokens: float | None
    """Tokens, where the source states the length in tokens."""
    base_pairs: float | None
    """Base pairs: stated in base pairs (or nucleotides), or tokens converted by the
    family's cited k-mer tokeniser."""
    converted: bool
    """True when the base pairs come from the tokeniser fact, not the source."""
    per_token: int | None = None
    """Base pairs per token of the conversion used (None: no conversion)."""
    base_pairs_stated: Cited | None = None
    """The base pairs as a source states them beside the length in tokens ('12kbp'),
    with where (None: not stated; `base_pairs` may then be converted)."""


@dataclass(frozen=True)
class LicenceFact:
    """The licence the records hold for a checkpoint."""

    value: str
    """The licence as the source record states it ('' when none is recorded)."""
    scope: str
    """'weights': a cited fact of the weights' licence (`ModelFacts.weights_licence`);
    'checkpoint': the source is the checkpoint's own repository; 'code': the source is
    a code repository file cited for the checkpoint's facts (its licence, not stated for
    the weights); '' when none is recorded."""
    source_id: str | None
    source_title: str
    short_citation: str


@dataclass(frozen=True)
class ReleaseEntry:
    """Whether the weights are published, as a source states it."""

    state: str
    """`models.family.ReleaseState`: released, described_not_released, withdrawn."""
    cited: Cited
    note: str


@dataclass(frozen=True)
class HardwareEntry:
    """One hardware requirement a source states."""

    use: str
    accelerator: str
    memory_gb: float | None
    precision: str
    compute_capability: str
    cited: Cited
    """The requirement as printed, with its citation and qualifiers."""


@dataclass(frozen=True)
class CheckpointEntry:
    """One checkpoint of the directory."""

    name: str
    parameters: Cited
    parameter_count: float | None
    """Parameters as a number, for sorting (None when not stated as a number)."""
    trained: Length | None
    """Context length used in pre-training (None: not stated, see `trained_missing`)."""
    trained_missing: str
    accepted: Length | None
    """Longest input the checkpoint accepts (None: not stated, see `accepted_missing`)."""
    accepted_missing: str
    tokeniser: Cited
    licence: LicenceFact
    url: str | None
    """Where the checkpoint is published, as recorded (None: no location recorded)."""
    has_facts: bool
    """False when the family record lists the checkpoint without cited facts."""
    release: ReleaseEntry | None = None
    """The cited release state (None: not reported by the cited sources)."""
    hardware: tuple[HardwareEntry, ...] = ()
    """Hardware requirements the sources state."""
    training_compute: Cited | None = None
    """Pre-training compute as stated (None: see `missing`)."""
    batch_size_tokens: Cited | None = None
    """Pre-training batch size in tokens as stated."""
    missing: tuple[str, ...] = ()
    """Labels' keys of the key facts the records hold no value for ('parameters',
    'training_compute', 'release', 'hardware_requirements', ...)."""


@dataclass(frozen=True)
class FamilyEntry:
    """One model family with its checkpoints (sorted by parameters, then name)."""

    family_id: str
    name: str
    tokenisation: str | None
    checkpoints: tuple[CheckpointEntry, ...]


def _cited(fact: Fact, catalogue: Catalogue) -> Cited:
    view = cite(fact.citation, catalogue)
    number = fact.value if isinstance(fact.value, float) else None
    if fact.printed_value:
        value = fact.printed_value
    elif number is not None:
        value = f"{number:,.0f}" if number == int(number) else f"{number:g}"
    else:
        value = str(fact.value)
    return Cited(
        value,
        number,
        fact.unit or "",
        "",
        view.source_id,
        view.source_title,
        view.short_citation,
        view.locator,
        view.quote,
        tuple(fact.qualifiers),
        fact.applies_to or "",
    )


def _plain_cited(
    value: str,
    citation: Citation,
    catalogue: Catalogue,
    qualifiers: tuple[str, ...] = (),
    applies_to: str = "",
) -> Cited:
    view = cite(citation, catalogue)
    return Cited(
        value,
        None,
        "",
        "",
        view.source_id,
        view.source_title,
        view.short_citation,
        view.locator,
        view.quote,
        qualifiers,
        applies_to,
    )


def _release(found: Release | None, catalogue: Catalogue) -> ReleaseEntry | None:
    if found is None:
        return None
    return ReleaseEntry(
        found.state, _plain_cited(found.state, found.citation, catalogue), found.note or ""
    )


def _hardware(found: HardwareRequirement, catalogue: Catalogue) -> HardwareEntry:
    return HardwareEntry(
        found.use,
        found.accelerator or "",
        found.memory_gb,
        found.precision or "",
        found.compute_capability or "",
        _plain_cited(
            found.printed_value,
            found.citation,
            catalogue,
            tuple(found.qualifiers),
            found.applies_to or "",
        ),
    )


def _why(family: ModelFamily, path: str) -> str:
    if path not in family.missing_metadata:
        return NOT_IN_SOURCES
    why = missing_text(family, path)
    return why.long_label + (f": {why.note}" if why.note else "")


def _absent(reason: str) -> Cited:
    return Cited("", None, "", reason, None, "", "", "", None)


def _fact(checkpoint: Checkpoint, name: str) -> Fact | None:
    facts = checkpoint.facts
    found = None if facts is None else getattr(facts, name, None)
    return found if isinstance(found, Fact) else None


def _parsed(c: Cited) -> float | None:
    """The number a printed count states ('1B' -> 1e9), for sorting only."""
    found = parse_printed(c.value) if c.value and not c.missing else None
    return None if found is None else found.value


def length(stated: Cited, conversion: BasePairs) -> Length:
    """Tokens and base pairs of a stated length (`fits.length_count`: base pairs from
    tokens by the family's cited tokeniser; tokens from base pairs are never guessed)."""
    count = length_count(stated.number, stated.unit, conversion)
    return Length(stated, count.tokens, count.base_pairs, count.converted, count.per_token)


def stated_base_pairs(found: Length, fact: Fact | None, catalogue: Catalogue) -> Length:
    """`found` with the base pairs its source states beside the tokens (`Fact.base_pairs`),
    which take the place of a conversion; `found` itself when none is stated."""
    if fact is None or fact.base_pairs is None:
        return found
    extra = fact.base_pairs
    printed = extra.printed_value or f"{extra.value:,.0f} bp"
    citation = extra.citation if extra.citation is not None else fact.citation
    view = _plain_cited(printed, citation, catalogue, tuple(extra.qualifiers))
    view = Cited(
        view.value,
        extra.value,
        "base-pair",
        "",
        view.source_id,
        view.source_title,
        view.short_citation,
        view.locator,
        view.quote,
        view.qualifiers,
    )
    return Length(found.stated, found.tokens, extra.value, False, None, view)


def _repository(url: str) -> str:
    """A hub or GitHub address cut to its repository: https://host/owner/name."""
    parts = url.rstrip("/").split("/")
    return "/".join(parts[:5]) if len(parts) >= 5 else url.rstrip("/")


def licence(checkpoint: Checkpoint, cited: list[str], catalogue: Catalogue) -> LicenceFact:
    """The checkpoint's licence: from a source record of its own repository when one
    states a licence, else the licence of a code repository cited for its facts (marked
    as such), else none."""
    sources = catalogue.sources()
    if checkpoint.url:
        own = _repository(checkpoint.url)
        for source in sorted(sources, key=lambda s: s.id):
            if source.licence and _repository(source.repository or source.url) == own:
                return LicenceFact(
                    source.licence, "checkpoint", source.id, source.title, source.short_citation
                )
    by_id = {s.id: s for s in sources}
    for source_id in cited:
        code = by_id.get(source_id)
        if code is not None and code.licence and code.repository:
            return LicenceFact(code.licence, "code", code.id, code.title, code.short_citation)
    return LicenceFact("", "", None, "", "")


def checkpoint_entry(
    family: ModelFamily,
    index: int,
    checkpoint: Checkpoint,
    catalogue: Catalogue,
    conversion: BasePairs | None = None,
) -> CheckpointEntry:
    """The directory row of `family.checkpoints[index]`."""
    conversion = conversion if conversion is not None else family_base_pairs(family)
    prefix = f"checkpoints.{index}.facts."
    has_facts = checkpoint.facts is not None
    no_facts = "No cited facts are recorded for this checkpoint yet"

    def get(name: str) -> Cited:
        fact = _fact(checkpoint, name)
        if fact is not None:
            return _cited(fact, catalogue)
        return _absent(_why(family, prefix + name) if has_facts else no_facts)

    parameters = get("parameters")
    weights = _fact(checkpoint, "weights_licence")
    if parameters.missing and checkpoint.parameters:  # listed in the family record, uncited
        parameters = Cited(checkpoint.parameters, None, "", "", None, "", "", "", None)
    tokeniser = get("tokeniser")
    trained, accepted = get("context_length_trained"), get("context_length_accepted")
    compute, batch = get("training_compute"), get("batch_size_tokens")
    cited = [
        c.source_id for c in (parameters, tokeniser, trained, accepted) if c.source_id is not None
    ]
    facts = checkpoint.facts
    release = _release(None if facts is None else facts.release, catalogue)
    hardware = () if facts is None else facts.hardware_requirements
    if weights is not None:
        view = cite(weights.citation, catalogue)
        found_licence = LicenceFact(
            str(weights.value), "weights", view.source_id, view.source_title, view.short_citation
        )
    else:
        found_licence = licence(checkpoint, cited, catalogue)
    named = (
        ("parameters", parameters),
        ("context_length_trained", trained),
        ("context_length_accepted", accepted),
        ("tokeniser", tokeniser),
        ("training_compute", compute),
        ("batch_size_tokens", batch),
    )
    missing = [key for key, c in named if c.missing]
    if not found_licence.value:
        missing.append("weights_licence")
    if release is None:
        missing.append("release")
    if not hardware:
        missing.append("hardware_requirements")
    return CheckpointEntry(
        name=checkpoint.name,
        parameters=parameters,
        parameter_count=parameters.number if parameters.number is not None else _parsed(parameters),
        trained=None
        if trained.missing
        else stated_base_pairs(
            length(trained, conversion), _fact(checkpoint, "context_length_trained"), catalogue
        ),
        trained_missing=trained.missing,
        accepted=None
        if accepted.missing
        else stated_base_pairs(
            length(accepted, conversion), _fact(checkpoint, "context_length_accepted"), catalogue
        ),
        accepted_missing=accepted.missing,
        tokeniser=tokeniser,
        licence=found_licence,
        url=checkpoint.url,
        has_facts=has_facts,
        release=release,
        hardware=tuple(_hardware(h, catalogue) for h in hardware),
        training_compute=None if compute.missing else compute,
        batch_size_tokens=None if batch.missing else batch,
        missing=tuple(missing),
    )


def family_entry(family: ModelFamily, catalogue: Catalogue) -> FamilyEntry:
    """The family with its checkpoints (by parameters, then name; a checkpoint without a
    stated count last)."""
    conversion = family_base_pairs(family)
    rows = [
        checkpoint_entry(family, i, c, catalogue, conversion)
        for i, c in enumerate(family.checkpoints)
    ]
    rows.sort(key=lambda r: (r.parameter_count is None, r.parameter_count or 0.0, r.name.lower()))
    return FamilyEntry(family.id, family.name, family.tokenisation, tuple(rows))


def model_directory(catalogue: Catalogue) -> tuple[FamilyEntry, ...]:
    """Every model family (by name), each its `family_entry`."""
    families = sorted(catalogue.families(), key=lambda f: (f.name.lower(), f.id))
    return tuple(family_entry(family, catalogue) for family in families)
