"""The live catalogue (records/) is read through the session fixtures here only: `live` and
`live_catalogue` (gathered once per test process) and `live_site` (built once per run).

There is no custom test order (issue 26): a hook here ordered the tests for pytest-xdist
(the longest at the head of each worker's share, tests that share a module or session
fixture kept together, `--dist worksteal`). It showed no gain on 2 workers over the 20
files that hold every `slow` test and both of its longest ones (240 tests, a shared
machine): 471 s and 423 s with it (load average 3.3-4.5, then 5.6-6.4), 431 s with
xdist's own `--dist load` in collection order (4.5-7.4); so it was removed.
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
