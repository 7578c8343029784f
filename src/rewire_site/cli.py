"""The `rewire` command line. Each command is a thin wrapper over a plain function.

Ownership: every command keeps to its own function; heavy imports (torch, deepspeed)
happen only inside `rewire measure ...`, in `measure.cli`.
"""

from __future__ import annotations

import importlib
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from typer.core import TyperGroup

from . import __version__

if TYPE_CHECKING:  # the click that Typer uses (recent Typer carries its own copy)
    from typer import _click as click

_LAZY_COMMANDS: dict[str, tuple[str, str, str | None]] = {
    "new": ("rewire_site.new", "new_command", None),
    "serve": ("rewire_site.serve", "serve_command", None),
    "measure": ("measure.cli", "app", "Reproduce GPU protocols and record results."),
}
"""Commands whose modules are imported only when the command runs or help lists it:
name -> (module, its command function or Typer app, group help). `rewire validate`
does not pay for the preview server's or measure/'s imports (about 70 ms)."""
_FIRST = ("new", "serve")
"""Lazy commands listed before the others (the order `rewire --help` shows)."""


class _LazyGroup(TyperGroup):
    """The `rewire` group: the commands of `_LAZY_COMMANDS` are built on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = [*_FIRST, *super().list_commands(ctx), *_LAZY_COMMANDS]
        return [name for name in dict.fromkeys(names) if self.get_command(ctx, name)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in _LAZY_COMMANDS:
            command = _lazy_command(cmd_name)
            if command is not None:
                self.commands[cmd_name] = command
        return super().get_command(ctx, cmd_name)


def _lazy_command(name: str) -> click.Command | None:
    """The click command of a lazy command, built as Typer builds a registered one; None
    when its module is absent (measure/ is part of the distribution, but a copy of
    rewire_site alone still runs)."""
    module_name, attribute, group_help = _LAZY_COMMANDS[name]
    try:
        target = getattr(importlib.import_module(module_name), attribute)
    except ImportError:  # pragma: no cover - measure/ ships with rewire_site
        return None
    holder = typer.Typer(add_completion=False)
    holder.callback()(_main)  # a group, so that the command keeps its name
    if isinstance(target, typer.Typer):
        holder.add_typer(target, name=name, help=group_help)
    else:
        holder.command(name)(target)
    group = typer.main.get_command(holder)
    assert isinstance(group, TyperGroup)
    return group.commands[name]


app = typer.Typer(
    name="rewire",
    help="Rewire: evidence records for genomic foundation models, and the site built from them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=_LazyGroup,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rewire {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Rewire command line."""


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


@app.command()
def validate(
    paths: list[Path] | None = typer.Argument(
        None, help="Record files or folders (searched for *.yaml). Default: records/."
    ),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too."),
    output_format: OutputFormat = typer.Option(
        OutputFormat.text, "--format", help="text: path:line: field: message; json."
    ),
    root: Path | None = typer.Option(
        None, "--root", help="Project root (references and artifacts resolve here)."
    ),
    no_cache: bool = typer.Option(
        False, "--no-cache", help="Parse every file again (ignore .rewire-cache/)."
    ),
) -> None:
    """Check record files: YAML, schema, ids, references, missing-metadata reasons."""
    from .config import RECORDS_DIR, project_root, resolve_root
    from .validate import exit_code, render, validate_paths

    if root is None and paths:  # files named from outside: the project that holds them
        root = project_root() or project_root(paths[0].resolve().parent)
    project = resolve_root(root)
    report = validate_paths(paths or [project / RECORDS_DIR], project, cache=not no_cache)
    typer.echo(render(report, output_format.value))
    _finished.append("validate")
    raise typer.Exit(exit_code(report, strict))


@app.command()
def schema(
    check: bool = typer.Option(False, "--check", help="Exit 1 when schemas/ is stale."),
    root: Path | None = typer.Option(None, "--root", help="Project root."),
) -> None:
    """Write one JSON Schema per record kind into schemas/ (for editors and CI)."""
    from .config import resolve_root
    from .schema import check_schemas, write_schemas

    project = resolve_root(root)
    if check:
        stale = check_schemas(project)
        for line in stale:
            typer.echo(line)
        typer.echo("schemas/ is stale: run `rewire schema`" if stale else "schemas/ is up to date")
        raise typer.Exit(1 if stale else 0)
    for path in write_schemas(project):
        typer.echo(f"wrote {path}")


@app.command()
def build(
    records: Path | None = typer.Option(
        None, "--records", help="Folder of record files. Default: records/ of the project."
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Folder to write the site into (replaced atomically). Default: site/"
    ),
    release_date: str | None = typer.Option(
        None,
        "--release-date",
        help="Release date YYYY-MM-DD. Default: SOURCE_DATE_EPOCH, else today (UTC).",
    ),
    workers: int | None = typer.Option(
        None, "--workers", min=1, help="Render processes. Default: the CPUs available, at most 4."
    ),
    root: Path | None = typer.Option(None, "--root", help="Project root."),
    preview: bool = typer.Option(
        False,
        "--preview",
        help="A preview of unreleased records (what `rewire serve` shows): the release id "
        "is the date and 'preview', not a content hash.",
    ),
    allow_empty: bool = typer.Option(
        False,
        "--allow-empty",
        help="Build even from zero records (otherwise refused: it would replace the site "
        "with an empty one).",
    ),
) -> None:
    """Build the static site from the records: pages, search, downloads, JSON API."""
    from .build import build_command
    from .config import project_root, resolve_root

    if root is None and records is not None:  # the records named: their project, if any
        root = project_root() or project_root(records) or records.resolve().parent
    raise typer.Exit(
        build_command(resolve_root(root), records, out, release_date, workers, preview, allow_empty)
    )


@app.command("cross-source")
def cross_source_command(
    root: Path | None = typer.Option(None, "--root", help="Project root."),
) -> None:
    """Print every disagreement between sources larger than the stated spread, every
    conflict within a source, the values per source and each source's labels that reach
    no pinned checkpoint or task, with why."""
    from .build import gather
    from .config import RECORDS_DIR, resolve_root
    from .render.closing_note import closing_note

    project = resolve_root(root)
    for line in closing_note(gather(project / RECORDS_DIR, project).catalogue):
        typer.echo(line)


@app.command("import")
def import_command(
    source: str = typer.Argument(
        ...,
        help="Source to import: feng-2024, tang-koo-2024, genomic-benchmarks, dgeb, "
        "lingodnabench, evo2-gene-completion, lindsey-2025, dnallm-mark.",
    ),
    git_dir: Path | None = typer.Option(
        None, "--git-dir", help="A clone (or bare git directory) of the source repository."
    ),
    folder: Path | None = typer.Option(
        None, "--from", help="A folder holding the downloaded files at their repository paths."
    ),
    commit: str | None = typer.Option(
        None, "--commit", help="Full 40-hex commit to read (default: the importer's pinned one)."
    ),
    check: bool = typer.Option(False, "--check", help="Report what would change; write nothing."),
    root: Path | None = typer.Option(None, "--root", help="Project root."),
) -> None:
    """Turn a public result table at a pinned commit into records (see README)."""
    from .config import find_root
    from .importers import ImportProblem, run_import

    try:
        report = run_import(
            source, root or find_root(), git_dir=git_dir, folder=folder, commit=commit, check=check
        )
    except ImportProblem as problem:
        typer.echo(f"rewire import: {problem}", err=True)
        raise typer.Exit(1) from None
    typer.echo("\n".join(report.lines()))


_finished: list[str] = []
"""Commands that finished with everything written and nothing left to clean up: the
console script then ends the process without freeing each object first (see `main`)."""


def main() -> None:
    """The console script: a command run outside a project says so plainly (exit 2).

    After `rewire validate` the process ends at once (`os._exit`, output flushed):
    freeing the 10,000 records of a large catalogue one by one takes 0.1 s, longer
    than printing the report."""
    from .config import NotInProject

    _finished.clear()  # only a command run by this call ends the process early
    try:
        app()
    except NotInProject as error:
        typer.echo(f"error: {error}", err=True)
        raise SystemExit(2) from None
    except SystemExit as done:
        if _finished and (done.code is None or isinstance(done.code, int)):
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(done.code or 0)
        raise


if __name__ == "__main__":  # pragma: no cover
    main()


__all__ = ["Path", "app", "main"]
