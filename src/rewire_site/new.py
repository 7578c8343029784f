"""`rewire new KIND`: write a record skeleton an editor completes.

The skeleton is introspected from the Pydantic model `RECORD_TYPES[kind]`:

- the first line is the schema modeline, then `id` and `kind`;
- every required field follows, written as `null` with a `# TODO (required)` comment
  giving its description (and allowed values). `null` is rejected by validation for every
  required field, so a skeleton that still holds a placeholder cannot pass `rewire validate`
  and cannot be committed by accident. Required nested objects (a protocol's `metric`,
  an evaluation's `comparison`) and required non-empty lists (`columns`, `results`) are
  expanded one level with the same rule;
- every reportable field (json_schema_extra "reportable") is prompted for: a value, or a
  missing-metadata reason (unreported, inapplicable, withheld, unknown) and a note. An
  unanswered prompt (and every prompt under `--defaults`) leaves the field `null` with a
  `# TODO (reportable)` comment and no reason, which the completeness rule rejects.

Existing files are never overwritten, and a failed write leaves nothing: the text goes to a
temporary file in the target folder, which is then linked to its name (no partial or
empty record after a full disk). Every failure is one line naming the path, not a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import sys
import tempfile
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import Enum
from pathlib import Path
from typing import Any, Literal

import typer
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from .config import RECORDS_DIR, SCHEMAS_DIR, find_root, project_root
from .models import RECORD_TYPES, RecordBase
from .models.common import REPORTABLE, MissingReason, id_problem

REASONS = tuple(reason.value for reason in MissingReason)
COMMON_FIRST = ("title", "summary")
"""Required common fields written first, in this order, after id and kind."""

CONDITIONAL: dict[str, dict[str, str]] = {
    "Result": {
        "value": "required when status is value",
        "printed_value": "required for a published result",
    },
}
"""Optional fields a model validator requires in the common case: written as TODOs too."""

EXPANDED: dict[str, frozenset[str]] = {
    "Evaluation": frozenset({"run_conditions"}),
    "Result": frozenset({"citation"}),
}
"""Optional parts that published evidence needs, written out field by field (a result's
citation; an evaluation's run conditions, each a reportable field with its reason)."""

ONE_ITEM: frozenset[str] = frozenset({"citations", "results"})
"""Optional lists written with one item to fill (a record's citations, an evaluation's
results), except in the kinds below."""
ONE_ITEM_EXCEPT: frozenset[str] = frozenset({"source", "question"})
"""Kinds whose citations list starts empty (a source is what others cite)."""

STATED = ("value", "citation.source", "citation.locator")
"""Placeholders of one conflicting value (see `MissingReason.conflicting`)."""

Ask = Callable[[str], str]
"""Prompt function: question -> answer ('' when the editor gives none)."""


class RecordExists(Exception):
    """The target file exists; `rewire new` never overwrites."""


class CannotWrite(Exception):
    """The record could not be written (the folder is a file, read-only or full): the
    message names the path and the reason; nothing was left behind."""


@dataclass
class Answer:
    """What the editor said about one reportable field."""

    value: str | None = None
    reason: str | None = None
    note: str | None = None


@dataclass
class Skeleton:
    """The text of a new record and the answers that shaped it."""

    kind: str
    record_id: str
    text: str
    missing: dict[str, Answer] = field(default_factory=dict)
    todo: list[str] = field(default_factory=list)
    """Field paths left as placeholders."""


def modeline(kind: str, schemas: str = f"../{SCHEMAS_DIR}") -> str:
    """The first line of a record: its kind's JSON Schema, relative to the record's folder."""
    return f"# yaml-language-server: $schema={schemas}/{kind}.schema.json"


def schemas_from(out_dir: Path, root: Path) -> str:
    """`root/schemas` relative to `out_dir` (`../schemas` for `records/`)."""
    return Path(os.path.relpath(root.resolve() / SCHEMAS_DIR, out_dir.resolve())).as_posix()


def schemas_for(out_dir: Path) -> str:
    """The schemas folder of the project that holds `out_dir`, relative to it; the
    conventional `../schemas` when `out_dir` lies in no project."""
    root = project_root(out_dir)
    return f"../{SCHEMAS_DIR}" if root is None else schemas_from(out_dir, root)


def bad_id(record_id: str, what: str = "id") -> str | None:
    """One line saying why `record_id` breaks the id rule (`id_problem`), or None; a long
    id is shown shortened. `what` names it (`id`, `run id`)."""
    problem = id_problem(record_id)
    if problem is None:
        return None
    shown = record_id if len(record_id) <= 60 else record_id[:60] + "..."
    return f"{what} {shown!r}: {problem}"


def default_id(kind: str) -> str:
    return "new-" + kind.replace("_", "-")


def _strip(annotation: Any) -> tuple[Any, bool]:
    """(annotation without Annotated/Optional wrappers, whether None is allowed)."""
    optional = False
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            optional = optional or len(args) < len(typing.get_args(annotation))
            if len(args) != 1:
                return annotation, optional
            annotation = args[0]
        else:
            return annotation, optional


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _is_reportable(info: FieldInfo) -> bool:
    extra = info.json_schema_extra
    return isinstance(extra, dict) and bool(extra.get(REPORTABLE))


def _min_length(info: FieldInfo) -> int:
    for meta in info.metadata:
        value = getattr(meta, "min_length", None)
        if isinstance(value, int):
            return value
    return 0


def _choices(annotation: Any) -> list[str]:
    """Allowed values of a Literal or Enum annotation, else []."""
    if typing.get_origin(annotation) is Literal:
        return [str(a) for a in typing.get_args(annotation)]
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return [str(m.value) for m in annotation]
    return []


def _type_hint(annotation: Any) -> str:
    choices = _choices(annotation)
    if choices:
        return "one of " + ", ".join(choices)
    if typing.get_origin(annotation) is list:
        return "a list"
    if typing.get_origin(annotation) is dict:
        return "a mapping"
    if _is_model(annotation):
        keys = ", ".join(annotation.model_fields)
        return f"a mapping with {keys}"
    names = {
        str: "text",
        int: "an integer",
        float: "a number",
        bool: "true or false",
        date: "a date YYYY-MM-DD",
        datetime: "a UTC time YYYY-MM-DDTHH:MM:SSZ",
    }
    return names.get(annotation, "a value")


def _comment(text: str | None) -> str:
    return " ".join((text or "").split())


def _default_yaml(value: Any) -> str:
    """YAML for a field's default value."""
    if value is None:
        return "null"
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, str) and re.fullmatch(r"[a-z_]+", value):
        return value  # an enum member or a literal: plain, as editors write it
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict) and not value:
        return "[]" if isinstance(value, list) else "{}"
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value, ensure_ascii=False, default=str)


def _item_model(annotation: Any) -> type[BaseModel] | None:
    """The model of a list's items, else None."""
    if typing.get_origin(annotation) is not list:
        return None
    (item,) = typing.get_args(annotation) or (Any,)
    item, _ = _strip(item)
    return item if _is_model(item) else None


def _scalar(raw: str, annotation: Any) -> str:
    """YAML for an editor's answer: text stays text (quoted), other types as typed."""
    if annotation in (int, float, bool, date, datetime):
        return raw
    return json.dumps(raw, ensure_ascii=False)


class _Writer:
    def __init__(self, ask: Ask | None, kind: str = "") -> None:
        self.ask = ask
        self.kind = kind
        self.lines: list[str] = []
        self.missing: dict[str, Answer] = {}
        self.todo: list[str] = []

    def required(self, indent: str, name: str, info: FieldInfo, path: str, lead: str) -> None:
        annotation, _ = _strip(info.annotation)
        hint = f"# TODO (required): {_comment(info.description)} ({_type_hint(annotation)})"
        if _is_model(annotation):
            self.lines.append(f"{lead}{name}:")
            self.model(indent + "  ", annotation, path + ".")
            return
        if typing.get_origin(annotation) is list:
            (item,) = typing.get_args(annotation) or (Any,)
            item, _ = _strip(item)
            self.lines.append(f"{lead}{name}:  {hint}")
            if _is_model(item):
                self.model(indent + "    ", item, f"{path}.0.", first_lead=indent + "  - ")
            else:
                self.lines.append(f"{indent}  - null  # TODO (required): {_type_hint(item)}")
                self.todo.append(f"{path}.0")
            return
        self.lines.append(f"{lead}{name}: null  {hint}")
        self.todo.append(path)

    def optional(
        self, indent: str, name: str, info: FieldInfo, path: str, lead: str, owner: str
    ) -> None:
        """An optional field: written with its default and what it is for, so that the
        editor sees every field; parts that published evidence needs are written out."""
        annotation, _ = _strip(info.annotation)
        comment = f"# optional: {_comment(info.description)}"
        item = _item_model(annotation)
        if _is_model(annotation) and name in EXPANDED.get(owner, ()):
            self.lines.append(f"{lead}{name}:  {comment}")
            self.model(indent + "  ", annotation, path + ".")
        elif item is not None and name in ONE_ITEM and self.kind not in ONE_ITEM_EXCEPT:
            self.lines.append(f"{lead}{name}:  {comment} (one item to fill; add more)")
            self.model(indent + "    ", item, f"{path}.0.", first_lead=indent + "  - ")
        elif item is not None:
            self.lines.append(f"{lead}{name}: []  {comment}")
            self.example(indent, item)
        else:
            value = _default_yaml(info.get_default(call_default_factory=True))
            self.lines.append(f"{lead}{name}: {value}  {comment} ({_type_hint(annotation)})")

    def example(self, indent: str, item: type[BaseModel]) -> None:
        """A commented-out item of a list: each of its fields and what it takes."""
        first = True
        for name, info in item.model_fields.items():
            annotation, _ = _strip(info.annotation)
            need = "required" if info.is_required() else "optional"
            lead = f"{indent}#   - " if first else f"{indent}#     "
            self.lines.append(
                f"{lead}{name}:  # {need}: {_comment(info.description)} ({_type_hint(annotation)})"
            )
            first = False

    def reportable(self, indent: str, name: str, info: FieldInfo, path: str, lead: str) -> None:
        annotation, _ = _strip(info.annotation)
        answer = self._prompt(path, info, annotation)
        if answer.value is not None:
            self.lines.append(f"{lead}{name}: {_scalar(answer.value, annotation)}")
            return
        if answer.reason is not None:
            self.missing[path] = answer
            self.lines.append(f"{lead}{name}: null  # missing: {answer.reason} (missing_metadata)")
            return
        self.todo.append(path)
        self.lines.append(
            f"{lead}{name}: null  # TODO (reportable): {_comment(info.description)} "
            f"Give {_type_hint(annotation)}, or a reason under missing_metadata"
        )

    def _prompt(self, path: str, info: FieldInfo, annotation: Any) -> Answer:
        if self.ask is None:
            return Answer()
        structured = _is_model(annotation) or typing.get_origin(annotation) in (list, dict)
        options = "/".join(REASONS)
        if structured:
            question = (
                f"{path}: {_comment(info.description)}\n"
                f"  It takes {_type_hint(annotation)}: edit the file to fill it. "
                f"Reason it is missing ({options}), or Enter to fill it in later"
            )
        else:
            question = (
                f"{path}: {_comment(info.description)}\n"
                f"  Value ({_type_hint(annotation)}), or a reason it is missing ({options}), "
                "or Enter to fill it in later"
            )
        raw = self.ask(question).strip()
        if not raw:
            return Answer()
        if raw in REASONS:
            note = self.ask(f"  Note for {path} (what the source says instead, or why)").strip()
            return Answer(reason=raw, note=note or None)
        if structured:
            return Answer()
        return Answer(value=raw)

    def model(
        self, indent: str, model: type[BaseModel], prefix: str, first_lead: str | None = None
    ) -> None:
        order = [n for n in COMMON_FIRST if n in model.model_fields]
        if issubclass(model, RecordBase):  # the kind's own fields, then the common ones
            order += [n for n in model.model_fields if n not in RecordBase.model_fields]
        order += [n for n in model.model_fields if n not in order]
        first = True
        for name in order:
            if name in ("id", "kind", "missing_metadata") and prefix == "":
                continue
            info = model.model_fields[name]
            lead = first_lead if (first and first_lead) else indent
            if info.is_required():
                self.required(indent, name, info, prefix + name, lead)
            elif name in CONDITIONAL.get(model.__name__, ()):
                self.lines.append(
                    f"{lead}{name}: null  # TODO ({CONDITIONAL[model.__name__][name]}): "
                    f"{_comment(info.description)}"
                )
                self.todo.append(prefix + name)
            elif _is_reportable(info):
                self.reportable(indent, name, info, prefix + name, lead)
            else:
                self.optional(indent, name, info, prefix + name, lead, model.__name__)
            first = False


def skeleton(
    kind: str,
    record_id: str | None = None,
    ask: Ask | None = None,
    schemas: str = f"../{SCHEMAS_DIR}",
) -> Skeleton:
    """The skeleton text of a `kind` record. `ask` prompts for reportable fields;
    None (`--defaults`) leaves every one of them a placeholder."""
    if kind not in RECORD_TYPES:
        raise ValueError(f"unknown kind '{kind}': expected one of {', '.join(RECORD_TYPES)}")
    model = RECORD_TYPES[kind]
    rid = record_id or default_id(kind)
    problem = bad_id(rid)
    if problem is not None:
        raise ValueError(problem)
    writer = _Writer(ask, kind)
    writer.model("", model, "")
    lines = [modeline(kind, schemas), f"id: {rid}", f"kind: {kind}", *writer.lines]
    if writer.missing:
        lines.append("missing_metadata:")
        for path, answer in writer.missing.items():
            lines.append(f"  {path}:")
            lines.append(f"    reason: {answer.reason}")
            if answer.note:
                lines.append(f"    note: {json.dumps(answer.note, ensure_ascii=False)}")
            if answer.reason == MissingReason.conflicting.value:
                lines.append("    values:  # TODO (required): each stated value with its citation")
                for i in range(2):
                    writer.todo.extend(f"missing_metadata.{path}.values.{i}.{n}" for n in STATED)
                    lines += [
                        "      - value: null  # TODO (required): the value as a source states it",
                        "        citation:",
                        "          source: null  # TODO (required): id of that source",
                        "          locator: null  # TODO (required): where in that source",
                        "          quote: null  # the words that state it",
                    ]
    else:
        lines.append("missing_metadata: {}")
    lines.append("# Each reportable field left null needs an entry in missing_metadata, e.g.:")
    lines.append("#   comparison.budget:")
    lines.append(f"#     reason: unreported  # one of: {', '.join(REASONS)}")
    lines.append("#     note: What the source says instead, or why.")
    return Skeleton(kind, rid, "\n".join(lines) + "\n", writer.missing, writer.todo)


def _reason(error: OSError) -> str:
    """An OS error's reason in words (no Python names)."""
    if error.errno == errno.ENOSPC:
        return "no space left on the device"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if error.errno == errno.EROFS:
        return "the file system is read-only"
    return error.strerror or str(error)


def write_skeleton(out_dir: Path, sk: Skeleton) -> Path:
    """Write `sk` to `out_dir/<id>.yaml`; raises RecordExists rather than overwrite, and
    CannotWrite (leaving no file behind) when the folder cannot take it."""
    path = out_dir / f"{sk.record_id}.yaml"
    if out_dir.exists() and not out_dir.is_dir():
        raise CannotWrite(f"{out_dir}: is not a folder (--out names the folder to write into)")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CannotWrite(f"{out_dir}: cannot create the folder: {_reason(exc)}") from None
    if path.exists():
        raise RecordExists(f"{path}: already exists; rewire new never overwrites a record")
    try:
        handle, temporary = tempfile.mkstemp(dir=out_dir, prefix=".rewire-new-", suffix=".tmp")
    except OSError as exc:
        raise CannotWrite(f"{out_dir}: cannot write into the folder: {_reason(exc)}") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(sk.text)
            stream.flush()
            os.fsync(stream.fileno())
        _claim(Path(temporary), path)
    except FileExistsError:
        raise RecordExists(
            f"{path}: already exists; rewire new never overwrites a record"
        ) from None
    except OSError as exc:
        raise CannotWrite(f"{path}: cannot write the record: {_reason(exc)}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            Path(temporary).unlink()
    return path


def _claim(temporary: Path, path: Path) -> None:
    """Give the written `temporary` its name `path`, never replacing a file there: a hard
    link fails when the name is taken; where the file system has no hard links, a rename
    after a last look."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        if path.exists():
            raise FileExistsError(errno.EEXIST, "exists", str(path)) from None
        temporary.rename(path)


def _terminal_prompt() -> Ask:
    """Ask on the terminal; at the end of input (Ctrl-D, a closed pipe) stop asking:
    every later field stays a placeholder (no "Aborted.")."""
    ended = False

    def ask(question: str) -> str:
        nonlocal ended
        if ended:
            return ""
        if sys.stdin is None or sys.stdin.closed:  # standard input closed: nothing to read
            ended = True
            return ""
        try:
            return str(typer.prompt(question, default="", show_default=False))
        except (typer.Abort, OSError, ValueError):  # end of input, or unreadable
            ended = True
            typer.echo("", err=True)
            return ""

    return ask


def new_command(
    kind: str = typer.Argument(..., help=f"Record kind: {', '.join(RECORD_TYPES)}."),
    record_id: str | None = typer.Option(
        None, "--id", help="Record id (the file name); asked for when not given."
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Folder to write the record to. Default: records/ of the project."
    ),
    defaults: bool = typer.Option(
        False, "--defaults", help="Ask nothing: every reportable field stays a TODO placeholder."
    ),
    ask_always: bool = typer.Option(
        False,
        "--ask",
        help="Ask even when standard input is not a terminal (answers piped in, one a line).",
    ),
) -> None:
    """Write a record skeleton: schema modeline, every required field as a TODO placeholder
    (validation rejects it until filled), and prompts for reportable fields (only on a
    terminal, or with --ask)."""
    if kind not in RECORD_TYPES:
        typer.echo(
            f"error: unknown kind '{kind}': expected one of {', '.join(RECORD_TYPES)}", err=True
        )
        raise typer.Exit(2)
    if defaults and ask_always:
        typer.echo("error: --defaults asks nothing and --ask asks: give one of them", err=True)
        raise typer.Exit(2)
    if record_id is not None:
        _check_id(record_id)
    folder = out if out is not None else find_root() / RECORDS_DIR
    ask: Ask | None = None
    if ask_always or (not defaults and _terminal()):
        ask = _terminal_prompt()
        if record_id is None:
            record_id = ask(f"Record id (slug, default {default_id(kind)})") or None
    elif not defaults:
        typer.echo(
            "standard input is not a terminal: asking nothing (as --defaults; --ask asks "
            "anyway); every reportable field is a TODO placeholder",
            err=True,
        )
    try:
        sk = skeleton(kind, record_id, ask, schemas_for(folder))
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    try:
        path = write_skeleton(folder, sk)
    except (RecordExists, CannotWrite) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"wrote {path}: {len(sk.todo)} field(s) to fill in (marked TODO)")


def _terminal() -> bool:
    """Whether standard input is a terminal (False when it is closed)."""
    stdin = sys.stdin
    try:
        return stdin is not None and not stdin.closed and stdin.isatty()
    except (OSError, ValueError):
        return False


def _check_id(record_id: str) -> None:
    """Exit 2 with one line when `--id` breaks the id rule (before anything is asked)."""
    problem = bad_id(record_id)
    if problem is not None:
        typer.echo(f"error: --id: {problem}", err=True)
        raise typer.Exit(2)


__all__ = [
    "REASONS",
    "Answer",
    "CannotWrite",
    "RecordExists",
    "Skeleton",
    "default_id",
    "modeline",
    "new_command",
    "schemas_for",
    "schemas_from",
    "skeleton",
    "write_skeleton",
]
