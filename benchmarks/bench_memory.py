"""Benchmark: peak memory of `rewire validate` and `rewire build`, and validation and
build time per record at several catalogue sizes, in one run.

    python benchmarks/bench_memory.py                      # 2,500, 5,000, 10,000
    python benchmarks/bench_memory.py --sizes 10000 --workdir /tmp/rw

For each size a synthetic catalogue is generated (`rewire_site.synth`, deterministic
from the seed; reused when `--workdir` already holds it), then:

- validation, cold: `validate_paths` in a new process, no parse cache, two processes
  (as in `bench_validate.py`), with the peak resident memory of the validating process
  (`ru_maxrss`), the part of it above the imports, and its parse worker's;
- `rewire build`, cold (no parse cache), the command itself in a new process: wall and
  CPU seconds of the whole process tree (from `wait4`), and its memory, sampled every
  50 ms over the build process and all its descendants: the sum of PSS (shared pages of
  forked workers counted once: the memory the build really holds) and the sum of RSS
  (shared pages counted in every process: an upper bound), with the largest single RSS
  the kernel saw (`ru_maxrss` of the tree, which cannot miss a short peak).

Then the per-record figures side by side and the growth exponent from the smallest to
the largest size (1.00 = linear). The goals of issue 13: peak memory under 1 GB for
10,000 evaluations; validation and build time linear in records. The machine's load
average is printed: other work on the same cores inflates the wall times, CPU seconds
much less.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bench_validate import HERE_SRC, timed

GOAL_PEAK_MB = 1000.0
SIZES = (2500, 5000, 10000)
RELEASE_DATE = "2026-01-01"
SAMPLE_SECONDS = 0.05


def _children_of() -> dict[int, list[int]]:
    """Parent pid -> child pids, from /proc (Linux)."""
    found: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_text(encoding="ascii")
            fields = stat.rsplit(")", 1)[1].split()
        except OSError:
            continue
        found.setdefault(int(fields[1]), []).append(int(entry.name))
    return found


def _tree(pid: int) -> list[int]:
    children = _children_of()
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        todo.extend(children.get(current, ()))
    return pids


def _memory_kib(pid: int) -> tuple[int, int]:
    """(PSS, RSS) of one process in KiB, from /proc/<pid>/smaps_rollup; 0s when gone."""
    pss = rss = 0
    try:
        with Path(f"/proc/{pid}/smaps_rollup").open(encoding="ascii") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1])
    except OSError:
        pass
    return pss, rss


@dataclass
class Build:
    wall: float
    cpu: float
    peak_pss_mb: float
    peak_rss_sum_mb: float
    max_rss_mb: float
    processes: int
    pages: int
    report: str


def build(src: Path, root: Path, out: Path) -> Build:
    """`rewire build` of `root` into `out`, in a new process; its tree sampled."""
    shutil.rmtree(root / ".rewire-cache", ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)  # else the build's wait removing it is timed
    env = {**os.environ, "PYTHONPATH": str(src)}
    args = [sys.executable, "-m", "rewire_site.cli", "build", "--root", str(root)]
    args += ["--out", str(out), "--release-date", RELEASE_DATE]
    peak = {"pss": 0, "rss": 0, "processes": 0}
    stop = threading.Event()
    start = time.perf_counter()
    process = subprocess.Popen(
        args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )

    def sample() -> None:
        while not stop.wait(SAMPLE_SECONDS):
            pids = _tree(process.pid)
            sizes = [_memory_kib(pid) for pid in pids]
            peak["pss"] = max(peak["pss"], sum(pss for pss, _ in sizes))
            peak["rss"] = max(peak["rss"], sum(rss for _, rss in sizes))
            peak["processes"] = max(peak["processes"], len(pids))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stop.set()
    sampler.join()
    if process.returncode != 0:
        raise SystemExit(f"rewire build failed:\n{output}")
    pages = sum(1 for _ in out.rglob("*.html"))
    return Build(
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        peak_pss_mb=peak["pss"] / 1024,
        peak_rss_sum_mb=peak["rss"] / 1024,
        max_rss_mb=usage.ru_maxrss / 1024,
        processes=peak["processes"],
        pages=pages,
        report=next(
            (line for line in output.splitlines() if line.startswith("built ")),
            output.strip().splitlines()[-1],
        ),
    )


def generate(src: Path, root: Path, evaluations: int, seed: int) -> None:
    if (root / "records").is_dir():
        return
    command = [sys.executable, "-m", "rewire_site.synth", str(root)]
    subprocess.run(
        [*command, "--evaluations", str(evaluations), "--seed", str(seed)],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(src)},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, help="keep catalogues and sites here")
    parser.add_argument(
        "--src",
        type=Path,
        default=HERE_SRC,
        help="the src/ folder to run (default: this tree's; for a snapshot of a commit, "
        "`git archive <commit> | tar -x -C /tmp/snap`, then /tmp/snap/src)",
    )
    args = parser.parse_args()
    src = args.src.resolve()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="rewire-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    loads = [os.getloadavg()[0]]
    rows = []
    for n in args.sizes:
        root = workdir / f"catalogue-{n}"
        generate(src, root, n, args.seed)
        records = sum(1 for _ in (root / "records").glob("*.yaml"))
        shutil.rmtree(root / ".rewire-cache", ignore_errors=True)
        validation = timed(src, root, False, 0)
        loads.append(os.getloadavg()[0])
        built = build(src, root, workdir / f"site-{n}")
        loads.append(os.getloadavg()[0])
        print(
            f"{n} evaluations, {records} records: validation {validation.wall:.2f} s wall, "
            f"{validation.main + validation.worker:.2f} CPU-s, peak RSS "
            f"{validation.peak_mb:.0f} MB ({validation.peak_mb - validation.base_mb:.0f} MB "
            f"above the imports; parse worker {validation.worker_peak_mb:.0f} MB); "
            f"build {built.wall:.1f} s wall, "
            f"{built.cpu:.1f} CPU-s, {built.pages} pages, peak PSS {built.peak_pss_mb:.0f} MB "
            f"(RSS sum {built.peak_rss_sum_mb:.0f} MB over up to {built.processes} "
            f"processes; largest process {built.max_rss_mb:.0f} MB)\n  {built.report}",
            flush=True,
        )
        rows.append((n, records, validation, built))
    if args.workdir is None:
        shutil.rmtree(workdir)

    print(
        f"\n{src}: {os.cpu_count()} CPUs, load average {min(loads):.1f} to {max(loads):.1f} "
        "during the runs; per record = per record file"
    )
    header = (
        f"{'evaluations':>11} {'records':>8} | {'validate s':>10} {'CPU s':>6} "
        f"{'CPU ms/rec':>10} {'val. MB':>7} {'+MB':>6} | "
        f"{'build s':>8} {'CPU s':>7} {'CPU ms/rec':>10} "
        f"{'pages':>6} | {'peak PSS MB':>11} {'RSS sum MB':>10} {'max RSS MB':>10}"
    )
    print(header)
    for n, records, validation, built in rows:
        v_cpu = validation.main + validation.worker
        print(
            f"{n:>11} {records:>8} | {validation.wall:>10.2f} {v_cpu:>6.2f} "
            f"{1000 * v_cpu / records:>10.3f} {validation.peak_mb:>7.0f} "
            f"{validation.peak_mb - validation.base_mb:>6.0f} | "
            f"{built.wall:>8.1f} {built.cpu:>7.1f} "
            f"{1000 * built.cpu / records:>10.2f} {built.pages:>6} | "
            f"{built.peak_pss_mb:>11.0f} {built.peak_rss_sum_mb:>10.0f} {built.max_rss_mb:>10.0f}"
        )
    if len(rows) > 1:
        (_, r0, v0, b0), (_, r1, v1, b1) = rows[0], rows[-1]
        size = r1 / r0

        def exponent(first: float, last: float) -> str:
            return f"{math.log(last / first) / math.log(size):.2f}"

        print(
            f"growth from {r0} to {r1} records ({size:.2f}x), as an exponent (1.00 = linear): "
            f"validation wall {exponent(v0.wall, v1.wall)}, CPU "
            f"{exponent(v0.main + v0.worker, v1.main + v1.worker)}, memory above the "
            f"imports {exponent(v0.peak_mb - v0.base_mb, v1.peak_mb - v1.base_mb)}; build wall "
            f"{exponent(b0.wall, b1.wall)}, CPU {exponent(b0.cpu, b1.cpu)}; "
            f"peak PSS {exponent(b0.peak_pss_mb, b1.peak_pss_mb)}"
        )
    largest = rows[-1][3]
    print(
        f"goal: peak memory under {GOAL_PEAK_MB:.0f} MB at {rows[-1][0]} evaluations: "
        f"{'met' if largest.peak_pss_mb < GOAL_PEAK_MB else 'NOT met'} "
        f"(PSS {largest.peak_pss_mb:.0f} MB; largest process {largest.max_rss_mb:.0f} MB)"
    )


if __name__ == "__main__":
    main()
