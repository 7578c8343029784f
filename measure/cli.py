"""`rewire measure`: list runnable protocols, plan and run a recipe, write IA3 records, and
the lent-GPU halves of two recipes (`ia3-launch`, `hyenadna-device`: logs only).

Importing this module imports no torch: recipes are looked up through the registry, and
each command imports what it needs."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from measure.console import wide_console

DEFAULT_RUNS = Path("runs")
DEFAULT_ROOT = Path()

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


def _checked_id(value: str, option: str) -> str:
    """`value` when it keeps the id rule (a run id names a folder under the runs folder and
    under artifacts/, and is part of record ids); a usage error otherwise."""
    from rewire_site.new import bad_id

    problem = bad_id(value, "run id")
    if problem is not None:
        raise typer.BadParameter(problem, param_hint=option)
    return value


def _gpu_indices(text: str) -> list[int]:
    """`--gpus 0,1` as indices; a usage error for anything but whole numbers 0 or more."""
    indices = _split([text])
    bad = [index for index in indices if not index.isdigit()]
    if bad:
        raise typer.BadParameter(
            f"{bad[0]!r} is not a GPU index: give whole numbers, e.g. 0,1", param_hint="--gpus"
        )
    return [int(index) for index in indices]


def _split(values: list[str] | None) -> list[str]:
    """Repeated and comma-separated option values, in order (settings keep their commas)."""
    out: list[str] = []
    for value in values or []:
        out.extend(v.strip() for v in value.split(",") if v.strip())
    return out


@app.command("list")
def list_recipes() -> None:
    """List the protocols that have a runnable recipe."""
    from measure.registry import recipes

    table = Table(title="Runnable protocols")
    table.add_column("protocol")
    table.add_column("recipe")
    table.add_column("title")
    for recipe in sorted(recipes().values(), key=lambda r: r.protocol_id):
        table.add_row(recipe.protocol_id, recipe.id, recipe.title)
    wide_console().print(table)


@app.command("run")
def run(
    protocol: Annotated[str, typer.Argument(help="Protocol id (or recipe id) to reproduce.")],
    models: Annotated[
        list[str] | None, typer.Option("--models", help="Models to run (comma-separated).")
    ] = None,
    stages: Annotated[
        list[str] | None, typer.Option("--stages", help="Stages to run (comma-separated).")
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--settings",
            help="Setting ids (bf16-full-1000nt) or filters (precision=bf16,update=full); "
            "repeat for several. Default: the recipe's sweep.",
        ),
    ] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the plan and exit.")] = False,
    run_id: Annotated[
        str | None, typer.Option("--run-id", help="Resume this run (finished stages kept).")
    ] = None,
    runs_dir: Annotated[
        Path, typer.Option("--runs-dir", help="Folder of run folders.")
    ] = DEFAULT_RUNS,
    gpus: Annotated[
        str, typer.Option("--gpus", help="GPU indices to use, e.g. 0,1 (default: all).")
    ] = "",
    time_budget: Annotated[
        float | None,
        typer.Option("--time-budget", help="Seconds; items that would overrun are not started."),
    ] = None,
    no_records: Annotated[bool, typer.Option("--no-records", help="Do not write records.")] = False,
    root: Annotated[
        Path, typer.Option("--root", help="Repository root (records/, artifacts/).")
    ] = DEFAULT_ROOT,
    recipe_file: Annotated[
        Path | None, typer.Option("--recipe", hidden=True, help="Other recipe file.")
    ] = None,
    records_only: Annotated[
        bool,
        typer.Option(
            "--records-only",
            help="Run nothing: write the records of the finished stages of --run-id "
            "(e.g. after copying a GPU machine's run folder back).",
        ),
    ] = False,
    device: Annotated[
        str, typer.Option("--device", hidden=True, help="cuda, or cpu for tests.")
    ] = "cuda",
    git_commit: Annotated[
        str | None,
        typer.Option(
            "--git-commit",
            help="With --records-only: the commit that ran, where the logs read none or a "
            "tree that differed from theirs (a device copy).",
        ),
    ] = None,
    note: Annotated[
        str | None,
        typer.Option("--note", help="With --records-only: conditions a reader must know."),
    ] = None,
) -> None:
    """Run a protocol's recipe: plan, one process per stage, summary, records."""
    from measure.registry import RunOptions, find

    try:
        recipe = find(protocol)
    except KeyError as error:
        raise typer.BadParameter(str(error.args[0]), param_hint="PROTOCOL") from None
    extra = {"device": device}
    if run_id is not None:
        _checked_id(run_id, "--run-id")
    gpu_indices = _gpu_indices(gpus)
    if records_only:
        if not run_id:
            raise typer.BadParameter("--records-only needs --run-id", param_hint="--run-id")
        if not (runs_dir / run_id).is_dir():
            wide_console().print(
                f"error: no run {run_id!r}: {runs_dir / run_id} is not a folder "
                "(--records-only writes the records of a run made before; see --runs-dir)",
                markup=False,
            )
            raise typer.Exit(1)
        extra["records_only"] = "yes"
    if recipe_file is not None:
        extra["recipe"] = str(recipe_file)
    if git_commit is not None:
        extra["git_commit"] = git_commit
    if note is not None:
        extra["note"] = note
    options = RunOptions(
        models=_split(models),
        stages=_split(stages),
        settings=list(settings or []),
        run_id=run_id,
        runs_dir=runs_dir,
        root=root,
        dry_run=dry_run,
        gpus=gpu_indices,
        time_budget_s=time_budget,
        write_records=not no_records,
        command=shlex.join(["rewire", *sys.argv[1:]]) if sys.argv[1:2] == ["measure"] else "",
        extra=extra,
    )
    try:
        plan = recipe.plan(options)
    except (KeyError, ValueError) as error:
        raise typer.BadParameter(str(error)) from None
    console = wide_console()
    table = Table(title=f"Plan: {recipe.protocol_id}")
    for column in ("item", "estimated GB", "estimated s", "note"):
        table.add_column(column, justify="right" if "estimated" in column else "left")
    for item in plan:
        table.add_row(
            item.description,
            f"{item.estimated_gb:.1f}" if item.estimated_gb is not None else "–",
            f"{item.estimated_seconds:.0f}" if item.estimated_seconds is not None else "–",
            "" if item.runnable else f"not runnable: {item.reason}",
        )
    console.print(table)
    seconds = sum(i.estimated_seconds or 0.0 for i in plan if i.runnable)
    slots = max(1, len(options.gpus) or int(options.extra.get("slots", "1")))
    console.print(
        f"{sum(i.runnable for i in plan)} runnable items; estimated {seconds / 60:.1f} min "
        f"of stage time in total (divide by the number of GPUs used; {slots} given)"
    )
    code = recipe.run(options)
    raise typer.Exit(code)


def _pairs(values: list[str] | None, option: str, usage: str) -> list[tuple[str, str]]:
    """`LEFT=RIGHT` values of a repeated option, both sides non-empty."""
    out: list[tuple[str, str]] = []
    for text in values or []:
        left, sep, right = text.partition("=")
        if not sep or not left or not right:
            raise typer.BadParameter(f"{text!r}: use {usage}", param_hint=option)
        out.append((left, right))
    return out


@app.command("ia3-records")
def ia3_records(
    logs: Annotated[
        list[Path], typer.Argument(help="Merged run logs (`rewire measure ia3-launch` output).")
    ],
    run_id: Annotated[str, typer.Option("--run-id", help="e.g. 20261129-ia3-1920")],
    machine: Annotated[str, typer.Option("--machine", help="The machine, in words.")],
    root: Annotated[
        Path, typer.Option("--root", help="Repository root (records/, artifacts/).")
    ] = DEFAULT_ROOT,
    note: Annotated[
        str | None, typer.Option("--note", help="Conditions a reader must know.")
    ] = None,
    unconfirmed_as_incomplete: Annotated[
        bool,
        typer.Option(
            "--unconfirmed-as-incomplete",
            help="Write a short run that no full-length run confirms as an incomplete result "
            "(no value; observations and a note) instead of refusing.",
        ),
    ] = False,
    git_commit: Annotated[
        str | None,
        typer.Option(
            "--git-commit",
            help="Commit that ran, for logs that could not read one (device copy without .git).",
        ),
    ] = None,
    confirm_with: Annotated[
        list[str] | None,
        typer.Option(
            "--confirm-with",
            metavar="EVALUATION_ID=LOG",
            help="A recorded full-length run (its evaluation id and merged log) that may "
            "confirm the extrapolation of short runs of the same setup; repeatable.",
        ),
    ] = None,
    attach: Annotated[
        list[str] | None,
        typer.Option(
            "--attach",
            metavar="PATH=DESCRIPTION",
            help="A further raw file to store and list as an artifact of every evaluation; "
            "repeatable.",
        ),
    ] = None,
    loss_check: Annotated[
        list[str] | None,
        typer.Option(
            "--loss-check",
            metavar="LABEL=LOG",
            help="A merged log whose per-step losses each run of the same model is compared "
            "with (observations loss-*-difference-vs-LABEL); stored as an artifact; repeatable.",
        ),
    ] = None,
) -> None:
    """Write IA3 run-time records from merged run logs (runs made with
    `rewire measure ia3-launch`, e.g. by measure/ia3/h200_phases.sh on a lent GPU)."""
    from measure.ia3.evidence import NotConfirmed
    from measure.ia3.records import write
    from measure.records import RecordExists
    from rewire_site.problems import RecordsInvalid

    _checked_id(run_id, "--run-id")
    attached = _pairs(attach, "--attach", "PATH=DESCRIPTION")
    confirming = _pairs(confirm_with, "--confirm-with", "EVALUATION_ID=LOG")
    compared = _pairs(loss_check, "--loss-check", "LABEL=LOG")
    console = wide_console()
    try:
        written = write(
            logs,
            root,
            run_id,
            machine,
            note=note,
            unconfirmed_as_incomplete=unconfirmed_as_incomplete,
            git_commit=git_commit,
            attach=[(Path(path), what) for path, what in attached],
            confirm_with=[(eval_id, Path(log)) for eval_id, log in confirming],
            loss_checks=[(label, Path(log)) for label, log in compared],
        )
    except (NotConfirmed, RecordExists, ValueError) as error:
        console.print(f"error: {error}", markup=False)
        raise typer.Exit(1) from None
    except RecordsInvalid as error:
        for problem in error.problems:
            console.print(str(problem), markup=False)
        raise typer.Exit(1) from None
    for path in written:
        console.print(f"wrote {path}", markup=False)


COMPILE_MODES = ("none", "default", "reduce-overhead")


@app.command("ia3-launch")
def ia3_launch(
    setups: Annotated[
        list[str],
        typer.Argument(
            metavar="ARCH:GPUS:STEPS",
            help="Setups run one after another, e.g. nt-500m:2:1000 (GPUS divides 8).",
        ),
    ],
    out: Annotated[Path, typer.Option("--out", help="Folder of the merged JSON logs.")],
    compile_mode: Annotated[
        str,
        typer.Option(
            "--compile",
            help="torch.compile mode: none, default or reduce-overhead (CUDA graphs, the "
            "fast path).",
        ),
    ] = "reduce-overhead",
    cache_dir: Annotated[
        str | None,
        typer.Option(
            "--cache-dir",
            help="torch.compile cache folder kept across runs (TORCHINDUCTOR_CACHE_DIR).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    task: Annotated[str | None, typer.Option("--task", help="Task shape (default: NT's).")] = None,
    warmup: Annotated[int, typer.Option("--warmup", help="Steps left out of the rates.")] = 50,
    keep_going: Annotated[
        bool, typer.Option("--keep-going", help="Run later setups after a failure.")
    ] = False,
) -> None:
    """Run IA3 setups through torchrun, each timed from launch to exit (one merged JSON log
    per setup under --out; records afterwards with `rewire measure ia3-records`). Imports no
    torch itself: torchrun starts measure.ia3.worker once per rank."""
    from measure.ia3.launch import launch_all, parse_setup
    from measure.ia3.tasks import DEFAULT_TASK

    if compile_mode not in COMPILE_MODES:
        raise typer.BadParameter(
            f"{compile_mode!r}: use one of {', '.join(COMPILE_MODES)}", param_hint="--compile"
        )
    try:
        parsed = [
            parse_setup(
                text,
                compile=compile_mode,
                task=task or DEFAULT_TASK,
                warmup=warmup,
                cache_dir=cache_dir,
                seed=seed,
            )
            for text in setups
        ]
    except (ValueError, KeyError) as error:
        raise typer.BadParameter(str(error).strip("'\""), param_hint="ARCH:GPUS:STEPS") from None
    raise typer.Exit(launch_all(parsed, out, keep_going=keep_going))


@app.command("hyenadna-device")
def hyenadna_device(
    run_dir: Annotated[
        Path,
        typer.Argument(
            metavar="RUN_DIR", help="The run folder (its name is the run id); logs in logs/."
        ),
    ],
    keys: Annotated[
        list[str] | None,
        typer.Argument(metavar="KEY", help="Protocol keys of the recipe (default: all)."),
    ] = None,
    budget: Annotated[float, typer.Option("--budget", help="Seconds for all protocols.")] = 420.0,
    device: Annotated[str, typer.Option("--device", help="torch device of the workers.")] = "cuda",
    recipe: Annotated[
        Path | None, typer.Option("--recipe", help="Another recipe file (tests: a tiny one).")
    ] = None,
) -> None:
    """Run the HyenaDNA protocols' workers on this machine's GPU, one protocol after
    another, writing logs only (the lent-machine half of `rewire measure run`; records
    afterwards with `rewire measure run PROTOCOL --run-id RUN_ID --records-only`). Exit
    code: the worst worker's, 124 when the budget ran out."""
    from measure.hyenadna.device import run_device
    from measure.hyenadna.recipe import RECIPE_FILE, RecipeError

    chosen = list(keys or [])
    command = ["rewire", "measure", "hyenadna-device", str(run_dir), *chosen]
    command += ["--budget", f"{budget:g}"]
    if device != "cuda":
        command += ["--device", device]
    if recipe is not None:
        command += ["--recipe", str(recipe)]
    try:
        code = run_device(
            run_dir,
            chosen,
            budget=budget,
            device=device,
            recipe_file=recipe or RECIPE_FILE,
            command=shlex.join(command),
        )
    except RecipeError as error:
        raise typer.BadParameter(str(error), param_hint="--recipe") from None
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="KEY") from None
    raise typer.Exit(code)
