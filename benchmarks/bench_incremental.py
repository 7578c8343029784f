"""Incremental preview benchmark (`rewire serve`'s editor loop): the 10,000-evaluation
synthetic catalogue (`rewire_site.synth`), one full preview build that records each page
job's dependencies, then one edit each of an evaluation, a configuration, a protocol and
a source, each applied through `IncrementalSite.update` (what serve runs when a file
changes), then `IncrementalSite.settle` (what serve runs in the background once edits
stop for `serve.SETTLE_AFTER_SECONDS`). Prints, per edit, the two figures serve is held
to: the edited record's own page written after (target 0.5 s), and the whole site equal
to a full build after (the update, the settle delay and the settle pass; target 5 s);
then the jobs re-made and files rewritten, and CPU seconds (the machine may be busy: CPU
time grows much less with load than wall time).

    python benchmarks/bench_incremental.py                  # 10,000 evaluations
    python benchmarks/bench_incremental.py --compare        # and compare every file with
                                                            # a full `--preview` build
    python benchmarks/bench_incremental.py --evaluations 1000 --profile edit.prof
    python benchmarks/bench_incremental.py --rounds 5        # each edit five times: medians

The catalogue is generated into a temporary folder (or `--catalogue DIR`, copied first,
so it is never edited in place).

Figures (2026-12-07, `--rounds 3` medians, 2 shared cores at load 3.1-3.7, the code before
and after serve read the derive stage's one path and froze its kept heap out of the cyclic
collector, run one after the other), evaluation / configuration / protocol / source edit:
CPU s of update + settle 5.06 / 4.20 / 4.81 / 3.13 -> 3.02 / 2.93 / 3.92 / 2.33; own page
0.58 / 0.48 / 0.62 / 0.44 s -> 0.50 / 0.60 / 0.93 / 0.44 s and whole site 5.7 / 4.8 / 5.4 /
4.0 s -> 3.7 / 4.8 / 6.7 / 4.2 s (wall times on a busy machine: the update's own CPU s
were 0.43 / 0.33 / 0.55 / 0.31 after). A full collection over the kept heap, which either
could meet on any edit, cost 2.2 CPU s.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from rewire_site.build import build_site
from rewire_site.incremental import IncrementalSite
from rewire_site.serve import SETTLE_AFTER_SECONDS
from rewire_site.synth import generate_catalogue

RELEASE_DATE = date(2026, 1, 1)
PAGE_GOAL = 0.5
"""Seconds from the save to the edited record's own page (issue 26)."""
SITE_GOAL = 5.0
"""Seconds from the last edit to a site equal to a full build (issue 26)."""


def _edit(path: Path, change: Callable[[str], str]) -> None:
    text = path.read_text(encoding="utf-8")
    edited = change(text)
    if edited == text:
        raise SystemExit(f"benchmark edit changed nothing in {path}")
    path.write_text(edited, encoding="utf-8")


def _evaluation(text: str) -> str:
    """The first result value, its printed value and its quote + 0.01."""
    printed = re.search(r"\n  printed_value: '([0-9.]+)'\n", text)
    assert printed is not None
    old = printed.group(1)
    new = f"{float(old) + 0.01:.2f}"
    text = re.sub(r"\n  value: [0-9.]+\n", f"\n  value: {new}\n", text, count=1)
    text = text.replace(f"printed_value: '{old}'", f"printed_value: '{new}'", 1)
    return text.replace(f"reaching {old} ", f"reaching {new} ", 1)


def _toggle(old: str, new: str) -> Callable[[str], str]:
    """An edit that replaces `old` by `new`, or back (so that every round changes)."""
    return lambda t: t.replace(old, new, 1) if old in t else t.replace(new, old, 1)


EDITS: list[tuple[str, str, Callable[[str], str]]] = [
    ("evaluation (a result value)", "synth-eval-000042", _evaluation),
    (
        "configuration (reported name)",
        "synth-config-00042",
        lambda t: re.sub(r"reported_name: (.*)", r"reported_name: \1 (edited)", t, count=1),
    ),
    (
        "protocol (title)",
        "synth-protocol-0042",
        _toggle("title: Synthetic protocol 42", "title: Edited protocol 42"),
    ),
    (
        "source (title)",
        "synth-source-00042",
        _toggle("title: Synthetic source 42", "title: Edited source 42"),
    ),
]


def compare_sites(a: Path, b: Path) -> list[str]:
    """Paths that differ between two sites (missing on one side, or other bytes)."""

    def files(root: Path) -> dict[str, Path]:
        return {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()}

    left, right = files(a), files(b)
    return sorted(
        p
        for p in left.keys() | right.keys()
        if p not in left or p not in right or left[p].read_bytes() != right[p].read_bytes()
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evaluations", type=int, default=10_000)
    parser.add_argument("--catalogue", type=Path, help="a generated catalogue to copy")
    parser.add_argument("--compare", action="store_true", help="byte-compare each edit")
    parser.add_argument("--profile", type=Path, help="cProfile of the evaluation edit")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="apply the four edits this many times (each round changes every record "
        "again) and print each edit's median",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rewire-bench-incremental-") as tmp:
        project = Path(tmp) / "project"
        if args.catalogue is not None:
            shutil.copytree(args.catalogue, project, ignore=shutil.ignore_patterns("site"))
        else:
            generate_catalogue(project, args.evaluations)
        records = project / "records"
        print(f"catalogue: {len(list(records.glob('*.yaml')))} records in {project}")
        site = IncrementalSite(
            project,
            records,
            project / "site",
            release_date=RELEASE_DATE,
            workers=args.workers,
            log=lambda line: print(line, file=sys.stderr),
        )
        first = site.build()
        print(f"initial: {first.line()} ({len(site.deps)} jobs tracked)")
        failed = 0
        figures: dict[str, list[tuple[float, float, float, float, float]]] = {}
        for label, record_id, change in [e for _ in range(args.rounds) for e in EDITS]:
            _edit(records / f"{record_id}.yaml", change)
            profile = cProfile.Profile() if args.profile and label.startswith("eval") else None
            cpu = time.process_time()
            if profile is not None:
                profile.enable()
            outcome = site.update([records / f"{record_id}.yaml"])
            update_cpu = time.process_time() - cpu
            settled = site.settle()
            if profile is not None:
                profile.disable()
                profile.dump_stats(args.profile)
            cpu = time.process_time() - cpu
            own = ("protocol" if "protocol" in record_id else "record", record_id)
            page = outcome.done.get(own, float("nan"))
            whole = outcome.seconds + SETTLE_AFTER_SECONDS + settled.seconds
            jobs_cpu = sum(site.costs.get(j, 0.0) for j in settled.done)
            load = os.getloadavg()[0]
            figures.setdefault(label, []).append((page, whole, cpu, jobs_cpu, load))
            print(
                f"{label:32} own page written after {page:.3f} s (target {PAGE_GOAL} s); "
                f"site equal to a full build after {whole:.3f} s (target {SITE_GOAL} s: "
                f"update {outcome.seconds:.3f} + delay {SETTLE_AFTER_SECONDS} + settle "
                f"{settled.seconds:.3f}); CPU {cpu:.3f} s"
            )
            print(
                f"  CPU s (wall time lies on a busy machine): update {update_cpu:.3f} (the own "
                f"page included), update + settle {cpu:.3f} (one process), of it settle's "
                f"jobs {jobs_cpu:.3f}; load average {load:.1f} on {os.cpu_count()} cores"
            )
            print(
                f"  update: {outcome.jobs} jobs, {len(outcome.written)} files; settle: "
                f"{settled.jobs} jobs, {len(settled.written)} files, {settled.removed} removed"
            )
            slowest = sorted(settled.done, key=lambda j: -site.costs.get(j, 0.0))[:4]
            print(
                "  slowest settle jobs (CPU s): "
                + ", ".join(f"{' '.join(j)} {site.costs.get(j, 0.0):.2f}" for j in slowest)
            )
            if args.compare:
                reference = Path(tmp) / "reference"
                build_site(project, reference, release_date=RELEASE_DATE, preview=True)
                differ = compare_sites(project / "site", reference)
                failed += bool(differ)
                print(
                    f"  byte comparison with a full --preview build: {len(differ)} differ"
                    + (f" ({', '.join(differ[:5])})" if differ else "")
                )
        if args.rounds > 1:
            print(
                f"medians of {args.rounds} rounds (own page s, whole site s; CPU s of update "
                "+ settle, of it settle's jobs; load average):"
            )
            for label, runs in figures.items():
                page, whole, cpu, jobs, load = (
                    statistics.median(r[i] for r in runs) for i in range(5)
                )
                print(
                    f"  {label:32} {page:6.3f} s  {whole:6.3f} s  (CPU {cpu:.3f}, jobs {jobs:.3f}; "
                    f"load {load:.1f})"
                )
        return 1 if failed else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
