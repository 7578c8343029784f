"""The model family records the DNALLM-Mark importer writes (families Rewire had no
record of), from the `info` block each performance file prints: the Hugging Face id and
the size as printed, each cited by its line; the model label on its checkpoint, or on the
family where no checkpoint can be pinned (`dnallm_mark_ids.FAMILY_ONLY`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from . import dnallm_mark_ids as ids
from .core import ImportProblem, Record, SourceFile, SourceFiles, find_line, line_citation, missing
from .dnallm_mark_read import ADDED
from .records import AREAS, CONTEXTS

FOLDER = "dnallm-mark/data/model_performance"


@dataclass(frozen=True)
class Info:
    """A performance file's `info` block: what it prints about its model."""

    label: str
    file: SourceFile
    fields: dict[str, Any]

    def text(self, key: str) -> str:
        value = self.fields.get(key, "")
        return "" if value is None else str(value)

    def cite(self, key: str, supports: list[str]) -> Record:
        line = find_line(self.file, f'"{key}":')
        return line_citation(ids.SCOPE, self.file, line, supports=supports)


def read_info(files: SourceFiles, label: str) -> Info:
    file = files[f"{FOLDER}/{label}_performance.json"]
    try:
        data = json.loads(file.text())
    except json.JSONDecodeError as error:
        raise ImportProblem(f"{file.path}: not valid JSON ({error}); nothing was changed") from None
    info = data.get("info") if isinstance(data, dict) else None
    if not isinstance(info, dict):
        raise ImportProblem(f"{file.path}: no `info` object; nothing was changed")
    return Info(label, file, info)


def _facts(info: Info) -> Record:
    """The checkpoint's pre-training context (base pairs: the README's model-info template
    calls `context_len (bp)` the "pretrained context length") and tokeniser, each cited by
    its line of the performance file."""
    facts: Record = {}
    context = info.fields.get("context_len (bp)")
    if isinstance(context, int) and not isinstance(context, bool) and context > 0:
        facts["context_length_trained"] = {
            "value": float(context),
            "unit": "base-pair",
            "printed_value": str(context),
            "citation": info.cite("context_len (bp)", []),
        }
    tokeniser = info.text("tokenizer")
    if tokeniser:
        facts["tokeniser"] = {"value": tokeniser, "citation": info.cite("tokenizer", [])}
    return facts


def _shared(infos: list[Info], key: str) -> str | None:
    """The value every checkpoint prints alike, else None."""
    found = {i.text(key) for i in infos}
    return found.pop() if len(found) == 1 and "" not in found else None


OTHER_LABELS: dict[str, tuple[Record, ...]] = {
    "XLS/OmniNA-220m": (
        {
            "scope": "lingodnabench",
            "label": "OmniNA (220M)",
            "note": (
                "LingoDNABench links https://huggingface.co/XLS/OmniNA-220m for OmniNA "
                "(benchmark/README.md, line 122)."
            ),
        },
    ),
}
"""Other sources' labels for checkpoints of the families this importer writes (hub id ->
labels): one family record per family, however many sources name it."""


def family_record(files: SourceFiles, family: ids.NewFamily) -> Record:
    infos = [read_info(files, label) for label in family.labels]
    citations: list[Record] = []
    checkpoints: list[Record] = []
    family_labels: list[Record] = []
    for info in infos:
        if info.label in ids.FAMILY_ONLY:
            family_labels.append(
                {"scope": ids.SCOPE, "label": info.label, "note": ids.FAMILY_ONLY[info.label]}
            )
            continue
        hub = info.text("huggingface")
        if not hub:
            raise ImportProblem(
                f"{info.file.path}: no Hugging Face id for {info.label!r}; list it in "
                "dnallm_mark_ids.FAMILY_ONLY with the reason; nothing was changed"
            )
        index = len(checkpoints)
        citations.append(info.cite("huggingface", [f"checkpoints.{index}.name"]))
        citations.append(info.cite("size (M)", [f"checkpoints.{index}.parameters"]))
        checkpoints.append(
            {
                "name": hub,
                "parameters": f"{info.text('size (M)')}M",
                "url": f"https://huggingface.co/{hub}",
                "note": (
                    f"As DNALLM-Mark prints it for `{info.label}`: {info.text('size (M)')}M "
                    f"parameters, context {info.text('context_len (bp)')} bp, tokeniser "
                    f"{info.text('tokenizer')}, architecture {info.text('architecture')}. The "
                    "hub revision is not stated."
                ),
                "facts": _facts(info),
                "labels": [
                    {"scope": ids.SCOPE, "label": info.label},
                    *OTHER_LABELS.get(hub, ()),
                ],
            }
        )
    record: Record = {
        "id": ids.family_id(family.key),
        "kind": "model_family",
        "title": family.name,
        "summary": (
            f"{family.name}: "
            + ", ".join(f"`{i.label}`" for i in infos)
            + " as DNALLM-Mark names and fine-tunes "
            + ("it." if len(infos) == 1 else "them.")
        ),
        "limitations": [
            "Imported family: only what DNALLM-Mark's performance files print is recorded "
            "(Hugging Face id, size, context, tokeniser, architecture); who developed the "
            "models and their papers are not yet recorded."
        ],
        "areas": AREAS,
        "contexts": CONTEXTS,
        "citations": citations,
        "name": family.name,
        "developers": [],
        "architecture": None,
        "tokenisation": None,
        "checkpoints": checkpoints,
        "added": ADDED,
        "missing_metadata": {},
    }
    for field, key in (("architecture", "architecture"), ("tokenisation", "tokenizer")):
        shared = _shared(infos, key)
        if shared is not None:
            record[field] = f"{shared} (as DNALLM-Mark prints it)"
            citations.append(infos[0].cite(key, [field]))
        else:
            printed = "; ".join(f"{i.label}: {i.text(key) or 'none'}" for i in infos)
            record["missing_metadata"][field] = missing(
                "unreported", f"DNALLM-Mark prints it per checkpoint, not alike: {printed}."
            )
    if any("facts" in c for c in checkpoints):
        readme = files["README.md"]
        line = find_line(readme, '"context_len (bp)": "pretrained context length"')
        citations.append(line_citation(ids.SCOPE, readme, line))  # what the context is
    if family_labels:
        record["labels"] = family_labels
    if not record["missing_metadata"]:
        del record["missing_metadata"]
    return record


def family_records(files: SourceFiles) -> list[Record]:
    return [family_record(files, f) for f in ids.NEW_FAMILIES]
