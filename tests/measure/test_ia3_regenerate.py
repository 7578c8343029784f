"""A committed IA3 run's records, written again from its committed raw logs, byte for byte.

The four 10,000-step runs of 20261130-ia3-2015 (with the machine files attached and the two
loss-compared runs, as they were recorded) are written into a copy of the catalogue that
lacks the run's records. The files must equal the snapshot under
fixtures/ia3_regenerated/, taken from the record code before it was split into modules
(written again when IA3 moved onto measure/builder.py: the same content, read back as
YAML, with `added` last and `missing_metadata` before `limitations`, the builder's order);
a change to the record code that alters what a run's records say fails here, and whoever
makes it on purpose writes the snapshot again (the test says how).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from measure.ia3.records import write

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]
RUN_ID = "20261130-ia3-2015"
RAW = REPO / "artifacts" / "measurements" / RUN_ID
SNAPSHOT = Path(__file__).parent / "fixtures" / "ia3_regenerated"
WRITE_SNAPSHOT = "REWIRE_WRITE_IA3_SNAPSHOT"
MACHINE = (
    "a 2-GPU NVIDIA H200 machine (workplace kind nvidia-h200-x2, 32 CPU cores), each "
    "10,000-step run alone on the host"
)
NOTE = "Fast path: torch.compile mode reduce-overhead (CUDA graphs), as recorded."
LOGS = [
    RAW / f"{setup}-10000steps.json"
    for setup in ("nt-500m-1gpu", "nt-500m-2gpu", "nt-2-5b-1gpu", "nt-2-5b-2gpu")
]
ATTACH = [
    (RAW / "nvidia-smi.csv", "nvidia-smi listing of the machine"),
    (RAW / "topo.txt", "nvidia-smi topo -m of the machine"),
    (RAW / "versions.txt", "package versions, CPU count and memory of the machine"),
]
LOSS_CHECKS = [
    ("compile-default-1gpu", RAW / "nt-2-5b-1gpu-300steps-compile-default.json"),
    ("reduce-overhead-1gpu-rerun", RAW / "nt-2-5b-1gpu-300steps-warm-cache.json"),
    ("reduce-overhead-1gpu", RAW / "nt-2-5b-1gpu-10000steps.json"),
]


def regenerate(root: Path) -> list[Path]:
    """Write the run's records under `root` (a copy of the catalogue without them)."""
    shutil.copytree(
        REPO / "records",
        root / "records",
        ignore=lambda _d, names: [n for n in names if n.startswith(f"rewire-{RUN_ID}-c")
                                  or n.startswith(f"rewire-{RUN_ID}-e")],
    )  # fmt: skip
    return write(
        LOGS,
        root,
        RUN_ID,
        MACHINE,
        note=NOTE,
        git_commit="d7de1484cc9755070751d7f7b4a742f276903858",
        attach=ATTACH,
        loss_checks=LOSS_CHECKS,
    )


def test_a_committed_run_is_written_again_byte_for_byte(tmp_path: Path) -> None:
    written = regenerate(tmp_path)
    assert len(written) == 8  # (configuration, evaluation) x 4 setups; dataset exists
    if os.environ.get(WRITE_SNAPSHOT) == "1":
        shutil.rmtree(SNAPSHOT, ignore_errors=True)
        SNAPSHOT.mkdir(parents=True)
        for path in written:
            shutil.copyfile(path, SNAPSHOT / path.name)
    expected = sorted(p.name for p in SNAPSHOT.glob("*.yaml"))
    assert sorted(p.name for p in written) == expected, f"set {WRITE_SNAPSHOT}=1 to write it"
    for path in written:
        assert path.read_bytes() == (SNAPSHOT / path.name).read_bytes(), path.name
