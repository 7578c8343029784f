"""Benchmark: the catalogue at field scale (issue 24 budgets, issue 28 memory), in one run.

    python benchmarks/bench_tables.py          # 100,000 synthetic values, the real catalogue
    python benchmarks/bench_tables.py --values 20000 --workdir /tmp/rt

For each catalogue, side by side:

- the synthetic one: `rewire_site.synth` with `--evaluations` ordinary evaluations (and
  the records they need) plus `--values` published values as result tables
  (`rewire_site.synth_tables`: CSV rows under records/tables/);
- the real one: this tree's `records/`;

it prints cold `rewire validate` (a new process, no parse cache) and cold `rewire build`
(a new process, no parse cache, a new output folder): wall seconds, CPU seconds of the
process tree, and peak memory sampled every 50 ms over the process and all its
descendants (sum of PSS: shared pages of forked workers counted once; sum of RSS: an
upper bound; and the largest single process, `ru_maxrss`); then the page count and the
largest page. Hugo (when `hugo` is on PATH) builds as many evaluation-like pages as
Rewire built, as `bench_vs_hugo.py` makes them; without Hugo that is said.

Budgets (issue 24): validate under 10 s, build under 60 s on 2 cores, peak memory under
2 GB, no page over 1 MB. On a shared machine wall seconds move with the load; CPU
seconds much less: both are printed, with the load average.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bench_memory import RELEASE_DATE, SAMPLE_SECONDS, _memory_kib, _tree
from bench_validate import HERE_SRC
from bench_vs_hugo import hugo_build, write_hugo_site

REPO = Path(__file__).resolve().parent.parent
VALIDATE_BUDGET_S = 10.0
BUILD_BUDGET_S = 60.0
PEAK_BUDGET_MB = 2048.0
PAGE_BUDGET_BYTES = 1024 * 1024


@dataclass
class Run:
    wall: float
    cpu: float
    peak_pss_mb: float
    peak_rss_sum_mb: float
    max_rss_mb: float
    output: str


def sampled(args: list[str], src: Path) -> Run:
    """Run `args` in a new process with `src` on its path; its process tree sampled."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    peak = {"pss": 0, "rss": 0}
    stop = threading.Event()
    start = time.perf_counter()
    process = subprocess.Popen(
        args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )

    def sample() -> None:
        while not stop.wait(SAMPLE_SECONDS):
            sizes = [_memory_kib(pid) for pid in _tree(process.pid)]
            peak["pss"] = max(peak["pss"], sum(pss for pss, _ in sizes))
            peak["rss"] = max(peak["rss"], sum(rss for _, rss in sizes))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    stop.set()
    sampler.join()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args[2:5])} failed:\n{output[-3000:]}")
    return Run(
        wall,
        usage.ru_utime + usage.ru_stime,
        peak["pss"] / 1024,
        peak["rss"] / 1024,
        usage.ru_maxrss / 1024,
        output,
    )


def validate(src: Path, root: Path) -> Run:
    shutil.rmtree(root / ".rewire-cache", ignore_errors=True)
    cli = [sys.executable, "-m", "rewire_site.cli"]
    return sampled([*cli, "validate", "--root", str(root), "--no-cache"], src)


def build(src: Path, root: Path, out: Path) -> Run:
    shutil.rmtree(root / ".rewire-cache", ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    cli = [sys.executable, "-m", "rewire_site.cli", "build", "--root", str(root)]
    return sampled([*cli, "--out", str(out), "--release-date", RELEASE_DATE], src)


def pages(out: Path) -> tuple[int, int, str]:
    """(HTML pages, bytes of the largest, its path) under `out`."""
    count, largest, where = 0, 0, ""
    for path in out.rglob("*.html"):
        count += 1
        size = path.stat().st_size
        if size > largest:
            largest, where = size, str(path.relative_to(out))
    return count, largest, where


def values_of(src: Path, root: Path) -> tuple[int, int]:
    """(record files, published values in result tables) of the catalogue at `root`."""
    code = (
        "import sys; from pathlib import Path; from rewire_site.validate import validate_paths;"
        "r = validate_paths([Path(sys.argv[1]) / 'records'], Path(sys.argv[1]), cache=False);"
        "print(r.files_checked, r.result_rows.value_count())"
    )
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", code, str(root)], capture_output=True, text=True, env=env, check=True
    )
    files, values = done.stdout.split()
    return int(files), int(values)


def verdict(ok: bool) -> str:
    return "within budget" if ok else "OVER BUDGET"


def report(name: str, src: Path, root: Path, out: Path, hugo: str | None) -> None:
    files, values = values_of(src, root)
    checked = validate(src, root)
    built = build(src, root, out)
    count, largest, where = pages(out)
    print(f"\n== {name}: {files} record files, {values:,} values in result tables")
    print(
        f"validate (cold): {checked.wall:6.2f} s wall, {checked.cpu:6.2f} CPU-s, peak PSS "
        f"{checked.peak_pss_mb:5.0f} MB (RSS sum {checked.peak_rss_sum_mb:.0f} MB, largest "
        f"process {checked.max_rss_mb:.0f} MB): {verdict(checked.wall < VALIDATE_BUDGET_S)} "
        f"(< {VALIDATE_BUDGET_S:.0f} s)"
    )
    print(
        f"build (cold):    {built.wall:6.2f} s wall, {built.cpu:6.2f} CPU-s, peak PSS "
        f"{built.peak_pss_mb:5.0f} MB (RSS sum {built.peak_rss_sum_mb:.0f} MB, largest "
        f"process {built.max_rss_mb:.0f} MB): {verdict(built.wall < BUILD_BUDGET_S)} "
        f"(< {BUILD_BUDGET_S:.0f} s)"
    )
    peak = max(checked.peak_pss_mb, built.peak_pss_mb)
    print(f"peak memory {peak:.0f} MB (PSS): {verdict(peak < PEAK_BUDGET_MB)} (< 2 GB)")
    print(
        f"pages: {count:,}; largest {largest / 1024:.0f} kB ({where}): "
        f"{verdict(largest <= PAGE_BUDGET_BYTES)} (<= 1 MB)"
    )
    if hugo is None:
        print("hugo: not on PATH here, so no Hugo build of as many pages in this run")
        return
    site = out.parent / f"{out.name}-hugo-site"
    write_hugo_site(site, count, 2)
    figures = hugo_build(hugo, site, out.parent / f"{out.name}-hugo-out")
    print(
        f"hugo, {figures['pages']:,} pages: {figures['seconds']:.2f} s wall, "
        f"{figures['cpu_seconds']:.2f} CPU-s "
        f"(rewire/hugo wall {built.wall / figures['seconds']:.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, default=100_000)
    parser.add_argument("--evaluations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, help="keep catalogues and sites here")
    parser.add_argument("--no-real", action="store_true", help="skip the real catalogue")
    parser.add_argument("--src", type=Path, default=HERE_SRC)
    args = parser.parse_args()
    src = args.src.resolve()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="rewire-tables-"))
    workdir.mkdir(parents=True, exist_ok=True)
    hugo = shutil.which("hugo")
    loads = [os.getloadavg()[0]]
    root = workdir / f"synthetic-{args.values}"
    if not (root / "records").is_dir():
        command = [sys.executable, "-m", "rewire_site.synth", str(root)]
        command += ["--evaluations", str(args.evaluations), "--seed", str(args.seed)]
        command += ["--table-values", str(args.values)]
        env = {**os.environ, "PYTHONPATH": str(src)}
        subprocess.run(command, check=True, capture_output=True, env=env)
    report(f"synthetic, {args.values:,} values", src, root, workdir / "site-synthetic", hugo)
    loads.append(os.getloadavg()[0])
    if not args.no_real:
        report("the real catalogue", src, REPO, workdir / "site-real", hugo)
        loads.append(os.getloadavg()[0])
    print(
        f"\n{os.cpu_count()} CPUs, load average {min(loads):.1f} to {max(loads):.1f} during "
        "the runs (other work on the same cores inflates wall seconds; CPU seconds much less)"
    )
    if args.workdir is None:
        shutil.rmtree(workdir)


if __name__ == "__main__":
    main()
