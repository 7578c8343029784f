"""derive/label_gaps.py and `rewire cross-source` (render/closing_note.py) on the scenario
`tests/fixtures/cross_source`: bench B names a model no record carries (Mystery-LM), a
model only at family level (FixtureLM-any, with the family's reason) and a task no
dataset carries (unknown_task)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from entry_point import rewire_script
from scenarios import load_scenario

from rewire_site.derive.label_gaps import LabelGap, label_gaps, source_counts

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "cross_source"


def test_every_label_without_a_pinned_checkpoint_or_task_is_listed_with_why() -> None:
    catalogue = load_scenario("cross_source")
    assert label_gaps(catalogue) == (
        LabelGap(
            "bench-b",
            "model_family_only",
            "FixtureLM-any",
            1,
            ("cs-table-b",),
            "cs-family",
            "The benchmark names the model, not which checkpoint (test fixture).",
        ),
        LabelGap("bench-b", "model_unmapped", "Mystery-LM", 1, ("cs-table-b",)),
        LabelGap("bench-b", "task_unmapped", "unknown_task", 1, ("cs-table-b",)),
    )
    counts = {c.source: (c.rows, c.values) for c in source_counts(catalogue)}
    assert counts == {"bench-a": (4, 8), "bench-b": (6, 9), "bench-c": (1, 2), "bench-d": (1, 1)}


def test_the_command_prints_disagreements_conflicts_and_gaps() -> None:
    done = subprocess.run(
        [rewire_script(), "cross-source", "--root", str(FIXTURE)],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Cross-source disagreements larger than the stated spread: 3 of 5")
    assert sum(line.startswith("- Fixture H3") for line in lines) == 4  # 3 + 1 conflict
    assert "Conflicts within one source: 1." in lines
    assert "- bench-b: 1 table, 6 rows, 9 values" in lines
    gaps = [line for line in lines if line.startswith("- bench-b, ")]
    assert gaps == [
        "- bench-b, models no record names (no family or checkpoint carries the label): "
        "Mystery-LM (1 row)",
        "- bench-b, models known only at family level (checkpoint not pinned): FixtureLM-any "
        "(1 row) -> cs-family: The benchmark names the model, not which checkpoint (test "
        "fixture).",
        "- bench-b, tasks no dataset record names: unknown_task (1 row)",
    ]
