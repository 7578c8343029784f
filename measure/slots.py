"""The one GPU-slot scheduler of measure/: a queue of jobs, one process per job on each slot
(a GPU index, the same index more than once for several processes on one GPU, or 'cpu'),
started as slots free up, stopped when it outlives its timeout. The runners of the
peak-memory and memory-curve recipes (memory curves, throughput, published claims) call it;
`env.gpu_slots` says which slots a run has.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass
class Running(Generic[T]):
    """The process a slot runs and the job it runs for."""

    job: T
    process: subprocess.Popen[bytes]
    started: float


def first(queue: list[T]) -> T | None:
    """The default choice: the queue's first job."""
    return queue[0] if queue else None


def run_on_slots(
    queue: list[T],
    slots: Sequence[str],
    *,
    launch: Callable[[str, T], subprocess.Popen[bytes]],
    ended: Callable[[str, T, bool], None],
    timeout_s: float,
    pick: Callable[[list[T]], T | None] = first,
    admit: Callable[[T], bool] = lambda job: True,
    poll_s: float = 0.2,
) -> None:
    """Run every job of `queue` (emptied as jobs start) on `slots`, one process a slot at a
    time; a slot is named 'INDEX:SLOT' ('0:0', '1:0' for two processes on GPU 0; `gpu_of`
    reads the GPU back). `pick` chooses the next job among those left (None: none may start
    yet); `admit` may turn a picked job away (a time budget: it is dropped, and says so
    itself); `launch(slot, job)` starts its process; `ended(slot, job, timed_out)` is called
    once the process has exited, or was killed after `timeout_s` seconds (timed_out true)."""
    running: dict[str, Running[T] | None] = {f"{i}:{s}": None for i, s in enumerate(slots)}
    while queue or any(running.values()):
        for slot, current in running.items():
            if current is not None:
                done = current.process.poll() is not None
                late = time.monotonic() - current.started >= timeout_s
                if not done and not late:
                    continue
                if not done:
                    current.process.kill()
                    current.process.wait()
                ended(slot, current.job, not done)
                running[slot] = None
            while running[slot] is None and queue:
                job = pick(queue)
                if job is None:
                    break
                queue.remove(job)
                if admit(job):
                    running[slot] = Running(job, launch(slot, job), time.monotonic())
        time.sleep(poll_s)


def gpu_of(slot: str) -> str:
    """The GPU index (or 'cpu') of a slot named 'INDEX:SLOT'."""
    return slot.split(":", 1)[1]


__all__ = ["Running", "first", "gpu_of", "run_on_slots"]
