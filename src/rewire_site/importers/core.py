"""The importer core: pinned source files in, deterministic record files out.

An importer (one module per public source format) reads the files of one repository at
one commit and returns plain record dictionaries. This module does the rest, the same for
every source:

- `SourceFiles`: the bytes of each file read, with its path, commit, SHA-256 and size,
  taken from a bare git directory (`git show COMMIT:PATH`) or from a folder holding the
  downloaded files at their repository paths.
- `dump_record`: one record as YAML text, byte for byte the same for the same input.
- `write_records`: writes the records beside a manifest (artifacts/sources/<prefix>/
  manifest.json) that keeps the SHA-256 of every file the importer wrote. A record file
  whose bytes no longer match the manifest was edited by hand: the import stops and names
  it, and writes nothing. Re-importing the same commit changes nothing; a new commit adds
  a new source record (source ids carry the file's hash) and the report says which
  records changed, which were added and which evaluations the new file no longer holds.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from ..config import ARTIFACTS_DIR, RECORDS_DIR

Record = dict[str, Any]
"""One record as plain data (what its YAML file holds)."""

MANIFEST_NAME = "manifest.json"
COMMIT_PATTERN = re.compile(r"^[0-9a-f]{40}$")


class ImportProblem(Exception):
    """An import that cannot go on; the message names the file and what to do."""


@dataclass(frozen=True)
class SourceFile:
    """One file of a repository at a commit, with its real bytes."""

    path: str
    commit: str
    data: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def size(self) -> int:
        return len(self.data)

    def text(self) -> str:
        try:
            return self.data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ImportProblem(f"{self.path}: not UTF-8 text ({error})") from None

    def lines(self) -> list[str]:
        return list(self._lines)

    @cached_property
    def _lines(self) -> tuple[str, ...]:
        return tuple(self.text().splitlines())

    def line(self, number: int) -> str:
        """Line `number` (1-based), stripped: the verbatim text a citation quotes."""
        lines = self._lines
        if not 1 <= number <= len(lines):
            raise ImportProblem(f"{self.path}: has no line {number} (it has {len(lines)})")
        return lines[number - 1].strip()

    def quote(self, first: int, last: int) -> str:
        """Lines first..last (1-based, inclusive) joined by single spaces, stripped."""
        return " ".join(self.line(n) for n in range(first, last + 1) if self.line(n))


@dataclass(frozen=True)
class SourceFiles:
    """The files an importer reads, all at one commit."""

    commit: str
    files: Mapping[str, SourceFile]

    def __getitem__(self, path: str) -> SourceFile:
        try:
            return self.files[path]
        except KeyError:
            raise ImportProblem(f"{path}: not among the files read at {self.commit}") from None

    def get(self, path: str) -> SourceFile | None:
        return self.files.get(path)

    def __contains__(self, path: object) -> bool:
        return path in self.files

    @classmethod
    def from_git(cls, git_dir: Path, commit: str, paths: Iterable[str]) -> SourceFiles:
        """Read each path at `commit` from a (bare) git directory."""
        _check_commit(commit)
        files: dict[str, SourceFile] = {}
        for path in paths:
            done = subprocess.run(
                ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                capture_output=True,
                check=False,
            )
            if done.returncode != 0:
                message = done.stderr.decode("utf-8", "replace").strip()
                raise ImportProblem(f"{git_dir}: cannot read {path} at {commit}: {message}")
            files[path] = SourceFile(path, commit, done.stdout)
        return cls(commit, files)

    @classmethod
    def from_folder(
        cls, folder: Path, commit: str, paths: Iterable[str], *, required: Iterable[str] = ()
    ) -> SourceFiles:
        """Read each path under `folder` (the downloaded files at their repository paths);
        a path in `required` that is absent is an error, others are skipped."""
        _check_commit(commit)
        needed = set(required)
        files: dict[str, SourceFile] = {}
        for path in paths:
            file = folder / path
            if not file.is_file():
                if path in needed:
                    raise ImportProblem(f"{file}: missing (download {path} at {commit})")
                continue
            files[path] = SourceFile(path, commit, file.read_bytes())
        return cls(commit, files)


def _check_commit(commit: str) -> None:
    if not COMMIT_PATTERN.match(commit):
        raise ImportProblem(
            f"commit {commit!r}: give the full 40-hex commit (git rev-parse BRANCH), "
            "never a branch name or an abbreviated hash"
        )


@dataclass(frozen=True)
class TableSpec:
    """The shape of one result table an importer reads: checked before anything is built,
    written or deleted (a download with another header, or without rows, is refused
    instead of turning into an import that removes the records)."""

    path: str
    columns: tuple[str, ...]
    """The headings the importer reads, left to right."""
    exact: bool = False
    """True when the header must be exactly `columns` (rows are read by position)."""
    heading: str | None = None
    """Markdown: the heading line above the pipe table; None for a CSV file."""
    min_rows: int = 1
    required: bool = True
    """False for a table the import skips when it is absent (checked when present)."""
    check: Callable[[SourceFile], None] | None = None
    """A file the CSV and Markdown readers do not read (JSON, a spreadsheet): the
    importer's own check of its shape, raising ImportProblem; `columns` then names the
    keys or headings it reads (for the reader of this spec)."""


@dataclass(frozen=True)
class Importer:
    """One public source format: where its files are and how to turn them into records."""

    prefix: str
    """Id prefix of every record it writes, e.g. 'feng-2024'."""
    title: str
    repository: str
    """Repository URL, e.g. https://github.com/ChongWuLab/dna_foundation_benchmark."""
    commit: str
    """The pinned commit the committed records come from."""
    paths: tuple[str, ...]
    """Every file read (result tables and the documentation cited)."""
    required: tuple[str, ...]
    """The result tables: an import without them is an error."""
    redistributable: bool
    """True when the licence allows committing the files under artifacts/sources/."""
    build: Callable[[SourceFiles], list[Record]]
    tables: tuple[TableSpec, ...]
    """Every result table with its expected shape (see `shape.check_shape`)."""


# --- ids and text -------------------------------------------------------------------------

_SLUG_DROP = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    """A record-id slug: lowercase letters and digits joined by single hyphens."""
    value = _SLUG_DROP.sub("-", text.lower().replace(".", "-")).strip("-")
    if not value:
        raise ImportProblem(f"{text!r}: gives an empty id part")
    return value


def source_id(prefix: str, file: SourceFile) -> str:
    """The source record of one file: the path and the first 12 hex digits of its SHA-256,
    so a changed file at a new commit is a new source."""
    return f"{prefix}-source-{slug(file.path)}-{file.sha256[:12]}"


def github_urls(repository: str, file: SourceFile) -> tuple[str, str]:
    """(page URL, raw download URL) of a file at its commit."""
    url = f"{repository}/blob/{file.commit}/{file.path}"
    owner_name = repository.removeprefix("https://github.com/")
    raw = f"https://raw.githubusercontent.com/{owner_name}/{file.commit}/{file.path}"
    return url, raw


def missing(reason: str, note: str) -> dict[str, str]:
    return {"reason": reason, "note": note}


def cite(
    source: str, locator: str, quote: str | None = None, *, supports: list[str] | None = None
) -> Record:
    citation: Record = {"source": source, "locator": locator}
    if quote is not None:
        citation["quote"] = quote
    if supports:
        citation["supports"] = supports
    return citation


def line_citation(
    prefix: str, file: SourceFile, first: int, last: int | None = None, **kwargs: Any
) -> Record:
    """A citation of lines of a repository file, quoting them verbatim."""
    end = last or first
    where = f"line {first}" if end == first else f"lines {first}-{end}"
    return cite(source_id(prefix, file), f"{file.path}, {where}", file.quote(first, end), **kwargs)


def find_line(file: SourceFile, needle: str) -> int:
    """The 1-based number of the first line holding `needle`; an error when none does
    (a citation never points at a line that does not say what it claims)."""
    for number, text in enumerate(file._lines, start=1):
        if needle in text:
            return number
    raise ImportProblem(f"{file.path}: no line holds {needle!r} at {file.commit}")


# --- YAML output ------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """Block style, keys in the order given, long text folded at the default width."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _str)


def dump_record(record: Record, schema_kind: str, *, depth: int = 0) -> str:
    """The YAML text of a record; the same record gives the same bytes. `depth`: how many
    folders below records/ the file lies (a result table's YAML is in records/tables/)."""
    up = "../" * (depth + 1)
    header = (
        f"# yaml-language-server: $schema={up}schemas/{schema_kind}.schema.json\n"
        "# Written by `rewire import`: change the importer, not this file (see README).\n"
    )
    body = yaml.dump(
        record,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=88,
        default_flow_style=False,
    )
    return header + body


_SCHEMA_KIND = {
    "source": "source",
    "dataset": "dataset",
    "protocol": "protocol",
    "model_family": "model_family",
    "configuration": "configuration",
    "evaluation": "evaluation",
    "result_table": "result_table",
}

TABLES_FOLDER = "tables"
"""Result tables live in records/tables/: <id>.yaml (the specification) beside its CSV."""
ROWS_TEXT = "__rows_csv__"
"""Key of a result_table record dict holding its CSV text (the rows): taken out of the
record and written as the sibling file the record's `rows` names."""


def render_records(records: Iterable[Record]) -> dict[str, str]:
    """file key -> text; two records with one id are an error.

    The key of an ordinary record is its id (written as records/<id>.yaml); a result
    table gives two keys, paths under records/: `tables/<id>.yaml` and `tables/<rows>`
    (its CSV, from the record's ROWS_TEXT entry)."""
    out: dict[str, str] = {}
    ids: set[str] = set()
    for record in records:
        record_id = record["id"]
        if record_id in ids:
            raise ImportProblem(f"{record_id}: the importer made two records with this id")
        ids.add(record_id)
        if record["kind"] == "result_table":
            spec = {k: v for k, v in record.items() if k != ROWS_TEXT}
            rows = record.get(ROWS_TEXT)
            if not isinstance(rows, str):
                raise ImportProblem(f"{record_id}: a result table without its rows (CSV text)")
            out[f"{TABLES_FOLDER}/{record_id}.yaml"] = dump_record(spec, "result_table", depth=1)
            out[f"{TABLES_FOLDER}/{spec['rows']}"] = rows
        else:
            out[record_id] = dump_record(record, _SCHEMA_KIND[record["kind"]])
    return dict(sorted(out.items()))


def record_file(records_dir: Path, key: str) -> Path:
    """The file of a rendered key: records/<id>.yaml for a record id, records/<key> for a
    path (a result table's YAML or CSV under records/tables/)."""
    if "/" in key:
        return records_dir / key
    return records_dir / f"{key}.yaml"


# --- writing, manifest and change report -------------------------------------------------


@dataclass
class ImportReport:
    """What an import did (or would do, with check=True)."""

    prefix: str
    commit: str
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept_sources: list[str] = field(default_factory=list)
    cell_changes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [
            f"{self.prefix} at {self.commit}: {len(self.added)} added, "
            f"{len(self.changed)} changed, {len(self.unchanged)} unchanged, "
            f"{len(self.removed)} removed"
        ]
        out += _some("added", self.added)
        out += _some("changed", self.changed)
        out += [f"  removed {r} (no longer in the source file)" for r in self.removed]
        out += [f"  kept {r} (the earlier version of a changed file)" for r in self.kept_sources]
        out += [f"  cell {c}" for c in self.cell_changes]
        return out


def _some(verb: str, ids: list[str], limit: int = 20) -> list[str]:
    """At most `limit` ids, then how many more."""
    lines = [f"  {verb} {r}" for r in ids[:limit]]
    if len(ids) > limit:
        lines.append(f"  {verb} ... and {len(ids) - limit} more")
    return lines


def manifest_path(root: Path, prefix: str) -> Path:
    return root / ARTIFACTS_DIR / "sources" / prefix / MANIFEST_NAME


def read_manifest(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {"records": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ImportProblem(f"{path}: not valid JSON ({error})") from None
    if not isinstance(data, dict) or not isinstance(data.get("records"), dict):
        raise ImportProblem(f"{path}: has no 'records' object")
    return data


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_records(
    root: Path,
    importer: Importer,
    files: SourceFiles,
    rendered: Mapping[str, str],
    *,
    check: bool = False,
) -> ImportReport:
    """Write `rendered` (record id -> YAML) under records/ and update the manifest.

    Stops before writing anything when a record file the importer wrote earlier was
    edited by hand, or when a file the importer would write exists and was not written
    by it. check=True reports without writing."""
    records_dir = root / RECORDS_DIR
    mpath = manifest_path(root, importer.prefix)
    manifest = read_manifest(mpath)
    written: dict[str, str] = dict(manifest["records"])
    report = ImportReport(importer.prefix, files.commit)

    edited: list[str] = []
    for record_id in sorted(set(rendered) | set(written)):
        file = record_file(records_dir, record_id)
        if not file.is_file():
            continue
        current = sha256_text(file.read_text(encoding="utf-8"))
        if record_id in rendered and current == sha256_text(rendered[record_id]):
            continue
        if written.get(record_id) != current:
            edited.append(str(file.relative_to(root)))
    if edited:
        raise ImportProblem(
            "these record files were changed after `rewire import` wrote them (or were "
            "not written by it); the import stops so that no hand edit is lost: "
            + ", ".join(edited)
            + ". Move the change into the importer (src/rewire_site/importers/), or "
            "delete the file to let the importer write it again."
        )

    old_sources = {r for r in written if r.startswith(f"{importer.prefix}-source-")}
    for record_id, text in rendered.items():
        file = record_file(records_dir, record_id)
        if not file.is_file():
            report.added.append(record_id)
        elif file.read_text(encoding="utf-8") == text:
            report.unchanged.append(record_id)
        else:
            report.changed.append(record_id)
            report.cell_changes += _quote_changes(record_id, file.read_text("utf-8"), text)
    for record_id in sorted(set(written) - set(rendered)):
        if record_id in old_sources:
            report.kept_sources.append(record_id)
        else:
            report.removed.append(record_id)
    if check:
        return report

    records_dir.mkdir(parents=True, exist_ok=True)
    for record_id in report.added + report.changed:
        file = record_file(records_dir, record_id)
        file.parent.mkdir(parents=True, exist_ok=True)
        with file.open("w", encoding="utf-8", newline="\n") as out:
            out.write(rendered[record_id])
    for record_id in report.removed:
        record_file(records_dir, record_id).unlink(missing_ok=True)
    kept = {r: written[r] for r in report.kept_sources}
    new_manifest = {
        "importer": importer.prefix,
        "repository": importer.repository,
        "commit": files.commit,
        "files": {
            path: {"sha256": f.sha256, "size": f.size} for path, f in sorted(files.files.items())
        },
        "records": dict(
            sorted({**kept, **{r: sha256_text(t) for r, t in rendered.items()}}.items())
        ),
    }
    mpath.parent.mkdir(parents=True, exist_ok=True)
    if importer.redistributable:
        for path, source_file in files.files.items():
            copy = mpath.parent / "files" / path
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(source_file.data)
    mpath.write_text(json.dumps(new_manifest, indent=1, sort_keys=False) + "\n", "utf-8")
    return report


_QUOTE_LINE = re.compile(r"^\s+quote: (.*)$")


def _quote_changes(record_id: str, old: str, new: str) -> list[str]:
    """'<id>: <old quote> -> <new quote>' for an evaluation whose cell changed."""
    if "-eval-" not in record_id:
        return []
    before = [m.group(1) for line in old.splitlines() if (m := _QUOTE_LINE.match(line))]
    after = [m.group(1) for line in new.splitlines() if (m := _QUOTE_LINE.match(line))]
    if before[:1] == after[:1]:
        return []
    return [f"{record_id}: {before[0] if before else '?'} -> {after[0] if after else '?'}"]


def sentence_citation(prefix: str, file: SourceFile, needle: str, **kwargs: Any) -> Record:
    """A citation of the sentence holding `needle` (verbatim, from the line that holds it),
    located by its line number: a long README paragraph is quoted one sentence at a time."""
    number = find_line(file, needle)
    text = file.line(number)
    start = text.find(needle)
    left = max(text.rfind(". ", 0, start), -1)
    left = 0 if left < 0 else left + 2
    right = text.find(". ", start + len(needle))
    right = len(text) if right < 0 else right + 1
    quote = text[left:right].strip()
    return cite(source_id(prefix, file), f"{file.path}, line {number}", quote, **kwargs)
