"""Suite-wide order of the tests, for a short wall time under pytest-xdist (`-n 2`).

pyproject's addopts choose `--dist worksteal`: each of the N workers is first given one
contiguous Nth of the ordered tests, and a worker that runs out takes the untouched end
of another's share. So the long tests go at the head of the shares, where nothing takes
them and they run beside the short ones, and every share ends in short tests that
balance the finish. The long tests are those in LONGEST (slowest first), then every test
marked `slow`. Long tests that share a module- or session-scoped fixture of this project
(an IA3 run, a built catalogue) stay together in one share, so the fixture is made once;
each group goes to the share that weighs least so far (a test of LONGEST weighs
LONGEST_WEIGHT, any other long test 1). Without xdist the order changes nothing.

The live catalogue (records/) is read through the session fixtures here only: `live` and
`live_catalogue` (gathered once per test process) and `live_site` (built once per run).
"""

from __future__ import annotations

import fcntl
import os
from datetime import date
from pathlib import Path

import pytest

from rewire_site.build import Gathered, build_site, gather
from rewire_site.config import RECORDS_DIR
from rewire_site.link import Catalogue

LONGEST = (
    # DeepSpeed compiles its CPU Adam op with g++ (cold: about 70 s on two idle cores).
    "tests/measure/test_worker.py::test_zero2_offload_stage_runs_deepspeed_cpu_adam",
    # 100,000 record files written, then validated by `rewire validate`.
    "tests/test_input_limits.py::test_100000_records_validate_in_a_bounded_run",
)
"""Node ids of the slowest tests, slowest first (a renamed test only loses its place)."""
LONGEST_WEIGHT = 4
"""What one LONGEST test weighs against another long test when the groups are dealt."""


def _rank(item: pytest.Item) -> int:
    if item.nodeid in LONGEST:
        return LONGEST.index(item.nodeid)
    return len(LONGEST) + (0 if item.get_closest_marker("slow") is not None else 1)


def _shared_fixtures(item: pytest.Item) -> set[str]:
    """The module- and session-scoped fixtures of this project that `item` uses."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return set()
    return {
        name
        for name, definitions in info.name2fixturedefs.items()
        if definitions
        and definitions[-1].scope in ("module", "session")
        and definitions[-1].baseid  # "" for pytest's and plugins' own fixtures
    }


def _groups(long: list[pytest.Item]) -> list[list[pytest.Item]]:
    """`long` in groups of tests joined by a shared fixture, in order of first member."""
    groups: list[tuple[set[str], list[pytest.Item]]] = []
    for item in long:
        names = _shared_fixtures(item)
        joined = [g for g in groups if names & g[0]]
        if not joined:
            groups.append((set(names), [item]))
            continue
        first = joined[0]
        for other in joined[1:]:
            first[0].update(other[0])
            first[1].extend(other[1])
            groups.remove(other)
        first[0].update(names)
        first[1].append(item)
    return [members for _, members in groups]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = getattr(config, "workerinput", {}).get("workercount") or 1
    ordered = sorted(items, key=_rank)  # stable: collection order within a rank
    cut = sum(_rank(item) <= len(LONGEST) for item in ordered)
    long, short = ordered[:cut], ordered[cut:]
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    weights = [0] * workers
    for group in _groups(long):
        lightest = weights.index(min(weights))
        shares[lightest] += group
        weights[lightest] += sum(LONGEST_WEIGHT if i.nodeid in LONGEST else 1 for i in group)
    size = len(items) // workers  # the first share of xdist's split (the last takes the rest)
    result: list[pytest.Item] = []
    for share in shares:
        take = max(0, size - len(share))
        result += share + short[:take]
        short = short[take:]
    items[:] = result + short


ROOT = Path(__file__).resolve().parents[1]
LIVE_RELEASE_DATE = date(2026, 10, 22)
"""The release date of the one build of the live catalogue (`live_site`)."""


@pytest.fixture(scope="session")
def live() -> Gathered:
    """The live catalogue (records/), gathered once per test process: every test that
    reads it shares this one. Editors add records every day: no test pins its size."""
    return gather(ROOT / RECORDS_DIR, ROOT)


@pytest.fixture(scope="session")
def live_catalogue(live: Gathered) -> Catalogue:
    return live.catalogue


@pytest.fixture(scope="session")
def live_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the live catalogue, built once per test run (`LIVE_RELEASE_DATE`):
    under pytest-xdist the first worker to ask builds it into the run's shared folder,
    under a lock, and the others read that build. Tests only read it."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, shared by its workers
    site = base / "live-site"
    with (base / "live-site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (site / "index.html").is_file():
                build_site(ROOT, site, release_date=LIVE_RELEASE_DATE)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return site
