"""Build benchmark: a synthetic catalogue of N evaluations (with linked records), built
by `rewire build`'s own function; prints pages per second, peak memory and the time per
stage.

    python benchmarks/bench_build.py                   # 10,000 evaluations
    python benchmarks/bench_build.py --scale           # 2,500, 5,000 and 10,000
    python benchmarks/bench_build.py --evaluations 1000 --profile build.prof

Each catalogue is generated (`rewire_site.synth`) into a temporary folder by a child
process, then built by a fresh child process, so the memory figures are the build's
alone. Peak memory is the RSS high-water mark of that process tree: `getrusage`
RUSAGE_SELF (the build process) plus RUSAGE_CHILDREN (the largest of its workers, as the
kernel reports it), and, where psutil is installed, the largest sum of the RSS of the
process and all its descendants sampled every 20 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path
from typing import Any

GOAL_PAGES_PER_SECOND = 1100.0
GOAL_PEAK_MB = 1000.0
SCALE = (2500, 5000, 10000)
RELEASE_DATE = date(2026, 1, 1)


def _tree_sampler(stop: threading.Event, peak: list[float]) -> None:
    """Largest RSS and PSS sums (MB) of this process and its descendants, sampled."""
    try:
        import psutil
    except ImportError:
        return
    me = psutil.Process()
    while not stop.wait(0.1):
        rss = pss = 0
        try:
            procs = [me, *me.children(recursive=True)]
        except psutil.Error:
            continue
        for proc in procs:
            with contextlib.suppress(psutil.Error):
                info = proc.memory_full_info()  # pss: shared (forked) pages counted once
                rss += info.rss
                pss += getattr(info, "pss", info.rss)
        peak[0] = max(peak[0], rss / 1e6)
        peak[1] = max(peak[1], pss / 1e6)


def _stages(report: Any) -> list[tuple[str, float]]:
    """(stage name, seconds) from build's report, in order."""
    stages = getattr(report, "stages", None)
    if stages is None:
        return []
    if isinstance(stages, dict):
        items = list(stages.items())
    else:
        items = [
            (getattr(s, "name", None) or s[0], getattr(s, "seconds", None) or s[1]) for s in stages
        ]
    return [(str(name), float(seconds)) for name, seconds in items]


def build_once(root: Path, out: Path, profile: Path | None) -> dict[str, Any]:
    """Build `root` into `out` in this process; figures as a dict (the child's job)."""
    from rewire_site.build import build_site

    stop = threading.Event()
    tree_peak = [0.0, 0.0]
    sampler = threading.Thread(target=_tree_sampler, args=(stop, tree_peak), daemon=True)
    sampler.start()
    started = time.perf_counter()
    if profile is not None:
        import cProfile

        profiler = cProfile.Profile()
        # one process, so that the profile sees the rendering too
        report = profiler.runcall(
            build_site, root, out, release_date=RELEASE_DATE, workers=1, wait=False
        )
        profiler.dump_stats(str(profile))
    else:
        report = build_site(root, out, release_date=RELEASE_DATE, wait=False)
    seconds = time.perf_counter() - started
    # the previous site is removed in a background thread after the swap (as `rewire
    # build` does, after printing its report): timed apart, not in `seconds`
    removal = report.removal.wait()
    removal_wall = time.perf_counter() - started - seconds
    stop.set()
    sampler.join()
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    cpu = own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
    files = [p for p in out.rglob("*") if p.is_file()]
    pages = sum(1 for p in files if p.suffix == ".html")
    self_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB
    children_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {
        "records": len(list((root / "records").glob("*.yaml"))),
        "pages": pages,
        "files": len(files),
        "bytes": sum(p.stat().st_size for p in files),
        "seconds": seconds,
        "pages_per_second": pages / seconds,
        "cpu_seconds": cpu,
        "load_average": os.getloadavg()[0],
        "maxrss_self_mb": self_mb,
        "maxrss_children_mb": children_mb,
        "tree_peak_sampled_mb": tree_peak[0] or None,
        "tree_peak_pss_mb": tree_peak[1] or None,
        "stages": _stages(report),
        "removal_seconds": removal,
        "removal_wait_seconds": removal_wall,
    }


def _child(args: list[str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, *args], check=True, capture_output=True, text=True
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def run(
    evaluations: int, seed: int, workdir: Path, profile: Path | None, repeat: int = 1
) -> list[dict[str, Any]]:
    """Generate a catalogue, then build it `repeat` times (the first cold, then warm)."""
    root = workdir / f"catalogue-{evaluations}"
    started = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "rewire_site.synth",
            str(root),
            "--evaluations",
            str(evaluations),
            "--seed",
            str(seed),
        ],
        check=True,
        capture_output=True,
    )
    generated = time.perf_counter() - started
    extra = ["--profile", str(profile)] if profile else []
    runs = []
    for attempt in range(repeat):
        figures = _child(["--build-only", str(root), str(workdir / f"site-{evaluations}"), *extra])
        figures["evaluations"] = evaluations
        figures["generate_seconds"] = generated
        figures["run"] = "cold" if attempt == 0 else "warm (parse cache, site replaced)"
        runs.append(figures)
    return runs


def peak_mb(figures: dict[str, Any]) -> float:
    """Process-tree peak: the sampled PSS sum where available (forked workers' shared
    pages counted once), else self + largest child."""
    sampled = figures.get("tree_peak_pss_mb")
    bound = float(figures["maxrss_self_mb"]) + float(figures["maxrss_children_mb"])
    return float(sampled) if sampled else bound


def show(figures: dict[str, Any]) -> None:
    print(
        f"{figures['evaluations']:>6} evaluations ({figures['run']} build), "
        f"{figures['records']} records -> "
        f"{figures['pages']} pages ({figures['files']} files, {figures['bytes'] / 1e6:.1f} MB)"
    )
    print(
        f"  build {figures['seconds']:.2f} s: {figures['pages_per_second']:.0f} pages/s "
        f"(goal >= {GOAL_PAGES_PER_SECOND:.0f})"
    )
    print(
        f"  CPU time {figures['cpu_seconds']:.1f} s (process tree): "
        f"{1000 * figures['cpu_seconds'] / figures['pages']:.1f} CPU-ms per page; "
        f"load average at the end {figures['load_average']:.1f} on {os.cpu_count()} CPUs"
    )
    sampled = figures.get("tree_peak_sampled_mb")
    print(
        f"  peak memory: build process {figures['maxrss_self_mb']:.0f} MB, largest worker "
        f"{figures['maxrss_children_mb']:.0f} MB"
        + (
            f", process tree RSS sum {sampled:.0f} MB, PSS sum {figures['tree_peak_pss_mb']:.0f} MB"
            if sampled
            else ""
        )
        + f" (goal < {GOAL_PEAK_MB:.0f} MB)"
    )
    stages = figures["stages"]
    if stages:
        print("  stages: " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in stages))
    else:
        print("  stages: build report names no stages")
    if figures.get("removal_seconds"):
        print(
            f"  previous site removed in the background after the swap: "
            f"{figures['removal_seconds']:.2f} s (not in the build time; waited "
            f"{figures['removal_wait_seconds']:.2f} s for it after the build)"
        )


def show_scale(rows: list[dict[str, Any]]) -> None:
    print("\nscale (time per evaluation should stay flat for linear growth; CPU time is the")
    print("figure to read when other processes share the machine):")
    print(
        f"  {'evaluations':>11} {'records':>8} {'pages':>7} {'seconds':>8} {'CPU s':>7} "
        f"{'CPU ms/eval':>11} {'pages/s':>8} {'peak MB':>8}"
    )
    for row in rows:
        print(
            f"  {row['evaluations']:>11} {row['records']:>8} {row['pages']:>7} "
            f"{row['seconds']:>8.2f} {row['cpu_seconds']:>7.1f} "
            f"{1000 * row['cpu_seconds'] / row['evaluations']:>11.2f} "
            f"{row['pages_per_second']:>8.0f} {peak_mb(row):>8.0f}"
        )
    first, last = rows[0], rows[-1]
    size = last["evaluations"] / first["evaluations"]
    for label, key in (("wall time", "seconds"), ("CPU time", "cpu_seconds")):
        grew = last[key] / first[key]
        print(
            f"  {label} grew {grew:.2f}x for {size:.1f}x the evaluations "
            f"(exponent {math.log(grew) / math.log(size):.2f}; 1.00 = linear)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evaluations", type=int, default=10000)
    parser.add_argument("--scale", action="store_true", help=f"run {SCALE} evaluations")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile", type=Path, help="write a cProfile of the build (one process) here"
    )
    parser.add_argument("--workdir", type=Path, help="keep catalogues and sites here")
    parser.add_argument(
        "--repeat", type=int, default=1, help="builds per catalogue: the first cold, then warm"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument(
        "--build-only", nargs=2, type=Path, metavar=("ROOT", "OUT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.build_only:
        root, out = args.build_only
        print(json.dumps(build_once(root, out, args.profile)))
        return 0
    sizes = SCALE if args.scale else (args.evaluations,)
    with tempfile.TemporaryDirectory(prefix="rewire-bench-") as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        rows = []
        for n in sizes:
            runs = run(n, args.seed, workdir, args.profile, args.repeat)
            for figures in runs:
                show(figures)
            rows.append(runs[-1])
        if len(rows) > 1:
            show_scale(rows)
        if args.json:
            print(json.dumps(rows, indent=2))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
