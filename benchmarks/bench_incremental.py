"""Incremental preview benchmark (`rewire serve`'s editor loop): the 10,000-evaluation
synthetic catalogue (`rewire_site.synth`), one full preview build that records each page
job's dependencies, then one edit each of an evaluation, a configuration, a protocol and
a source, each applied through `IncrementalSite.update` (what serve runs when a file
changes). Prints, per edit: seconds, page jobs re-made, files rewritten, derived items
recomputed and CPU seconds, this process's and the replica's (`incremental/parallel.py`;
the machine may be busy: CPU time grows much less with load than wall time).

    python benchmarks/bench_incremental.py                  # 10,000 evaluations
    python benchmarks/bench_incremental.py --compare        # and compare every file with
                                                            # a full `--preview` build
    python benchmarks/bench_incremental.py --evaluations 1000 --profile edit.prof
    python benchmarks/bench_incremental.py --profile source.prof --profile-edit source
    python benchmarks/bench_incremental.py --rounds 5        # each edit five times: medians

The catalogue is generated into a temporary folder (or `--catalogue DIR`, copied first,
so it is never edited in place).
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
from rewire_site.synth import generate_catalogue

RELEASE_DATE = date(2026, 1, 1)
GOAL_SECONDS = 1.0
"""The goal for a one-evaluation edit (issue 13, Hugo's editor loop)."""


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


def _replica_cpu(site: IncrementalSite) -> float:
    """CPU seconds the serve replica (`incremental/parallel.py`) has used so far (0
    without one; read from /proc, Linux)."""
    if site.replica is None:
        return 0.0
    try:
        fields = Path(f"/proc/{site.replica.process.pid}/stat").read_text().rsplit(")", 1)[1]
    except OSError:
        return 0.0
    utime, stime = fields.split()[11:13]
    return (int(utime) + int(stime)) / os.sysconf("SC_CLK_TCK")


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
    parser.add_argument("--profile", type=Path, help="cProfile of one edit (--profile-edit)")
    parser.add_argument(
        "--profile-edit",
        default="evaluation",
        choices=[label.split()[0] for label, _, _ in EDITS],
        help="which edit --profile profiles (default: evaluation)",
    )
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
        cpu = time.process_time()
        first = site.build()
        print(f"initial: {first.line()} ({len(site.deps)} jobs tracked)")
        failed = 0
        figures: dict[str, list[tuple[float, float, float]]] = {}
        for label, record_id, change in [e for _ in range(args.rounds) for e in EDITS]:
            _edit(records / f"{record_id}.yaml", change)
            profile = (
                cProfile.Profile() if args.profile and label.startswith(args.profile_edit) else None
            )
            cpu = time.process_time()
            children = _replica_cpu(site)
            if profile is not None:
                profile.enable()
            outcome = site.update([records / f"{record_id}.yaml"])
            if profile is not None:
                profile.disable()
                profile.dump_stats(args.profile)
            cpu = time.process_time() - cpu
            child = _replica_cpu(site) - children
            own = ("protocol" if "protocol" in record_id else "record", record_id)
            figures.setdefault(label, []).append((outcome.seconds, cpu, child))
            print(
                f"{label:32} {outcome.seconds:6.3f} s (CPU {cpu:.3f} s here, {child:.3f} s in "
                f"the replica): {outcome.jobs} jobs re-made ({site.forked} by the replica), "
                f"{len(outcome.written)} files rewritten, {outcome.removed} removed, "
                f"{outcome.derived} derived items recomputed, {outcome.changed_keys} keys; "
                f"its own page written after {outcome.done.get(own, float('nan')):.3f} s"
            )
            print("  stages ended after: " + ", ".join(f"{n} {t:.3f} s" for n, t in outcome.stages))
            print(
                f"  site-wide pieces (incremental/memo.py): {site.memo.misses} computed, "
                f"{site.memo.hits} reused"
            )
            slowest = sorted(site.costs.items(), key=lambda c: -c[1])
            heavy = [(j, c) for j, c in slowest if j in outcome.done][:4]
            print(
                "  slowest jobs (CPU s): " + ", ".join(f"{' '.join(j)} {c:.2f}" for j, c in heavy)
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
            print(f"medians of {args.rounds} rounds (wall s, CPU s here, CPU s in the replica):")
            for label, runs in figures.items():
                wall, here, child = (statistics.median(r[i] for r in runs) for i in range(3))
                print(
                    f"  {label:32} {wall:6.3f} s  (CPU {here:.3f} + {child:.3f}; "
                    f"wall min {min(r[0] for r in runs):.3f}, max {max(r[0] for r in runs):.3f})"
                )
        return 1 if failed else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
