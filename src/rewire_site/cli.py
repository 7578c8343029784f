"""The `rewire` command line. Each command is a thin wrapper over a plain function.

Ownership: every command keeps to its own function; heavy imports (torch, deepspeed)
happen only inside `rewire measure ...`, in `measure.cli`.
"""

from __future__ import annotations

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
    app()


if __name__ == "__main__":  # pragma: no cover
    main()


__all__ = ["Path", "app", "main"]
