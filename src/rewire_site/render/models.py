"""The model directory page (/models/): every model family and each of its checkpoints
with parameters, context in tokens and base pairs, tokeniser, licence and where it is
published, each value with its citation (render.model_directory); templates display it."""

from __future__ import annotations

from dataclasses import dataclass

from ..link import Catalogue
from .model_directory import (
    CheckpointEntry,
    Cited,
    FamilyEntry,
    Length,
    LicenceFact,
    model_directory,
)
from .page import Link, Page, page_header
from .present.numbers import plural
from .urls import record_path

MODELS_PATH = "models/index.html"
TITLE = "Model directory"
NOT_STATED = "not stated"


@dataclass(frozen=True)
class CiteLink:
    """Where a value is stated: the source's short citation and the locator."""

    text: str
    """'HyenaDNA README (d553021), "Intro"'."""
    href: str
    """The source record's page, from the site root."""


@dataclass(frozen=True)
class FactCell:
    """One fact of a checkpoint as the directory shows it."""

    text: str
    """The value ('2.5B', '1,000 tokens'), or why it is missing ('Not reported by the
    source: ...')."""
    detail: str
    """A second line: the length in base pairs, where a value came from, ... ('' when
    none)."""
    missing: bool
    """True when the records hold no value."""
    cite: CiteLink | None
    """The citation behind the value (None: no citation recorded)."""


@dataclass(frozen=True)
class ReleaseCell:
    """Where the checkpoint is published."""

    text: str
    """'Published' or 'No published location recorded'."""
    href: str
    """The recorded address of the checkpoint ('' when none is recorded)."""


@dataclass(frozen=True)
class CheckpointRow:
    """One checkpoint of a family."""

    name: str
    """The checkpoint's name as published (a hub repository id)."""
    anchor: str
    """The row's id, for links to it: 'model-<n>'."""
    parameters: FactCell
    """Parameter count."""
    trained: FactCell
    """Context length used in pre-training, in tokens, and in base pairs where known."""
    accepted: FactCell
    """Longest input the checkpoint accepts, in tokens, and in base pairs where known."""
    tokeniser: FactCell
    """The tokeniser."""
    licence: FactCell
    """The licence the records hold for it."""
    release: ReleaseCell
    """Where it is published."""


@dataclass(frozen=True)
class FamilyBlock:
    """One model family and its checkpoints."""

    name: str
    """The family's name."""
    href: str
    """The family page, from the site root."""
    rows: tuple[CheckpointRow, ...]
    """Its checkpoints, by parameters then name."""
    empty: str
    """'No checkpoint of this family is recorded.' when it has none, else ''."""


@dataclass(frozen=True)
class ModelsPage(Page):
    families: tuple[FamilyBlock, ...]
    """Every model family, by name."""
    counts: str
    """'7 model families, 15 checkpoints.'"""
    compare: tuple[Link, ...] = ()
    """Pages comparing two families on their shared tasks."""


QUALIFIER_LABELS: dict[str, str] = {
    "approximate": "approximate",
    "estimated": "estimated",
    "upper_bound": "upper bound",
    "lower_bound": "lower bound",
    "per_size": "stated for a size, not this checkpoint",
}
"""How a source qualifies a value (`models.family.Qualifier`), in reader words."""


def qualifier_suffix(qualifiers: tuple[str, ...], applies_to: str = "") -> str:
    """' (upper bound)', ' (stated for all four NT-v1 models)', or ''."""
    words = [QUALIFIER_LABELS[q] for q in qualifiers if q != "per_size"]
    if applies_to:
        words.append(f"stated for {applies_to}")
    elif "per_size" in qualifiers:
        words.append(QUALIFIER_LABELS["per_size"])
    return f" ({'; '.join(words)})" if words else ""


def _count(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,g}"


def _link(c: Cited) -> CiteLink | None:
    if c.source_id is None:
        return None
    text = ", ".join(x for x in (c.short_citation, c.locator) if x)
    return CiteLink(text, record_path("source", c.source_id))


def value_cell(c: Cited, uncited: str = "As listed in the family record; no citation") -> FactCell:
    """A cited value, or why it is missing."""
    if c.missing:
        return FactCell(c.missing, "", True, None)
    detail = "" if c.source_id else uncited
    return FactCell(c.value + qualifier_suffix(c.qualifiers, c.applies_to), detail, False, _link(c))


def length_cell(found: Length | None, missing: str, tokeniser: Cited) -> FactCell:
    """A context length: tokens first, then base pairs (each 'not stated' where neither
    the source nor the family's cited k-mer tokeniser gives it)."""
    if found is None:
        return FactCell(missing, "", True, None)
    link = _link(found.stated)
    if found.tokens is None and found.base_pairs is None:
        unit = f" {found.stated.unit}" if found.stated.unit else " (unit not stated)"
        return FactCell(found.stated.value + unit, "Tokens and base pairs not stated", False, link)
    tokens = (
        f"{_count(found.tokens)} tokens" if found.tokens is not None else "tokens " + NOT_STATED
    )
    bp = f"{_count(found.base_pairs)} bp" if found.base_pairs is not None else "bp " + NOT_STATED
    if found.base_pairs_stated is not None:
        stated = found.base_pairs_stated
        how = f"Base pairs as stated: {stated.value}" + qualifier_suffix(stated.qualifiers)
        if stated.source_id and stated.source_id != found.stated.source_id:
            how += f" ({stated.short_citation}, {stated.locator})"
    elif found.converted:
        how = (
            f"Base pairs from the {tokeniser.value} tokeniser: {found.per_token} bp per token "
            "after the first (CLS) token"
        )
    elif found.base_pairs is None:
        how = (
            f"No cited base pairs per token for the {tokeniser.value} tokeniser"
            if tokeniser.value
            else "No tokeniser is stated in the records"
        )
    else:
        how = "Stated in base pairs; tokens not derived"
    suffix = qualifier_suffix(found.stated.qualifiers, found.stated.applies_to)
    return FactCell(f"{tokens}; {bp}{suffix}", how, False, link)


def licence_cell(found: LicenceFact) -> FactCell:
    """The licence, with the source record that states it and what it covers."""
    if not found.value or found.source_id is None:
        return FactCell("Not in the records", "", True, None)
    link = CiteLink(found.short_citation, record_path("source", found.source_id))
    if found.scope == "weights":
        return FactCell(found.value, "Licence of the weights, as stated", False, link)
    if found.scope == "checkpoint":
        return FactCell(found.value, "Licence of the checkpoint's repository", False, link)
    return FactCell(
        found.value,
        "Licence of the code repository cited for its facts; not stated for the weights",
        False,
        link,
    )


def checkpoint_row(entry: CheckpointEntry, number: int) -> CheckpointRow:
    return CheckpointRow(
        name=entry.name,
        anchor=f"model-{number}",
        parameters=value_cell(entry.parameters),
        trained=length_cell(entry.trained, entry.trained_missing, entry.tokeniser),
        accepted=length_cell(entry.accepted, entry.accepted_missing, entry.tokeniser),
        tokeniser=value_cell(entry.tokeniser),
        licence=licence_cell(entry.licence),
        release=ReleaseCell("Published", entry.url)
        if entry.url
        else ReleaseCell("No published location recorded", ""),
    )


def family_block(entry: FamilyEntry, start: int) -> FamilyBlock:
    rows = tuple(checkpoint_row(c, start + i) for i, c in enumerate(entry.checkpoints))
    return FamilyBlock(
        entry.name,
        record_path("model_family", entry.family_id),
        rows,
        "" if rows else "No checkpoint of this family is recorded.",
    )


def models_page(
    catalogue: Catalogue, release_id: str, compare: tuple[Link, ...] = ()
) -> ModelsPage:
    """The model directory."""
    entries = model_directory(catalogue)
    blocks, start = [], 1
    for entry in entries:
        blocks.append(family_block(entry, start))
        start += len(entry.checkpoints)
    checkpoints = start - 1
    return ModelsPage(
        **page_header(
            "models.html",
            MODELS_PATH,
            TITLE,
            "Every model family and its checkpoints: parameters, context in tokens and base "
            "pairs, tokeniser, licence and where each is published, with citations.",
            release_id,
            nav="models",
        ),
        families=tuple(blocks),
        counts=f"{plural(len(blocks), 'model family', 'model families')}, "
        f"{plural(checkpoints, 'checkpoint')}.",
        compare=compare,
    )
