"""measure/run_logs.py: the one reading of worker logs that runners (what is left to run)
and record writers (what to record) share."""

from __future__ import annotations

import json
from pathlib import Path

from measure.run_logs import finished_logs, read_status


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_log_that_cannot_be_read_has_no_status(tmp_path: Path) -> None:
    assert read_status(tmp_path / "missing.json") is None
    assert read_status(_write(tmp_path, "cut.json", '{"status": "val')) is None
    assert read_status(_write(tmp_path, "list.json", "[1, 2]")) is None
    assert read_status(_write(tmp_path, "none.json", '{"item": "a"}')) is None
    assert read_status(_write(tmp_path, "ok.json", '{"status": "out_of_memory"}')) == (
        "out_of_memory"
    )


def test_only_finished_logs_are_read_for_records_in_the_order_given(tmp_path: Path) -> None:
    """A value or out of memory finished; an error, a running item, a cut-off or missing
    file did not (a resumed run runs them again)."""
    paths = [
        _write(tmp_path, f"{name}.json", json.dumps({"status": status, "item": name}))
        for name, status in (("b", "value"), ("a", "error"), ("c", "out_of_memory"))
    ]
    paths += [_write(tmp_path, "cut.json", "{"), tmp_path / "missing.json"]
    found = list(finished_logs(paths))
    assert [(path.name, log["item"]) for path, log in found] == [("b.json", "b"), ("c.json", "c")]
