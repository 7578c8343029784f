"""Release id, canonical record content, file hashes and the output manifest.

The release id is the build date and the first 12 hex digits of a SHA-256 over the
canonical content of all records: canonical JSON (`model_dump(mode="json")`, keys sorted,
no insignificant whitespace, UTF-8) of the records sorted by id. The same records give
the same digest whatever the file layout or YAML formatting.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

from .derive.logs import LogFacts, parse_log
from .link import Catalogue
from .models import Evaluation, RecordBase

RELEASE_ID = re.compile(r"^\d{4}-\d{2}-\d{2}-[0-9a-f]{12}$")
PREVIEW_SUFFIX = "preview"
"""A preview's release id is the build date and this marker (`preview_release`)."""
PREVIEW_CONTENT = "preview of unreleased records: no content hash"
"""What a preview's release table gives for the content SHA-256."""
SOURCE_DATE_EPOCH = "SOURCE_DATE_EPOCH"
_CHUNK = 1 << 20


@dataclass(frozen=True)
class Release:
    id: str
    """'2026-10-22-1b7cf027e4f6'."""
    date: str
    """Build date, ISO 8601."""
    content_sha256: str
    """SHA-256 of the canonical content of all records."""
    record_count: int


@dataclass(frozen=True)
class ManifestEntry:
    path: str
    """Path under the site root, with '/' separators."""
    sha256: str
    size_bytes: int


def canonical_json(records: Iterable[RecordBase]) -> bytes:
    """Canonical content of `records`: a JSON array sorted by id, keys sorted."""
    ordered = sorted(records, key=lambda r: r.id)
    data = [r.model_dump(mode="json") for r in ordered]
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def content_sha256(records: Iterable[RecordBase], rows_sha256: str = "") -> str:
    """SHA-256 of the records' canonical JSON and, when there are result tables, of their
    rows (`ResultRows.sha256`): an edit of a rows file makes another release."""
    digest = hashlib.sha256(canonical_json(records))
    if rows_sha256:
        digest.update(rows_sha256.encode("ascii"))
    return digest.hexdigest()


def build_date(
    release_date: str | date | None = None, environ: Mapping[str, str] | None = None
) -> date:
    """The build date: `release_date` (YYYY-MM-DD), else `SOURCE_DATE_EPOCH` (seconds
    since 1970, UTC), else today in UTC."""
    if isinstance(release_date, date):
        return release_date
    if release_date is not None:
        try:
            return date.fromisoformat(release_date)
        except ValueError:
            raise ValueError(
                f"--release-date: {release_date!r} is not a date (YYYY-MM-DD)"
            ) from None
    env = os.environ if environ is None else environ
    epoch = env.get(SOURCE_DATE_EPOCH)
    if epoch:
        try:
            return datetime.fromtimestamp(int(epoch), UTC).date()
        except (ValueError, OverflowError, OSError):
            raise ValueError(
                f"{SOURCE_DATE_EPOCH}: {epoch!r} is not a number of seconds since 1970"
            ) from None
    return datetime.now(UTC).date()


def make_release(
    records: Iterable[RecordBase],
    release_date: str | date | None = None,
    environ: Mapping[str, str] | None = None,
    *,
    rows_sha256: str = "",
) -> Release:
    """The release of `records` (and of the result tables' rows whose digest is
    `rows_sha256`) built on `build_date(release_date, environ)`."""
    listed = list(records)
    digest = content_sha256(listed, rows_sha256)
    day = build_date(release_date, environ).isoformat()
    return Release(f"{day}-{digest[:12]}", day, digest, len(listed))


def preview_release(
    record_count: int,
    release_date: str | date | None = None,
    environ: Mapping[str, str] | None = None,
) -> Release:
    """The release of a preview (`rewire serve`, `rewire build --preview`): the build
    date and `PREVIEW_SUFFIX` instead of a content hash, so an edit changes only the
    pages whose inputs changed, and no page shows a release id the records do not have.
    """
    day = build_date(release_date, environ).isoformat()
    return Release(f"{day}-{PREVIEW_SUFFIX}", day, PREVIEW_CONTENT, record_count)


def is_preview(release_id: str) -> bool:
    """True for the release id of a preview."""
    return release_id.endswith("-" + PREVIEW_SUFFIX)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def manifest(site_dir: Path, exclude: Iterable[str] = ()) -> tuple[ManifestEntry, ...]:
    """Every file under `site_dir` (except the paths in `exclude`), sorted by path."""
    skip = set(exclude)
    entries = []
    for path in site_dir.rglob("*"):
        if not path.is_file():
            continue
        relative = path.relative_to(site_dir).as_posix()
        if relative in skip:
            continue
        entries.append(ManifestEntry(relative, sha256_file(path), path.stat().st_size))
    return tuple(sorted(entries, key=lambda e: e.path))


def hash_artifacts(catalogue: Catalogue, root: Path) -> dict[str, str | None]:
    """SHA-256 of every artifact file the evaluations record, hashed by the builder from
    the files under `root` (None when there is no such file, or the path leaves `root`).
    This is what `derive.readiness` needs to call checksums matched."""
    base = root.resolve()
    hashes: dict[str, str | None] = {}
    for evaluation in catalogue.of_kind(Evaluation):
        for artifact in evaluation.artifacts:
            if artifact.path in hashes:
                continue
            hashes[artifact.path] = hash_artifact(base, artifact.path)
    return hashes


def read_logs(
    catalogue: Catalogue,
    root: Path,
    hashes: Mapping[str, str | None],
    known: Mapping[str, LogFacts] | None = None,
) -> dict[str, LogFacts]:
    """SHA-256 -> the facts of each JSON artifact whose file hashes to the SHA-256 its
    record gives (`derive.logs.parse_log`; files that are not logs are left out). `known`:
    facts already read, by SHA-256 (a file of that hash is not read again)."""
    base = root.resolve()
    out: dict[str, LogFacts] = {}
    for evaluation in catalogue.of_kind(Evaluation):
        for artifact in evaluation.artifacts:
            computed = hashes.get(artifact.path)
            if computed is None or computed != artifact.sha256 or computed in out:
                continue
            if not artifact.path.endswith(".json"):
                continue
            if known is not None and computed in known:
                out[computed] = known[computed]
                continue
            try:
                data = (base / artifact.path).read_bytes()
                text = data.decode("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if hashlib.sha256(data).hexdigest() != computed:
                continue  # changed since it was hashed
            facts = parse_log(text)
            if facts is not None:
                out[computed] = facts
    return out


def hash_artifact(base: Path, relative: str) -> str | None:
    """SHA-256 of the file at `relative` under the resolved folder `base`; None when
    there is no such file or the path leaves `base`."""
    path = (base / relative).resolve()
    inside = path == base or base in path.parents
    return sha256_file(path) if inside and path.is_file() else None
