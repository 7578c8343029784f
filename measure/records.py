"""Write measurement records: validate them with `rewire_site` first, never overwrite.

A recipe builds plain dictionaries (evaluation and configuration records, shaped as
`rewire_site.models` define them); `write_records` stages them as YAML files, validates the
staged files against the catalogue under `root` (models, missing-metadata rule, references,
artifact hashes), and only when all of them pass moves them into `records/`, refusing any
path that already exists. Raw logs become artifacts under `artifacts/measurements/<run-id>/`.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from measure.run_logs import finished_logs
from rewire_site.config import ARTIFACTS_DIR, RECORDS_DIR
from rewire_site.models import RECORD_ADAPTER
from rewire_site.problems import Problem, RecordsInvalid

MEASUREMENTS_DIR = "measurements"


class RecordExists(FileExistsError):
    """A record or artifact with this path already exists: measurements never overwrite."""


@dataclass(frozen=True)
class ArtifactFile:
    path: str
    """Relative to the repository root."""
    sha256: str
    size_bytes: int


GB = 1e9
"""Bytes in a gigabyte as records state it (10^9, not GiB)."""
AREAS = ["dna-genomes"]
"""The area of every record a recipe writes (one definition for all of measure/)."""
CONTEXTS = ["research"]
"""The context of every record a recipe writes."""


def gigabyte_observations(
    memory: Mapping[str, Any], named: Sequence[tuple[str, str, str]]
) -> list[dict[str, Any]]:
    """Observations in GB of a worker log's `memory`: for each (name, key, note) of `named`
    whose byte count the log holds, in that order."""
    return [
        {"name": name, "value": round(memory[key] / GB, 4), "unit": "gigabyte", "note": note}
        for name, key, note in named
        if memory.get(key) is not None
    ]


def memory_observations(
    memory: dict[str, Any], peak_note: str, allocated_key: str, allocated_note: str
) -> list[dict[str, Any]]:
    """The reserved peak and the memory allocated before the first step, in GB, for
    whichever of the two a worker log holds (both recipes record them)."""
    return gigabyte_observations(
        memory,
        [
            ("peak-reserved-memory", "peak_reserved_bytes", peak_note),
            ("allocated-before-first-step", allocated_key, allocated_note),
        ],
    )


def sha256_file(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def artifact_path(run_id: str, name: str) -> str:
    """Where a raw log of a run lives, relative to the repository root."""
    return f"{ARTIFACTS_DIR}/{MEASUREMENTS_DIR}/{run_id}/{name}"


def store_artifact(source: Path, root: Path, run_id: str, name: str) -> ArtifactFile:
    """Copy a raw log into the artifacts folder. An existing file with the same bytes is
    kept (a re-run that resumes); one with other bytes is never overwritten, not even one
    that appears while the copy runs: the copy is linked into place, which fails rather
    than replace a file, so the target is whole or absent whenever the process is killed."""
    relative = artifact_path(run_id, name)
    target = root / relative
    digest = sha256_file(source)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.part")
        shutil.copyfile(source, temporary)
        try:
            os.link(temporary, target)
        except FileExistsError:
            pass  # appeared meanwhile: compared below
        except OSError:  # no hard links on this file system: create, never replace
            with target.open("xb") as handle, temporary.open("rb") as copied:
                shutil.copyfileobj(copied, handle)
        finally:
            temporary.unlink(missing_ok=True)
    if sha256_file(target) != digest:
        raise RecordExists(f"{relative}: exists with other content; not overwritten")
    return ArtifactFile(path=relative, sha256=digest, size_bytes=target.stat().st_size)


def cite_artifact(
    source: Path,
    root: Path,
    run_id: str,
    name: str,
    description: str,
    media_type: str = "application/json",
) -> dict[str, Any]:
    """Store a raw file (see `store_artifact`) and return its citation as records list it:
    path, SHA-256, description, media type and size."""
    stored = store_artifact(source, root, run_id, name)
    return {
        "path": stored.path,
        "sha256": stored.sha256,
        "description": description,
        "media_type": media_type,
        "size_bytes": stored.size_bytes,
    }


def record_ids(run_id: str, slug: str) -> tuple[str, str]:
    """(configuration id, evaluation id) of one measured setup of a run."""
    return f"rewire-{run_id}-config-{slug}", f"rewire-{run_id}-eval-{slug}"


def item_record_ids(run_id: str, item_key: str) -> tuple[str, str]:
    """(configuration id, evaluation id) of one item of a run, its key's '--' read as '-'
    (the peak-memory stages and the memory-curve points)."""
    return record_ids(run_id, item_key.replace("--", "-"))


def added_on(ended_at: str) -> str:
    """A record's `added` date: the day its run ended (from an ISO timestamp), so that
    measurements appear among the newest records."""
    return date.fromisoformat(ended_at[:10]).isoformat()


def measurement_environment(
    environment: Mapping[str, Any], git_commit: str | None, *notes: str | None
) -> dict[str, Any]:
    """A log's environment as a record states it: the commit that ran (see
    `resolve_commit`) and one note, the given notes joined with the commit note (where
    there is one) after the first."""
    out = dict(environment)
    commit, commit_note = resolve_commit(str(out.get("git_commit")), git_commit)
    out["git_commit"] = commit
    first, *rest = notes or (None,)
    out["note"] = " ".join(n for n in (first, commit_note, *rest) if n)
    return out


def record_kind_schema(kind: str) -> str:
    return f"../schemas/{kind}.schema.json"


def to_yaml(record: dict[str, Any]) -> str:
    """One YAML document with the schema modeline first, keys in the given order."""
    body = yaml.safe_dump(record, sort_keys=False, allow_unicode=True, width=92)
    return f"# yaml-language-server: $schema={record_kind_schema(record['kind'])}\n{body}"


def check_models(records: Sequence[dict[str, Any]]) -> list[str]:
    """Pydantic validation of each record; messages naming the record and field."""
    messages: list[str] = []
    for record in records:
        try:
            RECORD_ADAPTER.validate_python(record)
        except Exception as error:  # pydantic.ValidationError, reported whole
            messages.append(f"{record.get('id', '?')}: {error}")
    return messages


def write_records(records: Sequence[dict[str, Any]], root: Path) -> list[Path]:
    """Validate `records` against the catalogue under `root`, then write them as new files.

    Raises `RecordExists` when any target file exists (nothing is written then) and
    `RecordsInvalid` with every problem when validation fails (nothing is written then).
    """
    from rewire_site.validate import validate_paths

    folder = root / RECORDS_DIR
    ids = [str(record["id"]) for record in records]
    if len(ids) != len(set(ids)):
        raise RecordsInvalid([Problem(folder, 0, "id", "duplicate ids among new records")])
    existing = [folder / f"{record_id}.yaml" for record_id in ids]
    taken = [path for path in existing if path.exists()]
    if taken:
        names = ", ".join(str(path.relative_to(root)) for path in taken)
        raise RecordExists(f"records exist and are never overwritten: {names}")
    with tempfile.TemporaryDirectory(prefix="rewire-measure-") as staging:
        staged = []
        for record in records:
            path = Path(staging) / f"{record['id']}.yaml"
            path.write_text(to_yaml(record), encoding="utf-8")
            staged.append(path)
        report = validate_paths(staged, root)
        if not report.ok:
            raise RecordsInvalid(report.errors)
        folder.mkdir(parents=True, exist_ok=True)
        written: list[Path] = []
        for path, target in zip(staged, existing, strict=True):
            with target.open("x", encoding="utf-8") as handle:  # "x": never overwrite
                handle.write(path.read_text(encoding="utf-8"))
            written.append(target)
    return written


def write_new(records: Sequence[dict[str, Any]], root: Path) -> list[Path]:
    """`write_records` where a run has new records; none written (an empty list) where it
    has none."""
    return write_records(records, root) if records else []


def recorded(root: Path, record_id: str) -> bool:
    """Whether the catalogue under `root` holds a record of this id already."""
    return (root / RECORDS_DIR / f"{record_id}.yaml").exists()


def write_finished(
    paths: Iterable[Path],
    root: Path,
    build: Callable[[Path, dict[str, Any]], list[dict[str, Any]]],
) -> list[Path]:
    """The records of a run's finished logs (`run_logs.finished_logs`): `build` makes
    those of one log from its path and contents (none where the catalogue holds them or
    the log gives none); then all are validated and written as new files (`write_new`)."""
    return write_new([r for path, log in finished_logs(paths) for r in build(path, log)], root)


def resolve_commit(recorded: str, given: str | None) -> tuple[str, str | None]:
    """The commit a record names, and a note when it is not the one the log read.

    A log's commit is kept unless `given` is set and the log could not name the code that
    ran: it read none (`unknown...`, a copy without .git) or a tree that differed from its
    commit (`...+dirty`, e.g. a device copy whose git metadata is older than the files
    sent). The note keeps what the log read."""
    if given is None or not (recorded.startswith("unknown") or recorded.endswith("+dirty")):
        return recorded, None
    return given, (
        f"The log read git commit {recorded}; the code that ran is commit {given} "
        "(the working tree sent to the machine, whose git metadata was older)."
        if recorded.endswith("+dirty")
        else None
    )
