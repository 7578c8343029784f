"""Suite-wide order of the tests, for a short wall time under pytest-xdist (`-n 2`).

pyproject's addopts choose `--dist worksteal`: each of the N workers is first given one
contiguous Nth of the ordered tests, and a worker that runs out takes the untouched end
of another's share. So the long tests go first in each share, where nothing can take
them and they overlap the short ones, and the end of every share is short tests that
balance the finish. The long tests are those in LONGEST (slowest first), then every test
marked `slow`; they are dealt out in turn to the head of each share. Without xdist the
order changes nothing.
"""

from __future__ import annotations

import pytest

LONGEST = (
    # DeepSpeed compiles its CPU Adam op with g++ (cold: about 70 s on two cores).
    "tests/measure/test_worker.py::test_zero2_offload_stage_runs_deepspeed_cpu_adam",
    # 100,000 record files written, then validated by `rewire validate`.
    "tests/test_input_limits.py::test_100000_records_validate_in_a_bounded_run",
)
"""Node ids of the slowest tests, slowest first (a renamed test only loses its place)."""


def _rank(item: pytest.Item) -> int:
    if item.nodeid in LONGEST:
        return LONGEST.index(item.nodeid)
    return len(LONGEST) + (0 if item.get_closest_marker("slow") is not None else 1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = getattr(config, "workerinput", {}).get("workercount") or 1
    ordered = sorted(items, key=_rank)  # stable: collection order within a rank
    cut = sum(_rank(item) <= len(LONGEST) for item in ordered)
    long, short = ordered[:cut], ordered[cut:]
    shares = [long[i::workers] for i in range(workers)]
    size = len(items) // workers  # the first share of xdist's split (the last takes the rest)
    result: list[pytest.Item] = []
    for share in shares:
        take = max(0, size - len(share))
        result += share + short[:take]
        short = short[take:]
    items[:] = result + short
