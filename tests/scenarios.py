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


_ARTIFACT = re.compile(r"\bpath: '?(artifacts/[^'\s]+)")


def copy_closure(ids: list[str], records: Path, into: Path) -> int:
    """Copy the record files `ids` from `records` into `into`, with every record they
    refer to (any token of a file that names another record file), transitively, and
    the artifact files they cite (`path: artifacts/...`, into the folder beside `into`);
    the number of records copied. Tests build small real sites this way from `records/`."""
    files = {p.stem: p for p in records.glob("*.yaml")}
    todo, chosen = list(ids), set[str]()
    while todo:
        ident = todo.pop()
        if ident in chosen:
            continue
        chosen.add(ident)
        shutil.copy2(files[ident], into / f"{ident}.yaml")
        text = files[ident].read_text(encoding="utf-8")
        todo.extend(t for t in _TOKEN.findall(text) if t in files and t not in chosen)
        for artifact in _ARTIFACT.findall(text):
            target = into.parent / artifact
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(records.parent / artifact, target)
    return len(chosen)
