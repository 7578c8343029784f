"""Tiny record sets named by scenario, under `tests/fixtures/<scenario>/records/`, read
through the build's own gather stage (`build.gather`).

- seed_memory: the training peak-memory protocol of seed page 000 with its four
  published evaluations (two columns of four hold results).
- ia3_conflict: the IA3 run-time protocol of seed page 003, both evaluations carrying the
  recorded source conflict; a question links to the protocol.
- reproduction: a protocol with a tolerance, a published evaluation and a Rewire
  measurement on an H200 that reproduces it (one column within tolerance, one beyond, one
  out of memory), with a raw log artifact under `artifacts/`.
- incomplete_run: the reproduction scenario plus a second measurement whose
  checkpointing run is incomplete (status incomplete, no value, observations and a note)
  and whose deepspeed value is complete.
- setup_rows: the reproduction scenario with the recipe's setup keys (precision, update)
  and two more measurements, one fp32-autocast setup measured stage by stage
  (checkpointing 34.2 in one evaluation, deepspeed 16.7 in another), each reproducing the
  published evaluation.
"""

from __future__ import annotations

import re
import shutil
from functools import cache
from pathlib import Path

from rewire_site.build import gather
from rewire_site.link import Catalogue

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def scenario_root(name: str) -> Path:
    return FIXTURES / name


@cache
def load_scenario(name: str) -> Catalogue:
    root = scenario_root(name)
    return gather(root / "records", root).catalogue


_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_ARTIFACT = re.compile(r"\b(artifacts/[^\s'\"]+)")


def record_closure(ids: list[str], records: Path) -> dict[str, Path]:
    """The record files of `ids` under `records` and of every record they refer to (any
    token of a record file that is the id of another record), transitively, by id."""
    files = {p.stem: p for p in records.glob("*.yaml")}
    chosen: dict[str, Path] = {}
    todo = list(ids)
    while todo:
        ident = todo.pop()
        if ident in chosen:
            continue
        chosen[ident] = files[ident]
        text = files[ident].read_text(encoding="utf-8")
        todo.extend(t for t in _TOKEN.findall(text) if t in files and t not in chosen)
    return chosen


def copy_closure(ids: list[str], records: Path, into: Path) -> int:
    """Copy `record_closure(ids, records)` into the folder `into`, and the artifact files
    those records name (`artifacts/...`, into the folder beside `into`); the number of
    records copied. Tests build small real sites this way from `records/`."""
    chosen = record_closure(ids, records)
    into.mkdir(parents=True, exist_ok=True)
    for ident, path in chosen.items():
        shutil.copy2(path, into / f"{ident}.yaml")
        for name in _ARTIFACT.findall(path.read_text(encoding="utf-8")):
            source = records.parent / name
            if source.is_file():
                (into.parent / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, into.parent / name)
    return len(chosen)
