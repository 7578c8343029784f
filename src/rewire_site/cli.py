"""The `rewire` command line. Each command is a thin wrapper over a plain function.

Ownership: every command keeps to its own function; heavy imports (torch, deepspeed)
happen only inside `rewire measure ...`, in `measure.cli`.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from . import __version__

app = typer.Typer(
    name="rewire",
    help="Rewire: evidence records for genomic foundation models, and the site built from them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
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


def _register_editor_commands() -> None:
    """`rewire new` (record skeleton) and `rewire serve` (local preview)."""
    from .new import new_command
    from .serve import serve_command

    app.command("new")(new_command)
    app.command("serve")(serve_command)


_register_editor_commands()


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


@app.command()
def validate(
    paths: list[Path] | None = typer.Argument(  # noqa: B008
        None, help="Record files or folders (searched for *.yaml). Default: records/."
    ),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too."),
    output_format: OutputFormat = typer.Option(  # noqa: B008
        OutputFormat.text, "--format", help="text: path:line: field: message; json."
    ),
    root: Path | None = typer.Option(  # noqa: B008
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
    raise typer.Exit(exit_code(report, strict))


@app.command()
def schema(
    check: bool = typer.Option(False, "--check", help="Exit 1 when schemas/ is stale."),
    root: Path | None = typer.Option(None, "--root", help="Project root."),  # noqa: B008
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
    records: Path | None = typer.Option(  # noqa: B008
        None, "--records", help="Folder of record files. Default: records/ of the project."
    ),
    out: Path | None = typer.Option(  # noqa: B008
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
    root: Path | None = typer.Option(None, "--root", help="Project root."),  # noqa: B008
    preview: bool = typer.Option(
        False,
        "--preview",
        help="A preview of unreleased records (what `rewire serve` shows): the release id "
        "is the date and 'preview', not a content hash.",
    ),
) -> None:
    """Build the static site from the records: pages, search, downloads, JSON API."""
    from .build import build_command
    from .config import project_root, resolve_root

    if root is None and records is not None:  # the records named: their project, if any
        root = project_root() or project_root(records) or records.resolve().parent
    raise typer.Exit(
        build_command(resolve_root(root), records, out, release_date, workers, preview)
    )


@app.command("import")
def import_command(
    source: str = typer.Argument(
        ..., help="Source to import: feng-2024, tang-koo-2024, genomic-benchmarks."
    ),
    git_dir: Path | None = typer.Option(  # noqa: B008
        None, "--git-dir", help="A clone (or bare git directory) of the source repository."
    ),
    folder: Path | None = typer.Option(  # noqa: B008
        None, "--from", help="A folder holding the downloaded files at their repository paths."
    ),
    commit: str | None = typer.Option(
        None, "--commit", help="Full 40-hex commit to read (default: the importer's pinned one)."
    ),
    check: bool = typer.Option(False, "--check", help="Report what would change; write nothing."),
    root: Path | None = typer.Option(None, "--root", help="Project root."),  # noqa: B008
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


def _register_measure() -> None:
    """`rewire measure ...` lives in the top-level `measure` package (GPU reproductions).
    Importing it must not import torch; its commands import what they need."""
    try:
        from measure.cli import app as measure_app
    except ImportError:  # pragma: no cover - measure/ is part of the distribution
        return
    app.add_typer(measure_app, name="measure", help="Reproduce GPU protocols and record results.")


_register_measure()


def main() -> None:
    """The console script: a command run outside a project says so plainly (exit 2)."""
    from .config import NotInProject

    try:
        app()
    except NotInProject as error:
        typer.echo(f"error: {error}", err=True)
        raise SystemExit(2) from None


if __name__ == "__main__":  # pragma: no cover
    main()


__all__ = ["Path", "app", "main"]
