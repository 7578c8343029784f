"""measure/slots.py: the one GPU-slot scheduler of the peak-memory and memory-curve runners,
with real processes (a Python interpreter that sleeps or exits)."""

from __future__ import annotations

import subprocess
import sys
import time

from measure.slots import gpu_of, run_on_slots


def _sleep(seconds: float) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({seconds})"])


def test_every_job_runs_once_and_a_slot_runs_one_process_at_a_time() -> None:
    busy: dict[str, int] = {}
    most: dict[str, int] = {}
    ended: list[tuple[str, int, bool]] = []

    def launch(slot: str, job: int) -> subprocess.Popen[bytes]:
        busy[slot] = busy.get(slot, 0) + 1
        most[slot] = max(most.get(slot, 0), busy[slot])
        return _sleep(0.05)

    def done(slot: str, job: int, timed_out: bool) -> None:
        busy[slot] -= 1
        ended.append((slot, job, timed_out))

    queue = list(range(6))
    run_on_slots(queue, ["0", "0", "1"], launch=launch, ended=done, timeout_s=30, poll_s=0.01)
    assert queue == []
    assert sorted(job for _, job, _ in ended) == list(range(6))
    assert set(most) == {"0:0", "1:0", "2:1"} and set(most.values()) == {1}
    assert [gpu_of(slot) for slot in sorted(most)] == ["0", "0", "1"]
    assert not any(timed_out for _, _, timed_out in ended)


def test_a_process_past_its_timeout_is_killed_and_said_so() -> None:
    ended: list[tuple[int, bool]] = []
    start = time.monotonic()
    run_on_slots(
        [1, 2],
        ["cpu"],
        launch=lambda slot, job: _sleep(30 if job == 1 else 0),
        ended=lambda slot, job, timed_out: ended.append((job, timed_out)),
        timeout_s=0.3,
        poll_s=0.01,
    )
    assert ended == [(1, True), (2, False)]
    assert time.monotonic() - start < 10


def test_pick_may_hold_jobs_back_and_admit_may_drop_them() -> None:
    started: list[str] = []
    ready = {"held": False}

    def pick(left: list[str]) -> str | None:
        ready["held"] = ready["held"] or started == ["a"]
        return next((j for j in left if j != "held" or ready["held"]), None)

    def launch(slot: str, job: str) -> subprocess.Popen[bytes]:
        started.append(job)
        return _sleep(0)

    run_on_slots(
        ["held", "a", "dropped"],
        ["0"],
        launch=launch,
        ended=lambda *_: None,
        timeout_s=30,
        pick=pick,
        admit=lambda job: job != "dropped",
        poll_s=0.01,
    )
    assert started == ["a", "held"]
